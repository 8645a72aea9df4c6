"""Static evaluation from the pattern tables, from the side to move's point of view.

The base is the attack-minus-defence difference of both colours' point potentials (the sum over
empty points of the line-shape values, kept up to date by the board). On top come threat levels,
since they decide a position more than any sum: a side to move that can make an open four (or a
legal four-four) has won unless fours stop it; a four-three or double-three point is a strong
threat; the opponent's threats cost a tempo to parry.

A pattern-combination term (Rapfi's classical evaluation is a table per combination of a point's
four line shapes) can be added: every four point is classed by the combination its lines make for
its side (a four with an open three, with a closed three or open two, two fours: ``COMBINATIONS``)
and each class is worth what ``data/eval_combos.json`` says, fitted on top of the linear terms by
:mod:`gomoku_protocol.fit`; that file's ``on`` switches it (off, the evaluation is the linear one).
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64, trait

from gomoku_protocol import patterns as pt
from gomoku_protocol.rules import BLACK, WHITE
from gomoku_protocol.weights import (
    COMBOS_ON, OUR_COMBOS, OUR_THREAT, TEMPO, THEIR_COMBOS, THEIR_THREAT, THEIR_WIN_THREAT,
)

WON: Final = 6000  # below MATE_BOUND: a near-certain win, not a proof
LIMIT: Final = 5000
BALANCED_ATTACK: Final = 100  # the style the weights were fitted as (position.STYLES)
BALANCED_DEFENCE: Final = 90


@trait
class ShapeBoard:
    """What the evaluation reads of a board: the shapes its stones make, kept up to date as they are
    played (:class:`gomoku_protocol.position.Position` is one). A trait, so that compiled the reads
    stay native, and so that this module needs nothing of the board's."""

    renju: bool  # renju rules: black's double fours and double threes are forbidden
    n: i64  # points of the padded grid
    side: int  # the colour to move
    attack: int  # the style's attack and defence weights (position.STYLES)
    defence: int
    four_list: vec[i64]  # each colour's four points and open-three points (see Position.__init__)
    three_list: vec[i64]

    def count(self, color: i64, i: i64) -> i64:
        """``color``'s shape counters at ``i`` (pt.COUNT fields)."""
        raise NotImplementedError

    def shape(self, color: int, d: int, i: int) -> int:
        """The line shape ``color`` makes along direction ``d`` by playing the empty point ``i``."""
        raise NotImplementedError

    def attack_total(self, color: int) -> int:
        """``color``'s shapes over every point, weighted as the side to move's."""
        raise NotImplementedError

    def defence_total(self, color: int) -> int:
        """``color``'s shapes over every point, weighted as the opponent's."""
        raise NotImplementedError


def threat_level(b: ShapeBoard, color: int) -> int:
    """2: an open four or four-four next move; 1: a four-three or double three; else 0.

    Renju's black gets no credit for double fours or double threes: they are forbidden.
    """
    strict = b.renju and color == BLACK
    level = 0
    # the points of the colour's fours and threes (see Position.four_list)
    fours = b.four_list
    start, stop = pt.span(fours, color, b.n)
    k: i64
    for k in range(start, stop):
        c = b.count(color, fours[k])
        if pt.flex4_count(c) or (pt.four_count(c) >= 2 and not strict):
            return 2
        if pt.three_count(c):
            level = 1
    if level == 0 and not strict:
        threes = b.three_list
        start, stop = pt.span(threes, color, b.n)
        for k in range(start, stop):
            if pt.three_count(b.count(color, threes[k])) >= 2:
                return 1
    return level


# The combination classes of a point for one side: Rapfi's pattern4 classes that hold a four, below
# a double four's win (ours is the evaluation's WON), a single four being the linear terms' already.
# The classes without a four (two open threes, an open three with a closed three or open two, …)
# were fitted and played too, over every candidate point: the held-out log-loss hardly moved (0.6357
# against 0.6362 without them) and the search lost a self-play match, a node costing 1.4 times the
# CPU time (docs/results/gomoku.md). A point of these classes is a four point, which the board lists.
# Off by default: at main's cost a node these scored 7/20 against main in self-play (−108 [−299, +34]).
COMBINATIONS: Final = ("four-four", "four-three", "four-plus")
RANK: Final = {pt.FLEX2: 1, pt.THREE: 2, pt.FLEX3: 3, pt.FOUR: 4, pt.FOUR2: 5, pt.FLEX4: 5}  # the others: 0


