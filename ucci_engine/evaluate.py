"""Evaluation: material plus piece-square values, folded into one table per piece code, plus the
king lines (:func:`king_lines`) that the tables cannot see, all from the fitted
:mod:`ucci_engine.weights` (``python3 -m ucci_engine.tune`` refits them). Other structure terms are
candidates the tuner keeps (:data:`ucci_engine.tune.CANDIDATE_NAMES`); the engine weighs none of them.

Table values are from red's point of view (black pieces negative) so the position can keep that part
of the score incrementally. The ``style`` (UCCI ``solid``/``normal``/``risky``) reweights defence
against attack. Unit: 100 ≈ one horse or cannon, as UCCI GUIs expect.
"""

from __future__ import annotations

import os
from typing import Final

# Native ints and the board's vector for the hot code (see ucci_engine.movegen).
from librt.vecs import vec
from mypy_extensions import i64

from ucci_engine.tables import (
    ADVISOR, BISHOP, BLACK_SIDE, CANNON, KING, KNIGHT, KNIGHT_FROM, KNIGHT_FROM_AT, LEAP_AT, LEAP_TO, PAWN, PAWN_FROM,
    PAWN_FROM_AT, RAY_STEP, RAY_STOP, RED_SIDE, ROOK, SQUARES, rank_of,
)
from ucci_engine.weights import MATERIAL, PIECE_SQUARE, TERM_WEIGHTS

STYLES: Final = ("solid", "normal", "risky")
# Per style: defenders' material bonus, and percent of the positional value of attackers across the river.
_STYLE_WEIGHTS: Final = {"solid": (6, 80), "normal": (0, 100), "risky": (-4, 125)}


def _red_value(kind: int, sq: int, style: str) -> int:
    guard_bonus, attack_pct = _STYLE_WEIGHTS[style]
    place = PIECE_SQUARE[kind][sq]
    if kind in (ADVISOR, BISHOP):
        return MATERIAL[kind] + place + guard_bonus
    if rank_of(sq) >= 5 and kind != KING:
        return MATERIAL[kind] + place * attack_pct // 100
    return MATERIAL[kind] + place


def piece_values(style: str = "normal") -> list[vec[i64]]:
    """VALUES[code][sq]: signed value of piece ``code`` on ``sq`` from red's point of view.

    >>> v = piece_values()
    >>> v[5][0] == -v[13][89]  # a red rook on a0 mirrors a black rook on i9
    True
    """
    table = [vec[i64]([0] * SQUARES) for _ in range(16)]  # vectors: make reads two or three at every move
    for kind in range(1, 8):
        for sq in range(SQUARES):
            table[kind][sq] = _red_value(kind, sq, style)
            table[kind | 8][SQUARES - 1 - sq] = -table[kind][sq]
    return table


TEMPO: Final = 3

# --- the learned evaluation ------------------------------------------------------------------

# A small network (docs/xiangqi.md, "Learned evaluation"), off unless the UseNN option asks for it. Its
# first layer is one weight vector of NN_HIDDEN entries for each piece code (1-7 red, 9-15 black) on each
# square, summed over the board into an accumulator that make and unmake update by the pieces they move;
# the rest is a clipped ReLU and one output, added to the hand-made score. All integers: the weights are
# stored scaled by NN_ACTIVE (a hidden unit's full activation) and NN_OUT_SCALE.
# Off because it did not pay (2026-11-26): 31/64 against the hand-made score alone at 3,000 nodes a move,
# and 0.78 of its pure-Python node rate (docs/results/xiangqi.md, "A learned evaluation").
NN_FILE: Final = "xiangqi-nn.txt"
NN_ACTIVE: Final = 64
NN_OUT_SCALE: Final = 8
# NN_LANES hidden units share one i64 of the packed first layer and accumulators (nn_pack): unit k of an entry
# times NN_LANE ** k. A sum of packed rows is the packed sum of the rows while each unit's sum stays within
# +-NN_HALF_LANE (exact integers, so compiled and pure agree), which NN_WEIGHT_BOUND guarantees for the bias and 32
# pieces (33 terms); the shipped net's largest is 98. A quarter of the loads and stores a step: nn_step 4.6 % cheaper
# than with two units an entry in the bench positions to depth 6 (docs/results/xiangqi.md, "the net's units in fours").
NN_LANES: Final = 4  # nn_step reads the four by name
NN_LANE_BITS: Final = 16
NN_LANE: Final = 1 << NN_LANE_BITS
NN_HALF_LANE: Final = 1 << (NN_LANE_BITS - 1)
NN_WEIGHT_BOUND: Final = NN_HALF_LANE // 33


