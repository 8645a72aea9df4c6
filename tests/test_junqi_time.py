"""The ``movetime`` option (issue 60, item 2): our own cap on a move's time under the referee's limit, so
time odds can be played; ``sanqi match --game junqi`` gives each engine its own.

No test here bounds a wall-clock time: what each move was allowed is read from the engine's log line
(``search … budget B ms used U ms movetime M ms``), which states the limit the move was given."""

import json
import re

import pytest

from conftest import sanqi_command
from engine_core.matchcli import main as match_main
from junqi_protocol.protocol import JunqiProtocol
from test_junqi_protocol import LINEUP, Lines

SEARCH_LINE = re.compile(r"^search depth \d+ nodes \d+ budget (\d+) ms used \d+ ms movetime (\d+) ms$")


def searched(lines: list[str]) -> list[tuple[int, int]]:
    """(budget, movetime) of every search line among ``lines``."""
    return [(int(m[1]), int(m[2])) for m in map(SEARCH_LINE.match, lines) if m]


def test_the_option_is_listed_with_its_default_and_bad_values_are_refused(session_factory):
    s = session_factory()
    s.send("junqi")
    _, before = s.expect("junqiok")
    assert "option name movetime type spin default 0 min 0 max 60000" in before
    for bad in ("-1", "60001", "1.5", "x", "²"):
        s.send(f"setoption name movetime value {bad}")
        assert s.expect("error")[0].startswith(f"error movetime={bad}: milliseconds from 0 (no cap) to 60000")
    s.send("setoption name movetime value 250")
    s.send("setoption name movetime value 0")
    s.send("isready")
    assert s.expect("readyok")[1] == []  # both taken, no error


@pytest.mark.parametrize("cap, referee, limit", [(200, 3000, 200), (5000, 400, 400), (0, 300, 300), (300, 0, 300)])
def test_the_cap_and_the_referees_movetime_combine_as_the_less(cap, referee, limit):
    go = f"go time 600000 movetime {referee}" if referee else "go time 600000"
    chan = Lines(["junqi", f"setoption name movetime value {cap}", "newgame 2p S", f"lineup {LINEUP}", "start", go])
    JunqiProtocol().run(chan)
    assert [line for line in chan.said if line.startswith("error")] == []
    assert any(line.startswith("move ") for line in chan.said)
    [(budget, movetime)] = searched(chan.logged)
    # The time rule reads the combined limit as it reads the referee's: less the 80 ms the reply needs
    # (and scaled by the CPU share, less the last overruns: never above it).
    assert movetime == limit and 10 <= budget <= limit - 80


def test_a_cap_set_again_and_one_taken_off(tmp_path):
    chan = Lines(["junqi", "setoption name movetime value 150", "newgame 2p S", f"lineup {LINEUP}", "start",
                       "go time 600000 movetime 2000", "setoption name movetime value 0", "go time 600000 movetime 900"])
    JunqiProtocol().run(chan)
    assert [m for _, m in searched(chan.logged)] == [150, 900]


def test_a_match_gives_each_engine_its_own_cap(capsys, tmp_path):
    """Two sanqi processes in ``sanqi match --game junqi``, one capped at 150 ms and one at 400 ms under the
    referee's 3 s: each one's log shows its own cap on every move, in both seats."""
    command = " ".join(sanqi_command() + ["--protocol", "junqi"])
    logs, results = tmp_path / "logs", tmp_path / "results.jsonl"
    code = match_main(["--game", "junqi", "--variant", "2p", "--rules", "nocapture=4 nocapture_loses=1", "--movetime", "3",
                       "--games", "2", "--engine", f"cmd={command}", "name=short", "option.movetime=150",
                       "--engine", f"cmd={command}", "name=long", "option.movetime=400",
                       "--engine-log", str(logs), "--results", str(results)])
    assert code == 0
    capsys.readouterr()
    caps = {"short": 150, "long": 400}
    seen = set()
    for row in map(json.loads, results.read_text().splitlines()):
        for seat, name in zip("SN", ("long", "short") if row["swapped"] else ("short", "long")):  # the first engine sits S
            lines = (logs / f"game{row['game']}-{seat}.log").read_text().splitlines()
            limits = {m for _, m in searched(lines)}
            assert limits == {caps[name]}, (row, seat, lines)
            seen.add((name, seat))
    assert seen == {("short", "S"), ("short", "N"), ("long", "S"), ("long", "N")}
