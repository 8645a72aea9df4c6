"""A xiangqi game between two UCCI engine processes, our :class:`Position` as referee.

Every move is checked for legality, clocks are kept from the wall time of each request (the core's
loop times it; a search to a fixed depth or node count costs no clock), and games end by mate or stalemate, the league repetition rule at the fourth
occurrence, 60 moves without a capture, resignation, a move over time, or adjudication as a draw
after the ply limit. The loop is the core's, :func:`engine_core.referee.play`; this module holds
xiangqi's rules for it (:class:`XiangqiRules`) and :func:`play_game`, which plays one game with them. The
engines sit on :class:`ucci_engine.seats.UcciSeat`; ``sanqi match --game xiangqi`` (``ucci_engine.arena``)
plays its games here.
"""

import argparse
from typing import Optional

from engine_core.ends import End, Forfeit
import engine_core.referee as core
from engine_core.referee import Clock, Result
from ucci_engine.position import START_FEN, Position
from ucci_engine.seats import UcciSeat

COLOURS = ("red", "black")
# The record's text for a forfeit by how it came: on time (the loop's clock, or a seat silent past it),
# or no move at all (no answer to a search to a fixed limit, or a crash; worded as records have always
# shown it); an illegal reply's own message is its text.
FORFEIT_WORDS = {End.TIME: "{colour} over time", End.NO_ANSWER: "no move from {colour}: ''",
                 End.CRASH: "no move from {colour}: ''"}
WINNER = {1.0: 0, 0.0: 1, 0.5: -1}  # the seat that won (-1 none) for red's score


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


class XiangqiRules:
    """Xiangqi's rules for :func:`engine_core.referee.play`: red (seat 0) and black on :class:`UcciSeat`,
    the moves and each one's ms as the record, the end by mate, repetition, 60 quiet moves or the ply
    limit checked before each turn."""

    seats = 2

    def __init__(self, red: UcciSeat, black: UcciSeat, inc_ms: int, max_plies: int, start_fen: str = START_FEN) -> None:
        self.players = [red, black]
        self.inc_ms = inc_ms
        self.max_plies = max_plies
        self.start_fen = start_fen
        self.pos = Position.from_fen(start_fen)
        self.moves: list[str] = []
        self.times: list[int] = []

    def open(self, seat: int) -> None:
        return None  # a UcciSeat finished its handshake when it started

    def outcome(self) -> Optional[Result]:
        pos = self.pos
        if not pos.legal_moves():
            return Result(1 - pos.side, "mate")
        verdict = repetition_verdict(pos)
        if verdict is not None:
            return Result(WINNER[verdict], "repetition")
        if pos.quiet[-1] >= 120:
            return Result(-1, "60 moves without capture")
        if len(self.moves) >= self.max_plies:
            return Result(-1, "adjudicated at the ply limit")
        return None

    def turn(self) -> int:
        return self.pos.side

    def ask(self, seat: int, clocks: list[int]) -> str:
        return self.players[seat].think(self.start_fen, self.moves, clocks[seat], self.inc_ms, clocks[seat ^ 1])

    def cost(self, seat: int, ms: int) -> int:
        return 0 if self.players[seat].limited else ms

    def apply(self, seat: int, line: str, ms: int) -> Optional[Result]:
        words = line.split()
        if len(words) < 2 or words[0] != "bestmove":
            raise Forfeit(End.ILLEGAL, f"no move from {COLOURS[seat]}: {line!r}")
        if "resign" in words[2:]:
            return Result(1 - seat, "resigned")
        if not self.pos.push_name(words[1]):
            raise Forfeit(End.ILLEGAL, f"illegal move {words[1]}")
        self.moves.append(words[1])
        self.times.append(ms)
        return None

    def forfeited(self, seat: int, exc: Forfeit, left: int) -> Result:
        return Result.forfeit(seat, FORFEIT_WORDS.get(exc.end, "{reason}").format(colour=COLOURS[seat], reason=exc), exc.end)


def play_game(red: UcciSeat, black: UcciSeat, base_ms: int, inc_ms: int, max_plies: int,
              start_fen: str = START_FEN) -> tuple[Result, XiangqiRules]:
    """One game on the core's loop (:func:`engine_core.referee.play`) under :class:`XiangqiRules`: its
    result (seat 0 red) and the rules object, whose ``moves`` and ``times`` are its record."""
    rules = XiangqiRules(red, black, inc_ms, max_plies, start_fen)
    return core.play(rules, Clock(base_ms, inc_ms)), rules


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
