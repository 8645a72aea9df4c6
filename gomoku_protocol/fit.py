"""Fit the gomoku evaluation's weights to data: a stronger brain's scores or game results.

Every position used (15×15 freestyle, after the opening, before either side has a five to make or
the side to move an open four) is one sample: its features are, for the side to move and for the
opponent, how many (empty point, direction) pairs make each line shape, plus the threat levels
the evaluation adds and a tempo. Its label is, for positions labelled by a stronger brain
(:mod:`gomoku_protocol.label`, lines ``h8i9j10 116 1``: moves, the brain's score, the game's
result), the win probability ``σ(score / k)`` with the ``k`` that best fits that brain's scores
to the results (a mate score, ``±MATE``, is a near-certain win or loss: ``MATE_PROB``); for bare games, the result for the side to move (draw ½; a Texel-style fit). A
logistic model ``P(win) = σ(w · features)`` is fitted by Newton's method with a small L2
penalty toward 0, or with ``--pull-to-hand-set`` toward the hand-set values (``HAND_ATTACK`` and
the rest: a term the data rarely shows then keeps about that value instead of falling to 0), and the weights are written in evaluation units: ``σ(score / scale)`` with the
``scale`` that fits the current evaluation to the same labels, so the search's margins keep
their meaning. One position in five (in blocks of 200, so whole games stay together) is held
out and the log-loss there reported for the fit and for the current evaluation.

Rerun it with::

    python -m gomoku_protocol.fit --labels tests/data/gomoku/rapfi_labels.txt \
        --out gomoku_protocol/data/eval_weights.json
"""

import gzip
import json
import math
import pathlib
import sys
from typing import Final, Optional

from engine_core.args import ArgParser, UsageError, guarded
from engine_core.linsolve import solve
from gomoku_protocol import patterns as pt
from gomoku_protocol.evaluate import threat_level
from gomoku_protocol.position import Position
from gomoku_protocol.record import SgfGame, parse_pos, read_sgf_games

SHAPES = range(1, 11)  # every shape but NONE
THREATS = ("their_win_threat", "their_threat", "our_threat")
RIDGE = 1e-3  # L2 penalty per sample: keeps rare shapes' weights from running away
MATE = 20000  # a labelling brain's mate score (gomoku_protocol.label writes mates as ±MATE)
MATE_PROB = 0.98  # the win probability a mate label gets: near-certain, not a hard 1 the fit would chase
# The hand-set evaluation the fit pulls toward, in evaluation units: per shape (sixteenths of a
# point, as in data/eval_weights.json), the threat terms and the tempo.
HAND_ATTACK: Final = [0, 8, 32, 120, 100, 480, 600, 4000, 4000, 40000, 0]
HAND_DEFENCE: Final = [0, 7, 28, 108, 90, 432, 540, 3600, 3600, 36000, 0]
HAND_THREATS: Final = {"their_win_threat": -80, "their_threat": -40, "our_threat": 300}
HAND_TEMPO: Final = 10


class Sample:
    def __init__(self, features: list[float], label: float, current: int) -> None:
        self.features = features
        self.label = label
        self.current = current  # the evaluation in use, for the scale


def shape_counts(b: Position, color: int) -> list[int]:
    """How many (empty point, direction) pairs make each shape for ``color``."""
    counts = [0] * 16
    for i in b.points:
        if b.cells[i] != 0:
            continue
        for d in range(4):
            counts[b.shape(color, d, i)] += 1
    return counts


def features(b: Position) -> Optional[list[float]]:
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
    threats = [float(theirs == 2), float(theirs == 1), float(mine == 1 and theirs < 2 and not b.fours(o))]
    return [float(ours[k]) for k in SHAPES] + [float(their[k]) for k in SHAPES] + threats + [1.0]


def samples(games: list[SgfGame]) -> list[Sample]:
    out: list[Sample] = []
    for g in games:
        b = Position(g.size, g.size, g.rule)
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


def read_labels(text: str) -> list[tuple[str, int, float]]:
    """(moves, brain score, result) per line of a :mod:`gomoku_protocol.label` file (what
    follows, the brain's move, is not used here).

    >>> read_labels("h8i9 68 1 g9\\nh8i9g9 -131 0.5\\n")
    [('h8i9', 68, 1.0), ('h8i9g9', -131, 0.5)]
    """
    out: list[tuple[str, int, float]] = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            out.append((parts[0], int(parts[1]), float(parts[2])))
        except (IndexError, ValueError):
            raise UsageError(f"line {n}: expected 'moves score result', got {line!r}") from None
    return out


def board_of(moves: str, size: int = 15) -> Position:
    """The ``size``×``size`` freestyle board after ``moves`` (``h8i9`` notation), the side to move next."""
    b = Position(size, size, 0)
    for x, y in parse_pos(moves):
        b.play(b.index(x, y), b.side)
    return b


def win_probability(score: int, k: float) -> float:
    """A brain's score as a win probability: ``σ(score / k)``, a mate ``MATE_PROB`` (or its complement).

    >>> [round(win_probability(score, 100.0), 9) for score in (MATE, -MATE, 0)]
    [0.98, 0.02, 0.5]
    """
    if abs(score) >= MATE:
        return MATE_PROB if score > 0 else 1.0 - MATE_PROB
    return sigmoid(score / k)


