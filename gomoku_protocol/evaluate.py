"""Static evaluation from the pattern tables, from the side to move's point of view.

The base is the attack-minus-defence difference of both colours' point potentials (the sum over
empty points of the line-shape values, kept up to date by the board). On top come threat levels,
since they decide a position more than any sum: a side to move that can make an open four (or a
legal four-four) has won unless fours stop it; a four-three or double-three point is a strong
threat; the opponent's threats cost a tempo to parry.
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64, trait

from gomoku_protocol import patterns as pt
from gomoku_protocol.rules import BLACK
from gomoku_protocol.weights import OUR_THREAT, TEMPO, THEIR_THREAT, THEIR_WIN_THREAT

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


def evaluate(b: ShapeBoard) -> int:
    """The score for the side to move."""
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
    return max(-LIMIT, min(LIMIT, score))
