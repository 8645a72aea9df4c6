"""A Junqi position for the shared search: one world in which every hidden kind is fixed by a
sampled deployment.

Scores are from the side to move's team. Seats move S, E, N, W, which alternates the two teams,
so team negamax works; a seat that is out still gets its turn as a forced pass, keeping the
alternation. Capturing a flag puts its owner out (its pieces leave the board); the team with no
seat left has lost. Once a seat is out, a seat left without a move is out too at its turn, as the
referee rules (``nomoves``), so taking the lone army's last movers wins, and the material lead
counts as a share of all the material on the board (:data:`TRADE`), so the side ahead gains by even
trades. The no-capture limit ends the line: the side to move loses in the two-player
game, a draw in the four-player game; nearing it in the two-player game, the evaluation presses
the side that will be to move at the limit to attack, and in the four-player game, once a seat is
out, it fades the score towards the draw's 0 (:data:`FADE`), so a team ahead captures before the
count runs out. Moves are ``from * size + to``; :data:`PASS` follows them.

>>> from junqi_protocol.board import Board
>>> from junqi_protocol.rules import parse_lineup
>>> b = Board("2p")
>>> owner, kind = [-1] * b.size, [-1] * b.size
>>> for seat in (0, 1):
...     for slot, k in enumerate(parse_lineup("abccddeeffggghhhiiijjkklj")):
...         if k >= 0:
...             owner[seat * 30 + slot], kind[seat * 30 + slot] = seat, k
>>> pos = Position(b, owner, kind, [True, True], 0, 0, 31, True, zobrist_keys(b))
>>> m = pos.move_of(b.point("G0"), b.point("F0"))
>>> pos.make(m), pos.turn, pos.evaluate() == -pos.score_for(0)
(True, 1, True)
>>> pos.unmake(); pos.turn
0
"""

import random
from typing import Final

from librt.vecs import extend, vec
from mypy_extensions import i64

from engine_core.game import MATE, NO_SCORE, SearchPosition
from junqi_protocol.board import Board
from junqi_protocol.evaluate import ROW_OF, VALUE, Tables, place_bonuses, square_tables
from junqi_protocol.rules import ALL, BOTH, EAT, ENGINEER, FLAG, KEEP_ROW, KILLED, MARSHAL, MINE, MOVE, add_targets, combat

FLAG_TAKEN: Final = 5000  # ordering weight of a flag capture
URGENT: Final = 10  # quiet moves before the two-player no-capture limit when the pressure starts
URGENCY: Final = 25  # per quiet move nearer the limit, against the side that will be to move then
FADE: Final = 20  # quiet moves before the four-player no-capture draw from which a score fades towards it
# Words one made move keeps on the undo stack: the move, attacker, defender's seat, defender's kind,
# result, quiet count, seat, key, the two teams' scores, the seat it put out (-1) and the winner.
UNDO: Final = 12


# What a piece no enemy mover can beat or trade with is worth beyond its material: only a bomb or a
# mine can stop it. In 24 of the 27 dealt games we lost to pfysw/JunQi 2.3 (28 November 2026) the
# enemy was first to hold such a piece, and in 22 our first flag fell after that; additive
# material saw a 司令 as 600 wherever the other 司令 stood. In self-play against the build without
# it (4 players, dealt lineups, 0.5 s a move) 100 scored 80/140 (57 % ± 7) and 200 scored 29.5/60
# (docs/results/junqi.md).
TOP: Final = 100
# Once a seat of the four is out, what a team's material lead is worth beyond itself, as a share of
# all the material on the board: an even trade raises the share of the side ahead (two armies
# against one trade their way through the lone army's guards to its flag), and the side behind
# avoids them. Two against one from the start, the lead is 8690 to 4345, a share of 1/3 (+666); a
# 旅长 for a 旅长 then adds 26, the two 司令 traded 68.
TRADE: Final = 2000


def _capture_order(att: int, dfn: int) -> int:
    """:meth:`Position.capture_order` of ``att`` attacking ``dfn``: above 1000 as it gains material."""
    if dfn == FLAG:
        return FLAG_TAKEN
    result = combat(att, dfn)
    gain = VALUE[dfn] if result == EAT else VALUE[dfn] - VALUE[att] if result == BOTH else -VALUE[att] if result == KILLED else 0
    return max(1, 1000 + gain)


