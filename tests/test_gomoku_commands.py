"""The benchmark and match commands run end to end and print their figures."""

import re
import subprocess

from conftest import DATA, sanqi_command


def run(args: list[str], timeout: float = 120) -> str:
    done = subprocess.run(sanqi_command() + args, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


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
    assert "sanqi black" in out and "sanqi white" in out
    m = re.search(r"score ([\d.]+)/2 ", out)
    assert m and 0 <= float(m.group(1)) <= 2
    records = sorted(tmp_path.glob("*.psq"))
    assert len(records) == 2 and records[0].read_text().startswith("Piskvorky 15x15")
