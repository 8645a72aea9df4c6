"""What one player can infer about pieces it cannot see.

Every piece is tracked by its starting point (``Pieces.tag``) with a 12-bit mask of the kinds it
may still be. Unary facts narrow a mask:

* the deployment rules (no mine before row 4, no bomb in row 0, the flag only in a headquarters);
* a piece that moved is no mine and no flag; one that turned a corner on the rails is an engineer;
* a collision keeps only the kinds consistent with its announced result (a fight between two
  pieces both hidden from us is also kept as a joint constraint on the pair, for sampling);
* a piece that died without a ``marshal`` line was no 司令; a headquarters taken without a ``flag``
  line held no flag; a dead 司令's flag square pins the flag.

Then each army's exact multiset of kinds is enforced jointly (:func:`feasible_masks`, a matching of
its 25 pieces, dead ones included, onto the kinds with their counts): a kind stays in a mask only
if some complete deployment gives it to that piece. This generalises the seed's min/max rank
counts. ``joint=False`` keeps the older per-kind strike (:meth:`Beliefs.apply_counts`) as a
yardstick. Kind probabilities weigh a deployment prior by what each piece did (:class:`Behaviour`:
how soon it first moved once it could, how often it attacked, the fights it won or lost against
pieces hidden from us) and, in the four-player game, by the lineup its hidden teammate showed
(:func:`shared_lineup`), never to zero. :class:`Deployments` samples whole deployments consistent with all of it.

>>> feasible_masks([0b011, 0b001, 0b110], [1, 1, 1])
[2, 1, 4]
"""

import math
import random
import sys
import time
from typing import Callable, Final, Optional

from junqi_protocol.board import HOME, Board
from junqi_protocol.game import Pieces
from junqi_protocol.rules import BOTH, COUNTS, EAT, ENGINEER, FLAG, KILLED, MARSHAL, MINE, BOMB, MOVE, combat, needs_engineer

ALL = (1 << 12) - 1
KINDS = 12
BALANCE_ROUNDS = 30
LIKELIHOOD_FLOOR = 30.0  # the behaviour model never weighs a kind below e^-30 of the likeliest
# How far a teammate's lineup moves an army's prior (:func:`shared_lineup`): chosen on --seed 3
# four-player games of both lineup styles, not on the benchmark's --seed 1.
LINEUP_SHARPNESS = 1.5
LINEUP_FLOOR = 0.05


_KIND_LISTS = [[k for k in range(KINDS) if mask >> k & 1] for mask in range(1 << KINDS)]


def kinds_of(mask: int) -> list[int]:
    return _KIND_LISTS[mask & ALL]


def _beats(att_mask: int, dfn_mask: int, result: int) -> tuple[int, int]:
    """The attacker and defender masks that can produce ``result``."""
    a_out = 0
    d_out = 0
    for a in kinds_of(att_mask):
        for d in kinds_of(dfn_mask):
            if combat(a, d) == result:
                a_out |= 1 << a
                d_out |= 1 << d
    return a_out, d_out


def start_mask(board: Board, p: int) -> int:
    """Kinds the deployment rules allow on home point ``p``."""
    m = ALL
    if board.row[p] < 4:
        m &= ~(1 << MINE)
    if board.row[p] == 0:
        m &= ~(1 << BOMB)
    if not board.hq[p]:
        m &= ~(1 << FLAG)
    return m


def match(masks: list[int], counts: list[int]) -> Optional[list[int]]:
    """A kind for every piece within its mask using each kind ``counts`` times, or None.

    >>> match([0b01, 0b01], [1, 1]) is None
    True
    """
    assign = [-1] * len(masks)
    holders: list[list[int]] = [[] for _ in range(KINDS)]

    def place(t: int, seen: list[bool]) -> bool:
        for k in kinds_of(masks[t]):
            if seen[k]:
                continue
            seen[k] = True
            if len(holders[k]) < counts[k]:
                holders[k].append(t)
                assign[t] = k
                return True
            for other in holders[k]:
                if place(other, seen):
                    holders[k].remove(other)
                    holders[k].append(t)
                    assign[t] = k
                    return True
        return False

    # The most constrained pieces first: most of them then find a free kind at once.
    for t in sorted(range(len(masks)), key=lambda t: len(kinds_of(masks[t]))):
        if not place(t, [False] * KINDS):
            return None
    return assign


