"""``sanqi match --game xiangqi|gomoku|junqi``: two engines over many games, with Elo, SPRT and records.

Engines are given cutechess-cli style, ``--engine cmd=COMMAND [name=NAME] [proto=PROTOCOL]
[option.NAME=VALUE …] [KEY=VALUE …]`` twice (the first is the engine under test), ``--each KEY=VALUE …``
for both. Each opening is played twice with the seats swapped. The games come from the entry-point
group ``sanqi.match`` (a game module with ``add_options(parser)`` and ``make_setup(opts, engines)``), so
this module imports no game.
"""

import argparse
import os
import shlex
import shutil
import signal
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Callable, Optional, TypeVar

from engine_core.arena import GamePool, LocalPool, Setup, run_match, schedule, table
from engine_core.args import ArgParser, UsageError, guarded, int_between, natural_int, positive_int, program
from engine_core.process import kill_all
from engine_core.results import compare, comparison_line, read_rows
from engine_core.stats import Sprt

T = TypeVar("T")


@dataclass(frozen=True)
class EngineSpec:
    """One ``--engine`` after ``--each`` was merged in: ``settings`` holds the game's own keys."""

    cmd: str
    name: str
    proto: str
    options: tuple[tuple[str, str], ...]
    settings: tuple[tuple[str, str], ...]


def engine_command(cmd: str) -> str:
    """A command that can be started: a leading ``sanqi`` is the sanqi of this environment (a venv need not be
    on PATH); anything else must be on PATH or a path. UsageError otherwise."""
    try:
        words = shlex.split(cmd)
    except ValueError as exc:
        raise UsageError(f"cannot split the command {cmd!r}: {exc}") from None
    if words[:1] == ["sanqi"]:
        beside = os.path.join(os.path.dirname(sys.executable), "sanqi")
        found = beside if os.path.isfile(beside) else shutil.which("sanqi")
        words[:1] = [found] if found else [sys.executable, "-m", "engine_core"]
    try:
        program(shlex.join(words))
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None
    return shlex.join(words)


