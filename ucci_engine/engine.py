"""The xiangqi engine behind both dialects: game state, options, and one search at a time.

The protocol adapters parse commands into calls here and print what comes back; the search runs
in a worker thread so the adapters keep serving ``isready``, ``stop`` and ``ponderhit``. A call this
engine cannot do raises :class:`engine_core.loop.Refusal` saying why, before it changes anything (it
replaces a whole object only once it is checked), as every game's front object refuses.
"""

import os
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from engine_core.loop import Refusal, Worker
from engine_core.search import Limits, Line, SearchParams, Searcher
from engine_core.timeman import INCREMENT, MoveRequest, TimeManager
from engine_core.tt import TransTable, entry_bound, entry_depth, entry_move, entry_score, EXACT, LOWER, UPPER
from ucci_engine.book import Book
from ucci_engine.evaluate import STYLES, Network, load_network
from ucci_engine.perft import divide
from ucci_engine.position import BAN_SCORE, START_FEN, FenError, Position
from ucci_engine.tables import move_name, parse_move

RANDOMNESS = {"none": 0, "tiny": 4, "small": 10, "medium": 20, "large": 40, "huge": 80}
LEVEL_SCORE = 20  # |score| at or below this is "level": accept an offered draw
HOPELESS = BAN_SCORE  # resign when a loss by mate or by the repetition rules is seen
# The hash table's megabytes unless a GUI sets it: at 10 s + 0.1 s a move searches some 100,000 nodes,
# and the searches of a game to depth 8 need 15 % fewer nodes with 64 than with 16 (docs/results/xiangqi.md).
HASH_MB = 64
# The search's margins for xiangqi: the core's defaults, each tried again by SPRT for the node of 29 November 2026
# (docs/results/xiangqi.md), but a check is extended only when its exchange does not lose material (check_see: 17 %
# fewer nodes to depth 8, and at 2 s + 0.05 s ahead of extending every check, 29 November 2026). A trial sets one for
# one process with the environment variable, read once at start (``SANQI_SEARCH="futility=90"``): no GUI sees it, and
# a match gives it to one side only.
XIANGQI_SEARCH = SearchParams(check_see=1)
TRIAL_VARIABLE = "SANQI_SEARCH"


def search_params(trial: str) -> SearchParams:
    """XIANGQI_SEARCH with what ``trial`` (the variable's text) changes; a bad text is said on stderr and ignored."""
    if not trial.strip():
        return XIANGQI_SEARCH
    try:
        params = XIANGQI_SEARCH.changed(trial)
    except ValueError as exc:
        print(f"{TRIAL_VARIABLE} ignored: {exc}", file=sys.stderr, flush=True)
        return XIANGQI_SEARCH
    print(f"{TRIAL_VARIABLE}: {params.describe()}", file=sys.stderr, flush=True)
    return params


@dataclass
class GoRequest(MoveRequest):
    """A ``go`` command in milliseconds, whichever dialect it came from: the move's request, as the
    core's time manager reads it, and what only xiangqi's ``go`` asks."""

    infinite: bool = False
    draw_offered: bool = False
    static_only: bool = False  # UCCI ``go depth 0``
    searchmoves: list[str] = field(default_factory=list)  # UCI's, as named: the engine checks them when it starts thinking


class SearchAnswer:
    """A finished search's answer, what the ``bestmove`` line says: the move, the move to ponder on (0 none),
    its score, and whether to accept an offered draw or to resign."""

    def __init__(self, best: int, ponder: int, score: int, draw: bool, resign: bool) -> None:
        self.best = best
        self.ponder = ponder
        self.score = score
        self.draw = draw
        self.resign = resign


# report(depth, seldepth, multipv index, score, nodes, ms, pv names)
InfoSink = Callable[[int, int, int, int, int, int, list[str]], None]
DoneSink = Callable[[Optional[SearchAnswer]], None]


def shipped_network() -> Optional[Network]:
    """The shipped network, or None (the hand-made evaluation alone) when its file cannot be read."""
    try:
        return load_network()
    except (OSError, ValueError):
        return None


