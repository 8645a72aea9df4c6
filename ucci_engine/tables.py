"""Geometry of the xiangqi board, precomputed once as lists indexed by square.

Squares are ``rank * 9 + file``: file 0–8 from red's left (a–i), rank 0–9 from red's back rank,
so ``a0`` is 0 and ``i9`` is 89. Red moves up the ranks. Move numbers are ``from << 7 | to``.

The squares a piece steps to, rays and attackers of each square are ``bytes``: compiled, ``b[i]`` is
a byte load, where a list's entry is an object to check, unbox and release. A step through a square
that must be empty (a horse's leg, an elephant's eye) is a pair of bytes, the target then that
square. Read them by index (``for i in range(len(b))``): iterating ``bytes`` itself boxes each byte.
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

KING: Final = 1
ADVISOR: Final = 2
BISHOP: Final = 3
KNIGHT: Final = 4
ROOK: Final = 5
CANNON: Final = 6
PAWN: Final = 7
BLACK: Final = 8  # added to a red piece code; a piece's side is ``code >> 3``
RED_SIDE: Final = 0
BLACK_SIDE: Final = 1
PIECE_LETTERS: Final = " KABNRCP"
KIND_NAMES: Final = ["", "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"]

FILES: Final = 9
RANKS: Final = 10
SQUARES: Final = 90
MOVE_LIMIT: Final = SQUARES << 7


def square(file: int, rank: int) -> int:
    return rank * FILES + file


def file_of(sq: int) -> int:
    return sq % FILES


def rank_of(sq: int) -> int:
    return sq // FILES


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def in_palace(file: int, rank: int) -> bool:
    return 3 <= file <= 5 and (rank <= 2 or rank >= 7)


def home_side(rank: int) -> int:
    """The side whose half of the river ``rank`` lies in."""
    return RED_SIDE if rank <= 4 else BLACK_SIDE


def _steps(deltas: list[tuple[int, int]], keep: "list[list[bool]]") -> list[bytes]:
    table: list[bytes] = []
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        table.append(
            bytes([square(f + df, r + dr) for df, dr in deltas if on_board(f + df, r + dr) and keep[sq][square(f + df, r + dr)]])
        )
    return table


_ORTHO: Final = [(0, 1), (0, -1), (-1, 0), (1, 0)]
_DIAG: Final = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
_palace_pair = [[in_palace(file_of(a), rank_of(a)) and in_palace(file_of(b), rank_of(b)) for b in range(SQUARES)] for a in range(SQUARES)]

KING_STEPS: Final[list[bytes]] = _steps(_ORTHO, _palace_pair)
ADVISOR_STEPS: Final[list[bytes]] = _steps(_DIAG, _palace_pair)


def _bishop_steps() -> list[list[tuple[int, int]]]:
    table: list[list[tuple[int, int]]] = []
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        moves = []
        for df, dr in _DIAG:
            tf, tr = f + 2 * df, r + 2 * dr
            if on_board(tf, tr) and home_side(tr) == home_side(r):
                moves.append((square(tf, tr), square(f + df, r + dr)))
        table.append(moves)
    return table


def _knight_steps() -> list[list[tuple[int, int]]]:
    table: list[list[tuple[int, int]]] = []
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        moves = []
        for df, dr in _ORTHO:  # the leg is one orthogonal step, then one diagonal step outward
            lf, lr = f + df, r + dr
            for sf in (-1, 1):
                tf, tr = (lf + sf, lr + dr) if df == 0 else (lf + df, lr + sf)
                if on_board(lf, lr) and on_board(tf, tr):
                    moves.append((square(tf, tr), square(lf, lr)))
        table.append(moves)
    return table


def _pairs(table: list[list[tuple[int, int]]]) -> list[bytes]:
    return [bytes([n for pair in row for n in pair]) for row in table]


_BISHOP_PAIRS: Final = _bishop_steps()
_KNIGHT_PAIRS: Final = _knight_steps()
# Per square, (to, eye) and (to, leg) pairs.
BISHOP_STEPS: Final[list[bytes]] = _pairs(_BISHOP_PAIRS)
KNIGHT_STEPS: Final[list[bytes]] = _pairs(_KNIGHT_PAIRS)
# (from, leg) pairs of knights that attack a square: the knight steps read backwards.
KNIGHT_ATTACKERS: Final[list[bytes]] = _pairs(
    [[(f, leg) for f in range(SQUARES) for (t, leg) in _KNIGHT_PAIRS[f] if t == sq] for sq in range(SQUARES)]
)


def _pawn_steps(side: int) -> list[bytes]:
    forward = 1 if side == RED_SIDE else -1
    table: list[bytes] = []
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        moves = []
        if on_board(f, r + forward):
            moves.append(square(f, r + forward))
        if home_side(r) != side:
            moves += [square(f + d, r) for d in (-1, 1) if on_board(f + d, r)]
        table.append(bytes(moves))
    return table


PAWN_STEPS: Final[list[list[bytes]]] = [_pawn_steps(RED_SIDE), _pawn_steps(BLACK_SIDE)]
# PAWN_ATTACKERS[side][sq]: squares from which a pawn of ``side`` attacks ``sq``.
PAWN_ATTACKERS: Final[list[list[bytes]]] = [
    [bytes([f for f in range(SQUARES) if sq in PAWN_STEPS[side][f]]) for sq in range(SQUARES)] for side in (RED_SIDE, BLACK_SIDE)
]


def _reachable(starts: list[int], steps: list[bytes]) -> list[bool]:
    """Squares a piece starting on one of ``starts`` can ever stand on, moving by ``steps``."""
    seen = [False] * SQUARES
    todo = starts[:]
    while todo:
        sq = todo.pop()
        if not seen[sq]:
            seen[sq] = True
            todo += steps[sq]
    return seen


def _places() -> list[list[bool]]:
    """PLACES[code][sq]: can the piece ``code`` ever stand on ``sq`` in a game from the start position?"""
    elephant = [bytes(to for to, _ in _BISHOP_PAIRS[sq]) for sq in range(SQUARES)]
    red_homes: dict[int, tuple[list[int], list[bytes]]] = {
        KING: ([4], KING_STEPS),
        ADVISOR: ([3, 5], ADVISOR_STEPS),
        BISHOP: ([2, 6], elephant),
        PAWN: ([27, 29, 31, 33, 35], PAWN_STEPS[RED_SIDE]),
    }
    table = [[True] * SQUARES for _ in range(16)]
    for kind, (starts, steps) in red_homes.items():
        table[kind] = _reachable(starts, steps)
        black_steps = PAWN_STEPS[BLACK_SIDE] if kind == PAWN else steps
        table[kind | BLACK] = _reachable([square(file_of(sq), RANKS - 1 - rank_of(sq)) for sq in starts], black_steps)
    return table


PLACES: Final[list[list[bool]]] = _places()
# MOST[kind]: how many pieces of a kind one side starts with, and so can ever have.
MOST: Final = [0, 1, 2, 2, 2, 2, 2, 5]


def _rays() -> list[list[bytes]]:
    table: list[list[bytes]] = []
    for sq in range(SQUARES):
        f, r = file_of(sq), rank_of(sq)
        rays = []
        for df, dr in _ORTHO:
            ray = []
            tf, tr = f + df, r + dr
            while on_board(tf, tr):
                ray.append(square(tf, tr))
                tf, tr = tf + df, tr + dr
            rays.append(bytes(ray))
        table.append(rays)
    return table


RAYS: Final[list[list[bytes]]] = _rays()
LEG: Final = 4
# LINES[sq][other]: which of RAYS[sq] holds ``other`` (0-3); LEG when ``other`` is the leg of a
# horse's jump onto ``sq``; 5 otherwise.
LINES: Final[list[bytes]] = [
    bytes([
        next((d for d in range(4) if other in RAYS[sq][d]), LEG if other in KNIGHT_ATTACKERS[sq][1::2] else 5)
        for other in range(SQUARES)
    ])
    for sq in range(SQUARES)
]


def _related(a: int, b: int) -> bool:
    fa, ra, fb, rb = file_of(a), rank_of(a), file_of(b), rank_of(b)
    df, dr = abs(fa - fb), abs(ra - rb)
    return fa == fb or ra == rb or (df == 1 and dr == 1) or (df, dr) in ((1, 2), (2, 1))


# RELATED[king][sq]: 1 when a piece leaving or reaching ``sq`` may change whether ``king``
# is attacked (same file or rank: rook and cannon lines and the flying general; a diagonal neighbour:
# a horse's leg; a horse's jump away: the horse itself). Moves that touch no such square need no
# attack test. Flags are ``bytes``: compiled, a bytes read is a byte load, a list read unboxes.
RELATED: Final[list[bytes]] = [bytes([_related(k, sq) for sq in range(SQUARES)]) for k in range(SQUARES)]

# OWN[side][code]: 1 when ``code`` is a piece of ``side`` (0 for an empty square).
OWN: Final[list[bytes]] = [bytes([0 < c < 8 for c in range(16)]), bytes([c > 8 for c in range(16)])]


# The tables above again as flat ``vec[i64]`` (librt.vecs) for the hot code: a ``..._AT`` vector says where
# each row starts in its entries' vector, one row after another (row r is entries ``AT[r]`` up to ``AT[r + 1]``).
# Compiled, a read is a bounds check and a load, where a list of bytes is an object to fetch, check and
# count at every square and a byte read a tagged int to untag.
def _joined(rows: list[bytes]) -> vec[i64]:
    """The entries of ``rows``, one row after another."""
    entries: list[int] = []
    for row in rows:
        entries.extend(row)
    return vec[i64](entries)


def _starts(rows: list[bytes]) -> vec[i64]:
    """Where each of ``rows`` starts in :func:`_joined`, and one past the last."""
    at = [0]
    for row in rows:
        at.append(at[-1] + len(row))
    return vec[i64](at)


def _leaps() -> list[bytes]:
    """Row ``code * SQUARES + sq``: the steps of the piece ``code`` from ``sq`` as in KING_STEPS, ADVISOR_STEPS,
    BISHOP_STEPS, KNIGHT_STEPS (those two in (to, eye or leg) pairs) and PAWN_STEPS; none for rooks and cannons."""
    by_kind = {KING: KING_STEPS, ADVISOR: ADVISOR_STEPS, BISHOP: BISHOP_STEPS, KNIGHT: KNIGHT_STEPS}
    rows: list[bytes] = []
    for code in range(16):
        kind, side = code & 7, code >> 3
        steps = PAWN_STEPS[side] if kind == PAWN else by_kind.get(kind, [b""] * SQUARES)
        rows += steps
    return rows


# RAYS[sq][d] is the squares sq + RAY_STEP[d], sq + 2 * RAY_STEP[d], ... up to RAY_STOP[sq * 4 + d], which it does not
# include (it may lie off the board: a walk compares it and never reads it). Compiled, a step along a ray is an add and
# one bounds-checked read of the board, where a ray's squares read from a vector of them were two.
RAY_STEP: Final = vec[i64]([FILES, -FILES, -1, 1])  # the directions of _ORTHO
RAY_STOP: Final = vec[i64]([sq + RAY_STEP[d] * (len(RAYS[sq][d]) + 1) for sq in range(SQUARES) for d in range(4)])
LEAP_TO: Final = _joined(_leaps())
LEAP_AT: Final = _starts(_leaps())
# Row sq: KNIGHT_ATTACKERS[sq]; row side * SQUARES + sq: PAWN_ATTACKERS[side][sq].
KNIGHT_FROM: Final = _joined(KNIGHT_ATTACKERS)
KNIGHT_FROM_AT: Final = _starts(KNIGHT_ATTACKERS)
PAWN_FROM: Final = _joined(PAWN_ATTACKERS[RED_SIDE] + PAWN_ATTACKERS[BLACK_SIDE])
PAWN_FROM_AT: Final = _starts(PAWN_ATTACKERS[RED_SIDE] + PAWN_ATTACKERS[BLACK_SIDE])
# LINE[sq * SQUARES + other]: LINES[sq][other]; RELATE[king * SQUARES + sq]: RELATED[king][sq].
LINE: Final = _joined(LINES)
RELATE: Final = _joined(RELATED)


def square_name(sq: int) -> str:
    """The square's name, file letter then rank digit.

    >>> square_name(0), square_name(89)
    ('a0', 'i9')
    """
    return "abcdefghi"[file_of(sq)] + str(rank_of(sq))


def move_name(move: int) -> str:
    return square_name(move >> 7) + square_name(move & 127)


def parse_move(text: str) -> int:
    """The move number of ``h2e2``-style text, or -1 when it is not a move on the board.

    >>> move_name(parse_move("h2e2"))
    'h2e2'
    >>> parse_move("z9a0")
    -1
    """
    if len(text) != 4:
        return -1
    f1, r1, f2, r2 = "abcdefghi".find(text[0]), "0123456789".find(text[1]), "abcdefghi".find(text[2]), "0123456789".find(text[3])
    if min(f1, r1, f2, r2) < 0:
        return -1
    return square(f1, r1) << 7 | square(f2, r2)
