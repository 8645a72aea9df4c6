"""The xiangqi engine seats: an engine process spoken to in UCCI (:class:`UcciSeat`) for the referee's
:func:`ucci_engine.referee.play_game`, and the seat ``sanqi match --game xiangqi`` gives an engine
(:class:`MatchSeat`: UCCI or UCI, a fixed depth or node count, each move's time kept). Both sit on the
core's :class:`engine_core.seat.EngineSeat`.
"""

import shlex
from dataclasses import dataclass
from typing import Optional

from engine_core.ends import End, Forfeit
from engine_core.seat import EngineSeat, within

HANDSHAKE_SECONDS = 30.0


def is_bestmove(line: str) -> bool:
    return line.startswith("bestmove") or line == "nobestmove"


class UcciSeat(EngineSeat):
    """An engine process spoken to in UCCI with millisecond times, on an :class:`EngineSeat`.

    Starting it waits for the handshake; an engine that cannot start, or does not finish its
    handshake within :data:`HANDSHAKE_SECONDS`, raises :class:`Forfeit` (a crash, or no answer).
    """

    limited = False  # searches to a fixed depth or node count, so its moves cost no clock (MatchSeat)

    def __init__(self, command: list[str], options: dict[str, str], log: Optional[str] = None) -> None:
        self.start(shlex.join(command), log)
        try:
            self.handshake(options)
        except Forfeit:
            self.close()
            raise

    def handshake(self, options: dict[str, str]) -> None:
        self.send("ucci")
        self.expect("ucciok")
        self.send("setoption usemillisec true")
        for name, value in options.items():
            # UCCI's own form: Fairy-Stockfish ignores the UCI "name … value …" form in UCCI mode.
            self.send(f"setoption {name} {value}")

    def expect(self, word: str) -> None:
        """Wait for a handshake reply; Forfeit naming the command and the word when none comes."""
        try:
            self.reply(within(HANDSHAKE_SECONDS), lambda line: line.startswith(word))
        except Forfeit as exc:
            raise Forfeit(exc.end, f"{self.command}: no {word}") from None

    def go(self, red_to_move: bool, mine: int, inc: int, theirs: int) -> str:
        return f"go time {mine} increment {inc} opptime {theirs} oppincrement {inc}"

    def patience(self, mine: int) -> float:
        """Seconds to wait for a move with ``mine`` ms on the clock: past the clock, the move is lost anyway."""
        return mine / 1000 + 2.0

    def think(self, fen: str, moves: list[str], mine: int, inc: int, theirs: int) -> str:
        """The engine's ``bestmove`` (or ``nobestmove``) line; a :class:`Forfeit` when none comes within
        :meth:`patience`: on time (past its clock), no answer (searching to a fixed limit), or a crash."""
        red_to_move = (fen.split()[1:2] != ["b"]) == (len(moves) % 2 == 0)
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(self.go(red_to_move, mine, inc, theirs))
        return self.reply(within(self.patience(mine)), is_bestmove, End.NO_ANSWER if self.limited else End.TIME)

    def close(self) -> None:
        self.stop("quit", grace=3.0)


@dataclass(frozen=True)
class XEngine:
    """An engine's command, dialect, options and search limit (``go depth``/``go nodes`` instead of clocks)."""

    command: tuple[str, ...]
    proto: str
    options: tuple[tuple[str, str], ...]
    depth: int = 0
    nodes: int = 0


class MatchSeat(UcciSeat):
    """The seat ``sanqi match`` gives a xiangqi engine: a :class:`UcciSeat` that may speak UCI instead,
    search to a fixed limit and keep its stderr."""

    def __init__(self, engine: XEngine, log: Optional[str]) -> None:
        self.engine = engine
        self.limited = bool(engine.depth or engine.nodes)
        super().__init__(list(engine.command), dict(engine.options), log)

    def handshake(self, options: dict[str, str]) -> None:
        if self.engine.proto != "uci":
            super().handshake(options)
            return
        self.send("uci")
        self.expect("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.expect("readyok")

    def go(self, red_to_move: bool, mine: int, inc: int, theirs: int) -> str:
        if self.engine.depth:
            return f"go depth {self.engine.depth}"
        if self.engine.nodes:
            return f"go nodes {self.engine.nodes}"
        if self.engine.proto == "uci":
            red, black = (mine, theirs) if red_to_move else (theirs, mine)
            return f"go wtime {red} btime {black} winc {inc} binc {inc}"
        return super().go(red_to_move, mine, inc, theirs)

    def patience(self, mine: int) -> float:
        return HANDSHAKE_SECONDS * 10 if self.limited else super().patience(mine)
