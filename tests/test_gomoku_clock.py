"""Gomocup's clocks through the core time manager (issue 42): the limits from each ``INFO``
combination, played out on paper (no clock is read for what is checked)."""

import io
import re
import time

import pytest

from engine_core.timeman import TRAVEL, TURN, MoveRequest, TimeManager
from engine_core.loop import Channel
from gomoku_protocol.brain import one_ply
from gomoku_protocol.engine import UNLIMITED, Engine, moves_to_go
from gomoku_protocol.protocol import GomocupProtocol

DELAY = 80  # ms a loaded two-core machine may add to a move beyond its hard limit


def engine(*info: str) -> Engine:
    """The engine behind a protocol that was sent ``INFO`` lines ``info``, its first move made."""
    p = GomocupProtocol()
    for line in info:
        p.serve(f"INFO {line}")
    p.engine.first_move = False
    return p.engine


# The policy's budgets, (soft, hard) ms, for a manager's timeout_turn, timeout_match and time_left
# (-1: not sent; then the brain's own count of the game's thinking, ``used``), and the moves the side
# can still make (``to_go``, from the board: 0 unknown). Each row is worked by hand in its comment:
# hard = min(turn x 19/20 - 50, left x 19/20 - 50, the clock above the reserve / min(4, to_go));
# soft = min(hard x 3/4, the clock above the reserve / min(20, to_go)); inside the reserve, left / 100.
BUDGETS = [
    # turn, match, left, used, to_go -> soft, hard
    ((1000, 0, -1, 0, 0), (675, 900)),  # a turn limit only: 950 - 50, three quarters of it
    ((5000, 0, -1, 0, 0), (3525, 4700)),
    ((30000, 0, -1, 0, 0), (21337, 28450)),
    ((0, 30000, 30000, 0, 0), (0, 0)),  # timeout_turn 0: answer at once
    ((1000, 30000, 0, 0, 0), (0, 0)),  # time_left 0 (a negative one reads as 0)
    ((1000, 30000, -1, 30000, 0), (0, 0)),  # the brain's own count has used the game up
    ((1000, 30000, 30000, 0, 0), (675, 900)),  # 1 s a turn, 30 s a game: the turn binds (27 s / 20 = 1350)
    ((1000, 30000, 6000, 0, 0), (150, 750)),  # 3 s above the 3 s reserve: 3000 / 4, 3000 / 20
    ((1000, 30000, 2000, 0, 0), (15, 20)),  # inside the reserve: 2000 / 100, and 3/4 of it
    ((1000, 2000, 1500, 0, 0), (25, 125)),  # a 2 s game: 1 s reserve, 500 / 4, 500 / 20
    ((5000, 120000, 120000, 0, 0), (3525, 4700)),  # Gomocup's fastgame: the turn binds (108 s / 20 = 5400)
    ((5000, 120000, 30000, 0, 0), (900, 4500)),  # 18 s above the 12 s reserve
    ((30000, 180000, 180000, 0, 0), (8100, 28450)),  # Gomocup's 30 s / 180 s: 162 s / 20, the turn
    ((30000, 180000, -1, 0, 0), (8100, 28450)),  # ... with no time_left sent: counted by the brain
    ((30000, 180000, -1, 139000, 0), (1150, 5750)),  # 41 s left by its count: 23 s above the 18 s reserve
    ((30000, 180000, 41000, 0, 0), (1150, 5750)),  # the same from time_left
    ((30000, 180000, 41000, 150000, 0), (1150, 5750)),  # time_left is the manager's word: it comes first
    ((30000, 0, 41000, 0, 0), (2000, 10000)),  # time_left without timeout_match: a 1 s reserve
    ((30000, 180000, 60000, 0, 0), (2100, 10500)),  # 42 s above the reserve, 20 moves or more to go
    # With the moves the board still allows (to_go), 10 ms (TRAVEL) for each is kept first: their answers' travel.
    ((30000, 180000, 180000, 0, 113), (8043, 28450)),  # a 15x15 game's first move: (180 - 1.13 - 18) s / 20
    ((30000, 180000, 60000, 0, 30), (2085, 10425)),  # (60 - 0.3 - 18) s / 20, / 4
    ((30000, 180000, 60000, 0, 3), (10492, 13990)),  # three moves left on the board: (60 - 0.03 - 18) s / 3
    ((30000, 180000, 60000, 0, 1), (21337, 28450)),  # the last move: all of it, up to the turn
    ((1000, 30000, 30000, 0, 1), (675, 900)),  # the turn still binds
    ((1000, 10000, 3000, 0, 20), (90, 450)),  # (3 - 0.2) s usable, 1.8 s above the reserve: / 20, / 4
    ((1000, 30000, 400, 0, 40), (0, 0)),  # the clock holds only the travel of 40 answers: at once
]


