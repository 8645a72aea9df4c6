"""The junqi front object (junqi_protocol/engine.py) owns the game's state and its undo: a refused
command changes nothing, and a command that fails half-way inside the front leaves the state as it was
before the command, whichever operation failed."""

import pytest

from engine_core.loop import Refusal
from junqi_protocol.engine import Engine
from junqi_protocol.game import Event, Rules
from junqi_protocol.player import Player
from junqi_protocol.rules import EAT, KILLED, MOVE

LINEUP = "abccddeeffggghhhiiijjkklj"


def state(front: Engine) -> tuple:
    """What the front knows and what its player would play from."""
    j, e = front._journal, front._player
    return (list(j.options), j.board and j.board.variant, j.seat, j.lineup, dict(j.visible), j.started,
            [vars(ev) for ev in j.events], e.kind, e.board.variant, e.seat, e.my_lineup, list(e.pos.owner),
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


def break_once(monkeypatch, name: str, failure: Exception | None = None) -> None:
    """Player.``name`` does its work, then fails (once, with ``failure``: by default a RuntimeError), as a
    bug half-way through a command would."""
    real = getattr(Player, name)
    failures = [failure or RuntimeError("boom")]

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


@pytest.mark.parametrize("bug", [RuntimeError, ValueError])  # a bug's ValueError (an int(), a max([])) is no refusal
@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_failure_inside_the_front_leaves_the_state_as_before(monkeypatch, operation, bug):
    front = started()
    before = state(front)
    old_player = front._player
    name, call = OPERATIONS[operation]
    break_once(monkeypatch, name, bug("boom"))
    with pytest.raises(bug, match="boom") as failed:
        call(front)
    assert not isinstance(failed.value, Refusal)
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
        with pytest.raises(Refusal, match="no newgame yet"):
            refused()
    front.new_game("2p", 0, Rules("2p"))
    before = state(front)
    with pytest.raises(Refusal, match="unknown option"):
        front.set_option("colour", "red")
    with pytest.raises(Refusal, match="lineup: "):
        front.lineup("abc")
    with pytest.raises(Refusal, match="our own seat"):
        front.visible(0, LINEUP)
    with pytest.raises(Refusal, match="no lineup"):
        front.start()
    assert state(front) == before
    front = started()
    before = state(front)
    board = front.board("test")
    with pytest.raises(Refusal):
        front.event(Event("move", 1, board.point("G1"), board.point("F1"), MOVE))  # not N's piece
    with pytest.raises(Refusal, match="has started"):
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
    before = state(front)
    break_once(monkeypatch, "observe")
    with pytest.raises(RuntimeError):
        front.settle(-1)
    assert state(front) == before and front.awaiting_result  # the next command settles it again
    assert front.settle(-1) == (sure, False, None) and not front.awaiting_result  # no result came: the sure one
    assert [(ev.frm, ev.to, ev.result) for ev in front._journal.events] == [(move[0], move[1], sure)]
    front.play()
    front.deal("2p", 0, Rules("2p"))
    assert not front.awaiting_result  # a new game forgets the last one's move


def test_a_result_that_fits_is_taken_one_that_cannot_is_not():
    fronts = [Engine(lambda: Player("random", seed=3)) for _ in range(2)]
    moves = []
    for front in fronts:
        front.deal("2p", 0, Rules("2p"))
        moves.append(front.play())
    assert moves[0] == moves[1] and moves[0] is not None
    contested = fronts[0].occupied(moves[0][1])
    sure, fits, unfit = (KILLED, EAT, MOVE) if contested else (MOVE, MOVE, EAT)
    assert fronts[0].settle(fits) == (fits, True, None)
    assert fronts[1].settle(unfit) == (sure, False, None)


def test_what_ccgc_shows_is_judged_by_the_front():
    front = Engine(lambda: Player("random", seed=3))
    front.deal("2p", 0, Rules("2p"))
    b = front.board("test")
    assert front.flag_shown(b.point("L1")) is None and front._journal.events == []  # our own flag: nothing new
    assert front.flag_shown(b.point("A1")) is None  # the enemy's: its marshal died
    marshal = [("marshal", 1, b.point("A1"))]
    assert [(e.kind, e.seat, e.frm) for e in front._journal.events] == marshal
    assert front.flag_shown(b.point("A1")) is None  # shown again with every GO: no news
    assert "has no piece on G0" in front.opponent_moved(b.point("G0"), b.point("F0"), MOVE)  # ours, not theirs
    assert "not one of N's headquarters" in front.flag_shown(b.point("A2"))
    assert [(e.kind, e.seat, e.frm) for e in front._journal.events] == marshal  # what cannot be true is not learned
    front.deal("2p", 0, Rules("2p"))
    assert front.flag_shown(b.point("A1")) is None and len(front._journal.events) == 1  # a new game: news again
