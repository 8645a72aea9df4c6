"""Evaluation: material plus piece-square values, folded into one table per piece code, plus the
structure terms (:func:`terms`) that the tables cannot see, all from the fitted
:mod:`ucci_engine.weights` (``python3 -m ucci_engine.tune`` refits them).

Table values are from red's point of view (black pieces negative) so the position can keep that part
of the score incrementally. The ``style`` (UCCI ``solid``/``normal``/``risky``) reweights defence
against attack. Unit: 100 ≈ one horse or cannon, as UCCI GUIs expect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    # Native ints for the hot code (see ucci_engine.movegen): annotations are never evaluated, so pure
    # Python never needs the name.
    from mypy_extensions import i64

from ucci_engine.tables import (
    ADVISOR, ADVISOR_STEPS, BISHOP, BISHOP_STEPS, CANNON, KING, KING_STEPS, KNIGHT, KNIGHT_ATTACKERS, KNIGHT_STEPS, OWN,
    PAWN, PAWN_ATTACKERS, RAYS, ROOK, SQUARES, file_of, home_side, rank_of,
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


def piece_values(style: str = "normal") -> list[list[int]]:
    """VALUES[code][sq]: signed value of piece ``code`` on ``sq`` from red's point of view.

    >>> v = piece_values()
    >>> v[5][0] == -v[13][89]  # a red rook on a0 mirrors a black rook on i9
    True
    """
    table: list[list[int]] = [[0] * SQUARES for _ in range(16)]
    for kind in range(1, 8):
        for sq in range(SQUARES):
            table[kind][sq] = _red_value(kind, sq, style)
            table[kind | 8][SQUARES - 1 - sq] = -table[kind][sq]
    return table


TEMPO: Final = 3

# --- structure terms ---------------------------------------------------------------------------

TERM_NAMES: Final = [
    # The king lines: what the first pieces met from a king along its file and rank say.
    "hollow cannon",  # an enemy cannon, nothing between it and the king, on the king's file
    "cannon on the king's rank",  # the same along the rank
    "cannon behind two screens",  # one screen moved away, the cannon checks
    "rook behind one screen",  # the screen moved away, the rook checks
    # The piece terms.
    "bottom cannon",  # a cannon on the enemy's back rank
    "horse mobility",  # a horse's steps not blocked by its leg or its own pieces
    "rook on a pawnless file",
    "linked pawns",  # two crossed pawns side by side
    "attackers x missing advisors",  # own rooks, horses, cannons across the river times the enemy's missing advisors
    "attackers x missing elephants",
    "cannon x majors",  # a cannon's worth grows with the rooks, horses and cannons left on the board
    "horse x majors",
]
TERM_COUNT: Final = 12
KING_TERMS: Final = 4  # the king lines come first: a few short walks, weighed at every evaluation
TERM_SCALE: Final = 16  # term weights are sixteenths of a unit
# The piece terms cost a sixth of the node rate: skip them when unweighted.
STRUCTURE_ON: Final = any(TERM_WEIGHTS[KING_TERMS:])


def king_lines(board: list[int], kings: list[int], weights: list[int]) -> int:
    """The king lines (the first :data:`KING_TERMS` of :data:`TERM_NAMES`), red less black, each
    count times its entry of ``weights``: from each king along each direction of its file and rank,
    what the first three pieces met are. No list is made: the evaluation calls it at every node.

    >>> from ucci_engine.position import Position
    >>> king_lines(Position.from_fen("4k4/9/9/9/9/9/9/4C4/9/3K5 w").board, [3, 85], [1, 0, 0, 0])
    1
    """
    total: i64 = 0
    side: i64
    d: i64
    i: i64
    for side in range(2):
        sign: i64 = 2 * side - 1  # a threat to red's king counts for black
        enemy: i64 = (side ^ 1) << 3
        cannon, rook = enemy | CANNON, enemy | ROOK
        rays = RAYS[kings[side]]
        for d in range(4):
            met: i64 = 0
            ray = rays[d]
            for i in range(len(ray)):
                code: i64 = board[ray[i]]
                if code == 0:
                    continue
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
    return total


def king_terms(board: list[int], kings: list[int]) -> list[int]:
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


def terms(board: list[int], pieces: list[list[int]], kings: list[int]) -> list[int]:
    """Each term's count for red less black's, in the order of :data:`TERM_NAMES`.

    >>> from ucci_engine.position import Position, START_FEN
    >>> pos = Position.from_fen(START_FEN)
    >>> terms(pos.board, pos.pieces, pos.kings) == [0] * TERM_COUNT
    True
    >>> pos = Position.from_fen("4k4/9/9/9/9/9/9/4C4/9/3K5 w")
    >>> terms(pos.board, pos.pieces, pos.kings)[:2]  # a hollow cannon; not on the back rank
    [1, 0]
    """
    out = piece_terms(board, pieces)
    out[:KING_TERMS] = king_terms(board, kings)
    return out


def piece_terms(board: list[int], pieces: list[list[int]]) -> list[int]:
    """The piece terms' counts (those after the king lines), red less black, in a list as long as
    :data:`TERM_NAMES` whose king lines are left 0: :func:`structure` weighs the king lines by
    :func:`king_lines` and asks only this of the rest."""
    out = [0] * TERM_COUNT
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
_ADVISORS: Final = 0
_BISHOPS: Final = 1
_CANNONS: Final = 2
_KNIGHTS: Final = 3
_MAJORS: Final = 4
_CROSSED: Final = 5
_TALLIES: Final = 6
# FILE_SQUARES[file]: the squares of a file.
_FILE_SQUARES: Final = [[rank * 9 + file for rank in range(10)] for file in range(9)]


def _side_terms(board: list[int], squares: list[int], side: int, out: list[int], tally: list[int]) -> None:
    """Add one side's piece terms to ``out`` (black's negated) and count its pieces into ``tally``."""
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


def structure(board: list[int], pieces: list[list[int]], lines: int) -> int:
    """The weighted terms, red's point of view: ``lines`` (:func:`weighed_lines`, which a position keeps
    while its moves leave the kings' files and ranks alone) and the piece terms when weighted."""
    total = lines
    if STRUCTURE_ON:
        found = piece_terms(board, pieces)
        for i in range(KING_TERMS, TERM_COUNT):
            total += found[i] * TERM_WEIGHTS[i]
    # Rounded toward zero, so a position and its colour-flipped mirror image score the same.
    return total // TERM_SCALE if total >= 0 else -(-total // TERM_SCALE)


