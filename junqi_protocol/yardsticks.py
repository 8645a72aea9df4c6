"""The yardstick players' choice of move: ``events``, the seed engine's play, kept to measure the
``search`` player against (``random``'s choice is one draw, in :class:`junqi_protocol.player.Player`;
both yardsticks' lineups are in :mod:`junqi_protocol.lineups`).

``events`` re-creates the seed engine's event-driven play as scored rules, best score wins, ties
broken at random: capture a flag; attack where the kinds still possible promise a gain (which eats
pieces known to be smaller, sends bombs at pieces known to be big and engineers at back-row mines);
occupy an empty camp an enemy could reach next move; otherwise march along the shortest path to the
nearest square that may hold an enemy flag.
"""

import random
from typing import Protocol

from junqi_protocol.beliefs import Beliefs, kinds_of
from junqi_protocol.board import Board
from junqi_protocol.game import Pieces, Rules
from junqi_protocol.rules import BOTH, EAT, ENGINEER, FLAG, GENERAL, KILLED, MINE, combat, targets

# Rough worth of each kind to its owner: the flag is the game, engineers matter for mines.
VALUE = (100, 80, 60, 45, 35, 25, 15, 10, 30, 20, 50, 2000)


class Knowledge(Protocol):
    """What a player knows of the game, as :class:`junqi_protocol.player.Player` keeps it."""

    pos: Pieces
    beliefs: Beliefs
    seat: int
    alive: list[bool]
    quiet: int
    rules: Rules
    rng: random.Random


class Events:
    """The ``events`` player on one board, with the board's distances to each flag square cached."""

    def __init__(self, board: Board) -> None:
        self.board: Board = board
        self.dist_cache: dict[int, list[int]] = {}

    def choose(self, me: Knowledge, moves: list[tuple[int, int]]) -> tuple[int, int]:
        """The best-scored of ``moves`` (not empty) by what ``me`` knows, ties drawn from ``me.rng``."""
        best: list[tuple[int, int]] = []
        best_score = -10 ** 9
        threatened = self._enemy_reach(me)
        contact = self._contact_distance(me) if self._urgent(me) else []
        for m in moves:
            s = self._score(me, m[0], m[1], threatened, contact)
            if s > best_score:
                best, best_score = [m], s
            elif s == best_score:
                best.append(m)
        return me.rng.choice(best)

    def _enemy_reach(self, me: Knowledge) -> list[bool]:
        """Points some enemy piece might reach next move (kinds unknown: assume any mover)."""
        b = self.board
        pos = me.pos
        reach = [False] * b.size
        team = b.team(me.seat)
        for p in range(b.size):
            o = pos.owner[p]
            if o < 0 or b.team(o) == team:
                continue
            m = me.beliefs.of(pos, p)
            if not m & ~((1 << MINE) | (1 << FLAG)):
                continue
            saved = pos.kind[p]
            pos.kind[p] = ENGINEER if m & (1 << ENGINEER) else GENERAL
            for q in targets(b, pos.owner, pos.kind, p):
                reach[q] = True
            pos.kind[p] = saved
        return reach

    def _urgent(self, me: Knowledge) -> bool:
        # Under the competition's rule the side to move loses after N quiet moves: seek contact
        # well before, since reaching an enemy can take several moves.
        return me.rules.nocapture_loses and me.quiet >= me.rules.nocapture // 2

    def _contact_distance(self, me: Knowledge) -> list[int]:
        """Moves (on an empty board) from each point to the nearest enemy piece."""
        b = self.board
        team = b.team(me.seat)
        dist = [99] * b.size
        frontier = [p for p in range(b.size) if me.pos.owner[p] >= 0 and b.team(me.pos.owner[p]) != team]
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

    def _score(self, me: Knowledge, frm: int, to: int, threatened: list[bool], contact: list[int]) -> int:
        b = self.board
        pos = me.pos
        k = pos.kind[frm]
        urgent = len(contact) > 0
        if pos.owner[to] >= 0:
            mask = me.beliefs.of(pos, to)
            if mask == 1 << FLAG:
                return 100000
            left = me.beliefs.left(pos.owner[to])
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
            score += 60 if b.seat_of[to] == me.seat or b.seat_of[to] < 0 else 20
        if threatened[frm] and not b.camp[frm] and (b.camp[to] or not threatened[to]):
            score += 40 if b.camp[to] else VALUE[k] // 3
        d0 = self._flag_distance(me, frm)
        d1 = self._flag_distance(me, to)
        score += 10 * (d0 - d1)
        if threatened[to] and VALUE[k] >= VALUE[GENERAL] // 2:
            score -= VALUE[k] // 4
        if b.camp[frm]:
            score -= 5
        if urgent:
            return 10 * (contact[frm] - contact[to]) + score // 10
        return 800 + score

    def _flag_distance(self, me: Knowledge, p: int) -> int:
        best = 99
        for target in self._flag_squares(me):
            dist = self.dist_cache.get(target)
            if dist is None:
                dist = self._bfs(target)
                self.dist_cache[target] = dist
            if dist[p] < best:
                best = dist[p]
        return best

    def _flag_squares(self, me: Knowledge) -> list[int]:
        b = self.board
        out: list[int] = []
        team = b.team(me.seat)
        for s in range(b.seats):
            if not me.alive[s] or b.team(s) == team:
                continue
            if me.beliefs.flag_at[s] >= 0:
                out.append(me.beliefs.flag_at[s])
                continue
            for p in range(b.size):
                if b.hq[p] and b.seat_of[p] == s and me.pos.owner[p] == s and me.beliefs.of(me.pos, p) & (1 << FLAG):
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
