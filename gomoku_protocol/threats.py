"""Threat-space search: VCF (victory by continuous fours) and VCT (by threes and fours).

Both are proof searches over the real board (make/unmake, so renju's forbidden points and every
rule's idea of a five are respected): the attacker picks one threat, the defender must answer
every way that could refute it, and a line counts as won only when every answer loses.

* VCF: the attacker plays a four; the defender's only replies are the points that stop the five
  (each is tried, so caro's blocked fives and renju's forbidden blocks come out right).
* VCT: the attacker may also play an open three; the defender may then block on any point where the
  attacker would make a four, or counter with a four of his own. A VCF is tried first at every
  attacker node. Depth counts the attacker's threats only: blocking a counter-four is free.

**Dependency restriction** (Allis' threat-space search): after its first threat, the attacker only
plays threats *related* to its last gain, that is, on a line through one of the stones it placed
since its previous threat (the threat itself and any forced block after it) within four cells, so
that the new stone and that one can share a five. A threat unrelated to the last gain was already
there a move earlier (the defender's stones only take threats away), so the line that plays it
first is searched too; what the restriction gives up is the rare win where the defender's answer to
the earlier threat spoils the swapped order. Inside a VCF each four must be related to one of the
last two fours (:data:`VCF_CHAIN`; the last alone lost two of the five reference renju VCFs). Only
the attacker's choices are restricted: every defence is still searched, so a line reported won is
a forced win.

**Quiet threats** (optional, :meth:`ThreatSearch.vct`'s ``quiet``): the attacker may also play a move
that makes no four and no open three but lines up two or more lines (each a closed three or an open
two: :func:`lines_up`) after which it has a VCF. The defender's answers are then the points on
which that VCF can be spoilt (:meth:`ThreatSearch._spoilers`): its own stones and replies, the
defender's four points, and every point that would make a four with one of its forced replies;
each is searched, and a stone anywhere else leaves the same VCF winning, so a line reported won is
still forced. Off on renju and caro boards, where a stone can change a point's legality or a five's
worth from further away. Their subtrees share a node budget per iteration.

Failed positions are remembered by key, depth and the restriction's gain squares (a failure
under one restriction says nothing under another); proven wins are remembered by key alone (a
proof holds whatever led there), which collapses the orders in which the defender can spend his
counter-fours. Both memories are open hash tables in native vectors (:class:`Memo`): compiled, a
look-up at a node reads machine words and allocates nothing.
"""

import time
from typing import Final, Optional

from librt.vecs import append as vec_append, extend as vec_extend, vec
from mypy_extensions import i64

from gomoku_protocol import patterns as pt
from gomoku_protocol.position import FOUR_BITS, POINT_BITS, POINT_MASK, Position
from gomoku_protocol.rules import CARO8, EMPTY, WALL

CHECK_EVERY: Final = 31  # nodes between clock checks
MEMO_LIMIT: Final = 200000  # remembered failures per memo before it is cleared (48-96 bytes each: brain.ENTRY_BYTES)
REACH: Final = 4  # a related threat is on a line through a gain square, at most this many cells away
VCF_CHAIN: Final = 2  # a four inside a VCF must be related to one of the last this many fours (0: any four)
VCT_CHAIN: Final = 1  # a threat of a VCT must be related to one of the last this many gains

FIRST_SLOTS: Final = 1024  # a memo table's slots when new or cleared (a power of two; doubled at half full)
CTX_BITS: Final = (1 << 50) - 1  # a restriction's number: exact for up to four gains, hashed beyond
QUIET_CTX: Final = 1 << 50  # added to a VCT failure's context when quiet threats were searched
QUIET_MOVES: Final = 6  # quiet threats tried at one attacker node, best first


def context(gains: tuple[int, ...]) -> i64:
    """The number a memo keeps a failure under for the restriction to ``gains`` (none: 0): up to
    four gains it is exact (4099 to the fourth is below 2**50), beyond it a hash that machine words
    and Python ints compute alike.

    >>> context(()), context((5,)), context((5, 7)) == 6 * 4099 + 8
    (0, 6, True)
    """
    ctx: i64 = 0
    for g in gains:
        ctx = (ctx * 4099 + g + 1) & CTX_BITS
    return ctx


def _slot(key: i64, ctx: i64, mask: i64) -> i64:
    return (key ^ ctx ^ (ctx >> 20) ^ (ctx >> 40)) & mask