def labelled_samples(rows: list[tuple[str, int, float]], size: int = 15) -> list[Sample]:
    """Samples labelled by the brain's win probability, ``σ(score / k)`` with ``k`` fitted to the
    results of the rows that are not mates (positions on a ``size``×``size`` board)."""
    scored = [r for r in rows if abs(r[1]) < MATE]
    k = best_scale([float(r[1]) for r in scored], [r[2] for r in scored])
    out: list[Sample] = []
    for moves, score, _ in rows:
        b = board_of(moves, size)
        f = features(b)
        if f is not None:
            out.append(Sample(f, win_probability(score, k), b.evaluate()))
    return out


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def log_loss(xs: list[list[float]], ys: list[float], w: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys):
        p = min(1 - 1e-9, max(1e-9, sigmoid(sum(a * b for a, b in zip(w, x)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(xs))


def fit(xs: list[list[float]], ys: list[float], fixed_zero: set[int], prior: list[float], rounds: int = 12) -> list[float]:
    """Newton's method for the logistic loss with an L2 pull toward ``prior``; features in
    ``fixed_zero`` stay 0."""
    k = len(xs[0])
    w = [0.0 if u in fixed_zero else prior[u] for u in range(k)]
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
            grad[u] += ridge * (w[u] - prior[u])
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


def best_scale(scores: list[float], ys: list[float]) -> float:
    """The ``k`` for which ``σ(score / k)`` best fits ``ys`` (a one-parameter search)."""
    best, best_loss = 100.0, float("inf")
    for k in (25.0 * 1.25 ** t for t in range(30)):
        loss = log_loss([[v / k] for v in scores], ys, [1.0])
        if loss < best_loss:
            best, best_loss = k, loss
    return best


def held_out(n: int) -> bool:
    """One position in five, in blocks of 200 so that a game's positions stay on one side."""
    return (n // 200) % 5 == 4


def fitted_weights(everything: list[Sample], pull_to_hand_set: bool = False) -> dict[str, object]:
    data = [d for n, d in enumerate(everything) if not held_out(n)]
    test = [d for n, d in enumerate(everything) if held_out(n)]
    xs = [d.features for d in data]
    ys = [d.label for d in data]
    shapes = len(SHAPES)
    scale = best_scale([float(d.current) for d in data], ys)
    hand = [HAND_ATTACK[k] / pt.WEIGHT_SCALE for k in SHAPES] + [-HAND_DEFENCE[k] / pt.WEIGHT_SCALE for k in SHAPES]
    hand += [float(HAND_THREATS[name]) for name in THREATS] + [float(HAND_TEMPO)]
    prior = [v / scale if pull_to_hand_set else 0.0 for v in hand]
    zero: set[int] = set()
    while True:  # a shape can only help its owner: weights of the wrong sign are dropped, then refit
        w = fit(xs, ys, zero, prior)
        wrong = {u for u in range(shapes) if w[u] < 0} | {shapes + u for u in range(shapes) if w[shapes + u] > 0}
        if wrong <= zero:
            break
        zero |= wrong
    units = [v * scale for v in w]
    test_ys = [d.label for d in test]
    return {
        "attack": [0] + [round(units[u] * pt.WEIGHT_SCALE) for u in range(shapes)],
        "defence": [0] + [round(-units[shapes + u] * pt.WEIGHT_SCALE) for u in range(shapes)],
        "threats": {name: round(units[2 * shapes + t]) for t, name in enumerate(THREATS)},
        "tempo": round(units[-1]),
        "scale": round(scale, 1),
        "positions": len(data),
        "log_loss": round(log_loss(xs, ys, w), 4),
        "log_loss_current": round(log_loss([[d.current / scale] for d in data], ys, [1.0]), 4),
        "held_out": len(test),
        "held_out_log_loss": round(log_loss([d.features for d in test], test_ys, w), 4),
        "held_out_log_loss_current": round(log_loss([[d.current / scale] for d in test], test_ys, [1.0]), 4),
    }


def parser() -> ArgParser:
    p = ArgParser(prog="python -m gomoku_protocol.fit", description=__doc__)
    p.add_argument("games", nargs="*", help="SGF files of finished games (c-gomoku-cli's -sgf output)")
    p.add_argument("--labels", nargs="*", default=[], help="positions labelled by a stronger brain (python -m gomoku_protocol.label)")
    p.add_argument("--out", help="write the weights here as JSON (default: print them)")
    p.add_argument("--size", type=int, default=15, help="the board size of the games and labelled positions fitted")
    p.add_argument("--pull-to-hand-set", action="store_true",
                   help="pull the weights toward the hand-set values instead of toward 0")
    return p


def read_text(name: str) -> str:
    """A text file, gzip-compressed if its name ends in ``.gz``."""
    try:
        if name.endswith(".gz"):
            return gzip.decompress(pathlib.Path(name).read_bytes()).decode("utf-8")
        return pathlib.Path(name).read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {name!r}: {exc}") from None


def write_table(table: dict[str, object], out: Optional[str]) -> None:
    """Print a fitted table as JSON, and write it to ``out`` too when given."""
    text = json.dumps(table, indent=1) + "\n"
    if out:
        pathlib.Path(out).write_text(text)
    sys.stdout.write(text)


def run(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    games: list[SgfGame] = []
    for name in opts.games:
        games += read_sgf_games(read_text(name))
    rows: list[tuple[str, int, float]] = []
    for name in opts.labels:
        rows += read_labels(read_text(name))
    data = samples([g for g in games if g.size == opts.size and g.rule == 0])
    data += labelled_samples(rows, opts.size) if rows else []
    if len(data) < 100:
        raise UsageError(f"only {len(data)} positions in {len(games)} games and {len(rows)} labelled: too few to fit")
    weights = fitted_weights(data, opts.pull_to_hand_set)
    weights["games"] = len(games)
    weights["labelled"] = len(rows)
    write_table(weights, opts.out)
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    return guarded("python -m gomoku_protocol.fit", lambda: run(list(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
