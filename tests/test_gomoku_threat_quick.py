"""The threat search's stones seen without playing them (gomoku_protocol/threats.py: the defender's in
``_reply`` and ``_blocks``, the attacker's last-depth threats in ``_fails_last``; not on renju or caro
boards): what the tables say a block leaves, the key after a stone and a last threat's failure must be
what playing the stone gives, and the search must find the same lines in the same nodes as the search
that plays every stone (the boards of renju and caro, which still play them, keep that path)."""

import random

import pytest

from gomoku_protocol.position import Position
from gomoku_protocol.rules import BLACK, EMPTY, WHITE
from gomoku_protocol.threats import ThreatSearch
from tools.gomoku_tss_nodes import replays  # tests/tools: the check a reported line is forced


def crowded(rule: int, seed: int, stones: int = 40) -> Position:
    """A 15x15 board of ``rule`` with ``stones`` random stones near the centre (no five on it)."""
    rng = random.Random(seed)
    b = Position(15, 15, rule)
    while b.stones < stones:
        x, y = rng.randrange(3, 12), rng.randrange(3, 12)
        i = b.index(x, y)
        if b.cells[i] == EMPTY and not b.count(b.side, i) & 15 and b.make(i):
            continue
    return b


def test_a_block_seen_from_the_tables_is_the_block_played() -> None:
    tried = refused = 0
    for rule in (0, 1):
        for seed in range(30):
            b = crowded(rule, seed)
            ts = ThreatSearch(b)
            for _ in range(2):
                b.make_null()
                attacker = 3 - b.side
                threats = ts._threat_points(attacker)
                if threats and not b.five_count(attacker):
                    for r in b.points:
                        if b.cells[r] != EMPTY:
                            continue
                        assert b.make(r)
                        played = not ts._threatens(attacker)
                        b.unmake()
                        assert ts._blocks(r, threats) == played, (rule, seed, b.name(r))
                        tried += 1
                        refused += not played
    assert tried > 1000 and 0 < refused < tried  # both answers were asked for


def test_the_key_after_a_stone_is_the_key_of_the_board_with_it() -> None:
    b = crowded(0, 7)
    for i in b.points:
        if b.cells[i] == EMPTY:
            expected = b.key_after(i)
            b.make(i)
            assert b.key() == expected
            b.unmake()
    assert b.side in (BLACK, WHITE)


def test_the_five_other_than_a_point() -> None:
    b = Position(15, 15, 0)
    for x in range(4):  # black's four h8..k8, open at both ends: fives on g8 and l8
        b.play(b.index(7 + x, 7), BLACK)
        b.play(b.index(2 + 3 * x, 12), WHITE)
    g8, l8 = b.index(6, 7), b.index(11, 7)
    assert b.five_count(BLACK) == 2 and b.first_five(BLACK) == g8
    assert b.first_five_but(BLACK, g8) == l8 and b.first_five_but(BLACK, l8) == g8
    assert b.fives[BLACK] == {g8, l8} and b.fives[WHITE] == set()


def test_a_last_threat_seen_to_fail_from_the_tables_fails_when_played() -> None:
    seen = {"four": [0, 0], "three": [0, 0]}  # candidates, and those the tables said fail
    for rule in (0, 1):
        for seed in range(30):
            b = crowded(rule, seed)
            ts = ThreatSearch(b)
            for _ in range(2):
                b.make_null()
                a = b.side
                if b.five_count(a) or b.five_count(3 - a):
                    continue  # a VCT node has no five (the attacker's is a win, the defender's blocked first)
                threes = [t for t in b.three_points(a) if not b.makes_four(a, t)]
                for m in b.four_points(a) + threes:
                    kind = "four" if b.makes_four(a, m) else "three"
                    fails = ts._fails_last(a, m)
                    assert b.make(m)
                    played = ts._after_threat(1, (), m)
                    b.unmake()
                    assert not (fails and played is not None), (rule, seed, b.name(m))
                    seen[kind][0] += 1
                    seen[kind][1] += fails
    for kind, (tried, failed) in seen.items():
        assert tried > 50 and 0 < failed < tried, (kind, tried, failed)  # both answers were given


def playing_search() -> type:
    """The threat search that plays every stone (as renju and caro boards still do)."""

    class Played(ThreatSearch):
        def _reply(self, depth: int, gains: tuple[int, ...], r: int, vct: bool) -> object:
            b = self.board
            b.make(r)
            line = self._vct(depth, gains) if vct else self._vcf(depth, gains)
            b.unmake()
            return line

        def _blocks(self, r: int, threats: list[int]) -> bool:
            b = self.board
            attacker = 3 - b.side
            b.make(r)
            holds = not self._threatens(attacker)
            b.unmake()
            return holds

        def _fails_last(self, a: int, m: int) -> bool:
            return False

    return Played


def test_the_search_finds_the_same_lines_in_the_same_nodes_as_one_that_plays_every_stone() -> None:
    try:
        played_search = playing_search()
        played_search(Position(15, 15, 0))
    except TypeError:  # compiled: mypyc's classes take no subclasses from Python; the pure build runs it
        pytest.skip("the compiled ThreatSearch cannot be subclassed")
    found = 0
    for rule in (0, 1):
        for seed in range(12):
            b = crowded(rule, 100 + seed, 30)
            quick, played = ThreatSearch(b), played_search(b)
            for depth, quiet in ((3, 0), (5, 0), (5, 1000)):
                line = quick.vct(depth, 600_000, 3000, 0, quiet)
                assert line == played.vct(depth, 600_000, 3000, 0, quiet), (rule, seed, depth, quiet)
                assert quick.nodes == played.nodes and quick.stopped == played.stopped
                if line is not None:
                    assert replays(b, line)
                    found += 1
                vcf = quick.vcf(12, 600_000, 3000)
                assert vcf == played.vcf(12, 600_000, 3000) and quick.nodes == played.nodes
    assert found > 0
