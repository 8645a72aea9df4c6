"""The threat search's native-vector parts against plain Python models: its memo (:class:`Memo`)
against dicts through growth and trimming, and its candidate stack against ``Position.ordered``."""

import random

from gomoku_protocol.position import Position
from gomoku_protocol.rules import BLACK, WHITE
from gomoku_protocol.threats import Memo, ThreatSearch, context


def test_the_memo_answers_as_dicts_do_through_growth_and_trims() -> None:
    rng = random.Random(62)
    memo = Memo()
    fails: dict[tuple[int, int], int] = {}
    wins: dict[int, list[int]] = {}
    # few keys, so that the same key comes back under several contexts and depths
    keys = [rng.getrandbits(62) for _ in range(3000)]
    contexts = [0] + [context(tuple(rng.randrange(30, 900) for _ in range(rng.randrange(1, 7)))) for _ in range(40)]
    for step in range(40000):
        key = rng.choice(keys)
        ctx = rng.choice(contexts)
        depth = rng.randrange(1, 13)
        what = rng.random()
        if what < 0.4:
            if fails.get((key, ctx), 0) < depth:  # the search stores a failure only when none as deep is known
                memo.fail(key, ctx, depth)
                fails[(key, ctx)] = depth
        elif what < 0.5:
            line = [rng.randrange(30, 900) for _ in range(rng.randrange(1, 25))]
            memo.win(key, line)
            wins[key] = line
        else:
            expected = fails.get((key, 0), 0) >= depth or (ctx != 0 and fails.get((key, ctx), 0) >= depth)
            assert memo.failed(key, ctx, depth) == expected, step
            assert memo.won(key) == wins.get(key), step
        if step % 5000 == 4999:
            limit = rng.choice([1000, 100000])
            memo.trim(limit)
            if len(fails) > limit:
                fails.clear()
            if len(wins) > limit:
                wins.clear()
            assert memo.failures == len(fails) and memo.wins == len(wins)
    assert len(memo.fail_keys) > 2 * 1024  # it grew past its first size


def test_a_restriction_of_up_to_four_gains_has_its_own_number() -> None:
    seen: dict[int, tuple[int, ...]] = {}
    rng = random.Random(4)
    for _ in range(20000):
        gains = tuple(rng.randrange(0, 1024) for _ in range(rng.randrange(1, 5)))
        ctx = context(gains)
        assert ctx > 0 and seen.setdefault(ctx, gains) == gains


def test_the_candidate_stack_orders_as_position_ordered() -> None:
    rng = random.Random(7)
    longest = 0
    for size in (15, 20):
        b = Position(size, size, 0)
        ts = ThreatSearch(b)
        for _ in range(90):
            b.make(rng.choice([i for i in b.points if b.cells[i] == 0]))
            for color in (BLACK, WHITE):
                ts.sp = 0
                ts._push_fours(color, 0, (), True)
                got = [ts.stack[k] & 4095 for k in range(ts.sp)]
                assert got == b.ordered(b.four_points(color), color)
                longest = max(longest, len(got))
    assert longest >= 5
