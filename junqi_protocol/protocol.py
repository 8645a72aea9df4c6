"""Our Junqi line protocol, engine side (docs/junqi-protocol.md): parses and prints only; the game's
state, its undo and the thinking are :class:`junqi_protocol.engine.Engine`'s.

Every command is checked against what we know before it changes anything; a line we cannot use,
or a report that contradicts our board, is answered ``error …`` naming the problem and changes
nothing. Should a command fail inside the front all the same, the front rebuilds its player from the
game's journal, so the state stays the one before the command.
"""

import functools

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import EndSession, Refusal, Session
from engine_core.timeman import MoveRequest
from junqi_protocol.board import Board
from junqi_protocol.engine import Engine
from junqi_protocol.game import Rules, parse_event
from junqi_protocol.player import MAX_MOVETIME, MAX_THREADS, PLAYERS

EVENT_WORDS = ("move", "pass", "marshal", "flag", "out", "gameover")


def go_clock(words: list[str]) -> MoveRequest:
    """The clock request in the words after ``go``: ``time`` (our clock, ms; -1 when absent) and
    ``movetime`` (ms; 0 when absent); a value that is not a number is left out rather than refused,
    since the referee wants a move all the same.

    >>> [(c.left, c.movetime) for c in (go_clock("time 60000 movetime 300".split()), go_clock(["movetime", "x"]))]
    [(60000, 300), (-1, 0)]
    """
    got = {"time": -1, "movetime": 0}
    for name, value in zip(words[::2], words[1::2]):
        if name in got and value.isascii() and value.isdigit():  # "²".isdigit(), yet int() refuses it
            got[name] = int(value)
    return MoveRequest(left=got["time"], movetime=got["movetime"])


class FrontSession(Session):
    """What both Junqi adapters share: the front they call. A refusal is the core's :class:`Refusal`,
    the adapter's for a line it cannot parse, the front's for a command the game does not allow."""

    def __init__(self) -> None:
        super().__init__()
        self.engine = Engine()

    def at_end(self) -> None:
        self.engine.close()


class JunqiProtocol(FrontSession):
    NAME = "junqi"

    @staticmethod
    def detect(line: str) -> bool:
        return line.strip() == "junqi"

    def __init__(self) -> None:
        super().__init__()
        self.commands = {
            "junqi": lambda args: self.hello(),
            "isready": lambda args: self.chan.send("readyok"),
            "setoption": self.cmd_setoption,
            "newgame": self.cmd_newgame,
            "error": lambda args: self.chan.log(f"referee says: {' '.join(args)}"),
            "lineup": self.cmd_lineup,
            "visible": self.cmd_visible,
            "start": self.cmd_start,
            "go": self.cmd_go,
            "quit": self.cmd_quit,
        }
        for word in EVENT_WORDS:
            self.commands[word] = functools.partial(self.cmd_event, word)

    def error(self, text: str) -> None:
        self.chan.send(f"error {text}")

    def cmd_quit(self, args: list[str]) -> None:
        if args:
            raise Refusal("quit: nothing may follow it")
        self.engine.close()
        raise EndSession()

    # --- the commands ---------------------------------------------------------------------------

    def hello(self) -> None:
        chan = self.chan
        chan.send(f"id name sanqi {__version__} ({build_kind()})")
        chan.send("id author sanqi developers")
        chan.send(f"option name player type combo default {self.engine.kind} " + " ".join(f"var {s}" for s in PLAYERS))
        chan.send("option name seed type spin default 0 min 0 max 2147483647")
        chan.send(f"option name threads type spin default 1 min 1 max {MAX_THREADS}")
        chan.send(f"option name movetime type spin default 0 min 0 max {MAX_MOVETIME}")
        chan.send("junqiok")

    def cmd_setoption(self, parts: list[str]) -> None:
        if len(parts) != 4 or parts[0] != "name" or parts[2] != "value":
            line = " ".join(["setoption", *parts])
            raise Refusal(f"setoption: expected 'setoption name NAME value VALUE', got {line[:80]!r}")
        self.engine.set_option(parts[1], parts[3])

    def cmd_newgame(self, words: list[str]) -> None:
        if len(words) < 2 or words[0] not in ("2p", "4p"):
            raise Refusal("newgame: expected 'newgame 2p|4p SEAT [key=value ...]'")
        board = Board(words[0])
        if len(words[1]) != 1 or words[1] not in board.letters:
            raise Refusal(f"newgame: seat {words[1][:10]!r} is not one of {' '.join(board.letters)}")
        rules = Rules(words[0])
        for item in words[2:]:
            key, eq, value = item.partition("=")
            if key in ("time", "movetime") and eq:
                if not (value.isascii() and value.isdigit()):
                    raise Refusal(f"newgame: {item[:40]}: milliseconds expected")
                continue
            try:
                rules.set(item)
            except ValueError as exc:  # how the rules' reader names an option it cannot read
                raise Refusal(str(exc)) from None
        self.engine.new_game(words[0], board.letters.index(words[1]), rules)

    def cmd_lineup(self, args: list[str]) -> None:
        self.chan.send(f"lineup {self.engine.lineup(' '.join(args))}")

    def cmd_visible(self, parts: list[str]) -> None:
        board = self.engine.setting_up("visible")
        if len(parts) != 2 or len(parts[0]) != 1 or parts[0] not in board.letters:
            raise Refusal(f"visible: expected 'visible SEAT LINEUP' with SEAT one of {' '.join(board.letters)}")
        self.engine.visible(board.letters.index(parts[0]), parts[1])

    def cmd_start(self, args: list[str]) -> None:
        self.engine.start()

    def cmd_go(self, words: list[str]) -> None:
        board = self.engine.playing("go")
        chan = self.chan
        m = self.engine.choose(go_clock(words), chan.arrived)
        chan.send("pass" if m is None else f"move {board.names[m[0]]}-{board.names[m[1]]}")
        note = self.engine.last_search()
        if note:
            chan.log(note)

    def cmd_event(self, word: str, args: list[str]) -> None:
        board = self.engine.playing(word)
        try:
            ev = parse_event(board, " ".join([word, *args]))
        except ValueError as exc:  # how the event reader names a line that is no event
            raise Refusal(str(exc)) from None
        self.engine.event(ev)
