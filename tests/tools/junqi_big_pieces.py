"""Where our 司令 (marshal) and 军长 (general) attack blind and where they die, against what our
beliefs said at the time: a read-only study of match records (``sanqi referee --record``).

For every seat of the engine named by ``--us`` (a substring of the players' names), the game is
followed from that seat's view (``replays.follow`` with the engine's deployment prior,
``lineups.habits``, so the beliefs are those the engine had under the record's ``info`` rule), and:

* every attack by that seat's marshal or general on an enemy piece whose kind its beliefs had not
  pinned to one kind: the outcome (EAT, KILLED, BOMB, and whether the defender was a mine or a bomb),
  the ply, and the beliefs' P(bomb), P(mine) and P(stronger or equal) of that square just before;
  their sum is the predicted risk, which the table sets against what happened;
* every loss of that seat's marshal or general: on its own attack (blind or on a known kind), or to
  an enemy attack (with the attacker's believed P(bomb) and P(stronger or equal)).

    python tests/tools/junqi_big_pieces.py [--us sanqi] [--rows] RECORD.jsonl [RECORD.jsonl ...]
"""

import argparse
import itertools
from typing import Any, NamedTuple

from junqi_protocol.board import Board
from junqi_protocol.evaluate import VALUE
from junqi_protocol.lineups import habits
from junqi_protocol.record import read_games
from junqi_protocol.replays import follow, true_kinds
from junqi_protocol.game import Pieces
from junqi_protocol.rules import BOMB, ENGINEER, GENERAL, MARSHAL, MINE, targets

BIG = (MARSHAL, GENERAL)
ROUND = 4  # plies: every seat once (4p; two rounds in 2p)
NAMES = {MARSHAL: "marshal", GENERAL: "general"}
CAUSES = ("a blind attack of ours", "our attack on a known kind", "an enemy bomb's attack", "an enemy soldier's attack")
# Predicted-risk bins for the calibration table; the last bound is above any probability.
BINS = (0.0, 0.05, 0.10, 0.25, 0.50, 1.01)


class Attack(NamedTuple):
    game: int
    ply: int
    piece: int  # MARSHAL or GENERAL
    outcome: str  # EAT, KILLED, BOMB (the referee's word)
    defender: int  # the true kind
    bomb: float
    mine: float
    stronger: float  # P(the defender outranks or equals ours), soldiers only

    @property
    def risk(self) -> float:
        return self.bomb + self.mine + self.stronger

    @property
    def lost(self) -> bool:
        return self.outcome in ("KILLED", "BOMB")


class Exposure(NamedTuple):
    """An enemy piece, about to move, that could reach our marshal or general in one move."""
    piece: int
    threat: float  # the beliefs' P(bomb) + P(>= ours) of the enemy piece
    real: bool  # it was a bomb or a soldier >= ours
    attacked: bool  # it attacked our piece with that move


class Loss(NamedTuple):
    game: int
    ply: int
    piece: int
    cause: str  # one of CAUSES
    how: str
    risk: float  # the beliefs' risk of the move that lost it (-1: none rated, the kind was known)
    since: int  # plies since this piece last ate (-1: it never had)
    back: int  # the material of the enemy piece that went with ours (a trade, a bomb), else 0


def split(probs: list[float], piece: int) -> tuple[float, float, float]:
    """P(bomb), P(mine), P(a soldier that outranks or equals ``piece``)."""
    return probs[BOMB], probs[MINE], sum(probs[k] for k in range(piece + 1))


def exposures(board: Board, pos: Pieces, seat: int, mover: int) -> list[tuple[int, int]]:
    """(enemy point, our point): ``mover``'s pieces that could move onto ``seat``'s marshal or general
    now (a hidden piece taken to move as any non-engineer does; engineers' turns are left out)."""
    ours = [q for q in range(board.size) if pos.owner[q] == seat and pos.kind[q] in BIG]
    if not ours:
        return []
    kinds = [GENERAL if k < 0 else k for k in pos.kind]
    out = []
    for p in range(board.size):
        if pos.owner[p] == mover:
            reach = set(targets(board, pos.owner, kinds, p))
            out += [(p, q) for q in ours if q in reach]
    return out


class Study(NamedTuple):
    attacks: list[Attack]  # blind ones
    losses: list[Loss]
    exposed: list[Exposure]
    eats: list[tuple[int, int]]  # (our piece, the true kind it ate), blind or not


