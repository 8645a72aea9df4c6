"""The board's incremental state: whatever order stones come and go in, it equals a board built
from scratch with the same stones (the undo log, the line ints, the sums, the threat sets)."""

import random

import pytest

from engine_core.game import MATE
from gomoku_protocol.position import Position
from gomoku_protocol.rules import BLACK, NEUTRAL, WHITE


def state(b: Position) -> tuple:
    return (
        list(b.lines),
        b.attack2,
        b.defence2,
        list(zip(b.point_score, b.point_count)),
        [set(s) for s in b.fives],
        [b.fours(c) for c in (BLACK, WHITE)],
        [b.threes(c) for c in (BLACK, WHITE)],
        set(b.cand),
        b.key(),
        b.stones,
    )


def rebuilt(b: Position) -> Position:
    fresh = Position(b.width, b.height, b.rule)
    for i, c in zip(b.history, b.colors):
        fresh.play(i, c)
    return fresh


@pytest.mark.parametrize("rule", [0, 1, 4, 8])
def test_make_and_unmake_in_any_order_match_a_fresh_board(rule: int) -> None:
    rng = random.Random(rule + 11)
    b = Position(15, 15, rule)
    checked = 0
    for step in range(400):
        if b.history and (rng.random() < 0.4 or b.stones > 60):
            b.unmake()
        else:
            moves = sorted(b.cand) or [b.index(7, 7)]
            if not b.make(rng.choice(moves)):
                continue
        if step % 23 == 0:
            assert state(b) == state(rebuilt(b))
            checked += 1
    while b.history:
        b.unmake()
    assert state(b) == state(Position(15, 15, rule))
    assert checked > 10


def test_the_threat_search_lists_say_what_the_threat_sets_say() -> None:
    rng = random.Random(5)
    b = Position(15, 15, 0)
    seen = 0
    while b.stones < 70:
        if not b.make(rng.choice(sorted(b.cand) or [b.index(7, 7)])):
            continue
        for c in (BLACK, WHITE):
            fours = b.fours(c)
            assert sorted(b.four_points(c)) == sorted(fours)
            assert sorted(b.three_points(c)) == sorted(b.threes(c))
            assert {i for i in b.points if b.makes_four(c, i)} == fours
            seen += len(fours)
    assert seen > 50


def test_a_stone_taken_away_out_of_order_is_recomputed() -> None:
    b = Position(15, 15, 4)
    stones = [(7, 7, BLACK), (8, 7, WHITE), (7, 8, BLACK), (9, 9, WHITE), (6, 6, BLACK)]
    for x, y, c in stones:
        b.place(b.index(x, y), c)
    b.remove(b.index(8, 7))  # not the last stone placed: no undo for it
    b.remove(b.index(6, 6))
    fresh = Position(15, 15, 4)
    for x, y, c in stones:
        if (x, y) not in ((8, 7), (6, 6)):
            fresh.place(fresh.index(x, y), c)
    assert state(b) == state(fresh)
    b.place(b.index(8, 7), WHITE)
    b.remove(b.index(8, 7))
    assert state(b) == state(fresh)


def test_twenty_by_twenty_and_the_largest_board() -> None:
    for size in (20, 22):
        b = Position(size, size, 0)
        rng = random.Random(size)
        for _ in range(40):
            b.make(rng.choice(sorted(b.cand) or [b.index(size // 2, size // 2)]))
        assert state(b) == state(rebuilt(b))
        corner = b.index(size - 1, size - 1)
        while b.history:
            b.unmake()
        assert b.make(corner)
        assert state(b) == state(rebuilt(b))


@pytest.mark.parametrize("width, height", [(7, 19), (19, 7), (15, 15), (5, 5)])
def test_five_points_agree_with_the_raw_cells_on_rectangles(width: int, height: int) -> None:
    rng = random.Random(width * 100 + height)
    for rule in (0, 1, 8):
        b = Position(width, height, rule)
        for _ in range(min(len(b.points) - 5, 60)):
            empty = [i for i in b.points if b.cells[i] == 0]
            b.play(rng.choice(empty), b.side)
            for color in (BLACK, WHITE):
                raw = {i for i in b.points if b.cells[i] == 0 and b.wins_at(i, color)}
                assert b.fives[color] == raw, (width, height, rule, b.history)


def test_a_neutral_stone_is_nobodys_and_ends_both_colours_lines() -> None:
    """A stone of a continuous game's finished five (BOARD field 3, ``rules.NEUTRAL``) closes black's
    four on one side and white's on the other, counts for neither, passes no turn, and comes off cleanly."""
    b = Position(15, 15, 0)
    for x in range(3, 7):
        b.play(b.index(x, 7), BLACK)
    for x in range(8, 12):
        b.play(b.index(x, 7), WHITE)
    assert b.side == BLACK
    b.play(b.index(7, 7), NEUTRAL)
    assert b.side == BLACK  # nobody's move
    assert b.fives[BLACK] == {b.index(2, 7)} and b.fives[WHITE] == {b.index(12, 7)}
    assert not b.wins_at(b.index(2, 7), WHITE) and b.wins_at(b.index(2, 7), BLACK)
    assert state(b) == state(rebuilt(b))
    b.unmake()
    assert b.side == BLACK and b.fives[BLACK] == {b.index(2, 7), b.index(7, 7)}


def test_the_stones_log_gives_history_colours_and_the_last_five_and_refuses_an_empty_unmake() -> None:
    """make, play and unmake keep one log of machine words: ``history`` and ``colors`` read it in order,
    the search's mate test reads whether the last stone made five, and an unmake with no stone raises
    (as the list's pop did) and changes nothing."""
    b = Position(15, 15, 0)
    with pytest.raises(IndexError):
        b.unmake()
    assert b.history == [] and b.colors == [] and b.stones == 0
    for x in range(4):
        assert b.make(b.index(3 + x, 7)) and b.make(b.index(3 + x, 9))
    b.play(b.index(0, 0), NEUTRAL)
    assert b.history == [b.index(3 + x // 2, 7 + 2 * (x % 2)) for x in range(8)] + [b.index(0, 0)]
    assert b.colors == [BLACK, WHITE] * 4 + [NEUTRAL]
    assert b.rule_score(0) == MATE - 1  # black to move has a five point; the last stone made none
    assert b.make(b.index(7, 7))  # black's five
    assert b.rule_score(3) == -MATE + 3 and b.history[-1] == b.index(7, 7)
    b.unmake()
    b.unmake()
    assert b.history[-1] == b.index(6, 9) and b.colors[-1] == WHITE
