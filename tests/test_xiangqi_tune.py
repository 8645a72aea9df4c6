"""The tuner's linear model is the engine's evaluation, and fitting it to data lowers its error."""

from conftest import DATA
from ucci_engine.evaluate import TEMPO, TERM_COUNT
from ucci_engine.position import Position
from ucci_engine.tune import features, fit, fit_scale, loss, read, render, run_fit, start

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
        model = sum(a * b for a, b in zip(w, features(pos)))
        # The engine rounds each table entry and the structure sum down to whole units.
        assert abs(model - red) <= len(pos.pieces[0]) + len(pos.pieces[1]) + 1, fen


def test_fitting_lowers_the_error_on_the_data() -> None:
    rows, targets = read(SAMPLE)
    w0 = start()
    k = fit_scale(rows, targets, w0)
    w = fit(rows, targets, w0, k, rounds=4)
    assert loss(rows, targets, w, k) < loss(rows, targets, w0, k)


def test_the_fitted_weights_are_a_module_the_evaluation_can_import(tmp_path) -> None:
    out = tmp_path / "weights.py"
    before, after = run_fit(SAMPLE, out, rounds=2)
    assert after <= before
    names: dict[str, object] = {}
    exec(out.read_text(), names)
    assert len(names["MATERIAL"]) == 8 and len(names["POSITIONAL_PERCENT"]) == 8 and len(names["TERM_WEIGHTS"]) == TERM_COUNT
