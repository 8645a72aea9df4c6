"""``sanqi gomoku-match``: our brain against the one-ply pattern baseline over balanced openings.

Each opening is played twice, once with each side to us. Both players run in this process on one
board; the baseline picks the point with the best one-ply pattern score (attack plus weighted
defence, the seed's scorer) and nothing else.
"""

import argparse
import os
import pathlib
import time
from typing import Optional

from gomoku_protocol.brain import Brain, best_by_pattern
from gomoku_protocol.position import STYLES, Board
from gomoku_protocol.record import write_psq

FALLBACK_OPENINGS = [[(0, 0), (1, 0), (1, 3)], [(0, 0), (1, 1), (0, 3)], [(0, 0), (1, 0), (0, 3)], [(0, 0), (1, 1), (1, 3)]]
RENJU_MOVE_LIMIT = 200


def reference_openings() -> Optional[pathlib.Path]:
    """The reference's openings.txt next to the working tree, if there is one."""
    here = pathlib.Path(__file__).resolve().parent.parent
    roots = [os.environ.get("SANQI_REFERENCE", ""), str(here.parent / "shared" / "reference"), str(pathlib.Path.cwd().parent / "shared" / "reference")]
    for root in roots:
        if root:
            p = pathlib.Path(root) / "gomoku" / "openings.txt"
            if p.is_file():
                return p
    return None


def read_openings(text: str) -> list[list[tuple[int, int]]]:
    """One opening a line: ``dx,dy, dx,dy, …`` offsets from the centre; ``#`` starts a comment.

    >>> read_openings("# c\\n0,0, 1,0, 1,3\\n")
    [[(0, 0), (1, 0), (1, 3)]]
    """
    out: list[list[tuple[int, int]]] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        nums = [int(v) for v in line.replace(",", " ").split()]
        out.append([(nums[k], nums[k + 1]) for k in range(0, len(nums) - 1, 2)])
    return out


def baseline_move(board: Board) -> int:
    """The one-ply pattern pick over every point near the stones."""
    attack, defence = STYLES["balanced"]
    board.set_style(attack, defence)
    return best_by_pattern(board, sorted(board.cand))


class GameResult:
    def __init__(self, winner: int, moves: list[tuple[int, int]], times: list[int]) -> None:
        self.winner = winner  # 1 black, 2 white, 0 draw
        self.moves = moves
        self.times = times


def play_game(size: int, rule: int, opening: list[tuple[int, int]], ours: int, ms: int, brain: Brain) -> GameResult:
    """One game; ``ours`` is the colour our brain plays."""
    b = Board(size, size, rule)
    c = size // 2
    moves: list[tuple[int, int]] = []
    times: list[int] = []
    for dx, dy in opening:
        b.play(b.index(c + dx, c + dy), b.side)
        moves.append((c + dx, c + dy))
        times.append(0)
    brain.clear()
    while True:
        if b.full() or (b.renju and len(moves) >= RENJU_MOVE_LIMIT):
            return GameResult(0, moves, times)
        mover = b.side
        t = time.perf_counter()
        if mover == ours:
            m = brain.think(b, ms // 2, ms, _quiet).move
        else:
            m = baseline_move(b)
        times.append(int((time.perf_counter() - t) * 1000))
        if m < 0 or not b.legal(m, mover):
            return GameResult(3 - mover, moves, times)  # no legal move: the mover loses
        won = b.wins_at(m, mover)
        b.play(m, mover)
        moves.append(b.xy(m))
        if won:
            return GameResult(mover, moves, times)


def _quiet(text: str) -> None:
    return None


def main(args: list[str]) -> int:
    p = argparse.ArgumentParser(prog="sanqi gomoku-match", description=__doc__)
    p.add_argument("--games", type=int, default=40, help="games in all (each opening twice)")
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--rule", type=int, default=0, help="Gomocup rule bitmask: 0 freestyle, 1 exact five, 4 renju")
    p.add_argument("--ms", type=int, default=500, help="our time per move in milliseconds")
    p.add_argument("--style", choices=sorted(STYLES), default="balanced")
    p.add_argument("--openings", help="openings file (default: the reference's openings.txt)")
    p.add_argument("--psq", help="write each game as a .psq record into this folder")
    opts = p.parse_args(args)
    path = pathlib.Path(opts.openings) if opts.openings else reference_openings()
    openings = read_openings(path.read_text()) if path is not None else FALLBACK_OPENINGS
    brain = Brain()
    brain.style = opts.style
    score = 0.0
    played = 0
    wins = draws = losses = 0
    start = time.perf_counter()
    for g in range(opts.games):
        opening = openings[(g // 2) % len(openings)]
        to_move = 1 if len(opening) % 2 == 0 else 2
        ours = to_move if g % 2 == 0 else 3 - to_move
        r = play_game(opts.size, opts.rule, opening, ours, opts.ms, brain)
        played += 1
        if r.winner == ours:
            wins += 1
            score += 1
        elif r.winner == 0:
            draws += 1
            score += 0.5
        else:
            losses += 1
        colour = "black" if ours == 1 else "white"
        outcome = "win" if r.winner == ours else ("draw" if r.winner == 0 else "loss")
        print(f"game {g + 1}: opening {(g // 2) % len(openings) + 1}, sanqi {colour}, {outcome} in {len(r.moves)} moves", flush=True)
        if opts.psq:
            folder = pathlib.Path(opts.psq)
            folder.mkdir(parents=True, exist_ok=True)
            names = ("sanqi", "baseline") if ours == 1 else ("baseline", "sanqi")
            (folder / f"game{g + 1:03d}.psq").write_text(write_psq(opts.size, opts.size, r.moves, r.times, names))
    pct = 100.0 * score / max(1, played)
    print(f"sanqi vs one-ply baseline: +{wins} ={draws} -{losses}, score {score:g}/{played} ({pct:.1f}%), "
          f"size {opts.size}, rule {opts.rule}, {opts.ms} ms/move, {time.perf_counter() - start:.0f} s")
    return 0
