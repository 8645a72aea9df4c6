"""Make 20x20 openings of the Gomocup tournament's kind and keep those Rapfi scores as level.

Gomocup's freestyle tournament is played on 20x20 from openings off the centre, often by an edge
or in a corner, some with many stones. This script draws such openings with a seeded random
generator and keeps the balanced ones:

* a corner (both coordinates within CORNER lines of two edges) or an edge (one coordinate within
  EDGE lines of it, the other anywhere but the outer lines) is picked; the first stone goes there;
* 3 to 9 stones in all, each next one within two lines (king-distance) of a stone already placed,
  black and white alternating (black first); black is to move after an even count, white after
  an odd one;
* refused: any stone of it fitting a 15x15 board only (every stone within 7 lines of the centre,
  so a 15x15 match never reads it: ``gomoku_protocol.arena.opening_line`` skips what does not
  fit), a five or a four (four of one colour and an empty point in five in a row) already on the
  board, and an opening equal, under the board's eight symmetries, to one drawn before;
* Rapfi (``gomoku_protocol.label.Labeller``, as ``tests/tools/gomoku_turns.py`` drives it: a
  ``BOARD`` with its hash cleared, ``INFO max_depth DEPTH``, a turn limit it never reaches) scores
  the position for the side to move; kept when ``|score| <= LEVEL`` (Rapfi's eval units; a mate is
  never kept), until KEEP are kept.

Each kept opening is printed as a line of ``gomoku_protocol/data/openings.txt``'s format (``dx,dy``
offsets from the centre, ``size // 2``, as GomocupJudge's ``opening2pos`` reads them) with Rapfi's
score as a comment; the counts go to stderr. The lines at the end of the shipped openings.txt were
made, from the repository root, by::

    nice -n 19 python tests/tools/gomoku_openings20.py --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi \\
        --seed 20 --depth 18 --level 60 --keep 20

Rerunning it draws the same candidates; Rapfi at a fixed depth, one thread and a cleared hash
gives the same scores, so the same lines come out (a score right at the threshold could fall on the
other side on another build of Rapfi).
"""

import argparse
import os
import random
import sys
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from gomoku_protocol import label
from gomoku_protocol.fit import MATE
from gomoku_protocol.record import format_pos

SIZE = 20
EDGE = 3  # an edge opening's first stone is on one of the outer EDGE + 1 lines (0..EDGE)
CORNER = 4  # a corner opening's first stone is within CORNER lines of both edges
Stones = list[tuple[int, int]]


def symmetries(stones: Stones) -> list[Stones]:
    """The opening's images under the board's eight symmetries (absolute coordinates)."""
    n = SIZE - 1
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y), lambda x, y: (n - x, y), lambda x, y: (x, n - y), lambda x, y: (n - x, n - y),
        lambda x, y: (y, x), lambda x, y: (n - y, x), lambda x, y: (y, n - x), lambda x, y: (n - y, n - x)]  # this order: draw() picks one by number
    return [[f(x, y) for x, y in stones] for f in maps]


def canonical(stones: Stones) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """A key equal for two openings with the same stones of each colour up to symmetry."""
    return min((tuple(sorted(s[0::2])), tuple(sorted(s[1::2]))) for s in symmetries(stones))


def has_four(stones: Stones) -> bool:
    """Whether five points in a row hold four stones of one colour and an empty point, or five."""
    colour = {p: n % 2 for n, p in enumerate(stones)}
    for x in range(SIZE):
        for y in range(SIZE):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(5)]
                if not all(0 <= a < SIZE and 0 <= b < SIZE for a, b in cells):
                    continue
                got = [colour.get(c) for c in cells]
                for side in (0, 1):
                    if got.count(side) >= 4 and got.count(side) + got.count(None) == 5:
                        return True
    return False


def fits_15(stones: Stones) -> bool:
    """Whether a 15x15 board would read this opening (every offset within -7..7)."""
    c = SIZE // 2
    return all(-7 <= x - c <= 7 and -7 <= y - c <= 7 for x, y in stones)


def draw(rng: random.Random) -> Stones:
    """One candidate opening (absolute coordinates on the 20x20 board)."""
    n = SIZE - 1
    count = rng.randint(3, 9)
    if rng.random() < 0.5:  # a corner
        x, y = rng.randint(0, CORNER), rng.randint(0, CORNER)
    else:  # an edge
        x, y = rng.randint(0, EDGE), rng.randint(2, n - 2)
    flip = rng.randrange(8)
    x, y = symmetries([(x, y)])[flip][0]
    stones = [(x, y)]
    while len(stones) < count:
        bx, by = rng.choice(stones)
        p = (bx + rng.randint(-2, 2), by + rng.randint(-2, 2))
        if 0 <= p[0] < SIZE and 0 <= p[1] < SIZE and p not in stones:
            stones.append(p)
    return stones


def offsets(stones: Stones) -> str:
    c = SIZE // 2
    return ", ".join(f"{x - c},{y - c}" for x, y in stones)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--brain", required=True, help="the scoring brain's command (pbrain-rapfi)")
    p.add_argument("--seed", type=int, default=20)
    p.add_argument("--depth", type=int, default=18, help="the brain's INFO max_depth")
    p.add_argument("--level", type=int, default=60, help="keep an opening whose score for the side to move is within +-LEVEL")
    p.add_argument("--keep", type=int, default=20, help="stop after this many are kept")
    p.add_argument("--tries", type=int, default=400, help="give up after scoring this many candidates")
    args = p.parse_args()
    rng = random.Random(args.seed)
    brain = label.Labeller(args.brain, args.depth, 60000, patience_s=120.0)
    brain.setup[0] = f"START {SIZE}"  # label.Labeller starts 15x15 boards
    brain._restart()
    seen: set[object] = set()
    kept = scored = 0
    print(f"# 20x20 tournament-style openings (none fits 15x15): by an edge or in a corner, 3-9 stones, Rapfi depth {args.depth} "
          f"within +-{args.level} for the side to move (tests/tools/gomoku_openings20.py --seed {args.seed})")
    while kept < args.keep and scored < args.tries:
        stones = draw(rng)
        key = canonical(stones)
        if key in seen or fits_15(stones) or has_four(stones):
            continue
        seen.add(key)
        score, _ = brain.score(format_pos(stones))
        scored += 1
        mover = "black" if len(stones) % 2 == 0 else "white"
        print(f"candidate {scored}: {offsets(stones)}: {score} for {mover}", file=sys.stderr, flush=True)
        if score is None or abs(score) >= MATE or abs(score) > args.level:
            continue
        kept += 1
        print(f"{offsets(stones)}  # {len(stones)} stones, {mover} to move, Rapfi depth {args.depth}: {score:+d}", flush=True)
    brain.close()
    print(f"kept {kept} of {scored} scored (Rapfi restarts: {brain.restarts - 1})", file=sys.stderr)
    return 0 if kept == args.keep else 1


if __name__ == "__main__":
    sys.exit(main())
