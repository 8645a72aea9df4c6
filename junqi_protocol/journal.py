"""What built a player's state in one game, so the state can be rebuilt exactly.

The front object both adapters call (:class:`junqi_protocol.front.Front`) checks a command before it
changes anything; should the change itself fail anyway (a bug of ours), it rebuilds its engine from
the journal, so the state is the one before the command and the session goes on.

>>> j = Journal()
>>> j.new_game("2p", 0, Rules("2p"))
>>> j.lineup = "abccddeeffggghhhiiijjkklj"
>>> j.started = True
>>> j.rebuild(lambda: Engine("random")).my_lineup
'abccddeeffggghhhiiijjkklj'
"""

from typing import Callable, Optional

from junqi_protocol.board import Board
from junqi_protocol.engine import Engine
from junqi_protocol.game import Event, Rules


class Journal:
    """Options, the game's setup and every event accepted since it started."""

    def __init__(self) -> None:
        self.options: list[tuple[str, str]] = []
        self.board: Optional[Board] = None
        self.seat = 0
        self.rules = Rules("2p")
        self.lineup = ""  # our lineup in this game, once given or chosen
        self.visible: dict[int, str] = {}
        self.started = False
        self.events: list[Event] = []

    def new_game(self, variant: str, seat: int, rules: Rules) -> None:
        self.board = self.board if self.board is not None and self.board.variant == variant else Board(variant)
        self.seat = seat
        self.rules = rules
        self.lineup = ""
        self.visible = {}
        self.started = False
        self.events = []

    def rebuild(self, make: Callable[[], Engine]) -> Engine:
        """A new engine that has been through everything recorded here."""
        engine = make()
        for name, value in self.options:
            engine.set_option(name, value)
        if self.board is None:
            return engine
        engine.new_game(self.board.variant, self.seat, self.rules)
        if self.lineup:
            engine.lineup(self.lineup)
        if self.started:
            engine.begin(self.visible)
            for ev in self.events:
                engine.observe(ev)
        return engine
