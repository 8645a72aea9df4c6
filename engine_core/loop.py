"""Protocol plumbing shared by every game: a reader thread, a line writer, the command loop, and a
background worker.

stdin is read by one daemon thread into a queue, so a protocol handler can serve ``isready`` or
``stop`` while a search runs in a :class:`Worker` thread. Once the input has ended, that thread
watches stdout: a search still running may finish and answer (``echo go … | sanqi`` prints its
move), but when nobody is left to read the answer (the GUI or referee that started us is gone,
killed without a word) the process ends at once rather than think on for no one. stdout belongs to the protocol: only
:meth:`Channel.send` writes there; diagnostics go to stderr through :meth:`Channel.log`. Every
protocol is a :class:`Session`: a table of command words and one rule for a command that is refused
or fails. The game's front object, which the session calls and which owns the game's state, refuses
a command before changing anything, and undoes a change of its own that fails half-way as a
:class:`Front` (:func:`undone_on_failure`).
"""

import functools
import os
import queue
import select
import sys
import threading
import time
import traceback
from typing import BinaryIO, Callable, Concatenate, Optional, ParamSpec, TextIO, TypeVar


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
        if self._watch_output():
            self.log("input and output closed: nobody reads the answer; exiting")
            os._exit(0)

    def _watch_output(self) -> bool:
        """Block until nobody reads the output any more (True), or return False at once when that cannot
        be watched (not a file descriptor, or no ``poll``, as on Windows). A pipe's or socket's writing end
        reports POLLERR or POLLHUP, whatever events are asked for, once its reading end is closed."""
        poll = getattr(select, "poll", None)
        try:
            fd = self._out.fileno()
        except (OSError, ValueError):
            return False
        if poll is None:
            return False
        watch = poll()
        watch.register(fd, 0)
        while True:
            for _, happened in watch.poll():
                if happened & select.POLLNVAL:
                    return False  # the descriptor was closed here: the process is ending anyway
                if happened & (select.POLLERR | select.POLLHUP):
                    return True

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


class Refusal(ValueError):
    """A command the engine refuses, raised before its handler changed anything; the text says why."""


class EndSession(Exception):
    """Raised by a handler whose command ends the session (``quit``, ``END``)."""


Handler = Callable[[list[str]], None]


def internal_error(exc: BaseException) -> str:
    """A failure of ours as every protocol words it; its traceback goes to stderr.

    >>> internal_error(KeyError("x"))
    "internal error KeyError: 'x'"
    """
    traceback.print_exception(exc, file=sys.stderr)
    return f"internal error {type(exc).__name__}: {exc}"[:300]


class Session:
    """One protocol session: each line is a command looked up by its first word in :attr:`commands`,
    whose handler gets the words after it. One rule for what goes wrong, so no bad input ends the session:

    - a handler refuses a command by raising one of :attr:`REFUSALS` before it changes anything;
      :meth:`error` prints why in the protocol's own form, and the state is the one before the command;
    - any other exception is ours: :meth:`error` prints :func:`internal_error`; the state a half-done
      command may have left was put back before, by the front object that holds it (:class:`Front`),
      so the session, which only parses and prints, has nothing of its own to put back;
    - :class:`EndSession` from a handler ends the session at once; the end of input ends it after
      :meth:`at_end`.

    >>> class Echo(Session):
    ...     def __init__(self) -> None:
    ...         super().__init__()
    ...         self.commands = {"say": self.say, "half": lambda args: print(1 / int(args[0]))}
    ...     def say(self, args: list[str]) -> None:
    ...         if not args:
    ...             raise Refusal("say what?")
    ...         print(*args)
    ...     def error(self, text: str) -> None:
    ...         print("error", text)
    >>> for line in ("say hi there", "say", "sing", "half 0"):
    ...     Echo().serve(line)
    hi there
    error say what?
    error unknown command 'sing'
    error internal error ZeroDivisionError: division by zero
    """

    REFUSALS: tuple[type[Exception], ...] = (Refusal,)
    CASE_BLIND = False  # True: command words are looked up in capitals (Gomocup's are case-blind)

    def __init__(self) -> None:
        self.chan = Channel()
        self.commands: dict[str, Handler] = {}

    def run(self, chan: Channel) -> None:
        self.chan = chan
        while True:
            line = chan.get()
            if line is None:
                self.at_end()
                return
            if not line:
                continue
            try:
                self.serve(line)
            except EndSession:
                return

    def serve(self, line: str) -> None:
        """Answer one command line (not empty) by the rule above."""
        words = line.split()
        word = words[0].upper() if self.CASE_BLIND else words[0]
        try:
            self.admit(word, line)
            handler = self.commands.get(word)
            if handler is None:
                self.unknown(line)
            else:
                handler(words[1:])
        except EndSession:
            raise
        except self.REFUSALS as exc:
            self.error(self.reason(word, exc))
        except Exception as exc:  # noqa: BLE001 - the one rule for a failing handler, documented above
            self.failed(exc)

    def failed(self, exc: Exception) -> None:
        """Report a failure of ours (also for a search that fails in a worker thread)."""
        self.error(internal_error(exc))

    # --- what each protocol says for itself ---------------------------------------------------------

    def error(self, text: str) -> None:
        """Print ``text`` as this protocol's error line."""
        raise NotImplementedError

    def admit(self, word: str, line: str) -> None:
        """Before a command's handler: refuse it whole here (raise), or wait for what it must not overlap."""

    def unknown(self, line: str) -> None:
        """A line whose first word is no command."""
        raise Refusal(f"unknown command {line.split()[0][:30]!r}")

    def reason(self, word: str, exc: Exception) -> str:
        """What the error line says for a refused ``word``."""
        return str(exc)

    def at_end(self) -> None:
        """The input ended."""


