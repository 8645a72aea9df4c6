"""Game-agnostic alpha-beta search.

Iterative deepening over a principal-variation search with aspiration windows, a transposition
table, quiescence search, null-move pruning, late move reductions, check extensions, a four-slot
killer queue per ply, a counter-move table, a history table and MVV-LVA capture ordering, with the
captures the game calls losing (a negative capture order) tried after the quiet moves and left out
of quiescence, quiet checks (:meth:`SearchPosition.quiet_checks`) tried at the first ply of
quiescence, and quiet moves the game says lose their piece skipped in the last three plies of
non-PV nodes. The game supplies moves, make
and unmake, evaluation and its rules through :class:`engine_core.game.SearchPosition`.

The searcher is driven from a protocol thread: ``stop`` and ``ponderhit`` only set fields that the
search reads, so a command is honoured within one node (the time check yields the interpreter
lock every few thousand nodes, which keeps the protocol thread responsive when compiled).
"""

import gc
import math
import time
from typing import Callable, Final, Optional

# Native 64-bit ints for the order keys: compiled, an ``int`` is tagged (each use checks whether it is
# boxed), an ``i64`` a plain machine word. The history, counter-move and played-move tables are
# ``vec[i64]`` (librt, mypyc's runtime library): compiled, an entry is read and written unboxed.
from librt.vecs import vec
from mypy_extensions import i64

from engine_core.game import LOSING_CAPTURE, MATE, MATE_BOUND, NO_SCORE, NativeMoves, SearchPosition
from engine_core.tt import EXACT, LOWER, UPPER, TransTable, entry_bound, entry_depth, entry_move, entry_score, score_from_tt

INF: Final = MATE + 1
MAX_PLY: Final = 128
KILLER_SLOTS: Final = 4
CHECK_EVERY: Final = 255  # nodes between clock checks (a bit mask): a few ms even on a loaded machine
YIELD_EVERY: Final = 1023  # nodes between yields of the interpreter lock: sleep(0) costs a scheduler round
TT_MOVE_ORDER: Final = 1 << 30
CAPTURE_ORDER: Final = 1 << 28
KILLER_ORDER: Final = 1 << 26
COUNTER_ORDER: Final = KILLER_ORDER
QUIET_FLOOR: Final = 1 << 17  # quiet moves order above this; losing captures below it
REDUCTION_ROWS: Final = 64  # the reductions' table is by depth and move number, each below this
ORDER_SHIFT: Final = 20  # move numbers are below 2**20; order keys pack (priority << ORDER_SHIFT) | move
# A node's order keys stay in its ply's native vector and are picked from it one at a time (pick), never boxed or
# sorted as a list: sorted lists of boxed ints, then of floats, cost more (callgrind, docs/results/xiangqi.md).
MOVE_MASK: Final = (1 << ORDER_SHIFT) - 1
NO_LINE: Final[list[int]] = []  # a node's line until it has one: shared, as lines are never changed once made
UNSETTLED_DROP: Final = 20  # a score this much below the last iteration's unsettles the search (see Limits)


def killer_rank(killers: list[int], move: int) -> int:
    """KILLER_SLOTS for the newest killer down to 1 for the oldest, 0 for any other move.

    A loop of int compares, not ``in``/``index``: compiled, these stay native (a list search does not).

    >>> killer_rank([7, 5, 0, 0], 5), killer_rank([7, 5, 0, 0], 9)
    (3, 0)
    """
    for slot in range(KILLER_SLOTS):
        if killers[slot] == move:
            return KILLER_SLOTS - slot
    return 0


def pick(keys: vec[i64], n: i64, count: i64) -> i64:
    """The best of the keys ``keys[n:count]``, swapped into ``keys[n]``: taken for n = 0, 1, ... in turn, the keys
    in the order a sort from the best would give them (they differ in their move bits), each found when needed.

    >>> keys = vec[i64]([4, 9, 1, 7])
    >>> [pick(keys, n, 4) for n in range(4)]
    [9, 7, 4, 1]
    """
    best: i64 = n
    top: i64 = keys[n]
    i: i64
    for i in range(n + 1, count):
        if keys[i] > top:
            top = keys[i]
            best = i
    keys[best] = keys[n]
    keys[n] = top
    return top


