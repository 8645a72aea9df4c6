"""The one game loop every game's referee plays: seats take turns, a per-game rules object judges.

:func:`play` knows no game. It opens each seat, then, turn by turn, asks the game's
:class:`GameRules` whether the game is over by its rules, whose turn it is and for that seat's move
(with every seat's clock), times that request itself (no seat and no rules object keeps a stopwatch),
charges the seat's clock what the rules say the reply costs and holds it to the :class:`Clock`, has
the rules object check and apply the move (which also tells the other seats: in the two-player games
the next ``position ... moves`` or ``TURN`` carries it), and adds the increment. Every way a seat
fails is a :class:`engine_core.ends.Forfeit` naming its :class:`engine_core.ends.End`: raised by the
seat (a crash, no answer, a reply too late), by this loop (the :class:`Clock` says the reply came too
late) or by the rules object (an illegal move), with ``spent`` the ms the failed turn took; the rules
object, given the seat's clock after it, words it for the record and says what it means: the end of
the game (a :class:`Result`), or None when the game goes on without that seat's turn (the rules put
the seat out, or let it lose only the turn) and the loop asks again whether the game is over and
whose turn it is. The game's record (moves, times, its own file format) is the rules object's to
keep; the loop returns a :class:`Result`, the winner, the reason and how the game ended.

Xiangqi's ``ucci_engine.referee`` and gomoku's ``gomoku_protocol.referee`` hold only their rules
object and the thin ``play_game`` their callers know; in both a failure ends the game. Junqi's
``junqi_protocol.referee`` (``JunqiRules``) is the third: there a failed seat goes out while the
others play on, its clock judges a reply by the move time alone and a reply past it with time left
on the clock costs only the turn, and every turn, failed ones too, is a record line and news for all
seats.

>>> class Count:  # two seats add 1 or 2 in turn; whoever reaches 5 wins, a move of 3 is illegal
...     seats = 2
...     def __init__(self, replies):
...         self.total, self.replies = 0, replies
...     def open(self, seat): pass
...     def outcome(self): return None
...     def turn(self): return int(len(self.replies[0]) != len(self.replies[1]))
...     def ask(self, seat, clocks):
...         time.sleep(0.01)
...         return self.replies[seat].pop(0)
...     def cost(self, seat, ms): return 10  # as if every reply took 10 ms
...     def apply(self, seat, move, ms):
...         if move not in (1, 2):
...             raise Forfeit(End.ILLEGAL, f"adds {move}")
...         self.total += move
...         return Result(seat, "five") if self.total >= 5 else None
...     def forfeited(self, seat, exc, left): return Result.forfeit(seat, str(exc), exc.end)
>>> play(Count([[2, 1], [2, 2]]), Clock(1000))
Result(winner=0, reason='five', end=<End.RESULT: 'result'>, forfeits=())
>>> play(Count([[2, 1], [3, 2]]), Clock(1000))
Result(winner=0, reason='adds 3', end=<End.ILLEGAL: 'illegal'>, forfeits=((1, <End.ILLEGAL: 'illegal'>),))
>>> play(Count([[2, 1], [2, 2]]), Clock(15)).reason
'took 10 ms'
>>> class Out(Count):  # a seat that adds 3 is out; the other plays on alone
...     out = -1
...     def turn(self): return super().turn() if self.out < 0 else 1 - self.out
...     def forfeited(self, seat, exc, left):
...         self.out = seat
...         return None
>>> rules = Out([[2, 1, 2], [3]])
>>> play(rules, Clock(1000)), rules.total
(Result(winner=0, reason='five', end=<End.RESULT: 'result'>, forfeits=()), 5)
"""

import time
from dataclasses import dataclass
from typing import Optional, Protocol, TypeVar

from engine_core.ends import End, Forfeit

Move = TypeVar("Move")


