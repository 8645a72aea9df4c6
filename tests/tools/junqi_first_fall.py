"""How the first seat of our team falls in four-player match records (``sanqi referee --record``), and
what each team had lost by then: a read-only study, for the engine named by ``--us`` (a substring of the
players' names) against the other engine.

Per game, the first of our seats to go out: the ply and why (``flag``, ``nomoves``, ``time``, ...); for a
flag taken, the captor's true kind and seat, the square it took the flag from, its moves that game, the
ply it first stood in our home, what it ate there on the way, the kinds of ours on the flag's other
neighbours (its guards) and how many of our movers then outranked it. With it, the material lost in
collisions by each team (pieces, their kinds and ``evaluate.VALUE``) at plies 40, 80 and 120 and at
the fall, and whose seat fell first.

    python tests/tools/junqi_first_fall.py [--us sanqi] [--rows] RECORD.jsonl [RECORD.jsonl ...]
"""

import argparse
import collections
import statistics
from typing import Any, NamedTuple, Optional

from junqi_protocol.evaluate import VALUE
from junqi_protocol.record import Replayer, read_games
from junqi_protocol.rules import BOMB, DIVISION, FLAG, GENERAL, MARSHAL, MINE

PLIES = (40, 80, 120)  # where the material is counted, besides the fall
BIG = (MARSHAL, GENERAL, DIVISION)  # the kinds whose losses are told by how
SHORT = "司军师旅团营连排工雷炸旗"  # a kind's one-character name, in kind order


class Fall(NamedTuple):
    path: str
    game: int
    result: str  # won, lost or draw, for us
    ply: int  # of our first seat's fall (0: none fell)
    seat: str
    why: str
    enemy_first: bool  # an enemy seat fell before ours
    captor: int  # its kind, -1 when the fall was not a flag taken
    frm: str  # the square it took the flag from
    rail: bool  # it reached that square along a railway
    moves: int  # the captor's moves in the game, the capture included
    entered: int  # the ply it first stood in our fallen seat's home
    ate: list[int]  # our kinds it took in that home before the flag
    guards: list[int]  # our kinds on the flag's other neighbours at the capture
    above: int  # our movers that outranked the captor then
    lost: dict[Any, tuple[list[int], list[int]]]  # ply (or "fall") -> (our kinds lost, theirs)
    big: collections.Counter[tuple[int, str, int]]  # (team: 0 ours, 1 theirs; how; kind) -> big pieces lost by the fall


def how_lost(attacking: bool, other: int, kind: int) -> str:
    """How a piece of ``kind`` was lost to ``other``, on its own attack or to the other's."""
    versus = "a bomb" if other == BOMB else "a mine" if other == MINE else "an equal" if other == kind else "a stronger"
    return ("attacking " if attacking else "attacked by ") + versus


def what_lost(kinds: list[int]) -> str:
    return "".join(SHORT[k] for k in sorted(kinds)) or "-"


def worth(kinds: list[int]) -> int:
    return sum(VALUE[k] for k in kinds)


