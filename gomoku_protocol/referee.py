"""A gomoku game between two seats (``gomoku_protocol.seats``), our :class:`Position` as referee.

The opening's stones are placed and each seat opened; then the seats move in turn. A move must come
within the turn's and the game's time (each with the official tolerance, :data:`TOLERANCE_MS`) and be
legal under the rule; a five by the rule wins; a full board, or :data:`RENJU_MOVE_LIMIT` moves under
renju, is a draw. A seat that fails (a :class:`Forfeit`) loses. The loop is the core's,
:func:`engine_core.referee.play`; this module holds gomoku's rules for it (:class:`GomokuRules`) and
:func:`play_game`, which plays one game with them. ``sanqi match --game gomoku`` (``gomoku_protocol.arena``)
plays its games here.
"""

from typing import Optional

from engine_core.ends import End, Forfeit
import engine_core.referee as core
from engine_core.referee import Clock, Result
from gomoku_protocol.position import Position
from gomoku_protocol.seats import TOLERANCE_MS, GomokuSeat, MatchSettings

RENJU_MOVE_LIMIT = 200
COLOURS = ("black", "white")


class GomokuRules:
    """Gomoku's rules for :func:`engine_core.referee.play`: black (seat 0) and white, the opening's stones
    already placed; the moves and each one's ms as the record."""

    seats = 2

    def __init__(self, players: list[GomokuSeat], opening: list[tuple[int, int]], limits: MatchSettings) -> None:
        self.players = players
        self.limits = limits
        self.board = b = Position(limits.size, limits.size, limits.rule)
        self.moves: list[tuple[int, int]] = []
        self.times: list[int] = []
        for x, y in opening:
            b.play(b.index(x, y), b.side)
            self.moves.append((x, y))
            self.times.append(0)

    def open(self, seat: int) -> None:
        self.players[seat].open(self.limits)

    def outcome(self) -> Optional[Result]:
        b = self.board
        if b.full() or (b.renju and len(self.moves) >= RENJU_MOVE_LIMIT):
            return Result(-1, "board full" if b.full() else "move limit")
        return None

    def turn(self) -> int:
        return len(self.moves) % 2

    def ask(self, seat: int, clocks: list[int]) -> tuple[int, int]:
        return self.players[seat].move(self.board, self.moves, seat, clocks[seat])

    def cost(self, seat: int, ms: int) -> int:
        return ms

    def apply(self, seat: int, move: tuple[int, int], ms: int) -> Optional[Result]:
        b, (x, y) = self.board, move
        if not (0 <= x < self.limits.size and 0 <= y < self.limits.size) or not b.legal(b.index(x, y), b.side):
            raise Forfeit(End.ILLEGAL, f"illegal move {x},{y}")
        m = b.index(x, y)
        won = b.wins_at(m, b.side)
        b.play(m, b.side)
        self.moves.append((x, y))
        self.times.append(ms)
        return Result(seat, "five") if won else None

    def forfeited(self, seat: int, exc: Forfeit, left: int) -> Result:
        return Result.forfeit(seat, f"{COLOURS[seat]} {exc.end}: {exc}", exc.end)


def clock(limits: MatchSettings) -> Clock:
    """Each side's time: ``timeout_match`` a game (none: a clock that never runs out), ``timeout_turn`` a
    move, both with the official tolerance."""
    return Clock(limits.match_ms or 10**9, 0, limits.turn_ms, TOLERANCE_MS)


def play_game(seats: list[GomokuSeat], opening: list[tuple[int, int]], limits: MatchSettings) -> tuple[Result, GomokuRules]:
    """One game on the core's loop under :class:`GomokuRules`: its result (seat 0 black) and the rules
    object, whose ``moves`` and ``times`` (ms per move, 0 for the opening's) are its record."""
    rules = GomokuRules(seats, opening, limits)
    return core.play(rules, clock(limits)), rules
