"""Game-agnostic match runner: openings × swapped seats, games in parallel, running statistics, SPRT.

A game plugs in with a :class:`Setup`: a picklable object (so games can run in other processes or
on other machines) whose ``play(job)`` plays one game and returns an :class:`Outcome`. The runner
knows nothing of any game: it hands out :class:`Job` s, tallies scores from the first engine's side,
writes the records the games return and stops early when an SPRT decides.

>>> [(j.number, j.opening, j.swapped) for j in schedule(games=5, openings=2)]
[(1, 0, False), (2, 0, True), (3, 1, False), (4, 1, True), (5, 0, False)]
"""

import os
import random
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Optional, Protocol, Sequence, TextIO

from engine_core.ends import FORFEITS, End
from engine_core.referee import Result
from engine_core.results import GameRow, ResultsFile
from engine_core.stats import Sprt, Tally


@dataclass(frozen=True)
class Job:
    """One game to play: ``swapped`` puts the second engine in the first seat."""

    number: int
    opening: int
    swapped: bool
    seed: int = 0

    @property
    def pair(self) -> int:
        return (self.number - 1) // 2


@dataclass
class Outcome:
    """One game's result, seen from the first engine (``score`` 1, 0.5 or 0).

    ``reason`` is the game's own words for its end (the record's); ``end`` the typed reason: by the rules,
    or the failure that decided it. ``forfeits`` lists (engine index, how) for each engine that lost or
    left the game by a failure; ``records`` maps a record file name to the text to append to it.
    """

    number: int
    score: float
    reason: str
    plies: int = 0
    forfeits: list[tuple[int, End]] = field(default_factory=list)
    records: dict[str, str] = field(default_factory=dict)
    end: End = End.RESULT

    @staticmethod
    def of(number: int, result: Result, engines: Sequence[int], plies: int, records: dict[str, str],
           winners: Optional[Mapping[int, int]] = None) -> "Outcome":
        """Game ``number`` as every game's referee ended it (``result``, the core's): ``engines`` the engine
        index at each seat, ``winners`` the engine index for each value ``result.winner`` takes when that is
        not a seat (junqi's teams). The score is the first engine's, each forfeit the failed seat's engine's.

        >>> o = Outcome.of(4, Result.forfeit(0, "red over time", End.TIME), (1, 0), 30, {})
        >>> o.score, o.reason, o.forfeits, o.end
        (1.0, 'red over time', [(1, <End.TIME: 'time'>)], <End.TIME: 'time'>)
        >>> Outcome.of(5, Result(-1, "repetition"), (0, 1), 9, {}).score, Outcome.of(6, Result(1, "flag"), (1, 0, 1, 0), 9, {}, {0: 1, 1: 0}).score
        (0.5, 1.0)
        """
        won = -1 if result.winner < 0 else (engines if winners is None else winners)[result.winner]
        score = 0.5 if won < 0 else 1.0 if won == 0 else 0.0
        return Outcome(number, score, result.reason, plies, [(engines[seat], end) for seat, end in result.forfeits],
                       records, result.end)


class Setup(Protocol):
    """A game's side of a match, built from the command line; must pickle."""

    names: tuple[str, str]
    openings: int
    in_process: bool  # True when both players run in the runner's process (then processes, not threads)

    def play(self, job: Job) -> Outcome: ...


class GamePool(Protocol):
    """Where games run: local threads or processes, or a cluster (engine_core/cluster.py)."""

    def submit(self, setup: Setup, job: Job) -> object: ...

    def done(self, pending: set[object]) -> Iterator[tuple[object, "Outcome | BaseException"]]: ...

    def close(self, wait: bool = True) -> None: ...


def engine_log(folder: Optional[str], job: Job, seat: str) -> Optional[str]:
    """Where an engine's stderr goes for one game (None: discarded); the folder is made on the machine
    playing the game, which under --cluster is a worker, not the one running the match."""
    if not folder:
        return None
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, f"game{job.number}-{seat}.log")


