"""The evaluation's terms read like the rules: a flag is worth attacking by how near the attackers
are, an unshown flag half as much, and a marshal is worth what its death would show."""

from junqi_protocol.board import Board
from junqi_protocol.evaluate import ATTACK, CLEARED, HIDDEN, VALUE, square_tables
from junqi_protocol.paths import distances
from junqi_protocol.position import Position, zobrist_keys
from junqi_protocol.rules import BOMB, ENGINEER, FLAG, GENERAL, MARSHAL, MINE


def _board_with(pieces):
    board = Board("2p")
    owner, kind = [-1] * board.size, [-1] * board.size
    for name, seat, k in pieces:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    return board, owner, kind


def test_an_unshown_flag_gives_its_attackers_a_fraction_of_the_bonus():
    shown = [("A1", 1, FLAG), ("K0", 0, GENERAL)]
    board, owner, kind = _board_with(shown)
    d = distances(board, owner, [board.point("A1")], False)[board.point("K0")]
    full = square_tables(board, owner, kind, [True, True]).path[0][0][board.point("K0")]
    board, owner, kind = _board_with(shown + [("A3", 1, MARSHAL)])
    hidden = square_tables(board, owner, kind, [True, True])
    assert full == ATTACK[d] > 0
    assert hidden.path[0][0][board.point("K0")] == ATTACK[d] // HIDDEN
    assert hidden.reveal == [0, ATTACK[d] - ATTACK[d] // HIDDEN]


def test_losing_the_marshal_costs_its_material_and_what_showing_the_flag_gives_the_enemy():
    board, owner, kind = _board_with([("A1", 1, FLAG), ("K0", 0, GENERAL), ("C2", 1, MARSHAL), ("D2", 0, BOMB),
                                      ("L1", 0, FLAG), ("L3", 0, MARSHAL)])
    pos = Position(board, owner, kind, [True, True], 0, 0, 31, True, zobrist_keys(board))
    reveal = pos.tables.reveal[1]
    marshal_place = pos.tables.path[1][0][board.point("C2")]
    assert reveal > 0
    before = pos.score[1]
    pos.make(pos.move_of(board.point("D2"), board.point("C2")))  # the bomb takes the marshal with it
    assert before - pos.score[1] == VALUE[MARSHAL] + reveal + marshal_place


def _walled_flag(extra, alive, walls=True):
    """Four players: E's flag on E51 and W's on W51, each behind mines on its three neighbours (E's
    only with ``walls``); our general on S04. The owners, and the pull on the general."""
    board = Board("4p")
    owner, kind = [-1] * board.size, [-1] * board.size
    mines = [("E41", 1, MINE), ("E50", 1, MINE), ("E52", 1, MINE)] if walls else []
    for name, seat, k in [("E51", 1, FLAG), ("S04", 0, GENERAL), ("S51", 0, FLAG), ("N51", 2, FLAG), ("W51", 3, FLAG),
                          ("W41", 3, MINE), ("W50", 3, MINE), ("W52", 3, MINE)] + mines + extra:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    return owner, square_tables(board, owner, kind, alive).path[0][0][board.point("S04")]


def test_once_a_seat_is_out_a_team_with_a_mine_clearer_marches_on_a_mined_flag():
    board = Board("4p")
    one_short = [True, True, True, False]
    assert _walled_flag([], one_short)[1] == 0  # no mover but an engineer crosses a mine, and we have none
    assert _walled_flag([("S40", 0, ENGINEER)], [True] * 4)[1] == 0  # level teams: as before
    for clearer in (ENGINEER, BOMB):
        pull = _walled_flag([("S40", 0, clearer)], one_short)[1]
        owner = _walled_flag([("S40", 0, clearer)], one_short, walls=False)[0]
        free = distances(board, owner, [board.point("E51")], False)[board.point("S04")]  # the mines taken away
        assert pull == ATTACK[free + CLEARED] > 0  # E's marshal is gone: its flag is shown
