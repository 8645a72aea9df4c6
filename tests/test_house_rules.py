"""Issue 63's code checks ("one house"), read from the sources so that a change that undoes one fails.

* No stopwatch in a game's seats or referee: the core's ``play()`` (engine_core/referee.py) times every ask.
* The time manager's old per-game entry points are gone from the code and the pages that describe it
  (docs/results/ keeps its dated history, which names the code measured then).
* One class each named ``Result``, ``Seat`` and ``BuiltinSeat`` in the four packages.
* Junqi's referee holds the rules only (its runner, seating and command line live beside it), and its
  Engine refuses bad input with the core's Refusal, not a ValueError.
* The time manager reads its rule's row and compares no rule's name.
"""

import ast
import re
from collections import Counter

from conftest import ROOT
from test_imports import PACKAGES, sources

GAMES = ("ucci_engine", "gomoku_protocol", "junqi_protocol")


def source(module: str) -> str:
    return sources()[module].read_text(encoding="utf-8")


def test_no_game_seat_or_referee_reads_a_clock() -> None:
    checked = [m for m in sources() if m.startswith(GAMES) and m.endswith((".seats", ".referee"))]
    assert len(checked) == 2 * len(GAMES), checked
    assert {m: re.findall(r"perf_counter|monotonic", source(m)) for m in checked} == {m: [] for m in checked}


def test_the_old_time_entry_points_are_gone() -> None:
    pages = [p for p in (ROOT / "docs").rglob("*.md") if "results" not in p.parts]
    files = [*sources().values(), *pages, *(ROOT / "tests").rglob("*.py")]
    old = re.compile(r"\b(game|share|turn)_limits\b")
    assert [str(p) for p in files if old.search(p.read_text(encoding="utf-8"))] == []


def test_one_class_of_each_shared_name() -> None:
    names = Counter(node.name for path in sources().values()
                    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef))
    assert {name: names[name] for name in ("Result", "Seat", "BuiltinSeat")} == {"Result": 1, "Seat": 1, "BuiltinSeat": 1}
    assert len({m.partition(".")[0] for m in sources()}) == len(PACKAGES)


def test_junqi_referee_is_the_rules_only_and_its_engine_raises_no_value_error() -> None:
    assert len(source("junqi_protocol.referee").splitlines()) <= 350
    assert "raise ValueError" not in source("junqi_protocol.engine")


def test_the_time_manager_compares_no_rule_name() -> None:
    text = source("engine_core.timeman")
    assert re.findall(r"rule [!=]= |== (INCREMENT|SHARE|TURN)\b|PLANS", text) == []
