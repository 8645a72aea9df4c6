"""Match statistics for any two-player result stream: score, Elo with a 95 % interval, LOS, SPRT.

A game scores 1, 0.5 or 0 for the first engine. Games played in pairs from one opening with the
seats swapped are also counted as pentanomial pairs (the pair's total: 0, 0.5, 1, 1.5 or 2), whose
spread is the honest one when an opening favours a side: the two games of a pair are not independent.

Formulas (the ones cutechess-cli, fastchess and fishtest use):

* score ``s = (W + D/2) / N``; logistic Elo ``-400 log10(1/s - 1)``;
* the score's variance per game (trinomial) or per pair (pentanomial, scores halved so a pair counts
  as one sample in [0, 1]) is ``sum p_i (x_i - s)^2``; the 95 % interval is
  ``s ± 1.959964 sqrt(var / n)`` turned into Elo at both ends;
* LOS ``= (1 + erf((W - L) / sqrt(2 (W + L)))) / 2``;
* SPRT: the generalized SPRT of M. Van den Bergh (fishtest's ``LLR_logistic``): for each hypothesis
  the maximum-likelihood distribution of the observed outcome frequencies whose mean is that
  hypothesis' logistic score, and the log-likelihood ratio of the counts under the two.

>>> t = Tally()
>>> for a, b in [(1, 0.5), (0.5, 0.5), (1, 0), (0, 0.5)]:
...     t.add_pair(a, b)
>>> t.wins, t.draws, t.losses, t.pentanomial
(2, 4, 2, [0, 1, 2, 1, 0])
>>> round(t.score(), 3), round(elo(t.score()), 1)
(0.5, 0.0)
"""

import math
from dataclasses import dataclass, field
from typing import Optional

Z95 = 1.959963984540054
PAIR_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's total (0 … 2) halved to one sample in [0, 1]
GAME_POINTS = (0.0, 0.5, 1.0)
ELO_CAP = 2000.0  # a perfect or null score has no finite Elo: shown as ±2000


def elo(score: float) -> float:
    """Logistic Elo difference for an expected score.

    >>> round(elo(0.75), 1), elo(0.5), elo(1.0)
    (190.8, 0.0, 2000.0)
    """
    if score <= 0.0:
        return -ELO_CAP
    if score >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400.0 * math.log10(1.0 / score - 1.0))) + 0.0  # no -0.0


def expected_score(elo_diff: float) -> float:
    """The logistic score of an Elo difference.

    >>> expected_score(0.0), round(expected_score(190.85), 3)
    (0.5, 0.75)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo_diff / 400.0))


def mean_and_variance(counts: list[int], points: tuple[float, ...]) -> tuple[float, float, int]:
    """Mean score, variance of one sample and number of samples of a frequency table.

    >>> mean_and_variance([1, 0, 1], GAME_POINTS)
    (0.5, 0.25, 2)
    """
    n = sum(counts)
    if n == 0:
        return 0.5, 0.0, 0
    mean = sum(c * x for c, x in zip(counts, points)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, points)) / n
    return mean, var, n


def elo_interval(counts: list[int], points: tuple[float, ...]) -> tuple[float, float, float]:
    """Elo and its 95 % interval (low, high) from a trinomial or pentanomial table.

    60 wins, 20 draws, 20 losses: s = 0.7, var = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16,
    se = 0.04, s ± 1.96·0.04 = 0.6216 … 0.7784:

    >>> [round(x, 1) for x in elo_interval([20, 20, 60], GAME_POINTS)]
    [147.2, 86.2, 218.3]
    """
    mean, var, n = mean_and_variance(counts, points)
    if n == 0:
        return 0.0, -ELO_CAP, ELO_CAP
    dev = Z95 * math.sqrt(var / n)
    return elo(mean), elo(mean - dev), elo(mean + dev)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the chance the first engine is the stronger, from wins and losses.

    >>> los(10, 10), round(los(15, 5), 4)
    (0.5, 0.9873)
    """
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _constrained_mle(probs: list[float], points: tuple[float, ...], target: float) -> list[float]:
    """The distribution on ``points`` closest (in likelihood) to ``probs`` whose mean is ``target``.

    The maximiser is ``p_i / (1 + λ (x_i - target))``; λ is found by bisection on the interval that
    keeps every weight positive (the mean is monotone in λ there).
    """
    shifted = [x - target for x in points]
    low = -1.0 / max(shifted) + 1e-12 if max(shifted) > 0 else -1e9
    high = -1.0 / min(shifted) - 1e-12 if min(shifted) < 0 else 1e9

    def drift(lam: float) -> float:
        return sum(p * d / (1.0 + lam * d) for p, d in zip(probs, shifted))

    for _ in range(200):
        mid = (low + high) / 2.0
        if drift(mid) > 0.0:
            low = mid
        else:
            high = mid
    lam = (low + high) / 2.0
    return [p / (1.0 + lam * d) for p, d in zip(probs, shifted)]


def llr(counts: list[int], points: tuple[float, ...], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) for a frequency table.

    Empty cells get a small count (fishtest's regularisation) so the maximum-likelihood fit exists.

    >>> llr([0, 0, 0], GAME_POINTS, 0, 10)
    0.0
    >>> llr([10, 20, 30], GAME_POINTS, 0, 10) > 0 > llr([30, 20, 10], GAME_POINTS, 0, 10)
    True
    """
    n = sum(counts)
    if n == 0:
        return 0.0
    smoothed = [c if c > 0 else 1e-3 for c in counts]
    total = sum(smoothed)
    probs = [c / total for c in smoothed]
    p0 = _constrained_mle(probs, points, expected_score(elo0))
    p1 = _constrained_mle(probs, points, expected_score(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(smoothed, p1, p0))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test between two Elo hypotheses.

    >>> s = Sprt(0.0, 10.0, 0.05, 0.05)
    >>> round(s.lower, 3), round(s.upper, 3)
    (-2.944, 2.944)
    >>> s.decide(3.0), s.decide(-3.0), s.decide(0.1)
    ('H1', 'H0', None)
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def decide(self, value: float) -> Optional[str]:
        """``'H1'`` (elo1 accepted: the first engine is better), ``'H0'``, or None to play on."""
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


@dataclass
class Tally:
    """Results from the first engine's side: games (trinomial) and finished pairs (pentanomial)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def add(self, score: float) -> None:
        """One game's score for the first engine: 1, 0.5 or 0."""
        if score == 1.0:
            self.wins += 1
        elif score == 0.0:
            self.losses += 1
        else:
            self.draws += 1

    def add_pair(self, first: float, second: float) -> None:
        """Both games of an opening (seats swapped): each counts as a game, the sum as a pair."""
        self.add(first)
        self.add(second)
        self.pentanomial[round(2 * (first + second))] += 1

    def trinomial(self) -> list[int]:
        return [self.losses, self.draws, self.wins]

    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else 0.0

    def elo(self, paired: bool = False) -> tuple[float, float, float]:
        """Elo, low, high: from the pairs when ``paired``, else from the games."""
        if paired:
            return elo_interval(self.pentanomial, PAIR_POINTS)
        return elo_interval(self.trinomial(), GAME_POINTS)

    def los(self) -> float:
        return los(self.wins, self.losses)

    def llr(self, test: Sprt, paired: bool = False) -> float:
        if paired:
            return llr(self.pentanomial, PAIR_POINTS, test.elo0, test.elo1)
        return llr(self.trinomial(), GAME_POINTS, test.elo0, test.elo1)
