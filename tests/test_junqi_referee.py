"""The Junqi referee: records, pipe engines in both protocols, and engines that break on purpose."""

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, sanqi_command
from junqi_protocol.record import read_games, replay

BROKEN = f"{sys.executable} {ROOT / 'tests' / 'junqi_broken_engine.py'}"


def referee(tmp_path, *args: str, timeout: float = 90) -> tuple[str, list[list[dict]]]:
    record = tmp_path / "games.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(sanqi_command() + ["referee", "--record", str(record), *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with open(record, encoding="utf-8") as fh:
        games = read_games(fh.readlines())
    for lines in games:
        assert replay(lines)[1] == []
        assert lines[0]["type"] == "game" and lines[-1]["type"] == "end"
    return done.stdout, games


def steps(game: list[dict]) -> list[dict]:
    return [obj for obj in game if obj["type"] == "step"]


@pytest.mark.parametrize("mode,reason", [("crash", "crash"), ("garbage", "illegal"), ("illegal", "illegal")])
def test_two_player_breakage_loses(tmp_path, mode, reason):
    out, games = referee(tmp_path, "--variant", "2p", f"{BROKEN} {mode}", "random", "--seed", "5")
    (game,) = games
    assert game[-1]["result"] == "N" and game[-1]["reason"] == reason
    last = steps(game)[-1]
    assert last["seat"] == "S" and last["action"] == "out" and last["ply"] == 5
    if mode != "crash":
        assert last["error"].startswith("not a move" if mode == "garbage" else "illegal move")
    assert "game 1:" in out and "N (" + reason in out


def test_bad_lineup_is_out_before_the_first_move(tmp_path):
    _, games = referee(tmp_path, "--variant", "2p", f"{BROKEN} lineup", "random")
    (game,) = games
    out, games = referee(tmp_path, "--variant", "2p", "random", "random")  # appends game 2
    assert [g[0]["game"] for g in games] == [1, 2] and "game 2:" in out
    assert [o for o in game if o["type"] == "lineup" and o["seat"] == "S"][0]["error"].startswith("protocol: lineup")
    assert game[-1]["result"] == "N" and game[-1]["reason"] == "lineup" and not steps(game)


def test_four_player_game_goes_on_without_the_illegal_player(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", f"{BROKEN} illegal", "random", "random", "random", "--seed", "3")
    (game,) = games
    outs = [s for s in steps(game) if s["seat"] == "S" and s["action"] == "out"]
    assert outs[0]["reason"] == "illegal" and outs[0]["ply"] == 9
    assert any(s["seat"] == "N" for s in steps(game)[9:])  # S's ally plays on
    assert all(s["seat"] != "S" for s in steps(game)[9:])


def test_four_player_hang_times_out_five_times(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", "--movetime", "0.3", f"{BROKEN} hang", "random", "random", "random",
                       "--seed", "4")
    (game,) = games
    mine = [s for s in steps(game) if s["seat"] == "S"]
    assert [s["action"] for s in mine] == ["move", "move", "timeout", "timeout", "timeout", "timeout", "timeout"]
    assert all(300 <= s["ms"] < 2000 for s in mine[2:])
    assert mine[-1]["events"] == ["pass S timeout", "out S passes"]
    assert len(steps(game)) > 30  # the others played on


def test_four_player_crash_mid_game(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", "random", f"{BROKEN} crash", "random", "random", "--seed", "6")
    (game,) = games
    out = [s for s in steps(game) if s["seat"] == "E" and s["action"] == "out"]
    assert out and out[0]["reason"] == "crash"


def test_pipe_engines_in_both_protocols_and_print(tmp_path):
    out, games = referee(tmp_path, "--variant", "2p", "--games", "2", "junqi:sanqi", "ccgc:sanqi --protocol ccgc",
                         "--engine-option", "1:player=random")
    assert len(games) == 2
    assert games[0][0]["players"]["S"].startswith("sanqi") and games[0][0]["players"]["N"] == "sanqi"
    assert "games per minute" in out and "ccgc:sanqi --protocol ccgc" in out
    # Both engines play legally from either seat, so the CCGC engine's frame was rotated right.
    assert all(s["action"] == "move" for game in games for s in steps(game))
    assert games[1][0]["players"] == {"S": "sanqi", "N": games[0][0]["players"]["S"]}  # sides swapped
    printed = subprocess.run(sanqi_command() + ["referee", "--print", str(tmp_path / "games.jsonl")], capture_output=True,
                             text=True, timeout=60)
    assert printed.returncode == 0 and "2 games, 0 with replay problems" in printed.stdout


def test_four_sanqi_processes(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", "sanqi", "--engine-option", "player=random", "--rules", "nocapture=40")
    (game,) = games
    assert set(game[0]["players"]) == set("SENW")
    assert json.loads(json.dumps(game[-1]))["reason"] in ("flag", "nomoves", "passes", "nocapture")


def test_information_modes_show_lineups():
    from junqi_protocol.board import Board
    from junqi_protocol.game import Rules
    from junqi_protocol.referee import Referee

    b = Board("4p")
    lineups = {s: f"lineup-{s}" for s in range(4)}
    assert Referee._visible(b, Rules("4p"), 0, lineups) == {}
    assert Referee._visible(b, Rules("4p", "info=allies"), 1, lineups) == {3: "lineup-3"}
    assert Referee._visible(b, Rules("4p", "info=open"), 2, lineups) == {0: "lineup-0", 1: "lineup-1", 3: "lineup-3"}
