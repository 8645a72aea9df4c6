"""A referee that treats the brain like GomocupJudge: suspended between moves, timed per move,
its memory (unique set size) measured after every move, over whole games.

What is asserted is the protocol, the legality of every move and the memory; the clock gets the
referee's own limit plus a margin a loaded 2-core machine meets, since CI cannot promise the
scheduling a tournament machine gives (the timed figures are benchmarks, in docs/gomoku.md)."""

import os
import re
import signal
import time

import pytest

from conftest import Session
from gomoku_protocol.position import Position
from gomoku_protocol.rules import BLACK
from gomoku_protocol.seats import baseline_move

MOVE = re.compile(r"^(\d+),(\d+)$")
MB = 1 << 20
SLACK = 6.0  # seconds over the referee's limit: a hang guard, not a speed claim


def uss_bytes(pid: int) -> int:
    """Private (unique) memory of a process, as psutil's memory_full_info().uss reports it."""
    total = 0
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith(("Private_Clean:", "Private_Dirty:", "Private_Hugetlb:")):
                total += int(line.split()[1]) * 1024
    return total


class Judge:
    def __init__(self, timeout_turn: int, timeout_match: int, max_memory: int, size: int = 15, rule: int = 0) -> None:
        self.s = Session()
        self.pid = self.s.proc.pid
        self.timeout_turn = timeout_turn
        self.time_left = timeout_match if timeout_match else 2147483647
        self.max_memory = max_memory
        self.board = Position(size, size, rule)
        self.moves_timed: list[float] = []
        self.peak = 0
        # Like the referee: everything is sent at once and the brain is frozen straight away, so
        # its start-up (imports, tables) lands in the first move's time.
        self.s.send(f"START {size}")
        for key, value in (("timeout_turn", timeout_turn), ("timeout_match", timeout_match), ("max_memory", max_memory),
                           ("game_type", 1), ("rule", rule), ("folder", "/tmp")):
            self.s.send(f"INFO {key} {value}")
        os.kill(self.pid, signal.SIGSTOP)
        self.first = True

    def ask(self, command: list[str]) -> int:
        os.kill(self.pid, signal.SIGCONT)
        self.s.send(f"INFO time_left {self.time_left}")
        t = time.monotonic()
        for line in command:
            self.s.send(line)
        limit = max(0, min(self.timeout_turn, self.time_left)) / 1000.0 + 1.0  # the referee's tolerance
        while True:
            line = self.s.read(timeout=limit + SLACK + 5.0)
            assert line is not None, "brain exited"
            if line == "OK" and self.first:
                continue
            if line.startswith(("MESSAGE", "DEBUG")):
                continue
            break
        elapsed = time.monotonic() - t
        os.kill(self.pid, signal.SIGSTOP)
        self.first = False
        m = MOVE.match(line)
        assert m, f"not a move: {line!r}"
        assert elapsed <= limit + SLACK, f"answer took {elapsed:.3f}s, limit {limit:.3f}s"
        self.moves_timed.append(elapsed)
        if self.time_left != 2147483647:
            self.time_left -= int(elapsed * 1000)
        used = uss_bytes(self.pid)
        self.peak = max(self.peak, used)
        assert used < self.max_memory, f"{used / MB:.1f} MB over max_memory {self.max_memory / MB:.0f} MB"
        x, y = int(m.group(1)), int(m.group(2))
        i = self.board.index(x, y)
        assert self.board.legal(i, self.board.side), f"illegal move {x},{y}"
        return i

    def play(self, max_plies: int) -> int:
        """Brain plays black from an empty board against the baseline; returns the winner (0: none)."""
        b = self.board
        command = ["BOARD", "DONE"]
        for _ in range(max_plies):
            mover = b.side
            if mover == BLACK:
                i = self.ask(command)
            else:
                i = baseline_move(b)
                command = [f"TURN {b.xy(i)[0]},{b.xy(i)[1]}"]
            won = b.wins_at(i, mover)
            b.play(i, mover)
            if won:
                return mover
            if b.full():
                return 0
        return 0

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
        self.s.send("END")
        assert self.s.proc.wait(5) == 0


@pytest.mark.parametrize("turn_ms", [1000, 0])
def test_whole_game_like_gomocupjudge(turn_ms: int) -> None:
    judge = Judge(turn_ms, 0, 120 * MB)
    try:
        judge.play(225)
        assert len(judge.moves_timed) >= 4
        print(f"moves {len(judge.moves_timed)}, slowest {max(judge.moves_timed):.3f}s, peak USS {judge.peak / MB:.1f} MB")
    finally:
        judge.close()


def test_renju_game_never_forbidden_on_time() -> None:
    # Our brain is black under renju: every answer is checked legal (forbidden points included).
    judge = Judge(1000, 0, 120 * MB, size=15, rule=4)
    try:
        judge.play(120)
        assert len(judge.moves_timed) >= 4
    finally:
        judge.close()


def test_match_clock_binds_when_it_is_shorter() -> None:
    # 4 s for the whole game with 5 s a move: the brain must share the match clock out. Ignoring
    # it would take about 4 s a move (80 s); the bound leaves a loaded machine a wide margin.
    judge = Judge(5000, 4000, 120 * MB)
    try:
        judge.play(40)
        assert len(judge.moves_timed) >= 4
        assert sum(judge.moves_timed) < 30.0, judge.moves_timed
    finally:
        judge.close()
