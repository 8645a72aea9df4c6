"""The search's Junqi position follows the rules exactly, and the search player plays by them:
it takes an exposed flag by a shortest route and finishes games against the yardsticks."""

import io
import random

import pytest

from engine_core.game import NO_SCORE
from engine_core.timeman import MoveRequest
from junqi_protocol.board import Board
from junqi_protocol.player import Player
from junqi_protocol.game import Rules, full_game
from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.lineups import deals
from junqi_protocol.evaluate import piece_score
from junqi_protocol.paths import distances
from junqi_protocol.position import FADE, TOP, TRADE, Position, zobrist_keys
from junqi_protocol.record import Recorder, read_games, replay
from junqi_protocol.worlds import LOSS, Scorer, exposure, threats
from junqi_protocol.runner import Referee
from junqi_protocol.rules import BOMB, DIVISION, ENGINEER, FLAG, GENERAL, MARSHAL, MINE, MOVE, PLATOON


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_position_moves_and_results_match_the_referee(variant):
    rng = random.Random(5)
    board = Board(variant)
    for game_no in range(3):
        game = full_game(variant, deals(1, board.seats, game_no)[0], "nocapture=500 passes=500")
        game.start()
        pos = Position(board, game.pos.owner, game.pos.kind, game.alive, game.turn, 0, 500, False, zobrist_keys(board))
        for _ in range(150):
            if game.over:
                break
            if not game.alive[pos.turn]:
                pos.make(pos.passmove)
                continue
            assert pos.turn == game.turn
            legal = sorted(pos.move_of(f, t) for f, t in game.legal_moves())
            assert sorted(pos.moves()) == legal
            # Quiescence's own generator: the moves that do not lose material, in the order of all moves.
            assert pos.noisy_moves() == [m for m in pos.moves() if m != pos.passmove and pos.capture_order(m) >= 1000]
            key, score, counts = pos.key(), list(pos.score), [list(c) for c in pos.counts]
            m = rng.choice(legal)
            pos.make(m)
            pos.unmake()
            assert (pos.key(), list(pos.score), pos.counts) == (key, score, counts)
            pos.make(m)
            game.move(m // board.size, m % board.size)
            assert list(pos.owner) == game.pos.owner and list(pos.kind) == game.pos.kind
            assert pos.counts == _counts(pos)
            # make's flat place bonuses add up to what piece_score says of each piece.
            assert list(pos.score) == _scores(pos)


def _scores(pos):
    out = [0, 0]
    for p in range(pos.size):
        if pos.owner[p] >= 0:
            out[pos.team(pos.owner[p])] += piece_score(pos.board, pos.tables, pos.owner[p], pos.kind[p], p)
    return out


def _counts(pos):
    out = [[0] * 12, [0] * 12]
    for p in range(pos.size):
        if pos.owner[p] >= 0:
            out[pos.team(pos.owner[p])][pos.kind[p]] += 1
    return out


def _duel_position(ours, theirs):
    """Two players: S (seat 0) holds ``ours``, N ``theirs`` ((point, kind) pairs), each with its flag."""
    board = Board("2p")
    owner, kind = [-1] * board.size, [-1] * board.size
    for seat, pieces in ((0, ours + [("L1", FLAG)]), (1, theirs + [("A1", FLAG)])):
        for name, k in pieces:
            owner[board.point(name)], kind[board.point(name)] = seat, k
    return board, Position(board, owner, kind, [True, True], 0, 0, 31, True, zobrist_keys(board))


def test_a_piece_no_enemy_can_beat_or_trade_with_is_worth_top_more():
    # Both 司令 stand: neither side has a piece the other cannot answer.
    _, pos = _duel_position([("K0", MARSHAL), ("K4", GENERAL)], [("B0", MARSHAL), ("B4", DIVISION)])
    assert pos.top_score(0) == 0
    # Theirs gone: our 司令 and 军长 both outrank every mover they have left (their best is a 师长).
    _, pos = _duel_position([("K0", MARSHAL), ("K4", GENERAL)], [("B4", DIVISION), ("B3", BOMB)])
    assert pos.top_score(0) == 2 * TOP and pos.top_score(1) == -2 * TOP
    # Their 军长 trades with ours: only our 司令 is beyond their reach.
    _, pos = _duel_position([("K0", MARSHAL), ("K4", GENERAL)], [("B4", GENERAL)])
    assert pos.top_score(0) == TOP
    assert pos.evaluate() == pos.score_for(0) + TOP


def test_a_marshal_trade_that_leaves_their_general_unanswered_costs_top():
    # Our 司令 may take their 司令 with both dying: what remains is their 军长 against our 师长.
    board, pos = _duel_position([("G0", MARSHAL), ("K4", DIVISION)], [("F0", MARSHAL), ("B4", GENERAL)])
    before = pos.score_for(0)
    pos.make(pos.move_of(board.point("G0"), board.point("F0")))
    assert pos.counts[0][MARSHAL] == pos.counts[1][MARSHAL] == 0
    # The material is even (600 for 600) but their 军长 is now beyond anything of ours.
    assert pos.top_score(0) == -TOP
    pos.unmake()
    assert pos.score_for(0) == before and pos.top_score(0) == 0


def _lone_flag_engine(extra_own):
    """Four players: we (S) have a general on S04 and pieces of our own in the way; E has its flag on
    E51, its 司令's death having shown where, and a platoon in the camp W22, where it cannot be
    attacked: a seat without a move is out (as the referee rules), so a flag alone is no race; N and
    W are out."""
    board = Board("4p")
    engine = Player("search", 3)
    engine.new_game("4p", 0, Rules("4p", "nocapture=200"))
    engine.lineup("")
    engine.begin({})
    pos = engine.pos
    for p in range(board.size):
        if pos.owner[p] >= 0:
            pos.owner[p], pos.kind[p], pos.tag[p] = -1, -1, -1
    place = [("E51", 1, -1), ("S04", 0, GENERAL), ("W22", 1, PLATOON)] + [(name, 0, MINE) for name in extra_own]
    for name, seat, kind in place:
        p = board.point(name)
        pos.owner[p], pos.kind[p], pos.tag[p] = seat, kind, p
    engine.alive = [True, True, False, False]
    engine.beliefs.marshal_died(pos, 1, board.point("E51"))
    return board, engine


@pytest.mark.parametrize("blockers", [[], ["E20", "E41"], ["E30", "E52", "S14"]])
def test_takes_an_exposed_flag_by_a_shortest_route(blockers):
    board, engine = _lone_flag_engine(blockers)
    flag = board.point("E51")
    want = distances(board, engine.pos.owner, [flag], False)[board.point("S04")]
    for n in range(1, 20):
        frm, to = engine.choose(MoveRequest(movetime=2000))
        if to == flag:
            break
        engine.pos.apply(frm, to, MOVE)
    assert (n, engine.pos.kind[frm]) == (want, GENERAL)


def test_search_finishes_legal_games_against_the_yardsticks():
    buf = io.StringIO()
    ref = Referee("4p", "nocapture=20", Recorder(buf), 600_000, 60)
    ref.play(1, [BuiltinSeat(("search", "random")[s % 2], s) for s in range(4)])
    ref2 = Referee("2p", "", Recorder(buf), 600_000, 60)
    ref2.play(2, [BuiltinSeat(("events", "search")[s], s) for s in range(2)])
    for lines in read_games(buf.getvalue().splitlines()):
        assert replay(lines)[1] == []
        assert not [o for o in lines if o["type"] == "step" and o["action"] == "out" and o.get("reason") == "illegal"]


def test_the_side_the_quiet_limit_will_catch_is_pressed_to_attack():
    board = Board("2p")
    game = full_game("2p", deals(1, 2, 1)[0])
    game.start()

    def score(quiet):
        pos = Position(board, game.pos.owner, game.pos.kind, game.alive, 0, quiet, 31, True, zobrist_keys(board))
        return pos.evaluate()

    assert score(29) < score(5) < score(30)  # at 29, S will be to move at 31 quiet moves; at 30, N will


def _two_against_one(quiet, turn=0):
    """Four players, W out: S has a general on S00 and a platoon on S10 beside a mine of E's on S20;
    E has nothing else but its flag. S is far ahead."""
    board = Board("4p")
    owner, kind = [-1] * board.size, [-1] * board.size
    for name, seat, k in [("S51", 0, FLAG), ("S00", 0, GENERAL), ("S10", 0, PLATOON), ("N51", 2, FLAG),
                          ("E51", 1, FLAG), ("S20", 1, MINE)]:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    return board, Position(board, owner, kind, [True, True, True, False], turn, quiet, 70, False, zobrist_keys(board))


def test_a_lead_fades_towards_the_four_player_no_capture_draw():
    scores = [_two_against_one(q)[1].evaluate() for q in (0, 70 - FADE, 60, 65, 69)]
    assert scores[0] == scores[1] > scores[2] > scores[3] > scores[4] > 0
    assert scores[2] == scores[0] * 10 // FADE
    behind = [_two_against_one(q, 1)[1].evaluate() for q in (0, 60, 69)]  # E to move: its loss fades too
    assert behind == [-scores[0], -scores[2], -scores[4]]
    level = _two_against_one(69)[1]
    level.alive[3] = True  # two against two: as before, no fading (and no trade term)
    assert level.evaluate() == scores[0] - _two_against_one(0)[1].trade_score(0) == level.score_for(0) + level.top_score(0)
    alone = _two_against_one(69)[1]
    alone.alive[2] = False  # one against one: fades as well
    assert alone.evaluate() == scores[4]


def _lone_east(pieces, out=(3,)):
    """Four players, the seats in ``out`` out; ``pieces`` as (point, seat, kind), each seat in play with its flag."""
    board = Board("4p")
    owner, kind = [-1] * board.size, [-1] * board.size
    flags = [("S51", 0, FLAG), ("E51", 1, FLAG), ("N51", 2, FLAG), ("W51", 3, FLAG)]
    for name, seat, k in [f for f in flags if f[1] not in out] + pieces:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    alive = [s not in out for s in range(4)]
    return board, Position(board, owner, kind, alive, 0, 0, 70, False, zobrist_keys(board))


def test_once_a_seat_is_out_the_lone_seat_without_a_move_is_out_and_its_team_has_lost():
    # W out; E's last mover, a platoon on E00, is S's for the taking; E keeps a mine and its flag.
    board, pos = _lone_east([("S04", 0, GENERAL), ("E00", 1, PLATOON), ("E50", 1, MINE), ("N00", 2, PLATOON)])
    pos.make(pos.move_of(board.point("S04"), board.point("E00")))
    assert pos.turn == 1 and pos.moves() == [pos.passmove]
    pos.make(pos.passmove)  # E cannot move: the referee's "nomoves" puts it out, and its team with it
    assert not pos.alive[1] and pos.owner[board.point("E50")] < 0 and pos.rule_score(2) > 0
    pos.unmake()
    assert pos.alive[1] and pos.kind[board.point("E50")] == MINE and pos.winner < 0
    pos.unmake()
    # The search finds it: the general's capture wins at once.
    roots = [(m // board.size, m % board.size) for m in pos.moves()]
    values = Scorer().score(pos, roots, [[]] * len(roots), 2, float("inf"), float("inf"))
    assert board.names[roots[values.index(max(values))][1]] == "E00" and max(values) > 10_000
    # Four seats in play: a seat without a move passes as before and stays in the game.
    board, pos = _lone_east([("S04", 0, GENERAL), ("E00", 1, PLATOON), ("N00", 2, PLATOON), ("W00", 3, PLATOON)], out=())
    pos.make(pos.move_of(board.point("S04"), board.point("E00")))
    pos.make(pos.passmove)
    assert pos.alive[1] and pos.owner[board.point("E51")] == 1 and pos.rule_score(2) == NO_SCORE


def test_once_a_seat_is_out_the_side_ahead_gains_by_an_even_trade():
    pieces = [("S04", 0, BOMB), ("S00", 0, DIVISION), ("E00", 1, DIVISION), ("E02", 1, MARSHAL), ("N00", 2, MARSHAL),
              ("N02", 2, GENERAL)]
    board, pos = _lone_east(pieces)
    ours, theirs = 330 + 250 + 600 + 450, 330 + 600
    assert pos.trade_score(0) == TRADE * (ours - theirs) // (ours + theirs) == -pos.trade_score(1)
    before = pos.evaluate() - pos.score_for(0) - pos.top_score(0)
    assert before == pos.trade_score(0)
    pos.make(pos.move_of(board.point("S00"), board.point("E00")))  # 师长 for 师长: both die
    after = -(pos.evaluate() - pos.score_for(1) - pos.top_score(1))
    assert after == TRADE * (ours - theirs) // (ours + theirs - 660) > before
    # With the four seats in play there is no such term.
    board, pos = _lone_east(pieces + [("W00", 3, PLATOON)], out=())
    assert pos.evaluate() == pos.score_for(0) + pos.top_score(0)


def test_the_side_ahead_gives_a_piece_rather_than_let_the_four_player_count_run_out():
    """Early the general's march is worth more than a platoon thrown onto a mine; with ten quiet
    moves left the loss, which starts the count again, costs less than the lead's fading."""
    for quiet in (0, 60):
        board, pos = _two_against_one(quiet)
        roots = [(m // board.size, m % board.size) for m in pos.moves()]
        values = Scorer().score(pos, roots, [[]] * len(roots), 1, float("inf"), float("inf"))
        best = roots[values.index(max(values))]
        assert (board.names[best[1]] == "S20") == (quiet > 0), (quiet, [board.names[p] for p in best])


def test_the_first_pass_sees_a_flag_that_falls_next_move():
    """Our marshal could take a general, but an enemy engineer stands beside our flag: even the
    static pass, which searches no replies, must take the engineer instead."""
    board = Board("2p")
    owner, kind = [-1] * board.size, [-1] * board.size
    for name, seat, k in [("L1", 0, FLAG), ("H2", 0, 0), ("K0", 0, 6), ("A1", 1, FLAG), ("L0", 1, ENGINEER), ("G2", 1, GENERAL)]:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    pos = Position(board, owner, kind, [True, True], 0, 0, 31, True, zobrist_keys(board))
    roots = [(m // board.size, m % board.size) for m in pos.moves()]
    values = Scorer().score(pos, roots, [[]] * len(roots), 1, float("inf"), float("inf"))
    best = roots[values.index(max(values))]
    assert [board.names[p] for p in best] == ["K0", "L0"]
    assert pos.flag_capture() < 0
    pos.make(pos.move_of(board.point("H2"), board.point("G2")))
    assert board.names[pos.flag_capture() % board.size] == "L1"


@pytest.mark.parametrize("soft_ms, deeper", [(1, False), (0, True)])
def test_no_pass_starts_after_the_soft_limit(soft_ms, deeper):
    """The time manager's soft limit: past it the planner starts no deeper pass (and no more worlds);
    without one (0) it deepens within the hard limit."""
    player = Player(seed=3)
    player.new_game("2p", 0, Rules("2p"))
    player.lineup()
    player.begin({})
    player.beliefs.settle(player.pos)
    planner = player.planner
    move = planner.choose(player.pos, 0, player.alive, 0, player.rules, player.deployments, 3000, player.rng, soft_ms=soft_ms)
    assert move in player.pos.moves(0)
    assert (planner.depth > 1) == deeper


def _marshal_and_a_hidden_corner(corner_kind):
    """Our 司令 in the camp H1 beside an enemy platoon on H0, an enemy piece on the front corner F0
    (on the rail of column 0 with G0 and H0) that the world shows as ``corner_kind``, and the
    beliefs' table for it: a bomb or a platoon, even odds."""
    board = Board("2p")
    owner, kind = [-1] * board.size, [-1] * board.size
    for name, seat, k in [("L3", 0, FLAG), ("H1", 0, MARSHAL), ("L1", 0, MINE), ("A1", 1, FLAG), ("F0", 1, corner_kind),
                          ("A3", 1, MINE), ("H0", 1, PLATOON)]:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    pos = Position(board, owner, kind, [True, True], 0, 0, 31, True, zobrist_keys(board))
    threat = [[] for _ in range(board.size)]
    threat[board.point("F0")] = [0.5 * LOSS[BOMB][k] + 0.5 * LOSS[PLATOON][k] for k in range(12)]
    return board, pos, threat


@pytest.mark.parametrize("depth", [1, 2])
def test_the_marshal_does_not_step_beside_a_likely_bomb(depth):
    """In a world that drew a platoon on F0 our 司令 takes the platoon on H0, where the corner piece
    reaches it by rail; with the beliefs' even odds of a bomb there it keeps off the corner's
    column (H0 and G0)."""
    board, pos, threat = _marshal_and_a_hidden_corner(PLATOON)
    roots = [(m // board.size, m % board.size) for m in pos.moves()]
    reach = {board.point("G0"), board.point("H0")}
    inf = float("inf")
    for table, beside in (((), True), (threat, False)):
        values = Scorer().score(pos, roots, [[]] * len(roots), depth, inf, 0, table)
        assert (roots[values.index(max(values))][1] in reach) == beside


def test_exposure_trades_a_worlds_draw_for_the_beliefs_expectation():
    """The static pass sees no reply: the full expected loss (half a bomb's 350 on a 司令). A world
    searching the enemy's reply already sees its own draw, so it is charged the expectation less
    that: over worlds drawing the bomb one time in two the charges cancel."""
    board, platoon, threat = _marshal_and_a_hidden_corner(PLATOON)
    _, bomb, _ = _marshal_and_a_hidden_corner(BOMB)
    g0 = board.point("G0")
    assert [exposure(pos, g0, MARSHAL, threat, 0, 1) for pos in (platoon, bomb)] == pytest.approx([175, 175])
    seen = [exposure(pos, g0, MARSHAL, threat, 0, 2) for pos in (platoon, bomb)]
    assert seen == pytest.approx([175, 175 - 350])
    assert exposure(platoon, board.point("H1"), MARSHAL, threat, 0, 1) == 0  # a camp cannot be attacked
    assert exposure(platoon, board.point("I0"), MARSHAL, threat, 0, 1) == 0  # the platoon on H0 blocks the rail
    assert exposure(platoon, g0, ENGINEER, threat, 0, 1) == 0 < threat[board.point("F0")][ENGINEER]  # not CHARGED


def test_threats_follow_the_beliefs():
    """At the start of a dark game each hidden enemy piece's expected take from a piece of ours is its
    kinds' losses weighed by the beliefs; our own pieces and the headquarters threaten nothing."""
    engine = Player("search", 1)
    engine.new_game("2p", 0, Rules("2p"))
    engine.lineup("")
    engine.begin({})
    engine.deployments.refresh(engine.pos)
    board = engine.board
    table = threats(engine.pos, engine.deployments, 0)
    e0 = board.point("E0")
    probs = engine.deployments.probabilities(1, engine.pos.tag[e0])
    assert table[e0][MARSHAL] == pytest.approx(sum(p * LOSS[k][MARSHAL] for k, p in enumerate(probs)))
    assert table[e0][MARSHAL] >= probs[BOMB] * 350 > 0
    assert table[board.point("G2")] == table[board.point("A1")] == []
