"""Junqi in the browser: one self-contained replay page for a record, and a live view of the referee's games.

Both draw the board from :class:`junqi_protocol.board.Board` and take every position from the game's own
rules: the record is re-played in Python (:class:`junqi_protocol.record.Replayer`) and the page gets the
pieces after every ply as JSON, so its JavaScript only draws, steps and hides what a seat could not see.

    sanqi referee --print FILE --html OUT.html     # a page for every game of a record
    sanqi referee --watch [HOST:]PORT ENGINE...     # serve the games being played, each move as it happens

>>> data = board_data(Board("2p"))
>>> named = lambda pairs: [{data["names"][a], data["names"][b]} for a, b in pairs]
>>> len(data["names"]), data["kinds"][25:30], {"F0", "G0"} in named(data["rails"])
(60, 'rhrhr', True)
>>> {"F1", "G1"} in named(data["roads"]) + named(data["rails"]), {"F1", "G1"} in named(data["roads"])
(False, False)
>>> {"F1", "F2"} in named(data["rails"]), {"H1", "G0"} in named(data["roads"])
(True, True)
"""

import argparse
import itertools
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, Optional
from urllib.parse import parse_qs

from engine_core.args import UsageError
from junqi_protocol.board import Board
from junqi_protocol.game import Game, Rules
from junqi_protocol.player import Player
from junqi_protocol.record import Replayer, read_games
from junqi_protocol.replays import follow
from junqi_protocol.rules import FLAG, LETTERS
from junqi_protocol.view_page import PAGE

Message = dict[str, Any]


def board_data(board: Board) -> dict[str, Any]:
    """The board as the page draws it: names, grid places, kinds of point (``s`` station, ``c`` camp,
    ``h`` headquarters, ``r`` road only), railway segments and road segments."""
    rails: set[tuple[int, int]] = set()
    for line in board.lines:
        for a, b in itertools.pairwise(line):
            rails.add((min(a, b), max(a, b)))
    roads = sorted((a, b) for a in range(board.size) for b in board.steps[a] if a < b and (a, b) not in rails)
    kinds = "".join("h" if board.hq[p] else "c" if board.camp[p] else "s" if board.station[p] else "r" for p in range(board.size))
    # Two players: a strip between the fronts (rows F and G), where the mountain and the three crossings are.
    xy = [(float(x), y + (0.5 if board.variant == "2p" and y >= 6 else 0.0)) for x, y in board.xy]
    return {"variant": board.variant, "letters": board.letters, "names": board.names, "xy": xy, "kinds": kinds,
            "rails": sorted(rails), "roads": roads, "seat_of": board.seat_of}


def who_sees(board: Board, rules: Rules) -> dict[str, str]:
    """For each seat, the seats whose pieces it sees by the game's information mode."""
    out = {}
    for s in range(board.seats):
        seen = [t for t in range(board.seats) if t == s or rules.info == "open"
                or (rules.info == "allies" and board.team(t) == board.team(s))]
        out[board.letters[s]] = "".join(board.letters[t] for t in seen)
    return out


