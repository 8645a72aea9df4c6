"""What UCCI and UCI do alike, over pipes against the installed ``sanqi``: one test a behaviour, run in each
dialect, with what the two say differently in one table (:data:`DIALECTS`). What only one dialect has is in
``tests/test_ucci_session.py`` and ``tests/test_uci_session.py``."""

import re
from dataclasses import dataclass

import pytest

from conftest import Session, greeted, plays_legally
from ucci_engine.position import START_FEN

SLOW = 60  # seconds: how long a loaded machine may take to answer, far above the usual


@dataclass(frozen=True)
class Dialect:
    """One dialect's words for what both do."""

    hello: str  # the handshake, and its last line
    ok: str
    options: frozenset[str]  # option names the handshake announces
    clocks: tuple[str, ...]  # every form of clock ``go`` takes (with the option lines that change its units)
    ponder: tuple[str, ...]  # the lines that start pondering on the opponent's time
    endless: tuple[str, ...]  # the ``go`` forms that think until ``stop``
    bad_numbers: tuple[str, ...]  # ``go`` lines with a number Python reads but the protocol does not
    bad_lines: tuple[str, ...]  # lines refused with an error
    perft: tuple[str, str, str]  # a position, the count of ``go perft 3`` from it, and ``d``'s FEN line
    takes_position_while_thinking: bool  # UCI: a position sent while thinking is for the next go
    no_move: str  # the answer of a go in a position without a legal move
    idle_stop: tuple[str, ...]  # the answer of a stop when nothing is thinking
    bye: tuple[str, ...]  # the last lines, after quit
    depth_lines: tuple[str, ...]  # what ``go depth 3`` prints before its bestmove: a line matching each pattern


UCCI = Dialect(
    hello="ucci",
    ok="ucciok",
    options=frozenset({"usemillisec", "batch", "debug", "ponder", "usebook", "hashsize", "threads", "newgame",
                       "randomness", "style"}),
    clocks=("go time 2 increment 0", "go time 1 movestogo 1 opptime 1 oppmovestogo 1", "setoption usemillisec true",
            "go time 400 movestogo 1 opptime 400 oppmovestogo 1",
            "go time 3000 increment 100 opptime 3000 oppincrement 100"),
    ponder=("setoption usemillisec true", "go ponder time 1000 increment 0"),
    endless=("go depth infinite", "go", "go infinite"),
    bad_numbers=("go time 10 oppincrement \u00b2", "go depth \u2462", "go time 1e3 increment nan", "go nodes 5 movestogo"),
    bad_lines=(
        "position fen rnbakabnr/9/1c5c1 w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "position startpos moves h2e2 h9g7 e2e9",
        "position startpos moves zzzz",
        "position",
        "go depth banana",
        "go time",
        "fly to the moon",
    ),
    perft=("position startpos", "79666", START_FEN),
    takes_position_while_thinking=False,
    no_move="nobestmove",
    idle_stop=("nobestmove",),
    bye=("bye",),
    depth_lines=(r"info depth 3 score -?\d+ pv \w+", r"info time \d+ nodes \d+"),
)
UCI = Dialect(
    hello="uci",
    ok="uciok",
    options=frozenset({"Hash", "Threads", "Ponder", "MultiPV", "Move Overhead", "Clear Hash", "Skill Level"}),
    clocks=("go wtime 3000 btime 3000 winc 100 binc 100", "go movetime 300", "go wtime 500 btime 500 movestogo 1",
            "go nodes 1500"),
    ponder=("go ponder wtime 1000 btime 1000",),
    endless=("go infinite", "go"),
    bad_numbers=("go wtime 1000 winc \u00b2", "go btime \u2462", "go movetime inf5", "go depth 3 nodes"),
    bad_lines=("setoption name Bogus value 3", "setoption Hash 3", "position fen 9/9 w", "position startpos moves e0e9",
               "go depth x", "go searchmoves h9h8", "xyzzy"),
    perft=("position fen 4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", "3707",
           "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1"),
    takes_position_while_thinking=True,
    no_move="bestmove (none)",
    idle_stop=(),
    bye=(),
    depth_lines=(r"info depth 3 seldepth \d+ multipv 1 score cp -?\d+ nodes \d+ nps \d+ hashfull \d+ time \d+ pv \w+",),
)


