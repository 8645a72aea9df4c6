"""UCI (Pikafish-style, squares a0–i9) over pipes against the installed ``sanqi``."""

from conftest import Session, greeted, plays_legally
from ucci_engine.position import START_FEN
from ucci_engine.protocol import UciProtocol

SLOW = 60  # seconds: how long a loaded machine may take to answer, far above the usual


def uci(make) -> Session:
    return greeted(make, "uci", "uciok")


def test_handshake_lists_the_options(session_factory) -> None:
    s = session_factory()
    s.send("uci")
    _, lines = s.expect("uciok")
    options = " ".join(lines)
    for name in ("Hash", "Threads", "Ponder", "MultiPV", "Move Overhead", "Clear Hash", "Skill Level"):
        assert f"option name {name} type" in options


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


def test_clock_modes(session_factory) -> None:
    s = uci(session_factory)
    s.send("position startpos moves h2e2 h9g7")
    for go in ("go wtime 3000 btime 3000 winc 100 binc 100", "go movetime 300", "go wtime 500 btime 500 movestogo 1", "go nodes 1500"):
        s.send(go)
        assert plays_legally(START_FEN, ["h2e2", "h9g7"], s.expect("bestmove", timeout=SLOW)[0].split()[1])


def test_the_clock_of_the_side_to_move_is_used() -> None:
    uci = UciProtocol()
    uci.engine.set_position(START_FEN, ["h2e2"])  # black to move
    go = uci.parse_go(["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20", "movestogo", "7"])
    assert (go.clock.left, go.clock.opp_left, go.clock.inc, go.clock.movestogo) == (2000, 1000, 20, 7)
    limits = uci.engine.limits_for(uci.parse_go(["movetime", "300"]))
    assert limits.hard_ms <= 300 - uci.engine.overhead_ms


def test_infinite_ponder_and_searchmoves(session_factory) -> None:
    s = uci(session_factory)
    s.send("position startpos")
    s.send("go infinite")
    assert not [line for line in s.quiet(0.4) if line.startswith("bestmove")]
    s.send("stop")
    s.expect("bestmove")
    s.send("go ponder wtime 1000 btime 1000")
    assert not [line for line in s.quiet(1.2) if line.startswith("bestmove")]
    s.send("ponderhit")
    s.expect("bestmove", timeout=SLOW)
    s.send("go depth 3 searchmoves a0a1 i3i4")
    assert s.expect("bestmove")[0].split()[1] in ("a0a1", "i3i4")


def test_skill_level_still_plays_legal_moves(session_factory) -> None:
    s = uci(session_factory)
    s.send("setoption name Skill Level value 0")
    s.send("setoption name Move Overhead value 100")
    s.send("setoption name Hash value 4")
    s.send("setoption name Threads value 1")
    s.send("setoption name Ponder value true")
    s.send("setoption name Clear Hash")
    s.send("position startpos")
    s.send("go depth 5")
    assert plays_legally(START_FEN, [], s.expect("bestmove")[0].split()[1])


def test_perft_display_and_bad_input(session_factory) -> None:
    s = uci(session_factory)
    s.send("position fen 4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1")
    s.send("go perft 3")
    assert s.expect("Nodes searched:")[0] == "Nodes searched: 3707"
    for cmd in ("setoption name Bogus value 3", "setoption Hash 3", "position fen 9/9 w", "position startpos moves e0e9",
                "go depth x", "go searchmoves h9h8", "xyzzy"):
        s.send(cmd)
        s.expect("info string error")
    s.send("d")
    assert s.expect("FEN:")[0].startswith("FEN: 4kcP1N/8n/3rb4")


def test_no_legal_move_and_quit(session_factory) -> None:
    s = uci(session_factory)
    s.send("position fen 3k5/R8/9/9/4R4/9/9/9/9/5K3 b - - 0 1")  # stalemated: black has lost
    s.send("go depth 3")
    assert s.expect("bestmove")[0] == "bestmove (none)"
    s.send("quit")
    assert s.proc.wait(5) == 0


# --- issue 9: UCI during a search, as Stockfish-family engines do ------------------------------


def test_a_position_sent_while_searching_is_for_the_next_go(session_factory) -> None:
    s = uci(session_factory)
    s.send("position startpos")
    s.send("go infinite")
    s.send("position startpos moves h2e2")  # black to move: no move of the running search is legal here
    s.send("isready")
    s.expect("readyok")
    s.send("stop")
    line, before = s.expect("bestmove")
    assert not [b for b in before if "error" in b]
    assert plays_legally(START_FEN, [], line.split()[1])  # the running search kept its position
    s.send("go depth 1")
    assert plays_legally(START_FEN, ["h2e2"], s.expect("bestmove")[0].split()[1])


def test_a_go_while_searching_is_refused_and_one_bestmove_comes(session_factory) -> None:
    s = uci(session_factory)
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


def test_a_number_that_is_not_one_starts_no_search(session_factory) -> None:
    s = uci(session_factory)
    for bad in ("go wtime 1000 winc \u00b2", "go btime \u2462", "go movetime inf5", "go depth 3 nodes"):
        s.send(bad)
        s.expect("info string error")
    s.send("isready")
    _, before = s.expect("readyok")
    assert not [b for b in before if b.startswith("bestmove")]
