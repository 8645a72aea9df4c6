"""Fit the evaluation's weights to data: ``python3 -m ucci_engine.tune run DATA`` does it all.

The recipe, each step its own subcommand:

1. ``collect``: sanqi plays itself from the openings in ``data/openings.fen`` with a few thousand
   nodes a move and evaluation noise, and keeps quiet positions (not in check, no winning capture)
   with the game's result: ``FEN;result`` lines, result 1 / 0.5 / 0 for red. Or ``harvest``: the
   same lines from games already played, the PGN records ``sanqi match --records`` writes.
2. ``label``: a stronger UCI engine (Fairy-Stockfish by default) scores each position at a fixed
   depth; the score, from red's point of view, is appended as a third field.
3. ``fit``: a Texel-style fit of material and of one value per kind and square (a square and its
   left-right mirror share it). Each position's target is the labelling engine's score through a
   logistic curve (or the game's result when a line has no score); the scale of our own logistic
   is first fitted to the current weights, then the weights are fitted by Levenberg-Marquardt to
   the squared error of win probabilities on nine positions in ten, pulled gently toward their
   current values, and the tenth held out measures the gain. The result is written as
   ``ucci_engine/weights.py``.
4. ``scale``: the weights of some groups, or of one kind's square values or material (``--groups
   pawn-squares``, ``rook-material``), multiplied by a percentage, rounded down, as a match asked:
   the fit's best error is not the best play (docs/xiangqi.md).
"""

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Optional

from librt.vecs import vec
from mypy_extensions import i64

from engine_core.linsolve import solve
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from ucci_engine import weights
from ucci_engine.arena import replay
from ucci_engine.bench import Peer
from ucci_engine.evaluate import KING_LINE_NAMES, KING_TERMS, TERM_SCALE, exchange, king_terms
from ucci_engine.position import Position
from ucci_engine.tables import (
    ADVISOR, BISHOP, BLACK, KIND_NAMES, KING, KNIGHT, KNIGHT_STEPS, OWN, PAWN, ROOK, SQUARES, file_of, home_side,
    rank_of,
)

DATA = Path(__file__).parent / "data"
WEIGHTS_FILE = Path(__file__).parent / "weights.py"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
LABEL_SCALE = 200.0  # the labelling engine's centipawns per logistic unit
KINDS = range(1, 8)
MATERIAL_KINDS = range(2, 8)
PRIOR = 0.2  # how strongly each weight is held to its current value, per position (0.02 went further, 11 % lower held-out error instead of 8 %, and played worse: see docs/xiangqi.md)
RIDGE = 1e-4  # and the floor of that pull, for the weights of rarely seen squares (3e-4, and 1e-5 and 3e-5 on a third of the data, did worse held out)


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


def harvest(out: Path, games: list[Path], skip: int, every: int, seed: int) -> int:
    """Append ``FEN;result`` lines of the quiet positions of recorded games, past their first ``skip``
    plies, each board and side once, one in ``every`` kept at random; the number of lines written."""
    rng = random.Random(seed)
    met: set[str] = set()
    written = 0
    with out.open("a") as f:
        for game in games:
            fens, result = replay(game.read_text())
            for fen in fens[skip:]:
                board = " ".join(fen.split()[:2])
                if result is None or board in met or rng.randrange(every) or not quiet(Position.from_fen(fen)):
                    continue
                met.add(board)
                f.write(f"{fen};{result}\n")
                written += 1
    return written


# --- labels ------------------------------------------------------------------------------------

