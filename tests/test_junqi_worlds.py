"""pfysw's caution in a big piece's blind attack (``worlds.cautious``, ``worlds.CAUTION``): at the
start of a dark two-player game our 司令 attacking a hidden piece that may be a bomb is scored as if
the bomb had three times the chance it has of being eaten; one that may be a mine as if it were a mine;
a small piece's attack, and any attack with ``CAUTION`` off, by the beliefs alone."""

import pytest

from junqi_protocol import worlds
from junqi_protocol.board import Board
from junqi_protocol.game import Rules
from junqi_protocol.player import Player
from junqi_protocol.rules import BOMB, BOTH, EAT, KILLED, MARSHAL, MINE, PLATOON, combat
from junqi_protocol.worlds import CAUTION_PLIES, chances


def dark_start() -> tuple[Board, Player]:
    board = Board("2p")
    engine = Player("search", 1)
    engine.new_game("2p", 0, Rules("2p"))
    engine.lineup("")
    engine.begin({})
    engine.deployments.refresh(engine.pos)
    return board, engine


def attacker(engine: Player, kind: int) -> int:
    """A point of ours holding a piece of ``kind`` (chances reads the attacker's kind, not the path)."""
    return next(p for p in range(engine.board.size) if engine.pos.owner[p] == 0 and engine.pos.kind[p] == kind)


def by_result(odd: worlds.Chance, att: int) -> dict[int, float]:
    return {combat(att, kinds[0][1]): p for p, kinds in odd}


def believed(engine: Player, to: int, att: int) -> dict[int, float]:
    probs = engine.deployments.probabilities(engine.pos.owner[to], engine.pos.tag[to])
    out: dict[int, float] = {}
    for k, p in enumerate(probs):
        if p > 0.0:
            out[combat(att, k)] = out.get(combat(att, k), 0.0) + p
    return out


def test_a_big_piece_attacking_a_possible_bomb_is_eaten_a_quarter_as_often_as_the_beliefs_say_early():
    board, engine = dark_start()
    frm, to = attacker(engine, MARSHAL), board.point("D3")  # row 2: a bomb may stand there, a mine not
    probs = engine.deployments.probabilities(engine.pos.owner[to], engine.pos.tag[to])
    assert probs[BOMB] > 0.1 and probs[MINE] == 0.0
    plain = believed(engine, to, MARSHAL)
    got = by_result(chances(engine.pos, engine.deployments, frm, to, 0), MARSHAL)
    eaten_or_bomb = plain[EAT] + probs[BOMB]
    assert got[EAT] == pytest.approx(eaten_or_bomb / 4)  # both enemy bombs still on the board
    assert got[BOTH] == pytest.approx(plain[BOTH] + plain[EAT] - eaten_or_bomb / 4)
    odd = chances(engine.pos, engine.deployments, frm, to, 0)
    both = next(kinds for p, kinds in odd if combat(MARSHAL, kinds[0][1]) == BOTH)
    marshal = next(share for share, k in both if k == MARSHAL)
    assert marshal * got[BOTH] == pytest.approx(probs[MARSHAL])  # the enemy 司令's chance is the beliefs'
    assert sum(got.values()) == pytest.approx(1.0)
    # After the first CAUTION_PLIES plies pfysw no longer counts the bomb so.
    assert by_result(chances(engine.pos, engine.deployments, frm, to, CAUTION_PLIES), MARSHAL) == pytest.approx(plain)


def test_a_big_piece_attacking_a_possible_mine_finds_a_mine_where_the_beliefs_saw_a_victim():
    board, engine = dark_start()
    frm, to = attacker(engine, MARSHAL), board.point("B3")  # row 4, never moved: perhaps a mine
    plain = believed(engine, to, MARSHAL)
    assert plain[EAT] > 0.3
    for ply in (0, CAUTION_PLIES + 50):  # at every ply: pfysw never makes the attack
        got = by_result(chances(engine.pos, engine.deployments, frm, to, ply), MARSHAL)
        assert EAT not in got
        assert got[KILLED] == pytest.approx(plain[KILLED] + plain[EAT])
        assert got[BOTH] == pytest.approx(plain[BOTH])


def test_small_pieces_and_caution_off_attack_by_the_beliefs(monkeypatch):
    board, engine = dark_start()
    to = board.point("D3")
    small = by_result(chances(engine.pos, engine.deployments, attacker(engine, PLATOON), to, 0), PLATOON)
    assert small == pytest.approx(believed(engine, to, PLATOON))
    monkeypatch.setattr(worlds, "CAUTION", False)
    for square in ("D3", "B3"):
        to = board.point(square)
        got = by_result(chances(engine.pos, engine.deployments, attacker(engine, MARSHAL), to, 0), MARSHAL)
        assert got == pytest.approx(believed(engine, to, MARSHAL))