def read_book(path: str, parse: Callable[[str], Optional[T]], what: str = "opening") -> list[T]:
    """Each line of an openings file through ``parse`` (``#`` starts a comment; None skips a line, ValueError
    names it); UsageError when the file cannot be read or nothing in it is kept."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read openings from {path!r}: {exc}") from None
    out = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        try:
            item = parse(text) if text else None
        except ValueError as exc:
            raise UsageError(f"{path}:{n}: {exc}") from None
        if item is not None:
            out.append(item)
    if not out:
        raise UsageError(f"{path}: no {what} in it that fits")
    return out


def key_values(words: list[str], where: str) -> dict[str, str]:
    """``KEY=VALUE`` words as a dict; ``option.NAME=VALUE`` keeps its prefix.

    >>> key_values(["cmd=sanqi --protocol uci", "option.Hash=16"], "--engine")
    {'cmd': 'sanqi --protocol uci', 'option.Hash': '16'}
    """
    out: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise UsageError(f"{where}: {word!r} is not KEY=VALUE (e.g. cmd=sanqi, option.Hash=16)")
        out[key] = value
    return out


def engine_specs(engines: list[list[str]], each: list[str], default_proto: str) -> list[EngineSpec]:
    """Two engines from ``--engine`` groups, ``--each`` filling what an engine leaves unset.

    >>> [s.name for s in engine_specs([["cmd=sanqi"], ["cmd=sanqi", "name=b"]], ["depth=3"], "ucci")]
    ['sanqi', 'b']
    """
    if len(engines) != 2:
        raise UsageError(f"name exactly two engines with --engine (got {len(engines)})")
    shared = key_values(each, "--each")
    specs = []
    for n, words in enumerate(engines, 1):
        values = {**shared, **key_values(words, f"engine {n}")}
        cmd = values.pop("cmd", "")
        if not cmd:
            raise UsageError(f"engine {n}: give its command as cmd=COMMAND")
        name = values.pop("name", "") or cmd
        proto = values.pop("proto", "") or default_proto
        options = tuple((k[7:], v) for k, v in values.items() if k.startswith("option."))
        settings = tuple((k, v) for k, v in values.items() if not k.startswith("option."))
        specs.append(EngineSpec(cmd, name, proto, options, settings))
    if specs[0].name == specs[1].name:
        specs[1] = EngineSpec(specs[1].cmd, specs[1].name + " (2)", specs[1].proto, specs[1].options, specs[1].settings)
    return specs


def sprt_test(words: list[str]) -> Sprt:
    """``--sprt elo0=0 elo1=10 [alpha=0.05] [beta=0.05]``.

    >>> sprt_test(["elo0=0", "elo1=5"])
    Sprt(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05)
    """
    values = key_values(words, "--sprt")
    unknown = set(values) - {"elo0", "elo1", "alpha", "beta"}
    if unknown or not {"elo0", "elo1"} <= set(values):
        raise UsageError("--sprt takes elo0=N elo1=N [alpha=P] [beta=P]")
    try:
        test = Sprt(float(values["elo0"]), float(values["elo1"]), float(values.get("alpha", 0.05)), float(values.get("beta", 0.05)))
    except ValueError:
        raise UsageError(f"--sprt: {' '.join(words)!r} has a value that is not a number") from None
    if not test.elo0 < test.elo1 or not (0 < test.alpha < 0.5 and 0 < test.beta < 0.5):
        raise UsageError("--sprt needs elo0 < elo1 and alpha, beta between 0 and 0.5")
    return test


def games_available() -> dict[str, Any]:
    """The game modules of the entry-point group ``sanqi.match`` this build carries (a build may lack some)."""
    found = {}
    for ep in entry_points(group="sanqi.match"):
        try:
            found[ep.name] = ep.load()
        except ImportError:
            continue
    return found


def parser(games: list[str], prog: str = "sanqi match") -> ArgParser:
    p = ArgParser(prog=prog, description=__doc__)
    p.add_argument("--game", choices=games, default="xiangqi", help="which game")
    p.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE",
                   help="an engine: cmd=COMMAND [name=N] [proto=P] [option.NAME=VALUE] [game keys]; give two")
    p.add_argument("--each", nargs="+", metavar="KEY=VALUE", help="keys for both engines")
    p.add_argument("--games", type=positive_int, default=20, help="games to play (each opening twice, seats swapped)")
    p.add_argument("--openings", metavar="FILE", help="openings file in the game's format (default: the game's own)")
    p.add_argument("--random-openings", action="store_true", help="take the openings in an order shuffled by --seed")
    p.add_argument("--concurrency", type=int_between(1, 256), default=1, help="games played at once (with --cluster: in flight)")
    p.add_argument("--seed", type=natural_int, default=0, help="seed for opening order and built-in players")
    p.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="elo0=N elo1=N [alpha=0.05] [beta=0.05]: stop when decided")
    p.add_argument("--records", metavar="DIR", help="write each game's record into DIR in the game's own format")
    p.add_argument("--results", metavar="FILE", help="write each game's result to FILE, a new or empty file, as a JSON line (number, opening, seats, score, forfeit)")
    p.add_argument("--baseline", metavar="FILE", help="the --results file of an earlier run on the same schedule (--games, --seed, openings): "
                   "the table adds the first engine's score less its score there, game by game")
    p.add_argument("--engine-log", metavar="DIR", help="keep each engine's stderr in DIR (default: discarded)")
    p.add_argument("--cluster", metavar="ADDRESS", help="send games to the Dask scheduler at ADDRESS (pip install sanqi[cluster])")
    p.add_argument("--retries", type=natural_int, default=3, help="with --cluster: how often a game whose task raised is replayed (the scheduler replays a game lost with its worker)")
    return p


def game_name(argv: list[str]) -> str:
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", default="xiangqi")
    return str(pre.parse_known_args(argv)[0].game)


def make_pool(opts: argparse.Namespace, setup: Setup) -> GamePool:
    if opts.cluster:
        try:
            from engine_core.cluster import ClusterPool
        except ImportError:
            raise UsageError("--cluster needs Dask distributed: pip install 'sanqi[cluster]'") from None
        return ClusterPool(opts.cluster, opts.retries)
    return LocalPool(opts.concurrency, setup.in_process)


def folder(path: Optional[str], what: str) -> Optional[str]:
    if path:
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot make the {what} folder {path!r}: {exc.strerror or exc}") from None
    return path


def results_file(path: str) -> None:
    """Make sure ``path`` can take a run's rows before any game is played: a new or empty file that can be
    written (one run a file: rows of two runs under the same game numbers could not be told apart)."""
    if os.path.exists(path) and os.path.getsize(path):
        raise UsageError(f"the results file {path!r} already holds games: name a new one (an earlier run is a --baseline)")
    try:
        open(path, "a", encoding="utf-8").close()
    except OSError as exc:
        raise UsageError(f"cannot write the results file {path!r}: {exc.strerror or exc}") from None


def main(argv: Optional[list[str]] = None, games: Optional[dict[str, Any]] = None, prog: str = "sanqi match") -> int:
    """Run ``sanqi match``; ``games`` maps a game name to its module (default: the entry points), ``prog`` names
    the command in error lines (an alias gives its own)."""
    args = list(argv or [])
    found = games if games is not None else games_available()
    p = parser(sorted(found), prog)
    name = game_name(args)
    if name in found:
        found[name].add_options(p)
    opts = p.parse_args(args)
    return guarded(p.prog, lambda: play(opts, found[opts.game]))


def play(opts: argparse.Namespace, game: Any) -> int:
    specs = engine_specs(opts.engine or [], opts.each or [], game.DEFAULT_PROTO)
    folder(opts.records, "record")
    folder(opts.engine_log, "engine log")
    setup: Setup = game.make_setup(opts, specs)
    test = sprt_test(opts.sprt) if opts.sprt else None
    baseline = read_rows(opts.baseline) if opts.baseline else None  # read first: a bad file costs no games
    if opts.results:
        results_file(opts.results)
    jobs = schedule(opts.games, setup.openings, opts.seed, opts.random_openings)
    stopped_by: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: interrupt(signum, stopped_by))
    try:
        summary = run_match(setup, jobs, make_pool(opts, setup), sys.stdout, test, opts.records, opts.concurrency, opts.results)
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(table(summary, test), flush=True)
    if baseline is not None:
        print(comparison_line(compare(summary.rows, baseline), opts.baseline), flush=True)
    if summary.unplayed:
        # Stopped by Ctrl-C or SIGTERM: the games in flight still hold threads the interpreter would wait for at exit, so
        # leave at once, and take their engines along (a suspended one would not see its input end).
        kill_all()
        sys.stderr.flush()
        os._exit(128 + (stopped_by[0] if stopped_by else signal.SIGINT))  # the shell's status for a command stopped by a signal
    return 0


def interrupt(signum: int, stopped_by: list[int]) -> None:
    """A SIGTERM (``kill``) stops the match as Ctrl-C does: the games in flight are not counted, their engines
    are killed; ``stopped_by`` keeps the signal for the exit status."""
    stopped_by.append(signum)
    raise KeyboardInterrupt
