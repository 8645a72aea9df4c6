"""Time manager: a soft limit (don't start another iteration) and a hard limit (stop now).

All figures are milliseconds. Three things keep a short game (6 s + 0.1 s) off the flag on a busy
machine, where a move may reach the GUI a few hundred milliseconds after the search ends:

* every move leaves ``overhead`` for the move to travel;
* a reserve of ``RESERVE_MOVES`` overheads is never planned with: only the clock above it is shared
  out over the moves to come;
* the increment is spent in full only while the reserve is intact; below it, a move gets a shrinking
  part of the increment, so each move gives back more than it takes until the reserve refills.
"""

from typing import Final

HORIZON: Final = 30  # moves the clock is shared over when the control gives no movestogo
RESERVE_MOVES: Final = 20  # the clock kept back, in move overheads (1 s with the usual 50 ms)
HARD_SHARE: Final = 4  # the hard limit: this many soft limits, and at most 1/HARD_SHARE of the spare clock
UNSETTLED_SHARE: Final = 2  # soft limits a search may use while its best move or score just changed


def allot(left: int, inc: int, movestogo: int, opp_left: int, overhead: int, reserve: int = -1) -> tuple[int, int]:
    """Soft and hard limits for one move; ``reserve`` is the clock kept back (-1: ``RESERVE_MOVES``
    overheads). A caller that measures a larger overhead than configured keeps the reserve of the
    configured one: the measured lag is already paid on every move, the reserve is for what comes beyond.

    >>> allot(6000, 100, 0, 6000, 50)  # the first move of 6 s + 0.1 s
    (203, 812)
    >>> allot(1200, 100, 0, 1200, 50)  # near the reserve: less than the increment comes back
    (43, 100)
    >>> allot(500, 100, 0, 500, 50)  # inside the reserve: a part of the increment only
    (18, 25)
    >>> allot(60000, 0, 1, 0, 50)  # the last move before the next time control
    (47200, 47200)
    >>> allot(30, 0, 0, 0, 50)
    (1, 1)
    >>> allot(6000, 100, 0, 6000, 150), allot(6000, 100, 0, 6000, 150, 1000)  # a lag of 150 ms measured
    ((100, 400), (166, 664))
    """
    budget = left - overhead
    if budget <= 1:
        return 1, 1
    if reserve < 0:
        reserve = overhead * RESERVE_MOVES
    spare = max(0, left - reserve)
    if movestogo == 1:
        hard = max(1, min(spare * 8 // 10, budget))
        return hard, hard
    horizon = movestogo if 0 < movestogo < HORIZON else HORIZON
    net_inc = max(0, inc - overhead)
    if left < reserve:
        net_inc = net_inc * left // reserve
    soft = spare // horizon + net_inc * 3 // 4
    if opp_left > 0:
        # Ahead on the clock: think a little longer; behind: a little shorter.
        soft = soft * min(max(left * 100 // opp_left, 75), 133) // 100
    hard = min(soft * HARD_SHARE, spare // HARD_SHARE + net_inc, budget)
    return max(1, min(soft, hard)), max(1, hard)


def per_move(limit: int, clock: int, overhead: int, horizon: int = HORIZON) -> int:
    """The most one move may think when it must reach the referee within ``limit`` ms (its
    movetime; 0: none) with ``clock`` ms left in the game (0: no game clock): the limit, or a
    ``horizon``-th of the clock if that is less, less the ``overhead`` that the reply needs to
    reach the referee. 0 means no bound was given.

    >>> per_move(1000, 0, 60), per_move(1000, 6000, 60), per_move(0, 0, 60), per_move(50, 0, 60), per_move(0, 20, 60)
    (940, 140, 0, 1, 1)
    """
    if clock > 0:
        share = max(1, clock // horizon)
        limit = min(limit, share) if limit > 0 else share
    if limit <= 0:
        return 0
    return max(1, limit - overhead)
