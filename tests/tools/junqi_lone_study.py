"""Two against one, game by game: how the four-player games of match records (``sanqi referee --record``)
went once a seat was out while its partner played on (from the start with an ``out`` seat, or later).

For every such game: who was a seat up (``--us``, a substring of the players' names, or the opponent),
how it ended and at which ply, and from the first out on, every capture (ply, attacker and defender by
seat and kind, the result), the material of the two sides (``evaluate.VALUE``) every ``--every`` plies,
the longest run of quiet plies, and at the end each seat's pieces, the lone seat's flag and what stands
on the points around it, the mines, engineers and bombs each side has left.

    python tests/tools/junqi_lone_study.py [--us sanqi] [--every 20] [--captures] RECORD.jsonl [...]
"""

import argparse
from typing import Any

from junqi_protocol.board import Board
from junqi_protocol.evaluate import VALUE
from junqi_protocol.match import read_record
from junqi_protocol.record import Replayer, first_out, short_handed
from junqi_protocol.rules import BOMB, ENGINEER, FLAG, LETTERS, MINE


def army(board: Board, owner: list[int], kind: list[int], seat: int) -> str:
    """A seat's pieces as letters, strongest first."""
    return "".join(sorted(LETTERS[kind[p]] for p in range(board.size) if owner[p] == seat))


def material(owner: list[int], kind: list[int], seats: list[int]) -> int:
    return sum(VALUE[kind[p]] for p in range(len(owner)) if owner[p] in seats)


def study(path: str, lines: list[dict[str, Any]], us: str, every: int, captures: bool) -> None:
    fared, out = short_handed(lines), first_out(lines)
    if fared is None or out is None:
        return
    head, end = lines[0], lines[-1]
    board = Board("4p")
    lone_team = board.team(board.letters.index(out[1]))
    pair = [s for s in range(4) if board.team(s) != lone_team]
    lone = next(s for s in range(4) if board.team(s) == lone_team and board.letters[s] != out[1])
    up = "us" if us in head["players"][board.letters[pair[0]]] else "they"
    print(f"{path} game {head['game']}: {out[1]} out at ply {out[0]} ({out[2]}); a seat up: {up} "
          f"({'+'.join(board.letters[s] for s in pair)} against {board.letters[lone]}): {fared[2]}"
          f"{'' if fared[2].startswith('drawn') else ' ' + end['reason']} at ply {end['plies']}")
    r = Replayer(head)
    quiet = longest = 0
    trace = []
    began = False
    for obj in lines[1:]:
        pos = r.game.pos
        before = (list(pos.owner), list(pos.kind))
        r.feed(obj)
        if obj["type"] not in ("start", "step"):
            continue
        ply = obj.get("ply", 0)
        if not began and any(e.split()[0] == "out" for e in obj.get("events", [])):
            began = True
        if not began:
            continue
        if obj["type"] == "step" and obj["action"] == "move":
            frm, _, to = obj["move"].partition("-")
            f, t = board.point(frm), board.point(to)
            res = next((e.split()[-1] for e in obj["events"] if e.startswith("move ")), "MOVE")
            if before[0][t] >= 0:
                quiet = 0
                if captures:
                    print(f"    {ply:4} {obj['seat']}:{LETTERS[before[1][f]]} {to} {board.letters[before[0][t]]}:"
                          f"{LETTERS[before[1][t]]} {res}")
            else:
                quiet += 1
                longest = max(longest, quiet)
        elif obj["type"] == "step":
            quiet += 1
        if every and ply % every == 0:
            trace.append(f"{ply}:{material(pos.owner, pos.kind, pair)}/{material(pos.owner, pos.kind, [lone])}")
    pos = r.game.pos
    print(f"  material pair/lone by ply: {' '.join(trace)}")
    print(f"  longest quiet run {longest}, quiet at the end {quiet}")
    for s in range(4):
        if r.game.alive[s]:
            a = army(board, pos.owner, pos.kind, s)
            print(f"  {board.letters[s]} at the end: {a} (engineers {a.count(LETTERS[ENGINEER])}, "
                  f"bombs {a.count(LETTERS[BOMB])}, mines {a.count(LETTERS[MINE])})")
    if r.game.alive[lone]:
        f = pos.find(lone, FLAG)
        around = [f"{board.names[q]}={LETTERS[pos.kind[q]] if pos.owner[q] >= 0 else '.'}" for q in board.steps[f]]
        print(f"  {board.letters[lone]}'s flag on {board.names[f]}, around it: {' '.join(around)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--us", default="sanqi", help="a substring of our engine's name in the records")
    ap.add_argument("--every", type=int, default=20, help="plies between two material counts (0: none)")
    ap.add_argument("--captures", action="store_true", help="every capture after the first out")
    opts = ap.parse_args()
    for path in opts.records:
        for lines in read_record(path):
            study(path, lines, opts.us, opts.every, opts.captures)


if __name__ == "__main__":
    main()
