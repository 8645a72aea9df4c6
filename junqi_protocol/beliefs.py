"""What one player can infer about pieces it cannot see.

Every piece is tracked by its starting point (``Position.tag``) with a 12-bit mask of the kinds it
may still be. The seed engine kept only the weakest and strongest possible rank per piece; the mask
holds the same bounds (:meth:`Beliefs.strongest`, :meth:`Beliefs.weakest`) and a little more:

* the deployment rules (no mine before row 4, no bomb in row 0, the flag only in a headquarters);
* a piece that moved is no mine and no flag; one that turned a corner on the rails is an engineer;
* a collision keeps only the kinds consistent with its announced result;
* a dead 司令 is struck from its owner's other pieces, and the flag square announced with it pins the flag;
* per-player counts: once a kind's pieces are all pinned down, no other piece can be that kind;
  and the one piece left that may be the flag is the flag.
"""

from junqi_protocol.board import Board
from junqi_protocol.game import Position
from junqi_protocol.rules import BOTH, COUNTS, EAT, ENGINEER, FLAG, KILLED, MARSHAL, MINE, BOMB, MOVE, combat, needs_engineer

ALL = (1 << 12) - 1
SOLDIERS = (1 << 9) - 1


def kinds_of(mask: int) -> list[int]:
    return [k for k in range(12) if mask >> k & 1]


def _beats(att_mask: int, dfn_mask: int, result: int) -> tuple[int, int]:
    """The attacker and defender masks that can produce ``result``."""
    a_out = 0
    d_out = 0
    for a in kinds_of(att_mask):
        for d in kinds_of(dfn_mask):
            if combat(a, d) == result:
                a_out |= 1 << a
                d_out |= 1 << d
    return a_out, d_out


class Beliefs:
    """Kind masks of every piece, seen from seat ``me`` (its own pieces are known exactly)."""

    def __init__(self, board: Board, me: int) -> None:
        self.board: Board = board
        self.me: int = me
        self.mask: list[int] = [0] * board.size
        self.dead: list[list[int]] = [[0] * 12 for _ in range(board.seats)]
        # Expected losses per kind, an unknown victim spread over the kinds it may have been.
        self.lost: list[list[float]] = [[0.0] * 12 for _ in range(board.seats)]
        self.flag_at: list[int] = [-1] * board.seats

    def start(self, pos: Position) -> None:
        b = self.board
        for p in range(b.size):
            if pos.owner[p] < 0:
                continue
            if pos.kind[p] >= 0:
                self.mask[p] = 1 << pos.kind[p]
                continue
            m = ALL
            if b.row[p] < 4:
                m &= ~(1 << MINE)
            if b.row[p] == 0:
                m &= ~(1 << BOMB)
            if not b.hq[p]:
                m &= ~(1 << FLAG)
            self.mask[p] = m

    def of(self, pos: Position, p: int) -> int:
        return self.mask[pos.tag[p]] if pos.tag[p] >= 0 else 0

    def strongest(self, mask: int) -> int:
        """Highest soldier rank still possible (0 = 司令), 9 when none."""
        s = mask & SOLDIERS
        return (s & -s).bit_length() - 1 if s else 9

    def weakest(self, mask: int) -> int:
        """Lowest soldier rank still possible (8 = 工兵), -1 when none."""
        return (mask & SOLDIERS).bit_length() - 1

    def before_move(self, pos: Position, frm: int, to: int, result: int) -> None:
        """Learn from a move about to be applied to ``pos``."""
        ta = pos.tag[frm]
        self.mask[ta] &= ~((1 << MINE) | (1 << FLAG))
        if result == MOVE or result == EAT:
            if self.board.station[frm] and self.board.station[to] and needs_engineer(self.board, pos.owner, pos.kind, frm, to):
                self.mask[ta] &= 1 << ENGINEER
        if pos.owner[to] >= 0:
            td = pos.tag[to]
            a, d = _beats(self.mask[ta], self.mask[td], result)
            self.mask[ta] = a
            self.mask[td] = d
            if result in (KILLED, BOTH):
                self._died(pos.owner[frm], a)
            if result in (EAT, BOTH):
                self._died(pos.owner[to], d)

    def _died(self, seat: int, mask: int) -> None:
        if mask and mask & (mask - 1) == 0:
            self.dead[seat][mask.bit_length() - 1] += 1
        left = self.left(seat)
        kinds = kinds_of(mask)
        total = sum(left[k] for k in kinds)
        for k in kinds:
            self.lost[seat][k] += left[k] / total if total > 0 else 1.0 / len(kinds)

    def left(self, seat: int) -> list[float]:
        """How many of each kind ``seat`` probably still has (never below a trace, for weighting)."""
        return [max(0.05, COUNTS[k] - self.lost[seat][k]) for k in range(12)]

    def marshal_died(self, pos: Position, seat: int, square: int) -> None:
        """A 司令 of ``seat`` died (it is already off ``pos``); its flag stands on ``square``."""
        if self.dead[seat][MARSHAL] == 0:
            self.dead[seat][MARSHAL] = 1
            self.lost[seat][MARSHAL] = 1.0
        self.flag_at[seat] = square
        for p in range(self.board.size):
            if pos.owner[p] == seat:
                t = pos.tag[p]
                self.mask[t] &= ~(1 << MARSHAL)
                if p == square:
                    self.mask[t] = 1 << FLAG
                else:
                    self.mask[t] &= ~(1 << FLAG)

    def apply_counts(self, pos: Position) -> None:
        """Strike every fully accounted-for kind from the other pieces of its owner.

        Only deaths of pinned-down pieces are counted, so the count of a kind still alive can only
        be overestimated and striking it is always sound."""
        for seat in range(self.board.seats):
            pieces = [pos.tag[p] for p in range(self.board.size) if pos.owner[p] == seat]
            # A player in the game still has its flag, so a lone candidate is the flag.
            flags = [t for t in pieces if self.mask[t] & (1 << FLAG)]
            if len(flags) == 1:
                self.mask[flags[0]] = 1 << FLAG
            changed = True
            while changed:
                changed = False
                for k in range(12):
                    bit = 1 << k
                    pinned = sum(1 for t in pieces if self.mask[t] == bit)
                    if pinned + self.dead[seat][k] >= COUNTS[k]:
                        for t in pieces:
                            if self.mask[t] != bit and self.mask[t] & bit and self.mask[t] & ~bit:
                                self.mask[t] &= ~bit
                                changed = True
