"""Determinized search: the move that does best on average over sampled worlds.

Each world fixes every hidden kind by one sampled deployment (:class:`Deployments`). Every root
move is scored in every world by the shared core (:class:`engine_core.search.Searcher`: its
iterative deepening, transposition table, quiescence over attacks, killer and history ordering)
searching the replies to a fixed depth; a move's value is its mean over the worlds. The first pass
scores every move statically in every world; the deeper passes look only at the best few of it.
Depth grows while one more round of the next pass can still finish; the time left after the deepest
pass goes to more worlds at that depth. Each world counts with the deepest pass it finished.

An attack on a hidden piece is a chance node (:func:`chances`): in every world it is scored once
per outcome the beliefs allow (win, lose, both die), the defender shown as a kind that gives that
outcome (:func:`shown`), and the move's value is the mix weighted by the outcomes' probabilities. So the
few worlds a move can afford no longer decide by their luck of the draw whether an attack wins.

The same luck decided whether a world saw an enemy bomb (or a stronger piece) beside the piece a
move puts down: at a bomb probability of 0.1 none of six worlds draws it 53 % of the time, and our
司令 died to an enemy bomb 24 times in 40 dealt games against pfysw/JunQi 2.3, mostly one that had
not moved (:func:`exposure`). With :data:`EXPOSURE` on (off: 100 games did not decide it), a moved 司令
or 军长 is charged, in every world, what the beliefs expect
the hidden enemy pieces that can reach it next move to take, instead of what the world's own draw
shows where its replies see that enemy move (a control variate: the mean over the worlds moves
from the draws' luck to the beliefs' expectation), and is credited the same for the square it left.

With ``threads`` > 1 each deeper pass searches ``threads`` times as many worlds, shared out between
this process and ``threads - 1`` worker processes (:class:`engine_core.pool.Pool`), each with its
own transposition table: a pass takes about the time it takes one process, so more processes buy
more worlds at the depth one process reaches, not more depth. (Sharing one process's six worlds
out instead searched a quarter ply deeper on average and scored less against pfysw/JunQi at 1 s:
16/28 with two processes against 30/40 with one, 27 November 2026.) With one thread everything
runs here, in world order, so a fixed seed gives a fixed move.
"""

import math
import random
import time
from typing import Any, Optional, Sequence

from engine_core.game import NO_SCORE
from engine_core.pool import Pool
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from junqi_protocol.beliefs import KINDS, Deployments
from junqi_protocol.board import Board
from junqi_protocol.evaluate import attack_loss
from junqi_protocol.game import Pieces, Rules
from junqi_protocol.paths import attackers
from junqi_protocol.position import Position, zobrist_keys
from junqi_protocol.rules import FLAG, GENERAL, MARSHAL, combat

WORLDS = 6  # worlds each process searches in every pass
SAMPLES = 18  # deployments kept: the worlds, and more for the time a pass deeper cannot use
MAX_DEPTH = 8
CANDIDATES = 8  # root moves searched beyond the first, static pass
GROWTH = 4.0  # a deeper pass costs at least this many times the last (at most GROWTH_CAP times)
GROWTH_CAP = 12.0
LATE = 0.05  # seconds the planner waits for a worker past the deadline before it does without
# Off (:func:`exposure`): against main at 0.5 s a move, 55/100 (+35 Elo, -30..+102; SPRT(0, 40) LLR 0.54)
# on 29 November 2026, neither a range above 0 nor an accepted SPRT over 100 games (docs/results/junqi.md).
EXPOSURE = False

# A world as plain data a worker can be sent: variant, owner, kind, alive, turn, quiet, nocapture, loses.
Spec = tuple[str, list[int], list[int], list[bool], int, int, int, bool]
# A root attack's outcomes: for each possible result, its probability and the kinds that give it,
# each with its probability within the result.
Chance = list[tuple[float, list[tuple[float, int]]]]
GOLDEN = 0.6180339887498949  # spreads the worlds' draws of a kind evenly over its probabilities
# Per point, what a hidden enemy piece standing there is expected to take from a piece of ours of
# each kind it attacks (empty where no hidden enemy piece that can move stands): :func:`threats`.
Threat = Sequence[list[float]]
LOSS: list[list[int]] = [[attack_loss(att, dfn) for dfn in range(KINDS)] for att in range(KINDS)]
# The kinds of ours whose exposure is charged: the 司令 and the 军长, whose loss to a bomb hands the
# enemy the top piece. Charging every kind scored 15/40 against the build without the charge
# (docs/results/junqi.md): the static pass then shied every small piece from every hidden one.
CHARGED: frozenset[int] = frozenset((MARSHAL, GENERAL))


