"""The learned evaluation (docs/xiangqi.md, "Learned evaluation"): the shipped weights load, make and
unmake keep the first layer's accumulator equal to a recomputation, and the option switches it on and off."""

import random

import pytest

from ucci_engine.engine import Engine
from ucci_engine.evaluate import TEMPO, lines_in_units, load_network, nn_output, nn_refresh, parse_network, weighed_lines
from ucci_engine.position import START_FEN, Position

MIDDLE_GAME = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"


def test_the_shipped_network_loads_with_one_weight_per_hidden_unit_for_each_piece_on_each_square() -> None:
    net = load_network()
    assert net.hidden > 0
    assert len(net.first) == 16 * 90 * net.hidden
    assert len(net.bias) == len(net.out) == net.hidden
    assert any(w != 0 for w in net.first)  # trained, not a file of zeros


@pytest.mark.parametrize("seed", range(6))
def test_the_accumulator_after_random_moves_and_takebacks_equals_a_recomputation(seed: int) -> None:
    rng = random.Random(seed)
    net = load_network()
    pos = Position.from_fen(MIDDLE_GAME if seed % 2 else START_FEN, net=net)
    made = 0
    captures = 0
    for _ in range(300):
        moves = pos.legal_moves()
        if moves and (made == 0 or rng.random() < 0.7):
            move = rng.choice(moves)
            captures += pos.board[move & 127] != 0
            assert pos.make(move)
            made += 1
        elif made:
            pos.unmake()
            made -= 1
        assert list(pos.acc) == list(nn_refresh(net, pos.board))
    assert captures > 0  # the captured piece's weights were taken out and put back along the way


def test_an_illegal_move_leaves_the_accumulator_as_it_was() -> None:
    net = load_network()
    pos = Position.from_fen("4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1", net=net)
    before = list(pos.acc)
    assert not pos.make(3 << 7 | 4)  # the king steps onto the rook's file
    assert list(pos.acc) == before


def test_with_the_network_the_evaluation_is_the_hand_made_one_plus_its_output() -> None:
    net = load_network()
    hand = Position.from_fen(MIDDLE_GAME)
    learned = Position.from_fen(MIDDLE_GAME, net=net)
    red = hand.score + lines_in_units(weighed_lines(hand.board, hand.kings))
    assert hand.evaluate() == red + TEMPO
    assert learned.evaluate() == red + nn_output(net, learned.acc) + TEMPO


def test_the_option_switches_the_network_on_for_the_game_and_off_again() -> None:
    engine = Engine()
    engine.set_position(MIDDLE_GAME, ["b6c8"])
    hand = engine.static_eval()
    engine.set_network(True)
    assert engine.position.net is not None
    engine.set_position(MIDDLE_GAME, ["b6c8", "a9a8"])
    assert engine.position.net is not None  # a new position keeps the option
    engine.set_network(False)
    engine.set_position(MIDDLE_GAME, ["b6c8"])
    assert engine.position.net is None and engine.static_eval() == hand


@pytest.mark.parametrize("text", ["", "hidden 2\nbias 1\nout 1 2\n", "hidden 1\nbias 0\nout 1\nw 5 0 1 2\n",
                                  "hidden 1\nbias 0\nout 1\nw 8 0 1\n", "hidden x\n", "weights 1 2\n"])
def test_a_broken_network_file_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError):
        parse_network(text)