def weighed_lines(board: list[int], kings: list[int]) -> int:
    """The king lines weighed by the fitted :data:`TERM_WEIGHTS` (sixteenths of a unit)."""
    return king_lines(board, kings, TERM_WEIGHTS)


# --- static exchange evaluation ---------------------------------------------------------------

# What a piece is worth in an exchange; the king is worth more than anything it could win.
SEE_VALUE: Final = [0, 5000, 20, 20, 90, 200, 95, 15]


def least_attacker(board: list[int], sq: i64, side: i64) -> int:
    """Square of the cheapest piece of ``side`` that could capture on ``sq`` (pins ignored), or -1."""
    enemy: i64 = side << 3
    pawn: i64 = enemy | PAWN
    squares = PAWN_ATTACKERS[side][sq]
    i: i64
    f: i64
    t: i64
    q: i64
    for i in range(len(squares)):
        f = squares[i]
        if board[f] == pawn:
            return f
    advisor: i64 = enemy | ADVISOR
    squares = ADVISOR_STEPS[sq]
    for i in range(len(squares)):
        f = squares[i]
        if board[f] == advisor:
            return f
    bishop: i64 = enemy | BISHOP
    squares = BISHOP_STEPS[sq]  # an elephant steps both ways: (from, eye) pairs
    for i in range(0, len(squares), 2):
        f = squares[i]
        if board[f] == bishop and board[squares[i + 1]] == 0:
            return f
    knight: i64 = enemy | KNIGHT
    squares = KNIGHT_ATTACKERS[sq]
    for i in range(0, len(squares), 2):
        f = squares[i]
        if board[f] == knight and board[squares[i + 1]] == 0:
            return f
    rook, cannon = enemy | ROOK, enemy | CANNON
    rook_at: i64 = -1
    for ray in RAYS[sq]:
        screened = False
        for i in range(len(ray)):
            t = ray[i]
            q = board[t]
            if q != 0:
                if screened:
                    if q == cannon:
                        return t
                    break
                if q == rook:
                    rook_at = t
                screened = True
    if rook_at >= 0:
        return rook_at
    king: i64 = enemy | KING
    squares = KING_STEPS[sq]
    for i in range(len(squares)):
        f = squares[i]
        if board[f] == king:
            return f
    return -1


def exchange(board: list[int], move: int) -> int:
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
    frm, to = move >> 7, move & 127
    victim = board[to]
    piece = board[frm]
    board[to] = piece
    board[frm] = 0
    # With b0, b1, ... the mover's material balance after each capture, and each side free to stop
    # before its next capture, the result is min(b0, max(b1, min(b2, ...))): folded from the front
    # into bounds low and high, it is decided once low reaches high. No list is made: the squares
    # the recapturing pieces left, with their codes, are packed into one int (11 bits a capture).
    balance = SEE_VALUE[victim & 7]
    low, high = -_EXCHANGE_BOUND, _EXCHANGE_BOUND
    left = 0
    side = (piece >> 3) ^ 1
    theirs = True  # whether the next capture is the opponent's
    while True:
        at = least_attacker(board, to, side)
        if at < 0:
            break
        if theirs:
            if balance < high:
                high = balance if balance > low else low
        elif balance > low:
            low = balance
        if low >= high:
            break
        taken = SEE_VALUE[board[to] & 7]
        balance = balance - taken if theirs else balance + taken
        code = board[at]
        left = left << 11 | code << 7 | at
        board[to] = code
        board[at] = 0
        side ^= 1
        theirs = not theirs
    while left:
        board[left & 127] = left >> 7 & 15
        left >>= 11
    board[frm] = piece
    board[to] = victim
    if balance <= low:
        return low if low < high else high
    return balance if balance < high else high


# Beyond any exchange's balance (16 pieces of at most 5000 each side).
_EXCHANGE_BOUND: Final = 1 << 20