def _reach(masks: list[int], assign: list[int]) -> list[int]:
    """Per kind k, the kinds a chain of reassignments starting at k can end in (k included).

    An edge k1 -> k2 means some piece holding k1 may hold k2 instead."""
    edge = [0] * KINDS
    for t, k in enumerate(assign):
        edge[k] |= masks[t]
    reach = [1 << k for k in range(KINDS)]
    for k in range(KINDS):
        frontier = reach[k]
        while frontier:
            nxt = 0
            for j in kinds_of(frontier):
                nxt |= edge[j]
            frontier = nxt & ~reach[k]
            reach[k] |= nxt
    return reach


def feasible_masks(masks: list[int], counts: list[int]) -> Optional[list[int]]:
    """Each mask cut to the kinds some complete assignment gives its piece; None if there is none.

    With the counts summing to the number of pieces, piece t may take kind k exactly when the
    matching can shift one piece along a chain from k back to t's matched kind."""
    assign = match(masks, counts)
    if assign is None:
        return None
    reach = _reach(masks, assign)
    return [sum(1 << k for k in kinds_of(m) if reach[k] >> assign[t] & 1) for t, m in enumerate(masks)]


def _reaches(edge: list[int], frm: int, to: int) -> bool:
    """Whether a chain of reassignments leads from kind ``frm`` to kind ``to``."""
    seen = 1 << frm
    frontier = seen
    while frontier:
        nxt = 0
        for j in kinds_of(frontier):
            nxt |= edge[j]
        frontier = nxt & ~seen
        seen |= nxt
        if seen >> to & 1:
            return True
    return False


def _chain(masks: list[int], assign: list[int], new: int, old: int) -> list[tuple[int, int]]:
    """The shifts (piece, its next kind) that free a place of kind ``new`` and fill the place of
    kind ``old`` about to be left: a shortest path of reassignments from ``new`` to ``old``."""
    came: dict[int, tuple[int, int]] = {new: (-1, -1)}
    frontier = [new]
    while frontier and old not in came:
        nxt: list[int] = []
        for k in frontier:
            for t, held in enumerate(assign):
                if held != k:
                    continue
                for j in kinds_of(masks[t]):
                    if j not in came:
                        came[j] = (k, t)
                        nxt.append(j)
        frontier = nxt
    shifts: list[tuple[int, int]] = []
    k = old
    while came[k][0] >= 0:
        shifts.append((came[k][1], k))
        k = came[k][0]
    return shifts


def sample_army(masks: list[int], counts: list[int], weight: list[list[float]], rng: random.Random) -> Optional[list[int]]:
    """One deployment: a kind per piece, drawn piece by piece in random order among the kinds that
    keep a complete deployment possible, in proportion to ``weight[t][k]``.

    >>> sorted(sample_army([0b11, 0b11, 0b100], [1, 1, 1], [[1.0] * 12] * 3, random.Random(1))[:2])
    [0, 1]
    """
    masks = list(masks)
    assign = match(masks, counts)
    if assign is None:
        return None
    left = list(counts)
    for m in masks:
        if m & (m - 1) == 0:
            left[m.bit_length() - 1] -= 1
    order = list(range(len(masks)))
    rng.shuffle(order)
    for t in order:
        if masks[t] & (masks[t] - 1) == 0:
            continue
        edge = [0] * KINDS
        for u, held in enumerate(assign):
            edge[held] |= masks[u]
        # Copies still unplaced times the prior: close to uniform over complete deployments. A
        # draw that leaves no complete deployment is struck and drawn again.
        options = kinds_of(masks[t])
        w = [weight[t][k] * max(left[k], 0) for k in options]
        while True:
            i = rng.choices(range(len(options)), w)[0] if sum(w) > 0 else rng.randrange(len(options))
            k = options[i]
            if k == assign[t] or _reaches(edge, k, assign[t]):
                break
            options = options[:i] + options[i + 1:]
            w = w[:i] + w[i + 1:]
        if k != assign[t]:
            for other, j in _chain(masks, assign, k, assign[t]):
                assign[other] = j
            assign[t] = k
        masks[t] = 1 << k
        left[k] -= 1
    return assign


