"""A gomoku game between two seats (``gomoku_protocol.seats``), our :class:`Position` as referee.

The opening's stones are placed and each seat opened; then the seats move in turn. A move must come
within the turn's and the game's time (each with the official tolerance, :data:`TOLERANCE_MS`) and be
legal under the rule; a five by the rule wins; a full board, or :data:`RENJU_MOVE_LIMIT` moves under
renju, is a draw. A seat that fails (a :class:`Forfeit`) loses. ``sanqi match --game gomoku``
(``gomoku_protocol.arena``) plays its games here.
"""

import time

from engine_core.ends import End, Forfeit
from gomoku_protocol.position import Position
from gomoku_protocol.seats import TOLERANCE_MS, MatchSettings, Seat

RENJU_MOVE_LIMIT = 200
Played = tuple[int, str, list[tuple[int, int]], list[int], list[tuple[int, End]]]


def play_game(seats: list[Seat], order: tuple[int, int], opening: list[tuple[int, int]], limits: MatchSettings) -> Played:
    """Winner colour (0 black, 1 white, -1 draw), reason, moves, ms per move and forfeits (by the engine
    index ``order`` gives each colour: black's, white's)."""
    b = Position(limits.size, limits.size, limits.rule)
    moves: list[tuple[int, int]] = []
    times: list[int] = []
    for x, y in opening:
        b.play(b.index(x, y), b.side)
        moves.append((x, y))
        times.append(0)
    left = [limits.match_ms or 10**9, limits.match_ms or 10**9]
    for colour, s in enumerate(seats):
        try:
            s.open(limits)
        except Forfeit as exc:
            return 1 - colour, f"{'black' if colour == 0 else 'white'} {exc.end}: {exc}", moves, times, [(order[colour], exc.end)]
    while True:
        if b.full() or (b.renju and len(moves) >= RENJU_MOVE_LIMIT):
            return -1, "board full" if b.full() else "move limit", moves, times, []
        colour = len(moves) % 2
        who = "black" if colour == 0 else "white"
        t0 = time.monotonic()
        try:
            x, y = seats[colour].move(b, moves, colour, left[colour])
            spent = int((time.monotonic() - t0) * 1000)
            left[colour] -= spent
            if left[colour] < -TOLERANCE_MS or (limits.turn_ms and spent > limits.turn_ms + TOLERANCE_MS):
                raise Forfeit(End.TIME, f"took {spent} ms")
            if not (0 <= x < limits.size and 0 <= y < limits.size) or not b.legal(b.index(x, y), b.side):
                raise Forfeit(End.ILLEGAL, f"illegal move {x},{y}")
        except Forfeit as exc:
            return 1 - colour, f"{who} {exc.end}: {exc}", moves, times, [(order[colour], exc.end)]
        m = b.index(x, y)
        won = b.wins_at(m, b.side)
        b.play(m, b.side)
        moves.append((x, y))
        times.append(spent)
        if won:
            return colour, "five", moves, times, []
