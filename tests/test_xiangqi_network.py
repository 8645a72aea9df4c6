"""The learned evaluation (docs/xiangqi.md, "Learned evaluation"): the shipped weights load, make and
unmake keep the first layer's accumulator equal to a recomputation, and the option switches it on and off."""

import io
import json
import os
import pathlib
import random
import shutil
import sys

import pytest
from tools import xq_nn_data  # tests/tools: the training data's generator

from ucci_engine.engine import Engine
from ucci_engine.evaluate import NN_WEIGHT_BOUND, TEMPO, Network, lines_in_units, load_network, nn_output, nn_refresh, parse_network, weighed_lines
from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import parse_move

BALANCED = pathlib.Path(__file__).resolve().parent.parent / "ucci_engine" / "data" / "balanced.epd"

MIDDLE_GAME = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
MIRRORED = "3a1ab1r/3nk4/4b1n2/p1p1p1pNp/4c4/2P6/P2R2P1P/5CcC1/9/2BAKAB2 w - - 0 1"  # left to right
TURNED = "2bakab2/9/5cCc1/p2r2p1p/2p6/4C4/P1P1P1PnP/4B1N2/3NK4/3A1AB1R b - - 0 1"  # colours swapped, board turned


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


def fresh_evaluation(pos: Position, net: Network) -> int:
    """The evaluation of ``pos``'s board and side to move by a position set up from it alone."""
    return Position.from_fen(pos.fen(), net=net).evaluate()


@pytest.mark.parametrize("seed", range(4))
def test_the_lazy_evaluation_after_moves_null_moves_and_takebacks_equals_a_fresh_one(seed: int) -> None:
    # Evaluated now and then only, so the accumulator is brought up over several stale plies at once, across
    # null moves (as the search makes them: not in check) and takebacks of plies never evaluated.
    rng = random.Random(100 + seed)
    net = load_network()
    pos = Position.from_fen(MIDDLE_GAME if seed % 2 else START_FEN, net=net)
    line: list[str] = []  # "m" a move, "n" a null move
    evaluated = 0
    for _ in range(400):
        roll = rng.random()
        # The legal moves only when one is to be made: finding them makes each, which would mark the ply
        # after this one stale before a null move could reuse it as the search does.
        moves = pos.legal_moves() if not line or roll < 0.4 else []
        if moves:
            assert pos.make(rng.choice(moves))
            line.append("m")
        elif not pos.in_check() and roll < 0.55:
            pos.make_null()
            line.append("n")
        elif line:
            pos.unmake_null() if line.pop() == "n" else pos.unmake()
        if rng.random() < 0.3:
            assert pos.evaluate() == fresh_evaluation(pos, net)
            evaluated += 1
    assert "n" in line or evaluated > 50


def test_the_network_switched_on_in_the_middle_of_a_game_evaluates_every_position_back_to_the_first() -> None:
    net = load_network()
    pos = Position.from_fen(START_FEN)
    for name in ("h2e2", "h9g7", "h0g2", "i9h9", "e2e6"):  # the last takes a pawn
        assert pos.push_name(name)
    pos.set_network(net)
    copy = pos.copy()
    for _ in range(5):
        assert pos.evaluate() == fresh_evaluation(pos, net)
        pos.unmake()
    assert pos.evaluate() == fresh_evaluation(pos, net)
    assert copy.evaluate() == fresh_evaluation(copy, net)  # a copy keeps its own accumulators


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


def test_the_network_is_on_by_default_and_the_option_switches_it_off_for_the_game_and_on_again() -> None:
    engine = Engine()
    engine.set_position(MIDDLE_GAME, ["b6c8"])
    assert engine.position.net is not None
    learned = engine.static_eval()
    engine.set_network(False)
    assert engine.position.net is None and engine.static_eval() != learned
    engine.set_position(MIDDLE_GAME, ["b6c8", "a9a8"])
    assert engine.position.net is None  # a new position keeps the option
    engine.set_network(True)
    engine.set_position(MIDDLE_GAME, ["b6c8"])
    assert engine.position.net is not None and engine.static_eval() == learned


