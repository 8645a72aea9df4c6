"""Transposition table: two flat lists (keys and packed entries), sized in megabytes.

An entry packs move (24 bits), depth (8), bound (2) and score (17) into one int, so a probe is
two list reads. Mate scores are stored relative to the node, not the root.
"""

from typing import Final

from engine_core.game import MATE_BOUND

EXACT: Final = 3
LOWER: Final = 2  # score >= stored (fail high)
UPPER: Final = 1  # score <= stored (fail low)

_MOVE_MASK: Final = (1 << 24) - 1
_SCORE_OFFSET: Final = 1 << 16
_BYTES_PER_ENTRY: Final = 88  # two list slots plus two boxed ints on 64-bit CPython


def score_to_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def score_from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


def entry_move(entry: int) -> int:
    return entry & _MOVE_MASK


def entry_depth(entry: int) -> int:
    return (entry >> 24) & 255


def entry_bound(entry: int) -> int:
    return (entry >> 32) & 3


def entry_score(entry: int) -> int:
    return (entry >> 34) - _SCORE_OFFSET


class TransTable:
    """A power-of-two table of entries; ``megabytes`` bounds its memory."""

    def __init__(self, megabytes: int = 16) -> None:
        self.size = 1
        self.mask = 0
        self.keys: list[int] = [0]
        self.data: list[int] = [0]
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        entries = max(1, megabytes) * (1 << 20) // _BYTES_PER_ENTRY
        size = 1
        while size * 2 <= entries:
            size *= 2
        self.size = size
        self.mask = size - 1
        self.clear()

    def clear(self) -> None:
        self.keys = [0] * self.size
        self.data = [0] * self.size

    def probe(self, key: int) -> int:
        """The packed entry for ``key``, or -1."""
        i = key & self.mask
        if self.keys[i] == key:
            return self.data[i]
        return -1

    def store(self, key: int, depth: int, bound: int, score: int, move: int, ply: int) -> None:
        i = key & self.mask
        if self.keys[i] == key and bound != EXACT and entry_depth(self.data[i]) > depth:
            return
        if depth < 0:
            depth = 0
        self.keys[i] = key
        self.data[i] = (
            (move & _MOVE_MASK)
            | (min(depth, 255) << 24)
            | (bound << 32)
            | ((score_to_tt(score, ply) + _SCORE_OFFSET) << 34)
        )

    def hashfull(self) -> int:
        """Permille of the first thousand slots in use (UCI ``hashfull``)."""
        sample = min(1000, self.size)
        used = 0
        for i in range(sample):
            if self.keys[i] != 0:
                used += 1
        return used * 1000 // sample
