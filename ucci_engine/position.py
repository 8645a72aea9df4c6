"""A xiangqi position: board, side to move, Zobrist key, incremental score and the rules' history.

>>> pos = Position.from_fen(START_FEN)
>>> len(pos.legal_moves())
44
>>> pos.push_name("h2e2")
True
>>> pos.fen()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
"""

from __future__ import annotations

import random
from typing import Final, Optional

# Native ints and the board's vector for the hot code (see ucci_engine.movegen). The key is one too (below 2^62);
# the evaluation's noise takes it as an ``int``, as it multiplies it past 64 bits.
from librt.vecs import vec
from mypy_extensions import i64

from engine_core.game import LOSING_CAPTURE, MATE, NO_SCORE, NativeMoves
from ucci_engine.evaluate import (
    SEE_VALUE, TEMPO, Network, exchange_loses, lines_in_units, nn_output, nn_pack, nn_refresh, nn_step, nn_unpack, piece_values,
    weighed_side_lines,
)
from ucci_engine.movegen import (
    attacked, checks_after, evasions_in, generate, generate_into, listed, quiet_checks, scratch, uncovered,
)
from ucci_engine.tables import (
    BLACK, BLACK_SIDE, CANNON, FILES, KIND_NAMES, KING, KNIGHT, LEG, LINE, MOST, MOVE_LIMIT, PAWN, PIECE_LETTERS, PLACES,
    RANKS, RED_SIDE, RELATE, ROOK, SQUARES, file_of, home_side, move_name, parse_move, rank_of, square, square_name,
)

START_FEN: Final = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
BAN_SCORE: Final = 20000  # a loss by the repetition rules: worse than any material, better than mate
DRAW_PLIES: Final = 120  # 60 moves without a capture
UNKNOWN_LINES: Final = -(1 << 40)  # a ply's king lines not yet weighed (they never come near this)
# Late move pruning half again as wide as the core's: self-play preferred the core's counts, but against
# ElephantEye's near full-width search these scored +4.8 +- 3.5 points a hundred games over 1,079 games
# (docs/results/xiangqi.md, "Late move pruning half again as wide").
LATE_MOVES: Final = [0, 12, 18, 27]
# Each side's piece list takes LIST_SPAN entries of Position.squares: red's from 0, black's from LIST_SPAN.
LIST_SPAN: Final = 16

_LETTER_CODES: Final = {"K": KING, "A": 2, "B": 3, "E": 3, "N": 4, "H": 4, "R": ROOK, "C": CANNON, "P": PAWN}

_rng = random.Random(20261121)
ZOBRIST: Final[list[vec[i64]]] = [vec[i64]([_rng.getrandbits(62) + 1 for _ in range(SQUARES)]) for _ in range(16)]
ZOBRIST_SIDE: Final = _rng.getrandbits(62) + 1
# KEYS[code * SQUARES + sq]: ZOBRIST[code][sq] in one vector (make reads two to four at every move).
KEYS: Final = vec[i64]([key for row in ZOBRIST for key in row])


def flat_values(values: list[vec[i64]]) -> vec[i64]:
    """The piece-square values ``values[code][sq]`` in one vector, at ``code * SQUARES + sq``."""
    return vec[i64]([value for row in values for value in row])

_MVV: Final = [0, 0, 2, 2, 4, 6, 4, 1]  # victim value by kind, for MVV-LVA
_LVA: Final = [0, 7, 2, 2, 4, 6, 4, 1]
# _MVV_LVA[victim kind * 8 + attacker kind]: the most valuable victim first, then the least valuable attacker.
_MVV_LVA: Final = vec[i64]([_MVV[v] * 8 + 8 - _LVA[a] for v in range(8) for a in range(8)])


def _mvv_lva(board: vec[i64], capture: i64) -> i64:
    """The most valuable victim first, then the least valuable attacker: above 0 for every capture."""
    return _MVV_LVA[(board[capture & 127] & 7) << 3 | (board[capture >> 7] & 7)]


def _loses(board: vec[i64], capture: i64) -> bool:
    """Whether ``capture`` loses material in the exchange it starts (only a piece worth more than its victim can)."""
    return SEE_VALUE[board[capture >> 7] & 7] > SEE_VALUE[board[capture & 127] & 7] and exchange_loses(board, capture)


