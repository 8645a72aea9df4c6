"""``INFO thread_num``: with 2 our root VCT runs in a worker process beside the brain, started once and
gone whenever the brain is (END, the end of input, a SIGKILL); bad values are refused with the last
valid one kept; with 1 the brain searches as it always did, in one process."""

import pytest

from conftest import DATA
from gomoku_protocol.brain import Brain, one_ply
from gomoku_protocol.position import Position
from gomoku_protocol.record import parse_pos
from test_gomoku_protocol import read_move, send_board, start
from test_junqi_workers import children, end, gone_within

# Ours (field 1) two crossing twos, so 7,7 makes two open threes: a VCT and no VCF; the opponent's
# stones are far apart, with no threat of their own.
WIN = [(5, 7, 1), (6, 7, 1), (7, 5, 1), (7, 6, 1), (1, 1, 2), (13, 1, 2), (1, 13, 2), (13, 13, 2)]
TURN_MS = 1500
FIRST_MS = 8000  # the first move pays for the process's start-up: seconds on a loaded machine, pure Python


def p9_stones() -> list[tuple[int, int, int]]:
    """Game p9 of the 15x15 study, ours to move: a quiet win, no VCT within millions of nodes."""
    with open(DATA / "gomoku" / "pela15_wins.txt", encoding="utf-8") as f:
        moves = parse_pos(next(line.split()[2] for line in f if line.startswith("p9 ")))
    return [(x, y, 1 if k % 2 == len(moves) % 2 else 2) for k, (x, y) in enumerate(moves)]


def engine_with_worker(session_factory):
    s = start(session_factory, 15, "INFO thread_num 2", f"INFO timeout_turn {FIRST_MS}")
    send_board(s, WIN)
    move, before = read_move(s, 30)
    s.send(f"INFO timeout_turn {TURN_MS}")
    workers = children(s.proc.pid)
    assert len(workers) == 1, "thread_num 2 started no worker process, or more than one"
    return s, move, before, workers


def test_a_forced_win_is_won_by_the_worker(session_factory) -> None:
    """The worker's VCT finds the win and the brain plays it out, the opponent blocking as our
    one-ply pattern choice would."""
    s, move, before, workers = engine_with_worker(session_factory)
    assert any(line.endswith("(VCT, second process)") for line in before), before
    board = Position(15, 15, 0)
    for x, y, f in WIN:
        board.play(board.index(x, y), 1 if f == 1 else 2)
    board.side = 1
    for _ in range(10):
        ours = board.index(*move)
        if board.wins_at(ours, 1):
            break
        board.play(ours, 1)
        reply = one_ply(board)
        board.play(reply, 2)
        s.send("TURN {},{}".format(*board.xy(reply)))
        move, _ = read_move(s, 30)
    else:
        pytest.fail("no five in ten moves")
    assert children(s.proc.pid) == workers  # the same worker served every move
    s.send("END")
    s.proc.wait(10)


@pytest.mark.parametrize("ending", ["END", "eof", "sigkill"])
def test_the_worker_is_gone_after_the_brain(session_factory, ending: str) -> None:
    s, _, _, workers = engine_with_worker(session_factory)
    end(s, ending)
    # After a SIGKILL a worker ends when its move's search does and it finds its pipe closed.
    assert gone_within(workers, 2 * TURN_MS / 1000 + 5) == set()


def test_end_while_the_worker_searches(session_factory) -> None:
    """END in the middle of a move whose VCT runs long: the worker is killed, and no error is printed (the move cut short may still go out, as
with one process)."""
    s, _, _, workers = engine_with_worker(session_factory)
    s.send("INFO timeout_turn 20000")
    send_board(s, p9_stones())
    s.expect("MESSAGE depth", 30)  # the alpha-beta's first iteration: the worker has its task
    s.send("END")
    s.proc.wait(10)
    rest = []
    while (line := s.read()) is not None:
        rest.append(line)
    assert not [line for line in rest if line.startswith(("ERROR", "UNKNOWN"))], rest
    assert gone_within(workers, 5.0) == set()


def test_yxstop_ends_the_worker_and_the_next_move_has_a_new_one(session_factory) -> None:
    """YXSTOP in the middle of a long move: the answer comes, the worker that would search on to its
    deadline is gone, and the next move's VCT runs in a new worker and finds its win."""
    s, _, _, workers = engine_with_worker(session_factory)
    s.send("INFO timeout_turn 60000")
    send_board(s, p9_stones())
    s.expect("MESSAGE depth", 30)
    s.send("YXSTOP")
    read_move(s, 30)
    assert gone_within(workers, 5.0) == set()
    s.send(f"INFO timeout_turn {TURN_MS}")
    send_board(s, WIN)
    _, before = read_move(s, 30)
    assert any(line.endswith("(VCT, second process)") for line in before), before
    assert len(children(s.proc.pid)) == 1


def test_thread_num_is_checked_and_the_last_valid_value_kept(session_factory) -> None:
    s, _, _, workers = engine_with_worker(session_factory)
    for bad in ("0", "-3", "65", "two", "9" * 30):
        s.send(f"INFO thread_num {bad}")
        assert s.expect("ERROR")[0].startswith("ERROR"), bad
    s.send("RESTART")
    assert s.expect("OK")[0] == "OK"
    send_board(s, WIN)
    _, before = read_move(s, 30)
    assert any(line.endswith("(VCT, second process)") for line in before), before
    assert children(s.proc.pid) == workers  # still thread_num 2: the same worker, after a new game too
    s.send("INFO thread_num 1")
    assert gone_within(workers, 5.0) == set()
    send_board(s, WIN)
    _, before = read_move(s, 30)
    assert any(line.endswith("(VCT)") for line in before), before
    assert children(s.proc.pid) == set()


def test_one_thread_searches_as_before() -> None:
    """thread_num 1 is the brain as it was: one process, the same lines said and the same answer as a
    brain never told (node limits, so the clock decides nothing)."""
    def searched(threads: int) -> tuple[list[str], int, str]:
        board = Position(15, 15, 0)
        for i, (x, y) in enumerate([(7, 7), (8, 8), (8, 6), (6, 8), (9, 5), (6, 6)]):
            board.play(board.index(x, y), 1 + i % 2)
        brain = Brain()
        brain.max_nodes, brain.max_depth = 3000, 4
        if threads:
            brain.set_threads(threads)
        said: list[str] = []
        answer = brain.think(board, 60000, 60000, said.append)
        assert brain.pool is None
        return [" ".join(w for w in line.split() if not w.isdigit()) for line in said], answer.move, answer.how

    assert searched(1) == searched(0)