@pytest.fixture(params=[pytest.param(UCCI, id="ucci"), pytest.param(UCI, id="uci")])
def d(request) -> Dialect:
    """Each dialect in turn: a test that asks for ``d`` runs in both."""
    return request.param


@pytest.fixture
def s(session_factory, d: Dialect) -> Session:
    """A new session that has answered the dialect's handshake."""
    return greeted(session_factory, d.hello, d.ok)


def option_name(line: str) -> str:
    """``option usemillisec type check …`` → 'usemillisec'; ``option name Move Overhead type spin …`` → 'Move Overhead'."""
    words = line.split()[1:]
    words = words[1:] if words[0] == "name" else words
    return " ".join(words[: words.index("type")])


def lines_until_the_end(s: Session) -> list[str]:
    lines = []
    while (line := s.read(SLOW)) is not None:
        lines.append(line)
    return lines


def test_the_handshake_announces_the_options_before_its_last_line(session_factory, d: Dialect) -> None:
    s = session_factory()
    s.send(d.hello)
    _, lines = s.expect(d.ok)
    assert {option_name(line) for line in lines if line.startswith("option ")} >= d.options
    assert any(line.startswith("id author") for line in lines)


def test_go_depth_prints_its_lines_and_a_legal_bestmove(s: Session, d: Dialect) -> None:
    s.send("position startpos moves h2e2 h9g7")
    s.send("go depth 3")
    line, before = s.expect("bestmove")
    assert all(any(re.match(pattern, b) for b in before) for pattern in d.depth_lines), before
    assert plays_legally(START_FEN, ["h2e2", "h9g7"], line.split()[1])


def test_every_clock_form_gets_a_legal_move(s: Session, d: Dialect) -> None:
    s.send("position startpos moves h2e2 h9g7")
    for line in d.clocks:
        s.send(line)
        if line.startswith("go "):
            assert plays_legally(START_FEN, ["h2e2", "h9g7"], s.expect("bestmove", timeout=SLOW)[0].split()[1])


def test_an_endless_go_thinks_until_stop(s: Session, d: Dialect) -> None:
    s.send("position startpos")
    for go in d.endless:
        s.send(go)
        assert not [line for line in s.quiet(0.4) if line.startswith("bestmove")], go
        s.send("stop")
        assert plays_legally(START_FEN, [], s.expect("bestmove")[0].split()[1])


def test_ponder_then_ponderhit(s: Session, d: Dialect) -> None:
    s.send("position startpos moves h2e2")
    for line in d.ponder:
        s.send(line)
    assert not [line for line in s.quiet(1.5) if line.startswith("bestmove")]  # the clock is not running
    s.send("ponderhit")
    line, _ = s.expect("bestmove", timeout=SLOW)
    assert plays_legally(START_FEN, ["h2e2"], line.split()[1])


def test_a_bad_number_starts_no_search(s: Session, d: Dialect) -> None:
    s.send("position startpos")
    for bad in d.bad_numbers:
        s.send(bad)
        s.expect("info string error")
    s.send("stop")  # idle: nothing was started by the refused go commands
    s.send("isready")
    _, before = s.expect("readyok")
    assert tuple(before) == d.idle_stop


