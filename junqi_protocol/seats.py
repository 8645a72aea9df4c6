"""The referee's side of a seat: a built-in player in process, or an engine over pipes (on the core's
:class:`engine_core.seat.EngineSeat`) speaking our line protocol or CCGC. Every kind of failure becomes
a :class:`engine_core.ends.Forfeit` naming its :class:`engine_core.ends.End`, which the referee rules on
and words for the record (``junqi_protocol.referee``)."""

from typing import Optional

from junqi_protocol.board import Board
from engine_core.ends import End, Forfeit
from engine_core.loop import Refusal
from engine_core.seat import EngineSeat, within
from engine_core.timeman import MoveRequest
from junqi_protocol.game import Event, Rules
from junqi_protocol.player import Player
from junqi_protocol.rules import BOTH, EAT, KILLED, MOVE, short_lineup

CCGC_RESULT = {KILLED: 0, EAT: 1, BOTH: 2, MOVE: 3}
DROPPED_KEPT = 20  # dropped lines listed per step in the record; the rest are counted
DRAW = -1
ABORTED = -2  # finish() of a game the referee could not finish by the rules
END_ABNORMAL = 2


class Seat:
    """What the referee asks of a seat. ``ask`` returns the reply as a move ``FROM-TO`` in absolute
    names, ``pass``, or the raw line when it is neither (the referee rejects it)."""

    name: str = "?"
    absent: bool = False  # a seat out from the start (:class:`AbsentSeat`): never opened, never asked

    @property
    def dead(self) -> bool:
        """The seat can no longer play (a pipe engine that exited)."""
        return False

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        raise NotImplementedError

    def lineup(self, given: str, timeout: float) -> str:
        raise NotImplementedError

    def begin(self, visible: dict[int, str]) -> None:
        raise NotImplementedError

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        raise NotImplementedError

    def tell(self, events: list[Event]) -> None:
        raise NotImplementedError

    def error(self, text: str) -> None:
        raise NotImplementedError

    def finish(self, winner: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def quit(self) -> None:
        """Ask the seat to end, without waiting: every seat is asked before any is waited for."""
        return

    def resync(self) -> None:
        """The last answer came too late to count (see :class:`PipeSeat`)."""
        return

    def take_dropped(self) -> list[str]:
        """Lines dropped since the last call (late or unasked replies), for the record."""
        return []

    def log_to(self, path: str) -> None:
        """Keep what the seat writes on stderr in the file ``path`` (appended)."""
        return


class BuiltinSeat(Seat):
    """A built-in player called directly: the fast path for many games."""

    def __init__(self, kind: str, seed: Optional[int] = None, options: Optional[list[tuple[str, str]]] = None) -> None:
        self.player = Player(kind, seed)
        for name, value in options or []:
            self.player.set_option(name, value)
        self.name = f"builtin {self.player.kind}"
        self.board = Board("2p")

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        self.board = board
        self.player.new_game(board.variant, seat, rules)

    def lineup(self, given: str, timeout: float) -> str:
        try:
            return self.player.lineup(given)
        except Refusal as exc:
            raise Forfeit(End.ILLEGAL, str(exc)) from None

    def begin(self, visible: dict[int, str]) -> None:
        self.player.begin(visible)

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        m = self.player.choose(MoveRequest(left=time_left_ms, movetime=movetime_ms))
        return "pass" if m is None else f"{self.board.names[m[0]]}-{self.board.names[m[1]]}"

    def tell(self, events: list[Event]) -> None:
        for ev in events:
            self.player.observe(ev)

    def error(self, text: str) -> None:
        return None

    def finish(self, winner: int) -> None:
        return None

    def close(self) -> None:
        self.player.close()


class SilentSeat(Seat):
    """A seat with no engine to tell anything: events, errors, the result and closing are no-ops
    (a person's page reads the record instead; a seat out from the start has nobody)."""

    def tell(self, events: list[Event]) -> None:
        return None

    def error(self, text: str) -> None:
        return None

    def finish(self, winner: int) -> None:
        return None

    def close(self) -> None:
        return None


class AbsentSeat(SilentSeat):
    """A seat that is out from the start (the engine word ``out``): it has no lineup and no pieces,
    the referee puts it out before the first move (``out W absent``) and play skips it, as it skips a
    player whose flag fell. For games where one side is a player short, e.g. two against one."""

    name = "out"
    absent = True

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        return None

    def lineup(self, given: str, timeout: float) -> str:
        raise Forfeit(End.ILLEGAL, "a seat out from the start has no lineup")

    def begin(self, visible: dict[int, str]) -> None:
        return None

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        raise Forfeit(End.ILLEGAL, "a seat out from the start is never asked for a move")


class PipeSeat(Seat, EngineSeat):
    """An engine process; each game gets a fresh one so a crash cannot leak into the next game.

    Replies are tied to the request they answer: each request follows an acknowledgement request
    (:attr:`sync_request`), and after a request went unanswered in time another one is sent (see
    :meth:`resync`); every line up to the engine's acknowledgement (:attr:`sync_line`) answers an old
    request or none, and is dropped and listed in :attr:`dropped`.
    """

    sync_request = "isready"
    sync_line = "readyok"

    def __init__(self, command: str, handshake: float = 10.0) -> None:
        self.command = command
        self.name = command
        self.handshake = handshake
        self.stderr_path: Optional[str] = None
        self.unsynced = 0
        self.dropped: list[str] = []
        self.dropped_more = 0

    @property
    def dead(self) -> bool:
        """The engine was started and exited, closed its output or its input: it cannot play on."""
        return self.proc is not None and self.gone

    def _start(self) -> None:
        self.unsynced = 0
        self.dropped, self.dropped_more = [], 0
        self.start(self.command, self.stderr_path)

    def resync(self) -> None:
        """What the engine writes before its next acknowledgement is old: the answer to a request not
        answered in time, or a reply nobody asked for; none of it answers the next request."""
        self.unsynced += 1
        if self.sync_request:
            self.send(self.sync_request)

    def request(self, line: str, timeout: float) -> str:
        """Send a request and return its answer; an answer that misses ``timeout`` is never taken later
        (and is out of time). Where the protocol has an acknowledgement the request follows one: a line the
        engine wrote before it answers something older even when it arrives after :meth:`drain` has looked."""
        self.drain()
        if self.sync_request:
            self.resync()
        self.send(line)
        try:
            return self.read(timeout, End.TIME)
        except Forfeit as exc:
            if exc.end is End.TIME:
                self.resync()
            raise

    def _drop(self, line: str) -> None:
        if len(self.dropped) < DROPPED_KEPT:
            self.dropped.append(line[:200])
        else:
            self.dropped_more += 1

    def _live(self, line: str) -> bool:
        """Whether ``line`` may answer the current request; late answers are dropped on the way."""
        if self.unsynced:
            if line.startswith(self.sync_line):
                self.unsynced -= 1
                if not self.sync_request:  # no acknowledgement: the sync line is the late answer itself
                    self._drop(line)
            else:
                self._drop(line)
            return False
        return True

    def drain(self) -> None:
        """Drop lines that arrived while nothing was asked: they cannot answer the coming request."""
        for line in self.pending():
            if self._live(line):
                self._drop(line)

    def take_dropped(self) -> list[str]:
        out = self.dropped + ([f"... and {self.dropped_more} more"] if self.dropped_more else [])
        self.dropped, self.dropped_more = [], 0
        return out

    def log_to(self, path: str) -> None:
        self.stderr_path = path

    def read(self, timeout: float, late: End = End.NO_ANSWER, deadline: Optional[float] = None) -> str:
        """The engine's next reply within ``timeout`` seconds (by ``deadline`` where one exchange of many lines
        shares it), late answers dropped (:meth:`_live`); a reply that does not come in time fails as ``late``
        says, one that cannot come any more is a crash."""
        if self.proc is None:
            raise Forfeit(End.CRASH, "the engine is not running")
        try:
            return self.reply(within(timeout) if deadline is None else deadline, self._live, late)
        except Forfeit as exc:
            raise Forfeit(exc.end, "the engine has exited or closed its output" if exc.end is End.CRASH
                            else f"no reply within {timeout:.1f}s") from None

    def quit(self) -> None:
        if self.proc is not None and self.proc.status is None:
            if self.quit_line():
                self.send(self.quit_line())
            self.proc.close_input()

    def close(self) -> None:
        self.quit()
        self.stop("")

    def quit_line(self) -> str:
        return "quit"


class JunqiSeat(PipeSeat):
    """An engine speaking our line protocol (docs/junqi-protocol.md)."""

    def __init__(self, command: str, options: Optional[list[tuple[str, str]]] = None, handshake: float = 10.0) -> None:
        super().__init__(command, handshake)
        self.options = options or []
        self.board = Board("2p")

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        self.board = board
        self._start()
        self.send("junqi")
        deadline = within(self.handshake)  # for the whole handshake, however many lines it has
        while True:
            line = self.read(self.handshake, deadline=deadline)
            if line.startswith("id name "):
                self.name = line[8:]
            elif line == "junqiok":
                break
            elif not line.startswith(("id ", "option ")):
                raise Forfeit(End.ILLEGAL, f"expected junqiok, got {line[:60]!r}")
        for name, value in self.options:
            self.send(f"setoption name {name} value {value}")
        self.send(f"newgame {board.variant} {board.letters[seat]} {rules.text()} time={time_ms} movetime={movetime_ms}")

    def lineup(self, given: str, timeout: float) -> str:
        self.send(f"lineup {given}".rstrip())
        line = self.read(timeout)
        if not line.startswith("lineup "):
            raise Forfeit(End.ILLEGAL, f"expected a lineup, got {line[:60]!r}")
        text = line[7:].strip()
        if given and short_lineup(text) != short_lineup(given):
            raise Forfeit(End.ILLEGAL, f"dealt {short_lineup(given)}, answered another lineup {text[:40]!r}")
        return text

    def begin(self, visible: dict[int, str]) -> None:
        for seat, text in sorted(visible.items()):
            self.send(f"visible {self.board.letters[seat]} {text}")
        self.send("start")

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        line = self.request(f"go time {time_left_ms} movetime {movetime_ms}", min(time_left_ms, movetime_ms) / 1000.0)
        if line.startswith("move ") and len(line.split()) == 2:
            return line.split()[1]
        return line

    def tell(self, events: list[Event]) -> None:
        for ev in events:
            self.send(ev.text(self.board))

    def error(self, text: str) -> None:
        self.send(f"error {text}")

    def finish(self, winner: int) -> None:
        return None


def ccgc_frame(board: Board, seat: int, p: int) -> str:
    """The name of point ``p`` as seat ``seat`` sees it in CCGC: its own army in rows G-L.

    >>> b = Board("2p")
    >>> ccgc_frame(b, 1, b.point("A1")), ccgc_frame(b, 0, b.point("A1"))
    ('L3', 'A1')
    """
    name = board.names[p]
    if seat == 0:
        return name
    return f"{'ABCDEFGHIJKL'[11 - 'ABCDEFGHIJKL'.index(name[0])]}{4 - int(name[1])}"


class CcgcSeat(PipeSeat):
    """A two-player engine speaking the CCGC 1.0 protocol; it never learns that it might be seat N.

    CCGC has no acknowledgement to wait for: after a timeout, the next ``BESTMOVE`` is the late one.
    """

    sync_request = ""
    sync_line = "BESTMOVE"

    def __init__(self, command: str, handshake: float = 10.0) -> None:
        super().__init__(command, handshake)
        self.board = Board("2p")
        self.seat = 0
        self.last = "0000 3 00"
        self.enemy_flag = "00"

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        if board.variant != "2p":
            raise Forfeit(End.ILLEGAL, "CCGC engines play only the two-player game")
        self.board = board
        self.seat = seat
        self.last = "0000 3 00"
        self.enemy_flag = "00"
        self._start()
        self.send("INFO 1.0")
        line = self.read(self.handshake)
        if not line.startswith("NAME"):
            raise Forfeit(End.ILLEGAL, f"expected NAME, got {line[:60]!r}")
        self.name = line[4:].strip() or self.command
        self.send(f"START {seat} {max(1, time_ms // 1000)} {rules.nocapture}")

    def lineup(self, given: str, timeout: float) -> str:
        # CCGC has no way to impose a lineup: the engine always deploys its own.
        line = self.read(timeout)
        if not line.startswith("ARRAY "):
            raise Forfeit(End.ILLEGAL, f"expected ARRAY, got {line[:60]!r}")
        return line[6:].strip()

    def begin(self, visible: dict[int, str]) -> None:
        return None

    def _square(self, p: int) -> str:
        return ccgc_frame(self.board, self.seat, p)

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        line = self.request(f"GO {self.last}", min(time_left_ms, movetime_ms) / 1000.0)
        words = line.split()
        if len(words) == 2 and words[0] == "BESTMOVE" and len(words[1]) == 4:
            try:
                frm = self.board.point(words[1][:2])
                to = self.board.point(words[1][2:])
            except ValueError:
                return line
            return f"{self.board.names[self.board.point(self._square(frm))]}-{self.board.names[self.board.point(self._square(to))]}"
        return line

    def tell(self, events: list[Event]) -> None:
        for ev in events:
            if ev.kind == "marshal" and ev.seat != self.seat and ev.frm >= 0:
                self.enemy_flag = self._square(ev.frm)
        for ev in events:
            if ev.kind != "move":
                continue
            code = CCGC_RESULT[ev.result]
            if ev.seat == self.seat:
                self.send(f"RESULT {code} {self.enemy_flag}")
            else:
                self.last = f"{self._square(ev.frm)}{self._square(ev.to)} {code} {self.enemy_flag}"

    def error(self, text: str) -> None:
        return None

    def finish(self, winner: int) -> None:
        # The 2012 specification: END 0 lost, 1 won, 2 abnormal end. It has no code for a draw, so a
        # drawn game ends with the engine's input closed and no END line.
        if winner != DRAW:
            self.send(f"END {END_ABNORMAL if winner == ABORTED else 1 if winner == self.seat else 0}")

    def quit_line(self) -> str:
        return ""
