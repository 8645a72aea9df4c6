"""Pseudo-legal move generation and attack detection on a 90-square board.

Pure functions over the board (a ``vec[i64]`` of piece codes), so the search can call them without attribute look-ups.
A move that leaves its own king attacked (including facing the enemy king on an open file) is
filtered later by :meth:`ucci_engine.position.Position.make`.
"""

from __future__ import annotations

from typing import Final, cast

# Native 64-bit ints for the hot code's squares, codes and indexes: compiled, an ``int`` is tagged
# (each use checks whether it is boxed), an ``i64`` a plain machine word. The board is a ``vec[i64]``
# (librt, mypyc's runtime library): compiled, a read or write is a plain load or store, where a list's
# entry is an object to check, unbox and release. Interpreted, both names are ordinary classes.
from librt.vecs import vec
from mypy_extensions import i64

from ucci_engine.tables import (
    BISHOP, CANNON, KING, KNIGHT, KNIGHT_FROM, KNIGHT_FROM_AT, LEAP_AT, LEAP_TO, LEG, LINE, MOVE_LIMIT, PAWN, PAWN_FROM,
    PAWN_FROM_AT, RAY_STEP, RAY_STOP, RELATE, ROOK, SQUARES,
)

# Every move number as one shared Python int. Moves are above 256, so each new one is an allocation
# (and a free when its list dies); compiled, a list of ``object`` hands out these instead: appended,
# an entry only gains a reference. ``generate`` and ``quiet_checks`` build their lists from them and
# return them as list[int].
MOVE_OBJECTS: Final[list[object]] = list(range(MOVE_LIMIT))
# More than a side's pseudo-legal moves can ever number (two rooks and two cannons 17 each, two horses 8,
# two elephants and two advisors 4, the king 4, five pawns 3: 119).
MOST_MOVES: Final = 128


def scratch() -> vec[i64]:
    """Room for one generation's moves (see :func:`generate_from`)."""
    return vec[i64]([0] * MOST_MOVES)


def listed(found: vec[i64], count: i64) -> list[int]:
    """The first ``count`` moves of ``found`` as a list: made at its length and filled, where appending
    grew it several times over."""
    if count == 0:
        return []
    moves = MOVE_OBJECTS
    return cast(list[int], [moves[m] for m in found[:count]])


def generate(board: vec[i64], squares: list[int], side: i64, captures_only: bool) -> list[int]:
    """Moves of the pieces on ``squares`` (all of ``side``), packed ``from << 7 | to``."""
    found = scratch()
    return listed(found, generate_into(board, vec[i64](squares), 0, len(squares), side, captures_only, found))


def generate_into(board: vec[i64], squares: vec[i64], first: i64, last: i64, side: i64, captures_only: bool,
                  found: vec[i64]) -> i64:
    """How many moves the pieces on ``squares[first:last]`` (all of ``side``) have, written to the start of
    ``found`` (:func:`scratch`) packed ``from << 7 | to``."""
    # The step tables as locals: compiled, a module's vector is read from memory again after every
    # store to ``found`` (the compiler cannot tell the two apart), a local's stays in registers.
    ray_step, ray_stop, leap_at, leap_to = RAY_STEP, RAY_STOP, LEAP_AT, LEAP_TO
    n: i64 = 0
    sq: i64
    to: i64
    q: i64
    i: i64
    j: i64
    k: i64
    d: i64
    step: i64
    stop: i64
    for j in range(first, last):
        sq = squares[j]
        piece: i64 = board[sq]
        kind: i64 = piece & 7
        base: i64 = sq << 7
        if kind == ROOK:
            for d in range(4):
                step = ray_step[d]
                stop = ray_stop[sq * 4 + d]
                to = sq + step
                while to != stop:
                    q = board[to]
                    if q == 0:
                        if not captures_only:
                            found[n] = base | to
                            n += 1
                    else:
                        if q >> 3 != side:
                            found[n] = base | to
                            n += 1
                        break
                    to += step
        elif kind == CANNON:
            for d in range(4):
                step = ray_step[d]
                stop = ray_stop[sq * 4 + d]
                to = sq + step
                screened = False
                while to != stop:
                    q = board[to]
                    if not screened:
                        if q == 0:
                            if not captures_only:
                                found[n] = base | to
                                n += 1
                        else:
                            screened = True
                    elif q != 0:
                        if q >> 3 != side:
                            found[n] = base | to
                            n += 1
                        break
                    to += step
        elif kind == KNIGHT or kind == BISHOP:
            k = piece * SQUARES + sq
            for i in range(leap_at[k], leap_at[k + 1], 2):
                if board[leap_to[i + 1]] == 0:
                    to = leap_to[i]
                    q = board[to]
                    if q == 0:
                        if not captures_only:
                            found[n] = base | to
                            n += 1
                    elif q >> 3 != side:
                        found[n] = base | to
                        n += 1
        else:
            k = piece * SQUARES + sq
            for i in range(leap_at[k], leap_at[k + 1]):
                to = leap_to[i]
                q = board[to]
                if q == 0:
                    if not captures_only:
                        found[n] = base | to
                        n += 1
                elif q >> 3 != side:
                    found[n] = base | to
                    n += 1
    return n