class Memo:
    """One kind of threat search's memory (VCF or VCT) in native vectors, open hash tables that
    never box a number at a node: the deepest search that failed from a position key under a
    restriction (``ctx``, :func:`context`), and the line that wins a position (kept in one vector
    of lines, each its length and then its moves). Nothing is replaced; a table doubles when half
    full, and :meth:`trim` empties one that holds more entries than allowed.

    >>> m = Memo(); m.fail(77, 0, 3); m.fail(77, 6, 5); m.win(78, [1, 2, 3])
    >>> m.failed(77, 0, 3), m.failed(77, 0, 4), m.failed(77, 6, 4), m.failed(77, 9, 4), m.won(78), m.won(79)
    (True, False, True, False, [1, 2, 3], None)
    """

    def __init__(self) -> None:
        self.fail_keys = vec[i64]()
        self.fail_ctx = vec[i64]()
        self.fail_depth = vec[i64]()  # 0: a free slot (a failure is stored at depth 1 or more)
        self.failures: i64 = 0
        self.win_keys = vec[i64]()
        self.win_at = vec[i64]()  # where the line starts in ``lines``, plus one (0: a free slot)
        self.lines = vec[i64]()
        self.wins: i64 = 0
        self.clear_fails(FIRST_SLOTS)
        self.clear_wins(FIRST_SLOTS)

    def clear_fails(self, slots: i64) -> None:
        self.fail_keys = vec[i64]([0] * slots)
        self.fail_ctx = vec[i64]([0] * slots)
        self.fail_depth = vec[i64]([0] * slots)
        self.failures = 0

    def clear_wins(self, slots: i64) -> None:
        self.win_keys = vec[i64]([0] * slots)
        self.win_at = vec[i64]([0] * slots)
        self.lines = vec[i64]()
        self.wins = 0

    def trim(self, limit: int) -> None:
        """Empty the failures, and the wins, if more than ``limit`` are kept."""
        if self.failures > limit:
            self.clear_fails(FIRST_SLOTS)
        if self.wins > limit:
            self.clear_wins(FIRST_SLOTS)

    def _fail_slot(self, key: i64, ctx: i64) -> i64:
        """The slot of (``key``, ``ctx``) in the failures, or of the free slot where it would go."""
        keys = self.fail_keys
        depths = self.fail_depth
        mask: i64 = len(keys) - 1
        s = _slot(key, ctx, mask)
        while depths[s] and (keys[s] != key or self.fail_ctx[s] != ctx):
            s = (s + 1) & mask
        return s

    def failed(self, key: i64, ctx: i64, depth: i64) -> bool:
        """Whether a search of ``depth`` or more failed from ``key`` unrestricted, or under ``ctx``
        (in the same mode: :data:`QUIET_CTX`)."""
        free = ctx & ~CTX_BITS
        if self.fail_depth[self._fail_slot(key, free)] >= depth:
            return True
        return ctx != free and self.fail_depth[self._fail_slot(key, ctx)] >= depth

    def fail(self, key: i64, ctx: i64, depth: i64) -> None:
        s = self._fail_slot(key, ctx)
        if not self.fail_depth[s]:
            self.fail_keys[s] = key
            self.fail_ctx[s] = ctx
            self.failures += 1
        self.fail_depth[s] = depth
        if 2 * self.failures > len(self.fail_keys):
            keys, ctxs, depths = self.fail_keys, self.fail_ctx, self.fail_depth
            self.clear_fails(2 * len(keys))
            k: i64
            for k in range(len(keys)):
                if depths[k]:
                    self.fail(keys[k], ctxs[k], depths[k])

    def _win_slot(self, key: i64) -> i64:
        keys = self.win_keys
        at = self.win_at
        mask: i64 = len(keys) - 1
        s = key & mask
        while at[s] and keys[s] != key:
            s = (s + 1) & mask
        return s

    def won(self, key: i64) -> Optional[list[int]]:
        """The line that wins from ``key``, as a new list, or None."""
        start = self.win_at[self._win_slot(key)]
        if not start:
            return None
        lines = self.lines
        out: list[int] = []
        k: i64
        for k in range(start, start + lines[start - 1]):
            out.append(lines[k])
        return out

    def win(self, key: i64, line: list[int]) -> None:
        s = self._win_slot(key)
        if not self.win_at[s]:
            self.win_keys[s] = key
            self.wins += 1
        lines = vec_append(self.lines, len(line))
        self.win_at[s] = len(lines)
        self.lines = vec_extend(lines, line)
        if 2 * self.wins > len(self.win_keys):
            keys, at = self.win_keys, self.win_at
            self.win_keys = vec[i64]([0] * (2 * len(keys)))
            self.win_at = vec[i64]([0] * (2 * len(keys)))
            k: i64
            for k in range(len(keys)):
                if at[k]:
                    s = self._win_slot(keys[k])
                    self.win_keys[s] = keys[k]
                    self.win_at[s] = at[k]


