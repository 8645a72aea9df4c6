"""Winning rules and renju's forbidden points.

Rule kinds say what run of one colour wins: ``GE5`` five or more, ``EQ5`` exactly five, ``CARO8``
more than five or exactly five not blocked at both ends, ``CARO9`` exactly five not blocked at both
ends. In caro only an opponent stone blocks; the board edge does not.

The forbidden test works on the raw cells of a padded board (a ``vec[i64]``, see :mod:`position`): it is
called rarely (the pattern tables pre-filter the points that could be forbidden), so it favours
plain line walking that is easy to check against the renju definitions over speed.
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

# What a cell of the padded board holds, and a stone's colour.
EMPTY: Final = 0
BLACK: Final = 1
WHITE: Final = 2
WALL: Final = 3  # the padding around the board
# A neutral stone: a continuous game's finished five (field 3 of Gomocup's BOARD), neither side's. It
# has the wall's value on purpose: the pattern tables read it as an edge that ends both colours' lines.
NEUTRAL: Final = 3

GE5: Final = 0
EQ5: Final = 1
CARO8: Final = 2
CARO9: Final = 3

NOT_FORBIDDEN: Final = 0
DOUBLE_THREE: Final = 3
DOUBLE_FOUR: Final = 4
OVERLINE: Final = 6

MAX_NESTING: Final = 8  # a real-three test inside a real-three test...; positions never need this many


def rule_kinds(rule: int) -> tuple[int, int, bool]:
    """(black's kind, white's kind, renju?) for a Gomocup ``rule`` bitmask.

    >>> rule_kinds(0), rule_kinds(1), rule_kinds(4), rule_kinds(9)
    ((0, 0, False), (1, 1, False), (1, 0, True), (3, 3, False))
    """
    if rule & 8:
        kind = CARO9 if rule & 1 else CARO8
        return kind, kind, False
    if rule & 4:
        return EQ5, GE5, True
    if rule & 1:
        return EQ5, EQ5, False
    return GE5, GE5, False


def wins(kind: int, length: int, end_lo: int, end_hi: int, opponent: int) -> bool:
    """Whether a run of ``length`` stones whose neighbours are ``end_lo``/``end_hi`` wins."""
    if kind == GE5:
        return length >= 5
    if kind == EQ5:
        return length == 5
    blocked = end_lo == opponent and end_hi == opponent
    if kind == CARO8:
        return length > 5 or (length == 5 and not blocked)
    return length == 5 and not blocked


def run_bounds(cells: vec[i64], i: int, step: int) -> tuple[int, int]:
    """Offsets (lo <= 0 <= hi) of the run of ``cells[i]``'s colour through ``i`` along ``step``."""
    color = cells[i]
    lo = 0
    while cells[i + (lo - 1) * step] == color:
        lo -= 1
    hi = 0
    while cells[i + (hi + 1) * step] == color:
        hi += 1
    return lo, hi


def makes_win(cells: vec[i64], i: int, color: int, kind: int, dirs: vec[i64]) -> bool:
    """Whether ``color`` playing the empty point ``i`` wins under ``kind``."""
    cells[i] = color
    opponent = 3 - color
    won = False
    for step in dirs:
        lo, hi = run_bounds(cells, i, step)
        if wins(kind, hi - lo + 1, cells[i + (lo - 1) * step], cells[i + (hi + 1) * step], opponent):
            won = True
            break
    cells[i] = EMPTY
    return won


def _five_points(cells: vec[i64], i: int, step: int) -> list[int]:
    """Offsets of the empty points on the line that give black exactly five through ``i``."""
    found: list[int] = []
    for k in range(-4, 5):
        f = i + k * step
        if k == 0 or cells[f] != EMPTY:
            continue
        cells[f] = BLACK
        lo, hi = run_bounds(cells, f, step)
        cells[f] = EMPTY
        if hi - lo == 4 and lo <= -k <= hi:
            found.append(k)
    return found


def _fours(cells: vec[i64], i: int, step: int) -> int:
    """How many fours black's stone on ``i`` is part of along one line (a straight four is one)."""
    points = _five_points(cells, i, step)
    if len(points) == 2 and points[1] - points[0] == 5:
        return 1
    return len(points)


def _straight_four(cells: vec[i64], i: int, step: int, k: int) -> bool:
    """An unbroken four through ``i`` and the stone at offset ``k``, open to exact fives both ends."""
    points = _five_points(cells, i, step)
    return len(points) == 2 and points[1] - points[0] == 5 and points[0] < k < points[1]


def _real_three(cells: vec[i64], i: int, step: int, dirs: vec[i64], nesting: int) -> bool:
    """Black's stone on ``i`` makes a three along ``step`` whose straight-four point is legal.

    A line that is already a four is not a three, and the straight four must use the added stone.
    """
    if _five_points(cells, i, step):
        return False
    for k in range(-4, 5):
        r = i + k * step
        if k == 0 or cells[r] != EMPTY:
            continue
        cells[r] = BLACK
        lo, hi = run_bounds(cells, r, step)
        four = hi - lo < 4 and _straight_four(cells, i, step, k)
        cells[r] = EMPTY
        if four and forbidden_kind(cells, r, dirs, nesting + 1) == NOT_FORBIDDEN:
            return True
    return False


def forbidden_kind(cells: vec[i64], i: int, dirs: vec[i64], nesting: int = 0) -> int:
    """Why black may not play the empty point ``i`` (``DOUBLE_THREE``…), or ``NOT_FORBIDDEN``."""
    if nesting > MAX_NESTING:
        return NOT_FORBIDDEN
    cells[i] = BLACK
    kind = NOT_FORBIDDEN
    overline = False
    five = False
    for step in dirs:
        lo, hi = run_bounds(cells, i, step)
        if hi - lo == 4:
            five = True
        elif hi - lo > 4:
            overline = True
    if not five:
        if overline:
            kind = OVERLINE
        else:
            fours = 0
            for step in dirs:
                fours += _fours(cells, i, step)
            if fours >= 2:
                kind = DOUBLE_FOUR
            else:
                threes = 0
                for step in dirs:
                    if _real_three(cells, i, step, dirs, nesting):
                        threes += 1
                        if threes >= 2:
                            kind = DOUBLE_THREE
                            break
    cells[i] = EMPTY
    return kind