class Follower:
    """Turns record lines, in order, into the page's messages: ``game`` (board, players, who sees
    whom), ``frame`` (the position after the start or a step, with its events) and ``end``."""

    def __init__(self, guesses: bool = False) -> None:
        self.replayer: Optional[Replayer] = None
        self.flags: set[int] = set()  # flag squares announced when a 司令 died: everyone knows them
        self.boards: dict[str, dict[str, Any]] = {}
        # With ``guesses``, each frame also carries what every seat could infer (as :func:`seat_guesses`),
        # followed line by line: the game's lines so far, and one :func:`follow` per seat over them.
        self.guesses = guesses
        self.lines: list[dict[str, Any]] = []
        self.followers: dict[int, Iterator[tuple[Player, Any]]] = {}

    def feed(self, obj: dict[str, Any]) -> list[Message]:
        kind = obj.get("type")
        number = obj.get("game")
        if kind == "game":
            first = self.replayer = Replayer(obj)
            self.flags = set()
            self.lines, self.followers = [obj], {}
            variant = first.board.variant
            if variant not in self.boards:
                self.boards[variant] = board_data(first.board)
            return [{"kind": "game", "game": number, "variant": variant, "rules": obj["rules"],
                     "players": obj["players"], "board": self.boards[variant], "see": who_sees(first.board, first.game.rules)}]
        r = self.replayer
        if r is None:
            return []
        if kind == "step" and not r.started:
            r.feed({"type": "start", "game": number, "events": []})
            self.lines.append({"type": "start", "game": number, "events": []})
        texts = r.feed(obj)
        if kind in ("lineup", "start", "step"):
            self.lines.append(obj)
        if kind == "lineup":
            return [{"kind": "lineup", "game": number, "seat": obj["seat"], "error": obj.get("error") or ("out from the start" if obj.get("absent") else "")}]
        if kind in ("start", "step"):
            return [self._frame(r, obj, texts)]
        if kind == "end":
            return [{"kind": "end", "game": number, "result": obj["result"], "reason": obj["reason"], "plies": obj["plies"]}]
        return []

    def _frame(self, r: Replayer, obj: dict[str, Any], texts: list[str]) -> Message:
        board, game = r.board, r.game
        pos = game.pos
        for text in texts:
            words = text.split()
            if words[0] == "marshal" and words[2] != "none":
                self.flags.add(board.point(words[2]))
        cells = "".join(board.letters[pos.owner[p]] + LETTERS[pos.kind[p]] if pos.owner[p] >= 0 else ".."
                        for p in range(board.size))
        frame: Message = {"kind": "frame", "game": obj.get("game"), "ply": game.ply, "cells": cells, "events": texts,
                          "known": sorted(p for p in self.flags if pos.owner[p] >= 0 and pos.kind[p] == FLAG),
                          "alive": "".join(board.letters[s] for s in range(board.seats) if game.alive[s]),
                          "turn": "" if game.over else board.letters[game.turn]}
        if self.guesses:
            frame["guesses"] = self._guesses(board, obj["type"] == "start")
        if obj["type"] == "step":
            frame.update(seat=obj["seat"], action=obj["action"], ms=obj.get("ms", 0))
            if "move" in obj:
                move = obj["move"].partition("-")
                frame["move"] = [board.point(move[0]), board.point(move[2])]
            note = obj.get("error") or (obj.get("reason") if obj["action"] == "out" else "")
            if note:
                frame["note"] = str(note)[:200]
        else:
            frame["action"] = "start"
        return frame


    def _guesses(self, board: Board, start: bool) -> dict[str, str]:
        """Each seat's guesses after the line just fed (whose events are the rules'); a seat whose
        inference fails drops out of the guesses, never out of the view."""
        if start:
            given = {obj["seat"] for obj in self.lines if obj["type"] == "lineup" and "lineup" in obj}
            self.followers = {s: follow(self.lines, s) for s in range(board.seats) if board.letters[s] in given}
        out = {}
        for seat, seen in list(self.followers.items()):
            try:
                out[board.letters[seat]] = guess_cells(board, next(seen)[0])
            except Exception:  # noqa: BLE001 - the guesses are extra: the game's view goes on without them
                del self.followers[seat]
        return out


def guess_cells(board: Board, player: Player) -> str:
    """Per point, the likeliest kind of a piece hidden from ``player``'s seat and how sure (a digit:
    tenths, 9 for 90 % or more); ``..`` elsewhere."""
    pos = player.pos
    cells = []
    for p in range(board.size):
        if pos.owner[p] >= 0 and pos.kind[p] < 0:
            probs = player.beliefs.probabilities(pos.owner[p], pos.tag[p])
            k = max(range(len(probs)), key=probs.__getitem__)
            cells.append(LETTERS[k] + str(min(9, int(probs[k] * 10))))
        else:
            cells.append("..")
    return "".join(cells)


def seat_guesses(lines: list[dict[str, Any]]) -> dict[str, list[str]]:
    """What each seat could infer about the pieces hidden from it, after the start and after every step:
    per point the likeliest kind of such a piece and how sure (a digit: tenths, 9 for 90 % or more),
    ``..`` elsewhere. Records hold what happened, not what the engines believed, so this is our own
    inference (:mod:`junqi_protocol.beliefs`, as ``events`` and ``search`` use it) from what that seat
    was told. A seat that gave no lineup gets none."""
    board = Board(lines[0]["variant"])
    out: dict[str, list[str]] = {}
    given = {obj["seat"] for obj in lines if obj["type"] == "lineup" and "lineup" in obj}
    for seat in range(board.seats):
        if board.letters[seat] not in given:
            continue
        out[board.letters[seat]] = [guess_cells(board, player) for player, _ in follow(lines, seat)]
    return out


