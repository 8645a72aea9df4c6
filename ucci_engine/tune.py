"""Fit the evaluation's weights to data: ``python3 -m ucci_engine.tune run DATA`` does it all.

The recipe, each step its own subcommand:

1. ``collect``: sanqi plays itself from the openings in ``data/openings.fen`` with a few thousand
   nodes a move and evaluation noise, and keeps quiet positions (not in check, no winning capture)
   with the game's result: ``FEN;result`` lines, result 1 / 0.5 / 0 for red.
2. ``label``: a stronger UCI engine (Fairy-Stockfish by default) scores each position at a fixed
   depth; the score, from red's point of view, is appended as a third field.
3. ``fit``: a Texel-style fit. Each position's target is the labelling engine's score through a
   logistic curve (or the game's result when a line has no score); the scale of our own logistic
   is first fitted to the current weights, then the weights are fitted by Levenberg-Marquardt to
   the squared error of win probabilities, pulled gently toward their current values. The result is
   written as ``ucci_engine/weights.py``.
"""

import argparse
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Optional

from engine_core.linsolve import solve
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from ucci_engine import weights
from ucci_engine.bench import Peer
from ucci_engine.evaluate import TERM_COUNT, TERM_NAMES, TERM_SCALE, exchange, positional, terms
from ucci_engine.position import Position
from ucci_engine.tables import BLACK, SQUARES

DATA = Path(__file__).parent / "data"
WEIGHTS_FILE = Path(__file__).parent / "weights.py"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
LABEL_SCALE = 200.0  # the labelling engine's centipawns per logistic unit
KINDS = range(1, 8)
MATERIAL_KINDS = range(2, 8)
PRIOR = 0.02  # how strongly each weight is held to its current value, per position


# --- positions --------------------------------------------------------------------------------

def quiet(pos: Position) -> bool:
    """Not in check, and no capture that wins material: the static evaluation means something."""
    if pos.in_check():
        return False
    return all(exchange(pos.board, m) <= 0 for m in pos.noisy_moves())


def self_play(start: str, nodes: int, noise: int, rng: random.Random, max_plies: int = 200) -> tuple[list[str], float]:
    """One game of sanqi against itself: the quiet positions met and red's result."""
    pos = Position.from_fen(start)
    searcher = Searcher(TransTable(4))
    seen: list[str] = []
    for _ in range(max_plies):
        verdict = pos.outcome()
        if verdict == "loss":
            return seen, (0.0 if pos.side == 0 else 1.0)
        if verdict == "draw":
            return seen, 0.5
        if quiet(pos):
            seen.append(pos.fen())
        pos.noise = noise
        pos.salt = rng.getrandbits(62)
        lim = Limits()
        lim.nodes = nodes
        lines = searcher.think(pos, lim)
        if not lines:
            return seen, (0.0 if pos.side == 0 else 1.0)
        if abs(lines[0].score) > 5000:  # a mate or a repetition loss is in sight: the game is decided
            won = lines[0].score > 0
            return seen, (1.0 if won == (pos.side == 0) else 0.0)
        pos.push_name(pos.move_name(lines[0].move))
    return seen, 0.5


def collect(out: Path, games: int, nodes: int, every: int, seed: int) -> int:
    """Append ``FEN;result`` lines from ``games`` self-play games; the number of lines written."""
    rng = random.Random(seed)
    starts = [line for line in (DATA / "openings.fen").read_text().splitlines() if line and not line.startswith("#")]
    written = 0
    with out.open("a") as f:
        for game in range(games):
            fens, result = self_play(starts[game % len(starts)], nodes, 20, rng)
            for fen in fens[rng.randrange(every)::every]:
                f.write(f"{fen};{result}\n")
                written += 1
            print(f"game {game + 1}/{games}: result {result}, {written} positions so far", file=sys.stderr, flush=True)
    return written


# --- labels ------------------------------------------------------------------------------------

class Labeller(Peer):
    """A UCI engine that plays xiangqi (Fairy-Stockfish), asked for a fixed-depth score."""

    HELLO = (("uci", "uciok"), ("setoption name UCI_Variant value xiangqi", ""), ("isready", "readyok"))
    STDERR = subprocess.DEVNULL

    def score(self, fen: str, depth: int) -> Optional[int]:
        """The score for the side to move, mates as ±30000, or None when none was given."""
        self.say(f"position fen {fen}")
        self.say(f"go depth {depth}")
        found: Optional[int] = None
        for line in self.until("bestmove"):
            words = line.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
                found = value if kind == "cp" else (30000 if value > 0 else -30000)
        return found


