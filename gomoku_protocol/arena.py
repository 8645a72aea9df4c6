"""Gomoku for ``sanqi match --game gomoku``: two seats, Gomocup brain processes or the built-in baseline.

The game itself is ``gomoku_protocol.referee.play_game``; the seats, and the discipline a brain is held
to (as Piskvork and GomocupJudge hold it: START and INFO, suspended while the other thinks, the
official tolerance, ``max_memory``), are ``gomoku_protocol.seats``. This module reads the openings,
sits the engines (``proto=gomocup``: a :class:`GomocupSeat`; ``proto=builtin cmd=baseline``: the
in-process one-ply :class:`BaselineSeat`) and writes the records.

Openings: one a line, either ``dx,dy, dx,dy, …`` offsets from the centre (the format of
gomoku_protocol/data/openings.txt) or c-gomoku-cli's ``h8i9j10`` positions. Each game is written as a
Piskvork ``.psq`` file and appended to ``games.sgf`` (as c-gomoku-cli writes it).

>>> [opening_line(15)(text) for text in ("0,0, 1,0", "h8i9", "a1p1")]
[[(7, 7), (8, 7)], [(7, 7), (8, 8)], None]
>>> print(sgf_game(SgfHead(3, 0, 15, ("a", "b"), "B+1", "five"), [(7, 7), (8, 8), (9, 9)], [0, 0, 812], 2), end="")
(;FF[4]GM[4]GN[3]RU[0]SZ[15]PB[a]PW[b]RE[B+1]TE[five]
;B[hh]C[opening move];W[ii]C[opening move];B[jj]C[812ms])
"""

from argparse import ArgumentParser, Namespace
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

from engine_core.arena import Job, Outcome, engine_log
from engine_core.args import UsageError, int_between, natural_int, positive_int
from engine_core.matchcli import engine_command, read_book
from gomoku_protocol.data_files import data_file
from gomoku_protocol.position import MAX_SIZE, MIN_SIZE
from gomoku_protocol.record import parse_pos, write_psq
from gomoku_protocol.referee import play_game
from gomoku_protocol.seats import BaselineSeat, GomocupSeat, GomokuSeat, MatchSettings, Options

if TYPE_CHECKING:
    from engine_core.matchcli import EngineSpec

DEFAULT_PROTO = "gomocup"
OPENINGS = data_file("openings.txt")


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

    def seat(self, engine: int, job: Job, colour: str) -> GomokuSeat:
        if not self.commands[engine]:
            return BaselineSeat()
        return GomocupSeat(self.commands[engine], self.options[engine], engine_log(self.log_dir, job, colour))

    def play(self, job: Job) -> Outcome:
        opening = list(self.book[job.opening])
        # The engine listed first plays the side to move after the opening, unless swapped.
        to_move = len(opening) % 2  # 0: black to move
        first = 1 if job.swapped else 0
        order = (first, 1 - first) if to_move == 0 else (1 - first, first)  # engine playing black, white
        seats = [self.seat(order[0], job, "black"), self.seat(order[1], job, "white")]
        try:
            result, game = play_game(seats, opening, self.limits)
        finally:
            for s in seats:
                s.close()
        names = (self.names[order[0]], self.names[order[1]])
        size, moves, times = self.limits.size, game.moves, game.times
        head = SgfHead(job.number, self.limits.rule, size, names, {0: "B+1", 1: "W+1"}.get(result.winner, "0"), result.reason)
        records = {f"game{job.number:05d}.psq": write_psq(size, size, moves, times, names),
                   "games.sgf": sgf_game(head, moves, times, len(opening))}
        return Outcome.of(job.number, result, order, len(moves), records)


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
