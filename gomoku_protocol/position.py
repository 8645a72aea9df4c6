"""The gomoku search position (:class:`Position`): the board's stones, incremental line patterns,
hashing, and the shared search's interface.

Cells live on a padded grid (a margin of five edge cells on every side) so a point's ten line
neighbours are always valid indices. Moves are grid indices. Every line of the board (a row, a
column, a diagonal) is one 64-bit word, two bits a cell (a cell's bits sit at twice its column on a
row, at twice its row on the other lines), in a vector of the board's lines that a stone updates in
place: a stone changes four words, not a key per neighbour. The 20-bit key of a point's ten
neighbours on a line is a shift and a mask of that word; a flat table gives both colours' shapes for
a key (one vector read, no hashing), so the shapes a stone changes are found by reading the table at
each neighbour's old and new key. A changed shape moves the point's packed score and counters (both
colours in one word each) and the board's totals by four reads of a table of deltas for the (old,
new) pair. The points that make a five (a set), a four or an open three (vector lists) change only
when a counter crosses zero. Unmake reverses the same steps.

The board's tables are ``librt.vecs`` ``vec[i64]`` (mypyc's runtime library): compiled, an entry is
read and written as a machine word, nothing boxed; uncompiled they behave as lists of ints, and the
search's trees are the same either way.

>>> b = Position(15, 15, 0)
>>> for x in range(4):
...     _ = b.make(b.index(3 + x, 7)); _ = b.make(b.index(3 + x, 9))
>>> sorted(b.name(m) for m in b.fives[BLACK])
['c8', 'h8']
"""

from typing import Final

import random

# Native vectors and ints for the hot code (librt, mypyc's runtime library): compiled, a read or write
# of a ``vec[i64]`` is a plain load or store and ``i64`` arithmetic plain machine words, where a list
# item must be unboxed on every read and boxed on every write. Uncompiled they are lists and ints.
from librt.vecs import extend as vec_extend, vec
from mypy_extensions import i64

from engine_core.game import MATE, NO_SCORE, SearchPosition
from gomoku_protocol import patterns as pt
from gomoku_protocol.evaluate import ShapeBoard, evaluate, threat_level
from gomoku_protocol.rules import BLACK, CARO8, EMPTY, NEUTRAL, WALL, WHITE, forbidden_kind, makes_win, rule_kinds
from gomoku_protocol.weights import ATTACK, DEFENCE

MARGIN: Final = 5
MIN_SIZE: Final = 5
MAX_SIZE: Final = 22
KEY_SPACE: Final = 1 << 20  # line keys: ten neighbours, two bits each
UNKNOWN: Final = 255  # a key not classified yet (shapes pack into 0..170)
WINDOW: Final = (1 << 22) - 1  # eleven cells of a line int: a point and five neighbours each side
SCORE_SHIFT: Final = 32  # white's score above black's in one int
COUNT_SHIFT: Final = 24  # white's counters above black's in one int
LOW_SCORE: Final = (1 << SCORE_SHIFT) - 1
LOW_COUNT: Final = (1 << COUNT_SHIFT) - 1
THREATS: Final = 0xFFFF  # one colour's fives, fours and open threes among its counters
FOUR_BITS: Final = 0xFF0  # one colour's open fours and fours among its counters
THREE_BITS: Final = 0xF000  # and its open threes
QUIET_MOVES: Final = 10  # quiet candidates kept per node, best by pattern score first
STONE_UNDO: Final = 48  # undo entries one stone can need: its mark, its own four lines, forty neighbours
UNDO_ENTRY: Final = 3  # numbers an undo entry takes
EVAL_CACHE: Final = 1 << 16  # static scores remembered by position key (a third of leaves repeat), one a slot
# A grid index fits in 12 bits (a 22x22 board with its margins has 32 * 32 = 1,024 cells), so a point packs
# under other fields in one machine word: a stone log entry (the point, its colour, whether it made five)
# and a move-ordering key (``order_score << POINT_BITS | point``, sorted as one number). Literals, not
# expressions, so that mypyc inlines them in other modules too.
POINT_BITS: Final = 12
POINT_MASK: Final = 0xFFF  # (1 << POINT_BITS) - 1
WON_SHIFT: Final = 14  # above the colour's two bits at POINT_BITS

STYLES: Final = {"aggressive": (130, 70), "balanced": (100, 90), "defensive": (80, 120)}

_ZOBRIST = vec[i64]()


def _zobrist(count: int) -> vec[i64]:
    """At least ``count`` Zobrist keys, shared by every board (never written): the same numbers
    whatever the count, as they are drawn again from the same seed when more are needed."""
    global _ZOBRIST
    if len(_ZOBRIST) < count:
        rng = random.Random(0x5A4C1)
        _ZOBRIST = vec[i64]([rng.getrandbits(62) | 1 for _ in range(count)])
    return _ZOBRIST


_PAIRS: Final[dict[tuple[int, int, bool], vec[i64]]] = {}


