"""Every game's ``sanqi bench`` ends with ``Nodes searched: N``, the nodes of its searches: a change that
alters a fixed-depth search shows in that line (as in Stockfish's bench)."""

import re
import subprocess

import pytest

from conftest import sanqi_command


def last_line_nodes(args: list[str]) -> tuple[str, int]:
    done = subprocess.run(sanqi_command() + ["bench", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    found = re.fullmatch(r"Nodes searched: (\d+)", last)
    assert found, last
    return done.stdout, int(found.group(1))


def test_the_xiangqi_bench_ends_with_the_nodes_of_its_fixed_depth_searches() -> None:
    out, nodes = last_line_nodes(["xiangqi", "--depth", "2"])
    each = [int(n) for n in re.findall(r"^  \S+ +(\d+) nodes ", out, re.M)]
    assert len(each) == 8 and nodes == sum(each) > 0, out
    assert last_line_nodes(["xiangqi", "--depth", "2"])[1] == nodes  # the same tree on every run


def test_the_gomoku_bench_ends_with_the_nodes_of_its_searches() -> None:
    out, nodes = last_line_nodes(["gomoku", "--depth", "2", "--repeat", "1"])
    each = [int(n) for n in re.findall(r"^search \S+ depth 2: (\d+) nodes", out, re.M)]
    assert len(each) == 3 and nodes == sum(each) > 0, out


@pytest.mark.parametrize("args", [["--variant", "2p", "--games", "1", "--positions", "1", "--ms", "50"],
                                  ["--variant", "2p", "--games", "1", "--fit-behaviour"]])
def test_the_junqi_bench_ends_with_the_nodes_of_its_searches(args: list[str]) -> None:
    out, nodes = last_line_nodes(["junqi", *args])
    each = [int(n) for n in re.findall(r"^speed \S+: (\d+) nodes", out, re.M)]
    assert nodes == sum(each), out
    # --fit-behaviour searches nothing; --ms searches (its count may be 0 when a loaded machine gives it no CPU in 50 ms)
    assert bool(each) != ("--fit-behaviour" in args), out


def test_the_junqi_bench_at_a_fixed_depth_searches_the_same_tree_every_run() -> None:
    args = ["junqi", "--variant", "4p", "--games", "1", "--positions", "2", "--depth", "2"]
    out, nodes = last_line_nodes(args)
    assert "root passes reached depth [2, 2]" in out and nodes > 0, out
    assert last_line_nodes(args)[1] == nodes
