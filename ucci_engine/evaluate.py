"""Evaluation tables: material plus piece-square values, folded into one table per piece code.

Values are from red's point of view (black pieces negative) so the position can keep the score
incrementally. The ``style`` (UCCI ``solid``/``normal``/``risky``) reweights defence against attack.
Unit: 100 ≈ one horse or cannon, as UCCI GUIs expect.
"""

from typing import Final

from ucci_engine.tables import ADVISOR, BISHOP, CANNON, KING, KNIGHT, PAWN, ROOK, SQUARES, file_of, rank_of

MATERIAL: Final = [0, 0, 20, 20, 90, 200, 95, 10]

# Positional tables for red, written as the board looks from red's side: the first row is rank 9.
_KNIGHT: Final = [
    [4, 8, 16, 12, 4, 12, 16, 8, 4],
    [4, 10, 28, 16, 8, 16, 28, 10, 4],
    [12, 14, 16, 20, 18, 20, 16, 14, 12],
    [8, 24, 18, 24, 20, 24, 18, 24, 8],
    [6, 16, 14, 18, 16, 18, 14, 16, 6],
    [4, 12, 16, 14, 12, 14, 16, 12, 4],
    [2, 6, 8, 6, 10, 6, 8, 6, 2],
    [4, 2, 8, 8, 4, 8, 8, 2, 4],
    [0, 2, 4, 4, -2, 4, 4, 2, 0],
    [0, -4, 0, 0, 0, 0, 0, -4, 0],
]
_ROOK: Final = [
    [6, 8, 7, 13, 14, 13, 7, 8, 6],
    [6, 12, 9, 16, 33, 16, 9, 12, 6],
    [6, 8, 7, 14, 16, 14, 7, 8, 6],
    [6, 13, 13, 16, 16, 16, 13, 13, 6],
    [8, 11, 11, 14, 15, 14, 11, 11, 8],
    [8, 12, 12, 14, 15, 14, 12, 12, 8],
    [4, 9, 4, 12, 14, 12, 4, 9, 4],
    [-2, 8, 4, 12, 12, 12, 4, 8, -2],
    [5, 8, 6, 12, 0, 12, 6, 8, 5],
    [-6, 6, 4, 12, 0, 12, 4, 6, -6],
]
_CANNON: Final = [
    [4, 4, 0, -5, -6, -5, 0, 4, 4],
    [2, 2, 0, -4, -7, -4, 0, 2, 2],
    [1, 1, 0, -5, -4, -5, 0, 1, 1],
    [0, 3, 3, 2, 4, 2, 3, 3, 0],
    [0, 0, 0, 0, 4, 0, 0, 0, 0],
    [-1, 0, 3, 0, 4, 0, 3, 0, -1],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 0, 4, 3, 5, 3, 4, 0, 1],
    [0, 1, 2, 2, 2, 2, 2, 1, 0],
    [0, 0, 1, 3, 3, 3, 1, 0, 0],
]
_PAWN: Final = [
    [0, 3, 6, 9, 12, 9, 6, 3, 0],
    [18, 36, 56, 80, 120, 80, 56, 36, 18],
    [14, 26, 42, 60, 80, 60, 42, 26, 14],
    [10, 20, 30, 34, 40, 34, 30, 20, 10],
    [6, 12, 18, 18, 20, 18, 18, 12, 6],
    [2, 0, 8, 0, 8, 0, 8, 0, 2],
    [0, 0, -2, 0, 4, 0, -2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
]
_KING: Final = [[0] * 9 for _ in range(7)] + [
    [0, 0, 0, -8, -9, -8, 0, 0, 0],
    [0, 0, 0, -4, -4, -4, 0, 0, 0],
    [0, 0, 0, 1, 5, 1, 0, 0, 0],
]
_GUARD: Final = [[0] * 9 for _ in range(7)] + [
    [0, 0, -2, 0, 4, 0, -2, 0, 0],
    [0, 0, 0, 0, 3, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
]
_POSITIONAL: Final = {KING: _KING, ADVISOR: _GUARD, BISHOP: _GUARD, KNIGHT: _KNIGHT, ROOK: _ROOK, CANNON: _CANNON, PAWN: _PAWN}

STYLES: Final = ("solid", "normal", "risky")
# Per style: defenders' material bonus, and percent of the positional value of attackers across the river.
_STYLE_WEIGHTS: Final = {"solid": (6, 80), "normal": (0, 100), "risky": (-4, 125)}


def _red_value(kind: int, sq: int, style: str) -> int:
    rank, file = rank_of(sq), file_of(sq)
    guard_bonus, attack_pct = _STYLE_WEIGHTS[style]
    value = MATERIAL[kind] + _POSITIONAL[kind][9 - rank][file]
    if kind in (ADVISOR, BISHOP):
        value += guard_bonus
    elif rank >= 5 and kind != KING:
        value = MATERIAL[kind] + _POSITIONAL[kind][9 - rank][file] * attack_pct // 100
    return value


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