def attacks_and_losses(lines: list[dict[str, Any]], us: set[str], out: Study) -> None:
    head = lines[0]
    board = Board(head["variant"])
    truth = true_kinds(board, lines)
    steps = [o for o in lines if o["type"] in ("start", "step")]
    attacks, losses, exposed = out.attacks, out.losses, out.exposed
    for letter in sorted(us):
        seat = board.letters.index(letter)
        views = follow(lines, seat, prior=habits())
        player, _ = next(views)
        ate: dict[int, int] = {}  # our big pieces' tags: the ply they last ate on
        for obj in steps[1:]:
            if obj.get("action") == "move":
                frm, _, to = obj["move"].partition("-")
                f, t = board.point(frm), board.point(to)
                pos, beliefs = player.pos, player.beliefs
                result = obj["events"][0].split()[-1]
                mover, victim = pos.owner[f], pos.owner[t]
                if board.team(mover) != board.team(seat):
                    for p, q in exposures(board, pos, seat, mover):
                        tag = pos.tag[p]
                        if beliefs.mask[tag].bit_count() > 1:
                            b, _, s = split(beliefs.marginals(mover)[tag], pos.kind[q])
                            k = truth[tag]
                            exposed.append(Exposure(pos.kind[q], b + s, k == BOMB or k <= pos.kind[q], (p, q) == (f, t)))
                if mover == seat and pos.kind[f] in BIG and victim >= 0:
                    piece = pos.kind[f]
                    tag = pos.tag[t]
                    if result == "EAT":
                        ate[pos.tag[f]] = obj["ply"]
                        out.eats.append((piece, truth[tag]))
                    probs = beliefs.marginals(victim)[tag]
                    if beliefs.mask[tag].bit_count() > 1:
                        a = Attack(head["game"], obj["ply"], piece, result, truth[tag], *split(probs, piece))
                        attacks.append(a)
                        if a.lost:
                            losses.append(Loss(a.game, a.ply, piece, CAUSES[0], f"attacking a {_kind(a.defender)}: {result}",
                                               a.risk, -1, VALUE[a.defender] if result == "BOMB" else 0))
                    elif result in ("KILLED", "BOMB"):
                        losses.append(Loss(head["game"], obj["ply"], piece, CAUSES[1],
                                           f"attacking a known {_kind(truth[tag])}: {result}", -1.0, -1,
                                           VALUE[truth[tag]] if result == "BOMB" else 0))
                elif victim == seat and pos.kind[t] in BIG and result in ("EAT", "BOMB"):
                    piece = pos.kind[t]
                    since = obj["ply"] - ate[pos.tag[t]] if pos.tag[t] in ate else -1
                    tag = pos.tag[f]
                    b, _, s = split(beliefs.marginals(mover)[tag], piece)
                    losses.append(Loss(head["game"], obj["ply"], piece, CAUSES[2 if truth[tag] == BOMB else 3],
                                       f"attacked by a {_kind(truth[tag])} that had moved {beliefs.moved[tag]} times "
                                       f"(P(bomb) {b:.3f}): {result}", b + s, since,
                                       VALUE[truth[tag]] if result == "BOMB" else 0))
            player, _ = next(views)


def _kind(k: int) -> str:
    return NAMES.get(k, "bomb" if k == BOMB else "mine" if k == MINE else "flag" if k > MINE
                     else "engineer" if k == ENGINEER else f"soldier {k}")


