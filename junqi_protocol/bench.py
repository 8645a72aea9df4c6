"""``sanqi bench junqi``: search speed and the quality of the beliefs about hidden pieces.

* speed: the ``search`` player's determinized search on fixed positions (dealt lineups, seeded),
  nodes per second of the core's search inside it;
* beliefs: ``--games`` dark-information games per variant are played in process (``events`` in
  every seat, strong-style lineups dealt, seeded), then followed from every seat's view; at every
  step every hidden piece's true kind is scored by the average log-loss (nats) of five methods
  computed side by side: a count prior (kind counts within the deployment rules), the seed's
  min/max rank interval, the per-piece masks with per-kind counts, and ours (joint masks and
  balanced marginals) with a flat prior and with the deployment-habits prior
  (:func:`junqi_protocol.lineups.habits`; the dealt lineups come from the same generator, so
  that figure is what knowing an opponent's habits is worth, not a figure for any opponent;
  ``--own-lineups`` gives the games ``events``' own fixed lineup instead), each without and with
  the behaviour model (:data:`junqi_protocol.beliefs.BEHAVIOUR`), and last what the player uses:
  habits and behaviour with the prior updated by the lineup of the army's hidden teammate
  (:meth:`junqi_protocol.beliefs.Beliefs.learned`; four players only). Any true kind excluded or
  given probability zero is counted and shown;
* the beliefs' cost: per step of the same records from one seat's view, the time to take in the
  events and to draw one whole deployment, without and with the behaviour model.
"""

import argparse
import io
import math
import random
import time
from typing import Any, Optional

from junqi_protocol.beliefs import BEHAVIOUR, Behaviour, Beliefs, Deployments, balance, kinds_of, start_mask
from junqi_protocol.board import Board
from junqi_protocol.player import Player
from junqi_protocol.game import Rules
from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.lineups import deals, habits
from junqi_protocol.record import Recorder, read_games
from junqi_protocol.runner import Referee
from junqi_protocol.replays import follow, true_kinds
from junqi_protocol.worlds import WORLDS
from junqi_protocol.rules import COUNTS

JOINT = ("flat prior", "flat + behaviour", "habits prior", "habits + behaviour", "habits + behaviour + team lineup")
METHODS = ("count prior", "min/max ranks", "masks + counts") + tuple("joint, " + name for name in JOINT)
UNBOUNDED_MS = 10 ** 9  # the time a fixed-depth search is given: it ends by its depth
FLOOR = 1e-6  # a method that gives the true kind 0 is charged log(1/FLOOR), and counted


def first_move(variant: str, n: int, ms: int, depth: int = 0) -> tuple[Optional[tuple[int, int]], int, int, int]:
    """The ``search`` player's first move in the ``n``-th dealt game (seeded), thinking ``ms`` or, with
    ``depth``, to that depth whatever it takes (one thread: the same move and nodes every run, compiled
    or not). Returns the move, the nodes, the depth reached and the milliseconds spent."""
    player = Player("search", n)
    player.new_game(variant, 0, Rules(variant))
    player.lineup(deals(1, Board(variant).seats, 100 + n)[0][0])
    player.begin({})
    if depth:
        player.planner.max_depth = depth
    t = time.perf_counter()
    move = player.planner.choose(player.pos, 0, player.alive, 0, player.rules, player.deployments,
                                 UNBOUNDED_MS if depth else ms, player.rng)
    spent = int((time.perf_counter() - t) * 1000)
    return move, player.planner.nodes, player.planner.depth, spent


def bench_speed(variant: str, ms: int, positions: int, depth: int = 0) -> int:
    """Search the first move of ``positions`` dealt games for ``ms`` each, or with ``depth`` to that
    depth whatever it takes (one thread, seeded: the same nodes every run)."""
    nodes = 0
    spent = 0
    depths: list[int] = []
    for n in range(positions):
        _, searched, reached, ms_spent = first_move(variant, n, ms, depth)
        nodes += searched
        spent += ms_spent
        depths.append(reached)
    print(f"speed {variant}: {nodes} nodes in {spent} ms over {positions} opening positions: "
          f"{nodes * 1000 // max(1, spent)} nodes/s; root passes reached depth {depths}")
    return nodes