@dataclass(frozen=True)
class Clock:
    """Each seat's time: ``base_ms`` a game, ``inc_ms`` added after each move it makes; a move that leaves
    the seat's clock below ``-tolerance_ms``, or takes more than ``turn_ms`` (0: no limit) plus the
    tolerance, loses on time. A game whose clock judges otherwise overrides :meth:`over`."""

    base_ms: int
    inc_ms: int = 0
    turn_ms: int = 0
    tolerance_ms: int = 0

    def over(self, spent: int, left: int) -> bool:
        """Whether a move that took ``spent`` ms, leaving ``left`` on the clock, came too late.

        >>> Clock(1000).over(900, 100), Clock(1000).over(1001, -1), Clock(10**9, 0, 500, 1000).over(1600, 10**8)
        (False, True, True)
        """
        return left < -self.tolerance_ms or (bool(self.turn_ms) and spent > self.turn_ms + self.tolerance_ms)


@dataclass(frozen=True)
class Result:
    """How a game ended: the seat that won (in a game of teams the team; -1 a draw), the reason as the
    record's text, and ``end``, how it ended for the seat that lost it (:attr:`End.RESULT` when by the
    rules), with ``forfeits`` the (seat, end) of each seat that failed."""

    winner: int
    reason: str
    end: End = End.RESULT
    forfeits: tuple[tuple[int, End], ...] = ()

    @staticmethod
    def forfeit(seat: int, reason: str, end: End) -> "Result":
        """A two-player game lost by ``seat``'s failure: the other seat wins."""
        return Result(1 - seat, reason, end, ((seat, end),))


class GameRules(Protocol[Move]):
    """What :func:`play` asks of a game: its seats, its rules, and the record it keeps."""

    seats: int  # how many seats play

    def open(self, seat: int) -> None:
        """Get ``seat``'s player ready for the game (a failure is a :class:`Forfeit`, ruled on by
        :meth:`forfeited` before the next seat is opened)."""

    def outcome(self) -> Optional[Result]:
        """The end by the rules before the next turn (mate, a full board, the ply limit), else None."""

    def turn(self) -> int:
        """The seat to move."""

    def ask(self, seat: int, clocks: list[int]) -> Move:
        """``seat``'s reply, with ``clocks`` the ms every seat has left: it answers or raises
        :class:`Forfeit` with its typed end (the loop times it)."""

    def cost(self, seat: int, ms: int) -> int:
        """The ms ``seat``'s clock is charged for a reply that took ``ms`` (xiangqi: none for an engine
        searching to a fixed depth or node count)."""

    def apply(self, seat: int, move: Move, ms: int) -> Optional[Result]:
        """Check ``move`` (a :class:`Forfeit`, :attr:`End.ILLEGAL`, when it is not legal), play and record it
        (it took ``ms``); the :class:`Result` when it ends the game (a five, a resignation), else None."""

    def forfeited(self, seat: int, exc: Forfeit, left: int) -> Optional[Result]:
        """The game's end when ``seat`` failed with ``exc`` (``exc.spent`` the ms its turn took, 0 when opening
        it) with ``left`` ms on its clock, worded for the record; None when the game goes on (the rules put
        the seat out, or took only its turn, and told the others)."""


def play(rules: GameRules[Move], clock: Clock) -> Result:
    """Play one game under ``rules`` with every seat on ``clock``; see the module's doc-comment."""
    clocks = [clock.base_ms] * rules.seats
    for seat in range(rules.seats):
        try:
            rules.open(seat)
        except Forfeit as exc:
            result = rules.forfeited(seat, exc, clocks[seat])
            if result is not None:
                return result
    while True:
        result = rules.outcome()
        if result is not None:
            return result
        seat = rules.turn()
        start = time.monotonic()
        try:
            try:
                move = rules.ask(seat, clocks)
            finally:  # a failed reply's time is charged too (it matters where the game goes on, as in junqi)
                took = int((time.monotonic() - start) * 1000)
                spent = rules.cost(seat, took)
                clocks[seat] -= spent
            if clock.over(spent, clocks[seat]):
                raise Forfeit(End.TIME, f"took {spent} ms")
            result = rules.apply(seat, move, took)
        except Forfeit as exc:
            exc.spent = took
            result = rules.forfeited(seat, exc, clocks[seat])
            if result is None:
                continue  # the game goes on without this turn: no increment
            return result
        if result is not None:
            return result
        clocks[seat] += clock.inc_ms