def test_bad_input_gets_an_error_and_the_engine_keeps_its_position(s: Session, d: Dialect) -> None:
    s.send("position startpos moves h2e2")
    for cmd in d.bad_lines:
        s.send(cmd)
        s.expect("info string error", timeout=5)
    s.send("position fen 4k4/9/9/9/B8/9/9/9/9/3K5 w")  # a position no game reaches
    s.expect("info string error bad FEN: a red elephant cannot stand on a5; keeping the previous position")
    s.send(b"\xff\xfe garbage \x00\x01\r\n")
    s.expect("info string error")
    s.send(b"\r\n")
    s.send(b"\n")
    s.send(b"isready\r\n")
    _, before = s.expect("readyok")
    assert not before  # blank lines are ignored, CRLF is just an end of line
    s.send("d")
    assert s.expect("FEN:")[0].startswith("FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
    s.send("go depth 99999 nodes 2000")
    line = s.expect("bestmove")[0]
    assert plays_legally(START_FEN, ["h2e2"], line.split()[1])  # still the last valid position


def test_perft_and_board_display(s: Session, d: Dialect) -> None:
    position, count, fen = d.perft
    s.send(position)
    s.send("go perft 3")
    assert s.expect("Nodes searched:", timeout=SLOW)[0] == f"Nodes searched: {count}"
    s.send("d")
    assert s.expect("FEN:")[0] == f"FEN: {fen}"


def test_a_position_sent_while_thinking(s: Session, d: Dialect) -> None:
    """UCCI refuses it; UCI, as Stockfish-family engines do, keeps it for the next go. Either way the
    running search keeps its own position."""
    s.send("position startpos")
    s.send("go infinite")
    s.send("position startpos moves h2e2")  # black to move: no move of the running search is legal here
    s.send("isready")
    _, before = s.expect("readyok")
    refused = [b for b in before if b.startswith("info string error position is not allowed while thinking")]
    assert len(refused) == (0 if d.takes_position_while_thinking else 1)
    s.send("stop")
    line, before = s.expect("bestmove")
    assert not [b for b in before if "error" in b]
    assert plays_legally(START_FEN, [], line.split()[1])  # the running search kept its position
    s.send("go depth 1")
    moves = ["h2e2"] if d.takes_position_while_thinking else []
    assert plays_legally(START_FEN, moves, s.expect("bestmove")[0].split()[1])


def test_a_go_while_thinking_is_refused_and_one_bestmove_comes(s: Session, d: Dialect) -> None:
    s.send("position startpos")
    s.send("go infinite")
    s.send("go depth 1")
    s.expect("info string error go is not allowed while thinking")
    assert not [line for line in s.quiet(0.5) if line.startswith("bestmove")]
    s.send("stop")
    s.send("isready")
    _, before = s.expect("readyok")
    assert len([b for b in before if b.startswith("bestmove")]) == 1
    s.send("go depth 1")  # a go right after the stop is taken
    s.expect("bestmove")


def test_no_legal_move_an_idle_stop_and_quit(s: Session, d: Dialect) -> None:
    s.send("position fen 3k5/R8/9/9/4R4/9/9/9/9/5K3 b - - 0 1")  # stalemated: black has lost
    s.send("go depth 3")
    assert s.expect(d.no_move)[0] == d.no_move
    s.send("stop")
    s.send("isready")
    assert tuple(s.expect("readyok")[1]) == d.idle_stop
    s.send("quit")
    assert s.proc.wait(5) == 0
    assert tuple(lines_until_the_end(s)) == d.bye


def test_perft_is_a_job_that_isready_stop_and_quit_reach(s: Session, d: Dialect) -> None:
    s.send("go perft 99")
    s.expect("info string perft 99 taken as perft 8")
    s.send("isready")
    s.expect("readyok", timeout=SLOW)
    s.send("go depth 1")
    s.expect("info string error go is not allowed while thinking")
    s.send("stop")
    s.expect("info string perft stopped", timeout=SLOW)
    s.send("go perft 2")
    assert s.expect("Nodes searched:", timeout=SLOW)[0] == "Nodes searched: 1920"
    s.send("go perft 8")
    s.send("quit")
    assert s.proc.wait(SLOW) == 0
