"""``sanqi referee`` command-line mistakes: one line on stderr, exit status 2, never a traceback."""

import subprocess

import pytest

from conftest import ROOT, sanqi_command

MISTAKES = {
    "print-missing-file": ["--print", "/nonexistent.jsonl"],
    "record-in-missing-folder": ["--record", "/no/dir/x.jsonl", "random"],
    "negative-games": ["--games", "-2", "random"],
    "zero-games": ["--games", "0", "random"],
    "engine-not-found": ["/no/such/engine --flag", "random"],
    "ccgc-engine-not-found": ["ccgc:no-such-junqi-engine", "random"],
    "negative-movetime": ["--movetime", "-1", "random"],
    "unknown-rule": ["--rules", "colour=red", "random"],
    "bad-engine-option": ["--engine-option", "seed", "random"],
    "engine-option-for-no-engine": ["--engine-option", "3:seed=1", "random"],
    "option-a-built-in-player-does-not-take": ["--engine-option", "colour=red", "random"],
    "seats-not-shared-evenly": ["--variant", "4p", "random", "random", "random"],
    "ccgc-in-four-player-game": ["--variant", "4p", "ccgc:sh"],
    "out-in-two-player-game": ["--variant", "2p", "random", "out"],
    "out-with-engines-sharing-seats": ["--variant", "4p", "random", "out"],
    "out-a-whole-team": ["--variant", "4p", "random", "out", "random", "out"],
    "engine-log-in-missing-folder": ["--engine-log", "/no/dir/logs", "random"],
    "no-engine": [],
}


def run_referee(args: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(sanqi_command() + ["referee", *args], capture_output=True, text=True, timeout=60, cwd=cwd)


@pytest.mark.parametrize("args", MISTAKES.values(), ids=MISTAKES.keys())
def test_mistake_is_one_line_and_status_2(args, tmp_path):
    done = run_referee(args, tmp_path)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("sanqi referee: error: ")
    assert done.stdout == ""  # refused before any game was played


def test_a_file_that_is_not_a_record(tmp_path):
    junk = tmp_path / "junk.jsonl"
    junk.write_text("this is not json\n", encoding="utf-8")
    for args in (["--print", str(junk)], ["--record", str(junk), "random"]):
        done = run_referee(args, tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "not a readable game record" in done.stderr


def test_help_shows_every_default():
    done = run_referee(["--help"], ROOT)
    assert done.returncode == 0
    for option, default in (("--games", "1"), ("--time", "600.0"), ("--movetime", "10.0"), ("--variant", "2p")):
        words = " ".join(done.stdout.split())
        assert f"{option} " in words and f"(default: {default})" in words
    assert "``" not in done.stdout
