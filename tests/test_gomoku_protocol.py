"""Gomocup protocol sessions over pipes: every command, the Yixin extensions and bad input."""

import json
import re
import time

import pytest

from conftest import DATA
from gomoku_protocol.protocol import GomocupProtocol

MOVE = re.compile(r"^(\d+),(\d+)$")
LATENCY = 8.0  # seconds: a hang guard a loaded 2-core machine meets, not a speed claim
LONG = "9" * 5000  # past Python's 4300-digit limit for int()


def start(session_factory, size: int = 15, *infos: str, args=None):
    s = session_factory(args)
    s.send(f"START {size}")
    assert s.expect("OK")[0] == "OK"
    s.send("INFO timeout_turn 600")
    for line in infos:
        s.send(line)
    return s


def read_move(s, timeout: float = 10.0) -> tuple[tuple[int, int], list[str]]:
    deadline = time.monotonic() + timeout
    before: list[str] = []
    while True:
        line = s.read(max(0.1, deadline - time.monotonic()))
        assert line is not None, f"engine closed output; got {before}"
        if MOVE.match(line):
            m = MOVE.match(line)
            return (int(m.group(1)), int(m.group(2))), before
        assert line.startswith(("MESSAGE", "DEBUG")), f"unexpected {line!r}"
        before.append(line)


def send_board(s, stones, head: str = "BOARD") -> None:
    s.send(head)
    for x, y, f in stones:
        s.send(f"{x},{y},{f}")
    s.send("DONE")


def test_detect_claims_gomocup_openings_only() -> None:
    for line in ("START 15", "RECTSTART 20,15", "ABOUT", "INFO timeout_turn 5000", "INFO max_memory 0"):
        assert GomocupProtocol.detect(line), line
    for line in ("INFO 1.0", "INFO", "ucci", "uci", "start 15", "INFO 2 x", "INFO Timeout_turn 5"):
        assert not GomocupProtocol.detect(line), line


@pytest.mark.parametrize("first", ["START 15", "RECTSTART 15,15", "ABOUT", "INFO timeout_turn 500"])
def test_autodetected_from_first_line(session_factory, first: str) -> None:
    s = session_factory()
    s.send(first)
    if first == "ABOUT":
        assert s.expect("name=")[0].startswith('name="sanqi"')
        s.send("START 15")
    elif first.startswith("INFO"):
        s.send("START 15")
    assert s.expect("OK")[0] == "OK"
    s.send("BEGIN")
    (x, y), _ = read_move(s)
    assert 0 <= x < 15 and 0 <= y < 15


def test_forced_protocol_flag(session_factory) -> None:
    s = session_factory(["--protocol", "gomocup"])
    s.send("RESTART")
    assert s.expect("ERROR")[0].startswith("ERROR")
    s.send("START 20")
    assert s.expect("OK")[0] == "OK"


def test_begin_turn_messages_and_moves(session_factory) -> None:
    s = start(session_factory, 20)
    s.send("BEGIN")
    (x, y), msgs = read_move(s)
    assert 0 <= x < 20 and 0 <= y < 20
    assert any(re.search(r"depth \d+ .*score -?\d+.* pv [a-t]\d+", m) for m in msgs), msgs
    s.send(f"TURN {x + 1},{y}")
    (x2, y2), msgs = read_move(s)
    assert (x2, y2) not in ((x, y), (x + 1, y))
    assert msgs and all(m.startswith("MESSAGE") for m in msgs)


def test_rectstart_and_unsupported_sizes(session_factory) -> None:
    s = session_factory()
    s.send("RECTSTART 7,19")
    assert s.expect("OK")[0] == "OK"
    s.send("TURN 6,18")
    (x, y), _ = read_move(s)
    assert 0 <= x < 7 and 0 <= y < 19 and (x, y) != (6, 18)
    for bad in ("START 4", "START 23", "START 100", "RECTSTART 4,10", "RECTSTART 10,30", "START x", "RECTSTART 10", "START"):
        s.send(bad)
        assert s.expect("ERROR")[0].startswith("ERROR "), bad
    # The 7x19 game is untouched: the stone on 6,18 is still there.
    s.send("TURN 6,18")
    assert "occupied" in s.expect("ERROR")[0]


def test_turn_before_start_then_recovers(session_factory) -> None:
    s = session_factory(["--protocol", "gomocup"])
    for cmd in ("TURN 5,5", "BEGIN", "BOARD", "TAKEBACK 1,1", "PLAY 2,2", "YXSHOWFORBID"):
        s.send(cmd)
        line, _ = s.expect("ERROR")
        assert "before START" in line, cmd
    s.send("START 15")
    assert s.expect("OK")[0] == "OK"
    s.send("TURN 5,5")
    read_move(s)


