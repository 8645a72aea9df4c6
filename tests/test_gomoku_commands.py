"""The benchmark and match commands run end to end and print their figures."""

import re
import subprocess

import pytest

from conftest import DATA, sanqi_command


def run(args: list[str], timeout: float = 120) -> str:
    done = subprocess.run(sanqi_command() + args, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_runs_from_the_packaged_positions() -> None:
    out = run(["bench", "gomoku", "--repeat", "1", "--ms", "100"])
    assert len(re.findall(r"^forbidden scan +\d+ ", out, re.M)) == 16
    assert len(re.findall(r"^vcf \d .*first [a-o]\d+", out, re.M)) == 5


@pytest.mark.parametrize("args, says", [
    (["gomoku-match", "--openings", "/nonexistent"], "cannot read the file '/nonexistent'"),
    (["gomoku-match", "--size", "3"], "--size: '3' is not a whole number of at least 5"),
    (["gomoku-match", "--size", "23"], "--size: '23' is over 22"),
    (["gomoku-match", "--ms", "-5"], "--ms: '-5' is not a whole number of at least 1"),
    (["gomoku-match", "--games", "0"], "--games: '0'"),
    (["gomoku-match", "--rule", "99"], "--rule: '99' is over 15"),
    (["gomoku-match", "--style", "reckless"], "--style: invalid choice"),
    (["gomoku-match", "--openings", str(DATA / "gomoku" / "renju_vcf.json")], "renju_vcf.json:1: line 1: expected pairs of whole numbers"),
    (["bench", "gomoku", "--reference", "/nonexistent"], "cannot read the positions of"),
    (["bench", "gomoku", "--repeat", "0"], "--repeat: '0'"),
])
def test_command_line_mistakes_are_one_line_and_status_2(args: list[str], says: str) -> None:
    done = subprocess.run(sanqi_command() + args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_openings_that_do_not_fit_the_board_are_refused(tmp_path) -> None:
    far = tmp_path / "far.txt"
    far.write_text("0,0, 9,9\n")
    done = subprocess.run(sanqi_command() + ["gomoku-match", "--size", "15", "--openings", str(far)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("sanqi gomoku-match: error:") and "no opening for a 15x15 board in it that fits" in done.stderr


def test_help_shows_every_default() -> None:
    out = run(["gomoku-match", "--help"])
    for default in ("(default: 40)", "(default: 15)", "(default: 0)", "(default: 500)", "(default: balanced)",
                    "openings.txt)", "(default: none)"):
        assert default in " ".join(out.split()), default


def test_bench_reports_every_figure() -> None:
    out = run(["bench", "gomoku", "--reference", str(DATA), "--repeat", "1", "--ms", "150"])
    assert len(re.findall(r"^forbidden scan +\d+ ", out, re.M)) == 16
    assert re.search(r"forbidden scan: mean [\d.]+ ms", out)
    assert len(re.findall(r"^vcf \d .*first [a-o]\d+", out, re.M)) == 5
    assert re.search(r"search: \d+ nodes/s overall", out)


def test_match_plays_both_colours_and_scores(tmp_path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("# two stones\n0,0, 1,1\n")
    out = run(["gomoku-match", "--games", "2", "--ms", "60", "--openings", str(openings), "--psq", str(tmp_path)])
    score = re.search(r"^sanqi +2 +(\d+) +(\d+) +(\d+) ", out, re.M)
    assert score and sum(int(n) for n in score.groups()) == 2, out
    records = sorted(tmp_path.glob("*.psq"))
    assert len(records) == 2 and records[0].read_text().startswith("Piskvorky 15x15")
    assert "sanqi" in records[0].read_text() and (tmp_path / "games.sgf").read_text().count("GM[4]") == 2
