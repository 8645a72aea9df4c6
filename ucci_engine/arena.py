"""Xiangqi for ``sanqi match --game xiangqi``: engine processes over UCCI or UCI, our Position as referee.

The game itself is ``ucci_engine.referee.play_game`` (legality, clocks, mate, the league repetition
rule, 60 moves without a capture, resignation, the ply limit); this module sits each engine on a
``ucci_engine.seats.MatchSeat`` (either dialect; a fixed depth or node count if asked, for results that
do not depend on the machine's speed; its stderr kept) and writes each game
as a PGN that the ``cchess`` package and ElephantEye-style GUIs read back (``[Format "ICCS"]``, moves as
``H2-E2``).

>>> print(pgn_text(PgnGame(3, ("new", "old"), START_FEN, ["h2e2", "h9g7"], [120, 80], "1/2-1/2", "adjudicated", "600+0")))
[Game "Chinese Chess"]
[Event "sanqi match"]
[Round "3"]
[Red "new"]
[Black "old"]
[Result "1/2-1/2"]
[Format "ICCS"]
[Termination "adjudicated"]
[TimeControl "600+0"]
[MoveTimes "120 80"]
<BLANKLINE>
1. H2-E2 H9-G7
1/2-1/2
<BLANKLINE>
<BLANKLINE>
"""

import os
import shlex
from argparse import ArgumentParser, Namespace
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from engine_core.arena import Job, Outcome, engine_log
from engine_core.args import UsageError, positive_int
from engine_core.ends import Forfeit
from engine_core.matchcli import engine_command, read_book
from ucci_engine.position import START_FEN, Position
from engine_core.referee import Result
from ucci_engine.referee import play_game, time_control
from ucci_engine.seats import MatchSeat, XEngine

if TYPE_CHECKING:
    from engine_core.matchcli import EngineSpec

BALANCED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "balanced.epd")
DEFAULT_PROTO = "ucci"


def book_line(text: str) -> str:
    """A FEN from a FEN or EPD line (EPD: four fields, then ``opcode operand;`` operations).

    >>> book_line(START_FEN.rsplit(' ', 2)[0] + ' id "start";') == START_FEN.rsplit(' ', 2)[0] + ' 0 1'
    True
    """
    fields = text.split()
    epd = len(fields) < 6 or not (fields[4].isdigit() and fields[5].rstrip(";").isdigit())
    fen = " ".join(fields[:4] + ["0", "1"]) if epd else " ".join(fields[:6])
    Position.from_fen(fen)  # FenError is a ValueError naming what is wrong
    return fen


@dataclass(frozen=True)
class PgnGame:
    round: int
    names: tuple[str, str]  # red, black
    fen: str
    moves: list[str]
    times: list[int]
    result: str
    termination: str
    tc: str


def pgn_text(game: PgnGame) -> str:
    """One game as PGN: ICCS moves, no comments (cchess reads no comments); clocks in ``MoveTimes`` (ms)."""
    tags = [("Game", "Chinese Chess"), ("Event", "sanqi match"), ("Round", str(game.round)), ("Red", game.names[0]),
            ("Black", game.names[1]), ("Result", game.result)]
    if game.fen != START_FEN:
        tags.append(("FEN", game.fen))
    tags += [("Format", "ICCS"), ("Termination", game.termination), ("TimeControl", game.tc),
             ("MoveTimes", " ".join(str(t) for t in game.times))]
    iccs = [f"{m[:2].upper()}-{m[2:].upper()}" for m in game.moves]
    lines = [f"{k // 2 + 1}. " + " ".join(iccs[k:k + 2]) for k in range(0, len(iccs), 2)]
    head = "\n".join(f'[{k} "{v.replace(chr(34), chr(39))}"]' for k, v in tags)
    return head + "\n\n" + "\n".join(lines + [game.result]) + "\n\n"


