"""What built a player's state in one game, so the state can be rebuilt exactly.

The front object both adapters call (:class:`junqi_protocol.engine.Engine`) checks a command before it
changes anything; should the change itself fail anyway (a bug of ours), it rebuilds its player from
the journal, so the state is the one before the command and the session goes on.

>>> j = Journal()
>>> j.new_game("2p", 0, Rules("2p"))
>>> j.lineup = "abccddeeffggghhhiiijjkklj"
>>> j.started = True
>>> j.rebuild(lambda: Player("random")).my_lineup
'abccddeeffggghhhiiijjkklj'
"""

from typing import Callable, Optional

from junqi_protocol.board import Board
from junqi_protocol.game import Event, Rules
from junqi_protocol.player import Player


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

    def rebuild(self, make: Callable[[], Player]) -> Player:
        """A new player that has been through everything recorded here."""
        player = make()
        for name, value in self.options:
            player.set_option(name, value)
        if self.board is None:
            return player
        player.new_game(self.board.variant, self.seat, self.rules)
        if self.lineup:
            player.lineup(self.lineup)
        if self.started:
            player.begin(self.visible)
            for ev in self.events:
                player.observe(ev)
        return player
