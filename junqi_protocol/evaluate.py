"""Junqi evaluation terms: what a piece is worth, and where.

A piece's score is its material plus, for a piece that can move, a bonus that grows as its real
shortest path (:mod:`junqi_protocol.paths`, on the occupancy at the root of the search) to the
nearest enemy flag shrinks; the same bonus on the enemy's side is our flag's danger, so mines,
guards and blocked rails in front of a flag count through the paths they lengthen. A piece in a
camp, where it cannot be attacked, earns a little. The position adds these up incrementally.

>>> from junqi_protocol.board import Board
>>> b = Board("2p")
>>> owner, kind = [-1] * b.size, [-1] * b.size
>>> owner[b.point("A1")], kind[b.point("A1")] = 1, 11
>>> owner[b.point("K0")], kind[b.point("K0")] = 0, 1
>>> t = square_tables(b, owner, kind, [True, True])
>>> piece_score(b, t, 0, 1, b.point("B1")), piece_score(b, t, 0, 1, b.point("K0"))
(610, 510)
"""

from typing import Final

from junqi_protocol.board import Board
from junqi_protocol.paths import FAR, distances
from junqi_protocol.rules import ENGINEER, FLAG, MINE

# Material by kind a..l. The flag is worth nothing as material: losing it loses the whole army.
VALUE: Final[list[int]] = [600, 450, 330, 240, 180, 130, 80, 55, 120, 90, 250, 0]
# Bonus of a mover by its distance (in moves) to the nearest enemy flag.
ATTACK: Final[list[int]] = [0, 160, 90, 60, 45, 34, 26, 20, 15, 11, 8, 6, 4, 3, 2, 1] + [0] * (FAR + 1 - 16)
CAMP: Final = 12
MOBILE: Final = 0
ENGINEERS: Final = 1


def mover_class(kind: int) -> int:
    """Which path table a kind uses; -1 for the pieces that never move."""
    if kind == MINE or kind == FLAG:
        return -1
    return ENGINEERS if kind == ENGINEER else MOBILE


def square_tables(board: Board, owner: list[int], kind: list[int], alive: list[bool]) -> list[list[list[int]]]:
    """Per seat and mover class, the path bonus of each point towards the enemies' flags."""
    flags = [-1] * board.seats
    for p in range(board.size):
        if owner[p] >= 0 and kind[p] == FLAG:
            flags[owner[p]] = p
    by_team: dict[int, list[list[int]]] = {}
    for seat in range(board.seats):
        team = board.team(seat)
        if team in by_team:
            continue
        targets = [flags[e] for e in range(board.seats) if alive[e] and flags[e] >= 0 and board.team(e) != team]
        # One search from all the enemy flags at once gives the distance to the nearest.
        per = [[ATTACK[d] for d in distances(board, owner, targets, engineer)] for engineer in (False, True)]
        by_team[team] = per
    return [by_team[board.team(seat)] for seat in range(board.seats)]


def piece_score(board: Board, tables: list[list[list[int]]], seat: int, kind: int, p: int) -> int:
    """Everything one piece adds to its team's score."""
    score = VALUE[kind]
    cls = mover_class(kind)
    if cls >= 0:
        score += tables[seat][cls][p]
        if board.camp[p]:
            score += CAMP
    return score
