"""Every kind of engine seat sits on engine_core.seat.EngineSeat, and none leaves an engine running: not when
the program holding it is stopped by Ctrl-C, not when a match of any game is stopped by Ctrl-C or killed."""

import ast
import importlib
import pkgutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine_core.seat import EngineSeat
from seat_holder import SEATS, kind_name
from test_match_games import alive, wait_for

HERE = Path(__file__).parent
PACKAGES = ("engine_core", "ucci_engine", "gomoku_protocol", "junqi_protocol")


def seat_kinds() -> set[type]:
    """Every subclass of EngineSeat in the four packages, each module imported (but no ``__main__``)."""
    for package in PACKAGES:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            if not info.name.endswith(".__main__"):
                try:
                    importlib.import_module(info.name)
                except ImportError:  # an optional extra (Dask for --cluster) that is not installed
                    continue
    found: set[type] = set()
    todo: list[type] = [EngineSeat]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.split(".")[0] in PACKAGES:
                found.add(sub)
                todo.append(sub)
    return found


def test_every_kind_of_engine_seat_is_tested_here():
    assert seat_kinds() == set(SEATS)


# What starts another program: a module imported, or a function of os. engine_core/pool.py's os.fork is not
# among them: its workers are this process's own search, not an engine, and die with it.
PROGRAM_MODULES = {"subprocess", "asyncio.subprocess", "pty"}
PROGRAM_CALLS = ("system", "popen", "exec", "spawn", "posix_spawn")


def starts_a_program(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name in PROGRAM_MODULES for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module in PROGRAM_MODULES or node.module == "os" and any(
                alias.name.startswith(PROGRAM_CALLS) for alias in node.names)):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id == "os" and node.attr.startswith(PROGRAM_CALLS)
                or node.value.id == "asyncio" and node.attr.startswith("create_subprocess")):
            return True
    return False


def test_only_the_engine_process_class_starts_a_program():
    """Every engine of every game and tool starts as an engine_core.process.EngineProcess (on a seat):
    no other module of the packages starts a program."""
    starters = []
    for package in PACKAGES:
        for path in sorted(Path(importlib.import_module(package).__path__[0]).glob("*.py")):
            if starts_a_program(ast.parse(path.read_text(encoding="utf-8"))):
                starters.append(f"{package}.{path.stem}")
    assert starters == ["engine_core.process"]
    assert starts_a_program(ast.parse("import os\nos.execvp('x', ['x'])"))


def start(argv: list[str]) -> subprocess.Popen[bytes]:
    """A program whose SIGINT is at its default, as a foreground command's is at a terminal (a shell that runs
    the tests as a background job would otherwise have it ignored, and exec keeps an ignored signal ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        signal.signal(signal.SIGINT, previous)


def noted(folder: Path) -> list[int]:
    """The pids seat_engine.py noted in ``folder``: each engine's and its child's."""
    return [int(p.name) for p in folder.iterdir() if p.name.isdigit()]


def stop(program: subprocess.Popen[bytes], signum: int) -> int:
    """Send ``signum`` and wait for the program to end; its exit status."""
    try:
        program.send_signal(signum)
        return program.wait(timeout=60)
    finally:
        program.kill()


@pytest.mark.parametrize("kind", [kind_name(cls) for cls, sit in SEATS.items() if sit is not None])
def test_ctrl_c_leaves_no_engine_of_any_seat_kind_running(tmp_path, kind):
    holder = start([sys.executable, str(HERE / "seat_holder.py"), kind, str(tmp_path)])
    ready = wait_for(lambda: [1] if (tmp_path / "ready").exists() else [], 1)
    engines = noted(tmp_path)
    assert stop(holder, signal.SIGINT) != 0
    assert ready and len(engines) == 2  # the engine and its child, both running when the signal came
    assert wait_for(lambda: [pid for pid in engines if not alive(pid)], 2) == engines


MATCHES = {"xiangqi": ["--tc", "3600+0"], "gomoku": ["--turn-ms", "3600000"], "junqi": ["--movetime", "3600"]}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("game", MATCHES)
def test_a_match_stopped_by_ctrl_c_or_killed_leaves_no_engine_of_any_game_running(tmp_path, game, signum):
    engine = f"cmd={sys.executable} {HERE / 'seat_engine.py'} {tmp_path}"
    runner = start([sys.executable, "-m", "engine_core", "match", "--game", game, "--engine", engine, "name=a",
                    "--engine", engine, "name=b", "--games", "2", *MATCHES[game]])
    first = wait_for(lambda: noted(tmp_path), 2)  # the first engine and its child run
    assert stop(runner, signum) == 128 + signum
    engines = noted(tmp_path)  # with any engine started since
    assert len(first) >= 2 and len(engines) >= len(first)  # the second engine may have started too on a busy machine
    assert sorted(wait_for(lambda: [pid for pid in engines if not alive(pid)], len(engines))) == sorted(engines)
