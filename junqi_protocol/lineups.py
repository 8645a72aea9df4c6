"""Deployments in the style of strong players, seeded and varied; the yardsticks' (``events``'
fixed one, ``random``'s shuffled ones); and files of fixed deals.

What strong players do, as rules with random choices inside them: the flag in a headquarters
behind mines (two or three of the points around it), the last mine elsewhere in the back rows or
in the other headquarters as a decoy; bombs in rows 1-3, where the enemy's strong pieces arrive
by the front rails; the 司令 or 军长 close to the front; engineers kept back (rows 3-5) for the
mines later; the rest shuffled. Every choice is drawn, and the whole army is mirrored half the
time, so no single layout can be learned.

A deal file (``sanqi referee --lineups FILE``) has one deal a line: the lineups of the seats in
order S, N (two players) or S, E, N, W (four players), separated by spaces; ``#`` starts a comment.

    python -m junqi_protocol.lineups --deals 10 --seats 2 --seed 1 > deals.txt

>>> from junqi_protocol.rules import check_lineup
>>> all(check_lineup(strong_lineup(random.Random(s))) is None for s in range(200))
True
>>> strong_lineup(random.Random(5)) == strong_lineup(random.Random(5))
True
"""

import argparse
import random
import sys
from typing import Optional

from junqi_protocol.beliefs import start_mask
from junqi_protocol.board import CAMP_SLOTS, HOME, Board
from junqi_protocol.rules import (BOMB, COUNTS, ENGINEER, FLAG, GENERAL, LINEUP_SLOTS, MARSHAL, MINE, check_lineup,
                                  lineup_text, parse_lineup)

HQ: dict[int, tuple[int, ...]] = {26: (25, 27, 21), 28: (27, 29, 23)}  # each headquarters and the points around it
EVENTS_LINEUP = "gcfcgi.b.idk.kda.f.ehehigjljhj"


def _slots(rows: range) -> list[int]:
    return [s for s in range(HOME) if s // 5 in rows and s not in CAMP_SLOTS]


def strong_lineup(rng: random.Random) -> str:
    """One deployment as 25 letters."""
    kinds = [-1] * HOME
    flag = rng.choice((26, 28))
    decoy = 54 - flag
    kinds[flag] = FLAG
    guards = list(HQ[flag])
    rng.shuffle(guards)
    mines = guards[:3] if rng.random() < 0.6 else guards[:2]
    spare = [s for s in _slots(range(4, 6)) if s not in mines and s != flag]
    while len(mines) < COUNTS[MINE]:
        mines.append(decoy if decoy not in mines and rng.random() < 0.35 else rng.choice([s for s in spare if s not in mines]))
    for s in mines:
        kinds[s] = MINE

    def put(kind: int, rows: range) -> None:
        free = [s for s in _slots(rows) if kinds[s] < 0]
        kinds[rng.choice(free)] = kind

    for _ in range(COUNTS[BOMB]):
        put(BOMB, range(1, 4))
    put(MARSHAL if rng.random() < 0.5 else GENERAL, range(2))
    put(GENERAL if kinds.count(MARSHAL) else MARSHAL, range(4))
    for _ in range(COUNTS[ENGINEER]):
        put(ENGINEER, range(3, 6))
    rest = [k for k in range(12) for _ in range(COUNTS[k] - kinds.count(k))]
    rng.shuffle(rest)
    for s, k in zip([s for s in range(HOME) if s not in CAMP_SLOTS and kinds[s] < 0], rest):
        kinds[s] = k
    if rng.random() < 0.5:
        kinds = [kinds[r * 5 + 4 - c] for r in range(6) for c in range(5)]
    text = lineup_text(kinds)
    assert check_lineup(text) is None, text
    return text


def random_lineup(rng: random.Random) -> str:
    """A uniformly shuffled army that obeys the deployment rules."""
    kinds = [-1] * HOME
    free = list(LINEUP_SLOTS)
    flag = rng.choice((26, 28))
    kinds[flag] = FLAG
    free.remove(flag)
    for kind, first in ((MINE, 20), (BOMB, 5)):
        for _ in range(COUNTS[kind]):
            s = rng.choice([s for s in free if s >= first])
            kinds[s] = kind
            free.remove(s)
    rest = [k for k in range(12) for _ in range(COUNTS[k]) if k not in (FLAG, MINE, BOMB)]
    rng.shuffle(rest)
    for s, k in zip(free, rest):
        kinds[s] = k
    return lineup_text(kinds)


def events_lineup(rng: random.Random) -> str:
    """The events player's fixed deployment (flag behind three mines), mirrored at random."""
    rows = [EVENTS_LINEUP[r * 5:r * 5 + 5] for r in range(6)]
    if rng.random() < 0.5:
        rows = [row[::-1] for row in rows]
    return "".join(rows).replace(".", "")


_HABITS: list[list[float]] = []


def habits(samples: int = 3000) -> list[list[float]]:
    """How often each kind stands on each home slot in our generator's deployments, over the
    plain count share: a prior for guessing where a strong-style player put what (cached).

    >>> h = habits(); h[21][9] > 2 * h[24][9], h[0][10]
    (True, 0.0)
    """
    if not _HABITS:
        rng = random.Random(0)
        board = Board("2p")  # seat S's home points are the slots themselves
        seen = [[0.0] * 12 for _ in range(HOME)]
        for _ in range(samples):
            kinds = parse_lineup(strong_lineup(rng))
            for slot, k in enumerate(kinds):
                if k >= 0:
                    seen[slot][k] += 1.0
        # Frequencies divided by the kind's count (the counts re-enter through the matching), with
        # a trace left wherever the rules allow a kind, so no legal deployment gets weight zero.
        for slot in range(HOME):
            row = [seen[slot][k] / samples / COUNTS[k] for k in range(12)]
            allowed = start_mask(board, slot)
            _HABITS.append([row[k] + 0.01 if allowed >> k & 1 else 0.0 for k in range(12)])
    return _HABITS


def deals(count: int, seats: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[strong_lineup(rng) for _ in range(seats)] for _ in range(count)]


def read_deals(text: str, seats: int) -> list[list[str]]:
    """The deals of a file; raises ValueError naming the line and the broken rule.

    >>> read_deals("# two deals\\nabccddeeffggghhhiiijjkklj\\n", 2)
    [['abccddeeffggghhhiiijjkklj', 'abccddeeffggghhhiiijjkklj']]
    """
    out: list[list[str]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#")[0].split()
        if not words:
            continue
        if len(words) == 1:
            words = words * seats
        if len(words) != seats:
            raise ValueError(f"deal line {n}: {len(words)} lineups for {seats} seats")
        for w in words:
            err: Optional[str] = check_lineup(w)
            if err is not None:
                raise ValueError(f"deal line {n}: {err}")
        out.append([w if len(w) == 25 else w.replace(".", "") for w in words])
    if not out:
        raise ValueError("no deal in the file")
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m junqi_protocol.lineups", description="print deals of strong-style lineups")
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--seats", type=int, choices=(2, 4), default=2)
    p.add_argument("--seed", type=int, default=1)
    opts = p.parse_args(argv)
    for deal in deals(opts.deals, opts.seats, opts.seed):
        print(" ".join(deal))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
