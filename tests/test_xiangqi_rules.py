"""The rules of xiangqi that engines get wrong, each as a small position."""

import pytest

from engine_core.game import MATE, NO_SCORE
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from ucci_engine.position import BAN_SCORE, START_FEN, FenError, Position
from ucci_engine.tables import move_name, parse_move


def names(pos: Position) -> set[str]:
    return {move_name(m) for m in pos.legal_moves()}


def play(pos: Position, *moves: str) -> None:
    for m in moves:
        assert pos.push_name(m), m


def test_flying_general_pins_the_only_piece_between_the_kings() -> None:
    pos = Position.from_fen("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1")
    assert not any(m.startswith("e5") for m in names(pos))
    free = Position.from_fen("3k5/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1")
    assert any(m.startswith("e5") for m in names(free))


def test_king_may_not_step_onto_an_open_file_facing_the_other_king() -> None:
    pos = Position.from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert "d0e0" not in names(pos)


def test_horse_leg_and_elephant_eye_block() -> None:
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/1N7/2B1K4 w - - 0 1")
    elephant = {m for m in names(pos) if m.startswith("c0")}
    assert elephant == {"c0e2"}  # the eye b1 of c0a2 is taken by the horse
    pos = Position.from_fen("3k5/9/9/9/9/9/9/1p7/1N7/4K4 w - - 0 1")
    horse = {m for m in names(pos) if m.startswith("b1")}
    assert "b1a3" not in horse and "b1c3" not in horse and "b1d2" in horse


def test_elephant_stays_home_and_advisor_stays_in_palace() -> None:
    pos = Position.from_fen("3k5/9/9/9/9/2B6/9/9/9/3AK4 w - - 0 1")
    assert not {"c4a6", "c4e6"} & names(pos)
    assert names(pos) >= {"c4a2", "c4e2", "d0e1"}
    assert not any(m.startswith("d0") and m != "d0e1" for m in names(pos))


def test_pawns_move_sideways_only_after_crossing_the_river() -> None:
    pos = Position.from_fen("4k4/9/9/9/2P6/4P4/9/9/9/3K5 w - - 0 1")
    assert {m for m in names(pos) if m.startswith("e4")} == {"e4e5"}
    assert {m for m in names(pos) if m.startswith("c5")} == {"c5c6", "c5b5", "c5d5"}


def test_cannon_captures_over_exactly_one_screen() -> None:
    pos = Position.from_fen("4k4/9/9/9/9/p1p2r3/9/9/9/C2K5 w - - 0 1")
    cannon = {m for m in names(pos) if m.startswith("a0")}
    assert "a0a3" in cannon  # empty square before the screen
    assert "a0a4" not in cannon  # the screen itself cannot be taken
    pos = Position.from_fen("4k4/9/9/9/9/C1p2r3/9/9/9/3K5 w - - 0 1")
    cannon = {m for m in names(pos) if m.startswith("a4")}
    assert "a4f4" in cannon and "a4c4" not in cannon and "a4b4" in cannon and "a4d4" not in cannon


def test_stalemate_loses() -> None:
    pos = Position.from_fen("3k5/R8/9/9/4R4/9/9/9/9/5K3 b - - 0 1")
    assert not pos.in_check() and pos.legal_moves() == []
    assert pos.outcome() == "loss"
    assert pos.no_move_score(3) == -MATE + 3


def test_perpetual_check_loses_for_the_checker() -> None:
    pos = Position.from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1")
    play(pos, "a8a9", "e9e8", "a9a8", "e8e9")
    assert pos.rule_score(4) == -BAN_SCORE  # red, to move, checked with every move of the cycle


def test_perpetual_chase_of_one_piece_loses_for_the_chaser() -> None:
    pos = Position.from_fen("3k5/9/9/6r2/9/2N6/9/9/9/5K3 w - - 0 1")
    play(pos, "c4e5", "g6d6", "e5c4", "d6g6")
    assert pos.rule_score(4) == -BAN_SCORE
    # Seen from black after one more red move, red's chase still loses: black scores the win.
    play(pos, "c4e5")
    assert pos.rule_score(5) == BAN_SCORE
    play(pos, "g6d6", "e5c4", "d6g6")
    assert pos.rule_score(8) == -BAN_SCORE


def test_idle_repetition_is_a_draw() -> None:
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1")
    play(pos, "f0f1", "d9d8", "f1f0", "d8d9")
    assert pos.rule_score(4) == 0


def test_sixty_moves_without_capture_draw() -> None:
    pos = Position.from_fen("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 119 80")
    assert pos.rule_score(1) == NO_SCORE
    play(pos, "a1a2")
    assert pos.rule_score(1) == 0 and pos.outcome() == "draw"


def test_search_avoids_a_losing_perpetual_check() -> None:
    # Red keeps checking with the rook; the search must see that repeating loses and do something else.
    pos = Position.from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1")
    play(pos, "a8a9", "e9e8", "a9a8", "e8e9")
    searcher = Searcher(TransTable(4))
    lim = Limits()
    lim.depth = 4
    lines = searcher.think(pos, lim)
    assert move_name(lines[0].move) != "a8a9" and lines[0].score > 0


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "rnbakabnr/9/1c5c1 w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
    ],
)
def test_malformed_fen_is_refused(fen: str) -> None:
    with pytest.raises(FenError):
        Position.from_fen(fen)


def test_alternative_letters_and_side_r_are_accepted_and_written_in_standard_form() -> None:
    pos = Position.from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1")
    assert pos.fen() == START_FEN


def test_parse_move_rejects_text_that_is_not_a_move() -> None:
    assert parse_move("h2e2") >= 0
    for text in ("", "h2e", "j2e2", "h2e22", "H2E2"):
        assert parse_move(text) == -1


