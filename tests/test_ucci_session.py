"""UCCI over pipes against the installed ``sanqi``: every command, option and bad input."""

import time

from conftest import Session, greeted, plays_legally
from ucci_engine.position import START_FEN

MID = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"


def ucci(make) -> Session:
    return greeted(make, "ucci", "ucciok")


def test_handshake_announces_the_options_before_ucciok(session_factory) -> None:
    s = session_factory()
    s.send("ucci")
    _, lines = s.expect("ucciok")
    names = {line.split()[1] for line in lines if line.startswith("option ")}
    assert names >= {"usemillisec", "batch", "debug", "ponder", "usebook", "hashsize", "threads", "newgame", "randomness", "style"}
    assert any(line.startswith("id author") for line in lines)


def test_boot_state_knows_only_ucci(session_factory) -> None:
    s = session_factory(["--protocol", "ucci"])
    s.send("isready")
    assert s.expect("info string error")[0]
    s.send("ucci")
    s.expect("ucciok")
    s.send("isready")
    s.expect("readyok")


def test_go_depth_prints_info_and_a_legal_bestmove(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos moves h2e2 h9g7")
    s.send("go depth 3")
    line, before = s.expect("bestmove")
    assert any(b.startswith("info depth 3 score ") and " pv " in b for b in before)
    assert any(b.startswith("info time ") and " nodes " in b for b in before)
    assert plays_legally(START_FEN, ["h2e2", "h9g7"], line.split()[1])


def test_setoption_in_bare_and_name_value_forms(session_factory) -> None:
    s = ucci(session_factory)
    for cmd in (
        "setoption usemillisec true",
        "setoption name hashsize value 8",
        "setoption batch on",
        "setoption debug false",
        "setoption ponder true",
        "setoption usebook false",
        "setoption threads 1",
        "setoption newgame",
        "setoption randomness small",
        "setoption style risky",
        "setoption idle large",  # unknown to us: accepted silently, as UCCI says
    ):
        s.send(cmd)
    s.send("isready")
    _, before = s.expect("readyok")
    assert not [b for b in before if "error" in b]
    s.send("setoption style reckless")
    s.send("setoption hashsize lots")
    s.send("isready")
    _, before = s.expect("readyok")
    assert len([b for b in before if b.startswith("info string error")]) == 2


def test_time_in_seconds_and_in_milliseconds(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    start = time.monotonic()
    s.send("go time 2 increment 0")
    s.expect("bestmove", timeout=3)
    assert time.monotonic() - start < 2.0
    s.send("setoption usemillisec true")
    start = time.monotonic()
    s.send("go time 400 movestogo 1 opptime 400 oppmovestogo 1")
    s.expect("bestmove", timeout=2)
    assert time.monotonic() - start < 0.6
    s.send("go time 3000 increment 100 opptime 3000 oppincrement 100")
    s.expect("bestmove", timeout=4)


def test_depth_infinite_bare_go_and_nodes(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go depth infinite")
    assert not [line for line in s.quiet(0.5) if line.startswith("bestmove")]
    s.send("stop")
    s.expect("bestmove")
    s.send("go")
    assert not [line for line in s.quiet(0.4) if line.startswith("bestmove")]
    s.send("stop")
    s.expect("bestmove")
    s.send("go nodes 3000")
    _, before = s.expect("bestmove")
    nodes = [int(b.split()[4]) for b in before if b.startswith("info time")]
    assert nodes and max(nodes) <= 3000 + 2000


def test_stop_is_answered_quickly(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position fen " + MID)
    s.send("go depth infinite")
    time.sleep(1.0)
    start = time.monotonic()
    s.send("stop")
    s.expect("bestmove")
    assert time.monotonic() - start < 0.15


def test_depth_zero_is_a_static_evaluation(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go depth 0")
    line, _ = s.expect("info depth 0 score ")
    int(line.split()[-1])
    s.expect("nobestmove")


def test_ponder_then_ponderhit(session_factory) -> None:
    s = ucci(session_factory)
    s.send("setoption usemillisec true")
    s.send("position startpos moves h2e2")
    s.send("go ponder time 1000 increment 0")
    assert not [line for line in s.quiet(1.5) if line.startswith("bestmove")]  # the clock is not running
    s.send("ponderhit")
    line, _ = s.expect("bestmove", timeout=3)
    assert plays_legally(START_FEN, ["h2e2"], line.split()[1])
    s.send("go ponder depth 2")
    time.sleep(0.3)
    s.send("ponderhit draw")
    line, _ = s.expect("bestmove")
    assert line.split()[-1] == "draw"  # offered in a level position: accepted


def test_draw_offer_is_accepted_only_when_level(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go draw depth 3")
    assert s.expect("bestmove")[0].endswith(" draw")
    s.send("position fen 4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")  # a rook up
    s.send("go draw depth 3")
    assert not s.expect("bestmove")[0].endswith(" draw")


def test_resign_when_mate_cannot_be_avoided(session_factory) -> None:
    s = ucci(session_factory)
    # Black to move; whatever it plays, red's rook mates on the back rank.
    s.send("position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 b - - 0 1")
    s.send("go depth 4")
    assert s.expect("bestmove")[0].endswith(" resign")


def test_banmoves_are_never_played(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go depth 3")
    first = s.expect("bestmove")[0].split()[1]
    s.send(f"banmoves {first}")
    s.send("go depth 3")
    second = s.expect("bestmove")[0].split()[1]
    assert second != first and plays_legally(START_FEN, [], second)
    # Checked by the rook on e1 (which the flying general guards), red's only move is e0f0.
    s.send("position fen 4k4/9/9/9/9/9/9/3r5/4r4/4K4 w - - 0 1")
    s.send("banmoves e0f0")
    s.send("go depth 2")
    assert s.expect("nobestmove")[0] == "nobestmove"
    s.send("banmoves z9z9")
    s.expect("info string error banmoves")


def test_probe_reports_the_hash_entry(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go depth 4")
    best = s.expect("bestmove")[0].split()[1]
    s.send("probe startpos")
    line = s.expect("pophash")[0]
    assert line.startswith(f"pophash bestmove {best}") and "depth" in line
    s.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert s.expect("pophash")[0] == "pophash"


def test_stop_while_idle_and_quit(session_factory) -> None:
    s = ucci(session_factory)
    s.send("stop")
    s.expect("nobestmove")
    s.send("quit")
    s.expect("bye")
    assert s.proc.wait(5) == 0


def test_perft_and_board_display(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go perft 3")
    assert s.expect("Nodes searched:", timeout=30)[0] == "Nodes searched: 79666"
    s.send("d")
    line, before = s.expect("FEN:")
    assert line == "FEN: " + START_FEN


def test_bad_input_gets_an_error_and_the_engine_keeps_its_position(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos moves h2e2")
    bad = [
        "position fen rnbakabnr/9/1c5c1 w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "position startpos moves h2e2 h9g7 e2e9",
        "position startpos moves zzzz",
        "position",
        "go depth banana",
        "go time",
        "fly to the moon",
    ]
    for cmd in bad:
        s.send(cmd)
        s.expect("info string error", timeout=5)
    s.send(b"\xff\xfe garbage \x00\x01\r\n")
    s.expect("info string error")
    s.send(b"\r\n")
    s.send(b"\n")
    s.send(b"isready\r\n")
    _, before = s.expect("readyok")
    assert not before  # blank lines are ignored, CRLF is just an end of line
    s.send("go depth 99999 nodes 2000")
    line = s.expect("bestmove")[0]
    assert plays_legally(START_FEN, ["h2e2"], line.split()[1])  # still the last valid position


def test_go_before_any_position_uses_the_start_position(session_factory) -> None:
    s = ucci(session_factory)
    s.send("go depth 2")
    assert plays_legally(START_FEN, [], s.expect("bestmove")[0].split()[1])


def test_commands_not_allowed_while_thinking_are_refused(session_factory) -> None:
    s = ucci(session_factory)
    s.send("go depth infinite")
    time.sleep(0.2)
    s.send("position startpos moves h2e2")
    s.expect("info string error position is not allowed while thinking")
    s.send("isready")
    s.expect("readyok")
    s.send("stop")
    assert plays_legally(START_FEN, [], s.expect("bestmove")[0].split()[1])


def test_end_of_input_finishes_the_search_and_exits(session_factory) -> None:
    s = ucci(session_factory)
    s.send("go depth 3")
    s.proc.stdin.close()
    s.expect("bestmove")
    assert s.proc.wait(5) == 0
