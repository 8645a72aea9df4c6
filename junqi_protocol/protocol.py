"""Our Junqi line protocol, engine side (docs/junqi-protocol.md): parses and prints only; the
thinking is :class:`junqi_protocol.engine.Engine`.

Every command is checked against what we know before it changes anything; a line we cannot use,
or a report that contradicts our board, is answered ``error …`` naming the problem and changes
nothing. Should a command fail inside the engine all the same, the engine is rebuilt from the
game's journal, so the state stays the one before the command.
"""

from typing import Callable

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import Channel, answer
from engine_core.timeman import GameClock
from junqi_protocol.board import Board
from junqi_protocol.engine import MAX_THREADS, STYLES, Engine
from junqi_protocol.game import Event, Rules, parse_event, report_problem
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


class JunqiProtocol:
    NAME = "junqi"

    @staticmethod
    def detect(line: str) -> bool:
        return line.strip() == "junqi"

    def __init__(self) -> None:
        self.engine: Engine = new_engine()
        self.journal = Journal()

    def run(self, chan: Channel) -> None:
        while True:
            line = chan.get()
            if line is None or line == "quit":
                self.engine.close()
                return
            if line:
                answer(lambda: self.execute(chan, line), lambda text: chan.send(f"error {text}"),  # noqa: B023 - answer() calls it at once
                       (ValueError,))

    def execute(self, chan: Channel, line: str) -> None:
        """Check ``line``, then carry it out; a failure while carrying it out rebuilds the engine."""
        act = self.check(chan, line)
        try:
            act()
        except Exception:
            self.engine.close()
            self.engine = self.journal.rebuild(new_engine)
            raise

    def check(self, chan: Channel, line: str) -> Callable[[], None]:
        """What ``line`` asks for, as an action; raises ValueError (nothing changed) if it cannot be done."""
        word, _, rest = line.partition(" ")
        j = self.journal
        if word == "junqi":
            return lambda: self.hello(chan)
        if word == "isready":
            return lambda: chan.send("readyok")
        if word == "setoption":
            parts = rest.split()
            if len(parts) != 4 or parts[0] != "name" or parts[2] != "value":
                raise ValueError(f"setoption: expected 'setoption name NAME value VALUE', got {line[:80]!r}")
            self.engine.set_option(parts[1], parts[3])  # either refused, changing nothing, or done
            return lambda: self.journal.options.append((parts[1], parts[3]))
        if word == "newgame":
            return self.check_new_game(rest.split())
        if word == "error":
            return lambda: chan.log(f"referee says: {rest}")
        if word not in ("lineup", "visible", "start", "go") + EVENT_WORDS:
            raise ValueError(f"unknown command {word[:30]!r}")
        board = j.board
        if board is None:
            raise ValueError(f"{word}: no newgame yet")
        if word in ("lineup", "visible") and j.started:
            raise ValueError(f"{word}: the game has started")
        if word == "lineup":
            given = rest.strip()
            err = check_lineup(given) if given else None
            if err is not None:
                raise ValueError(f"lineup: {err}")
            return lambda: self.lineup(chan, given)
        if word == "visible":
            return self.check_visible(board, rest.split())
        if word == "start":
            if j.started:
                raise ValueError("start: the game has started already")
            if not j.lineup:
                raise ValueError("start: we have no lineup for this game (answer 'lineup' or 'lineup LETTERS' first)")
            return self.start
        if not j.started:
            raise ValueError(f"{word}: the game has not started (send start after the lineups)")
        if word == "go":
            return lambda: self.go(chan, board, rest.split())
        ev = parse_event(board, line)
        if ev.kind == "end":
            return self.end
        problem = report_problem(self.engine.pos, self.engine.alive, ev)
        if problem is not None:
            raise ValueError(problem)
        return lambda: self.observe(ev)

    def hello(self, chan: Channel) -> None:
        chan.send(f"id name sanqi {__version__} ({build_kind()})")
        chan.send("id author sanqi developers")
        chan.send(f"option name player type combo default {self.engine.style} " + " ".join(f"var {s}" for s in STYLES))
        chan.send("option name seed type spin default 0 min 0 max 2147483647")
        chan.send(f"option name threads type spin default 1 min 1 max {MAX_THREADS}")
        chan.send("junqiok")

    def check_new_game(self, words: list[str]) -> Callable[[], None]:
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

        def act() -> None:
            self.journal.new_game(words[0], seat, rules)
            self.engine.new_game(words[0], seat, rules)

        return act

    def lineup(self, chan: Channel, given: str) -> None:
        text = self.engine.lineup(given)
        self.journal.lineup = text
        chan.send(f"lineup {text}")

    def check_visible(self, board: Board, parts: list[str]) -> Callable[[], None]:
        if len(parts) != 2 or len(parts[0]) != 1 or parts[0] not in board.letters:
            raise ValueError(f"visible: expected 'visible SEAT LINEUP' with SEAT one of {' '.join(board.letters)}")
        seat = board.letters.index(parts[0])
        if seat == self.journal.seat:
            raise ValueError(f"visible: {parts[0]} is our own seat")
        err = check_lineup(parts[1])
        if err is not None:
            raise ValueError(f"visible {parts[0]}: {err}")
        text = short_lineup(parts[1])

        def act() -> None:
            self.journal.visible[seat] = text

        return act

    def start(self) -> None:
        self.journal.started = True
        self.engine.begin(self.journal.visible)

    def go(self, chan: Channel, board: Board, words: list[str]) -> None:
        m = self.engine.choose(go_clock(words), chan.arrived)
        chan.send("pass" if m is None else f"move {board.names[m[0]]}-{board.names[m[1]]}")
        p = self.engine.planner
        if self.engine.style == "search":
            chan.log(f"search depth {p.depth} nodes {p.nodes} budget {self.engine.budget} ms used {p.used} ms")

    def observe(self, ev: Event) -> None:
        self.engine.observe(ev)
        self.journal.events.append(ev)

    def end(self) -> None:
        self.journal.started = False
