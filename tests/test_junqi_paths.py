"""The shortest path to a flag on the real board equals a breadth-first search over legal moves."""

import random

import pytest

from junqi_protocol.board import Board
from junqi_protocol.paths import FAR, TOLL, distances
from junqi_protocol.rules import ENGINEER, FLAG, GENERAL, targets


def brute_force(board, owner, kind, p, target):
    """Moves of the piece on ``p`` alone to reach ``target``: legal moves onto empty points, then
    the attack on the target."""
    seat, k = owner[p], kind[p]
    base_owner, base_kind = list(owner), list(kind)
    base_owner[p], base_kind[p] = -1, -1
    dist = {p: 0}
    frontier = [p]
    while frontier:
        nxt = []
        for x in frontier:
            own, kin = list(base_owner), list(base_kind)
            own[x], kin[x] = seat, k
            for q in targets(board, own, kin, x):
                if q == target:
                    return dist[x] + 1
                if own[q] < 0 and q not in dist:
                    dist[q] = dist[x] + 1
                    nxt.append(q)
        frontier = nxt
    return FAR


def random_position(board, rng, pieces):
    owner, kind = [-1] * board.size, [-1] * board.size
    enemy = board.seats - 1 if board.seats == 2 else 1
    target = rng.choice([p for p in range(board.size) if board.hq[p] and board.seat_of[p] == enemy])
    owner[target], kind[target] = enemy, FLAG
    for p in rng.sample([p for p in range(board.size) if p != target and not board.hq[p]], pieces):
        owner[p] = rng.randrange(board.seats)
        kind[p] = rng.choice((GENERAL, ENGINEER, 6, 9))
    return owner, kind, target


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_distance_equals_brute_force(variant):
    board = Board(variant)
    rng = random.Random(7)
    compared = reached = 0
    for _ in range(25):
        owner, kind, target = random_position(board, rng, rng.randrange(5, 40))
        team = board.team(owner[target])
        for engineer in (False, True):
            dist = distances(board, owner, [target], engineer)
            for p in range(board.size):
                if owner[p] < 0 or board.team(owner[p]) == team or kind[p] not in (ENGINEER, GENERAL):
                    continue
                if (kind[p] == ENGINEER) != engineer:
                    continue
                want = brute_force(board, owner, kind, p, target)
                assert dist[p] == want, (board.names[p], board.names[target], engineer)
                compared += 1
                reached += want < FAR
    assert compared > 100 and reached > 30


def test_distance_to_the_nearest_of_several_flags_is_the_least_of_their_distances():
    board = Board("4p")
    rng = random.Random(3)
    for _ in range(20):
        owner, kind, target = random_position(board, rng, rng.randrange(5, 60))
        other = rng.choice([p for p in range(board.size) if board.hq[p] and board.seat_of[p] == 3])
        owner[other], kind[other] = 3, FLAG
        for engineer in (False, True):
            one, two = distances(board, owner, [target], engineer), distances(board, owner, [other], engineer)
            assert distances(board, owner, [target, other], engineer) == [min(a, b) for a, b in zip(one, two)]


def test_rails_and_engineer_turns():
    board = Board("2p")
    owner = [-1] * board.size
    target = board.point("A1")
    owner[target] = 1
    general = distances(board, owner, [target], False)
    engineer = distances(board, owner, [target], True)
    assert general[board.point("K0")] == 3  # up the left rail, along row B, into A1
    assert engineer[board.point("K0")] == 2  # the engineer turns at B0 in the same run
    owner[board.point("F0")] = 0  # a piece of our own on the rail blocks the run
    assert distances(board, owner, [target], False)[board.point("K0")] > 3


def test_a_guard_the_mover_may_take_is_passed_at_a_toll():
    board = Board("2p")
    owner = [-1] * board.size
    flag = board.point("A1")
    for name in ("A1", "A0", "A2", "B1"):  # the flag and its three guards
        owner[board.point(name)] = 1
    assert distances(board, owner, [flag], False)[board.point("K0")] == FAR
    through = [p == board.point("B1") for p in range(board.size)]
    dist = distances(board, owner, [flag], False, through)
    # Up the rail to B0, take the guard on B1, then the flag: three moves and the toll.
    assert dist[board.point("K0")] == 3 + TOLL
    assert dist[board.point("B0")] == 2 + TOLL


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_passing_through_only_ever_shortens_paths(variant):
    board = Board(variant)
    rng = random.Random(11)
    for _ in range(20):
        owner, _, target = random_position(board, rng, rng.randrange(5, 50))
        team = board.team(owner[target])
        through = [owner[p] >= 0 and board.team(owner[p]) == team and p != target for p in range(board.size)]
        for engineer in (False, True):
            blocked = distances(board, owner, [target], engineer)
            assert distances(board, owner, [target], engineer, [False] * board.size) == blocked
            passed = distances(board, owner, [target], engineer, through)
            assert all(a <= b for a, b in zip(passed, blocked))
