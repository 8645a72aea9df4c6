"""Shortest paths to the nearest of some targets (enemy flags) on the real board, in moves of one
piece.

Every other piece stays where it is and blocks, unless the caller lets the mover take it on its
way (at a toll): a rail run goes through empty points only, the engineer may turn at any rail
junction, nothing leaves a headquarters, and the only attack is the last move, onto the target.
One search from the target answers every point at once (road steps and rail runs are the same
backwards), for the two kinds of mover: engineers and the rest. Mines and flags never move; their distance is for the caller to ignore.

>>> from junqi_protocol.board import Board
>>> b = Board("2p")
>>> owner = [-1] * b.size
>>> owner[b.point("A1")] = 1
>>> d = distances(b, owner, [b.point("A1")], False)
>>> d[b.point("K0")], d[b.point("B1")], d[b.point("L0")]
(3, 1, 4)
"""

from typing import Final, Optional

from librt.vecs import vec
from mypy_extensions import i64

from junqi_protocol.board import Board
from junqi_protocol.rules import ALL, add_rails

FAR: Final = 99
# Extra moves a path pays for each piece it takes on the way: the capture is a move, and it shows
# the defenders where the attack comes from.
TOLL: Final = 1


def distances(board: Board, owner: list[int], targets: list[int], engineer: bool,
              through: Optional[list[int]] = None) -> list[int]:
    """Moves a piece on each point needs to reach the nearest of ``targets`` (FAR if it cannot); an
    occupied point is answered for the piece on it but blocks every other path, unless ``through``
    gives it a toll above 0 (a piece the mover may take on its way, usually at :data:`TOLL`; a
    mine a teammate must clear first costs more): then paths go on through it at that many more
    moves."""
    dist = [FAR] * board.size
    for t in targets:
        dist[t] = 0
    # Buckets by distance: a path through a capture is longer than its steps, so plain
    # breadth-first layers would not come out in order.
    buckets: list[list[int]] = [list(targets)]
    # The rail walker's words: the occupancy, kinds it need not know (every piece ends a run), its marks.
    own = vec[i64](owner)
    kinds = vec[i64]([0] * board.size)
    marks = vec[i64]([0] * (2 * board.size + 1))
    d = 0
    while d < len(buckets):
        for a in buckets[d]:
            for q in _one_move_back(board, own, kinds, marks, a, engineer):
                if dist[q] == FAR and not board.hq[q]:
                    dist[q] = d + 1
                    if owner[q] < 0:
                        _push(buckets, d + 1, q)
                    elif through is not None and through[q] > 0:
                        _push(buckets, d + 1 + through[q], q)
        d += 1
    return dist


def _push(buckets: list[list[int]], d: int, p: int) -> None:
    if d < FAR:
        while len(buckets) <= d:
            buckets.append([])
        buckets[d].append(p)


def attackers(board: Board, owner: vec[i64], a: int) -> list[int]:
    """Points from which a piece other than an engineer reaches ``a`` in one move: a road step, or a
    straight rail run over empty points (occupied points included, as the pieces that could)."""
    return _one_move_back(board, owner, vec[i64]([0] * board.size), vec[i64]([0] * (2 * board.size + 1)), a, False)


def _one_move_back(board: Board, owner: vec[i64], kinds: vec[i64], marks: vec[i64], a: int,
                   engineer: bool) -> list[int]:
    """Points from which one move reaches ``a`` through empty points (occupied ones included as
    starts)."""
    out = list(board.steps[a])
    if board.station[a]:
        stamp: i64 = marks[2 * board.size] + 1
        marks[2 * board.size] = stamp
        add_rails(board, owner, kinds, a, engineer, -1, ALL, 1, marks, stamp, out, 0)
    return out
