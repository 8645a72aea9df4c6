"""Choosing a move: forced replies, VCF, threat defence, VCT, alpha-beta on the shared search,
and a last check of the chosen move against the opponent's threats.

:meth:`Brain.think` runs in the protocol's worker thread; a watchdog thread ends each phase at its
deadline (and everything at the hard limit or on :meth:`Brain.stop`), so the answer never waits
for the search's own coarse clock checks. Whatever happens, a legal move is always ready: the
one-ply pattern choice is computed first and only replaced by something better.
"""

import threading
import time
from typing import Callable, Optional

from engine_core.game import MATE, MATE_BOUND
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from gomoku_protocol.position import STYLES, Board
from gomoku_protocol.threats import MEMO_LIMIT, ThreatSearch

Say = Callable[[str], None]

DEFAULT_HASH_MB = 32
MAX_HASH_MB = 256  # what INFO hash_size may ask for: a Python table much bigger only wastes memory
PROCESS_BASE_MB = 48  # interpreter, the 8 MB line-shape table and search stacks, measured at about 33 MB
ENTRY_BYTES = 100  # one dict entry of two ints, counted generously


def hash_megabytes(max_memory: int) -> int:
    """Transposition table size for a ``max_memory`` budget in bytes (0 = no limit).

    The table's entries grow in place as it fills, so it gets a third of what remains (the
    threat memos get another third).

    >>> hash_megabytes(0), hash_megabytes(350 * 2**20), hash_megabytes(58 * 2**20)
    (32, 32, 3)
    """
    if max_memory <= 0:
        return DEFAULT_HASH_MB
    spare = max_memory // (1 << 20) - PROCESS_BASE_MB
    return max(1, min(DEFAULT_HASH_MB, spare // 3))


def one_ply(board: Board) -> int:
    """The best of the search's candidate moves by the one-ply pattern score; -1 if none."""
    return best_by_pattern(board, board.moves())


def best_by_pattern(board: Board, candidates: list[int]) -> int:
    """The first legal candidate with the highest one-ply pattern score, else any legal point; -1 if none."""
    s = board.side
    best = -1
    best_score = -1
    for m in candidates:
        if not board.legal(m, s):
            continue
        score = board.order_score(m, s)
        if score > best_score:
            best, best_score = m, score
    if best < 0:
        for m in board.points:
            if board.legal(m, s):
                return m
    return best


class Result:
    def __init__(self, move: int, score: int, depth: int, pv: list[int], how: str) -> None:
        self.move = move
        self.score = score
        self.depth = depth
        self.pv = pv
        self.how = how


class _Watchdog(threading.Thread):
    """Stops the brain at its deadline, and keeps re-stopping: a search that starts after the
    deadline (or after YXSTOP) clears its own stop flag, so one signal would not be enough."""

    def __init__(self, brain: "Brain", deadline: float) -> None:
        super().__init__(name="gomoku-clock", daemon=True)
        self.brain = brain
        self.deadline = deadline
        self.done = False

    def run(self) -> None:
        while not self.done:
            if self.brain.user_stop or time.perf_counter() >= self.deadline:
                self.brain.halt()
            time.sleep(0.004)


class Brain:
    def __init__(self) -> None:
        self.hash_mb = DEFAULT_HASH_MB
        self.tt = TransTable(self.hash_mb)
        self.searcher = Searcher(self.tt)
        self.threats: Optional[ThreatSearch] = None
        self.max_depth = 0
        self.max_nodes = 0
        self.style = "balanced"
        self._stop = False
        self.user_stop = False
        self.memo_limit = MEMO_LIMIT
        self.last_lines: list[int] = []
        self.root_lines: list[int] = []  # every root move of the last search, best first
        self.last_depth = 0

    def set_memory(self, max_memory: int) -> None:
        """Fit the tables to ``max_memory`` bytes (0 = no limit): the transposition table and the
        threat searches' two memos each get at most a third of what the interpreter and the
        fixed line-shape table leave."""
        self.resize(hash_megabytes(max_memory))
        if max_memory > 0:
            third = max(1, max_memory - PROCESS_BASE_MB * (1 << 20)) // 3
            self.memo_limit = max(5000, min(MEMO_LIMIT, third // 2 // ENTRY_BYTES))
        else:
            self.memo_limit = MEMO_LIMIT
        if self.threats is not None:
            self.threats.memo_limit = self.memo_limit

    def resize(self, megabytes: int) -> None:
        megabytes = max(1, min(megabytes, MAX_HASH_MB))
        if megabytes != self.hash_mb:
            self.hash_mb = megabytes
            self.tt.resize(megabytes)

    def renewed(self) -> "Brain":
        """A brain with default tables and this one's settings (when these tables cannot be used)."""
        fresh = Brain()
        fresh.style, fresh.max_depth, fresh.max_nodes = self.style, self.max_depth, self.max_nodes
        return fresh

    def clear(self) -> None:
        self.tt.clear()
        if self.threats is not None:
            self.threats.clear()

    def stop(self) -> None:
        """Answer now (YXSTOP, END; thread-safe: only sets flags the searches poll)."""
        self.user_stop = True
        self.halt()

    def halt(self) -> None:
        """End the current phase of thinking (the clock's deadline or :meth:`stop`)."""
        self._stop = True
        self.searcher.stop()
        if self.threats is not None:
            self.threats.stop()

    def _threats_for(self, board: Board) -> ThreatSearch:
        if self.threats is None or self.threats.board is not board:
            self.threats = ThreatSearch(board)
            self.threats.memo_limit = self.memo_limit
        return self.threats

    def think(self, board: Board, soft_ms: int, hard_ms: int, say: Say, multipv: int = 1) -> Result:
        """Pick a move for the side to move within ``hard_ms``; ``say`` gets progress lines."""
        start = time.perf_counter()
        self._stop = False
        self.user_stop = False
        self.last_lines = []
        attack, defence = STYLES.get(self.style, STYLES["balanced"])
        board.set_style(attack, defence)
        fallback = one_ply(board)
        if fallback < 0:
            return Result(-1, 0, 0, [], "none")
        s = board.side
        if board.fives[s]:
            m = min(board.fives[s])
            return Result(m, MATE - 1, 1, [m], "five")
        if hard_ms <= 0 or (board.fives[3 - s] and multipv == 1):
            return Result(fallback, 0, 1, [fallback], "forced" if board.fives[3 - s] else "instant")
        dog = _Watchdog(self, start + hard_ms / 1000.0)
        dog.start()
        try:
            if multipv > 1:
                return self._alpha_beta(board, soft_ms, hard_ms, say, multipv, start, fallback, [])
            return self._search(board, soft_ms, hard_ms, say, start, fallback, dog)
        finally:
            dog.done = True
            dog.join()

    def _left(self, start: float, hard_ms: int) -> int:
        return hard_ms - int((time.perf_counter() - start) * 1000)

    def _search(self, board: Board, soft_ms: int, hard_ms: int, say: Say, start: float, fallback: int, dog: _Watchdog) -> Result:
        ts = self._threats_for(board)
        line = ts.vcf(40, max(1, min(hard_ms // 5, 2000)), self.max_nodes)
        if line:
            say(f"depth {len(line)} score mate {len(line)} pv {' '.join(board.name(m) for m in line)} (VCF)")
            return Result(line[0], MATE - len(line), len(line), line, "vcf")
        vct = False
        threat = self._opponent_threat(board, ts, False, max(1, self._left(start, hard_ms) // 8))
        if threat is None and not self._stop:
            # Our threes only matter when the opponent has no fours to win with first.
            left = self._left(start, hard_ms)
            line = ts.vct(8, max(1, min(left // 3, soft_ms)), self.max_nodes)
            if line:
                say(f"depth {len(line)} score mate {len(line)} pv {' '.join(board.name(m) for m in line)} (VCT)")
                return Result(line[0], MATE - len(line), len(line), line, "vct")
            vct = True
            threat = self._opponent_threat(board, ts, True, max(1, self._left(start, hard_ms) // 8))
        if self._stop:
            return Result(fallback, 0, 0, [fallback], "stopped")
        roots: list[int] = []
        if threat is not None:
            # Two thirds of what is left: a defence the clock could not prove is how most games were
            # lost (13.7 % against Pela with this, 5.9 % with a third; see docs/gomoku.md).
            roots = self._defences(board, ts, threat, vct, max(1, self._left(start, hard_ms) * 2 // 3), say)
            if len(roots) == 1:
                return Result(roots[0], 0, 1, roots, "only defence")
        # A quarter of the time is kept to check the chosen move against the opponent's threats.
        reserve = self._left(start, hard_ms) // 4
        final = dog.deadline
        dog.deadline = final - reserve / 1000.0
        result = self._alpha_beta(board, soft_ms, hard_ms - reserve, say, 1, start, fallback, roots)
        dog.deadline = final
        if self.user_stop or abs(result.score) > MATE_BOUND or len(self.root_lines) < 2:
            return result
        self._stop = False
        safe = self._verify(board, ts, final, say)
        if safe >= 0 and safe != result.move:
            return Result(safe, 0, result.depth, [safe], "alpha-beta, checked")
        return result

    def _verify(self, board: Board, ts: ThreatSearch, deadline: float, say: Say) -> int:
        """The first of the search's best root moves after which the opponent has no VCF or VCT
        (a check the clock cut short counts as passed); -1 if none passes in time."""
        candidates = self.root_lines[:5]
        for n, m in enumerate(candidates):
            now = time.perf_counter()
            if now >= deadline or self._stop:
                return -1
            slice_ms = max(1, int((deadline - now) * 1000) // (len(candidates) - n))
            if not board.make(m):
                continue
            threat = ts.vcf(30, max(1, slice_ms // 3), self.max_nodes)
            if threat is None and not ts.stopped:
                threat = ts.vct(6, max(1, slice_ms * 2 // 3), self.max_nodes)
            board.unmake()
            if threat is None:
                return m
            say(f"{board.name(m)} loses to {' '.join(board.name(t) for t in threat[:7])}")
        return -1

    def _opponent_threat(self, board: Board, ts: ThreatSearch, vct: bool, ms: int) -> Optional[list[int]]:
        """The opponent's winning line if it could move now (a VCF, or with ``vct`` a VCT)."""
        board.make_null()
        line = ts.vct(6, ms, self.max_nodes) if vct else ts.vcf(30, ms, self.max_nodes)
        board.unmake_null()
        return line

    def _defences(self, board: Board, ts: ThreatSearch, threat: list[int], vct: bool, ms: int, say: Say) -> list[int]:
        """The moves that may stop the opponent's ``threat``; empty means "don't restrict".

        Candidates are the points of the threat line, our fours, and the opponent's four and
        three points. A candidate after which the opponent still wins is dropped. Proven
        defences are preferred; without any, the ones the clock did not let us decide are kept.
        If every candidate fails, the game is probably lost and the full search gets every move
        to find the most stubborn one.
        """
        deadline = time.perf_counter() + ms / 1000.0
        s = board.side
        o = 3 - s
        pool = set(threat) | board.fours[s] | board.fours[o] | board.threes[o]
        candidates = [m for m in ts._ordered(list(pool), s) if board.cells[m] == 0]
        proven: list[int] = []
        unsure: list[int] = []
        left = len(candidates)
        for m in candidates:
            now = time.perf_counter()
            if now >= deadline or self._stop:
                unsure.append(m)
                continue
            slice_ms = max(1, int((deadline - now) * 1000) // left)
            left -= 1
            if not board.make(m):
                continue
            again = ts.vct(6, slice_ms, self.max_nodes) if vct else ts.vcf(30, slice_ms, self.max_nodes)
            timed_out = ts.stopped
            board.unmake()
            if again is None:
                (unsure if timed_out else proven).append(m)
        kind = "VCT" if vct else "VCF"
        shown = " ".join(board.name(m) for m in threat[:7])
        say(f"opponent threatens a {kind} ({shown}); defences {' '.join(board.name(m) for m in proven)}"
            f"{' unsure ' + ' '.join(board.name(m) for m in unsure) if unsure else ''}")
        return proven if proven else unsure

    def _alpha_beta(
        self, board: Board, soft_ms: int, hard_ms: int, say: Say, multipv: int, start: float, fallback: int, roots: list[int]
    ) -> Result:
        limits = Limits()
        board.restrict_root(roots)
        left = self._left(start, hard_ms)
        limits.soft_ms = max(1, min(soft_ms - (hard_ms - left), left))
        limits.hard_ms = max(1, left)
        limits.depth = self.max_depth
        limits.nodes = self.max_nodes
        limits.multipv = multipv

        def report(depth: int, seldepth: int, index: int, score: int, nodes: int, ms: int, pv: list[int]) -> None:
            self.last_depth = depth
            if abs(score) > MATE_BOUND:
                shown = f"mate {(MATE - abs(score) + 1) // 2 * (1 if score > 0 else -1)}"
            else:
                shown = str(score)
            nps = nodes * 1000 // max(1, ms)
            say(f"depth {depth} multipv {index} score {shown} nodes {nodes} nps {nps} pv {' '.join(board.name(m) for m in pv)}")

        self.last_depth = 0
        self.last_lines = []
        self.root_lines = []
        try:
            lines = self.searcher.think(board, limits, report)
        finally:
            board.restrict_root([])
        if not lines:
            return Result(fallback, 0, 0, [fallback], "one-ply")
        top = lines[0]
        self.last_lines = [ln.move for ln in lines[:multipv]]
        self.root_lines = [ln.move for ln in lines]
        return Result(top.move, top.score, self.last_depth, top.pv, "alpha-beta")
