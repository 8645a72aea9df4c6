"""Shared test helpers: the test data folder and a pipe-driven session with the installed ``sanqi``."""

import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time
import queue
import random
from typing import TYPE_CHECKING, Iterator, Optional

import pytest

if TYPE_CHECKING:
    from ucci_engine.position import Position

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
# As if the environment running the tests were activated: a command such as ``sanqi referee … sanqi``
# finds the sanqi installed beside this interpreter, not another one (or none) on PATH.
os.environ["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def sanqi_command() -> list[str]:
    """The engine under test: $SANQI_EXE (a built executable) or the installed ``sanqi``."""
    exe = os.environ.get("SANQI_EXE")
    if exe:
        return [exe]
    # The sanqi of the environment running the tests first (a venv need not be on PATH).
    beside = pathlib.Path(sys.executable).parent / "sanqi"
    found = str(beside) if beside.is_file() else shutil.which("sanqi")
    if found:
        return [found]
    return [sys.executable, "-m", "engine_core"]


def random_games(seed: int, games: int, longest: int) -> Iterator[tuple["Position", list[int]]]:
    """Each position of ``games`` random xiangqi games from the start (20 to ``longest`` plies), with its
    legal moves, before the move played from it; the caller may read the board but not change it."""
    from ucci_engine.position import START_FEN, Position

    rng = random.Random(seed)
    for _ in range(games):
        pos = Position.from_fen(START_FEN)
        for _ in range(rng.randrange(20, longest)):
            moves = pos.legal_moves()
            if not moves:
                break
            yield pos, moves
            pos.make(rng.choice(moves))


def plays_legally(fen: str, moves: list[str], move: str) -> bool:
    """Is ``move`` legal after ``moves`` from ``fen``? (Judged by our rules, which match pyffish's.)"""
    from ucci_engine.position import Position

    pos = Position.from_fen(fen)
    for m in moves:
        assert pos.push_name(m), m
    return pos.push_name(move)


class Session:
    """An engine process driven line by line over pipes."""

    def __init__(self, args: Optional[list[str]] = None, cmd: Optional[list[str]] = None) -> None:
        self.proc = subprocess.Popen(
            (cmd or sanqi_command()) + (args or []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )
        self.lines: queue.Queue[Optional[str]] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text: str | bytes) -> None:
        data = text if isinstance(text, bytes) else (text + "\n").encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read(self, timeout: float = 10.0) -> Optional[str]:
        line = self.lines.get(timeout=timeout)
        if line is not None:
            self.seen.append(line)
        return line

    def expect(self, prefix: str, timeout: float = 10.0) -> tuple[str, list[str]]:
        """Read until a line starting with ``prefix``; returns it and the lines before it."""
        before: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} within {timeout}s; got {before}")
            try:
                line = self.read(left)
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} within {timeout}s; got {before}") from None
            if line is None:
                raise AssertionError(f"engine closed output before {prefix!r}; got {before}")
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def quiet(self, wait: float = 0.3) -> list[str]:
        """Lines that arrive within ``wait`` seconds."""
        got: list[str] = []
        end = time.monotonic() + wait
        while time.monotonic() < end:
            try:
                line = self.read(max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            got.append(line)
        return got

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def greeted(make, hello: str, ok: str) -> Session:
    """A new session that has answered the handshake ``hello`` with ``ok``, naming itself sanqi."""
    s = make()
    s.send(hello)
    _, before = s.expect(ok)
    assert before[0].startswith("id name sanqi")
    return s


@pytest.fixture
def session_factory():
    made: list[Session] = []

    def make(args: Optional[list[str]] = None, cmd: Optional[list[str]] = None) -> Session:
        s = Session(args, cmd)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()
