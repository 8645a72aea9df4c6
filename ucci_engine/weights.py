"""Evaluation weights fitted by ``python3 -m ucci_engine.tune fit`` (a generated file: refit, do not edit)."""

from typing import Final

# Material by kind (index: 1 king, 2 advisor, 3 elephant, 4 horse, 5 rook, 6 cannon, 7 pawn).
MATERIAL: Final = [0, 0, 41, 27, 80, 195, 105, 15]
# Percent of the hand-set piece-square values each kind keeps.
POSITIONAL_PERCENT: Final = [0, 136, 122, 180, 90, 96, 78, 68]
# Structure terms (ucci_engine.evaluate.TERM_NAMES), sixteenths of a unit:
#   hollow cannon: 0
#   bottom cannon: 0
#   horse mobility: 0
#   rook on a pawnless file: 0
#   linked pawns: 0
#   attackers x missing advisors: 0
#   attackers x missing elephants: 0
#   cannon x majors: 0
#   horse x majors: 0
TERM_WEIGHTS: Final = [0, 0, 0, 0, 0, 0, 0, 0, 0]