def page(games: list[Message], title: str, live: bool = False) -> str:
    """The page, with its games (``game`` messages holding ``frames`` and ``end``) inside."""
    data = json.dumps({"title": title, "live": live, "games": games}, ensure_ascii=False, separators=(",", ":"))
    # Inside <script>: no "</script>" or "<!--" can come out of the data.
    return PAGE.replace("__TITLE__", _escape(title)).replace('"__JUNQI_DATA__"', data.replace("<", "\\u003c"))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def record_games(games: list[list[dict[str, Any]]]) -> list[Message]:
    """Every game of a record as the page holds it; raises ValueError naming the first game that does
    not replay under the rules (and the first problem with it)."""
    out: list[Message] = []
    for lines in games:
        number = lines[0].get("game")
        try:
            r = Replayer(lines[0])
            for obj in lines[1:]:
                r.feed(obj)
            problems = r.finish()[1]
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"game {number} cannot be replayed: {exc}") from None
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise ValueError(f"game {number} does not replay under the rules: {problems[0]}{more}")
        follower = Follower()
        game: Message = {}
        for obj in lines:
            for msg in follower.feed(obj):
                if msg["kind"] == "game":
                    game = dict(msg, frames=[], end=None, lineup_errors={})
                elif msg["kind"] == "frame":
                    game["frames"].append(msg)
                elif msg["kind"] == "end":
                    game["end"] = msg
                elif msg["kind"] == "lineup" and msg["error"]:
                    game["lineup_errors"][msg["seat"]] = msg["error"]
        try:
            guesses = seat_guesses(lines)
        except Exception:  # noqa: BLE001 - the guesses are extra: a page without them is still the game
            guesses = {}
        game["guesses"] = {s: g for s, g in guesses.items() if len(g) == len(game["frames"])}
        out.append(game)
    return out


def write_html(record: str, out: str) -> str:
    """Write the replay page of every game in ``record`` to ``out``; the line to print. A record that
    cannot be read or does not replay is a :class:`UsageError` (one line, nothing written)."""
    try:
        with open(record, encoding="utf-8") as fh:
            games = read_games(fh.readlines())
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{record} is not a readable game record: {exc}") from None
    if not games:
        raise UsageError(f"{record} holds no game")
    try:
        shown = record_games(games)
    except ValueError as exc:
        raise UsageError(f"{record}: {exc}; no page written") from None
    text = page(shown, f"Junqi: {record.rsplit('/', 1)[-1]}")
    try:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc}") from None
    plies = sum(len(g["frames"]) - 1 for g in shown)
    return f"wrote {out}: {len(shown)} games, {plies} steps"


def watch_address(text: str) -> tuple[str, int]:
    """An argparse type: ``[HOST:]PORT``; the host defaults to 127.0.0.1 (this machine only).

    >>> watch_address("8000"), watch_address("0.0.0.0:8080"), watch_address("[::1]:80")
    (('127.0.0.1', 8000), ('0.0.0.0', 8080), ('::1', 80))
    """
    host, colon, port = text.rpartition(":")
    host = host.strip("[]") if colon else "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535 or (colon and not host):
        raise argparse.ArgumentTypeError(f"{text!r} is not [HOST:]PORT (a port 0-65535; 0 picks a free one)")
    return host, int(port)