def _capture_order(board: vec[i64], capture: i64) -> i64:
    """MVV-LVA of ``capture``, made negative when the exchange it starts loses material."""
    return _mvv_lva(board, capture) - (LOSING_CAPTURE if _loses(board, capture) else 0)


def _orders_into(board: vec[i64], moves: vec[i64], count: i64, noisy: bool, orders: vec[i64]) -> None:
    """The orders of the first ``count`` of ``moves`` to the first entries of ``orders``: noisy (captures all),
    :meth:`Position.noisy_orders`'; else :meth:`Position.capture_orders`'."""
    i: i64
    for i in range(count):
        m = moves[i]
        if noisy:
            orders[i] = _mvv_lva(board, m)
        elif board[m & 127] != 0:
            orders[i] = _capture_order(board, m)
        else:
            orders[i] = 0


class FenError(ValueError):
    pass


def parse_board(text: str) -> vec[i64]:
    """The board of a FEN's first field; FenError when it does not describe 10 ranks of 9 files.

    >>> parse_board("9/9/9/9/9/9/9/9/9/4K4")[4]
    1
    """
    rows = text.split("/")
    if len(rows) != RANKS:
        raise FenError(f"FEN needs 10 ranks, got {len(rows)}")
    board = vec[i64]([0] * SQUARES)
    for i, row in enumerate(rows):
        rank, file = RANKS - 1 - i, 0
        for ch in row:
            if ch in "123456789":
                file += ord(ch) - ord("0")
            elif ch.upper() in _LETTER_CODES:
                if file >= FILES:
                    raise FenError(f"rank {rank} of the FEN is longer than 9 files")
                board[square(file, rank)] = _LETTER_CODES[ch.upper()] | (0 if ch.isupper() else BLACK)
                file += 1
            else:
                raise FenError(f"unknown piece letter {ch!r}")
        if file != FILES:
            raise FenError(f"rank {rank} of the FEN has {file} files, not 9")
    return board


def impossible(board: vec[i64]) -> str:
    """Why no game from the start position reaches ``board`` ('' if one might).

    >>> impossible(parse_board("4k4/9/9/9/B8/9/9/9/9/3K5"))
    'a red elephant cannot stand on a5'
    """
    for side in (RED_SIDE, BLACK_SIDE):
        name = ("red", "black")[side]
        codes = [board[sq] for sq in range(SQUARES) if board[sq] and board[sq] >> 3 == side]
        for kind in range(KING, PAWN + 1):
            count = codes.count(kind | (side << 3))
            if count > MOST[kind]:
                return f"{name} has {count} {KIND_NAMES[kind]}s; a side has {MOST[kind]} at most"
            if kind == KING and count == 0:
                return f"{name} has no king"
        home_pawn_files: list[int] = []
        for sq in range(SQUARES):
            code = board[sq]
            if code and code >> 3 == side:
                if not PLACES[code][sq]:
                    return f"a {name} {KIND_NAMES[code & 7]} cannot stand on {square_name(sq)}"
                if code & 7 == PAWN and home_side(rank_of(sq)) == side:
                    if file_of(sq) in home_pawn_files:
                        return f"two {name} pawns on file {square_name(sq)[0]} before the river (pawns cannot step sideways there)"
                    home_pawn_files.append(file_of(sq))
    return ""


def counter(fields: list[str], index: int, default: int) -> int:
    """A FEN counter field as a number: ``default`` when absent or not a plain decimal number.

    >>> counter(["9", "w", "-", "-", "12"], 4, 0), counter(["9", "w", "-", "-", "\u00b2"], 4, 0)
    (12, 0)
    """
    if len(fields) <= index:
        return default
    text = fields[index]
    if not text or len(text) > 9 or any(ch not in "0123456789" for ch in text):
        return default
    return int(text)


