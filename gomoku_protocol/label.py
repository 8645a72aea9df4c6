"""Label game positions with a stronger Gomocup brain's score, for :mod:`gomoku_protocol.fit`.

Every position of the given games that the fit would use (freestyle games of one board size, 15×15
unless ``--size`` says otherwise, after the opening, none the search decides by itself; with
``--any-rule`` the positions of standard and renju games too, scored as freestyle ones) is sent to the brain as a ``BOARD`` with a short depth limit;
the ``Eval N`` of its last ``MESSAGE`` line (Rapfi prints ``MESSAGE Speed … | Eval 116 | …``) is
its score for the side to move. Each output line is the position in ``h8i9j10`` notation, that
score, the game's result for the side to move (1, ½, 0) and the brain's move::

    h8i9j10g8 116 1 f7

A mate score (Rapfi's ``Eval +M13``, ``-M8``) is written as ``±20000`` (:data:`gomoku_protocol.fit.MATE`),
which the fit reads as a near-certain win or loss.

Rerun it with::

    python -m gomoku_protocol.label --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi \\
        --out labels.txt games1.sgf games2.sgf

``--skip old.txt.gz`` leaves out the positions an earlier run labelled, to extend its file.
"""

import re
import sys
import time
from typing import Optional

from engine_core.args import ArgParser, UsageError, guarded, positive_int
from engine_core.ends import Forfeit
from engine_core.seat import EngineSeat
from gomoku_protocol.fit import MATE, features, read_text
from gomoku_protocol.position import Position
from gomoku_protocol.record import SgfGame, format_pos, parse_pos, read_sgf_games

_EVAL = re.compile(r"\bEval\s+([+-]?)(M?)(\d+|\*)")


def eval_score(line: str) -> Optional[int]:
    """The score of a brain's ``MESSAGE … | Eval N | …`` line, a mate (``+M13``, ``-M*``) as ±MATE.

    >>> eval_score("MESSAGE Speed 9 | Eval -116 | Time 4ms"), eval_score("MESSAGE Eval +M13 |")
    (-116, 20000)
    >>> eval_score("MESSAGE Eval -M* | Nodes 3"), eval_score("MESSAGE Eval VAL_NONE"), eval_score("OK")
    (-20000, None, None)
    """
    m = _EVAL.search(line)
    if m is None or (not m.group(2) and m.group(3) == "*"):
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2):
        return sign * MATE
    return max(-MATE, min(MATE, sign * int(m.group(3))))


def positions(games: list[SgfGame], size: int = 15, any_rule: bool = False) -> list[tuple[str, float]]:
    """(moves in ``h8i9`` notation, result for the side to move) of every position the fit uses in
    the ``size``×``size`` games (freestyle ones, or of every rule), each position once."""
    seen: set[str] = set()
    out: list[tuple[str, float]] = []
    for g in games:
        if g.size != size or (g.rule != 0 and not any_rule):
            continue
        b = Position(size, size, 0)
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


class Labeller(EngineSeat):
    """A Gomocup brain process asked for its score of one position at a time.

    It sits on an :class:`engine_core.seat.EngineSeat` as a match's engines do (its output read by a
    thread of its own, its whole process group killed on stop), so an answer that never comes (Rapfi
    once stopped answering after a few hundred positions, both processes waiting on a read) costs
    ``patience_s``: the brain is then restarted and the position skipped. A brain that cannot start,
    does not answer START, or ends its output is a UsageError.
    """

    def __init__(self, command: str, depth: int, turn_ms: int, patience_s: float = 20.0, size: int = 15) -> None:
        self.setup = [f"START {size}", "INFO rule 0", f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0",
                      f"INFO max_depth {depth}"]
        self.patience_s = patience_s
        self.restarts = 0
        self._start(command)

    def _start(self, command: str) -> None:
        try:
            self.start(command)
            for line in self.setup:
                self.send(line)
            self.reply(time.monotonic() + self.patience_s, lambda line: line == "OK")
        except Forfeit as exc:
            raise UsageError(f"the brain did not answer START within {self.patience_s:g} s: {exc}") from None

    def _restart(self) -> None:
        self.stop("", grace=0.0)
        self.restarts += 1
        self._start(self.command)

    def score(self, moves: str) -> tuple[Optional[int], str]:
        """The brain's score for the side to move after ``moves`` (None if it printed none) and
        its move (``h8`` notation; empty if it gave none in time, and it is restarted)."""
        stones = parse_pos(moves)
        mover = len(stones) % 2
        board = [f"{x},{y},{1 if n % 2 == mover else 2}" for n, (x, y) in enumerate(stones)]
        for command in ["YXHASHCLEAR", "BOARD", *board, "DONE"]:
            self.send(command)
        deadline = time.monotonic() + self.patience_s
        got: Optional[int] = None
        while True:
            line = self.line(deadline)
            if line is None and self.gone:
                raise UsageError("the brain ended its output")
            if line is None:
                self._restart()
                return None, ""
            if not line.startswith(("MESSAGE", "DEBUG", "OK", "ERROR", "UNKNOWN")):
                x, _, y = line.partition(",")
                return got, format_pos([(int(x), int(y))])
            score = eval_score(line)
            if score is not None:
                got = score

    def close(self) -> None:
        self.stop("END", grace=10.0)


def parser() -> ArgParser:
    p = ArgParser(prog="python -m gomoku_protocol.label", description=__doc__)
    p.add_argument("games", nargs="+", help="SGF files of finished games (c-gomoku-cli's -sgf output)")
    p.add_argument("--brain", required=True, help="the labelling brain's command (a pbrain-… executable)")
    p.add_argument("--depth", type=positive_int, default=10, help="its INFO max_depth")
    p.add_argument("--turn-ms", type=positive_int, default=300, help="its INFO timeout_turn")
    p.add_argument("--out", required=True, help="write the labelled positions here")
    p.add_argument("--size", type=positive_int, default=15, help="the games' board size (games of other sizes are left out)")
    p.add_argument("--any-rule", action="store_true",
                   help="label the positions of standard and renju games too, as freestyle positions")
    p.add_argument("--skip", nargs="*", default=[], help="label files whose positions are not sent again")
    return p


def run(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    games: list[SgfGame] = []
    for name in opts.games:
        games += read_sgf_games(read_text(name))
    done = {line.split(maxsplit=1)[0] for name in opts.skip for line in read_text(name).splitlines() if line.strip()}
    todo = [p for p in positions(games, opts.size, opts.any_rule) if p[0] not in done]
    brain = Labeller(opts.brain, opts.depth, opts.turn_ms, size=opts.size)
    with open(opts.out, "w", encoding="utf-8", buffering=1) as out:  # a stopped run keeps every line
        for n, (moves, result) in enumerate(todo):
            score, move = brain.score(moves)
            if score is not None:
                out.write(f"{moves} {score} {result:g} {move}\n")
            if n % 500 == 0:
                print(f"{n}/{len(todo)}", file=sys.stderr, flush=True)
    brain.close()
    if brain.restarts:
        print(f"the brain was restarted {brain.restarts} times (no answer in {brain.patience_s:g} s)", file=sys.stderr)
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    return guarded("python -m gomoku_protocol.label", lambda: run(list(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
