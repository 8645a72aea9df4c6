"""The gomoku board: stones, incremental line patterns, hashing, and the shared search's interface.

Cells live on a padded grid (a margin of five edge cells on every side) so a point's ten line
neighbours are always valid indices. Moves are grid indices. Each (direction, point) has one int
in ``lines``: its 20-bit key (the ten neighbours), an "occupied" bit and both colours' shapes, so
a stone moves the forty keys around it by one addition each, with one list read and one write;
each changed key of an empty point is read from a flat table of both colours' shapes (one list
index, no hashing), and a changed shape moves the point's packed score and counters (both
colours in one int each) by one more table look-up. The threat sets (points that
make a five, a four, an open three) change only when a counter crosses zero. Unmake reverses the
same steps.

>>> b = Board(15, 15, 0)
>>> for x in range(4):
...     _ = b.make(b.index(3 + x, 7)); _ = b.make(b.index(3 + x, 9))
>>> sorted(b.name(m) for m in b.fives[BLACK])
['c8', 'h8']
"""

from typing import Final

import random

from engine_core.game import MATE, NO_SCORE, SearchPosition
from gomoku_protocol import patterns as pt
from gomoku_protocol.evaluate import evaluate, threat_level
from gomoku_protocol.rules import BLACK, EMPTY, WALL, WHITE, forbidden_kind, makes_win, rule_kinds
from gomoku_protocol.weights import ATTACK, DEFENCE

MARGIN: Final = 5
MIN_SIZE: Final = 5
MAX_SIZE: Final = 22
KEY_SPACE: Final = 1 << 20  # line keys: ten neighbours, two bits each
UNKNOWN: Final = 255  # a key not classified yet (shapes pack into 0..170)
SHAPES: Final = 255  # a line entry: both shapes in the low byte,
OCCUPIED: Final = 256  # the point's own stone (or edge) above them,
KEY_SHIFT: Final = 9  # and the neighbours' key above that
SCORE_SHIFT: Final = 32  # white's score above black's in one int
COUNT_SHIFT: Final = 24  # white's counters above black's in one int
LOW_SCORE: Final = (1 << SCORE_SHIFT) - 1
LOW_COUNT: Final = (1 << COUNT_SHIFT) - 1
THREAT_BITS: Final = 0xFFFF | (0xFFFF << COUNT_SHIFT)  # fives, fours and open threes of both colours
QUIET_MOVES: Final = 10  # quiet candidates kept per node, best by pattern score first
EVAL_CACHE: Final = 1 << 16  # static scores remembered by position key (a third of leaves repeat)

STYLES: Final = {"aggressive": (130, 70), "balanced": (100, 90), "defensive": (80, 120)}

_ZOBRIST: list[int] = []


def _zobrist(count: int) -> list[int]:
    global _ZOBRIST
    if len(_ZOBRIST) < count:
        rng = random.Random(0x5A4C1)
        _ZOBRIST = [rng.getrandbits(62) | 1 for _ in range(count)]
    return _ZOBRIST


_PAIRS: Final[dict[tuple[int, int, bool], list[int]]] = {}


def _pair_table(kb: int, kw: int, renju: bool) -> list[int]:
    """Raw line key -> both colours' shapes (black | white << 4), filled as keys appear; shared by
    every board of the same rule (a fixed 8 MB: one slot per possible key)."""
    k = (kb, kw, renju)
    t = _PAIRS.get(k)
    if t is None:
        t = [UNKNOWN] * KEY_SPACE
        _PAIRS[k] = t
    return t


def _deltas(per_shape: list[int], shift: int) -> list[int]:
    """For every (old, new) pair of packed shapes, the change of both colours' packed sums."""
    out = [0] * (256 * 256)
    for old in range(171):
        for new in range(171):
            black = per_shape[new & 15] - per_shape[old & 15]
            white = per_shape[new >> 4] - per_shape[old >> 4]
            out[(old << 8) | new] = black + (white << shift)
    return out


def _padded(values: list[int]) -> list[int]:
    return values + [0] * (16 - len(values))


SCORE_DELTA: Final = _deltas(_padded(pt.VALUE), SCORE_SHIFT)
ATTACK_DELTA: Final = _deltas(_padded(ATTACK), SCORE_SHIFT)
DEFENCE_DELTA: Final = _deltas(_padded(DEFENCE), SCORE_SHIFT)
COUNT_DELTA: Final = _deltas(_padded(pt.COUNT), COUNT_SHIFT)


def cell_bonus(c: int) -> int:
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


