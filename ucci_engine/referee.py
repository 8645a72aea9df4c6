"""A xiangqi game between two UCCI engine processes, our :class:`Position` as referee.

Every move is checked for legality, clocks are kept from the wall time between ``go`` and
``bestmove``, and games end by mate or stalemate, the league repetition rule at the fourth
occurrence, 60 moves without a capture, resignation, a move over time, or adjudication as a draw
after the ply limit. The engines sit on :class:`ucci_engine.seats.UcciSeat`; ``sanqi match --game xiangqi``
(``ucci_engine.arena``) plays its games here.
"""

import argparse
from typing import Optional

from engine_core.ends import End
from ucci_engine.position import START_FEN, Position
from ucci_engine.seats import UcciSeat


class GameResult:
    """Red's score (1 win, 0.5 draw, 0 loss), the reason as the record's text, the moves, and how the game
    ended for the side that lost it (:attr:`End.RESULT` when by the rules)."""

    def __init__(self, score: float, reason: str, moves: list[str], end: End = End.RESULT) -> None:
        self.score = score
        self.reason = reason
        self.moves = moves
        self.end = end


def repetition_verdict(pos: Position) -> Optional[float]:
    """Red's score when the current position occurs for the fourth time, else None."""
    keys, quiet = pos.keys, pos.quiet[-1]
    n = len(keys) - 1
    earlier = [i for i in range(max(0, n - quiet), n) if keys[i] == keys[n] and (n - i) % 2 == 0]
    if len(earlier) < 3:
        return None
    verdict = pos.judge_cycle(n - earlier[-1])
    if verdict == 0:
        return 0.5
    mover_wins = verdict > 0
    return 1.0 if mover_wins == (pos.side == 0) else 0.0


def play_game(red: UcciSeat, black: UcciSeat, base_ms: int, inc_ms: int, max_plies: int, start_fen: str = START_FEN) -> GameResult:
    pos = Position.from_fen(start_fen)
    moves: list[str] = []
    clocks = [base_ms, base_ms]
    seats = [red, black]
    while True:
        side = pos.side
        if not pos.legal_moves():
            return GameResult(0.0 if side == 0 else 1.0, "mate", moves)
        verdict = repetition_verdict(pos)
        if verdict is not None:
            return GameResult(verdict, "repetition", moves)
        if pos.quiet[-1] >= 120:
            return GameResult(0.5, "60 moves without capture", moves)
        if len(moves) >= max_plies:
            return GameResult(0.5, "adjudicated at the ply limit", moves)
        line, spent = seats[side].think(start_fen, moves, clocks[side], inc_ms, clocks[side ^ 1])
        clocks[side] -= int(spent * 1000)
        lost = 0.0 if side == 0 else 1.0
        words = line.split()
        if clocks[side] < 0:
            return GameResult(lost, f"{'red' if side == 0 else 'black'} over time", moves, End.TIME)
        if len(words) < 2 or words[0] != "bestmove":
            end = End.ILLEGAL if line else seats[side].silence(End.NO_ANSWER)
            return GameResult(lost, f"no move from {'red' if side == 0 else 'black'}: {line!r}", moves, end)
        if "resign" in words[2:]:
            return GameResult(lost, "resigned", moves)
        if not pos.push_name(words[1]):
            return GameResult(lost, f"illegal move {words[1]}", moves, End.ILLEGAL)
        moves.append(words[1])
        clocks[side] += inc_ms


def time_control(text: str) -> tuple[int, int]:
    """An argparse type: ``BASE+INC`` in seconds as (base ms, increment ms).

    >>> time_control("6+0.1"), time_control("30")
    ((6000, 100), (30000, 0))
    """
    base, _, inc = text.partition("+")
    try:
        base_ms, inc_ms = round(float(base) * 1000), round(float(inc or 0) * 1000)
    except (ValueError, OverflowError):
        base_ms, inc_ms = 0, -1
    if not 0 < base_ms < 10**9 or not 0 <= inc_ms < 10**8:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time control like 10+0.1 (base seconds above 0, + increment seconds)")
    return base_ms, inc_ms
