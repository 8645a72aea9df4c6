"""The mypyc-compiled and the pure-Python build compute the same things.

Perft counts, best lines at a fixed depth (move, score and node count: the trees must be identical,
not just the answers), renju forbidden points and Junqi's determinized search (move and node count
at a fixed depth). The pure-Python build is the source tree; the
compiled one is the installed package (``pip install .``). Each runs this file as a script in its
own interpreter and prints what it computed as JSON; the tests compare the two. When the installed
package is not compiled (an editable install, ``SANQI_PURE=1``, a failed compile) they skip and say
so; a game that is not there yet skips its own comparisons.
"""

import json
import os
import pathlib
import subprocess
import sys
from typing import Any, Callable

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
XIANGQI_DEPTH = 4
GOMOKU_DEPTH = 3
JUNQI_DEPTH = 2
JUNQI_POSITIONS = 2


# --- the probe: runs in a child interpreter, against whichever build it imports ------------------


def xiangqi_fens() -> dict[str, str]:
    """The reference perft positions (each a different phase of the game)."""
    fens = {}
    for line in (DATA / "xiangqi" / "perft.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, fen = line.split("\t")[:2]
            fens[name] = fen
    return fens


def probe_xiangqi_perft() -> dict[str, list[int]]:
    from ucci_engine.position import Position

    return {name: [Position.from_fen(fen).perft(d) for d in (1, 2, 3)] for name, fen in xiangqi_fens().items()}


def best_line(pos: Any, depth: int) -> list[Any]:
    from engine_core.search import Limits, Searcher
    from engine_core.tt import TransTable

    searcher = Searcher(TransTable(8))
    limits = Limits()
    limits.depth = depth
    line = searcher.think(pos, limits)[0]
    return [pos.move_name(m) for m in line.pv] + [line.score, searcher.nodes]


def probe_xiangqi_search() -> dict[str, list[Any]]:
    from ucci_engine.position import Position

    return {name: best_line(Position.from_fen(fen), XIANGQI_DEPTH) for name, fen in xiangqi_fens().items()}


def renju_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / "gomoku" / "renju_forbidden.json").read_text())["cases"]
    return cases


def renju_board(case: dict[str, Any]) -> Any:
    from gomoku_protocol.position import Position
    from gomoku_protocol.rules import BLACK, WHITE

    board = Position(15, 15, 4)  # Gomocup rule 4: renju
    for x, y in case["black"]:
        board.place(board.index(x, y), BLACK)
    for x, y in case["white"]:
        board.place(board.index(x, y), WHITE)
    board.side = BLACK
    return board


def probe_renju_forbidden() -> list[dict[str, int]]:
    points = []
    for case in renju_cases():
        board = renju_board(case)
        points.append({board.name(i): board.forbidden(i) for i in board.points if board.cells[i] == 0 and board.forbidden(i)})
    return points


def probe_gomoku_search() -> list[list[Any]]:
    return [best_line(renju_board(case), GOMOKU_DEPTH) for case in renju_cases()]


def probe_xiangqi_search_nn() -> dict[str, list[Any]]:
    """The same searches with the learned evaluation (the UseNN option) added to the hand-made one."""
    from ucci_engine.evaluate import load_network
    from ucci_engine.position import Position

    net = load_network()
    return {name: best_line(Position.from_fen(fen, net=net), XIANGQI_DEPTH) for name, fen in xiangqi_fens().items()}


def probe_xiangqi_noise() -> dict[str, list[int]]:
    """The evaluation with noise (the skill and randomness options), every position of a line from each perft position:
    compiled, the key is a native int, and the noise's product of it outgrows 64 bits."""
    from ucci_engine.position import Position

    scores = {}
    for name, fen in xiangqi_fens().items():
        pos = Position.from_fen(fen)
        pos.noise, pos.salt = 120, 987654321
        line = []
        for _ in range(12):
            line.append(pos.evaluate())
            moves = pos.legal_moves()
            if not moves:
                break
            pos.make(moves[len(moves) // 2])
        scores[name] = line
    return scores


def probe_junqi_search() -> dict[str, list[Any]]:
    """The determinized search's first move in dealt games, each variant: move, nodes, depth."""
    from junqi_protocol.bench import first_move

    return {f"{variant} {n}": list(first_move(variant, n, 0, JUNQI_DEPTH)[:3])
            for variant in ("2p", "4p") for n in range(JUNQI_POSITIONS)}


PROBES: dict[str, Callable[[], Any]] = {
    "xiangqi_perft": probe_xiangqi_perft,
    "xiangqi_search": probe_xiangqi_search,
    "xiangqi_search_nn": probe_xiangqi_search_nn,
    "xiangqi_noise": probe_xiangqi_noise,
    "renju_forbidden": probe_renju_forbidden,
    "gomoku_search": probe_gomoku_search,
    "junqi_search": probe_junqi_search,
}


def probe() -> dict[str, Any]:
    import engine_core
    from engine_core import build_info

    where = str(pathlib.Path(engine_core.__file__).resolve().parent.parent)
    found: dict[str, Any] = {"kind": build_info.build_kind(), "where": where, "missing": {}}
    for name, run in PROBES.items():
        try:
            found[name] = run()
        except ImportError as exc:  # a game not written yet
            found["missing"][name] = str(exc)
    return found


# --- the tests -----------------------------------------------------------------------------------


def run_probe(pure: bool, cwd: pathlib.Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pure:
        env["PYTHONPATH"] = str(ROOT)  # the source tree before site-packages
    done = subprocess.run([sys.executable, __file__], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def stale_files(site: pathlib.Path) -> list[str]:
    """Source files that differ between the tree and the install (which keeps the .py beside each .so)."""
    stale = []
    for package in ("engine_core", "ucci_engine", "gomoku_protocol", "junqi_protocol"):
        for source in sorted((ROOT / package).glob("*.py")):
            copy = site / package / source.name
            if not copy.exists() or copy.read_bytes() != source.read_bytes():
                stale.append(f"{package}/{source.name}")
    return stale


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    # Run from an empty folder so that the installed package, not the source tree, is imported.
    cwd = tmp_path_factory.mktemp("probe")
    installed = run_probe(False, cwd)
    if installed["kind"] != "compiled":
        pytest.skip(f"the installed sanqi is {installed['kind']}: `pip install .` (without SANQI_PURE) to compare")
    stale = stale_files(pathlib.Path(installed["where"]))
    if stale:
        pytest.skip(f"the installed sanqi was built from other sources ({', '.join(stale[:3])}…): `pip install .` again")
    pure = run_probe(True, cwd)
    if pure["kind"] != "pure Python":
        pytest.skip(f"the source tree imports as {pure['kind']} (compiled modules built in place?)")
    return pure, installed


@pytest.mark.parametrize("what", list(PROBES))
def test_compiled_and_pure_python_agree(builds: tuple[dict[str, Any], dict[str, Any]], what: str) -> None:
    pure, compiled = builds
    for side, found in (("pure Python", pure), ("compiled", compiled)):
        if what in found["missing"]:
            pytest.skip(f"{what}: not available in the {side} build ({found['missing'][what]})")
    assert compiled[what] == pure[what]


if __name__ == "__main__":
    json.dump(probe(), sys.stdout)
