"""Remake ucci_engine/data/balanced.epd: two-ply xiangqi openings that sanqi scores as level.

Every pair of a common red first move and a common black reply is searched by ``sanqi`` (UCCI,
``go depth DEPTH``) from red's side; positions scored within ±LEVEL centipawns are kept, in the
order listed. Run: ``python tests/tools/make_balanced_openings.py > ucci_engine/data/balanced.epd``.
"""

import shlex
import subprocess
import sys

from engine_core.matchcli import engine_command
from ucci_engine.position import START_FEN, Position

RED = ["h2e2", "b2e2", "c3c4", "g3g4", "b0c2", "h0g2", "c0e2", "g0e2", "h2g2", "b2c2", "h2i2", "b2a2"]
BLACK = ["h7e7", "b7e7", "h9g7", "b9c7", "c6c5", "g6g5", "c9e7", "g9e7", "h7g7", "b7c7", "h7i7", "b7a7"]
DEPTH = 5
LEVEL = 25


def score(engine: subprocess.Popen, fen: str) -> int:
    assert engine.stdin is not None and engine.stdout is not None
    engine.stdin.write(f"position fen {fen}\ngo depth {DEPTH}\n")
    engine.stdin.flush()
    last = 0
    for line in engine.stdout:
        words = line.split()
        if "score" in words:
            last = int(words[words.index("score") + 1])
        if words[:1] == ["bestmove"] or words[:1] == ["nobestmove"]:
            return last
    raise RuntimeError("the engine stopped")


def main() -> int:
    engine = subprocess.Popen(shlex.split(engine_command("sanqi")), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert engine.stdin is not None
    engine.stdin.write("ucci\n")
    print(f"# Two-ply openings sanqi scores within ±{LEVEL} at depth {DEPTH} (tests/tools/make_balanced_openings.py).")
    for red in RED:
        for black in BLACK:
            pos = Position.from_fen(START_FEN)
            if not (pos.push_name(red) and pos.push_name(black)):
                continue
            fen = pos.fen()
            value = score(engine, fen)
            if abs(value) <= LEVEL:
                print(f'{" ".join(fen.split()[:4])} id "{red} {black}"; c0 "sanqi depth {DEPTH}: {value:+d}";', flush=True)
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
