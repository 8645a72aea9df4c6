"""The evaluation's fitted weights, read once from ``data/eval_weights.json`` (written by
:mod:`gomoku_protocol.fit`): per line shape, what it is worth to the side to move (attack) and
what the opponent's costs it (defence), in sixteenths of a point; the threat terms, the tempo
and the strong points.

>>> len(ATTACK) == len(DEFENCE) == 11 and ATTACK[0] == 0
True
"""

import json
from typing import Final

from gomoku_protocol.data_files import data_file

_TABLE: Final = json.loads(data_file("eval_weights.json").read_text(encoding="utf-8"))
ATTACK: Final[list[int]] = [int(v) for v in _TABLE["attack"]]
DEFENCE: Final[list[int]] = [int(v) for v in _TABLE["defence"]]
THEIR_WIN_THREAT: Final = int(_TABLE["threats"]["their_win_threat"])
THEIR_THREAT: Final = int(_TABLE["threats"]["their_threat"])
OUR_THREAT: Final = int(_TABLE["threats"]["our_threat"])
TEMPO: Final = int(_TABLE["tempo"])
# Strong points (see evaluate.py): the summed line values that count a point, and what each
# such point of the side to move (ours) and of the opponent (theirs) is worth.
_POINTS: Final = _TABLE.get("points", {"levels": [], "ours": [], "theirs": []})
POINT_LEVELS: Final[list[int]] = [int(v) for v in _POINTS["levels"]]
OUR_POINTS: Final[list[int]] = [int(v) for v in _POINTS["ours"]]
THEIR_POINTS: Final[list[int]] = [int(v) for v in _POINTS["theirs"]]
# The move ordering's one-ply value of each line shape (``patterns.VALUE``), fitted to a stronger
# brain's moves by :mod:`gomoku_protocol.fit_order`.
ORDER: Final[list[int]] = [int(v) for v in json.loads(data_file("order_values.json").read_text(encoding="utf-8"))["value"]]
