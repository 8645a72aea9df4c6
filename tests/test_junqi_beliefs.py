"""Beliefs over hidden pieces: the true kind is never excluded and never given probability zero,
at every step of recorded dark-information games, for every seat's view."""

import random

import pytest

from conftest import DATA
from junqi_protocol.beliefs import BEHAVIOUR, Beliefs, Deployments, feasible_masks, match, sample_army
from junqi_protocol.board import Board
from junqi_protocol.game import Pieces
from junqi_protocol.record import read_games
from junqi_protocol.replays import follow, true_kinds
from junqi_protocol.rules import COUNTS, EAT, ENGINEER, FLAG, MARSHAL, MINE, MOVE, PLATOON, parse_lineup


def records(name):
    return read_games((DATA / "junqi" / name).read_text().splitlines())


@pytest.mark.parametrize("name", ["dark-2p.jsonl", "dark-4p.jsonl"])
def test_true_kind_always_possible_and_likely(name):
    checked = 0
    for lines in records(name):
        board = Board(lines[0]["variant"])
        truth = true_kinds(board, lines)
        for seat in range(board.seats):
            for engine, deployments in follow(lines, seat, samples=4, seed=seat):
                pos = engine.pos
                for p in range(board.size):
                    t = pos.tag[p]
                    if pos.owner[p] < 0 or not engine.beliefs.hidden[t]:
                        continue
                    assert engine.beliefs.mask[t] >> truth[t] & 1, (board.names[p], truth[t])
                    assert deployments.probabilities(pos.owner[p], t)[truth[t]] > 0
                    for sample in deployments.samples:
                        assert engine.beliefs.mask[t] >> sample[t] & 1
                    checked += 1
            assert not engine.beliefs.contradictions
    assert checked > 1000


def opening():
    """A two-player start seen from S: N's whole army hidden."""
    board = Board("2p")
    pos = Pieces(board)
    pos.place(0, parse_lineup("abccddeeffggghhhiiijjkklj"))
    pos.place(1, None)
    beliefs = Beliefs(board, 0)
    beliefs.start(pos)
    return board, pos, beliefs


def four_player_opening():
    """A four-player start seen from S: the three other armies hidden."""
    board = Board("4p")
    pos = Pieces(board)
    pos.place(0, parse_lineup("abccddeeffggghhhiiijjkklj"))
    for seat in (1, 2, 3):
        pos.place(seat, None)
    beliefs = Beliefs(board, 0)
    beliefs.start(pos)
    return board, pos, beliefs


def test_matching_enforces_the_exact_counts():
    # Three pieces that may be marshal or general, one army with one of each: no deployment.
    assert match([0b11, 0b11, 0b11], [1, 1, 0] + [0] * 9) is None
    # One piece may only be the marshal, so the other two cannot be.
    assert feasible_masks([0b01, 0b11, 0b111], [1, 1, 1] + [0] * 9) == [0b01, 0b10, 0b100]


def test_samples_are_whole_legal_armies():
    board, pos, beliefs = opening()
    deployments = Deployments(beliefs, random.Random(3), 10)
    deployments.refresh(pos)
    assert len(deployments.samples) == 10
    tags = beliefs.tags(1)
    for sample in deployments.samples:
        kinds = [sample[t] for t in tags]
        assert [kinds.count(k) for k in range(12)] == list(COUNTS)
        assert all(board.hq[t] for t in tags if sample[t] == FLAG)
        assert all(board.row[t] >= 4 for t in tags if sample[t] == MINE)


def test_a_marshal_death_pins_the_dead_piece_and_the_flag():
    board, pos, beliefs = opening()
    frm, to = board.point("F0"), board.point("G0")  # N's piece attacks our 司令 and both die
    beliefs.before_move(pos, frm, to, 3)
    pos.apply(frm, to, 3)
    beliefs.marshal_died(pos, 1, board.point("A1"))
    beliefs.settle(pos)
    assert beliefs.mask[frm] == 1 << MARSHAL
    assert beliefs.mask[board.point("A1")] == 1 << FLAG
    assert not beliefs.contradictions


def test_a_contradiction_is_logged_and_recovered():
    board, pos, beliefs = opening()
    for name in ("A0", "A2", "A4"):  # three pieces claimed to be the flag
        beliefs._restrict(board.point(name), 1 << FLAG)
    beliefs.settle(pos)
    assert beliefs.contradictions
    tags = beliefs.tags(1)
    assert feasible_masks([beliefs.mask[t] for t in tags], list(COUNTS)) is not None
    assert sample_army([beliefs.mask[t] for t in tags], list(COUNTS), [[1.0] * 12] * 25, random.Random(1)) is not None


