"""Where dealt Junqi games are lost: a study of match records (``sanqi referee --record``).

For the engine named by ``--us`` (a substring of the players' names in the record), over every
game, split by its result for us (won, lost, drawn):

* collisions: who attacked (we, they), the result, whether a mine or a bomb was in it, within the
  first 40 plies or after, with the material it moved for us (``evaluate.VALUE``);
* how our 司令 died: the piece that killed it, or what it attacked;
* every flag of ours taken: by what, and how many of our movers then outranked the captor;
* which team first held a mover above every mover of the other (the "top piece"), and whether our
  first flag fell after the enemy did;
* for every enemy attack on our 司令, what our seat's beliefs (followed with ``replays.follow``)
  gave the attacker's true kind just before it, and how often the attacker had moved.

    python tests/tools/junqi_study.py [--us sanqi] [--beliefs] RECORD.jsonl [RECORD.jsonl ...]
"""

import argparse
import collections
from typing import Any

from junqi_protocol.board import Board
from junqi_protocol.evaluate import VALUE
from junqi_protocol.game import Pieces
from junqi_protocol.record import Replayer, read_games
from junqi_protocol.replays import follow, true_kinds
from junqi_protocol.rules import BOMB, ENGINEER, ENGLISH, FLAG, MARSHAL, MINE

EARLY = 40  # plies: the opening, where the games that were behind from the start lost their material


def outcome(lines: list[dict[str, Any]], us: set[str]) -> str:
    result = lines[-1].get("result")
    if result in (None, "draw"):
        return "draw"
    return "won" if set(result) <= us else "lost"


def swing(att_ours: bool, result: str, ak: int, dk: int) -> int:
    """Material the collision moved for us."""
    taken = VALUE[dk] if dk != FLAG else 0
    lost = {"EAT": taken, "KILLED": -VALUE[ak], "BOMB": taken - VALUE[ak]}.get(result, 0)
    return lost if att_ours else -lost


def best_movers(board: Board, pos: Pieces) -> list[int]:
    """Per team, its highest-ranked mover (a kind number; ENGINEER + 1 when it has none)."""
    best = [ENGINEER + 1, ENGINEER + 1]
    for p in range(board.size):
        if pos.owner[p] >= 0 and pos.kind[p] <= ENGINEER:
            t = board.team(pos.owner[p])
            best[t] = min(best[t], pos.kind[p])
    return best