def replay(pgn: str) -> tuple[list[str], Optional[float]]:
    """The positions of one ICCS-notation PGN game (as :func:`pgn_text` writes it for ``sanqi match --records``)
    and red's result.

    >>> fens, result = replay('[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]\\n[Result "1/2-1/2"]\\n1. D0-D1 E9-E8 *')
    >>> len(fens), result
    (3, 0.5)
    """
    fen, result, moves = START_FEN, None, []
    for line in pgn.splitlines():
        if line.startswith("[FEN "):
            fen = line.split('"')[1]
        elif line.startswith("[Result "):
            result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(line.split('"')[1])
        elif not line.startswith("["):
            moves += [word.replace("-", "").lower() for word in line.split() if len(word) == 5 and word[2] == "-"]
    pos = Position.from_fen(fen)
    seen = [pos.fen()]
    for move in moves:
        if not pos.push_name(move):
            break
        seen.append(pos.fen())
    return seen, result


@dataclass(frozen=True)
class XiangqiSetup:
    engines: tuple[XEngine, XEngine]
    names: tuple[str, str]
    fens: tuple[str, ...]
    base_ms: int
    inc_ms: int
    max_plies: int = 300
    log_dir: Optional[str] = None
    in_process: bool = False

    @property
    def openings(self) -> int:
        return len(self.fens)

    def log(self, job: Job, colour: str) -> Optional[str]:
        return engine_log(self.log_dir, job, colour)

    def play(self, job: Job) -> Outcome:
        order = (1, 0) if job.swapped else (0, 1)  # engine index playing red, black
        fen = self.fens[job.opening]
        seats: list[MatchSeat] = []
        try:
            for colour, engine in zip(("red", "black"), order):
                try:
                    seats.append(MatchSeat(self.engines[engine], self.log(job, colour)))
                except Forfeit as exc:
                    # the colour that did not start loses
                    return self.outcome(job, order, fen, Result.forfeit(len(seats), f"{colour} did not start: {exc}", exc.end), [], [])
            result, game = play_game(seats[0], seats[1], self.base_ms, self.inc_ms, self.max_plies, fen)
        finally:
            for seat in seats:
                seat.close()
        return self.outcome(job, order, fen, result, game.moves, game.times)

    def outcome(self, job: Job, order: tuple[int, int], fen: str, result: Result, moves: list[str], times: list[int]) -> Outcome:
        """The game for the runner, with its PGN."""
        tc = f"{self.base_ms / 1000:g}+{self.inc_ms / 1000:g}"
        text = pgn_text(PgnGame(job.number, (self.names[order[0]], self.names[order[1]]), fen, moves,
                                times, {0: "1-0", 1: "0-1"}.get(result.winner, "1/2-1/2"), result.reason, tc))
        return Outcome.of(job.number, result, order, len(moves), {f"game{job.number:05d}.pgn": text})


def add_options(p: ArgumentParser) -> None:
    p.add_argument("--tc", type=time_control, default="10+0.1", metavar="BASE+INC",
                   help="xiangqi: seconds per game + seconds added per move")
    p.add_argument("--max-plies", type=positive_int, default=300, help="xiangqi: plies after which a game is a draw")


def xengine(spec: "EngineSpec") -> XEngine:
    if spec.proto not in ("ucci", "uci"):
        raise UsageError(f"{spec.name}: xiangqi engines speak proto=ucci or proto=uci, not {spec.proto!r}")
    limits = {"depth": 0, "nodes": 0}
    for key, value in spec.settings:
        if key not in limits:
            raise UsageError(f"{spec.name}: unknown key {key}= (xiangqi engines take depth= and nodes=)")
        if not value.isdigit() or int(value) < 1:
            raise UsageError(f"{spec.name}: {key}={value} is not a whole number of at least 1")
        limits[key] = int(value)
    command = shlex.split(engine_command(spec.cmd))
    return XEngine(tuple(command), spec.proto, spec.options, limits["depth"], limits["nodes"])


def make_setup(opts: Namespace, specs: "list[EngineSpec]") -> XiangqiSetup:
    engines = (xengine(specs[0]), xengine(specs[1]))
    fens = tuple(read_book(opts.openings or BALANCED, book_line))
    base_ms, inc_ms = opts.tc
    return XiangqiSetup(engines, (specs[0].name, specs[1].name), fens, base_ms, inc_ms, opts.max_plies, opts.engine_log)
