"""How many nodes our threat search needs for the wins of the 20x20 and 15x15 studies (an analysis tool, not a test).

Counts nodes, not time, so a busy machine does not change what it prints. For each single-move turn of
``tests/data/gomoku/pela20_turns.txt`` it plays the move played in the game and lets the opponent's
threat search (a fresh ThreatSearch, VCT to ``--depth``, at most ``--nodes`` nodes) look for its win;
for each position of ``tests/data/gomoku/pela20_wins.txt`` (20x20) and ``pela15_wins.txt`` (15x15, the
full-board draws of 28 November) it lets ours look for our win. Prints one
line a position: found or not, the line's length, the nodes it took, and a total. Run from a checkout::

    PYTHONPATH=. python tests/tools/gomoku_tss_nodes.py --depth 6 --nodes 200000
"""

import argparse
import os
import sys
import time

try:
    import gomoku_protocol  # noqa: F401  (an installed, compiled sanqi first)
except ImportError:  # pragma: no cover - from a bare checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from gomoku_protocol.fit import board_of
from gomoku_protocol.position import Position
from gomoku_protocol.record import parse_pos
from gomoku_protocol.threats import ThreatSearch

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "gomoku")


def rows(name: str) -> list[list[str]]:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def replays(b: Position, line: list[int]) -> bool:
    """Whether ``line`` is a legal sequence ending in a five of the side to move, or (the threat
    search's way of saying that nothing holds) with the defender to move, no four of his and no
    point where his stone would leave the attacker without an open four or a double four."""
    attacker = b.side
    made = 0
    ok = True
    for m in line[:-1]:
        if not b.make(m):
            ok = False
            break
        made += 1
    if ok and not (b.side == attacker and b.wins_at(line[-1], attacker)):
        ok = b.make(line[-1])
        if ok:
            made += 1
            ts = ThreatSearch(b)
            ok = b.side != attacker and not b.fives[3 - attacker] and not b.fours(3 - attacker) and bool(ts._threat_points(attacker))
            for r in [i for i in b.points if b.cells[i] == 0] if ok else []:
                b.make(r)
                holds = not b.fives[attacker] and not ts._threat_points(attacker)
                b.unmake()
                if holds:
                    ok = False
                    break
    for _ in range(made):
        b.unmake()
    return ok


def search(b: Position, depth: int, nodes: int, vcf_only: bool, chains: tuple[int, int]) -> tuple[str, int]:
    ts = ThreatSearch(b)
    if chains[0] >= 0:
        ts.vcf_chain = chains[0]
    if chains[1] >= 0:
        ts.vct_chain = chains[1]
    t = time.perf_counter()
    line = ts.vcf(depth, 10**9, nodes) if vcf_only else ts.vct(depth, 10**9, nodes)
    took = time.perf_counter() - t
    if line is not None:
        assert replays(b, line), "a reported win does not replay"
        return f"win {len(line):2} plies {' '.join(b.name(m) for m in line[:5])}", ts.nodes
    return ("cut" if ts.stopped else "none") + f" ({took:.0f} s)", ts.nodes


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--depth", type=int, default=6, help="VCT depth (attacker threats), or VCF depth with --vcf")
    p.add_argument("--nodes", type=int, default=200000, help="node cap a search")
    p.add_argument("--vcf", action="store_true", help="VCF only")
    p.add_argument("--vcf-chain", type=int, default=-1, help="ThreatSearch.vcf_chain (default: the module's)")
    p.add_argument("--vct-chain", type=int, default=-1, help="ThreatSearch.vct_chain (default: the module's)")
    p.add_argument("--only", default="", help="comma-separated game tags to run (a3,b2,…)")
    args = p.parse_args()
    only = set(args.only.split(",")) if args.only else set()
    cases: list[tuple[str, Position]] = []
    for game, number, moves, played, _rapfi, kind in rows("pela20_turns.txt"):
        b = board_of(moves, 20)
        x, y = parse_pos(played)[0]
        b.play(b.index(x, y), b.side)
        cases.append((f"{game} {number} after {played} ({kind})", b))
    for wins, size in (("pela20_wins.txt", 20), ("pela15_wins.txt", 15)):
        for game, number, moves, _played, mate in rows(wins):
            cases.append((f"{game} {number} ours ({mate})", board_of(moves, size)))
    found = total = 0
    for name, b in cases:
        if only and name.split()[0] not in only:
            continue
        what, nodes = search(b, args.depth, args.nodes, args.vcf, (args.vcf_chain, args.vct_chain))
        found += what.startswith("win")
        total += nodes
        print(f"{name:28} {what:50} {nodes:8} nodes", flush=True)
    print(f"found {found}, nodes {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