def label(src: Path, out: Path, engine: str, depth: int) -> int:
    """Write ``src``'s lines to ``out`` with the engine's score from red's point of view appended."""
    labeller = Labeller(engine)
    written = 0
    with out.open("w") as f:
        for line in src.read_text().splitlines():
            fen = line.split(";")[0]
            score = labeller.score(fen, depth)
            if score is None:
                continue
            red = score if fen.split()[1] in ("w", "r") else -score
            f.write(f"{line.split(';')[0]};{line.split(';')[1]};{red}\n")
            written += 1
    labeller.close()
    return written


# --- the fit -----------------------------------------------------------------------------------

def features(pos: Position) -> list[float]:
    """What the evaluation weighs, red less black: material counts by kind, the hand-set positional
    sums by kind, and the structure terms. The evaluation is the dot product with :func:`start`.

    >>> from ucci_engine.position import START_FEN
    >>> len(features(Position.from_fen(START_FEN))) == len(MATERIAL_KINDS) + len(KINDS) + TERM_COUNT
    True
    """
    material = [0.0] * 8
    places = [0.0] * 8
    for sq in range(SQUARES):
        code = pos.board[sq]
        if code:
            kind = code & 7
            if code & BLACK:
                material[kind] -= 1
                places[kind] -= positional(kind, SQUARES - 1 - sq)
            else:
                material[kind] += 1
                places[kind] += positional(kind, sq)
    found = terms(pos.board, pos.pieces, pos.kings)
    return [material[k] for k in MATERIAL_KINDS] + [places[k] for k in KINDS] + [float(t) for t in found]


def start() -> list[float]:
    """The current weights in the units :func:`features` pairs them with."""
    return ([float(weights.MATERIAL[k]) for k in MATERIAL_KINDS] + [weights.POSITIONAL_PERCENT[k] / 100 for k in KINDS]
            + [w / TERM_SCALE for w in weights.TERM_WEIGHTS])


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def read(path: Path) -> tuple[list[list[float]], list[float]]:
    """Features and target win probabilities (red's) of a data file's positions."""
    rows: list[list[float]] = []
    targets: list[float] = []
    for line in path.read_text().splitlines():
        fields = line.split(";")
        if len(fields) < 2 or line.startswith("#"):
            continue
        score = float(fields[2]) if len(fields) > 2 and fields[2] else None
        if score is not None and abs(score) >= 2000:
            continue  # decided: nothing to learn about the balance
        rows.append(features(Position.from_fen(fields[0])))
        targets.append(sigmoid(score / LABEL_SCALE) if score is not None else float(fields[1]))
    return rows, targets


def loss(rows: list[list[float]], targets: list[float], w: list[float], k: float) -> float:
    total = 0.0
    for x, t in zip(rows, targets):
        total += (sigmoid(sum(a * b for a, b in zip(w, x)) / k) - t) ** 2
    return total / max(1, len(rows))


