"""python-chess (``chess.engine``), the UCI client many users' tools are built on, drives ``sanqi --protocol uci``.

It knows only chess boards, so the test keeps to what it can follow: the handshake and every option,
``configure``, ``ping``, and searches from python-chess's start board (sent as ``position startpos``,
which we read as xiangqi's) restricted to moves both games allow: ``b2b3`` and ``h2h4`` are pawn moves
in chess and cannon moves in xiangqi. A test dependency only (python-chess is GPL).
"""

import pytest

from conftest import sanqi_command

pytest.importorskip("chess", reason="python-chess is not installed (pip install chess)")
import chess.engine  # after the skip

BOTH_GAMES = [chess.Move.from_uci("b2b3"), chess.Move.from_uci("h2h4")]
OPTIONS = {
    "Hash": ("spin", 64, 1, 1024),
    "Threads": ("spin", 1, 1, 1),
    "Ponder": ("check", False, None, None),
    "MultiPV": ("spin", 1, 1, 128),
    "Move Overhead": ("spin", 50, 0, 5000),
    "Clear Hash": ("button", None, None, None),
    "Skill Level": ("spin", 20, 0, 20),
}


@pytest.fixture
def engine():
    # A generous timeout: start-up on a loaded machine, not a speed check.
    eng = chess.engine.SimpleEngine.popen_uci(sanqi_command() + ["--protocol", "uci"], timeout=60)
    yield eng
    eng.quit()


def test_handshake_and_every_option_parse(engine) -> None:
    assert engine.id["name"].startswith("sanqi ") and engine.id["author"]
    got = {name: (o.type, o.default, o.min, o.max) for name, o in engine.options.items()}
    assert got.items() >= OPTIONS.items()
    assert all(kind in ("check", "spin", "combo", "button", "string") for kind, *_ in got.values())


def test_configure_and_ping(engine) -> None:
    engine.configure({"Hash": 8, "Threads": 1, "Move Overhead": 120, "Skill Level": 12, "Clear Hash": None})
    engine.ping()
    with pytest.raises(chess.engine.EngineError):
        engine.configure({"Hash": 4096})  # python-chess checks the announced maximum itself
    engine.ping()


def test_an_analysis_it_can_follow(engine) -> None:
    board = chess.Board()
    with engine.analysis(board, chess.engine.Limit(depth=3), multipv=2, root_moves=BOTH_GAMES) as analysis:
        infos = list(analysis)
        best = analysis.wait()
    lines = [info for info in infos if "score" in info]
    assert {info["depth"] for info in lines} == {1, 2, 3}
    assert {info["multipv"] for info in lines} == {1, 2}
    for info in lines:
        assert isinstance(info["score"].relative, chess.engine.Cp)
        assert info["seldepth"] >= info["depth"] and info["nodes"] > 0 and info["time"] >= 0
        # It keeps a pv only up to the first move it cannot read, and drops it when that move looks
        # like chess but is illegal there: which happens depends on black's reply in the line.
        assert info.get("pv", BOTH_GAMES)[0] in BOTH_GAMES
    assert best.move in BOTH_GAMES


def test_play_with_a_clock_and_with_nodes(engine) -> None:
    board = chess.Board()
    timed = engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1), root_moves=BOTH_GAMES)
    counted = engine.play(board, chess.engine.Limit(nodes=500), root_moves=BOTH_GAMES)
    assert timed.move in BOTH_GAMES and counted.move in BOTH_GAMES
    engine.ping()
