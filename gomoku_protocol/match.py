"""``sanqi gomoku-match``: an alias of ``sanqi match --game gomoku``, our brain against the one-ply baseline.

The first wave's command line is read here and handed to ``sanqi match``, which runs our brain as a
Gomocup process under the referee's discipline against the in-process one-ply pattern baseline
(``proto=builtin cmd=baseline``), each opening twice with the colours swapped. So

    sanqi gomoku-match --games 4 --ms 300 --style aggressive --psq games

runs ``sanqi match --game gomoku --engine "cmd=sanqi --protocol gomocup" name=sanqi option.style=aggressive
--engine cmd=baseline proto=builtin name=baseline --games 4 --size 15 --rule 0 --turn-ms 300 --match-ms 0
--openings …/openings.txt --records games``.
"""

import argparse
from typing import Optional

from engine_core import matchcli
from engine_core.args import ArgParser, int_between, positive_int, readable_file
from gomoku_protocol.arena import OPENINGS
from gomoku_protocol.position import MAX_SIZE, MIN_SIZE, STYLES


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi gomoku-match", description=__doc__)
    p.add_argument("--games", type=positive_int, default=40, help="games in all (each opening twice)")
    p.add_argument("--size", type=int_between(MIN_SIZE, MAX_SIZE), default=15, help="board width and height")
    p.add_argument("--rule", type=int_between(0, 15), default=0, help="Gomocup rule bitmask: 0 freestyle, 1 exact five, 4 renju (default: %(default)s)")
    p.add_argument("--ms", type=positive_int, default=500, help="our time per move in milliseconds")
    p.add_argument("--style", choices=sorted(STYLES), default="balanced", help="our brain's style (default: %(default)s)")
    p.add_argument("--openings", type=readable_file, default=str(OPENINGS),
                   help="openings file, one a line: dx,dy offsets from the centre, or c-gomoku-cli's h8i9")
    p.add_argument("--psq", help="write each game as a .psq record (and all in games.sgf) into this folder (default: none)")
    return p


def match_argv(args: argparse.Namespace) -> list[str]:
    """The ``sanqi match`` command line that plays what ``args`` asks for.

    >>> match_argv(parser().parse_args(["--ms", "300"]))[:5]
    ['--game', 'gomoku', '--engine', 'cmd=sanqi --protocol gomocup', 'name=sanqi']
    """
    argv = ["--game", "gomoku",
            "--engine", "cmd=sanqi --protocol gomocup", "name=sanqi", f"option.style={args.style}",
            "--engine", "cmd=baseline", "proto=builtin", "name=baseline",
            "--games", str(args.games), "--size", str(args.size), "--rule", str(args.rule),
            "--turn-ms", str(args.ms), "--match-ms", "0", "--openings", args.openings]
    return argv + (["--records", args.psq] if args.psq else [])


def main(argv: Optional[list[str]] = None) -> int:
    return matchcli.main(match_argv(parser().parse_args(argv)), prog="sanqi gomoku-match")
