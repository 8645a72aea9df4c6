"""Strong-style lineups are legal and varied; ``--lineups`` deals the same deployments to every engine."""

import io
import random

import pytest

from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.lineups import deals, read_deals, strong_lineup
from junqi_protocol.record import Recorder, read_games
from junqi_protocol.runner import Referee
from junqi_protocol.rules import FLAG, MINE, check_lineup, parse_lineup


def test_lineups_follow_the_rules_and_the_habits():
    rng = random.Random(11)
    seen = set()
    for _ in range(300):
        text = strong_lineup(rng)
        assert check_lineup(text) is None
        kinds = parse_lineup(text)
        flag = kinds.index(FLAG)
        guards = [flag - 1, flag + 1, flag - 5]
        assert sum(kinds[s] == MINE for s in guards) >= 2  # the flag sits behind mines
        seen.add(text)
    assert len(seen) == 300


def test_deal_files_are_checked():
    assert read_deals(" ".join(deals(1, 4, 3)[0]), 4) == deals(1, 4, 3)
    with pytest.raises(ValueError, match="line 1"):
        read_deals("abccddeeffggghhhiiijjkklj abc", 2)
    with pytest.raises(ValueError, match="2 lineups for 4 seats"):
        read_deals(" ".join(deals(1, 2, 3)[0]), 4)


def test_referee_deals_each_deal_to_both_engines():
    buf = io.StringIO()
    ref = Referee("2p", "", Recorder(buf))
    ref.deals = deals(2, 2, 5)
    ref.deal_every = 2
    for g in range(1, 5):
        ref.play(g, [BuiltinSeat("random", g * 10 + s) for s in range(2)])
    for n, lines in enumerate(read_games(buf.getvalue().splitlines())):
        got = [obj["lineup"] for obj in lines if obj["type"] == "lineup"]
        assert got == ref.deals[n // 2]
