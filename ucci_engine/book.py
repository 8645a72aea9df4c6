"""The opening book: moves sanqi's own deep searches found good in the first plies, with weights.

``data/book.txt`` holds one position a line, ``<board> <side> <move>:<weight> …``, the board as a
FEN's first field. A position is also found through its mirror image (files a–i reversed), so the
book stores one of each mirrored pair. ``python3 -m ucci_engine.book build`` remakes the file.

>>> from ucci_engine.position import START_FEN
>>> book = Book.load()
>>> pos = Position.from_fen(START_FEN)
>>> pos.move_name(book.pick(pos, random.Random(1))) in book.names(pos)
True
"""

import argparse
import random
import sys
from pathlib import Path
from typing import Optional

from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import FILES, file_of, parse_move, rank_of, square

BOOK_FILE = Path(__file__).parent / "data" / "book.txt"


def mirror_square(sq: int) -> int:
    return square(FILES - 1 - file_of(sq), rank_of(sq))


def mirror_move(move: int) -> int:
    """The move's image with files a–i reversed.

    >>> from ucci_engine.tables import move_name, parse_move
    >>> move_name(mirror_move(parse_move("h2e2")))
    'b2e2'
    """
    return mirror_square(move >> 7) << 7 | mirror_square(move & 127)


def mirror_board(board_field: str) -> str:
    return "/".join(row[::-1] for row in board_field.split("/"))


def book_key(pos: Position) -> str:
    """The FEN's board and side fields, which is what the book is indexed by."""
    fields = pos.fen().split()
    return f"{fields[0]} {fields[1]}"


class Book:
    def __init__(self, entries: dict[str, list[tuple[int, int]]]) -> None:
        self.entries = entries  # key -> (move, weight) pairs

    @staticmethod
    def load(path: Path = BOOK_FILE) -> "Book":
        entries: dict[str, list[tuple[int, int]]] = {}
        for line in path.read_text().splitlines():
            if not line or line.startswith("#"):
                continue
            board, side, *moves = line.split()
            pairs = []
            for item in moves:
                name, _, weight = item.partition(":")
                pairs.append((parse_move(name), int(weight)))
            entries[f"{board} {side}"] = pairs
        return Book(entries)

    def moves(self, pos: Position) -> list[tuple[int, int]]:
        """The book's legal (move, weight) pairs for ``pos``, through its mirror image if need be."""
        board, side = book_key(pos).split()
        found = self.entries.get(f"{board} {side}")
        if found is None:
            mirrored = self.entries.get(f"{mirror_board(board)} {side}")
            found = [(mirror_move(m), w) for m, w in mirrored] if mirrored is not None else []
        legal = pos.legal_moves()
        return [(m, w) for m, w in found if m in legal]

    def names(self, pos: Position) -> list[str]:
        return [pos.move_name(m) for m, _ in self.moves(pos)]

    def pick(self, pos: Position, rng: random.Random, avoid: Optional[list[int]] = None) -> int:
        """A book move for ``pos`` chosen at random by weight (never one in ``avoid``), or 0."""
        choices = [(m, w) for m, w in self.moves(pos) if not avoid or m not in avoid]
        total = sum(w for _, w in choices)
        if total <= 0:
            return 0
        roll = rng.randrange(total)
        for m, w in choices:
            roll -= w
            if roll < 0:
                return m
        return 0


# --- building ------------------------------------------------------------------------------------

def candidates(pos: Position, ms: int, width: int, margin: int) -> list[tuple[int, int]]:
    """The moves a MultiPV search of ``ms`` milliseconds scores within ``margin`` of the best,
    weighted so the best gets 100 and a move ``margin`` worse about a quarter of that."""
    lim = Limits()
    lim.multipv = width
    lim.soft_ms = ms
    lim.hard_ms = ms * 3
    lines = Searcher(TransTable(32)).think(pos, lim)
    if not lines:
        return []
    best = max(line.score for line in lines[:width])  # an unfinished iteration may leave them unsorted
    kept = [line for line in lines[:width] if line.score >= best - margin]
    return [(line.move, max(1, 100 - 75 * (best - line.score) // max(1, margin))) for line in kept]


def build(plies: int, ms: int, width: int, margin: int) -> list[str]:
    """Book lines from a breadth-first walk of the searched moves, ``plies`` deep."""
    lines: list[str] = []
    done: set[str] = set()
    frontier = [Position.from_fen(START_FEN)]
    for ply in range(plies):
        following: list[Position] = []
        for pos in frontier:
            key = book_key(pos)
            board, side = key.split()
            if key in done or f"{mirror_board(board)} {side}" in done:
                continue
            done.add(key)
            found = candidates(pos, ms, width if ply < 2 else max(2, width - 1), margin)
            lines.append(key + " " + " ".join(f"{pos.move_name(m)}:{w}" for m, w in found))
            print(f"ply {ply}: {lines[-1]}", file=sys.stderr, flush=True)
            for m, _ in found:
                child = pos.copy()
                child.make(m)
                following.append(child)
        frontier = following
    return sorted(lines)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m ucci_engine.book", description="Build sanqi's opening book.")
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("build")
    p.add_argument("--plies", type=int, default=6, help="how deep the book reaches")
    p.add_argument("--ms", type=int, default=3000, help="search time for each position")
    p.add_argument("--width", type=int, default=3, help="most moves kept per position")
    p.add_argument("--margin", type=int, default=20, help="keep moves scoring this close to the best")
    p.add_argument("--out", type=Path, default=BOOK_FILE)
    args = parser.parse_args(argv)
    lines = build(args.plies, args.ms, args.width, args.margin)
    header = (f"# sanqi opening book: python3 -m ucci_engine.book build --plies {args.plies} --ms {args.ms} "
              f"--width {args.width} --margin {args.margin}\n")
    args.out.write_text(header + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
