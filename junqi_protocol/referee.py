"""A Junqi game of two or four seats (``junqi_protocol.seats``), our :class:`Game` as referee.

Each seat is opened and gives its lineup; then the seats move in turn, a failed seat going out while
the others play on. The loop is the core's, :func:`engine_core.referee.play`; this module holds Junqi's
rules for it (:class:`JunqiRules`) with its clock (:class:`MoveTime`). :class:`junqi_protocol.runner.Referee`
plays its games with them, one after another, for ``sanqi referee`` (``junqi_protocol.match``) and
``sanqi match --game junqi`` (``junqi_protocol.arena``).
"""

import sys
from typing import Any, Optional

from engine_core.ends import End, Forfeit
from engine_core.referee import Clock, Result
from junqi_protocol.board import Board
from junqi_protocol.game import Event, Game, IllegalMove, Rules, team_name
from junqi_protocol.rules import check_lineup, parse_lineup, short_lineup
from junqi_protocol.record import Recorder
from junqi_protocol.seats import Seat


# The record's word for each way a seat fails: a reply missing its deadline is a ``timeout`` whether a
# clock ran (the referee then rules on the clock) or not.
WORDS = {End.CRASH: "crash", End.TIME: "timeout", End.NO_ANSWER: "timeout", End.ILLEGAL: "protocol"}


def worded(exc: Forfeit) -> str:
    """A seat's failure as the record shows it: its word, then what happened.

    >>> worded(Forfeit(End.NO_ANSWER, "no reply within 10.0s"))
    'timeout: no reply within 10.0s'
    """
    return f"{WORDS[exc.end]}: {exc}"


class MoveTime(Clock):
    """Junqi's clock: a reply is late only past the move time (``turn_ms``). The clock itself bounds how
    long a seat is waited for (a seat's ``ask`` gives up when it runs out); :class:`JunqiRules` rules on
    a late reply with the seat's clock the loop hands it: with time left it costs the turn, else the seat
    is out on time.

    >>> MoveTime(600_000, 0, 10_000).over(10_001, 500_000), MoveTime(1000, 0, 10_000).over(900, -5)
    (True, False)
    """

    def over(self, spent: int, left: int) -> bool:
        return spent > self.turn_ms


def visible(board: Board, rules: Rules, seat: int, lineups: dict[int, str]) -> dict[int, str]:
    """The other seats' lineups ``seat`` is shown at the start, as the rules' ``info`` says."""
    if rules.info == "open":
        return {s: t for s, t in lineups.items() if s != seat}
    if rules.info == "allies":
        return {s: t for s, t in lineups.items() if s != seat and board.team(s) == board.team(seat)}
    return {}


