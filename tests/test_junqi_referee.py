"""The Junqi referee: records, pipe engines in both protocols, and engines that break on purpose."""

import json
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, sanqi_command
from junqi_protocol.record import read_games, replay

BROKEN = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'tests' / 'junqi_broken_engine.py'))}"
SANQI = shlex.join(sanqi_command())


def referee_env(tmp_path) -> dict[str, str]:
    pids = tmp_path / "pids"
    pids.mkdir(exist_ok=True)
    return dict(os.environ, PYTHONPATH=str(ROOT), JUNQI_BROKEN_PIDS=str(pids))


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie may wait for a container's init to reap it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return False


def left_running(tmp_path) -> list[int]:
    """Processes the broken engines started (themselves and their children) still running, after a grace."""
    pids = [int(p.name) for p in (tmp_path / "pids").iterdir()]
    deadline = time.monotonic() + 10
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if running(p)]


def read_record(path) -> list[list[dict]]:
    with open(path, encoding="utf-8") as fh:
        games = read_games(fh.readlines())
    for lines in games:
        assert replay(lines)[1] == []
        assert lines[0]["type"] == "game" and lines[-1]["type"] == "end"
    return games


def referee(tmp_path, *args: str, timeout: float = 90) -> tuple[str, list[list[dict]]]:
    record = tmp_path / "games.jsonl"
    done = subprocess.run(sanqi_command() + ["referee", "--record", str(record), *args], capture_output=True,
                          text=True, timeout=timeout, env=referee_env(tmp_path), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert left_running(tmp_path) == []
    return done.stdout, read_record(record)


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
    assert next(o for o in game if o["type"] == "lineup" and o["seat"] == "S")["error"].startswith("protocol: lineup")
    assert game[-1]["result"] == "N" and game[-1]["reason"] == "lineup" and not steps(game)


def test_four_player_game_goes_on_without_the_illegal_player(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", f"{BROKEN} illegal", "random", "random", "random", "--seed", "3")
    (game,) = games
    outs = [s for s in steps(game) if s["seat"] == "S" and s["action"] == "out"]
    assert outs[0]["reason"] == "illegal" and outs[0]["ply"] == 9
    assert any(s["seat"] == "N" for s in steps(game)[9:])  # S's ally plays on
    assert all(s["seat"] != "S" for s in steps(game)[9:])


def test_four_player_hang_times_out_five_times(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", "--movetime", "1", f"{BROKEN} hang", "random", "random", "random",
                       "--seed", "4")
    (game,) = games
    mine = [s for s in steps(game) if s["seat"] == "S"]
    assert [s["action"] for s in mine] == ["move", "move", "timeout", "timeout", "timeout", "timeout", "timeout"]
    assert all(1000 <= s["ms"] for s in mine[2:])
    assert mine[-1]["events"] == ["pass S timeout", "out S passes"]
    assert len(steps(game)) > 30  # the others played on


def test_four_player_crash_mid_game(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", "random", f"{BROKEN} crash", "random", "random", "--seed", "6")
    (game,) = games
    out = [s for s in steps(game) if s["seat"] == "E" and s["action"] == "out"]
    assert out and out[0]["reason"] == "crash"


def test_pipe_engines_in_both_protocols_and_print(tmp_path):
    # nocapture=6 and a 30 s clock keep the games short: the CCGC engine runs our default player, which thinks.
    out, games = referee(tmp_path, "--variant", "2p", "--games", "2", "--rules", "nocapture=6", "--time", "30", f"junqi:{SANQI}",
                         f"ccgc:{SANQI} --protocol ccgc", "--engine-option", "1:player=random")
    assert len(games) == 2
    assert games[0][0]["players"]["S"].startswith("sanqi") and games[0][0]["players"]["N"] == "sanqi"
    assert "games per minute" in out and f"ccgc:{SANQI}"[:30] in out
    # Both engines play legally from either seat, so the CCGC engine's frame was rotated right.
    assert all(s["action"] == "move" for game in games for s in steps(game))
    assert games[1][0]["players"] == {"S": "sanqi", "N": games[0][0]["players"]["S"]}  # sides swapped
    printed = subprocess.run(sanqi_command() + ["referee", "--print", str(tmp_path / "games.jsonl")], capture_output=True,
                             text=True, timeout=60)
    assert printed.returncode == 0 and "2 games, 0 with replay problems" in printed.stdout


def test_four_sanqi_processes(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", SANQI, "--engine-option", "player=random", "--rules", "nocapture=40")
    (game,) = games
    assert set(game[0]["players"]) == set("SENW")
    assert json.loads(json.dumps(game[-1]))["reason"] in ("flag", "nomoves", "passes", "nocapture")


def test_a_seat_out_from_the_start_never_plays(tmp_path):
    """``out`` takes one seat a game, rotated with the engines: that seat has no lineup and no
    pieces, is put out before the first move, never moves, and the record replays (``read_record``)."""
    out, games = referee(tmp_path, "--variant", "4p", "--games", "4", "--seed", "2", "--rules", "nocapture=40",
                         "random", "events", "random", "out")
    assert len(games) == 4
    for game, absent in zip(games, "WNES"):
        assert game[0]["players"][absent] == "out"
        assert [o for o in game if o["type"] == "lineup" and o["seat"] == absent] == [
            {"type": "lineup", "game": game[0]["game"], "seat": absent, "absent": True}]
        start = next(o for o in game if o["type"] == "start")
        assert start["events"][0] == f"out {absent} absent"
        assert steps(game) and all(s["seat"] != absent for s in steps(game))
        assert game[-1]["result"] != "none"
    assert out.count("W=out") == 1 and [line.split()[1] for line in out.splitlines() if line.startswith("out ")] == ["4"]
    printed = subprocess.run(sanqi_command() + ["referee", "--print", str(tmp_path / "games.jsonl")], capture_output=True,
                             text=True, timeout=60)
    fared: dict[str, int] = {}
    for game, absent in zip(games, "WNES"):
        up = "SN" if absent in "EW" else "EW"
        end = game[-1]
        how = f"drawn {end['reason']}" if end["result"] == "draw" else "won" if set(end["result"]) == set(up) else "lost"
        fared[how] = fared.get(how, 0) + 1
    counts = ", ".join(f"{how} {n}" for how, n in sorted(fared.items()))
    summary = [line for line in printed.stdout.splitlines() if line.startswith("a seat up")]
    assert summary == [f"a seat up (its enemy's partner out while it played on), builtin random+builtin random: 4 games: {counts}"]


def test_won_games_won_counts_the_side_whose_enemy_seat_went_out_first():
    """tests/tools/junqi_seat_up.py: the first ``out`` decides which side is a seat up, whatever follows;
    the end is told for that side, and an unfinished game is not counted."""
    from tools.junqi_seat_up import SeatUp, seat_up
    from junqi_protocol.record import first_out

    head = {"type": "game", "game": 3, "variant": "4p", "players": {"S": "sanqi 0.1", "E": "peer", "N": "sanqi 0.1", "W": "peer"}}
    lines = [head, {"type": "start", "game": 3, "events": []},
             {"type": "step", "game": 3, "ply": 40, "events": ["move S S00-E04 EAT", "out E flag"]},
             {"type": "step", "game": 3, "ply": 41, "events": ["out S nomoves"]},
             {"type": "end", "game": 3, "result": "draw", "reason": "nocapture", "plies": 90}]
    assert first_out(lines) == (40, "E", "flag")
    assert seat_up("r.jsonl", lines, "sanqi") == SeatUp("r.jsonl", 3, True, 40, "E", "flag", "drawn nocapture", 90)
    lines[-1] = {"type": "end", "game": 3, "result": "EW", "reason": "flag", "plies": 95}
    assert seat_up("r.jsonl", lines, "sanqi") == SeatUp("r.jsonl", 3, True, 40, "E", "flag", "lost flag", 95)
    assert seat_up("r.jsonl", lines, "peer") == SeatUp("r.jsonl", 3, False, 40, "E", "flag", "lost flag", 95)
    lines[-1] = {"type": "end", "game": 3, "result": "none", "reason": "aborted by SIGTERM", "plies": 41}
    assert seat_up("r.jsonl", lines, "sanqi") is None
    assert seat_up("r.jsonl", [head, lines[1], lines[-1]], "sanqi") is None


def test_protocol_engines_play_beside_a_seat_out_from_the_start(tmp_path):
    _, games = referee(tmp_path, "--variant", "4p", "--rules", "nocapture=30", "--engine-option", "player=random",
                       "out", SANQI, SANQI, SANQI)
    (game,) = games
    assert game[0]["players"]["S"] == "out" and steps(game)[0]["seat"] == "E"
    assert {s["seat"] for s in steps(game)} <= set("ENW") and game[-1]["reason"] in ("flag", "nomoves", "nocapture")


def test_information_modes_show_lineups():
    from junqi_protocol.board import Board
    from junqi_protocol.game import Rules
    from junqi_protocol.referee import visible

    b = Board("4p")
    lineups = {s: f"lineup-{s}" for s in range(4)}
    assert visible(b, Rules("4p"), 0, lineups) == {}
    assert visible(b, Rules("4p", "info=allies"), 1, lineups) == {3: "lineup-3"}
    assert visible(b, Rules("4p", "info=open"), 2, lineups) == {0: "lineup-0", 1: "lineup-1", 3: "lineup-3"}


def seat_steps(game: list[dict], seat: str) -> list[dict]:
    return [s for s in steps(game) if s["seat"] == seat]


def test_engine_stderr_is_kept_with_engine_log(tmp_path):
    logs = tmp_path / "logs"
    referee(tmp_path, "--variant", "2p", "--engine-log", str(logs), f"{BROKEN} illegal", f"{BROKEN} garbage")
    assert sorted(p.name for p in logs.iterdir()) == ["game1-N.log", "game1-S.log"]
    assert (logs / "game1-S.log").read_text(encoding="utf-8").startswith("broken engine illegal: starting")


def test_dealt_lineup_must_be_the_one_played(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("abccddeeffggghhhiiijjkklj gcfcgi.b.idk.kda.f.ehehigjljhj\n", encoding="utf-8")
    _, (game,) = referee(tmp_path, "--variant", "2p", "--lineups", str(deals), f"{BROKEN} own", f"{BROKEN} fair")
    entry = {o["seat"]: o for o in game if o["type"] == "lineup"}
    assert entry["S"]["error"].startswith("protocol: dealt abccddeeffggghhhiiijjkklj, answered another lineup")
    assert entry["N"]["lineup"] == "gcfcgibidkkdafehehigjljhj"  # the 30-letter deal, played in 25
    assert game[-1]["result"] == "N" and game[-1]["reason"] == "lineup"


def test_engine_that_dies_before_its_lineup_is_out_for_lineup(tmp_path):
    _, (game,) = referee(tmp_path, "--variant", "2p", f"{BROKEN} startup", "random")
    entry = next(o for o in game if o["type"] == "lineup" and o["seat"] == "S")
    assert entry["error"].startswith("crash")
    assert game[-1]["result"] == "N" and game[-1]["reason"] == "lineup"


def test_exit_with_a_child_holding_stdout_is_a_crash_and_the_child_is_killed(tmp_path):
    _, (game,) = referee(tmp_path, "--variant", "2p", "--movetime", "60", f"{BROKEN} child", "random")
    last = seat_steps(game, "S")[-1]
    assert last["action"] == "out" and last["reason"] == "crash" and last["ms"] < 60000
    assert game[-1]["result"] == "N" and game[-1]["reason"] == "crash"


def test_late_reply_is_dropped_not_taken_for_the_next_request(tmp_path):
    _, (game,) = referee(tmp_path, "--variant", "4p", "--movetime", "3", "--seed", "2", "--rules", "nocapture=20",
                         f"{BROKEN} late", "random", "random", "random")
    mine = seat_steps(game, "S")
    assert mine[2]["action"] == "timeout" and mine[2]["events"] == ["pass S timeout"]
    dropped = [line for s in mine[3:] for line in s.get("dropped", [])]
    assert dropped and dropped[0].startswith("move ") and "readyok" not in dropped
    assert all(s["action"] != "out" for s in mine[:5])  # the record replays: every move played was legal


def test_flood_of_info_lines_is_read_not_timed_out(tmp_path):
    _, (game,) = referee(tmp_path, "--variant", "2p", "--movetime", "20", "--seed", "2", f"{BROKEN} flood", "random")
    assert seat_steps(game, "S")[2]["action"] == "move"


def test_overlong_line_is_judged(tmp_path):
    _, (game,) = referee(tmp_path, "--variant", "2p", "--movetime", "20", f"{BROKEN} longline", "random")
    last = seat_steps(game, "S")[-1]
    assert last["action"] == "out" and last["reason"] == "illegal" and last["error"].startswith("not a move")
    assert len(last["reply"]) <= 200


def test_an_unasked_reply_arriving_after_the_next_request_is_dropped_not_taken(tmp_path):
    # The second answer comes a while after the first, when the referee may already have asked for the
    # next move: it was written before the engine's readyok, so it is dropped however late it arrives.
    _, (game,) = referee(tmp_path, "--variant", "2p", "--seed", "3", "--rules", "nocapture=12",
                         f"{BROKEN} straggle", "random")
    mine = seat_steps(game, "S")
    assert len(mine) > 4 and all(s["action"] in ("move", "pass") for s in mine)
    dropped = [line for s in mine[3:] for line in s.get("dropped", [])]
    assert dropped and all(line.startswith("move ") for line in dropped)


def test_children_unasked_replies_and_deaf_engines_leave_nothing_behind(tmp_path):
    # spawn: a child that outlives the game unless its group is killed; twice: a second, unasked
    # answer to every request; deaf: ignores quit and SIGTERM.
    _, (game,) = referee(tmp_path, "--variant", "4p", "--seed", "7", "--rules", "nocapture=30",
                         f"{BROKEN} spawn", f"{BROKEN} twice", f"{BROKEN} deaf", "random")
    twice = seat_steps(game, "E")
    assert all(s["action"] in ("move", "pass") for s in twice[:2])
    assert len(twice) > 3 and twice[3]["dropped"][0].startswith("move ")  # the unasked second answer
    assert game[-1]["reason"] in ("flag", "nomoves", "passes", "nocapture")
    assert len(list((tmp_path / "pids").iterdir())) == 4  # three engines and the spawned child, all gone


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_referee_ends_the_record_and_stops_the_engines(tmp_path, signum):
    record = tmp_path / "games.jsonl"
    engines = [f"{BROKEN} {mode}" for mode in ("hang", "spawn", "deaf", "fair")]  # deaf ignores quit and SIGTERM
    proc = subprocess.Popen(sanqi_command() + ["referee", "--record", str(record), "--variant", "4p", "--movetime", "60",
                                               *engines],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=referee_env(tmp_path), cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the hanging engine is being waited for
        lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
        if sum('"type": "step"' in line for line in lines) >= 8:
            break
        time.sleep(0.05)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "aborted" in err
    (game,) = read_record(record)
    assert game[-1]["result"] == "none" and game[-1]["reason"] == f"aborted by {signal.Signals(signum).name}"
    assert left_running(tmp_path) == []
    printed = subprocess.run(sanqi_command() + ["referee", "--print", str(record)], capture_output=True, text=True,
                             timeout=60)
    assert printed.returncode == 0 and "1 games, 0 with replay problems" in printed.stdout


def test_ccgc_end_codes_follow_the_2012_specification():
    from junqi_protocol.seats import ABORTED, CcgcSeat

    said: list[str] = []
    player = CcgcSeat("unused")
    player.send = said.append
    player.seat = 1
    for winner in (1, 0, ABORTED, -1):  # won, lost, abnormal end, draw (no code: no END line)
        player.finish(winner)
    assert said == ["END 1", "END 0", "END 2"]


def test_an_endless_stream_of_stale_lines_is_a_timeout_not_a_hang():
    from engine_core.ends import End, Forfeit
    from junqi_protocol.seats import JunqiSeat

    player = JunqiSeat("yes stale")  # prints 'stale' for ever
    player._start()
    player.resync()  # as after a timeout: every line until readyok is stale
    player.drain()  # takes what is there, however fast more comes
    with pytest.raises(Forfeit) as caught:
        player.read(0.5)
    assert caught.value.end is End.NO_ANSWER and str(caught.value) == "no reply within 0.5s"
    dropped = player.take_dropped()
    assert dropped[:20] == ["stale"] * 20 and dropped[20].startswith("... and ")
    player.close()
    assert player.proc is not None and player.proc.exit_code() is not None


def test_first_fall_tells_the_flag_capture_and_the_material_the_board_shows():
    """tests/tools/junqi_first_fall.py on a game played here: the fall is the first ``out`` of our team,
    the captor the piece that moved onto our flag, and the pieces lost by ply 40 those the board lacks."""
    from tools.junqi_first_fall import follow_game
    from junqi_protocol.record import Recorder, Replayer
    from junqi_protocol.rules import FLAG
    from junqi_protocol.runner import Referee
    from junqi_protocol.seats import BuiltinSeat

    lines: list = []
    players = [BuiltinSeat("random", 1), BuiltinSeat("events", 11), BuiltinSeat("random", 21), BuiltinSeat("events", 31)]
    Referee("4p", "info=allies", Recorder(None, [lines.append])).play(1, players)
    x = follow_game("r.jsonl", lines, "random")
    assert x is not None and x.result == "lost" and x.why == "flag"
    outs = [(o["ply"], e.split()[1]) for o in lines if o["type"] == "step" for e in o["events"] if e.startswith("out ")]
    assert (x.ply, x.seat) == next(out for out in outs if out[1] in "SN") and x.ply > 40
    r = Replayer(lines[0])
    b = r.board
    on: list[int] = []
    for obj in lines[1:]:
        if obj["type"] == "step" and obj["ply"] == x.ply:
            frm, to = (b.point(p) for p in obj["move"].split("-"))
            pos = r.game.pos
            assert (pos.kind[to], b.letters[pos.owner[to]], pos.kind[frm], b.names[frm]) == (FLAG, x.seat, x.captor, x.frm)
            break
        r.feed(obj)
        if obj["type"] == "step" and obj["ply"] == 40:
            on = [sum(1 for p in range(b.size) if r.game.pos.owner[p] >= 0 and b.team(r.game.pos.owner[p]) == t) for t in (0, 1)]
    else:
        raise AssertionError("no step at the fall's ply")
    assert on == [50 - len(x.lost[40][0]), 50 - len(x.lost[40][1])] and x.lost[40] != ([], [])