class Ply:
    """One ply of a game's line: the position's key, plies since a capture and whether its side to move
    is in check (what the rules look back at), and what the move into it changed (what unmake restores).

    The records are made once and reused as the line grows and shrinks: compiled, a record's fields are
    plain machine ints, where a tuple of the same (and a list entry for a 62-bit key) would be objects
    made and freed at every move.
    """

    def __init__(self) -> None:
        self.key: i64 = 0
        self.quiet: i64 = 0
        self.check = False
        self.move: i64 = 0  # 0 for the base position and after a null move
        self.captured: i64 = 0
        self.index: i64 = -1  # where the captured piece was in its side's list
        self.score: i64 = 0  # the incremental score before the move
        # Each king's weighed king lines (evaluate.weighed_side_lines), once evaluated or inherited: a move off one king's
        # file and rank keeps that king's, where both were weighed again after a move on either.
        self.red_lines: i64 = UNKNOWN_LINES
        self.black_lines: i64 = UNKNOWN_LINES
        self.piece: i64 = 0  # the piece the move moved (0 for the base position and a null move)
        # The learned evaluation's accumulator of the position (packed, NN_LANES units an entry: nn_pack) and its score, valid when ``fresh``: make only
        # marks them stale, and the evaluation brings them up from the nearest fresh ply before (Position._nn_score).
        self.acc = vec[i64]()
        self.nn: i64 = 0
        self.fresh = False

    def copy(self) -> Ply:
        ply = Ply()
        ply.key, ply.quiet, ply.check = self.key, self.quiet, self.check
        ply.move, ply.captured, ply.index, ply.score = self.move, self.captured, self.index, self.score
        ply.red_lines, ply.black_lines = self.red_lines, self.black_lines
        ply.piece, ply.acc, ply.nn, ply.fresh = self.piece, self.acc[:], self.nn, self.fresh
        return ply


