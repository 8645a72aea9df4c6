"""The junqi player behind both adapters: one player's knowledge of a game, its time and its choice
of move, as one of three kinds of player (:data:`PLAYERS`, the ``player`` option): ``search`` (the
default), and the yardsticks ``events`` and ``random`` (:mod:`junqi_protocol.yardsticks`).

A player learns the game only through the referee's events, exactly as an engine over a pipe does;
the adapters (:mod:`junqi_protocol.protocol`, :mod:`junqi_protocol.ccgc`, which parse and print,
through :class:`junqi_protocol.engine.Engine`, which keeps the journal and undo) and the referee's
in-process seats all drive this one class.

``search`` scores every legal move by a determinized search on the shared core over sampled
deployments of the hidden pieces (:mod:`junqi_protocol.worlds`), within the time ``go`` gives, in
proportion to the CPU share the process gets.
"""

import dataclasses
import random
from typing import Callable, Optional

from engine_core.loop import Refusal
from engine_core.timeman import SHARE, MoveRequest, TimeManager
from junqi_protocol.beliefs import Beliefs, Deployments
from junqi_protocol.board import Board
from junqi_protocol.game import Event, Pieces, Rules, report_problem
from junqi_protocol.lineups import events_lineup, habits, random_lineup, strong_lineup
from junqi_protocol.rules import MOVE, RESULTS, check_lineup, parse_lineup
from junqi_protocol.worlds import SAMPLES, Planner
from junqi_protocol.yardsticks import Events

PLAYERS = ("search", "events", "random")  # the built-in kinds of player (not the styles of xiangqi's and gomoku's evaluations)
DEFAULT_PLAYER = "search"
# Thinking time without a clock from the referee (CCGC gives a whole game's time).
UNTIMED_MS = 1000
# What a reply needs to reach the referee after the search ends, and the search's last look at the
# clock: with 60 the referee saw moves of up to 965 ms at a movetime of 1,000; with 80 the longest of
# 983 was 980 (docs/junqi.md, "Against pfysw/JunQi 2.3").
OVERHEAD_MS = 80
MAX_THREADS = 8
# The ``movetime`` option: our own cap on a move's time, ms, under the referee's (0: none, the default).
# Named, counted and bounded as the pfysw bridge's option of that name (its maximum; its minimum of 50
# is ours 0, which turns the cap off).
MAX_MOVETIME = 60_000


LINEUPS: dict[str, Callable[[random.Random], str]] = {"search": strong_lineup, "events": events_lineup, "random": random_lineup}


