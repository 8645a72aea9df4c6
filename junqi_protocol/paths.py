"""Shortest paths to the nearest of some targets (enemy flags) on the real board, in moves of one
piece.

Every other piece stays where it is and blocks: a rail run goes through empty points only, the
engineer may turn at any rail junction, nothing leaves a headquarters, and the only attack is the
last move, onto the target. One breadth-first search from the target answers every point at once
(road steps and rail runs are the same backwards), for the two kinds of mover: engineers and the
rest. Mines and flags never move; their distance is for the caller to ignore.

>>> from junqi_protocol.board import Board
>>> b = Board("2p")
>>> owner = [-1] * b.size
>>> owner[b.point("A1")] = 1
>>> d = distances(b, owner, [b.point("A1")], False)
>>> d[b.point("K0")], d[b.point("B1")], d[b.point("L0")]
(3, 1, 4)
"""

from typing import Final

from junqi_protocol.board import Board
from junqi_protocol.rules import rail_reach

FAR: Final = 99


def distances(board: Board, owner: list[int], targets: list[int], engineer: bool) -> list[int]:
    """Moves a piece on each point needs to reach the nearest of ``targets`` (FAR if it cannot); an
    occupied point is answered for the piece on it but blocks every other path."""
    dist = [FAR] * board.size
    for t in targets:
        dist[t] = 0
    frontier = list(targets)
    while frontier:
        nxt: list[int] = []
        for a in frontier:
            d = dist[a] + 1
            for q in _one_move_back(board, owner, a, engineer):
                if dist[q] == FAR and not board.hq[q]:
                    dist[q] = d
                    if owner[q] < 0:
                        nxt.append(q)
        frontier = nxt
    return dist


def _one_move_back(board: Board, owner: list[int], a: int, engineer: bool) -> list[int]:
    """Points from which one move reaches ``a`` through empty points (occupied ones included as
    starts)."""
    out = list(board.steps[a])
    if board.station[a]:
        out += rail_reach(board, owner, a, engineer)
    return out
