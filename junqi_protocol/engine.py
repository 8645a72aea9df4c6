"""The front object, :class:`Engine`: our players ``search`` (the default), and ``random`` and
``events``, kept as yardsticks.

A player learns the game only through the referee's events, exactly as an engine over a pipe does;
the protocol front ends (``protocol.py``, ``ccgc.py``) and the referee's in-process seats all drive
this one class.

``events`` re-creates the seed engine's event-driven play as scored rules, best score wins, ties
broken at random: capture a flag; attack where the kinds still possible promise a gain (which eats
pieces known to be smaller, sends bombs at pieces known to be big and engineers at back-row mines);
occupy an empty camp an enemy could reach next move; otherwise march along the shortest path to the
nearest square that may hold an enemy flag.

``search`` scores every legal move by a determinized search on the shared core over sampled
deployments of the hidden pieces (:mod:`junqi_protocol.worlds`), within the time ``go`` gives.
"""

import random
import time
from typing import Callable, Optional

from engine_core.timeman import per_move
from junqi_protocol.beliefs import Beliefs, Deployments, kinds_of
from junqi_protocol.board import HOME, Board
from junqi_protocol.game import Event, Pieces, Rules
from junqi_protocol.lineups import habits, strong_lineup
from junqi_protocol.rules import (BOMB, BOTH, COUNTS, EAT, MOVE, ENGINEER, FLAG, GENERAL, KILLED, LINEUP_SLOTS, MINE, RESULTS,
                                  check_lineup, combat, lineup_text, parse_lineup, targets)

from junqi_protocol.worlds import SAMPLES, Planner

STYLES = ("search", "events", "random")
DEFAULT_STYLE = "search"
# Thinking time without a clock from the referee (CCGC gives a whole game's time).
UNTIMED_MS = 1000
# What a reply needs to reach the referee after the search ends, and the search's last look at the
# clock: with 60 the referee saw moves of up to 965 ms at a movetime of 1,000; with 80 the longest of
# 983 was 980 (docs/junqi.md, "Against pfysw/JunQi 2.3").
OVERHEAD_MS = 80
FULL_SHARE = 0.5  # of a CPU: a process that gets at least this thinks its whole budget
MAX_THREADS = 8
# Rough worth of each kind to its owner: the flag is the game, engineers matter for mines.
VALUE = (100, 80, 60, 45, 35, 25, 15, 10, 30, 20, 50, 2000)
EVENTS_LINEUP = "gcfcgi.b.idk.kda.f.ehehigjljhj"


def random_lineup(rng: random.Random) -> str:
    """A uniformly shuffled army that obeys the deployment rules."""
    kinds = [-1] * HOME
    free = list(LINEUP_SLOTS)
    flag = rng.choice((26, 28))
    kinds[flag] = FLAG
    free.remove(flag)
    for kind, first in ((MINE, 20), (BOMB, 5)):
        for _ in range(COUNTS[kind]):
            s = rng.choice([s for s in free if s >= first])
            kinds[s] = kind
            free.remove(s)
    rest = [k for k in range(12) for _ in range(COUNTS[k]) if k not in (FLAG, MINE, BOMB)]
    rng.shuffle(rest)
    for s, k in zip(free, rest):
        kinds[s] = k
    return lineup_text(kinds)


def events_lineup(rng: random.Random) -> str:
    """The events player's fixed deployment (flag behind three mines), mirrored at random."""
    rows = [EVENTS_LINEUP[r * 5:r * 5 + 5] for r in range(6)]
    if rng.random() < 0.5:
        rows = [row[::-1] for row in rows]
    return "".join(rows).replace(".", "")


def go_clock(words: list[str]) -> tuple[int, int]:
    """``time`` and ``movetime`` (ms, 0 when absent) from the words after ``go``; a value that is not
    a number is left out rather than refused, since the referee wants a move all the same.

    >>> go_clock("time 60000 movetime 300".split()), go_clock(["movetime", "x"])
    ((60000, 300), (0, 0))
    """
    got = {"time": 0, "movetime": 0}
    for name, value in zip(words[::2], words[1::2]):
        if name in got and value.isascii() and value.isdigit():  # "²".isdigit(), yet int() refuses it
            got[name] = int(value)
    return got["time"], got["movetime"]


def think_ms(time_ms: int, movetime_ms: int, overhead: int = OVERHEAD_MS) -> int:
    """The search's budget by the clocks ``go`` gave: the move's limit (``movetime``, at most a
    thirtieth of the clock) less the time the reply needs to reach the referee; UNTIMED_MS when
    ``go`` gave neither.

    >>> think_ms(600000, 1000), think_ms(0, 0), think_ms(3000, 10000), think_ms(20, 300)
    (920, 1000, 20, 1)
    """
    return per_move(movetime_ms, time_ms, overhead) or UNTIMED_MS


