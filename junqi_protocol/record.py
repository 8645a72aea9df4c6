"""Game records as JSON lines: written as the game happens, read back, replayed and printed.

One object per line, each with ``type`` and ``game`` (the game's number in the run):

* ``game``: ``variant``, ``rules``, ``players`` (seat letter → engine name), ``time``/``movetime`` (ms);
* ``lineup``: ``seat`` and its 25 letters, or ``error`` when the engine gave none that is legal, or
  ``absent`` (true) for a seat out from the start (the engine word ``out``);
* ``start``: ``events`` broadcast before the first move (players out from the start, for want of a
  lineup or of a move);
* ``step``: one turn or referee action: ``seat``, ``action`` (``move``, ``pass``, ``timeout`` or ``out``),
  ``move`` (FROM-TO), ``reply`` and ``error`` for a rejected line, ``ms`` spent, ``dropped`` (lines the
  engine sent that answered no current request, such as a move that came after its time), and
  ``events``: the broadcast lines of our protocol it caused;
* ``end``: ``result`` (winning team, ``draw``, or ``none`` when the game was not finished), ``reason``
  (``aborted by SIGINT``/``aborted by SIGTERM`` when the referee was stopped), ``plies``.
"""

import json
from typing import Any, Callable, Optional, TextIO

from junqi_protocol.board import Board
from junqi_protocol.game import Game, IllegalMove, Rules
from junqi_protocol.rules import LETTERS, parse_lineup


class Recorder:
    """Appends record lines to a file, flushing each so a crash never loses what happened, and hands
    each line to the watchers (the live view) once it is written."""

    def __init__(self, out: Optional[TextIO], watchers: Optional[list[Callable[[dict[str, Any]], None]]] = None) -> None:
        self.out: Optional[TextIO] = out
        self.watchers: list[Callable[[dict[str, Any]], None]] = list(watchers or [])

    def write(self, obj: dict[str, Any]) -> None:
        if self.out is not None:
            self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
            self.out.flush()
        for watch in self.watchers:
            watch(obj)  # a watcher never raises: the game must not depend on who looks at it


def read_games(lines: list[str]) -> list[list[dict[str, Any]]]:
    """Record lines grouped per game, in order."""
    games: dict[int, list[dict[str, Any]]] = {}
    for line in lines:
        if line.strip():
            obj = json.loads(line)
            games.setdefault(int(obj["game"]), []).append(obj)
    return [games[k] for k in sorted(games)]


class Replayer:
    """One game's record re-played under the rules line by line, as it is written or read back.

    :meth:`feed` takes the record's lines in order and returns, for a ``start`` or ``step`` line, the
    events the rules give for it (the live view follows a game this way); :meth:`finish` checks the
    end. Every disagreement with the record goes into ``problems``.
    """

    def __init__(self, head: dict[str, Any]) -> None:
        if head.get("type") != "game":
            raise ValueError("a game record starts with its 'game' line")
        self.head = head
        self.board = Board(head["variant"])
        self.game = Game(self.board, Rules(head["variant"], head["rules"]))
        self.problems: list[str] = []
        self.lineups: dict[str, dict[str, Any]] = {}
        self.started = False
        self.stopped = False  # a step did not replay: the rest cannot be followed
        self.steps = 0
        self.end: Optional[dict[str, Any]] = None

    def feed(self, obj: dict[str, Any]) -> list[str]:
        kind = obj["type"]
        if kind == "lineup":
            self.lineups[obj["seat"]] = obj
            if "lineup" in obj:
                self.game.place(self.board.letters.index(obj["seat"]), parse_lineup(obj["lineup"]))
        elif kind == "start":
            if not self.started:
                return self._start(obj)
        elif kind == "step":
            if not self.started:
                self._start(None)
            return self._step(obj)
        elif kind == "end":
            self.end = obj
        return []

    def _start(self, start: Optional[dict[str, Any]]) -> list[str]:
        board, game = self.board, self.game
        self.started = True
        events = []
        for seat in range(board.seats):
            entry = self.lineups.get(board.letters[seat])
            if entry is None or "lineup" not in entry:
                why = "absent" if entry is not None and entry.get("absent") else "lineup"
                events += [e.text(board) for e in game.eliminate(seat, why)]
        events += [e.text(board) for e in game.start()]
        if start is None or start["events"] != events:
            self.problems.append(f"start events: record says {start['events'] if start else None}, the rules say {events}")
        return events

    def _step(self, step: dict[str, Any]) -> list[str]:
        board, game = self.board, self.game
        if self.stopped:
            return []
        self.steps += 1
        n = self.steps
        if game.over:
            self.problems.append(f"step {n} after the end of the game")
            self.stopped = True
            return []
        seat = board.letters.index(step["seat"])
        action = step["action"]
        try:
            if action == "move":
                frm, _, to = step["move"].partition("-")
                if seat != game.turn:
                    self.problems.append(f"step {n}: {step['seat']} moved out of turn")
                got = game.move(board.point(frm), board.point(to))
            elif action in ("pass", "timeout"):
                got = game.pass_turn(action)
            else:
                got = game.eliminate(seat, step.get("reason", "out"))
        except (IllegalMove, ValueError) as exc:
            self.problems.append(f"step {n}: {exc}")
            self.stopped = True
            return []
        texts = [e.text(board) for e in got]
        if texts != step["events"]:
            self.problems.append(f"step {n}: record says {step['events']}, the rules say {texts}")
        return texts

    @property
    def unfinished(self) -> bool:
        """The record ends without a result: the referee was stopped, or failed."""
        return self.end is not None and (self.end["reason"].startswith("aborted") or self.end["reason"] == "referee-error")

    def finish(self) -> tuple[Game, list[str]]:
        """The final game and every disagreement, the end line's included."""
        board, game = self.board, self.game
        if not self.started:
            if self.unfinished:
                return game, self.problems  # stopped before play began
            self._start(None)
        if self.end is None:
            self.problems.append("no end line")
        elif game.over:
            end = self.end
            result = "draw" if game.winner < 0 else "".join(board.letters[s] for s in range(board.seats) if board.team(s) == game.winner)
            if end["result"] != result or end["reason"] != game.reason:
                self.problems.append(f"record ends {end['result']} {end['reason']}, the rules end {result} {game.reason}")
        elif not self.unfinished:
            self.problems.append(f"record ends {self.end['result']} but the replayed game is not over")
        return game, self.problems


