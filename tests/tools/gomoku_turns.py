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

``--after`` looks from the opponent's side only, where the mates are seen: at each move of the
loser the scorer gives its own move there, then scores the position after the move played and
after its own move, both with the opponent to move (score for the loser). The turning move is
the first of the loser's moves after which the opponent had a mate (or the score fell by
``--drop``) and kept one to the end, while after the scorer's move it did not::

    python tests/tools/gomoku_turns.py --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi --size 20 \
        --after --depth 18 games.sgf > after.txt
"""

import argparse
import os
import re
import sys
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from gomoku_protocol import label
from gomoku_protocol.fit import MATE, read_text
from gomoku_protocol.record import SgfGame, format_pos, read_sgf_games


def after_moves(brain: label.Labeller, game: SgfGame, ours: int, name: str, drop: int) -> None:
    """Per move of the loser: the scorer's move, and the scores (for the loser, the opponent to move)
    after the move played and after the scorer's; then the turning move as the module doc says."""
    rows: list[tuple[int, str, Optional[int], Optional[int]]] = []
    for ply in range(game.opening, len(game.moves)):
        if (ply % 2 == 0) != (ours == 1):
            continue
        before = game.moves[:ply]
        _, best = brain.score(format_pos(before))
        played = format_pos([game.moves[ply]])
        score, _ = brain.score(format_pos(before + [game.moves[ply]]))
        mine = None if score is None else -score
        theirs = mine
        if best and best != played:
            other, _ = brain.score(format_pos(before) + best)
            theirs = None if other is None else -other
        rows.append((ply, best, mine, theirs))
        print(f"  {ply + 1:3} {name} played {played:4} scorer's {best:4} after ours {mine} after the scorer's {theirs}", flush=True)
    turn = ""
    for ply, best, mine, theirs in reversed(rows):
        if mine is None or theirs is None:
            continue
        if mine > -MATE and theirs - mine < drop:
            break  # not lost after this move: the turn came later
        if theirs > -MATE and (mine <= -MATE or theirs - mine >= drop):
            turn = f"{ply + 1}: {format_pos([game.moves[ply]])} (scorer's {best}) {theirs} -> {mine}"
    print(f"  turning move: {turn or 'none found'}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", help="SGF file with the games")
    p.add_argument("--brain", required=True, help="the scoring brain's command (pbrain-rapfi)")
    p.add_argument("--name", default="sanqi", help="the player whose lost games are looked at (its PB/PW name)")
    p.add_argument("--size", type=int, default=20)
    p.add_argument("--depth", type=int, default=12, help="the brain's INFO max_depth")
    p.add_argument("--drop", type=int, default=300, help="a fall of the score this large marks a candidate")
    p.add_argument("--after", action="store_true", help="score after the loser's move and after the scorer's, opponent to move")
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
        if args.after:
            after_moves(brain, game, ours, args.name, args.drop)
            continue
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
