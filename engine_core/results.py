"""Each game's result as a JSON line (``sanqi match --results FILE``), and a match compared game by game with
an earlier one on the same schedule (``--baseline FILE``).

Two runs with the same ``--games``, ``--seed`` and openings play the same opening with the same seats in
each game number, and at fixed nodes or depth both engines' moves are a function of the position, so an
unchanged engine plays the same games again and two builds differ only in the games their change reaches.
The game-by-game difference leaves out what the openings add to the spread: on issue 13's yardstick its
interval was 2-17 % narrower than two separate scores' (docs/match.md).

>>> now = {1: GameRow(1, 0, False, 1.0, False), 2: GameRow(2, 0, True, 0.5, False), 3: GameRow(3, 1, False, 0.0, True)}
>>> before = {1: GameRow(1, 0, False, 0.0, False), 2: GameRow(2, 0, True, 0.5, False), 3: GameRow(3, 1, False, 1.0, False)}
>>> found = compare(now, before)
>>> found.games, found.mean, round(found.half_width, 4), found.forfeits, found.unmatched
(2, 0.5, 0.693, 1, 0)
"""

import json
import math
import os
from dataclasses import asdict, dataclass
from typing import Optional

from engine_core.args import UsageError
from engine_core.stats import Z95, mean_and_variance


@dataclass(frozen=True)
class GameRow:
    """One finished game: its number, opening index, whether the seats were swapped, the first engine's score
    (1, 0.5 or 0) and whether either engine forfeited it (on time, by an illegal move or a crash)."""

    game: int
    opening: int
    swapped: bool
    score: float
    forfeit: bool

    def line(self) -> str:
        """The row as the JSON line a results file holds.

        >>> GameRow(7, 3, True, 0.5, False).line()
        '{"game": 7, "opening": 3, "swapped": true, "score": 0.5, "forfeit": false}'
        """
        return json.dumps(asdict(self))


class ResultsFile:
    """Appends a row for each game as it finishes, so an interrupted match keeps what it played."""

    def __init__(self, path: Optional[str]) -> None:
        self.path = path

    def write(self, row: GameRow) -> None:
        if self.path:
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(row.line() + "\n")


def read_rows(path: str) -> dict[int, GameRow]:
    """The rows of a results file by game number; UsageError names the first line that is not one."""
    rows: dict[int, GameRow] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for number, text in enumerate(fh, 1):
                if text.strip():
                    row = _parse(text, f"{path}:{number}")
                    rows[row.game] = row
    except OSError as exc:
        raise UsageError(f"cannot read the results file {path!r}: {exc.strerror or exc}") from None
    return rows


def _parse(text: str, where: str) -> GameRow:
    try:
        fields = json.loads(text)
        row = GameRow(int(fields["game"]), int(fields["opening"]), bool(fields["swapped"]), float(fields["score"]),
                      bool(fields["forfeit"]))
    except (ValueError, KeyError, TypeError):
        raise UsageError(f"{where}: not a game's results line: {text.strip()[:80]!r}") from None
    if row.score not in (0.0, 0.5, 1.0):
        raise UsageError(f"{where}: a score is 0, 0.5 or 1, not {row.score:g}")
    return row


@dataclass(frozen=True)
class Comparison:
    """``mean`` of the first engine's score less its score in the baseline's game of the same number, over
    ``games`` games, with the 95 % ``half_width`` of that mean; ``forfeits`` games left out because either run
    had one, ``unmatched`` because the baseline lacks the game or played another opening or seats there."""

    games: int
    mean: float
    half_width: float
    forfeits: int
    unmatched: int


# What a game's difference can be (score here less score there), as engine_core.stats tables them.
DIFF_POINTS = (-1.0, -0.5, 0.0, 0.5, 1.0)


def compare(now: dict[int, GameRow], baseline: dict[int, GameRow]) -> Comparison:
    """The games of ``now`` against those of ``baseline``, with the match table's interval (stats.Z95 standard
    errors, the variance of the observed frequencies)."""
    counts = [0] * len(DIFF_POINTS)
    forfeits = unmatched = 0
    for number, row in now.items():
        old = baseline.get(number)
        if old is None or (old.opening, old.swapped) != (row.opening, row.swapped):
            unmatched += 1
        elif row.forfeit or old.forfeit:
            forfeits += 1
        else:
            counts[DIFF_POINTS.index(row.score - old.score)] += 1
    mean, variance, n = mean_and_variance(counts, DIFF_POINTS)
    if n == 0:
        return Comparison(0, 0.0, 0.0, forfeits, unmatched)
    return Comparison(n, mean, Z95 * math.sqrt(variance / n), forfeits, unmatched)


def comparison_line(found: Comparison, baseline: str) -> str:
    """The final table's line for ``--baseline``, in points a hundred games.

    >>> comparison_line(Comparison(2, 0.5, 0.98, 1, 0), "base.jsonl")
    'against base.jsonl, game by game: +50.0 ± 98.0 points a hundred games (95 %) over 2 games; left out: 1 with a forfeit, 0 not in the baseline or with another opening or seats'
    """
    return (f"against {os.path.basename(baseline)}, game by game: {100 * found.mean:+.1f} ± {100 * found.half_width:.1f} "
            f"points a hundred games (95 %) over {found.games} games; left out: {found.forfeits} with a forfeit, "
            f"{found.unmatched} not in the baseline or with another opening or seats")
