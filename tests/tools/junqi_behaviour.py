"""The behaviour model's rates measured on strong play, and how well they foretell it: a read-only
study of four-player match records (``sanqi referee --record``) in which every army is recorded.

* ``fit``: per kind, the hazard of a piece's first move (first moves per move of its owner on
  which it could have stepped somewhere) and the share of its moves that were attacks, counted on
  the training games (all but every ``--hold``-th), per owner (pfysw, sanqi) and pooled; printed as
  :class:`junqi_protocol.beliefs.Behaviour` arguments;
* ``loss``: on the held-out games, every seat's beliefs followed step by step (every ``--every``-th
  step) with the deployment-habits prior and the teammate's lineup, as the engine has them; every
  hidden piece's true kind scored by its log-loss (nats) with the shipped rates
  (:data:`junqi_protocol.beliefs.BEHAVIOUR`) and with each fitted set, split by the piece's owner;
* ``chase``: every step of a hidden enemy piece onto a point beside the viewer's own 司令 or 军长
  (not an attack), split by whether that big piece was *shown* (the mover's owner's own beliefs
  pinned it to 司令, 军长 or 师长): what the viewer's beliefs then gave the mover for being a bomb
  or at least our piece's equal (with each model, on the held-out games; ``--chase``: with the
  shipped rates on every game), against what it was.

    python tests/tools/junqi_behaviour.py [--hold 4] [--every 6] RECORD.jsonl [RECORD.jsonl ...]
"""

import argparse
import math
from typing import Any, Iterator, NamedTuple

from junqi_protocol.beliefs import BEHAVIOUR, KINDS, Behaviour, Beliefs, balance
from junqi_protocol.board import Board
from junqi_protocol.lineups import habits
from junqi_protocol.player import Player
from junqi_protocol.record import read_games
from junqi_protocol.replays import follow, true_kinds
from junqi_protocol.rules import BOMB, COUNTS, DIVISION, EAT, GENERAL, MARSHAL, combat

OWNERS = ("pfysw", "sanqi", "events")
FLOOR = 1e-6
SHOWN = (1 << MARSHAL) | (1 << GENERAL) | (1 << DIVISION)
BIG = (MARSHAL, GENERAL, DIVISION)
SHORT = "司军师"


def owner(name: str) -> str:
    return "pfysw" if "pfysw" in name else "events" if "events" in name else "sanqi"


def games(paths: list[str]) -> list[list[dict[str, Any]]]:
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            out += [g for g in read_games(f.read().splitlines()) if g[-1].get("result") not in (None, "none")]
    return out


def views(lines: list[dict[str, Any]], seat: int) -> Iterator[Player]:
    for player, _ in follow(lines, seat, prior=habits()):
        yield player


class Blind(NamedTuple):
    """A blind attack by our big piece: the defender's owner, our kind, each model's P(we lose it), and whether we did."""
    owner: str
    kind: int
    risk: dict[str, float]
    lost: bool


class Counts:
    """Per kind: first moves, the owner's moves the piece waited through, moves and attacks."""

    def __init__(self) -> None:
        self.first = [0] * KINDS
        self.waited = [0] * KINDS
        self.moves = [0] * KINDS
        self.attacks = [0] * KINDS

    def add(self, kind: int, beliefs: Beliefs, t: int) -> None:
        self.moves[kind] += beliefs.moved[t]
        self.attacks[kind] += beliefs.attacks[t]
        self.first[kind] += beliefs.moved[t] > 0
        self.waited[kind] += beliefs.waited[t]

    def model(self) -> Behaviour:
        """The rates, with the shipped temper and held-back share."""
        like = BEHAVIOUR["4p"]
        return Behaviour([round(f / w, 4) if w else 0.0 for f, w in zip(self.first, self.waited)],
                         [round(a / m, 3) if m else 0.0 for a, m in zip(self.attacks, self.moves)], like.temper, like.sleepers)


