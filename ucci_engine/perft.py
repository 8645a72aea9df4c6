"""``go perft N`` as a job that ``stop``, ``isready`` and ``quit`` reach while it counts.

The tree's top is walked here, in plain Python that checks a stop flag and hands over the
interpreter lock between pieces; each piece is a short :meth:`Position.perft` of ``PIECE`` plies
(compiled in a compiled build, where it never lets go of the lock by itself).

>>> import threading
>>> from ucci_engine.position import START_FEN, Position
>>> divide(Position.from_fen(START_FEN), 3, threading.Event(), lambda line: None)
79666
"""

import threading
import time
from typing import Callable, Optional

from ucci_engine.position import Position
from ucci_engine.tables import move_name

PIECE = 2  # plies counted without a pause: at most a few thousand leaves
MOST_PLIES = 8  # deeper counts would take days from the start position


def count(pos: Position, depth: int, halt: threading.Event) -> Optional[int]:
    """Leaves ``depth`` plies below ``pos``, or None once ``halt`` is set."""
    if depth <= PIECE:
        time.sleep(0)  # let the protocol thread read and answer a command
        return None if halt.is_set() else pos.perft(depth)
    total = 0
    for move in pos.moves():
        if pos.make(move):
            below = count(pos, depth - 1, halt)
            pos.unmake()
            if below is None:
                return None
            total += below
    return total


def divide(pos: Position, depth: int, halt: threading.Event, send: Callable[[str], None]) -> Optional[int]:
    """Stockfish's ``go perft`` output: each legal root move's count, then the total; None if halted."""
    total = 0
    for move in pos.legal_moves():
        pos.make(move)
        below = count(pos, depth - 1, halt)
        pos.unmake()
        if below is None:
            send("info string perft stopped")
            return None
        total += below
        send(f"{move_name(move)}: {below}")
    send("")
    send(f"Nodes searched: {total}")
    return total
