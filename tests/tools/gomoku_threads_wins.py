"""Which of our own forced wins the brain plays within one turn, by ``thread_num`` (an analysis tool, not a test).

For each position of ``tests/data/gomoku/pela20_wins.txt`` and ``pela15_wins.txt`` (the ones
``tests/tools/gomoku_tss_nodes.py`` lists as ours) it asks the brain for a move, through the engine's
own clock at ``--turn-ms`` a turn and with fresh tables (as ``YXHASHCLEAR`` leaves them), once per
setting of ``--threads``, ``--rounds`` times over, the settings alternating. A line a position and
setting: the move, how it was found, whether it is the start of a proven win, and the nodes of our
root VCT (in the brain at 1, in the worker at 2) with the last iteration those nodes complete ("late": the worker did not answer in time; what a
fresh search needs for each, counted afterwards, so the count does not depend on the machine's load), and
the depth of the alpha-beta's last iteration.
Run from a checkout, compiled build::

    nice -n 19 .venv/bin/python tests/tools/gomoku_threads_wins.py --turn-ms 1000 --rounds 2
"""

import argparse
import os
import sys
import time
from typing import Optional

try:
    import gomoku_protocol  # noqa: F401  (an installed, compiled sanqi first)
except ImportError:  # pragma: no cover - from a bare checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gomoku_protocol import brain as brain_module
from gomoku_protocol.engine import Engine
from gomoku_protocol.fit import board_of
from gomoku_protocol.position import Position
from gomoku_protocol.threats import ThreatSearch, deepening
from gomoku_tss_nodes import rows

ROOT_DEPTHS = (brain_module.VCT_DEPTH, brain_module.WORKER_VCT_DEPTH)


class Counted:
    """A ThreatSearch that keeps the nodes and line of the turn's first root VCT (ours)."""

    def __init__(self, board: Position) -> None:
        self.__dict__["inner"] = ThreatSearch(board)
        self.__dict__["root"] = None

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: object) -> None:
        setattr(self.inner, name, value)

    def vct(self, depth: int, ms: int, nodes: int = 0, leap_from: int = 0, quiet: int = 0) -> Optional[list[int]]:
        line = self.inner.vct(depth, ms, nodes, leap_from, quiet)
        if depth in ROOT_DEPTHS and leap_from and self.root is None:
            self.__dict__["root"] = (self.inner.nodes, line)
        return line


def reached(board: Position, nodes: int, depth: int) -> int:
    """The deepest iteration of a fresh root VCT to ``depth`` that ``nodes`` nodes complete."""
    done = 0
    for limit in deepening(depth, brain_module.VCT_LEAP_FROM):
        ts = ThreatSearch(board)
        line = ts.vct(limit, 10**9, max(1, nodes), brain_module.VCT_LEAP_FROM)
        if ts.stopped:
            break
        done = limit
        if line is not None:
            break
    return done


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--turn-ms", type=int, default=1000, help="INFO timeout_turn")
    p.add_argument("--threads", default="1,2", help="thread_num settings, comma-separated")
    p.add_argument("--rounds", type=int, default=1, help="times each position is asked of each setting")
    args = p.parse_args()
    brain_module.ThreatSearch = Counted  # type: ignore[misc,assignment]
    cases = [(f"{game} {number}", moves, size) for name, size in (("pela20_wins.txt", 20), ("pela15_wins.txt", 15))
             for game, number, moves, _played, _mate in rows(name)]
    settings = [int(t) for t in args.threads.split(",")]
    engines = {}
    for t in settings:
        e = Engine(lambda text: None)
        e.set_turn_time(args.turn_ms)
        e.set_threads(t)
        e.first_move = False
        engines[t] = e
    wins = {t: 0 for t in settings}
    for r in range(args.rounds):
        for name, moves, size in cases:
            for t in settings:
                e = engines[t]
                said: list[str] = []
                e.clear_hash()
                e.position = board = board_of(moves, size)
                e.arrived(0.0)
                soft, hard = e.limits()
                began = time.perf_counter()
                answer = e.brain.think(board, soft, hard, said.append)
                took = int((time.perf_counter() - began) * 1000)
                e.count(time.perf_counter())
                won = answer.score > brain_module.MATE_BOUND
                wins[t] += won
                worker = [line for line in said if line.startswith("second process:")]
                late = bool(worker) and not worker[-1].startswith("second process: VCT")
                if worker and not late:
                    nodes = int(worker[-1].split()[-2])
                    depth = brain_module.WORKER_VCT_DEPTH
                else:
                    threats = e.brain.threats if not worker else None
                    root = threats.root if isinstance(threats, Counted) else None
                    nodes = root[0] if root else 0
                    depth = brain_module.VCT_DEPTH
                iteration = reached(board_of(moves, size), nodes, depth) if nodes else 0
                print(f"round {r + 1} {name:7} thread_num {t}: {board.name(answer.move):4} {answer.how:20} "
                      f"{'WIN' if won else '   '} {'late' if late else '    '} root VCT {nodes:8} nodes, iteration {iteration:2} "
                      f"alpha-beta depth {e.brain.last_depth:2} (soft {soft} hard {hard} took {took} ms)", flush=True)
    for t in settings:
        e = engines[t]
        e.brain.close()
        print(f"thread_num {t}: {wins[t]} wins of {len(cases) * args.rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
