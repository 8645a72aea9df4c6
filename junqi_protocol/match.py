"""sanqi referee: hosts two or four Junqi players, enforces the rules and clocks, records every game.

    sanqi referee [--variant 2p|4p] [--games N] [--record FILE] [--rules "k=v ..."] [--time SEC]
                  [--movetime SEC] [--seed N] [--engine-option [I:]NAME=VALUE] [--engine-log DIR]
                  [--watch [HOST:]PORT] ENGINE...
    sanqi referee --print FILE [--html OUT.html]

ENGINE is a built-in player (search, random, events: run in process), human (a person, in the
browser: needs --watch), out (a seat out from the start: no pieces, play skips it), junqi:COMMAND or just COMMAND (an engine speaking our line protocol), or
ccgc:COMMAND (a CCGC 1.0 engine, two players only). With n engines, game g gives seat s (S, E, N,
W order) to engine (s + g - 1) mod n, so two engines in a four-player game form the two teams and
swap sides every game. Every engine runs in its own process
group, killed at the end of its game; SIGINT or SIGTERM ends the game in progress with an 'aborted'
end line in the record, stops the engines and exits with 128 + the signal number.
"""

import argparse
import os
import secrets
import sys
import threading
import time
import webbrowser
from typing import Any, TextIO

from engine_core.args import (ArgParser, UsageError, guarded, natural_int, positive_float, positive_int, program,
                              readable_file, writable_file)
from junqi_protocol.board import Board
from junqi_protocol.game import team_name
from junqi_protocol.lineups import read_deals
from junqi_protocol.record import Recorder, describe, read_games, replay, short_handed
from junqi_protocol.runner import Aborted, Referee, abort_on_signals
from junqi_protocol.seating import make_seat, split_spec
from junqi_protocol.view import start_watch, watch_address, write_html


def engine_spec(text: str) -> str:
    """An argparse type: a built-in player, or a command whose program exists."""
    kind, command = split_spec(text)
    if kind not in ("builtin", "human", "out"):
        program(command)
    return text


def log_folder(text: str) -> str:
    """An argparse type: a folder that exists and can be written, or can be made."""
    folder = os.path.abspath(text)
    there = folder if os.path.isdir(folder) else os.path.dirname(folder)
    if not os.path.isdir(there) or not os.access(there, os.W_OK) or os.path.isfile(folder):
        raise argparse.ArgumentTypeError(f"cannot keep engine logs in {text!r} (no writable folder there)")
    return text


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
    tally: dict[str, dict[str, int]] = {}
    for lines in games:
        found = short_handed(lines)
        if found is not None:
            by = tally.setdefault(found[1], {})
            by[found[2]] = by.get(found[2], 0) + 1
    for names, fared in sorted(tally.items()):
        counts = ", ".join(f"{how} {n}" for how, n in sorted(fared.items()))
        out.write(f"a seat up (its enemy's partner out while it played on), {names}: {sum(fared.values())} games: {counts}\n")
    return 1 if bad else 0


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi referee", description=__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[2])
    p.add_argument("engines", nargs="*", type=engine_spec, metavar="ENGINE",
                   help="search, random, events, human (played in the browser; needs --watch), out (a seat out from "
                   "the start), junqi:COMMAND, COMMAND or ccgc:COMMAND; 1, 2 or one per seat")
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
    outs = [i for i, s in enumerate(opts.engines) if s == "out"]
    if outs and n != 4:
        p.error("out (a seat out from the start) needs the four-player game and one engine per seat (--variant 4p)")
    if any(i + 2 in outs for i in outs):
        p.error(f"engines {outs[0] + 1} and {outs[0] + 3} are partners in every game: a team cannot be out from the start")
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
            result, game = referee.play(number, players)
            for s, i in enumerate(who):
                col = 1 if result.winner < 0 else 0 if board.team(s) == result.winner else 2
                if s == who.index(i):  # count each engine once per game
                    score[i][col] += 1
            if not opts.quiet:
                line = " ".join(f"{board.letters[s]}={opts.engines[i]}" for s, i in enumerate(who))
                print(f"game {number}: {line}: {team_name(board, result.winner)} ({result.reason}, {game.ply} plies)", flush=True)
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
