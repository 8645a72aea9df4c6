"""Fit the move-ordering values of the line shapes (``patterns.VALUE``) to a stronger brain's moves.

The search tries only the ten quiet candidates with the best one-ply pattern score (``Position.moves``),
so a move the ordering ranks lower is never searched. Every quiet position of a
:mod:`gomoku_protocol.label` file (no five, four-threat or double threat for either side to
answer) whose labelled move is a plain candidate (no four or double threat there) is one sample: a
choice among its candidates, each described by how many of its four lines make each shape for
the side to move and, weighted by the balanced style's defence/attack ratio, for the opponent.
A conditional logit model ``P(move) ∝ exp(value · shapes)`` is fitted by Newton's method, its
values scaled so the largest is 150 (the four's value in the hand-set table), and written as data
with how often the brain's move was among the first ten before and after, on held-out positions
(one in five, in blocks of 200).

Rerun it with::

    python -m gomoku_protocol.fit_order --out gomoku_protocol/data/order_values.json \\
        tests/data/gomoku/rapfi_labels.txt
"""

import math
import sys
from typing import Optional

from engine_core.args import ArgParser, UsageError, guarded
from engine_core.linsolve import solve
from gomoku_protocol import patterns as pt
from gomoku_protocol.evaluate import threat_level
from gomoku_protocol.fit import board_of, held_out, read_text, write_table
from gomoku_protocol.position import QUIET_MOVES, STYLES, Position, cell_bonus
from gomoku_protocol.record import parse_pos

PLAIN = range(pt.ONE, pt.FOUR + 1)  # the shapes whose value is fitted; fives and double fours stay
ATTACK, DEFENCE = STYLES["balanced"]
TOP = 150  # the largest fitted value, as in the hand-set table
RIDGE = 1e-3


class Choice:
    def __init__(self, shapes: list[list[float]], chosen: int) -> None:
        self.shapes = shapes  # per candidate, the features
        self.chosen = chosen  # index of the brain's move


def point_shapes(b: Position, i: int) -> list[float]:
    """Shape counts over the four lines of ``i``: the mover's, plus the opponent's scaled."""
    s = b.side
    f = [0.0] * len(PLAIN)
    for d in range(4):
        for color, weight in ((s, 1.0), (3 - s, DEFENCE / ATTACK)):
            k = b.shape(color, d, i)
            if k in PLAIN:
                f[k - pt.ONE] += weight
    return f


def choice(moves: str, move: str) -> Optional[Choice]:
    """The sample of one labelled position, or None if it is not a quiet choice."""
    b = board_of(moves)
    s = b.side
    o = 3 - s
    if b.fives[s] or b.fives[o] or b.threatening(o) or threat_level(b, o) == 1:
        return None
    plain = [i for i in sorted(b.cand) if not cell_bonus(b.count(s, i)) and not cell_bonus(b.count(o, i))]
    (x, y), = parse_pos(move)
    m = b.index(x, y)
    if m not in plain:
        return None
    return Choice([point_shapes(b, i) for i in plain], plain.index(m))


def fit(data: list[Choice], rounds: int = 15) -> list[float]:
    """Newton's method for the conditional logit's L2-penalised log-likelihood."""
    k = len(PLAIN)
    w = [0.0] * k
    for _ in range(rounds):
        grad = [-RIDGE * len(data) * v for v in w]
        hess = [[RIDGE * len(data) * (u == v) for v in range(k)] for u in range(k)]
        for c in data:
            us = [sum(a * b for a, b in zip(w, f)) for f in c.shapes]
            top = max(us)
            es = [math.exp(u - top) for u in us]
            total = sum(es)
            ps = [e / total for e in es]
            mean = [sum(p * f[u] for p, f in zip(ps, c.shapes)) for u in range(k)]
            for u in range(k):
                grad[u] += c.shapes[c.chosen][u] - mean[u]
                for v in range(k):
                    hess[u][v] += sum(p * f[u] * f[v] for p, f in zip(ps, c.shapes)) - mean[u] * mean[v]
        step = solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
    return w


def top_rate(data: list[Choice], values: list[float]) -> float:
    """How often the brain's move is among the first ``QUIET_MOVES`` by these values."""
    hits = 0
    for c in data:
        us = [sum(a * b for a, b in zip(values, f)) for f in c.shapes]
        mine = us[c.chosen]
        hits += sum(u > mine for u in us) < QUIET_MOVES
    return hits / max(1, len(data))


def fitted_values(everything: list[Choice]) -> dict[str, object]:
    data = [c for n, c in enumerate(everything) if not held_out(n)]
    test = [c for n, c in enumerate(everything) if held_out(n)]
    w = [max(0.0, v) for v in fit(data)]  # the board packs non-negative sums
    scale = TOP / max(w)
    value = list(pt.VALUE)
    for k in PLAIN:
        value[k] = round(w[k - pt.ONE] * scale)
    return {
        "value": value,
        "choices": len(data),
        "held_out": len(test),
        "held_out_top10": round(top_rate(test, [float(value[k]) for k in PLAIN]), 4),
        "held_out_top10_current": round(top_rate(test, [float(pt.VALUE[k]) for k in PLAIN]), 4),
    }


def parser() -> ArgParser:
    p = ArgParser(prog="python -m gomoku_protocol.fit_order", description=__doc__)
    p.add_argument("labels", nargs="+", help="positions labelled with a brain's move (python -m gomoku_protocol.label)")
    p.add_argument("--out", help="write the values here as JSON (default: print them)")
    return p


def run(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    data: list[Choice] = []
    for name in opts.labels:
        for line in read_text(name).splitlines():
            parts = line.split()
            if len(parts) == 4:
                c = choice(parts[0], parts[3])
                if c is not None:
                    data.append(c)
    if len(data) < 100:
        raise UsageError(f"only {len(data)} quiet positions with a brain's move: too few to fit")
    write_table(fitted_values(data), opts.out)
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    return guarded("python -m gomoku_protocol.fit_order", lambda: run(list(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
