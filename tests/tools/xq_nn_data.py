"""Training positions for the xiangqi network (docs/xiangqi.md, "Learned evaluation").

Fairy-Stockfish plays games against itself at a small fixed node count from our balanced openings
(ucci_engine/data/balanced.epd), with a random legal move now and then in the first plies so the data
holds lopsided positions too. Every position searched is written with the search's score (red's point
of view, Fairy-Stockfish's centipawns), whether the side to move is in check, whether the best move
captures, and at the end of the game its result for red (1, 0.5, 0). One JSON object a line:

    nice -n 19 python3 tests/tools/xq_nn_data.py --games 300 --nodes 3000 --out /tmp/xq-nn.jsonl

Needs only the standard library, librt and the engine (its Position decides legality and game ends).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from typing import IO, Optional

from ucci_engine.position import Position
from ucci_engine.tables import move_name, parse_move

MAX_PLIES = 240  # a game not over by then is adjudicated on the last score
DECIDED_CP = 1500  # this many centipawns for one side on four plies running ends the game


def from_fish(move: str) -> str:
    """Fairy-Stockfish numbers xiangqi ranks 1-10, UCCI (and we) 0-9: ``h3e3`` is our ``h2e2``."""
    m = re.fullmatch(r"([a-i])(10|[1-9])([a-i])(10|[1-9])", move)
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}" if m else ""


def to_fish(move: str) -> str:
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


class Fish:
    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.until("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish exited")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def search(self, fen: str, moves: list[str], nodes: int) -> tuple[str, Optional[int], Optional[int]]:
        """Best move, centipawns and mate distance for the side to move (one of the two is None)."""
        self.send(f"position fen {fen} moves {' '.join(to_fish(m) for m in moves)}" if moves else f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        cp: Optional[int] = None
        mate: Optional[int] = None
        best = ""
        for line in self.until("bestmove"):
            words = line.split()
            if words[0] == "info" and "score" in words:
                i = words.index("score")
                if words[i + 1] == "cp":
                    cp, mate = int(words[i + 2]), None
                elif words[i + 1] == "mate":
                    cp, mate = None, int(words[i + 2])
            elif words[0] == "bestmove":
                best = from_fish(words[1])
        return best, cp, mate

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def play(fish: Fish, fen: str, nodes: int, rng: random.Random, out: IO[str]) -> int:
    pos = Position.from_fen(fen)
    moves: list[str] = []
    records: list[dict[str, object]] = []
    result: Optional[float] = None
    decided = 0
    last_red_cp = 0
    while len(moves) < MAX_PLIES:
        legal = pos.legal_moves()
        if not legal:
            result = 0.0 if pos.side == 0 else 1.0  # no move loses, stalemate too
            break
        if pos.rule_score(0) == 0:
            result = 0.5
            break
        best, cp, mate = fish.search(fen, moves, nodes)
        sign = 1 if pos.side == 0 else -1
        if mate is not None:
            result = 1.0 if (mate > 0) == (sign > 0) else 0.0
            print(f"mate {mate} found after {len(moves)} plies", file=sys.stderr)
            break
        assert cp is not None
        red_cp = sign * cp
        last_red_cp = red_cp
        move = parse_move(best)
        records.append({
            "fen": pos.fen(), "cp": red_cp, "check": pos.in_check(),
            "capture": move >= 0 and pos.board[move & 127] != 0,
        })
        decided = decided + 1 if abs(red_cp) >= DECIDED_CP else 0
        if decided >= 4:
            result = 1.0 if red_cp > 0 else 0.0
            break
        if len(moves) < 16 and rng.random() < 0.06:
            move = rng.choice(legal)
        if move not in legal or not pos.make(move):
            print(f"fairy-stockfish's move {best} not legal here: {pos.fen()}", file=sys.stderr)
            break
        moves.append(move_name(move))
    if result is None:
        result = 0.5 if abs(last_red_cp) < 400 else (1.0 if last_red_cp > 0 else 0.0)
    for rec in records:
        rec["result"] = result
        out.write(json.dumps(rec) + "\n")
    out.flush()
    return len(records)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--nodes", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fish", default="/usr/games/fairy-stockfish")
    p.add_argument("--openings", default="ucci_engine/data/balanced.epd")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    with open(a.openings, encoding="utf-8") as f:
        fens = [" ".join(line.split()[:2]) + " - - 0 1" for line in f if line.strip() and not line.startswith("#")]
    rng = random.Random(a.seed)
    fish = Fish(a.fish)
    total = 0
    with open(a.out, "a", encoding="utf-8") as out:
        for g in range(a.games):
            total += play(fish, fens[g % len(fens)], a.nodes, rng, out)
            print(f"game {g + 1}/{a.games}: {total} positions", file=sys.stderr)
    fish.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
