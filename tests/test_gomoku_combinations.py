"""The evaluation's pattern-combination term (evaluate.COMBINATIONS, data/eval_combos.json): classes,
counts from the board's four points, the term on and off, and its fit on the stored labels."""

import gzip
import json
import random

from gomoku_protocol import evaluate as ev
from gomoku_protocol import fit, label
from gomoku_protocol import patterns as pt
from gomoku_protocol import weights
from gomoku_protocol.data_files import data_file
from gomoku_protocol.position import Position
from gomoku_protocol.record import read_sgf_games
from gomoku_protocol.rules import BLACK, WHITE
from conftest import DATA

LABELS = DATA / "gomoku" / "rapfi_labels.txt.gz"


def random_board(rng: random.Random, size: int, rule: int, stones: int) -> Position:
    b = Position(size, size, rule)
    for _ in range(stones):
        free = [i for i in sorted(b.cand) if not b.wins_at(i, b.side) and b.legal(i, b.side)] or [b.index(size // 2, size // 2)]
        b.play(rng.choice(free), b.side)
    return b


def counted_from_scratch(b: Position, color: int) -> list[int]:
    """Every candidate's class from its four shapes, not only the four points'."""
    counts = [0] * (len(ev.COMBINATIONS) + 1)
    for i in b.cand:
        counts[ev.combination([b.shape(color, d, i) for d in range(4)], b.renju and color == BLACK)] += 1
    return counts


def test_the_counts_skip_no_combination_and_agree_with_the_classes() -> None:
    rng = random.Random(62)
    seen = set()
    for n in range(60):
        rule = (0, 1, 4)[n % 3]
        b = random_board(rng, (15, 20)[n % 2], rule, rng.randint(6, 40))
        counts = ev.combination_counts(b)
        for color in (BLACK, WHITE):
            got = [counts[color * ev.CLASS_COUNT + c] for c in range(ev.CLASS_COUNT)]
            assert got[1:] == counted_from_scratch(b, color)[1:]
            seen |= {c for c in range(1, len(got)) if got[c]}
    assert seen == {1, 2, 3}  # the boards make every class, so the comparison means something


def test_every_class_has_its_example() -> None:
    four, flex3, three, flex2, two = pt.FOUR, pt.FLEX3, pt.THREE, pt.FLEX2, pt.TWO
    cases = {
        (four, four, 0, 0): "four-four", (pt.FLEX4, 0, 0, 0): "four-four", (pt.FOUR2, two, 0, 0): "four-four",
        (four, flex3, 0, 0): "four-three", (four, flex3, flex3, 0): "four-three",
        (four, three, 0, 0): "four-plus", (four, flex2, two, 0): "four-plus",
    }
    for shapes, name in cases.items():
        assert ev.COMBINATIONS[ev.combination(list(shapes), False) - 1] == name, shapes
    for single in ((four, two, two, two), (flex3, flex3, 0, 0), (flex3, three, flex2, 0), (flex2, flex2, two, two),
                   (pt.FIVE, four, flex3, 0), (pt.OVERLINE, four, flex3, 0)):
        assert ev.combination(list(single), False) == 0, single
    # renju's black: a double four is forbidden, no combination of his
    assert ev.combination([four, four, 0, 0], True) == 0 and ev.combination([four, flex3, 0, 0], True) == 2


def test_the_term_adds_its_weighted_counts_and_off_is_the_linear_evaluation() -> None:
    rng = random.Random(7)
    changed = 0
    for _ in range(30):
        b = random_board(rng, 15, 0, rng.randint(8, 30))
        off = ev.evaluate(b, False)
        assert b.evaluate() == ev.evaluate(b, weights.COMBOS_ON)
        if abs(off) >= ev.LIMIT or ev.threat_level(b, b.side) == 2:
            continue
        s, o = b.side, 3 - b.side
        counts = ev.combination_counts(b)
        ours = ev.combination_sum(counts, s, weights.OUR_COMBOS)
        theirs = ev.combination_sum(counts, o, weights.THEIR_COMBOS)
        want = max(-ev.LIMIT, min(ev.LIMIT, off + ours - theirs))
        assert ev.evaluate(b, True) == want
        changed += ours != theirs
    assert changed > 0 or not any(weights.OUR_COMBOS + weights.THEIR_COMBOS)


def test_shipped_combinations_load_and_never_help_the_wrong_side() -> None:
    table = json.loads(data_file("eval_combos.json").read_text(encoding="utf-8"))
    assert table["classes"] == list(ev.COMBINATIONS) and table["on"] == weights.COMBOS_ON
    assert len(weights.OUR_COMBOS) == len(weights.THEIR_COMBOS) == len(ev.COMBINATIONS)
    assert min(weights.OUR_COMBOS + weights.THEIR_COMBOS) >= 0


def test_the_combination_fit_on_labels_writes_a_table_that_fits_its_data(tmp_path) -> None:
    text = gzip.decompress(LABELS.read_bytes()).decode()
    head = tmp_path / "labels.txt"
    head.write_text("".join(text.splitlines(keepends=True)[:1200]))
    out = tmp_path / "combos.json"
    assert fit.main(["--combinations", "--labels", str(head), "--out", str(out)]) == 0
    got = json.loads(out.read_text())
    assert got["classes"] == list(ev.COMBINATIONS) and got["positions"] + got["held_out"] > 1000
    assert min(got["ours"] + got["theirs"]) >= 0 and max(got["ours"] + got["theirs"]) > 0
    # the linear evaluation is the fit with every class at 0: the fit can only do as well on its data
    assert got["log_loss"] <= got["log_loss_linear"] + 1e-4
    assert got["held_out_log_loss"] > got["held_out_entropy"]  # no model predicts below the labels' entropy


def test_label_takes_a_board_size_and_other_rules_on_request() -> None:
    games = read_sgf_games(
        "(;FF[4]GM[4]SZ[20]RU[0]RE[B+1];B[kk]C[opening move];W[kl]C[opening move];B[ll]C[1ms];W[mm]C[1ms];B[jj]C[1ms])\n"
        "(;FF[4]GM[4]SZ[15]RU[4]RE[W+1];B[hh]C[opening move];W[hi]C[1ms];B[ii]C[1ms];W[gg]C[1ms])\n")
    assert label.positions(games, 20) == [("k11k12", 1.0), ("k11k12l12", 0.0), ("k11k12l12m13", 1.0)]
    assert label.positions(games, 15) == []  # a renju game's positions only on request
    assert label.positions(games, 15, any_rule=True) == [("h8", 1.0), ("h8h9", 0.0), ("h8h9i9", 1.0)]