def _pair_table(kb: int, kw: int, renju: bool) -> vec[i64]:
    """Raw line key -> both colours' shapes (black | white << 4), filled as keys appear; shared by
    every board of the same rule (a fixed 8 MB: one slot per possible key)."""
    k = (kb, kw, renju)
    t = _PAIRS.get(k)
    if t is None:
        t = vec[i64]([UNKNOWN] * KEY_SPACE)
        _PAIRS[k] = t
    return t


def as_i64(bits: int) -> int:
    """The 64 bits of a line int as a signed number (the top cell of a 32-cell line sets bit 63).

    Shifts right and masks of fewer bits than are left give the same fields either way, in
    Python's ints and in machine words alike.

    >>> as_i64(3 << 62), as_i64(1 << 62)
    (-4611686018427387904, 4611686018427387904)
    """
    return bits - (1 << 64) if bits >> 63 else bits


def _both(per_shape: list[int], old: int, new: int, shift: int) -> int:
    """The change of both colours' packed sums of ``per_shape`` from packed shapes ``old`` to ``new``."""
    black = per_shape[new & 15] - per_shape[old & 15]
    white = per_shape[new >> 4] - per_shape[old >> 4]
    return black + (white << shift)


def _padded(values: list[int]) -> list[int]:
    return values + [0] * (16 - len(values))


# What a line of a point going from one pair of packed shapes to another changes, four numbers
# from ``(old << 8 | new) << 2`` on: the point's packed values, the board's packed attack and
# defence totals, and the point's packed counters.
D_SCORE: Final = 0
D_ATTACK: Final = 1
D_DEFENCE: Final = 2
D_COUNT: Final = 3


def _deltas() -> vec[i64]:
    """The four deltas of every (old, new) pair of packed shapes, at ``(old << 8 | new) << 2``."""
    value, attack, defence, count = _padded(pt.VALUE), _padded(ATTACK), _padded(DEFENCE), _padded(pt.COUNT)
    out = [0] * (4 * 256 * 256)
    for old in range(171):
        for new in range(171):
            at = ((old << 8) | new) << 2
            out[at + D_SCORE] = _both(value, old, new, SCORE_SHIFT)
            out[at + D_ATTACK] = _both(attack, old, new, SCORE_SHIFT)
            out[at + D_DEFENCE] = _both(defence, old, new, SCORE_SHIFT)
            out[at + D_COUNT] = _both(count, old, new, COUNT_SHIFT)
    return vec[i64](out)


DELTAS: Final = _deltas()
COUNTS: Final = vec[i64](_padded(pt.COUNT))  # a colour's counters of each line shape (pt.COUNT)


def line_key(cells: i64, t: i64) -> i64:
    """The 20-bit key of the ten neighbours of the cell at ``t`` (t >= 5) of a line int."""
    w = (cells >> (2 * t - 10)) & WINDOW
    return (w & 1023) | ((w >> 12) << 10)


def _enlist(points: vec[i64], at: vec[i64], color: i64, n: i64, i: i64) -> None:
    """Add point ``i`` to ``color``'s list in ``points`` (see Position.four_list)."""
    base = color * (n + 1)
    k = points[base]
    points[base + 1 + k] = i
    points[base] = k + 1
    at[color * n + i] = k


def _delist(points: vec[i64], at: vec[i64], color: i64, n: i64, i: i64) -> None:
    """Take point ``i`` out of ``color``'s list in ``points``: the last point takes its place."""
    base = color * (n + 1)
    k = at[color * n + i]
    end = points[base] - 1
    last = points[base + 1 + end]
    points[base + 1 + k] = last
    at[color * n + last] = k
    points[base] = end


def _listed(points: vec[i64], color: i64, n: i64) -> list[int]:
    """``color``'s points in one of the vector lists (Position.four_list, three_list), in the
    vector's order: the threat search filters and sorts them (sets built for it were a third of its time)."""
    start, stop = pt.span(points, color, n)
    out: list[int] = []
    k: i64
    for k in range(start, stop):
        out.append(points[k])
    return out


def cell_bonus(c: i64) -> i64:
    """What a point's combination of line shapes adds to their sum (a four-three, a double three…)."""
    if c & 15:
        return 100000
    fours = pt.four_count(c)
    if pt.flex4_count(c) or fours >= 2:
        return 20000
    threes = pt.three_count(c)
    if fours and threes:
        return 8000
    if threes >= 2:
        return 4000
    return 0


