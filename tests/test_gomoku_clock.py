"""Gomocup's clocks through the core time manager (issue 42): the limits from each ``INFO``
combination, played out on paper (no clock is read for what is checked)."""

import time

import pytest

from engine_core.timeman import TurnClock, turn_limits
from gomoku_protocol.engine import UNLIMITED, Engine
from gomoku_protocol.protocol import GomocupProtocol

DELAY = 80  # ms a loaded two-core machine may add to a move beyond its hard limit


def engine(*info: str) -> Engine:
    """The engine behind a protocol that was sent ``INFO`` lines ``info``, its first move made."""
    p = GomocupProtocol()
    for line in info:
        p.serve(f"INFO {line}")
    p.engine.first_move = False
    return p.engine


def test_a_turn_limit_alone_keeps_a_twentieth_and_50_ms_in_hand() -> None:
    assert turn_limits(TurnClock(turn=1000)) == (675, 900)
    assert turn_limits(TurnClock(turn=30000)) == (21337, 28450)


def test_a_turn_limit_of_zero_or_no_time_left_answers_at_once() -> None:
    assert turn_limits(TurnClock(turn=0, left=30000)) == (0, 0)
    assert turn_limits(TurnClock(turn=1000, left=0)) == (0, 0)
    assert turn_limits(TurnClock(turn=1000, match=30000, used=30000)) == (0, 0)


def test_time_left_gives_a_quiet_move_a_twentieth_and_a_threatened_one_a_quarter_above_the_reserve() -> None:
    assert turn_limits(TurnClock(turn=30000, match=180000, left=180000)) == (8100, 28450)
    assert turn_limits(TurnClock(turn=30000, match=180000, left=41000)) == (1150, 5750)  # 18 s reserve
    assert turn_limits(TurnClock(turn=30000, left=41000)) == (2000, 10000)  # no timeout_match: 1 s reserve
    assert turn_limits(TurnClock(turn=1000, match=30000, left=30000)) == (675, 900)  # the turn binds at 1 s a move
    assert turn_limits(TurnClock(turn=1000, match=30000, left=2000)) == (15, 20)  # inside the 3 s reserve


def test_a_game_clock_without_time_left_is_counted_down_by_our_own_thinking() -> None:
    assert turn_limits(TurnClock(turn=30000, match=180000, used=139000)) == (1150, 5750)
    assert TurnClock(match=180000, used=139000).game_left() == 41000
    assert TurnClock(match=180000, used=139000, left=50000).game_left() == 50000  # the manager's word first
    assert TurnClock(turn=1000).game_left() == -1


def test_what_the_move_already_cost_comes_off_both_limits() -> None:
    assert turn_limits(TurnClock(turn=1000, spent=300)) == (600, 600)
    assert turn_limits(TurnClock(turn=1000, left=30000, spent=100)) == (675, 800)
    assert turn_limits(TurnClock(turn=1000, spent=900)) == (0, 0)


def worst_game(turn: int, match: int, moves: int, delay: int, limit: int) -> list[int]:
    """The game clock before each move when every move takes its soft (``limit`` 0) or hard (1)
    limit and ``delay`` more."""
    used, seen = 0, []
    for _ in range(moves):
        left = match - used
        seen.append(left)
        if left <= 0:
            break
        used += turn_limits(TurnClock(turn=turn, match=match, left=left))[limit] + delay
    return seen


@pytest.mark.parametrize("turn,match,delay,moves,limit", [
    # The study's longest 20x20 game at 1 s a move and 30 s a game had 180 plies (90 moves a side):
    # 100 quiet moves, or 80 threatened ones (the clock holds 35 of 800 ms; the reserve pays the lag
    # of the rest).
    (1000, 30000, 50, 100, 0), (1000, 30000, 50, 80, 1),
    # Gomocup-like limits: 120 moves a side, every one at its soft or at its hard limit (90 at the
    # hard limit when a 30 s turn has only 90 s a game).
    (5000, 120000, 80, 120, 0), (5000, 120000, 80, 120, 1), (30000, 180000, 80, 120, 0),
    (30000, 180000, 80, 120, 1), (30000, 90000, 80, 120, 0), (30000, 90000, 80, 90, 1)])
