"""Junqi's referee on the core's game loop (issue 42): in process, so each game takes well under a second.

Seats that reply past the move time, with time left on the clock and without, and an illegal reply in
a four-player game: the seat loses its turn or goes out while the others play on, and the record says so."""

import io
import json
import time

from engine_core.ends import End
from engine_core.referee import Result
from junqi_protocol.record import Recorder, read_games, replay
from junqi_protocol.runner import Referee
from junqi_protocol.seats import BuiltinSeat


class Slow(BuiltinSeat):
    """A built-in player that sleeps ``seconds`` before its replies numbered in ``turns`` (from 1)."""

    def __init__(self, seed: int, turns: set[int], seconds: float, reply: str = "") -> None:
        super().__init__("random", seed)
        self.turns, self.seconds, self.reply, self.asked = turns, seconds, reply, 0

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        self.asked += 1
        move = super().ask(time_left_ms, movetime_ms)
        if self.asked in self.turns:
            time.sleep(self.seconds)
            return self.reply or move
        return move


def game_record(variant: str, players: list[BuiltinSeat], time_ms: int, movetime_ms: int,
                rules: str = "") -> tuple[Result, list[dict]]:
    out = io.StringIO()
    result, _ = Referee(variant, rules, Recorder(out), time_ms, movetime_ms).play(1, list(players))
    (lines,) = read_games(out.getvalue().splitlines())
    assert replay(lines)[1] == []
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()][-1] == "end"
    return result, lines


def steps(lines: list[dict], seat: str) -> list[dict]:
    return [o for o in lines if o["type"] == "step" and o["seat"] == seat]


def test_a_reply_past_the_move_time_with_time_left_costs_only_the_turn() -> None:
    result, lines = game_record("2p", [Slow(1, {2}, 0.12), BuiltinSeat("random", 2)], 600_000, 50, "passes=5")
    late = steps(lines, "S")[1]
    assert late["action"] == "timeout" and late["events"] == ["pass S timeout"] and late["ms"] > 50
    assert "error" not in late and "move" not in late
    assert steps(lines, "S")[2]["action"] == "move"  # S plays on
    assert (0, End.TIME) not in result.forfeits


def test_a_reply_past_the_move_time_with_the_clock_out_puts_the_seat_out_on_time() -> None:
    result, lines = game_record("2p", [Slow(1, {2}, 0.25), BuiltinSeat("random", 2)], 200, 100)
    last = steps(lines, "S")[-1]
    assert last["action"] == "out" and last["reason"] == "time" and last["events"][0] == "out S time"
    assert last["error"] == f"replied after {last['ms']} ms"
    assert lines[-1]["result"] == "N" and lines[-1]["reason"] == "time"
    assert result.forfeits == ((0, End.TIME),) and result.end is End.TIME and result.reason == "time"


def test_an_illegal_reply_in_four_players_puts_the_seat_out_and_the_others_play_on() -> None:
    players = [Slow(1, {3}, 0.0, "S00-S00"), *(BuiltinSeat("random", s) for s in (2, 3, 4))]
    result, lines = game_record("4p", players, 600_000, 10_000, "nocapture=30")
    out = steps(lines, "S")[2]
    assert out["action"] == "out" and out["reason"] == "illegal" and out["reply"] == "S00-S00"
    assert out["error"].startswith("illegal move S00-S00") and out["events"][0] == "out S illegal"
    after = [o for o in lines if o["type"] == "step" and o["ply"] > out["ply"]]
    assert after and all(o["seat"] != "S" for o in after) and any(o["seat"] == "N" for o in after)
    assert result.forfeits[0] == (0, End.ILLEGAL)
