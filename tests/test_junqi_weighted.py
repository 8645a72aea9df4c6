"""Weighted worlds (issue 60, item 1): a few of each pass's worlds are drawn with a danger to our
司令 forced on the hidden enemy piece beside it, and every world is weighed by the beliefs'
probability of its deployment over the proposal's, so the rare danger is in some world of every
move and counts there with its true weight, and averages over the worlds stay unbiased."""

import math
import random

import pytest

from junqi_protocol.beliefs import Deployments
from junqi_protocol.game import Rules
from junqi_protocol.player import Player
from junqi_protocol.rules import BOMB, BATTALION, COMPANY, ENGINEER, MARSHAL, MINE, PLATOON, REGIMENT
from junqi_protocol.worlds import WORLDS, Planner, dangers, world_weights

ROUNDS = 300


def _marshal_beside_a_hidden_piece(seed):
    """A two-player dark game at its start, seen by seat S, with the enemy piece that started on E0
    (the second row, where bombs may stand) moved to F0, one rail run from our 司令 on G0: it may be
    a bomb, a 团长, a 营长, a 连长, a 排长 or an engineer and nothing else,
    a bomb at about one chance in four (the beliefs weigh a piece that has not moved towards a bomb)."""
    engine = Player("search", seed)
    engine.new_game("2p", 0, Rules("2p"))
    engine.lineup("")
    engine.begin({})
    board, pos, beliefs = engine.board, engine.pos, engine.beliefs
    g0, f0, e0 = board.point("G0"), board.point("F0"), board.point("E0")
    m = pos.kind.index(MARSHAL)  # ours, the only kinds shown: put it on the corner G0
    for row in (pos.kind, pos.tag):
        row[m], row[g0] = row[g0], row[m]
    assert pos.owner[g0] == 0 and pos.owner[f0] == pos.owner[e0] == 1
    pos.tag[f0], pos.tag[e0] = pos.tag[e0], pos.tag[f0]
    tag = pos.tag[f0]
    beliefs._restrict(tag, (1 << BOMB) | (1 << REGIMENT) | (1 << BATTALION) | (1 << COMPANY) | (1 << PLATOON) | (1 << ENGINEER))
    beliefs.settle(pos)
    return engine, tag


def test_the_danger_beside_the_marshal_is_found_with_the_beliefs_probability():
    engine, tag = _marshal_beside_a_hidden_piece(1)
    found = dangers(engine.pos, engine.deployments, 0, [], 2)
    probs = engine.deployments.probabilities(1, tag)
    assert found and found[0][0] == tag
    assert found[0][1] == 1 << BOMB and found[0][2] == pytest.approx(probs[BOMB])
    assert 0.15 < probs[BOMB] < 0.35
    # Pieces that cannot move (a mine, a flag) and the proposal off find nothing.
    assert dangers(engine.pos, engine.deployments, 0, [], 0) == []
    assert all(not (mask >> MINE & 1) for _, mask, _ in dangers(engine.pos, engine.deployments, 0, engine.pos.moves(0), 9))


def test_the_proposed_worlds_always_show_the_danger_and_weigh_it_by_its_probability():
    """Over many moves, the bomb beside our 司令 is in some world of every move (plain draws miss it
    in all six (1 - p)^6 of the time), and its weighted share of the worlds averages its probability,
    as the plain draws' share does."""
    engine, tag = _marshal_beside_a_hidden_piece(2)
    p = engine.deployments.probabilities(1, tag)[BOMB]
    planner = Planner()
    weighted, plain, missed = [], [], 0
    for r in range(ROUNDS):
        deployments = Deployments(engine.beliefs, random.Random(r), WORLDS)
        deployments.refresh(engine.pos)
        worlds = planner.worlds_for(engine.pos, 0, [], deployments)[:WORLDS]
        assert len(planner.found) == 1 and len(worlds) == WORLDS
        bombs = [float(w[tag] == BOMB) for w in worlds]
        assert sum(bombs) >= planner.proposed  # the proposed worlds show it, every move
        weights = world_weights(planner.origin[:WORLDS], planner.member[:WORLDS], [p])
        weighted.append(sum(w * b for w, b in zip(weights, bombs)) / sum(weights))
        shown = [float(s[tag] == BOMB) for s in deployments.samples[:WORLDS]]
        plain.append(sum(shown) / len(shown))
        missed += sum(shown) == 0
    assert missed > ROUNDS * (1 - p) ** WORLDS / 2  # plain draws do miss it
    for share in (weighted, plain):
        m = sum(share) / ROUNDS
        se = math.sqrt(sum((x - m) ** 2 for x in share) / (ROUNDS - 1) / ROUNDS)
        assert abs(m - p) < 4 * se + 0.01, (m, p, se)


def test_the_weighted_mean_of_a_statistic_matches_the_plain_mean():
    """Any statistic of a world (here how many bombs stand in the enemy's second row and whether the
    piece beside our 司令 is one) averages the same weighted over proposed and plain worlds as over
    plain draws alone."""
    engine, tag = _marshal_beside_a_hidden_piece(3)
    board = engine.board
    row = [t for t in engine.beliefs.tags(1) if board.row[t] == 1]

    def stat(sample):
        return sum(sample[t] == BOMB for t in row) + 3.0 * (sample[tag] == BOMB)

    planner = Planner()
    weighted, plain = [], []
    for r in range(ROUNDS):
        deployments = Deployments(engine.beliefs, random.Random(1000 + r), WORLDS)
        deployments.refresh(engine.pos)
        worlds = planner.worlds_for(engine.pos, 0, [], deployments)[:WORLDS]
        weights = world_weights(planner.origin[:WORLDS], planner.member[:WORLDS], [d[2] for d in planner.found])
        weighted.append(sum(w * stat(s) for w, s in zip(weights, worlds)) / sum(weights))
        plain += [stat(s) for s in deployments.samples[:WORLDS]]
    mw, mp = sum(weighted) / len(weighted), sum(plain) / len(plain)
    sw = math.sqrt(sum((x - mw) ** 2 for x in weighted) / (len(weighted) - 1) / len(weighted))
    sp = math.sqrt(sum((x - mp) ** 2 for x in plain) / (len(plain) - 1) / len(plain))
    assert abs(mw - mp) < 4 * math.hypot(sw, sp) + 0.02, (mw, mp, sw, sp)


def test_with_the_proposal_off_the_worlds_are_the_plain_samples_and_the_mean_is_plain():
    engine, _ = _marshal_beside_a_hidden_piece(4)
    planner = Planner()
    planner.proposed = 0
    engine.deployments.refresh(engine.pos)
    assert planner.worlds_for(engine.pos, 0, engine.pos.moves(0), engine.deployments) is engine.deployments.samples
    assert planner.found == [] and planner.average([(0, [1.0, 4.0]), (3, [3.0, 0.0])], 2) == [2.0, 2.0]


def test_the_weights_are_the_mixtures_density_ratio():
    """Two dangers, one world from each and four plain: a world that shows both was likelier under the
    proposal than one that shows one, and a plain world showing none weighs most."""
    w = world_weights([-1, -1, -1, -1, 0, 1], [0, 1, 3, 2, 1, 3], [0.2, 0.1])
    n = 6
    assert w[0] == pytest.approx(1 / (4 / n))
    assert w[1] == w[4] == pytest.approx(1 / (4 / n + 1 / n / 0.2))
    assert w[3] == pytest.approx(1 / (4 / n + 1 / n / 0.1))
    assert w[2] == w[5] == pytest.approx(1 / (4 / n + 1 / n / 0.2 + 1 / n / 0.1))
