"""The move overhead as the GUI's clock shows it, for a time manager that must not flag on a busy machine.

After each move the engine knows what its clock should read at the next ``go`` (the time it had,
less the time from ``go`` to ``bestmove`` on its own watch, plus the increment); the GUI's figure is
lower by whatever the engine cannot see: the trips through the pipes, the time before the scheduler
ran it, the GUI's own delays. The largest such lag, fading by an eighth a move, is the margin the
time manager keeps for every move (never less than the configured overhead).

>>> lag = LagMeter()
>>> lag.observe(expected=5000, reported=4700)
>>> lag.margin(50)
300
>>> for _ in range(30):
...     lag.observe(expected=5000, reported=4990)
>>> lag.margin(50)
50
"""

from typing import Final

FADE_EIGHTHS: Final = 7  # the peak keeps this many eighths of itself a move
CEILING: Final = 2000  # ms: a larger gap is a clock the GUI reset or paused, not a lag


class LagMeter:
    def __init__(self) -> None:
        self.peak = 0

    def observe(self, expected: int, reported: int) -> None:
        """One move's evidence: the clock the engine expected and the one the GUI sent."""
        lag = expected - reported
        self.peak = self.peak * FADE_EIGHTHS // 8
        if 0 < lag <= CEILING and lag > self.peak:
            self.peak = lag

    def margin(self, configured: int) -> int:
        """The overhead to plan each move with."""
        return max(configured, self.peak)