def test_bad_coordinates_and_malformed_lines_keep_the_board(session_factory) -> None:
    s = start(session_factory)
    s.send("TURN 7,7")
    (mx, my), _ = read_move(s)
    for bad in ("TURN 15,3", "TURN -1,3", "TURN 7,7", f"TURN {mx},{my}", "TURN 3", "TURN a,b", "TURN 1,2,3", "TURN"):
        s.send(bad)
        line, _ = s.expect("ERROR")
        assert len(line) > len("ERROR "), bad
    assert s.proc.poll() is None
    s.send("TURN 0,0")
    (x, y), _ = read_move(s)
    assert (x, y) not in ((7, 7), (mx, my), (0, 0))


def test_board_any_order_duplicates_and_bad_lines(session_factory) -> None:
    s = start(session_factory)
    send_board(s, [(8, 7, 2), (7, 7, 1), (9, 7, 2), (7, 8, 1)])
    (x, y), _ = read_move(s)
    assert (x, y) not in ((8, 7), (7, 7), (9, 7), (7, 8))
    for stones in ([(1, 1, 1), (1, 1, 2)], [(1, 1, 1), (15, 2, 2)], [(1, 1, 4)]):
        send_board(s, stones)
        assert s.expect("ERROR")[0].startswith("ERROR ")
    s.send("BOARD")
    s.send("1,1")
    s.send("2,2,1")
    s.send("DONE")
    assert "malformed" in s.expect("ERROR")[0]
    # The board from the good BOARD is intact (with our reply on it).
    s.send("TURN 7,7")
    assert "occupied" in s.expect("ERROR")[0]
    s.send(f"TURN {x},{y}")
    assert "occupied" in s.expect("ERROR")[0]


def test_empty_board_and_info_keys_are_silent(session_factory) -> None:
    s = start(session_factory)
    for line in (
        "INFO timeout_match 100000", "INFO max_memory 367001600", "INFO time_left 2147483647", "INFO time_left -50",
        "INFO time_left 90000", "INFO game_type 1", "INFO rule 0", "INFO rule 1", "INFO rule 4", "INFO rule 8",
        "INFO rule 9", "INFO rule 2", "INFO folder /tmp/sanqi folder", "INFO evaluate 3,4", "INFO max_depth 6",
        "INFO max_node 100000", "INFO hash_size 65536", "INFO thread_num 2", "INFO style aggressive", "INFO some_new_key 5",
        "", "   ",
    ):
        s.send(line)
    assert s.quiet(0.5) == []
    s.send("INFO rule 0")
    s.send("INFO time_left 90000")
    s.send("BOARD")
    s.send("DONE")
    (x, y), _ = read_move(s)
    assert (x, y) == (7, 7) or abs(x - 7) <= 2 and abs(y - 7) <= 2
    s.send("INFO timeout_turn abc")
    assert s.expect("ERROR")[0].startswith("ERROR")
    s.send("INFO style reckless")
    assert s.expect("ERROR")[0].startswith("ERROR")


def test_negative_time_left_and_timeout_zero_answer_at_once(session_factory) -> None:
    # "At once" is what the brain says it did; the wall-clock bound is only a hang guard.
    s = start(session_factory)
    s.send("INFO time_left -200")
    s.send("TURN 7,7")
    _, msgs = read_move(s, LATENCY)
    assert msgs[-1].endswith("(instant)"), msgs
    s.send("INFO time_left 2147483647")
    s.send("INFO timeout_turn 0")
    s.send("TURN 0,14")
    _, msgs = read_move(s, LATENCY)
    assert msgs[-1].endswith("(instant)"), msgs


def test_restart_takeback_play_end(session_factory) -> None:
    s = start(session_factory)
    s.send("TURN 7,7")
    (x, y), _ = read_move(s)
    s.send(f"TAKEBACK {x},{y}")
    assert s.expect("OK")[0] == "OK"
    s.send("TAKEBACK 7,7")
    assert s.expect("OK")[0] == "OK"
    s.send("TAKEBACK 7,7")
    assert s.expect("ERROR")[0].startswith("ERROR")
    s.send("TAKEBACK 7")
    assert s.expect("ERROR")[0].startswith("ERROR")
    s.send("PLAY 3,4")
    assert s.expect("3,4")[0] == "3,4"
    s.send("PLAY 3,4")
    assert "occupied" in s.expect("ERROR")[0]
    s.send("RESTART")
    assert s.expect("OK")[0] == "OK"
    s.send("TURN 3,4")
    read_move(s)
    s.send("END")
    assert s.proc.wait(5) == 0
    assert s.quiet(0.2) == []