class JunqiRules:
    """Junqi's rules for :func:`engine_core.referee.play`, for one ``game`` of two or four seats: ``dealt``
    the lineup each seat is given ("": its own choice), the clocks in ms, a lineup waited for
    ``lineup_timeout`` seconds.

    Opening a seat gets its lineup; a seat that fails there is out before the first move. The first
    :meth:`outcome` starts the game (the ``game``, ``lineup`` and ``start`` lines, the lineups shown, the
    start's events told). Every turn, a failed one too, is a ``step`` line and news for every seat; a
    failed seat goes out while the others play on, and a timeout or a reply past the move time with
    time left on the clock (:class:`MoveTime`) costs only the turn. :meth:`forfeited` therefore never
    ends the game itself: :meth:`outcome` reports the end once the game has one. ``forfeits`` lists the
    (seat, end) of each seat put out by a failure, ``end`` how the game ended (the failure whose seat's
    going out ended it, if one did)."""

    def __init__(self, game: Game, number: int, players: list[Seat], recorder: Recorder, dealt: list[str],
                 time_ms: int, movetime_ms: int, lineup_timeout: float) -> None:
        self.game = game
        self.board = board = game.board
        self.seats = board.seats
        self.players = players
        self.number = number
        self.recorder = recorder
        self.time_ms, self.movetime_ms, self.lineup_timeout = time_ms, movetime_ms, lineup_timeout
        self.dealt = dealt
        self.lineups: dict[int, str] = {}  # the lineup each seat plays
        self.rejected: dict[int, Forfeit] = {}  # or why it has none
        self.absent = {seat for seat, player in enumerate(players) if player.absent}  # out from the start
        self.started = False  # the game is under way: its ``start`` line is written
        self.headed = False  # its ``game`` line is written
        self.ended = False  # and its ``end`` line
        self.forfeits: list[tuple[int, End]] = []
        self.end = End.RESULT
        self.step: dict[str, Any] = {}  # the turn being played, as its record line
        self.reply: Optional[str] = None  # and the seat's reply (None: it failed to give one)

    def open(self, seat: int) -> None:
        player = self.players[seat]
        if player.absent:
            return
        player.open(self.board, seat, self.game.rules, self.time_ms, self.movetime_ms)
        text = player.lineup(self.dealt[seat], self.lineup_timeout)
        err = check_lineup(text)
        if err is not None:
            player.error(f"lineup rejected: {err}")
            raise Forfeit(End.ILLEGAL, f"lineup {text[:40]!r}: {err}")
        self.lineups[seat] = short_lineup(text)

    def outcome(self) -> Optional[Result]:
        if not self.started:
            self._start()
        return self.result() if self.game.over else None

    def result(self) -> Result:
        """The game's result as it stands: the winning team, the reason, how it ended and the forfeits."""
        game = self.game
        return Result(game.winner, game.reason, self.end, tuple(self.forfeits))

    def turn(self) -> int:
        return self.game.turn

    def ask(self, seat: int, clocks: list[int]) -> str:
        """The seat's reply: a move, ``pass`` or the raw line."""
        self.step = {"type": "step", "game": self.number, "ply": self.game.ply + 1, "seat": self.board.letters[seat]}
        self.reply = None
        self.reply = reply = self.players[seat].ask(clocks[seat], self.movetime_ms)
        return reply

    def cost(self, seat: int, ms: int) -> int:
        return ms

    def _took(self, seat: int, ms: int) -> None:
        """The turn's ms into its step, with the lines the seat's engine wrote that were dropped."""
        self.step["ms"] = ms
        dropped = self.players[seat].take_dropped()
        if dropped:
            self.step["dropped"] = dropped

    def apply(self, seat: int, reply: str, ms: int) -> Optional[Result]:
        """Play a move or a pass; an illegal reply is a :class:`Forfeit` for :meth:`forfeited`."""
        self._took(seat, ms)
        if reply == "pass":
            self.step["action"] = "pass"
            got = self.game.pass_turn("pass")
        else:
            got, problem = self._move(reply)
            if problem is not None:
                self.players[seat].error(problem)
                raise Forfeit(End.ILLEGAL, problem)
            self.step["action"] = "move"
            self.step["move"] = reply
        self._told(seat, got)
        return None

    def forfeited(self, seat: int, exc: Forfeit, left: int) -> Optional[Result]:
        """Rule on a failure: the seat's own (no reply), the loop's (a reply past the move time), or
        :meth:`apply`'s illegal reply. The seat is out, or with a timeout and time ``left`` loses the turn."""
        if not self.started:  # at the opening: out before play began
            self.rejected[seat] = exc
            sys.stderr.write(f"referee: game {self.number} seat {self.board.letters[seat]} ({self.players[seat].name}): {worded(exc)}\n")
            return None
        step, game = self.step, self.game
        if self.reply is not None and "ms" in step:  # apply's (which took the reply's ms)
            step.update(action="out", reason="illegal", reply=self.reply[:200], error=str(exc))
            got = self._out(seat, "illegal", End.ILLEGAL)
        else:  # the seat's, or the loop's (a reply past the move time)
            self._took(seat, exc.spent)
            word, detail = (WORDS[exc.end], str(exc)) if self.reply is None else ("timeout", f"replied after {exc.spent} ms")
            if word == "timeout" and left > 0:
                step["action"] = "timeout"
                got = game.pass_turn("timeout")
                if any(e.kind == "out" and e.seat == seat for e in got):  # its last pass allowed: out on time
                    self.forfeits.append((seat, End.TIME))
                    self._decided(got)
            else:
                step["action"] = "out"
                step["reason"] = "time" if word == "timeout" else word
                step["error"] = detail
                got = self._out(seat, step["reason"], End.TIME if word == "timeout" else exc.end)
        self._told(seat, got)
        return None

    def _told(self, seat: int, got: list[Event]) -> None:
        """The turn's ``step`` line with its events, and the events told to every seat."""
        self.step["events"] = [e.text(self.board) for e in got]
        self.recorder.write(self.step)
        if self.step.get("reason") == "crash":
            self.players[seat].close()
        self._broadcast(got)

    def _start(self) -> None:
        """Every seat is open: the record's head and lineups, those out already, the lineups shown, the start."""
        rec, board, game, players = self.recorder, self.board, self.game, self.players
        number = self.number
        self.head()
        for seat, text in sorted(self.lineups.items()):
            game.place(seat, parse_lineup(text))
            rec.write({"type": "lineup", "game": number, "seat": board.letters[seat], "lineup": text})
        for seat, why in sorted(self.rejected.items()):
            rec.write({"type": "lineup", "game": number, "seat": board.letters[seat], "error": worded(why)})
            players[seat].close()  # out before play began: its seat is over
        for seat in sorted(self.absent):
            rec.write({"type": "lineup", "game": number, "seat": board.letters[seat], "absent": True})
        events: list[Event] = []
        for seat in sorted(self.absent | set(self.rejected)):  # in seat order, as a replay puts them out
            if seat in self.absent:
                events += game.eliminate(seat, "absent")
            else:
                events += self._out(seat, "lineup", self.rejected[seat].end)
        for seat in range(board.seats):
            if seat in self.lineups:
                players[seat].begin(visible(board, game.rules, seat, self.lineups))
        started = game.start()
        events += started
        self._decided(started)
        rec.write({"type": "start", "game": number, "events": [e.text(board) for e in events]})
        self.started = True
        self._broadcast(events)

    def head(self) -> None:
        """The record's ``game`` line."""
        board, game = self.board, self.game
        self.recorder.write({"type": "game", "game": self.number, "variant": board.variant, "rules": game.rules.text(),
                             "players": {board.letters[s]: self.players[s].name for s in range(board.seats)},
                             "time": self.time_ms, "movetime": self.movetime_ms})
        self.headed = True

    def end_line(self, aborted: str = "") -> None:
        """The ``end`` line, once: the result by the rules, or ``none`` with ``aborted`` as the reason."""
        if self.ended:
            return
        if not self.headed:
            self.head()
        game = self.game
        if game.over:
            result, reason = team_name(game.board, game.winner), game.reason
        else:
            result, reason = "none", aborted
        self.recorder.write({"type": "end", "game": self.number, "result": result, "reason": reason, "plies": game.ply})
        self.ended = True

    def _out(self, seat: int, word: str, end: End) -> list[Event]:
        """Put ``seat`` out for a failure: ``word`` for the record, ``end`` typed; the events."""
        got = self.game.eliminate(seat, word)
        self.forfeits.append((seat, end))
        self._decided(got)
        return got

    def _decided(self, events: list[Event]) -> None:
        """The game ended with ``events``: by the last failure that put a seat out, if one did."""
        if self.forfeits and any(e.kind == "end" for e in events):
            self.end = self.forfeits[-1][1]

    def _move(self, reply: str) -> tuple[list[Event], Optional[str]]:
        game, board = self.game, self.board
        frm, dash, to = reply.partition("-")
        if not dash or " " in reply:
            return [], f"not a move or pass: {reply[:60]!r}"
        try:
            # board.point's ValueError names a point the board lacks; a ValueError from game.move would be a
            # bug of ours, not the seat's illegal move (IllegalMove is no ValueError).
            frm_to = board.point(frm), board.point(to)
        except ValueError as exc:
            return [], f"illegal move {reply}: {exc}"
        try:
            return game.move(*frm_to), None
        except IllegalMove as exc:
            return [], f"illegal move {reply}: {exc}"

    def _broadcast(self, events: list[Event]) -> None:
        """Tell everyone; an engine found dead meanwhile is put out, which is news for the rest."""
        game, players = self.game, self.players
        while events:
            for player in players:
                try:
                    player.tell(events)
                except Forfeit:  # a seat that cannot be told is found dead below
                    pass
            events = []
            for seat, player in enumerate(players):
                if player.dead and game.alive[seat] and not game.over:
                    player.close()
                    got = self._out(seat, "crash", End.CRASH)
                    self.recorder.write({"type": "step", "game": self.number, "ply": game.ply, "seat": game.board.letters[seat],
                                         "action": "out", "reason": "crash", "ms": 0,
                                         "events": [e.text(game.board) for e in got]})
