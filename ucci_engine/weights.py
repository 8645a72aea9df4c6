"""Evaluation weights fitted by ``python3 -m ucci_engine.tune fit`` (a generated file: refit, do not edit)."""

from typing import Final

# Material by kind (index: 1 king, 2 advisor, 3 elephant, 4 horse, 5 rook, 6 cannon, 7 pawn).
MATERIAL: Final = [0, 0, 33, 25, 83, 193, 100, 16]
# Percent of the hand-set piece-square values each kind keeps.
POSITIONAL_PERCENT: Final = [0, 103, 102, 181, 67, 78, 85, 69]
# Structure terms (ucci_engine.evaluate.TERM_NAMES), sixteenths of a unit:
#   hollow cannon: -32
#   bottom cannon: -53
#   horse mobility: 19
#   rook on a pawnless file: 94
#   linked pawns: 110
#   attackers x missing advisors: 163
#   attackers x missing elephants: 27
#   cannon x majors: 15
#   horse x majors: -12
TERM_WEIGHTS: Final = [-32, -53, 19, 94, 110, 163, 27, 15, -12]
