"""Choosing a move: forced replies, VCF, threat defence, VCT, alpha-beta on the shared search,
and a last check of the chosen move against the opponent's threats.

:meth:`Brain.think` runs in the protocol's worker thread. Every phase is given a deadline that its
own clock checks keep (the threat search looks every 32 nodes, the alpha-beta every 256: a few
milliseconds), and :meth:`Brain.stop` ends the running phase and skips the rest. Whatever happens,
a legal move is always ready: the one-ply pattern choice is computed first and only replaced by
something better.

A threat check has three outcomes, and only a finished one counts: a move is *lost* (the
opponent's threat search found a win after it), *safe* (the search ended without one) or
*unsure* (the clock cut the search short). Refuted moves take about a millisecond and sound
ones a full proof, so the checks run in rounds of growing slices (:meth:`Brain._judge`): the
cheap verdicts come first and the rest of the time goes to the moves still open.

With ``thread_num`` 2 or more (:meth:`Brain.set_threads`) our root VCT leaves this process: a
worker process (:class:`VctWorker`, one of :mod:`engine_core.pool`'s, started at the first move
and kept) searches it up to the move's soft target while this one runs the defence checks and the
alpha-beta with the whole move; a win the worker proves is played. With 1 the search is as it was.
"""

import time
from typing import Callable, Optional

from engine_core.game import MATE, MATE_BOUND
from engine_core.pool import Pool
from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from gomoku_protocol.position import STYLES, Position
from gomoku_protocol.threats import MEMO_LIMIT, ThreatSearch

Say = Callable[[str], None]

DEFAULT_HASH_MB = 32
MAX_HASH_MB = 256  # what INFO hash_size may ask for: a Python table much bigger only wastes memory
PROCESS_BASE_MB = 48  # interpreter, the 8 MB line-shape table and search stacks, measured at about 33 MB
# A threat memo's failure: three machine words a slot of an open hash table kept at most half full,
# so 48-96 bytes (96 just after a doubling); wins, 7 % of the entries, add their lines. Measured
# compiled on 28 November 2026: 64 bytes a failure at 200,000 in one memo, and 75 bytes of the
# process's RSS an entry (69 in the vectors) over the 1.37 M entries the 26 positions of
# tests/tools/gomoku_tss_nodes.py leave at VCT depth 12 and 200,000 nodes.
ENTRY_BYTES = 96

AHEAD = 150  # the last search's score from which our VCT gets two thirds of a quiet move, not a third
VCT_DEPTH = 9  # our VCT's depth at the root, in threats (the wins of the 15x15 study took 7 and 9)
VCT_LEAP_FROM = 3  # beyond this depth our root VCT deepens two threats at a time (threats.deepening)
# Nodes an iteration of our root VCT may spend below quiet threats (threats.vct's quiet): off. At
# 5,000 the brain did not score above main's at 0.5 s a move (28 November 2026, docs/results/gomoku.md).
QUIET_NODES = 0
# The second process's root VCT: it has the whole move, so the clock ends it, not the depth (iterations
# 11, 13 and 15 past the 9 a third of a move reaches).
WORKER_VCT_DEPTH = 15
# How long before the hard limit the brain stops waiting for a worker past its deadline (the soft target):
# on time it answers within a few ms of it (clock checks every 32 nodes, the pipe), but a process that
# the machine's load starves answers later (3 of 20 turns at 1 s had none by the soft target plus 20 ms,
# a machine loaded by other work, 29 November).
WORKER_LATE_MS = 20
MAX_THREADS = 64  # what INFO thread_num may say; past 2 the brain still uses two processes (one task to give away)
# Where the opponent threatened, the moves the checks proved safe at depth 6 can be checked again to a
# greater depth with the time left, the best first (Brain._deeper; 0 turns it off). On 20x20 at 1 s a turn
# it scored 15/40 against AIWine where main scored 11/40 on the same games, and 81/140 against main:
# +55 [+10, +102] Elo by pairs, SPRT(0, 40) LLR 2.53 (29 November 2026, docs/results/gomoku.md).
DEEP_CHECK = 12
# Against a VCT threat our own three points are defence candidates too (Brain._defences; False: not). Rapfi's
# move where we lost to AIWine on 20x20 was such an open three of ours in 4 of the 12 losses to a VCT threat,
# which the set lacked. On, it scored 18/40 against AIWine where main scored 12/40 on the same games, +15.0 ± 16.3
# points a hundred games: inside the margin, so off (29 November 2026, docs/results/gomoku.md).
COUNTER_THREES = False
SAFE, UNSURE, LOST = 0, 1, 2  # a threat check's verdict on one of our moves (see the module's note)
FIRST_SLICE_MS = 4  # the first round's slice: refuted defences took about 1 ms in the 20x20 study
SLICE_GROWTH = 4  # each round gives the moves still open this many times the last slice
Verdicts = dict[int, int]
# What the worker is given: width, height, rule, the brain's epoch, the stones and their colours, the
# side to move, the style, the deadline, the node limit and the memo limit.
Task = tuple[int, int, int, int, list[int], list[int], int, str, float, int, int]


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