def report(study: Study, rows: bool) -> None:
    attacks, losses, exposed = study.attacks, study.losses, study.exposed
    if rows:
        for a in sorted(attacks):
            print(f"game {a.game:3} ply {a.ply:4} our {NAMES[a.piece]:8} on a {_kind(a.defender):10} {a.outcome:6} "
                  f"P(bomb) {a.bomb:.3f} P(mine) {a.mine:.3f} P(>=) {a.stronger:.3f}")
        for loss in sorted(losses):
            rated = f"rated risk {loss.risk:.3f}" if loss.risk >= 0 else "not rated (kind known)"
            print(f"game {loss.game:3} ply {loss.ply:4} our {NAMES[loss.piece]:8} lost {loss.how}; {rated}")
    print("\nblind attacks by our marshal and general, by predicted risk (P(bomb) + P(mine) + P(>= ours))")
    print("| predicted risk | attacks | predicted losses | losses | to a bomb | to a mine | traded with an equal | "
          "to a stronger |")
    print("|---|---|---|---|---|---|---|---|")
    for lo, hi in itertools.pairwise(BINS):
        group = [a for a in attacks if lo <= a.risk < hi]
        bombs = sum(1 for a in group if a.defender == BOMB)
        mines = sum(1 for a in group if a.defender == MINE)
        equal = sum(1 for a in group if a.defender == a.piece)
        print(f"| {lo:.2f}-{min(hi, 1.0):.2f} | {len(group)} | {sum(a.risk for a in group):.1f} | "
              f"{sum(a.lost for a in group)} | {bombs} | {mines} | {equal} | {sum(a.lost for a in group) - bombs - mines - equal} |")
    print(f"| all | {len(attacks)} | {sum(a.risk for a in attacks):.1f} | {sum(a.lost for a in attacks)} | | | | |")
    for piece in BIG:
        group = [a for a in attacks if a.piece == piece]
        if not group:
            continue
        print(f"\nour {NAMES[piece]}: {len(group)} blind attacks; what the beliefs summed against what was there")
        print(f"  bombs   predicted {sum(a.bomb for a in group):5.1f}  met {sum(a.defender == BOMB for a in group)}")
        print(f"  mines   predicted {sum(a.mine for a in group):5.1f}  met {sum(a.defender == MINE for a in group)}")
        print(f"  >= ours predicted {sum(a.stronger for a in group):5.1f}  met "
              f"{sum(a.defender <= piece for a in group)}")
    print("\nenemy pieces of unsettled kind able to attack our marshal or general, by the beliefs' P(bomb) + P(>= ours)")
    print("| believed threat | exposures | predicted threats | real threats | real threats that attacked |")
    print("|---|---|---|---|---|")
    for lo, hi in itertools.pairwise(BINS):
        seen = [e for e in exposed if lo <= e.threat < hi]
        real = [e for e in seen if e.real]
        print(f"| {lo:.2f}-{min(hi, 1.0):.2f} | {len(seen)} | {sum(e.threat for e in seen):.1f} | {len(real)} | "
              f"{sum(e.attacked for e in real)} |")
    print("\nlosses of our marshal and general (rated risk: of our attack, or that the attacker was a bomb or >= ours)")
    print("| piece | cause | losses | rated under 10 % | median rated risk | within a round of our piece eating |")
    print("|---|---|---|---|---|---|")
    for piece in BIG:
        for cause in CAUSES:
            risks = sorted(loss.risk for loss in losses if loss.piece == piece and loss.cause == cause)
            if risks:
                rated = "n/a" if cause == CAUSES[1] else f"{sum(1 for r in risks if r < 0.10)}"
                median = "n/a" if cause == CAUSES[1] else f"{risks[len(risks) // 2]:.3f}"
                after = sum(1 for loss in losses if loss.piece == piece and loss.cause == cause and 0 <= loss.since <= ROUND)
                print(f"| {NAMES[piece]} | {cause} | {len(risks)} | {rated} | {median} | {after} |")
    print("\nwhat eating cost: our piece lost to an enemy attack within a round of eating (material: evaluate.VALUE)")
    print("| piece | eats | value eaten | lost within a round | value lost so, net of what went with it |")
    print("|---|---|---|---|---|")
    for piece in BIG:
        eaten = [k for p, k in study.eats if p == piece]
        soon = [loss for loss in losses if loss.piece == piece and loss.cause in CAUSES[2:] and 0 <= loss.since <= ROUND]
        print(f"| {NAMES[piece]} | {len(eaten)} | {sum(VALUE[k] for k in eaten)} | {len(soon)} | "
              f"{sum(VALUE[piece] - loss.back for loss in soon)} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--us", default="sanqi", help="a substring of our engine's name in the records")
    ap.add_argument("--rows", action="store_true", help="print every attack and loss, not only the tables")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    study = Study([], [], [], [])
    games = 0
    for path in args.records:
        with open(path, encoding="utf-8") as f:
            for lines in read_games(f.read().splitlines()):
                if lines[-1].get("result") in (None, "none"):
                    continue  # a game still being played, or aborted: not played out
                games += 1
                us = {s for s, n in lines[0]["players"].items() if args.us in n}
                attacks_and_losses(lines, us, study)
    print(f"{games} finished games")
    report(study, args.rows)


if __name__ == "__main__":
    main()
