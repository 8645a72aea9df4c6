"""The opening book is read, its moves are legal where it offers them, and the engine plays them."""

import random

from ucci_engine.book import BOOK_FILE, Book, book_key, mirror_board
from ucci_engine.engine import Engine, GoRequest, SearchAnswer
from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import move_name, parse_move


def entries() -> list[tuple[str, list[str]]]:
    rows = []
    for line in BOOK_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            board, side, *moves = line.split()
            rows.append((f"{board} {side}", [m.split(":")[0] for m in moves]))
    return rows


def test_every_book_move_is_legal_in_its_position() -> None:
    assert len(entries()) >= 20
    for key, moves in entries():
        pos = Position.from_fen(key + " - - 0 1")
        legal = pos.legal_moves()
        assert moves and all(parse_move(m) in legal for m in moves), key


def test_the_book_offers_several_first_moves_so_games_differ() -> None:
    pos = Position.from_fen(START_FEN)
    assert len(Book.load().moves(pos)) >= 2
    picks = {Book.load().pick(pos, random.Random(seed)) for seed in range(40)}
    assert len(picks) >= 2


def test_a_position_is_found_through_its_mirror_image() -> None:
    book = Book.load()
    for key, moves in entries():
        board, side = key.split()
        if mirror_board(board) != board:
            mirrored = Position.from_fen(f"{mirror_board(board)} {side} - - 0 1")
            assert len(book.moves(mirrored)) == len(moves), key
            assert book_key(mirrored) != key
            return
    raise AssertionError("no asymmetric position in the book")


def test_the_engine_answers_from_the_book_when_it_is_on() -> None:
    engine = Engine()
    engine.set_book(True)
    results: list[SearchAnswer] = []
    searched: list[int] = []
    go = GoRequest()
    go.nodes = 20000
    engine.go(go, lambda depth, *rest: searched.append(depth), lambda result: results.append(result) if result else None)
    engine.worker.join()
    names = Book.load().names(Position.from_fen(START_FEN))
    assert len(results) == 1 and move_name(results[0].best) in names
    assert searched == []  # no search ran: the move came from the book