def combination(shapes: list[int], strict: bool) -> int:
    """The class (1 + its place in ``COMBINATIONS``; 0: none) of a point whose four lines make
    ``shapes``; ``strict``: renju's black, for whom a double four is forbidden.

    >>> [combination(s, False) for s in ([6, 5, 0, 0], [6, 3, 1, 0], [6, 0, 0, 0], [5, 5, 0, 0])]
    [2, 3, 0, 0]
    >>> combination([6, 7, 0, 0], False), combination([6, 7, 0, 0], True)
    (1, 0)
    """
    n = [0] * 6
    for k in shapes:
        n[RANK.get(k, 0)] += 1
    if pt.FIVE in shapes or pt.OVERLINE in shapes:
        return 0  # a five decides by itself; an overline is no win (and forbidden)
    if n[5] or n[4] >= 2:
        return 0 if strict else 1
    if n[4]:
        return 2 if n[3] else (3 if n[2] or n[1] else 0)
    return 0


def _class_table(strict: bool) -> vec[i64]:
    """``combination`` of every four shapes, at ``((s0 * 11 + s1) * 11 + s2) * 11 + s3``."""
    out: list[int] = []
    for code in range(11 ** 4):
        out.append(combination([code // 1331, code // 121 % 11, code // 11 % 11, code % 11], strict))
    return vec[i64](out)


_CLASSES: list[vec[i64]] = []  # made on first use: 2 × 11^4 classifications, 5 ms of every start (compiled)


def class_tables() -> list[vec[i64]]:
    """The class tables for a free player and for renju's black (``_class_table``), made when first asked for."""
    if not _CLASSES:
        _CLASSES.extend((_class_table(False), _class_table(True)))
    return _CLASSES


CLASS_COUNT: Final = len(COMBINATIONS) + 1  # with "none"


def combination_counts(b: ShapeBoard) -> vec[i64]:
    """How many points make each combination class for each colour: colour ``c``'s class ``k`` at
    ``c * CLASS_COUNT + k`` (class 0: none). Only a colour's four points can make one."""
    counts = vec[i64]([0] * (3 * CLASS_COUNT))
    fours = b.four_list
    tables = class_tables()
    k: i64
    for color in (BLACK, WHITE):
        table = tables[int(b.renju and color == BLACK)]
        start, stop = pt.span(fours, color, b.n)
        for k in range(start, stop):
            i = fours[k]
            code = 0
            for d in range(4):
                code = code * 11 + b.shape(color, d, i)
            counts[color * CLASS_COUNT + table[code]] += 1
    return counts


def combination_sum(counts: vec[i64], color: int, worth: list[int]) -> int:
    """``color``'s combinations in ``counts`` weighted by ``worth`` (one value a class, in evaluation units)."""
    total = 0
    for c in range(len(COMBINATIONS)):
        total += counts[color * CLASS_COUNT + c + 1] * worth[c]
    return total


def evaluate(b: ShapeBoard, combinations: bool = COMBOS_ON) -> int:
    """The score for the side to move; ``combinations``: with the pattern-combination term."""
    s = b.side
    o = 3 - s
    mine = threat_level(b, s)
    if mine == 2:
        return WON
    # No VCF here: a small one at every leaf made a third of the search's stones and lost a
    # self-play match to the search without it; quiescence already follows the fours that
    # carry a second threat.
    theirs = threat_level(b, o)
    # The fitted weights are the balanced style's; other styles scale attack and defence.
    attack = b.attack_total(s) * b.attack * BALANCED_DEFENCE
    defence = b.defence_total(o) * b.defence * BALANCED_ATTACK
    score = (attack - defence) // (BALANCED_ATTACK * BALANCED_DEFENCE * pt.WEIGHT_SCALE) + TEMPO
    if theirs == 2:
        score += THEIR_WIN_THREAT
    elif theirs == 1:
        score += THEIR_THREAT
    if mine == 1 and theirs < 2 and b.four_list[o * (b.n + 1)] == 0:  # o has no four
        score += OUR_THREAT
    if combinations:
        counts = combination_counts(b)
        ours = combination_sum(counts, s, OUR_COMBOS) * b.attack // BALANCED_ATTACK
        score += ours - combination_sum(counts, o, THEIR_COMBOS) * b.defence // BALANCED_DEFENCE
    return max(-LIMIT, min(LIMIT, score))
