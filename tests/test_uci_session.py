"""UCI (Pikafish-style, squares a0–i9) over pipes against the installed ``sanqi``: what only UCI has (MultiPV,
mate scores, clocks by colour, searchmoves, Skill Level). What UCCI does alike is in
``tests/test_xiangqi_session.py``."""

from conftest import Session, greeted, plays_legally
from ucci_engine.position import START_FEN
from ucci_engine.protocol import UciProtocol


def uci(make) -> Session:
    return greeted(make, "uci", "uciok")


def test_scores_pv_and_multipv(session_factory) -> None:
    s = uci(session_factory)
    s.send("setoption name MultiPV value 3")
    s.send("ucinewgame")
    s.send("isready")
    s.expect("readyok")
    s.send("position startpos moves h2e2")
    s.send("go depth 3")
    line, before = s.expect("bestmove")
    last = [b for b in before if b.startswith("info depth 3 ")]
    assert [b.split()[b.split().index("multipv") + 1] for b in last] == ["1", "2", "3"]
    assert all(" score cp " in b and " pv " in b for b in last)
    assert len({b.split(" pv ")[1].split()[0] for b in last}) == 3
    assert plays_legally(START_FEN, ["h2e2"], line.split()[1])


def test_mate_scores(session_factory) -> None:
    s = uci(session_factory)
    s.send("position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1")
    s.send("go depth 3")
    _, before = s.expect("bestmove")
    assert any(" score mate 1 " in b for b in before)
    s.send("position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 b - - 0 1")
    s.send("go depth 4")
    _, before = s.expect("bestmove")
    assert any(" score mate -1 " in b for b in before)


def test_the_clock_of_the_side_to_move_is_used() -> None:
    uci = UciProtocol()
    uci.engine.set_position(START_FEN, ["h2e2"])  # black to move
    go = uci.parse_go(["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20", "movestogo", "7"])
    assert (go.left, go.opp_left, go.inc, go.movestogo) == (2000, 1000, 20, 7)
    limits = uci.engine.limits_for(uci.parse_go(["movetime", "300"]))
    assert limits.hard_ms <= 300 - uci.engine.time.overhead


def test_searchmoves_restricts_the_root(session_factory) -> None:
    s = uci(session_factory)
    s.send("position startpos")
    s.send("go depth 3 searchmoves a0a1 i3i4")
    assert s.expect("bestmove")[0].split()[1] in ("a0a1", "i3i4")


def test_skill_level_still_plays_legal_moves(session_factory) -> None:
    s = uci(session_factory)
    for option in ("Skill Level value 0", "Move Overhead value 100", "Hash value 4", "Threads value 1", "Ponder value true",
                   "Clear Hash"):
        s.send(f"setoption name {option}")
    s.send("position startpos")
    s.send("go depth 5")
    assert plays_legally(START_FEN, [], s.expect("bestmove")[0].split()[1])