CAPTURE_ORDER: Final[list[int]] = [_capture_order(att, dfn) for att in range(12) for dfn in range(12)]
# The targets quiescence searches (:data:`junqi_protocol.rules.ALL`'s layout): attacks that do not
# lose material, so quiescence generates them alone instead of every move to filter.
NOISY: Final = bytes([dfn >= 0 and CAPTURE_ORDER[att * 12 + dfn] >= 1000 for att in range(12) for dfn in range(-1, KEEP_ROW - 1)])


def _best_mover(counts: list[int]) -> int:
    """The highest-ranked soldier kind present (kinds 0..8 rank by number; 9 when none is left)."""
    for k in range(ENGINEER + 1):
        if counts[k] > 0:
            return k
    return ENGINEER + 1


def zobrist_keys(board: Board, seed: int = 1) -> list[int]:
    """Random keys for every (point, seat, kind), then one per seat to move."""
    rng = random.Random(seed)
    return [rng.getrandbits(62) for _ in range(board.size * 48 + 4)]


class Position(SearchPosition):
    def __init__(self, board: Board, owner: list[int], kind: list[int], alive: list[bool], turn: int, quiet: int,
                 nocapture: int, nocapture_loses: bool, keys: list[int]) -> None:
        self.board: Board = board
        self.size: int = board.size
        self.seats: int = board.seats
        # Words, not lists: compiled, move generation reads them natively (see rules.add_targets).
        self.owner: vec[i64] = vec[i64](owner)
        self.kind: vec[i64] = vec[i64](kind)
        self.alive: list[bool] = list(alive)
        self.turn: int = turn
        self.quiet: int = quiet
        self.nocapture: int = nocapture
        self.nocapture_loses: bool = nocapture_loses
        self.winner: int = -1
        self.passmove: int = self.size * self.size
        self.tables: Tables = square_tables(board, list(owner), list(kind), self.alive)
        # piece_score's place part as one flat list, so make does not walk nested lists and work out
        # the mover class two or three times a move (0.7 % of a depth-3 bench's search, callgrind).
        self.bonus: list[int] = place_bonuses(board, self.tables)
        self.reveals: list[int] = self.tables.reveal
        # Each seat's flag (it never moves; -1 without one).
        self.flags: list[int] = [-1] * self.seats
        for p in range(self.size):
            if self.owner[p] >= 0 and self.kind[p] == FLAG:
                self.flags[self.owner[p]] = p
        self.zobrist: list[int] = keys
        self.zturn: list[int] = keys[self.size * 48:]
        # Each team's score as words: compiled, a list re-boxed the sum (mostly above 256) at every _put and _take.
        self.score: vec[i64] = vec[i64]([0, 0])
        # Pieces of each kind per team, for the top-piece term (:meth:`top_score`).
        self.counts: list[list[int]] = [[0] * 12, [0] * 12]
        self.hash: int = self.zturn[turn]
        for p in range(self.size):
            if self.owner[p] >= 0:
                self._put(p, self.owner[p], self.kind[p])
        # Undo records, :data:`UNDO` words a move up to :attr:`top` (compiled, a list per move boxed its
        # key and scores: 3 allocations and a list per make); removed armies as (point, kind) lists.
        self.stack: vec[i64] = vec[i64]([0] * (UNDO * 64))
        self.top: i64 = 0
        self.removed: list[list[int]] = []
        self.marks: vec[i64] = vec[i64]([0] * (2 * self.size + 1))  # move generation's scratch (add_targets)

    def team(self, seat: int) -> int:
        return seat % 2 if self.seats == 4 else seat

    def score_for(self, team: int) -> int:
        return self.score[team] - self.score[1 - team]

    def move_of(self, frm: int, to: int) -> int:
        return frm * self.size + to

    def _piece_score(self, p: int, seat: int, kind: int) -> int:
        """:func:`junqi_protocol.evaluate.piece_score` from :attr:`bonus`."""
        score = VALUE[kind] + self.bonus[(seat * 3 + ROW_OF[kind]) * self.size + p]
        return score + self.reveals[seat] if kind == MARSHAL else score

    def _put(self, p: int, seat: int, kind: int) -> None:
        self.owner[p] = seat
        self.kind[p] = kind
        self.hash ^= self.zobrist[(p * 4 + seat) * 12 + kind]
        # A seat's team is seat % 2 in both variants (the two-player seats are 0 and 1).
        self.score[seat % 2] += self._piece_score(p, seat, kind)
        self.counts[seat % 2][kind] += 1

    def _take(self, p: int) -> None:
        seat = self.owner[p]
        kind = self.kind[p]
        self.hash ^= self.zobrist[(p * 4 + seat) * 12 + kind]
        self.score[seat % 2] -= self._piece_score(p, seat, kind)
        self.counts[seat % 2][kind] -= 1
        self.owner[p] = -1
        self.kind[p] = -1

    def reveal(self, p: int, kind: int) -> None:
        """Make the piece on ``p`` one of ``kind`` (a chance node's outcome; never the flag, whose
        square :attr:`flags` keeps)."""
        seat = self.owner[p]
        self._take(p)
        self._put(p, seat, kind)

    def flag_capture(self) -> int:
        """A move of the side to move that takes an enemy flag at once (-1 if none): what a
        static look at a position must not miss."""
        team = self.team(self.turn)
        for seat in range(self.seats):
            f = self.flags[seat]
            if f < 0 or self.owner[f] != seat or self.team(seat) == team:
                continue
            for q in self.board.steps[f]:
                if self.owner[q] == self.turn and self.kind[q] != MINE and self.kind[q] != FLAG:
                    return self.move_of(q, f)
        return -1

    # --- the SearchPosition contract -------------------------------------------------------

    def key(self) -> int:
        return self.hash

    def moves(self) -> list[int]:
        out = self._generate(ALL)
        if not out and self.seats == 4:
            out.append(self.passmove)
        return out

    def noisy_moves(self) -> list[int]:
        return self._generate(NOISY)

    def _generate(self, keep: bytes) -> list[int]:
        """The side to move's moves whose targets ``keep`` keeps (:func:`junqi_protocol.rules.add_targets`)."""
        out: list[int] = []
        seat = self.turn
        if self.alive[seat]:
            owner = self.owner
            for p in range(self.size):
                if owner[p] == seat:
                    add_targets(self.board, owner, self.kind, p, keep, self.marks, out, p * self.size)
        return out

    def make(self, move: int) -> bool:
        seat = self.turn
        top = self.top
        if top + UNDO > len(self.stack):
            self.stack = extend(self.stack, [0] * len(self.stack))
        st = self.stack
        self.top = top + UNDO
        st[top] = move
        st[top + 1] = -1
        st[top + 2] = -1
        st[top + 3] = -1
        st[top + 4] = -1
        st[top + 5] = self.quiet
        st[top + 6] = seat
        st[top + 7] = self.hash
        st[top + 8] = self.score[0]
        st[top + 9] = self.score[1]
        st[top + 10] = -1
        st[top + 11] = self.winner
        if move == self.passmove:
            self.quiet += 1
            if self.alive[seat] and self.seats == 4 and self.seat_out():
                # A seat in play passes only for want of a move (moves()): the referee puts it out.
                st[top + 10] = seat
                self._knock_out(seat)
        else:
            frm = move // self.size
            to = move % self.size
            att = self.kind[frm]
            defender = self.owner[to]
            dfn = self.kind[to]
            st[top + 1] = att
            st[top + 2] = defender
            st[top + 3] = dfn
            result = MOVE if defender < 0 else combat(att, dfn)
            st[top + 4] = result
            self._take(frm)
            if result == EAT or result == BOTH:
                self._take(to)
            if result == MOVE or result == EAT:
                self._put(to, seat, att)
            self.quiet = self.quiet + 1 if result == MOVE else 0
            if dfn == FLAG and defender >= 0:
                st[top + 10] = defender
                self._knock_out(defender)
        self.hash ^= self.zturn[seat]
        self.turn = (seat + 1) % self.seats
        self.hash ^= self.zturn[self.turn]
        return True

    def _knock_out(self, seat: int) -> None:
        gone: list[int] = []
        for p in range(self.size):
            if self.owner[p] == seat:
                gone.append(p)
                gone.append(self.kind[p])
                self._take(p)
        self.removed.append(gone)
        self.alive[seat] = False
        team = self.team(seat)
        if not any(self.alive[s] for s in range(self.seats) if self.team(s) == team):
            self.winner = 1 - team

    def unmake(self) -> None:
        top = self.top - UNDO
        self.top = top
        st = self.stack
        move = st[top]
        seat = st[top + 6]
        out = st[top + 10]
        if out >= 0:
            gone = self.removed.pop()
            for i in range(0, len(gone), 2):
                self.owner[gone[i]] = out
                self.kind[gone[i]] = gone[i + 1]
                self.counts[out % 2][gone[i + 1]] += 1
            self.alive[out] = True
        if move != self.passmove:
            frm = move // self.size
            to = move % self.size
            result = st[top + 4]
            att = st[top + 1]
            defender = st[top + 2]
            dfn = st[top + 3]
            if result == KILLED or result == BOTH:
                self.counts[seat % 2][att] += 1
            if result == EAT or result == BOTH:
                self.counts[defender % 2][dfn] += 1
            self.owner[to] = defender
            self.kind[to] = dfn if defender >= 0 else -1
            self.owner[frm] = seat
            self.kind[frm] = att
        self.quiet = st[top + 5]
        self.turn = seat
        self.hash = st[top + 7]
        self.score[0] = st[top + 8]
        self.score[1] = st[top + 9]
        self.winner = st[top + 11]

    def make_null(self) -> None:
        self.make(self.passmove)

    def unmake_null(self) -> None:
        self.unmake()

    def null_ok(self) -> bool:
        return False

    def in_check(self) -> bool:
        return False

    def top_score(self, team: int) -> int:
        """What ``team`` gains from pieces that no enemy mover can beat or trade with (:data:`TOP`
        each, less the enemy's such pieces): once our 司令 is gone their 司令 can be stopped by a
        bomb or a mine alone."""
        best = [_best_mover(self.counts[0]), _best_mover(self.counts[1])]
        ours = sum(self.counts[team][k] for k in range(best[1 - team]))
        theirs = sum(self.counts[1 - team][k] for k in range(best[team]))
        return TOP * (ours - theirs)

    def trade_score(self, team: int) -> int:
        """:data:`TRADE` times ``team``'s material lead as a share of all the material on the board."""
        ours = 0
        theirs = 0
        for k in range(12):
            ours += self.counts[team][k] * VALUE[k]
            theirs += self.counts[1 - team][k] * VALUE[k]
        if ours + theirs <= 0:
            return 0
        share = TRADE * abs(ours - theirs) // (ours + theirs)
        return share if ours >= theirs else -share

    def evaluate(self) -> int:
        team = self.team(self.turn)
        score = self.score_for(team) + self.top_score(team)
        if self.seats == 4 and not self.nocapture_loses and self.seat_out():
            score += self.trade_score(team)
        left = self.nocapture - self.quiet
        if self.nocapture_loses and left <= URGENT:
            # Who is to move when the limit strikes (and so loses) is fixed by parity: that side
            # must attack something soon, which resets the count.
            press = URGENCY * (URGENT + 1 - left)
            score += -press if left % 2 == 0 else press
        elif not self.nocapture_loses and left < FADE and self.seat_out():
            # The draw at the limit is worth 0 to both teams: once a seat is out, a lead fades
            # towards it over the last FADE quiet moves, so the side ahead takes (or, far ahead,
            # gives) something before the count runs out, and the side behind is content to wait.
            left = max(0, left)
            score = score * left // FADE if score >= 0 else -(-score * left // FADE)
        return score

    def seat_out(self) -> bool:
        """A seat of the four is out: two against one, or one against one."""
        for s in range(self.seats):
            if not self.alive[s]:
                return True
        return False

    def rule_score(self, ply: int) -> int:
        if self.winner >= 0:
            return MATE - ply if self.winner == self.team(self.turn) else -MATE + ply
        if self.quiet >= self.nocapture:
            return -MATE + ply if self.nocapture_loses else 0
        return NO_SCORE

    def no_move_score(self, ply: int) -> int:
        return -MATE + ply

    def capture_order(self, move: int) -> int:
        if move == self.passmove:
            return 0
        frm = move // self.size
        to = move % self.size
        if self.owner[to] < 0:
            return 0
        return CAPTURE_ORDER[self.kind[frm] * 12 + self.kind[to]]

    def move_limit(self) -> int:
        return self.passmove + 1

    def move_name(self, move: int) -> str:
        if move == self.passmove:
            return "pass"
        names = self.board.names
        return f"{names[move // self.size]}-{names[move % self.size]}"
