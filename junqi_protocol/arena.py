"""Junqi for ``sanqi match --game junqi``: the referee's games as match jobs, two or four seats.

Engines are the referee's ENGINE forms (``random``, ``events``, ``junqi:COMMAND``, ``ccgc:COMMAND`` or a
command). With two seats the first engine sits S, then N when swapped; with four seats the two
engines form the teams S+N and E+W, swapping teams every other game. An opening is a lineup from a
lineup set (one a line, 25 letters or the 30-cell form with dots) given to every seat of the game, so
both armies start alike; with no set each engine deploys its own.

>>> setup = JunqiSetup(("random", "events"), ((), ()), "2p", (), seed_players=True)
>>> outcome = setup.play(Job(1, 0, False, 7))
>>> outcome.score in (0.0, 0.5, 1.0), list(outcome.records)
(True, ['games.jsonl'])
"""

import io
from argparse import ArgumentParser, Namespace
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from engine_core.arena import Job, Outcome, engine_log
from engine_core.args import UsageError, positive_float
from engine_core.matchcli import engine_command, read_book
from junqi_protocol.board import Board
from junqi_protocol.player import PLAYERS
from junqi_protocol.game import Rules
from junqi_protocol.seats import Seat
from junqi_protocol.record import Recorder
from junqi_protocol.runner import Referee
from junqi_protocol.seating import make_seat, split_spec
from junqi_protocol.rules import check_lineup

if TYPE_CHECKING:
    from engine_core.matchcli import EngineSpec

class GivenLineup:
    """A seat whose lineup is imposed: the referee asks for one, the engine is told which."""

    def __init__(self, player: Seat, lineup: str) -> None:
        self.player = player
        self.given = lineup

    def lineup(self, given: str, timeout: float) -> str:
        return self.player.lineup(self.given, timeout)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.player, name)


def lineup_line(text: str) -> str:
    """One line of a lineup set: a legal lineup, else ValueError naming the rule it breaks."""
    err = check_lineup(text)
    if err is not None:
        raise ValueError(err)
    return text


@dataclass(frozen=True)
class JunqiSetup:
    """Two engines, the variant, the lineup set and the referee's clocks; ``play`` runs one game."""

    engines: tuple[str, str]
    options: tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
    variant: str
    lineups: tuple[str, ...]
    time_ms: int = 600_000
    movetime_ms: int = 10_000
    rules: str = ""
    log_dir: Optional[str] = None
    seed_players: bool = True
    labels: tuple[str, str] = ("", "")

    @property
    def names(self) -> tuple[str, str]:
        return (self.labels[0] or self.engines[0], self.labels[1] or self.engines[1])

    @property
    def openings(self) -> int:
        return len(self.lineups)

    @property
    def in_process(self) -> bool:
        return all(split_spec(e)[0] == "builtin" for e in self.engines)

    def seat_engines(self, job: Job) -> list[int]:
        """Which engine sits at each seat: S first, teams alternate around the board."""
        seats = 4 if self.variant == "4p" else 2
        return [(s + job.swapped) % 2 for s in range(seats)]

    def play(self, job: Job) -> Outcome:
        board = Board(self.variant)
        who = self.seat_engines(job)
        players: list[Any] = []
        for seat, engine in enumerate(who):
            player = make_seat(self.engines[engine], list(self.options[engine]), job.seed + seat if self.seed_players else None)
            log = engine_log(self.log_dir, job, board.letters[seat])
            if log:
                player.log_to(log)
            players.append(GivenLineup(player, self.lineups[job.opening]) if self.lineups else player)
        text = io.StringIO()
        referee = Referee(self.variant, self.rules, Recorder(text), self.time_ms, self.movetime_ms)
        result, game = referee.play(job.number, players)
        teams = {board.team(seat): engine for seat, engine in enumerate(who)}  # the engine playing each team
        return Outcome.of(job.number, result, who, game.ply, {"games.jsonl": text.getvalue()}, teams)


DEFAULT_PROTO = ""  # a bare command speaks our line protocol, random and events are built in


def add_options(p: ArgumentParser) -> None:
    p.add_argument("--variant", choices=("2p", "4p"), default="2p", help="junqi: two seats, or four (teams S+N, E+W)")
    p.add_argument("--rules", default="", metavar='"K=V ..."', help="junqi: rule options as for sanqi referee")
    p.add_argument("--tc", type=positive_float, default=600.0, metavar="SEC", help="junqi: each seat's clock per game")
    p.add_argument("--movetime", type=positive_float, default=10.0, metavar="SEC", help="junqi: the most one move may take")


def engine_form(spec: "EngineSpec") -> str:
    """The referee's ENGINE form of an ``--engine``: ``proto=ccgc`` gives ``ccgc:COMMAND`` and so on."""
    if spec.proto == "builtin" or (not spec.proto and spec.cmd in PLAYERS):
        if spec.cmd not in PLAYERS:
            raise UsageError(f"{spec.name}: the built-in junqi players are {', '.join(PLAYERS)}")
        return spec.cmd
    if spec.proto not in ("", "junqi", "ccgc"):
        raise UsageError(f"{spec.name}: junqi engines speak proto=junqi or proto=ccgc, or are built in (random, events)")
    return f"{spec.proto or 'junqi'}:{engine_command(spec.cmd)}"


def make_setup(opts: Namespace, specs: "list[EngineSpec]") -> JunqiSetup:
    for spec in specs:
        if spec.settings:
            raise UsageError(f"{spec.name}: junqi engines take no {', '.join(k for k, _ in spec.settings)}=")
    forms = [engine_form(s) for s in specs]
    for form in forms:
        if split_spec(form)[0] == "ccgc" and opts.variant == "4p":
            raise UsageError("CCGC engines play only the two-player game (--variant 2p)")
    try:
        Rules(opts.variant, opts.rules)
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}") from None
    return JunqiSetup((forms[0], forms[1]), (specs[0].options, specs[1].options), opts.variant,
                      tuple(read_book(opts.openings, lineup_line, "lineup")) if opts.openings else (), int(opts.tc * 1000),
                      int(opts.movetime * 1000), opts.rules, opts.engine_log, True, (specs[0].name, specs[1].name))