def follow_game(path: str, lines: list[dict[str, Any]], name: str) -> Optional[Fall]:
    """Replay one finished game between us and the other engine; None for any other game."""
    head, end = lines[0], lines[-1]
    if head.get("variant") != "4p" or end.get("type") != "end" or end["reason"].startswith("aborted"):
        return None
    us = {s for s, n in head["players"].items() if name in n}
    if len(us) != 2:
        return None
    r = Replayer(head)
    b = r.board
    ours = b.team(b.letters.index(min(us)))
    result = "draw" if end["result"] == "draw" else "won" if set(end["result"]) == us else "lost"
    piece = list(range(b.size))  # the piece on each point, named by the point it started on
    moves: collections.Counter[int] = collections.Counter()
    path_of: dict[int, list[tuple[int, int, int, int]]] = collections.defaultdict(list)  # piece -> (ply, from, to, eaten kind)
    lost: tuple[list[int], list[int]] = ([], [])  # ours, theirs
    snaps: dict[Any, tuple[list[int], list[int]]] = {}
    big: collections.Counter[tuple[int, str, int]] = collections.Counter()
    fall = None
    enemy_first = False
    for obj in lines[1:]:
        capture = None
        if obj["type"] == "step":
            for at in PLIES:
                if obj["ply"] > at and at not in snaps:
                    snaps[at] = (list(lost[0]), list(lost[1]))
        if obj["type"] == "step" and obj["action"] == "move":
            ply = obj["ply"]
            pos = r.game.pos
            f, t = (b.point(x) for x in obj["move"].split("-"))
            ak, dk, ao, do = pos.kind[f], pos.kind[t], pos.owner[f], pos.owner[t]
            res = obj["events"][0].split()[-1]
            mover = piece[f]
            moves[mover] += 1
            if do >= 0:
                gone = {"EAT": [(do, dk)], "KILLED": [(ao, ak)], "BOMB": [(ao, ak), (do, dk)]}[res]
                for owner, kind in gone:
                    if kind != FLAG:
                        lost[0 if b.team(owner) == ours else 1].append(kind)
                    if kind in BIG and fall is None:
                        big[(0 if b.team(owner) == ours else 1, how_lost(owner == ao, dk if owner == ao else ak, kind), kind)] += 1
                if dk == FLAG and b.team(do) == ours:
                    guards = [pos.kind[q] for q in b.steps[t] if q != f and pos.owner[q] >= 0 and b.team(pos.owner[q]) == ours]
                    above = sum(1 for q in range(b.size)
                                if pos.owner[q] >= 0 and b.team(pos.owner[q]) == ours and pos.kind[q] < ak)
                    capture = (do, ak, f, guards, above)
            path_of[mover].append((ply, f, t, dk if do >= 0 and b.team(do) == ours and res != "KILLED" else -1))
            piece[t] = mover if res in ("MOVE", "EAT") else (piece[t] if res == "KILLED" else -1)
            piece[f] = -1
        r.feed(obj)
        out = [e.split() for e in obj["events"] if e.startswith("out ")] if obj["type"] == "step" else []
        if fall is None and any(w[1] in us for w in out):
            w = next(w for w in out if w[1] in us)
            fall = (obj["ply"], w[1], w[2] if len(w) > 2 else "", capture if w[2:3] == ["flag"] else None)
            snaps["fall"] = (list(lost[0]), list(lost[1]))
        enemy_first = enemy_first or (fall is None and any(w[1] not in us for w in out))
    if fall is None:
        snaps["fall"] = (list(lost[0]), list(lost[1]))
        return Fall(path, head["game"], result, 0, "", "", enemy_first, -1, "", False, 0, 0, [], [], 0, snaps, big)
    ply, seat, why, capture = fall
    if capture is None:
        return Fall(path, head["game"], result, ply, seat, why, enemy_first, -1, "", False, 0, 0, [], [], 0, snaps, big)
    do, ak, f, guards, above = capture
    captor = next(p for p, trail in path_of.items() if trail and trail[-1][0] == ply)
    trail = path_of[captor]
    home = [(p, to, eaten) for p, _, to, eaten in trail if b.seat_of[to] == do]
    # It reached ``f`` along a railway: more than one step in a move (the flag itself is off the rails).
    rail = len(trail) > 1 and trail[-2][1] not in b.steps[f]
    return Fall(path, head["game"], result, ply, seat, why, enemy_first, ak, b.names[f], rail, moves[captor],
                home[0][0] if home else ply, [e for _, _, e in home if e >= 0 and e != FLAG], guards, above, snaps, big)


