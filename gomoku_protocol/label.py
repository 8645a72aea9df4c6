"""Label game positions with a stronger Gomocup brain's score, for :mod:`gomoku_protocol.fit`.

Every position of the given games that the fit would use (15×15 freestyle, after the opening,
none the search decides by itself) is sent to the brain as a ``BOARD`` with a short depth limit;
the ``Eval N`` of its last ``MESSAGE`` line (Rapfi prints ``MESSAGE Speed … | Eval 116 | …``) is
its score for the side to move. Each output line is the position in ``h8i9j10`` notation, that
score, the game's result for the side to move (1, ½, 0) and the brain's move::

    h8i9j10g8 116 1 f7

Rerun it with::

    python -m gomoku_protocol.label --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi \\
        --out labels.txt games1.sgf games2.sgf

``--skip old.txt.gz`` leaves out the positions an earlier run labelled, to extend its file.
"""

import re
import subprocess
import sys
from typing import Optional

from engine_core.args import ArgParser, UsageError, guarded, positive_int
from gomoku_protocol.fit import features, read_text
from gomoku_protocol.position import Board
from gomoku_protocol.record import SgfGame, format_pos, parse_pos, read_sgf_games

_EVAL = re.compile(r"\bEval\s+([+-]?\d+)")
MATE = 20000  # Rapfi's mate scores are larger: clipped to this


def positions(games: list[SgfGame]) -> list[tuple[str, float]]:
    """(moves in ``h8i9`` notation, result for the side to move) of every position the fit uses,
    each position once."""
    seen: set[str] = set()
    out: list[tuple[str, float]] = []
    for g in games:
        if g.size != 15 or g.rule != 0:
            continue
        b = Board(15, 15, 0)
        for ply, (x, y) in enumerate(g.moves):
            if ply >= g.opening and features(b) is not None:
                key = format_pos(g.moves[:ply])
                if key not in seen:
                    seen.add(key)
                    out.append((key, 0.5 if g.winner == 0 else float(g.winner == b.side)))
            i = b.index(x, y)
            if b.cells[i] != 0:
                break
            b.play(i, b.side)
    return out


class Brain:
    """A Gomocup brain process asked for its score of one position at a time."""

    def __init__(self, command: str, depth: int, turn_ms: int) -> None:
        self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._send(f"START 15\nINFO rule 0\nINFO timeout_turn {turn_ms}\nINFO timeout_match 0\n"
                   f"INFO max_depth {depth}\n")
        while self._line() != "OK":
            pass

    def _send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise UsageError("the brain ended its output")
        return line.strip()

    def score(self, moves: str) -> tuple[Optional[int], str]:
        """The brain's score for the side to move after ``moves`` (None if it printed none) and
        its move (``h8`` notation)."""
        stones = parse_pos(moves)
        mover = len(stones) % 2
        lines = [f"{x},{y},{1 if n % 2 == mover else 2}" for n, (x, y) in enumerate(stones)]
        self._send("YXHASHCLEAR\nBOARD\n" + "\n".join(lines) + "\nDONE\n")
        got: Optional[int] = None
        while True:
            line = self._line()
            if not line.startswith(("MESSAGE", "DEBUG", "OK", "ERROR", "UNKNOWN")):
                x, _, y = line.partition(",")
                return got, format_pos([(int(x), int(y))])
            m = _EVAL.search(line)
            if m:
                got = max(-MATE, min(MATE, int(m.group(1))))

    def close(self) -> None:
        self._send("END\n")
        self.proc.wait(timeout=10)


def parser() -> ArgParser:
    p = ArgParser(prog="python -m gomoku_protocol.label", description=__doc__)
    p.add_argument("games", nargs="+", help="SGF files of finished games (c-gomoku-cli's -sgf output)")
    p.add_argument("--brain", required=True, help="the labelling brain's command (a pbrain-… executable)")
    p.add_argument("--depth", type=positive_int, default=10, help="its INFO max_depth")
    p.add_argument("--turn-ms", type=positive_int, default=300, help="its INFO timeout_turn")
    p.add_argument("--out", required=True, help="write the labelled positions here")
    p.add_argument("--skip", nargs="*", default=[], help="label files whose positions are not sent again")
    return p


def run(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    games: list[SgfGame] = []
    for name in opts.games:
        games += read_sgf_games(read_text(name))
    done = {line.split(maxsplit=1)[0] for name in opts.skip for line in read_text(name).splitlines() if line.strip()}
    todo = [p for p in positions(games) if p[0] not in done]
    brain = Brain(opts.brain, opts.depth, opts.turn_ms)
    with open(opts.out, "w", encoding="utf-8", buffering=1) as out:  # a stopped run keeps every line
        for n, (moves, result) in enumerate(todo):
            score, move = brain.score(moves)
            if score is not None:
                out.write(f"{moves} {score} {result:g} {move}\n")
            if n % 500 == 0:
                print(f"{n}/{len(todo)}", file=sys.stderr, flush=True)
    brain.close()
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    return guarded("python -m gomoku_protocol.label", lambda: run(list(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
