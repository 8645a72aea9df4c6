"""Seeded fuzzing of the Gomocup brain: hostile lines, and after every few of them a check that the
brain is alive, answers a valid request and plays a legal move.

2,400 hostile lines by default; ``SANQI_FUZZ_LINES=50000`` runs a longer benchmark-sized session.
"""

import os
import random
import re

from conftest import Session
from gomoku_protocol.position import Position

LINES = int(os.environ.get("SANQI_FUZZ_LINES", "2400"))
EVERY = 6  # hostile lines between two checks
SEED = 20261122
MOVES = re.compile(r"^\d+,\d+( \d+,\d+)*$")
ANSWERS = re.compile(r"^(OK|SWAP|FORBID (\d{4})*\.|name=\".*|(ERROR|UNKNOWN|MESSAGE|DEBUG) .*)$")
COMMANDS = ["TURN", "BEGIN", "BOARD", "YXBOARD", "SWAP2BOARD", "DONE", "INFO", "START", "RECTSTART", "RESTART",
            "TAKEBACK", "PLAY", "ABOUT", "YXNBEST", "YXSHOWFORBID", "YXHASHCLEAR", "YXSTOP", "SUGGEST", "turn"]
INFO_KEYS = ["timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type", "max_depth",
             "max_node", "hash_size", "thread_num", "style", "folder", "evaluate", "unknown_key", ""]
FAST_KEYS = {"timeout_turn", "timeout_match", "time_left"}  # numbers kept small so moves stay quick


def number(rng: random.Random) -> str:
    return rng.choice([
        str(rng.randint(-3, 25)), str(rng.randint(-2**40, 2**40)), "9" * rng.choice([19, 4301, 6000]),
        "-" + "1" * 5000, "0x10", "1e3", "١٢", "+7", "", " ", "7.5", "NaN",
    ])


def junk(rng: random.Random) -> str:
    return rng.choice([
        "\x00\x01\x02", "\u202e\ufeff", "x" * rng.choice([1, 300, 20000]), ",,,", ";", "DONE DONE", "\t\t",
        "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(1, 40))),
    ])


def hostile(rng: random.Random) -> str:
    """One line a broken or malicious manager might send (never END: that ends the session)."""
    kind = rng.random()
    if kind < 0.25:
        return ",".join(number(rng) for _ in range(rng.choice([1, 2, 2, 3, 3, 4])))
    if kind < 0.45:
        key = rng.choice(INFO_KEYS)
        if key in FAST_KEYS and rng.random() < 0.7:
            return f"INFO {key} {rng.randint(-100, 60)}"
        value = number(rng) if key not in FAST_KEYS else rng.choice(["-5", "abc", "9" * 5000, ""])
        return f"INFO {key} {value}".rstrip()
    if kind < 0.85:
        head = rng.choice(COMMANDS)
        tail = rng.choice([number(rng), f"{number(rng)},{number(rng)}", junk(rng), "", f"{rng.randint(0, 14)},{rng.randint(0, 14)}"])
        if head in ("START", "RECTSTART") and rng.random() < 0.5:
            tail = rng.choice(["15", "5", "22", "20,7", "7,20"])
        return f"{head} {tail}".rstrip()
    return junk(rng)


def position(rng: random.Random, rule: int) -> tuple[Position, list[str]]:
    """A random legal position with the side to move being the brain, and its BOARD lines."""
    b = Position(15, 15, rule)
    lines = []
    for _ in range(rng.randint(0, 30)):
        free = [i for i in b.points if b.legal(i, b.side) and not b.wins_at(i, b.side)]
        if not free:
            break
        i = rng.choice(free)
        b.play(i, b.side)
    us = b.side
    for i, c in zip(b.history, b.colors):  # move order: renju reads colours from it
        x, y = b.xy(i)
        lines.append(f"{x},{y},{1 if c == us else 2}")
    return b, lines


def check(s: Session, rng: random.Random, n: int) -> None:
    """Sync, then ask for a move in a known position and judge it by the rules."""
    s.send("DONE")  # closes a block a hostile line may have opened
    s.send(f"SYNC{n}")  # an unknown command is echoed: every earlier answer comes before it
    line, before = s.expect(f"UNKNOWN command SYNC{n}", timeout=30)
    for got in before:
        assert ANSWERS.match(got) or MOVES.match(got), got
    rule = rng.choice([0, 1, 4])
    s.send("START 15")
    assert s.expect("OK", timeout=30)[0] == "OK"
    for key, value in (("rule", rule), ("timeout_turn", rng.choice([0, 0, 30])), ("time_left", 2147483647)):
        s.send(f"INFO {key} {value}")
    b, lines = position(rng, rule)
    for text in ["BOARD", *lines, "DONE"]:
        s.send(text)
    while True:
        line, _ = s.expect("", timeout=30)
        if not line.startswith(("MESSAGE", "DEBUG")):
            break
    m = re.match(r"^(\d+),(\d+)$", line)
    assert m, f"not a move: {line!r} after {lines}"
    x, y = int(m.group(1)), int(m.group(2))
    assert b.on_board(x, y) and b.legal(b.index(x, y), b.side), f"illegal {x},{y} (rule {rule}) after {lines}"


def test_hostile_lines_never_crash_or_play_illegally() -> None:
    rng = random.Random(SEED)
    s = Session(["--protocol", "gomocup"])
    try:
        sent = 0
        while sent < LINES:
            for _ in range(EVERY):
                s.send(hostile(rng))
                sent += 1
            check(s, rng, sent)
            assert s.proc.poll() is None
        s.send("END")
        assert s.proc.wait(10) == 0
    finally:
        s.close()