def chances(view: Pieces, deployments: Deployments, frm: int, to: int) -> Chance:
    """The outcomes of our piece on ``frm`` attacking the hidden piece on ``to``, by the beliefs'
    kind probabilities: per result (EAT, KILLED, BOTH) its probability and the kinds that give it
    with their probabilities within it. Empty when the defender is known, may be the flag (its
    capture is scored by the world where it stands), or has one possible result only (every world
    agrees)."""
    seat = view.owner[to]
    if seat < 0 or view.kind[to] >= 0:
        return []
    probs = deployments.probabilities(seat, view.tag[to])
    if probs[FLAG] > 0.0:
        return []
    att = view.kind[frm]
    by_result: dict[int, list[tuple[float, int]]] = {}
    for kind, p in enumerate(probs):
        if p > 0.0:
            by_result.setdefault(combat(att, kind), []).append((p, kind))
    if len(by_result) < 2:
        return []
    odds: Chance = []
    for kinds in by_result.values():
        total = sum(p for p, _ in kinds)
        odds.append((total, [(p / total, kind) for p, kind in kinds]))
    return odds


def threats(view: Pieces, deployments: Deployments, seat: int) -> Threat:
    """Each hidden enemy piece's expected take from a piece of ours of each kind that it attacks, by
    the beliefs' kind probabilities (:data:`LOSS`); a piece in a headquarters never moves."""
    board = view.board
    out: list[list[float]] = [[] for _ in range(board.size)]
    for q in range(board.size):
        owner = view.owner[q]
        if owner >= 0 and view.kind[q] < 0 and board.team(owner) != board.team(seat) and not board.hq[q]:
            probs = deployments.probabilities(owner, view.tag[q])
            out[q] = [sum(p * LOSS[att][dfn] for att, p in enumerate(probs) if p > 0.0) for dfn in range(KINDS)]
    return out


def exposure(pos: Position, x: int, kind: int, threat: Threat, seat: int, depth: int) -> float:
    """What the beliefs expect ``seat``'s piece of ``kind`` on ``x`` to lose to the hidden enemy
    pieces one move from it (a step, or a straight rail run over empty points: a bomb or a strong
    piece is no engineer), less what this world's replies (``depth - 1`` plies) already see: the
    loss its own kind for each such piece gives, where that piece's seat moves within them. A piece
    in a camp cannot be attacked; only the :data:`CHARGED` kinds are."""
    board = pos.board
    if board.camp[x] or kind not in CHARGED:
        return 0.0
    near = attackers(board, pos.owner, x)
    total = 0.0
    for q in set(near):
        if threat[q] and pos.owner[q] >= 0:
            total += threat[q][kind]
            if (pos.owner[q] - seat) % pos.seats < depth:
                total -= LOSS[pos.kind[q]][kind]
    return total


def shown(kinds: list[tuple[float, int]], sampled: int, w: int) -> int:
    """The kind world ``w`` shows for one outcome of an attack: its own sample where that gives the
    outcome, else a draw from the outcome's kinds by a low-discrepancy sequence over the worlds. The
    defender survives a lost attack, and the likeliest kind alone (for a small attacker the
    numerous small kinds) would have made every lost probe look cheap to avenge.

    >>> [shown([(0.5, 1), (0.25, 2), (0.25, 3)], 9, w) for w in range(4)], shown([(1.0, 4)], 2, 0)
    ([2, 1, 3, 1], 4)
    """
    for _, kind in kinds:
        if kind == sampled:
            return kind
    q = (w + 1) * GOLDEN % 1.0
    for p, kind in kinds:
        q -= p
        if q < 0.0:
            return kind
    return kinds[-1][1]