class Position(NativeMoves):
    def __init__(self) -> None:
        self.board = vec[i64]([0] * SQUARES)
        self.side: i64 = RED_SIDE
        # Each side's piece list (the squares of its pieces) in one vector: side s's are entries
        # s * LIST_SPAN to s * LIST_SPAN + counts[s] - 1. Compiled, a capture or its undoing is a count
        # changed and an entry written, where a list popped and appended boxed and released its ints.
        self.squares = vec[i64]([0] * (2 * LIST_SPAN))
        self.counts = vec[i64]([0, 0])
        self.slots = vec[i64]([0] * SQUARES)  # where in its side's list the piece on each square is
        self.found = scratch()  # where move generation writes what it finds (NativeMoves.found)
        self.orders = scratch()  # the orders of the moves native_moves wrote there
        self.kings = vec[i64]([0, 0])
        self.hash: i64 = 0
        self.score: i64 = 0  # red's point of view
        self.values: list[vec[i64]] = piece_values()
        self.worth = flat_values(self.values)  # the same values in one vector
        self.fullmove = 1
        self.noise = 0  # evaluation noise amplitude (randomness, skill), 0 for none
        self.salt = 0
        # plies[0] is the base position, plies[ply] the current one (also ``top``, which the search reads at
        # every node without a list read); records beyond it wait for reuse.
        self.plies: list[Ply] = [Ply()]
        self.ply: i64 = 0
        self.top = self.plies[0]
        # The learned evaluation (set_network), its accumulators kept by the plies (Ply.acc).
        self.net: Optional[Network] = None

    # --- set-up -----------------------------------------------------------------------------

    @staticmethod
    def from_fen(fen: str, style: str = "normal", net: Optional[Network] = None) -> Position:
        pos = Position()
        pos.values = piece_values(style)
        pos.worth = flat_values(pos.values)
        pos.net = net
        pos.set_fen(fen)
        return pos

    def set_network(self, net: Optional[Network]) -> None:
        """Evaluate with ``net`` added to the hand-made score from now on (None: the hand-made score alone)."""
        self.net = net
        # The base position's accumulator is where every other is brought up from: taken back to it,
        # the line's moves are made again (each ply's then stale).
        line = [self.plies[i].move for i in range(1, self.ply + 1)]
        for _ in line:
            self.unmake()
        self._refresh_base()
        for move in line:
            self.make(move)

    def _refresh_base(self) -> None:
        """The current ply's accumulator from the board, and the only fresh one (the line before it is left behind)."""
        net = self.net
        for ply in self.plies:
            ply.fresh = False
        if net is not None:
            top = self.top
            units = nn_refresh(net, self.board)
            top.acc = nn_pack(units, net.hidden)
            top.nn = nn_output(net, units)
            top.fresh = True

    @property
    def acc(self) -> vec[i64]:
        """The learned evaluation's accumulator of the position, one unit an entry (empty without it), brought up to date."""
        net = self.net
        if net is None:
            return vec[i64]()
        self._nn_score(net)
        return nn_unpack(self.top.acc, net.hidden)

    def set_fen(self, fen: str) -> None:
        """Load ``fen``; raises FenError (leaving the position unusable) when it is malformed or impossible."""
        fields = fen.split()
        if not fields:
            raise FenError("empty FEN")
        board = parse_board(fields[0])
        side_field = fields[1].lower() if len(fields) > 1 else "w"
        if side_field not in ("w", "r", "b"):
            raise FenError(f"side to move must be w, r or b, not {fields[1]!r}")
        problem = impossible(board)
        if problem:
            raise FenError(problem)
        self.board = board
        self.side = BLACK_SIDE if side_field == "b" else RED_SIDE
        self.squares = vec[i64]([0] * (2 * LIST_SPAN))
        self.counts = vec[i64]([0, 0])
        self.slots = vec[i64]([0] * SQUARES)
        for s in (RED_SIDE, BLACK_SIDE):
            own = [sq for sq in range(SQUARES) if board[sq] and board[sq] >> 3 == s]
            self.counts[s] = len(own)
            for i, sq in enumerate(own):
                self.squares[s * LIST_SPAN + i] = sq
                self.slots[sq] = i
        self.kings = vec[i64]([sq for code in (KING, KING | BLACK) for sq in range(SQUARES) if board[sq] == code])
        self.fullmove = max(1, counter(fields, 5, 1))
        self.rehash()
        base = Ply()
        base.key = self.hash
        base.quiet = min(counter(fields, 4, 0), DRAW_PLIES)
        base.check = attacked(board, self.kings[self.side], self.side ^ 1)
        self.plies = [base]
        self.ply = 0
        self.top = base
        self._refresh_base()
        if attacked(board, self.kings[self.side ^ 1], self.side):
            raise FenError("the side not to move is in check")

    def rehash(self) -> None:
        h, score = 0, 0
        for sq in range(SQUARES):
            p = self.board[sq]
            if p:
                h ^= ZOBRIST[p][sq]
                score += self.values[p][sq]
        self.hash = h ^ (ZOBRIST_SIDE if self.side else 0)
        self.score = score

    def set_style(self, style: str) -> None:
        self.values = piece_values(style)
        self.worth = flat_values(self.values)
        self.rehash()

    def copy(self) -> Position:
        pos = Position()
        pos.board = self.board[:]
        pos.side = self.side
        pos.squares = self.squares[:]
        pos.counts = self.counts[:]
        pos.slots = self.slots[:]
        pos.kings = self.kings[:]
        pos.hash = self.hash
        pos.score = self.score
        pos.values = self.values
        pos.worth = self.worth
        pos.net = self.net
        pos.fullmove = self.fullmove
        pos.noise = self.noise
        pos.salt = self.salt
        pos.plies = [ply.copy() for ply in self.plies[: self.ply + 1]]
        pos.ply = self.ply
        pos.top = pos.plies[-1]
        return pos

    @property
    def pieces(self) -> list[list[int]]:
        """Each side's piece list (the squares of its pieces), red's first: a copy."""
        return [[self.squares[s * LIST_SPAN + i] for i in range(self.counts[s])] for s in (RED_SIDE, BLACK_SIDE)]

    @property
    def keys(self) -> list[int]:
        """The key of each position of the line, the base one first."""
        return [ply.key for ply in self.plies[: self.ply + 1]]

    @property
    def quiet(self) -> list[int]:
        """Plies since a capture at each position of the line, the base one first."""
        return [ply.quiet for ply in self.plies[: self.ply + 1]]

    # --- moves -------------------------------------------------------------------------------

    def make(self, move: int) -> bool:
        board = self.board
        frm: i64 = move >> 7
        to: i64 = move & 127
        piece: i64 = board[frm]
        captured: i64 = board[to]
        side: i64 = self.side
        board[to] = piece
        board[frm] = 0
        if self._exposes(piece, frm, to):
            board[frm] = piece
            board[to] = captured
            return False
        gives_check = self._checks(frm, to)
        slots = self.slots
        index: i64 = -1
        if captured:
            index = slots[to]
            self._drop(side ^ 1, index)
        slot: i64 = slots[frm]
        self.squares[side * LIST_SPAN + slot] = to
        slots[to] = slot
        if piece & 7 == KING:
            self.kings[side] = to
        plies = self.plies
        last = self.top
        n: i64 = self.ply + 1
        if n == len(plies):
            plies.append(Ply())
        ply = plies[n]
        ply.move = move
        ply.captured = captured
        ply.index = index
        ply.score = self.score
        worth = self.worth
        at: i64 = piece * SQUARES
        score: i64 = self.score + worth[at + to] - worth[at + frm]
        h: i64 = self.hash ^ KEYS[at + frm] ^ KEYS[at + to] ^ ZOBRIST_SIDE
        if captured:
            gone: i64 = captured * SQUARES + to
            score -= worth[gone]
            h ^= KEYS[gone]
        self.score = score
        self.hash = h
        ply.piece = piece
        ply.fresh = False
        self.side = side ^ 1
        self.ply = n
        self.top = ply
        ply.key = h
        quiet: i64 = 0  # not ``0 if captured else ...``: compiled, that boxed the count and unboxed it again
        if not captured:
            quiet = last.quiet + 1
        ply.quiet = quiet
        # A king's lines look along its file and rank only: a move off them, not of that king, keeps them.
        red: i64 = self.kings[RED_SIDE] * SQUARES
        black: i64 = self.kings[BLACK_SIDE] * SQUARES
        if piece != KING and LINE[red + frm] >= LEG and LINE[red + to] >= LEG:
            ply.red_lines = last.red_lines
        else:
            ply.red_lines = UNKNOWN_LINES
        if piece != KING | BLACK and LINE[black + frm] >= LEG and LINE[black + to] >= LEG:
            ply.black_lines = last.black_lines
        else:
            ply.black_lines = UNKNOWN_LINES
        ply.check = gives_check
        return True

    def peek(self, move: int) -> int:
        """What :meth:`make` would find of ``move``, without making it: -1 illegal, 1 legal and giving
        check, 0 legal and quiet for the king (one board write and its undoing instead of a whole ply)."""
        board = self.board
        frm: i64 = move >> 7
        to: i64 = move & 127
        piece: i64 = board[frm]
        captured: i64 = board[to]
        board[to] = piece
        board[frm] = 0
        verdict = -1 if self._exposes(piece, frm, to) else (1 if self._checks(frm, to) else 0)
        board[frm] = piece
        board[to] = captured
        return verdict

    def _exposes(self, piece: i64, frm: i64, to: i64) -> bool:
        """With the board showing the side to move's ``piece`` moved from ``frm`` to ``to``: is its king attacked?"""
        board = self.board
        side = self.side
        if piece & 7 == KING:
            return attacked(board, to, side ^ 1)
        king = self.kings[side]
        related: i64 = king * SQUARES
        if RELATE[related + frm] == 0 and RELATE[related + to] == 0:
            # Whether the king is attacked changes only when a related square does: a check
            # stays (most moves tried in check end here), and no new one appears.
            return self.top.check
        if self.top.check:
            return attacked(board, king, side ^ 1)
        # Not in check and not moving its king, the mover can only uncover an attack on it.
        return uncovered(board, king, side ^ 1, frm, to)

    def _checks(self, frm: i64, to: i64) -> bool:
        """With the board showing the side to move's move from ``frm`` to ``to``: does it attack the other king?"""
        their_king: i64 = self.kings[self.side ^ 1]
        related: i64 = their_king * SQUARES
        return (RELATE[related + frm] != 0 or RELATE[related + to] != 0) and checks_after(self.board, their_king, self.side, frm, to)

    def unmake(self) -> None:
        ply = self.top
        self.ply -= 1
        self.top = self.plies[self.ply]
        move: i64 = ply.move
        captured: i64 = ply.captured
        board = self.board
        frm: i64 = move >> 7
        to: i64 = move & 127
        side: i64 = self.side ^ 1
        piece: i64 = board[to]
        board[frm] = piece
        board[to] = captured
        slots = self.slots
        slot: i64 = slots[to]
        self.squares[side * LIST_SPAN + slot] = frm
        slots[frm] = slot
        if captured:
            self._restore(self.side, ply.index, to)
        if piece & 7 == KING:
            self.kings[side] = frm
        self.side = side
        self.score = ply.score
        self.hash = self.top.key

    def _nn_score(self, net: Network) -> i64:
        """The learned evaluation's output for the position: with its accumulator, brought up from the
        nearest fresh ply before it. Lazy, so a node that is never evaluated (a hash cut, a repetition,
        a check's answers tried) costs the net nothing, unmake nothing at all, and a node evaluated
        again (searched again after a reduction or with a wider window) only a read."""
        top = self.top
        if top.fresh:
            return top.nn
        plies = self.plies
        n: i64 = self.ply
        k: i64 = n - 1
        while not plies[k].fresh:
            k -= 1
        i: i64
        for i in range(k + 1, n + 1):
            ply = plies[i]
            if len(ply.acc) != net.width:
                ply.acc = vec[i64]([0] * net.width)
            move: i64 = ply.move
            ply.nn = nn_step(net, plies[i - 1].acc, ply.acc, ply.piece, move >> 7, move & 127, ply.captured)
            ply.fresh = True
        return top.nn

    def _drop(self, side: i64, index: i64) -> None:
        """Take the piece at ``index`` out of ``side``'s list: the last one takes its place."""
        squares = self.squares
        base: i64 = side * LIST_SPAN
        count: i64 = self.counts[side] - 1
        self.counts[side] = count
        if index < count:
            last: i64 = squares[base + count]
            squares[base + index] = last
            self.slots[last] = index

    def _restore(self, side: i64, index: i64, sq: i64) -> None:
        """Undo :meth:`_drop`: the piece on ``sq`` back at ``index``, the one that took its place last again."""
        squares = self.squares
        base: i64 = side * LIST_SPAN
        count: i64 = self.counts[side]
        if index < count:
            moved: i64 = squares[base + index]
            self.slots[moved] = count
            squares[base + count] = moved
        squares[base + index] = sq
        self.counts[side] = count + 1
        self.slots[sq] = index

    def make_null(self) -> None:
        self.hash ^= ZOBRIST_SIDE
        self.side ^= 1
        self.ply += 1
        if self.ply == len(self.plies):
            self.plies.append(Ply())
        ply = self.plies[self.ply]
        self.top = ply
        ply.move = 0
        ply.captured = 0
        ply.score = self.score
        ply.key = self.hash
        ply.quiet = 0  # a null move breaks any repetition cycle through it
        ply.check = False
        last = self.plies[self.ply - 1]
        ply.red_lines = last.red_lines
        ply.black_lines = last.black_lines
        ply.piece = 0
        ply.fresh = False

    def unmake_null(self) -> None:
        self.ply -= 1
        self.top = self.plies[self.ply]
        self.side ^= 1
        self.hash = self.top.key

    def legal_moves(self) -> list[int]:
        out: list[int] = []
        for m in self.moves():
            if self.make(m):
                self.unmake()
                out.append(m)
        return out

    def push_name(self, text: str) -> bool:
        """Play a move given as ``h2e2`` if it is legal; returns whether it was."""
        move = parse_move(text)
        # One generation and one make: a GUI resends the whole game before every move.
        if move < 0 or move not in self.moves() or not self.make(move):
            return False
        if self.side == RED_SIDE:
            self.fullmove += 1
        return True

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for m in self.moves():
            if self.make(m):
                total += 1 if depth == 1 else self.perft(depth - 1)
                self.unmake()
        return total

    # --- the search's contract ----------------------------------------------------------------

    def key(self) -> int:
        return self.hash

    def moves(self) -> list[int]:
        """Pseudo-legal moves; in check only those that may answer it (:func:`evasions`)."""
        return listed(self.found, self._generate(False))

    def noisy_moves(self) -> list[int]:
        return listed(self.found, self._generate(True))

    def native_moves(self, noisy: bool) -> i64:
        count = self._generate(noisy)
        _orders_into(self.board, self.found, count, noisy, self.orders)
        return count

    def _generate(self, noisy: bool) -> i64:
        """How many moves (noisy: :meth:`noisy_moves`, else :meth:`moves`) the first entries of ``found`` now hold."""
        side: i64 = self.side
        first: i64 = side * LIST_SPAN
        found = self.found
        n = generate_into(self.board, self.squares, first, first + self.counts[side], side, noisy, found)
        if not noisy and self.top.check:
            n = evasions_in(self.board, found, n, self.kings[side], side)
        return n

    def in_check(self) -> bool:
        return self.top.check

    def null_ok(self) -> bool:
        # Zugzwang is real in xiangqi endings: only null-move with a rook, horse or cannon left.
        board = self.board
        squares = self.squares
        first: i64 = self.side * LIST_SPAN
        i: i64
        for i in range(first, first + self.counts[self.side]):
            kind = board[squares[i]] & 7
            if kind == ROOK or kind == KNIGHT or kind == CANNON:
                return True
        return False

    def evaluate(self) -> int:
        top = self.top
        if top.red_lines == UNKNOWN_LINES:
            top.red_lines = weighed_side_lines(self.board, self.kings[RED_SIDE], RED_SIDE)
        if top.black_lines == UNKNOWN_LINES:
            top.black_lines = weighed_side_lines(self.board, self.kings[BLACK_SIDE], BLACK_SIDE)
        red = self.score + lines_in_units(top.red_lines + top.black_lines)
        net = self.net
        if net is not None:
            red += self._nn_score(net)
        score = (red if self.side == RED_SIDE else -red) + TEMPO
        if self.noise:
            # A fixed function of the position, so the hash table stays consistent within a search.
            key: int = self.hash
            score += ((key ^ self.salt) * 0x9E3779B97F4A7C15 >> 32) % (2 * self.noise + 1) - self.noise
        return score

    def rule_score(self, ply: int) -> int:
        quiet = self.top.quiet
        if quiet < 4:
            return NO_SCORE
        plies = self.plies
        n = self.ply
        key = self.top.key
        i = n - 4
        stop = max(n - quiet, 0)
        while i >= stop:
            if plies[i].key == key:
                return self.judge_cycle(n - i)
            i -= 2
        if quiet >= DRAW_PLIES:
            return 0
        return NO_SCORE

    def no_move_score(self, ply: int) -> int:
        return -MATE + ply  # stalemate loses too

    def capture_order(self, move: int) -> int:
        # Not capture_orders([move]): compiled, the vector made from a one-move list cost some 3,000 instructions
        # (the list's buffer asked for and refused), at every node that tries a hash move.
        m: i64 = move
        return _capture_order(self.board, m) if self.board[m & 127] != 0 else 0

    def capture_orders(self, moves: list[int]) -> list[int]:
        """MVV-LVA of each capture, made negative when the exchange it starts loses material."""
        return self._orders(moves, False)

    def noisy_orders(self, moves: list[int]) -> list[int]:
        """MVV-LVA of each capture (the noisy moves are all captures).

        >>> pos = Position.from_fen("3k5/3n5/9/4p4/4R4/9/9/9/9/5K3 w")  # the horse guards the pawn
        >>> move = parse_move("e5e6")
        >>> pos.noisy_orders([move]), pos.capture_loses(move), pos.capture_order(move) < 0
        ([10], True, True)
        """
        return self._orders(moves, True)

    def _orders(self, moves: list[int], noisy: bool) -> list[int]:
        """The orders of ``moves`` (see :func:`_orders_into`); the search reads those of native_moves instead."""
        orders = vec[i64]([0] * len(moves))
        _orders_into(self.board, vec[i64](moves), len(moves), noisy, orders)
        return list(orders)

    def capture_loses(self, move: int) -> bool:
        return _loses(self.board, move)

    def quiet_checks(self) -> list[int]:
        side: i64 = self.side
        first: i64 = side * LIST_SPAN
        return quiet_checks(self.board, self.squares, first, first + self.counts[side], side, self.kings[side ^ 1], self.found)

    def quiet_loses(self, move: int) -> bool:
        return self.board[move >> 7] & 7 != KING and exchange_loses(self.board, move)

    def late_moves(self) -> list[int]:
        return LATE_MOVES

    def move_limit(self) -> int:
        return MOVE_LIMIT

    def move_name(self, move: int) -> str:
        return move_name(move)

    # --- repetition ----------------------------------------------------------------------------

    def judge_cycle(self, length: int) -> int:
        """Score for the side to move of a position that repeats one ``length`` plies ago.

        The league rule: a side that checked with every move of the cycle while the other did not
        loses; else a side that chased the same piece with every move loses; else a draw.
        """
        mine_check, theirs_check = self._all_checks(length)
        if mine_check != theirs_check:
            return -BAN_SCORE if mine_check else BAN_SCORE
        mine_chase, theirs_chase = self._chases(length)
        if (mine_chase != 0) != (theirs_chase != 0):
            return -BAN_SCORE if mine_chase else BAN_SCORE
        return 0

    def _all_checks(self, length: int) -> tuple[bool, bool]:
        """Did each side give check with every one of its moves in the last ``length`` plies?"""
        plies = self.plies
        n = self.ply
        theirs = all(plies[n - k].check for k in range(0, length, 2))  # their moves led into n, n-2, …
        mine = all(plies[n - k].check for k in range(1, length, 2))
        return mine, theirs

    def _chases(self, length: int) -> tuple[int, int]:
        """Pieces each side chased with every one of its moves in the cycle, as index masks."""
        replay: list[int] = []
        for _ in range(length):
            replay.append(self.top.move)
            self.unmake()
        masks = [-1, -1]
        for move in reversed(replay):
            mover = self.side
            self.make(move)
            if move:
                masks[mover] &= self._chased_by(move & 127)
            else:
                masks[mover] = 0
        return masks[self.side], masks[self.side ^ 1]

    def _chased_by(self, sq: int) -> int:
        """Mask of the enemy pieces (by index in their piece list) the piece on ``sq`` chases.

        A chase: a horse or cannon attacking a rook; a horse attacking an unprotected cannon or
        crossed pawn; a cannon attacking an unprotected horse or crossed pawn; a rook attacking an
        unprotected horse, cannon or crossed pawn. The capture must itself be legal.
        """
        board = self.board
        attacker = board[sq] & 7
        side = board[sq] >> 3
        mask = 0
        for m in generate(board, [sq], side, True):
            to = m & 127
            victim = board[to] & 7
            crossed_pawn = victim == PAWN and home_side(rank_of(to)) == side
            if victim == ROOK and attacker in (KNIGHT, CANNON):
                pass
            elif (attacker == KNIGHT and (victim == CANNON or crossed_pawn)) or (
                attacker == CANNON and (victim == KNIGHT or crossed_pawn)
            ) or (attacker == ROOK and (victim in (KNIGHT, CANNON) or crossed_pawn)):
                if self._protected(to):
                    continue
            else:
                continue
            if self._legal_for(side, m):
                mask |= 1 << self.slots[to]
        return mask

    def _legal_for(self, side: int, move: int) -> bool:
        """Would ``move`` by ``side`` (to move or not) leave its own king safe?"""
        board = self.board
        frm, to = move >> 7, move & 127
        piece, captured = board[frm], board[to]
        board[to] = piece
        board[frm] = 0
        ok = not attacked(board, to if piece & 7 == KING else self.kings[side], side ^ 1)
        board[frm] = piece
        board[to] = captured
        return ok

    def _protected(self, sq: int) -> bool:
        """Could the owner of the piece on ``sq`` legally recapture there?"""
        owner = self.board[sq] >> 3
        saved = self.board[sq]
        self.board[sq] = PAWN | ((owner ^ 1) << 3)  # stand-in for the capturer
        own = [s for s in self.pieces[owner] if s != sq]
        try:
            recaptures = [m for m in generate(self.board, own, owner, True) if m & 127 == sq]
            return any(self._legal_for(owner, m) for m in recaptures)
        finally:
            self.board[sq] = saved

    # --- text ------------------------------------------------------------------------------------

    def fen(self) -> str:
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row, gap = "", 0
            for file in range(FILES):
                p = self.board[square(file, rank)]
                if p == 0:
                    gap += 1
                    continue
                if gap:
                    row += str(gap)
                    gap = 0
                letter = PIECE_LETTERS[p & 7]
                row += letter if p < BLACK else letter.lower()
            rows.append(row + (str(gap) if gap else ""))
        side = "w" if self.side == RED_SIDE else "b"
        return f"{'/'.join(rows)} {side} - - {self.top.quiet} {self.fullmove}"

    def diagram(self) -> str:
        lines = []
        for rank in range(RANKS - 1, -1, -1):
            cells = []
            for file in range(FILES):
                p = self.board[square(file, rank)]
                letter = PIECE_LETTERS[p & 7] if p else "."
                cells.append(letter if p < BLACK else letter.lower())
            lines.append(f"{rank} " + " ".join(cells))
            if rank == 5:
                lines.append("  " + "~" * 17)
        lines.append("  a b c d e f g h i")
        lines.append(f"FEN: {self.fen()}")
        lines.append(f"Key: {self.hash:016x}  Checked: {'yes' if self.top.check else 'no'}")
        return "\n".join(lines)

    def outcome(self) -> Optional[str]:
        """A finished game's result for the side to move: 'loss' (mated or stalemated), 'draw', or None."""
        if not self.legal_moves():
            return "loss"
        if self.top.quiet >= DRAW_PLIES:
            return "draw"
        return None