class Labeller(Peer):
    """A UCI engine that plays xiangqi (Fairy-Stockfish), asked for a fixed-depth score."""

    HELLO = (("uci", "uciok"), ("setoption name UCI_Variant value xiangqi", ""), ("isready", "readyok"))

    def score(self, fen: str, depth: int) -> Optional[int]:
        """The score for the side to move, mates as ±30000, or None when none was given."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        found: Optional[int] = None
        for line in self.until("bestmove"):
            words = line.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
                found = value if kind == "cp" else (30000 if value > 0 else -30000)
        return found


def label(src: Path, out: Path, engine: str, depth: int) -> int:
    """Write ``src``'s lines to ``out`` with the engine's score from red's point of view appended; the
    number of lines written.

    An ``out`` left by a stopped run is continued: its complete lines are kept and their positions
    not asked again (a line cut short by the stop is dropped), so a long run can be stopped at any
    time, its output fitted, and resumed later, even with more positions added to ``src``.
    """
    kept = out.read_text() if out.exists() else ""
    kept = kept[:kept.rfind("\n") + 1]
    out.write_text(kept)
    done = {line.split(";")[0] for line in kept.splitlines()}
    labeller = Labeller(engine)
    written = 0
    with out.open("a") as f:
        for line in src.read_text().splitlines():
            fen = line.split(";")[0]
            if fen in done:
                continue
            score = labeller.score(fen, depth)
            if score is None:
                continue
            red = score if fen.split()[1] in ("w", "r") else -score
            f.write(f"{fen};{line.split(';')[1]};{red}\n")
            f.flush()
            written += 1
            if written % 1000 == 0:
                print(f"{written} positions labelled, {len(done)} before", file=sys.stderr, flush=True)
    labeller.close()
    return written


# --- candidate terms ---------------------------------------------------------------------------

# Structure terms the tuner can fit (``--groups terms``) after the king lines, and the engine does not
# weigh: fitted alone they lost 9-16 to the engine without them, and computing them cost a sixth of the
# node rate, so their code lives here. A fit that weighs them plays only once ucci_engine.evaluate
# weighs them too (test_xiangqi_tune checks that the shipped weights give them 0).
CANDIDATE_NAMES = [
    "bottom cannon",  # a cannon on the enemy's back rank
    "horse mobility",  # a horse's steps not blocked by its leg or its own pieces
    "rook on a pawnless file",
    "linked pawns",  # two crossed pawns side by side
    "attackers x missing advisors",  # own rooks, horses, cannons across the river times the enemy's missing advisors
    "attackers x missing elephants",
    "cannon x majors",  # a cannon's worth grows with the rooks, horses and cannons left on the board
    "horse x majors",
]
# The names of TERM_WEIGHTS' entries: the king lines, then the candidates.
TERM_NAMES = KING_LINE_NAMES + CANDIDATE_NAMES
TERM_COUNT = len(TERM_NAMES)


def terms(board: vec[i64], pieces: list[list[int]], kings: vec[i64]) -> list[int]:
    """Each term's count for red less black's, in the order of :data:`TERM_NAMES`.

    >>> from ucci_engine.position import START_FEN
    >>> pos = Position.from_fen(START_FEN)
    >>> terms(pos.board, pos.pieces, pos.kings) == [0] * TERM_COUNT
    True
    >>> pos = Position.from_fen("4k4/9/9/9/9/9/9/4C4/9/3K5 w")
    >>> terms(pos.board, pos.pieces, pos.kings)[:2]  # a hollow cannon; not on the back rank
    [1, 0]
    """
    out = king_terms(board, kings) + [0] * len(CANDIDATE_NAMES)
    red = [0] * _TALLIES
    black = [0] * _TALLIES
    _side_terms(board, pieces[0], 0, out, red)
    _side_terms(board, pieces[1], 1, out, black)
    out[8] = red[_CROSSED] * (2 - black[_ADVISORS]) - black[_CROSSED] * (2 - red[_ADVISORS])
    out[9] = red[_CROSSED] * (2 - black[_BISHOPS]) - black[_CROSSED] * (2 - red[_BISHOPS])
    majors = red[_MAJORS] + black[_MAJORS]
    out[10] = (red[_CANNONS] - black[_CANNONS]) * majors
    out[11] = (red[_KNIGHTS] - black[_KNIGHTS]) * majors
    return out


# What _side_terms counts of one side's pieces, by index.
_ADVISORS = 0
_BISHOPS = 1
_CANNONS = 2
_KNIGHTS = 3
_MAJORS = 4
_CROSSED = 5
_TALLIES = 6
# FILE_SQUARES[file]: the squares of a file.
_FILE_SQUARES = [[rank * 9 + file for rank in range(10)] for file in range(9)]


def _side_terms(board: vec[i64], squares: list[int], side: int, out: list[int], tally: list[int]) -> None:
    """Add one side's candidate terms to ``out`` (black's negated) and count its pieces into ``tally``."""
    sign = 1 - 2 * side
    own = OWN[side]
    back_rank = 9 - 9 * side
    for sq in squares:
        code = board[sq]
        kind = code & 7
        if kind == PAWN:
            if file_of(sq) < 8 and board[sq + 1] == code and home_side(rank_of(sq)) != side:
                out[7] += sign
        elif kind == ADVISOR:
            tally[_ADVISORS] += 1
        elif kind == BISHOP:
            tally[_BISHOPS] += 1
        elif kind != KING:
            tally[_MAJORS] += 1
            if home_side(rank_of(sq)) != side:
                tally[_CROSSED] += 1
            if kind == KNIGHT:
                tally[_KNIGHTS] += 1
                steps = 0
                pairs = KNIGHT_STEPS[sq]
                for i in range(0, len(pairs), 2):
                    if board[pairs[i + 1]] == 0 and not own[board[pairs[i]]]:
                        steps += 1
                out[5] += sign * steps
            elif kind == ROOK:
                pawnless = True
                for t in _FILE_SQUARES[file_of(sq)]:
                    if board[t] & 7 == PAWN:
                        pawnless = False
                        break
                if pawnless:
                    out[6] += sign
            else:
                tally[_CANNONS] += 1
                if rank_of(sq) == back_rank:
                    out[4] += sign


# --- the fit ---------------------------------------------------------------------------------

CLASSES = 50  # squares up to the left-right mirror: rank * 5 + distance from the nearer edge file


def square_class(sq: int) -> int:
    """The index of ``sq`` and its mirror image among a kind's fitted values.

    >>> square_class(0) == square_class(8), square_class(4), square_class(89)
    (True, 4, 45)
    """
    return rank_of(sq) * 5 + min(file_of(sq), 8 - file_of(sq))


# Layout of the weight vector: material by kind, each kind's square values, the structure terms.
SQUARE_BASE = len(MATERIAL_KINDS)
TERM_BASE = SQUARE_BASE + len(KINDS) * CLASSES
GROUPS = {
    "material": range(SQUARE_BASE),
    "squares": range(SQUARE_BASE, TERM_BASE),
    "king": range(TERM_BASE, TERM_BASE + KING_TERMS),
    "terms": range(TERM_BASE + KING_TERMS, TERM_BASE + TERM_COUNT),
}
# Fitted by default: the king lines cost little and are weighed always, fitted with ``--groups king``
# (docs/xiangqi.md); the candidate terms (``--groups terms``) are not weighed by the engine.
FITTED = ("material", "squares")


def kind_squares(kind: int) -> range:
    """Where ``kind``'s square values lie in the weight vector, one a :func:`square_class`."""
    return range(SQUARE_BASE + (kind - 1) * CLASSES, SQUARE_BASE + kind * CLASSES)