def test_behaviour_weighs_but_never_excludes():
    # Seeded: every kind a piece may be keeps a positive weight whatever it did.
    rng = random.Random(11)
    for model in BEHAVIOUR.values():
        for _ in range(500):
            moved = rng.randrange(0, 300)
            weights = model.likelihood(moved, rng.randrange(0, moved + 1), rng.randrange(0, 300))
            assert all(w > 0 for w in weights)


def test_a_piece_that_never_moves_looks_like_a_mine_and_an_attacker_like_a_marshal():
    model = BEHAVIOUR["2p"]
    still = model.likelihood(0, 0, 60)
    assert still[MINE] > still[ENGINEER] > still[MARSHAL]
    raider = model.likelihood(6, 5, 2)
    walker = model.likelihood(6, 0, 20)
    assert raider[MARSHAL] / raider[PLATOON] > walker[MARSHAL] / walker[PLATOON]


def test_a_piece_boxed_in_by_its_own_side_is_not_judged_by_waiting():
    board, pos, beliefs = opening()
    frm, to = board.point("F1"), board.point("E1")  # N's front piece walks to and fro
    for _ in range(6):
        beliefs.before_move(pos, frm, to, MOVE)
        pos.apply(frm, to, MOVE)
        frm, to = to, frm
    assert beliefs.waited[board.point("A2")] == 0  # N's back row, between its headquarters: nowhere to step
    assert beliefs.waited[board.point("A1")] == 0  # a headquarters: nothing leaves it
    assert beliefs.waited[board.point("F0")] == 6  # the front row can always attack ours
    assert beliefs.waited[board.point("F1")] == 1  # counted until it first moved


def test_behaviour_moves_probability_without_breaking_the_counts():
    board, pos, beliefs = opening()
    frm, to = board.point("F1"), board.point("E1")  # one of N's front pieces walks forward
    for _ in range(3):
        beliefs.before_move(pos, frm, to, MOVE)
        pos.apply(frm, to, MOVE)
        frm, to = to, frm
    beliefs.settle(pos)
    rows = beliefs.marginals(1)
    tags = beliefs.tags(1)
    assert all(abs(sum(rows[t][k] for t in tags) - COUNTS[k]) < 0.05 for k in range(12))
    assert rows[board.point("F1")][MINE] == 0
    assert all(rows[t][k] > 0 for t in tags for k in range(12) if beliefs.mask[t] >> k & 1)


def test_beating_a_piece_that_could_be_anything_takes_a_strong_piece():
    # Four players, seen from S: an E piece takes an N piece, both hidden from us.
    board, pos, beliefs = four_player_opening()
    winner, loser = board.point("E12"), board.point("N12")  # not rail stations: no engineer implied
    beliefs.before_move(pos, winner, loser, EAT)
    pos.apply(winner, loser, EAT)
    beliefs.settle(pos)
    with_fight = beliefs.marginals(1)[winner]
    beliefs.model, beliefs.cache = None, {}
    without = beliefs.marginals(1)[winner]
    assert with_fight[MARSHAL] > without[MARSHAL] and with_fight[PLATOON] < without[PLATOON]
    assert all(p > 0 for k, p in enumerate(with_fight) if beliefs.mask[winner] >> k & 1)


def test_an_army_is_expected_to_deploy_like_its_hidden_teammate():
    # Four players, seen from S: W's pieces on slot 21 and its mirror image 23 are shown to be no
    # mines, so E (W's teammate, usually the same program) is a little less likely to have one there.
    board, pos, beliefs = four_player_opening()
    before = beliefs.weights(1)[beliefs.tags(1).index(board.home(1, 4, 1))][MINE]
    for slot in (21, 23):
        beliefs._restrict(board.home(3, 4, slot - 20), ~(1 << MINE))
    beliefs.settle(pos)
    after = beliefs.weights(1)[beliefs.tags(1).index(board.home(1, 4, 1))]
    assert 0 < after[MINE] < 0.6 * before
    assert beliefs.mates(1) == [3] and beliefs.mates(2) == []  # N's teammate is us: nothing learned
    assert all(w > 0 for k, w in enumerate(after) if beliefs.mask[board.home(1, 4, 1)] >> k & 1)
