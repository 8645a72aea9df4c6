"""Gomoku for ``sanqi match --game gomoku``: two Gomocup brain processes under the referee's discipline.

As Piskvork and GomocupJudge run them: each brain is told the board size, ``timeout_turn``,
``timeout_match``, ``max_memory``, the rule and, before every move, ``time_left``; its first move of
a game is asked with ``BOARD`` (the opening's stones, 1 its own, 2 the other's), later ones with
``TURN``. The idle brain is suspended (SIGSTOP on its process group) while the other thinks. A reply
may come up to 1 s after its turn's or the game's time is up (the official tolerance); later is a
loss on time, as is a resident memory over ``max_memory``, an illegal or malformed move, or an exit.
An engine's ``option.NAME=VALUE`` is sent as ``INFO NAME VALUE`` after the referee's own ``INFO`` lines.
``proto=builtin cmd=baseline`` is an in-process one-ply pattern player (attack plus weighted defence, the
seed's scorer, and nothing else).

Openings: one a line, either ``dx,dy, dx,dy, …`` offsets from the centre (the format of
gomoku_protocol/data/openings.txt) or c-gomoku-cli's ``h8i9j10`` positions. Each game is written as a
Piskvork ``.psq`` file and appended to ``games.sgf`` (as c-gomoku-cli writes it).

>>> [opening_line(15)(text) for text in ("0,0, 1,0", "h8i9", "a1p1")]
[[(7, 7), (8, 7)], [(7, 7), (8, 8)], None]
>>> print(sgf_game(SgfHead(3, 0, 15, ("a", "b"), "B+1", "five"), [(7, 7), (8, 8), (9, 9)], [0, 0, 812], 2), end="")
(;FF[4]GM[4]GN[3]RU[0]SZ[15]PB[a]PW[b]RE[B+1]TE[five]
;B[hh]C[opening move];W[ii]C[opening move];B[jj]C[812ms])
"""

import signal
import time
from argparse import ArgumentParser, Namespace
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

from engine_core.arena import Job, Outcome, engine_log
from engine_core.args import UsageError, int_between, natural_int, positive_int
from engine_core.matchcli import engine_command, read_book
from gomoku_protocol.brain import best_by_pattern
from gomoku_protocol.data_files import data_file
from gomoku_protocol.position import MAX_SIZE, MIN_SIZE, STYLES, Position
from gomoku_protocol.record import parse_pos, write_psq
from engine_core.ends import End, Forfeit
from engine_core.seat import EngineSeat

if TYPE_CHECKING:
    from engine_core.matchcli import EngineSpec

DEFAULT_PROTO = "gomocup"
TOLERANCE_MS = 1000
START_SECONDS = 30.0
NOISE = ("MESSAGE", "DEBUG", "UNKNOWN", "ERROR", "SUGGEST", "OK")
CHATTER = ("MESSAGE", "DEBUG")  # lines a brain may print at any time, even before START's OK (Rapfi does)
RENJU_MOVE_LIMIT = 200
OPENINGS = data_file("openings.txt")
Options = tuple[tuple[str, str], ...]