def kind_material(kind: int) -> range:
    """Where ``kind``'s material lies in the weight vector: one index, none for the king.

    >>> list(kind_material(5)), list(kind_material(1))
    ([3], [])
    """
    first = kind - MATERIAL_KINDS.start
    return range(first, first + 1) if kind in MATERIAL_KINDS else range(0)


# What ``scale`` may scale: the groups, each kind's square values alone (``pawn-squares``...) and each
# kind's material alone (``rook-material``...; the king has none).
SCALABLE = {
    **GROUPS,
    **{f"{KIND_NAMES[kind]}-squares": kind_squares(kind) for kind in KINDS},
    **{f"{KIND_NAMES[kind]}-material": kind_material(kind) for kind in MATERIAL_KINDS},
}
Features = dict[int, float]


def square_index(kind: int, sq: int) -> int:
    return kind_squares(kind)[square_class(sq)]


def features(pos: Position) -> Features:
    """What the evaluation weighs, red less black, as ``{index: count}``: material by kind, pieces by
    kind and square, and the structure terms. The evaluation is :func:`value` with :func:`start`.

    >>> from ucci_engine.position import START_FEN
    >>> features(Position.from_fen(START_FEN))  # everything is even
    {}
    """
    x: Features = {}
    for sq in range(SQUARES):
        code = pos.board[sq]
        if code:
            kind, sign, own = code & 7, -1.0 if code & BLACK else 1.0, SQUARES - 1 - sq if code & BLACK else sq
            for i in (*kind_material(kind), square_index(kind, own)):
                x[i] = x.get(i, 0.0) + sign
    for t, count in enumerate(terms(pos.board, pos.pieces, pos.kings)):
        x[TERM_BASE + t] = float(count)
    return {i: v for i, v in x.items() if v}


