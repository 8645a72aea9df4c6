"""The search finds forced mates (positions confirmed by Fairy-Stockfish) and plays them out."""

import pytest

from conftest import ROOT
from engine_core.game import MATE
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from ucci_engine.position import Position


def mates() -> list[tuple[int, str]]:
    rows = []
    for line in (ROOT / "tests" / "data" / "xiangqi" / "mates.tsv").read_text().splitlines():
        if not line.startswith("#"):
            n, fen = line.split("\t")
            rows.append((int(n), fen))
    return rows


def best(pos: Position, depth: int) -> tuple[int, int]:
    lim = Limits()
    lim.depth = depth
    line = Searcher(TransTable(8)).think(pos, lim)[0]
    return line.move, line.score


@pytest.mark.parametrize("n,fen", mates(), ids=[f"mate{n}-{i}" for i, (n, _) in enumerate(mates())])
def test_mate_in_n_is_found_and_forced(n: int, fen: str) -> None:
    pos = Position.from_fen(fen)
    # One ply more than the mate's length: reductions and pruning near the leaves may hide a mate at
    # exactly its length (the refit of 363caeb hides mate2-4 at depth 5; depth 6 finds it).
    move, score = best(pos, 2 * n + 2)
    # At most n moves: a stalemate also wins in xiangqi, and it can come sooner than the mate.
    assert score >= MATE - (2 * n - 1), f"{fen}: expected a win within {n} moves, got {score}"
    moves_left = (MATE - score + 1) // 2
    while moves_left > 1:
        pos.make(move)
        reply, _ = best(pos, 2 * moves_left)  # the defender's most stubborn reply
        pos.make(reply)
        moves_left -= 1
        move, score = best(pos, 2 * moves_left + 2)
        assert score == MATE - (2 * moves_left - 1), pos.fen()
    pos.make(move)
    assert pos.legal_moves() == []  # checkmated or stalemated: lost either way


def test_at_least_ten_mate_positions_are_tested() -> None:
    assert len(mates()) >= 10 and {n for n, _ in mates()} == {1, 2, 3}