def turn_budget(request: MoveRequest, spent: int = 0, lag: int = 0) -> tuple[int, int]:
    """(soft, hard) of a gomoku time manager for ``request``, ``spent`` ms after it arrived, after
    answers ``lag`` ms late."""
    tm = TimeManager(TURN)
    tm.lag.observe(lag)
    soft, hard, _ = tm.limits(request, spent)
    return soft, hard


@pytest.mark.parametrize("given,budget", BUDGETS)
def test_the_budgets_for_each_clock(given: tuple[int, int, int, int, int], budget: tuple[int, int]) -> None:
    turn, match, left, used, to_go = given
    assert turn_budget(MoveRequest(turn=turn, match=match, left=left, used=used, to_go=to_go)) == budget


def test_what_the_move_already_cost_comes_off_both_limits() -> None:
    assert turn_budget(MoveRequest(turn=1000), spent=300) == (600, 600)
    assert turn_budget(MoveRequest(turn=1000, left=30000), spent=100) == (675, 800)
    assert turn_budget(MoveRequest(turn=1000), spent=900) == (0, 0)
    assert turn_budget(MoveRequest(turn=1000), spent=100, lag=200) == (600, 600)  # the last answers were late


def test_the_game_clock_is_time_left_else_the_brain_s_own_count() -> None:
    assert MoveRequest(match=180000, used=139000).game_left() == 41000
    assert MoveRequest(match=180000, used=139000, left=50000).game_left() == 50000  # the manager's word first
    assert MoveRequest(turn=1000).game_left() == -1


def worst_game(turn: int, match: int, moves: int, delay: int, limit: int, points: int = 0) -> list[int]:
    """The game clock before each move when every move takes its soft (``limit`` 0) or hard (1)
    limit and ``delay`` more, on a board of ``points`` (0: the moves to go not known)."""
    used, seen = 0, []
    for n in range(moves):
        left = match - used
        seen.append(left)
        if left <= 0:
            break
        to_go = moves_to_go(points, 2 * n) if points else 0
        used += turn_budget(MoveRequest(turn=turn, match=match, left=left, to_go=to_go))[limit] + delay
    return seen


@pytest.mark.parametrize("turn,match,delay,moves,limit", [
    # The study's longest 20x20 game at 1 s a move and 30 s a game had 180 plies (90 moves a side):
    # 100 quiet moves, or 80 threatened ones (the clock holds 35 of 800 ms; the reserve pays the lag
    # of the rest).
    (1000, 30000, 50, 100, 0), (1000, 30000, 50, 80, 1),
    # Gomocup-like limits: 120 moves a side, every one at its soft or at its hard limit (90 at the
    # hard limit when a 30 s turn has only 90 s a game).
    (5000, 120000, 80, 120, 0), (5000, 120000, 80, 120, 1), (30000, 180000, 80, 120, 0),
    (30000, 180000, 80, 120, 1), (30000, 90000, 80, 120, 0), (30000, 90000, 80, 90, 1)])
def test_a_long_game_never_runs_out_of_time(turn: int, match: int, delay: int, moves: int, limit: int) -> None:
    clock = worst_game(turn, match, moves, delay, limit)
    assert len(clock) == moves and min(clock) > 0


@pytest.mark.parametrize("turn", [1000, 5000, 30000])
@pytest.mark.parametrize("limit", [0, 1])
@pytest.mark.parametrize("points,match", [(225, 1200), (400, 2000)])
def test_a_full_board_never_runs_out_on_a_clock_that_pays_every_answer_s_travel(
        turn: int, limit: int, points: int, match: int) -> None:
    # Black's every move of a full 15x15 (113) or 20x20 board (200), each at its soft or hard limit
    # and TRAVEL (10 ms) late, on a game clock of 10 ms a move and a little more: the least that can
    # hold it (100 ms less runs out).
    moves = moves_to_go(points, 0)
    clock = worst_game(turn, match, moves, TRAVEL, limit, points)
    assert len(clock) == moves and min(clock) > 0