def test_unknown_commands(session_factory) -> None:
    s = start(session_factory)
    for cmd in ("HELLO", "SUGGEST 1,1", "TURNX 1,1", "\x00\xff"):
        s.send(cmd)
        assert s.expect("UNKNOWN")[0].startswith("UNKNOWN ")
    s.send(b"\xff\xfe garbage\r\n")
    assert s.expect("UNKNOWN")[0].startswith("UNKNOWN ")
    s.send("TURN 7,7\r")
    read_move(s)


SWAP2_TIME = "INFO timeout_turn 4000"  # the choice needs a search, even after a slow start-up


def swap2(s, stones, bare: bool = True) -> str:
    """Send a SWAP2BOARD as Piskvork and GomocupJudge do (bare ``x,y`` lines) and read the answer."""
    s.send("SWAP2BOARD")
    for x, y in stones:
        s.send(f"{x},{y}" if bare else f"{x},{y},1")
    s.send("DONE")
    line, _ = s.expect("")
    while line.startswith("MESSAGE"):
        line, _ = s.expect("")
    return line


def points(answer: str) -> list[tuple[int, int]]:
    assert all(MOVE.match(p) for p in answer.split()), answer
    return [(int(p.split(",")[0]), int(p.split(",")[1])) for p in answer.split()]


def test_swap2_official_format_zero_three_and_five_stones(session_factory) -> None:
    s = start(session_factory, 15, SWAP2_TIME)
    three = points(swap2(s, []))
    assert len(three) == 3 and len(set(three)) == 3 and all(0 <= x < 15 and 0 <= y < 15 for x, y in three)
    opening = [(7, 7), (8, 8), (7, 9)]
    answer = swap2(s, opening)
    if answer != "SWAP":
        added = points(answer)
        assert len(added) in (1, 2) and len(set(added)) == len(added) and not set(added) & set(opening), answer
    # Black (7,7 8,7 9,7 in order black, white, black, white, black) has an open three: take black.
    assert swap2(s, [(7, 7), (0, 0), (8, 7), (0, 14), (9, 7)]) == "SWAP"
    # White has two in a row in the centre and black's stones sit in corners: white plays on.
    answer = swap2(s, [(0, 0), (7, 7), (0, 14), (8, 7), (14, 0)])
    assert len(points(answer)) == 1 and points(answer)[0] not in ((0, 0), (7, 7), (0, 14), (8, 7), (14, 0))
    # The game goes on from the five stones and our white move: black's TURN is answered.
    s.send("TURN 3,3")
    (x, y), _ = read_move(s)
    assert (x, y) not in ((3, 3), (0, 0), (7, 7), (0, 14), (8, 7), (14, 0)) + tuple(points(answer))


def test_swap2_fields_bad_counts_and_bad_lines(session_factory) -> None:
    s = start(session_factory, 15, SWAP2_TIME)
    assert swap2(s, [(7, 7), (0, 0), (8, 7), (0, 14), (9, 7)], bare=False) == "SWAP"
    for stones in ([(7, 7), (8, 8)], [(7, 7)], [(1, 1), (2, 2), (3, 3), (4, 4)]):
        assert swap2(s, stones).startswith("ERROR "), stones
    for bad in (["7,7,x"], ["7"], ["15,1"], [f"{LONG},1"], ["1,1", "1,1"], ["1,1,4"]):
        s.send("SWAP2BOARD")
        for line in bad:
            s.send(line)
        s.send("2,2")
        s.send("3,3")
        s.send("DONE")
        assert s.expect("ERROR")[0].startswith("ERROR "), bad
        assert s.quiet(0.2) == [], bad


