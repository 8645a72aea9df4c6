"""The tuner's linear model is the engine's evaluation, and fitting it to data lowers its error."""

from pathlib import Path

from conftest import DATA
from ucci_engine.evaluate import KING_TERMS, TEMPO
from ucci_engine.position import Position
from ucci_engine.tune import TERM_COUNT, features, fit, fit_scale, loss, read, run_fit, start, value

SAMPLE = DATA / "xiangqi" / "tune_sample.txt"


def fens() -> list[str]:
    return [line.split(";")[0] for line in SAMPLE.read_text().splitlines() if line and not line.startswith("#")]


def test_the_sample_has_positions_with_scores() -> None:
    rows, targets = read(SAMPLE)
    assert len(rows) >= 40 and all(0.0 < t < 1.0 for t in targets)


def test_the_model_the_tuner_fits_is_the_evaluation_the_engine_plays() -> None:
    w = start()
    for fen in fens():
        pos = Position.from_fen(fen)
        red = pos.evaluate() - TEMPO if pos.side == 0 else TEMPO - pos.evaluate()
        # The engine rounds the structure sum down to whole units; the tables are whole already.
        assert abs(value(w, features(pos)) - red) <= 1, fen


def test_the_engine_weighs_no_candidate_term() -> None:
    # Their code is the tuner's alone: a fit that weighs one must bring it back into the evaluation.
    from ucci_engine.weights import TERM_WEIGHTS

    assert len(TERM_WEIGHTS) == TERM_COUNT and not any(TERM_WEIGHTS[KING_TERMS:])


def test_fitting_lowers_the_error_on_the_data() -> None:
    rows, targets = read(SAMPLE)
    w0 = start()
    k = fit_scale(rows, targets, w0)
    w = fit(rows, targets, w0, k, rounds=4)
    assert loss(rows, targets, w, k) < loss(rows, targets, w0, k)


def test_the_fitted_weights_are_a_module_the_evaluation_can_import(tmp_path) -> None:
    out = tmp_path / "weights.py"
    before, after, _, _ = run_fit(SAMPLE, out, rounds=2)
    assert after <= before
    names: dict[str, object] = {}
    exec(out.read_text(), names)  # noqa: S102 - the file the fit just wrote
    tables = names["PIECE_SQUARE"]
    assert len(names["MATERIAL"]) == 8 and len(names["TERM_WEIGHTS"]) == TERM_COUNT
    assert isinstance(tables, list) and len(tables) == 8 and all(len(t) == 90 for t in tables)
    # Each table is its own mirror image: a piece on the a-file is worth what it is on the i-file.
    assert all(t[rank * 9 + file] == t[rank * 9 + 8 - file] for t in tables for rank in range(10) for file in range(9))


def test_the_shipped_weights_are_what_the_tuner_reads_back() -> None:
    from ucci_engine import weights
    from ucci_engine.tune import render

    assert render(start()) == (Path(weights.__file__)).read_text()


def test_harvesting_played_games_keeps_each_quiet_position_once(tmp_path) -> None:
    from ucci_engine.tune import harvest, quiet

    game = tmp_path / "game.pgn"
    game.write_text('[Result "1-0"]\n\n1. H2-E2 H9-G7\n2. H0-G2 I9-H9\n3. I0-H0 B9-C7\n')
    out = tmp_path / "positions.txt"
    assert harvest(out, [game, game], skip=2, every=1, seed=1) == 5  # plies 2 to 6, the second copy adds none
    lines = out.read_text().splitlines()
    assert all(line.endswith(";1.0") and quiet(Position.from_fen(line.split(";")[0])) for line in lines)


FAKE_ENGINE = """
import sys
asked = open(sys.argv[1], "a")
for line in sys.stdin:
    words = line.split()
    if words == ["uci"]:
        print("uciok", flush=True)
    elif words == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["position", "fen"]:
        asked.write(" ".join(words[2:]) + "\\n")
        asked.flush()
    elif words[:1] == ["go"]:
        print("info depth 1 score cp 30", flush=True)
        print("bestmove a0a1", flush=True)
    elif words == ["quit"]:
        break
"""


def test_labelling_continues_a_stopped_run_without_asking_its_positions_again(tmp_path) -> None:
    import sys

    from ucci_engine.tune import label

    engine = tmp_path / "engine.py"
    engine.write_text(FAKE_ENGINE)
    asked = tmp_path / "asked.txt"
    red, black, third = (f"{board} {side} - - 0 1" for board, side in (
        ("4k4/9/9/9/9/9/9/9/9/3K5", "w"), ("4k4/9/9/9/9/9/9/9/9/3K5", "b"), ("3k5/9/9/9/9/9/9/9/9/4K4", "w")))
    src = tmp_path / "positions.txt"
    src.write_text(f"{red};1.0\n{black};0.5\n{third};0.0\n")
    out = tmp_path / "positions.txt.labelled"
    out.write_text(f"{red};1.0;-77\n{black};0.5;1")  # stopped while writing its second line
    assert label(src, out, f"{sys.executable} {engine} {asked}", depth=3) == 2
    # The first line is kept as it was; the cut one is asked again, its score turned to red's view.
    assert out.read_text().splitlines() == [f"{red};1.0;-77", f"{black};0.5;-30", f"{third};0.0;30"]
    assert asked.read_text().splitlines() == [black, third]


def test_scaling_one_kinds_square_values_leaves_every_other_weight_as_it_was() -> None:
    from ucci_engine.tune import SCALABLE, scaled

    w = start()
    pawns = scaled(w, ["pawn-squares"], 125)
    changed = {i for i in range(len(w)) if pawns[i] != w[i]}
    assert changed and changed <= set(SCALABLE["pawn-squares"]) and not changed & set(SCALABLE["rook-squares"])
    assert all(pawns[i] == (int(w[i]) * 125) // 100 for i in SCALABLE["pawn-squares"])


def test_scaling_one_kinds_material_changes_that_value_alone() -> None:
    from ucci_engine.tables import ROOK
    from ucci_engine.tune import MATERIAL_KINDS, SCALABLE, scaled
    from ucci_engine.weights import MATERIAL

    w = start()
    rooks = scaled(w, ["rook-material"], 108)
    (i,) = SCALABLE["rook-material"]
    assert [j for j in range(len(w)) if rooks[j] != w[j]] == [i]
    assert MATERIAL_KINDS[i] == ROOK and rooks[i] == (MATERIAL[ROOK] * 108) // 100
