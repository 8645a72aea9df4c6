"""``sanqi referee``: hosts two or four players, enforces the rules and clocks, records every game.

    sanqi referee [--variant 2p|4p] [--games N] [--record FILE] [--rules "k=v ..."]
                  [--time SEC] [--movetime SEC] [--seed N] [--engine-option [I:]NAME=VALUE] ENGINE...
    sanqi referee --print FILE

ENGINE is ``random`` or ``events`` (built-in players, run in process), ``junqi:COMMAND`` or just
``COMMAND`` (an engine speaking our line protocol), or ``ccgc:COMMAND`` (a CCGC 1.0 engine, two
players only). With n engines, game g gives seat s (S, E, N, W order) to engine (s + g - 1) mod n,
so two engines in a four-player game form the two teams and swap sides every game.
"""

import argparse
import json
import os
import sys
import time
import traceback
from typing import Any, Optional, TextIO

from junqi_protocol.board import Board
from junqi_protocol.game import Event, Game, IllegalMove, Rules, team_name
from junqi_protocol.hosts import Agent, AgentError, CcgcAgent, LineAgent, LocalAgent
from junqi_protocol.players import STYLES
from junqi_protocol.record import Recorder, describe, read_games, replay
from junqi_protocol.rules import check_lineup, parse_lineup