class Scorer:
    """Scores root moves in one world at a time; one per process, its transposition table kept
    between moves."""

    def __init__(self) -> None:
        self.tt: TransTable = TransTable(8)
        self.searcher: Searcher = Searcher(self.tt)
        self.keys: dict[str, list[int]] = {}
        self.boards: dict[str, Board] = {}
        self.nodes: int = 0
        self.move: int = -1  # the move the worlds below belong to
        self.worlds: dict[int, Position] = {}

    def world(self, move: int, w: int, spec: Spec) -> Position:
        """World ``w`` of ``move``, built once: its path tables cost a few searches of the board."""
        if move != self.move:
            self.move, self.worlds = move, {}
        pos = self.worlds.get(w)
        if pos is None:
            pos = self.worlds[w] = self.position(spec)
        return pos

    def position(self, spec: Spec) -> Position:
        variant, owner, kind, alive, turn, quiet, nocapture, loses = spec
        board = self.boards.get(variant)
        if board is None:
            board = self.boards[variant] = Board(variant)
        keys = self.keys.get(variant)
        if keys is None:
            keys = self.keys[variant] = zobrist_keys(board)
        return Position(board, owner, kind, alive, turn, quiet, nocapture, loses, keys)

    def __call__(self, task: Any) -> tuple[list[tuple[int, list[float]]], int]:
        """A worker's pass: ``(move, [(world number, spec)], roots, chances, depth, deadline, threat)``."""
        move, specs, roots, odds, depth, deadline, threat = task
        self.nodes = 0
        done, _ = self.run(move, specs, roots, odds, depth, deadline, threat)
        return done, self.nodes

    def run(self, move: int, specs: list[tuple[int, Spec]], roots: list[tuple[int, int]], odds: list[Chance], depth: int,
            deadline: float, threat: Threat = ()) -> tuple[list[tuple[int, list[float]]], list[float]]:
        """Every root move's values in each world, in order, while time lasts: the worlds finished,
        and the values of the one time ran out in (the first world's, to play from if need be).
        With a ``threat`` table each move is charged its piece's :func:`exposure`."""
        done: list[tuple[int, list[float]]] = []
        took = 0.0  # one world's pass: do not start another that cannot finish
        for w, spec in specs:
            began = time.perf_counter()
            if done and began + took >= deadline:
                break
            values = self.score(self.world(move, w, spec), roots, odds, depth, deadline, w, threat)
            if len(values) < len(roots):
                return done, values
            done.append((w, values))
            took = time.perf_counter() - began
        return done, []

    def score(self, pos: Position, roots: list[tuple[int, int]], odds: list[Chance], depth: int, deadline: float,
              w: int = 0, threat: Threat = ()) -> list[float]:
        """Each root move's value in one world (replies searched to ``depth - 1``); fewer values
        when time ran out: the static pass stops at ``deadline``, a deeper one before a move's search
        that the slowest so far says would end past it."""
        out: list[float] = []
        slowest = 0.0  # the longest search of one move so far: do not start one that would end late
        for (frm, to), odd in zip(roots, odds):
            now = time.perf_counter()
            late = now >= deadline if depth == 1 else now + slowest >= deadline
            if late:
                return out
            value: Optional[float]
            if not odd:
                value = self.value(pos, frm, to, depth, deadline, threat)
            else:
                sampled = pos.kind[to]
                value = 0.0
                for p, kinds in odd:
                    pos.reveal(to, shown(kinds, sampled, w))
                    part = self.value(pos, frm, to, depth, deadline, threat)
                    value = value + p * part if value is not None and part is not None else None
                pos.reveal(to, sampled)
            slowest = max(slowest, time.perf_counter() - now)
            if value is None:
                return out
            out.append(value)
        return out

    def value(self, pos: Position, frm: int, to: int, depth: int, deadline: float, threat: Threat = ()) -> Optional[float]:
        """One root move's value in one world; None when its search was stopped by the deadline.
        With a ``threat`` table, plus the moved piece's :func:`exposure` where it stood, less that
        where it stands after the move (if it still does)."""
        seat, kind = pos.turn, pos.kind[frm]
        risk = exposure(pos, frm, kind, threat, seat, depth) if threat else 0.0
        pos.make(pos.move_of(frm, to))
        if threat and pos.owner[to] == seat:
            risk -= exposure(pos, to, kind, threat, seat, depth)
        ruled = pos.rule_score(1)
        value: Optional[float]
        if ruled != NO_SCORE:
            value = float(-ruled)
        elif depth == 1:
            value = float(-self.static(pos))
            self.nodes += 1
        else:
            limits = Limits()
            limits.depth = depth - 1
            if deadline < math.inf:
                limits.hard_ms = max(1, int((deadline - time.perf_counter()) * 1000))
            lines = self.searcher.think(pos, limits)
            self.nodes += self.searcher.nodes
            value = None if self.searcher.stopped else float(-lines[0].score) if lines else float(-pos.no_move_score(1))
        pos.unmake()
        return value if value is None else value + risk

    def static(self, pos: Position) -> int:
        """The side to move's static score, after it takes a flag it can take at once (the first
        pass sees no replies, and a flag beside an enemy piece is lost)."""
        m = pos.flag_capture()
        if m < 0:
            return pos.evaluate()
        pos.make(m)
        # The next seat to move is on the other team in both variants.
        ruled = pos.rule_score(1)
        value = -(ruled if ruled != NO_SCORE else pos.evaluate())
        pos.unmake()
        return value


