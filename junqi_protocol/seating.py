"""Who sits at a seat: an ENGINE argument of ``sanqi referee`` (or a ``sanqi match --game junqi`` engine in
that form) read as its protocol and command (:func:`split_spec`), and the seat made for it (:func:`make_seat`).
"""

from typing import Optional

from engine_core.args import UsageError
from engine_core.loop import Refusal
from junqi_protocol.player import PLAYERS
from junqi_protocol.seats import AbsentSeat, BuiltinSeat, CcgcSeat, JunqiSeat, Seat
from junqi_protocol.view import Watch
from junqi_protocol.view_human import HumanSeat


def split_spec(spec: str) -> tuple[str, str]:
    """An ENGINE argument as (protocol, command); built-in players have the protocol ``builtin``.

    >>> split_spec("ccgc:sanqi --protocol ccgc"), split_spec("sanqi"), split_spec("random")
    (('ccgc', 'sanqi --protocol ccgc'), ('junqi', 'sanqi'), ('builtin', 'random'))
    """
    if spec in PLAYERS:
        return "builtin", spec
    if spec in ("human", "out"):
        return spec, spec
    kind, colon, command = spec.partition(":")
    if colon and kind in ("junqi", "ccgc"):
        return kind, command
    return "junqi", spec


def make_seat(spec: str, options: list[tuple[str, str]], seed: Optional[int], watch: Optional[Watch] = None,
              key: str = "") -> Seat:
    """The seat for an ENGINE argument: ``options`` are its ``--engine-option`` settings, ``seed`` a built-in
    player's or a person's (for the lineups offered), ``watch`` and ``key`` where a person plays."""
    kind, command = split_spec(spec)
    if kind == "out":
        return AbsentSeat()
    if kind == "human":
        if watch is None:
            raise UsageError("a human plays in the browser: add --watch [HOST:]PORT")
        return HumanSeat(watch, key, seed)
    if kind == "builtin":
        try:
            return BuiltinSeat(spec, seed, options)
        except Refusal as exc:  # an --engine-option the player does not take is the user's mistake
            raise UsageError(f"{spec}: {exc}") from None
    if kind == "ccgc":
        return CcgcSeat(command)
    return JunqiSeat(command, options)
