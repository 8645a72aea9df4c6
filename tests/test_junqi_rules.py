"""Junqi rules: the whole combat table, deployment checks, turns, eliminations and endings."""

import pytest
from librt.vecs import vec
from mypy_extensions import i64

from junqi_protocol.board import Board
from junqi_protocol.game import Game, IllegalMove, Rules, full_game
from junqi_protocol.rules import ALL, LETTERS, RESULTS, add_rails, check_lineup, combat

# Attacker a..l down, defender a..l across: E eats, K killed, B both removed, - cannot attack.
TABLE = """
a BEEEEEEEEKBE
b KBEEEEEEEKBE
c KKBEEEEEEKBE
d KKKBEEEEEKBE
e KKKKBEEEEKBE
f KKKKKBEEEKBE
g KKKKKKBEEKBE
h KKKKKKKBEKBE
i KKKKKKKKBEBE
j ------------
k BBBBBBBBBBBB
l ------------
"""
CODE = {"E": "EAT", "K": "KILLED", "B": "BOMB", "-": None}
LINEUP = "abccddeeffggghhhiiijjkklj"


def test_whole_combat_table():
    for row in TABLE.split("\n"):
        if not row:
            continue
        att, cells = row.split()
        for d, cell in enumerate(cells):
            r = combat(LETTERS.index(att), d)
            assert (RESULTS[r] if r >= 0 else None) == CODE[cell], (att, LETTERS[d])


@pytest.mark.parametrize("text,rule", [
    (LINEUP, None),
    ("gcfcgi.b.idk.kda.f.ehehigjljhj", None),
    ("gcfcgib..idk.kda.f.ehehigjljhj", "camps start empty"),
    (LINEUP[:-1], "25 letters"),
    (LINEUP[:-1] + "z", "not a piece letter"),
    ("a" + LINEUP[1:-1] + "a", "the army has 1"),
    ("abccddeeffggghhhiiijjkkjl", "flag (l) in slot 29"),
    ("jbccddeeffggghhhiiiajkklj", "mines go in the last two rows"),
    ("kbccddeeffggghhhiiijjaklj", "bombs may not start in the front row"),
])
def test_deployment(text, rule):
    err = check_lineup(text)
    assert (err is None) if rule is None else (rule in err)


def play(g: Game, move: str) -> list[str]:
    frm, to = move.split("-")
    return [e.text(g.board) for e in g.move(g.board.point(frm), g.board.point(to))]


def test_marshal_death_announces_flag_squares():
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    # S's 司令 on G0 meets N's 旅长 on F0 (N's slot 4) and eats it.
    assert play(g, "G0-F0") == ["move S G0-F0 EAT"]
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    g.pos.kind[g.board.point("F0")] = 0  # hand-placed: N's 司令 stands where S's 司令 attacks
    assert play(g, "G0-F0") == ["move S G0-F0 BOMB", "marshal S L3", "marshal N A1"]


def test_flag_capture_puts_the_player_out():
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    g.pos.kind[g.board.point("F0")] = 11  # hand-placed flag in reach
    assert play(g, "G0-F0") == ["move S G0-F0 EAT", "flag N S", "out N flag", "gameover S flag"]
    assert all(g.pos.owner[p] != 1 for p in range(g.board.size))


def test_illegal_moves_name_the_rule():
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    b = g.board
    with pytest.raises(IllegalMove, match="belongs to seat N"):
        g.move(b.point("F0"), b.point("E0"))
    with pytest.raises(IllegalMove, match="never move"):
        g.move(b.point("K4"), b.point("K3"))  # slot 24 holds a mine
    with pytest.raises(IllegalMove, match="not one road step"):
        g.move(b.point("H0"), b.point("J1"))
    with pytest.raises(IllegalMove, match="your own piece"):
        g.move(b.point("K0"), b.point("G0"))
    with pytest.raises(IllegalMove, match="no clear railway path"):
        g.move(b.point("K1"), b.point("F1"))
    with pytest.raises(IllegalMove, match="headquarters"):
        g.move(b.point("L1"), b.point("L0"))