# --- positions no game can reach are refused (issue 9, item 4) ---------------------------------

KINGS_ONLY = "4k4/9/9/9/9/9/9/9/9/3K5"


@pytest.mark.parametrize(
    "board,reason",
    [
        ("4k4/9/9/9/B8/9/9/9/9/3K5", "a red elephant cannot stand on a5"),  # across the river
        ("4k4/9/9/9/9/9/9/9/9/B2K5", "a red elephant cannot stand on a0"),  # not on its diagonal points
        ("4k4/9/9/9/9/9/9/9/3A5/3K5", "a red advisor cannot stand on d1"),  # in the palace, off its diagonals
        ("4k4/9/9/9/9/9/9/A8/9/3K5", "a red advisor cannot stand on a2"),  # outside the palace
        ("4k4/9/9/9/9/9/3K5/9/9/9", "a red king cannot stand on d3"),
        ("k8/9/9/9/9/9/9/9/9/3K5", "a black king cannot stand on a9"),
        ("4k4/9/9/9/9/9/9/9/P8/3K5", "a red pawn cannot stand on a1"),  # behind its starting rank
        ("4k4/9/9/9/9/9/1P7/9/9/3K5", "a red pawn cannot stand on b3"),  # a file pawns reach only across the river
        ("4k4/9/9/9/1p7/9/9/9/9/3K5", "a black pawn cannot stand on b5"),
        ("4k4/9/9/9/9/P8/P8/9/9/3K5", "two red pawns on file a before the river"),
        ("4k4/9/9/9/9/9/9/9/9/9", "red has no king"),
        ("9/9/9/9/9/9/9/9/9/3K5", "black has no king"),
        ("4k4/9/9/9/9/9/9/9/9/3KK4", "red has 2 kings"),
        ("4k4/RRR6/9/9/9/9/9/9/9/3K5", "red has 3 rooks"),
        ("4k1nnn/9/9/9/9/9/9/9/9/3K5", "black has 3 horses"),
        ("4k4/9/9/PPPPPP3/9/9/9/9/9/3K5", "red has 6 pawns"),
        ("3ak4/4a4/3a5/9/9/9/9/9/9/3K5", "black has 3 advisors"),
    ],
)
def test_a_position_no_game_can_reach_is_refused(board: str, reason: str) -> None:
    with pytest.raises(FenError, match=reason):
        Position.from_fen(board + " w - - 0 1")


def fen_of(pieces: dict[str, str]) -> str:
    """A FEN with red to move from {square: letter}, e.g. {"d1": "K", "f9": "k"}."""
    rows = []
    for rank in range(9, -1, -1):
        row, gap = "", 0
        for file in "abcdefghi":
            letter = pieces.get(f"{file}{rank}")
            if letter is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + letter
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows) + " w - - 0 1"


@pytest.mark.parametrize(
    "letter,squares",
    [
        ("B", ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]),
        ("A", ["d0", "f0", "e1", "d2", "f2"]),
        ("P", ["a3", "c4", "e3", "g4", "i3", "b5", "d9", "h7"]),
        ("b", ["c9", "g9", "a7", "e7", "i7", "c5", "g5"]),
    ],
)
def test_every_square_a_kind_can_reach_is_accepted(letter: str, squares: list[str]) -> None:
    for name in squares:
        fen = fen_of({"d1": "K", "f9": "k", name: letter})
        assert Position.from_fen(fen).fen() == fen


def test_the_side_not_to_move_may_not_be_in_check() -> None:
    with pytest.raises(FenError, match="the side not to move is in check"):
        Position.from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1")  # red to move could take the king
    with pytest.raises(FenError, match="the side not to move is in check"):
        Position.from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")  # kings face each other on an open file
    assert Position.from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").in_check()  # the side to move may be


@pytest.mark.parametrize("digit", ["\u00b2", "\u2462", "\u0663", "\uff13", "0"])
def test_digits_python_knows_but_fen_does_not_are_refused(digit: str) -> None:
    with pytest.raises(FenError):
        Position.from_fen(f"4k4/9/9/9/9/9/9/9/9/3K{digit}5 w - - 0 1")
    with pytest.raises(FenError):
        Position.from_fen(f"{digit}4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")


@pytest.mark.parametrize("counter", ["\u00b2", "\u2462", "1" * 5000, "-3", "x"])
def test_counters_that_are_not_plain_numbers_fall_back_to_their_defaults(counter: str) -> None:
    pos = Position.from_fen(f"{KINGS_ONLY} w - - {counter} {counter}")
    assert pos.fen().endswith(" w - - 0 1")


def test_a_copy_keeps_its_own_line_and_unmake_restores_the_records() -> None:
    # The line's records are reused as it shrinks and grows: a copy must own its records, and a
    # line cut short and played on must read as its new moves, not the old ones.
    pos = Position.from_fen(START_FEN)
    play(pos, "h2e2", "h9g7", "h0g2")
    keys, quiet = pos.keys, pos.quiet
    fork = pos.copy()
    play(fork, "i9h9")
    pos.unmake()
    pos.unmake()
    play(pos, "b9c7")
    assert fork.keys[:4] == keys and fork.quiet == quiet + [4] and len(fork.keys) == 5
    fresh = Position.from_fen(START_FEN)
    play(fresh, "h2e2", "b9c7")
    assert pos.keys == fresh.keys and pos.quiet == fresh.quiet == [0, 1, 2]
    assert pos.fen().split()[:5] == fresh.fen().split()[:5] and pos.in_check() is fresh.in_check() is False
    pos.unmake()
    pos.unmake()
    assert pos.keys == keys[:1] and pos.key() == keys[0] and pos.fen().split()[:5] == START_FEN.split()[:5]
