"""The ``sanqi`` command line: help that explains itself, and one line with status 2 for every mistake."""

import subprocess

import pytest

from conftest import sanqi_command

COMMANDS = ("bench", "gomoku-match", "match", "referee", "xiangqi-match")


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(sanqi_command() + args, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_help_names_every_command_with_a_line_on_it() -> None:
    done = run(["--help"])
    assert done.returncode == 0
    for name in COMMANDS:
        (line,) = [line for line in done.stdout.splitlines() if line.split()[:1] == [name]]
        assert len(line.split()) > 3, line  # a name and a description


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_help_is_plain_text(name: str) -> None:
    done = run([name, "--help"])
    assert done.returncode == 0, done.stderr
    assert "``" not in done.stdout and ":class:" not in done.stdout


def test_bench_help_names_the_games() -> None:
    out = run(["bench", "--help"]).stdout
    assert "gomoku" in out and "xiangqi" in out and "junqi" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--protocol", "chess"],
        ["--no-such-option"],
        ["stray-word"],
        ["bench", "chess"],
    ],
)
def test_a_mistake_is_one_line_and_status_2(args: list[str]) -> None:
    done = run(args)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
