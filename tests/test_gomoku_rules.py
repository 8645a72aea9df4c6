"""Position, patterns and rules: renju forbidden points against the reference, fives under every rule."""

import json

import pytest

from conftest import DATA
from gomoku_protocol import patterns as pt
from gomoku_protocol.position import Position
from gomoku_protocol.record import parse_pos
from gomoku_protocol.rules import BLACK, WHITE, forbidden_kind

FORBIDDEN = json.loads((DATA / "gomoku" / "renju_forbidden.json").read_text())["cases"]


def setup(case: dict, rule: int = 4) -> Position:
    b = Position(15, 15, rule)
    for x, y in case["black"]:
        b.place(b.index(x, y), BLACK)
    for x, y in case["white"]:
        b.place(b.index(x, y), WHITE)
    b.side = BLACK
    return b


def from_pos(text: str, rule: int, size: int = 15) -> Position:
    b = Position(size, size, rule)
    for x, y in parse_pos(text):
        b.play(b.index(x, y), b.side)
    return b


@pytest.mark.parametrize("n", range(len(FORBIDDEN)))
def test_forbidden_points_agree_point_by_point(n: int) -> None:
    case = FORBIDDEN[n]
    b = setup(case)
    got = {}
    for i in b.points:
        if b.cells[i] == 0:
            kind = b.forbidden(i)
            # The pattern pre-filter must never hide a forbidden point the full test would find.
            assert kind == forbidden_kind(b.cells, i, b.dirs), b.name(i)
            if kind:
                x, y = b.xy(i)
                got[f"{x},{y}"] = str(kind)
    assert got == case["forbidden"]


def test_reference_has_sixteen_positions_with_37_forbidden_points() -> None:
    assert len(FORBIDDEN) == 16
    assert sum(len(c["forbidden"]) for c in FORBIDDEN) == 37


def test_forbidden_move_is_rejected_by_make_and_nowhere_else() -> None:
    b = from_pos("h8h9i7i9h10i6i11i12", 4)
    assert b.side == BLACK
    g9 = b.index(6, 8)
    assert b.forbidden(g9) == 3
    assert not b.make(g9)
    assert b.cells[g9] == 0 and b.side == BLACK
    other = from_pos("h8h9i7i9h10i6i11i12", 0)
    assert other.make(other.index(6, 8))


def test_five_points_under_each_rule() -> None:
    # Black h8..k8 with a stone on m8: l8 makes six in a row.
    line = "h8a1i8a3j8a5k8a7m8a9"
    free = from_pos(line, 0)
    exact = from_pos(line, 1)
    renju = from_pos(line, 4)
    l8, g8 = free.index(11, 7), free.index(6, 7)
    assert l8 in free.fives[BLACK] and g8 in free.fives[BLACK]
    assert l8 not in exact.fives[BLACK] and g8 in exact.fives[BLACK]
    assert l8 not in renju.fives[BLACK] and renju.forbidden(l8) == 6


def test_white_wins_with_an_overline_in_renju() -> None:
    b = from_pos("a1h8a3i8a5j8a7k8a9m8", 4)
    assert b.index(11, 7) in b.fives[WHITE]


def test_caro_edge_is_no_block_but_stones_are() -> None:
    # Black a8..d8 along the left edge: e8 makes five touching the edge, which still wins in caro.
    edge = from_pos("a8o1b8o3c8o5d8o7", 9)
    assert edge.index(4, 7) in edge.fives[BLACK]
    # Black c8..f8 between white b8 and h8: g8 makes a five blocked at both ends.
    blocked = from_pos("c8b8d8h8e8o1f8o3", 9)
    assert blocked.index(6, 7) not in blocked.fives[BLACK]
    assert blocked.index(6, 7) in from_pos("c8b8d8h8e8o1f8o3", 0).fives[BLACK]


def test_caro8_overline_wins_caro9_does_not() -> None:
    line = "h8a1i8a3j8a5k8a7m8a9"
    assert from_pos(line, 8).index(11, 7) in from_pos(line, 8).fives[BLACK]
    b9 = from_pos(line, 9)
    assert b9.index(11, 7) not in b9.fives[BLACK]


def test_sizes_and_rectangles() -> None:
    for w, h in ((5, 5), (22, 22), (7, 19)):
        b = Position(w, h, 0)
        assert len(b.points) == w * h
    b = Position(5, 5, 0)
    for x in range(4):
        b.play(b.index(x, 0), BLACK)
        b.play(b.index(x, 4), WHITE)
    assert b.fives[BLACK] == {b.index(4, 0)}
    with pytest.raises(ValueError):
        Position(4, 15, 0)
    with pytest.raises(ValueError):
        Position(15, 23, 0)


def test_unmake_restores_every_table() -> None:
    b = from_pos("h8h9i8i9j7j9", 4)
    snapshot = (list(b.lines), b.attack2, b.defence2, list(zip(b.point_score, b.point_count)), [set(s) for s in b.fives] + [b.fours(c) for c in (BLACK, WHITE)] + [b.threes(c) for c in (BLACK, WHITE)], set(b.cand), b.key())
    for m in list(b.cand)[:10]:
        if b.make(m):
            b.unmake()
    assert snapshot == (list(b.lines), b.attack2, b.defence2, list(zip(b.point_score, b.point_count)), [set(s) for s in b.fives] + [b.fours(c) for c in (BLACK, WHITE)] + [b.threes(c) for c in (BLACK, WHITE)], set(b.cand), b.key())


def test_line_shapes() -> None:
    b = from_pos("h8a1i8a3", 0)  # black h8 i8: g8/j8 give an open three
    j8 = b.index(9, 7)
    assert b.shape(BLACK, 0, j8) == pt.FLEX3
    assert j8 in b.threes(BLACK)
    b = from_pos("h8a1i8a3j8a5", 0)
    assert b.shape(BLACK, 0, b.index(10, 7)) == pt.FLEX4
