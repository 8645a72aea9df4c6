"""The evaluation fit: SGF games in, weights in evaluation units out, and the shipped weights load."""

import gzip
import json
import math
import random
import sys

from engine_core.args import UsageError
from gomoku_protocol import fit, fit_order, weights
from gomoku_protocol import patterns as pt
from gomoku_protocol.position import Position
from gomoku_protocol.record import read_sgf_games
from gomoku_protocol.seats import baseline_move
from conftest import DATA, ROOT


def baseline_games(count: int, seed: int) -> str:
    """``count`` games of the one-ply baseline against itself from random openings, as SGF."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        b = Position(15, 15, 0)
        moves = []
        winner = 0
        for _ in range(3):
            i = b.index(7 + rng.randint(-2, 2), 7 + rng.randint(-2, 2))
            while b.cells[i]:
                i = b.index(7 + rng.randint(-3, 3), 7 + rng.randint(-3, 3))
            b.play(i, b.side)
            moves.append(i)
        while not b.full():
            mover = b.side
            i = baseline_move(b) if rng.random() > 0.15 else rng.choice(sorted(b.cand))
            won = b.wins_at(i, mover)
            b.play(i, mover)
            moves.append(i)
            if won:
                winner = mover
                break
        body = "".join(f";{'BW'[n % 2]}[{chr(97 + b.xy(i)[0])}{chr(97 + b.xy(i)[1])}]"
                       + ("C[opening move]" if n < 3 else "C[1ms]") for n, i in enumerate(moves))
        result = {0: "0", 1: "B+1", 2: "W+1"}[winner]
        out.append(f"(;FF[4]GM[4]SZ[15]RU[0]RE[{result}]\n{body})\n")
    return "".join(out)


def test_fit_writes_weights_in_evaluation_units(tmp_path) -> None:
    games = tmp_path / "games.sgf"
    games.write_text(baseline_games(24, 3))
    assert len(read_sgf_games(games.read_text())) == 24
    out = tmp_path / "weights.json"
    assert fit.main(["--out", str(out), str(games)]) == 0
    got = json.loads(out.read_text())
    assert len(got["attack"]) == len(got["defence"]) == 11
    assert all(v >= 0 for v in got["attack"] + got["defence"])  # a shape only ever helps its owner
    assert set(got["threats"]) == set(fit.THREATS) and got["positions"] >= 100
    # The fitted model contains the current evaluation's form, so it fits its own games better.
    assert got["log_loss"] < got["log_loss_current"]


def test_too_few_games_is_a_usage_error(tmp_path, capsys) -> None:
    games = tmp_path / "games.sgf"
    games.write_text(baseline_games(1, 5))
    try:
        fit.main([str(games)])
    except SystemExit as exc:
        assert exc.code == 2
    assert "too few to fit" in capsys.readouterr().err


def test_shipped_weights_load() -> None:
    assert len(weights.ATTACK) == len(weights.DEFENCE) == 11
    assert weights.ATTACK[0] == weights.DEFENCE[0] == 0


LABELS = DATA / "gomoku" / "rapfi_labels.txt.gz"  # python -m gomoku_protocol.label, Rapfi at depth 12


def labels_head(tmp_path, lines: int) -> str:
    """The first ``lines`` labelled positions (whole games, in game order) as a plain file."""
    text = gzip.decompress(LABELS.read_bytes()).decode()
    out = tmp_path / "labels.txt"
    out.write_text("".join(text.splitlines(keepends=True)[:lines]))
    return str(out)


def test_fit_to_a_brain_s_scores_predicts_held_out_positions(tmp_path) -> None:
    out = tmp_path / "weights.json"
    assert fit.main(["--labels", labels_head(tmp_path, 1000), "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["labelled"] == 1000 and got["held_out"] > 100
    assert got["held_out_log_loss"] < math.log(2) - 0.02  # clearly better than "even" everywhere


def test_the_shipped_tables_are_the_fits_of_the_stored_labels(tmp_path) -> None:
    shipped = json.loads((ROOT / "gomoku_protocol" / "data" / "eval_weights.json").read_text())
    out = tmp_path / "weights.json"
    assert fit.main(["--labels", str(LABELS), "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    for key in ("attack", "defence", "threats", "tempo"):
        assert got[key] == shipped[key]
    assert fit_order.main(["--out", str(out), str(LABELS)]) == 0
    assert json.loads(out.read_text())["value"] == pt.VALUE


def test_fitted_order_values_keep_the_forcing_shapes_and_stay_non_negative(tmp_path) -> None:
    out = tmp_path / "order.json"
    assert fit_order.main(["--out", str(out), labels_head(tmp_path, 1600)]) == 0
    got = json.loads(out.read_text())
    value = got["value"]
    assert len(value) == 11 and min(value) >= 0 and max(value[: pt.FOUR + 1]) == fit_order.TOP
    assert value[pt.FOUR + 1:] == pt.VALUE[pt.FOUR + 1:]  # fives and double fours are not fitted
    assert got["held_out"] > 0 and 0 < got["held_out_top10"] <= 1


def test_a_malformed_label_line_is_a_usage_error() -> None:
    try:
        fit.read_labels("h8i9 sixty 1\n")
    except UsageError as exc:
        assert "line 1" in str(exc)
    else:
        raise AssertionError("no error")


def test_shipped_order_values_are_the_patterns_values() -> None:
    assert pt.VALUE == weights.ORDER and len(pt.VALUE) == 11


def test_mate_scores_are_read_and_fitted_as_near_certain_results(tmp_path) -> None:
    from gomoku_protocol.label import eval_score
    assert eval_score("MESSAGE Speed 512K | Depth 12-20 | Eval -116 | Time 40ms") == -116
    assert eval_score("MESSAGE Depth 9-11 | Eval +M13 | Time 3ms") == fit.MATE
    assert eval_score("MESSAGE Depth 9-11 | Eval -M*") == -fit.MATE
    assert eval_score("MESSAGE Eval VAL_NONE") is None and eval_score("OK") is None
    assert fit.win_probability(fit.MATE, 300.0) == fit.MATE_PROB
    assert fit.win_probability(-fit.MATE, 300.0) == 1 - fit.MATE_PROB
    # Mates neither move k (fitted to the other rows) nor are dropped: a file with every score
    # made a mate fits labels of only MATE_PROB and its complement.
    rows = fit.read_labels(gzip.decompress(LABELS.read_bytes()).decode())[:300]
    mated = [(m, fit.MATE if s > 0 else -fit.MATE, r) for m, s, r in rows]
    labels = sorted({round(d.label, 6) for d in fit.labelled_samples(rows[:100] + mated[100:])})
    assert fit.MATE_PROB in labels and round(1 - fit.MATE_PROB, 6) in labels and len(labels) > 10


FAKE_BRAIN = r'''
import sys
stones = 0
for line in sys.stdin:
    line = line.strip()
    if line.startswith("START"):
        print("OK", flush=True)
    elif line == "BOARD":
        stones = 0
    elif line == "DONE":
        if stones == 5:
            continue  # never answers this position
        score = "+M3" if stones == 4 else str(10 * stones)
        print(f"MESSAGE Speed 1K | Eval {score} | Time 1ms", flush=True)
        print("0,0", flush=True)
    elif line == "END":
        break
    elif "," in line:
        stones += 1
'''


def test_label_reads_mates_and_restarts_a_brain_that_stops_answering(tmp_path) -> None:
    from gomoku_protocol.label import Labeller
    script = tmp_path / "brain.py"
    script.write_text(FAKE_BRAIN)
    # A generous patience: on a loaded machine the fake brain's interpreter alone may take seconds to start.
    brain = Labeller(f"{sys.executable} {script}", 12, 300, patience_s=10.0)
    assert brain.score("h8i9j10") == (30, "a1")
    assert brain.score("h8i9j10k11") == (fit.MATE, "a1")
    assert brain.score("h8i9j10k11l12") == (None, "")  # no answer: restarted, position skipped
    assert brain.restarts == 1
    assert brain.score("h8i9") == (20, "a1")
    brain.close()


def test_label_takes_a_board_size_and_other_rules_on_request() -> None:
    from gomoku_protocol import label
    games = read_sgf_games(
        "(;FF[4]GM[4]SZ[20]RU[0]RE[B+1];B[kk]C[opening move];W[kl]C[opening move];B[ll]C[1ms];W[mm]C[1ms];B[jj]C[1ms])\n"
        "(;FF[4]GM[4]SZ[15]RU[4]RE[W+1];B[hh]C[opening move];W[hi]C[1ms];B[ii]C[1ms];W[gg]C[1ms])\n")
    assert label.positions(games, 20) == [("k11k12", 1.0), ("k11k12l12", 0.0), ("k11k12l12m13", 1.0)]
    assert label.positions(games, 15) == []  # a renju game's positions only on request
    assert label.positions(games, 15, any_rule=True) == [("h8", 1.0), ("h8h9", 0.0), ("h8h9i9", 1.0)]
