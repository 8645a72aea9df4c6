"""The 20x20 tournament-style openings at the end of the shipped openings.txt (issue 41 item 5).

Made by tests/tools/gomoku_openings20.py (Rapfi's scores are their comments); these checks need no
brain. The 15x15 list and the first 41 openings of the 20x20 list are those main read before the
new lines were appended (measured there: 40 and 41 openings, first and last as below).
"""

import re

from engine_core.matchcli import read_book
from gomoku_protocol.arena import OPENINGS, opening_line, read_openings

FIRST_LINE, LAST_LINE = 44, 63  # the new openings' line numbers in openings.txt, as docs/gomoku.md gives them
HEADER = "# 20x20 tournament-style openings"


def new_lines() -> list[str]:
    lines = OPENINGS.read_text(encoding="utf-8").splitlines()
    assert lines[FIRST_LINE - 2].startswith(HEADER)  # the comment line just before them
    assert len(lines) == LAST_LINE
    return lines[FIRST_LINE - 1:LAST_LINE]


def absolute(stones: list[tuple[int, int]], size: int = 20) -> list[tuple[int, int]]:
    return [(size // 2 + dx, size // 2 + dy) for dx, dy in stones]


def longest_threat(stones: list[tuple[int, int]], size: int = 20) -> int:
    """The most stones of one colour in five points in a row holding no stone of the other colour."""
    colour = {p: n % 2 for n, p in enumerate(stones)}
    best = 0
    for x in range(size):
        for y in range(size):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(5)]
                if all(0 <= a < size and 0 <= b < size for a, b in cells):
                    got = [colour.get(c) for c in cells]
                    for side in (0, 1):
                        if (1 - side) not in got:
                            best = max(best, got.count(side))
    return best


def test_the_new_openings_fit_20x20_only_and_are_distinct() -> None:
    openings = [absolute(read_openings(line)[0]) for line in new_lines()]
    assert len(openings) == 20
    fit20, fit15 = opening_line(20), opening_line(15)
    keys = set()
    for line, stones in zip(new_lines(), openings):
        text = line.split("#", 1)[0].strip()
        assert fit20(text) == stones and fit15(text) is None, line
        assert 3 <= len(stones) <= 9, line
        n = 19  # the same stones of each colour up to the board's symmetries count once
        images = [[(x, y) for x, y in stones], [(n - x, y) for x, y in stones], [(x, n - y) for x, y in stones],
                  [(n - x, n - y) for x, y in stones]]
        images += [[(y, x) for x, y in s] for s in images]
        keys.add(min((tuple(sorted(s[0::2])), tuple(sorted(s[1::2]))) for s in images))
    assert len(keys) == 20


def test_the_new_openings_are_off_centre_level_and_without_a_four() -> None:
    for line in new_lines():
        stones = absolute(read_openings(line)[0])
        assert longest_threat(stones) <= 3, line  # no five, no four (open or not) on the board
        assert min(min(x, y, 19 - x, 19 - y) for x, y in stones) <= 3, line  # by an edge or in a corner
        assert all(any(max(abs(x - a), abs(y - b)) <= 2 for a, b in stones[:k])  # one group of stones
                   for k, (x, y) in enumerate(stones[1:], 1)), line
        note = re.search(r"# (\d) stones, (black|white) to move, Rapfi depth 18: ([+-]\d+)$", line)
        assert note is not None, line
        assert int(note.group(1)) == len(stones)
        assert note.group(2) == ("black" if len(stones) % 2 == 0 else "white")  # black first, alternating
        assert abs(int(note.group(3))) <= 60


def test_15x15_and_older_20x20_openings_are_unchanged() -> None:
    small = read_book(str(OPENINGS), opening_line(15))
    assert len(small) == 40
    assert small[0] == [(7, 7), (8, 7), (8, 10)] and small[-1] == [(0, 2), (0, 1), (1, 2), (1, 1), (2, 3)]
    large = read_book(str(OPENINGS), opening_line(20))
    assert len(large) == 61
    assert large[0] == [(10, 10), (11, 10), (11, 13)] and large[40] == [(2, 4), (3, 4), (2, 5), (4, 6), (4, 5)]
    assert large[41:] == [absolute(read_openings(line)[0]) for line in new_lines()]  # the 42nd to 61st
