"""Many complete games between built-in players, refereed in process: every record must replay."""

import io

import pytest

from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.record import Recorder, read_games, replay
from junqi_protocol.runner import Referee

ENDINGS = {"flag", "nomoves", "passes", "nocapture"}


@pytest.mark.parametrize("variant,seats", [("2p", 2), ("4p", 4)])
def test_hundred_random_games(variant, seats):
    buf = io.StringIO()
    ref = Referee(variant, "", Recorder(buf))
    for g in range(1, 101):
        result, game = ref.play(g, [BuiltinSeat("random", g * 10 + s) for s in range(seats)])
        assert game.over and result.reason == game.reason and result.reason in ENDINGS
    games = read_games(buf.getvalue().splitlines())
    assert len(games) == 100
    for lines in games:
        final, problems = replay(lines)
        assert problems == []
        assert len([o for o in lines if o["type"] == "lineup"]) == seats
        assert lines[-1]["plies"] == final.ply == len([o for o in lines if o["type"] == "step"])
