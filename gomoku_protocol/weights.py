"""The evaluation's fitted weights, read once from ``data/eval_weights.json`` (written by
:mod:`gomoku_protocol.fit`): per line shape, what it is worth to the side to move (attack) and
what the opponent's costs it (defence), in sixteenths of a point; the threat terms and the tempo.

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
# The move ordering's one-ply value of each line shape (``patterns.VALUE``), fitted to a stronger
# brain's moves by :mod:`gomoku_protocol.fit_order`.
ORDER: Final[list[int]] = [int(v) for v in json.loads(data_file("order_values.json").read_text(encoding="utf-8"))["value"]]
