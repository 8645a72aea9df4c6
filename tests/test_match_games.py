"""sanqi match for each game: engine processes, records that other tools read back, SPRT, forfeits."""

import json
import re
import signal
import subprocess
import sys
import time
from typing import Callable

import pytest

import gomoku_protocol.arena as gomoku
import gomoku_protocol.seats as gomoku_seats
import junqi_protocol.arena as junqi
import ucci_engine.arena as xiangqi
import ucci_engine.seats as xiangqi_seats
from conftest import DATA
from engine_core.matchcli import main, read_book
from gomoku_protocol.position import Position as GomokuPosition
from gomoku_protocol.record import read_psq
from junqi_protocol.record import read_games, replay
from ucci_engine.position import Position

GAMES = {"xiangqi": xiangqi, "gomoku": gomoku, "junqi": junqi}
GAME_LINE = re.compile(r"^game (\d+): .*\((.*), (\d+) plies\)")


def match(capsys, *argv: str) -> tuple[dict[int, tuple[str, int]], str]:
    """Run ``sanqi match``; each game's (reason, plies) from its progress line, and the whole output."""
    assert main(list(argv), GAMES) == 0
    out = capsys.readouterr().out
    games = {int(m[1]): (m[2], int(m[3])) for m in map(GAME_LINE.match, out.splitlines()) if m}
    return games, out


def counted(name: str, kind: str, games: int = 2) -> list[str]:
    """The table's forfeits of the first engine, ``name``, and its line of ends, when that engine lost all
    ``games`` by ``kind`` (a typed end: ``result`` when they ended by the rules)."""
    forfeits = [(k, games if k == kind else 0) for k in ("time", "illegal", "crash", "no answer")]
    ends = [("result", games if kind == "result" else 0), *forfeits]
    return [f"forfeits: {name} " + ", ".join(f"{k} {n}" for k, n in forfeits) + ";", "ends: " + ", ".join(f"{k} {n}" for k, n in ends)]


