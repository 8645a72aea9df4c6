"""The junqi front object (junqi_protocol/engine.py) owns the game's state and its undo: a refused
command changes nothing, and a command that fails half-way inside the front leaves the state as it was
before the command, whichever operation failed."""

import pytest

from junqi_protocol.engine import Engine
from junqi_protocol.game import Event, Rules
from junqi_protocol.player import Player
from junqi_protocol.rules import EAT, KILLED, MOVE

LINEUP = "abccddeeffggghhhiiijjkklj"


def state(front: Engine) -> tuple:
    """What the front knows and what its player would play from."""
    j, e = front._journal, front._player
    return (list(j.options), j.board and j.board.variant, j.seat, j.lineup, dict(j.visible), j.started,
            [vars(ev) for ev in j.events], e.style, e.board.variant, e.seat, e.my_lineup, list(e.pos.owner),
            list(e.alive), e.quiet)


def started() -> Engine:
    front = Engine(lambda: Player("random", seed=1))
    front.set_option("player", "random")
    front.new_game("2p", 0, Rules("2p"))
    front.lineup(LINEUP)
    front.start()
    board = front.board("test")
    front.event(Event("move", 0, board.point("G0"), board.point("F0"), EAT))
    return front


def break_once(monkeypatch, name: str) -> None:
    """Player.``name`` does its work, then fails (once), as a bug half-way through a command would."""
    real = getattr(Player, name)
    failures = [RuntimeError("boom")]

    def broken(self, *args):
        got = real(self, *args)
        if failures:
            raise failures.pop()
        return got

    monkeypatch.setattr(Player, name, broken)


OPERATIONS = {
    "set_option": ("set_option", lambda f: f.set_option("seed", "7")),
    "new_game": ("new_game", lambda f: f.new_game("4p", 2, Rules("4p"))),
    "deal": ("begin", lambda f: f.deal("2p", 0, Rules("2p"))),
    "event": ("observe", lambda f: f.event(Event("move", 1, f.board("t").point("F1"), f.board("t").point("E1"), MOVE))),
    "choose": ("choose", lambda f: f.choose()),
}


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_failure_inside_the_front_leaves_the_state_as_before(monkeypatch, operation):
    front = started()
    before = state(front)
    old_player = front._player
    name, call = OPERATIONS[operation]
    break_once(monkeypatch, name)
    with pytest.raises(RuntimeError, match="boom"):
        call(front)
    assert state(front) == before
    assert front._player is not old_player  # rebuilt from the journal, not patched up
    call(front)  # the same command goes through once the fault is gone


def test_a_failure_while_setting_up_leaves_the_lineup_and_start_undone(monkeypatch):
    front = Engine(lambda: Player("random", seed=1))
    front.new_game("2p", 0, Rules("2p"))
    before = state(front)
    break_once(monkeypatch, "lineup")
    with pytest.raises(RuntimeError):
        front.lineup("")
    assert state(front) == before
    front.lineup(LINEUP)
    before = state(front)
    break_once(monkeypatch, "begin")
    with pytest.raises(RuntimeError):
        front.start()
    assert state(front) == before and not front.started
    front.start()
    assert front.started


def test_a_refusal_changes_nothing():
    front = Engine(lambda: Player("random", seed=1))
    for refused in (lambda: front.lineup(""), front.start, lambda: front.playing("go")):
        with pytest.raises(ValueError, match="no newgame yet"):
            refused()
    front.new_game("2p", 0, Rules("2p"))
    before = state(front)
    with pytest.raises(ValueError, match="unknown option"):
        front.set_option("colour", "red")
    with pytest.raises(ValueError, match="lineup: "):
        front.lineup("abc")
    with pytest.raises(ValueError, match="our own seat"):
        front.visible(0, LINEUP)
    with pytest.raises(ValueError, match="no lineup"):
        front.start()
    assert state(front) == before
    front = started()
    before = state(front)
    board = front.board("test")
    with pytest.raises(ValueError):
        front.event(Event("move", 1, board.point("G1"), board.point("F1"), MOVE))  # not N's piece
    with pytest.raises(ValueError, match="has started"):
        front.lineup(LINEUP)
    assert state(front) == before


def test_a_move_whose_result_comes_later_is_settled_by_the_front(monkeypatch):
    front = Engine(lambda: Player("random", seed=3))
    front.deal("2p", 0, Rules("2p"))
    assert not front.awaiting_result
    move = front.play()
    assert move is not None and front.awaiting_result
    contested = front.occupied(move[1])
    sure = KILLED if contested else MOVE
    assert front.result_to_take(-1) == (sure, False)  # no result came: the one we can be sure of
    assert front.result_to_take(MOVE if contested else EAT) == (sure, False)  # one that cannot fit
    before = state(front)
    break_once(monkeypatch, "observe")
    with pytest.raises(RuntimeError):
        front.settle(sure)
    assert state(front) == before and front.awaiting_result  # the next command settles it again
    assert front.settle(sure) is None and not front.awaiting_result
    assert [(ev.frm, ev.to, ev.result) for ev in front._journal.events] == [(move[0], move[1], sure)]
    front.play()
    front.deal("2p", 0, Rules("2p"))
    assert not front.awaiting_result  # a new game forgets the last one's move