def deepening(depth: int, leap_from: int) -> list[int]:
    """The depth limits of a VCT's iterations: one threat at a time up to ``leap_from``, then two
    at a time, ending at ``depth`` (``leap_from`` 0: one at a time throughout).

    Each iteration costs about five times the one before, so beyond the third, skipping every other
    one saves a fifth of the work before a deep win (the 10 positions of ``tests/data/gomoku/pela15_wins.txt``
    and ``pela20_wins.txt`` at depth 12: 1.57 M nodes in all instead of 1.93 M, game 22's 9,463 instead of 49,746). It also
    moves a win one step past a skipped depth: the defence checks, which look for the opponent's
    win at a few thousand nodes, keep the steps of one (with leaps the 2,000-node check of
    ``tests/test_gomoku_threat_checks.py`` no longer finds its VCT).

    >>> deepening(9, 3), deepening(8, 3), deepening(2, 3), deepening(4, 0)
    ([1, 2, 3, 5, 7, 9], [1, 2, 3, 5, 7, 8], [1, 2], [1, 2, 3, 4])
    """
    if leap_from <= 0 or depth <= leap_from:
        return list(range(1, depth + 1))
    return list(range(1, leap_from + 1)) + list(range(leap_from + 2, depth, 2)) + [depth]


def line_steps(stride: i64, n: i64) -> vec[i64]:
    """How many steps along a row, a column or a diagonal of a grid ``stride`` wide and ``n`` points
    lead from a point to the one ``o`` points further on, up to five, at ``n + o``; -1 where they
    share no line or are further apart. Two points of the board are at most ``stride - 11`` columns
    apart, so an offset within five steps is no other pair of columns and rows: one read of this
    table where the coordinates took two divisions.

    >>> t = line_steps(15, 300)
    >>> t[300 + 3], t[300 + 48], t[300 - 42], t[300 + 17], t[300], t[300 + 90]
    (3, 3, 3, -1, 0, -1)
    """
    table = vec[i64]([-1] * (2 * n + 1))
    for step in (1, stride, stride + 1, stride - 1):
        for k in range(-5, 6):
            table[n + k * step] = abs(k)
    return table


def lines_up(b: Position, color: i64, i: i64) -> i64:
    """How many lines ``color``'s stone on the empty point ``i`` makes a closed three or an open
    two on (a quiet threat needs two: one alone gives no VCF that was not there before). An open
    three is a threat of its own and not counted: between h8 and j8, i8 makes one.

    >>> from gomoku_protocol.position import Position
    >>> b = Position(15, 15, 0)
    >>> for x, y in ((7, 7), (9, 7), (5, 5)): b.play(b.index(x, y), 1)
    >>> lines_up(b, 1, b.index(7, 5)), lines_up(b, 1, b.index(8, 7)), lines_up(b, 1, b.index(12, 12))
    (3, 0, 0)
    """
    n: i64 = 0
    d: i64
    for d in range(4):
        s = b.shape(color, d, i)
        if s == pt.FLEX2 or s == pt.THREE:
            n += 1
    return n