def test_xiangqi_ucci_against_uci_from_an_opening_file_writes_pgn_that_cchess_reads_back(capsys, tmp_path):
    cchess = pytest.importorskip("cchess")
    games, out = match(capsys, "--game", "xiangqi", "--engine", "cmd=sanqi", "name=ucci", "--engine", "cmd=sanqi --protocol uci",
                       "proto=uci", "name=uci", "--each", "depth=1", "--games", "4", "--max-plies", "40", "--tc", "600+0",
                       "--openings", str(DATA / "xiangqi" / "match-openings.epd"), "--records", str(tmp_path))
    assert sorted(games) == [1, 2, 3, 4]
    fens = read_book(str(DATA / "xiangqi" / "match-openings.epd"), xiangqi.book_line)
    for number, (reason, plies) in games.items():
        path = tmp_path / f"game{number:05d}.pgn"
        text = path.read_text()
        ours = [w.replace("-", "").lower() for w in re.findall(r"\b[A-I]\d-[A-I]\d\b", text)]
        assert len(ours) == plies
        read = cchess.Game.read_from(str(path))
        assert read.dump_iccs_moves()[0] == ours if ours else read.dump_iccs_moves() == []
        fen = fens[(number - 1) // 2]
        assert read.init_board.to_fen().split()[0] == fen.split()[0]
        pos = Position.from_fen(fen)
        assert all(pos.push_name(m) for m in ours)
        assert f'[Termination "{reason}"]' in text
    assert all(line in out for line in counted("ucci", "result", 4))


def test_an_engine_that_cannot_start_forfeits_by_crash_and_is_counted_apart(capsys, tmp_path):
    games, out = match(capsys, "--game", "xiangqi", "--engine", "cmd=sanqi", "--engine", "cmd=false", "name=broken",
                       "--each", "depth=1", "--games", "2", "--records", str(tmp_path))
    assert [reason for reason, _ in games.values()] == ["black did not start: false: no ucciok", "red did not start: false: no ucciok"]
    assert '[Result "1-0"]' in (tmp_path / "game00001.pgn").read_text()
    assert '[Result "0-1"]' in (tmp_path / "game00002.pgn").read_text()
    assert "sanqi                                2     2     0     0" in out
    assert "broken time 0, illegal 0, crash 2, no answer 0" in out
    assert counted("broken", "crash")[1] in out  # the line of ends


def test_gomoku_two_brain_processes_under_the_referee_write_psq_and_sgf(capsys, tmp_path):
    games, out = match(capsys, "--game", "gomoku", "--engine", "cmd=sanqi --protocol gomocup", "name=first",
                       "--engine", "cmd=sanqi --protocol gomocup", "name=second", "--games", "2", "--turn-ms", "200",
                       "--match-ms", "0", "--records", str(tmp_path))
    assert sorted(games) == [1, 2]
    for number, (reason, plies) in games.items():
        psq = read_psq((tmp_path / f"game{number:05d}.psq").read_text())
        assert len(psq.moves) == plies and psq.width == 15
    assert counted("first", "result")[1] in out
    sgf = (tmp_path / "games.sgf").read_text()
    assert sgf.count("(;FF[4]GM[4]") == 2
    for number, (reason, plies) in games.items():
        game = sgf.split("(;")[number]
        assert f"GN[{number}]" in game and f"TE[{reason}]" in game
        assert len(re.findall(r";[BW]\[[a-o]{2}\]", game)) == plies


@pytest.mark.parametrize("variant, seats, concurrency", [("2p", 2, "1"), ("4p", 4, "2")])
def test_junqi_matches_with_built_in_players_replay_cleanly(capsys, tmp_path, variant, seats, concurrency):
    games, out = match(capsys, "--game", "junqi", "--variant", variant, "--engine", "cmd=events", "--engine", "cmd=random",
                       "--games", "4", "--seed", "1", "--records", str(tmp_path), "--concurrency", concurrency)
    assert sorted(games) == [1, 2, 3, 4]
    assert all(line in out for line in counted("events", "result", 4))
    recorded = read_games((tmp_path / "games.jsonl").read_text().splitlines())  # games in number order
    assert len(recorded) == 4
    for lines in recorded:
        assert replay(lines)[1] == []
        players = lines[0]["players"]
        assert len(players) == seats
    first, second = recorded[0][0]["players"], recorded[1][0]["players"]
    assert first["S"] == second["N" if variant == "2p" else "E"]  # seats swapped between the games of a pair


def test_a_junqi_lineup_set_gives_every_seat_the_same_army(capsys, tmp_path):
    (tmp_path / "set.txt").write_text("# one army\ngcfcgi.b.idk.kda.f.ehehigjljhj\n")
    match(capsys, "--game", "junqi", "--engine", "cmd=events", "--engine", "cmd=random", "--games", "2",
          "--openings", str(tmp_path / "set.txt"), "--records", str(tmp_path))
    lineups = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert {obj["lineup"] for obj in lineups if obj["type"] == "lineup"} == {"gcfcgibidkkdafehehigjljhj"}


def test_sprt_stops_a_match_between_a_clearly_stronger_and_a_weaker_player(capsys):
    games, out = match(capsys, "--game", "junqi", "--engine", "cmd=events", "--engine", "cmd=random", "--games", "400",
                       "--seed", "5", "--sprt", "elo0=0", "elo1=100")
    assert "H1 accepted" in out
    assert len(games) < 400


def test_bad_match_options_are_one_line_and_status_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--game", "junqi", "--engine", "cmd=events", "--games", "2"], GAMES)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip() == "sanqi match: error: name exactly two engines with --engine (got 1)"


@pytest.mark.parametrize("game, text, error", [
    ("xiangqi", "# a book\nrnbakabnr/9/9 w - -\n", "2: "),
    ("junqi", "# set\n\ngcfcgi\n", "3: "),
    ("gomoku", "0,0, 1\n", "1: "),
])
def test_a_bad_openings_line_is_named_in_one_error_line(capsys, tmp_path, game, text, error):
    (tmp_path / "book.txt").write_text(text)
    engines = {"xiangqi": ["cmd=sanqi"], "gomoku": ["cmd=sanqi --protocol gomocup"], "junqi": ["cmd=events"]}[game]
    with pytest.raises(SystemExit) as exit_:
        main(["--game", game, "--engine", *engines, "--engine", *engines, "--openings", str(tmp_path / "book.txt")], GAMES)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1
    assert err.startswith(f"sanqi match: error: {tmp_path / 'book.txt'}:{error}")


FAKE_BRAIN = """
import sys, time
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "START" and mode != "mute":
        print("OK", flush=True)
    elif words[0] in ("BEGIN", "TURN", "DONE"):
        if mode == "exit":
            sys.exit(0)
        if mode == "slow":
            time.sleep(4)
        print("MESSAGE thinking", flush=True)
        print({"garbage": "hello", "occupied": "7,7"}.get(mode, "0,0"), flush=True)
    elif words[0] == "END":
        break
"""


@pytest.mark.parametrize("mode, kind", [("slow", "time"), ("garbage", "illegal"), ("occupied", "illegal"), ("exit", "crash"),
                                        ("mute", "no answer")])
def test_a_gomoku_brain_that_breaks_the_referees_discipline_forfeits(capsys, tmp_path, monkeypatch, mode, kind):
    if mode == "mute":  # it never answers START: a shorter wait than a real brain's loading its weights is allowed
        monkeypatch.setattr(gomoku_seats, "START_SECONDS", 3.0)
    (tmp_path / "brain.py").write_text(FAKE_BRAIN)
    (tmp_path / "book.txt").write_text("0,0, 1,0\n")  # the centre (7,7) is taken, black to move
    games, out = match(capsys, "--game", "gomoku", "--engine", f"cmd={sys.executable} {tmp_path / 'brain.py'} {mode}",
                       "name=fake", "--engine", "cmd=baseline", "proto=builtin", "--games", "2", "--turn-ms", "500",
                       "--openings", str(tmp_path / "book.txt"))
    assert [reason.split(":")[0].split(None, 1)[1] for reason, _ in games.values()] == [kind, kind]
    assert all(line in out for line in counted("fake", kind))


def test_the_idle_gomoku_brain_is_suspended(tmp_path):
    brain = gomoku_seats.GomocupSeat(f"{sys.executable} -c 'import sys\nfor l in sys.stdin: print(\"OK\" if l.startswith(\"START\") else \"7,7\", flush=True)'", (), None)
    brain.open(gomoku_seats.MatchSettings(1000, 0, 0, 0, 15))
    try:
        assert comes_to_stop(brain.proc.proc.pid)  # stopped until its turn
        board = GomokuPosition(15, 15, 0)
        assert brain.move(board, [], 0, 10_000) == (7, 7)
        assert comes_to_stop(brain.proc.proc.pid)
    finally:
        brain.close()
    assert brain.proc.exited()


MUTE_BRAIN = """
import os, sys
for line in sys.stdin:
    if line.startswith("START"):
        open(sys.argv[1], "a").write(f"{os.getpid()}\\n")
        print("OK", flush=True)
"""


def test_a_match_stopped_by_ctrl_c_leaves_no_brain_behind_not_even_a_suspended_one(tmp_path):
    (tmp_path / "brain.py").write_text(MUTE_BRAIN)  # answers START, then thinks forever
    pids = tmp_path / "pids.txt"
    brain = f"cmd={sys.executable} {tmp_path / 'brain.py'} {pids}"
    # Ctrl-C at a terminal reaches a foreground command whose SIGINT is at its default. A shell that runs
    # these tests as a background job starts them with SIGINT ignored, which the runner would inherit, so
    # the runner is started with SIGINT caught here (a caught signal is reset to its default by exec).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        runner = subprocess.Popen([sys.executable, "-m", "engine_core", "match", "--game", "gomoku", "--engine", brain,
                                   "name=a", "--engine", brain, "name=b", "--games", "2", "--turn-ms", "600000"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        brains = wait_for(lambda: [int(p) for p in pids.read_text().split()] if pids.exists() else [], 2)
        assert len(brains) == 2 and any(comes_to_stop(pid) for pid in brains)  # the one whose turn it is not
        runner.send_signal(signal.SIGINT)
        assert runner.wait(timeout=60) == 130
    finally:
        runner.kill()
    assert len(wait_for(lambda: [pid for pid in brains if not alive(pid)], 2)) == 2


def wait_for(found: Callable[[], list[int]], count: int) -> list[int]:
    """``found()`` once it has ``count`` items, waiting a generous minute for it."""
    deadline = time.monotonic() + 60
    while len(items := found()) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return items


def alive(pid: int) -> bool:
    """Whether the process still exists and is no zombie (which its new parent may be slow to reap)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_gomoku_engines_options_are_info_lines_after_the_referees_own(capsys, tmp_path):
    (tmp_path / "brain.py").write_text(FAKE_BRAIN.replace("    words = line.split()", "    open(sys.argv[2], 'a').write(line)\n    words = line.split()"))
    (tmp_path / "book.txt").write_text("0,0, 1,0\n")
    heard = tmp_path / "heard.txt"
    match(capsys, "--game", "gomoku", "--engine", f"cmd={sys.executable} {tmp_path / 'brain.py'} occupied {heard}", "name=fake",
          "option.style=aggressive", "option.caution_factor=2", "--engine", "cmd=baseline", "proto=builtin",
          "--games", "1", "--openings", str(tmp_path / "book.txt"))
    infos = [line.split(None, 1)[1].strip() for line in heard.read_text().splitlines() if line.startswith("INFO")]
    assert infos[:7] == ["timeout_turn 5000", "timeout_match 180000", f"max_memory {350 * 2**20}", "rule 0", "game_type 1",
                         "style aggressive", "caution_factor 2"]


def comes_to_stop(pid: int) -> bool:
    """Whether the process is seen stopped (state T) within a few seconds: SIGSTOP lands asynchronously."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as fh:
            if fh.read().rsplit(")", 1)[1].split()[0] == "T":
                return True
        time.sleep(0.01)
    return False


def test_engine_stderr_is_kept_per_game_and_seat_on_request(capsys, tmp_path):
    noisy = tmp_path / "noisy.py"
    noisy.write_text("import sys, runpy\nsys.stderr.write('hello from the engine\\n')\nsys.argv[1:] = ['--protocol', 'ucci']\n"
                     "runpy.run_module('engine_core', run_name='__main__')\n")
    match(capsys, "--game", "xiangqi", "--engine", f"cmd={sys.executable} {noisy}", "name=noisy", "--engine", "cmd=sanqi",
          "--each", "depth=1", "--games", "2", "--max-plies", "4", "--engine-log", str(tmp_path / "logs"))
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert logs == ["game1-black.log", "game1-red.log", "game2-black.log", "game2-red.log"]
    assert "hello from the engine" in (tmp_path / "logs" / "game1-red.log").read_text()
    assert "hello from the engine" in (tmp_path / "logs" / "game2-black.log").read_text()


@pytest.mark.parametrize("mode, kind", [("hang", "time"), ("illegal", "illegal"), ("crash", "crash"), ("lineup", "illegal"),
                                        ("mute", "no answer")])
def test_a_junqi_engine_that_misbehaves_forfeits_by_kind(capsys, mode, kind):
    broken = f"cmd={sys.executable} {DATA.parent / 'junqi_broken_engine.py'} {mode}"
    games, out = match(capsys, "--game", "junqi", "--engine", broken, "name=broken", "--engine", "cmd=events",
                       "--games", "2", "--movetime", "3", "--seed", "2")  # 3 s: ample for a fair answer
    assert len(games) == 2
    assert "broken                               2     0     0     2" in out
    assert all(line in out for line in counted("broken", kind))


FAKE_UCCI = """
import sys
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["ucci"] and mode != "mute":
        print("ucciok", flush=True)
    elif words[:1] == ["go"]:
        if mode == "exit":
            sys.exit(0)
        if mode == "illegal":
            print("bestmove a0a5", flush=True)
    elif words[:1] == ["quit"]:
        break
"""


@pytest.mark.parametrize("mode, kind", [("illegal", "illegal"), ("silent", "time"), ("exit", "crash"), ("mute", "no answer")])
def test_a_xiangqi_engine_that_misbehaves_forfeits_by_kind(capsys, tmp_path, monkeypatch, mode, kind):
    if mode == "mute":  # it never answers ucci: a shorter wait, still ample for sanqi to start on a loaded machine
        monkeypatch.setattr(xiangqi_seats, "HANDSHAKE_SECONDS", 10.0)
    (tmp_path / "engine.py").write_text(FAKE_UCCI)
    games, out = match(capsys, "--game", "xiangqi", "--engine", f"cmd={sys.executable} {tmp_path / 'engine.py'} {mode}",
                       "name=fake", "--engine", "cmd=sanqi", "depth=1", "--tc", "1+0", "--games", "2")  # sanqi has no clock to lose on
    assert len(games) == 2
    assert "fake                                 2     0     0     2" in out
    assert all(line in out for line in counted("fake", kind))
