"""Protocol plumbing shared by every game: a reader thread, a line writer, and a background worker.

stdin is read by one daemon thread into a queue, so a protocol handler can serve ``isready`` or
``stop`` while a search runs in a :class:`Worker` thread. stdout belongs to the protocol: only
:meth:`Channel.send` writes there; diagnostics go to stderr through :meth:`Channel.log`.
"""

import queue
import sys
import threading
import time
import traceback
from typing import BinaryIO, Callable, Optional, TextIO


def clean_line(raw: bytes) -> str:
    """Decode one input line, tolerating CRLF, NULs and bytes that are not UTF-8.

    >>> clean_line(b"position startpos\\r\\n")
    'position startpos'
    >>> clean_line(b"go \\xff\\x00depth 3\\n")
    'go \\ufffd depth 3'
    """
    text = raw.decode("utf-8", errors="replace").replace("\x00", " ")
    return " ".join(text.split()) if "\t" in text or "  " in text else text.strip()


class Channel:
    """Line-based I/O of one protocol session."""

    def __init__(self, inp: Optional[BinaryIO] = None, out: Optional[TextIO] = None) -> None:
        self._inp: BinaryIO = inp if inp is not None else sys.stdin.buffer
        self._out: TextIO = out if out is not None else sys.stdout
        self._lines: queue.Queue[tuple[float, Optional[str]]] = queue.Queue()
        self._lock = threading.Lock()
        # When the line :meth:`get` returned last reached us (``time.perf_counter()``): a referee's clock
        # runs from when it wrote the line, however long the lines before it kept us.
        self.arrived: float = 0.0
        self._pushback: list[str] = []
        self._reader: Optional[threading.Thread] = None

    def start(self, first: Optional[str] = None) -> None:
        """Start the reader thread; ``first`` is a line already read (protocol detection)."""
        if first is not None:
            self._pushback.append(first)
        self._reader = threading.Thread(target=self._read, name="stdin", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for raw in self._inp:
                self._lines.put((time.perf_counter(), clean_line(raw)))
        except (OSError, ValueError) as exc:
            self.log(f"input closed: {exc}")
        self._lines.put((time.perf_counter(), None))

    def get(self, timeout: Optional[float] = None) -> Optional[str]:
        """The next line, None at end of input; raises queue.Empty after ``timeout`` seconds."""
        if self._pushback:
            self.arrived = time.perf_counter()
            return self._pushback.pop(0)
        self.arrived, line = self._lines.get(timeout=timeout)
        return line

    def send(self, line: str) -> None:
        with self._lock:
            try:
                self._out.write(line + "\n")
                self._out.flush()
            except (OSError, ValueError):
                pass  # the GUI went away; the reader will see EOF and end the session

    def log(self, message: str) -> None:
        try:
            sys.stderr.write(message + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def answer(handle: Callable[[], None], refuse: Callable[[str], None], expected: tuple[type[Exception], ...] = ()) -> None:
    """Run one command's handler so that nothing it raises ends the session.

    An ``expected`` exception is the input's fault and ``refuse`` gets its text; any other is ours:
    ``refuse`` gets its name and the traceback goes to stderr. A handler that validates into a new
    object before it commits leaves the state as it was before the command either way.

    >>> answer(lambda: int("\u00b2"), print)
    internal error ValueError: invalid literal for int() with base 10: '\u00b2'
    >>> answer(lambda: {}["x"], print, (KeyError,))
    'x'
    """
    try:
        handle()
    except expected as exc:
        refuse(str(exc))
    except Exception as exc:  # noqa: BLE001 - the one rule for a failing handler, documented above
        traceback.print_exc(file=sys.stderr)
        refuse(f"internal error {type(exc).__name__}: {exc}"[:300])


class Worker:
    """Runs one job at a time in a background thread (a search, a ponder, a perft).

    With ``on_error``, an exception that escapes a job is reported there (see :func:`answer`)
    instead of ending the thread with a traceback only.
    """

    def __init__(self, on_error: Optional[Callable[[str], None]] = None) -> None:
        self._thread: Optional[threading.Thread] = None
        self._on_error = on_error

    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, job: Callable[[], None]) -> None:
        self.join()
        on_error = self._on_error
        target = job if on_error is None else lambda: answer(job, on_error)
        self._thread = threading.Thread(target=target, name="search", daemon=True)
        self._thread.start()

    def join(self, timeout: Optional[float] = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)
            if not self._thread.is_alive():
                self._thread = None