def replay(lines: list[dict[str, Any]]) -> tuple[Game, list[str]]:
    """Re-play one game's record under the rules; returns the final game and every disagreement."""
    r = Replayer(lines[0])
    for obj in lines[1:]:
        r.feed(obj)
    return r.finish()


def first_out(lines: list[dict[str, Any]]) -> Optional[tuple[int, str, str]]:
    """The first seat put out in a four-player game's record: the ply (0 before the first move), its
    letter and the reason its ``out`` event gives (``flag``, ``nomoves``, ``absent``, ``time``, ``illegal``,
    a failure's word). None when no seat went out or the game is not a four-player one.

    >>> first_out([{"type": "game", "variant": "4p"}, {"type": "step", "ply": 9, "events": ["out E flag"]}])
    (9, 'E', 'flag')
    """
    if lines[0].get("variant") != "4p":
        return None
    for obj in lines:
        for event in obj.get("events", []) if obj["type"] in ("start", "step") else []:
            words = event.split()
            if words[0] == "out":
                return obj.get("ply", 0), words[1], words[2] if len(words) > 2 else ""
    return None


def short_handed(lines: list[dict[str, Any]]) -> Optional[tuple[str, str, str]]:
    """For a four-player game in which a seat went out while its partner played on (two against
    one from then on, or from the start with an ``out`` seat): the seat that went out first, the
    players of the team left a seat up (their names joined by ``+``) and how that team fared:
    ``won``, ``drawn <reason>`` or ``lost``. None for other games and unfinished ones.

    >>> head = {"type": "game", "game": 1, "variant": "4p", "players": {"S": "a", "E": "b", "N": "a", "W": "out"}}
    >>> short_handed([head, {"type": "start", "events": ["out W absent"]},
    ...               {"type": "end", "result": "draw", "reason": "nocapture"}])
    ('W', 'a+a', 'drawn nocapture')
    """
    head, end = lines[0], lines[-1]
    out = first_out(lines)
    if out is None or end.get("type") != "end" or end["result"] == "none":
        return None
    board = Board("4p")
    up = 1 - board.team(board.letters.index(out[1]))
    letters = "".join(board.letters[s] for s in range(board.seats) if board.team(s) == up)
    names = "+".join(head["players"][letter] for letter in letters)
    fared = ("drawn " + end["reason"] if end["result"] == "draw"
             else "won" if set(end["result"]) == set(letters) else "lost")
    return out[1], names, fared


def describe(lines: list[dict[str, Any]]) -> str:
    """A printable account of one game: players, moves with results, the end and the final board."""
    head = lines[0]
    board = Board(head["variant"])
    out = [f"game {head['game']}: {head['variant']}  {head['rules']}"]
    out += [f"  {seat}: {name}" for seat, name in head["players"].items()]
    for obj in lines[1:]:
        if obj["type"] == "lineup":
            given = obj.get("lineup") or ("out from the start" if obj.get("absent") else "rejected: " + obj.get("error", ""))
            out.append(f"lineup {obj['seat']} {given}")
        elif obj["type"] == "step":
            what = obj.get("move") or obj.get("reason") or obj["action"]
            note = f"  ({obj['error']})" if obj.get("error") else ""
            out.append(f"{obj['ply']:4} {obj['seat']} {obj['action']:7} {what:9} {obj['ms']:6}ms  {'; '.join(obj['events'])}{note}")
        elif obj["type"] == "end":
            out.append(f"result {obj['result']} ({obj['reason']}) after {obj['plies']} plies")
    game, problems = replay(lines)
    cells = [f"{board.letters[game.pos.owner[p]].lower()}{LETTERS[game.pos.kind[p]]}" if game.pos.owner[p] >= 0 else "." for p in range(board.size)]
    out.append(board.diagram(cells))
    out += [f"replay problem: {p}" for p in problems]
    return "\n".join(out)