class Limits:
    """What bounds one search. Times are milliseconds; 0 means no such bound."""

    def __init__(self) -> None:
        self.depth = 0
        self.nodes = 0
        self.soft_ms = 0
        self.hard_ms = 0
        # The soft limit instead while the root is unsettled: its best move changed, or its score fell
        # by UNSETTLED_DROP, in the last iteration from depth 5 on. 0: soft_ms throughout.
        self.unsettled_ms = 0
        self.infinite = False
        self.ponder = False
        self.multipv = 1
        self.root_moves: list[int] = []  # restrict the root to these (UCI searchmoves)
        self.banned: list[int] = []  # never play these (UCCI banmoves)


class Line:
    """One reported root line."""

    def __init__(self, move: int, score: int, pv: list[int]) -> None:
        self.move = move
        self.score = score
        self.pv = pv


# report(depth, seldepth, multipv index, score, nodes, elapsed ms, pv)
Reporter = Callable[[int, int, int, int, int, int, list[int]], None]


def _silent(depth: int, seldepth: int, index: int, score: int, nodes: int, ms: int, pv: list[int]) -> None:
    return None


# Each search parameter (SearchParams) by name, with the least value that makes sense (a null-move divisor of 0 would divide
# by zero, a window or reductions' divisor of 0 never let a search finish).
PARAM_FLOORS: Final[dict[str, float]] = {"aspiration": 1, "futility": 0, "null_base": 0, "null_divisor": 1,
                                         "lmr_base": 0, "lmr_divisor": 0.25, "check_see": 0}


class SearchParams:
    """The search's margins, which a game may set (xiangqi reads a trial's from ``SANQI_SEARCH``, ucci_engine/engine.py);
    the defaults are every game's values. Trials of each: docs/results/xiangqi.md."""

    def __init__(self, aspiration: int = 35, futility: int = 70, null_base: int = 2, null_divisor: int = 4,
                 lmr_base: float = 0.6, lmr_divisor: float = 2.0, check_see: int = 0) -> None:
        self.aspiration = aspiration  # the root's first window, each side of the last score; widened 3 times on a fail
        self.futility = futility  # a ply's margin for futility and reverse futility, at depth 1 to 3
        self.null_base = null_base  # null move searches depth - 1 - (null_base + depth // null_divisor)
        self.null_divisor = null_divisor
        self.lmr_base = lmr_base  # a late move is reduced int(lmr_base + ln(depth) * ln(move number) / lmr_divisor)
        self.lmr_divisor = lmr_divisor
        # 1: a check is extended a ply only when its exchange does not lose material (the game's quiet_loses or
        # capture_loses, asked of the board before the move); 0: every check is extended a ply.
        self.check_see = check_see

    def reductions(self) -> vec[i64]:
        """The late move reductions, ``REDUCTION_ROWS`` by ``REDUCTION_ROWS``, at ``depth * REDUCTION_ROWS + move``.

        >>> table = SearchParams().reductions()
        >>> table[3 * REDUCTION_ROWS + 4], table[10 * REDUCTION_ROWS + 30]
        (1, 4)
        """
        return vec[i64]([int(self.lmr_base + math.log(max(d, 1)) * math.log(max(m, 1)) / self.lmr_divisor)
                         for d in range(REDUCTION_ROWS) for m in range(REDUCTION_ROWS)])

    def changed(self, text: str) -> "SearchParams":
        """These parameters with those ``text`` names changed: ``name=value`` words, separated by commas or spaces.

        >>> SearchParams().changed("futility=90, lmr_divisor=1.75").describe()
        'aspiration=35 futility=90 null_base=2 null_divisor=4 lmr_base=0.6 lmr_divisor=1.75 check_see=0'
        >>> SearchParams().changed("futile=90")
        Traceback (most recent call last):
        ...
        ValueError: no search parameter 'futile' (aspiration, futility, null_base, null_divisor, lmr_base, lmr_divisor, check_see)
        >>> SearchParams().changed("null_divisor=0")
        Traceback (most recent call last):
        ...
        ValueError: null_divisor must be a whole number from 1 up, not '0'
        """
        values = {name: float(getattr(self, name)) for name in PARAM_FLOORS}
        for word in text.replace(",", " ").split():
            name, _, value = word.partition("=")
            if name not in PARAM_FLOORS:
                raise ValueError(f"no search parameter {name!r} ({', '.join(PARAM_FLOORS)})")
            whole = name not in ("lmr_base", "lmr_divisor")
            try:
                number = int(value) if whole else float(value)
            except ValueError:
                number = -1
            if not PARAM_FLOORS[name] <= number < 1000:
                raise ValueError(f"{name} must be a{' whole' if whole else ''} number from {PARAM_FLOORS[name]} up, not {value!r}")
            values[name] = number
        return SearchParams(int(values["aspiration"]), int(values["futility"]), int(values["null_base"]),
                            int(values["null_divisor"]), values["lmr_base"], values["lmr_divisor"],
                            int(values["check_see"]))

    def describe(self) -> str:
        return " ".join(f"{name}={getattr(self, name)}" for name in PARAM_FLOORS)


