"""Whole games through real clients: the cchess package's UCCI driver, and Fairy-Stockfish over UCCI."""

import shutil
import time

import pytest

from conftest import sanqi_command
from ucci_engine.match import FAIRY_STOCKFISH
from ucci_engine.position import START_FEN, Position
from ucci_engine.referee import play_game, repetition_verdict
from ucci_engine.seats import UcciSeat

HANG = 120  # seconds without an answer that mean the engine hangs, on however loaded a machine


def test_a_full_game_driven_by_the_cchess_ucci_driver() -> None:
    cchess = pytest.importorskip("cchess", reason="cchess is not installed (pip install cchess)")
    exe = sanqi_command()
    if len(exe) != 1:
        pytest.skip("the cchess driver needs a single executable path; sanqi is not on PATH")
    engine = cchess.UcciEngine()
    assert engine.load(exe[0])
    assert engine.wait_for_ready(10), "no ucciok"
    engine.set_option("hashsize", 8)
    board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    ours = Position.from_fen(START_FEN)
    plies = 0
    # To the end: mate or stalemate, the fourth repetition, 60 moves without capture, or 300 plies.
    while plies < 300 and ours.outcome() is None and repetition_verdict(ours) is None:
        fen = board.to_full_fen()
        assert engine.go_from(fen, {"depth": 2})
        deadline = time.monotonic() + HANG  # depth 2 takes well under a second; this only ends a hang
        action = None
        while time.monotonic() < deadline:
            got = engine.get_action()
            if got and got["action"] in ("bestmove", "dead", "draw"):
                action = got
                break
            time.sleep(0.01)
        assert action is not None and action["action"] == "bestmove", f"no bestmove for {fen}: {action}"
        move = action["move"]
        assert board.is_valid_iccs_move(move), f"cchess calls {move} illegal in {fen}"
        assert ours.push_name(move)
        board.move_iccs(move)
        board.next_turn()
        plies += 1
    assert plies == 300 or ours.outcome() is not None or repetition_verdict(ours) is not None
    engine.quit()


@pytest.mark.skipif(not shutil.which(FAIRY_STOCKFISH), reason="Debian fairy-stockfish is not installed (apt-get install fairy-stockfish)")
def test_full_games_against_fairy_stockfish_at_10s_plus_100ms() -> None:
    for game in range(2):
        us = UcciSeat(sanqi_command(), {})
        peer = UcciSeat([FAIRY_STOCKFISH], {"Skill_Level": "0"})
        red, black = (us, peer) if game == 0 else (peer, us)
        try:
            result, _ = play_game(red, black, 10000, 100, 160)
            alive = not us.gone
        finally:
            us.close()
            peer.close()
        # Any ending is fine except an illegal move or a crash by sanqi. A loss on time depends on how
        # busy the machine is: that is the 100-game benchmark's to count (docs), not a test's.
        ours_lost = result.winner == 1 - game
        assert alive and not (ours_lost and "illegal" in result.reason), result.reason
