"""``sanqi match`` and ``sanqi bench xiangqi``: every mistake is one line on stderr and status 2, help gives each default."""

import subprocess

import pytest

from conftest import sanqi_command
from ucci_engine import match


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(sanqi_command() + args, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def one_line_status_2(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert done.stdout == ""
    return line


@pytest.mark.parametrize(
    "args,says",
    [
        (["xiangqi-match", "--tc", "abc"], "'abc' is not a time control like 10+0.1"),
        (["xiangqi-match", "--tc", "0+0.1"], "'0+0.1' is not a time control"),
        (["xiangqi-match", "--tc", "10+-1"], "'10+-1' is not a time control"),
        (["xiangqi-match", "--peer", "/nonexistent"], "no program '/nonexistent' to run"),
        (["xiangqi-match", "--engine", "/nonexistent --flag"], "no program '/nonexistent' to run"),
        (["xiangqi-match", "--peer-option", "foo"], "'foo' is not NAME=VALUE"),
        (["xiangqi-match", "--games", "0"], "'0' is not a whole number of at least 1"),
        (["xiangqi-match", "--concurrency", "-1"], "'-1' is not a whole number of at least 1"),
        (["xiangqi-match", "--max-plies", "x"], "'x' is not a whole number of at least 1"),
        (["xiangqi-match", "--openings", "/nonexistent"], "cannot read the file '/nonexistent'"),
        (["bench", "xiangqi", "--depth", "0"], "'0' is not a whole number of at least 1"),
        (["bench", "xiangqi", "--depth", "-3"], "'-3' is not a whole number of at least 1"),
        (["bench", "xiangqi", "--perft", "99"], "'99' is over 8"),
        (["bench", "xiangqi", "--peer", "/nonexistent"], "no program '/nonexistent' to run"),
        (["bench", "xiangqi", "--peer-depth", "8"], "1 --peer-depth for 0 --peer"),
        (["bench", "xiangqi", "--records", "/nonexistent"], "cannot read the file '/nonexistent'"),
        (["bench", "xiangqi", "--records", "README.md", "--perft", "2"], "no --peer or --perft with it"),
    ],
)
def test_a_mistake_is_one_line_and_status_2(args: list[str], says: str) -> None:
    line = one_line_status_2(run(args))
    assert line.startswith(f"sanqi {args[0]}") and says in line, line


def test_bench_searches_one_side_of_a_recorded_game(tmp_path) -> None:
    record = tmp_path / "game.pgn"
    record.write_text('[Game "Chinese Chess"]\n[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]\n'
                      '[Result "*"]\n\n1. H2-E2 H9-G7\n2. H0-G2 I9-H9\n*\n')
    done = run(["bench", "xiangqi", "--records", str(record), "--depth", "2"])
    assert done.returncode == 0, done.stderr
    assert ": 3 positions of 1 games to depth 2" in done.stdout  # plies 0, 2 and 4: red's moves
    nodes = [line for line in done.stdout.splitlines() if line.startswith("Nodes searched")]
    assert int(nodes[0].split(":")[1]) > 0


def test_an_openings_file_with_an_impossible_position_is_refused(tmp_path) -> None:
    path = tmp_path / "openings.fen"
    path.write_text("# one good line, one impossible\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n4k4/9/9/9/B8/9/9/9/9/3K5 w\n")
    line = one_line_status_2(run(["xiangqi-match", "--openings", str(path)]))
    assert "a red elephant cannot stand on a5" in line


def test_a_missing_default_peer_is_named(monkeypatch, capsys) -> None:
    monkeypatch.setattr(match, "FAIRY_STOCKFISH", "/nonexistent/fairy-stockfish")
    with pytest.raises(SystemExit) as done:
        match.main(["--games", "1"])
    assert done.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "--peer" in line and "/nonexistent/fairy-stockfish" in line


def test_match_help_documents_every_option_with_its_default() -> None:
    done = run(["xiangqi-match", "--help"])
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for option, default in [("--games", "20"), ("--tc", "10+0.1"), ("--peer", match.FAIRY_STOCKFISH), ("--peer-option", "none"),
                            ("--engine", "the sanqi beside this one"), ("--concurrency", "1"), ("--max-plies", "300"),
                            ("--openings", "sanqi match's balanced openings")]:
        assert option in text and f"(default: {default})" in text, option
