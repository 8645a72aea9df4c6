"""The Gomocup loop in-process: a refused command changes nothing; an unexpected exception is one
ERROR line, the game stays as it was before the command, and the brain keeps serving; the first move
pays for the process's start-up; swap2's choice among SWAP, one move and two stones."""

import io
import re
from typing import Callable

import pytest
import subprocess
import sys

from conftest import ROOT
from engine_core.loop import Channel, Refusal
from gomoku_protocol.brain import SearchAnswer
from gomoku_protocol.process_age import age_from
from gomoku_protocol import engine
from gomoku_protocol.engine import OPPONENT, OWN, Engine, NoGame
from gomoku_protocol.position import Position
from gomoku_protocol.protocol import GomocupProtocol

MOVE = re.compile(r"^(\d+),(\d+)$")


def session(lines: list[str], proto: GomocupProtocol | None = None) -> tuple[list[str], GomocupProtocol]:
    """Run ``lines`` through a protocol in this process; its output lines, and the protocol."""
    proto = proto or GomocupProtocol()
    out = io.StringIO()
    chan = Channel(io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    chan.start()
    proto.run(chan)
    return out.getvalue().splitlines(), proto


def answers(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith("MESSAGE")]


def game_state(e: Engine) -> tuple:
    p = e.position
    stones = (list(p.history), list(p.colors), p.side, p.width, p.height) if p is not None else None
    return stones, e.rule, e.committed.moves, e.first_move, e.used_ms, e.brain.style


def never(*args) -> None:
    raise AssertionError("a refused command answered")


def test_a_refused_command_changes_nothing() -> None:
    e = Engine(print)
    before_start: list[Callable[[], object]] = [
        e.restart, lambda: e.play(2, 2), lambda: e.takeback(2, 2), e.forbidden_points,
        lambda: e.turn(2, 2, never, never, never), lambda: e.begin(never, never, never),
        lambda: e.set_board([]), lambda: e.swap2([], never, never, never)]
    for command in before_start:
        with pytest.raises(NoGame):
            command()
    assert game_state(e) == game_state(Engine(print))
    e.new_game(5, 5)
    e.play(2, 2)
    refused: list[Callable[[], object]] = [
        lambda: e.new_game(4, 30), lambda: e.set_rule(16), lambda: e.set_style("reckless"),
        lambda: e.play(5, 0), lambda: e.play(2, 2), lambda: e.takeback(0, 0),
        lambda: e.turn(2, 2, never, never, never), lambda: e.begin(never, never, never),
        lambda: e.swap2([(0, 0, 0)], never, never, never),
        lambda: e.check_stone((0, 0, 4), False, set(), "BOARD"),
        lambda: e.check_stone((0, 0, 0), False, set(), "BOARD"),
        lambda: e.check_stone((0, 0, 1), False, {(0, 0)}, "BOARD")]
    for command in refused:
        kept = game_state(e)
        with pytest.raises(Refusal):
            command()
        assert game_state(e) == kept
    # The last free point: the opponent's stone there would leave us no move, so TURN is refused whole.
    for y in range(5):
        for x in range(5):
            if (x, y) not in ((2, 2), (4, 4)):
                e.play(x, y)
    kept = game_state(e)
    with pytest.raises(Refusal, match="full"):
        e.turn(4, 4, never, never, never)
    full = [(x, y, OWN if (x + y) % 2 else OPPONENT) for y in range(5) for x in range(5)]
    with pytest.raises(Refusal, match="full"):
        e.board(full, never, never, never)
    assert game_state(e) == kept


def break_once(monkeypatch, owner: object, name: str, works: bool = True) -> None:
    """``owner.name`` does its work (unless not ``works``), then fails (once), as a bug half-way through a
    command would."""
    real = getattr(owner, name)
    failures = [RuntimeError("boom")]

    def broken(*args):
        if failures and not works:
            raise failures.pop()
        got = real(*args)
        if failures:
            raise failures.pop()
        return got

    monkeypatch.setattr(owner, name, broken)


def started_game() -> Engine:
    e = Engine(print)
    e.new_game(9, 9)
    e.play(4, 4)
    e.play(5, 5)
    return e


# Each operation, what breaks half-way through it (after the game changed; its work done or not), and the call.
FAILURES: dict[str, tuple[Callable[[Engine], tuple[object, str, bool]], Callable[[Engine], object]]] = {
    "new_game": (lambda e: (e.brain, "clear", True), lambda e: e.new_game(15, 15)),
    "play": (lambda e: (Position, "play", True), lambda e: e.play(3, 3)),
    "takeback": (lambda e: (Position, "unmake", True), lambda e: e.takeback(5, 5)),
    "set_rule": (lambda e: (e.brain, "clear", True), lambda e: e.set_rule(4)),
    "set_board": (lambda e: (e, "_commit", False), lambda e: e.set_board([(0, 0, OWN)])),
    "turn": (lambda e: (e.worker, "start", False), lambda e: e.turn(3, 3, never, never, never)),
    "board": (lambda e: (e.worker, "start", False), lambda e: e.board([(0, 0, OWN), (1, 1, OPPONENT)], never, never, never)),
    "swap2": (lambda e: (e.worker, "start", False), lambda e: e.swap2([(4, 4, 0), (5, 4, 0), (5, 7, 0)], never, never, never)),
}


@pytest.mark.parametrize("operation", list(FAILURES))
def test_a_failure_inside_the_front_leaves_the_game_as_before(monkeypatch, operation: str) -> None:
    # The front puts itself back (issue 42, item 3): no adapter is here to do it.
    e = started_game()
    before = game_state(e)
    target, call = FAILURES[operation]
    break_once(monkeypatch, *target(e))
    with pytest.raises(RuntimeError, match="boom"):
        call(e)
    # The game as before; a move request that failed has still spent the first move's start-up (its clock).
    assert game_state(e)[:3] == before[:3] and game_state(e)[4:] == before[4:]


def test_the_adapter_keeps_no_undo_of_its_own() -> None:
    assert "recover" not in vars(GomocupProtocol) and "recover" in vars(Engine)


def test_a_failing_search_is_an_error_and_the_command_is_undone(monkeypatch) -> None:
    proto = GomocupProtocol()
    calls = []
    real = proto.engine.brain.think

    def think_once_broken(board: Position, *args):
        calls.append(board.stones)
        if len(calls) == 1:
            board.make(board.index(0, 0))  # half-way through a search when it breaks
            raise RuntimeError("broken search")
        return real(board, *args)

    monkeypatch.setattr(proto.engine.brain, "think", think_once_broken)
    out, proto = session(["START 15", "INFO timeout_turn 0", "TURN 7,7", "TURN 7,7"], proto)
    assert answers(out)[:2] == ["OK", "ERROR internal error RuntimeError: broken search"]
    assert MOVE.match(answers(out)[2])
    # The failed TURN left nothing behind: the repeated TURN found 7,7 free and one stone on the board.
    assert calls == [1, 1]
    p = proto.engine.position
    assert p is not None and p.stones == 2 and p.history[0] == p.index(7, 7)


def test_a_failing_command_is_an_error_and_the_board_is_kept(monkeypatch) -> None:
    calls = []
    real = Position.play

    def play_then_break(self: Position, i: int, color: int) -> None:
        real(self, i, color)
        calls.append(i)
        if len(calls) == 2:
            raise KeyError("after the stone went down")

    monkeypatch.setattr(Position, "play", play_then_break)
    out, _ = session(["START 15", "PLAY 3,3", "PLAY 4,4", "PLAY 4,4", "ABOUT"])
    assert out[:2] == ["OK", "3,3"]
    assert out[2].startswith("ERROR internal error KeyError")  # the stone went down, then the command broke
    assert out[3] == "4,4"  # 4,4 was free again: the failed PLAY was undone
    assert out[4].startswith('name="sanqi"')


def test_first_move_pays_for_start_up(monkeypatch) -> None:
    # A start-up longer than the turn leaves no time: the first move is the instant choice, the
    # next one thinks again.
    monkeypatch.setattr(engine, "process_age", lambda: 9.0)
    out, _ = session(["START 15", "INFO timeout_turn 2000", "BOARD", "DONE", "TURN 9,9"])
    summaries = [line for line in out if line.startswith("MESSAGE depth") and line.endswith(")")]
    assert summaries[0].endswith("(instant)"), summaries
    assert not summaries[-1].endswith("(instant)"), summaries


def test_process_age_comes_from_the_kernel() -> None:
    stat = "4242 (pbrain sanqi) S 1 2 3 " + "0 " * 15 + "1500 9 9"
    assert age_from(stat, "20.50 7.00", 100) == 5.5
    code = "import time; time.sleep(1.0); from gomoku_protocol.process_age import process_age; print(process_age())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert float(done.stdout) >= 0.95  # the sleep before the import is counted


def swap2_choice(score: int, three: bool) -> list[str]:
    proto = GomocupProtocol()
    out = io.StringIO()
    proto.chan = Channel(io.BytesIO(b""), out)
    proto.engine.new_game(15, 15)
    stones = [(7, 7, 0), (8, 8, 0), (7, 9, 0)] if three else [(7, 7, 0), (8, 8, 0), (7, 9, 0), (9, 9, 0), (0, 0, 0)]
    b = proto.engine._ordered_position(stones)
    w, k = b.index(6, 8), b.index(9, 7)
    proto._answer(proto.engine._swap2_decided(b, SearchAnswer(w, score, 4, [w, k], "alpha-beta"), three))
    return answers(out.getvalue().splitlines())


def test_swap2_takes_black_plays_white_or_adds_two_stones() -> None:
    assert swap2_choice(-300, True) == ["SWAP"]
    assert swap2_choice(-300, False) == ["SWAP"]
    assert swap2_choice(300, True) == ["6,8"]
    assert swap2_choice(0, True) == ["6,8 9,7"]  # about even: the opponent must choose a colour
    assert swap2_choice(0, False) == ["6,8"]  # after five stones there is no two-stone option


def test_tables_that_cannot_be_cleared_are_replaced(monkeypatch) -> None:
    proto = GomocupProtocol()
    proto.engine.brain.style = "defensive"

    thought = []

    def out_of_memory(*args):
        thought.append(True)
        raise MemoryError()

    def clear_after_thinking() -> None:
        if thought:
            raise MemoryError()

    monkeypatch.setattr(proto.engine.brain, "think", out_of_memory)
    monkeypatch.setattr(proto.engine.brain, "clear", clear_after_thinking)
    broken = proto.engine.brain
    out, proto = session(["START 15", "INFO timeout_turn 0", "TURN 7,7", "TURN 7,7"], proto)
    assert answers(out)[:2] == ["OK", "ERROR internal error MemoryError: "]
    assert proto.engine.brain is not broken and proto.engine.brain.style == "defensive"
    assert MOVE.match(answers(out)[2])