def minmax_mask(mask: int) -> int:
    """The seed's interval: every soldier rank between the strongest and weakest still possible,
    plus the non-soldier kinds the mask allows."""
    soldiers = mask & ((1 << 9) - 1)
    if not soldiers:
        return mask
    lo = (soldiers & -soldiers).bit_length() - 1
    hi = soldiers.bit_length() - 1
    return sum(1 << k for k in range(lo, hi + 1)) | (mask & ~((1 << 9) - 1))


def weighted(mask: int, weights: list[float]) -> list[float]:
    kinds = kinds_of(mask)
    total = sum(weights[k] for k in kinds)
    out = [0.0] * 12
    for k in kinds:
        out[k] = weights[k] / total if total > 0 else 0.0
    return out


class Balanced:
    """Kind probabilities from a view's joint masks with a given prior and behaviour model,
    cached per army until its state changes (several of them share one replay)."""

    def __init__(self, prior: list[list[float]], model: Optional[Behaviour], learn: bool = False) -> None:
        self.prior: list[list[float]] = prior
        self.model: Optional[Behaviour] = model
        self.learn: bool = learn
        self.cache: dict[int, tuple[list[int], dict[int, list[float]]]] = {}

    def of(self, beliefs: Beliefs, seat: int) -> dict[int, list[float]]:
        key = beliefs.state(seat)
        cached = self.cache.get(seat)
        if cached is None or cached[0] != key:
            tags = beliefs.tags(seat)
            rows = balance([beliefs.mask[t] for t in tags], list(COUNTS), beliefs.weights_with(seat, self.prior, self.model, self.learn))
            cached = (key, dict(zip(tags, rows)))
            self.cache[seat] = cached
        return cached[1]


def record_games(variant: str, games: int, seed: int, dealt: bool) -> str:
    board = Board(variant)
    buf = io.StringIO()
    ref = Referee(variant, "info=dark", Recorder(buf), 600_000, 10_000)
    if dealt:
        ref.deals = deals(games, board.seats, seed)
    for g in range(1, games + 1):
        ref.play(g, [BuiltinSeat("events", seed * 1000 + g * 10 + s) for s in range(board.seats)])
    return buf.getvalue()


def bench_beliefs(variant: str, games: int, seed: int, dealt: bool) -> None:
    board = Board(variant)
    t = time.perf_counter()
    records = read_games(record_games(variant, games, seed, dealt).splitlines())
    loss = [0.0] * len(METHODS)
    zero = [0] * len(METHODS)
    excluded = 0
    checks = 0
    known = 0
    for lines in records:
        truth = true_kinds(board, lines)
        for seat in range(board.seats):
            # The per-kind count method and ours follow the same events side by side.
            old = follow(lines, seat, joint=False)
            model = BEHAVIOUR[variant]
            joint = [Balanced(prior, m) for prior in ([[1.0] * 12 for _ in range(30)], habits()) for m in (None, model)]
            joint.append(Balanced(habits(), model, True))
            for (ours, _), (theirs, _) in zip(follow(lines, seat), old):
                for p in range(board.size):
                    tag = ours.pos.tag[p]
                    owner = ours.pos.owner[p]
                    if owner < 0 or not ours.beliefs.hidden[tag]:
                        continue
                    k = truth[tag]
                    left = theirs.beliefs.left(owner)
                    got = [weighted(start_mask(board, tag), [float(c) for c in COUNTS]),
                           weighted(minmax_mask(theirs.beliefs.mask[tag]), left),
                           theirs.beliefs.probabilities(owner, tag)] + [j.of(ours.beliefs, owner)[tag] for j in joint]
                    for i, probs in enumerate(got):
                        if probs[k] <= 0:
                            zero[i] += 1
                        loss[i] -= math.log(max(probs[k], FLOOR))
                    excluded += not ours.beliefs.mask[tag] >> k & 1
                    known += ours.beliefs.mask[tag] == 1 << k
                    checks += 1
    spent = time.perf_counter() - t
    shown = ", ".join(f"{name} {loss[i] / max(1, checks):.3f}" + (f" ({zero[i]} zero)" if zero[i] else "")
                      for i, name in enumerate(METHODS))
    print(f"beliefs {variant}: {len(records)} dark games ({'strong-style lineups dealt' if dealt else 'events lineups'}), {checks} checks of a hidden piece's true kind in {spent:.0f}s; "
          f"true kind excluded {excluded} times; known exactly {100 * known / max(1, checks):.1f} %")
    print(f"beliefs {variant}: average log-loss (nats): {shown}")
    bench_cost(records[:5])