def quiet_checks(board: vec[i64], squares: vec[i64], first: i64, last: i64, side: i64, king: i64,
                 found: vec[i64]) -> list[int]:
    """The quiet moves of the pieces on ``squares[first:last]`` (all of ``side``) that attack ``king``, in the order
    of :func:`generate` (the knight's and elephant's in one loop: both steps have a blocking square).

    A quiet move checks with the piece where it lands, or by what it uncovers (a king too: it may be a cannon's
    second screen). Only a move that reaches a square from which that can be is tested (on the king's file or
    rank, for a horse or elephant any square related to the king: see ``tables.RELATED``), or any move of a piece
    whose leaving its square uncovers an attack (:func:`_uncovers`): off those squares a move attacks the king
    exactly when its leaving does, asked once a piece instead of once a move (most of the moves tested were
    those of the pieces on the king's lines, of which few uncover anything)."""
    related: i64 = king * SQUARES
    relate, line, ray_step, ray_stop, leap_at, leap_to = RELATE, LINE, RAY_STEP, RAY_STOP, LEAP_AT, LEAP_TO  # locals: see generate_into
    n: i64 = 0
    sq: i64
    to: i64
    i: i64
    j: i64
    k: i64
    d: i64
    step: i64
    for j in range(first, last):
        sq = squares[j]
        piece: i64 = board[sq]
        kind: i64 = piece & 7
        uncovers = relate[related + sq] != 0 and _uncovers(board, king, side, sq)
        if kind == ROOK or kind == CANNON:
            for d in range(4):
                step = ray_step[d]
                stop: i64 = ray_stop[sq * 4 + d]
                to = sq + step
                while to != stop and board[to] == 0:
                    if (uncovers or line[related + to] < 4) and _checks_by(board, king, side, sq, to, piece):
                        found[n] = sq << 7 | to
                        n += 1
                    to += step
        elif kind == KNIGHT or kind == BISHOP:
            k = piece * SQUARES + sq
            for i in range(leap_at[k], leap_at[k + 1], 2):
                to = leap_to[i]
                if (board[leap_to[i + 1]] == 0 and board[to] == 0 and (uncovers or relate[related + to] != 0)
                        and _checks_by(board, king, side, sq, to, piece)):
                    found[n] = sq << 7 | to
                    n += 1
        else:
            k = piece * SQUARES + sq
            for i in range(leap_at[k], leap_at[k + 1]):
                to = leap_to[i]
                if board[to] == 0 and (uncovers or line[related + to] < 4) and _checks_by(board, king, side, sq, to, piece):
                    found[n] = sq << 7 | to
                    n += 1
    return listed(found, n)