def test_a_long_game_never_runs_out_of_time(turn: int, match: int, delay: int, moves: int, limit: int) -> None:
    clock = worst_game(turn, match, moves, delay, limit)
    assert len(clock) == moves and min(clock) > 0


def test_no_move_takes_more_than_a_quarter_of_the_game_clock_above_the_reserve() -> None:
    for left in range(1500, 200000, 500):
        soft, hard = turn_limits(TurnClock(turn=30000, match=180000, left=left))
        assert soft <= hard <= max(left // 100, (left - 18000) // 4)


def test_the_protocol_fills_the_clock_from_info() -> None:
    p = GomocupProtocol()
    for line in ("timeout_turn 30000", "timeout_match 180000"):
        p.serve(f"INFO {line}")
    c = p.engine.clock()
    assert (c.turn, c.match, c.left, c.used) == (30000, 180000, -1, 0)
    p.serve("INFO time_left 41000")
    assert p.engine.clock().left == 41000
    p.serve(f"INFO time_left {UNLIMITED}")
    assert p.engine.clock().left == -1
    p.serve("INFO time_left -50")
    assert p.engine.clock().left == 0


def test_the_first_move_pays_for_the_process_start_up() -> None:
    e = engine("timeout_turn 1000")
    e.arrived(time.perf_counter())
    e.startup, e.setup_spent, e.first_move = 0.6, 0.1, True
    assert e.clock().spent >= 700
    e.limits()
    assert not e.first_move and e.clock().spent < 700


def test_our_thinking_counts_down_a_game_clock_given_only_as_timeout_match() -> None:
    e = engine("timeout_turn 30000", "timeout_match 180000")
    e.count(time.perf_counter() - 1.5, time.perf_counter())
    assert e.used_ms >= 1500 and e.clock().game_left() == 180000 - e.used_ms
    e.new_game(20, 20)
    assert e.used_ms == 0  # a new game, a new clock


def test_an_answer_later_than_its_hard_limit_shortens_the_next_ones_until_it_fades() -> None:
    e = engine("timeout_turn 1000")
    e.arrived(time.perf_counter())
    assert e.limits() == (675, 900)  # as before the lag was measured: no move has run over yet
    e.count(time.perf_counter() - (e.due_ms + 120) / 1000, time.perf_counter())  # the answer came 120 ms after the hard limit
    assert 120 <= e.lag.peak <= 130
    e.arrived(time.perf_counter())
    soft, hard = e.limits()
    assert 900 - 130 <= hard <= 900 - 120 and soft == 675
    for _ in range(30):  # moves on time
        e.count(time.perf_counter() - 0.5, time.perf_counter())
    assert e.lag.peak == 0


def test_a_pause_after_the_answer_is_left_out_of_the_move_s_time() -> None:
    # A referee suspends the brain as soon as its move arrives; if that stops the worker between
    # the answer and its count until the next turn, the wait must not count as our thinking.
    # Bounded by what the clock read when the answer was handed on, not by any fixed time.
    e = engine("timeout_turn 1000")
    e.new_game(15, 15)
    handed: list[float] = []

    def suspended_after_answering(decision: object) -> None:
        handed.append(time.perf_counter())
        time.sleep(1.2)  # the opponent's turn, with us stopped

    began = time.perf_counter()
    e.arrived(began)
    e.turn(7, 7, lambda text: None, suspended_after_answering, lambda exc: None)
    e.wait()
    assert len(handed) == 1
    up_to_answer = int((handed[0] - began) * 1000)
    assert e.used_ms <= up_to_answer
    assert e.lag.peak <= max(0, up_to_answer - e.due_ms)
