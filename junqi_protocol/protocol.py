"""Our Junqi line protocol, engine side (docs/junqi-protocol.md): parses and prints only; the
thinking is :class:`junqi_protocol.engine.Engine`.

Every command is checked against what we know before it changes anything; a line we cannot use,
or a report that contradicts our board, is answered ``error …`` naming the problem and changes
nothing. Should a command fail inside the engine all the same, the engine is rebuilt from the
game's journal, so the state stays the one before the command.
"""

import functools

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import EndSession, Session
from engine_core.timeman import GameClock
from junqi_protocol.board import Board
from junqi_protocol.engine import MAX_THREADS, STYLES, Engine
from junqi_protocol.game import Rules, parse_event
from junqi_protocol.journal import Journal
from junqi_protocol.rules import check_lineup, short_lineup

EVENT_WORDS = ("move", "pass", "marshal", "flag", "out", "gameover")


def go_clock(words: list[str]) -> GameClock:
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
    return GameClock(left=got["time"], movetime=got["movetime"])


def new_engine() -> Engine:
    return Engine()


class Journaled(Session):
    """What both Junqi adapters share: the engine, the journal it is rebuilt from after a failure of
    ours, and ValueError as the refusal (the rules and the engine raise it for what they cannot take)."""

    REFUSALS = (ValueError,)

    def __init__(self) -> None:
        super().__init__()
        self.engine: Engine = new_engine()
        self.journal = Journal()

    def recover(self) -> None:
        # The failed command may have changed the engine half-way: a new one, through everything accepted so far.
        self.engine.close()
        self.engine = self.journal.rebuild(new_engine)

    def at_end(self) -> None:
        self.engine.close()


class JunqiProtocol(Journaled):
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
            "go": lambda args: self.go(self.playing("go"), args),
            "quit": self.cmd_quit,
        }
        for word in EVENT_WORDS:
            self.commands[word] = functools.partial(self.cmd_event, word)

    def error(self, text: str) -> None:
        self.chan.send(f"error {text}")

    def cmd_quit(self, args: list[str]) -> None:
        if args:
            raise ValueError("quit: nothing may follow it")
        self.engine.close()
        raise EndSession()

    # --- what a command needs before it is carried out -------------------------------------------

    def board(self, word: str) -> Board:
        """The game's board: ``word`` is refused before ``newgame``."""
        if self.journal.board is None:
            raise ValueError(f"{word}: no newgame yet")
        return self.journal.board

    def setting_up(self, word: str) -> Board:
        """The game's board while lineups may still be given."""
        board = self.board(word)
        if self.journal.started:
            raise ValueError(f"{word}: the game has started")
        return board

    def playing(self, word: str) -> Board:
        """The game's board once it has started."""
        board = self.board(word)
        if not self.journal.started:
            raise ValueError(f"{word}: the game has not started (send start after the lineups)")
        return board

    # --- the commands ---------------------------------------------------------------------------

    def hello(self) -> None:
        chan = self.chan
        chan.send(f"id name sanqi {__version__} ({build_kind()})")
        chan.send("id author sanqi developers")
        chan.send(f"option name player type combo default {self.engine.style} " + " ".join(f"var {s}" for s in STYLES))
        chan.send("option name seed type spin default 0 min 0 max 2147483647")
        chan.send(f"option name threads type spin default 1 min 1 max {MAX_THREADS}")
        chan.send("junqiok")

    def cmd_setoption(self, parts: list[str]) -> None:
        if len(parts) != 4 or parts[0] != "name" or parts[2] != "value":
            line = " ".join(["setoption", *parts])
            raise ValueError(f"setoption: expected 'setoption name NAME value VALUE', got {line[:80]!r}")
        self.engine.set_option(parts[1], parts[3])  # either refused, changing nothing, or done
        self.journal.options.append((parts[1], parts[3]))

    def cmd_newgame(self, words: list[str]) -> None:
        if len(words) < 2 or words[0] not in ("2p", "4p"):
            raise ValueError("newgame: expected 'newgame 2p|4p SEAT [key=value ...]'")
        board = Board(words[0])
        if len(words[1]) != 1 or words[1] not in board.letters:
            raise ValueError(f"newgame: seat {words[1][:10]!r} is not one of {' '.join(board.letters)}")
        rules = Rules(words[0])
        for item in words[2:]:
            key, eq, value = item.partition("=")
            if key in ("time", "movetime") and eq:
                if not (value.isascii() and value.isdigit()):
                    raise ValueError(f"newgame: {item[:40]}: milliseconds expected")
                continue
            rules.set(item)
        seat = board.letters.index(words[1])
        self.journal.new_game(words[0], seat, rules)
        self.engine.new_game(words[0], seat, rules)

    def cmd_lineup(self, args: list[str]) -> None:
        self.setting_up("lineup")
        given = " ".join(args)
        err = check_lineup(given) if given else None
        if err is not None:
            raise ValueError(f"lineup: {err}")
        text = self.engine.lineup(given)
        self.journal.lineup = text
        self.chan.send(f"lineup {text}")

    def cmd_visible(self, parts: list[str]) -> None:
        board = self.setting_up("visible")
        if len(parts) != 2 or len(parts[0]) != 1 or parts[0] not in board.letters:
            raise ValueError(f"visible: expected 'visible SEAT LINEUP' with SEAT one of {' '.join(board.letters)}")
        seat = board.letters.index(parts[0])
        if seat == self.journal.seat:
            raise ValueError(f"visible: {parts[0]} is our own seat")
        err = check_lineup(parts[1])
        if err is not None:
            raise ValueError(f"visible {parts[0]}: {err}")
        self.journal.visible[seat] = short_lineup(parts[1])

    def cmd_start(self, args: list[str]) -> None:
        self.board("start")
        if self.journal.started:
            raise ValueError("start: the game has started already")
        if not self.journal.lineup:
            raise ValueError("start: we have no lineup for this game (answer 'lineup' or 'lineup LETTERS' first)")
        self.journal.started = True
        self.engine.begin(self.journal.visible)

    def go(self, board: Board, words: list[str]) -> None:
        chan = self.chan
        m = self.engine.choose(go_clock(words), chan.arrived)
        chan.send("pass" if m is None else f"move {board.names[m[0]]}-{board.names[m[1]]}")
        note = self.engine.last_search()
        if note:
            chan.log(note)

    def cmd_event(self, word: str, args: list[str]) -> None:
        ev = parse_event(self.playing(word), " ".join([word, *args]))
        if ev.kind == "end":
            self.journal.started = False
            return
        problem = self.engine.problem(ev)
        if problem is not None:
            raise ValueError(problem)
        self.engine.observe(ev)
        self.journal.events.append(ev)