def evasions(board: vec[i64], moves: list[int], king: i64, side: i64) -> list[int]:
    """Those of ``moves`` (by ``side``, whose ``king`` is in check) that may answer the check: the king's
    own, and a piece's that lands on a checker or between it and the king, on a checking horse's leg, or
    that takes a cannon's only screen away. A superset of the legal moves (two checks are answered by a
    move meeting either: :meth:`ucci_engine.position.Position.make` still tests each), in their order.

    >>> from ucci_engine.position import Position
    >>> from ucci_engine.tables import move_name
    >>> pos = Position.from_fen("3k5/9/9/9/9/9/9/4r4/2R6/4K4 w")  # the rook on e2 checks the king on e0
    >>> moves = generate(pos.board, pos.pieces[0], 0, False)
    >>> len(moves), sorted(move_name(m) for m in evasions(pos.board, moves, pos.kings[0], 0))
    (20, ['c1e1', 'e0d0', 'e0e1', 'e0f0'])
    """
    found = vec[i64](moves)
    return listed(found, evasions_in(board, found, len(moves), king, side))


def evasions_in(board: vec[i64], found: vec[i64], count: i64, king: i64, side: i64) -> i64:
    """:func:`evasions` of the first ``count`` moves of ``found``, kept at its start in their order: how many."""
    enemy: i64 = (side ^ 1) << 3
    rook, cannon, knight, pawn, their_king = enemy | ROOK, enemy | CANNON, enemy | KNIGHT, enemy | PAWN, enemy | KING
    # 1: a square to land on; 2: a screen to leave (the king's own square is both: its moves all stay).
    marks = vec[i64]([0] * SQUARES)
    marks[king] = 3
    i: i64
    f: i64
    q: i64
    k: i64
    d: i64
    for d in range(4):
        step: i64 = RAY_STEP[d]
        stop: i64 = RAY_STOP[king * 4 + d]
        first: i64 = -1  # the first piece met
        t: i64 = king + step
        while t != stop:
            q = board[t]
            if q != 0:
                if first < 0:
                    first = t
                    hit = q == rook or q == their_king
                else:
                    hit = q == cannon
                if hit:  # the squares up to the checker, the screen (a cannon's) to leave
                    s: i64 = king + step
                    while s != t + step:
                        if s != first or first == t:
                            marks[s] |= 1
                        s += step
                    if first != t:
                        marks[first] |= 2
                    break
                if first != t:  # a second piece that is no cannon
                    break
            t += step
    for i in range(KNIGHT_FROM_AT[king], KNIGHT_FROM_AT[king + 1], 2):
        f = KNIGHT_FROM[i]
        leg: i64 = KNIGHT_FROM[i + 1]
        if board[f] == knight and board[leg] == 0:
            marks[f] |= 1
            marks[leg] |= 1
    k = (side ^ 1) * SQUARES + king
    for i in range(PAWN_FROM_AT[k], PAWN_FROM_AT[k + 1]):
        f = PAWN_FROM[i]
        if board[f] == pawn:
            marks[f] |= 1
    n: i64 = 0
    m: i64
    for i in range(count):
        m = found[i]
        if marks[m & 127] & 1 != 0 or marks[m >> 7] & 2 != 0:
            found[n] = m
            n += 1
    return n


def _uncovers(board: vec[i64], king: i64, side: i64, frm: i64) -> bool:
    """Whether ``king`` (not attacked) is attacked by ``side`` once the piece on ``frm`` has left it."""
    piece: i64 = board[frm]
    board[frm] = 0
    hit = uncovered(board, king, side, frm, frm)
    board[frm] = piece
    return hit


def _checks_by(board: vec[i64], king: i64, side: i64, frm: i64, to: i64, piece: i64) -> bool:
    """Whether moving ``piece`` from ``frm`` to the empty ``to`` attacks ``king``."""
    board[to] = piece
    board[frm] = 0
    hit = checks_after(board, king, side, frm, to)
    board[frm] = piece
    board[to] = 0
    return hit


