"""Why a game ended, in the words every game's referee and ``sanqi match``'s table use.

:attr:`End.RESULT` is an end by the game's rules (mate, five in a row, a flag taken, a draw, the
ply limit); the others are a seat's failure that loses it the game, or its place in it. Each is a
:class:`enum.StrEnum`, so its value is the word records and tables have always shown.

>>> [str(end) for end in End]
['result', 'time', 'illegal', 'crash', 'no answer']
>>> str(Forfeit(End.TIME, "took 812 ms")), Forfeit(End.TIME, "took 812 ms").end is End.TIME
('took 812 ms', True)
"""

from enum import StrEnum
from typing import Final


class End(StrEnum):
    """How a game ended for the side it names."""

    RESULT = "result"  # by the rules
    TIME = "time"  # its clock ran out: it answered late, or not before its time was up
    ILLEGAL = "illegal"  # an illegal move, or a reply that is no move at all
    CRASH = "crash"  # it did not start, exited, closed its output, or broke the referee's limits
    NO_ANSWER = "no answer"  # alive but silent where no clock runs (a handshake, a fixed-depth search)


FORFEITS: Final = (End.TIME, End.ILLEGAL, End.CRASH, End.NO_ANSWER)


class Forfeit(Exception):
    """A seat failed the referee's discipline: ``end`` says how, the message what happened; ``spent`` the ms
    the failed turn took, as the game loop (``engine_core.referee.play``) timed it."""

    def __init__(self, end: End, detail: str) -> None:
        super().__init__(detail)
        self.end = end
        self.spent = 0