class Front:
    """A game's front object (the one its adapter calls, owning the game's state, its undo, time and
    choices) with state to put back: the one way a change is refused or undone. A change is refused by
    raising one of :attr:`REFUSALS` before it changes anything (the session passes them on as they are);
    any other exception is a failure of ours, and an operation marked :func:`undone_on_failure` first
    puts the state back with :meth:`recover`, then lets the failure go on to the session, which reports
    it. (Xiangqi's front needs no undo: each of its changes replaces a whole object once checked.)

    >>> class Counter(Front):
    ...     def __init__(self) -> None:
    ...         self.n = self.kept = 0
    ...     def recover(self) -> None:
    ...         self.n = self.kept
    ...     @undone_on_failure
    ...     def add(self, k: int) -> None:
    ...         if k < 0:
    ...             raise Refusal("no negative steps")
    ...         self.n += k
    ...         if k == 3:
    ...             raise RuntimeError("a bug, half-way")
    ...         self.kept = self.n
    >>> c = Counter()
    >>> c.add(2)
    >>> for k in (-1, 3):
    ...     try:
    ...         c.add(k)
    ...     except Exception as exc:
    ...         print(type(exc).__name__, c.n)
    Refusal 2
    RuntimeError 2
    """

    REFUSALS: tuple[type[Exception], ...] = (Refusal,)

    def recover(self) -> None:
        """After a failure of ours part-way through a change: the state as it was before the change."""
        raise NotImplementedError


FrontT = TypeVar("FrontT", bound=Front)
Params = ParamSpec("Params")
Returned = TypeVar("Returned")


def undone_on_failure(change: Callable[Concatenate[FrontT, Params], Returned]) -> Callable[Concatenate[FrontT, Params], Returned]:
    """Mark a :class:`Front`'s operation that changes its state: a refusal passes as it is (raised before
    anything changed); any other exception first puts the state back (:meth:`Front.recover`)."""

    @functools.wraps(change)
    def run(front: FrontT, /, *args: Params.args, **kwargs: Params.kwargs) -> Returned:
        try:
            return change(front, *args, **kwargs)
        except front.REFUSALS:
            raise
        except Exception:
            front.recover()
            raise

    return run


class Worker:
    """Runs one job at a time in a background thread (a search, a ponder, a perft).

    With ``on_error``, an exception that escapes a job is reported there (as :func:`internal_error`
    words it) instead of ending the thread with a traceback only.
    """

    def __init__(self, on_error: Optional[Callable[[str], None]] = None) -> None:
        self._thread: Optional[threading.Thread] = None
        self._on_error = on_error

    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, job: Callable[[], None]) -> None:
        self.join()
        self._thread = threading.Thread(target=self._run, args=(job,), name="search", daemon=True)
        self._thread.start()

    def _run(self, job: Callable[[], None]) -> None:
        if self._on_error is None:
            job()
            return
        try:
            job()
        except Exception as exc:  # noqa: BLE001 - reported as a failing handler is, see Session
            self._on_error(internal_error(exc))

    def join(self, timeout: Optional[float] = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)
            if not self._thread.is_alive():
                self._thread = None