class Engine:
    def __init__(self, on_error: Optional[Callable[[str], None]] = None) -> None:
        """``on_error`` hears of an exception that ends a search or perft (the move is still handed over)."""
        self.tt = TransTable(HASH_MB)
        self.searcher = Searcher(self.tt, search_params(os.environ.get(TRIAL_VARIABLE, "")))
        self.worker = Worker(on_error)
        self.style = "normal"
        # The learned evaluation, on by default since 28 November 2026 (+47.5 [+11, +85] Elo over 250 games at
        # 10 s + 0.1 s against the hand-made one alone, docs/results/xiangqi.md; its SPRT stopped undecided at
        # LLR 2.53); None when UseNN is off or the file is unreadable.
        self.net: Optional[Network] = shipped_network()
        self.noise = 0
        self.skill = 20
        self.multipv = 1
        self.time = TimeManager(INCREMENT, 50)  # 50 ms of move overhead until the GUI sets it
        self._asked_in: tuple[str, list[str]] = ("", [])  # the game of the last go, for the lag its clock shows
        self.position = Position.from_fen(START_FEN, self.style, self.net)
        self.game: tuple[str, list[str]] = (START_FEN, [])  # how ``position`` was last given
        self.banned: list[int] = []
        self._halt = threading.Event()  # set to end a perft
        self._counting = False  # a perft is running
        self._lock = threading.Lock()
        self._hold = False  # a pondering or infinite search keeps its move until released
        self._finished: Optional[list[Line]] = None
        self._emitted = True
        self._done: DoneSink = lambda answer: None
        self._draw_offered = False
        self._rng = random.Random()
        self.book: Optional[Book] = None  # consulted before searching when usebook / OwnBook is on

    # --- options --------------------------------------------------------------------------

    def set_book(self, on: bool) -> None:
        self.book = Book.load() if on else None

    def set_hash(self, megabytes: int) -> None:
        self.stop_and_wait()
        self.tt.resize(max(1, min(megabytes, 4096)))

    def clear_hash(self) -> None:
        self.stop_and_wait()
        self.tt.clear()

    def set_style(self, style: str) -> None:
        if style not in STYLES:
            raise Refusal(f"style must be one of {', '.join(STYLES)}")
        self.style = style
        self.position.set_style(style)

    def set_network(self, on: bool) -> None:
        """Add the learned evaluation to the hand-made one (``on``) or not; refused when its file cannot be read."""
        self.stop_and_wait()
        net: Optional[Network] = None
        if on:
            try:
                net = load_network()
            except (OSError, ValueError) as exc:
                raise Refusal(f"the learned evaluation cannot be loaded: {exc}") from None
        self.net = net
        self.position.set_network(net)
        self.tt.clear()  # scores stored by the other evaluation

    def set_randomness(self, level: str) -> None:
        if level not in RANDOMNESS:
            raise Refusal(f"randomness must be one of {', '.join(RANDOMNESS)}")
        self.noise = RANDOMNESS[level]

    def set_multipv(self, lines: int) -> None:
        """How many best lines a search reports (UCI's MultiPV), clamped by the adapter."""
        self.multipv = lines

    def set_overhead(self, ms: int) -> None:
        """What a move's answer needs to reach the GUI (UCI's Move Overhead), kept off every time limit."""
        self.time.overhead = ms

    def set_skill(self, level: int) -> None:
        """UCI's Skill Level, 0 to 20: below 20 the search is shallower and its evaluation noisier."""
        self.skill = level

    # --- the game -------------------------------------------------------------------------

    def set_position(self, fen: str, moves: list[str]) -> None:
        """Set the game; a bad FEN or move is refused, the old position kept.

        A search under way keeps its own copy: the new position is for the next ``go``.
        """
        known_fen, known_moves = self.game
        if fen == known_fen and moves[: len(known_moves)] == known_moves:
            pos, todo = self.position.copy(), moves[len(known_moves) :]  # the game went on: play only the new moves
        else:
            try:
                pos, todo = Position.from_fen(fen, self.style, self.net), moves
            except FenError as exc:
                raise Refusal(f"bad FEN: {exc}; keeping the previous position") from None
        for text in todo:
            if not pos.push_name(text):
                raise Refusal(f"illegal move {text[:10]!r} in position {pos.fen()}; keeping the previous position")
        self.position = pos
        self.game = (fen, moves)
        self.banned = []

    def legal_named(self, what: str, names: list[str]) -> list[int]:
        """The moves ``names`` names, each legal in the position; refused, naming ``what``, if one is not."""
        legal = self.position.legal_moves()
        moves = []
        for text in names:
            m = parse_move(text)
            if m not in legal:
                raise Refusal(f"{what}: {text!r} is not a legal move here")
            moves.append(m)
        return moves

    def set_banned(self, names: list[str]) -> None:
        """UCCI's banmoves: moves the searches of this position never play."""
        self.banned = self.legal_named("banmoves", names)

    def perft(self, depth: int, send: Callable[[str], None]) -> None:
        """Count the moves ``depth`` plies deep in the background, as ``go perft`` prints them."""
        self.stop_and_wait()
        pos = self.position.copy()
        halt = threading.Event()

        def job() -> None:
            try:
                divide(pos, depth, halt, send)
            finally:
                with self._lock:
                    self._counting = False

        with self._lock:
            self._halt = halt
            self._counting = True
        self._launch(job)

    def _launch(self, job: Callable[[], None]) -> None:
        """Start ``job`` in the worker; if no thread can be started, the engine is idle again."""
        try:
            self.worker.start(job)
        except RuntimeError:
            with self._lock:
                self._emitted = True
                self._counting = False
            raise

    def static_eval(self) -> int:
        return self.position.evaluate()

    def diagram(self) -> str:
        """The current position drawn in text (``display``)."""
        return self.position.diagram()

    def red_to_move(self) -> bool:
        return self.position.side == 0

    def hashfull(self) -> int:
        """Per mille of the transposition table in use, as UCI's ``info hashfull``."""
        return self.tt.hashfull()

    def probe(self, fen: str, moves: list[str]) -> Optional[tuple[str, int, int, int]]:
        """The hash entry of a position as (best move, bound, score, depth), if stored."""
        try:
            pos = Position.from_fen(fen, self.style, self.net)
        except FenError:
            return None
        for text in moves:
            if not pos.push_name(text):
                return None
        entry = self.tt.probe(pos.key())
        if entry < 0:
            return None
        move = entry_move(entry)
        return (move_name(move) if move else "", entry_bound(entry), entry_score(entry), entry_depth(entry))

    # --- thinking ---------------------------------------------------------------------------

    def busy(self) -> bool:
        """Thinking, from ``go`` until the move is handed over (the thread may linger a moment after), or counting a perft."""
        with self._lock:
            return not self._emitted or self._counting

    def endless(self) -> bool:
        """Thinking with no end of its own: ``go infinite`` or pondering, which only a command stops."""
        return self.busy() and (self.searcher.limits.infinite or self.searcher.pondering)

    def wait(self) -> None:
        """Until the thinking thread has handed over its move."""
        self.worker.join()

    def limits_for(self, go: GoRequest) -> Limits:
        lim = Limits()
        lim.depth = go.depth
        lim.nodes = go.nodes
        lim.infinite = go.infinite
        lim.ponder = go.ponder
        lim.multipv = self.multipv
        lim.banned = self.banned
        if self.skill < 20:
            lim.depth = min(lim.depth or 99, 1 + self.skill // 3)
        lim.soft_ms, lim.hard_ms, lim.unsettled_ms = self.time.limits(go)
        if lim.hard_ms == 0 and go.depth == 0 and go.nodes == 0:
            lim.infinite = True  # no bound at all: think until stopped
        return lim

    def go(self, go: GoRequest, info: InfoSink, done: DoneSink, arrived: float = 0.0) -> None:
        """Start thinking on the ``go`` whose line arrived at ``arrived`` (a ``time.perf_counter()`` time,
        from which the GUI's clock runs; 0: now); ``done`` gets the answer once the search ends and is
        released. Refused, before anything changes, when a move of ``go.searchmoves`` is not legal here."""
        root_moves = self.legal_named("searchmoves", go.searchmoves)
        self.stop_and_wait()
        self.time.begin(go, arrived, self._continues())
        asked = self.time.arrived
        limits = self.limits_for(go)
        limits.root_moves = root_moves
        pos = self.position.copy()
        spare = pos.copy()  # for a move to play should the search itself fail
        pos.noise = max(self.noise, (20 - self.skill) * 6)
        pos.salt = self._rng.getrandbits(62)
        booked = 0
        if self.book is not None and not limits.infinite and not limits.root_moves:
            booked = self.book.pick(pos, self._rng, limits.banned)
        with self._lock:
            self._hold = limits.infinite or limits.ponder
            self._finished = None
            self._emitted = False
            self._done = done
            self._draw_offered = go.draw_offered

        def report(depth: int, seldepth: int, index: int, score: int, nodes: int, ms: int, pv: list[int]) -> None:
            info(depth, seldepth, index, score, nodes, ms, [move_name(m) for m in pv])

        def job() -> None:
            lines: list[Line] = []
            try:
                if booked:
                    lines = [Line(booked, 0, [booked])]
                else:
                    lines = self.searcher.think(pos, shortened(limits, asked), report)
            except Exception:
                lines = [Line(m, 0, [m]) for m in spare.legal_moves() if m not in limits.banned][:1]
                raise  # the worker reports it
            finally:
                with self._lock:
                    self._finished = lines
                    if not self._hold:
                        self._emit()

        self._launch(job)

    def _continues(self) -> bool:
        """Whether this go is in the game of the last one, two plies on (then the GUI's clock shows what
        our last answer lost on its way); the game is noted for the next go."""
        (fen, moves), (last_fen, last_moves) = self.game, self._asked_in
        self._asked_in = self.game
        return fen == last_fen and len(moves) == len(last_moves) + 2 and moves[: len(last_moves)] == last_moves

    def _emit(self) -> None:
        """Hand the answer to the protocol once (called with the lock held)."""
        if self._emitted or self._finished is None:
            return
        self._emitted = True
        self.time.answered()
        lines = self._finished
        if not lines:
            self._done(None)
            return
        top = lines[0]
        ponder = top.pv[1] if len(top.pv) > 1 else 0
        draw = self._draw_offered and abs(top.score) <= LEVEL_SCORE
        resign = top.score <= -HOPELESS
        self._done(SearchAnswer(top.move, ponder, top.score, draw, resign))

    def stop(self) -> bool:
        """Stop thinking and release the move, or end a perft; False when there was nothing to stop."""
        with self._lock:
            if self._counting:
                self._halt.set()
                return True
            if self._emitted:
                return False
            self.searcher.stop()
            self._hold = False
            self._emit()
        return True

    def ponderhit(self, draw_offered: bool) -> None:
        with self._lock:
            if self._emitted:
                return
            self._draw_offered = self._draw_offered or draw_offered
            self.searcher.ponderhit()
            self._hold = self.searcher.limits.infinite
            if not self._hold:
                self._emit()

    def stop_and_wait(self) -> None:
        self.stop()
        self.wait()


def shortened(limits: Limits, since: float) -> Limits:
    """``limits`` less the time that went by since ``since`` (the search's clock starts later than the GUI's)."""
    if limits.hard_ms and not limits.ponder:
        late = int((time.perf_counter() - since) * 1000)
        limits.hard_ms = max(1, limits.hard_ms - late)
        if limits.soft_ms:
            limits.soft_ms = max(1, min(limits.soft_ms - late, limits.hard_ms))
        if limits.unsettled_ms:
            limits.unsettled_ms = max(1, min(limits.unsettled_ms - late, limits.hard_ms))
    return limits


def bound_name(bound: int) -> str:
    return {EXACT: "exact", LOWER: "lowerbound", UPPER: "upperbound"}.get(bound, "")