def fit_scale(rows: list[list[float]], targets: list[float], w: list[float]) -> float:
    """The logistic scale that makes the weights ``w`` predict the targets best (golden section)."""
    lo, hi = 10.0, 2000.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if loss(rows, targets, w, a) < loss(rows, targets, w, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


GROUPS = {
    "material": range(0, len(MATERIAL_KINDS)),
    "positional": range(len(MATERIAL_KINDS), len(MATERIAL_KINDS) + len(KINDS)),
    "terms": range(len(MATERIAL_KINDS) + len(KINDS), len(MATERIAL_KINDS) + len(KINDS) + TERM_COUNT),
}
# Fitted by default: the structure terms, fitted alone, lost 9-16 to the engine without them, so the
# engine does not compute them while their weights are all 0 (see README, "Strength work").
FITTED = ("material", "positional")


def fit(rows: list[list[float]], targets: list[float], w0: list[float], k: float, rounds: int = 30,
        fixed: tuple[str, ...] = ()) -> list[float]:
    """Levenberg-Marquardt on the squared probability error plus a pull toward ``w0``; the weights
    of the ``fixed`` groups (see :data:`GROUPS`) keep their values.

    Each weight's pull is scaled by how much its feature varies, so rarely seen terms stay put.
    """
    n = len(w0)
    held = {i for name in fixed for i in GROUPS[name]}
    count = max(1, len(rows))
    spread = [max(1e-6, sum(x[i] * x[i] for x in rows) / count) for i in range(n)]
    w = w0[:]

    def objective(v: list[float]) -> float:
        pull = sum(PRIOR * spread[i] * (v[i] - w0[i]) ** 2 for i in range(n)) / (k * k)
        return loss(rows, targets, v, k) + pull * 0.25

    current = objective(w)
    damping = 1e-3
    for _ in range(rounds):
        jtj = [[0.0] * n for _ in range(n)]
        jtr = [0.0] * n
        for x, t in zip(rows, targets):
            p = sigmoid(sum(a * b for a, b in zip(w, x)) / k)
            g = p * (1 - p) / k
            r = p - t
            for i in range(n):
                gi = g * x[i]
                if gi:
                    jtr[i] += gi * r
                    row = jtj[i]
                    for j in range(n):
                        row[j] += gi * g * x[j]
        for i in range(n):
            jtr[i] = jtr[i] / count + PRIOR * spread[i] * (w[i] - w0[i]) / (4 * k * k)
            for j in range(n):
                jtj[i][j] = 0.0 if i in held or j in held else jtj[i][j] / count
            jtj[i][i] += PRIOR * spread[i] / (4 * k * k)
            if i in held:
                jtr[i] = 0.0
        while damping < 1e6:
            a = [[jtj[i][j] + (damping * jtj[i][i] if i == j else 0.0) for j in range(n)] for i in range(n)]
            step = solve(a, [-v for v in jtr])
            trial = [w[i] + step[i] for i in range(n)]
            value = objective(trial)
            if value < current:
                w, current = trial, value
                damping = max(1e-7, damping / 3)
                break
            damping *= 4
        else:
            break
    return w


def render(w: list[float]) -> str:
    """The text of weights.py for the fitted weights ``w``."""
    material = [0, 0] + [round(v) for v in w[: len(MATERIAL_KINDS)]]
    percent = [0] + [max(0, round(v * 100)) for v in w[len(MATERIAL_KINDS): len(MATERIAL_KINDS) + len(KINDS)]]
    term_weights = [round(v * TERM_SCALE) for v in w[len(MATERIAL_KINDS) + len(KINDS):]]
    named = "\n".join(f"#   {name}: {value}" for name, value in zip(TERM_NAMES, term_weights))
    return (
        '"""Evaluation weights fitted by ``python3 -m ucci_engine.tune fit`` (a generated file: refit, do not edit)."""\n\n'
        "from typing import Final\n\n"
        "# Material by kind (index: 1 king, 2 advisor, 3 elephant, 4 horse, 5 rook, 6 cannon, 7 pawn).\n"
        f"MATERIAL: Final = {material}\n"
        "# Percent of the hand-set piece-square values each kind keeps.\n"
        f"POSITIONAL_PERCENT: Final = {percent}\n"
        "# Structure terms (ucci_engine.evaluate.TERM_NAMES), sixteenths of a unit:\n"
        f"{named}\n"
        f"TERM_WEIGHTS: Final = {term_weights}\n"
    )


def run_fit(data: Path, out: Path, rounds: int, fixed: tuple[str, ...] = ()) -> tuple[float, float]:
    """Fit the weights to ``data`` and write them to ``out``; the loss before and after."""
    rows, targets = read(data)
    w0 = start()
    k = fit_scale(rows, targets, w0)
    before = loss(rows, targets, w0, k)
    w = fit(rows, targets, w0, k, rounds, fixed)
    after = loss(rows, targets, w, k)
    out.write_text(render(w))
    print(f"{len(rows)} positions, logistic scale {k:.1f}: loss {before:.5f} -> {after:.5f}", file=sys.stderr)
    return before, after


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m ucci_engine.tune", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    for name in ("collect", "run"):
        p = sub.add_parser(name)
        p.add_argument("--games", type=int, default=150)
        p.add_argument("--nodes", type=int, default=3000, help="nodes a move in self-play")
        p.add_argument("--every", type=int, default=3, help="keep one quiet position in this many")
        p.add_argument("--seed", type=int, default=1)
    for name in ("label", "run"):
        p = sub.choices[name] if name in sub.choices else sub.add_parser(name)
        p.add_argument("--engine", default=FAIRY_STOCKFISH)
        p.add_argument("--depth", type=int, default=10)
    for name in ("fit", "run"):
        p = sub.choices[name] if name in sub.choices else sub.add_parser(name)
        p.add_argument("--rounds", type=int, default=30)
        p.add_argument("--weights", type=Path, default=WEIGHTS_FILE)
        p.add_argument("--groups", nargs="+", choices=sorted(GROUPS), default=list(FITTED),
                       help=f"the weight groups to fit; the others keep their values (default: {' '.join(FITTED)})")
    for p in sub.choices.values():
        p.add_argument("data", type=Path, help="positions file (collect appends, label writes DATA.labelled)")
    args = parser.parse_args(argv)
    labelled = args.data.with_name(args.data.name + ".labelled")
    if args.step in ("collect", "run"):
        collect(args.data, args.games, args.nodes, args.every, args.seed)
    if args.step in ("label", "run"):
        label(args.data, labelled, args.engine, args.depth)
    if args.step in ("fit", "run"):
        fixed = tuple(name for name in GROUPS if name not in args.groups)
        run_fit(args.data if args.step == "fit" else labelled, args.weights, args.rounds, fixed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
