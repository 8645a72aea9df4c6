"""Helper searches on other processes, sharing the main search's transposition table (lazy SMP).

With the ``threads`` option at N > 1, N - 1 worker processes (:class:`engine_core.pool.Pool`: forked
once, never outliving the engine) search the same root as the main search, each by its own iterative
deepening, until the main search ends. They answer nothing the protocol sees: what they add is what
they store in the one :class:`engine_core.tt.SharedTable`, which the main search probes, so it finds
cut-offs and moves there sooner. The main process keeps the protocol, its own search (the best move
and the info lines are the main search's), and its answer to ``stop``; the helpers are told to end
through a shared word the main process writes, which a thread in each helper reads every
:data:`WATCH` seconds (it also ends a helper's search once the main process is gone).
"""

import mmap
import os
import threading
import time
from typing import Any, Callable

from engine_core.game import SearchPosition
from engine_core.pool import Pool
from engine_core.search import Limits, Searcher
from engine_core.tt import SharedTable

WATCH = 0.002  # seconds between a helper's looks at the shared word
FINISH_WAIT = 2.0  # seconds the main search's thread waits for its helpers to end before it moves on

# A task names the search it is for, and what the game needs to set up its root: the game's
# ``prepare`` turns it, in the helper, into the position and the limits (with no time bound: the
# main search ends the helpers').
Prepare = Callable[[Any], tuple[SearchPosition, Limits]]


class Helpers:
    """``count`` helper processes sharing :attr:`table` (``megabytes``) with the main search."""

    def __init__(self, count: int, megabytes: int, prepare: Prepare) -> None:
        self.table = SharedTable(megabytes)
        self._word = mmap.mmap(-1, 8)
        self._running = memoryview(self._word).cast("q")  # the search the helpers are to run; 0: none
        self._search = 0
        self._prepare = prepare
        self.pool = Pool(count, self._handler)

    def _handler(self) -> Callable[[Any], int]:
        """In a helper: one searcher on the shared table for every task; a task's answer is its node count."""
        searcher = Searcher(self.table)
        parent = os.getppid()

        def run(message: tuple[int, Any]) -> int:
            search, task = message
            pos, limits = self._prepare(task)
            done = threading.Event()
            watcher = threading.Thread(target=self._watch, args=(searcher, search, parent, done), daemon=True)
            watcher.start()
            try:
                if self._running[0] == search:  # not already over before it started
                    searcher.think(pos, limits)
            finally:
                done.set()
                watcher.join()
            return searcher.nodes

        return run

    def _watch(self, searcher: Searcher, search: int, parent: int, done: threading.Event) -> None:
        while not done.wait(WATCH):
            if self._running[0] != search or os.getppid() != parent:
                searcher.stop()
                return

    def start(self, task: Any) -> None:
        """Set the helpers searching ``task`` (the main search starts on it now)."""
        self._search += 1
        self._running[0] = self._search
        self.pool.submit([(self._search, task)] * len(self.pool.conns))

    def finish(self) -> int:
        """End the helpers' searches (the main one has ended); the nodes they searched."""
        self._running[0] = 0
        return sum(n or 0 for n in self.pool.collect(time.perf_counter() + FINISH_WAIT))

    def close(self) -> None:
        self._running[0] = 0
        self.pool.close()
