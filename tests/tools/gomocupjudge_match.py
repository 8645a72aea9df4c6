"""Games between two Gomocup brains refereed by GomocupJudge's own client code (a benchmark, not a test).

GomocupJudge (github.com/Gomocup/GomocupJudge, ``client/``) is the referee the Gomocup tournament
runs; its ``ai_match`` plays one game with the tournament's discipline: the idle brain suspended,
``timeout_turn`` and ``timeout_match`` with the 1 s tolerance, ``max_memory``, renju fouls.
``../shared/peers/setup.sh`` puts that client in ``~/.cache/sanqi-peers/judge`` with psutil in its
``venv``; this tool reads the openings with sanqi's own code, which needs ``librt`` there too
(``~/.cache/sanqi-peers/judge/venv/bin/pip install librt``). Run it with that python, from the
repository root::

    ~/.cache/sanqi-peers/judge/venv/bin/python tests/tools/gomocupjudge_match.py \\
        --judge ~/.cache/sanqi-peers/judge --games 40 --turn-ms 1000 --match-ms 30000 \\
        build/dist/pbrain-sanqi/pbrain-sanqi ~/.cache/sanqi-peers/bin/pbrain-pela

Each opening of ``gomoku_protocol/data/openings.txt`` (or ``--openings FILE``) that fits the board is
played twice, colours swapped, in order from the ``--first-opening``-th of those (1-based, counted
among the openings that fit; after the last it goes round to the first). Prints a line per game
(the opening's number counted the same way) and the first brain's score with every way a game ended.
The 20 tournament-style 20x20 openings (lines 44-63 of openings.txt, made by
``tests/tools/gomoku_openings20.py``) are the 42nd to 61st that fit 20x20::

    ~/.cache/sanqi-peers/judge/venv/bin/python tests/tools/gomocupjudge_match.py \\
        --judge ~/.cache/sanqi-peers/judge --size 20 --first-opening 42 --games 40 \\
        --turn-ms 1000 --match-ms 30000 "sanqi --protocol gomocup" ~/.cache/sanqi-peers/bin/pbrain-pela
"""

import argparse
import contextlib
import os
import shlex
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from engine_core.matchcli import read_book
from gomoku_protocol.arena import OPENINGS, opening_line

ENDINGS = ("five or full board", "foul", "timeout", "illegal move", "crash")  # GomocupJudge's endby codes


def folder_of(command: str) -> str:
    """The folder of a command's program: GomocupJudge starts a brain there."""
    return os.path.dirname(os.path.abspath(shlex.split(command)[0])) + "/"


def name(command: str) -> str:
    return os.path.basename(shlex.split(command)[0])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--judge", required=True, help="GomocupJudge's client folder (ai_match.py)")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--rule", type=int, default=0, help="Gomocup rule: 0 freestyle, 1 exact five, 4 renju")
    p.add_argument("--turn-ms", type=int, default=1000)
    p.add_argument("--match-ms", type=int, default=30000)
    p.add_argument("--memory", type=int, default=350 * 2**20)
    p.add_argument("--openings", default=str(OPENINGS), help="openings file, as sanqi match reads it (default: the shipped openings.txt)")
    p.add_argument("--first-opening", type=int, default=1,
                   help="start at this opening, 1-based among those that fit the board (default 1)")
    p.add_argument("first", help="the brain under test (its name starts with pbrain: the new protocol)")
    p.add_argument("second")
    args = p.parse_args()
    sys.path.insert(0, args.judge)
    from ai_match import ai_match  # GomocupJudge's referee, called as it is

    openings = read_book(args.openings, opening_line(args.size))  # as sanqi match reads them: those that fit the board
    if not 1 <= args.first_opening <= len(openings):
        p.error(f"--first-opening: {len(openings)} openings in {args.openings} fit a {args.size}x{args.size} board")
    points, endings = 0.0, {}
    for game in range(args.games):
        number = (args.first_opening - 1 + game // 2) % len(openings)
        opening = openings[number]
        brains = (args.first, args.second) if game % 2 == 0 else (args.second, args.first)
        with tempfile.TemporaryDirectory() as work, contextlib.redirect_stdout(sys.stderr):
            match = ai_match(board_size=args.size, opening=list(opening), cmd_1=brains[0], cmd_2=brains[1],
                             protocol_1="new", protocol_2="new", timeout_turn_1=args.turn_ms, timeout_turn_2=args.turn_ms,
                             timeout_match_1=args.match_ms, timeout_match_2=args.match_ms, max_memory_1=args.memory,
                             max_memory_2=args.memory, rule=args.rule, folder_1=work + "/", folder_2=work + "/",
                             working_dir_1=folder_of(brains[0]), working_dir_2=folder_of(brains[1]))
            _, psq, winner, endby = match.play()
        first_colour = 1 if len(opening) % 2 == 0 else 2  # the brain to move after the opening (cmd_1) is black if even
        ours = first_colour if game % 2 == 0 else 3 - first_colour
        score = 0.5 if winner == 0 else 1.0 if winner == ours else 0.0
        points += score
        loser = "" if winner == 0 else name(args.first if score == 0 else args.second)
        endings[(ENDINGS[endby], loser)] = endings.get((ENDINGS[endby], loser), 0) + 1
        print(f"game {game + 1}: opening {number + 1}, first brain {'black' if ours == 1 else 'white'}: "
              f"{score:g} ({ENDINGS[endby]}, {len(psq)} moves)", flush=True)
    print(f"{name(args.first)} vs {name(args.second)}: {points:g}/{args.games} "
          f"({100 * points / args.games:.1f} %), size {args.size}, rule {args.rule}, {args.turn_ms} ms/move, {args.match_ms} ms/game")
    print("endings (how, loser): " + "; ".join(f"{how} {who or '-'}: {n}" for (how, who), n in sorted(endings.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