def bench_cost(records: list[list[dict[str, Any]]]) -> None:
    """CPU milliseconds per step, from seat S's view of ``records``: taking in the events (the
    behaviour model's counts included), and bringing a set of sampled deployments up to date as
    the search does before every move, without and with the behaviour model. CPU time, because
    the wall clock of a shared machine mostly measures the others. No records (``--games 0``), no figure."""
    if not records:
        return
    update = 0.0
    model = BEHAVIOUR[records[0][0]["variant"]]
    sampling = {None: 0.0, model: 0.0}
    steps = 0
    for lines in records:
        replay = follow(lines, 0)
        worlds: dict[Optional[Behaviour], Deployments] = {}
        while True:
            t = time.process_time()
            got = next(replay, None)
            update += time.process_time() - t
            if got is None:
                break
            beliefs = got[0].beliefs
            for used in sampling:
                beliefs.model = used
                deployments = worlds.setdefault(used, Deployments(beliefs, random.Random(steps), WORLDS))
                t = time.process_time()
                deployments.refresh(got[0].pos)
                sampling[used] += time.process_time() - t
            steps += 1
    ms = {used: f"{1000 * spent / max(1, steps):.2f} ms" for used, spent in sampling.items()}
    print(f"beliefs cost: {1000 * update / max(1, steps):.2f} ms CPU per step taking in the events; keeping {WORLDS} "
          f"sampled deployments up to date {ms[None]} per step without the behaviour model, {ms[model]} with it "
          f"({steps} steps)")


def fit_behaviour(variant: str, games: int, seed: int) -> None:
    """The behaviour model's rates as measured on dealt dark games of ``events`` players: per kind,
    first moves per move its owner made while the piece could have moved, and attacks per move."""
    board = Board(variant)
    first = [0] * 12
    waited = [0] * 12
    moves = [0] * 12
    attacks = [0] * 12
    for lines in read_games(record_games(variant, games, seed, True).splitlines()):
        truth = true_kinds(board, lines)
        beliefs = [player.beliefs for player, _ in follow(lines, 0)][-1]
        for t, k in enumerate(truth):
            if k < 0:
                continue
            moves[k] += beliefs.moved[t]
            attacks[k] += beliefs.attacks[t]
            first[k] += beliefs.moved[t] > 0
            waited[k] += beliefs.waited[t]
    print(f"behaviour {variant} ({games} games, --seed {seed}): hazard {[round(f / max(1, w), 4) for f, w in zip(first, waited)]}")
    print(f"behaviour {variant}: attack_share {[round(a / max(1, m), 3) for a, m in zip(attacks, moves)]}")


def run(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="sanqi bench junqi", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=10, help="dark games per variant for the belief figures")
    p.add_argument("--ms", type=int, default=300, help="search time per position")
    p.add_argument("--depth", type=int, default=0,
                   help="search each position to this depth instead, whatever the time: a fixed tree, so the last line is a fingerprint")
    p.add_argument("--positions", type=int, default=4, help="positions per variant for the speed figure")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", choices=("2p", "4p", "both"), default="both")
    p.add_argument("--own-lineups", action="store_true",
                   help="belief games with events' own fixed lineup instead of dealt strong-style ones")
    p.add_argument("--fit-behaviour", action="store_true",
                   help="print the behaviour model's rates measured on --games dealt games instead")
    opts = p.parse_args(argv)
    variants = ["2p", "4p"] if opts.variant == "both" else [opts.variant]
    nodes = 0  # the last line of every game's bench: with --depth, its fingerprint
    if opts.fit_behaviour:
        for v in variants:
            fit_behaviour(v, opts.games, opts.seed)
        print(f"Nodes searched: {nodes}")
        return 0
    for v in variants:
        nodes += bench_speed(v, opts.ms, opts.positions, opts.depth)
    for v in variants:
        bench_beliefs(v, opts.games, opts.seed, not opts.own_lineups)
    print(f"Nodes searched: {nodes}")
    return 0
