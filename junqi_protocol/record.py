"""Game records as JSON lines: written as the game happens, read back, replayed and printed.

One object per line, each with ``type`` and ``game`` (the game's number in the run):

* ``game``: ``variant``, ``rules``, ``players`` (seat letter → engine name), ``time``/``movetime`` (ms);
* ``lineup``: ``seat`` and its 25 letters, or ``error`` when the engine gave none that is legal;
* ``start``: ``events`` broadcast before the first move (players out for want of a lineup or a move);
* ``step``: one turn or referee action: ``seat``, ``action`` (``move``, ``pass``, ``timeout`` or ``out``),
  ``move`` (FROM-TO), ``reply`` and ``error`` for a rejected line, ``ms`` spent, ``dropped`` (lines the
  engine sent that answered no current request, such as a move that came after its time), and
  ``events``: the broadcast lines of our protocol it caused;
* ``end``: ``result`` (winning team, ``draw``, or ``none`` when the game was not finished), ``reason``
  (``aborted by SIGINT``/``aborted by SIGTERM`` when the referee was stopped), ``plies``.
"""

import json
from typing import Any, Optional, TextIO

from junqi_protocol.board import Board
from junqi_protocol.game import Game, IllegalMove, Rules
from junqi_protocol.rules import LETTERS, parse_lineup


class Recorder:
    """Appends record lines to a file, flushing each so a crash never loses what happened."""

    def __init__(self, out: Optional[TextIO]) -> None:
        self.out: Optional[TextIO] = out

    def write(self, obj: dict[str, Any]) -> None:
        if self.out is None:
            return
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()


def read_games(lines: list[str]) -> list[list[dict[str, Any]]]:
    """Record lines grouped per game, in order."""
    games: dict[int, list[dict[str, Any]]] = {}
    for line in lines:
        if line.strip():
            obj = json.loads(line)
            games.setdefault(int(obj["game"]), []).append(obj)
    return [games[k] for k in sorted(games)]


def replay(lines: list[dict[str, Any]]) -> tuple[Game, list[str]]:
    """Re-play one game's record under the rules; returns the final game and every disagreement."""
    head = lines[0]
    if head.get("type") != "game":
        raise ValueError("a game record starts with its 'game' line")
    board = Board(head["variant"])
    game = Game(board, Rules(head["variant"], head["rules"]))
    problems: list[str] = []
    steps = [obj for obj in lines if obj["type"] == "step"]
    ends = [obj for obj in lines if obj["type"] == "end"]
    starts = [obj for obj in lines if obj["type"] == "start"]
    lineups = {obj["seat"]: obj for obj in lines if obj["type"] == "lineup"}
    unfinished = bool(ends) and (ends[-1]["reason"].startswith("aborted") or ends[-1]["reason"] == "referee-error")
    rejected: list[int] = []
    for seat in range(board.seats):
        entry = lineups.get(board.letters[seat])
        if entry is None or "lineup" not in entry:
            rejected.append(seat)
        else:
            game.place(seat, parse_lineup(entry["lineup"]))
    if unfinished and not starts:
        return game, problems  # stopped before play began
    events = []
    for seat in rejected:
        events += [e.text(board) for e in game.eliminate(seat, "lineup")]
    events += [e.text(board) for e in game.start()]
    if not starts or starts[0]["events"] != events:
        problems.append(f"start events: record says {starts[0]['events'] if starts else None}, the rules say {events}")
    for n, step in enumerate(steps):
        if game.over:
            problems.append(f"step {n + 1} after the end of the game")
            break
        seat = board.letters.index(step["seat"])
        action = step["action"]
        try:
            if action == "move":
                frm, _, to = step["move"].partition("-")
                if seat != game.turn:
                    problems.append(f"step {n + 1}: {step['seat']} moved out of turn")
                got = game.move(board.point(frm), board.point(to))
            elif action in ("pass", "timeout"):
                got = game.pass_turn(action)
            else:
                got = game.eliminate(seat, step.get("reason", "out"))
        except (IllegalMove, ValueError) as exc:
            problems.append(f"step {n + 1}: {exc}")
            break
        texts = [e.text(board) for e in got]
        if texts != step["events"]:
            problems.append(f"step {n + 1}: record says {step['events']}, the rules say {texts}")
    if not ends:
        problems.append("no end line")
    elif game.over:
        end = ends[-1]
        result = "draw" if game.winner < 0 else "".join(board.letters[s] for s in range(board.seats) if board.team(s) == game.winner)
        if end["result"] != result or end["reason"] != game.reason:
            problems.append(f"record ends {end['result']} {end['reason']}, the rules end {result} {game.reason}")
    elif not unfinished:
        problems.append(f"record ends {ends[-1]['result']} but the replayed game is not over")
    return game, problems


def describe(lines: list[dict[str, Any]]) -> str:
    """A printable account of one game: players, moves with results, the end and the final board."""
    head = lines[0]
    board = Board(head["variant"])
    out = [f"game {head['game']}: {head['variant']}  {head['rules']}"]
    out += [f"  {seat}: {name}" for seat, name in head["players"].items()]
    for obj in lines[1:]:
        if obj["type"] == "lineup":
            out.append(f"lineup {obj['seat']} {obj.get('lineup') or 'rejected: ' + obj.get('error', '')}")
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
