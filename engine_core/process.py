"""An engine the referee runs: its own process group, buffered bounded reads, writes that never block.

* The engine starts in a process group of its own, in the referee's session; :meth:`EngineProcess.stop`
  kills the whole group, so nothing the engine started outlives its seat. Not in a session of its own:
  when the referee dies without clean-up (SIGKILL), the kernel's rule for an orphaned process group (SIGHUP
  and SIGCONT to a group that has a stopped member and loses its last parent in the session) ends an
  engine the referee had suspended, which could notice nothing by itself; a running engine sees its input
  end and, with nobody left to read its output, leaves (ours: :mod:`engine_core.loop`).
* Whether the engine has exited is asked of the kernel (``waitid`` without reaping), not inferred
  from its output: a child that inherited the engine's stdout cannot keep a dead engine "alive".
* Output is read in large chunks by one thread; lines are cut at :data:`MAX_LINE` bytes (the rest
  of an overlong line is skipped), blank lines and (unless ``keep_info``) ``info`` lines are dropped
  there, so a flood of diagnostics costs little and a long line cannot exhaust memory.
* Input is written by another thread, so an engine that stops reading cannot block the referee.
* Every engine not yet stopped is known to :func:`kill_all`, which runs when the interpreter exits
  (``atexit``: after Ctrl-C too) and which a runner that leaves by ``os._exit`` calls itself: an engine
  in its own process group sees no Ctrl-C, and one the referee had suspended (SIGSTOP) would never read the
  end of its input and stay behind.

>>> p = EngineProcess("sh -c 'echo info hello; echo readyok'", None)
>>> p.lines.get(timeout=10)
'readyok'
>>> p.stop(grace=5.0); p.exit_code()
0
"""

import atexit
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from typing import BinaryIO, Final, Optional

MAX_LINE: Final = 16384
CHUNK: Final = 65536
QUEUED_LINES: Final = 10000  # a flood of non-info lines waits in the engine's pipe, not in our memory
POLL: Final = 0.05


class StartError(Exception):
    """The command could not be started at all."""


_live: "set[EngineProcess]" = set()
_live_lock = threading.Lock()


def kill_all() -> None:
    """Kill the whole process group of every engine started here and not yet stopped."""
    with _live_lock:
        engines = list(_live)
    for engine in engines:
        _kill_group(engine.proc.pid)


atexit.register(kill_all)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class EngineProcess:
    """One running engine. ``lines`` yields its meaningful output lines, then None at end of output."""

    def __init__(self, command: str, stderr_path: Optional[str], keep_info: bool = False) -> None:
        log: Optional[BinaryIO] = None
        try:
            log = open(stderr_path, "ab") if stderr_path else None  # noqa: SIM115 - closed below, the engine keeps its copy
            self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL if log is None else log, process_group=0)
        except (OSError, ValueError) as exc:
            raise StartError(f"cannot start {command!r}: {exc}") from None
        finally:
            if log is not None:
                log.close()  # the engine holds its own copy
        self.lines: queue.Queue[Optional[str]] = queue.Queue(QUEUED_LINES)
        self.outbox: queue.Queue[Optional[bytes]] = queue.Queue()
        self.stopping = threading.Event()
        self.broken = False  # writing failed: the engine closed its input
        self.status: Optional[int] = None
        self.keep_info = keep_info
        with _live_lock:
            _live.add(self)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._write, args=(self.proc.stdin,), daemon=True).start()

    def send(self, line: str) -> None:
        if self.status is None:
            self.outbox.put((line + "\n").encode())

    def close_input(self) -> None:
        self.outbox.put(None)

    def exited(self) -> bool:
        """Has the engine process itself ended? Leaves it unreaped, so its group id stays its own."""
        if self.status is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None and info.si_pid == self.proc.pid

    def exit_code(self) -> Optional[int]:
        return self.status

    def stop(self, grace: float = 2.0) -> None:
        """Let the engine end on its own for ``grace`` seconds, then kill its whole process group."""
        if self.status is not None:
            return
        self.close_input()
        deadline = time.monotonic() + grace
        while not self.exited() and time.monotonic() < deadline:
            time.sleep(0.02)
        _kill_group(self.proc.pid)
        self.proc.kill()  # in case the engine left its own group
        self.status = self.proc.wait()
        self.stopping.set()
        with _live_lock:
            _live.discard(self)

    def _put(self, item: Optional[str]) -> None:
        while not self.stopping.is_set():
            try:
                self.lines.put(item, timeout=POLL)
                return
            except queue.Full:
                continue

    def _deliver(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace").strip()
        if text and (self.keep_info or not (text == "info" or text.startswith("info "))):
            self._put(text)

    def _read(self, out: BinaryIO) -> None:
        fd = out.fileno()
        rest = b""
        skipping = False  # inside an overlong line, whose start was delivered already
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                break
            if not chunk:
                break
            parts = (rest + chunk).split(b"\n")
            rest = parts.pop()
            for raw in parts:
                if skipping:
                    skipping = False
                else:
                    self._deliver(raw[:MAX_LINE])
            if len(rest) > MAX_LINE:
                if not skipping:
                    self._deliver(rest[:MAX_LINE])
                skipping = True
                rest = b""
        if rest and not skipping:
            self._deliver(rest)
        out.close()
        self._put(None)

    def _write(self, inp: BinaryIO) -> None:
        while True:
            data = self.outbox.get()
            try:
                if data is None:
                    inp.close()
                    return
                inp.write(data)
                inp.flush()
            except (OSError, ValueError):
                self.broken = True
                return