class Player:
    """One player's knowledge of a game and its choice of move."""

    def __init__(self, kind: str = DEFAULT_PLAYER, seed: Optional[int] = None) -> None:
        if kind not in PLAYERS:
            raise Refusal(f"unknown player {kind!r}; use one of {', '.join(PLAYERS)}")
        self.kind: str = kind
        self.rng: random.Random = random.Random(seed)
        self.board: Board = Board("2p")
        self.rules: Rules = Rules("2p")
        self.seat: int = 0
        self.pos: Pieces = Pieces(self.board)
        self.beliefs: Beliefs = Beliefs(self.board, 0)
        self.alive: list[bool] = [True, True]
        self.quiet: int = 0
        self.my_lineup: str = ""
        self.events_player: Events = Events(self.board)
        self.deployments: Deployments = Deployments(self.beliefs, self.rng, SAMPLES)
        self.planner: Planner = Planner()
        self.time: TimeManager = TimeManager(SHARE, OVERHEAD_MS, UNTIMED_MS)
        self.budget: int = 0  # the last search's budget (its hard limit), ms
        self.movetime: int = 0  # the ``movetime`` option: our cap on a move's time, ms (0: none)
        self.limit: int = 0  # the last search's movetime, the referee's and ours combined, ms (0: none)
        habits()  # computed once per process, here rather than at the start of a timed game

    def set_option(self, name: str, value: str) -> None:
        if name == "player":
            if value not in PLAYERS:
                raise Refusal(f"player={value}: use one of {', '.join(PLAYERS)}")
            self.kind = value
        elif name == "seed":
            if not value.lstrip("-").isdigit():
                raise Refusal(f"seed={value}: a whole number is expected")
            self.rng = random.Random(int(value))
        elif name == "threads":
            if not (value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_THREADS):
                raise Refusal(f"threads={value}: a whole number from 1 to {MAX_THREADS} is expected")
            self.planner.set_threads(int(value))
        elif name == "movetime":
            if not (value.isascii() and value.isdigit() and int(value) <= MAX_MOVETIME):
                raise Refusal(f"movetime={value}: milliseconds from 0 (no cap) to {MAX_MOVETIME} are expected")
            self.movetime = int(value)
        else:
            raise Refusal(f"unknown option {name!r}; known: player, seed, threads, movetime")

    def close(self) -> None:
        """End the search's worker processes, if any (before the process ends or drops this player)."""
        self.planner.close()

    def new_game(self, variant: str, seat: int, rules: Rules) -> None:
        if self.board.variant != variant:
            self.board = Board(variant)
            self.events_player = Events(self.board)
        self.rules = rules
        self.seat = seat
        self.my_lineup = ""
        self.quiet = 0
        self.alive = [True] * self.board.seats

    def lineup(self, given: str = "") -> str:
        """Our lineup: ``given`` if it is legal (else :class:`Refusal` naming the rule), or our own choice."""
        if given:
            err = check_lineup(given)
            if err is not None:
                raise Refusal(err)
            text = given if len(given) == 25 else given.replace(".", "")
        else:
            text = LINEUPS[self.kind](self.rng)
        self.my_lineup = text
        return text

    def begin(self, visible: dict[int, str]) -> None:
        """Set up the board: our lineup, every other home full of unknown pieces (or those shown to us)."""
        self.pos = Pieces(self.board)
        for s in range(self.board.seats):
            if s == self.seat:
                self.pos.place(s, parse_lineup(self.my_lineup))
            elif s in visible:
                self.pos.place(s, parse_lineup(visible[s]))
            else:
                self.pos.place(s, None)
        self.beliefs = Beliefs(self.board, self.seat)
        self.beliefs.prior = habits()
        self.beliefs.start(self.pos)
        self.deployments = Deployments(self.beliefs, self.rng, SAMPLES)

    def problem(self, ev: Event) -> Optional[str]:
        """Why a reported ``ev`` cannot be true on what we know, or None (then :meth:`observe` takes it)."""
        return report_problem(self.pos, self.alive, ev)

    def occupied(self, point: int) -> bool:
        """Whether a piece (anyone's) stands on ``point``."""
        return self.pos.owner[point] >= 0

    def observe(self, ev: Event) -> None:
        pos = self.pos
        if ev.kind == "move":
            names = self.board.names
            if pos.owner[ev.frm] != ev.seat:
                raise ValueError(f"move: seat {self.board.letters[ev.seat]} has no piece on {names[ev.frm]}")
            if (pos.owner[ev.to] < 0) != (ev.result == MOVE):
                raise ValueError(f"move: result {RESULTS[ev.result]} does not fit what stands on {names[ev.to]}")
            if pos.owner[ev.to] >= 0 and self.board.team(pos.owner[ev.to]) == self.board.team(ev.seat):
                raise ValueError(f"move: {names[ev.to]} holds an ally of {self.board.letters[ev.seat]}")
            self.beliefs.before_move(pos, ev.frm, ev.to, ev.result)
            pos.apply(ev.frm, ev.to, ev.result)
            self.quiet = self.quiet + 1 if ev.result == MOVE else 0
        elif ev.kind == "pass":
            self.quiet += 1
        elif ev.kind == "marshal":
            self.beliefs.marshal_died(pos, ev.seat, ev.frm)
        elif ev.kind == "flag":
            self.beliefs.flag_taken(ev.seat)
        elif ev.kind == "out":
            self.alive[ev.seat] = False
            pos.remove(ev.seat)

    def choose(self, clock: Optional[MoveRequest] = None, asked: float = 0.0) -> Optional[tuple[int, int]]:
        """Our move, or None to pass (only when there is no legal move); ``clock`` is the referee's
        request (our clock and ``movetime``; none: untimed), counted from ``asked`` (a
        ``time.perf_counter()`` time; by default now)."""
        begun = self.time.cpu.start()  # the CPU our moves get for the wall time they do not wait for workers
        moves = self.pos.moves(self.seat)
        if not moves:
            return None
        self.beliefs.settle(self.pos)
        if self.kind == "random":
            return self.rng.choice(moves)
        if self.kind == "search":
            clock = capped(clock, self.movetime)
            self.limit = clock.movetime
            # The hard limit bounds the move; no pass starts after the soft one (the same where the
            # referee's movetime bounds the move, three quarters of it where the clock's share does).
            soft, budget, _ = self.time.begin(clock, asked or begun)
            self.budget = budget
            m = self.planner.choose(self.pos, self.seat, self.alive, self.quiet, self.rules, self.deployments, budget, self.rng,
                                    self.time.arrived, soft)
            self.time.answered()
            self.time.cpu.stop(self.planner.waited)
            if m is not None:
                return m
        return self.events_player.choose(self, moves)

    def last_search(self) -> str:
        """What the last move's search did, for the log ("" when this kind of player does not search)."""
        if self.kind != "search":
            return ""
        p = self.planner
        return f"search depth {p.depth} nodes {p.nodes} budget {self.budget} ms used {p.used} ms movetime {self.limit} ms"


def capped(clock: Optional[MoveRequest], cap: int) -> MoveRequest:
    """The referee's clock request (None: untimed) with our ``movetime`` option ``cap`` (ms; 0: none)
    as one more bound on the move: its ``movetime`` becomes the less of the two, or the cap where the
    referee sent none. The time rule (docs/junqi.md) then reads it as it reads the referee's.

    >>> [capped(MoveRequest(60000, movetime=m), cap).movetime for m, cap in ((3300, 1000), (800, 1000), (3300, 0), (0, 1000))]
    [1000, 800, 3300, 1000]
    >>> capped(None, 0) == MoveRequest(), capped(None, 500) == MoveRequest(movetime=500)
    (True, True)
    """
    given = clock or MoveRequest()
    if cap <= 0:
        return given
    return dataclasses.replace(given, movetime=cap if given.movetime <= 0 else min(cap, given.movetime))