def test_units_that_do_not_fill_their_entries_with_weights_near_their_bound_stay_apart_in_the_packed_accumulator() -> None:
    rng = random.Random(7)
    bound = NN_WEIGHT_BOUND - 1  # the largest weight a file may have: 33 terms of it still fit a unit's lane
    codes = [c for c in range(1, 16) if c != 8]
    lines = ["hidden 5", "bias " + " ".join(str(rng.choice([-bound, bound])) for _ in range(5)), "out 5 -7 9 -3 4", "outbias 1"]
    lines += [f"w {c} {sq} " + " ".join(str(rng.choice([-bound, bound, rng.randint(-bound, bound)])) for _ in range(5))
              for c in codes for sq in range(90)]
    net = parse_network("\n".join(lines) + "\n")
    pos = Position.from_fen(MIDDLE_GAME, net=net)
    for _ in range(40):
        moves = pos.legal_moves()
        if not moves:
            break
        assert pos.make(rng.choice(moves))
        assert list(pos.acc) == list(nn_refresh(net, pos.board))
        assert pos.evaluate() == fresh_evaluation(pos, net)


@pytest.mark.parametrize("text", ["", "hidden 2\nbias 1\nout 1 2\n", "hidden 1\nbias 0\nout 1\nw 5 0 1 2\n",
                                  "hidden 1\nbias 0\nout 1\nw 8 0 1\n", "hidden x\n", "weights 1 2\n",
                                  f"hidden 1\nbias {NN_WEIGHT_BOUND}\nout 1\n", f"hidden 1\nbias 0\nout 1\nw 5 0 -{NN_WEIGHT_BOUND}\n"])
def test_a_broken_network_file_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError):
        parse_network(text)


# The data generator (tests/tools/xq_nn_data.py) on tiny runs, labelled by our own engine at a few hundred nodes.

OUR_ENGINE = f"{sys.executable} -m engine_core --protocol uci"


def tiny_setup(engine: str = OUR_ENGINE, nodes: int = 150, plies: int = 8) -> "xq_nn_data.SelfPlay":
    return xq_nn_data.SelfPlay(engine, nodes, 7, xq_nn_data.read_openings(str(BALANCED)), plies)


