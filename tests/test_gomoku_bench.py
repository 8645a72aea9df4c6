"""``sanqi bench gomoku --depth``: fixed-depth searches give the same trees on every run."""

import re

from gomoku_protocol import bench


def test_fixed_depth_searches_repeat_exactly(capsys) -> None:
    runs = []
    for _ in range(2):
        bench.bench_search(0, 3)
        out = capsys.readouterr().out
        trees = re.findall(r"^search (\S+) depth 3: (\d+) nodes, score (-?\d+) pv ([a-o\d ]+);", out, re.M)
        assert len(trees) == len(bench.SEARCH_POSITIONS), out
        assert all(int(nodes) > 0 for _, nodes, _, _ in trees)
        assert re.search(r"^search: \d+ nodes/s overall, \d+ per CPU second$", out, re.M), out
        runs.append(trees)
    assert runs[0] == runs[1]
