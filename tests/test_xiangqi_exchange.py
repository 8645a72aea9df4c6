"""A quiet move loses when the piece it moves can be won on its new square (the search skips such
moves near the leaves); a move to a square the other side cannot take on with profit does not."""

import pytest

from conftest import random_games
from ucci_engine.evaluate import SEE_VALUE, exchange, exchange_loses, least_attacker
from ucci_engine.position import Position
from ucci_engine.tables import parse_move

OPENING = "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3"


@pytest.mark.parametrize("fen,move,loses", [
    (OPENING, "a0b0", True),  # the cannon on b7 jumps the red cannon on b2 and takes the rook
    (OPENING, "a0a1", False),
    ("3k5/9/9/9/9/9/4p4/9/4N4/5K3 w", "e1d3", True),  # a crossed pawn on e3 takes sideways
    ("3k5/9/9/9/9/9/4p4/9/4N4/5K3 w", "e1c2", False),
    ("3k5/3r5/9/9/9/9/9/9/4N4/5K3 w", "e1d3", True),  # the rook on d8 takes an unguarded horse
    ("3k5/3r5/9/9/9/9/R8/9/4N4/5K3 w", "e1d3", False),  # guarded by the rook on a3: rook for horse does not pay
])
def test_a_quiet_move_loses_only_when_its_piece_can_be_won(fen: str, move: str, loses: bool) -> None:
    assert Position.from_fen(fen).quiet_loses(parse_move(move)) is loses


def test_the_king_never_counts_as_losing() -> None:
    # A king move into an attack is illegal, not a loss of material: make() refuses it.
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K1r2 w")
    assert pos.quiet_loses(parse_move("e0f0")) is False


def swap_list_exchange(board: list[int], move: int) -> int:
    """The textbook static exchange: every recapture played out, then the gains folded from the back."""
    board = board[:]
    frm, to = move >> 7, move & 127
    gains = [SEE_VALUE[board[to] & 7]]
    board[to], board[frm] = board[frm], 0
    side = (board[to] >> 3) ^ 1
    while (at := least_attacker(board, to, side)) >= 0:
        gains.append(SEE_VALUE[board[to] & 7] - gains[-1])
        board[to], board[at] = board[at], 0
        side ^= 1
    for i in range(len(gains) - 1, 0, -1):
        gains[i - 1] = min(gains[i - 1], -gains[i])
    return gains[0]


def test_exchange_matches_the_swap_list_and_leaves_the_board_as_it_was() -> None:
    checked = 0
    for pos, _ in random_games(7, 20, 120):
        before = pos.board[:]
        for m in pos.moves():
            value = swap_list_exchange(pos.board, m)
            assert exchange(pos.board, m) == value, (pos.fen(), m)
            assert exchange_loses(pos.board, m) is (value < 0), (pos.fen(), m)
            assert pos.board == before
            checked += 1
    assert checked > 20000