def fit(train: list[list[dict[str, Any]]]) -> dict[str, Counts]:
    """The counts per owner and pooled, each army's pieces as a seat of the other team saw them
    (the steps beside big pieces are counted against the big pieces that seat could see)."""
    counts = {name: Counts() for name in OWNERS + ("pooled",)}
    for lines in train:
        board = Board(lines[0]["variant"])
        truth = true_kinds(board, lines)
        seen = [list(views(lines, seat))[-1].beliefs for seat in (0, 1)]
        for t, k in enumerate(truth):
            if k >= 0:
                seat = board.seat_of[t]
                beliefs = seen[1 - board.team(seat)]
                who = owner(lines[0]["players"][board.letters[seat]])
                counts[who].add(k, beliefs, t)
                counts["pooled"].add(k, beliefs, t)
    return counts


def probs(beliefs: Beliefs, seat: int, model: Behaviour, cache: dict[Any, Any]) -> dict[int, list[float]]:
    key = (seat, id(model))
    state = beliefs.state(seat)
    got = cache.get(key)
    if got is None or got[0] != state:
        tags = beliefs.tags(seat)
        rows = balance([beliefs.mask[t] for t in tags], list(COUNTS), beliefs.weights_with(seat, habits(), model, True))
        got = (state, dict(zip(tags, rows)))
        cache[key] = got
    return got[1]


def loss(held: list[list[dict[str, Any]]], models: dict[str, Behaviour], every: int) -> tuple[dict[tuple[str, str], list[float]], list[Blind]]:
    """(owner, model name) -> [summed log-loss, checks], and every blind attack of a sanqi seat's
    司令, 军长 or 师 with the chance each model gave it of losing the piece."""
    out = {(o, m): [0.0, 0] for o in OWNERS for m in models}
    blind: list[Blind] = []
    for lines in held:
        board = Board(lines[0]["variant"])
        truth = true_kinds(board, lines)
        who = [owner(lines[0]["players"][letter]) for letter in board.letters]
        steps = [o for o in lines if o["type"] in ("start", "step")]
        for seat in range(board.seats):
            cache: dict[Any, Any] = {}
            replay = views(lines, seat)
            player = next(replay)
            for i, obj in enumerate(steps[1:]):
                pos, beliefs = player.pos, player.beliefs
                if i % every == 0:
                    for p in range(board.size):
                        o = pos.owner[p]
                        if o < 0 or not beliefs.hidden[pos.tag[p]]:
                            continue
                        for name, model in models.items():
                            q = probs(beliefs, o, model, cache)[pos.tag[p]][truth[pos.tag[p]]]
                            cell = out[(who[o], name)]
                            cell[0] -= math.log(max(q, FLOOR))
                            cell[1] += 1
                if obj.get("action") == "move" and who[seat] == "sanqi":
                    frm, _, to = obj["move"].partition("-")
                    f, t = board.point(frm), board.point(to)
                    kind, victim = pos.kind[f], pos.owner[t]
                    if pos.owner[f] == seat and kind in BIG and victim >= 0 and beliefs.mask[pos.tag[t]].bit_count() > 1:
                        risk = {name: sum(q for d, q in enumerate(probs(beliefs, victim, model, cache)[pos.tag[t]])
                                          if combat(kind, d) != EAT) for name, model in models.items()}
                        blind.append(Blind(who[victim], kind, risk, combat(kind, truth[pos.tag[t]]) != EAT))
                player = next(replay)
    return out, blind


