"""Time manager: a soft limit (don't start another iteration) and a hard limit (stop now).

All figures are milliseconds. The hard limit always leaves ``overhead`` for the move to travel, so
the engine never exceeds the time it was given.
"""


def allot(left: int, inc: int, movestogo: int, opp_left: int, overhead: int) -> tuple[int, int]:
    """Soft and hard limits for one move.

    >>> allot(10000, 100, 0, 10000, 50)
    (323, 1615)
    >>> allot(60000, 0, 1, 0, 50)
    (47960, 47960)
    >>> allot(30, 0, 0, 0, 50)
    (1, 1)
    """
    budget = left - overhead
    if budget <= 1:
        return 1, 1
    horizon = movestogo if 0 < movestogo < 40 else 40
    soft = budget // horizon + (inc * 3 // 4 if budget > inc else 0)
    if opp_left > 0:
        # Ahead on the clock: think a little longer; behind: a little shorter.
        ratio = min(max(left / opp_left, 0.75), 1.33)
        soft = int(soft * ratio)
    share = 8 if horizon == 1 else 5  # tenths of the remaining time one move may ever use
    hard = min(budget * share // 10, max(soft * 5, 1))
    if horizon == 1:
        soft = hard
    soft = max(1, min(soft, hard))
    return soft, max(1, hard)