class Network:
    """The network's integer weights: ``first[(code * 90 + sq) * hidden + h]``, ``bias[h]``, ``out[h]``, ``out_bias``;
    the first layer also packed (``packed``, rows of ``width`` entries: :func:`nn_pack`) and ``out`` padded to
    ``NN_LANES * width``."""

    def __init__(self, hidden: int, first: vec[i64], bias: vec[i64], out: vec[i64], out_bias: int) -> None:
        self.hidden: i64 = hidden
        self.first = first
        self.bias = bias
        self.out = out
        self.out_bias: i64 = out_bias
        self.width: i64 = nn_width(hidden)
        self.packed = nn_pack(first, hidden)
        self.out_padded = vec[i64](list(out) + [0] * (NN_LANES * self.width - hidden))


def parse_network(text: str) -> Network:
    """A network from its text: a line ``hidden H``, then lines ``bias``, ``out``, ``outbias`` and one
    ``w CODE SQ`` line a piece on a square, each followed by its integers; ValueError when it does not add up.

    >>> net = parse_network("hidden 2\\nbias 1 -1\\nout 8 0\\noutbias 3\\nw 5 0 64 0\\n")
    >>> net.hidden, net.first[(5 * 90 + 0) * 2], net.out_bias
    (2, 64, 3)
    """
    hidden = 0
    bias: list[int] = []
    out: list[int] = []
    out_bias = 0
    rows: list[tuple[int, int, list[int]]] = []
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        numbers = [int(w) for w in words[1:]]
        if words[0] == "hidden" and len(numbers) == 1 and 0 < numbers[0] <= 1024:
            hidden = numbers[0]
        elif words[0] == "bias":
            bias = numbers
        elif words[0] == "out":
            out = numbers
        elif words[0] == "outbias" and len(numbers) == 1:
            out_bias = numbers[0]
        elif words[0] == "w" and len(numbers) >= 2 and 0 < numbers[0] < 16 and numbers[0] != 8 and 0 <= numbers[1] < SQUARES:
            rows.append((numbers[0], numbers[1], numbers[2:]))
        else:
            raise ValueError(f"unreadable network line: {line[:60]!r}")
    if hidden == 0 or len(bias) != hidden or len(out) != hidden:
        raise ValueError("the network needs hidden, bias and out lines of matching lengths")
    if any(abs(b) >= NN_WEIGHT_BOUND for b in bias):
        raise ValueError(f"a bias of {NN_WEIGHT_BOUND} or more (the accumulator's units are {NN_LANE_BITS}-bit lanes)")
    first = vec[i64]([0] * (16 * SQUARES * hidden))
    for code, sq, weights in rows:
        if len(weights) != hidden:
            raise ValueError(f"w {code} {sq} has {len(weights)} weights, not {hidden}")
        if any(abs(w) >= NN_WEIGHT_BOUND for w in weights):
            raise ValueError(f"w {code} {sq} has a weight of {NN_WEIGHT_BOUND} or more (the accumulator's units are {NN_LANE_BITS}-bit lanes)")
        for h in range(hidden):
            first[(code * SQUARES + sq) * hidden + h] = weights[h]
    return Network(hidden, first, vec[i64](bias), vec[i64](out), out_bias)