def value(w: list[float], x: Features) -> float:
    return sum(w[i] * v for i, v in x.items())


def start() -> list[float]:
    """The current weights in the units :func:`features` pairs them with."""
    w = [float(weights.MATERIAL[k]) for k in MATERIAL_KINDS] + [0.0] * (len(KINDS) * CLASSES)
    for kind in KINDS:
        for sq in range(SQUARES):
            w[square_index(kind, sq)] = float(weights.PIECE_SQUARE[kind][sq])
    return w + [t / TERM_SCALE for t in weights.TERM_WEIGHTS]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def read(path: Path) -> tuple[list[Features], list[float]]:
    """Features and target win probabilities (red's) of a data file's positions."""
    rows: list[Features] = []
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


def loss(rows: list[Features], targets: list[float], w: list[float], k: float) -> float:
    total = 0.0
    for x, t in zip(rows, targets):
        total += (sigmoid(value(w, x) / k) - t) ** 2
    return total / max(1, len(rows))


def fit_scale(rows: list[Features], targets: list[float], w: list[float]) -> float:
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


def fit(rows: list[Features], targets: list[float], w0: list[float], k: float, rounds: int = 10,
        fixed: tuple[str, ...] = ()) -> list[float]:
    """Levenberg-Marquardt on the squared probability error plus a pull toward ``w0``; the weights
    of the ``fixed`` groups (see :data:`GROUPS`) and those no position uses keep their values.

    Each weight's pull is a part proportional to how much its feature varies plus a floor, so a
    square few positions show stays near its old value.
    """
    held = {i for name in fixed for i in GROUPS[name]}
    free = sorted({i for x in rows for i in x} - held)
    at = {i: n for n, i in enumerate(free)}
    count = max(1, len(rows))
    spread = [0.0] * len(free)
    for x in rows:
        for i, v in x.items():
            if i in at:
                spread[at[i]] += v * v / count
    pull = [(PRIOR * s / 4 + RIDGE) / (k * k) for s in spread]
    w = w0[:]

    def objective(v: list[float]) -> float:
        return loss(rows, targets, v, k) + sum(p * (v[i] - w0[i]) ** 2 for p, i in zip(pull, free))

    current = objective(w)
    damping = 1e-3
    n = len(free)
    for _ in range(rounds):
        jtj = [[0.0] * n for _ in range(n)]
        jtr = [0.0] * n
        for x, t in zip(rows, targets):
            p = sigmoid(value(w, x) / k)
            g = p * (1 - p) / k
            r = p - t
            used = [(at[i], g * v) for i, v in x.items() if i in at]
            for a, ga in used:
                jtr[a] += ga * r
                row = jtj[a]
                for b, gb in used:
                    row[b] += ga * gb
        for a, i in enumerate(free):
            jtr[a] = jtr[a] / count + pull[a] * (w[i] - w0[i])
            jtj[a] = [v / count for v in jtj[a]]
            jtj[a][a] += pull[a]
        while damping < 1e6:
            m = [[v + (damping * row[a] if a == b else 0.0) for b, v in enumerate(row)] for a, row in enumerate(jtj)]
            step = solve(m, [-v for v in jtr])
            trial = w[:]
            for a, i in enumerate(free):
                trial[i] += step[a]
            score = objective(trial)
            if score < current:
                w, current = trial, score
                damping = max(1e-7, damping / 3)
                break
            damping *= 4
        else:
            break
    return w