def test_no_move_takes_more_than_a_quarter_of_the_game_clock_above_the_reserve() -> None:
    for left in range(1500, 200000, 500):
        soft, hard = turn_budget(MoveRequest(turn=30000, match=180000, left=left))
        assert soft <= hard <= max(left // 100, (left - 18000) // 4)


def test_the_protocol_fills_the_clock_from_info() -> None:
    p = GomocupProtocol()
    for line in ("timeout_turn 30000", "timeout_match 180000"):
        p.serve(f"INFO {line}")
    c = p.engine.clock()
    assert (c.turn, c.match, c.left, c.used) == (30000, 180000, -1, 0)
    p.serve("INFO time_left 41000")
    assert p.engine.clock().left == 41000
    p.serve(f"INFO time_left {UNLIMITED}")
    assert p.engine.clock().left == -1
    p.serve("INFO time_left -50")
    assert p.engine.clock().left == 0
    assert c.to_go == 0  # no board yet
    p.serve("START 15")
    for stone in ("PLAY 7,7", "PLAY 8,8", "PLAY 9,9"):
        p.serve(stone)
    assert p.engine.clock().to_go == moves_to_go(225, 3) == 111  # the moves played leave the board 222 points


def test_the_first_move_pays_for_the_process_start_up() -> None:
    e = engine("timeout_turn 1000")
    now = time.perf_counter()
    e.arrived(now)
    e.startup, e.setup_spent, e.first_move = 0.6, 0.1, True
    assert e.asked() == pytest.approx(now - 0.7)
    hard = e.limits()[1]
    assert hard <= 900 - 700 and not e.first_move and e.asked() == now
    e.count(time.perf_counter())
    assert e.used_ms >= 700  # and the game clock, which a manager starts with the process



def test_commands_that_came_together_count_each_other_s_time_once() -> None:
    # A command queued while the start-up (or the command before it) was being counted: the first move
    # pays for that wait once, not again as the command's own time.
    e = engine("timeout_turn 1000")
    e.first_move, e.startup, e.setup_spent = True, 0.5, 0.0
    e.setup_until = time.perf_counter()
    e.arrived(e.setup_until - 0.4)  # it came 0.4 s before the time counted so far ends
    counted_to = e.setup_until
    e.handled()
    assert 0.0 <= e.setup_spent <= time.perf_counter() - counted_to
    assert e.asked() == pytest.approx(e.setup_until - 0.5 - e.setup_spent)  # from the end of what was counted


def test_our_thinking_counts_down_a_game_clock_given_only_as_timeout_match() -> None:
    e = engine("timeout_turn 30000", "timeout_match 180000")
    e.arrived(time.perf_counter() - 1.5)  # a move asked for 1.5 s ago
    e.limits()
    e.count(time.perf_counter())
    assert e.used_ms >= 1500 and e.clock().game_left() == 180000 - e.used_ms
    e.new_game(20, 20)
    assert e.used_ms == 0  # a new game, a new clock


def test_an_answer_later_than_its_hard_limit_shortens_the_next_ones_until_it_fades() -> None:
    e = engine("timeout_turn 1000")
    e.arrived(time.perf_counter())
    assert e.limits() == (675, 900)  # as before the lag was measured: no move has run over yet
    e.count(e.time.arrived + (e.time.due + 120.5) / 1000)  # the answer came 120 ms after the hard limit
    assert e.time.lag.peak == 120
    e.arrived(time.perf_counter())
    soft, hard = e.limits()
    assert 900 - 130 <= hard <= 900 - 120 and soft == 675
    for _ in range(30):  # moves on time
        e.count(e.time.arrived + 0.5)
    assert e.time.lag.peak == 0


def test_a_pause_after_the_answer_is_left_out_of_the_move_s_time() -> None:
    # A referee suspends the brain as soon as its move arrives; if that stops the worker between
    # the answer and its count until the next turn, the wait must not count as our thinking.
    # Bounded by what the clock read when the answer was handed on, not by any fixed time.
    e = engine("timeout_turn 1000")
    e.new_game(15, 15)
    handed: list[float] = []

    def suspended_after_answering(decision: object) -> None:
        handed.append(time.perf_counter())
        time.sleep(1.2)  # the opponent's turn, with us stopped

    began = time.perf_counter()
    e.arrived(began)
    e.turn(7, 7, lambda text: None, suspended_after_answering, lambda exc: None)
    e.wait()
    assert len(handed) == 1
    up_to_answer = int((handed[0] - began) * 1000)
    assert e.used_ms <= up_to_answer
    assert e.time.lag.peak <= max(0, up_to_answer - e.time.due)


PLANNED = re.compile(r"^MESSAGE time soft (\d+) hard (\d+) game clock (-?\d+)$")
ANSWER = re.compile(r"^(\d+),(\d+)$")
UNSEARCHED = ("(instant)", "(five)", "(forced)")  # the answers a move with no time gives: no search


class Referee:
    """A manager in this process, one command at a time: each move is answered before the next
    command goes in, and what the brain planned for it (its ``MESSAGE time …`` line) is kept."""

    def __init__(self, *info: str) -> None:
        self.out = io.StringIO()
        self.proto = GomocupProtocol()
        self.proto.chan = Channel(io.BytesIO(b""), self.out)
        self.read = 0
        for line in ("START 15", *(f"INFO {i}" for i in info)):
            self.proto.serve(line)

    def lines(self) -> list[str]:
        text = self.out.getvalue().splitlines()
        new, self.read = text[self.read:], len(text)
        return new

    def move(self, command: str) -> tuple[tuple[int, int, int], str]:
        """(soft, hard, game clock) the brain planned for ``command``'s move, and how it chose."""
        self.proto.serve(command)
        self.proto.engine.wait()
        out = self.lines()
        planned = [m for m in map(PLANNED.match, out) if m]
        assert len(planned) == 1 and ANSWER.match(out[-1]), out
        how = [line for line in out if line.startswith("MESSAGE depth")][-1]
        soft, hard, clock = (int(g) for g in planned[0].groups())
        return (soft, hard, clock), how

    def free_point(self) -> str:
        """The opponent's move: the one-ply pattern choice (it blocks our fours and threes), so
        the game goes on and every move of ours is searched."""
        p = self.proto.engine.position
        assert p is not None
        x, y = p.xy(one_ply(p))
        return f"TURN {x},{y}"


def test_through_the_protocol_no_move_is_planned_past_the_time_left_the_manager_sends() -> None:
    # A manager's time_left running down to nothing and below: every move's hard limit is inside
    # it (a twentieth and 50 ms in hand, the travel of the moves to come first), and from the
    # clock's end on the answer is the instant one.
    ref = Referee("timeout_turn 1000", "timeout_match 20000")
    ref.move("BEGIN")
    searched = 0
    for time_left in (12000, 9000, 7000, 6000, 5000, 3000, 60, 0, -400):
        ref.proto.serve(f"INFO time_left {time_left}")
        (soft, hard, clock), how = ref.move(ref.free_point())
        assert clock == max(0, time_left)
        to_go = moves_to_go(225, ref.proto.engine.position.stones - 1)  # as it stood before our stone
        assert hard <= max(0, time_left - to_go * TRAVEL) and soft <= hard
        if hard == 0:
            assert how.endswith(UNSEARCHED), how
        searched += hard > 0
    assert searched >= 3 and hard == 0


def test_through_the_protocol_a_game_clock_without_time_left_is_counted_down_to_the_instant_answer() -> None:
    # Only timeout_match: the brain counts its own thinking, every move is planned inside what its
    # count leaves, and when that holds no more than the answers' travel it answers at once.
    ref = Referee("timeout_turn 1000", "timeout_match 9000")
    e = ref.proto.engine
    clocks = []
    for n in range(16):
        used = e.used_ms
        (soft, hard, clock), how = ref.move("BEGIN" if n == 0 else ref.free_point())
        assert clock == 9000 - used  # the count before this move
        assert 0 <= soft <= hard < max(1, clock)
        clocks.append(clock)
        if hard == 0:
            assert how.endswith(UNSEARCHED), how
    assert clocks == sorted(clocks, reverse=True) and clocks[-1] < clocks[0]


def test_through_the_protocol_a_time_left_sent_once_is_counted_down_by_our_thinking() -> None:
    ref = Referee("timeout_turn 1000", "timeout_match 60000", "time_left 3000")
    e = ref.proto.engine
    for n in range(6):
        used = e.used_ms
        (soft, hard, clock), _ = ref.move("BEGIN" if n == 0 else ref.free_point())
        assert clock == max(0, 3000 - used) and soft <= hard < max(1, clock)