class Referee:
    """Runs games between agents; every record line is written the moment it happens."""

    def __init__(self, variant: str, rules_text: str, recorder: Recorder, time_ms: int = 600_000,
                 movetime_ms: int = 10_000, lineup_timeout: float = 10.0) -> None:
        self.variant = variant
        self.rules_text = rules_text
        Rules(variant, rules_text)  # reject bad options before any game starts
        self.recorder = recorder
        self.time_ms = time_ms
        self.movetime_ms = movetime_ms
        self.lineup_timeout = lineup_timeout
        self.number = 0

    def play(self, number: int, agents: list[Agent]) -> Game:
        """Play one game; the record ends with an ``end`` line whatever happens."""
        board = Board(self.variant)
        game = Game(board, Rules(self.variant, self.rules_text))
        rec = self.recorder
        self.number = number
        try:
            self._play(number, board, game, agents)
        except Exception:  # noqa: BLE001 - a referee bug must still leave a complete record
            sys.stderr.write(traceback.format_exc())
            if not game.over:
                game.over = True
                game.winner = -1
                game.reason = "referee-error"
                rec.write({"type": "end", "game": number, "result": "draw", "reason": "referee-error", "plies": game.ply})
        finally:
            for agent in agents:
                try:
                    agent.close()
                except Exception:  # noqa: BLE001 - closing one engine must not stop the others
                    sys.stderr.write(traceback.format_exc())
        return game

    def _play(self, number: int, board: Board, game: Game, agents: list[Agent]) -> None:
        rec = self.recorder
        seats = range(board.seats)
        lineups: dict[int, str] = {}
        rejected: dict[int, str] = {}
        for seat in seats:
            agent = agents[seat]
            try:
                agent.open(board, seat, game.rules, self.time_ms, self.movetime_ms)
                text = agent.lineup("", self.lineup_timeout)
                err = check_lineup(text)
                if err is not None:
                    agent.error(f"lineup rejected: {err}")
                    raise AgentError("protocol", f"lineup {text[:40]!r}: {err}")
                lineups[seat] = text if len(text) == 25 else text.replace(".", "")
            except AgentError as exc:
                rejected[seat] = str(exc)
                sys.stderr.write(f"referee: game {number} seat {board.letters[seat]} ({agent.name}): {exc}\n")
        rec.write({"type": "game", "game": number, "variant": board.variant, "rules": game.rules.text(),
                   "players": {board.letters[s]: agents[s].name for s in seats},
                   "time": self.time_ms, "movetime": self.movetime_ms})
        for seat, text in sorted(lineups.items()):
            game.place(seat, parse_lineup(text))
            rec.write({"type": "lineup", "game": number, "seat": board.letters[seat], "lineup": text})
        for seat, why in sorted(rejected.items()):
            rec.write({"type": "lineup", "game": number, "seat": board.letters[seat], "error": why})
        events: list[Event] = []
        for seat in sorted(rejected):
            events += game.eliminate(seat, "lineup")
        for seat in seats:
            if seat in lineups:
                agents[seat].begin(self._visible(board, game.rules, seat, lineups))
        events += game.start()
        rec.write({"type": "start", "game": number, "events": [e.text(board) for e in events]})
        self._broadcast(game, agents, events)
        clock = [self.time_ms] * board.seats
        while not game.over:
            seat = game.turn
            agent = agents[seat]
            step: dict[str, Any] = {"type": "step", "game": number, "ply": game.ply + 1, "seat": board.letters[seat]}
            t0 = time.monotonic()
            reply: Optional[str] = None
            failure: Optional[AgentError] = None
            try:
                reply = agent.ask(clock[seat], self.movetime_ms)
            except AgentError as exc:
                failure = exc
            ms = int((time.monotonic() - t0) * 1000)
            clock[seat] -= ms
            step["ms"] = ms
            if failure is None and ms > self.movetime_ms:
                failure = AgentError("timeout", f"replied after {ms} ms")
            if failure is not None and failure.reason == "timeout" and clock[seat] > 0:
                step["action"] = "timeout"
                got = game.pass_turn("timeout")
            elif failure is not None:
                step["action"] = "out"
                step["reason"] = "time" if failure.reason == "timeout" else failure.reason
                step["error"] = failure.detail
                got = game.eliminate(seat, step["reason"])
            elif reply == "pass":
                step["action"] = "pass"
                got = game.pass_turn("pass")
            else:
                assert reply is not None
                got, problem = self._move(game, reply)
                if problem is None:
                    step["action"] = "move"
                    step["move"] = reply
                else:
                    agent.error(problem)
                    step.update(action="out", reason="illegal", reply=reply[:200], error=problem)
                    got = game.eliminate(seat, "illegal")
            step["events"] = [e.text(board) for e in got]
            rec.write(step)
            self._broadcast(game, agents, got)
        rec.write({"type": "end", "game": number, "result": team_name(board, game.winner), "reason": game.reason,
                   "plies": game.ply})
        for agent in agents:
            agent.finish(game.winner)

    @staticmethod
    def _move(game: Game, reply: str) -> tuple[list[Event], Optional[str]]:
        board = game.board
        frm, dash, to = reply.partition("-")
        if not dash or " " in reply:
            return [], f"not a move or pass: {reply[:60]!r}"
        try:
            return game.move(board.point(frm), board.point(to)), None
        except (ValueError, IllegalMove) as exc:
            return [], f"illegal move {reply}: {exc}"

    @staticmethod
    def _visible(board: Board, rules: Rules, seat: int, lineups: dict[int, str]) -> dict[int, str]:
        if rules.info == "open":
            return {s: t for s, t in lineups.items() if s != seat}
        if rules.info == "allies":
            return {s: t for s, t in lineups.items() if s != seat and board.team(s) == board.team(seat)}
        return {}

    def _broadcast(self, game: Game, agents: list[Agent], events: list[Event]) -> None:
        """Tell everyone; an engine found dead meanwhile is put out, which is news for the rest."""
        while events:
            for agent in agents:
                try:
                    agent.tell(events)
                except AgentError:
                    pass
            events = []
            for seat, agent in enumerate(agents):
                if getattr(agent, "dead", False) and game.alive[seat] and not game.over:
                    got = game.eliminate(seat, "crash")
                    self.recorder.write({"type": "step", "game": self.number, "ply": game.ply, "seat": game.board.letters[seat],
                                         "action": "out", "reason": "crash", "ms": 0,
                                         "events": [e.text(game.board) for e in got]})
                    events += got


def make_agent(spec: str, options: list[tuple[str, str]], seed: Optional[int]) -> Agent:
    if spec in STYLES:
        return LocalAgent(spec, seed, options)
    if spec.startswith("ccgc:"):
        return CcgcAgent(spec[5:])
    return LineAgent(spec[6:] if spec.startswith("junqi:") else spec, options)


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
            raise ValueError(f"--engine-option {item!r} is not NAME=VALUE")
        for i in targets:
            if not 0 <= i < engines:
                raise ValueError(f"--engine-option {item!r}: there is no engine {i + 1}")
            per[i].append((name, value))
    return per


