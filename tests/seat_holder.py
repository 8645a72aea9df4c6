"""Sits one engine seat of a given kind, then waits on it for ever, for the seat tests.

Usage: python seat_holder.py KIND PIDS_FOLDER. It starts :mod:`seat_engine` on a seat of KIND (a class
of :data:`SEATS`, as :func:`kind_name` names it), takes it through its handshake, leaves a file ``ready``
in PIDS_FOLDER and waits for a reply that never comes, until a signal ends it.
"""

import os
import shlex
import sys
import time
from pathlib import Path
from typing import Callable

from engine_core.seat import EngineSeat
from gomoku_protocol.seats import GomocupSeat, MatchSettings
from gomoku_protocol.label import Labeller as GomokuLabeller
from junqi_protocol.board import Board
from junqi_protocol.game import Rules
from junqi_protocol.seats import CcgcSeat, JunqiSeat, PipeSeat
from ucci_engine.bench import Peer
from ucci_engine.position import START_FEN
from ucci_engine.seats import MatchSeat, UcciSeat, XEngine
from ucci_engine.tune import Labeller

FOREVER = 3600.0
Wait = Callable[[], object]


def ucci_seat(command: list[str]) -> Wait:
    seat = UcciSeat(command, {})
    return lambda: seat.think(START_FEN, [], int(FOREVER * 1000), 0, 0)


def match_seat(command: list[str]) -> Wait:
    seat = MatchSeat(XEngine(tuple(command), "uci", (), depth=1), None)
    return lambda: seat.think(START_FEN, [], 0, 0, 0)


def peer(command: list[str]) -> Wait:
    seat = Peer(shlex.join(command))
    return lambda: seat.search(START_FEN, 1)


def labeller(command: list[str]) -> Wait:
    seat = Labeller(shlex.join(command))
    return lambda: seat.score(START_FEN, 1)


def gomocup_seat(command: list[str]) -> Wait:
    seat = GomocupSeat(shlex.join(command), (), None)
    seat.open(MatchSettings(int(FOREVER * 1000), 0, 0, 0, 15))
    return lambda: time.sleep(FOREVER)  # suspended (SIGSTOP), as a brain is while the other one thinks


def gomoku_labeller(command: list[str]) -> Wait:
    seat = GomokuLabeller(shlex.join(command), 1, 100, patience_s=FOREVER)
    return lambda: seat.score("h8")


def junqi_seat(command: list[str]) -> Wait:
    seat = JunqiSeat(shlex.join(command))
    seat.open(Board("2p"), 0, Rules("2p"), int(FOREVER * 1000), int(FOREVER * 1000))
    return lambda: seat.lineup("", FOREVER)


def ccgc_seat(command: list[str]) -> Wait:
    seat = CcgcSeat(shlex.join(command))
    seat.open(Board("2p"), 0, Rules("2p"), int(FOREVER * 1000), int(FOREVER * 1000))
    return lambda: seat.lineup("", FOREVER)


# Every kind of engine seat, by class, and how to sit one and wait on it; None for a base no game uses alone.
SEATS: dict[type[EngineSeat], "Callable[[list[str]], Wait] | None"] = {
    UcciSeat: ucci_seat, MatchSeat: match_seat, Peer: peer, Labeller: labeller, GomocupSeat: gomocup_seat,
    GomokuLabeller: gomoku_labeller, PipeSeat: None, JunqiSeat: junqi_seat, CcgcSeat: ccgc_seat,
}


def kind_name(cls: type) -> str:
    """A seat kind as the tests name it: module and class (each game's labeller is a ``Labeller``)."""
    return f"{cls.__module__}.{cls.__qualname__}"


def main(kind: str, folder: str) -> None:
    (sit,) = [sit for cls, sit in SEATS.items() if kind_name(cls) == kind and sit is not None]
    wait = sit([sys.executable, str(Path(__file__).with_name("seat_engine.py")), folder])
    open(os.path.join(folder, "ready"), "w").close()
    while True:  # a fixed-depth search gives up after minutes: ask again
        wait()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
