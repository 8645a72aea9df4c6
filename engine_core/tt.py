"""Transposition table: two flat vectors (keys and packed entries), sized in megabytes.

An entry packs move (24 bits), depth (8), bound (2), score (17) and the search that wrote it (8)
into one int, so a probe is a few reads of ``vec[i64]`` (librt, mypyc's runtime library): compiled, a key
is compared and an entry stored without boxing. Mate scores are stored relative to the node, not the
root. Slots come in pairs (buckets): a new key replaces the entry of its bucket worth less, an
entry of an earlier search before one of the current search, then the shallower. A single
always-replaced slot let the many shallow entries of a deep search wipe out the few deep ones that
save the most work: to depth 9 on the xiangqi bench positions it needed 25 % more nodes.
"""

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from engine_core.game import MATE_BOUND

EXACT: Final = 3
LOWER: Final = 2  # score >= stored (fail high)
UPPER: Final = 1  # score <= stored (fail low)

_MOVE_MASK: Final = (1 << 24) - 1
_SCORE_OFFSET: Final = 1 << 16
_SCORE_MASK: Final = (1 << 17) - 1
_AGE_SHIFT: Final = 51
_AGE_MASK: Final = 255
_BYTES_PER_ENTRY: Final = 88  # an entry (key and data) in lists of boxed ints; kept so tables and trees stay the same (in vectors: 16)


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
    return ((entry >> 34) & _SCORE_MASK) - _SCORE_OFFSET


class TransTable:
    """A power-of-two table of entries in buckets of two; ``megabytes`` bounds its memory."""

    def __init__(self, megabytes: int = 16) -> None:
        self.size = 2
        # Native ints: compiled, probe and store mask and compare the keys (below 2^63: their vector holds them) unboxed.
        self.mask: i64 = 0  # the first slot of a key's bucket is ``key & mask`` (always even)
        self.age: i64 = 0  # the current search, as stored in its entries (see :meth:`new_search`)
        self.keys = vec[i64]([0, 0])
        self.data = vec[i64]([0, 0])
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        entries = max(1, megabytes) * (1 << 20) // _BYTES_PER_ENTRY
        size = 2
        while size * 2 <= entries:
            size *= 2
        self.size = size
        self.mask = size - 2
        self.clear()

    def new_search(self) -> None:
        """Entries written before this are no longer kept for their depth alone."""
        self.age = (self.age + 1) & _AGE_MASK

    def clear(self) -> None:
        self.keys = vec[i64]([0] * self.size)
        self.data = vec[i64]([0] * self.size)

    def probe(self, key: int) -> int:
        """The packed entry for ``key``, or -1."""
        k: i64 = key
        i = k & self.mask
        keys = self.keys
        if keys[i] == k:
            return self.data[i]
        if keys[i + 1] == k:
            return self.data[i + 1]
        return -1

    def store(self, key: int, depth: int, bound: int, score: int, move: int, ply: int) -> None:
        k: i64 = key
        i = k & self.mask
        keys = self.keys
        data = self.data
        if depth < 0:
            depth = 0
        if keys[i] != k and (keys[i + 1] == k or self._worth(data[i + 1]) < self._worth(data[i])):
            i += 1
        if keys[i] == k and bound != EXACT and entry_depth(data[i]) > depth:
            return
        keys[i] = k
        # The fields as native ints: compiled, shifts and ors of ``int`` are calls that check for overflow.
        entry: i64 = move & _MOVE_MASK
        deep: i64 = min(depth, 255)
        kind: i64 = bound
        value: i64 = score_to_tt(score, ply) + _SCORE_OFFSET
        data[i] = entry | deep << 24 | kind << 32 | value << 34 | self.age << _AGE_SHIFT

    def _worth(self, entry: int) -> int:
        """How much keeping ``entry`` saves: any entry of this search more than one of an earlier
        search, then the deeper one."""
        return entry_depth(entry) + (256 if entry >> _AGE_SHIFT == self.age else 0)

    def hashfull(self) -> int:
        """Permille of the first thousand slots in use (UCI ``hashfull``)."""
        sample = min(1000, self.size)
        used = 0
        for i in range(sample):
            if self.keys[i] != 0:
                used += 1
        return used * 1000 // sample