def print_records(path: str, out: TextIO) -> int:
    with open(path, encoding="utf-8") as fh:
        games = read_games(fh.readlines())
    bad = 0
    for lines in games:
        out.write(describe(lines) + "\n\n")
        bad += bool(replay(lines)[1])
    out.write(f"{len(games)} games, {bad} with replay problems\n")
    return 1 if bad else 0


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sanqi referee", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engines", nargs="*", help="random, events, junqi:COMMAND, COMMAND or ccgc:COMMAND")
    parser.add_argument("--variant", choices=("2p", "4p"), default="2p")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--record", help="append JSON-lines records here")
    parser.add_argument("--rules", default="", help="nocapture=N nocapture_loses=0|1 passes=N info=dark|allies|open")
    parser.add_argument("--time", type=float, default=600.0, help="seconds per player per game")
    parser.add_argument("--movetime", type=float, default=10.0, help="seconds per move at most")
    parser.add_argument("--seed", type=int, help="seed for built-in players")
    parser.add_argument("--engine-option", action="append", default=[], metavar="[I:]NAME=VALUE",
                        help="setoption for every engine, or for engine I (1-based) only")
    parser.add_argument("--print", dest="print_file", metavar="FILE", help="replay and print a record, then exit")
    parser.add_argument("--quiet", action="store_true", help="print only the score table")
    opts = parser.parse_args(args)
    if opts.print_file:
        return print_records(opts.print_file, sys.stdout)
    if not opts.engines:
        parser.error("name at least one engine")
    try:
        per = _parse_options(opts.engine_option, len(opts.engines))
        referee = Referee(opts.variant, opts.rules, Recorder(None), int(opts.time * 1000), int(opts.movetime * 1000))
    except ValueError as exc:
        parser.error(str(exc))
    seats = 4 if opts.variant == "4p" else 2
    if seats % len(opts.engines):
        parser.error(f"{len(opts.engines)} engines cannot share {seats} seats evenly; name 1, 2 or {seats}")
    first = 1
    if opts.record and os.path.exists(opts.record):
        # Appending to an earlier run: keep game numbers unique so the file still reads game by game.
        with open(opts.record, encoding="utf-8") as old:
            first += max((int(json.loads(line)["game"]) for line in old if line.strip()), default=0)
    fh = open(opts.record, "a", encoding="utf-8") if opts.record else None
    referee.recorder = Recorder(fh)
    board = Board(opts.variant)
    n = len(opts.engines)
    score = [[0, 0, 0] for _ in range(n)]
    t0 = time.monotonic()
    try:
        for g in range(1, opts.games + 1):
            who = [(s + g - 1) % n for s in range(seats)]
            seed = None if opts.seed is None else opts.seed * 1000 + g
            agents = [make_agent(opts.engines[i], per[i], None if seed is None else seed + s) for s, i in enumerate(who)]
            game = referee.play(first + g - 1, agents)
            for s, i in enumerate(who):
                col = 1 if game.winner < 0 else 0 if board.team(s) == game.winner else 2
                if s == next(x for x, j in enumerate(who) if j == i):  # count each engine once per game
                    score[i][col] += 1
            if not opts.quiet:
                line = " ".join(f"{board.letters[s]}={opts.engines[i]}" for s, i in enumerate(who))
                print(f"game {first + g - 1}: {line}: {team_name(board, game.winner)} ({game.reason}, {game.ply} plies)", flush=True)
    finally:
        if fh is not None:
            fh.close()
    minutes = (time.monotonic() - t0) / 60
    print(f"{'engine':30} {'games':>5} {'won':>5} {'drawn':>5} {'lost':>5} {'points':>7}")
    for i, spec in enumerate(opts.engines):
        w, d, l = score[i]
        print(f"{spec[:30]:30} {w + d + l:5} {w:5} {d:5} {l:5} {w + d / 2:7.1f}")
    print(f"{opts.games} games in {minutes * 60:.1f}s: {opts.games / max(minutes, 1e-9):.1f} games per minute")
    return 0
