"""Match statistics against hand computations, and SPRT deciding on synthetic result streams."""

import math

import pytest

from engine_core.stats import GAME_POINTS, PAIR_POINTS, Sprt, Tally, elo, elo_interval, llr, los


def hand_elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


def test_trinomial_elo_and_interval_match_the_hand_computation():
    # 60 wins, 20 draws, 20 losses: s = 0.7; per-game variance 0.6*0.3² + 0.2*0.2² + 0.2*0.7² = 0.16
    se = math.sqrt(0.16 / 100)
    got = elo_interval([20, 20, 60], GAME_POINTS)
    want = (hand_elo(0.7), hand_elo(0.7 - 1.959964 * se), hand_elo(0.7 + 1.959964 * se))
    assert got == pytest.approx(want, abs=1e-3)


def test_pentanomial_elo_and_interval_match_the_hand_computation():
    # 20 pairs totalling 0, 0.5, 1, 1.5, 2 points: 1, 2, 4, 6, 7 times; a pair counts as its total / 2
    mean = (0 * 1 + 0.25 * 2 + 0.5 * 4 + 0.75 * 6 + 1 * 7) / 20
    var = (1 * 0.7 ** 2 + 2 * 0.45 ** 2 + 4 * 0.2 ** 2 + 6 * 0.05 ** 2 + 7 * 0.3 ** 2) / 20
    assert (mean, var) == pytest.approx((0.7, 0.085))
    se = math.sqrt(var / 20)
    got = elo_interval([1, 2, 4, 6, 7], PAIR_POINTS)
    assert got == pytest.approx((hand_elo(mean), hand_elo(mean - 1.959964 * se), hand_elo(mean + 1.959964 * se)), abs=1e-3)


def test_a_tally_counts_games_and_pairs_from_the_first_engines_side():
    t = Tally()
    for first, second in [(1, 1), (1, 0.5), (0.5, 0.5), (0, 1), (0, 0)]:
        t.add_pair(first, second)
    assert (t.wins, t.draws, t.losses, t.games, t.pairs) == (4, 3, 3, 10, 5)
    assert t.pentanomial == [1, 0, 2, 1, 1]
    assert t.score() == pytest.approx(5.5 / 10)
    assert t.draw_ratio() == pytest.approx(0.3)
    assert t.elo()[0] == pytest.approx(hand_elo(0.55))


def test_los_is_the_normal_tail_of_wins_minus_losses():
    assert los(30, 20) == pytest.approx(0.5 * (1 + math.erf(10 / math.sqrt(100))))
    assert los(5, 5) == 0.5 and los(0, 0) == 0.5


def test_perfect_and_null_scores_are_capped_not_infinite():
    assert elo(1.0) == 2000 and elo(0.0) == -2000


def test_the_gsprt_log_likelihood_ratio_agrees_with_its_normal_approximation():
    # For small Elo bounds the LLR is close to n (s1 - s0)(2 s - s0 - s1) / (2 var) (Van den Bergh)
    counts = [380, 400, 420]  # losses, draws, wins: s = 0.5 + 40 / 2400
    s = 0.5 + 40 / 2400
    var = (380 * (0 - s) ** 2 + 400 * (0.5 - s) ** 2 + 420 * (1 - s) ** 2) / 1200
    s0, s1 = 0.5, 1 / (1 + 10 ** (-5 / 400))
    approx = 1200 * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert llr(counts, GAME_POINTS, 0, 5) == pytest.approx(approx, rel=0.02)


def run_sprt(pattern: list[float], test: Sprt, paired: bool) -> tuple[str, int]:
    """Feed a repeating result pattern (pairs when ``paired``) until the test decides."""
    t = Tally()
    for n in range(10_000):
        a, b = pattern[(2 * n) % len(pattern)], pattern[(2 * n + 1) % len(pattern)]
        t.add_pair(a, b)
        verdict = test.decide(t.llr(test, paired))
        if verdict:
            return verdict, t.games
    raise AssertionError("SPRT never decided")


@pytest.mark.parametrize("paired", [False, True])
def test_sprt_accepts_h1_for_a_clearly_stronger_engine_and_h0_for_a_weaker(paired):
    test = Sprt(0, 20, 0.05, 0.05)
    strong = [1, 1, 0.5, 1, 0, 1, 0.5, 1]  # score 0.75
    weak = [1 - x for x in strong]
    verdict, games = run_sprt(strong, test, paired)
    assert verdict == "H1" and games < 200
    verdict, games = run_sprt(weak, test, paired)
    assert verdict == "H0" and games < 200


def test_sprt_between_the_bounds_plays_on():
    test = Sprt(0, 5)
    t = Tally()
    for r in (1, 0, 0.5, 0.5):
        t.add(r)
    assert test.decide(t.llr(test)) is None