def test_long_numbers_are_errors_and_a_board_block_still_ends_at_done(session_factory) -> None:
    s = start(session_factory)
    send_board(s, [(7, 7, 2), (8, 8, 1)])
    (x, y), _ = read_move(s)
    for line in (f"TURN {LONG},1", f"TURN 1,{LONG}", f"PLAY -{LONG},3", f"TAKEBACK {LONG},{LONG}",
                 f"INFO timeout_turn {LONG}", f"INFO rule {LONG}", f"START {LONG}", f"RECTSTART {LONG},{LONG}",
                 f"YXNBEST {LONG}"):
        s.send(line)
        answer, before = s.expect("ERROR")
        assert before == [] and "internal" not in answer, line
    for bad in (f"{LONG},1,1", f"1,{LONG},1", f"1,1,{LONG}", f"1,1,-{LONG}"):
        s.send("BOARD")
        s.send("0,0,1")
        s.send(bad)
        s.send("0,1,2")
        s.send("DONE")
        answer, before = s.expect("ERROR")
        assert before == [] and "too long" in answer, bad
        assert s.quiet(0.2) == [], bad  # one error, no UNKNOWN DONE, no move
    # The old board (two stones and our reply) is kept.
    for taken in ((7, 7), (8, 8), (x, y)):
        s.send(f"TURN {taken[0]},{taken[1]}")
        assert "occupied" in s.expect("ERROR")[0]
    s.send("TURN 0,0")
    read_move(s)


def test_broken_board_blocks_give_one_error_at_done(session_factory) -> None:
    s = start(session_factory)
    send_board(s, [(7, 7, 2)])
    (x, y), _ = read_move(s)
    blocks = (["1,1,1", "junk", "2,2,2"], ["1,1,1", "1,1,2", "2,2,2"], ["1,1,5", "x"], ["\xff\xfe", "3,3,1"],
              ["1,1", "2,2,1"], ["1,1,1", "TURN 5,5", "BOARD", "ABOUT"])
    for block in blocks:
        s.send("BOARD")
        for line in block:
            s.send(line)
        s.send("DONE")
        _, before = s.expect("ERROR")
        assert before == [], block
        assert s.quiet(0.2) == [], block
    s.send("TURN 7,7")
    assert "occupied" in s.expect("ERROR")[0]
    s.send(f"TURN {x},{y}")
    assert "occupied" in s.expect("ERROR")[0]


def test_yixin_extensions(session_factory) -> None:
    case = json.loads((DATA / "gomoku" / "renju_forbidden.json").read_text())["cases"][0]
    s = start(session_factory, 15, "INFO rule 4")
    stones = [(x, y, 1) for x, y in case["black"]] + [(x, y, 2) for x, y in case["white"]]
    send_board(s, stones, "YXBOARD")
    s.send("YXSHOWFORBID")
    line, before = s.expect("FORBID")
    assert before == []
    body = line[len("FORBID "):]
    assert body.endswith(".")
    pairs = {f"{int(body[i:i + 2])},{int(body[i + 2:i + 4])}" for i in range(0, len(body) - 1, 4)}
    assert pairs == set(case["forbidden"])
    s.send("YXHASHCLEAR")
    s.send("YXSTOP")
    assert s.quiet(0.3) == []
    s.send("YXNBEST 3")
    (x, y), msgs = read_move(s)
    assert f"{x},{y}" not in case["forbidden"]
    send_board(s, [(7, 7, 2), (8, 8, 1), (6, 8, 2)], "YXBOARD")
    s.send("YXNBEST 3")
    (x, y), msgs = read_move(s)
    nbest = [m for m in msgs if m.startswith("MESSAGE nbest")]
    assert nbest and len(nbest[-1].split()) == 5 and nbest[-1].split()[2] == "abcdefghijklmno"[x] + str(y + 1)
    # YXNBEST analyses without playing: the point is still free.
    s.send(f"PLAY {x},{y}")
    assert s.expect(f"{x},{y}")[0] == f"{x},{y}"


def test_yixin_rule_2_means_renju(session_factory) -> None:
    s = start(session_factory, 15, "INFO thread_num 1", "INFO rule 2")
    send_board(s, [(7, 7, 1), (7, 8, 2), (8, 6, 1), (8, 8, 2), (7, 9, 1), (8, 5, 1), (8, 10, 1), (8, 11, 2)], "YXBOARD")
    s.send("YXSHOWFORBID")
    assert s.expect("FORBID")[0] == "FORBID 0608."


def test_yxstop_answers_early(session_factory) -> None:
    # A minute to think, so an answer within the loaded-machine latency margin came from YXSTOP.
    s = start(session_factory, 15, "INFO timeout_turn 60000")
    send_board(s, [(7, 7, 2), (8, 8, 1), (6, 8, 2), (9, 6, 1)])
    time.sleep(0.5)
    s.send("YXSTOP")
    read_move(s, LATENCY)


def test_end_while_thinking_exits(session_factory) -> None:
    s = start(session_factory, 15, "INFO timeout_turn 60000")
    s.send("BEGIN")
    time.sleep(0.3)
    s.send("END")
    assert s.proc.wait(5) == 0
