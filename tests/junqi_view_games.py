"""Games for the view's tests, played here by the built-in players (seeded), and what the rules say
stands on the board after each step, worked out from the record with :class:`junqi_protocol.game.Game`
alone (not through the view's code)."""

import io
import json
import threading
from typing import Any, Optional

from junqi_protocol.board import Board
from junqi_protocol.game import Game, Rules
from junqi_protocol.seats import BuiltinSeat
from junqi_protocol.record import Recorder, read_games
from junqi_protocol.runner import Referee
from junqi_protocol.rules import LETTERS, parse_lineup


def played(variant: str, seed: int, styles: tuple[str, ...] = ("random", "events"), rules: str = "") -> list[dict[str, Any]]:
    """One game's record lines, between built-in players."""
    buf = io.StringIO()
    seats = 4 if variant == "4p" else 2
    Referee(variant, rules, Recorder(buf)).play(1, [BuiltinSeat(styles[s % len(styles)], seed * 10 + s) for s in range(seats)])
    return read_games(buf.getvalue().splitlines())[0]


def write_record(path: Any, lines: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(obj, ensure_ascii=False) + "\n" for obj in lines)


def pieces_after(lines: list[dict[str, Any]], k: int) -> set[tuple[str, str, str]]:
    """(point, seat, kind letter) of every piece after the record's first ``k`` steps."""
    head = lines[0]
    board = Board(head["variant"])
    game = Game(board, Rules(head["variant"], head["rules"]))
    for obj in lines:
        if obj["type"] == "lineup" and "lineup" in obj:
            game.place(board.letters.index(obj["seat"]), parse_lineup(obj["lineup"]))
    for obj in lines:
        if obj["type"] == "lineup" and "lineup" not in obj:
            game.eliminate(board.letters.index(obj["seat"]), "lineup")
    game.start()
    for step in [o for o in lines if o["type"] == "step"][:k]:
        if step["action"] == "move":
            frm, _, to = step["move"].partition("-")
            game.move(board.point(frm), board.point(to))
        elif step["action"] in ("pass", "timeout"):
            game.pass_turn(step["action"])
        else:
            game.eliminate(board.letters.index(step["seat"]), step["reason"])
    pos = game.pos
    return {(board.names[p], board.letters[pos.owner[p]], LETTERS[pos.kind[p]]) for p in range(board.size) if pos.owner[p] >= 0}


def steps(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in lines if o["type"] == "step"]


class GatedSeat(BuiltinSeat):
    """A built-in player that moves only when the test lets it: one ``gate.release()`` per move."""

    def __init__(self, style: str, seed: int, gate: threading.Semaphore) -> None:
        super().__init__(style, seed)
        self.gate = gate

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        self.gate.acquire()
        return super().ask(time_left_ms, movetime_ms)


class GatedGame:
    """A four-player game refereed in a thread, its record written to ``path`` and shown to ``watchers``,
    each move waiting for :meth:`allow`."""

    def __init__(self, path: Any, watchers: list[Any], seed: int = 7) -> None:
        self.gate = threading.Semaphore(0)
        self.path = path
        self.out = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed when the game is over
        # movetime is large: the referee's clock must not count the time a move waits for the test.
        self.referee = Referee("4p", "", Recorder(self.out, watchers), 10**9, 10**9)
        players = [GatedSeat(("random", "events")[s % 2], seed * 10 + s, self.gate) for s in range(4)]
        self.game: Optional[Game] = None
        self.thread = threading.Thread(target=self._run, args=(players,), daemon=True)
        self.thread.start()

    def _run(self, players: list[BuiltinSeat]) -> None:
        try:
            self.game = self.referee.play(1, list(players))[1]
        finally:
            self.out.close()

    def allow(self, moves: int) -> None:
        self.gate.release(moves)

    def finish(self, timeout: float = 120) -> list[dict[str, Any]]:
        self.allow(100_000)
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the game did not end"
        with open(self.path, encoding="utf-8") as fh:
            return read_games(fh.readlines())[0]