class Behaviour:
    """What a piece's conduct says about its kind, as a likelihood per kind: how soon a piece of
    each kind first moves (a hazard per move of its owner on which it could have stepped somewhere:
    strong pieces go early, engineers and bombs wait, mines and flags never move; a share ``sleepers`` of pieces is held back whatever
    its kind, so staying put is never damning) and what share of its moves are attacks (the
    strong attack, the weak walk). Tempered by ``temper`` because one player's choices are far
    from independent draws. Every kind keeps a positive factor, so nothing possible is ruled out.

    >>> still = Behaviour([0.1] * 9 + [0.0, 0.05, 0.0], [0.5] * 12, 1.0, 0.0).likelihood(0, 0, 20)
    >>> still[MINE] == 1.0 and 0 < still[MARSHAL] < still[BOMB] < 1
    True
    """

    def __init__(self, hazard: list[float], attack_share: list[float], temper: float, sleepers: float) -> None:
        self.hazard: list[float] = hazard
        self.sleepers: float = sleepers
        self.start: list[float] = [math.log(max(h, 1e-9)) for h in hazard]
        self.hit: list[float] = [math.log(max(c, 1e-9)) for c in attack_share]
        self.walk: list[float] = [math.log(max(1.0 - c, 1e-9)) for c in attack_share]
        self.temper: float = temper

    def likelihood(self, moved: int, attacks: int, waited: int) -> list[float]:
        """Per kind, the likelihood of a piece that could have moved on ``waited`` of its owner's
        moves before it first did (or has not yet), then made ``moved`` moves, ``attacks`` of them
        attacks."""
        if moved:
            logs = [self.start[k] - self.hazard[k] * waited + attacks * self.hit[k] + (moved - attacks) * self.walk[k]
                    for k in range(KINDS)]
        else:
            logs = [math.log(self.sleepers + (1.0 - self.sleepers) * math.exp(-self.hazard[k] * waited)) for k in range(KINDS)]
        top = max(logs)
        return [math.exp(max(self.temper * (x - top), -LIKELIHOOD_FLOOR)) for x in logs]


def _weigh_by_fight(row: list[float], other: int, fits: Callable[[int, int], bool]) -> None:
    """Weigh a piece's kinds by the share of its hidden opponent's possible kinds (by their
    counts) that give the fight's announced result: to beat a piece that could have been almost
    anything takes a strong piece. A kind the masks allow fits at least one, so stays positive."""
    total = sum(COUNTS[d] for d in kinds_of(other))
    for k in range(KINDS):
        if row[k] > 0 and total > 0:
            row[k] *= max(sum(COUNTS[d] for d in kinds_of(other) if fits(k, d)) / total, 1e-6)


def _free(board: Board, pos: Pieces, p: int) -> bool:
    """Whether the piece on ``p`` has somewhere to step, whatever its kind: a piece boxed in by
    its own side cannot show what it is by waiting."""
    if board.hq[p]:
        return False
    team = board.team(pos.owner[p])
    for q in board.steps[p]:
        o = pos.owner[q]
        if o < 0 or (board.team(o) != team and not board.camp[q]):
            return True
    return False


def shared_lineup(prior: list[list[float]], seen: list[list[float]]) -> list[list[float]]:
    """``prior`` weighted, slot by slot, by what another army of the same program showed on that
    slot and on its mirror image (a lineup may be played either way round), never below a floor.

    >>> seen = [[1.0] * 12 for _ in range(HOME)]
    >>> seen[21] = seen[23] = [0.0] * 9 + [1.0] + [0.0] * 2  # a mine there, or mirrored
    >>> row = shared_lineup([[1.0] * 12] * HOME, seen)[21]
    >>> row[MINE] == 1.0 and 0 < row[MARSHAL] < 0.02
    True
    """
    out: list[list[float]] = []
    for s, row in enumerate(prior):
        m = s - s % 5 + 4 - s % 5
        out.append([w * (LINEUP_FLOOR + (1.0 - LINEUP_FLOOR) * (seen[s][k] + seen[m][k]) / 2) ** LINEUP_SHARPNESS
                    for k, w in enumerate(row)])
    return out