def study(games: list[list[dict[str, Any]]], name: str) -> None:
    count: collections.Counter[tuple[str, ...]] = collections.Counter()
    material: collections.Counter[tuple[str, ...]] = collections.Counter()
    flags: list[str] = []
    for lines in games:
        head = lines[0]
        us = {s for s, n in head["players"].items() if name in n}
        tag = outcome(lines, us)
        r = Replayer(head)
        b = r.board
        ours = b.team(b.letters.index(min(us)))
        top = ""
        top_ply = flag_ply = 0
        for obj in lines[1:]:
            if obj["type"] == "step" and r.started and obj["action"] == "move":
                pos = r.game.pos
                frm, _, to = obj["move"].partition("-")
                f, t = b.point(frm), b.point(to)
                ak, dk, ao, do = pos.kind[f], pos.kind[t], pos.owner[f], pos.owner[t]
                result = obj["events"][0].split()[-1]
                if do >= 0:
                    att_ours = b.team(ao) == ours
                    what = f"{'we' if att_ours else 'they'} attack: {result}"
                    what += " (mine)" if dk == MINE else " (bomb)" if BOMB in (ak, dk) else ""
                    key = (tag, what, f"<={EARLY}" if obj["ply"] <= EARLY else f">{EARLY}")
                    count[key] += 1
                    material[key] += swing(att_ours, result, ak, dk)
                    if dk == MARSHAL and b.team(do) == ours and result in ("EAT", "BOMB"):
                        count[(tag, f"our marshal killed by an enemy {ENGLISH[ak]}")] += 1
                    if ak == MARSHAL and att_ours and result in ("KILLED", "BOMB"):
                        count[(tag, f"our marshal died attacking an enemy {ENGLISH[dk]}")] += 1
                    if dk == FLAG and b.team(do) == ours:
                        left = [pos.kind[p] for p in range(b.size)
                                if pos.owner[p] >= 0 and b.team(pos.owner[p]) == ours and pos.kind[p] <= ENGINEER]
                        above = sum(1 for k in left if k < ak)
                        flags.append(f"{tag} game {head['game']} ply {obj['ply']}: {b.letters[do]}'s flag "
                                     f"by a {ENGLISH[ak]}; our movers above it: {above}")
                        count[(tag, "our flags taken by a piece none of ours outranked" if above == 0
                               else "our flags taken by a piece we had an answer to")] += 1
                        flag_ply = flag_ply or obj["ply"]
            r.feed(obj)
            if obj["type"] == "step" and r.started and not top:
                best = best_movers(b, r.game.pos)
                if best[0] != best[1]:
                    top = "enemy" if best[1 - ours] < best[ours] else "us"
                    top_ply = obj["ply"]
        count[(tag, f"top piece first held by {top or 'neither'}")] += 1
        if flag_ply:
            before = top == "enemy" and top_ply < flag_ply
            count[(tag, "our first flag fell " + ("after the enemy held the top piece" if before else "otherwise"))] += 1
    print("result  collision                  phase   count  material for us")
    for key in sorted(k for k in count if len(k) == 3):
        print(f"{key[0]:6}  {key[1]:26} {key[2]:5} {count[key]:6}  {material[key]:+7d}")
    for key in sorted(k for k in count if len(k) == 2):
        print(f"{key[0]:6}  {key[1]}: {count[key]}")
    print(*flags, sep="\n")


def marshal_attackers(games: list[list[dict[str, Any]]], name: str) -> None:
    """Each enemy attack on our 司令: the attacker's true kind, the probability our seat's beliefs
    gave it just before, and the attacker's moves and attacks until then."""
    rows: dict[str, list[float]] = collections.defaultdict(list)
    for lines in games:
        head = lines[0]
        us = {s for s, n in head["players"].items() if name in n}
        b = Board(head["variant"])
        truth = true_kinds(b, lines)
        steps = [o for o in lines if o["type"] in ("start", "step")]
        for letter in sorted(us):
            seat = b.letters.index(letter)
            views = follow(lines, seat)
            player, _ = next(views)
            for obj in steps[1:]:
                if obj.get("action") == "move" and obj["seat"] not in us:
                    frm, _, to = obj["move"].partition("-")
                    f, t = b.point(frm), b.point(to)
                    pos = player.pos
                    tag = pos.tag[f]
                    if pos.owner[t] == seat and pos.kind[t] == MARSHAL and tag >= 0:
                        k = truth[tag]
                        p = player.beliefs.marginals(pos.owner[f])[tag][k]
                        rows[ENGLISH[k]].append(p)
                        print(f"game {head['game']} ply {obj['ply']}: an enemy {ENGLISH[k]} attacks our marshal; "
                              f"believed {p:.3f}; it had moved {player.beliefs.moved[tag]} times")
                player, _ = next(views)
    for kind, ps in sorted(rows.items()):
        ps.sort()
        print(f"attacks on our marshal by a {kind}: {len(ps)}, median belief in the true kind {ps[len(ps) // 2]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--us", default="sanqi", help="a substring of our engine's name in the records")
    ap.add_argument("--beliefs", action="store_true", help="also what our beliefs said of our marshal's attackers")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    games: list[list[dict[str, Any]]] = []
    for path in args.records:
        with open(path, encoding="utf-8") as f:
            games += read_games(f.read().splitlines())
    study(games, args.us)
    if args.beliefs:
        marshal_attackers(games, args.us)


if __name__ == "__main__":
    main()
