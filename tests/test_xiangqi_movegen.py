"""Move generation: perft against the reference counts, and legal-move sets against pyffish."""

import random

import pytest

from conftest import DATA, random_games
from ucci_engine.movegen import attacked, checks_after, generate, uncovered
from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import KING, RAY_STEP, RAY_STOP, RAYS, SQUARES, move_name


def perft_cases() -> list[tuple[str, str, list[int]]]:
    cases = []
    for line in (DATA / "xiangqi" / "perft.tsv").read_text().splitlines():
        if line.startswith("#"):
            continue
        name, fen, *counts = line.split("\t")
        cases.append((name, fen, [int(c) for c in counts if c != "-"]))
    return cases


@pytest.mark.parametrize("name,fen,counts", perft_cases(), ids=[c[0] for c in perft_cases()])
def test_perft_to_depth_3(name: str, fen: str, counts: list[int]) -> None:
    pos = Position.from_fen(fen)
    assert [pos.perft(d) for d in (1, 2, 3)] == counts[:3]


@pytest.mark.slow
@pytest.mark.parametrize("name,fen,counts", perft_cases(), ids=[c[0] for c in perft_cases()])
def test_perft_depth_4(name: str, fen: str, counts: list[int]) -> None:
    assert Position.from_fen(fen).perft(4) == counts[3]


