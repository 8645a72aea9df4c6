"""Junqi geometry: counts, rail lines and corner arcs, and moves on hand-built positions."""

import pytest

from junqi_protocol.board import Board
from junqi_protocol.game import Pieces
from junqi_protocol.rules import BOMB, ENGINEER, FLAG, GENERAL, MINE, PLATOON, targets


def position(variant: str, pieces: dict[str, tuple[str, int]]) -> tuple[Board, Pieces]:
    """A board holding only ``pieces``: point name → (seat letter, kind)."""
    board = Board(variant)
    pos = Pieces(board)
    for name, (seat, kind) in pieces.items():
        p = board.point(name)
        pos.owner[p] = board.letters.index(seat)
        pos.kind[p] = kind
        pos.tag[p] = p
    return board, pos


def reach(variant: str, at: str, kind: int, others: dict[str, tuple[str, int]] | None = None, seat: str = "S") -> set[str]:
    board, pos = position(variant, {at: (seat, kind), **(others or {})})
    return {board.names[q] for q in targets(board, pos.owner, pos.kind, board.point(at))}


@pytest.mark.parametrize("variant,points,stations,camps,hqs", [("4p", 129, 73, 20, 8), ("2p", 60, 32, 10, 4)])
def test_counts(variant, points, stations, camps, hqs):
    b = Board(variant)
    assert (b.size, sum(b.station), sum(b.camp), sum(b.hq)) == (points, stations, camps, hqs)
    for seat in range(b.seats):
        home = [p for p in range(b.size) if b.seat_of[p] == seat]
        assert len(home) == 30
        assert sum(b.station[p] for p in home) == 16
        assert {b.names[p][1:] for p in home if b.camp[p]} >= {"11", "13", "22", "31", "33"} or variant == "2p"
    assert len(set(b.names)) == b.size


def test_four_player_lines():
    b = Board("4p")
    lengths = sorted(len(line) for line in b.lines)
    # Rows 0 and 4 of four homes, two middle lines, four arcs, four long lines.
    assert lengths == [5] * 10 + [10] * 4 + [13] * 4
    names = [[b.names[p] for p in line] for line in b.lines]
    assert ["N40", "N30", "N20", "N10", "N00", "C22", "C12", "C02", "S04", "S14", "S24", "S34", "S44"] in [n[::-1] for n in names] + names
    assert ["S02", "C01", "C11", "C21", "N02"] in [n[::-1] for n in names] + names
    assert ["W02", "C10", "C11", "C12", "E02"] in [n[::-1] for n in names] + names


@pytest.mark.parametrize("d", range(4))
def test_every_corner_arc(d):
    b = Board("4p")
    s, t = "SENW"[d], "SENW"[(d + 1) % 4]
    arc = [f"{s}{r}4" for r in range(4, -1, -1)] + [f"{t}{r}0" for r in range(5)]
    assert arc in [[b.names[p] for p in line] for line in b.lines]
    # Any piece may ride the whole arc, and it is one rail step between the two corners.
    assert f"{t}40" in reach("4p", f"{s}44", GENERAL, seat=s)
    assert b.point(f"{t}00") in b.rail_next[b.point(f"{s}04")]


def test_general_on_empty_four_player_board():
    got = reach("4p", "S40", GENERAL)
    rows = {"S41", "S42", "S43", "S44"}
    column = {"S30", "S20", "S10", "S00", "C00", "C10", "C20", "N04", "N14", "N24", "N34", "N44"}
    arc = {"W04", "W14", "W24", "W34", "W44"}
    assert got == rows | column | arc | {"S50", "S31"}


def test_railway_blocked_and_attack():
    others = {"S20": ("S", PLATOON), "S43": ("E", PLATOON)}
    got = reach("4p", "S40", GENERAL, others)
    assert "S30" in got and "S20" not in got and "S10" not in got  # own piece blocks, cannot be taken
    assert "S43" in got and "S44" not in got  # an enemy on the line can be attacked, not passed
    assert not {"W04", "W14"} & got  # the arc lies beyond the block
    got = reach("4p", "S40", GENERAL, {"W24": ("N", PLATOON)})
    assert "W14" in got and "W24" not in got and "W34" not in got  # an ally on the arc blocks


def test_engineer_turns_corners():
    b = Board("4p")
    got = reach("4p", "S40", ENGINEER)
    stations = {b.names[p] for p in range(b.size) if b.station[p]} - {"S40"}
    assert got == stations | {"S50", "S31"}
    walled = reach("4p", "S00", ENGINEER, {"S01": ("S", PLATOON), "S10": ("S", PLATOON), "C00": ("N", PLATOON), "W04": ("E", PLATOON)})
    assert walled == {"W04", "S11"}


def test_two_player_moves():
    got = reach("2p", "G0", GENERAL)
    assert got == {"F0", "E0", "D0", "C0", "B0", "G1", "G2", "G3", "G4", "H0", "I0", "J0", "K0", "H1"}
    assert "F1" not in reach("2p", "G1", GENERAL)  # the mountain
    assert "F2" in reach("2p", "G2", GENERAL) and "E2" not in reach("2p", "G2", GENERAL)
    b = Board("2p")
    eng = reach("2p", "K4", ENGINEER, {"G2": ("S", PLATOON), "F1": ("N", PLATOON)})
    assert "G2" not in eng and "F1" in eng and "F2" in eng and "B2" in eng and "G1" in eng and "G3" in eng
    assert "F0" in eng  # round the back via column 0, though F1 blocks the direct way along row F
    assert eng >= {b.names[p] for p in range(b.size) if b.station[p]} - {"K4", "G2", "F2"}


def test_camps_headquarters_immobile_and_allies():
    assert "H1" not in reach("2p", "G1", GENERAL, {"H1": ("N", PLATOON)})  # camps cannot be attacked
    assert "H1" in reach("2p", "G1", GENERAL)  # but may be entered
    assert reach("2p", "L1", GENERAL) == set()  # nothing leaves a headquarters
    assert reach("2p", "K0", MINE) == set() and reach("2p", "L3", FLAG) == set()
    assert reach("2p", "H0", BOMB) == {"G0", "F0", "E0", "D0", "C0", "B0", "I0", "J0", "K0", "H1"}
    assert "C01" not in reach("4p", "C00", GENERAL, {"C01": ("N", PLATOON)})  # allies cannot be attacked
    assert "C01" in reach("4p", "C00", GENERAL, {"C01": ("E", PLATOON)})