def render(w: list[float]) -> str:
    """The text of weights.py for the fitted weights ``w``."""
    material = [0, 0] + [round(v) for v in w[:SQUARE_BASE]]
    tables = "\n".join(
        f"    # {KIND_NAMES[kind]}\n    [\n"
        + "".join("        " + ", ".join(f"{round(w[square_index(kind, r * 9 + f)]):3d}" for f in range(9)) + ",\n"
                  for r in range(10))
        + "    ],"
        for kind in KINDS)
    term_weights = [round(v * TERM_SCALE) for v in w[TERM_BASE:]]
    named = "\n".join(f"#   {name}: {value}" for name, value in zip(TERM_NAMES, term_weights))
    return (
        '"""Evaluation weights fitted by ``python3 -m ucci_engine.tune fit`` (a generated file: refit, do not edit)."""\n\n'
        "from typing import Final\n\n"
        "# Material by kind (index: 1 king, 2 advisor, 3 elephant, 4 horse, 5 rook, 6 cannon, 7 pawn).\n"
        f"MATERIAL: Final = {material}\n"
        "# PIECE_SQUARE[kind][sq]: what a red piece adds to its material on ``sq`` (rank * 9 + file, one\n"
        "# line a rank from red's back rank up); a black piece counts the mirrored square 89 - sq.\n"
        f"PIECE_SQUARE: Final = [\n    [0] * 90,\n{tables}\n]\n"
        "# Structure terms (ucci_engine.tune.TERM_NAMES: the king lines, then candidates the engine does not weigh),\n"
        "# sixteenths of a unit:\n"
        f"{named}\n"
        f"TERM_WEIGHTS: Final = {term_weights}\n"
    )


