"""What a seeded, time-independent run records is what it recorded at 9fcd92a (issue 63's must-show:
records byte-for-byte the same apart from times, through the house work that followed).

Each game runs the installed ``sanqi`` (or $SANQI_EXE) as a user would: xiangqi and gomoku engines at a
fixed depth and node count, junqi's seeded built-in players. The times a record carries (xiangqi's
``MoveTimes``, gomoku's third .psq field and SGF ``C[..ms]``, junqi's step ``ms``) are stripped; everything
else must equal the golden files in tests/data/records_stable/, which 9fcd92a wrote through this module
(``SANQI_EXE=<9fcd92a's sanqi> python tests/test_records_stable.py``) and which the branch house4 (main at
26d13a2 with the Rule rows of the time manager) reproduced byte for byte. Xiangqi plays with ``usenn``
off: the net went on by default after 9fcd92a (a strength change, not house work), and the hand-made
evaluation is what both sides of that comparison share. Gomoku's turns are 60 s so that ``max_depth`` and
``max_node`` bound every search: the tightest time limit left is the threat search's own 2 s for its
500 nodes.
"""

import json
import pathlib
import re
import subprocess
import sys
from typing import Callable

import pytest

from conftest import DATA, sanqi_command

GOLDEN = DATA / "records_stable"

XIANGQI = ["match", "--game", "xiangqi", "--engine", "cmd=sanqi", "name=a", "--engine", "cmd=sanqi", "name=b",
           "--each", "depth=2", "option.usenn=false", "--games", "2", "--max-plies", "30", "--seed", "7",
           "--random-openings", "--records", "records"]
GOMOKU = ["match", "--game", "gomoku", "--engine", "cmd=sanqi", "proto=gomocup", "name=a", "option.max_depth=2",
          "option.max_node=500", "--engine", "cmd=baseline", "proto=builtin", "name=b", "--games", "2",
          "--turn-ms", "60000", "--match-ms", "0", "--seed", "7", "--random-openings", "--records", "records"]


def junqi(variant: str) -> list[str]:
    return ["referee", "--variant", variant, "random", "events", "--games", "2", "--seed", "7",
            "--record", "records/games.jsonl", "--quiet"]


RUNS: dict[str, list[str]] = {"xiangqi": XIANGQI, "gomoku": GOMOKU, "junqi-2p": junqi("2p"), "junqi-4p": junqi("4p")}


def junqi_untimed(text: str) -> str:
    lines = []
    for line in text.splitlines():
        record = json.loads(line)
        record.pop("ms", None)  # a step's thinking time
        lines.append(json.dumps(record, sort_keys=True))
    return "\n".join(lines) + "\n"


UNTIMED: dict[str, Callable[[str], str]] = {
    ".pgn": lambda text: re.sub(r'^\[MoveTimes "[^"]*"\]\n', "", text, flags=re.M),
    ".psq": lambda text: re.sub(r"^(-?\d+,-?\d+),\d+$", r"\1", text, flags=re.M),
    ".sgf": lambda text: re.sub(r"C\[\d+ms\]", "", text),
    ".jsonl": junqi_untimed,
}


def untimed(name: str, text: str) -> str:
    """A record's text without the times it carries.

    >>> untimed("g.psq", "Piskvorky 15x15, 11:11, 1\\n8,8,0\\n9,9,1250\\n")
    'Piskvorky 15x15, 11:11, 1\\n8,8\\n9,9\\n'
    """
    return UNTIMED[pathlib.Path(name).suffix](text)


def recorded(run: str, workdir: pathlib.Path) -> dict[str, str]:
    """Each record file the run writes, by name, its times stripped."""
    (workdir / "records").mkdir()
    subprocess.run(sanqi_command() + RUNS[run], cwd=workdir, check=True, timeout=600,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return {p.name: untimed(p.name, p.read_text()) for p in sorted((workdir / "records").iterdir())}


@pytest.mark.parametrize("run", RUNS)
def test_a_seeded_run_records_what_9fcd92a_recorded(run: str, tmp_path: pathlib.Path) -> None:
    golden = {p.name: p.read_text() for p in sorted((GOLDEN / run).iterdir())}
    assert golden and recorded(run, tmp_path) == golden


if __name__ == "__main__":  # writes the golden files with the sanqi that sanqi_command() finds
    import tempfile

    for name in RUNS:
        with tempfile.TemporaryDirectory() as tmp:
            files = recorded(name, pathlib.Path(tmp))
        (GOLDEN / name).mkdir(parents=True, exist_ok=True)
        for file, text in files.items():
            (GOLDEN / name / file).write_text(text)
        print(name, ", ".join(files), file=sys.stderr)