class Chase(NamedTuple):
    """An enemy step beside our 司令 or 军长: the mover's owner, whether the mover's side had our
    piece pinned to 司令, 军长 or 师, each model's P(the mover is a bomb or at least ours), and whether it was."""
    owner: str
    shown: bool
    risk: dict[str, float]
    real: bool


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hold", type=int, default=4, help="every N-th game is held out (fit on the rest)")
    ap.add_argument("--every", type=int, default=6, help="score the beliefs every N-th step of a held-out game")
    ap.add_argument("--shard", default="0/1", help="K/N: score only the K-th of every N held-out games (to run N processes)")
    ap.add_argument("--no-chase", action="store_true", help="leave out the chase table")
    ap.add_argument("--chase", action="store_true", help="only the chase table")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    everything = games(args.records)
    train = [g for i, g in enumerate(everything) if i % args.hold != args.hold - 1]
    shard, shards = (int(x) for x in args.shard.split("/"))
    held = [g for i, g in enumerate(everything) if i % args.hold == args.hold - 1][shard::shards]
    print(f"{len(everything)} finished games: {len(train)} to fit, {len(held)} held out")
    if args.chase:
        chase_table(everything, {"shipped": BEHAVIOUR["4p"]})
        return
    counts = fit(train)
    models = {"shipped": BEHAVIOUR["4p"]}
    for name, c in counts.items():
        if not sum(c.moves):
            continue  # no such owner in these records
        m = models[name] = c.model()
        print(f"{name}: hazard={m.hazard},\n    attack_share={[round(math.exp(h), 3) for h in m.hit]}")
    got, blind = loss(held, models, args.every)
    print("\nheld-out log-loss of the true kind (nats), by the piece's owner")
    print("| owner | checks | " + " | ".join(models) + " |")
    print("|---|---|" + "---|" * len(models))
    for o in OWNERS:
        n = got[(o, "shipped")][1]
        if not n:
            continue
        print(f"| {o} | {n} | " + " | ".join(f"{got[(o, m)][0] / max(1, n):.4f}" for m in models) + " |")
    print("\nblind attacks by our 司令, 军长 and 师 on the held-out games: attacks, losses, and the losses each model predicted")
    print("| defender's owner | our piece | attacks | lost | " + " | ".join(models) + " |")
    print("|---|---|---|---|" + "---|" * len(models))
    for o in OWNERS:
        for kind in BIG:
            group = [b for b in blind if b.owner == o and b.kind == kind]
            print(f"| {o} | {SHORT[kind]} | {len(group)} | {sum(b.lost for b in group)} | "
                  + " | ".join(f"{sum(b.risk[m] for b in group):.1f}" for m in models) + " |")
    if not args.no_chase:
        chase_table(held, models)


def chases(lines: list[dict[str, Any]], models: dict[str, Behaviour], rows: list[Chase]) -> None:
    """Append a :class:`Chase` per step of an enemy piece beside our 司令 or 军长."""
    board = Board(lines[0]["variant"])
    truth = true_kinds(board, lines)
    who = [owner(lines[0]["players"][letter]) for letter in board.letters]
    steps = [o for o in lines if o["type"] in ("start", "step")]
    for seat in range(board.seats):
        enemies = [s for s in range(board.seats) if board.team(s) != board.team(seat)]
        followers = [views(lines, s) for s in [seat] + enemies]
        now = [next(f) for f in followers]
        cache: dict[Any, Any] = {}
        for obj in steps[1:]:
            pending = None
            if obj.get("action") == "move" and obj["events"][0].split()[-1] == "MOVE":
                frm, _, to = obj["move"].partition("-")
                f, t = board.point(frm), board.point(to)
                mover = now[0].pos.owner[f]
                if mover in enemies:
                    eye = now[1 + enemies.index(mover)].beliefs
                    ours = [(now[0].pos.kind[q], eye.mask[now[0].pos.tag[q]] & ~SHOWN == 0) for q in board.steps[t]
                            if now[0].pos.owner[q] == seat and now[0].pos.kind[q] in (MARSHAL, GENERAL)]
                    if ours:
                        pending = (mover, now[0].pos.tag[f], ours)
            now = [next(f) for f in followers]
            if pending is not None:
                mover, tag, ours = pending
                if now[0].beliefs.mask[tag].bit_count() < 2:
                    continue
                rows_now = {name: probs(now[0].beliefs, mover, model, cache)[tag] for name, model in models.items()}
                for kind, shown in ours:
                    rows.append(Chase(who[mover], shown, {name: row[BOMB] + sum(row[:kind + 1]) for name, row in rows_now.items()},
                                      truth[tag] == BOMB or truth[tag] <= kind))


def chase_table(games: list[list[dict[str, Any]]], models: dict[str, Behaviour]) -> None:
    rows: list[Chase] = []
    for lines in games:
        chases(lines, models, rows)
    print("\nenemy steps beside our 司令/军长 (not attacks): P(bomb or >= ours) believed after the step against the truth")
    print("| mover's owner | our piece shown | steps | real | " + " | ".join(models) + " |")
    print("|---|---|---|---|" + "---|" * len(models))
    for o in OWNERS:
        for shown in (True, False):
            group = [r for r in rows if r.owner == o and r.shown == shown]
            print(f"| {o} | {'yes' if shown else 'no'} | {len(group)} | {sum(r.real for r in group)} | "
                  + " | ".join(f"{sum(r.risk[m] for r in group):.1f}" for m in models) + " |")


if __name__ == "__main__":
    main()
