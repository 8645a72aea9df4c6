"""Worker processes for a search that splits its work (the ``threads`` option): started once, reused
every move, never outliving the engine.

Each worker is a forked child serving one pipe. It builds its handler once (a game's scorer with its
own transposition table) and answers each task with ``(ticket, handler(task))``. It ends on a ``None``
task, at the end of its pipe, or within :data:`POLL` seconds of its parent's death: a SIGKILL runs no
clean-up in the parent, so a worker whose pipe stays quiet checks that its parent is still the process
that started it. The parent never waits for an answer past the time it names; an answer that comes
later carries an old ticket and is dropped when the next one is collected.

>>> pool = Pool(2, lambda: (lambda n: n * n))
>>> pool.submit([3, 4]); pool.collect(time.perf_counter() + 10.0)
[9, 16]
>>> pool.close(); pool.alive()
0
"""

import os
import signal
import sys
import time
import traceback
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any, Callable, Optional

POLL = 0.25  # seconds a quiet worker waits before it looks at its parent again
CLOSE_WAIT = 1.0  # seconds a closing pool waits for a worker before it kills it

Handler = Callable[[Any], Any]


def _serve(conn: Connection, parent: int, make: Callable[[], Handler]) -> None:
    # stdin and stdout belong to the parent's protocol: a worker neither reads nor writes them, and
    # does not hold the parent's pipes open after the parent is gone.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    handle = make()
    while True:
        if not conn.poll(POLL):
            if os.getppid() != parent:
                return
            continue
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        ticket, task = message
        try:
            result = handle(task)
        except Exception:  # noqa: BLE001 - a failed task is reported and answered None; the worker serves on
            traceback.print_exc(file=sys.stderr)
            result = None
        try:
            conn.send((ticket, result))
        except OSError:
            return


class Pool:
    """``size`` worker processes, each running the handler ``make()`` builds in it.

    The workers are plain forks, not :mod:`multiprocessing` processes: a multiprocessing child closes
    ``sys.stdin`` first, and the protocol's reader thread holds its lock in the parent while it waits
    for a line, so the child would hang on that lock forever."""

    def __init__(self, size: int, make: Callable[[], Handler]) -> None:
        self.pids: list[int] = []
        self.conns: list[Connection] = []
        parent = os.getpid()
        for _ in range(size):
            mine, theirs = Pipe()
            pid = os.fork()
            if pid == 0:  # the worker: it never returns into the caller's code
                code = 0
                try:
                    mine.close()
                    _serve(theirs, parent, make)
                except BaseException:  # noqa: BLE001 - a worker never returns into its parent's code
                    code = 1
                os._exit(code)
            theirs.close()
            self.pids.append(pid)
            self.conns.append(mine)
        self.ticket = 0
        self.asked = 0  # workers given the current ticket's tasks

    def submit(self, tasks: list[Any]) -> None:
        """Hand task i to worker i (at most one task a worker)."""
        self.ticket += 1
        self.asked = min(len(tasks), len(self.conns))
        for conn, task in zip(self.conns, tasks):
            try:
                conn.send((self.ticket, task))
            except OSError:
                pass  # a dead worker: its answer is simply missing

    def collect(self, until: float) -> list[Optional[Any]]:
        """The answers to the last :meth:`submit`, in order; None for a worker that did not answer by
        ``until`` (a ``time.perf_counter()`` time) or failed."""
        answers: list[Optional[Any]] = [None] * self.asked
        waiting = {self.conns[i]: i for i in range(self.asked)}
        while waiting:
            left = until - time.perf_counter()
            if left <= 0:
                break
            for conn in wait(list(waiting), left):
                assert isinstance(conn, Connection)
                try:
                    ticket, result = conn.recv()
                except (EOFError, OSError):
                    del waiting[conn]
                    continue
                if ticket == self.ticket:
                    answers[waiting.pop(conn)] = result
        return answers

    def alive(self) -> int:
        """Workers not yet reaped."""
        return len(self.pids)

    def close(self) -> None:
        """Ask every worker to end, and kill any that has not ended within :data:`CLOSE_WAIT`."""
        for conn in self.conns:
            try:
                conn.send(None)
            except OSError:
                pass
            conn.close()
        self.conns = []
        end = time.perf_counter() + CLOSE_WAIT
        while self.pids:
            self.pids = [pid for pid in self.pids if not _reaped(pid)]
            if self.pids and time.perf_counter() >= end:
                for pid in self.pids:
                    _kill(pid)
                end = float("inf")
            elif self.pids:
                time.sleep(0.01)

    def kill(self) -> None:
        """End every worker at once, busy or not. Only the processes are touched, not the pipes, so
        this may run beside the thread that submits and collects (it then hears of the end of the
        pipes); :meth:`close` still closes them."""
        for pid in self.pids:
            _kill(pid)
        for pid in self.pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.pids = []


def _reaped(pid: int) -> bool:
    try:
        return os.waitpid(pid, os.WNOHANG)[0] == pid
    except ChildProcessError:
        return True


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