class Searcher:
    def __init__(self, tt: TransTable, params: Optional[SearchParams] = None) -> None:
        self.tt = tt
        self.params = params if params is not None else SearchParams()
        # The parameters the tree reads as native fields: compiled, one load each, as the constants they replaced.
        self.aspiration: i64 = self.params.aspiration
        self.futility: i64 = self.params.futility
        self.null_base: i64 = self.params.null_base
        self.null_divisor: i64 = self.params.null_divisor
        self.reductions = self.params.reductions()
        self.check_see: bool = self.params.check_see != 0
        self.nodes = 0
        self.seldepth = 0
        self.stopped = False
        self.pondering = False
        self.limits = Limits()
        self.start = 0.0
        self.killers: list[list[int]] = [[0] * KILLER_SLOTS for _ in range(MAX_PLY + 2)]
        self.history = vec[i64]()
        self.counters = vec[i64]()  # the quiet move that last refuted each move
        self.late: list[int] = []  # the game's late move counts (SearchPosition.late_moves)
        self.played = vec[i64]([0] * (MAX_PLY + 2))  # the move made at each ply of the current line
        self.keys = [vec[i64]() for _ in range(MAX_PLY + 2)]  # each ply's order keys (Searcher._order), reused
        # The moves and orders of the node being ordered (Searcher._moves): a NativeMoves position's own vectors, or
        # the other positions' lists copied to ``unboxed``.
        self.native: Optional[NativeMoves] = None
        self.found = vec[i64]()
        self.orders = vec[i64]()
        self.unboxed = [vec[i64](), vec[i64]()]
        self.quiets = [vec[i64]() for _ in range(MAX_PLY + 2)]  # each ply's quiet moves searched so far, reused
        self.pv: list[list[int]] = [[] for _ in range(MAX_PLY + 2)]
        self.report: Reporter = _silent

    # --- control from the protocol thread -------------------------------------------------

    def stop(self) -> None:
        self.stopped = True

    def ponderhit(self) -> None:
        """The opponent played the expected move: the clock starts now."""
        self.start = time.perf_counter()
        self.pondering = False

    def elapsed_ms(self) -> int:
        return int((time.perf_counter() - self.start) * 1000)

    # --- iterative deepening ----------------------------------------------------------------

    def think(self, pos: SearchPosition, limits: Limits, report: Optional[Reporter] = None) -> list[Line]:
        """Search ``pos`` within ``limits``; the best lines, best first (empty when no legal move)."""
        collecting = gc.isenabled()
        # The search makes no reference cycles, and the collector's passes over its many short-lived
        # lists cost several percent of the node rate.
        gc.disable()
        try:
            return self._deepen(pos, limits, report)
        finally:
            if collecting:
                gc.enable()

    def _deepen(self, pos: SearchPosition, limits: Limits, report: Optional[Reporter]) -> list[Line]:
        self.limits = limits
        self.report = report if report is not None else _silent
        self.start = time.perf_counter()
        self.nodes = 0
        self.seldepth = 0
        self.stopped = False
        self.pondering = limits.ponder
        self.tt.new_search()
        self.late = pos.late_moves()
        self.native = pos if isinstance(pos, NativeMoves) else None
        self.killers = [[0] * KILLER_SLOTS for _ in range(MAX_PLY + 2)]
        if len(self.history) != pos.move_limit():
            self.history = vec[i64]([0] * pos.move_limit())
            self.counters = vec[i64]([0] * pos.move_limit())
        else:
            self.history = vec[i64]([h // 8 for h in self.history])
        roots = self._root_moves(pos, limits)
        if not roots:
            return []
        lines = [Line(m, -INF, [m]) for m in roots]
        max_depth = limits.depth if limits.depth > 0 else MAX_PLY
        multipv = max(1, min(limits.multipv, len(roots)))
        last_move = 0
        last_score = -INF
        unsettled = False
        for depth in range(1, max_depth + 1):
            for index in range(multipv):
                rest = lines[index:]
                score = self._aspire(pos, rest, depth)
                lines[index:] = rest
                if self.stopped and depth > 1:
                    break
                self.report(depth, self.seldepth, index + 1, score, self.nodes, self.elapsed_ms(), rest[0].pv)
            if self.stopped and depth > 1:
                break
            best = lines[0].score
            if depth >= 5:
                unsettled = lines[0].move != last_move or best < last_score - UNSETTLED_DROP
            last_move = lines[0].move
            last_score = best
            if len(roots) == 1 and not limits.infinite and not self.pondering and depth >= 4:
                break
            if abs(best) > MATE_BOUND and depth > MATE - abs(best) + 2 and not limits.infinite:
                break
            if self._soft_timeout(unsettled):
                break
        return lines

    def _root_moves(self, pos: SearchPosition, limits: Limits) -> list[int]:
        moves: list[int] = []
        for m in pos.moves():
            if m in limits.banned or (limits.root_moves and m not in limits.root_moves):
                continue
            if pos.make(m):
                pos.unmake()
                moves.append(m)
        return moves

    def _aspire(self, pos: SearchPosition, lines: list[Line], depth: int) -> int:
        """Search the root with a window around the previous score, widening until it holds."""
        prev = lines[0].score
        delta = self.aspiration
        if depth >= 4 and abs(prev) < MATE_BOUND:
            alpha, beta = prev - delta, prev + delta
        else:
            alpha, beta = -INF, INF
        while True:
            score = self._root(pos, lines, depth, alpha, beta)
            if self.stopped or alpha < score < beta:
                return score
            if score <= alpha:
                alpha = max(-INF, alpha - delta)
            else:
                beta = min(INF, beta + delta)
            delta *= 3

    def _root(self, pos: SearchPosition, lines: list[Line], depth: int, alpha: int, beta: int) -> int:
        """One pass over the root moves; a move that raises alpha goes to the front of ``lines``."""
        best = -INF
        floor = alpha
        for i in range(len(lines)):
            line = lines[i]
            m = line.move
            pos.make(m)
            self.nodes += 1
            self.played[0] = m
            new_depth = depth - 1 + (1 if pos.in_check() else 0)
            if i == 0:
                score = -self.search(pos, -beta, -alpha, new_depth, 1, True)
            else:
                score = -self.search(pos, -alpha - 1, -alpha, new_depth, 1, True)
                if alpha < score < beta and not self.stopped:
                    score = -self.search(pos, -beta, -alpha, new_depth, 1, True)
            pos.unmake()
            if self.stopped:
                break
            if score > best:
                best = score
            if score > alpha or i == 0:
                line.score = score
                line.pv = [m] + self.pv[1]
                lines.insert(0, lines.pop(i))
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        if not self.stopped:
            top = lines[0]
            bound = LOWER if best >= beta else (EXACT if best > floor else UPPER)
            self.tt.store(pos.key(), depth, bound, best, top.move, 0)
        return best

    # --- the tree --------------------------------------------------------------------------

    def _check_clock(self) -> None:
        if (self.nodes & YIELD_EVERY) == 0:
            time.sleep(0)  # hand the interpreter lock to the protocol thread (compiled code never does)
        lim = self.limits
        if lim.nodes and self.nodes >= lim.nodes:
            self.stopped = True
        elif lim.hard_ms and not self.pondering and not lim.infinite and self.elapsed_ms() >= lim.hard_ms:
            self.stopped = True

    def _soft_timeout(self, unsettled: bool) -> bool:
        lim = self.limits
        if self.stopped or (lim.nodes and self.nodes >= lim.nodes):
            return True
        if lim.infinite or self.pondering or not lim.soft_ms:
            return False
        soft = lim.unsettled_ms if unsettled and lim.unsettled_ms else lim.soft_ms
        # An iteration takes a few times the last one: don't start what can't finish.
        return self.elapsed_ms() * 2 >= soft

    # The window, depth, ply and scores of the tree as native ints (search, quiesce, _reward): compiled, an ``int`` is
    # tagged, each sum and comparison a check for a boxed value first.
    def search(self, pos: SearchPosition, alpha: i64, beta: i64, depth: i64, ply: i64, null_ok: bool) -> i64:
        if self.stopped:
            return 0
        if (self.nodes & CHECK_EVERY) == 0:
            self._check_clock()
        self.pv[ply] = NO_LINE
        ruled = pos.rule_score(ply)
        if ruled != NO_SCORE:
            return ruled
        if ply >= MAX_PLY:
            return pos.evaluate()
        # Mate distance pruning: no line from here beats a mate already found nearer the root.
        if alpha < -MATE + ply:
            alpha = -MATE + ply
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        in_check = pos.in_check()
        if depth <= 0 and not in_check:
            return self.quiesce(pos, alpha, beta, ply, True)
        if depth < 0:
            depth = 0
        pv_node = beta - alpha > 1
        key = pos.key()
        tt_move: i64 = 0
        score: i64
        entry = self.tt.probe(key)
        if entry >= 0:
            tt_move = entry_move(entry)
            if not pv_node and entry_depth(entry) >= depth:
                score = score_from_tt(entry_score(entry), ply)
                bound = entry_bound(entry)
                if bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha):
                    return score
        static: i64 = NO_SCORE
        r: i64
        if not pv_node and not in_check and -MATE_BOUND < beta < MATE_BOUND:  # no abs(): compiled, a generic call
            static = pos.evaluate()
            # Reverse futility: so far above beta that a shallow search will not bring it back.
            if depth <= 3 and static - self.futility * depth >= beta:
                return static
        if static != NO_SCORE and null_ok and depth >= 2 and pos.null_ok():
            if static >= beta:
                pos.make_null()
                self.played[ply] = 0
                r = self.null_base + depth // self.null_divisor
                score = -self.search(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, False)
                pos.unmake_null()
                if self.stopped:
                    return 0
                if score >= beta:
                    return beta if score > MATE_BOUND else score

        if pv_node and tt_move == 0 and depth >= 5:
            # Internal iterative deepening: a shallow search finds a first move worth trying first.
            self.search(pos, alpha, beta, depth - 2, ply, null_ok)
            if self.stopped:
                return 0
            entry = self.tt.probe(key)
            if entry >= 0:
                tt_move = entry_move(entry)
        counter = self.counters[self.played[ply - 1]]
        count = self._moves(pos, False)
        # Every key is made now, before the first move's subtree changes the history, into the ply's
        # native buffer; the best is known from making them, each next one is picked when its turn
        # comes (:func:`pick`), so most nodes, which end with their first move, compare none.
        first = self._order(count, tt_move, ply, counter)
        keys = self.keys[ply]
        # Futility: near the leaves, quiet moves cannot lift a hopeless static score above alpha.
        futile = static != NO_SCORE and depth <= 2 and static + self.futility * depth <= alpha
        best: i64 = -INF
        best_move: i64 = 0
        legal: i64 = 0
        old_alpha = alpha
        # The quiet moves searched (their history falls when another cuts off): in the ply's native buffer, where a
        # list of its own each node boxed each move and was made and freed.
        quiets = self._room(self.quiets, ply, count)
        tried: i64 = 0
        for n in range(count):
            packed: i64
            if n == 0:
                packed = keys[first]
                keys[first] = keys[0]
                keys[0] = packed
            else:
                packed = pick(keys, n, count)
            m = packed & MOVE_MASK
            prio = packed >> ORDER_SHIFT
            if prio == TT_MOVE_ORDER:
                quiet = pos.capture_order(m) == 0
            else:
                quiet = QUIET_FLOOR <= prio < CAPTURE_ORDER
            late = prio < CAPTURE_ORDER and prio != TT_MOVE_ORDER
            # Asked before the move is made: the exchange is read on the board it starts from.
            hangs = (late and quiet and not pv_node and not in_check and not futile and depth <= 3
                     and 0 < legal < self.late[depth] and pos.quiet_loses(m))
            if late and legal > 0 and (futile or hangs or (not pv_node and depth <= 3 and legal >= self.late[depth])):
                # Pruned unless it gives check: judged without being made, but counted as a node
                # and a legal move all the same, as if it had been made and taken back.
                verdict = pos.peek(m)
                if verdict < 0:
                    continue
                if verdict == 0:
                    self.nodes += 1
                    legal += 1
                    continue
            if not pos.make(m):
                continue
            self.nodes += 1
            self.played[ply] = m
            legal += 1
            gives_check = pos.in_check()
            extend = gives_check
            if gives_check and self.check_see:
                # The exchange is judged on the board before the move: taken back, asked, made again.
                pos.unmake()
                extend = not (pos.quiet_loses(m) if quiet else pos.capture_loses(m))
                pos.make(m)
            new_depth = depth if extend else depth - 1
            if legal == 1:
                score = -self.search(pos, -beta, -alpha, new_depth, ply + 1, True)
            else:
                r = 0
                if depth >= 3 and legal > 3 and late and not in_check and not gives_check:
                    r = self.reductions[(depth if depth < REDUCTION_ROWS else REDUCTION_ROWS - 1) * REDUCTION_ROWS
                                        + (legal if legal < REDUCTION_ROWS else REDUCTION_ROWS - 1)]
                    if pv_node or prio >= KILLER_ORDER:
                        r -= 1
                    elif prio < QUIET_FLOOR:
                        r += 1
                    if r > new_depth - 1:
                        r = new_depth - 1
                score = -self.search(pos, -alpha - 1, -alpha, new_depth - r, ply + 1, True)
                if score > alpha and r > 0:
                    score = -self.search(pos, -alpha - 1, -alpha, new_depth, ply + 1, True)
                if alpha < score < beta:
                    score = -self.search(pos, -beta, -alpha, new_depth, ply + 1, True)
            pos.unmake()
            if self.stopped:
                return 0
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if pv_node:
                        self.pv[ply] = [m] + self.pv[ply + 1]
                    if score >= beta:
                        if quiet:
                            self._reward(m, ply, depth, quiets, tried)
                        break
            if quiet:
                quiets[tried] = m
                tried += 1
        if legal == 0:
            return pos.no_move_score(ply)
        bound = LOWER if best >= beta else (EXACT if best > old_alpha else UPPER)
        self.tt.store(key, depth, bound, best, best_move, ply)
        return best

    def _reward(self, move: i64, ply: i64, depth: i64, quiets: vec[i64], tried: i64) -> None:
        self.counters[self.played[ply - 1]] = move
        killers = self.killers[ply]
        if killers[0] != move:
            if move in killers:
                killers.remove(move)
            else:
                killers.pop()
            killers.insert(0, move)
        bonus = depth * depth
        history = self.history
        history[move] += bonus
        i: i64
        for i in range(tried):
            history[quiets[i]] -= bonus
        if history[move] > 1 << 24:
            self.history = vec[i64]([h // 2 for h in history])

    def _room(self, buffers: list[vec[i64]], ply: i64, count: i64) -> vec[i64]:
        """The buffer of ``ply`` in ``buffers`` (``self.keys`` or ``self.quiets``, reused; ``self.unboxed``'s moves 0 and
        orders 1), with room for ``count`` entries."""
        buffer = buffers[ply]
        if len(buffer) < count:
            buffer = vec[i64]([0] * (2 * count))
            buffers[ply] = buffer
        return buffer

    def _moves(self, pos: SearchPosition, noisy: bool) -> i64:
        """How many moves ``pos`` has (noisy: :meth:`SearchPosition.noisy_moves`, else ``moves``), now the first entries
        of ``self.found``, their orders (``noisy_orders``, else ``capture_orders``) those of ``self.orders``."""
        native = self.native
        if native is not None:
            count = native.native_moves(noisy)
            self.found = native.found
            self.orders = native.orders
            return count
        moves = pos.noisy_moves() if noisy else pos.moves()
        orders = pos.noisy_orders(moves) if noisy else pos.capture_orders(moves)
        found = self._room(self.unboxed, 0, len(moves))
        ordered = self._room(self.unboxed, 1, len(moves))
        i: i64
        m: i64
        c: i64
        for i, (m, c) in enumerate(zip(moves, orders)):
            found[i] = m
            ordered[i] = c
        self.found = found
        self.orders = ordered
        return len(moves)

    def _order(self, count: i64, tt_move: i64, ply: i64, counter: i64) -> i64:
        """Write the order key of each of the ``count`` moves of ``self.found``, its priority in the high bits (see
        ORDER_SHIFT), to ``self.keys[ply]`` and return where the best is (0 without moves): the hash move, winning and
        even captures (``self.orders``: :meth:`SearchPosition.capture_orders`), killers, the counter move, quiet moves
        by history, losing captures."""
        killers = self.killers[ply]
        # The KILLER_SLOTS killers by name: native ints to compare each quiet move with (killer_rank only for a hit).
        # As i64, like the hash and counter moves, each is unboxed once a call, not once a move: the search 0.9 %
        # fewer instructions (callgrind, bench positions to depth 7).
        newest: i64
        second: i64
        third: i64
        oldest: i64
        newest, second, third, oldest = killers
        history = self.history
        found = self.found
        orders = self.orders
        keys = self._room(self.keys, ply, count)
        top: i64 = 0  # the best key so far, and where
        at: i64 = 0
        i: i64
        p: i64
        for i in range(count):
            m = found[i]
            c = orders[i]
            if m == tt_move:
                p = TT_MOVE_ORDER
            elif c > 0:
                p = CAPTURE_ORDER + c
            elif c < 0:
                p = c + LOSING_CAPTURE
            elif m == newest or m == second or m == third or m == oldest:
                p = KILLER_ORDER + killer_rank(killers, m)
            elif m == counter:
                p = COUNTER_ORDER
            else:
                p = history[m] + KILLER_ORDER // 2
                if p < QUIET_FLOOR:
                    p = QUIET_FLOOR
                elif p >= COUNTER_ORDER:
                    p = COUNTER_ORDER - 1
            key: i64 = (p << ORDER_SHIFT) | m
            if key > top or i == 0:
                top = key
                at = i
            keys[i] = key
        return at

    def quiesce(self, pos: SearchPosition, alpha: i64, beta: i64, ply: i64, checks: bool) -> i64:
        """Captures that do not lose material, all moves in check, and at the first ply (``checks``)
        the quiet moves that give check: in xiangqi a quiet check is as forcing as a capture."""
        if self.stopped:
            return 0
        if (self.nodes & CHECK_EVERY) == 0:
            self._check_clock()
        if ply > self.seldepth:
            self.seldepth = ply
        ruled = pos.rule_score(ply)
        if ruled != NO_SCORE:
            return ruled
        in_check = pos.in_check()
        if ply >= MAX_PLY:
            return pos.evaluate()
        best: i64 = -INF
        if not in_check:
            best = pos.evaluate()
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        # In check every evasion counts, a losing capture last; else those are skipped when reached.
        generated = self._moves(pos, not in_check)
        found = self.found
        orders = self.orders
        # The keys go to the ply's native buffer, as in search, and each move is picked from it when its
        # turn comes (:func:`pick`): no list is made and sorted, and a node that cuts off or runs out
        # early compares only what it needs.
        keys = self._room(self.keys, ply, generated)
        count: i64 = 0
        m: i64
        c: i64
        key: i64
        i: i64
        for i in range(generated):
            m = found[i]
            c = orders[i]
            if c >= 0:
                key = (c << ORDER_SHIFT) | m
            elif in_check:
                key = m
            else:
                continue
            keys[count] = key
            count += 1
        # The quiet checks are generated only once the captures have failed to cut off, and tried in
        # the order they come.
        checks = checks and not in_check
        extra: list[int] = NO_LINE
        judge = not in_check
        legal: i64 = 0
        n: i64 = 0
        while True:
            if n < count:
                # Picked one at a time: a few captures each, and most nodes stop after one or two.
                m = pick(keys, n, count) & MOVE_MASK
            else:
                if n == count:
                    if not checks:
                        break
                    extra = pos.quiet_checks()
                    judge = False
                if n - count >= len(extra):
                    break
                m = extra[n - count]
            n += 1
            if judge and pos.capture_loses(m):
                continue
            if not pos.make(m):
                continue
            self.nodes += 1
            legal += 1
            score = -self.quiesce(pos, -beta, -alpha, ply + 1, False)
            pos.unmake()
            if self.stopped:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        return best
        if in_check and legal == 0:
            return pos.no_move_score(ply)
        return best