class Watch:
    """The live view: an HTTP server (standard library) in daemon threads. ``/`` is the page,
    ``/events`` a server-sent event stream of the page's messages; :meth:`push` takes each record line
    as the referee writes it and never raises, so nothing a browser does reaches the game. Read-only,
    except for the seats played by a person (``human``): the page holding a seat's key may send that
    seat's lineup and moves, which the seat checks by the rules (:mod:`junqi_protocol.view_human`)."""

    def __init__(self, host: str, port: int, keep_games: int = 10) -> None:
        self.follower = Follower(guesses=True)
        self.log: list[tuple[str, str]] = []  # (message as JSON, the key it is for; "" for everyone)
        self.base = 0  # the id of log[0]
        self.starts: list[int] = []  # the id where each kept game begins
        self.keep_games = keep_games
        self.closed = False
        self.prog = "sanqi referee"  # the name its stderr lines begin with
        self.streams: dict[str, int] = {}  # key -> open streams of the pages holding it
        self.cond = threading.Condition()
        self.humans: dict[str, Any] = {}  # key -> HumanSeat of the seat it plays now
        self.keys: set[str] = set()  # the keys of seats played by a person, valid from when they are printed
        # Whose eyes a key's stream shows each game through: the seat each key holds (told by its
        # HumanSeat when the referee seats it, before the game's ``game`` line) and who sees whom.
        self.seating: dict[str, str] = {}  # key -> seat letter, for the game about to start
        self.key_seats: dict[Any, dict[str, str]] = {}  # game number -> {key: seat letter}
        self.sees: dict[Any, dict[str, str]] = {}  # game number -> who_sees
        server_class = _Server6 if ":" in host else _Server
        self.server: _Server = server_class((host, port), _Handler)  # OSError: address in use, not ours, …
        self.server.watch = self
        bound = self.server.server_address
        self.url = f"http://{'[' + host + ']' if ':' in host else host}:{bound[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, name="junqi-watch", daemon=True)
        self.thread.start()

    def push(self, obj: dict[str, Any]) -> None:
        try:
            with self.cond:
                messages = self.follower.feed(obj)
        except Exception as exc:  # noqa: BLE001 - the view must never stop a game
            messages = [{"kind": "warning", "text": f"the view cannot follow this line: {exc}"}]
        for msg in messages:
            self.publish(msg)

    def publish(self, msg: Message, key: str = "") -> None:
        """Send ``msg`` to every page, or only to the pages holding ``key``."""
        with self.cond:
            if msg["kind"] == "game":
                self.key_seats[msg["game"]], self.seating = self.seating, {}
                self.sees[msg["game"]] = msg["see"]
                self.starts.append(self.base + len(self.log))
                if len(self.starts) > self.keep_games:
                    drop = self.starts.pop(0)
                    cut = self.starts[0] - drop
                    del self.log[:cut]
                    self.base += cut
            self.log.append((json.dumps(msg, ensure_ascii=False, separators=(",", ":")), key))
            self.cond.notify_all()

    def stream(self, key: str, opened: bool, broken: bool = False) -> None:
        """A page holding ``key`` opened or closed its stream. When the last page playing a seat breaks
        off while the games go on, one line on stderr says so: the seat's turns time out until the page
        is opened again (a spectator's page that leaves is no news)."""
        with self.cond:
            left = self.streams[key] = self.streams.get(key, 0) + (1 if opened else -1)
            human = self.humans.get(key)
            if not broken or left or self.closed or human is None:
                return
            seat = human.board.letters[human.seat]
        sys.stderr.write(f"{self.prog}: the page playing seat {seat} (human) lost its connection; the seat's turns "
                         f"time out until {self.url}?play={key} is opened again\n")
        sys.stderr.flush()

    def seated(self, key: str, seat: str) -> None:
        """The person holding ``key`` plays ``seat`` in the game about to start."""
        with self.cond:
            self.seating[key] = seat

    def eyes(self, key: str, game: Any) -> tuple[str, dict[str, str]]:
        """The seat ``key`` plays in ``game`` ("" if none) and who sees whom there."""
        with self.cond:
            return self.key_seats.get(game, {}).get(key, ""), self.sees.get(game, {})

    def current_game(self) -> Optional[Game]:
        """The game being played, as the view re-plays it under the rules."""
        with self.cond:
            r = self.follower.replayer
            return None if r is None else r.game

    def since(self, first: int, wait: float) -> tuple[int, list[tuple[str, str]], bool]:
        """Messages from id ``first`` on (waiting up to ``wait`` seconds for one): (their first id,
        them, whether the view is closed)."""
        with self.cond:
            if first >= self.base + len(self.log) and not self.closed:
                self.cond.wait(wait)
            first = max(first, self.base)
            return first, self.log[first - self.base:], self.closed

    def offer(self, path: str, body: dict[str, Any]) -> tuple[int, str]:
        """A person's lineup or move from a page: (HTTP status, what to tell the page)."""
        key = body.get("play")
        if not isinstance(key, str) or key not in self.keys:
            return 403, "this page plays no seat (open the address with ?play=KEY the referee printed)"
        human = self.humans.get(key)
        if human is None:
            return 409, "the seat is not asking anything yet"
        if path == "/lineup" and isinstance(body.get("lineup"), str):
            why = human.offer_lineup(body["lineup"])
        elif path == "/move" and isinstance(body.get("move"), str) and isinstance(body.get("id"), int):
            why = human.offer_move(body["id"], body["move"])
        else:
            return 400, "send {play, lineup} to /lineup or {play, id, move} to /move"
        return (409, why) if why else (200, "ok")

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        self.server.shutdown()
        self.server.server_close()