class Position(SearchPosition, ShapeBoard):
    """A game's stones on the padded grid, as the shared search and the threat search read and change them."""

    def __init__(self, width: int, height: int, rule: int) -> None:
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise ValueError(f"unsupported size {width}x{height} (sizes {MIN_SIZE}..{MAX_SIZE})")
        self.width = width
        self.height = height
        self.rule = rule
        kb, kw, renju = rule_kinds(rule)
        self.renju = renju
        self.kinds: list[int] = [kb, kb, kw]
        self.stride: i64 = width + 2 * MARGIN  # machine words: the hot loops index with them
        n = self.stride * (height + 2 * MARGIN)
        self.n: i64 = n  # a machine word: as an int, each read in the line update unboxed it again
        s = self.stride
        self.dirs = vec[i64]([1, s, s + 1, s - 1])
        # the sixteen points within two steps along a line: where candidate moves live
        self.ring = vec[i64]([k * step for step in self.dirs for k in (-2, -1, 1, 2)])
        # how the point ``o`` further on lies from a point, at ``n + o``: its direction ``d`` and the steps
        # ``k`` (-5..5, not 0) along it as ``d | (k + 5) << 2``, or -1 off its lines or further than five
        # steps (as :func:`gomoku_protocol.threats.line_steps`, the offset tells them apart)
        self.line_dir = vec[i64]([-1] * (2 * n + 1))
        for d in range(4):
            for k in range(-5, 6):
                if k:
                    self.line_dir[n + k * self.dirs[d]] = d | ((k + 5) << 2)
        self.cells = vec[i64]([WALL] * n)
        self.points: list[int] = []
        for y in range(height):
            for x in range(width):
                i = (y + MARGIN) * s + x + MARGIN
                self.cells[i] = EMPTY
                self.points.append(i)
        tb = pt.table(BLACK, kb, renju)
        self.tables: list[pt.LineTable] = [tb, tb, pt.table(WHITE, kw, False)]
        self.pairs = _pair_table(kb, kw, renju)
        # per point: both colours' summed shape values, and their counters (pt.COUNT fields)
        self.point_score = vec[i64]([0] * n)
        self.point_count = vec[i64]([0] * n)
        # What each stone changed, newest last, so that taking it away restores instead of
        # recomputing: entries of UNDO_ENTRY numbers in ``undo``, those below ``undo_top`` in use
        # (the rest are reused), each stone's first entry (its mark) in ``marks``, those below
        # ``mark_top`` in use (one a stone: never more than the points). An entry is a point and its
        # sums before the stone changed them; a mark is ``~i`` for the stone on ``i`` and the board's
        # attack and defence totals before it.
        self.undo = vec[i64]()
        self.undo_top: i64 = 0
        self.marks = vec[i64]([0] * n)
        self.mark_top: i64 = 0
        # each line's cells (a row, a column, a diagonal: two bits a cell, as a signed 64-bit word) by
        # line number, and the number of the line through each point in each direction (d * n + i)
        self.lines = vec[i64]()
        self.line_of = vec[i64]()
        self.attack2: i64 = 0  # both colours' fitted attack weights summed over the board
        self.defence2: i64 = 0  # and their defence weights
        # The points where each colour makes five, as a vector list like the fours' below (a set of boxed
        # numbers cost make and unmake a twentieth of the threat search); :attr:`fives` gives them as
        # sets. Caro boards keep the sets too: there the order in which the threat search tries the
        # blocks of a double five can matter (a block can spoil the other five), and it is the set's.
        self.five_list = vec[i64]([0] * (3 * (n + 1)))
        self.five_at = vec[i64]([0] * (3 * n))
        self.caro = kb >= CARO8
        self.five_sets: list[set[int]] = [set(), set(), set()]
        # The points where each colour makes a four (of any kind) and an open three, as vectors:
        # colour c's from ``c * (n + 1)``, its length first and then its points in no order; each
        # point's place in its list at ``c * n + i``. A stone moves a point in or out with a few
        # stores, nothing boxed; :meth:`fours` and :meth:`threes` give them as sets.
        self.four_list = vec[i64]([0] * (3 * (n + 1)))
        self.four_at = vec[i64]([0] * (3 * n))
        self.three_list = vec[i64]([0] * (3 * (n + 1)))
        self.three_at = vec[i64]([0] * (3 * n))
        self.near = vec[i64]([0] * n)  # stones within two steps along a line of each point
        # the empty points near the stones (candidate moves): the first ``cands`` of ``cand_list``,
        # in no order (a fixed vector: an append and a pop were calls into librt), and where each
        # is in it (-1: not a candidate); :attr:`cand` reads them as a list
        self.cand_list = vec[i64]([0] * n)
        self.cands: i64 = 0
        self.cand_at = vec[i64]([-1] * n)
        self.zob = _zobrist(4 * n + 1)
        self.side_key: i64 = self.zob[4 * n]
        self.hash: i64 = 0
        self.side = BLACK
        # The stones played and made, in order, one machine word each (the point, its colour
        # above it, and above that whether it made five), those below ``logged`` in use: lists
        # of boxed numbers cost make and unmake a fifth of their instructions; :attr:`history`
        # and :attr:`colors` read them as lists.
        self.log = vec[i64]([0] * n)
        self.logged: i64 = 0
        self.stones = 0
        self.attack = 100
        self.defence = 90
        self.root_moves: list[int] = []
        self.top = vec[i64]([0] * QUIET_MOVES)  # moves()'s best quiet candidates (scratch)
        self.root_stones = -1
        # Static scores by position key: slot ``key % EVAL_CACHE`` holds a key and its score, a new key
        # replacing the old (the score is the key's position's, so what is kept never changes one).
        # Made at the first evaluation: boards that are never searched do not pay for it.
        self.scored_keys = vec[i64]()
        self.scored = vec[i64]()
        self._build_lines()
        for i in self.points:
            total: i64 = 0
            counters: i64 = 0
            for d in range(4):
                at = self._shapes(d, i) << 2  # from no shape (0) to this one
                total += DELTAS[at + D_SCORE]
                self.attack2 += DELTAS[at + D_ATTACK]
                self.defence2 += DELTAS[at + D_DEFENCE]
                counters += DELTAS[at + D_COUNT]
            self.point_score[i] = total
            self.point_count[i] = counters
            self._recount(i, 0, counters)

    def _build_lines(self) -> None:
        """The cells of every row, column and diagonal of the padded grid, and each point's lines."""
        s = self.stride
        n: int = self.n  # Python ints here: a 32-cell line's top cell is beyond a signed machine word (as_i64)
        rows = n // s
        # a line is known by what stays constant along it: y for a row, x for a column, x - y and x + y
        # for the diagonals (offset by rows so that every number is a list index)
        first = [0, rows, rows + s, 2 * (s + rows)]
        cells = [0] * (3 * (s + rows))
        line_of = [0] * (4 * n)
        for d in range(4):
            for i in range(n):
                y = i // s
                x = i - y * s
                line = first[d] + (y, x, x - y + rows, x + y)[d]
                cells[line] |= int(self.cells[i]) << self.shift(d, i)
                line_of[d * n + i] = line
        self.lines = vec[i64]([as_i64(c) for c in cells])
        self.line_of = vec[i64](line_of)

    # --- coordinates ---------------------------------------------------------------------------

    def index(self, x: int, y: int) -> int:
        return (y + MARGIN) * self.stride + x + MARGIN

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.stride - MARGIN, i // self.stride - MARGIN

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def name(self, i: int) -> str:
        """Letter for x (a = 0), number y + 1: the ``h8`` notation."""
        x, y = self.xy(i)
        return f"{chr(97 + x)}{y + 1}"

    def shift(self, d: int, i: int) -> int:
        """Where point ``i``'s two bits sit in its line int along direction ``d``."""
        return 2 * (i % self.stride) if d == 0 else 2 * (i // self.stride)

    def restrict_root(self, moves: list[int]) -> None:
        """Make :meth:`moves` return exactly ``moves`` in the current position (empty: no limit)."""
        self.root_moves = list(moves)
        self.root_stones = self.stones if moves else -1

    def set_style(self, attack: int, defence: int) -> None:
        if (attack, defence) != (self.attack, self.defence):
            self.scored_keys = vec[i64]()
        self.attack = attack
        self.defence = defence

    # --- incremental patterns --------------------------------------------------------------------

    def count(self, color: i64, i: i64) -> i64:
        """``color``'s shape counters at ``i`` (pt.COUNT fields: fives, open fours, fours, …)."""
        c = self.point_count[i]
        return c & LOW_COUNT if color == BLACK else c >> COUNT_SHIFT

    def score(self, color: i64, i: i64) -> i64:
        """``color``'s summed line-shape values at ``i``."""
        v = self.point_score[i]
        return v & LOW_SCORE if color == BLACK else v >> SCORE_SHIFT

    def attack_total(self, color: int) -> int:
        """``color``'s shapes over every point, weighted as the side to move's (fitted)."""
        v = self.attack2
        return v & LOW_SCORE if color == BLACK else v >> SCORE_SHIFT

    def defence_total(self, color: int) -> int:
        """``color``'s shapes over every point, weighted as the opponent's (fitted)."""
        v = self.defence2
        return v & LOW_SCORE if color == BLACK else v >> SCORE_SHIFT

    def _reserve(self, entries: i64) -> None:
        """Make room for ``entries`` more undo entries (a stone makes at most 4 + 40 and its mark)."""
        need = (self.undo_top + entries) * UNDO_ENTRY
        if len(self.undo) < need:
            self.undo = vec_extend(self.undo, [0] * (need - len(self.undo)))

    def _recount(self, i: i64, oc: i64, nc: i64) -> None:
        """Point ``i``'s packed counters went from ``oc`` to ``nc``: keep each colour's fives, fours
        and threes in step (a point joins or leaves them only when its count there crosses zero).

        The lists are changed here in place (:func:`_enlist` and :func:`_delist` written out), a call
        for each colour and each list cost a fifth of make and unmake; the fives, a few in a
        hundred of the changes, keep their call."""
        n: i64 = self.n
        color: i64 = BLACK
        while color <= WHITE:
            if color == BLACK:
                o = oc & LOW_COUNT
                c = nc & LOW_COUNT
            else:
                o = oc >> COUNT_SHIFT
                c = nc >> COUNT_SHIFT
            if (o ^ c) & THREATS:
                if ((o & 15) == 0) != ((c & 15) == 0):
                    self._refive(color, i, (c & 15) != 0)
                if ((o & FOUR_BITS) == 0) != ((c & FOUR_BITS) == 0):
                    points = self.four_list
                    at = self.four_at
                    base = color * (n + 1)
                    if c & FOUR_BITS:
                        k = points[base]
                        points[base + 1 + k] = i
                        points[base] = k + 1
                        at[color * n + i] = k
                    else:
                        k = at[color * n + i]
                        end = points[base] - 1
                        last = points[base + 1 + end]
                        points[base + 1 + k] = last
                        at[color * n + last] = k
                        points[base] = end
                if ((o & THREE_BITS) == 0) != ((c & THREE_BITS) == 0):
                    points = self.three_list
                    at = self.three_at
                    base = color * (n + 1)
                    if c & THREE_BITS:
                        k = points[base]
                        points[base + 1 + k] = i
                        points[base] = k + 1
                        at[color * n + i] = k
                    else:
                        k = at[color * n + i]
                        end = points[base] - 1
                        last = points[base + 1 + end]
                        points[base + 1 + k] = last
                        at[color * n + last] = k
                        points[base] = end
            color += 1

    def _restore(self, i: i64) -> bool:
        """Take back the sums and threat sets the stone on ``i`` changed, if it was the last stone
        placed (else False: nothing done, and the undo log is dropped)."""
        m = self.mark_top
        if m == 0:
            return False
        m -= 1
        self.mark_top = m
        mark = self.marks[m]
        undo = self.undo
        e = mark * UNDO_ENTRY
        if undo[e] != ~i:
            self.mark_top = 0
            self.undo_top = 0
            return False
        score = self.point_score
        count = self.point_count
        top = self.undo_top - 1
        while top > mark:
            f = top * UNDO_ENTRY
            p = undo[f]
            score[p] = undo[f + 1]
            oc = count[p]
            nc = undo[f + 2]
            if oc != nc:
                count[p] = nc
                self._recount(p, oc, nc)
            top -= 1
        self.attack2 = undo[e + 1]
        self.defence2 = undo[e + 2]
        self.undo_top = mark
        return True

    def _refive(self, color: i64, i: i64, five: bool) -> None:
        """``color`` came to make five at ``i`` (``five``) or no longer does."""
        if five:
            _enlist(self.five_list, self.five_at, color, self.n, i)
            if self.caro:
                self.five_sets[color].add(i)
        else:
            _delist(self.five_list, self.five_at, color, self.n, i)
            if self.caro:
                self.five_sets[color].discard(i)

    def _pair(self, key: i64) -> i64:
        both = self.tables[BLACK].shape(key) | (self.tables[WHITE].shape(key) << 4)
        self.pairs[key] = both
        return both

    def _shapes(self, d: int, i: int) -> int:
        """Both colours' shapes (black | white << 4) along direction ``d`` at the empty point ``i``."""
        key = line_key(self.lines[self.line_of[d * self.n + i]], self.shift(d, i) >> 1)
        both = self.pairs[key]
        if both == UNKNOWN:
            both = self._pair(key)
        return both

    def shape(self, color: int, d: int, i: int) -> int:
        """The line shape ``color`` makes along direction ``d`` by playing the empty point ``i``."""
        if self.cells[i] != EMPTY:
            return 0
        p = self._shapes(d, i)
        return p & 15 if color == BLACK else p >> 4

    def _relines(self, i: i64, color: i64, put: bool) -> None:
        """Put (``put``) or take away ``color`` at ``i`` in its four lines, and move the shapes of
        the point and of the empty points around it that changed (the hottest loop: keys are read
        inline, every number is a machine word and every table a vector).

        A line of a point going from the packed shapes ``was`` to ``now`` moves its sums and
        counters and the board's totals by the deltas of the pair (what they were goes to the undo
        log), in place here rather than in a method called some twenty times a stone."""
        pairs = self.pairs
        lines = self.lines
        line_of = self.line_of
        score = self.point_score
        count = self.point_count
        undo = self.undo
        deltas = DELTAS  # a local: read as a global, every use checked that it was set
        top = self.undo_top
        attack2 = self.attack2
        defence2 = self.defence2
        n: i64 = self.n
        stride: i64 = self.stride
        y = i // stride
        x = i - y * stride
        d: i64
        j: i64
        for d in range(4):
            step: i64 = self.dirs[d]
            t = x if d == 0 else y
            line = line_of[d * n + i]
            old = lines[line]
            stone = color << (2 * t)
            new = old + stone if put else old - stone
            lines[line] = new
            # the point itself first (its lines make nothing while it holds a stone), then the
            # neighbours from five cells before it to five after
            for j in range(11):
                u = t if j == 0 else (t + j - 6 if j <= 5 else t + j - 5)
                if j == 0:
                    w = (old >> (2 * t - 10)) & WINDOW
                    key = (w & 1023) | ((w >> 12) << 10)
                    was = pairs[key]
                    if was == UNKNOWN:
                        was = self._pair(key)
                    now: i64 = 0
                    if not put:
                        was, now = now, was
                elif not (new >> (2 * u)) & 3:  # not the stone, another stone or the edge
                    w = (old >> (2 * u - 10)) & WINDOW
                    key = (w & 1023) | ((w >> 12) << 10)
                    was = pairs[key]
                    if was == UNKNOWN:
                        was = self._pair(key)
                    # the stone's cell in this neighbour's key: slots 0..4 before it, 5..9 after
                    bump = color << (2 * (t - u + 4 if u < t else t - u + 5))
                    key = key + bump if put else key - bump
                    now = pairs[key]
                    if now == UNKNOWN:
                        now = self._pair(key)
                else:
                    continue
                if was != now:
                    q = i + (u - t) * step
                    at = ((was << 8) | now) << 2
                    e = top * UNDO_ENTRY
                    top += 1
                    old_score = score[q]
                    oc = count[q]
                    undo[e] = q
                    undo[e + 1] = old_score
                    undo[e + 2] = oc
                    score[q] = old_score + deltas[at + D_SCORE]
                    attack2 += deltas[at + D_ATTACK]
                    defence2 += deltas[at + D_DEFENCE]
                    dc = deltas[at + D_COUNT]
                    if dc:
                        nc = oc + dc
                        count[q] = nc
                        self._recount(q, oc, nc)
        self.undo_top = top
        self.attack2 = attack2
        self.defence2 = defence2

    @property
    def cand(self) -> list[int]:
        """The candidate moves, empty points within two steps of a stone along a line (a new list, in no order)."""
        return [self.cand_list[k] for k in range(self.cands)]

    def _add_candidate(self, i: i64) -> None:
        k = self.cands
        self.cand_list[k] = i
        self.cand_at[i] = k
        self.cands = k + 1

    def _drop_candidate(self, i: i64) -> None:
        cand_at = self.cand_at
        at = cand_at[i]
        if at >= 0:
            cand_at[i] = -1
            end = self.cands - 1
            self.cands = end
            last = self.cand_list[end]
            if last != i:
                self.cand_list[at] = last
                cand_at[last] = at

    def place(self, i: i64, color: i64) -> None:
        """Put a stone of ``color``, BLACK, WHITE or :data:`~gomoku_protocol.rules.NEUTRAL`."""
        self._reserve(STONE_UNDO)
        top = self.undo_top
        self.marks[self.mark_top] = top
        self.mark_top += 1
        undo = self.undo
        e = top * UNDO_ENTRY
        self.undo_top = top + 1
        undo[e] = ~i
        undo[e + 1] = self.attack2
        undo[e + 2] = self.defence2
        cells = self.cells
        cells[i] = color
        self._relines(i, color, True)
        near = self.near
        r: i64
        for r in self.ring:
            q = i + r
            c = near[q] + 1
            near[q] = c
            if c == 1 and cells[q] == EMPTY:
                self._add_candidate(q)
        self._drop_candidate(i)
        self.hash ^= self.zob[color * self.n + i]
        self.stones += 1

    def remove(self, i: i64) -> None:
        """Take away the stone on ``i``: restored from the undo log when it is the last one placed
        (always, from unmake), else recomputed."""
        cells = self.cells
        color = cells[i]
        cells[i] = EMPTY
        n: i64 = self.n
        if self._restore(i):
            lines = self.lines
            line_of = self.line_of
            y = i // self.stride
            x = i - y * self.stride
            d: i64
            for d in range(4):
                line = line_of[d * n + i]
                lines[line] -= color << (2 * (x if d == 0 else y))
        else:
            self._reserve(STONE_UNDO)
            self._relines(i, color, False)
        near = self.near
        r: i64
        for r in self.ring:
            q = i + r
            c = near[q] - 1
            near[q] = c
            if c == 0:
                self._drop_candidate(q)
        if near[i] > 0:
            self._add_candidate(i)
        self.hash ^= self.zob[color * n + i]
        self.stones -= 1

    # --- rules ------------------------------------------------------------------------------------

    def maybe_forbidden(self, i: int) -> bool:
        """Whether black's move on ``i`` needs the full forbidden test (the tables can't clear it)."""
        c = self.point_count[i] & LOW_COUNT
        return (c & 15) == 0 and (pt.overline_count(c) > 0 or pt.four_count(c) >= 2 or pt.three_count(c) >= 2)

    def forbidden(self, i: int) -> int:
        """Renju: why black may not play ``i`` (3, 4 or 6), else 0. Always 0 in other rules."""
        if not self.renju or self.cells[i] != EMPTY or not self.maybe_forbidden(i):
            return 0
        return forbidden_kind(self.cells, i, self.dirs)

    def forbidden_points(self) -> list[int]:
        return [i for i in self.points if self.cells[i] == EMPTY and self.forbidden(i)]

    def legal(self, i: int, color: int) -> bool:
        return self.cells[i] == EMPTY and not (color == BLACK and self.forbidden(i))

    def wins_at(self, i: int, color: int) -> bool:
        """Whether ``color`` playing the empty point ``i`` wins (checked on the raw cells)."""
        return makes_win(self.cells, i, color, self.kinds[color], self.dirs)

    def full(self) -> bool:
        return self.stones >= len(self.points)

    # --- the shared search's interface ------------------------------------------------------------

    def key_after(self, i: i64) -> i64:
        """:meth:`key` after the side to move plays ``i`` (without playing it)."""
        h = self.hash ^ self.zob[self.side * self.n + i]
        return h if self.side == WHITE else h ^ self.side_key

    def threat_after(self, color: i64, p: i64, r: i64) -> bool:
        """Whether ``color``'s empty point ``p`` still makes an open four or a double four after a
        stone of the other colour on the empty point ``r`` (from the tables, nothing played; not for
        renju, where the stone can change whether ``p`` is forbidden). The stone changes at most the
        line through both, and only by taking away some of its fives: a point that makes no such
        four does not come to make one."""
        if p == r:
            return False
        c = self.count(color, p)
        n: i64 = self.n
        code = self.line_dir[n + r - p]
        if code >= 0:
            d = code & 3
            k = (code >> 2) - 5
            stride: i64 = self.stride
            y = p // stride
            t = p - y * stride if d == 0 else y
            w = (self.lines[self.line_of[d * n + p]] >> (2 * t - 10)) & WINDOW
            key = (w & 1023) | ((w >> 12) << 10)
            pairs = self.pairs
            was = pairs[key]
            if was == UNKNOWN:
                was = self._pair(key)
            # the stone's cell in ``p``'s key: slots 0..4 before it, 5..9 after (as in _relines)
            key += (3 - color) << (2 * (k + 4 if k > 0 else k + 5))
            now = pairs[key]
            if now == UNKNOWN:
                now = self._pair(key)
            if color == BLACK:
                c += COUNTS[now & 15] - COUNTS[was & 15]
            else:
                c += COUNTS[now >> 4] - COUNTS[was >> 4]
        return pt.flex4_count(c) > 0 or pt.four_count(c) >= 2

    def key(self) -> int:
        return self.hash ^ self.side_key if self.side == WHITE else self.hash

    @property
    def history(self) -> list[int]:
        """The points of the stones on the board, in the order they were played or made (a new list)."""
        return [self.log[k] & POINT_MASK for k in range(self.logged)]

    @property
    def colors(self) -> list[int]:
        """The colour of each stone of :attr:`history` (or NEUTRAL)."""
        return [(self.log[k] >> POINT_BITS) & 3 for k in range(self.logged)]

    def _logged_place(self, i: i64, color: i64) -> None:
        """:meth:`place`, logged for :meth:`unmake` with whether the stone made five."""
        won: i64 = 1 if color != NEUTRAL and (self.count(color, i) & 15) != 0 else 0
        self.place(i, color)
        t = self.logged
        self.log[t] = i | (color << POINT_BITS) | (won << WON_SHIFT)
        self.logged = t + 1

    def play(self, i: int, color: int) -> None:
        """Put ``color``'s stone on ``i`` as a game move (no legality test) and pass the turn."""
        self._logged_place(i, color)
        self.side = 3 - color if color != NEUTRAL else self.side

    def make(self, move: int) -> bool:
        if self.cells[move] != EMPTY:
            return False
        color = self.side
        if color == BLACK and self.renju and self.maybe_forbidden(move):
            if forbidden_kind(self.cells, move, self.dirs):
                return False
        self._logged_place(move, color)
        self.side = 3 - color
        return True

    def unmake(self) -> None:
        t = self.logged - 1
        if t < 0:
            raise IndexError("unmake with no stone to take away")
        self.logged = t
        entry = self.log[t]
        color = (entry >> POINT_BITS) & 3
        self.remove(entry & POINT_MASK)
        if color != NEUTRAL:
            self.side = color

    def make_null(self) -> None:
        self.side = 3 - self.side

    def unmake_null(self) -> None:
        self.side = 3 - self.side

    def null_ok(self) -> bool:
        return False  # gomoku has no zugzwang to guard, but a pass hides every threat: unsound

    def in_check(self) -> bool:
        return self.five_count(3 - self.side) > 0

    def rule_score(self, ply: int) -> int:
        if self.logged and self.log[self.logged - 1] >> WON_SHIFT:  # the last stone made five
            return -MATE + ply
        if self.five_count(self.side):
            return MATE - ply - 1
        return NO_SCORE

    def no_move_score(self, ply: int) -> int:
        return 0 if self.full() else -MATE + ply

    def move_limit(self) -> int:
        return self.n

    def move_name(self, move: int) -> str:
        return self.name(move)

    def order_score(self, i: i64, color: i64) -> i64:
        """The one-ply pattern score of ``color`` playing ``i``: attack plus weighted defence."""
        v = self.point_score[i]
        c = self.point_count[i]
        if color == BLACK:
            own = v & LOW_SCORE
            opp = v >> SCORE_SHIFT
        else:
            own = v >> SCORE_SHIFT
            opp = v & LOW_SCORE
        if c:  # a point without fours or threes for either colour gets no bonus
            if color == BLACK:
                own += cell_bonus(c & LOW_COUNT)
                opp += cell_bonus(c >> COUNT_SHIFT)
            else:
                own += cell_bonus(c >> COUNT_SHIFT)
                opp += cell_bonus(c & LOW_COUNT)
        return own * self.attack + opp * self.defence

    def ordered(self, cells: list[int], color: int) -> list[int]:
        """``cells`` best first for ``color`` by :meth:`order_score`, the higher point first on a tie.

        >>> b = Position(15, 15, 0); _ = b.make(b.index(7, 7))
        >>> [b.name(i) for i in b.ordered([b.index(0, 0), b.index(8, 8), b.index(6, 7)], WHITE)]
        ['i9', 'g8', 'a1']
        """
        keyed: list[int] = []
        for i in cells:
            keyed.append((self.order_score(i, color) << POINT_BITS) | i)
        keyed.sort(reverse=True)
        return [k & POINT_MASK for k in keyed]

    def capture_order(self, move: int) -> int:
        return 1 + self.order_score(move, self.side) // 64

    @property
    def fives(self) -> list[set[int]]:
        """The points where each colour makes five, by colour (index 0 empty): new sets."""
        return [set(), set(_listed(self.five_list, BLACK, self.n)), set(_listed(self.five_list, WHITE, self.n))]

    def five_count(self, color: i64) -> i64:
        """How many points make five for ``color``."""
        return self.five_list[color * (self.n + 1)]

    def first_five(self, color: i64) -> i64:
        """The lowest point where ``color`` makes five (it has one)."""
        start, stop = pt.span(self.five_list, color, self.n)
        points = self.five_list
        best = points[start]
        k: i64
        for k in range(start + 1, stop):
            if points[k] < best:
                best = points[k]
        return best

    def first_five_but(self, color: i64, i: i64) -> i64:
        """The lowest point where ``color`` makes five other than ``i`` (it has one), -1 if none."""
        start, stop = pt.span(self.five_list, color, self.n)
        points = self.five_list
        best: i64 = -1
        k: i64
        for k in range(start, stop):
            if points[k] != i and (best < 0 or points[k] < best):
                best = points[k]
        return best

    def fours(self, color: int) -> set[int]:
        """The points where ``color`` makes a four of any kind (a new set)."""
        return set(_listed(self.four_list, color, self.n))

    def threes(self, color: int) -> set[int]:
        """The points where ``color`` makes an open three (a new set)."""
        return set(_listed(self.three_list, color, self.n))

    def four_points(self, color: int) -> list[int]:
        """:meth:`fours` as a new list, in no order."""
        return _listed(self.four_list, color, self.n)

    def three_points(self, color: int) -> list[int]:
        """:meth:`threes` as a new list, in no order."""
        return _listed(self.three_list, color, self.n)

    def makes_four(self, color: int, i: int) -> bool:
        """Whether ``i`` is one of ``color``'s :meth:`fours`."""
        return (self.count(color, i) & FOUR_BITS) != 0

    def threatening(self, color: int) -> bool:
        """Whether ``color`` can make an open four or a double four with its next stone."""
        fours = self.four_list
        start, stop = pt.span(fours, color, self.n)
        k: i64
        for k in range(start, stop):
            c = self.count(color, fours[k])
            if pt.flex4_count(c) or pt.four_count(c) >= 2:
                return True
        return False

    def moves(self) -> list[int]:
        if self.stones == self.root_stones:
            return list(self.root_moves)
        s = self.side
        o = 3 - s
        if self.five_count(s):
            return [self.first_five(s)]
        if self.five_count(o):
            return sorted(_listed(self.five_list, o, self.n))
        if self.threatening(o):
            forced = self.fours(s) | self.fours(o)
            return sorted(forced)
        if threat_level(self, o) == 1:
            # The opponent has a four-three or double-three point: only our fours, or a stone on
            # the lines of its fours and threes, can stop it.
            return sorted(self.fours(s) | self.fours(o) | self.threes(o))
        if self.cands == 0:
            if self.full():
                return []
            return [self._centre_move()]
        # The QUIET_MOVES best by (score, point), best first: kept in order as they come, in a vector
        # of machine words (sorting every candidate's key, boxed and wider than a digit, cost more).
        top = self.top
        cand = self.cand_list
        kept: i64 = 0
        k: i64
        for k in range(self.cands):
            i = cand[k]
            v = (self.order_score(i, s) << POINT_BITS) | i
            if kept < QUIET_MOVES:
                j = kept
                kept += 1
            elif v > top[QUIET_MOVES - 1]:
                j = QUIET_MOVES - 1
            else:
                continue
            while j > 0 and top[j - 1] < v:
                top[j] = top[j - 1]
                j -= 1
            top[j] = v
        out: list[int] = []
        for j in range(kept):
            out.append(top[j] & POINT_MASK)
        return out

    def _centre_move(self) -> int:
        best = self.index(self.width // 2, self.height // 2)
        if self.cells[best] == EMPTY:
            return best
        for i in self.points:
            if self.cells[i] == EMPTY:
                return i
        return best

    def noisy_moves(self) -> list[int]:
        """Fours that bring a second threat (open four, four-four, four-three): quiescence follows
        only these, since chains of plain fours between both sides blow the tree up."""
        out: list[int] = []
        side = self.side
        for i in self.four_points(side):
            c = self.count(side, i)
            if pt.flex4_count(c) or pt.four_count(c) >= 2 or pt.three_count(c):
                out.append(i)
        out.sort()
        return out

    def evaluate(self) -> int:
        key: i64 = self.key()
        keys = self.scored_keys
        if len(keys) == 0:
            keys = self.scored_keys = vec[i64]([-1] * EVAL_CACHE)  # no key is negative
            self.scored = vec[i64]([0] * EVAL_CACHE)
        slot = key & (EVAL_CACHE - 1)
        if keys[slot] == key:
            return self.scored[slot]
        score = evaluate(self)
        keys[slot] = key
        self.scored[slot] = score
        return score