def four_player() -> Game:
    g = full_game("4p", [LINEUP] * 4, "nocapture=70")
    g.start()
    return g


def test_turn_order_passes_and_elimination():
    g = four_player()
    order = []
    for _ in range(4):
        order.append(g.turn)
        g.pass_turn()
    assert order == [0, 1, 2, 3]
    for _ in range(3):
        for _ in range(4):
            g.pass_turn()
    events = [e.text(g.board) for e in g.pass_turn()]
    assert events == ["pass S pass", "out S passes"]
    assert not g.alive[0] and all(g.pos.owner[p] != 0 for p in range(g.board.size))
    assert g.turn == 1
    assert [e.text(g.board) for e in g.pass_turn()] == ["pass E pass", "out E passes"]
    assert [e.text(g.board) for e in g.pass_turn()] == ["pass N pass", "out N passes", "gameover EW passes"]
    assert g.over and g.winner == 1


def test_team_needs_both_members_out():
    g = four_player()
    g.eliminate(1, "illegal")
    assert not g.over and g.turn == 0
    g.pass_turn()
    assert g.turn == 2  # E is skipped
    events = [e.text(g.board) for e in g.eliminate(3, "crash")]
    assert events == ["out W crash", "gameover SN crash"]


def test_no_capture_limits():
    g = full_game("4p", [LINEUP] * 4, "nocapture=8")
    g.start()
    for _ in range(7):
        g.pass_turn()
    assert [e.text(g.board) for e in g.pass_turn()] == ["pass W pass", "gameover draw nocapture"]
    g = full_game("2p", [LINEUP, LINEUP], "nocapture=2 passes=5")
    g.start()
    g.pass_turn()
    assert [e.text(g.board) for e in g.pass_turn()] == ["pass N pass", "out S nocapture", "gameover N nocapture"]


def test_player_without_moves_is_out():
    g = full_game("2p", [LINEUP, LINEUP])
    b = g.board
    for p in range(b.size):
        if g.pos.owner[p] == 1 and b.names[p] not in ("A1", "A3", "B0"):
            g.pos.owner[p] = -1
    g.pos.kind[b.point("B0")] = 9  # N keeps a mine and its headquarters: nothing can move
    assert [e.text(b) for e in g.start()] == []
    assert [e.text(b) for e in g.move(b.point("G0"), b.point("F0"))] == ["move S G0-F0 MOVE", "out N nomoves", "gameover S nomoves"]


def test_rules_options():
    r = Rules("4p", "nocapture=48 info=allies")
    assert r.text() == "nocapture=48 nocapture_loses=0 passes=5 info=allies"
    assert Rules("2p").text() == "nocapture=31 nocapture_loses=1 passes=1 info=dark"
    for bad in ("info=half", "speed=3", "nocapture=x", "oops"):
        with pytest.raises(ValueError):
            Rules("2p", bad)


def test_nocapture_counts_turns_without_a_removal():
    # nocapture=N: once N turns in a row (moves and passes of any player) removed no piece, the
    # player whose turn comes next is out (nocapture_loses=1) or the game is drawn (0).
    g = full_game("2p", [LINEUP, LINEUP], "nocapture=31 passes=99")
    g.start()
    for _ in range(30):
        g.pass_turn()
    assert not g.over and g.quiet == 30
    assert [e.text(g.board) for e in g.pass_turn()] == ["pass S pass", "out N nocapture", "gameover S nocapture"]
    g = full_game("2p", [LINEUP, LINEUP], "nocapture=31 passes=99")
    g.start()
    b = g.board
    for _ in range(29):
        g.pass_turn()
    assert g.turn == 1
    g.move(b.point("F0"), b.point("G0"))  # a collision: the count starts again
    assert g.quiet == 0
    for _ in range(30):
        g.pass_turn()
    assert not g.over


