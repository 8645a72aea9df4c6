"""The king lines: what the evaluation reads from each king along its file and rank."""

import pytest

from conftest import random_games
from ucci_engine.evaluate import KING_TERMS, king_lines, king_terms, weighed_side_lines
from ucci_engine.position import UNKNOWN_LINES, Position
from ucci_engine.tables import move_name
from ucci_engine.tune import TERM_NAMES, terms

HOLLOW, RANK, TWO_SCREENS, ROOK_SCREEN = range(KING_TERMS)


def lines(fen: str) -> list[int]:
    pos = Position.from_fen(fen)
    return king_terms(pos.board, pos.kings)


def test_the_king_lines_are_the_first_terms_the_tuner_sees() -> None:
    assert TERM_NAMES[:KING_TERMS] == ["hollow cannon", "cannon on the king's rank", "cannon behind two screens",
                                       "rook behind one screen"]
    pos = Position.from_fen("4k4/9/9/9/9/9/9/4C4/9/3K5 w")
    assert terms(pos.board, pos.pieces, pos.kings)[:KING_TERMS] == lines("4k4/9/9/9/9/9/9/4C4/9/3K5 w")


def test_a_cannon_facing_the_king_down_an_empty_file_is_a_hollow_cannon() -> None:
    assert lines("4k4/9/9/9/9/9/9/4C4/9/3K5 w")[HOLLOW] == 1  # red's cannon against black's king
    assert lines("5k3/9/9/9/9/9/9/3c5/9/3K5 w")[HOLLOW] == -1  # black's against red's: counts for black
    assert lines("4k4/9/9/4p4/9/9/9/4C4/9/3K5 b")[HOLLOW] == 0  # a pawn between: the cannon checks, not hollow


def test_a_cannon_on_the_kings_rank_with_nothing_between_counts_apart() -> None:
    assert lines("3k1C3/9/9/9/9/9/9/9/9/5K3 b")[RANK] == 1
    assert lines("3k1C3/9/9/9/9/9/9/9/9/5K3 b")[HOLLOW] == 0


def test_one_screen_from_a_check_counts_the_piece_behind_it() -> None:
    # An advisor and a pawn between cannon and king: move either away and the cannon checks.
    assert lines("4k4/4a4/9/4p4/9/9/9/4C4/9/3K5 w")[TWO_SCREENS] == 1
    # A red advisor between a black rook and the red king on its rank.
    assert lines("3k5/9/9/9/9/9/9/9/9/r2AK4 w")[ROOK_SCREEN] == -1
    # Own pieces behind the screens are no threat.
    assert lines("4k4/4a4/9/4p4/9/9/9/4c4/9/3K5 w") == [0, 0, 0, 0]


def test_the_weighted_sum_is_each_count_times_its_weight() -> None:
    pos = Position.from_fen("4k4/9/9/9/9/9/9/4C4/9/r2AK4 w")
    counts = king_terms(pos.board, pos.kings)
    assert counts == [1, 0, 0, -1]
    weights = [7, 5, 3, 2]
    assert king_lines(pos.board, pos.kings, weights) == sum(c * w for c, w in zip(counts, weights))


def kept_lines(pos: Position) -> list[int]:
    """The king lines the position keeps, red's king's and black's."""
    return [pos.top.red_lines, pos.top.black_lines]


def board_lines(pos: Position) -> list[int]:
    """The king lines of the board, red's king's and black's."""
    return [weighed_side_lines(pos.board, pos.kings[side], side) for side in (0, 1)]


def test_the_king_lines_kept_from_move_to_move_are_those_of_the_board() -> None:
    # A position reuses the last ply's weighed lines of a king when a move leaves that king's file and
    # rank alone: after every move, capture, king move and null move they must be the board's.
    kept = 0
    for pos, moves in random_games(41, 40, 120):
        assert pos.evaluate() == Position.from_fen(pos.fen()).evaluate(), pos.fen()
        for m in moves:
            assert pos.make(m)
            kept += sum(lines != UNKNOWN_LINES for lines in kept_lines(pos))
            pos.evaluate()
            assert kept_lines(pos) == board_lines(pos), (pos.fen(), move_name(m))
            pos.make_null()
            pos.evaluate()
            assert kept_lines(pos) == board_lines(pos), (pos.fen(), move_name(m))
            pos.unmake_null()
            pos.unmake()
    assert kept > 100000


def colours_swapped(fen: str) -> str:
    """The position seen from the other side: ranks in reverse order, each piece the other colour's."""
    board, side = fen.split()[:2]
    return "/".join(row.swapcase() for row in reversed(board.split("/"))) + (" w" if side == "b" else " b")


def test_a_position_and_its_colour_swapped_image_score_the_same_for_the_side_to_move() -> None:
    # Neither colour is favoured by the evaluation: red's edge in xiangqi is the first move, not a bias.
    for pos, _ in random_games(43, 30, 120):
        fen = pos.fen()
        assert Position.from_fen(colours_swapped(fen)).evaluate() == pos.evaluate(), fen


@pytest.mark.parametrize("fen,move", [
    ("3k5/9/9/9/9/4r4/9/4R4/4n4/4K4 w", "e2a2"),  # red's rook leaves its king's file only
    ("4k4/4N4/4r4/9/4R4/9/9/9/9/3K5 b", "e7a7"),  # black's the same
])
def test_a_piece_that_only_leaves_a_kings_file_changes_its_lines(fen: str, move: str) -> None:
    # Behind the rook that leaves, the enemy rook is now one screen from the king.
    pos = Position.from_fen(fen)
    pos.evaluate()
    assert pos.push_name(move)
    pos.evaluate()
    assert kept_lines(pos) == board_lines(pos) != [pos.plies[0].red_lines, pos.plies[0].black_lines]
