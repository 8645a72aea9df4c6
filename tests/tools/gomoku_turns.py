"""Where each lost game turned, with Rapfi's eyes (an analysis tool, not a test).

Every position of the games one brain lost (an SGF file as ``sanqi match --records`` and
c-gomoku-cli write it) is scored by a stronger Gomocup brain with a depth limit (Rapfi's ``Eval``,
read as :mod:`gomoku_protocol.label` reads it). One line per position, then per game the moves
of the loser after which the score for it fell by ``--drop`` or more, or to a mate against it, up to
the first such mate: the candidates for the move where the game turned. Run from the repository root::

    python tests/tools/gomoku_turns.py --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi --name sanqi \\
        --size 20 games.sgf > turns.txt

Rapfi at a fixed depth sees a mate more readily for the side to move: a mate against us shown
right after our move, then a plain score at our next turn, means the win was there and the
opponent did not take it or Rapfi missed it from the defender's side. Read the lines around each
candidate before calling it the turning move.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from gomoku_protocol import label
from gomoku_protocol.fit import MATE, read_text
from gomoku_protocol.record import format_pos, read_sgf_games


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", help="SGF file with the games")
    p.add_argument("--brain", required=True, help="the scoring brain's command (pbrain-rapfi)")
    p.add_argument("--name", default="sanqi", help="the player whose lost games are looked at (its PB/PW name)")
    p.add_argument("--size", type=int, default=20)
    p.add_argument("--depth", type=int, default=12, help="the brain's INFO max_depth")
    p.add_argument("--drop", type=int, default=300, help="a fall of the score this large marks a candidate")
    args = p.parse_args()
    text = read_text(args.games)
    bodies = re.findall(r"\(;(.*?)\)", text, re.S)
    brain = label.Labeller(args.brain, args.depth, 1000)
    brain.setup[0] = f"START {args.size}"  # label.Labeller starts 15x15 boards
    brain._restart()
    for body, game in zip(bodies, read_sgf_games(text)):
        ours = 1 if f"PB[{args.name}]" in body else 2
        if game.winner != 3 - ours:
            continue
        number = re.search(r"GN\[(\d+)\]", body)
        print(f"game {number.group(1) if number else '?'}: {args.name} {'black' if ours == 1 else 'white'} lost in {len(game.moves)} moves")
        scores: dict[int, int] = {}
        for ply in range(game.opening, len(game.moves)):
            mover = 1 if ply % 2 == 0 else 2
            score, best = brain.score(format_pos(game.moves[:ply]))
            if score is None:
                continue
            scores[ply] = score if mover == ours else -score
            who = args.name if mover == ours else "opponent"
            print(f"  {ply + 1:3} {who:8} played {format_pos([game.moves[ply]]):4} scorer's move {best:4} score for {args.name} {scores[ply]}",
                  flush=True)
        turns = []
        for ply in sorted(scores):
            if (ply % 2 == 0) != (ours == 1) or ply + 1 not in scores or scores[ply] <= -MATE:
                continue
            after = scores[ply + 1]
            if after <= -MATE or scores[ply] - after >= args.drop:
                turns.append(f"{ply + 1}: {format_pos([game.moves[ply]])} {scores[ply]} -> {after}")
            if after <= -MATE:
                break
        print(f"  candidates: {'; '.join(turns) or 'none'}")
    brain.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
