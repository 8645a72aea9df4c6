"""The VCT's quiet threats (``ThreatSearch.vct(..., quiet=N)``): moves that make no four and no open
three after which the attacker has a VCF. Positions found by the search itself on random 15x15
boards (2026-11-28): in each, the VCT of threes and fours finds no win to depth 6 (its whole
tree, not cut short), and a quiet move wins in three threats. A brute-force check stands behind the
defender's replies the search tries: after the quiet move, every empty point of the board is tried
as the defender's stone and the attacker must still win by the plain VCT."""

from gomoku_protocol.fit import board_of
from gomoku_protocol.position import Position
from gomoku_protocol.threats import ThreatSearch

# position (h8 notation, the attacker to move), the quiet move the search finds
QUIET_WINS = [
    ("d9i9d6h8h4l9l8d7f11k6g9e12i6g12h9f8", "g8"),
    ("i11i6h5k9d7h11g8e9l12e12i12k12h7l5g11i8k5g12", "f7"),
    ("f7j12g8j9g7g11f10d10h10e7i11i4l4e4i6h6j4k9l12l7k7d9d7g5", "i7"),
]
BUDGET = 20000  # quiet nodes an iteration


def point(b: Position, name: str) -> int:
    return next(i for i in b.points if b.name(i) == name)


def test_a_quiet_move_wins_where_threes_and_fours_do_not() -> None:
    for pos, quiet in QUIET_WINS:
        b = board_of(pos, 15)
        before = list(b.history)
        plain = ThreatSearch(b)
        assert plain.vct(6, 600_000, 100_000) is None and not plain.stopped, pos
        ts = ThreatSearch(b)
        line = ts.vct(3, 600_000, 0, 0, BUDGET)
        assert line is not None and b.name(line[0]) == quiet, pos
        assert b.count(b.side, line[0]) == 0  # no four, no open three: a quiet move
        assert b.history == before  # the search left the board as it found it


def test_after_the_quiet_move_every_reply_on_the_board_loses() -> None:
    # The search answers the quiet move only on the points that could spoil its VCF; here every
    # point is tried, and a plain VCT (no quiet moves) must win after each.
    for pos, quiet in QUIET_WINS[:2]:
        b = board_of(pos, 15)
        attacker = b.side
        assert b.make(point(b, quiet))
        for r in [i for i in b.points if b.cells[i] == 0]:
            assert b.make(r)
            assert b.fives[attacker] or ThreatSearch(b).vct(4, 600_000, 100_000) is not None, (pos, b.name(r))
            b.unmake()


def test_no_quiet_win_where_there_is_none() -> None:
    b = Position(15, 15, 0)
    for name in ("h8", "a1", "i8", "a3"):  # an open two of black's, white's stones far away
        b.make(point(b, name))
    ts = ThreatSearch(b)
    assert ts.vct(6, 600_000, 0, 0, BUDGET) is None and not ts.stopped
    # one quiet move is not enough where the win takes two: a depth too shallow finds none
    b = board_of(QUIET_WINS[0][0], 15)
    ts = ThreatSearch(b)
    assert ts.vct(1, 600_000, 0, 0, BUDGET) is None and not ts.stopped


def test_quiet_moves_are_off_on_renju_and_caro_boards_and_remembered_apart() -> None:
    for rule in (4, 8):
        b = board_of(QUIET_WINS[0][0], 15)
        r = Position(15, 15, rule)
        for m in b.history:
            r.make(m)
        ts = ThreatSearch(r)
        ts.vct(3, 600_000, 0, 0, BUDGET)
        assert ts.quiet == 0 and ts.mode == 0
    # a failure without quiet moves does not hide the quiet win from the same search's memo
    b = board_of(QUIET_WINS[0][0], 15)
    ts = ThreatSearch(b)
    assert ts.vct(3, 600_000) is None
    assert ts.vct(3, 600_000, 0, 0, BUDGET) is not None
