"""The gomoku seats: what the referee asks of a seat (:class:`GomokuSeat`), the in-process one-ply baseline
(:class:`BaselineSeat`, ``proto=builtin cmd=baseline``: attack plus weighted defence, the seed's scorer,
and nothing else) and a Gomocup brain process (:class:`GomocupSeat`, on the core's
:class:`engine_core.seat.EngineSeat`).

As Piskvork and GomocupJudge run them: each brain is told the board size, ``timeout_turn``,
``timeout_match``, ``max_memory``, the rule and, before every move, ``time_left``; its first move of
a game is asked with ``BOARD`` (the opening's stones, 1 its own, 2 the other's), later ones with
``TURN``. The idle brain is suspended (SIGSTOP on its process group) while the other thinks. A reply
may come up to 1 s after its turn's or the game's time is up (the official tolerance); later is a
loss on time, as is a resident memory over ``max_memory``, an illegal or malformed move, or an exit.
An engine's ``option.NAME=VALUE`` is sent as ``INFO NAME VALUE`` after the referee's own ``INFO`` lines.
"""

import signal
from dataclasses import dataclass
from typing import Optional

from engine_core.ends import End, Forfeit
from engine_core.seat import EngineSeat, within
from gomoku_protocol.brain import best_by_pattern
from gomoku_protocol.position import STYLES, Position

TOLERANCE_MS = 1000
START_SECONDS = 30.0
NOISE = ("MESSAGE", "DEBUG", "UNKNOWN", "ERROR", "SUGGEST", "OK")
CHATTER = ("MESSAGE", "DEBUG")  # lines a brain may print at any time, even before START's OK (Rapfi does)
Options = tuple[tuple[str, str], ...]


def baseline_move(board: Position) -> int:
    """The one-ply pattern pick over every point near the stones."""
    attack, defence = STYLES["balanced"]
    board.set_style(attack, defence)
    return best_by_pattern(board, sorted(board.cand))


@dataclass(frozen=True)
class MatchSettings:
    """What the referee tells each brain at START and in its INFO lines (the core's search has its own
    ``Limits``)."""

    turn_ms: int
    match_ms: int
    memory: int
    rule: int
    size: int


class GomokuSeat:
    """What the referee asks of a seat: open it for a game, ask it for moves, close it."""

    def open(self, limits: MatchSettings) -> None:
        raise NotImplementedError

    def move(self, board: Position, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        """This seat's move as (x, y) on ``board``, after ``history`` (every move so far, the opening's too),
        with ``time_left`` ms on its clock; a failure is a :class:`Forfeit`."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class BaselineSeat(GomokuSeat):
    """The in-process baseline (``proto=builtin cmd=baseline``): moves at once, never forfeits."""

    def open(self, limits: MatchSettings) -> None:
        return None

    def move(self, board: Position, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        return board.xy(baseline_move(board))

    def close(self) -> None:
        return None


class GomocupSeat(GomokuSeat, EngineSeat):
    """A Gomocup brain over pipes on an :class:`EngineSeat`, suspended whenever it is not its turn.

    A brain that cannot start or exits forfeits by a crash, one silent for :data:`START_SECONDS` after
    START by no answer, one whose move does not come by its time (with the tolerance) on time.
    """

    def __init__(self, command: str, options: Options, log: Optional[str]) -> None:
        self.command = command
        self.options = options
        self.log = log
        self.told = False  # whether this game's stones were sent (BOARD), so later moves come as TURN
        self.limits = MatchSettings(0, 0, 0, 0, 15)

    def open(self, limits: MatchSettings) -> None:
        self.limits = limits
        self.told = False
        self.start(self.command, self.log)
        answer = self.ask(f"START {limits.size}", START_SECONDS, CHATTER, End.NO_ANSWER)
        if answer.split()[0].upper() != "OK":
            raise Forfeit(End.CRASH, f"START answered {answer[:60]!r}")
        for key, value in (("timeout_turn", limits.turn_ms), ("timeout_match", limits.match_ms),
                           ("max_memory", limits.memory), ("rule", limits.rule), ("game_type", 1), *self.options):
            self.send(f"INFO {key} {value}")
        self.signal_group(signal.SIGSTOP)

    def ask(self, request: str, seconds: float, skip: tuple[str, ...], late: End) -> str:
        """Send ``request``; the brain's next line whose first word is not in ``skip`` within ``seconds``."""
        self.send(request)
        return self.reply(within(seconds), lambda line: line.split()[0].upper() not in skip, late)

    def move(self, board: Position, history: list[tuple[int, int]], colour: int, time_left: int) -> tuple[int, int]:
        self.signal_group(signal.SIGCONT)
        self.send(f"INFO time_left {time_left}")
        if not self.told:
            first = len(history) % 2  # parity of this brain's stones: black moved first
            stones = [f"{x},{y},{1 if n % 2 == first else 2}" for n, (x, y) in enumerate(history)]
            request = "\n".join(["BOARD", *stones, "DONE"]) if history else "BEGIN"
        else:
            x, y = history[-1]
            request = f"TURN {x},{y}"
        limit = min(self.limits.turn_ms or 10**9, max(0, time_left))
        line = self.ask(request, (limit + TOLERANCE_MS) / 1000, NOISE, End.TIME)
        self.signal_group(signal.SIGSTOP)
        self.told = True
        over = resident_bytes(self.pid)
        if self.limits.memory and over > self.limits.memory:
            raise Forfeit(End.CRASH, f"{over} bytes resident, over max_memory {self.limits.memory}")
        parts = line.replace(" ", "").split(",")
        if len(parts) != 2 or not all(p.lstrip("-").isdigit() and len(p) < 6 for p in parts):
            raise Forfeit(End.ILLEGAL, f"not a move: {line[:60]!r}")
        return int(parts[0]), int(parts[1])

    def close(self) -> None:
        self.stop("END")


def resident_bytes(pid: int) -> int:
    """Resident memory of a process from /proc (0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0
