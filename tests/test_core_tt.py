"""The transposition table keeps what saves the search the most work: two entries a bucket, the
deeper one kept while it is of the current search."""

from engine_core.game import MATE
from engine_core.tt import EXACT, LOWER, UPPER, TransTable, entry_bound, entry_depth, entry_move, entry_score, score_from_tt


def same_bucket(tt: TransTable, n: int) -> list[int]:
    """``n`` distinct keys that share one bucket."""
    return [5 * 2 + k * tt.size for k in range(1, n + 1)]


def test_an_entry_reads_back_as_stored() -> None:
    tt = TransTable(1)
    tt.new_search()
    for score in (0, 37, -37, MATE - 3, -(MATE - 3)):
        tt.store(12345, 7, LOWER, score, 0x2C3, 0)
        entry = tt.probe(12345)
        assert (entry_move(entry), entry_depth(entry), entry_bound(entry), entry_score(entry)) == (0x2C3, 7, LOWER, score)
    assert tt.probe(54321) == -1


def test_mate_scores_are_stored_relative_to_the_node() -> None:
    tt = TransTable(1)
    tt.new_search()
    tt.store(99, 3, EXACT, MATE - 10, 1, 4)  # mate in 10 plies from the root, found 4 plies down
    assert score_from_tt(entry_score(tt.probe(99)), 6) == MATE - 12


def test_two_keys_of_one_bucket_both_stay() -> None:
    tt = TransTable(1)
    tt.new_search()
    a, b = same_bucket(tt, 2)
    tt.store(a, 4, EXACT, 10, 1, 0)
    tt.store(b, 2, EXACT, 20, 2, 0)
    assert entry_score(tt.probe(a)) == 10 and entry_score(tt.probe(b)) == 20


def test_shallow_entries_do_not_push_out_a_deep_one_of_this_search() -> None:
    tt = TransTable(1)
    tt.new_search()
    deep, *shallow = same_bucket(tt, 4)
    tt.store(deep, 9, LOWER, 50, 7, 0)
    for key in shallow:
        tt.store(key, 1, UPPER, -5, 3, 0)
    assert entry_depth(tt.probe(deep)) == 9
    assert tt.probe(shallow[-1]) >= 0 and tt.probe(shallow[0]) == -1  # the second slot takes the newest


def test_a_deep_entry_of_an_earlier_search_gives_way() -> None:
    tt = TransTable(1)
    tt.new_search()
    deep, other, newest = same_bucket(tt, 3)
    tt.store(deep, 9, LOWER, 50, 7, 0)
    tt.new_search()
    tt.store(other, 1, UPPER, -5, 3, 0)
    tt.store(newest, 1, UPPER, -6, 4, 0)
    assert tt.probe(deep) == -1
    assert tt.probe(other) >= 0 and tt.probe(newest) >= 0


def test_a_bound_does_not_replace_a_deeper_entry_of_its_own_key_but_an_exact_score_does() -> None:
    tt = TransTable(1)
    tt.new_search()
    tt.store(77, 6, LOWER, 30, 5, 0)
    tt.store(77, 2, UPPER, 10, 6, 0)
    assert (entry_depth(tt.probe(77)), entry_score(tt.probe(77))) == (6, 30)
    tt.store(77, 2, EXACT, 12, 6, 0)
    assert (entry_depth(tt.probe(77)), entry_score(tt.probe(77))) == (2, 12)
