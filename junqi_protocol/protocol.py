"""Our Junqi line protocol, engine side (docs/junqi-protocol.md): parses and prints only; the
thinking is :class:`junqi_protocol.players.Engine`."""

from typing import Optional

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import Channel
from junqi_protocol.board import Board
from junqi_protocol.game import Rules, parse_event
from junqi_protocol.players import STYLES, Engine

EVENT_WORDS = ("move", "pass", "marshal", "flag", "out", "gameover")


class JunqiProtocol:
    NAME = "junqi"

    @staticmethod
    def detect(line: str) -> bool:
        return line.strip() == "junqi"

    def __init__(self) -> None:
        self.engine: Engine = Engine("events")
        self.board: Optional[Board] = None
        self.visible: dict[int, str] = {}
        self.started: bool = False

    def run(self, chan: Channel) -> None:
        while True:
            line = chan.get()
            if line is None:
                return
            if not line:
                continue
            if line == "quit":
                return
            try:
                self.handle(chan, line)
            except ValueError as exc:
                chan.send(f"error {exc}")

    def handle(self, chan: Channel, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "junqi":
            chan.send(f"id name sanqi {__version__} ({build_kind()})")
            chan.send("id author sanqi developers")
            chan.send(f"option name player type combo default {self.engine.style} " + " ".join(f"var {s}" for s in STYLES))
            chan.send("option name seed type spin default 0 min 0 max 2147483647")
            chan.send("junqiok")
        elif word == "isready":
            chan.send("readyok")
        elif word == "setoption":
            parts = rest.split()
            if len(parts) != 4 or parts[0] != "name" or parts[2] != "value":
                raise ValueError(f"setoption: expected 'setoption name NAME value VALUE', got {line!r}")
            self.engine.set_option(parts[1], parts[3])
        elif word == "newgame":
            self.new_game(rest.split())
        elif word == "lineup":
            if self.board is None:
                raise ValueError("lineup: no newgame yet")
            chan.send(f"lineup {self.engine.lineup(rest.strip())}")
        elif word == "visible":
            board = self.need_board("visible")
            parts = rest.split()
            if len(parts) != 2 or parts[0] not in board.letters:
                raise ValueError(f"visible: expected 'visible SEAT LINEUP', got {line!r}")
            self.visible[board.letters.index(parts[0])] = parts[1]
        elif word == "start":
            self.need_board("start")
            if not self.engine.my_lineup:
                self.engine.lineup("")
            self.engine.begin(self.visible)
            self.started = True
        elif word == "go":
            if not self.started:
                raise ValueError("go: the game has not started (send start after the lineups)")
            m = self.engine.choose()
            board = self.need_board("go")
            chan.send("pass" if m is None else f"move {board.names[m[0]]}-{board.names[m[1]]}")
        elif word in EVENT_WORDS:
            if not self.started:
                raise ValueError(f"{word}: the game has not started")
            ev = parse_event(self.need_board(word), line)
            if ev.kind == "end":
                self.started = False
            else:
                self.engine.observe(ev)
        elif word == "error":
            chan.log(f"referee says: {rest}")
        else:
            raise ValueError(f"unknown command {word[:30]!r}")

    def need_board(self, what: str) -> Board:
        if self.board is None:
            raise ValueError(f"{what}: no newgame yet")
        return self.board

    def new_game(self, words: list[str]) -> None:
        if len(words) < 2 or words[0] not in ("2p", "4p"):
            raise ValueError("newgame: expected 'newgame 2p|4p SEAT [key=value ...]'")
        board = Board(words[0])
        if len(words[1]) != 1 or words[1] not in board.letters:
            raise ValueError(f"newgame: seat {words[1]!r} is not one of {' '.join(board.letters)}")
        rules = Rules(words[0])
        for item in words[2:]:
            key, eq, value = item.partition("=")
            if key in ("time", "movetime") and eq:
                if not value.isdigit():
                    raise ValueError(f"newgame: {item}: milliseconds expected")
                continue
            rules.set(item)
        self.board = board
        self.visible = {}
        self.started = False
        self.engine.new_game(words[0], board.letters.index(words[1]), rules)
