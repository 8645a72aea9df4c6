"""One time manager for three games (issue 42, item 2): the core's lag meter and clock requests
give each game the limits it had before they were shared. The figures marked "before" are what
main at fe72c27 gave for the same requests, each game with its own code."""

import dataclasses
import random
import time
from typing import Optional

from engine_core.timeman import SHARE, CpuShare, LagMeter, MoveRequest, TimeManager
from junqi_protocol.player import OVERHEAD_MS, UNTIMED_MS
from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.protocol import go_clock
from ucci_engine.engine import Engine as XiangqiEngine, GoRequest


def old_xiangqi_lag(peak: int, expected: int, reported: int) -> int:
    """ucci_engine/lag.py's LagMeter.observe before the core's meter replaced it."""
    lag = expected - reported
    peak = peak * 7 // 8
    if 0 < lag <= 2000 and lag > peak:
        peak = lag
    return peak


def old_junqi_lag(lag: int, over: int) -> int:
    """junqi_protocol/player.py's Engine.choose before the core's meter replaced its own."""
    return max(over, lag * 3 // 4)


def test_the_meter_of_clock_gaps_fades_and_caps_as_xiangqi_s_own_did() -> None:
    rng = random.Random(1)
    meter, peak = LagMeter.clock_gaps(), 0
    for _ in range(5000):
        expected = rng.randrange(0, 60000)
        reported = expected - rng.choice([rng.randrange(-500, 500), rng.randrange(-100, 3000)])
        meter.observe(expected - reported)
        peak = old_xiangqi_lag(peak, expected, reported)
        assert meter.peak == peak and meter.margin(50) == max(50, peak)


def test_the_meter_of_overruns_fades_as_junqi_s_own_did() -> None:
    rng = random.Random(2)
    meter, lag = LagMeter.overruns(), 0
    for _ in range(5000):
        over = rng.choice([rng.randrange(-900, 50), rng.randrange(-50, 5000)])
        meter.observe(over)
        lag = old_junqi_lag(lag, over)
        assert meter.peak == lag


# Xiangqi: a UCCI/UCI go's clock, the lag the GUI's clock showed, and (soft, unsettled, hard, infinite) before.
XIANGQI_BEFORE = [
    (MoveRequest(movetime=1000), 0, (0, 0, 950, False)),
    (MoveRequest(movetime=30), 0, (0, 0, 1, False)),
    (MoveRequest(left=6000, inc=100, movetime=1000), 0, (0, 0, 950, False)),  # a time a move comes first
    (MoveRequest(left=6000, inc=100, opp_left=6000), 0, (203, 406, 812, False)),
    (MoveRequest(left=10000, inc=100), 0, (337, 674, 1348, False)),
    (MoveRequest(left=1200, inc=100, opp_left=1200), 0, (43, 86, 100, False)),
    (MoveRequest(left=500, inc=100), 0, (18, 25, 25, False)),
    (MoveRequest(left=60000, movestogo=1), 0, (46000, 46000, 46000, False)),
    (MoveRequest(left=60000, movestogo=10, opp_left=90000), 0, (4312, 8624, 14375, False)),
    (MoveRequest(left=30), 0, (1, 1, 1, False)),
    (MoveRequest(left=0), 0, (1, 1, 1, False)),
    (MoveRequest(), 0, (0, 0, 0, True)),
    (MoveRequest(movetime=1000), 150, (0, 0, 950, False)),
    (MoveRequest(left=6000, inc=100, opp_left=6000), 150, (116, 232, 464, False)),
    (MoveRequest(left=10000, inc=100), 150, (250, 500, 1000, False)),
    (MoveRequest(left=1200, inc=100, opp_left=1200), 150, (1, 1, 1, False)),
    (MoveRequest(left=60000, movestogo=1), 150, (43600, 43600, 43600, False)),
    (MoveRequest(left=60000, movestogo=10, opp_left=90000), 150, (4087, 8174, 13625, False)),
    (MoveRequest(left=60000, movestogo=1), 400, (37600, 37600, 37600, False)),
    (MoveRequest(left=60000, movestogo=10, opp_left=90000), 400, (3525, 7050, 11750, False)),
    (MoveRequest(left=10000, inc=100), 400, (1, 1, 1, False)),
]


def test_xiangqi_gets_the_limits_it_had_for_the_same_go() -> None:
    engine = XiangqiEngine()
    for clock, lag, before in XIANGQI_BEFORE:
        engine.time.lag = LagMeter.clock_gaps()
        engine.time.lag.observe(lag)
        go = GoRequest(**dataclasses.asdict(clock))
        lim = engine.limits_for(go)
        assert (lim.soft_ms, lim.unsettled_ms, lim.hard_ms, lim.infinite) == before, (clock, lag)


# Junqi: the referee's go line -> the budget before, at CPU shares and lags (0.375 is the share until measured).
JUNQI_SHARES_AND_LAGS = ((0.375, 0), (0.5, 0), (0.2, 0), (1.0, 150), (0.375, 2500))
JUNQI_BEFORE = {
    "time 600000 movetime 1000": (690, 920, 368, 770, 10),
    "time 600000 movetime 300": (165, 220, 88, 70, 10),
    "time 3000 movetime 10000": (15, 20, 10, 10, 10),
    "movetime 1000": (690, 920, 368, 770, 10),
    "time 20 movetime 300": (10, 10, 10, 10, 10),
    "": (750, 1000, 400, 850, 10),  # untimed, as CCGC's GO
    "time 0 movetime 500": (315, 420, 168, 270, 10),
    "time 60000": (1440, 1920, 768, 1770, 10),
}


def junqi_limits(clock: MoveRequest, share: float, lag: int) -> tuple[int, int]:
    """The core's limits for junqi's request, with junqi's overhead and untimed default."""
    tm = TimeManager(SHARE, OVERHEAD_MS, UNTIMED_MS)
    tm.cpu.share = share
    tm.lag.observe(lag)
    soft, hard, _ = tm.limits(clock)
    return soft, hard


def test_junqi_gets_the_budget_it_had_for_the_same_go() -> None:
    """The hard limit, the move's budget in junqi's planner, is the budget it had."""
    for line, before in JUNQI_BEFORE.items():
        clock = go_clock(line.split())
        assert tuple(junqi_limits(clock, share, lag)[1] for share, lag in JUNQI_SHARES_AND_LAGS) == before, line


def test_junqi_s_soft_limit_is_its_hard_one_unless_the_game_clock_bounds_the_move() -> None:
    for line in JUNQI_BEFORE:
        clock = go_clock(line.split())
        for share, lag in JUNQI_SHARES_AND_LAGS:
            soft, hard = junqi_limits(clock, share, lag)
            assert 1 <= soft <= hard, line
            clock_bound = clock.left > 0 and (clock.movetime <= 0 or clock.left // 30 < clock.movetime)
            assert (soft < hard) == (clock_bound and hard >= 2), (line, share, lag)


def old_junqi_share(share: float, cpu: float, busy: float) -> float:
    """junqi_protocol/player.py's Engine.choose's CPU share before the core's CpuShare replaced it."""
    if busy > 0.005:
        share = 0.7 * share + 0.3 * min(1.0, cpu / busy)
    return share


def test_the_cpu_share_starts_and_averages_as_junqi_s_own_did() -> None:
    rng = random.Random(3)
    meter, share = CpuShare(), 0.5 * 3 / 4
    assert meter.share == share
    for _ in range(5000):
        busy = rng.choice([rng.uniform(0.0, 0.01), rng.uniform(0.0, 3.0)])
        cpu = busy * rng.choice([rng.uniform(0.0, 1.2), 1.0])
        meter.observe(cpu, busy)
        share = old_junqi_share(share, cpu, busy)
        assert meter.share == share


def test_the_cpu_share_measures_a_move_by_the_process_s_own_clocks() -> None:
    meter = CpuShare(0.0)
    meter.start()
    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass  # computing: the share goes up
    meter.stop()
    assert meter.share > 0.0
    meter = CpuShare(1.0)
    meter.start()
    time.sleep(0.05)  # waiting for workers, all of it: no evidence
    meter.stop(waited=1.0)
    assert meter.share == 1.0


def test_junqi_s_in_process_seat_hands_the_player_the_same_clock_as_the_go_line() -> None:
    seat = BuiltinSeat("search", 1)
    seen: list[Optional[MoveRequest]] = []

    def choose(clock: Optional[MoveRequest] = None, asked: float = 0.0) -> None:
        seen.append(clock)  # a pass: the clock is all this test wants

    seat.player.choose = choose  # type: ignore[method-assign]
    seat.ask(600000, 1000)
    assert seen == [go_clock(["time", "600000", "movetime", "1000"])]