def masked(msg: str, seat: str, see: dict[str, str]) -> str:
    """A frame as ``seat`` may see it: the kinds of pieces it was not shown become ``?``, the
    guesses are its own only, and the note on another seat's failure (an engine's illegal move may
    name the kind it tried to move) is dropped. No seat (``""``): every kind hidden."""
    frame = json.loads(msg)
    shown = see.get(seat, seat) if seat else ""
    known = set(frame["known"])
    cells = frame["cells"]
    frame["cells"] = "".join(cells[i:i + 2] if cells[i] == "." or cells[i] in shown or i // 2 in known else cells[i] + "?"
                             for i in range(0, len(cells), 2))
    if "guesses" in frame:
        frame["guesses"] = {s: g for s, g in frame["guesses"].items() if s == seat}
    if "note" in frame and frame.get("seat") not in shown:
        del frame["note"]
    frame["you"] = seat
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    watch: Watch


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return  # the referee's output is its games, not HTTP requests

    def do_GET(self) -> None:  # the name http.server calls
        path, _, query = self.path.partition("?")
        try:
            if path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8", page([], "Junqi: live", live=True).encode())
            elif path == "/events":
                key = parse_qs(query).get("play", [""])[0]
                if key and key not in self.server.watch.keys:
                    self._send(403, "text/plain; charset=utf-8", b"no seat has this key\n")
                else:
                    self._events(key)
            else:
                self._send(404, "text/plain; charset=utf-8", b"not found: the page is at /\n")
        except OSError:
            return  # the browser went away: nothing to do

    def do_POST(self) -> None:  # the name http.server calls
        try:
            size = int(self.headers.get("Content-Length") or 0)
            if not 0 < size <= 4096:
                self._send(400, "text/plain; charset=utf-8", b"a small JSON body is expected\n")
                return
            try:
                body = json.loads(self.rfile.read(size))
            except ValueError:
                body = None
            if not isinstance(body, dict):
                self._send(400, "text/plain; charset=utf-8", b"a JSON object is expected\n")
                return
            code, text = self.server.watch.offer(self.path.partition("?")[0], body)
            self._send(code, "text/plain; charset=utf-8", text.encode())
        except OSError:
            return

    def _send(self, code: int, kind: str, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _events(self, key: str) -> None:
        """The stream: every message for everyone, and those for ``key``; with a key, each frame as
        that key's seat may see it."""
        watch = self.server.watch
        last = self.headers.get("Last-Event-ID", "")
        nxt = int(last) + 1 if last.isdigit() else 0
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        watch.stream(key, True)
        broken = False
        try:
            self._stream(watch, key, nxt)
        except OSError:
            broken = True  # the browser went away
            raise
        finally:
            watch.stream(key, False, broken)

    def _stream(self, watch: Watch, key: str, nxt: int) -> None:
        while True:
            first, entries, closed = watch.since(nxt, 15.0)
            out = []
            for i, (msg, audience) in enumerate(entries):
                if audience and audience != key:
                    continue
                if key and msg.startswith('{"kind":"frame"'):
                    # Masked here, by the seat the key holds in that game as the referee seated it,
                    # whatever the stream saw before (a page that reconnects mid-game sees no setup).
                    msg = masked(msg, *watch.eyes(key, json.loads(msg)["game"]))
                out.append(f"id: {first + i}\ndata: {msg}\n\n")
            nxt = first + len(entries)
            if closed and not entries:
                out = ["event: bye\ndata: the referee has finished\n\n"]
            self.wfile.write(("".join(out) or ": still here\n\n").encode())
            self.wfile.flush()
            if closed and not entries:
                return


def start_watch(prog: str, address: tuple[str, int], needed: bool = False) -> Optional[Watch]:
    """The live view on ``address``, announced on stderr; if it cannot be served (a port in use), one
    line saying so, and the games are played without it (a :class:`UsageError` when a person plays:
    ``needed``)."""
    host, port = address
    try:
        watch = Watch(host, port)
    except OSError as exc:
        if needed:
            raise UsageError(f"cannot serve the live view on {host}:{port}: {exc.strerror or exc}; "
                             "a human seat is played there") from None
        sys.stderr.write(f"{prog}: cannot serve the live view on {host}:{port}: {exc.strerror or exc}; "
                         "the games are played and recorded without it\n")
        return None
    watch.prog = prog
    sys.stderr.write(f"{prog}: watch the games at {watch.url}\n")
    sys.stderr.flush()
    return watch