LINEUPS: dict[str, Callable[[random.Random], str]] = {"search": strong_lineup, "events": events_lineup, "random": random_lineup}


class Engine:
    """One player's knowledge of a game and its choice of move."""

    def __init__(self, style: str = DEFAULT_STYLE, seed: Optional[int] = None) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown player {style!r}; use one of {', '.join(STYLES)}")
        self.style: str = style
        self.rng: random.Random = random.Random(seed)
        self.board: Board = Board("2p")
        self.rules: Rules = Rules("2p")
        self.seat: int = 0
        self.pos: Pieces = Pieces(self.board)
        self.beliefs: Beliefs = Beliefs(self.board, 0)
        self.alive: list[bool] = [True, True]
        self.quiet: int = 0
        self.my_lineup: str = ""
        self.dist_cache: dict[int, list[int]] = {}
        self.deployments: Deployments = Deployments(self.beliefs, self.rng, SAMPLES)
        self.planner: Planner = Planner()
        self.lag: int = 0  # ms the last moves ran over their budget, fading
        self.budget: int = 0  # the last search's budget, ms
        # The CPU our recent moves got for the wall time they did not wait for workers, averaged;
        # until measured, a busy machine's (the first moves of a game came late when a new engine
        # assumed a whole CPU).
        self.share: float = FULL_SHARE * 3 / 4
        habits()  # computed once per process, here rather than at the start of a timed game

    def set_option(self, name: str, value: str) -> None:
        if name == "player":
            if value not in STYLES:
                raise ValueError(f"player={value}: use one of {', '.join(STYLES)}")
            self.style = value
        elif name == "seed":
            if not value.lstrip("-").isdigit():
                raise ValueError(f"seed={value}: a whole number is expected")
            self.rng = random.Random(int(value))
        elif name == "threads":
            if not (value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_THREADS):
                raise ValueError(f"threads={value}: a whole number from 1 to {MAX_THREADS} is expected")
            self.planner.set_threads(int(value))
        else:
            raise ValueError(f"unknown option {name!r}; known: player, seed, threads")

    def close(self) -> None:
        """End the search's worker processes, if any (before the process ends or drops this engine)."""
        self.planner.close()

    def new_game(self, variant: str, seat: int, rules: Rules) -> None:
        if self.board.variant != variant:
            self.board = Board(variant)
            self.dist_cache = {}
        self.rules = rules
        self.seat = seat
        self.my_lineup = ""
        self.quiet = 0
        self.alive = [True] * self.board.seats

    def lineup(self, given: str = "") -> str:
        """Our lineup: ``given`` if it is legal (else ValueError naming the rule), or our own choice."""
        if given:
            err = check_lineup(given)
            if err is not None:
                raise ValueError(err)
            text = given if len(given) == 25 else given.replace(".", "")
        else:
            text = LINEUPS[self.style](self.rng)
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

    def choose(self, time_ms: int = 0, movetime_ms: int = 0, asked: float = 0.0) -> Optional[tuple[int, int]]:
        """Our move, or None to pass (only when there is no legal move); ``time_ms`` is our clock
        and ``movetime_ms`` the most this move may take (0: not given), counted from ``asked`` (a
        ``time.perf_counter()`` time; by default now)."""
        begun, cpu0 = time.perf_counter(), time.process_time()
        t0 = asked or begun
        moves = self.pos.moves(self.seat)
        if not moves:
            return None
        self.beliefs.settle(self.pos)
        if self.style == "random":
            return self.rng.choice(moves)
        if self.style == "search":
            # A starved process (a loaded machine) is also the one that waits longest for a CPU
            # between two looks at the clock: it thinks in proportion to the share it gets.
            scale = min(1.0, self.share / FULL_SHARE)
            budget = max(10, int(think_ms(time_ms, movetime_ms) * scale) - self.lag)
            self.budget = budget
            m = self.planner.choose(self.pos, self.seat, self.alive, self.quiet, self.rules, self.deployments, budget, self.rng,
                                    t0)
            wall = time.perf_counter() - t0
            over = int(wall * 1000) - budget
            self.lag = max(over, self.lag * 3 // 4)
            busy = time.perf_counter() - begun - self.planner.waited
            if busy > 0.005:
                self.share = 0.7 * self.share + 0.3 * min(1.0, (time.process_time() - cpu0) / busy)
            if m is not None:
                return m
        best: list[tuple[int, int]] = []
        best_score = -10 ** 9
        threatened = self._enemy_reach()
        contact = self._contact_distance() if self._urgent() else []
        for m in moves:
            s = self._score(m[0], m[1], threatened, contact)
            if s > best_score:
                best, best_score = [m], s
            elif s == best_score:
                best.append(m)
        return self.rng.choice(best)

    def _enemy_reach(self) -> list[bool]:
        """Points some enemy piece might reach next move (kinds unknown: assume any mover)."""
        b = self.board
        pos = self.pos
        reach = [False] * b.size
        team = b.team(self.seat)
        for p in range(b.size):
            o = pos.owner[p]
            if o < 0 or b.team(o) == team:
                continue
            m = self.beliefs.of(pos, p)
            if not m & ~((1 << MINE) | (1 << FLAG)):
                continue
            saved = pos.kind[p]
            pos.kind[p] = ENGINEER if m & (1 << ENGINEER) else GENERAL
            for q in targets(b, pos.owner, pos.kind, p):
                reach[q] = True
            pos.kind[p] = saved
        return reach

    def _urgent(self) -> bool:
        # Under the competition's rule the side to move loses after N quiet moves: seek contact
        # well before, since reaching an enemy can take several moves.
        return self.rules.nocapture_loses and self.quiet >= self.rules.nocapture // 2

    def _contact_distance(self) -> list[int]:
        """Moves (on an empty board) from each point to the nearest enemy piece."""
        b = self.board
        team = b.team(self.seat)
        dist = [99] * b.size
        frontier = [p for p in range(b.size) if self.pos.owner[p] >= 0 and b.team(self.pos.owner[p]) != team]
        for p in frontier:
            dist[p] = 0
        while frontier:
            nxt: list[int] = []
            for a in frontier:
                for q in b.steps[a]:
                    if dist[q] == 99:
                        dist[q] = dist[a] + 1
                        nxt.append(q)
            frontier = nxt
        return dist

    def _score(self, frm: int, to: int, threatened: list[bool], contact: list[int]) -> int:
        b = self.board
        pos = self.pos
        k = pos.kind[frm]
        urgent = len(contact) > 0
        if pos.owner[to] >= 0:
            mask = self.beliefs.of(pos, to)
            if mask == 1 << FLAG:
                return 100000
            left = self.beliefs.left(pos.owner[to])
            total = 0.0
            weight = 0.0
            for d in kinds_of(mask):
                w = left[d]
                r = combat(k, d)
                gain = VALUE[d] if r == EAT else -VALUE[k] if r == KILLED else VALUE[d] - VALUE[k] if r == BOTH else 0
                total += w * gain
                weight += w
            dig = 30 if k == ENGINEER and b.row[to] >= 4 and mask & (1 << MINE) else 0
            return 800 + int(total / max(1e-9, weight)) + dig + (500 if urgent else 0)
        score = 0
        if b.camp[to] and threatened[to]:
            score += 60 if b.seat_of[to] == self.seat or b.seat_of[to] < 0 else 20
        if threatened[frm] and not b.camp[frm] and (b.camp[to] or not threatened[to]):
            score += 40 if b.camp[to] else VALUE[k] // 3
        d0 = self._flag_distance(frm)
        d1 = self._flag_distance(to)
        score += 10 * (d0 - d1)
        if threatened[to] and VALUE[k] >= VALUE[GENERAL] // 2:
            score -= VALUE[k] // 4
        if b.camp[frm]:
            score -= 5
        if urgent:
            return 10 * (contact[frm] - contact[to]) + score // 10
        return 800 + score

    def _flag_distance(self, p: int) -> int:
        best = 99
        for target in self._flag_squares():
            dist = self.dist_cache.get(target)
            if dist is None:
                dist = self._bfs(target)
                self.dist_cache[target] = dist
            if dist[p] < best:
                best = dist[p]
        return best

    def _flag_squares(self) -> list[int]:
        b = self.board
        out: list[int] = []
        team = b.team(self.seat)
        for s in range(b.seats):
            if not self.alive[s] or b.team(s) == team:
                continue
            if self.beliefs.flag_at[s] >= 0:
                out.append(self.beliefs.flag_at[s])
                continue
            for p in range(b.size):
                if b.hq[p] and b.seat_of[p] == s and self.pos.owner[p] == s and self.beliefs.of(self.pos, p) & (1 << FLAG):
                    out.append(p)
        return out

    def _bfs(self, target: int) -> list[int]:
        # Moves to the target on an empty board: road steps, and any straight rail run as one move.
        b = self.board
        dist = [99] * b.size
        dist[target] = 0
        frontier = [target]
        while frontier:
            nxt: list[int] = []
            for a in frontier:
                near = list(b.steps[a])
                for li, i in b.line_of[a]:
                    near.extend(b.lines[li])
                for q in near:
                    if dist[q] == 99 and not (b.hq[q] and q != target):
                        dist[q] = dist[a] + 1
                        nxt.append(q)
            frontier = nxt
        return dist