def run_fit(data: Path, out: Path, rounds: int, fixed: tuple[str, ...] = (), seed: int = 1) -> tuple[float, float, float, float]:
    """Fit the weights to nine tenths of ``data`` and write them to ``out``; the loss before and after
    on those positions, then on the tenth held out."""
    rows, targets = read(data)
    held_out = set(random.Random(seed).sample(range(len(rows)), len(rows) // 10))
    train = [n for n in range(len(rows)) if n not in held_out]
    test = sorted(held_out)
    train_rows, train_targets = [rows[n] for n in train], [targets[n] for n in train]
    test_rows, test_targets = [rows[n] for n in test], [targets[n] for n in test]
    w0 = start()
    k = fit_scale(train_rows, train_targets, w0)
    w = fit(train_rows, train_targets, w0, k, rounds, fixed)
    out.write_text(render(w))
    losses = (loss(train_rows, train_targets, w0, k), loss(train_rows, train_targets, w, k),
              loss(test_rows, test_targets, w0, k), loss(test_rows, test_targets, w, k))
    print(f"{len(train)} positions fitted, {len(test)} held out, logistic scale {k:.1f}: loss {losses[0]:.5f} -> "
          f"{losses[1]:.5f}, held out {losses[2]:.5f} -> {losses[3]:.5f}", file=sys.stderr)
    return losses


def scaled(w: list[float], groups: list[str], percent: int) -> list[float]:
    """``w`` with the weights of ``groups`` times ``percent`` / 100, rounded down in the units
    :func:`render` writes: whole units for material and squares, sixteenths for the king lines and terms.

    >>> w = start()
    >>> i = square_index(5, 0)  # a rook on a0
    >>> scaled(w, ["squares"], 125)[i] == (int(w[i]) * 125) // 100, scaled(w, ["squares"], 125)[0] == w[0]
    (True, True)
    >>> t = [0.0] * TERM_BASE + [5 / TERM_SCALE] + [0.0] * (TERM_COUNT - 1)
    >>> scaled(t, ["king"], 150)[TERM_BASE] * TERM_SCALE  # 7.5 sixteenths down to 7, not to 0 units
    7.0
    >>> pawns = scaled(w, ["pawn-squares"], 125)  # one kind's square values, the others as they were
    >>> pawns[square_index(7, 85)] == (int(w[square_index(7, 85)]) * 125) // 100, pawns[i] == w[i]
    (True, True)
    """
    chosen = {i for group in groups for i in SCALABLE[group]}
    unit = [1.0 if i < TERM_BASE else 1.0 / TERM_SCALE for i in range(len(w))]
    return [math.floor(v / unit[i] * percent / 100) * unit[i] if i in chosen else v for i, v in enumerate(w)]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m ucci_engine.tune", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    for name in ("collect", "run"):
        p = sub.add_parser(name)
        p.add_argument("--games", type=int, default=150)
        p.add_argument("--nodes", type=int, default=3000, help="nodes a move in self-play")
        p.add_argument("--every", type=int, default=3, help="keep one quiet position in this many")
        p.add_argument("--seed", type=int, default=1)
    harvesting = sub.add_parser("harvest")
    harvesting.add_argument("--records", type=Path, nargs="+", required=True, help="PGN files of played games")
    harvesting.add_argument("--skip", type=int, default=8, help="opening plies left out")
    harvesting.add_argument("--every", type=int, default=1, help="keep one quiet position in this many")
    harvesting.add_argument("--seed", type=int, default=1)
    for name in ("label", "run"):
        p = sub.choices[name] if name in sub.choices else sub.add_parser(name)
        p.add_argument("--engine", default=FAIRY_STOCKFISH)
        p.add_argument("--depth", type=int, default=10)
    for name in ("fit", "run"):
        p = sub.choices[name] if name in sub.choices else sub.add_parser(name)
        p.add_argument("--rounds", type=int, default=10)
        p.add_argument("--weights", type=Path, default=WEIGHTS_FILE)
        p.add_argument("--groups", nargs="+", choices=sorted(GROUPS), default=list(FITTED),
                       help=f"the weight groups to fit; the others keep their values (default: {' '.join(FITTED)})")
    for p in sub.choices.values():
        p.add_argument("data", type=Path, help="positions file (collect appends, label writes DATA.labelled)")
    scaling = sub.add_parser("scale")
    scaling.add_argument("--groups", nargs="+", choices=sorted(SCALABLE), required=True)
    scaling.add_argument("--percent", type=int, required=True)
    scaling.add_argument("--weights", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    if args.step == "scale":
        args.weights.write_text(render(scaled(start(), args.groups, args.percent)))
        return 0
    labelled = args.data.with_name(args.data.name + ".labelled")
    if args.step in ("collect", "run"):
        collect(args.data, args.games, args.nodes, args.every, args.seed)
    if args.step == "harvest":
        harvest(args.data, args.records, args.skip, args.every, args.seed)
    if args.step in ("label", "run"):
        label(args.data, labelled, args.engine, args.depth)
    if args.step in ("fit", "run"):
        fixed = tuple(name for name in GROUPS if name not in args.groups)
        run_fit(args.data if args.step == "fit" else labelled, args.weights, args.rounds, fixed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