def attacked(board: vec[i64], sq: i64, by: i64) -> bool:
    """Is ``sq`` attacked by side ``by``? A king on the same open file counts (the flying general)."""
    return _hit(board, sq, by, (by << 3) | KING)


def uncovered(board: vec[i64], sq: i64, by: i64, frm: i64, to: i64) -> bool:
    """After a move from ``frm`` to ``to`` by the side that ``by`` attacks, is ``sq`` attacked by ``by``,
    given that it was not before the move? Only the lines from ``sq`` through ``frm`` and ``to`` and
    a horse whose leg was ``frm`` can have changed: this answers as :func:`attacked`, at less cost.
    """
    enemy: i64 = by << 3
    rook: i64 = enemy | ROOK
    cannon: i64 = enemy | CANNON
    king: i64 = enemy | KING
    lines: i64 = sq * SQUARES
    line: i64 = LINE[lines + frm]
    if line < 4 and _line_hit(board, sq * 4 + line, rook, cannon, king):
        return True
    other: i64 = LINE[lines + to]
    if other < 4 and other != line and _line_hit(board, sq * 4 + other, rook, cannon, king):
        return True
    if line == LEG:
        knight: i64 = enemy | KNIGHT
        i: i64
        for i in range(KNIGHT_FROM_AT[sq], KNIGHT_FROM_AT[sq + 1], 2):
            if KNIGHT_FROM[i + 1] == frm and board[KNIGHT_FROM[i]] == knight:
                return True
    return False


def checks_after(board: vec[i64], sq: i64, by: i64, frm: i64, to: i64) -> bool:
    """After ``by`` moved a piece from ``frm`` to ``to``, is ``sq`` (not attacked before the move)
    attacked by ``by``? Answers as :func:`attacked`: the moved piece itself, or what it uncovered."""
    kind: i64 = board[to] & 7
    i: i64
    if kind == KNIGHT:
        for i in range(KNIGHT_FROM_AT[sq], KNIGHT_FROM_AT[sq + 1], 2):
            if KNIGHT_FROM[i] == to and board[KNIGHT_FROM[i + 1]] == 0:
                return True
    elif kind == PAWN:
        k: i64 = by * SQUARES + sq
        for i in range(PAWN_FROM_AT[k], PAWN_FROM_AT[k + 1]):
            if PAWN_FROM[i] == to:
                return True
    return uncovered(board, sq, by, frm, to)


def _line_hit(board: vec[i64], ray: i64, rook: i64, cannon: i64, king: i64) -> bool:
    """Along the ray ``ray`` (``sq * 4 + direction``, see ``tables.RAY_STOP``): ``rook`` or ``king`` first, or
    ``cannon`` behind one screen."""
    screened = False
    step: i64 = RAY_STEP[ray & 3]
    stop: i64 = RAY_STOP[ray]
    t: i64 = (ray >> 2) + step
    while t != stop:
        q: i64 = board[t]
        if q != 0:
            if not screened:
                if q == rook or q == king:
                    return True
                screened = True
            else:
                return q == cannon
        t += step
    return False


def _hit(board: vec[i64], sq: i64, by: i64, flying_king: i64) -> bool:
    """Rook, cannon, horse or pawn of ``by`` (and ``flying_king`` down a line, unless -1) hits ``sq``."""
    enemy: i64 = by << 3
    rook, cannon = enemy | ROOK, enemy | CANNON
    k: i64
    for k in range(sq * 4, sq * 4 + 4):
        if _line_hit(board, k, rook, cannon, flying_king):
            return True
    knight: i64 = enemy | KNIGHT
    i: i64
    for i in range(KNIGHT_FROM_AT[sq], KNIGHT_FROM_AT[sq + 1], 2):
        if board[KNIGHT_FROM[i]] == knight and board[KNIGHT_FROM[i + 1]] == 0:
            return True
    pawn: i64 = enemy | PAWN
    k = by * SQUARES + sq
    for i in range(PAWN_FROM_AT[k], PAWN_FROM_AT[k + 1]):
        if board[PAWN_FROM[i]] == pawn:
            return True
    return False