def one_ply(board: Position) -> int:
    """The best of the search's candidate moves by the one-ply pattern score; -1 if none."""
    return best_by_pattern(board, board.moves())


def best_by_pattern(board: Position, candidates: list[int]) -> int:
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


class SearchAnswer:
    """A finished search's answer: the move (-1 none), its score, the depth searched, the principal
    variation and how it was found ("five", "vcf", "alpha-beta", …)."""

    def __init__(self, move: int, score: int, depth: int, pv: list[int], how: str) -> None:
        self.move = move
        self.score = score
        self.depth = depth
        self.pv = pv
        self.how = how


class VctWorker:
    """The worker process's side of :meth:`Brain._ask_worker`: our VCT in the position a task names,
    until the task's deadline (a ``time.perf_counter()`` time: the monotonic clock, the same in every
    process). Its threat memos are kept from move to move while the board's size, rule and the
    brain's clearings (``epoch``) stay the same, as the engine process keeps its own."""

    def __init__(self) -> None:
        self.ts: Optional[ThreatSearch] = None
        self.game: tuple[int, int, int, int] = (0, 0, 0, -1)

    def __call__(self, task: Task) -> tuple[Optional[list[int]], int]:
        width, height, rule, epoch, history, colors, side, style, deadline, nodes, memo_limit = task
        board = Position(width, height, rule)
        for m, c in zip(history, colors):
            board.play(m, c)
        board.side = side
        board.set_style(*STYLES.get(style, STYLES["balanced"]))
        game = (width, height, rule, epoch)
        if self.ts is None or game != self.game:
            self.ts, self.game = ThreatSearch(board), game
        ts = self.ts
        ts.board = board
        ts.memo_limit = memo_limit
        ms = int((deadline - time.perf_counter()) * 1000)
        if ms <= 0:  # the task waited behind the last one past its move
            return None, 0
        return ts.vct(WORKER_VCT_DEPTH, ms, nodes, VCT_LEAP_FROM, QUIET_NODES), ts.nodes


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
        self._tried: dict[int, int] = {}  # the longest threat check each root move had (key: move * 2 + VCT)
        self.lead = (-1, 0)  # (stones on the board at our next move, the score our last search expected there)
        self.deep_check = DEEP_CHECK  # the depth of Brain._deeper's checks; 0: none
        self.counter_threes = COUNTER_THREES  # our three points among the defences against a VCT
        self.threads = 1  # INFO thread_num: 2 or more gives our root VCT to a worker process
        self.pool: Optional[Pool] = None  # that worker, from the first move that uses it
        self.epoch = 0  # counts the clearings of the tables: the worker's go with them

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
        fresh.threads, fresh.pool, fresh.epoch = self.threads, self.pool, self.epoch + 1
        return fresh

    def set_threads(self, threads: int) -> None:
        """Use a worker process from the next move on when ``threads`` is 2 or more; with 1 end it."""
        if (threads > 1) != (self.threads > 1):
            self.close()
        self.threads = threads

    def close(self) -> None:
        """End the worker process (not while :meth:`think` runs: see :meth:`kill`)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def kill(self) -> None:
        """End the worker process at once, even while :meth:`think` runs (END, YXSTOP, the end of input)."""
        if self.pool is not None:
            self.pool.kill()

    def clear(self) -> None:
        self.epoch += 1
        self.lead = (-1, 0)
        self.tt.clear()
        if self.threats is not None:
            self.threats.clear()

    def stop(self) -> None:
        """Answer now (YXSTOP, END; thread-safe: sets flags the searches poll, and kills the worker,
        which polls nothing of ours and would search on to its deadline: a GUI's analysis has minutes,
        and the next move's task would wait behind it; the next move starts a new one)."""
        self.user_stop = True
        self.halt()
        self.kill()

    def halt(self) -> None:
        """End the current phase of thinking (the clock's deadline or :meth:`stop`)."""
        self._stop = True
        self.searcher.stop()
        if self.threats is not None:
            self.threats.stop()

    def _threats_for(self, board: Position) -> ThreatSearch:
        if self.threats is None or self.threats.board is not board:
            self.threats = ThreatSearch(board)
            self.threats.memo_limit = self.memo_limit
        return self.threats

    def think(self, board: Position, soft_ms: int, hard_ms: int, say: Say, multipv: int = 1) -> SearchAnswer:
        """Pick a move for the side to move within ``hard_ms``; ``say`` gets progress lines."""
        start = time.perf_counter()
        self._stop = False
        self.user_stop = False
        self.last_lines = []
        self._tried = {}
        attack, defence = STYLES.get(self.style, STYLES["balanced"])
        board.set_style(attack, defence)
        fallback = one_ply(board)
        if fallback < 0:
            return SearchAnswer(-1, 0, 0, [], "none")
        s = board.side
        if board.fives[s]:
            m = min(board.fives[s])
            return SearchAnswer(m, MATE - 1, 1, [m], "five")
        if hard_ms <= 0 or (board.fives[3 - s] and multipv == 1):
            return SearchAnswer(fallback, 0, 1, [fallback], "forced" if board.fives[3 - s] else "instant")
        if multipv > 1:
            return self._alpha_beta(board, soft_ms, hard_ms, say, multipv, start, fallback, [])
        return self._search(board, soft_ms, hard_ms, say, start, fallback)

    def _left(self, start: float, hard_ms: int) -> int:
        return hard_ms - int((time.perf_counter() - start) * 1000)

    def _search(self, board: Position, soft_ms: int, hard_ms: int, say: Say, start: float, fallback: int) -> SearchAnswer:
        # The hard limit is for threatened moves (engine_core.timeman); until a threat is seen, and
        # for quiet moves throughout, the phases share a third more than the soft target (at 1 s a
        # move that is the hard limit: the shares below were measured there).
        quiet_ms = min(hard_ms, soft_ms * 4 // 3)
        ts = self._threats_for(board)
        line = ts.vcf(40, max(1, min(quiet_ms // 5, 2000)), self.max_nodes)
        if line:
            return _won(board, line, "vcf", say)
        if self._stop:
            return SearchAnswer(fallback, 0, 0, [fallback], "stopped")
        until = self._ask_worker(board, start, soft_ms)
        vct = False
        threat = self._opponent_threat(board, ts, False, max(1, self._left(start, quiet_ms) // 8))
        if threat is None and not self._stop:
            # Our threes only matter when the opponent has no fours to win with first. Where the
            # last search saw us well ahead, the win is the VCT's to find (in the 15x15 draws
            # against Pela we led for dozens of moves; the wins there took 50,000-210,000 nodes,
            # a third of a move about 35,000), so it gets two thirds; a worker has the whole move.
            if not until:
                ahead = self.lead[0] == board.stones and self.lead[1] >= AHEAD
                share = self._left(start, quiet_ms) * (2 if ahead else 1) // 3
                line = ts.vct(
                    VCT_DEPTH, max(1, share if ahead else min(share, soft_ms)), self.max_nodes, VCT_LEAP_FROM, QUIET_NODES
                )
                if line:
                    return _won(board, line, "vct", say)
            vct = True
            if not self._stop:
                threat = self._opponent_threat(board, ts, True, max(1, self._left(start, quiet_ms) // 8))
        answer = self._choose(board, ts, threat, vct, soft_ms, hard_ms, quiet_ms, say, start, fallback)
        if until and vct:  # the worker's win counts where ours did: when the opponent had no VCF
            last = start + hard_ms / 1000.0
            line = self._worker_win(board, min(last, max(until, last - WORKER_LATE_MS / 1000.0)), say)
            if line:
                return _won(board, line, "vct", say, "second process")
        return answer

    def _ask_worker(self, board: Position, start: float, soft_ms: int) -> float:
        """Give our root VCT to the worker process until the move's soft target, which this returns
        (a ``time.perf_counter()`` time); 0.0 with one process."""
        if self.threads < 2:
            return 0.0
        if self.pool is not None and not self.pool.alive():  # killed by a stop
            self.close()
        if self.pool is None:
            self.pool = Pool(1, VctWorker)
        until = start + soft_ms / 1000.0
        self.pool.submit([(board.width, board.height, board.rule, self.epoch, list(board.history), list(board.colors),
                           board.side, self.style, until, self.max_nodes, self.memo_limit)])
        return until

    def _worker_win(self, board: Position, until: float, say: Say) -> Optional[list[int]]:
        """The worker's winning line for the side to move, waited for until ``until`` (after a stop,
        only an answer already there); None if it found none in its time."""
        assert self.pool is not None
        got = self.pool.collect(time.perf_counter() + 0.001 if self.user_stop else until)
        if not got or got[0] is None:
            say("second process: no answer in time")
            return None
        line, nodes = got[0]
        say(f"second process: VCT {'won' if line else 'not found'} in {nodes} nodes")
        return line if line and board.legal(line[0], board.side) else None

    def _choose(
        self, board: Position, ts: ThreatSearch, threat: Optional[list[int]], vct: bool, soft_ms: int, hard_ms: int,
        quiet_ms: int, say: Say, start: float, fallback: int,
    ) -> SearchAnswer:
        """The defences against ``threat`` (the opponent's line, if any; a VCT one when ``vct``),
        the alpha-beta among them and the check of its move."""
        if self._stop:
            return SearchAnswer(fallback, 0, 0, [fallback], "stopped")
        roots: list[int] = []
        verdicts: Verdicts = {}  # our moves judged against the opponent's VCT (and VCF)
        limit_ms = quiet_ms
        if threat is not None:
            limit_ms = hard_ms
            # Two thirds of what is left: a defence the clock could not prove is how most games were
            # lost (13.7 % against Pela with this, 5.9 % with a third; see docs/gomoku.md).
            deadline = start + (hard_ms - self._left(start, hard_ms) // 3) / 1000.0
            roots = self._defences(board, ts, threat, vct, deadline, verdicts, say)
            if len(roots) == 1:
                return SearchAnswer(roots[0], 0, 1, roots, "only defence")
        # A quarter of the time is kept to check the chosen move against the opponent's threats.
        reserve = max(0, self._left(start, limit_ms)) // 4
        if self._stop:  # a stop between phases: the next phase would clear the search's flag
            return SearchAnswer(roots[0] if roots else fallback, 0, 0, roots[:1] or [fallback], "stopped")
        result = self._alpha_beta(board, soft_ms, limit_ms - reserve, say, 1, start, fallback, roots)
        self.lead = (board.stones + 2, result.score)
        if self.user_stop or abs(result.score) > MATE_BOUND or len(self.root_lines) < 2:
            return result
        self._stop = False
        safe = self._verify(board, ts, start + limit_ms / 1000.0, threat is not None, verdicts, say)
        if safe >= 0 and safe != result.move:
            return SearchAnswer(safe, 0, result.depth, [safe], "alpha-beta, checked")
        return result

    def _verify(self, board: Position, ts: ThreatSearch, deadline: float, strict: bool, verdicts: Verdicts, say: Say) -> int:
        """The first of the search's best root moves after which the opponent has no VCF or VCT;
        -1 if every one of them loses.

        Where the opponent had a threat (``strict``) a move the clock did not let us decide is
        played only when no move is decided safe, and the checks run in growing rounds until the
        best undecided move is decided or the time is gone. In a quiet position each move in turn
        gets all the time left and the first not found losing is played.
        """
        candidates = self.root_lines[:5]
        if strict:
            def done(v: Verdicts) -> bool:
                return _first(candidates, v, (SAFE, UNSURE, -1)) in (-1, _first(candidates, v, (SAFE,)))
        else:
            def done(v: Verdicts) -> bool:
                m = _first(candidates, v, (SAFE, UNSURE, -1))
                return m < 0 or m in v
        self._judge(board, ts, candidates, True, deadline, verdicts, done, strict)
        for m in candidates:
            if verdicts.get(m) == LOST:
                say(f"{board.name(m)} loses to the opponent's threats")
        if strict:
            safe = _first(candidates, verdicts, (SAFE,))
            if safe >= 0:
                return self._deeper(board, ts, candidates, safe, deadline, verdicts, say) if self.deep_check else safe
        return _first(candidates, verdicts, (SAFE, UNSURE, -1))

    def _deeper(self, board: Position, ts: ThreatSearch, candidates: list[int], first: int, deadline: float,
                verdicts: Verdicts, say: Say) -> int:
        """From ``first``, the first of ``candidates`` proven safe at the checks' depth, on, the first (not lost, not
        left undecided) after which the opponent's VCT to ``deep_check`` finds no win by ``deadline``;
        if the clock ends that first, the best not found lost; if every one loses, the first proven safe.

        Where the opponent threatened, the time the checks leave goes here: against AIWine on 20x20 the
        move that lost most games was a defence proven at depth 6 that lost to a deeper VCT (our search
        finds some in 20,000-470,000 nodes) while another defence held (docs/results/gomoku.md)."""
        for m in candidates[candidates.index(first):]:
            if verdicts.get(m, SAFE) != SAFE:
                continue
            ms = int((deadline - time.perf_counter()) * 1000)
            if ms <= 0 or self._stop or not board.make(m):
                break
            four = bool(board.fives[3 - board.side])  # a four only delays: its check proves nothing
            line = None if four else ts.vct(self.deep_check, ms, self.max_nodes, VCT_LEAP_FROM)
            cut = four or ts.stopped
            board.unmake()
            if line is not None:
                verdicts[m] = LOST
                say(f"{board.name(m)} loses to the opponent's VCT of {len(line)} plies")
            elif not cut or m in verdicts:
                return m
        kept = _first(candidates, verdicts, (SAFE, UNSURE, -1))
        return kept if kept >= 0 else first

    def _judge(
        self, board: Position, ts: ThreatSearch, moves: list[int], vct: bool, deadline: float, verdicts: Verdicts,
        done: Callable[[Verdicts], bool], growing: bool = True,
    ) -> None:
        """Fill ``verdicts`` for ``moves``: whether the opponent wins after each (by a VCF, or with
        ``vct`` by a VCT too). Moves already decided are not searched again. With ``growing`` each
        round gives every undecided move a slice four times the last (never more than an even share
        of the time left), else each move in turn all the time left: a refutation comes in a few
        milliseconds and gives the rest to the next move, and the best move's check gets what it
        needs (an even share, about 40 ms, let through moves refuted in 30,000-100,000 nodes in the
        15x15 losses to Pela). Ends when ``done`` says so, every move
        is decided, or at ``deadline`` (moves not reached stay out of ``verdicts``); without
        ``growing``, or under a node limit, after one round."""
        slice_ms = FIRST_SLICE_MS
        growing = growing and not self.max_nodes  # a node limit would cut every round at the same point
        while not done(verdicts):
            open_moves = [m for m in moves if verdicts.get(m, UNSURE) == UNSURE]
            if not open_moves:
                return
            for n, m in enumerate(open_moves):
                key = m * 2 + vct
                if growing and self._tried.get(key, 0) >= slice_ms:
                    continue  # an earlier check (of the defences, say) already gave it this much
                left_ms = int((deadline - time.perf_counter()) * 1000)
                if left_ms <= 0 or self._stop:
                    return
                share = max(1, left_ms // (len(open_moves) - n))
                ms = min(slice_ms, share) if growing else left_ms
                self._tried[key] = max(ms, self._tried.get(key, 0))
                verdicts[m] = self._after(board, ts, m, vct, ms)
                if done(verdicts):
                    return
            if not growing:
                return
            slice_ms *= SLICE_GROWTH

    def _after(self, board: Position, ts: ThreatSearch, move: int, vct: bool, ms: int) -> int:
        """The verdict on ``move`` from a threat search of ``ms``: a third for the VCF, the rest
        for the VCT."""
        if not board.make(move):
            return LOST  # renju: a forbidden point is no move at all
        t0 = time.perf_counter()
        line = ts.vcf(30, max(1, ms // 3) if vct else ms, self.max_nodes)
        if line is None and vct and not ts.stopped:
            line = ts.vct(6, max(1, ms - int((time.perf_counter() - t0) * 1000)), self.max_nodes)
        # After our four the opponent's threat search only blocks and stops: a four that merely
        # delays came out "safe" in 6 nodes (game 2 of the study), so its verdict proves nothing.
        four = vct and bool(board.fives[3 - board.side])
        board.unmake()
        if line is not None:
            return LOST
        return UNSURE if ts.stopped or four else SAFE

    def _opponent_threat(self, board: Position, ts: ThreatSearch, vct: bool, ms: int) -> Optional[list[int]]:
        """The opponent's winning line if it could move now (a VCF, or with ``vct`` a VCT)."""
        board.make_null()
        line = ts.vct(6, ms, self.max_nodes) if vct else ts.vcf(30, ms, self.max_nodes)
        board.unmake_null()
        return line

    def _defences(
        self, board: Position, ts: ThreatSearch, threat: list[int], vct: bool, deadline: float, verdicts: Verdicts, say: Say
    ) -> list[int]:
        """The moves that may stop the opponent's ``threat``; empty means "don't restrict".

        Candidates are the points of the threat line, our fours, and the opponent's four and
        three points, and (``counter_threes``) against a VCT our three points too (an open three of ours
        answers one: the opponent's next three lets us make an open four first; a VCF's fours leave no such time). A
        candidate after which the opponent still wins is dropped. A counter-three not lost is always
        kept but proves nothing (it may only delay: the opponent blocks it and threatens again), so it
        never makes a block give way. Against a VCF
        the candidates are judged against fours, then those that hold are checked against a VCT,
        and a VCT found drops the move (a VCF seen first hid the opponent's VCT in 2 of the study's
        5 threat losses); "proven" stays "proven against fours" (few proofs against a VCT fit). Proven
        defences are preferred; without any, the ones the clock did not let us decide are kept.
        If every candidate fails, the game is probably lost and the full search gets every move
        to find the most stubborn one.
        """
        s = board.side
        o = 3 - s
        pool = set(threat) | board.fours(s) | board.fours(o) | board.threes(o)
        counters = board.threes(s) - pool if vct and self.counter_threes else set()
        candidates = [m for m in board.ordered(list(pool | counters), s) if board.cells[m] == 0]
        fours: Verdicts = verdicts if vct else {}
        self._judge(board, ts, candidates, vct, deadline, fours, _never)
        kept = [m for m in candidates if fours.get(m, UNSURE) != LOST]
        if not vct:
            # Against a VCT too, where the fours could not win: only a VCT refutation drops a move.
            # A third of the defence time at most: a refutation comes in 20-220 ms (the study's
            # positions), a proof rarely fits, and run to the deadline this starved the alpha-beta
            # (10/40 against Pela at 1 s on 20x20; with the third, 16/40; the base had 14/40).
            holding = [m for m in kept if fours.get(m) == SAFE]
            now = time.perf_counter()
            self._judge(board, ts, holding, True, now + max(0.0, deadline - now) / 3, verdicts, _never)
            if any(verdicts.get(m, UNSURE) != LOST for m in holding):
                kept = [m for m in kept if verdicts.get(m, UNSURE) != LOST]
        proven = [m for m in kept if fours.get(m) == SAFE and m not in counters]
        unsure = [m for m in kept if m not in proven and m not in counters]
        countering = [m for m in kept if m in counters]
        kind = "VCT" if vct else "VCF"
        shown = " ".join(board.name(m) for m in threat[:7])
        say(f"opponent threatens a {kind} ({shown}); defences {' '.join(board.name(m) for m in proven)}"
            f"{' unsure ' + ' '.join(board.name(m) for m in unsure) if unsure else ''}"
            f"{' counter-threes ' + ' '.join(board.name(m) for m in countering) if countering else ''}")
        return (proven if proven else unsure) + countering

    def _alpha_beta(
        self, board: Position, soft_ms: int, hard_ms: int, say: Say, multipv: int, start: float, fallback: int, roots: list[int]
    ) -> SearchAnswer:
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
            return SearchAnswer(fallback, 0, 0, [fallback], "one-ply")
        top = lines[0]
        self.last_lines = [ln.move for ln in lines[:multipv]]
        self.root_lines = [ln.move for ln in lines]
        return SearchAnswer(top.move, top.score, self.last_depth, top.pv, "alpha-beta")


def _won(board: Position, line: list[int], how: str, say: Say, where: str = "") -> SearchAnswer:
    """Our proven win: ``line``, found by ``how`` ("vcf", "vct")."""
    say(f"depth {len(line)} score mate {len(line)} pv {' '.join(board.name(m) for m in line)} ({how.upper()}"
        f"{', ' + where if where else ''})")
    return SearchAnswer(line[0], MATE - len(line), len(line), line, how)


def _never(verdicts: Verdicts) -> bool:
    return False


def _first(moves: list[int], verdicts: Verdicts, kinds: tuple[int, ...]) -> int:
    """The first of ``moves`` whose verdict is one of ``kinds`` (-1 there: not judged); -1 if none."""
    for m in moves:
        if verdicts.get(m, -1) in kinds:
            return m
    return -1