class ThreatSearch:
    def __init__(self, board: Position) -> None:
        self.board = board
        self.steps = line_steps(board.stride, board.n)  # line steps between two points, by their offset
        self.nodes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.stopped = False
        self.vcf_memo = Memo()
        self.vct_memo = Memo()
        self.vcf_depth = 12  # VCF attacker moves tried at each VCT leaf
        self.memo_limit = MEMO_LIMIT
        self.vcf_chain = VCF_CHAIN
        self.vct_chain = VCT_CHAIN
        self.quiet: i64 = 0  # nodes an iteration may spend below quiet threats (0: none tried)
        self.quiet_spent: i64 = 0
        self.mode: i64 = 0  # QUIET_CTX while quiet threats are searched: a VCT failure's context adds it
        # Every node's candidates, on one stack of machine words (``order_score << POINT_BITS | point``,
        # best first within a node's run): a node pushes its run above ``sp`` and, after each of
        # its children, takes ``sp`` back to the run's end; no list is built and no number boxed.
        self.stack = vec[i64]()
        self.sp: i64 = 0

    def stop(self) -> None:
        self.stopped = True

    def clear(self) -> None:
        self.vcf_memo = Memo()
        self.vct_memo = Memo()

    def _out_of_budget(self) -> bool:
        if self.stopped:
            return True
        self.nodes += 1
        if (self.nodes & CHECK_EVERY) == 0:
            if (self.node_limit and self.nodes >= self.node_limit) or time.perf_counter() >= self.deadline:
                self.stopped = True
                return True
        return False

    def _begin(self, ms: int, nodes: int) -> None:
        self.nodes = 0
        self.node_limit = nodes
        self.deadline = time.perf_counter() + ms / 1000.0
        self.stopped = False
        self.sp = 0
        self.vcf_memo.trim(self.memo_limit)
        self.vct_memo.trim(self.memo_limit)

    def _push(self, v: i64) -> None:
        """Put ``v`` on top of the candidate stack."""
        sp = self.sp
        if sp == len(self.stack):
            self.stack = vec_append(self.stack, v)
        else:
            self.stack[sp] = v
        self.sp = sp + 1

    def _push_fives(self, color: i64) -> None:
        """Push ``color``'s five points, lowest first (the order ``sorted`` gives them, with no list built)."""
        lo = self.sp
        b = self.board
        points = b.five_list
        start, stop = pt.span(points, color, b.n)
        k: i64
        for k in range(start, stop):
            f = points[k]
            self._push(f)
            stack = self.stack
            j = self.sp - 1
            while j > lo and stack[j - 1] > f:
                stack[j] = stack[j - 1]
                j -= 1
            stack[j] = f

    def _push_ordered(self, lo: i64, i: i64, color: i64) -> None:
        """Put point ``i`` into the candidates from ``lo`` to the top, which stay best first by
        (:meth:`Position.order_score`, point), as :meth:`Position.ordered` sorts them."""
        v = (self.board.order_score(i, color) << POINT_BITS) | i
        self._push(v)
        stack = self.stack
        j = self.sp - 1
        while j > lo and stack[j - 1] < v:
            stack[j] = stack[j - 1]
            j -= 1
        stack[j] = v

    def _push_fours(self, color: i64, lo: i64, gains: tuple[int, ...], near: bool) -> None:
        """Push ``color``'s four points into the candidates from ``lo`` up, best first: with
        ``gains``, only those related to them (``near``) or only those not."""
        b = self.board
        fours = b.four_list
        start, stop = pt.span(fours, color, b.n)
        k: i64
        for k in range(start, stop):  # the vector itself: a list of the points boxed each one
            i = fours[k]
            if not gains or self._near(i, gains) == near:
                self._push_ordered(lo, i, color)

    def _near(self, i: i64, gains: tuple[int, ...]) -> bool:
        """Whether ``i`` is related to one of ``gains``: on a line through it, at most REACH cells
        away (from the coordinates: no set is built or looked up).

        >>> from gomoku_protocol.position import Position
        >>> b = Position(15, 15, 0); ts = ThreatSearch(b); h8 = b.index(7, 7)
        >>> [ts._near(i, (h8,)) for i in (b.index(11, 7), b.index(3, 3), b.index(12, 7), b.index(8, 9), h8)]
        [True, True, False, False, False]
        >>> ts._near(b.index(12, 7), (h8, b.index(14, 9)))
        True
        """
        steps = self.steps
        n = self.board.n
        for g in gains:
            if 0 < steps[n + g - i] <= REACH:
                return True
        return False

    @staticmethod
    def _chain(gains: tuple[int, ...], move: int, keep: int) -> tuple[int, ...]:
        """The gains after ``move``: it and the last ``keep - 1`` of ``gains`` (``keep`` 0: none, no restriction)."""
        if keep <= 0:
            return ()
        if keep == 1 or not gains:
            return (move,)
        if keep == 2:  # the VCF's chain, at every four: one tuple where the slice of a sum made two
            return (gains[-1], move)
        return (gains + (move,))[-keep:]

    def _recall(self, memo: Memo, depth: int, gains: tuple[int, ...], vct: bool) -> Optional[list[int]]:
        """What is known of the side to move's attack before it is searched (under the restriction
        to ``gains``): a win, from a five on the board or ``memo`` (with ``vct``, the VCF memo's
        too), as its line; a failure remembered, or no depth or budget left, as ``[]``; else None."""
        b = self.board
        a = b.side
        if b.five_count(a):
            return [b.first_five(a)]
        return self._probe(memo, depth, gains, vct, b.key())

    def _probe(self, memo: Memo, depth: int, gains: tuple[int, ...], vct: bool, key: i64) -> Optional[list[int]]:
        """:meth:`_recall` of the position ``key``, in which the attacker, to move, has no five."""
        if depth <= 0 or self._out_of_budget():
            return []
        won = memo.won(key)
        if won is None and vct:
            won = self.vcf_memo.won(key)
        if won is not None:
            return won
        return [] if memo.failed(key, self._context(gains, vct), depth) else None

    def _reply(self, depth: int, gains: tuple[int, ...], r: i64, vct: bool) -> Optional[list[int]]:
        """The attacker's VCF or (``vct``) VCT after the defender's stone on the empty point ``r``:
        :meth:`_attack` after playing it, where the stone is played only if a search must follow
        (a third of the defender's stones were played only to learn that the search was at its
        depth limit or that the position was known). Not for renju, where a stone can be forbidden,
        nor caro, where it can spoil the attacker's other fives: elsewhere those fives stay."""
        b = self.board
        a = 3 - b.side
        fives = b.five_count(a)
        if fives:
            if b.count(a, r) & 15:
                fives -= 1
            if fives:
                return [b.first_five_but(a, r)]
        known = self._probe(self.vct_memo if vct else self.vcf_memo, depth, gains, vct, b.key_after(r))
        if known is not None:
            return known if known else None
        b.make(r)
        line = self._vct_node(depth, gains) if vct else self._vcf_node(depth, gains)
        b.unmake()
        return line

    def _blocks(self, r: i64, threats: list[int]) -> bool:
        """Whether the defender's stone on ``r`` leaves the attacker none of its open-four and
        double-four points ``threats`` (all it has), seen from the tables without playing it."""
        b = self.board
        a = 3 - b.side
        for p in threats:
            if b.threat_after(a, p, r):
                return False
        return True

    def _context(self, gains: tuple[int, ...], vct: bool) -> i64:
        """The memo context of a failure under ``gains`` (a VCT's in the search's mode)."""
        return context(gains) | self.mode if vct else context(gains)

    # --- VCF -----------------------------------------------------------------------------------

    def vcf(self, depth: int, ms: int, nodes: int = 0) -> Optional[list[int]]:
        """The side to move's winning line of fours (its moves and the forced replies), or None.

        Depth-first to the full depth: real VCFs run a dozen fours deep, and deepening step by
        step costs several times more than it saves.
        """
        self._begin(ms, nodes)
        return self._vcf(depth, ())

    def _attack(self, depth: int, gains: tuple[int, ...], vct: bool) -> Optional[list[int]]:
        """The attacker's VCF or (``vct``) VCT from what is known of it, else from a search."""
        known = self._recall(self.vct_memo if vct else self.vcf_memo, depth, gains, vct)
        if known is not None:
            return known if known else None
        return self._vct_node(depth, gains) if vct else self._vcf_node(depth, gains)

    def _vcf(self, depth: int, gains: tuple[int, ...] = ()) -> Optional[list[int]]:
        """The attacker's VCF; after the first four only fours related to ``gains`` are tried."""
        return self._attack(depth, gains, False)

    def _vcf_node(self, depth: int, gains: tuple[int, ...]) -> Optional[list[int]]:
        b = self.board
        a = b.side
        d = 3 - a
        lo = self.sp
        if b.five_count(d):
            # The defender threatens five: only a block that is also a four keeps the attack going.
            # With two or more fives the order of the blocks matters only where one block can spoil
            # the other five, under caro, and there it is the order of the set the board keeps.
            if b.caro:
                for f in b.five_sets[d]:
                    if b.makes_four(a, f):
                        self._push(f)
            else:
                points = b.five_list
                start, stop = pt.span(points, d, b.n)
                k: i64
                for k in range(start, stop):
                    if b.makes_four(a, points[k]):
                        self._push(points[k])
        else:
            self._push_fours(a, lo, gains, True)
        return self._try(self.vcf_memo, depth, gains, lo, False)

    def _try(self, memo: Memo, depth: int, gains: tuple[int, ...], lo: i64, vct: bool) -> Optional[list[int]]:
        """The attacker's candidates from ``lo`` to the top of the stack, in turn: the line of the
        first that wins (remembered in ``memo``), else None (a failure, remembered unless stopped)."""
        b = self.board
        a = b.side
        key = b.key()
        hi = self.sp
        last = vct and depth == 1 and not b.renju and not b.caro
        k: i64
        for k in range(lo, hi):
            m = self.stack[k] & POINT_MASK
            if last and self._fails_last(a, m):
                continue
            if not b.make(m):
                continue
            line = self._after_threat(depth, gains, m) if vct else self._answer_four(depth, a, m, gains)
            b.unmake()
            self.sp = hi
            if line is not None:
                line = [m] + line
                memo.win(key, line)
                return line
            if self.stopped:
                return None
        if not self.stopped:
            memo.fail(key, self._context(gains, vct), depth)
        return None

    def _fails_last(self, a: i64, m: i64) -> bool:
        """Whether the attacker's threat on ``m`` at a VCT's last depth fails, seen from the tables
        without playing it (157,064 of the 564,425 stones the node tool's searches placed). Nothing is searched
        below it: the attacker wins only if every reply leaves it a five, or, after a three, if the
        defender has no reply at all. So a four that makes one five fails (its block leaves none:
        the attacker had no five before it), and so does a three while the defender keeps a four of
        his own, a reply, on a point ``m`` is too far from to touch. Not with quiet threats on,
        where a three after which the attacker has no threat is searched as a quiet move; not for
        renju or caro boards (:meth:`_reply`)."""
        b = self.board
        c = b.count(a, m)
        if c & FOUR_BITS:
            return pt.flex4_count(c) == 0 and pt.four_count(c) < 2
        if self.quiet:
            return False
        steps = self.steps
        n: i64 = b.n
        fours = b.four_list
        start, stop = pt.span(fours, 3 - a, n)
        k: i64
        for k in range(start, stop):
            if steps[n + fours[k] - m] < 0:
                return True
        return False

    def _answer_four(self, depth: int, attacker: int, four: int, gains: tuple[int, ...]) -> Optional[list[int]]:
        """Defender to move after the attacker's four on ``four``: the attacker's win against every block."""
        b = self.board
        if not b.five_count(attacker) or b.five_count(3 - attacker):
            return None  # not a four after all, or the defender simply makes five
        chain = self._chain(gains, four, self.vcf_chain)
        best: Optional[list[int]] = None
        lo = self.sp
        self._push_fives(attacker)
        hi = self.sp
        k: i64
        quick = not b.renju and not b.caro
        for k in range(lo, hi):
            f = self.stack[k]
            if quick:
                line = self._reply(depth - 1, chain, f, False)
            else:
                if not b.make(f):
                    continue  # renju: black may not block on a forbidden point
                line = self._vcf(depth - 1, chain)
                b.unmake()
            self.sp = hi
            if line is None:
                self.sp = lo
                return None
            if best is None:
                best = [f] + line
        self.sp = lo
        return best if best is not None else [self.stack[lo]]

    # --- VCT -----------------------------------------------------------------------------------

    def vct(self, depth: int, ms: int, nodes: int = 0, leap_from: int = 0, quiet: int = 0) -> Optional[list[int]]:
        """The side to move's winning line of threes and fours, or None (the shallowest found
        first; with ``leap_from``, beyond it the shallowest of every other depth: :func:`deepening`).
        With ``quiet``, quiet threats too, up to that many nodes below them an iteration (not on
        renju or caro boards: see the module's note)."""
        self._begin(ms, nodes)
        b = self.board
        self.quiet = 0 if b.renju or b.kinds[1] >= CARO8 else quiet
        self.mode = QUIET_CTX if self.quiet else 0
        for limit in deepening(depth, leap_from):
            self.sp = 0
            self.quiet_spent = 0
            line = self._vct(limit, ())
            if line is not None or self.stopped:
                return line
        return None

    def _threat_at(self, color: i64, i: i64) -> bool:
        """Whether ``color``'s four point ``i`` is a legal open four or double four."""
        b = self.board
        c = b.count(color, i)
        return (pt.flex4_count(c) > 0 or pt.four_count(c) >= 2) and b.legal(i, color)

    def _threatens(self, color: i64) -> bool:
        """Whether ``color`` has a :meth:`_threat_points` point (asked at most nodes: no list is built)."""
        fours = self.board.four_list
        start, stop = pt.span(fours, color, self.board.n)
        k: i64
        for k in range(start, stop):
            if self._threat_at(color, fours[k]):
                return True
        return False

    def _threat_points(self, color: i64) -> list[int]:
        """Legal points where ``color`` makes an open four or a double four."""
        fours = self.board.four_list
        start, stop = pt.span(fours, color, self.board.n)
        found: list[int] = []
        k: i64
        for k in range(start, stop):
            if self._threat_at(color, fours[k]):
                found.append(fours[k])
        return found

    def _reaches_all(self, r: i64, points: list[int]) -> bool:
        """Whether a stone on ``r`` is on every one of ``points`` or within a line window (five
        cells along a line) of it: only then can it change what those points make.

        >>> from gomoku_protocol.position import Position
        >>> b = Position(15, 15, 0); ts = ThreatSearch(b)
        >>> ts._reaches_all(b.index(7, 7), [b.index(7, 2), b.index(12, 12), b.index(7, 7)])
        True
        >>> ts._reaches_all(b.index(7, 7), [b.index(8, 9)]), ts._reaches_all(b.index(7, 7), [b.index(1, 7)])
        (False, False)
        """
        steps = self.steps
        n = self.board.n
        for t in points:
            if steps[n + t - r] < 0:
                return False
        return True

    def _vct(self, depth: int, gains: tuple[int, ...] = ()) -> Optional[list[int]]:
        """The attacker's VCT; unless ``gains`` is empty (the first threat) only threats related
        to ``gains``, the attacker's stones since its previous threat, are tried."""
        return self._attack(depth, gains, True)

    def _vct_node(self, depth: int, gains: tuple[int, ...]) -> Optional[list[int]]:
        b = self.board
        a = b.side
        d = 3 - a
        if b.five_count(d):
            result: Optional[list[int]] = None
            if b.five_count(d) == 1:
                block = b.first_five(d)
                if b.make(block):
                    # A forced block costs no depth (as in Pela's threat search): counted, every
                    # counter-four the defender holds pushed real wins past the depth limit. The
                    # block is a gain of the attacker's too.
                    line = self._defend(depth, gains + (block,) if gains else ())
                    b.unmake()
                    if line is not None:
                        result = [block] + line
                        self.vct_memo.win(b.key(), result)
            return result
        lo = self.sp
        line = self._vcf(self.vcf_depth, gains)
        self.sp = lo
        if line is not None:
            return line
        if self.stopped:
            return None
        # Threats related to the gains first, then the other fours: a four is always tried (it
        # and its block take one move of the defender's and change little), a three only when
        # related (a four-three is among the fours).
        self._push_fours(a, lo, gains, True)
        threes = b.three_list
        start, stop = pt.span(threes, a, b.n)
        k: i64
        for k in range(start, stop):
            t = threes[k]
            if not b.makes_four(a, t) and (not gains or self._near(t, gains)):
                self._push_ordered(lo, t, a)
        if gains:
            self._push_fours(a, self.sp, gains, False)
        if depth >= 2 and self.quiet_spent < self.quiet:
            self._push_quiet(a, gains)
        return self._try(self.vct_memo, depth, gains, lo, True)

    def _push_quiet(self, a: i64, gains: tuple[int, ...]) -> None:
        """Push the attacker's quiet threat candidates (no four, no open three, two lines lined up,
        related to ``gains``) after the other candidates, the best :data:`QUIET_MOVES` in order."""
        b = self.board
        lo = self.sp
        cand = b.cand_list
        k: i64
        for k in range(b.cands):
            q = cand[k]
            if b.count(a, q) == 0 and (not gains or self._near(q, gains)) and lines_up(b, a, q) >= 2:
                self._push_ordered(lo, q, a)
        if self.sp > lo + QUIET_MOVES:
            self.sp = lo + QUIET_MOVES

    def _after_threat(self, depth: int, gains: tuple[int, ...], m: int) -> Optional[list[int]]:
        """Defender to move after the attacker's threat on ``m`` in a VCT: the attacker's win, or None."""
        b = self.board
        d = b.side
        if b.five_count(d):
            return None
        if b.five_count(3 - d):
            # a four: the gains since the last three go on
            chain = () if self.vct_chain <= 0 else gains + (m,) if gains else (m,)
            return self._defend(depth - 1, chain)
        chain = self._chain(gains, m, self.vct_chain) if self.vct_chain > 0 else ()
        if self.quiet and not self._threatens(3 - d):
            return self._after_quiet(depth - 1, chain, m)
        return self._defend(depth - 1, chain)

    def _after_quiet(self, depth: int, gains: tuple[int, ...], q: int) -> Optional[list[int]]:
        """Defender to move after the attacker's quiet move ``q``: the attacker's win against every
        reply that could spoil the VCF it threatens (:meth:`_spoilers`), else None."""
        b = self.board
        start = self.nodes
        b.make_null()
        threat = self._vcf(self.vcf_depth, (q,))
        b.unmake_null()
        line: Optional[list[int]] = None
        if threat is not None:
            lo = self.sp
            self._spoilers(threat)
            line = self._answers(depth, gains, lo, lo, [])
            self.sp = lo
        self.quiet_spent += self.nodes - start
        return line

    def _spoilers(self, vcf: list[int]) -> None:
        """Push, best first for the defender to move, every point where his stone could stop the
        attacker's ``vcf`` (found as if the attacker moved again): its moves and the forced replies,
        his four points, and each empty point of a five-cell window through one of his replies that
        holds no attacker stone and three of his stones or replies (his stone there would make a
        four as the VCF goes, and the attacker's next four would have to block it). On any other
        point the VCF is played as found: its fours keep their windows, and his replies make
        nothing more."""
        b = self.board
        d = b.side
        a = 3 - d
        lo = self.sp
        cells = b.cells
        replies = vcf[1:-1:2]
        for m in vcf:
            self._push_new(lo, m, d)
        self._push_fours(d, lo, (), True)
        for r in replies:
            for step in b.dirs:
                for s in range(-4, 1):
                    window = [r + (s + j) * step for j in range(5)]
                    own = 0
                    for c in window:
                        if cells[c] == a or cells[c] == WALL:
                            own = -5
                        elif cells[c] == d or c in replies:
                            own += 1
                    if own >= 3:
                        for c in window:
                            if cells[c] == EMPTY:
                                self._push_new(lo, c, d)

    def _push_new(self, lo: i64, i: i64, color: i64) -> None:
        """:meth:`_push_ordered`, unless ``i`` is among the candidates from ``lo`` already."""
        k: i64
        for k in range(lo, self.sp):
            if self.stack[k] & POINT_MASK == i:
                return
        self._push_ordered(lo, i, color)

    def _defend(self, depth: int, gains: tuple[int, ...] = ()) -> Optional[list[int]]:
        """Defender to move: the attacker's win against every relevant reply, else None."""
        b = self.board
        d = b.side
        a = 3 - d
        if b.five_count(d):
            return None
        lo = self.sp
        blocks = lo  # the replies below this are blocks, kept only if they remove every threat point
        threats: list[int] = []
        if b.five_count(a):
            self._push_fives(a)
        else:
            threats = self._threat_points(a)
            if not threats:
                return None  # no threat: the defender is free to do anything
            # A block that leaves the attacker an open four loses at once: only blocks that
            # remove every such point, and counter-fours, need a search. Whether a block holds is
            # seen on the board the search starts from (one make where a list of the blocks that
            # hold took two: 29 % fewer makes on the study's wins).
            fours = b.four_list
            start, stop = pt.span(fours, a, b.n)
            k: i64
            for k in range(start, stop):
                q = fours[k]
                if not b.makes_four(d, q) and self._reaches_all(q, threats):
                    self._push_ordered(lo, q, d)
            blocks = self.sp
            self._push_fours(d, blocks, (), True)
        return self._answers(depth, gains, lo, blocks, threats)

    def _answers(self, depth: int, gains: tuple[int, ...], lo: i64, blocks: i64, threats: list[int]) -> Optional[list[int]]:
        """Defender to move, his replies on the stack from ``lo`` up (those below ``blocks`` only
        if they leave the attacker none of its open-four and double-four points ``threats``): the
        attacker's win against each (the line after the first), else None."""
        b = self.board
        a = 3 - b.side
        hi = self.sp
        quick = not b.renju and not b.caro
        best: Optional[list[int]] = None
        k: i64
        for k in range(lo, hi):
            r = self.stack[k] & POINT_MASK
            if quick:
                if b.cells[r] != EMPTY or (k < blocks and not self._blocks(r, threats)):
                    continue
                line = self._reply(depth, gains, r, True)
            else:
                if not b.make(r):
                    continue
                if k < blocks and self._threatens(a):
                    b.unmake()
                    continue
                line = self._vct(depth, gains)
                b.unmake()
            self.sp = hi
            if line is None:
                return None
            if best is None:
                best = [r] + line
        return best if best is not None else []
