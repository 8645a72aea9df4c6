"""One time manager for three games (issue 42, item 2): the core's lag meter and clock requests
give each game the limits it had before they were shared. The figures marked "before" are what
main at fe72c27 gave for the same requests, each game with its own code."""

import random

from engine_core.timeman import LagMeter


def old_xiangqi_lag(peak: int, expected: int, reported: int) -> int:
    """ucci_engine/lag.py's LagMeter.observe before the core's meter replaced it."""
    lag = expected - reported
    peak = peak * 7 // 8
    if 0 < lag <= 2000 and lag > peak:
        peak = lag
    return peak


def old_junqi_lag(lag: int, over: int) -> int:
    """junqi_protocol/engine.py's Engine.choose before the core's meter replaced its own."""
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
