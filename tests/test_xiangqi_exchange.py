"""A quiet move loses when the piece it moves can be won on its new square (the search skips such
moves near the leaves); a move to a square the other side cannot take on with profit does not."""

import pytest

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
