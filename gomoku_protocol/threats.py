"""Threat-space search: VCF (victory by continuous fours) and VCT (by threes and fours).

Both are proof searches over the real board (make/unmake, so renju's forbidden points and every
rule's idea of a five are respected): the attacker picks one threat, the defender must answer
every way that could refute it, and a line counts as won only when every answer loses.

* VCF: the attacker plays a four; the defender's only replies are the points that stop the five
  (each is tried, so caro's blocked fives and renju's forbidden blocks come out right).
* VCT: the attacker may also play an open three; the defender may then block on any point where the
  attacker would make a four, or counter with a four of his own. A VCF is tried first at every
  attacker node. Depth counts the attacker's threats only: blocking a counter-four is free.

Failed positions are remembered by key and depth, so transpositions are not searched twice.
"""

import time
from typing import Final, Optional

from gomoku_protocol import patterns as pt
from gomoku_protocol.position import Position

CHECK_EVERY: Final = 31  # nodes between clock checks
MEMO_LIMIT: Final = 200000  # remembered failures per memo before it is cleared (about 100 bytes each)


class ThreatSearch:
    def __init__(self, board: Position) -> None:
        self.board = board
        self.nodes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.stopped = False
        self.vcf_fail: dict[int, int] = {}
        self.vct_fail: dict[int, int] = {}
        self.vcf_depth = 12  # VCF attacker moves tried at each VCT leaf
        self.memo_limit = MEMO_LIMIT

    def stop(self) -> None:
        self.stopped = True

    def clear(self) -> None:
        self.vcf_fail = {}
        self.vct_fail = {}

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
        for memo in (self.vcf_fail, self.vct_fail):
            if len(memo) > self.memo_limit:
                memo.clear()

    def _ordered(self, cells: list[int], color: int) -> list[int]:
        b = self.board
        keyed: list[int] = []
        for i in cells:
            keyed.append((b.order_score(i, color) << 12) | i)
        keyed.sort(reverse=True)
        return [k & 4095 for k in keyed]

    # --- VCF -----------------------------------------------------------------------------------

    def vcf(self, depth: int, ms: int, nodes: int = 0) -> Optional[list[int]]:
        """The side to move's winning line of fours (its moves and the forced replies), or None.

        Depth-first to the full depth: real VCFs run a dozen fours deep, and deepening step by
        step costs several times more than it saves.
        """
        self._begin(ms, nodes)
        return self._vcf(depth)

    def _vcf(self, depth: int) -> Optional[list[int]]:
        b = self.board
        a = b.side
        d = 3 - a
        if b.fives[a]:
            return [min(b.fives[a])]
        if depth <= 0 or self._out_of_budget():
            return None
        key = b.key()
        if self.vcf_fail.get(key, -1) >= depth:
            return None
        if b.fives[d]:
            # The defender threatens five: only a block that is also a four keeps the attack going.
            candidates = [i for i in b.fives[d] if i in b.fours(a)]
        else:
            candidates = self._ordered(list(b.fours(a)), a)
        for m in candidates:
            if not b.make(m):
                continue
            line = self._answer_four(depth, a)
            b.unmake()
            if line is not None:
                return [m] + line
            if self.stopped:
                return None
        if not self.stopped:
            self.vcf_fail[key] = depth
        return None

    def _answer_four(self, depth: int, attacker: int) -> Optional[list[int]]:
        """Defender to move after the attacker's four: the attacker's win against every block."""
        b = self.board
        if not b.fives[attacker] or b.fives[3 - attacker]:
            return None  # not a four after all, or the defender simply makes five
        best: Optional[list[int]] = None
        for f in sorted(b.fives[attacker]):
            if not b.make(f):
                continue  # renju: black may not block on a forbidden point
            line = self._vcf(depth - 1)
            b.unmake()
            if line is None:
                return None
            if best is None:
                best = [f] + line
        return best if best is not None else [min(b.fives[attacker])]

    # --- VCT -----------------------------------------------------------------------------------

    def vct(self, depth: int, ms: int, nodes: int = 0) -> Optional[list[int]]:
        """The side to move's winning line of threes and fours, or None (shallowest found first)."""
        self._begin(ms, nodes)
        for limit in range(1, depth + 1):
            line = self._vct(limit)
            if line is not None or self.stopped:
                return line
        return None

    def _threat_points(self, color: int) -> list[int]:
        """Legal points where ``color`` makes an open four or a double four."""
        b = self.board
        found: list[int] = []
        for i in b.fours(color):
            c = b.count(color, i)
            if (pt.flex4_count(c) or pt.four_count(c) >= 2) and b.legal(i, color):
                found.append(i)
        return found

    def _reaches_all(self, r: int, points: list[int]) -> bool:
        """Whether a stone on ``r`` is on every one of ``points`` or within a line window (five
        cells along a line) of it: only then can it change what those points make.

        >>> from gomoku_protocol.position import Position
        >>> b = Position(15, 15, 0); ts = ThreatSearch(b)
        >>> ts._reaches_all(b.index(7, 7), [b.index(7, 2), b.index(12, 12), b.index(7, 7)])
        True
        >>> ts._reaches_all(b.index(7, 7), [b.index(8, 9)]), ts._reaches_all(b.index(7, 7), [b.index(1, 7)])
        (False, False)
        """
        stride = self.board.stride
        ry = r // stride
        rx = r - ry * stride
        for t in points:
            dy = t // stride - ry
            dx = t - (t // stride) * stride - rx
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            if dx > 5 or dy > 5 or (dx != 0 and dy != 0 and dx != dy):
                return False
        return True

    def _vct(self, depth: int) -> Optional[list[int]]:
        b = self.board
        a = b.side
        d = 3 - a
        if b.fives[a]:
            return [min(b.fives[a])]
        if depth <= 0 or self._out_of_budget():
            return None
        key = b.key()
        if self.vct_fail.get(key, -1) >= depth:
            return None
        if b.fives[d]:
            result: Optional[list[int]] = None
            if len(b.fives[d]) == 1:
                block = min(b.fives[d])
                if b.make(block):
                    # A forced block costs no depth (as in Pela's threat search): counted, every
                    # counter-four the defender holds pushed real wins past the depth limit.
                    line = self._defend(depth)
                    b.unmake()
                    if line is not None:
                        result = [block] + line
            return result
        line = self._vcf(self.vcf_depth)
        if line is not None:
            return line
        if self.stopped:
            return None
        candidates = self._ordered(list(b.fours(a) | b.threes(a)), a)
        for m in candidates:
            if not b.make(m):
                continue
            line = self._defend(depth - 1) if not b.fives[d] else None
            b.unmake()
            if line is not None:
                return [m] + line
            if self.stopped:
                return None
        if not self.stopped:
            self.vct_fail[key] = depth
        return None

    def _defend(self, depth: int) -> Optional[list[int]]:
        """Defender to move: the attacker's win against every relevant reply, else None."""
        b = self.board
        d = b.side
        a = 3 - d
        if b.fives[d]:
            return None
        if b.fives[a]:
            replies = sorted(b.fives[a])
        elif self._threat_points(a):
            # A block that leaves the attacker an open four loses at once: only blocks that
            # remove every such point, and counter-fours, need a search.
            replies = []
            threats = self._threat_points(a)
            for r in self._ordered(list(b.fours(a) - b.fours(d)), d):
                if not self._reaches_all(r, threats):
                    continue  # a stone there leaves some threat point's lines as they were
                if b.make(r):
                    holds = not self._threat_points(a)
                    b.unmake()
                    if holds:
                        replies.append(r)
            replies.extend(self._ordered(list(b.fours(d)), d))
        else:
            return None  # no threat: the defender is free to do anything
        best: Optional[list[int]] = None
        for r in replies:
            if not b.make(r):
                continue
            line = self._vct(depth)
            b.unmake()
            if line is None:
                return None
            if best is None:
                best = [r] + line
        return best if best is not None else []
