"""``sanqi gomoku-match``: our brain against the one-ply pattern baseline over balanced openings.

Each opening is played twice, once with each side to us. Both players run in this process on one
board; the baseline picks the point with the best one-ply pattern score (attack plus weighted
defence, the seed's scorer) and nothing else.
"""

import argparse
import pathlib
import time

from engine_core.args import ArgParser, UsageError, guarded, int_between, positive_int, readable_file
from gomoku_protocol.brain import Brain, best_by_pattern
from gomoku_protocol.data_files import data_file
from gomoku_protocol.position import MAX_SIZE, MIN_SIZE, STYLES, Board
from gomoku_protocol.record import write_psq

RENJU_MOVE_LIMIT = 200
OPENINGS = data_file("openings.txt")


def read_openings(text: str) -> list[list[tuple[int, int]]]:
    """One opening a line: ``dx,dy, dx,dy, …`` offsets from the centre; ``#`` starts a comment.

    >>> read_openings("# c\\n0,0, 1,0, 1,3\\n")
    [[(0, 0), (1, 0), (1, 3)]]
    >>> read_openings("0,0, 1")
    Traceback (most recent call last):
    ValueError: line 1: expected pairs of whole numbers dx,dy
    """
    out: list[list[tuple[int, int]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.replace(",", " ").split()
        if len(words) % 2 or not all(w.lstrip("-").isdigit() and len(w) < 6 for w in words):
            raise ValueError(f"line {n}: expected pairs of whole numbers dx,dy")
        nums = [int(w) for w in words]
        out.append([(nums[k], nums[k + 1]) for k in range(0, len(nums), 2)])
    return out


def load_openings(path: pathlib.Path, size: int) -> list[list[tuple[int, int]]]:
    """The openings of ``path`` that fit a ``size`` board; UsageError if there are none."""
    try:
        openings = read_openings(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"cannot read openings from {str(path)!r}: {exc}") from None
    c = size // 2
    fit = [o for o in openings if len(set(o)) == len(o) and all(0 <= c + dx < size and 0 <= c + dy < size for dx, dy in o)]
    if not fit:
        raise UsageError(f"no opening in {str(path)!r} fits a {size}x{size} board")
    return fit


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


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi gomoku-match", description=__doc__)
    p.add_argument("--games", type=positive_int, default=40, help="games in all (each opening twice)")
    p.add_argument("--size", type=int_between(MIN_SIZE, MAX_SIZE), default=15, help="board width and height")
    p.add_argument("--rule", type=int_between(0, 15), default=0, help="Gomocup rule bitmask: 0 freestyle, 1 exact five, 4 renju (default: %(default)s)")
    p.add_argument("--ms", type=positive_int, default=500, help="our time per move in milliseconds")
    p.add_argument("--style", choices=sorted(STYLES), default="balanced", help="our brain's style (default: %(default)s)")
    p.add_argument("--openings", type=readable_file, default=str(OPENINGS),
                   help="openings file, one a line: dx,dy offsets from the centre")
    p.add_argument("--psq", help="write each game as a .psq record into this folder (default: none)")
    return p


def main(args: list[str]) -> int:
    return guarded("sanqi gomoku-match", lambda: play_match(parser().parse_args(args)))


def psq_folder(text: str) -> pathlib.Path:
    folder = pathlib.Path(text)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the record folder {text!r}: {exc.strerror or exc}") from None
    return folder


def play_match(opts: argparse.Namespace) -> int:
    openings = load_openings(pathlib.Path(opts.openings), opts.size)
    folder = psq_folder(opts.psq) if opts.psq else None
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
        if folder is not None:
            names = ("sanqi", "baseline") if ours == 1 else ("baseline", "sanqi")
            (folder / f"game{g + 1:03d}.psq").write_text(write_psq(opts.size, opts.size, r.moves, r.times, names))
    pct = 100.0 * score / max(1, played)
    print(f"sanqi vs one-ply baseline: +{wins} ={draws} -{losses}, score {score:g}/{played} ({pct:.1f}%), "
          f"size {opts.size}, rule {opts.rule}, {opts.ms} ms/move, {time.perf_counter() - start:.0f} s")
    return 0
