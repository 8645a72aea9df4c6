"""``sanqi play [junqi]``: a game against sanqi with a person at the board, in the browser.

A thin layer over ``sanqi referee``: it seats ``human`` at the person's seat and sanqi at the others,
gives the person a generous clock and caps the engines' think with their ``movetime`` option, picks a
free port on 127.0.0.1 for the live view, names a record file, and runs the referee with those
arguments; the referee prints the person's address (``?play=KEY``) on stderr and, unless
``--no-browser``, opens it. Every other ``sanqi referee`` option (``--games``, ``--seed``,
``--engine-log DIR``, ``--lineups FILE``, ``--engine-option``, ``--quiet``) is passed on as given.
"""

import argparse
import os
import sys
import time
from typing import Optional

from engine_core.args import ArgParser, UsageError, fail, guarded
from engine_core.matchcli import engine_command
from junqi_protocol.board import Board
from junqi_protocol.match import main as referee_main
from junqi_protocol.match import parser as referee_parser
from junqi_protocol.seating import split_spec

PROG = "sanqi play"
GAMES = ("junqi",)
DEFAULT = "junqi"  # the one game a person can play so far: ``sanqi play`` alone plays it


def non_negative_float(text: str) -> float:
    """An argparse type: a finite number of at least 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of at least 0")
    return value


def parser() -> ArgParser:
    p = ArgParser(prog=f"{PROG} junqi", description=__doc__, allow_abbrev=False)
    p.add_argument("--variant", choices=("4p", "2p"), default="4p", help="four players (the person's partner is sanqi) or two")
    p.add_argument("--seat", default="S", help="the person's seat in the first game: S, E, N or W (S or N with 2p); "
                   "with --games N the referee rotates the seats every game")
    p.add_argument("--rules", default="info=allies", metavar='"K=V ..."', help="the referee's rule options")
    p.add_argument("--time", default="3600", metavar="SEC", help="each player's clock per game (the person's lineup "
                   "too must come within it)")
    p.add_argument("--movetime", default="300", metavar="SEC", help="the most one move may take, the referee's limit")
    p.add_argument("--engine", default="sanqi", metavar="ENGINE",
                   help="who plays the other seats, as a sanqi referee ENGINE (sanqi, search, junqi:COMMAND, …)")
    p.add_argument("--engine-movetime", type=non_negative_float, default=1.0, metavar="SEC",
                   help="the engines' own cap on a move (their movetime option); 0: the referee's --movetime")
    p.add_argument("--record", metavar="FILE", help="append the game record to FILE "
                   "(default: junqi-YYYYMMDD-HHMMSS.jsonl in this folder)")
    p.add_argument("--watch", default="127.0.0.1:0", metavar="[HOST:]PORT", help="where the page is served (port 0: a free one)")
    p.add_argument("--no-browser", action="store_true", help="only print the page's address, do not open it")
    return p


def referee_args(opts: argparse.Namespace, engine: str, record: str, rest: list[str]) -> list[str]:
    """The ``sanqi referee`` command line for ``opts`` (``engine``: the other seats' ENGINE as the referee
    takes it), the record file, and the options to pass on.

    >>> opts = parser().parse_args(["--seat", "E"])
    >>> " ".join(referee_args(opts, "sanqi", "g.jsonl", ["--games", "2"]))
    '--variant 4p --rules info=allies --time 3600 --movetime 300 --watch 127.0.0.1:0 --record g.jsonl --open --engine-option 1:movetime=1000 --engine-option 3:movetime=1000 --engine-option 4:movetime=1000 --games 2 -- sanqi human sanqi sanqi'
    """
    board = Board(opts.variant)
    if opts.seat not in board.letters:
        raise UsageError(f"--seat {opts.seat!r}: the {opts.variant} seats are {' '.join(board.letters)}")
    person = board.letters.index(opts.seat)
    args = ["--variant", opts.variant, "--rules", opts.rules, "--time", opts.time, "--movetime", opts.movetime,
            "--watch", opts.watch, "--record", record]
    if not opts.no_browser:
        args.append("--open")
    cap = round(opts.engine_movetime * 1000)
    if cap > 0 and split_spec(engine)[0] != "ccgc":  # CCGC has no options
        args += [item for i in range(board.seats) if i != person for item in ("--engine-option", f"{i + 1}:movetime={cap}")]
    return args + rest + ["--"] + [("human" if i == person else engine) for i in range(board.seats)]


def startable(engine: str) -> str:
    """``engine`` as the referee takes it, a command starting with ``sanqi`` being this environment's sanqi
    (a virtual environment need not be on PATH)."""
    kind, command = split_spec(engine)
    if kind == "builtin":
        return engine
    if kind == "human":
        raise UsageError("--engine human: one person plays; the other seats are engines")
    return f"{kind}:{engine_command(command)}"


def main(argv: Optional[list[str]] = None) -> int:
    args = list(argv or [])
    game = args.pop(0) if args and not args[0].startswith("-") else DEFAULT
    if game not in GAMES:
        fail(PROG, f"unknown game {game!r}; choose from {', '.join(GAMES)}")
    p = parser()
    opts, rest = p.parse_known_args(args)
    return guarded(p.prog, lambda: run(p.prog, opts, rest))


def run(prog: str, opts: argparse.Namespace, rest: list[str]) -> int:
    record = opts.record or time.strftime("junqi-%Y%m%d-%H%M%S.jsonl")
    built = referee_args(opts, startable(opts.engine), record, rest)
    referee_parser().parse_args(built)  # the referee's own checks of its options, before saying where the record goes
    where = os.path.abspath(record)
    print(f"{prog}: the games are recorded in {where}", file=sys.stderr, flush=True)
    code = referee_main(built)
    print(f"{prog}: the record is {where}; a page that replays it: sanqi referee --print {where} --html OUT.html",
          file=sys.stderr, flush=True)
    return code
