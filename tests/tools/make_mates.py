"""Collect mate-in-1..3 positions for tests/data/xiangqi/mates.tsv, each confirmed by Fairy-Stockfish.

Fairy-Stockfish plays itself from randomised openings; a position it scores ``mate N`` (N ≤ 3, for
the side to move) at depth 14 is kept. Run: python3 tests/tools/make_mates.py > tests/data/xiangqi/mates.tsv
"""

import random
import subprocess
import sys

from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import move_name

FS = "/usr/games/fairy-stockfish"


def ask(proc: subprocess.Popen, fen: str, command: str) -> tuple[str, str]:
    proc.stdin.write(f"position fen {fen}\n{command}\n")
    proc.stdin.flush()
    score = ""
    while True:
        line = proc.stdout.readline().split()
        if "score" in line:
            i = line.index("score")
            score = " ".join(line[i + 1 : i + 3])
        if line[:1] == ["bestmove"]:
            return line[1], score


def main() -> None:
    proc = subprocess.Popen([FS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write("ucci\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "ucciok":
        pass
    rng = random.Random(7)
    found: dict[int, list[str]] = {1: [], 2: [], 3: []}
    print("# Mate-in-N positions, side to move mates; confirmed by Fairy-Stockfish (score mate N at depth 14).")
    print("# n\tfen")
    while min(len(v) for v in found.values()) < 5:
        pos = Position.from_fen(START_FEN)
        for ply in range(200):
            moves = pos.legal_moves()
            if not moves:
                break
            fen = pos.fen()
            if ply < 8:
                move = move_name(rng.choice(moves))
            else:
                move, score = ask(proc, fen, "go depth 7")
                if score.startswith("mate ") and 0 < int(score.split()[1]) <= 3:
                    _, score = ask(proc, fen, "go depth 14")
                    n = int(score.split()[1])
                    if len(found[n]) < 5:
                        found[n].append(fen)
                        print(f"{n}\t{fen}", flush=True)
                    break
            pos.push_name(move)
    proc.stdin.write("quit\n")
    proc.stdin.flush()


if __name__ == "__main__":
    sys.exit(main())
