"""A seat of the referee played by a person in the browser, through the live view (``human`` as an ENGINE).

The person's page is the live page opened with the seat's key (``/?play=KEY``, printed by the referee).
It proposes lineups from the strong-style generator, lets the person swap pieces (swaps reach any
lineup) or type one, and sends the lineup they choose; the rules check it, and a refused one is
answered with the rule it breaks, the seat still waiting, for as long as the game clock (``--time``). On each turn the page is told the legal moves (from the referee's rules, as re-played by the
view) and sends one; a move the rules refuse is answered with the reason and the seat waits on, within
the same ``movetime`` and clock as any engine: no move in time is a timeout, as for an engine.
"""

import random
import re
import threading
import time
from typing import Optional

from engine_core.ends import End, Forfeit
from junqi_protocol.board import Board
from junqi_protocol.game import Rules
from junqi_protocol.seats import SilentSeat
from junqi_protocol.lineups import strong_lineup
from junqi_protocol.rules import LINEUP_SLOTS, check_lineup, short_lineup, why_illegal
from junqi_protocol.view import Watch, board_data

PROPOSALS = 12  # lineups from the generator the page can cycle through


class HumanSeat(SilentSeat):
    """The referee's side of a person's seat: every answer comes from the page holding ``key``."""

    def __init__(self, watch: Watch, key: str, seed: Optional[int] = None) -> None:
        self.name = "human"
        self.watch = watch
        self.key = key
        self.rng = random.Random(seed)
        self.board = Board("2p")
        self.seat = 0
        self.cond = threading.Condition()
        self.asking = 0  # the id of the request the page may answer now (0: none)
        self.serial = 0
        self.answer: Optional[str] = None
        self.settling = False  # waiting for the lineup
        self.dealt = ""  # the lineup this game deals the seat (--lineups), which it must play
        self.lineup_ms = 600_000  # a person has the game clock to choose a lineup (an engine has seconds)
        watch.humans[key] = self  # the key itself is good from when the referee printed it (``watch.keys``)

    def open(self, board: Board, seat: int, rules: Rules, time_ms: int, movetime_ms: int) -> None:
        self.board = board
        self.seat = seat
        self.lineup_ms = time_ms
        self.watch.seated(self.key, board.letters[seat])  # the stream of this key shows the game as this seat sees it

    def lineup(self, given: str, timeout: float) -> str:
        proposals = [short_lineup(given)] if given else [strong_lineup(self.rng) for _ in range(PROPOSALS)]
        board = self.board
        with self.cond:
            self.settling, self.answer, self.dealt = True, None, short_lineup(given) if given else ""
        self.watch.publish({"kind": "setup", "seat": board.letters[self.seat], "board": board_data(board),
                            "points": [self.seat * 30 + s for s in LINEUP_SLOTS], "proposals": proposals,
                            "dealt": bool(given)}, self.key)
        try:
            answer = self._wait(time.monotonic() + self.lineup_ms / 1000)
        finally:
            with self.cond:
                self.settling = False
        if answer is None:
            raise Forfeit(End.NO_ANSWER, f"no lineup from the browser within {self.lineup_ms} ms (the game clock)")
        return answer

    def offer_lineup(self, text: str) -> Optional[str]:
        """A lineup from the page: None when taken, else why not (the seat still waits)."""
        with self.cond:
            if not self.settling:
                return "there is no lineup to choose now"
            err = check_lineup(text)
            if err is not None:
                return f"lineup refused: {self._named(err)}"
            if self.dealt and short_lineup(text) != self.dealt:
                return "lineup refused: this game deals your lineup (--lineups); it is played as dealt"
            self.answer = short_lineup(text)
            self.cond.notify_all()
        return None

    def _named(self, rule: str) -> str:
        """The rules' words with the person's points for the lineup's slots, and row 0 called the front row."""
        base = self.seat * 30

        def points(m: re.Match[str]) -> str:
            return ", ".join(self.board.names[base + int(s)] for s in re.findall(r"[0-9]+", m.group(0)))

        named = re.sub(r"\bslots? [0-9]+(?:, [0-9]+)*", points, rule)
        return named if "front row" in named else named.replace("row 0", "row 0, the front row")

    def begin(self, visible: dict[int, str]) -> None:
        return None

    def ask(self, time_left_ms: int, movetime_ms: int) -> str:
        board = self.board
        game = self.watch.current_game()
        moves = [] if game is None or game.turn != self.seat else game.legal_moves()
        with self.cond:
            self.serial += 1
            self.asking, self.answer = self.serial, None
            ask_id = self.serial
        self.watch.publish({"kind": "ask", "seat": board.letters[self.seat], "id": ask_id, "moves": moves,
                            "time": time_left_ms, "movetime": movetime_ms}, self.key)
        try:
            answer = self._wait(time.monotonic() + min(time_left_ms, movetime_ms) / 1000)
        finally:
            with self.cond:
                self.asking = 0
        if answer is None:
            raise Forfeit(End.NO_ANSWER, f"no move from the browser within {min(time_left_ms, movetime_ms)} ms")
        return answer

    def offer_move(self, ask_id: int, move: str) -> Optional[str]:
        """A move (``FROM-TO`` or ``pass``) from the page: None when taken, else why not."""
        with self.cond:
            if not self.asking or ask_id != self.asking:
                return "it is not your turn"
            if move != "pass":
                problem = self._illegal(move)
                if problem is not None:
                    return f"refused: {problem}"
            self.answer = move
            self.cond.notify_all()
        return None

    def _illegal(self, move: str) -> Optional[str]:
        game = self.watch.current_game()
        if game is None:
            return "no game is being played"
        frm, dash, to = move.partition("-")
        try:
            a, b = self.board.point(frm), self.board.point(to)
        except ValueError as exc:
            return str(exc)
        if not dash:
            return f"{move!r} is not FROM-TO"
        return why_illegal(self.board, game.pos.owner, game.pos.kind, self.seat, a, b)

    def _wait(self, deadline: float) -> Optional[str]:
        """The page's answer, or None at ``deadline``; short waits, so a signal is never held up."""
        with self.cond:
            while self.answer is None:
                left = min(0.5, deadline - time.monotonic())
                if left <= 0:
                    return None
                self.cond.wait(left)
            return self.answer
