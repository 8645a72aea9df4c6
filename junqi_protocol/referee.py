"""sanqi referee: hosts two or four Junqi players, enforces the rules and clocks, records every game.

    sanqi referee [--variant 2p|4p] [--games N] [--record FILE] [--rules "k=v ..."] [--time SEC]
                  [--movetime SEC] [--seed N] [--engine-option [I:]NAME=VALUE] [--engine-log DIR]
                  [--watch [HOST:]PORT] ENGINE...
    sanqi referee --print FILE [--html OUT.html]

ENGINE is a built-in player (search, random, events: run in process), human (a person, in the
browser: needs --watch), junqi:COMMAND or just COMMAND (an engine speaking our line protocol), or
ccgc:COMMAND (a CCGC 1.0 engine, two players only). With n engines, game g gives seat s (S, E, N,
W order) to engine (s + g - 1) mod n, so two engines in a four-player game form the two teams and
swap sides every game. Every engine runs in its own process
group, killed at the end of its game; SIGINT or SIGTERM ends the game in progress with an 'aborted'
end line in the record, stops the engines and exits with 128 + the signal number.
"""

import argparse
import os
import secrets
import signal
import sys
import threading
import time
import traceback
import webbrowser
from typing import Any, Optional, TextIO

from engine_core.ends import End, Forfeit
import engine_core.referee as core
from engine_core.referee import Clock, Result
from engine_core.args import (ArgParser, UsageError, guarded, natural_int, positive_float, positive_int, program,
                              readable_file, writable_file)
from junqi_protocol.board import Board
from junqi_protocol.player import STYLES
from junqi_protocol.game import Event, Game, IllegalMove, Rules, team_name
from junqi_protocol.seats import ABORTED, BuiltinSeat, CcgcSeat, JunqiSeat, Seat, SeatError
from junqi_protocol.lineups import read_deals
from junqi_protocol.record import Recorder, describe, read_games, replay
from junqi_protocol.rules import check_lineup, parse_lineup, short_lineup
from junqi_protocol.view import Watch, start_watch, watch_address, write_html
from junqi_protocol.view_human import HumanSeat


