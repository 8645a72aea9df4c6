"""How often the weighted worlds change the root move: a read-only study of match records.

For positions from records (``sanqi referee --record``) where a seat of the engine named by ``--us``
was to move, the ``search`` planner chooses a move three times from one set of sampled deployments,
to a fixed depth with no time limit (so every world finishes and the run is repeatable):

* ``plain``: the plain samples, as with the proposal off;
* ``control``: the same, with worlds 5 and 6 of the first pass swapped for two later plain samples
  (how often two other plain draws alone change the move: the noise of six worlds);
* ``weighted``: worlds 5 and 6 drawn given this move's dangers (``worlds.dangers``), all weighed.

    python tests/tools/junqi_weighted_moves.py [--us sanqi] [--every 8] [--depth 3] RECORD.jsonl [...]
"""

import argparse
import random
from typing import Any

from junqi_protocol.beliefs import Deployments
from junqi_protocol.board import Board
from junqi_protocol.lineups import habits
from junqi_protocol.record import read_games
from junqi_protocol.replays import follow
from junqi_protocol.worlds import PROPOSED, SAMPLES, WORLDS, Planner

UNBOUNDED_MS = 10 ** 9


def choose(player: Any, deployments: Deployments, proposed: int, control: bool, seed: int, depth: int) -> Any:
    planner = Planner()
    planner.max_depth = depth
    planner.proposed = proposed
    if control:
        plain = deployments.samples
        cut = WORLDS - PROPOSED
        deployments.samples = plain[:cut] + plain[WORLDS:WORLDS + PROPOSED] + plain[cut:WORLDS] + plain[WORLDS + PROPOSED:]
    move = planner.choose(player.pos, player.seat, player.alive, player.quiet, player.rules, deployments, UNBOUNDED_MS,
                          random.Random(seed))
    if control:
        deployments.samples = plain
    return move, planner.found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--us", default="sanqi")
    ap.add_argument("--every", type=int, default=8, help="one of every N of our moves")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="stop after this many positions (0: all)")
    ap.add_argument("records", nargs="+")
    opts = ap.parse_args()
    counts = {"positions": 0, "with dangers": 0, "control changed": 0, "weighted changed": 0,
              "control changed (with dangers)": 0}
    n = 0
    for path in opts.records:
        with open(path, encoding="utf-8") as fh:
            games = read_games(fh.readlines())
        for lines in games:
            head = lines[0]
            board = Board(head["variant"])
            players = head.get("players", {})
            steps = [obj for obj in lines if obj["type"] == "step"]
            for seat in range(board.seats):
                if opts.us not in players.get(board.letters[seat], ""):
                    continue
                walk = follow(lines, seat, samples=SAMPLES, seed=seat, prior=habits())
                for (player, deployments), step in zip(walk, steps):
                    if step["seat"] != board.letters[seat] or step.get("action") != "move":
                        continue
                    n += 1
                    if n % opts.every:
                        continue
                    player.seat = seat
                    if len(player.pos.moves(seat)) <= 1 or len(deployments.samples) < WORLDS + PROPOSED:
                        continue
                    plain, _ = choose(player, deployments, 0, False, n, opts.depth)
                    control, _ = choose(player, deployments, 0, True, n, opts.depth)
                    weighted, found = choose(player, deployments, PROPOSED, False, n, opts.depth)
                    counts["positions"] += 1
                    counts["control changed"] += control != plain
                    if found:
                        counts["with dangers"] += 1
                        counts["weighted changed"] += weighted != plain
                        counts["control changed (with dangers)"] += control != plain
                    if opts.limit and counts["positions"] >= opts.limit:
                        print(counts)
                        return
    print(counts)


if __name__ == "__main__":
    main()