class Board(SearchPosition):
    def __init__(self, width: int, height: int, rule: int) -> None:
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise ValueError(f"unsupported size {width}x{height} (sizes {MIN_SIZE}..{MAX_SIZE})")
        self.width = width
        self.height = height
        self.rule = rule
        kb, kw, renju = rule_kinds(rule)
        self.renju = renju
        self.kinds: list[int] = [kb, kb, kw]
        self.stride = width + 2 * MARGIN
        n = self.stride * (height + 2 * MARGIN)
        self.n = n
        s = self.stride
        self.dirs: list[int] = [1, s, s + 1, s - 1]
        # the sixteen points within two steps along a line: where candidate moves live
        self.ring: list[int] = [k * step for step in self.dirs for k in (-2, -1, 1, 2)]
        self.cells: list[int] = [WALL] * n
        self.points: list[int] = []
        for y in range(height):
            for x in range(width):
                i = (y + MARGIN) * s + x + MARGIN
                self.cells[i] = EMPTY
                self.points.append(i)
        tb = pt.table(BLACK, kb, renju)
        self.tables: list[pt.LineTable] = [tb, tb, pt.table(WHITE, kw, False)]
        # key << KEY_SHIFT | OCCUPIED | black's shape | white's shape << 4, per line of a point
        self.lines: list[int] = [OCCUPIED] * (4 * n)
        self.pairs: list[int] = _pair_table(kb, kw, renju)
        self.counts2: list[int] = [0] * n  # both colours' counters per point (pt.COUNT fields)
        self.scores2: list[int] = [0] * n  # both colours' summed shape values per point
        self.attack2 = 0  # both colours' fitted attack weights summed over the board
        self.defence2 = 0  # and their defence weights
        self.fives: list[set[int]] = [set(), set(), set()]
        self.fours: list[set[int]] = [set(), set(), set()]
        self.threes: list[set[int]] = [set(), set(), set()]
        self.near: list[int] = [0] * n
        self.cand: set[int] = set()
        zob = _zobrist(4 * n + 1)
        self.zob: list[int] = zob
        self.side_key = zob[4 * n]
        self.hash = 0
        self.side = BLACK
        self.history: list[int] = []
        self.colors: list[int] = []  # colour of each stone in history (3 for a neutral stone)
        self.won: list[bool] = []
        self.stones = 0
        self.attack = 100
        self.defence = 90
        self.root_moves: list[int] = []
        self.root_stones = -1
        self.scored: dict[int, int] = {}  # position key -> static score (cleared when full)
        for i in self.points:
            for d in range(4):
                step = self.dirs[d]
                key = 0
                for k in range(1, 6):
                    key |= self.cells[i - k * step] << (2 * (5 - k))
                    key |= self.cells[i + k * step] << (2 * (4 + k))
                self.lines[d * n + i] = key << KEY_SHIFT
                self._reshape(d, i)

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

    def restrict_root(self, moves: list[int]) -> None:
        """Make :meth:`moves` return exactly ``moves`` in the current position (empty: no limit)."""
        self.root_moves = list(moves)
        self.root_stones = self.stones if moves else -1

    def set_style(self, attack: int, defence: int) -> None:
        if (attack, defence) != (self.attack, self.defence):
            self.scored = {}
        self.attack = attack
        self.defence = defence

    # --- incremental patterns --------------------------------------------------------------------

    def count(self, color: int, i: int) -> int:
        """``color``'s shape counters at ``i`` (pt.COUNT fields: fives, open fours, fours, …)."""
        c = self.counts2[i]
        return c & LOW_COUNT if color == BLACK else c >> COUNT_SHIFT

    def score(self, color: int, i: int) -> int:
        """``color``'s summed line-shape values at ``i``."""
        v = self.scores2[i]
        return v & LOW_SCORE if color == BLACK else v >> SCORE_SHIFT

    def attack_total(self, color: int) -> int:
        """``color``'s shapes over every point, weighted as the side to move's (fitted)."""
        v = self.attack2
        return v & LOW_SCORE if color == BLACK else v >> SCORE_SHIFT

    def defence_total(self, color: int) -> int:
        """``color``'s shapes over every point, weighted as the opponent's (fitted)."""
        v = self.defence2
        return v & LOW_SCORE if color == BLACK else v >> SCORE_SHIFT

    def _store(self, i: int, old: int, new: int) -> None:
        """A line of point ``i`` went from the packed shapes ``old`` to ``new``: move the sums and
        counters."""
        pair = (old << 8) | new
        # Spelled out, not ``+=``: mypyc compiles an augmented list item to generic object addition.
        score: int = self.scores2[i] + SCORE_DELTA[pair]
        self.scores2[i] = score
        self.attack2 += ATTACK_DELTA[pair]
        self.defence2 += DEFENCE_DELTA[pair]
        dc = COUNT_DELTA[pair]
        if dc:
            oc = self.counts2[i]
            nc = oc + dc
            self.counts2[i] = nc
            if (oc ^ nc) & THREAT_BITS:
                self._regroup(BLACK, i, oc & LOW_COUNT, nc & LOW_COUNT)
                self._regroup(WHITE, i, oc >> COUNT_SHIFT, nc >> COUNT_SHIFT)

    def _regroup(self, color: int, i: int, oc: int, nc: int) -> None:
        """``color``'s counters at ``i`` went from ``oc`` to ``nc``: keep the threat sets in step."""
        if (oc & 15) != (nc & 15):
            if nc & 15:
                self.fives[color].add(i)
            else:
                self.fives[color].discard(i)
        if (oc ^ nc) & 0xFF0:
            if (nc >> 4) & 0xFF:
                self.fours[color].add(i)
            else:
                self.fours[color].discard(i)
        if (oc ^ nc) & 0xF000:
            if (nc >> 12) & 15:
                self.threes[color].add(i)
            else:
                self.threes[color].discard(i)

    def _pair(self, key: int) -> int:
        both = self.tables[BLACK].shape(key) | (self.tables[WHITE].shape(key) << 4)
        self.pairs[key] = both
        return both

    def _reshape(self, d: int, i: int) -> None:
        """Read the shapes of line ``d`` of the now empty point ``i`` from its key."""
        j = d * self.n + i
        v = self.lines[j]
        key = v >> KEY_SHIFT
        both = self.pairs[key]
        if both == UNKNOWN:
            both = self._pair(key)
        self.lines[j] = (key << KEY_SHIFT) | both
        if both != v & SHAPES:
            self._store(i, v & SHAPES, both)

    def _occupy(self, d: int, i: int) -> None:
        """Line ``d`` of point ``i`` now holds a stone: it makes no shape."""
        j = d * self.n + i
        v = self.lines[j]
        old = v & SHAPES
        self.lines[j] = (v - old) | OCCUPIED
        if old:
            self._store(i, old, 0)

    def shape(self, color: int, d: int, i: int) -> int:
        """The line shape ``color`` makes along direction ``d`` by playing the empty point ``i``."""
        p = self.lines[d * self.n + i] & SHAPES
        return p & 15 if color == BLACK else p >> 4

    def _relines(self, i: int, delta: int) -> None:
        """Add ``delta`` (a colour, negated to take it away) at ``i`` to the keys of the forty
        points around it, and re-read the shapes of the empty ones (inlined: the hottest loop)."""
        lines = self.lines
        pairs = self.pairs
        n = self.n
        for d in range(4):
            step = self.dirs[d]
            base = d * n
            for k in range(1, 6):
                q = i - k * step
                j = base + q
                v = lines[j] + (delta << (KEY_SHIFT + 8 + 2 * k))
                if not v & OCCUPIED:
                    key = v >> KEY_SHIFT
                    both = pairs[key]
                    if both == UNKNOWN:
                        both = self._pair(key)
                    old = v & SHAPES
                    if both != old:
                        v += both - old
                        self._store(q, old, both)
                lines[j] = v
                q = i + k * step
                j = base + q
                v = lines[j] + (delta << (KEY_SHIFT + 10 - 2 * k))
                if not v & OCCUPIED:
                    key = v >> KEY_SHIFT
                    both = pairs[key]
                    if both == UNKNOWN:
                        both = self._pair(key)
                    old = v & SHAPES
                    if both != old:
                        v += both - old
                        self._store(q, old, both)
                lines[j] = v

    def place(self, i: int, color: int) -> None:
        """Put a stone (``color`` 3 is a neutral stone, a continuous game's finished five)."""
        cells = self.cells
        cells[i] = color
        for d in range(4):
            self._occupy(d, i)
        self._relines(i, color)
        near = self.near
        for r in self.ring:
            q = i + r
            c: int = near[q] + 1
            near[q] = c
            if c == 1 and cells[q] == EMPTY:
                self.cand.add(q)
        self.cand.discard(i)
        self.hash ^= self.zob[color * self.n + i]
        self.stones += 1

    def remove(self, i: int) -> None:
        cells = self.cells
        color = cells[i]
        cells[i] = EMPTY
        n = self.n
        self._relines(i, -color)
        near = self.near
        for r in self.ring:
            q = i + r
            c: int = near[q] - 1
            near[q] = c
            if c == 0:
                self.cand.discard(q)
        for d in range(4):
            self._reshape(d, i)
        if near[i] > 0:
            self.cand.add(i)
        self.hash ^= self.zob[color * n + i]
        self.stones -= 1

    # --- rules ------------------------------------------------------------------------------------

    def maybe_forbidden(self, i: int) -> bool:
        """Whether black's move on ``i`` needs the full forbidden test (the tables can't clear it)."""
        c = self.counts2[i] & LOW_COUNT
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

    def key(self) -> int:
        return self.hash ^ self.side_key if self.side == WHITE else self.hash

    def play(self, i: int, color: int) -> None:
        """Put ``color``'s stone on ``i`` as a game move (no legality test) and pass the turn."""
        self.won.append(color != 3 and (self.count(color, i) & 15) != 0)
        self.place(i, color)
        self.history.append(i)
        self.colors.append(color)
        self.side = 3 - color if color != 3 else self.side

    def make(self, move: int) -> bool:
        if self.cells[move] != EMPTY:
            return False
        color = self.side
        if color == BLACK and self.renju and self.maybe_forbidden(move):
            if forbidden_kind(self.cells, move, self.dirs):
                return False
        self.won.append((self.count(color, move) & 15) != 0)
        self.place(move, color)
        self.history.append(move)
        self.colors.append(color)
        self.side = 3 - color
        return True

    def unmake(self) -> None:
        i = self.history.pop()
        color = self.colors.pop()
        self.won.pop()
        self.remove(i)
        if color != 3:
            self.side = color

    def make_null(self) -> None:
        self.side = 3 - self.side

    def unmake_null(self) -> None:
        self.side = 3 - self.side

    def null_ok(self) -> bool:
        return False  # gomoku has no zugzwang to guard, but a pass hides every threat: unsound

    def in_check(self) -> bool:
        return len(self.fives[3 - self.side]) > 0

    def rule_score(self, ply: int) -> int:
        if self.won and self.won[-1]:
            return -MATE + ply
        if self.fives[self.side]:
            return MATE - ply - 1
        return NO_SCORE

    def no_move_score(self, ply: int) -> int:
        return 0 if self.full() else -MATE + ply

    def move_limit(self) -> int:
        return self.n

    def move_name(self, move: int) -> str:
        return self.name(move)

    def order_score(self, i: int, color: int) -> int:
        """The one-ply pattern score of ``color`` playing ``i``: attack plus weighted defence."""
        o = 3 - color
        own = self.score(color, i) + cell_bonus(self.count(color, i))
        opp = self.score(o, i) + cell_bonus(self.count(o, i))
        return own * self.attack + opp * self.defence

    def capture_order(self, move: int) -> int:
        return 1 + self.order_score(move, self.side) // 64

    def threatening(self, color: int) -> bool:
        """Whether ``color`` can make an open four or a double four with its next stone."""
        for i in self.fours[color]:
            c = self.count(color, i)
            if pt.flex4_count(c) or pt.four_count(c) >= 2:
                return True
        return False

    def moves(self) -> list[int]:
        if self.stones == self.root_stones:
            return list(self.root_moves)
        s = self.side
        o = 3 - s
        if self.fives[s]:
            return [min(self.fives[s])]
        if self.fives[o]:
            return sorted(self.fives[o])
        if self.threatening(o):
            forced = self.fours[s] | self.fours[o]
            return sorted(forced)
        if threat_level(self, o) == 1:
            # The opponent has a four-three or double-three point: only our fours, or a stone on
            # the lines of its fours and threes, can stop it.
            return sorted(self.fours[s] | self.fours[o] | self.threes[o])
        if not self.cand:
            if self.full():
                return []
            return [self._centre_move()]
        scored: list[int] = []
        shift = 12
        for i in self.cand:
            scored.append((self.order_score(i, s) << shift) | i)
        scored.sort(reverse=True)
        out: list[int] = []
        for v in scored[:QUIET_MOVES]:
            out.append(v & ((1 << shift) - 1))
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
        for i in self.fours[self.side]:
            c = self.count(self.side, i)
            if pt.flex4_count(c) or pt.four_count(c) >= 2 or pt.three_count(c):
                out.append(i)
        out.sort()
        return out

    def evaluate(self) -> int:
        key = self.key()
        score = self.scored.get(key, NO_SCORE)
        if score == NO_SCORE:
            if len(self.scored) >= EVAL_CACHE:
                self.scored = {}
            score = evaluate(self)
            self.scored[key] = score
        return score
