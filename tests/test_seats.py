"""Every kind of engine seat sits on engine_core.seat.EngineSeat, and none leaves an engine running: not when
the program holding it is stopped by Ctrl-C, not when a match of any game is stopped by Ctrl-C or killed, and
not, for our own engines, when the match is killed by SIGKILL and cannot clean up. Each game keeps its seats
in ``seats.py`` under names of one pattern, and no class name means two things."""

import ast
import importlib
import pkgutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable

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


# Issue 42, item 4, the same shape in every game: each game package has ``seats.py`` (what its referee sits an
# engine on, a class per protocol named ``<Protocol>Seat``), ``referee.py`` (the loop that plays one game) and
# ``arena.py`` (``sanqi match``'s setup). The engines a tool starts (bench's ``Peer``, the labellers) stay with it.
GAMES = ("ucci_engine", "gomoku_protocol", "junqi_protocol")
ENGINE_SEATS = {
    "ucci_engine": {"UcciSeat", "MatchSeat"},  # MatchSeat: sanqi match's, UCCI or UCI
    "gomoku_protocol": {"GomocupSeat"},
    "junqi_protocol": {"PipeSeat", "JunqiSeat", "CcgcSeat"},  # PipeSeat: what our line protocol and CCGC share
}
TOOLS = ("bench", "tune", "label")


def classes(module: ModuleType) -> dict[str, type]:
    return {name: obj for name, obj in vars(module).items() if isinstance(obj, type) and obj.__module__ == module.__name__}


@pytest.mark.parametrize("package", GAMES)
def test_every_game_has_seats_a_referee_and_an_arena(package):
    for name in ("seats", "referee", "arena"):
        importlib.import_module(f"{package}.{name}")
    arena = importlib.import_module(f"{package}.arena")
    assert callable(arena.make_setup) and callable(arena.add_options)


def test_each_games_engine_seats_are_in_its_seats_module_and_sit_on_the_core_seat():
    """Every engine seat of the three games, enumerated from their ``seats`` modules, is an EngineSeat named
    ``…Seat``; every other EngineSeat of the games belongs to a tool."""
    found = {}
    for package in GAMES:
        seats = importlib.import_module(f"{package}.seats")
        engine_seats = {name for name, cls in classes(seats).items() if issubclass(cls, EngineSeat)}
        assert engine_seats == ENGINE_SEATS[package], package
        found.update({f"{package}.seats.{name}": getattr(seats, name) for name in engine_seats})
    assert all(issubclass(cls, EngineSeat) and name.endswith("Seat") for name, cls in found.items())
    games = {cls for cls in seat_kinds() if cls.__module__.split(".")[0] in GAMES}
    assert set(found.values()) <= games
    assert sorted(kind_name(cls) for cls in games - set(found.values())
                  if cls.__module__.rpartition(".")[2] not in TOOLS) == []


# Where a game has players in process: what its referee asks of a seat, and its seat in process (one word, one
# meaning: gomoku's is a one-ply baseline, junqi's a built-in player of any kind).
IN_PROCESS = {"gomoku_protocol": ("GomokuSeat", "BaselineSeat"), "junqi_protocol": ("Seat", "BuiltinSeat")}


@pytest.mark.parametrize("package", sorted(IN_PROCESS))
def test_every_seat_of_a_game_with_players_in_process_is_one_its_referee_can_ask(package):
    seats = importlib.import_module(f"{package}.seats")
    contract, in_process = (getattr(seats, name) for name in IN_PROCESS[package])
    kinds = {name: cls for name, cls in classes(seats).items() if name.endswith("Seat")}
    assert not issubclass(in_process, EngineSeat)
    assert all(issubclass(cls, contract) for cls in kinds.values())


# A class name defined in more than one module of the packages: the same role in each game, never two things.
SAME_ROLE = {
    "Position": "a game's position",
    "Engine": "a game's front object, the one its protocol adapters drive (junqi's thinking is its Player)",
    "SearchAnswer": "what a finished search decided: the move and what goes with it",
    "Labeller": "an engine that labels positions for a fit",
}


def test_a_class_name_in_two_modules_means_one_thing():
    defined: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in sorted(Path(importlib.import_module(package).__path__[0]).glob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef):
                    defined.setdefault(node.name, []).append(f"{package}.{path.stem}")
    assert sorted(name for name, where in defined.items() if len(where) > 1 and name not in SAME_ROLE) == []
    assert defined["Result"] == ["engine_core.referee"]  # how a game ended; a search's is its SearchAnswer
    assert defined["Line"] == ["engine_core.search"]  # a reported root line (a gomoku board's lines are a vector of ints)


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


def descendants(pid: int) -> list[int]:
    """The processes below ``pid``, by their parents in /proc (an engine runs in a process group of its own)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # ended meanwhile
    found, todo = [], [pid]
    while todo:
        above = todo.pop()
        below = [child for child, parent in parents.items() if parent == above]
        found += below
        todo += below
    return found


def proc_text(pid: int, name: str) -> str:
    try:
        return (Path("/proc") / str(pid) / name).read_text()
    except OSError:
        return ""


def thinking_xiangqi(processes: list[int]) -> bool:
    """A search thread runs beside an engine's main and input threads."""
    return any("Threads:\t3\n" in proc_text(pid, "status") for pid in processes)


def suspended_gomoku(processes: list[int]) -> bool:
    """The brain whose opponent thinks is stopped (SIGSTOP): it cannot notice its input end."""
    return any(proc_text(pid, "stat").rsplit(")", 1)[-1].split()[:1] == ["T"] for pid in processes)


def thinking_junqi(processes: list[int]) -> bool:
    """Two engines and the worker process the first search of one of them forked (``threads`` 2)."""
    return len(processes) >= 3


# Clocks on which a killed match finds an engine thinking for a minute or more (xiangqi, junqi) or suspended (gomoku).
OURS = {"xiangqi": (["--tc", "3600+0"], thinking_xiangqi), "gomoku": (["--turn-ms", "3600000"], suspended_gomoku),
        "junqi": (["--tc", "3600", "--movetime", "3600", "--each", "option.threads=2"], thinking_junqi)}


@pytest.mark.parametrize("game", OURS)
def test_a_match_killed_by_sigkill_leaves_none_of_our_engines_running(game: str) -> None:
    """A SIGKILL gives the match no chance to stop its engines. Ours leave by themselves: one that thinks sees its
    input end with nobody to read its answer (engine_core/loop.py), a gomoku brain suspended while the other
    thinks is ended by the kernel (SIGHUP and SIGCONT to an orphaned process group with a stopped member), and a
    search's worker process sees its engine gone (engine_core/pool.py)."""
    clock, in_game = OURS[game]
    ours = f"cmd={sys.executable} -m engine_core"
    runner = subprocess.Popen([sys.executable, "-m", "engine_core", "match", "--game", game, "--engine", ours, "name=a",
                               "--engine", ours, "name=b", "--games", "2", *clock],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started: list[int] = []  # every process the match started, and theirs, as long as it ran
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (len(started) >= 2 and in_game(started)):
            started = sorted(set(started) | set(descendants(runner.pid)))
            time.sleep(0.05)
        playing = in_game(started)
    finally:
        runner.kill()
        runner.wait(timeout=30)
    assert len(started) >= 2 and playing, started
    assert within(20, lambda: [pid for pid in started if alive(pid)]) == []


def within(seconds: float, left: Callable[[], list[int]]) -> list[int]:
    """``left()`` once it is empty, or as it is after ``seconds``."""
    deadline = time.monotonic() + seconds
    while (items := left()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return items