def table(falls: list[Fall]) -> None:
    n = len(falls)
    fell = [x for x in falls if x.ply]
    print(f"games {n}: ours fell first in {sum(1 for x in fell if not x.enemy_first)}, after an enemy seat in "
          f"{sum(1 for x in fell if x.enemy_first)}, none of ours fell in {n - len(fell)}")
    why = collections.Counter(x.why for x in fell)
    print("how our first seat fell:", ", ".join(f"{k} {v}" for k, v in why.most_common()))
    flags = [x for x in fell if x.captor >= 0]
    if flags:
        print("flag taken by:", ", ".join(f"{SHORT[k]} {v}" for k, v in collections.Counter(x.captor for x in flags).most_common()))
        print(f"  plies: median {statistics.median(x.ply for x in flags)}, "
              f"range {min(x.ply for x in flags)}-{max(x.ply for x in flags)}")
        print("  from:", ", ".join(f"{k} {v}" for k, v in collections.Counter(
            ("row 4" if x.frm[1] == "4" else "row 5") + (" by rail" if x.rail else "") for x in flags).most_common()))
        print(f"  captor's moves: median {statistics.median(x.moves for x in flags)}; plies from entering our home "
              f"to the flag: median {statistics.median(x.ply - x.entered for x in flags)}")
        print(f"  captor outranked by none of our movers: {sum(1 for x in flags if x.above == 0)} of {len(flags)}")
        print("  guards left beside the flag:", ", ".join(f"{k} {v}" for k, v in collections.Counter(
            what_lost(x.guards) for x in flags).most_common()))
        print("  ate in our home on the way:", ", ".join(f"{k} {v}" for k, v in collections.Counter(
            what_lost(x.ate) for x in flags).most_common()))
    print("material lost in collisions, ours against theirs (games still on at that ply):")
    print("at      games  our pieces  their pieces  our value  their value  per piece ours/theirs  we behind/even/ahead"
          "  司军师 ours/theirs")
    for at in (*PLIES, "fall"):
        rows = [x.lost[at] for x in falls if at in x.lost and (at == "fall" and x.ply or at != "fall")]
        if not rows:
            continue
        mine = [len(a) for a, _ in rows]
        theirs = [len(t) for _, t in rows]
        vm = [worth(a) for a, _ in rows]
        vt = [worth(t) for _, t in rows]
        diff = [a - t for a, t in zip(vm, vt)]
        behind = sum(1 for d in diff if d > 0)
        ahead = sum(1 for d in diff if d < 0)
        print(f"{at!s:6} {len(rows):6} {statistics.mean(mine):11.1f} {statistics.mean(theirs):13.1f} "
              f"{statistics.mean(vm):10.0f} {statistics.mean(vt):12.0f}  "
              f"{sum(vm) / max(1, sum(mine)):10.0f}/{sum(vt) / max(1, sum(theirs)):.0f}"
              f"  {behind:13d}/{len(rows) - behind - ahead}/{ahead}"
              f"  {sum(1 for a, _ in rows for k in a if k in BIG):12d}/{sum(1 for _, t in rows for k in t if k in BIG)}")
    for side, label in ((0, "ours"), (1, "theirs")):
        kinds = collections.Counter(k for x in fell for k in x.lost["fall"][side])
        print(f"kinds lost by the fall, {label}:", " ".join(f"{SHORT[k]}{kinds[k]}" for k in range(FLAG) if kinds[k]))
        hows: collections.Counter[str] = collections.Counter()
        value: collections.Counter[str] = collections.Counter()
        for x in fell:
            for (team, how, kind), v in x.big.items():
                if team == side:
                    hows[how] += v
                    value[how] += v * VALUE[kind]
        print(f"  {what_lost(list(BIG))} lost by the fall, {label}, how (pieces, value):",
              ", ".join(f"{k} {v} ({value[k]})" for k, v in hows.most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--us", default="sanqi", help="a substring of our engine's name in the records")
    ap.add_argument("--rows", action="store_true", help="one line a game")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    falls = []
    for path in args.records:
        with open(path, encoding="utf-8") as f:
            for lines in read_games(f.read().splitlines()):
                x = follow_game(path, lines, args.us)
                if x is not None:
                    falls.append(x)
    if args.rows:
        for x in falls:
            how = (f"flag by {SHORT[x.captor]} from {x.frm}{' (rail)' if x.rail else ''}, {x.moves} moves, "
                   f"in our home from ply {x.entered}, ate {what_lost(x.ate)}, guards {what_lost(x.guards)}, "
                   f"above it {x.above}") if x.captor >= 0 else x.why
            a, t = x.lost["fall"]
            print(f"{x.path} game {x.game} {x.result}: {x.seat} ply {x.ply} {how}; lost by then ours "
                  f"{what_lost(a)} ({worth(a)}), theirs {what_lost(t)} ({worth(t)})"
                  + ("; an enemy seat fell first" if x.enemy_first else ""))
    table(falls)


if __name__ == "__main__":
    main()
