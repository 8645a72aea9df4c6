"""The time manager at short controls (issue 9, item 6), played out on paper: no clock, no timing.

Each simulated move takes its whole hard limit plus a delay that a loaded two-core machine adds
(the move's trip through pipes, a scheduler that runs us late, the stop check's granularity).
"""

import threading
import time
from typing import Optional

import pytest

from engine_core.timeman import allot
from ucci_engine.engine import Engine, GoRequest, SearchAnswer, shortened
from ucci_engine.position import START_FEN
from ucci_engine.tables import move_name

OVERHEAD = 50  # ms: the engines' default Move Overhead
DELAY = 80  # ms added to every move beyond its hard limit


def worst_game(base: int, inc: int, moves: int, delay: int = DELAY) -> list[int]:
    """The clock before each move when every move uses its hard limit and then ``delay`` more."""
    left, seen = base, []
    for _ in range(moves):
        seen.append(left)
        _, hard = allot(left, inc, 0, left, OVERHEAD)
        left += inc - hard - delay
    return seen


@pytest.mark.parametrize("base", [6000, 10000])
def test_a_long_game_at_a_short_control_never_flags(base: int) -> None:
    clock = worst_game(base, 100, 200)  # 200 moves a side: longer than the 300-ply adjudication
    assert min(clock) > 0


@pytest.mark.parametrize("left", [300, 1000, 2000, 4000, 6000, 10000])
def test_no_move_takes_a_large_part_of_the_clock(left: int) -> None:
    soft, hard = allot(left, 100, 0, left, OVERHEAD)
    assert soft <= hard <= left * 15 // 100


def test_below_the_reserve_a_move_gives_back_more_than_it_takes() -> None:
    for left in range(100, 1000, 50):
        _, hard = allot(left, 100, 0, left, OVERHEAD)
        assert hard + OVERHEAD < 100


def test_the_hard_limit_leaves_the_overhead_and_never_exceeds_the_clock() -> None:
    for left in (1, 30, 51, 100, 500, 5000, 60000):
        for movestogo in (0, 1, 2, 10):
            soft, hard = allot(left, 0, movestogo, 0, OVERHEAD)
            assert 1 <= soft <= hard
            assert hard <= max(1, left - OVERHEAD)


def test_more_time_is_spent_with_more_on_the_clock() -> None:
    hards = [allot(left, 100, 0, left, OVERHEAD)[1] for left in range(500, 20000, 500)]
    assert hards == sorted(hards)


def test_the_last_move_before_a_control_may_use_most_of_what_is_left() -> None:
    soft, hard = allot(60000, 0, 1, 0, OVERHEAD)
    assert soft == hard and 40000 < hard < 60000 - OVERHEAD


def timed_move(engine: Engine, moves: list[str], left: int) -> str:
    """Play one timed move (depth 1, so it is quick) in the game of ``moves``; its move's name."""
    engine.set_position(START_FEN, moves)
    go = GoRequest()
    go.depth = 1
    go.left = left
    answered = threading.Event()
    results: list[Optional[SearchAnswer]] = []

    def done(result: Optional[SearchAnswer]) -> None:
        results.append(result)
        answered.set()

    engine.go(go, lambda *info: None, done)
    assert answered.wait(30)
    engine.stop_and_wait()
    assert results[0] is not None
    return move_name(results[0].best)


def test_a_gui_clock_that_shows_more_time_gone_than_ours_widens_the_margin() -> None:
    engine = Engine()
    first = timed_move(engine, [], 10000)
    timed_move(engine, [first, "a6a5"], 8500)  # 1.5 s gone, of which our own watch saw one quick move
    assert engine.time.lag.margin(OVERHEAD) >= 500  # a generous allowance for that move on a busy machine


def test_a_clock_from_another_game_is_no_evidence_of_lag() -> None:
    engine = Engine()
    timed_move(engine, [], 10000)
    timed_move(engine, ["h2e2"], 9000)  # not our game two plies on: a new game
    assert engine.time.lag.margin(OVERHEAD) == OVERHEAD


@pytest.mark.parametrize("lag", [60, 150])  # a lag of 300 loses 200 ms a move: 60 moves would need 12 s
def test_a_measured_lag_is_paid_on_every_move_without_flagging_in_a_long_game(lag: int) -> None:
    engine = Engine()
    engine.time.lag.observe(lag)
    go = GoRequest()
    go.inc = 100
    left, lowest = 10000, 10000
    for _ in range(60):  # moves a side: a long game at 10 s + 0.1 s
        go.left = left
        left += go.inc - engine.limits_for(go).hard_ms - lag
        lowest = min(lowest, left)
    assert lowest > 0


def test_an_unsettled_search_may_think_longer_but_never_past_the_hard_limit() -> None:
    engine = Engine()
    go = GoRequest()
    go.inc = 100
    for left in (300, 1000, 2000, 6000, 10000, 60000):
        go.left = left
        lim = engine.limits_for(go)
        assert lim.soft_ms <= lim.unsettled_ms <= lim.hard_ms
    go.left = 10000
    assert engine.limits_for(go).unsettled_ms > engine.limits_for(go).soft_ms
    fixed = GoRequest()
    fixed.movetime = 1000
    assert engine.limits_for(fixed).unsettled_ms == 0  # a fixed time a move is spent as asked


def test_a_fixed_time_a_move_is_spent_to_its_end() -> None:
    engine = Engine()
    fixed = GoRequest()
    fixed.movetime = 1000
    lim = shortened(engine.limits_for(fixed), time.perf_counter() - 0.2)  # the go arrived 200 ms ago
    # No soft limit: deepening goes on until the hard one, which keeps the overhead and the time gone.
    assert lim.soft_ms == 0 and 1 <= lim.hard_ms <= 1000 - engine.time.overhead - 200
