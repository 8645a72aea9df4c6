"""One engine seat: what every game's referee, bench and labeller asks of an engine process.

A seat starts its engine as an :class:`engine_core.process.EngineProcess` (its own process group,
bounded reads, killed with its group on stop and when the interpreter exits), sends it lines, reads
its replies against a deadline and turns every failure into a :class:`engine_core.ends.Forfeit` that
names the :class:`engine_core.ends.End`: an engine that could not start, exited or closed its output
is a crash; one still running but silent at the deadline has failed as the caller says (``late``:
out of time during a move, no answer elsewhere). Each game's engine seats, in its ``seats`` module
(xiangqi's ``UcciSeat`` and ``MatchSeat``, gomoku's ``GomocupSeat``, junqi's ``JunqiSeat`` and
``CcgcSeat`` on ``PipeSeat``), and each tool's engine (the bench's ``Peer``, xiangqi's and gomoku's
``Labeller``) is a subclass that adds only its protocol.

>>> seat = EngineSeat()
>>> seat.start("sh -c 'echo info depth 1; echo ucciok; sleep 60'")
>>> seat.reply(within(10), lambda line: line == "ucciok")
'ucciok'
>>> seat.reply(within(0.1))
Traceback (most recent call last):
engine_core.ends.Forfeit: no reply in time
>>> seat.stop(""); seat.gone
True
"""

import math
import os
import queue
import signal
import time
from typing import Callable, Optional

from engine_core.ends import End, Forfeit
from engine_core.process import POLL, EngineProcess, StartError

SETTLE = 0.2  # seconds the reader gets, once the engine has exited, to pass on what it wrote last


def anything(line: str) -> bool:
    return True


def within(seconds: float) -> float:
    """The deadline ``seconds`` from now, as :meth:`EngineSeat.line` and :meth:`EngineSeat.reply` take it:
    a seat bounds its waits with deadlines and keeps no stopwatch (the game loop times every request)."""
    return time.monotonic() + seconds


class EngineSeat:
    """An engine process on a seat, spoken to line by line; ``proc`` is None until :meth:`start`."""

    command = ""
    proc: Optional[EngineProcess] = None
    ended = False  # the engine closed its output

    def start(self, command: str, log: Optional[str] = None, keep_info: bool = False) -> None:
        """Start ``command`` (stderr appended to the file ``log``, else discarded; ``info`` lines kept only
        with ``keep_info``). A command that cannot be started at all is a crash."""
        self.command = command
        self.ended = False
        try:
            self.proc = EngineProcess(command, log, keep_info)
        except StartError as exc:
            raise Forfeit(End.CRASH, str(exc)) from None

    def send(self, line: str) -> None:
        """Queue ``line`` for the engine; never blocks, and is dropped once the engine is stopped."""
        if self.proc is not None:
            self.proc.send(line)

    @property
    def pid(self) -> int:
        """The engine's process id, which is also its process group's; 0 before :meth:`start`."""
        return 0 if self.proc is None else self.proc.proc.pid

    @property
    def gone(self) -> bool:
        """The engine cannot answer any more: never started, exited, or closed its output or input."""
        p = self.proc
        return p is None or self.ended or p.broken or p.exited()

    def silence(self, late: End) -> End:
        """What no reply by the deadline means: a crash if the engine is gone, else ``late``."""
        return End.CRASH if self.gone else late

    def line(self, deadline: float) -> Optional[str]:
        """The engine's next line by ``deadline`` (``time.monotonic()``; ``math.inf`` waits as long as the
        engine lives); None when none came by then or the engine is gone."""
        exited_at = math.inf
        while self.proc is not None and not self.ended:
            now = time.monotonic()
            try:
                got = self.proc.lines.get(timeout=max(0.0, min(POLL, deadline - now)))
            except queue.Empty:
                if self.proc.exited():
                    exited_at = min(exited_at, now)
                if now >= deadline or now - exited_at > SETTLE:
                    return None
                continue
            if got is not None:
                return got
            self.ended = True
        return None

    def pending(self) -> list[str]:
        """The lines already read and not yet taken, without waiting (an end of output stays noted)."""
        out: list[str] = []
        if self.proc is None:
            return out
        for _ in range(self.proc.lines.qsize()):  # what is there now: a flooding engine refills it
            try:
                got = self.proc.lines.get_nowait()
            except queue.Empty:
                break
            if got is None:
                self.ended = True
                break
            out.append(got)
        return out

    def reply(self, deadline: float, wanted: Callable[[str], bool] = anything, late: End = End.NO_ANSWER) -> str:
        """The next line ``wanted`` accepts (others are skipped) by ``deadline``; Forfeit otherwise, also when
        the engine writes on past the deadline without a line ``wanted`` takes."""
        while True:
            got = self.line(deadline)
            if got is not None and wanted(got):
                return got
            if got is None or time.monotonic() > deadline:
                end = self.silence(late)
                raise Forfeit(end, "the engine exited or closed its output" if end is End.CRASH else "no reply in time")

    def signal_group(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the engine's whole process group (SIGSTOP suspends it, SIGCONT resumes it)."""
        if self.proc is not None and not self.proc.exited():
            try:
                os.killpg(self.proc.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def stop(self, farewell: str = "quit", grace: float = 2.0) -> None:
        """Resume the engine, send ``farewell`` (unless empty), let it end within ``grace`` seconds, then kill
        its whole process group. Safe to call more than once."""
        if self.proc is None:
            return
        self.signal_group(signal.SIGCONT)
        if farewell:
            self.send(farewell)
        self.proc.stop(grace)
