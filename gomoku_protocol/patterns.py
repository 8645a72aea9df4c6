"""Line-pattern tables: what one stone on an empty point makes along one line.

A point's neighbourhood on a line is five cells each side, two bits a cell (empty, black, white,
edge), packed into a 20-bit key that the board keeps up to date incrementally. The shape for a
colour is looked up in a table that is filled lazily: the key is first reduced to a canonical form
(everything beyond the first blocker on each side is irrelevant), which leaves a few thousand
distinct lines, each classified once by trying stones on it. Five cells each side is exactly what
"exactly five" and caro's "unblocked five" need to judge a five and a four without error; threes
are judged from the same window, which can only over-report them near its rim.

Slots: 0..4 hold offsets -5..-1, 5..9 hold +1..+5.
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64  # the counter helpers take and give machine words, compiled

from gomoku_protocol.rules import CARO8, CARO9, WALL, wins
from gomoku_protocol.weights import ORDER

NONE: Final = 0
ONE: Final = 1
TWO: Final = 2
FLEX2: Final = 3
THREE: Final = 4
FLEX3: Final = 5
FOUR: Final = 6
FOUR2: Final = 7  # two fours on one line, e.g. X_XX@_X... that a single block cannot stop
FLEX4: Final = 8
FIVE: Final = 9
OVERLINE: Final = 10  # renju black's six or more: no win, and forbidden

# One-ply worth of each line shape, for attack and defence alike: it orders the moves and picks
# the ten quiet candidates. Data (data/order_values.json), refitted by gomoku_protocol.fit_order.
VALUE: Final[list[int]] = ORDER
WEIGHT_SCALE: Final = 16  # fitted evaluation weights are stored in sixteenths of a point
# Per-cell counters packed in one int: fives | open fours << 4 | fours << 8 | open threes << 12 | overlines << 16.
COUNT: Final = [0, 0, 0, 0, 0, 1 << 12, 1 << 8, 2 << 8, 1 << 4, 1, 1 << 16]


def span(points: vec[i64], color: i64, n: i64) -> tuple[i64, i64]:
    """Where ``color``'s points lie in one of a board's point lists (``Position.four_list``,
    ``three_list``: colour ``c``'s from ``c * (n + 1)``, its length first): from the first to past
    the last.

    >>> span(vec[i64]([0, 0, 0, 2, 7, 9, 0, 0, 0]), 1, 2)
    (4, 6)
    """
    base = color * (n + 1)
    return base + 1, base + 1 + points[base]


def four_count(c: i64) -> i64:
    """Fours of every kind a point makes (an open four counts once)."""
    return ((c >> 4) & 15) + ((c >> 8) & 15)


def flex4_count(c: i64) -> i64:
    return (c >> 4) & 15


def three_count(c: i64) -> i64:
    return (c >> 12) & 15


def overline_count(c: i64) -> i64:
    return c >> 16


class LineTable:
    """Shapes of one colour under one rule kind, keyed by the 20-bit neighbourhood."""

    def __init__(self, color: int, kind: int, forbid_overline: bool) -> None:
        self.color = color
        self.kind = kind
        self.forbid_overline = forbid_overline
        self.caro = kind == CARO8 or kind == CARO9
        self.memo: dict[int, int] = {}
        # Only the four-state neighbours of one side matter: 4**5 entries per side.
        self.left: list[int] = [self._canon_side(k, True) for k in range(1024)]
        self.right: list[int] = [self._canon_side(k, False) for k in range(1024)]

    def _perspective(self, state: int) -> int:
        """0 empty, 1 own, 2 opponent, 3 edge (an edge is a plain block except in caro)."""
        if state == 0:
            return 0
        if state == self.color:
            return 1
        if state == WALL and self.caro:
            return 3
        return 2

    def _canon_side(self, bits: int, left: bool) -> int:
        out = 0
        blocked = False
        for n in range(5):  # nearest first
            slot = 4 - n if left else n
            s = 3 if blocked else self._perspective((bits >> (2 * slot)) & 3)
            if s >= 2:
                blocked = True
            out |= s << (2 * slot)
        return out

    def shape(self, key: int) -> int:
        canon = self.left[key & 1023] | (self.right[key >> 10] << 10)
        got = self.memo.get(canon, -1)
        if got < 0:
            got = self._classify(canon)
            self.memo[canon] = got
        return got

    # --- classification of one canonical line (runs once per distinct line) ------------------

    def _run(self, w: list[int], f: int) -> tuple[int, int]:
        lo = f
        while lo > 0 and w[lo - 1] == 1:
            lo -= 1
        hi = f
        while hi < 10 and w[hi + 1] == 1:
            hi += 1
        return lo, hi

    def _wins_at(self, w: list[int], f: int) -> bool:
        lo, hi = self._run(w, f)
        end_lo = w[lo - 1] if lo > 0 else 0
        end_hi = w[hi + 1] if hi < 10 else 0
        return lo <= 5 <= hi and wins(self.kind, hi - lo + 1, end_lo, end_hi, 2)

    def _five_points(self, w: list[int]) -> list[int]:
        found: list[int] = []
        for f in range(1, 10):
            if w[f] == 0:
                w[f] = 1
                if self._wins_at(w, f):
                    found.append(f)
                w[f] = 0
        return found

    def _classify(self, key: int) -> int:
        w = [0] * 11
        for slot in range(10):
            w[slot if slot < 5 else slot + 1] = (key >> (2 * slot)) & 3
        w[5] = 1
        if self._wins_at(w, 5):
            return FIVE
        lo, hi = self._run(w, 5)
        if self.forbid_overline and hi - lo >= 5:
            return OVERLINE
        fives = self._five_points(w)
        if len(fives) >= 2:
            return FLEX4 if len(fives) == 2 and fives[1] - fives[0] == 5 else FOUR2
        if fives:
            return FOUR
        three = False
        for r in range(1, 10):
            if w[r] != 0:
                continue
            w[r] = 1
            rlo, rhi = self._run(w, r)
            after = self._five_points(w) if rhi - rlo < 4 else []
            w[r] = 0
            if len(after) == 2 and after[1] - after[0] == 5:
                return FLEX3
            if len(after) >= 2 and not self.forbid_overline:
                return FLEX3
            if after:
                three = True
        if three:
            return THREE
        best = 0
        windows = 0
        for s in range(1, 6):
            own = 0
            free = True
            for j in range(s, s + 5):
                if w[j] >= 2:
                    free = False
                    break
                own += w[j]
            if free:
                if own > best:
                    best, windows = own, 1
                elif own == best:
                    windows += 1
        if best >= 2:
            return FLEX2 if windows >= 3 else TWO
        return ONE if best == 1 else NONE


_TABLES: Final[dict[tuple[int, int, bool], LineTable]] = {}


def table(color: int, kind: int, forbid_overline: bool) -> LineTable:
    """The shared table for a colour and rule kind (filled as games need it)."""
    k = (color, kind, forbid_overline)
    t = _TABLES.get(k)
    if t is None:
        t = LineTable(color, kind, forbid_overline)
        _TABLES[k] = t
    return t
