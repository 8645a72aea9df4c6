"""Determinized search: the move that does best on average over sampled worlds.

Each world fixes every hidden kind by one sampled deployment (:class:`Deployments`). Every root
move is scored in every world by the shared core (:class:`engine_core.search.Searcher`: its
iterative deepening, transposition table, quiescence over attacks, killer and history ordering)
searching the replies to a fixed depth; a move's value is its mean over the worlds, so an attack
is judged by what it meets across the deployments still possible. The first pass scores every
move statically in every world; the deeper passes look only at the best few of it (the search
is too slow in Python to look deeper at all of them). Depth grows while time is left; the
deepest pass finished in enough worlds decides.
"""

import random
import time
from typing import Optional

from engine_core.game import NO_SCORE
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from junqi_protocol.beliefs import Deployments
from junqi_protocol.game import Position, Rules
from junqi_protocol.position import JunqiPosition, zobrist_keys

WORLDS = 6
MIN_WORLDS = 2  # a deeper pass counts only when finished in this many worlds (or all there are)
MAX_DEPTH = 8
CANDIDATES = 8  # root moves searched beyond the first, static pass


class Planner:
    """Chooses a move within a time budget; keeps its transposition table between moves."""

    def __init__(self, worlds: int = WORLDS) -> None:
        self.worlds: int = worlds
        self.tt: TransTable = TransTable(8)
        self.searcher: Searcher = Searcher(self.tt)
        self.keys: dict[str, list[int]] = {}
        self.depth: int = 0
        self.nodes: int = 0
        self.used: int = 0

    def world(self, view: Position, sample: list[int], alive: list[bool], turn: int, quiet: int, rules: Rules) -> JunqiPosition:
        board = view.board
        kind = [view.kind[p] if view.kind[p] >= 0 or view.owner[p] < 0 else sample[view.tag[p]] for p in range(board.size)]
        keys = self.keys.get(board.variant)
        if keys is None:
            keys = self.keys[board.variant] = zobrist_keys(board)
        return JunqiPosition(board, view.owner, kind, alive, turn, quiet, rules.nocapture, rules.nocapture_loses, keys)

    def choose(self, view: Position, seat: int, alive: list[bool], quiet: int, rules: Rules, deployments: Deployments,
               budget_ms: int, rng: random.Random, begun: float = 0.0, hard_ms: int = 0) -> Optional[tuple[int, int]]:
        """The move to play, thinking about ``budget_ms`` from ``begun`` (a ``time.perf_counter()``
        time, by default now) and never past ``hard_ms``: the first world's static pass, the one
        answer there must be, is cut there and its best move so far returned."""
        start = begun if begun > 0.0 else time.perf_counter()
        deadline = start + budget_ms / 1000.0
        stop = start + max(budget_ms, hard_ms) / 1000.0
        roots = view.moves(seat)
        self.depth = 0
        self.nodes = 0
        if len(roots) <= 1:
            return roots[0] if roots else None
        # Sampling may take a third of the time; the worlds need the rest.
        deployments.refresh(view, until=start + budget_ms / 3000.0)
        samples = deployments.samples[:self.worlds]
        if not samples:
            return None
        worlds: list[JunqiPosition] = []
        best: list[float] = []
        for depth in range(1, MAX_DEPTH + 1):
            totals = [0.0] * len(roots)
            done = 0
            took = 0.0  # one world's pass at this depth: do not start another that cannot finish
            for w, sample in enumerate(samples):
                began = time.perf_counter()
                if best and began + took >= deadline:
                    break
                if w == len(worlds):
                    worlds.append(self.world(view, sample, alive, seat, quiet, rules))
                values = self._score(worlds[w], roots, depth, deadline, stop)
                if len(values) < len(roots):
                    if not best and done == 0 and values:
                        # Out of time in the first world's static pass: its moves scored so far.
                        best = values
                        roots = roots[:len(values)]
                        self.depth = depth
                    break
                totals = [t + v for t, v in zip(totals, values)]
                done += 1
                took = time.perf_counter() - began
                if not best:
                    best = list(values)  # the first world alone, should no other finish
                    self.depth = depth
                if time.perf_counter() >= deadline:
                    break
            if done >= min(MIN_WORLDS, len(samples)) or (depth == 1 and done > 0):
                best = [t / done for t in totals]
                self.depth = depth
                if depth == 1:
                    ranked = sorted(range(len(roots)), key=lambda i: -best[i])[:CANDIDATES]
                    roots = [roots[i] for i in ranked]
                    best = [best[i] for i in ranked]
            if done < len(samples) or time.perf_counter() >= deadline:
                break
            # Each deeper pass costs several times the last: do not start one that cannot finish
            # (the static first pass says nothing about the cost of searching).
            if depth > 1 and (time.perf_counter() - start) * 4 > budget_ms / 1000.0:
                break
        self.used = int((time.perf_counter() - start) * 1000)
        if not best:
            return None
        top = max(best)
        return rng.choice([m for m, v in zip(roots, best) if v >= top - 1e-9])

    def _static(self, pos: JunqiPosition) -> int:
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

    def _score(self, pos: JunqiPosition, roots: list[tuple[int, int]], depth: int, deadline: float, stop: float) -> list[float]:
        """Each root move's value in one world (replies searched to ``depth - 1``); fewer values
        when time ran out: the static pass stops at ``stop``, a deeper one at ``deadline``."""
        out: list[float] = []
        slowest = 0.0  # the longest search of one move so far: do not start one that would end late
        for frm, to in roots:
            if depth == 1 and time.perf_counter() >= stop:
                return out
            pos.make(pos.move_of(frm, to))
            ruled = pos.rule_score(1)
            if ruled != NO_SCORE:
                out.append(float(-ruled))
            elif depth == 1:
                out.append(float(-self._static(pos)))
                self.nodes += 1
            else:
                now = time.perf_counter()
                left = int((deadline - now) * 1000)
                if now + slowest >= deadline:
                    pos.unmake()
                    return out
                limits = Limits()
                limits.depth = depth - 1
                limits.hard_ms = left
                lines = self.searcher.think(pos, limits)
                slowest = max(slowest, time.perf_counter() - now)
                self.nodes += self.searcher.nodes
                if self.searcher.stopped:
                    pos.unmake()
                    return out
                out.append(float(-lines[0].score) if lines else float(-pos.no_move_score(1)))
            pos.unmake()
        return out
