"""The one game loop (issue 42 item 1): xiangqi's and gomoku's referees are the core's
``engine_core.referee.play`` over the game's rules object, and every way a game ends comes out typed.

The seats here are in process (scripted xiangqi seats, gomoku's built-in baseline and fakes), so each
game takes well under a second but the one that waits out gomoku's tolerance."""

import time
from typing import Any, Optional

import pytest

import engine_core.referee as core
import gomoku_protocol.referee as gomoku
import ucci_engine.referee as xiangqi
from conftest import ROOT
from engine_core.ends import End, Forfeit
from gomoku_protocol.position import Position as GomokuPosition
from gomoku_protocol.seats import BaselineSeat, MatchSettings
from ucci_engine.position import Position


class ScriptedSeat:
    """A xiangqi seat in process: each reply is the next of ``script`` (``first`` for the first legal move
    from where the game stands; '' for none, a :class:`Forfeit` ``silent_as``), after ``seconds``."""

    limited = False

    def __init__(self, script: list[str], seconds: float = 0.01, silent_as: End = End.NO_ANSWER) -> None:
        self.script = script
        self.seconds = seconds
        self.silent_as = silent_as

    def think(self, fen: str, moves: list[str], mine: int, inc: int, theirs: int) -> str:
        time.sleep(self.seconds)
        reply = self.script.pop(0) if self.script else "first"
        if not reply:
            raise Forfeit(self.silent_as, "no reply in time")
        if reply == "first":
            pos = Position.from_fen(fen)
            for move in moves:
                assert pos.push_name(move)
            reply = f"bestmove {pos.move_name(pos.legal_moves()[0])}"
        return reply


@pytest.mark.parametrize("red_script, winner, reason, end", [
    ([], -1, "adjudicated at the ply limit", End.RESULT),
    (["bestmove h2e2 resign"], 1, "resigned", End.RESULT),
    (["bestmove a0a5"], 1, "illegal move a0a5", End.ILLEGAL),
    (["nonsense"], 1, "no move from red: 'nonsense'", End.ILLEGAL),
    ([""], 1, "no move from red: ''", End.NO_ANSWER),
])
def test_a_xiangqi_game_on_the_core_loop_ends_typed(red_script: list[str], winner: int, reason: str, end: End) -> None:
    result, game = xiangqi.play_game(ScriptedSeat(red_script), ScriptedSeat([]), 1000, 100, 6)  # type: ignore[arg-type]
    assert (result.winner, result.reason, result.end) == (winner, reason, end)
    assert result.forfeits == (() if end is End.RESULT else ((0, end),))
    assert len(game.moves) == len(game.times) == (6 if winner < 0 else 0)


def test_a_xiangqi_seat_over_its_clock_loses_on_time_and_the_increment_counts() -> None:
    # 0.5 s a move on 1 s + 0.1 s: 1000 - 500 + 100 = 600, then 200, then -300 on red's third move.
    # Red takes 600 ms a move on 1 s + 0.1 s: its first move leaves 500 ms however late a loaded machine
    # wakes it (up to 400 ms), and its second can never fit in them.
    slow, game = xiangqi.play_game(ScriptedSeat([], 0.6), ScriptedSeat([], 0.01), 1000, 100, 40)  # type: ignore[arg-type]
    assert (slow.winner, slow.reason, slow.end, len(game.moves)) == (1, "red over time", End.TIME, 2)
    assert min(game.times[0::2]) >= 600  # the loop timed the seat's replies
    black, game = xiangqi.play_game(ScriptedSeat([]), ScriptedSeat([], 0.5), 1000, 100, 40)  # type: ignore[arg-type]
    assert (black.winner, black.reason, black.end, len(game.moves)) == (0, "black over time", End.TIME, 5)


def test_a_xiangqi_mate_is_a_result_by_the_rules() -> None:
    # Black to move and mated (the red rook and the facing kings): no move is asked for.
    fen = "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"
    assert not Position.from_fen(fen).legal_moves()
    result, game = xiangqi.play_game(ScriptedSeat([]), ScriptedSeat([]), 1000, 0, 40, fen)  # type: ignore[arg-type]
    assert (result.winner, result.reason, result.end, game.moves) == (0, "mate", End.RESULT, [])


class GomokuFake:
    """A gomoku seat in process that answers ``move`` after ``seconds``, or fails to open with ``refuse``."""

    def __init__(self, move: tuple[int, int], seconds: float = 0.0, refuse: Optional[Forfeit] = None) -> None:
        self.answer, self.seconds, self.refuse = move, seconds, refuse

    def open(self, limits: MatchSettings) -> None:
        if self.refuse is not None:
            raise self.refuse

    def move(self, board: GomokuPosition, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        time.sleep(self.seconds)
        return self.answer

    def close(self) -> None:
        return None


LIMITS = MatchSettings(turn_ms=100, match_ms=0, memory=0, rule=0, size=15)


def test_a_gomoku_game_between_baselines_on_the_core_loop_ends_by_the_rules() -> None:
    result, game = gomoku.play_game([BaselineSeat(), BaselineSeat()], [(7, 7)], LIMITS)
    assert result.reason in ("five", "board full") and result.forfeits == ()
    assert (result.winner in (0, 1)) == (result.reason == "five") and game.moves[0] == (7, 7) and len(game.times) == len(game.moves)


@pytest.mark.parametrize("white, reason, end", [
    (GomokuFake((7, 7)), "white illegal: illegal move 7,7", End.ILLEGAL),
    (GomokuFake((15, 0)), "white illegal: illegal move 15,0", End.ILLEGAL),
    (GomokuFake((0, 0), 1.15), "white time: took", End.TIME),  # past the 100 ms turn and the 1 s tolerance
    (GomokuFake((0, 0), refuse=Forfeit(End.NO_ANSWER, "no reply in time")), "white no answer: no reply in time", End.NO_ANSWER),
])
def test_a_gomoku_seat_that_fails_forfeits_typed(white: GomokuFake, reason: str, end: End) -> None:
    result, game = gomoku.play_game([BaselineSeat(), white], [(7, 7)], LIMITS)  # type: ignore[list-item]
    assert result.winner == 0 and result.reason.startswith(reason) and result.forfeits == ((1, end),) and result.end is end
    assert game.moves == [(7, 7)]


def test_both_referees_play_on_the_core_loop_with_a_rules_object_each(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[object] = []
    loop = core.play

    def spy(rules: core.GameRules[Any], clock: core.Clock) -> core.Result:
        played.append(rules)
        return loop(rules, clock)

    monkeypatch.setattr(core, "play", spy)
    xiangqi.play_game(ScriptedSeat([]), ScriptedSeat([]), 1000, 0, 2)  # type: ignore[arg-type]
    gomoku.play_game([BaselineSeat(), BaselineSeat()], [], LIMITS)
    assert [type(rules) for rules in played] == [xiangqi.XiangqiRules, gomoku.GomokuRules]


@pytest.mark.parametrize("package", ["ucci_engine", "gomoku_protocol", "junqi_protocol"])
def test_no_games_seat_or_rules_keeps_a_stopwatch(package: str) -> None:
    # One seat contract (issue 63): the core's loop times every request; seats only bound their waits
    # with engine_core.seat.within's deadlines.
    for module in ("seats", "referee"):
        text = (ROOT / package / f"{module}.py").read_text(encoding="utf-8")
        assert "monotonic" not in text and "perf_counter" not in text, f"{package}/{module}.py"