def load_network() -> Network:
    """The shipped network (package data ``data/xiangqi-nn.txt``); ValueError or OSError when absent or broken."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", NN_FILE)
    with open(path, encoding="ascii") as f:
        return parse_network(f.read())


def nn_refresh(net: Network, board: vec[i64]) -> vec[i64]:
    """The first layer's accumulator of ``board`` from scratch (make and unmake keep it after)."""
    hidden = net.hidden
    acc = net.bias[:]
    first = net.first
    sq: i64
    h: i64
    for sq in range(SQUARES):
        code: i64 = board[sq]
        if code:
            base: i64 = (code * SQUARES + sq) * hidden
            for h in range(hidden):
                acc[h] += first[base + h]
    return acc


def nn_width(hidden: i64) -> i64:
    """The entries of a packed row of ``hidden`` units (:func:`nn_pack`)."""
    return (hidden + NN_LANES - 1) // NN_LANES


def nn_pack(values: vec[i64], hidden: i64) -> vec[i64]:
    """Rows of ``hidden`` units (a first layer or an accumulator) packed NN_LANES units to an entry (see NN_LANE).

    >>> list(nn_pack(vec[i64]([1, -2, 3, 4, 5, 6]), 3)), list(nn_unpack(nn_pack(vec[i64]([1, -2, 3, 4, -5]), 5), 5))
    ([12884770817, 25770131460], [1, -2, 3, 4, -5])
    """
    width = nn_width(hidden)
    packed = vec[i64]([0] * (len(values) // hidden * width))
    r: i64
    h: i64
    for r in range(len(values) // hidden):
        for h in range(hidden - 1, -1, -1):  # from the top unit of the row down: each entry's are summed as in Horner's rule
            j: i64 = r * width + h // NN_LANES
            packed[j] = packed[j] * NN_LANE + values[r * hidden + h]
    return packed


def nn_unpack(packed: vec[i64], hidden: i64) -> vec[i64]:
    """The ``hidden`` units of one packed accumulator (:func:`nn_pack`)."""
    units = vec[i64]([0] * (NN_LANES * len(packed)))
    j: i64
    k: i64
    for j in range(len(packed)):
        x: i64 = packed[j]
        for k in range(NN_LANES * j, NN_LANES * j + NN_LANES):
            units[k], x = nn_split(x)
    return units[:hidden]


def nn_split(x: i64) -> tuple[i64, i64]:
    """The lowest unit of the packed entry ``x``, sign-extended from its NN_LANE_BITS bits, and the entry of the units
    above it.

    >>> nn_split(nn_pack(vec[i64]([-5, 7]), 2)[0])
    (-5, 7)
    """
    low: i64 = ((x + NN_HALF_LANE) & (NN_LANE - 1)) - NN_HALF_LANE
    return low, (x - low) >> NN_LANE_BITS


def nn_step(net: Network, parent: vec[i64], acc: vec[i64], piece: i64, frm: i64, to: i64, captured: i64) -> i64:
    """The network's score after ``piece`` moved from ``frm`` to ``to`` taking ``captured`` (0: none) in the
    position whose packed accumulator (:func:`nn_pack`) is ``parent``, red's point of view in the hand
    evaluation's units; the packed accumulator after the move is written to ``acc``. ``piece`` 0 is a null
    move (``acc`` a copy).

    One pass over the hidden units for both, NN_LANES at a time: a code 0 has no weights (its rows are zeros), so a
    quiet move's or a null move's missing terms add nothing and need no branch of their own.
    """
    packed = net.packed
    out = net.out_padded
    width = net.width
    add: i64 = (piece * SQUARES + to) * width
    sub: i64 = (piece * SQUARES + frm) * width
    gone: i64 = (captured * SQUARES + to) * width
    total: i64 = 0
    j: i64
    u: i64
    for j in range(width):
        x: i64 = parent[j] + packed[add + j] - packed[sub + j] - packed[gone + j]
        acc[j] = x
        # The four units one after another, not in a loop of NN_LANES: compiled, that loop spilt the step's indexes
        # to memory (+30 M instructions in the bench positions to depth 6, docs/results/xiangqi.md).
        k: i64 = NN_LANES * j
        u, x = nn_split(x)
        total += nn_active(u, out[k])
        u, x = nn_split(x)
        total += nn_active(u, out[k + 1])
        u, x = nn_split(x)
        total += nn_active(u, out[k + 2])
        total += nn_active(x, out[k + 3])
    return total // (NN_ACTIVE * NN_OUT_SCALE) + net.out_bias


def nn_active(unit: i64, weight: i64) -> i64:
    """``weight`` times the activation of ``unit``, clipped to [0, NN_ACTIVE]."""
    # Clipped to an i64 bound: ``unit if unit < NN_ACTIVE else NN_ACTIVE`` is an ``int``, and compiled its product was
    # a boxed multiplication, a quarter of the engine's instructions with the net on.
    top: i64 = NN_ACTIVE
    if unit <= 0:
        return 0
    if unit > top:
        unit = top
    return weight * unit


def nn_output(net: Network, acc: vec[i64]) -> i64:
    """The network's score of the accumulator ``acc`` (one unit an entry, as :func:`nn_refresh` makes it), red's
    point of view, in the hand evaluation's units."""
    return nn_step(net, nn_pack(acc, net.hidden), vec[i64]([0] * net.width), 0, 0, 0, 0)


# --- the king lines ----------------------------------------------------------------------------

# What the first pieces met from a king along its file and rank say; their weights are the first
# KING_TERMS of TERM_WEIGHTS (the tuner's candidate terms follow them there, weighed 0 by the engine).
KING_LINE_NAMES: Final = [
    "hollow cannon",  # an enemy cannon, nothing between it and the king, on the king's file
    "cannon on the king's rank",  # the same along the rank
    "cannon behind two screens",  # one screen moved away, the cannon checks
    "rook behind one screen",  # the screen moved away, the rook checks
]
KING_TERMS: Final = 4  # a few short walks, weighed at every evaluation
TERM_SCALE: Final = 16  # term weights are sixteenths of a unit


def king_lines(board: vec[i64], kings: vec[i64], weights: list[int]) -> int:
    """The king lines (:data:`KING_LINE_NAMES`), red less black, each count times its entry of
    ``weights``: from each king along each direction of its file and rank, what the first three pieces
    met are.

    >>> from ucci_engine.position import Position
    >>> king_lines(Position.from_fen("4k4/9/9/9/9/9/9/4C4/9/3K5 w").board, vec[i64]([3, 85]), [1, 0, 0, 0])
    1
    """
    terms = vec[i64](weights[:KING_TERMS])
    return side_lines(board, kings[RED_SIDE], RED_SIDE, terms) + side_lines(board, kings[BLACK_SIDE], BLACK_SIDE, terms)


def side_lines(board: vec[i64], king: i64, side: i64, weights: vec[i64]) -> i64:
    """:func:`king_lines` of ``side``'s king alone, on ``king``: red's point of view (a threat to red's king counts
    for black). One king's, as a position keeps each king's while its moves leave that king's file and rank alone
    (:meth:`ucci_engine.position.Position.make`). No list is made: the evaluation calls it at every node."""
    total: i64 = 0
    d: i64
    sign: i64 = 2 * side - 1
    enemy: i64 = (side ^ 1) << 3
    cannon, rook = enemy | CANNON, enemy | ROOK
    for d in range(4):
        met: i64 = 0
        step: i64 = RAY_STEP[d]
        stop: i64 = RAY_STOP[king * 4 + d]
        t: i64 = king + step
        while t != stop:
            code: i64 = board[t]
            if code != 0:
                met += 1
                if met == 1:
                    if code == cannon:
                        total += sign * weights[0 if d < 2 else 1]
                elif met == 2:
                    if code == rook:
                        total += sign * weights[3]
                else:
                    if code == cannon:
                        total += sign * weights[2]
                    break
            t += step
    return total


def king_terms(board: vec[i64], kings: vec[i64]) -> list[int]:
    """The king lines' counts, red less black.

    >>> from ucci_engine.position import Position
    >>> pos = Position.from_fen("4k4/4a4/9/4p4/9/9/9/4C4/9/3K5 w")  # two screens: the advisor is pinned
    >>> king_terms(pos.board, pos.kings)
    [0, 0, 1, 0]
    >>> pos = Position.from_fen("3k5/9/9/9/9/9/9/9/9/r2AK4 w")  # a red advisor screens a black rook
    >>> king_terms(pos.board, pos.kings)
    [0, 0, 0, -1]
    """
    return [king_lines(board, kings, [int(i == t) for i in range(KING_TERMS)]) for t in range(KING_TERMS)]


def lines_in_units(lines: int) -> int:
    """The weighed king lines ``lines`` (:func:`weighed_lines`) in whole units, red's point of view."""
    # Rounded toward zero, so a position and its colour-flipped mirror image score the same.
    return lines // TERM_SCALE if lines >= 0 else -(-lines // TERM_SCALE)


def weighed_lines(board: vec[i64], kings: vec[i64]) -> int:
    """The king lines weighed by the fitted :data:`TERM_WEIGHTS` (sixteenths of a unit)."""
    return king_lines(board, kings, TERM_WEIGHTS)


# The fitted king lines' weights, native: compiled, a read of TERM_WEIGHTS (imported from a module that stays
# interpreted) is a look-up in the module's dictionary and an entry to unbox, at each of some 120,000 evaluations
# of one king's lines in the bench positions to depth 6.
_KING_WEIGHTS: Final = vec[i64](TERM_WEIGHTS[:KING_TERMS])


def weighed_side_lines(board: vec[i64], king: i64, side: i64) -> i64:
    """:func:`weighed_lines` of ``side``'s king alone, on ``king``."""
    return side_lines(board, king, side, _KING_WEIGHTS)


# --- static exchange evaluation ---------------------------------------------------------------

# What a piece is worth in an exchange; the king is worth more than anything it could win.
SEE_VALUE: Final = vec[i64]([0, 5000, 20, 20, 90, 200, 95, 15])


def least_attacker(board: vec[i64], sq: i64, side: i64) -> i64:
    """Square of the cheapest piece of ``side`` that could capture on ``sq`` (pins ignored), or -1."""
    enemy: i64 = side << 3
    pawn: i64 = enemy | PAWN
    i: i64
    f: i64
    t: i64
    q: i64
    k: i64 = side * SQUARES + sq
    for i in range(PAWN_FROM_AT[k], PAWN_FROM_AT[k + 1]):
        f = PAWN_FROM[i]
        if board[f] == pawn:
            return f
    advisor: i64 = enemy | ADVISOR
    k = advisor * SQUARES + sq  # an advisor's and an elephant's steps go both ways
    for i in range(LEAP_AT[k], LEAP_AT[k + 1]):
        f = LEAP_TO[i]
        if board[f] == advisor:
            return f
    bishop: i64 = enemy | BISHOP
    k = bishop * SQUARES + sq  # (from, eye) pairs
    for i in range(LEAP_AT[k], LEAP_AT[k + 1], 2):
        f = LEAP_TO[i]
        if board[f] == bishop and board[LEAP_TO[i + 1]] == 0:
            return f
    knight: i64 = enemy | KNIGHT
    for i in range(KNIGHT_FROM_AT[sq], KNIGHT_FROM_AT[sq + 1], 2):
        f = KNIGHT_FROM[i]
        if board[f] == knight and board[KNIGHT_FROM[i + 1]] == 0:
            return f
    rook, cannon = enemy | ROOK, enemy | CANNON
    rook_at: i64 = -1
    d: i64
    for d in range(4):
        screened = False
        step: i64 = RAY_STEP[d]
        stop: i64 = RAY_STOP[sq * 4 + d]
        t = sq + step
        while t != stop:
            q = board[t]
            if q != 0:
                if screened:
                    if q == cannon:
                        return t
                    break
                if q == rook:
                    rook_at = t
                screened = True
            t += step
    if rook_at >= 0:
        return rook_at
    king: i64 = enemy | KING
    k = king * SQUARES + sq
    for i in range(LEAP_AT[k], LEAP_AT[k + 1]):
        f = LEAP_TO[i]
        if board[f] == king:
            return f
    return -1


def exchange(board: vec[i64], move: int) -> int:
    """What the mover nets from the capture ``move`` when both sides recapture on its square with
    their cheapest piece while that pays (the board is left as it was).

    >>> from ucci_engine.position import Position
    >>> from ucci_engine.tables import parse_move
    >>> pos = Position.from_fen("3k5/9/9/4p4/4R4/9/9/9/9/5K3 w")  # the pawn on e6 is not guarded
    >>> exchange(pos.board, parse_move("e5e6"))
    15
    >>> pos = Position.from_fen("3k5/3n5/9/4p4/4R4/9/9/9/9/5K3 w")  # the horse on d8 guards it
    >>> exchange(pos.board, parse_move("e5e6"))
    -185
    """
    return _exchange(board, move, -_EXCHANGE_BOUND, _EXCHANGE_BOUND)


def exchange_loses(board: vec[i64], move: i64) -> bool:
    """Whether :func:`exchange` of ``move`` is below 0, all the search asks: found in the window (-1, 0), which
    stops the recaptures as soon as the sign is known (0.3 % fewer instructions a node in the bench positions to
    depth 6: docs/results/xiangqi.md, "the exchange's sign alone").

    >>> from ucci_engine.position import Position
    >>> from ucci_engine.tables import parse_move
    >>> exchange_loses(Position.from_fen("3k5/3n5/9/4p4/4R4/9/9/9/9/5K3 w").board, parse_move("e5e6"))
    True
    """
    return _exchange(board, move, -1, 0) < 0


def _exchange(board: vec[i64], move: i64, low: i64, high: i64) -> i64:
    """:func:`exchange` of ``move`` clamped to [``low``, ``high``]."""
    frm: i64 = move >> 7
    to: i64 = move & 127
    victim: i64 = board[to]
    piece: i64 = board[frm]
    board[to] = piece
    board[frm] = 0
    result = _recaptures(board, to, (piece >> 3) ^ 1, SEE_VALUE[victim & 7], low, high, True)
    board[frm] = piece
    board[to] = victim
    return result


# Beyond any exchange's balance (16 pieces of at most 5000 each side).
_EXCHANGE_BOUND: Final = 1 << 20


def _recaptures(board: vec[i64], to: i64, side: i64, balance: i64, low: i64, high: i64, theirs: bool) -> i64:
    """:func:`exchange` from where ``side`` may recapture on ``to``, the mover's balance ``balance`` so far, clamped
    to [``low``, ``high``].

    With b0, b1, ... the mover's material balance after each capture, and each side free to stop before its
    next capture, the result is min(b0, max(b1, min(b2, ...))): folded from the front into the bounds ``low``
    and ``high`` (as alpha and beta), it is decided once low reaches high. ``theirs``: whether the next capture is
    the opponent's.
    One call a recapture, which puts its piece back as it returns: the board is left as it was, with no
    scratch of squares to undo (a module's vector was one more state shared by every caller).
    """
    at: i64 = least_attacker(board, to, side)
    if at >= 0:
        if theirs:
            if balance < high:
                high = balance if balance > low else low
        elif balance > low:
            low = balance
        if low < high:
            taken: i64 = board[to]
            code: i64 = board[at]
            board[to] = code
            board[at] = 0
            value: i64 = SEE_VALUE[taken & 7]
            result = _recaptures(board, to, side ^ 1, balance - value if theirs else balance + value, low, high, not theirs)
            board[at] = code
            board[to] = taken
            return result
    if balance <= low:
        return low if low < high else high
    return balance if balance < high else high