def games_in(path: pathlib.Path) -> dict[int, list[dict[str, object]]]:
    games: dict[int, list[dict[str, object]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        games.setdefault(int(rec["game"]), []).append(rec)
    return games


def replayed(records: list[dict[str, object]]) -> None:
    """Each position is legal, its best move legal in it, and every field in range."""
    for rec in records:
        pos = Position.from_fen(str(rec["fen"]))
        move = parse_move(str(rec["best"]))
        assert move in pos.legal_moves()
        assert rec["capture"] == (pos.board[move & 127] != 0)
        assert rec["check"] == pos.in_check()
        assert rec["n"] == len(records)
        assert rec["result"] in (0.0, 0.5, 1.0)
        assert isinstance(rec["cp"], int)


def test_the_generator_writes_whole_labelled_games_and_a_rerun_plays_only_the_missing_ones(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "games.jsonl"
    log = io.StringIO()
    assert xq_nn_data.generate(str(out), tiny_setup(), games=2, workers=1, log=log) == 2
    first = out.read_text(encoding="utf-8")
    games = games_in(out)
    assert sorted(games) == [0, 1]
    for records in games.values():
        assert 1 <= len(records) <= 8
        replayed(records)
    assert xq_nn_data.generate(str(out), tiny_setup(), games=2, workers=1, log=log) == 0  # nothing left to play
    assert xq_nn_data.generate(str(out), tiny_setup(), games=3, workers=1, log=log) == 1  # only game 2
    assert out.read_text(encoding="utf-8").startswith(first)
    assert sorted(games_in(out)) == [0, 1, 2]


def test_a_game_cut_off_in_its_write_is_dropped_and_played_again_the_same(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "games.jsonl"
    xq_nn_data.generate(str(out), tiny_setup(), games=2, workers=1, log=io.StringIO())
    whole = out.read_text(encoding="utf-8")
    lines = whole.splitlines(keepends=True)
    last_game = json.loads(lines[-1])["game"]
    kept = [line for line in lines if json.loads(line)["game"] != last_game]
    cut = [line for line in lines if json.loads(line)["game"] == last_game]
    out.write_text("".join(kept + cut[:-1]) + cut[-1][:10], encoding="utf-8")  # the last game half written
    assert xq_nn_data.done_games(str(out)) == {1 - last_game}
    assert out.read_text(encoding="utf-8") == "".join(kept)
    assert xq_nn_data.generate(str(out), tiny_setup(), games=2, workers=1, log=io.StringIO()) == 1
    assert out.read_text(encoding="utf-8") == whole  # a game depends on the seed and its id alone


def test_two_worker_processes_write_the_games_one_process_writes(tmp_path: pathlib.Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    xq_nn_data.generate(str(one), tiny_setup(plies=4), games=3, workers=1, log=io.StringIO())
    xq_nn_data.generate(str(two), tiny_setup(plies=4), games=3, workers=2, log=io.StringIO())
    assert games_in(two) == games_in(one)


def test_a_game_on_a_dask_cluster_is_the_game_played_here(tmp_path: pathlib.Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra (pip install 'sanqi[cluster]') is not installed")
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    xq_nn_data.generate(str(here), tiny_setup(plies=4), games=2, workers=1, log=io.StringIO())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert xq_nn_data.generate(str(there), tiny_setup(plies=4), games=2, workers=2,
                                   cluster=cluster.scheduler_address, log=io.StringIO()) == 2
    assert games_in(there) == games_in(here)


@pytest.mark.peer
def test_pikafish_hce_labels_games_whose_moves_are_all_legal_here(tmp_path: pathlib.Path) -> None:
    """Pikafish's squares and FENs are ours (a0-i9, red uppercase, w/b): the same moves reach the same FEN,
    and every move it chose in its games is legal for us."""
    engine = os.environ.get("SANQI_PIKAFISH") or shutil.which("pikafish-hce")
    if not engine:
        pytest.skip("pikafish-hce is neither on PATH nor named by SANQI_PIKAFISH")
    fish = xq_nn_data.Labeller(engine)
    try:
        for moves in (["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b7b0"], ["c3c4", "g6g5", "b0c2", "h7h0"]):
            ours = Position.from_fen(START_FEN)
            for m in moves:
                assert ours.make(parse_move(m))
            fish.send(f"position fen {START_FEN} moves {' '.join(moves)}")
            fish.send("d")
            theirs = next(line for line in fish.until("Checkers") if line.startswith("Fen:"))
            assert theirs.split()[1:3] == ours.fen().split()[:2]
    finally:
        fish.close()
    out = tmp_path / "games.jsonl"
    assert xq_nn_data.generate(str(out), tiny_setup(engine, nodes=2000, plies=60), games=2, workers=1, log=io.StringIO()) == 2
    games = games_in(out)
    for records in games.values():
        replayed(records)
    assert sum(len(r) for r in games.values()) > 20


def test_the_trainer_writes_a_network_the_engine_reads_and_reads_only_new_lines_again(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy", reason="the train extra (pip install 'sanqi[train]') is not installed")
    from tools import xq_nn_train

    data, out = tmp_path / "games.jsonl", tmp_path / "net.txt"
    xq_nn_data.generate(str(data), tiny_setup(plies=10), games=3, workers=1, log=io.StringIO())  # game 0 held out
    quiet = sum(1 for line in data.read_text(encoding="utf-8").splitlines()
                if not json.loads(line)["check"] and not json.loads(line)["capture"])
    assert xq_nn_train.main([str(data), "--out", str(out), "--epochs", "2", "--hidden", "4"]) == 0
    net = parse_network(out.read_text(encoding="ascii"))
    assert net.hidden == 4
    assert f"{quiet} quiet positions ({quiet} new" in capsys.readouterr().err
    xq_nn_data.generate(str(data), tiny_setup(plies=10), games=4, workers=1, log=io.StringIO())
    added = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    more = sum(1 for r in added if r["game"] == 3 and not r["check"] and not r["capture"])
    assert xq_nn_train.main([str(data), "--out", str(out), "--epochs", "1", "--hidden", "4"]) == 0
    assert f"{quiet + more} quiet positions ({more} new" in capsys.readouterr().err
    data.write_text("".join(data.read_text(encoding="utf-8").splitlines(keepends=True)[:-1]), encoding="utf-8")  # cut
    assert xq_nn_train.main([str(data), "--out", str(out), "--epochs", "1", "--hidden", "4"]) == 0
    err = capsys.readouterr().err
    assert "reading it all again" in err
    cut = sum(1 for line in data.read_text(encoding="utf-8").splitlines() if not json.loads(line)["check"] and not json.loads(line)["capture"])
    assert f"{cut} quiet positions ({cut} new" in err


def test_the_trainers_symmetries_map_each_feature_to_its_mirror_and_to_the_other_colour_turned_round() -> None:
    pytest.importorskip("numpy", reason="the train extra (pip install 'sanqi[train]') is not installed")
    from tools import xq_nn_train

    mirror, turn = xq_nn_train.symmetry_tables()
    pos = Position.from_fen(MIDDLE_GAME)
    feats = [pos.board[sq] * 90 + sq for sq in range(90) if pos.board[sq]]
    mirrored = Position.from_fen(MIRRORED)
    assert sorted(int(mirror[i]) for i in feats) == sorted(mirrored.board[sq] * 90 + sq for sq in range(90) if mirrored.board[sq])
    turned = Position.from_fen(TURNED)
    assert sorted(int(turn[i]) for i in feats) == sorted(turned.board[sq] * 90 + sq for sq in range(90) if turned.board[sq])
    assert int(mirror[xq_nn_train.PAD]) == int(turn[xq_nn_train.PAD]) == xq_nn_train.PAD
    # The same for the "kings" features, each piece also beside each king's square.
    np = pytest.importorskip("numpy")
    rows = {fen: xq_nn_train.kings_features(np.array([sorted(p.board[sq] * 90 + sq for sq in range(90) if p.board[sq])
                                                      + [xq_nn_train.PAD] * (32 - sum(1 for sq in range(90) if p.board[sq]))]))[0]
            for fen, p in ((fen, Position.from_fen(fen)) for fen in (MIDDLE_GAME, MIRRORED, TURNED))}
    mirror, turn = xq_nn_train.kings_symmetry_tables()
    assert sorted(mirror[rows[MIDDLE_GAME]]) == sorted(rows[MIRRORED])
    assert sorted(turn[rows[MIDDLE_GAME]]) == sorted(rows[TURNED])
    assert len(set(rows[MIDDLE_GAME])) == 3 * len(feats) + 1  # three rows a piece, and the padding


def test_the_labeller_keeps_the_last_exact_score_of_a_search_stopped_on_a_bound(tmp_path: pathlib.Path) -> None:
    """At a node count a search may end on a fail-low; its bound is not the position's score. Fairy-Stockfish
    names itself and numbers ranks 1-10: its moves come back in our squares."""
    script = tmp_path / "fake_engine.py"
    script.write_text(
        "import sys\n"
        "name = sys.argv[1]\n"
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w == ['uci']: print(f'id name {name}'); print('uciok', flush=True)\n"
        "    elif w == ['isready']: print('readyok', flush=True)\n"
        "    elif w[:1] == ['go']:\n"
        "        print('info depth 6 score cp 97 nodes 600 pv h7e7')\n"
        "        print('info depth 7 score cp -24 upperbound nodes 5001 pv h7e7')\n"
        "        print('bestmove h8e8' if name.startswith('Fairy') else 'bestmove h7e7', flush=True)\n"
        "    elif w == ['quit']: break\n",
        encoding="utf-8")
    for name, fairy in (("Pikafish HCE", False), ("Fairy-Stockfish 14", True)):
        fish = xq_nn_data.Labeller(f"{sys.executable} {script} '{name}'")
        try:
            assert fish.fairy == fairy
            assert fish.search(START_FEN, [], 5000) == ("h7e7", 97, None)
        finally:
            fish.close()


def test_the_trainer_computes_a_weights_files_output_as_the_engine_does() -> None:
    np = pytest.importorskip("numpy", reason="the train extra (pip install 'sanqi[train]') is not installed")
    from tools import xq_nn_train

    net = load_network()
    q1, qb1, q2, qb2 = xq_nn_train.weights_file(str(BALANCED.parent / "xiangqi-nn.txt"))
    rng = random.Random(3)
    for fen in (START_FEN, MIDDLE_GAME, MIRRORED, TURNED):
        pos = Position.from_fen(fen)
        for _ in range(40):
            feats = [pos.board[sq] * 90 + sq for sq in range(90) if pos.board[sq]]
            x = np.array([feats + [xq_nn_train.PAD] * (32 - len(feats))])
            assert int(xq_nn_train.quantized_output(q1, qb1, q2, qb2, x)[0]) == nn_output(net, nn_refresh(net, pos.board))
            moves = pos.legal_moves()
            if not moves:
                break
            pos.make(rng.choice(moves))