def read_openings(text: str) -> list[list[tuple[int, int]]]:
    """One opening a line: ``dx,dy, dx,dy, …`` offsets from the centre; ``#`` starts a comment.

    >>> read_openings("# c\\n0,0, 1,0, 1,3\\n")
    [[(0, 0), (1, 0), (1, 3)]]
    >>> read_openings("0,0, 1")
    Traceback (most recent call last):
    ValueError: line 1: expected pairs of whole numbers dx,dy
    """
    out: list[list[tuple[int, int]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.replace(",", " ").split()
        if len(words) % 2 or not all(w.lstrip("-").isdigit() and len(w) < 6 for w in words):
            raise ValueError(f"line {n}: expected pairs of whole numbers dx,dy")
        nums = [int(w) for w in words]
        out.append([(nums[k], nums[k + 1]) for k in range(0, len(nums), 2)])
    return out


def baseline_move(board: Position) -> int:
    """The one-ply pattern pick over every point near the stones."""
    attack, defence = STYLES["balanced"]
    board.set_style(attack, defence)
    return best_by_pattern(board, sorted(board.cand))


def opening_line(size: int) -> "Callable[[str], Optional[list[tuple[int, int]]]]":
    """A parser of opening lines in either format, as absolute (x, y) stones; None for one that does not fit."""

    def parse(line: str) -> Optional[list[tuple[int, int]]]:
        c = size // 2
        stones = parse_pos(line) if line[0].isalpha() else [(c + dx, c + dy) for dx, dy in read_openings(line)[0]]
        fits = len(set(stones)) == len(stones) and all(0 <= x < size and 0 <= y < size for x, y in stones)
        return stones if fits else None

    return parse


@dataclass(frozen=True)
class SgfHead:
    number: int
    rule: int
    size: int
    names: tuple[str, str]  # black, white
    result: str  # B+1, W+1 or 0, as c-gomoku-cli writes
    reason: str


def sgf_game(head: SgfHead, moves: list[tuple[int, int]], times: list[int], opening: int) -> str:
    """One game in SGF as c-gomoku-cli writes it: GM[4], black first, coordinates as letters from ``a`` = 0,
    each move's milliseconds (or ``opening move``) as its comment."""
    notes = ["opening move" if n < opening else f"{times[n]}ms" for n in range(len(moves))]
    body = "".join(f";{'BW'[n % 2]}[{chr(97 + x)}{chr(97 + y)}]C[{note}]" for n, ((x, y), note) in enumerate(zip(moves, notes)))
    return (f"(;FF[4]GM[4]GN[{head.number}]RU[{head.rule}]SZ[{head.size}]PB[{head.names[0]}]PW[{head.names[1]}]"
            f"RE[{head.result}]TE[{head.reason}]\n{body})\n")


@dataclass(frozen=True)
class MatchSettings:
    """What the referee tells each brain at START and in its INFO lines (the core's search has its own
    ``Limits``)."""

    turn_ms: int
    match_ms: int
    memory: int
    rule: int
    size: int


class Seat:
    """What the referee asks of a seat: open it for a game, ask it for moves, close it."""

    def open(self, limits: MatchSettings) -> None:
        raise NotImplementedError

    def move(self, board: Position, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        """This seat's move as (x, y) on ``board``, after ``history`` (every move so far, the opening's too),
        with ``time_left`` ms on its clock; a failure is a :class:`Forfeit`."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class BuiltinSeat(Seat):
    """The in-process baseline (``proto=builtin cmd=baseline``): moves at once, never forfeits."""

    def open(self, limits: MatchSettings) -> None:
        return None

    def move(self, board: Position, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        return board.xy(baseline_move(board))

    def close(self) -> None:
        return None


class GomocupSeat(Seat, EngineSeat):
    """A Gomocup brain over pipes on an :class:`EngineSeat`, suspended whenever it is not its turn.

    A brain that cannot start or exits forfeits by a crash, one silent for :data:`START_SECONDS` after
    START by no answer, one whose move does not come by its time (with the tolerance) on time.
    """

    def __init__(self, command: str, options: Options, log: Optional[str]) -> None:
        self.command = command
        self.options = options
        self.log = log
        self.told = False  # whether this game's stones were sent (BOARD), so later moves come as TURN
        self.limits = MatchSettings(0, 0, 0, 0, 15)

    def open(self, limits: MatchSettings) -> None:
        self.limits = limits
        self.told = False
        self.start(self.command, self.log)
        answer = self.ask(f"START {limits.size}", START_SECONDS, CHATTER, End.NO_ANSWER)
        if answer.split()[0].upper() != "OK":
            raise Forfeit(End.CRASH, f"START answered {answer[:60]!r}")
        for key, value in (("timeout_turn", limits.turn_ms), ("timeout_match", limits.match_ms),
                           ("max_memory", limits.memory), ("rule", limits.rule), ("game_type", 1), *self.options):
            self.send(f"INFO {key} {value}")
        self.signal_group(signal.SIGSTOP)

    def ask(self, request: str, seconds: float, skip: tuple[str, ...], late: End) -> str:
        """Send ``request``; the brain's next line whose first word is not in ``skip`` within ``seconds``."""
        self.send(request)
        return self.reply(time.monotonic() + seconds, lambda line: line.split()[0].upper() not in skip, late)

    def move(self, board: Position, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        self.signal_group(signal.SIGCONT)
        self.send(f"INFO time_left {time_left}")
        if not self.told:
            first = len(history) % 2  # parity of this brain's stones: black moved first
            stones = [f"{x},{y},{1 if n % 2 == first else 2}" for n, (x, y) in enumerate(history)]
            request = "\n".join(["BOARD", *stones, "DONE"]) if history else "BEGIN"
        else:
            x, y = history[-1]
            request = f"TURN {x},{y}"
        limit = min(self.limits.turn_ms or 10**9, max(0, time_left))
        line = self.ask(request, (limit + TOLERANCE_MS) / 1000, NOISE, End.TIME)
        self.signal_group(signal.SIGSTOP)
        self.told = True
        over = resident_bytes(self.pid)
        if self.limits.memory and over > self.limits.memory:
            raise Forfeit(End.CRASH, f"{over} bytes resident, over max_memory {self.limits.memory}")
        parts = line.replace(" ", "").split(",")
        if len(parts) != 2 or not all(p.lstrip("-").isdigit() and len(p) < 6 for p in parts):
            raise Forfeit(End.ILLEGAL, f"not a move: {line[:60]!r}")
        return int(parts[0]), int(parts[1])

    def close(self) -> None:
        self.stop("END")


def resident_bytes(pid: int) -> int:
    """Resident memory of a process from /proc (0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


@dataclass(frozen=True)
class GomokuSetup:
    commands: tuple[str, str]  # '' for the built-in baseline
    options: tuple[Options, Options]
    names: tuple[str, str]
    book: tuple[tuple[tuple[int, int], ...], ...]
    limits: MatchSettings
    log_dir: Optional[str] = None

    @property
    def openings(self) -> int:
        return len(self.book)

    @property
    def in_process(self) -> bool:
        return not any(self.commands)

    def seat(self, engine: int, job: Job, colour: str) -> Seat:
        if not self.commands[engine]:
            return BuiltinSeat()
        return GomocupSeat(self.commands[engine], self.options[engine], engine_log(self.log_dir, job, colour))

    def play(self, job: Job) -> Outcome:
        opening = list(self.book[job.opening])
        # The engine listed first plays the side to move after the opening, unless swapped.
        to_move = len(opening) % 2  # 0: black to move
        first = 1 if job.swapped else 0
        order = (first, 1 - first) if to_move == 0 else (1 - first, first)  # engine playing black, white
        seats = [self.seat(order[0], job, "black"), self.seat(order[1], job, "white")]
        try:
            winner, reason, moves, times, forfeits = self.game(seats, order, opening)
        finally:
            for s in seats:
                s.close()
        score = 0.5 if winner < 0 else 1.0 if order[winner] == 0 else 0.0
        names = (self.names[order[0]], self.names[order[1]])
        size = self.limits.size
        head = SgfHead(job.number, self.limits.rule, size, names, {0: "B+1", 1: "W+1"}.get(winner, "0"), reason)
        records = {f"game{job.number:05d}.psq": write_psq(size, size, moves, times, names),
                   "games.sgf": sgf_game(head, moves, times, len(opening))}
        return Outcome(job.number, score, reason, len(moves), forfeits, records, forfeits[0][1] if forfeits else End.RESULT)

    def game(self, seats: list[Seat], order: tuple[int, int], opening: list[tuple[int, int]]
             ) -> tuple[int, str, list[tuple[int, int]], list[int], list[tuple[int, End]]]:
        """Winner colour (0 black, 1 white, -1 draw), reason, moves, ms per move and forfeits."""
        lim = self.limits
        b = Position(lim.size, lim.size, lim.rule)
        moves: list[tuple[int, int]] = []
        times: list[int] = []
        for x, y in opening:
            b.play(b.index(x, y), b.side)
            moves.append((x, y))
            times.append(0)
        left = [lim.match_ms or 10**9, lim.match_ms or 10**9]
        for colour, s in enumerate(seats):
            try:
                s.open(lim)
            except Forfeit as exc:
                return 1 - colour, f"{'black' if colour == 0 else 'white'} {exc.end}: {exc}", moves, times, [(order[colour], exc.end)]
        while True:
            if b.full() or (b.renju and len(moves) >= RENJU_MOVE_LIMIT):
                return -1, "board full" if b.full() else "move limit", moves, times, []
            colour = len(moves) % 2
            who = "black" if colour == 0 else "white"
            t0 = time.monotonic()
            try:
                x, y = seats[colour].move(b, moves, colour, left[colour])
                spent = int((time.monotonic() - t0) * 1000)
                left[colour] -= spent
                if left[colour] < -TOLERANCE_MS or (lim.turn_ms and spent > lim.turn_ms + TOLERANCE_MS):
                    raise Forfeit(End.TIME, f"took {spent} ms")
                if not (0 <= x < lim.size and 0 <= y < lim.size) or not b.legal(b.index(x, y), b.side):
                    raise Forfeit(End.ILLEGAL, f"illegal move {x},{y}")
            except Forfeit as exc:
                return 1 - colour, f"{who} {exc.end}: {exc}", moves, times, [(order[colour], exc.end)]
            m = b.index(x, y)
            won = b.wins_at(m, b.side)
            b.play(m, b.side)
            moves.append((x, y))
            times.append(spent)
            if won:
                return colour, "five", moves, times, []


def add_options(p: ArgumentParser) -> None:
    p.add_argument("--size", type=int_between(MIN_SIZE, MAX_SIZE), default=15, help="gomoku: board width and height")
    p.add_argument("--rule", type=int_between(0, 15), default=0, help="gomoku: Gomocup rule bits (0 freestyle, 1 exact five, 4 renju)")
    p.add_argument("--turn-ms", type=positive_int, default=5000, help="gomoku: timeout_turn, the most one move may take")
    p.add_argument("--match-ms", type=natural_int, default=180000, help="gomoku: timeout_match, each side's time per game (0: none)")
    p.add_argument("--max-memory", type=natural_int, default=350 * 2**20, help="gomoku: max_memory in bytes (0: no limit)")


def make_setup(opts: Namespace, specs: "list[EngineSpec]") -> GomokuSetup:
    commands = []
    for spec in specs:
        if spec.settings:
            raise UsageError(f"{spec.name}: gomoku engines take only cmd=, name=, proto= and option.NAME=")
        if spec.proto == "builtin":
            if spec.cmd != "baseline" or spec.options:
                raise UsageError(f"{spec.name}: the built-in gomoku player is cmd=baseline, without options")
            commands.append("")
        elif spec.proto == "gomocup":
            commands.append(engine_command(spec.cmd))
        else:
            raise UsageError(f"{spec.name}: gomoku engines are proto=gomocup or proto=builtin")
    book = read_book(opts.openings or str(OPENINGS), opening_line(opts.size), f"opening for a {opts.size}x{opts.size} board")
    limits = MatchSettings(opts.turn_ms, opts.match_ms, opts.max_memory, opts.rule, opts.size)
    return GomokuSetup((commands[0], commands[1]), (specs[0].options, specs[1].options), (specs[0].name, specs[1].name),
                       tuple(tuple(o) for o in book),
                       limits, opts.engine_log)