def to_ffish(move: str) -> str:
    """Our ranks are 0–9, pyffish's 1–10."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def test_legal_moves_match_pyffish_over_2000_positions() -> None:
    sf = pytest.importorskip("pyffish", reason="pyffish is not installed (pip install pyffish)")
    rng = random.Random(2026)
    checked = 0
    while checked < 2000:
        pos = Position.from_fen(START_FEN)
        for _ in range(rng.randrange(20, 160)):
            fen = pos.fen()
            ours = sorted(to_ffish(move_name(m)) for m in pos.legal_moves())
            theirs = sorted(sf.legal_moves("xiangqi", fen, []))
            assert ours == theirs, fen
            checked += 1
            if not ours:
                break
            pos.push_name(move_name(rng.choice(pos.legal_moves())))


def test_make_unmake_restores_everything() -> None:
    rng = random.Random(5)
    pos = Position.from_fen(START_FEN)
    for _ in range(300):
        moves = pos.legal_moves()
        if not moves:
            break
        before = (pos.board[:], pos.hash, pos.score, pos.fen(), [p[:] for p in pos.pieces])
        for m in moves:
            pos.make(m)
            pos.unmake()
            assert (pos.board, pos.hash, pos.score, pos.fen()) == before[:4]
            assert sorted(pos.pieces[0]) == sorted(before[4][0]) and sorted(pos.pieces[1]) == sorted(before[4][1])
        pos.make(rng.choice(moves))
        fresh = Position.from_fen(pos.fen())
        assert fresh.hash == pos.hash and fresh.score == pos.score


def test_piece_lists_follow_the_board_through_a_game_and_back() -> None:
    rng = random.Random(13)
    pos = Position.from_fen(START_FEN)
    start = [pos.pieces[0][:], pos.pieces[1][:]]
    played = 0
    for _ in range(300):
        moves = pos.legal_moves()
        if not moves:
            break
        assert pos.make(rng.choice(moves))
        played += 1
        for side in (0, 1):
            assert sorted(pos.pieces[side]) == [sq for sq in range(90) if pos.board[sq] and pos.board[sq] >> 3 == side]
            assert all(pos.slots[sq] == i for i, sq in enumerate(pos.pieces[side]))
    for _ in range(played):
        pos.unmake()
    assert pos.pieces == start


def test_uncovered_answers_as_attacked_for_moves_out_of_no_check() -> None:
    checked = 0
    for pos, _ in random_games(11, 40, 160):
        side, king = pos.side, pos.kings[pos.side]
        if pos.in_check():
            continue
        board = pos.board
        for m in pos.moves():
            frm, to = m >> 7, m & 127
            if board[frm] & 7 == KING:
                continue
            piece, captured = board[frm], board[to]
            board[to], board[frm] = piece, 0
            assert uncovered(board, king, side ^ 1, frm, to) == attacked(board, king, side ^ 1), (pos.fen(), m)
            board[frm], board[to] = piece, captured
            checked += 1
    assert checked > 50000


def test_make_in_check_accepts_exactly_the_moves_that_leave_the_king_unattacked() -> None:
    # In check, make keeps the check without a test for moves that touch no square related to the
    # king: every move tried in check must be judged as attacked() judges it.
    checked = 0
    for pos, _ in random_games(23, 300, 160):
        if not pos.in_check():
            continue
        side = pos.side
        board = pos.board
        for m in generate(board, pos.pieces[side], side, False):
            frm, to = m >> 7, m & 127
            piece, captured = board[frm], board[to]
            board[to], board[frm] = piece, 0
            safe = not attacked(board, to if piece & 7 == KING else pos.kings[side], side ^ 1)
            board[frm], board[to] = piece, captured
            assert pos.make(m) == safe, (pos.fen(), move_name(m))
            if safe:
                pos.unmake()
            checked += 1
    assert checked > 5000


def test_in_check_the_moves_offered_are_every_legal_move_and_few_others() -> None:
    # Position.moves() in check leaves out the moves that cannot answer it (movegen.evasions): none
    # of them may be a legal move, and most of what it leaves out is what make would refuse.
    kept, dropped = 0, 0
    for pos, _ in random_games(29, 300, 160):
        if not pos.in_check():
            continue
        every = generate(pos.board, pos.pieces[pos.side], pos.side, False)
        offered = pos.moves()
        legal = [m for m in every if pos.make(m) and (pos.unmake() or True)]
        assert set(legal) <= set(offered) <= set(every), pos.fen()
        assert offered == [m for m in every if m in offered], pos.fen()  # in generation order
        kept += len(offered) - len(legal)
        dropped += len(every) - len(offered)
    assert dropped > 3 * kept > 0


def test_peek_tells_what_make_would_find_and_leaves_the_board_alone() -> None:
    # The search judges a move it will prune unless it checks by peek instead of make and unmake.
    seen = {-1: 0, 0: 0, 1: 0}
    for pos, _ in random_games(31, 60, 160):
        board, fen = pos.board[:], pos.fen()
        for m in generate(pos.board, pos.pieces[pos.side], pos.side, False):
            verdict = pos.peek(m)
            assert pos.board == board
            if pos.make(m):
                assert verdict == (1 if pos.in_check() else 0), (fen, move_name(m))
                pos.unmake()
            else:
                assert verdict == -1, (fen, move_name(m))
            seen[verdict] += 1
    assert min(seen.values()) > 200


def test_checks_after_answers_as_attacked_for_every_move() -> None:
    checked = 0
    for pos, moves in random_games(17, 40, 160):
        side, their_king = pos.side, pos.kings[pos.side ^ 1]
        board = pos.board
        for m in moves:
            frm, to = m >> 7, m & 127
            piece, captured = board[frm], board[to]
            board[to], board[frm] = piece, 0
            assert checks_after(board, their_king, side, frm, to) == attacked(board, their_king, side), (pos.fen(), m)
            board[frm], board[to] = piece, captured
            checked += 1
    assert checked > 50000


def test_quiet_checks_are_the_quiet_moves_that_attack_the_other_king_in_generation_order() -> None:
    # Every pseudo-legal quiet move that attacks the other king, none else: the search's trees depend on the whole
    # list, the moves make() refuses included.
    found = 0
    for pos, _ in random_games(23, 40, 160):
        side, their_king = pos.side, pos.kings[pos.side ^ 1]
        board = pos.board
        expected = []
        for m in generate(board, pos.pieces[side], side, False):
            frm, to = m >> 7, m & 127
            if board[to] != 0:
                continue
            piece = board[frm]
            board[to], board[frm] = piece, 0
            if attacked(board, their_king, side):
                expected.append(m)
            board[frm], board[to] = piece, 0
        assert pos.quiet_checks() == expected, pos.fen()
        found += len(expected)
    assert found > 500


def test_a_king_stepping_off_its_file_uncovers_a_cannon_check() -> None:
    pos = Position.from_fen("4k4/9/9/4P4/9/9/9/9/4K4/4C4 w")  # the red king is the cannon's second screen
    assert [move_name(m) for m in pos.quiet_checks() if m in pos.legal_moves()] == ["e1d1", "e1f1"]


def test_the_native_moves_and_orders_are_those_of_the_lists() -> None:
    # The search reads xiangqi's moves and orders from native_moves' vectors (engine_core.game.NativeMoves): they
    # must be the lists' the other games give it, in check (the evasions) and in quiescence (captures only) too.
    checks = captures = 0
    for pos, _ in random_games(29, 30, 160):
        for noisy in (False, True):
            moves = pos.noisy_moves() if noisy else pos.moves()
            orders = pos.noisy_orders(moves) if noisy else pos.capture_orders(moves)
            count = pos.native_moves(noisy)
            assert list(pos.found[:count]) == moves and list(pos.orders[:count]) == orders, (pos.fen(), noisy)
            captures += sum(order != 0 for order in orders)
        checks += pos.in_check()
    assert checks > 30 and captures > 10000


def test_each_ray_walked_by_its_step_up_to_its_stop_is_the_ray() -> None:
    for sq in range(SQUARES):
        for d in range(4):
            walked, to = [], sq + RAY_STEP[d]
            while to != RAY_STOP[sq * 4 + d]:
                assert 0 <= to < SQUARES and len(walked) < 10, (sq, d, walked)
                walked.append(to)
                to += RAY_STEP[d]
            assert walked == list(RAYS[sq][d]), (sq, d)
