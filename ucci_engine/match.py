"""``sanqi xiangqi-match``: an alias of ``sanqi match --game xiangqi`` with sanqi against one UCCI peer.

The first wave's command line (``--peer``, ``--peer-option``, ``--engine``, ``--engine-option``)
is read here and handed to ``sanqi match``, which plays, scores and records the games. So

    sanqi xiangqi-match --games 4 --tc 3+0.1 --peer-option Skill_Level=0

runs ``sanqi match --game xiangqi --engine cmd=sanqi name=sanqi --engine cmd=/usr/games/fairy-stockfish
name=fairy-stockfish option.Skill_Level=0 --games 4 --tc 3+0.1 --max-plies 300 --concurrency 1``.
"""

import argparse
import os
import shlex
from typing import Optional

from engine_core import matchcli
from engine_core.args import ArgParser, int_between, positive_int, program, readable_file
from ucci_engine.referee import time_control

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


def engine_option(text: str) -> tuple[str, str]:
    """An argparse type: ``NAME=VALUE``, sent as ``setoption NAME VALUE``."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE (e.g. Skill_Level=0)")
    return name.strip(), value.strip()


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi xiangqi-match", description=__doc__)
    p.add_argument("--games", type=positive_int, default=20, help="games to play, colours alternating")
    p.add_argument("--tc", type=time_control, default="10+0.1", metavar="BASE+INC", help="time control: base seconds + increment seconds per move")
    p.add_argument("--peer", type=program, default=FAIRY_STOCKFISH, help="the opponent's command (a UCCI engine)")
    p.add_argument("--peer-option", type=engine_option, action="append", default=[], metavar="NAME=VALUE",
                   help="a UCCI option for the peer, e.g. Skill_Level=0; may be repeated (default: none)")
    p.add_argument("--engine-option", type=engine_option, action="append", default=[], metavar="NAME=VALUE",
                   help="a UCCI option for our engine, e.g. usebook=true; may be repeated (default: none)")
    p.add_argument("--engine", type=program, default=None, help="our engine's command (default: the sanqi beside this one)")
    p.add_argument("--concurrency", type=int_between(1, 64), default=1, help="games played at once")
    p.add_argument("--max-plies", type=positive_int, default=300, help="plies after which a game is adjudicated a draw")
    p.add_argument("--openings", type=readable_file, default=None, metavar="FILE",
                   help="FENs or EPD lines to start from ('#' comments); each played twice, colours swapped "
                        "(default: sanqi match's balanced openings)")
    return p


def match_argv(args: argparse.Namespace) -> list[str]:
    """The ``sanqi match`` command line that plays what ``args`` asks for.

    >>> match_argv(parser().parse_args(["--peer", "sh", "--peer-option", "Skill_Level=0", "--tc", "3"]))[5:13]
    ['--engine', 'cmd=sh', 'name=sh', 'option.Skill_Level=0', '--games', '20', '--tc', '3+0']
    """
    base_ms, inc_ms = args.tc
    peer_name = os.path.basename(shlex.split(args.peer)[0])
    argv = ["--game", "xiangqi",
            "--engine", f"cmd={args.engine or 'sanqi'}", "name=sanqi", *(f"option.{n}={v}" for n, v in args.engine_option),
            "--engine", f"cmd={args.peer}", f"name={peer_name}", *(f"option.{n}={v}" for n, v in args.peer_option),
            "--games", str(args.games), "--tc", f"{base_ms / 1000:g}+{inc_ms / 1000:g}", "--max-plies", str(args.max_plies),
            "--concurrency", str(args.concurrency)]
    return argv + (["--openings", args.openings] if args.openings else [])


def main(argv: Optional[list[str]] = None) -> int:
    return matchcli.main(match_argv(parser().parse_args(argv)), prog="sanqi xiangqi-match")
