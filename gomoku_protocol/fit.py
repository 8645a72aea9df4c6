"""Fit the gomoku evaluation's shape weights to game results (a Texel-style logistic fit).

Every position of the given games (after the opening, before either side has a five to make or
the side to move an open four) is one sample: its features are, for the side to move and for the
opponent, how many (empty point, direction) pairs make each line shape, plus the threat levels
the evaluation adds; its label is the game's result for the side to move (draw ½). A logistic
model ``P(win) = σ(w · features)`` is fitted by Newton's method with a small L2 penalty, and the
weights are written in evaluation units: ``σ(score / scale)`` with the ``scale`` that fits the
current evaluation to the same results, so the search's margins keep their meaning.

Rerun it on new games with::

    python -m gomoku_protocol.fit --out gomoku_protocol/data/eval_weights.json games1.sgf games2.sgf
"""

import json
import math
import pathlib
import sys
from typing import Optional

from engine_core.args import ArgParser, UsageError, guarded
from engine_core.linsolve import solve
from gomoku_protocol import patterns as pt
from gomoku_protocol.evaluate import threat_level
from gomoku_protocol.position import Board
from gomoku_protocol.record import SgfGame, read_sgf_games

SHAPES = range(1, 11)  # every shape but NONE
THREATS = ("their_win_threat", "their_threat", "our_threat")
RIDGE = 1e-3  # L2 penalty per sample: keeps rare shapes' weights from running away


class Sample:
    def __init__(self, features: list[float], label: float, current: int) -> None:
        self.features = features
        self.label = label
        self.current = current  # the evaluation in use, for the scale


def shape_counts(b: Board, color: int) -> list[int]:
    """How many (empty point, direction) pairs make each shape for ``color``."""
    counts = [0] * 16
    for i in b.points:
        if b.cells[i] != 0:
            continue
        for d in range(4):
            counts[b.shape(color, d, i)] += 1
    return counts


def features(b: Board) -> Optional[list[float]]:
    """The fit's features for the side to move, or None for a position the search decides."""
    s = b.side
    o = 3 - s
    if b.fives[s] or b.fives[o]:
        return None
    mine = threat_level(b, s)
    theirs = threat_level(b, o)
    if mine == 2:
        return None
    ours = shape_counts(b, s)
    their = shape_counts(b, o)
    threats = [float(theirs == 2), float(theirs == 1), float(mine == 1 and theirs < 2 and not b.fours[o])]
    return [float(ours[k]) for k in SHAPES] + [float(their[k]) for k in SHAPES] + threats + [1.0]


def samples(games: list[SgfGame]) -> list[Sample]:
    out: list[Sample] = []
    for g in games:
        b = Board(g.size, g.size, g.rule)
        for ply, (x, y) in enumerate(g.moves):
            if ply >= g.opening:
                f = features(b)
                if f is not None:
                    label = 0.5 if g.winner == 0 else float(g.winner == b.side)
                    out.append(Sample(f, label, b.evaluate()))
            i = b.index(x, y)
            if b.cells[i] != 0:
                break  # a broken record: keep what came before
            b.play(i, b.side)
    return out


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def log_loss(xs: list[list[float]], ys: list[float], w: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys):
        p = min(1 - 1e-9, max(1e-9, sigmoid(sum(a * b for a, b in zip(w, x)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(xs))


def fit(xs: list[list[float]], ys: list[float], fixed_zero: set[int], rounds: int = 12) -> list[float]:
    """Newton's method for the L2-penalised logistic loss; features in ``fixed_zero`` stay 0."""
    k = len(xs[0])
    w = [0.0] * k
    ridge = RIDGE * len(xs)
    for _ in range(rounds):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys):
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            e = p - y
            q = p * (1 - p)
            for u in range(k):
                if x[u]:
                    grad[u] += e * x[u]
                    qu = q * x[u]
                    row = hess[u]
                    for v in range(k):
                        if x[v]:
                            row[v] += qu * x[v]
        for u in range(k):
            grad[u] += ridge * w[u]
            hess[u][u] += ridge
            if u in fixed_zero:
                grad[u] = 0.0
                hess[u] = [0.0] * k
                hess[u][u] = 1.0
                for v in range(k):
                    if v != u:
                        hess[v][u] = 0.0
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
    return w


def scale_of(data: list[Sample]) -> float:
    """The ``k`` for which ``σ(evaluation / k)`` best fits the results (a one-parameter search)."""
    best, best_loss = 100.0, float("inf")
    for k in (25.0 * 1.25 ** t for t in range(30)):
        xs = [[d.current / k] for d in data]
        loss = log_loss(xs, [d.label for d in data], [1.0])
        if loss < best_loss:
            best, best_loss = k, loss
    return best


def fitted_weights(data: list[Sample]) -> dict[str, object]:
    xs = [d.features for d in data]
    ys = [d.label for d in data]
    shapes = len(SHAPES)
    zero: set[int] = set()
    while True:  # a shape can only help its owner: weights of the wrong sign are dropped, then refit
        w = fit(xs, ys, zero)
        wrong = {u for u in range(shapes) if w[u] < 0} | {shapes + u for u in range(shapes) if w[shapes + u] > 0}
        if wrong <= zero:
            break
        zero |= wrong
    scale = scale_of(data)
    units = [v * scale for v in w]
    return {
        "attack": [0] + [round(units[u] * pt.WEIGHT_SCALE) for u in range(shapes)],
        "defence": [0] + [round(-units[shapes + u] * pt.WEIGHT_SCALE) for u in range(shapes)],
        "threats": {name: round(units[2 * shapes + t]) for t, name in enumerate(THREATS)},
        "tempo": round(units[-1]),
        "scale": round(scale, 1),
        "positions": len(data),
        "log_loss": round(log_loss(xs, ys, w), 4),
        "log_loss_current": round(log_loss([[d.current / scale] for d in data], ys, [1.0]), 4),
    }


def parser() -> ArgParser:
    p = ArgParser(prog="python -m gomoku_protocol.fit", description=__doc__)
    p.add_argument("games", nargs="+", help="SGF files of finished games (c-gomoku-cli's -sgf output)")
    p.add_argument("--out", help="write the weights here as JSON (default: print them)")
    return p


def run(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    games: list[SgfGame] = []
    for name in opts.games:
        try:
            games += read_sgf_games(pathlib.Path(name).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {name!r}: {exc}") from None
    data = samples([g for g in games if g.size == 15 and g.rule == 0])
    if len(data) < 100:
        raise UsageError(f"only {len(data)} positions in {len(games)} games: too few to fit")
    weights = fitted_weights(data)
    weights["games"] = len(games)
    text = json.dumps(weights, indent=1) + "\n"
    if opts.out:
        pathlib.Path(opts.out).write_text(text)
    sys.stdout.write(text)
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    return guarded("python -m gomoku_protocol.fit", lambda: run(list(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