def reported(g: Game, line: str):
    from junqi_protocol.game import parse_event, report_problem

    return report_problem(g.pos, g.alive, parse_event(g.board, line))


def test_reports_that_contradict_the_board_are_named():
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    view = g.pos
    for p in range(g.board.size):  # S's view: N's kinds are hidden
        if view.owner[p] == 1:
            view.kind[p] = -1
    assert reported(g, "move S G0-F0 EAT") is None
    assert reported(g, "move N F0-G0 BOMB") is None
    assert reported(g, "move N F1-G1 BOMB") == "move: F1-G1: no clear railway path from F1 to G1"  # the mountain
    assert reported(g, "move N G0-L1 EAT") == "move: N has no piece on G0"
    assert reported(g, "move N F1-L1 EAT").startswith("move: F1-L1: L1 is not one road step")
    assert reported(g, "move N A1-B1 MOVE") == "move: B1 holds an ally of N"
    g.pos.owner[g.board.point("B1")] = -1
    assert reported(g, "move N A1-B1 MOVE").startswith("move: A1-B1: nothing leaves a headquarters")
    assert reported(g, "move S K4-J3 MOVE") == "move: K4-J3: a mine never moves"  # into the camp J3
    assert reported(g, "move S G0-H0 MOVE") == "move: H0 holds an ally of S"
    assert reported(g, "move S G1-F1 MOVE") == "move: MOVE does not fit an occupied F1"
    assert reported(g, "move N F0-G0 KILLED") is None  # a hidden attacker: any result some kind can give
    assert reported(g, "marshal N L1") == "marshal: L1 is not one of N's headquarters"
    assert reported(g, "marshal N A1") is None
    assert reported(g, "marshal S L1") == "marshal: S's flag cannot stand on L1"  # S's flag is on L3
    assert reported(g, "marshal S L3") == "marshal: S's 司令 is still on the board"
    assert reported(g, "flag N N") == "flag: 'N' is no opponent of N still playing"
    g.eliminate(1, "crash")
    assert reported(g, "pass N pass") == "pass: N is out already"


def test_results_that_no_kinds_can_give_are_named():
    g = full_game("2p", [LINEUP, LINEUP])
    g.start()
    # Every kind known (info=open): S's 司令 on G0 against N's brigade on F0 can only win.
    assert reported(g, "move S G0-F0 EAT") is None
    assert reported(g, "move S G0-F0 KILLED") == "move: KILLED cannot happen when a marshal on G0 attacks a brigade on F0"
    assert reported(g, "move S G0-F0 BOMB").startswith("move: BOMB cannot happen")
    assert reported(g, "move S G0-F0 MOVE") == "move: MOVE does not fit an occupied F0"


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_no_camp_is_a_railway_station(variant):
    # rules.add_rails leaves out the camp test on the rails (a piece in a camp cannot be attacked) for this.
    board = Board(variant)
    assert not any(board.station[p] and board.camp[p] for p in range(board.size))


def test_the_rail_walker_ends_each_run_on_any_piece_or_only_on_another_teams():
    board = Board("2p")
    line = max(board.lines, key=len)
    owner = [-1] * board.size
    owner[line[1]], owner[line[5]] = 0, 1
    p = line[3]

    def walk(team):
        marks = vec[i64]([0] * (2 * board.size + 1))
        out: list[int] = []
        add_rails(board, vec[i64](owner), vec[i64]([0] * board.size), p, False, team, ALL, 1, marks, 1, out, 0)
        return out

    anyone, theirs = walk(-1), walk(0)
    assert {line[1], line[2], line[4], line[5]} <= set(anyone) and line[0] not in anyone and line[6] not in anyone
    assert sorted(theirs) == sorted(q for q in anyone if q != line[1])  # seat 0's own piece ends its run unlisted
    assert len(set(anyone)) == len(anyone)  # each point once