def blend(prior: list[list[float]], shared: list[list[float]], own: list[list[float]], slots: list[int]) -> list[list[float]]:
    """The two priors mixed slot by slot in proportion to how well each foretold the army's own
    evidence ``own`` on ``slots`` (the posterior of "deploys like its teammate" from even odds):
    an army laid out differently soon falls back to ``prior``."""
    llr = 0.0
    for s in slots:
        llr += math.log(max(_foretold(shared[s], own[s]), 1e-300)) - math.log(max(_foretold(prior[s], own[s]), 1e-300))
    share = 1.0 / (1.0 + math.exp(-min(max(llr, -50.0), 50.0)))
    out: list[list[float]] = []
    for a, b in zip(prior, shared):
        ta, tb = sum(a), sum(b)
        out.append([(1.0 - share) * x / ta + share * y / tb if ta > 0 and tb > 0 else x for x, y in zip(a, b)])
    return out


def _foretold(row: list[float], seen: list[float]) -> float:
    total = sum(row)
    return sum(w * x for w, x in zip(row, seen)) / total if total > 0 else 0.0


class Beliefs:
    """Kind masks of every piece, seen from seat ``me`` (its own pieces are known exactly)."""

    def __init__(self, board: Board, me: int, joint: bool = True) -> None:
        self.board: Board = board
        self.me: int = me
        self.joint: bool = joint
        self.mask: list[int] = [0] * board.size
        self.hidden: list[bool] = [False] * board.size
        self.dead: list[list[int]] = [[0] * KINDS for _ in range(board.seats)]
        # Expected losses per kind, an unknown victim spread over the kinds it may have been.
        self.lost: list[list[float]] = [[0.0] * KINDS for _ in range(board.seats)]
        self.flag_at: list[int] = [-1] * board.seats
        # Every unary fact (tag, mask) in order, to rebuild from after a contradiction.
        self.facts: list[tuple[int, int]] = []
        # Fights between two pieces both hidden from us: (attacker tag, defender tag, result).
        self.pairs: list[tuple[int, int, int]] = []
        # Tags that died in the last move and what they may not be unless an event says so.
        self.pending: list[tuple[int, int]] = []
        self.contradictions: list[str] = []
        self.cache: dict[int, tuple[list[int], dict[int, list[float]]]] = {}
        self.weight_cache: dict[int, tuple[list[int], Optional[Behaviour], list[list[float]]]] = {}
        self.settled: dict[int, list[int]] = {}
        # Prior weight of each kind by home slot (flat, or deployment habits: :func:`lineups.habits`).
        self.prior: list[list[float]] = [[1.0] * KINDS for _ in range(HOME)]
        # What each piece did, for the behaviour model: its moves, its attacks, and how many of
        # its owner's moves it could have been the one to move before it first was.
        self.moved: list[int] = [0] * board.size
        self.attacks: list[int] = [0] * board.size
        self.waited: list[int] = [0] * board.size
        self.model: Optional[Behaviour] = BEHAVIOUR[board.variant]

    def start(self, pos: Pieces) -> None:
        b = self.board
        for p in range(b.size):
            if pos.owner[p] < 0:
                continue
            if pos.kind[p] >= 0:
                self.mask[p] = 1 << pos.kind[p]
                continue
            self.hidden[p] = True
            self.mask[p] = start_mask(b, p)

    def of(self, pos: Pieces, p: int) -> int:
        return self.mask[pos.tag[p]] if pos.tag[p] >= 0 else 0

    def _restrict(self, tag: int, mask: int) -> None:
        self.facts.append((tag, mask))
        self.mask[tag] &= mask

    def before_move(self, pos: Pieces, frm: int, to: int, result: int) -> None:
        """Learn from a move about to be applied to ``pos``."""
        self.settle(pos)
        ta = pos.tag[frm]
        self._count(pos, frm, to, result)
        self._restrict(ta, ALL & ~((1 << MINE) | (1 << FLAG)))
        if result == MOVE or result == EAT:
            if self.board.station[frm] and self.board.station[to] and needs_engineer(self.board, pos.owner, pos.kind, frm, to):
                self._restrict(ta, 1 << ENGINEER)
        if pos.owner[to] < 0:
            return
        td = pos.tag[to]
        a, d = _beats(self.mask[ta], self.mask[td], result)
        self._restrict(ta, a)
        self._restrict(td, d)
        if self.hidden[ta] and self.hidden[td]:
            self.pairs.append((ta, td, result))
        if result in (KILLED, BOTH):
            self._died(pos.owner[frm], a)
            self.pending.append((ta, 1 << MARSHAL))
        if result in (EAT, BOTH):
            self._died(pos.owner[to], d)
            self.pending.append((td, (1 << MARSHAL) | (1 << FLAG)))

    def _count(self, pos: Pieces, frm: int, to: int, result: int) -> None:
        for t in self.tags(pos.owner[frm]):
            if not self.moved[t] and pos.tag[t] == t and _free(self.board, pos, t):
                self.waited[t] += 1
        ta = pos.tag[frm]
        self.moved[ta] += 1
        if pos.owner[to] >= 0:
            self.attacks[ta] += 1

    def weights(self, seat: int) -> list[list[float]]:
        """Each of ``seat``'s pieces' weight per kind before the counts: the deployment prior of
        its home slot times the behaviour model's likelihood of what it did (cached: every
        deployment drawn during a move uses them)."""
        key = self.state(seat)
        cached = self.weight_cache.get(seat)
        if cached is None or cached[0] != key or cached[1] is not self.model:
            cached = (key, self.model, self.weights_with(seat, self.prior, self.model))
            self.weight_cache[seat] = cached
        return cached[2]

    def weights_with(self, seat: int, prior: list[list[float]], model: Optional[Behaviour], learn: bool = True) -> list[list[float]]:
        """``weights`` with a given deployment prior and behaviour model (``learn``: the prior
        updated by the lineups of the army's hidden teammates, :meth:`learned`)."""
        tags = self.tags(seat)
        if model is None:
            return [prior[t % HOME] for t in tags]
        rows = self.conduct(seat, model)
        if learn:
            prior = self.learned(seat, prior, model, rows)
        return [[w * f for w, f in zip(prior[t % HOME], row)] for t, row in zip(tags, rows)]

    def conduct(self, seat: int, model: Behaviour) -> list[list[float]]:
        """Per piece of ``seat``, the likelihood of each kind given what it did: the behaviour
        model, and for a piece that attacked one hidden from us, the share of its victim's possible
        kinds that give the result. (The victim is not weighed so: who gets attacked is chosen by
        the attacker, engineers going for the still pieces at the back, not drawn by counts.)"""
        tags = self.tags(seat)
        rows = [model.likelihood(self.moved[t], self.attacks[t], self.waited[t]) for t in tags]
        index = {t: i for i, t in enumerate(tags)}
        for ta, td, result in self.pairs:
            if ta in index:
                _weigh_by_fight(rows[index[ta]], self.mask[td], lambda k, d: combat(k, d) == result)  # noqa: B023 - called at once
        return rows

    def evidence(self, seat: int, conduct: list[list[float]]) -> list[list[float]]:
        """Per home slot of ``seat``, how well each kind explains everything seen of the piece
        that stood there (its mask and its ``conduct``, :meth:`conduct`), the likeliest at 1."""
        out = [[0.0] * KINDS for _ in range(HOME)]
        for t, row in zip(self.tags(seat), conduct):
            kept = [x if self.mask[t] >> k & 1 else 0.0 for k, x in enumerate(row)]
            top = max(kept)
            out[t % HOME] = [x / top for x in kept] if top > 0 else kept
        return out

    def mates(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s team whose pieces are hidden from us."""
        b = self.board
        return [s for s in range(b.seats) if s not in (seat, self.me) and b.team(s) == b.team(seat)
                and any(self.hidden[t] for t in self.tags(s))]

    def learned(self, seat: int, prior: list[list[float]], model: Behaviour, conduct: list[list[float]]) -> list[list[float]]:
        """``prior`` for ``seat``'s army (whose :meth:`conduct` is ``conduct``) after what its hidden
        teammates' armies showed: both seats of a team are usually one program, which may deploy
        alike (:func:`shared_lineup`), so the lineup seen on one is weighed in on the other, as far
        as the army's own evidence agrees."""
        mates = self.mates(seat)
        if not mates:
            return prior
        shared = prior
        for s in mates:
            shared = shared_lineup(shared, self.evidence(s, self.conduct(s, model)))
        return blend(prior, shared, self.evidence(seat, conduct), [t % HOME for t in self.tags(seat)])

    def state(self, seat: int) -> list[int]:
        """Everything the kind probabilities of ``seat``'s army depend on, to cache them by."""
        out = [len(self.pairs)]
        for s in [seat] + self.mates(seat):
            tags = self.tags(s)
            out += [self.mask[t] for t in tags] + [self.moved[t] for t in tags] + [self.waited[t] for t in tags]
        return out

    def settle(self, pos: Pieces) -> None:
        """Close the last move: a death not announced as a 司令 (or a flag) was none."""
        for tag, never in self.pending:
            if self.mask[tag] & ~never:
                self._restrict(tag, ALL & ~never)
        self.pending = []
        self._joint(pos)

    def _died(self, seat: int, mask: int) -> None:
        if mask and mask & (mask - 1) == 0:
            self.dead[seat][mask.bit_length() - 1] += 1
        left = self.left(seat)
        kinds = kinds_of(mask)
        total = sum(left[k] for k in kinds)
        for k in kinds:
            self.lost[seat][k] += left[k] / total if total > 0 else 1.0 / len(kinds)

    def left(self, seat: int) -> list[float]:
        """How many of each kind ``seat`` probably still has (never below a trace, for weighting)."""
        return [max(0.05, COUNTS[k] - self.lost[seat][k]) for k in range(KINDS)]

    def marshal_died(self, pos: Pieces, seat: int, square: int) -> None:
        """A 司令 of ``seat`` died (it is already off ``pos``); its flag stands on ``square``."""
        for i, (tag, never) in enumerate(self.pending):
            if self.board.seat_of[tag] == seat and self.mask[tag] & (1 << MARSHAL):
                self._restrict(tag, 1 << MARSHAL)
                self.pending[i] = (tag, 0)
                break
        if self.dead[seat][MARSHAL] == 0:
            self.dead[seat][MARSHAL] = 1
            self.lost[seat][MARSHAL] = 1.0
        self.flag_at[seat] = square
        for p in range(self.board.size):
            if pos.owner[p] == seat:
                t = pos.tag[p]
                self._restrict(t, ~(1 << MARSHAL))
                self._restrict(t, 1 << FLAG if p == square else ALL & ~(1 << FLAG))

    def flag_taken(self, seat: int) -> None:
        """``seat``'s flag was captured: the defender of the last move was it."""
        for i, (tag, never) in enumerate(self.pending):
            if self.board.seat_of[tag] == seat and self.mask[tag] & (1 << FLAG):
                self._restrict(tag, 1 << FLAG)
                self.pending[i] = (tag, 0)

    def armies(self, pos: Pieces) -> list[int]:
        """Seats still in play that hide pieces from us."""
        on = [False] * self.board.seats
        for p in range(self.board.size):
            if pos.owner[p] >= 0 and self.hidden[pos.tag[p]]:
                on[pos.owner[p]] = True
        return [s for s in range(self.board.seats) if on[s]]

    def tags(self, seat: int) -> list[int]:
        """The starting points of ``seat``'s 25 pieces."""
        return [p for p in range(seat * HOME, seat * HOME + HOME) if not self.board.camp[p]]

    def _joint(self, pos: Pieces) -> None:
        if not self.joint:
            self.apply_counts(pos)
            return
        for seat in self.armies(pos):
            tags = self.tags(seat)
            before = [self.mask[t] for t in tags]
            if self.settled.get(seat) == before:
                continue
            got = feasible_masks([self.mask[t] for t in tags], list(COUNTS))
            if got is None:
                got = self._recover(seat, tags)
            for t, m in zip(tags, got):
                self.mask[t] = m
            self.settled[seat] = got

    def _recover(self, seat: int, tags: list[int]) -> list[int]:
        """Rebuild ``seat``'s masks from its facts in order, skipping any that leaves no deployment."""
        note = f"beliefs: seat {self.board.letters[seat]}: the events contradict each other; rebuilding from the facts that fit"
        self.contradictions.append(note)
        sys.stderr.write(note + "\n")
        masks = {t: start_mask(self.board, t) for t in tags}
        for tag, m in self.facts:
            if tag not in masks:
                continue
            trial = dict(masks)
            trial[tag] &= m
            if feasible_masks([trial[t] for t in tags], list(COUNTS)) is not None:
                masks = trial
        got = feasible_masks([masks[t] for t in tags], list(COUNTS))
        return got if got is not None else [masks[t] for t in tags]

    def apply_counts(self, pos: Pieces) -> None:
        """The per-kind strike: a fully accounted-for kind leaves the other pieces of its owner.

        Only deaths of pinned-down pieces are counted, so the count of a kind still alive can only
        be overestimated and striking it is always sound."""
        for seat in range(self.board.seats):
            pieces = [pos.tag[p] for p in range(self.board.size) if pos.owner[p] == seat]
            # A player in the game still has its flag, so a lone candidate is the flag.
            flags = [t for t in pieces if self.mask[t] & (1 << FLAG)]
            if len(flags) == 1:
                self.mask[flags[0]] = 1 << FLAG
            changed = True
            while changed:
                changed = False
                for k in range(KINDS):
                    bit = 1 << k
                    pinned = sum(1 for t in pieces if self.mask[t] == bit)
                    if pinned + self.dead[seat][k] >= COUNTS[k]:
                        for t in pieces:
                            if self.mask[t] != bit and self.mask[t] & bit and self.mask[t] & ~bit:
                                self.mask[t] &= ~bit
                                changed = True

    def marginals(self, seat: int) -> dict[int, list[float]]:
        """Balanced kind probabilities of every piece of ``seat`` (dead ones included), cached
        until the masks or the pieces' conduct change."""
        tags = self.tags(seat)
        key = self.state(seat)
        cached = self.cache.get(seat)
        if cached is None or cached[0] != key:
            rows = balance([self.mask[t] for t in tags], list(COUNTS), self.weights(seat))
            cached = (key, dict(zip(tags, rows)))
            self.cache[seat] = cached
        return cached[1]

    def probabilities(self, seat: int, tag: int) -> list[float]:
        """Kind probabilities of one piece from the mask alone: in proportion to what its owner
        probably has left (the yardstick the sampled deployments are measured against)."""
        left = self.left(seat)
        kinds = kinds_of(self.mask[tag])
        total = sum(left[k] for k in kinds)
        out = [0.0] * KINDS
        for k in kinds:
            out[k] = left[k] / total
        return out


def balance(masks: list[int], counts: list[int], prior: list[list[float]]) -> list[list[float]]:
    """Per piece a distribution over its kinds whose column sums approach the counts (iterative
    proportional fitting from ``prior``): a smooth stand-in for the marginals of a uniform draw
    among complete deployments. A kind in a mask keeps a positive share.

    >>> [[round(x, 2) for x in row[:3]] for row in balance([0b011, 0b111, 0b111], [1, 1, 1], [[1.0] * 12] * 3)]
    [[0.5, 0.5, 0.0], [0.25, 0.25, 0.5], [0.25, 0.25, 0.5]]
    """
    rows = [[prior[t][k] if m >> k & 1 else 0.0 for k in range(KINDS)] for t, m in enumerate(masks)]
    for _ in range(BALANCE_ROUNDS):
        rows = [[x / total for x in row] if (total := sum(row)) > 0 else row for row in rows]
        cols = [sum(col) for col in zip(*rows)]
        scale = [counts[k] / cols[k] if cols[k] > 0 else 1.0 for k in range(KINDS)]
        rows = [[x * f for x, f in zip(row, scale)] for row in rows]
    for row in rows:
        total = sum(row)
        for k in range(KINDS):
            row[k] = row[k] / total if total > 0 else 0.0
    return rows


class Deployments:
    """A set of whole deployments of every hidden army, each consistent with everything seen.

    Samples that an event contradicts are dropped and new ones drawn (:meth:`refresh`); the
    search plays each sample out as one world."""

    def __init__(self, beliefs: Beliefs, rng: random.Random, count: int = 24) -> None:
        self.beliefs: Beliefs = beliefs
        self.rng: random.Random = rng
        self.count: int = count
        self.samples: list[list[int]] = []

    def consistent(self, sample: list[int], seats: list[int]) -> bool:
        b = self.beliefs
        for seat in seats:
            for t in b.tags(seat):
                if not b.mask[t] >> sample[t] & 1:
                    return False
        for ta, td, result in b.pairs:
            if sample[ta] >= 0 and sample[td] >= 0 and combat(sample[ta], sample[td]) != result:
                return False
        return True

    def refresh(self, pos: Pieces, tries: int = 4, until: float = 0.0) -> None:
        """Drop the samples events have ruled out and draw new ones up to :attr:`count`; with
        ``until`` (a ``time.perf_counter()`` time), stop drawing then once there is one sample.
        The last tries ignore the fights between hidden pieces, whose joint outcomes can make
        drawing slow."""
        seats = self.beliefs.armies(pos)
        self.samples = [s for s in self.samples if self.consistent(s, seats)]
        budget = self.count * tries
        while len(self.samples) < self.count and budget > 0:
            if until and self.samples and time.perf_counter() >= until:
                return
            budget -= 1
            got = self.draw(seats, budget > self.count)
            if got is not None:
                self.samples.append(got)

    def draw(self, seats: list[int], with_pairs: bool = True) -> Optional[list[int]]:
        """One deployment of ``seats``' armies (kind per starting point, -1 elsewhere), armies in
        random order so a fight between two hidden armies constrains the one drawn second."""
        b = self.beliefs
        sample = [-1] * b.board.size
        order = list(seats)
        self.rng.shuffle(order)
        for seat in order:
            tags = b.tags(seat)
            masks = [b.mask[t] & self._paired(sample, t) if with_pairs else b.mask[t] for t in tags]
            got = sample_army(masks, list(COUNTS), b.weights(seat), self.rng)
            if got is None:
                return None
            for t, k in zip(tags, got):
                sample[t] = k
        return sample

    def _paired(self, sample: list[int], tag: int) -> int:
        """Kinds ``tag`` may be given the kinds already drawn for the pieces it fought."""
        allowed = ALL
        for ta, td, result in self.beliefs.pairs:
            if ta == tag and sample[td] >= 0:
                allowed &= sum(1 << k for k in range(KINDS) if combat(k, sample[td]) == result)
            elif td == tag and sample[ta] >= 0:
                allowed &= sum(1 << k for k in range(KINDS) if combat(sample[ta], k) == result)
        return allowed

    def probabilities(self, seat: int, tag: int) -> list[float]:
        """Kind probabilities of one piece: the army's balanced marginals, positive for every kind
        still possible. (The frequencies of the few dozen samples a move can afford scored worse:
        2.14 nats against 2.07 on the same records.)"""
        return self.beliefs.marginals(seat)[tag]


# Rates of `events` players per variant, measured on 40 two-player and 15 four-player dark games
# with dealt strong-style lineups (`sanqi bench junqi --fit-behaviour --seed 2`): a hazard per move
# of its owner on which the piece could have stepped somewhere; the temper and the share of pieces
# held back whatever their kind were chosen on other games (--seed 3) of both lineup styles, not on
# the benchmark's (--seed 1). Order: 司令 军长 师长 旅长 团长 营长 连长 排长 工兵 地雷 炸弹 军旗.
# Rates fitted on strong play (`tests/tools/junqi_behaviour.py`) read pfysw's pieces 0.017 nats
# better on held-out games but scored 1.5/8 against pfysw on 29 November 2026 (docs/results/junqi.md),
# so the four-player rates are still `events`'.
BEHAVIOUR: Final = {
    "2p": Behaviour(hazard=[0.1343, 0.0921, 0.0575, 0.0574, 0.0523, 0.0482, 0.0604, 0.0511, 0.0418, 0.0, 0.0319, 0.0],
                    attack_share=[0.604, 0.352, 0.374, 0.236, 0.087, 0.095, 0.073, 0.062, 0.196, 0.0, 0.202, 0.0],
                    temper=0.5, sleepers=0.3),
    "4p": Behaviour(hazard=[0.0917, 0.1022, 0.046, 0.0377, 0.0492, 0.0505, 0.0517, 0.0533, 0.0367, 0.0, 0.0197, 0.0],
                    attack_share=[0.717, 0.582, 0.467, 0.274, 0.047, 0.028, 0.036, 0.038, 0.238, 0.0, 0.153, 0.0],
                    temper=0.5, sleepers=0.3),
}