def schedule(games: int, openings: int, seed: Optional[int] = None, shuffle: bool = False) -> list[Job]:
    """Games 2k+1 and 2k+2 share opening k (cycling), seats swapped; shuffled opening order with ``seed``."""
    order = list(range(max(1, openings)))
    if shuffle:
        random.Random(seed).shuffle(order)
    base = 0 if seed is None else seed
    return [Job(n + 1, order[(n // 2) % len(order)], n % 2 == 1, base * 1_000_003 + n + 1) for n in range(games)]


WAKE = 0.2  # seconds the match's main thread may sleep before it looks at signals again


class LocalPool:
    """Games on this machine: threads for engine processes, processes for in-process players."""

    def __init__(self, workers: int, in_process: bool) -> None:
        self.executor: Executor = ProcessPoolExecutor(workers) if in_process and workers > 1 else ThreadPoolExecutor(workers)

    def submit(self, setup: Setup, job: Job) -> object:
        return self.executor.submit(setup.play, job)

    def done(self, pending: set[object]) -> Iterator[tuple[object, "Outcome | BaseException"]]:
        """The games of ``pending`` that have ended, once at least one has. Waits in steps of :data:`WAKE`
        seconds: the kernel may hand Ctrl-C or SIGTERM to another of our threads, and Python runs the handler
        only when the main thread wakes (an unbounded wait here left a stopped match running, 2 runs in 15)."""
        finished: set[Future[Outcome]] = set()
        while not finished:
            finished, _ = wait(pending, timeout=WAKE, return_when=FIRST_COMPLETED)  # type: ignore[arg-type]
        for fut in finished:
            assert isinstance(fut, Future)
            yield fut, fut.exception() or fut.result()

    def close(self, wait: bool = True) -> None:
        self.executor.shutdown(wait=wait, cancel_futures=True)


@dataclass
class Summary:
    """Everything the final table shows; ``outcomes`` in game-number order."""

    names: tuple[str, str]
    tally: Tally
    outcomes: list[Outcome]
    seconds: float
    llr: Optional[float] = None
    verdict: Optional[str] = None
    failed: list[tuple[int, str]] = field(default_factory=list)  # games the referee could not finish: not counted
    unplayed: int = 0  # games not started or not finished because the user interrupted the match
    rows: dict[int, GameRow] = field(default_factory=dict)  # each counted game, by number (engine_core/results.py)

    def forfeits(self, engine: int, kind: End) -> int:
        return sum(1 for o in self.outcomes for e, k in o.forfeits if e == engine and k == kind)

    def ends(self, end: End) -> int:
        return sum(1 for o in self.outcomes if o.end == end)


class Progress:
    """A rewritten status line on a terminal, one line per game otherwise."""

    def __init__(self, out: TextIO, total: int, names: tuple[str, str], paired: bool) -> None:
        self.out = out
        self.total = total
        self.names = names
        self.paired = paired
        self.live = out.isatty()
        self.start = time.monotonic()

    def status(self, tally: Tally, llr: Optional[float]) -> str:
        done = tally.games
        value, low, high = tally.elo(self.paired and tally.pairs > 0)
        left = (time.monotonic() - self.start) / max(1, done) * (self.total - done)
        sprt = "" if llr is None else f", LLR {llr:+.2f}"
        return (f"{done}/{self.total} games, {self.names[0]} {tally.wins + tally.draws / 2:g}/{done} "
                f"(+{tally.wins} ={tally.draws} -{tally.losses}), Elo {value:+.0f} ± {(high - low) / 2:.0f}{sprt}, "
                f"ETA {clock(left)}")

    def game(self, job: Job, outcome: Outcome, tally: Tally, llr: Optional[float]) -> None:
        if self.live:
            self.out.write("\r\x1b[K" + self.status(tally, llr))
        else:
            first, second = (self.names[1], self.names[0]) if job.swapped else self.names
            points = outcome.score if not job.swapped else 1.0 - outcome.score
            self.out.write(f"game {job.number}: opening {job.opening + 1}, {first} vs {second}: {result_text(points)} "
                           f"({outcome.reason}, {outcome.plies} plies); {self.status(tally, llr)}\n")
        self.out.flush()

    def failed(self, job: Job, why: str) -> None:
        self.out.write(("\r\x1b[K" if self.live else "") + f"game {job.number}: not played to the end, not counted: {why}\n")
        self.out.flush()

    def finish(self) -> None:
        if self.live:
            self.out.write("\n")


def clock(seconds: float) -> str:
    """Seconds as a short duration.

    >>> clock(3725.0), clock(59.4)
    ('1h02m05s', '59s')
    """
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m{s % 60:02d}s"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def result_text(first_seat_points: float) -> str:
    return {1.0: "1-0", 0.0: "0-1"}.get(first_seat_points, "1/2-1/2")


class RecordFiles:
    """Appends each game's records to files in one folder, as games finish."""

    def __init__(self, folder: Optional[str]) -> None:
        self.folder = folder
        if folder:
            os.makedirs(folder, exist_ok=True)

    def write(self, outcome: Outcome) -> None:
        if not self.folder:
            return
        for name, text in outcome.records.items():
            with open(os.path.join(self.folder, name), "a", encoding="utf-8") as fh:
                fh.write(text)


def run_match(setup: Setup, jobs: list[Job], pool: GamePool, out: TextIO = sys.stdout, sprt: Optional[Sprt] = None,
              records: Optional[str] = None, concurrency: int = 1, results: Optional[str] = None) -> Summary:
    """Play ``jobs`` (at most ``concurrency`` at once) until done or the SPRT decides; each game's row is
    appended to the file ``results`` as it finishes.

    A game whose referee raised (a bug, or a cluster that lost it more often than it may replay it)
    is reported and left out of every count: no result is made up for it. Ctrl-C stops the match at
    once, as in cutechess-cli: the games in flight are not counted and no other game starts.
    """
    paired = setup.openings > 0 and len(jobs) > 1
    tally = Tally()
    halves: dict[int, float] = {}
    outcomes: list[Outcome] = []
    failed: list[tuple[int, str]] = []
    progress = Progress(out, len(jobs), setup.names, paired)
    files = RecordFiles(records)
    rows: dict[int, GameRow] = {}
    results_file = ResultsFile(results)
    queue = list(reversed(jobs))
    running: dict[object, Job] = {}
    verdict: Optional[str] = None
    value: Optional[float] = None
    start = time.monotonic()
    interrupted = False
    try:
        while queue or running:
            while queue and len(running) < concurrency and verdict is None:
                job = queue.pop()
                running[pool.submit(setup, job)] = job
            if not running:
                break
            for handle, outcome in pool.done(set(running)):
                job = running.pop(handle)
                if isinstance(outcome, BaseException):
                    failed.append((job.number, f"{type(outcome).__name__}: {outcome}"))
                    progress.failed(job, failed[-1][1])
                    continue
                outcomes.append(outcome)
                files.write(outcome)
                rows[job.number] = GameRow(job.number, job.opening, job.swapped, outcome.score, bool(outcome.forfeits))
                results_file.write(rows[job.number])
                if job.pair in halves:
                    first = halves.pop(job.pair)
                    tally.pentanomial[round(2 * (first + outcome.score))] += 1
                else:
                    halves[job.pair] = outcome.score
                tally.add(outcome.score)
                if sprt is not None:
                    value = tally.llr(sprt, paired and tally.pairs > 0)
                    verdict = verdict or sprt.decide(value)
                progress.game(job, outcome, tally, value)
            if verdict is not None:
                queue.clear()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.finish()
        pool.close(wait=not interrupted)
    outcomes.sort(key=lambda o: o.number)
    unplayed = len(queue) + len(running) if interrupted else 0
    return Summary(setup.names, tally, outcomes, time.monotonic() - start, value, verdict, failed, unplayed, rows)


def table(summary: Summary, sprt: Optional[Sprt] = None) -> str:
    """The final table: per-engine results, Elo, LOS, pentanomial counts, SPRT, forfeits by kind and engine,
    games by typed end, the games' own end reasons."""
    t = summary.tally
    rows = [f"{'engine':32} {'games':>5} {'won':>5} {'drawn':>5} {'lost':>5} {'points':>7}"]
    for i, (won, lost) in enumerate(((t.wins, t.losses), (t.losses, t.wins))):
        rows.append(f"{summary.names[i][:32]:32} {t.games:5} {won:5} {t.draws:5} {lost:5} {won + t.draws / 2:7.1f}")
    value, low, high = t.elo()
    rows.append(f"Elo {summary.names[0]} - {summary.names[1]}: {value:+.1f} [{low:+.1f}, {high:+.1f}] (95 %, games), "
                f"LOS {100 * t.los():.1f} %, draw ratio {100 * t.draw_ratio():.1f} %")
    if t.pairs:
        value, low, high = t.elo(paired=True)
        rows.append(f"pentanomial [0, 0.5, 1, 1.5, 2]: {t.pentanomial}; Elo {value:+.1f} [{low:+.1f}, {high:+.1f}] (95 %, pairs)")
    if sprt is not None and summary.llr is not None:
        decided = {"H1": f"H1 accepted (elo >= {sprt.elo1:g})", "H0": f"H0 accepted (elo <= {sprt.elo0:g})"}.get(summary.verdict or "", "undecided")
        rows.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
                    f"LLR {summary.llr:.2f} ({sprt.lower:.2f}, {sprt.upper:.2f}), {decided}")
    rows.append("forfeits: " + "; ".join(f"{name} " + ", ".join(f"{k} {summary.forfeits(i, k)}" for k in FORFEITS)
                                          for i, name in enumerate(summary.names)))
    reasons: dict[str, int] = {}
    for o in summary.outcomes:
        reasons[o.reason] = reasons.get(o.reason, 0) + 1
    if summary.unplayed:
        rows.append(f"interrupted: {summary.unplayed} games not played or not finished, not counted")
    if summary.failed:
        rows.append("not counted (not played to the end): " + "; ".join(f"game {n}: {why}" for n, why in summary.failed))
    rows.append("ends: " + ", ".join(f"{end} {summary.ends(end)}" for end in End))
    rows.append("endings: " + ", ".join(f"{r} {n}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1])))
    rate = t.games / max(summary.seconds / 60, 1e-9)
    rows.append(f"{t.games} games in {summary.seconds:.1f} s: {rate:.1f} games per minute")
    return "\n".join(rows)