class Aborted(BaseException):
    """SIGINT or SIGTERM reached the referee: the game in progress is recorded as aborted."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def abort_on_signals() -> None:
    """Turn SIGINT and SIGTERM into :class:`Aborted`; later ones are ignored so the cleanup can finish."""

    def handler(signum: int, frame: object) -> None:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)
        raise Aborted(signum)

    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, handler)


class MoveTime(Clock):
    """Junqi's clock: a reply is late only past the move time (``turn_ms``). The clock itself bounds how
    long a seat is waited for (a seat's ``ask`` gives up when it runs out); :class:`JunqiRules` rules on
    a late reply: with time left on the clock it costs the turn, else the seat is out on time.

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
    """Junqi's rules for :func:`engine_core.referee.play`, for one game of a :class:`Referee`'s: two or four seats.

    Opening a seat gets its lineup; a seat that fails there is out before the first move. The first
    :meth:`outcome` starts the game (the ``game``, ``lineup`` and ``start`` lines, the lineups shown, the
    start's events told). Every turn, a failed one too, is a ``step`` line and news for every seat; a
    failed seat goes out while the others play on, and a timeout or a reply past the move time with
    time left on the clock (:class:`MoveTime`) costs only the turn. :meth:`forfeited` therefore never
    ends the game itself: :meth:`outcome` reports the end once the game has one. ``forfeits`` lists the
    (seat, end) of each seat put out by a failure, ``end`` how the game ended (the failure whose seat's
    going out ended it, if one did)."""

    def __init__(self, referee: "Referee", number: int, players: list[Seat]) -> None:
        self.board = board = Board(referee.variant)
        self.game = Game(board, Rules(referee.variant, referee.rules_text))
        self.seats = board.seats
        self.players = players
        self.number = number
        self.recorder = referee.recorder
        self.time_ms, self.movetime_ms, self.lineup_timeout = referee.time_ms, referee.movetime_ms, referee.lineup_timeout
        self.dealt = [referee.dealt(number, seat) for seat in range(board.seats)]
        self.lineups: dict[int, str] = {}  # the lineup each seat plays
        self.rejected: dict[int, SeatError] = {}  # or why it has none
        self.started = False  # the game is under way: its ``start`` line is written
        self.headed = False  # its ``game`` line is written
        self.ended = False  # and its ``end`` line
        self.forfeits: list[tuple[int, End]] = []
        self.end = End.RESULT
        self.step: dict[str, Any] = {}  # the turn being played, as its record line
        self.reply = ""  # and the seat's reply
        self.left = 0  # the ms its clock has left after it

    def open(self, seat: int) -> None:
        player = self.players[seat]
        player.open(self.board, seat, self.game.rules, self.time_ms, self.movetime_ms)
        text = player.lineup(self.dealt[seat], self.lineup_timeout)
        err = check_lineup(text)
        if err is not None:
            player.error(f"lineup rejected: {err}")
            raise SeatError(End.ILLEGAL, f"lineup {text[:40]!r}: {err}")
        self.lineups[seat] = short_lineup(text)

    def outcome(self) -> Optional[Result]:
        if not self.started:
            self._start()
        game = self.game
        return Result(game.winner, game.reason, self.end, tuple(self.forfeits)) if game.over else None

    def turn(self) -> int:
        return self.game.turn

    def ask(self, seat: int, clocks: list[int]) -> tuple[str, int]:
        """The seat's reply (a move, ``pass`` or the raw line) and its ms; a failure carries its ms too."""
        player = self.players[seat]
        self.step = {"type": "step", "game": self.number, "ply": self.game.ply + 1, "seat": self.board.letters[seat]}
        self.reply = ""
        t0 = time.monotonic()
        try:
            reply = player.ask(clocks[seat], self.movetime_ms)
        except Forfeit as exc:
            failure = exc if isinstance(exc, SeatError) else SeatError(exc.end, str(exc))
            failure.spent = self._timed(player, t0, clocks[seat])
            raise failure from None
        self.reply = reply
        return reply, self._timed(player, t0, clocks[seat])

    def _timed(self, player: Seat, t0: float, clock: int) -> int:
        """The ms since ``t0``, into the step with the lines the seat's engine wrote that were dropped."""
        ms = int((time.monotonic() - t0) * 1000)
        self.left = clock - ms
        self.step["ms"] = ms
        dropped = player.take_dropped()
        if dropped:
            self.step["dropped"] = dropped
        return ms

    def apply(self, seat: int, reply: str, ms: int) -> Optional[Result]:
        """Play a move or a pass; an illegal reply is a :class:`Forfeit` for :meth:`forfeited`."""
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

    def forfeited(self, seat: int, exc: Forfeit) -> Optional[Result]:
        """Rule on a failure: a :class:`SeatError` from the seat, the loop's reply past the move time, or
        :meth:`apply`'s illegal reply. The seat is out, or with a timeout and time left loses the turn."""
        if not self.started:  # at the opening: out before play began
            self.rejected[seat] = exc if isinstance(exc, SeatError) else SeatError(exc.end, str(exc))
            sys.stderr.write(f"referee: game {self.number} seat {self.board.letters[seat]} ({self.players[seat].name}): {exc}\n")
            return None
        step, game = self.step, self.game
        if not isinstance(exc, SeatError) and exc.end is End.ILLEGAL:  # apply's
            step.update(action="out", reason="illegal", reply=self.reply[:200], error=str(exc))
            got = self._out(seat, "illegal", End.ILLEGAL)
        else:  # the seat's, or the loop's (a reply past the move time)
            failure = exc if isinstance(exc, SeatError) else SeatError(End.TIME, f"replied after {step['ms']} ms")
            if failure.reason == "timeout" and self.left > 0:
                step["action"] = "timeout"
                got = game.pass_turn("timeout")
                if any(e.kind == "out" and e.seat == seat for e in got):  # its last pass allowed: out on time
                    self.forfeits.append((seat, End.TIME))
                    self._decided(got)
            else:
                step["action"] = "out"
                step["reason"] = "time" if failure.reason == "timeout" else failure.reason
                step["error"] = failure.detail
                got = self._out(seat, step["reason"], End.TIME if failure.reason == "timeout" else failure.end)
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
            rec.write({"type": "lineup", "game": number, "seat": board.letters[seat], "error": str(why)})
            players[seat].close()  # out before play began: its seat is over
        events: list[Event] = []
        for seat, why in sorted(self.rejected.items()):
            events += self._out(seat, "lineup", why.end)
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
            return game.move(board.point(frm), board.point(to)), None
        except (ValueError, IllegalMove) as exc:
            return [], f"illegal move {reply}: {exc}"

    def _broadcast(self, events: list[Event]) -> None:
        """Tell everyone; an engine found dead meanwhile is put out, which is news for the rest."""
        game, players = self.game, self.players
        while events:
            for player in players:
                try:
                    player.tell(events)
                except SeatError:
                    pass
            events = []
            for seat, player in enumerate(players):
                if player.dead and game.alive[seat] and not game.over:
                    player.close()
                    got = self._out(seat, "crash", End.CRASH)
                    self.recorder.write({"type": "step", "game": self.number, "ply": game.ply, "seat": game.board.letters[seat],
                                         "action": "out", "reason": "crash", "ms": 0,
                                         "events": [e.text(game.board) for e in got]})
                    events += got


class Referee:
    """Runs games between players on the core's loop under :class:`JunqiRules`; every record line is
    written the moment it happens."""

    def __init__(self, variant: str, rules_text: str, recorder: Recorder, time_ms: int = 600_000,
                 movetime_ms: int = 10_000, lineup_timeout: float = 10.0) -> None:
        self.variant = variant
        self.rules_text = rules_text
        Rules(variant, rules_text)  # reject bad options before any game starts
        self.recorder = recorder
        self.time_ms = time_ms
        self.movetime_ms = movetime_ms
        self.lineup_timeout = lineup_timeout
        self.deals: list[list[str]] = []  # fixed lineups by seat (--lineups), one deal per round of seats
        self.deal_every = 1  # games per deal: one for each engine's turn in every seat
        self.forfeits: list[tuple[int, End]] = []  # the last game's (seat, how) for each seat put out by a failure
        self.end = End.RESULT  # how the last game ended: the failure whose seat's going out ended it, if one did

    _visible = staticmethod(visible)

    def dealt(self, number: int, seat: int) -> str:
        """The lineup game ``number`` deals to ``seat``; empty when the engines choose their own."""
        if not self.deals:
            return ""
        return self.deals[(number - 1) // self.deal_every % len(self.deals)][seat]

    def play(self, number: int, players: list[Seat]) -> Game:
        """Play one game; the record ends with an ``end`` line whatever happens, even on a signal."""
        rules = JunqiRules(self, number, players)
        game = rules.game
        self.forfeits, self.end = rules.forfeits, End.RESULT
        try:
            core.play(rules, MoveTime(self.time_ms, 0, self.movetime_ms))
            rules.end_line()
            for player in players:
                player.finish(game.winner)
        except Exception:  # noqa: BLE001 - a referee bug must still leave a complete record
            sys.stderr.write(traceback.format_exc())
            if not game.over:
                game.over = True
                game.winner = -1
                game.reason = "referee-error"
            rules.end_line()
        except Aborted as exc:
            rules.end_line(f"aborted by {exc}")
            for player in players:
                player.finish(ABORTED)
            raise
        finally:
            self.end = rules.end
            self._stop(players)
        return game

    @staticmethod
    def _stop(players: list[Seat]) -> None:
        """Stop every seat; a signal that arrives meanwhile waits until all are stopped."""
        signalled: Optional[Aborted] = None
        for player in players:
            player.quit()
        for player in players:
            for _ in range(2):  # once more if a signal broke the first try (later signals are ignored)
                try:
                    player.close()
                    break
                except Aborted as exc:
                    signalled = exc
                except Exception:  # noqa: BLE001 - closing one engine must not stop the others
                    sys.stderr.write(traceback.format_exc())
                    break
        if signalled is not None:
            raise signalled


def split_spec(spec: str) -> tuple[str, str]:
    """An ENGINE argument as (protocol, command); built-in players have the protocol ``builtin``.

    >>> split_spec("ccgc:sanqi --protocol ccgc"), split_spec("sanqi"), split_spec("random")
    (('ccgc', 'sanqi --protocol ccgc'), ('junqi', 'sanqi'), ('builtin', 'random'))
    """
    if spec in STYLES:
        return "builtin", spec
    if spec == "human":
        return "human", spec
    kind, colon, command = spec.partition(":")
    if colon and kind in ("junqi", "ccgc"):
        return kind, command
    return "junqi", spec


def engine_spec(text: str) -> str:
    """An argparse type: a built-in player, or a command whose program exists."""
    kind, command = split_spec(text)
    if kind not in ("builtin", "human"):
        program(command)
    return text


def log_folder(text: str) -> str:
    """An argparse type: a folder that exists and can be written, or can be made."""
    folder = os.path.abspath(text)
    there = folder if os.path.isdir(folder) else os.path.dirname(folder)
    if not os.path.isdir(there) or not os.access(there, os.W_OK) or os.path.isfile(folder):
        raise argparse.ArgumentTypeError(f"cannot keep engine logs in {text!r} (no writable folder there)")
    return text


def make_seat(spec: str, options: list[tuple[str, str]], seed: Optional[int], watch: Optional[Watch] = None,
              key: str = "") -> Seat:
    kind, command = split_spec(spec)
    if kind == "human":
        if watch is None:
            raise UsageError("a human plays in the browser: add --watch [HOST:]PORT")
        return HumanSeat(watch, key, seed)
    if kind == "builtin":
        return BuiltinSeat(spec, seed, options)
    if kind == "ccgc":
        return CcgcSeat(command)
    return JunqiSeat(command, options)


def _parse_options(items: list[str], engines: int) -> list[list[tuple[str, str]]]:
    per: list[list[tuple[str, str]]] = [[] for _ in range(engines)]
    for item in items:
        which, colon, rest = item.partition(":")
        targets = range(engines)
        if colon and which.isdigit():
            targets = range(int(which) - 1, int(which))
            item = rest
        name, eq, value = item.partition("=")
        if not eq:
            raise UsageError(f"--engine-option {item!r} is not NAME=VALUE")
        for i in targets:
            if not 0 <= i < engines:
                raise UsageError(f"--engine-option {item!r}: there is no engine {i + 1}")
            per[i].append((name, value))
    return per


def read_record(path: str) -> list[list[dict[str, Any]]]:
    """Every game of a record file; a file that is not a record is the user's mistake."""
    try:
        with open(path, encoding="utf-8") as fh:
            return read_games(fh.readlines())
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path} is not a readable game record: {exc}") from None


def print_records(path: str, out: TextIO) -> int:
    games = read_record(path)
    bad = 0
    for lines in games:
        try:
            out.write(describe(lines) + "\n\n")
            bad += bool(replay(lines)[1])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            out.write(f"game {lines[0].get('game')}: cannot be replayed: {exc}\n\n")
            bad += 1
    out.write(f"{len(games)} games, {bad} with replay problems\n")
    return 1 if bad else 0


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi referee", description=__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[2])
    p.add_argument("engines", nargs="*", type=engine_spec, metavar="ENGINE",
                   help="search, random, events, human (played in the browser; needs --watch), junqi:COMMAND, "
                   "COMMAND or ccgc:COMMAND; 1, 2 or one per seat")
    p.add_argument("--variant", choices=("2p", "4p"), default="2p", help="two players (60 points) or four (Siguo)")
    p.add_argument("--games", type=positive_int, default=1, metavar="N", help="games to play")
    p.add_argument("--record", type=writable_file, metavar="FILE", help="append JSON-lines game records to FILE")
    p.add_argument("--rules", default="", metavar='"K=V ..."', help="nocapture=N nocapture_loses=0|1 passes=N "
                   "info=dark|allies|open; unset ones keep the variant's defaults (docs/junqi-protocol.md)")
    p.add_argument("--time", type=positive_float, default=600.0, metavar="SEC", help="each player's clock per game")
    p.add_argument("--movetime", type=positive_float, default=10.0, metavar="SEC", help="the most one move may take")
    p.add_argument("--seed", type=natural_int, metavar="N", help="seed for built-in players; unset: new games each run")
    p.add_argument("--engine-option", action="append", default=[], metavar="[I:]NAME=VALUE",
                   help="setoption for every engine, or for engine I (1-based) only; repeatable")
    p.add_argument("--engine-log", type=log_folder, metavar="DIR",
                   help="keep each engine's stderr in DIR/game<N>-<SEAT>.log; unset: engines' stderr is discarded")
    p.add_argument("--print", dest="print_file", type=readable_file, metavar="FILE",
                   help="replay and print a record, then exit")
    p.add_argument("--html", type=writable_file, metavar="OUT.html",
                   help="with --print: write a page that replays the record's games in a browser instead of printing them")
    p.add_argument("--watch", type=watch_address, metavar="[HOST:]PORT",
                   help="serve a live view of the games at http://HOST:PORT/ (read-only but for human seats; "
                   "HOST 127.0.0.1 unless given; port 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open each human seat's page in the browser (Python's webbrowser)")
    p.add_argument("--quiet", action="store_true", help="print only the score table")
    p.add_argument("--lineups", type=readable_file, metavar="FILE",
                   help="deal fixed lineups: one deal a line, the seats' lineups in order S N or S E N W; "
                   "each deal is played once per engine rotation (python -m junqi_protocol.lineups writes such files)")
    return p


def main(args: list[str]) -> int:
    p = parser()
    opts = p.parse_args(args)
    try:
        return guarded(p.prog, lambda: run(p, opts))
    except Aborted as exc:
        sys.stderr.write(f"{p.prog}: aborted by {exc}; the game in progress is recorded as aborted\n")
        return 128 + exc.signum


def run(p: ArgParser, opts: argparse.Namespace) -> int:
    if opts.html and not opts.print_file:
        p.error("--html needs --print FILE: the record whose games the page replays")
    if opts.print_file and opts.html:
        print(write_html(opts.print_file, opts.html))
        return 0
    if opts.print_file:
        return print_records(opts.print_file, sys.stdout)
    if not opts.engines:
        p.error("name at least one engine")
    seats = 4 if opts.variant == "4p" else 2
    n = len(opts.engines)
    if seats % n:
        p.error(f"{n} engines cannot share {seats} seats evenly; name 1, 2 or {seats}")
    if seats == 4 and any(split_spec(s)[0] == "ccgc" for s in opts.engines):
        p.error("CCGC engines play only the two-player game (--variant 2p)")
    humans = [i for i, s in enumerate(opts.engines) if s == "human"]
    if humans and not opts.watch:
        p.error("a human plays in the browser: add --watch [HOST:]PORT")
    if humans and n < seats:
        p.error(f"a person plays one seat a game: name {seats} engines (e.g. human{' sanqi' * (seats - 1)})")
    per = _parse_options(opts.engine_option, n)
    try:
        referee = Referee(opts.variant, opts.rules, Recorder(None), int(opts.time * 1000), int(opts.movetime * 1000))
    except ValueError as exc:
        raise UsageError(f"--rules: {exc}") from None
    if opts.lineups:
        try:
            with open(opts.lineups, encoding="utf-8") as fh:
                referee.deals = read_deals(fh.read(), seats)
        except ValueError as exc:
            raise UsageError(f"--lineups: {exc}") from None
        referee.deal_every = n
    first = 1
    if opts.record and os.path.exists(opts.record):
        # Appending to an earlier run: keep game numbers unique so the file still reads game by game.
        first += max((int(lines[0]["game"]) for lines in read_record(opts.record)), default=0)
    if opts.engine_log:
        os.makedirs(opts.engine_log, exist_ok=True)
    abort_on_signals()
    watch = start_watch(p.prog, opts.watch, needed=bool(humans)) if opts.watch else None
    record = open(opts.record, "a", encoding="utf-8") if opts.record else None  # noqa: SIM115 - closed after the last game
    keys = {i: secrets.token_urlsafe(12) for i in humans}
    if watch is not None:
        for i, key in keys.items():
            watch.keys.add(key)  # valid from now: a page opened before its seat's first game starts is not refused
            sys.stderr.write(f"{p.prog}: engine {i + 1} (human) is played at {watch.url}?play={key}\n")
            if opts.open:  # in a thread: a browser that runs in the foreground must not hold up the game
                threading.Thread(target=webbrowser.open, args=(f"{watch.url}?play={key}",), daemon=True).start()
    referee.recorder = Recorder(record, [watch.push] if watch else [])
    board = Board(opts.variant)
    score = [[0, 0, 0] for _ in range(n)]
    t0 = time.monotonic()
    try:
        for g in range(1, opts.games + 1):
            number = first + g - 1
            who = [(s + g - 1) % n for s in range(seats)]
            seed = None if opts.seed is None else opts.seed * 1000 + g
            players = [make_seat(opts.engines[i], per[i], None if seed is None else seed + s, watch, keys.get(i, ""))
                      for s, i in enumerate(who)]
            if opts.engine_log:
                for s, player in enumerate(players):
                    player.log_to(os.path.join(opts.engine_log, f"game{number}-{board.letters[s]}.log"))
            game = referee.play(number, players)
            for s, i in enumerate(who):
                col = 1 if game.winner < 0 else 0 if board.team(s) == game.winner else 2
                if s == who.index(i):  # count each engine once per game
                    score[i][col] += 1
            if not opts.quiet:
                line = " ".join(f"{board.letters[s]}={opts.engines[i]}" for s, i in enumerate(who))
                print(f"game {number}: {line}: {team_name(board, game.winner)} ({game.reason}, {game.ply} plies)", flush=True)
    finally:
        if record is not None:
            record.close()
        if watch is not None:
            watch.close()
    minutes = (time.monotonic() - t0) / 60
    print(f"{'engine':30} {'games':>5} {'won':>5} {'drawn':>5} {'lost':>5} {'points':>7}")
    for i, spec in enumerate(opts.engines):
        won, drawn, lost = score[i]
        print(f"{spec[:30]:30} {won + drawn + lost:5} {won:5} {drawn:5} {lost:5} {won + drawn / 2:7.1f}")
    print(f"{opts.games} games in {minutes * 60:.1f}s: {opts.games / max(minutes, 1e-9):.1f} games per minute")
    return 0
