"""UCCI over pipes against the installed ``sanqi``: what only UCCI has (its boot state, option forms, clock in
seconds, draws, resignation, banmoves, probe), and in-process failures. What UCI does alike is in
``tests/test_xiangqi_session.py``."""

import io

from conftest import Session, greeted, plays_legally
from engine_core.loop import Channel
from engine_core.search import Limits
from ucci_engine.position import START_FEN
from ucci_engine.protocol import UcciProtocol

MID = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
SLOW = 60  # seconds: how long a loaded machine may take to answer, far above the usual


def ucci(make) -> Session:
    return greeted(make, "ucci", "ucciok")


def test_boot_state_knows_only_ucci(session_factory) -> None:
    s = session_factory(["--protocol", "ucci"])
    s.send("isready")
    assert s.expect("info string error")[0]
    s.send("ucci")
    s.expect("ucciok")
    s.send("isready")
    s.expect("readyok")


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


def test_time_in_seconds_and_in_milliseconds() -> None:
    ucci = UcciProtocol()
    go = ucci.parse_go(["time", "2", "increment", "1", "opptime", "3", "movestogo", "5"])
    assert (go.left, go.inc, go.opp_left, go.movestogo) == (2000, 1000, 3000, 5)
    ucci.millis = True
    go = ucci.parse_go(["time", "400", "movestogo", "1", "opptime", "300", "oppmovestogo", "1"])
    assert (go.left, go.inc, go.opp_left, go.movestogo) == (400, 0, 300, 1)


def test_go_nodes_stops_near_its_count(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go nodes 3000")
    _, before = s.expect("bestmove")
    nodes = [int(b.split()[4]) for b in before if b.startswith("info time")]
    assert nodes and max(nodes) <= 3000 + 2000


def test_stop_is_answered_while_searching_deep(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position fen " + MID)
    s.send("go depth infinite")
    s.expect("info depth 3", timeout=SLOW)
    s.send("stop")
    s.expect("bestmove", timeout=5)  # a latency check with a margin a loaded machine meets


def test_depth_zero_is_a_static_evaluation(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go depth 0")
    line, _ = s.expect("info depth 0 score ")
    int(line.split()[-1])
    s.expect("nobestmove")


def test_draw_offer_is_accepted_only_when_level(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos")
    s.send("go draw depth 3")
    assert s.expect("bestmove")[0].endswith(" draw")
    s.send("position startpos moves h2e2")
    s.send("go ponder depth 2")
    s.send("ponderhit draw")  # offered with the ponderhit
    line, _ = s.expect("bestmove")
    assert line.split()[-1] == "draw"  # offered in a level position: accepted
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


def test_go_before_any_position_uses_the_start_position(session_factory) -> None:
    s = ucci(session_factory)
    s.send("go depth 2")
    assert plays_legally(START_FEN, [], s.expect("bestmove")[0].split()[1])


def test_end_of_input_finishes_the_search_and_exits(session_factory) -> None:
    s = ucci(session_factory)
    s.send("go depth 3")
    s.proc.stdin.close()
    s.expect("bestmove")
    assert s.proc.wait(5) == 0


# --- issue 9: nothing a GUI sends kills the engine ------------------------------------------------


def test_moves_without_a_start_position_are_refused(session_factory) -> None:
    s = ucci(session_factory)
    s.send("position startpos moves h2e2")
    for cmd in ("position moves a0a1", "probe moves a0a1", "position moves", "probe"):
        s.send(cmd)
        s.expect("info string error position needs startpos or fen")
    s.send("d")
    assert s.expect("FEN:")[0].split()[1] == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR"


def test_digits_python_knows_but_fen_does_not_are_errors(session_factory) -> None:
    s = ucci(session_factory)
    for digit in ("\u00b2", "\u2462", "\u0663"):
        s.send(f"position fen 4k4/9/9/9/9/9/9/9/9/3K{digit}5 w - - 0 1")
        s.expect("info string error bad FEN")
        s.send(f"position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - {digit} {digit}")  # counters: taken as absent
        s.send("d")
        assert s.expect("FEN:")[0] == "FEN: 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


def run_lines(protocol: UcciProtocol, *lines: str) -> list[str]:
    """Feed ``lines`` to an in-process UCCI session; what it wrote."""
    out = io.StringIO()
    chan = Channel(io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    chan.start()
    protocol.run(chan)
    return out.getvalue().splitlines()


def test_an_unexpected_exception_in_a_handler_is_an_error_line_and_the_engine_serves_on() -> None:
    protocol = UcciProtocol()

    def broken(args: list[str]) -> None:
        raise ZeroDivisionError("division by zero")

    protocol.commands["d"] = broken
    out = run_lines(protocol, "ucci", "position startpos moves h2e2", "d", "isready", "quit")
    assert "info string error internal error ZeroDivisionError: division by zero" in out
    assert out[-2:] == ["readyok", "bye"]
    assert protocol.engine.position.fen().startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/")


class BrokenSearcher:
    """A searcher that fails at once (the compiled Searcher's methods cannot be patched)."""

    limits = Limits()
    pondering = False

    def think(self, *args: object) -> None:
        raise RuntimeError("search broke")

    def stop(self) -> None:
        return None


def test_a_search_that_fails_still_hands_over_a_legal_move() -> None:
    protocol = UcciProtocol()
    protocol.engine.searcher = BrokenSearcher()  # type: ignore[assignment]
    out = run_lines(protocol, "ucci", "position startpos", "go depth 3", "isready", "quit")
    assert "info string error internal error RuntimeError: search broke" in out
    moves = [line.split()[1] for line in out if line.startswith("bestmove")]
    assert len(moves) == 1 and plays_legally(START_FEN, [], moves[0])
