"""The referee's side of a seat: a built-in player in process, or an engine over pipes speaking our
line protocol or CCGC. Every kind of failure becomes an :class:`AgentError` the referee rules on."""

import queue
import shlex
import subprocess
import threading
import time
from typing import Optional

from junqi_protocol.board import Board
from junqi_protocol.game import Event, Rules
from junqi_protocol.players import Engine
from junqi_protocol.rules import BOTH, EAT, KILLED, MOVE

CCGC_RESULT = {KILLED: 0, EAT: 1, BOTH: 2, MOVE: 3}


class AgentError(Exception):
    """``reason`` is ``crash``, ``timeout`` or ``protocol``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason: str = reason
        self.detail: str = detail


class Agent:
    """What the referee asks of a seat. ``ask`` returns the reply as a move ``FROM-TO`` in absolute
    names, ``pass``, or the raw line when it is neither (the referee rejects it)."""

    name: str = "?"

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


class LocalAgent(Agent):
    """A built-in player called directly: the fast path for many games."""

    def __init__(self, style: str, seed: Optional[int] = None, options: Optional[list[tuple[str, str]]] = None) -> None:
        self.engine = Engine(style, seed)
        for name, value in options or []:
            self.engine.set_option(name, value)
        self.name = f"builtin {self.engine.style}"
        self.board = Board("2p")

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        self.board = board
        self.engine.new_game(board.variant, seat, rules)

    def lineup(self, given: str, timeout: float) -> str:
        try:
            return self.engine.lineup(given)
        except ValueError as exc:
            raise AgentError("protocol", str(exc)) from None

    def begin(self, visible: dict[int, str]) -> None:
        self.engine.begin(visible)

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        m = self.engine.choose()
        return "pass" if m is None else f"{self.board.names[m[0]]}-{self.board.names[m[1]]}"

    def tell(self, events: list[Event]) -> None:
        for ev in events:
            self.engine.observe(ev)

    def error(self, text: str) -> None:
        return None

    def finish(self, winner: int) -> None:
        return None

    def close(self) -> None:
        return None


class PipeAgent(Agent):
    """An engine process; each game gets a fresh one so a crash cannot leak into the next game."""

    def __init__(self, command: str, handshake: float = 10.0) -> None:
        self.command = command
        self.name = command
        self.handshake = handshake
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.dead = False

    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as exc:
            self.dead = True
            raise AgentError("crash", f"cannot start {self.command!r}: {exc}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc, self.lines), daemon=True).start()

    @staticmethod
    def _pump(proc: "subprocess.Popen[bytes]", lines: "queue.Queue[Optional[str]]") -> None:
        assert proc.stdout is not None
        try:
            for raw in proc.stdout:
                lines.put(raw.decode("utf-8", "replace").strip())
        except (OSError, ValueError):
            pass
        lines.put(None)

    def send(self, line: str) -> None:
        if self.proc is None or self.dead:
            return
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self.dead = True

    def drain(self) -> None:
        """Drop replies that came too late for an earlier question."""
        while True:
            try:
                if self.lines.get_nowait() is None:
                    self.dead = True
            except queue.Empty:
                return

    def read(self, timeout: float) -> str:
        """The engine's next line, skipping blank and ``info`` lines (diagnostics)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if self.dead:
                raise AgentError("crash", "the engine has exited")
            if left <= 0:
                raise AgentError("timeout", f"no reply within {timeout:.1f}s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise AgentError("timeout", f"no reply within {timeout:.1f}s") from None
            if line is None:
                self.dead = True
                raise AgentError("crash", "the engine closed its output")
            if not line or line.startswith("info"):
                continue
            return line

    def close(self) -> None:
        if self.proc is None:
            return
        if self.quit_line():
            self.send(self.quit_line())
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def quit_line(self) -> str:
        return "quit"


class LineAgent(PipeAgent):
    """An engine speaking our line protocol (docs/junqi-protocol.md)."""

    def __init__(self, command: str, options: Optional[list[tuple[str, str]]] = None, handshake: float = 10.0) -> None:
        super().__init__(command, handshake)
        self.options = options or []
        self.board = Board("2p")

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        self.board = board
        self.dead = False
        self._start()
        self.send("junqi")
        while True:
            line = self.read(self.handshake)
            if line.startswith("id name "):
                self.name = line[8:]
            elif line == "junqiok":
                break
            elif not line.startswith(("id ", "option ")):
                raise AgentError("protocol", f"expected junqiok, got {line[:60]!r}")
        for name, value in self.options:
            self.send(f"setoption name {name} value {value}")
        self.send(f"newgame {board.variant} {board.letters[seat]} {rules.text()} time={time_ms} movetime={movetime_ms}")

    def lineup(self, given: str, timeout: float) -> str:
        self.send(f"lineup {given}".rstrip())
        line = self.read(timeout)
        if not line.startswith("lineup "):
            raise AgentError("protocol", f"expected a lineup, got {line[:60]!r}")
        return line[7:].strip()

    def begin(self, visible: dict[int, str]) -> None:
        for seat, text in sorted(visible.items()):
            self.send(f"visible {self.board.letters[seat]} {text}")
        self.send("start")

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        self.drain()
        self.send(f"go time {time_left_ms} movetime {movetime_ms}")
        line = self.read(min(time_left_ms, movetime_ms) / 1000.0)
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


class CcgcAgent(PipeAgent):
    """A two-player engine speaking the CCGC 1.0 protocol; it never learns that it might be seat N."""

    def __init__(self, command: str, handshake: float = 10.0) -> None:
        super().__init__(command, handshake)
        self.board = Board("2p")
        self.seat = 0
        self.last = "0000 3 00"
        self.enemy_flag = "00"

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        if board.variant != "2p":
            raise AgentError("protocol", "CCGC engines play only the two-player game")
        self.board = board
        self.seat = seat
        self.dead = False
        self.last = "0000 3 00"
        self.enemy_flag = "00"
        self._start()
        self.send("INFO 1.0")
        line = self.read(self.handshake)
        if not line.startswith("NAME"):
            raise AgentError("protocol", f"expected NAME, got {line[:60]!r}")
        self.name = line[4:].strip() or self.command
        self.send(f"START {seat} {max(1, time_ms // 1000)} {rules.nocapture}")

    def lineup(self, given: str, timeout: float) -> str:
        # CCGC has no way to impose a lineup: the engine always deploys its own.
        line = self.read(timeout)
        if not line.startswith("ARRAY "):
            raise AgentError("protocol", f"expected ARRAY, got {line[:60]!r}")
        return line[6:].strip()

    def begin(self, visible: dict[int, str]) -> None:
        return None

    def _square(self, p: int) -> str:
        return ccgc_frame(self.board, self.seat, p)

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        self.drain()
        self.send(f"GO {self.last}")
        line = self.read(min(time_left_ms, movetime_ms) / 1000.0)
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
        self.send(f"END {2 if winner < 0 else 1 if winner == self.seat else 0}")

    def quit_line(self) -> str:
        return ""
