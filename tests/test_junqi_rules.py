"""Junqi rules: the whole combat table, deployment checks, turns, eliminations and endings."""

import pytest

from junqi_protocol.board import Board
from junqi_protocol.game import Game, IllegalMove, Rules, full_game
from junqi_protocol.rules import LETTERS, RESULTS, check_lineup, combat

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