class Planner:
    """Chooses a move within a time budget, on ``threads`` processes."""

    def __init__(self, worlds: int = WORLDS) -> None:
        self.worlds: int = worlds
        self.scorer: Scorer = Scorer()
        self.threads: int = 1
        self.pool: Optional[Pool] = None
        self.depth: int = 0
        self.nodes: int = 0
        self.used: int = 0
        self.move: int = 0  # moves chosen: names the worlds of each
        self.waited: float = 0.0  # seconds of the last move spent waiting for the workers
        self.max_depth: int = MAX_DEPTH
        self.exposure: bool = EXPOSURE  # charge moved pieces their :func:`exposure`

    def set_threads(self, threads: int) -> None:
        """Use ``threads`` processes from the next move on (the workers start then)."""
        if threads != self.threads:
            self.close()
            self.threads = threads

    def processes(self) -> int:
        """The processes searching this move: ``threads`` once the workers run, else this one."""
        return self.threads if self.pool is not None else 1

    def close(self) -> None:
        """End the worker processes (a later move starts them again)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def spec(self, view: Pieces, sample: list[int], alive: list[bool], turn: int, quiet: int, rules: Rules) -> Spec:
        kind = [view.kind[p] if view.kind[p] >= 0 or view.owner[p] < 0 else sample[view.tag[p]] for p in range(view.board.size)]
        return view.board.variant, list(view.owner), kind, list(alive), turn, quiet, rules.nocapture, rules.nocapture_loses

    def choose(self, view: Pieces, seat: int, alive: list[bool], quiet: int, rules: Rules, deployments: Deployments,
               budget_ms: int, rng: random.Random, begun: float = 0.0, soft_ms: int = 0) -> Optional[tuple[int, int]]:
        """The move to play, thinking ``budget_ms`` from ``begun`` (a ``time.perf_counter()`` time, by
        default now) and not past it: even the first world's static pass, the one answer there must
        be, is cut there and its best move so far returned. No pass starts after ``soft_ms`` (0: the
        budget), the time manager's soft limit."""
        start = begun if begun > 0.0 else time.perf_counter()
        deadline = start + budget_ms / 1000.0
        soft = start + (soft_ms or budget_ms) / 1000.0
        roots = view.moves(seat)
        self.depth = 0
        self.nodes = 0
        self.waited = 0.0
        if len(roots) <= 1:
            return roots[0] if roots else None
        # Sampling may take a third of the time; the worlds need the rest.
        deployments.refresh(view, until=start + budget_ms / 3000.0)
        if not deployments.samples:
            return None
        if self.threads > 1 and self.pool is None:
            self.pool = Pool(self.threads - 1, Scorer)
        self.move += 1
        specs = [(w, self.spec(view, sample, alive, seat, quiet, rules)) for w, sample in enumerate(deployments.samples)]
        odds = [chances(view, deployments, frm, to) for frm, to in roots]
        threat = threats(view, deployments, seat) if self.exposure else []
        # The static pass, here: cheap, and the only pass whose first world may be cut short.
        self.scorer.nodes = 0
        done, partial = self.scorer.run(self.move, specs[:self.worlds], roots, odds, 1, deadline, threat)
        if not done:
            best = partial
            roots = roots[:len(best)]
        else:
            best = mean(done, len(roots))
            ranked = sorted(range(len(roots)), key=lambda i: -best[i])[:CANDIDATES]
            roots, odds = [roots[i] for i in ranked], [odds[i] for i in ranked]
            self.depth = 1
            best = self.deepen(specs, roots, odds, [(w, [v[i] for i in ranked]) for w, v in done], deadline, soft, threat)
        self.nodes += self.scorer.nodes
        self.used = int((time.perf_counter() - start) * 1000)
        if not best:
            return None
        top = max(best)
        return rng.choice([m for m, v in zip(roots, best) if v >= top - 1e-9])

    def deepen(self, specs: list[tuple[int, Spec]], roots: list[tuple[int, int]], odds: list[Chance],
               static: list[tuple[int, list[float]]], deadline: float, soft: float = math.inf, threat: Threat = ()) -> list[float]:
        """Deeper passes over the first worlds while one more round of them can finish, then more
        worlds at the deepest depth reached, until the deadline; none of them starts after ``soft``. A move's value is its mean over the
        worlds of the values from the deepest pass each world finished: all of a world's moves are
        scored at one depth, so within a world they compare alike, and a pass cut short still counts
        for the worlds it finished."""
        n = self.processes()
        first = specs[:self.worlds * n]
        rounds = -(-len(first) // n)  # worlds a process searches in one pass
        values = dict(static)
        took = 0.0  # the last full pass's wall time
        growth = GROWTH
        depth = 1
        while depth < self.max_depth:
            began = time.perf_counter()
            if began >= soft or took > 0.0 and began + took / rounds * growth >= deadline:
                break
            done = self.share(first, roots, odds, depth + 1, deadline, threat)
            if not done:
                break
            values.update(done)
            depth += 1
            self.depth = depth
            if len(done) < len(first):
                break
            last, took = took, time.perf_counter() - began
            growth = min(GROWTH_CAP, max(GROWTH, took / last)) if last > 0.0 else GROWTH
        if depth > 1 and time.perf_counter() < min(soft, deadline):
            values.update(self.share(specs[len(first):], roots, odds, depth, deadline, threat))
        return mean(sorted(values.items()), len(roots))

    def share(self, specs: list[tuple[int, Spec]], roots: list[tuple[int, int]], odds: list[Chance], depth: int,
              deadline: float, threat: Threat = ()) -> list[tuple[int, list[float]]]:
        """One pass over ``worlds``, dealt round-robin between this process and the workers; the
        worlds finished by the deadline, in world order."""
        n = self.processes()
        if n > 1:
            assert self.pool is not None
            self.pool.submit([(self.move, specs[i::n], roots, odds, depth, deadline, threat) for i in range(1, n)])
        done, _ = self.scorer.run(self.move, specs[::n], roots, odds, depth, deadline, threat)
        if n > 1:
            assert self.pool is not None
            began = time.perf_counter()
            answers = self.pool.collect(max(deadline, began) + LATE)
            self.waited += time.perf_counter() - began
            for answer in answers:
                if answer is not None:
                    done += answer[0]
                    self.nodes += answer[1]
        return sorted(done)


def sums(done: list[tuple[int, list[float]]], moves: int) -> list[float]:
    totals = [0.0] * moves
    for _, values in done:
        totals = [t + v for t, v in zip(totals, values)]
    return totals


def mean(done: list[tuple[int, list[float]]], moves: int) -> list[float]:
    """Each root move's mean value over the worlds ``done``.

    >>> mean([(0, [1.0, 4.0]), (3, [3.0, 0.0])], 2)
    [2.0, 2.0]
    """
    return [t / len(done) for t in sums(done, moves)]
