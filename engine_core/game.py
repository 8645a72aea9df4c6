"""The contract between the shared search and a game's position.

A game's position subclasses :class:`SearchPosition` and overrides every method. Moves are plain
ints below :meth:`SearchPosition.move_limit` so the search can index its history table by them.
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

MATE: Final = 30000
MATE_BOUND: Final = MATE - 1000  # scores beyond this are mates, counted in plies from the root
NO_SCORE: Final = -32768  # "no verdict" from rule_score
LOSING_CAPTURE: Final = 1 << 16  # subtracted from a capture's order when its exchange loses material
# Quiet moves a non-PV node tries at depth 1, 2 and 3 before it skips the rest unless they check (index 0 unused).
LATE_MOVES: Final = [0, 8, 12, 18]


class SearchPosition:
    """What the search needs from a game. Scores are from the side to move's point of view."""

    def key(self) -> int:
        """Zobrist key of the position, side to move included."""
        raise NotImplementedError

    def moves(self) -> list[int]:
        """Every pseudo-legal move; :meth:`make` rejects the illegal ones."""
        raise NotImplementedError

    def noisy_moves(self) -> list[int]:
        """The moves quiescence search looks at (captures in xiangqi, fours in gomoku)."""
        raise NotImplementedError

    def make(self, move: int) -> bool:
        """Play ``move``; if it is illegal, leave the position unchanged and return False."""
        raise NotImplementedError

    def unmake(self) -> None:
        raise NotImplementedError

    def peek(self, move: int) -> int:
        """What :meth:`make` would find of ``move``, without it staying made: -1 illegal, 1 legal and
        giving check, 0 legal otherwise. The search asks this of a move it will prune unless it checks;
        a game may answer it without making the move."""
        if not self.make(move):
            return -1
        check = self.in_check()
        self.unmake()
        return 1 if check else 0

    def make_null(self) -> None:
        raise NotImplementedError

    def unmake_null(self) -> None:
        raise NotImplementedError

    def null_ok(self) -> bool:
        """Whether a null move is sound here (not in check, enough material to avoid zugzwang)."""
        raise NotImplementedError

    def in_check(self) -> bool:
        raise NotImplementedError

    def evaluate(self) -> int:
        raise NotImplementedError

    def rule_score(self, ply: int) -> int:
        """A score the rules impose on this node (repetition, move limit, a five just made), else NO_SCORE."""
        raise NotImplementedError

    def no_move_score(self, ply: int) -> int:
        """Score when the side to move has no legal move."""
        raise NotImplementedError

    def capture_order(self, move: int) -> int:
        """Ordering score of a noisy move (MVV-LVA); 0 for quiet moves. A capture that loses material
        in the exchange it starts scores below 0 (less :data:`LOSING_CAPTURE`): the search tries it
        after the quiet moves and quiescence skips it."""
        raise NotImplementedError

    def capture_orders(self, moves: list[int]) -> list[int]:
        """:meth:`capture_order` of each move; a game may answer the whole list faster."""
        return [self.capture_order(m) for m in moves]

    def noisy_orders(self, moves: list[int]) -> list[int]:
        """The orders quiescence sorts its noisy moves by, all of them 0 or more: :meth:`capture_orders`,
        or the same before the exchanges are judged, leaving it to :meth:`capture_loses` to tell which
        of them lose. Quiescence asks that only of a move it reaches, and most nodes cut off before
        their last capture."""
        return self.capture_orders(moves)

    def capture_loses(self, move: int) -> bool:
        """Whether the capture ``move``, ordered 0 or more by :meth:`noisy_orders`, loses material in
        the exchange it starts. A game whose noisy orders already mark those below 0 keeps this answer."""
        return False

    def quiet_loses(self, move: int) -> bool:
        """Whether the quiet ``move`` leaves its piece to be won (a static exchange below 0): the search
        skips such moves near the leaves. A game without the notion keeps this answer, False."""
        return False

    def quiet_checks(self) -> list[int]:
        """The quiet moves that give check, which quiescence search tries at its first ply (not
        asked in check). A game without checks keeps this answer, none."""
        return []

    def late_moves(self) -> list[int]:
        """:data:`LATE_MOVES`, or a game's own counts (read once a search): how many quiet moves a
        non-PV node at depth 1, 2 and 3 tries before late move pruning skips the rest."""
        return LATE_MOVES

    def move_limit(self) -> int:
        """One more than the largest move number."""
        raise NotImplementedError

    def move_name(self, move: int) -> str:
        raise NotImplementedError


class NativeMoves(SearchPosition):
    """A position that also hands the search its moves with their orders as native vectors: what :meth:`moves` and
    :meth:`capture_orders` give, or :meth:`noisy_moves` and :meth:`noisy_orders`, without the two lists. Compiled,
    the lists cost their making, their freeing and the unboxing of every move and order, some 10 % of xiangqi's
    node (callgrind, docs/results/xiangqi.md); a position that is not one is asked for the lists. Here beside
    SearchPosition: a position left interpreted takes this module with it, not the search (setup.py)."""

    found: vec[i64]  # the moves of the last native_moves, then whatever the position writes there
    orders: vec[i64]  # their orders, read before the position is asked anything else

    def native_moves(self, noisy: bool) -> i64:
        """How many moves (noisy: noisy_moves, else moves) the first entries of ``found`` now hold, with their orders
        (noisy: noisy_orders, else capture_orders) the first entries of ``orders``."""
        raise NotImplementedError
