"""The gomoku engine behind the Gomocup adapter: the game, its clock, the brain's settings, and one
move choice at a time, swap2's included.

The adapter (:mod:`gomoku_protocol.protocol`) parses a command into a call here and prints what comes
back. Every call checks the whole command before it changes anything, and raises :class:`Refusal`
(:class:`NoGame` before ``START``) with the state as it was. A call that completes commits the game
(:class:`Committed`); should a command or a search break half-way on an unexpected exception, the
engine puts the game back as last committed (:meth:`Engine.recover`, by the core's one rule,
:func:`engine_core.loop.undone_on_failure`, as junqi's front does) before the failure reaches the
adapter, which has nothing to put back. A move is chosen in a worker thread, so that the adapter
serves ``YXSTOP`` and ``END`` while it thinks.
"""

import random
import time
import traceback
from typing import Callable, Final, Optional

from engine_core.loop import Front, Refusal, Worker, undone_on_failure
from engine_core.timeman import TURN, MoveRequest, TimeManager
from gomoku_protocol.brain import MAX_THREADS, Brain, SearchAnswer
from gomoku_protocol.process_age import process_age
from gomoku_protocol.position import MAX_SIZE, MIN_SIZE, STYLES, Position
from gomoku_protocol.rules import BLACK, EMPTY, NEUTRAL, WHITE

UNLIMITED: Final = 2147483647  # Gomocup's time_left of a game without a clock
DEFAULT_TURN_MS: Final = 5000  # when no manager says: a GUI user waits, a tournament always sends INFO
# The field of a stone in Gomocup's BOARD block (1, 2, 3), and swap2's bare x,y.
ORDERED: Final = 0  # coloured by its place in the block: black, white, black…
OWN: Final = 1
OPPONENT: Final = 2
WINNING_LINE: Final = 3  # a stone of a continuous game's finished five: neither side's (rules.NEUTRAL)
# Balanced three-stone swap2 openings (offsets from the centre, black, white, black).
SWAP2_OPENINGS: Final = [
    ((0, 0), (1, 0), (1, 3)), ((0, 0), (1, 1), (0, 3)), ((0, 0), (1, 0), (0, 3)),
    ((0, 0), (1, 1), (1, 3)), ((0, 0), (1, 0), (3, 0)), ((0, 0), (1, 1), (-1, 3)),
]
SWAP_MARGIN: Final = 40  # white must be this far behind (a shape or two) before we take black
BALANCED: Final = 40  # within this of even, three stones become five and the opponent chooses

# What a move request decided (:attr:`Decision.kind`).
MOVE: Final = "move"  # our stone (or, for YXNBEST, the one we would play)
NO_MOVE: Final = "no move"  # no legal point
SWAP: Final = "swap"  # swap2: we take black
TWO_STONES: Final = "two stones"  # swap2: a white and a black stone more, the opponent picks a colour

Point = tuple[int, int]
Stone = tuple[int, int, int]  # x, y and its BOARD field
Say = Callable[[str], None]


def moves_to_go(points: int, stones: int) -> int:
    """The most moves the side to move can still make on a board of ``points`` holding ``stones``:
    every other empty point, its own first.

    >>> moves_to_go(225, 0), moves_to_go(225, 219), moves_to_go(225, 224), moves_to_go(400, 0)
    (113, 3, 1, 200)
    """
    return (points - stones + 1) // 2


class NoGame(Refusal):
    """A command that needs a game before ``START`` gave one."""


class Committed:
    """The game as the last completed command left it: the rule, and the board's size, stones and
    side to move (no board before ``START``)."""

    def __init__(self, rule: int, position: Optional[Position]) -> None:
        self.rule = rule
        self.started = position is not None
        self.size = (position.width, position.height) if position is not None else (0, 0)
        self.moves = list(position.history) if position is not None else []
        self.colors = list(position.colors) if position is not None else []
        self.side = position.side if position is not None else BLACK

    def rebuilt(self) -> Optional[Position]:
        """A new position holding the committed stones (the live one may be half-way through a move)."""
        if not self.started:
            return None
        p = Position(self.size[0], self.size[1], self.rule)
        for m, c in zip(self.moves, self.colors):
            p.play(m, c)
        p.side = self.side
        return p


class Decision:
    """What a move request decided, for the adapter to print: its :attr:`kind`, the points it puts
    (``stones``), and the search behind it (``answer``, the principal variation's and the YXNBEST
    moves' names)."""

    def __init__(self, kind: str, answer: SearchAnswer, stones: list[Point], pv: list[str], nbest: list[str]) -> None:
        self.kind = kind
        self.answer = answer
        self.stones = stones
        self.pv = pv
        self.nbest = nbest


Done = Callable[[Decision], None]
Failed = Callable[[Exception], None]


class Engine(Front):
    """The game under the Gomocup protocol: its position, rule and clock, the brain and its settings.
    Each operation marked :func:`undone_on_failure` puts the game back should it fail half-way."""

    def __init__(self, log: Callable[[str], None]) -> None:
        """``log`` hears what goes wrong while the engine puts itself back after a failure."""
        self.log = log
        self.brain = Brain()
        self.worker = Worker()
        self.position: Optional[Position] = None
        self.rule = 0
        self.committed = Committed(0, None)
        self.timeout_turn = DEFAULT_TURN_MS
        self.timeout_match = 0
        self.time_left = UNLIMITED
        self.used_ms = 0  # this game's thinking, for a game clock without time_left
        self.used_at_left = 0  # used_ms when time_left came: our thinking since counts it down
        self.time = TimeManager(TURN)
        self.clock_ms = -1  # the game clock the move under way was planned with (-1: none)
        self.max_memory = 0
        self.received = 0.0  # when the current command (a board block: its DONE) arrived
        self.startup = 0.0  # seconds from the process's start to the session's first line
        self.setup_spent = 0.0  # seconds spent handling commands before the first move request
        self.setup_until = 0.0  # when the time counted in startup and setup_spent ends (a ``perf_counter`` time)
        self.first_move = True
        self.rng = random.Random()

    # --- the session -----------------------------------------------------------------------------

    def session_started(self) -> None:
        """The session's first line is here: the first move pays for the process's start-up."""
        self.startup = process_age()
        self.setup_until = time.perf_counter()

    def arrived(self, at: float) -> None:
        """A command (``perf_counter`` ``at``, the protocol's ``Channel.arrived``; 0: now) is here: a
        move it asks for is timed from then."""
        self.received = at or time.perf_counter()

    def handled(self) -> None:
        """A command was handled: until the first move, the commands' time is the first move's too."""
        if self.first_move:
            # From its arrival, less what it waited while the start-up or the command before it was
            # counted already (lines that come together would count each other's time again).
            now = time.perf_counter()
            self.setup_spent += now - max(self.received, self.setup_until)
            self.setup_until = now

    def _commit(self) -> None:
        self.committed = Committed(self.rule, self.position)

    def recover(self) -> None:
        """After an unexpected failure part-way through a command or a search: the game as last
        committed, and tables that work."""
        self.rule = self.committed.rule
        try:
            self.position = self.committed.rebuilt()
        except Exception:  # noqa: BLE001 - the committed game itself cannot be rebuilt: start over rather than die
            self.log(traceback.format_exc())
            self.position = None
        try:
            self.brain.clear()
        except Exception:  # noqa: BLE001 - the tables themselves are broken (out of memory): fresh default ones
            self.log(traceback.format_exc())
            self.brain = self.brain.renewed()

    # --- settings --------------------------------------------------------------------------------

    def set_style(self, style: str) -> None:
        if style not in STYLES:
            raise Refusal(f"unknown style {style[:20]!r}: use one of {', '.join(STYLES)}")
        self.brain.style = style

    @undone_on_failure
    def set_memory(self, max_memory: int) -> None:
        self.max_memory = max(0, max_memory)
        self.brain.set_memory(self.max_memory)

    @undone_on_failure
    def set_hash_kb(self, kilobytes: int) -> None:
        """Yixin's hash size, unless a memory budget sizes the tables."""
        if kilobytes > 0 and self.max_memory == 0:
            self.brain.resize(max(1, kilobytes // 1024))

    def set_max_depth(self, depth: int) -> None:
        self.brain.max_depth = max(0, min(depth, 100))

    def set_max_nodes(self, nodes: int) -> None:
        self.brain.max_nodes = max(0, nodes)

    def set_threads(self, threads: int) -> None:
        """Yixin's ``thread_num``: with 2 or more our root VCT runs in a worker process."""
        if not 1 <= threads <= MAX_THREADS:
            raise Refusal(f"thread_num {threads}: 1 to {MAX_THREADS} are supported")
        self.brain.set_threads(threads)

    @undone_on_failure
    def clear_hash(self) -> None:
        self.brain.clear()

    @undone_on_failure
    def set_rule(self, rule: int) -> None:
        """Gomocup's rule bits; the game so far is kept, under the new rule."""
        if rule < 0 or rule > 15:
            raise Refusal(f"unsupported rule {rule}")
        if rule == self.rule:
            return
        old = self.position
        position = None if old is None else self._rebuilt(old, old.history, old.colors, rule)
        self.rule, self.position = rule, position
        self.brain.clear()
        self._commit()

    # --- the clock -------------------------------------------------------------------------------

    def set_turn_time(self, ms: int) -> None:
        self.timeout_turn = max(0, ms)

    def set_match_time(self, ms: int) -> None:
        self.timeout_match = max(0, ms)

    def set_time_left(self, ms: int) -> None:
        self.time_left = ms
        self.used_at_left = self.used_ms

    def game_left(self) -> int:
        """What is left of the game's clock by the manager's last ``time_left``, less our thinking
        since (a manager that sends it only now and then is not believed to stop the clock); -1:
        unlimited (2147483647), 0: run out (a negative ``time_left`` too)."""
        if self.time_left == UNLIMITED:
            return -1
        return max(0, self.time_left - (self.used_ms - self.used_at_left))

    def clock(self) -> MoveRequest:
        """The request for the move asked now, as the core's time manager reads it."""
        p = self.position
        to_go = moves_to_go(len(p.points), p.stones) if p is not None else 0
        return MoveRequest(turn=self.timeout_turn, match=self.timeout_match, left=self.game_left(), used=self.used_ms,
                           to_go=to_go)

    def asked(self) -> float:
        """When the move requested now began to cost time (a ``perf_counter`` time): its request's
        arrival, and for the process's first move earlier by its start-up and the commands before it,
        as the manager's clock ran from the process's start."""
        if self.first_move:
            return max(self.received, self.setup_until) - self.startup - self.setup_spent
        return self.received

    def limits(self) -> tuple[int, int]:
        """Soft and hard milliseconds left for the move requested now."""
        clock = self.clock()
        soft, hard, _ = self.time.begin(clock, self.asked())
        self.clock_ms = clock.game_left()
        self.first_move = False
        return soft, hard

    def count(self, answered: float) -> None:
        """Add a move's thinking, from its request to its answer (``answered``, read before the answer
        is handed on), to the game's ``used_ms``; the time manager learns from it what the answer ran
        over the move's hard limit, which the next moves keep off theirs.

        The answer's time is read before it goes out: a referee that suspends the brain as soon as
        the move arrives (GomocupJudge, ``sanqi match``) may stop this thread between the answer and
        its count until the next turn, and the opponent's thinking was then counted as ours: a lag of
        up to a second, which left the next moves 1-250 ms (the 15x15 games of 28 November)."""
        self.used_ms += self.time.answered(answered)

    # --- the game --------------------------------------------------------------------------------

    def require_game(self) -> Position:
        """The game's position; :class:`NoGame` before ``START``."""
        if self.position is None:
            raise NoGame("no game")
        return self.position

    @undone_on_failure
    def new_game(self, width: int, height: int) -> None:
        """``START``, ``RECTSTART``: an empty board of this size."""
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise Refusal(f"unsupported size {width}x{height}: sizes {MIN_SIZE} to {MAX_SIZE} are supported")
        self.position = Position(width, height, self.rule)
        self.brain.clear()
        self.used_ms = self.used_at_left = 0
        self._commit()

    def restart(self) -> None:
        """``RESTART``: an empty board of the same size."""
        p = self.require_game()
        self.new_game(p.width, p.height)

    def _rebuilt(self, old: Position, moves: list[int], colors: list[int], rule: int) -> Position:
        """A position of ``old``'s size under ``rule`` holding ``moves`` (points of ``old``) in ``colors``,
        with ``old``'s side to move."""
        p = Position(old.width, old.height, rule)
        for m, c in zip(moves, colors):
            x, y = old.xy(m)
            p.play(p.index(x, y), c)
        p.side = old.side
        return p

    def _free(self, p: Position, x: int, y: int) -> int:
        if not p.on_board(x, y):
            raise Refusal(f"{x},{y} is off the {p.width}x{p.height} board")
        i = p.index(x, y)
        if p.cells[i] != EMPTY:
            raise Refusal(f"{x},{y} is already occupied")
        return i

    @undone_on_failure
    def play(self, x: int, y: int) -> Point:
        """``PLAY``: put the side to move's stone on ``x,y`` (a manager's opening, ours to move next)."""
        p = self.require_game()
        i = self._free(p, x, y)
        if p.side == BLACK and p.forbidden(i):
            raise Refusal(f"{x},{y} is forbidden for black")
        p.play(i, p.side)
        self._commit()
        return p.xy(i)

    @undone_on_failure
    def takeback(self, x: int, y: int) -> None:
        """``TAKEBACK``: take the stone on ``x,y`` away; the side to move becomes its colour."""
        p = self.require_game()
        if not p.on_board(x, y) or p.cells[p.index(x, y)] == EMPTY:
            raise Refusal(f"no stone on {x},{y} to take back")
        i = p.index(x, y)
        if p.history and p.history[-1] == i:
            p.unmake()
        else:
            at = p.history.index(i)
            moves = p.history[:at] + p.history[at + 1:]
            colors = p.colors[:at] + p.colors[at + 1:]
            side = p.colors[at] if p.colors[at] != NEUTRAL else p.side
            rebuilt = self._rebuilt(p, moves, colors, self.rule)
            rebuilt.side = side
            self.position = rebuilt
        self._commit()

    @undone_on_failure
    def forbidden_points(self) -> list[Point]:
        """``YXSHOWFORBID``: black's forbidden points under renju (none under the other rules)."""
        p = self.require_game()
        return [p.xy(i) for i in p.forbidden_points()] if p.renju else []

    def check_stone(self, stone: Stone, ordered: bool, seen: set[Point], block: str) -> None:
        """One stone of a board block (``block`` names it), against the board and the stones before it."""
        p = self.require_game()
        x, y, f = stone
        if not (0 <= x < p.width and 0 <= y < p.height):
            raise Refusal(f"{x},{y} is off the {p.width}x{p.height} board")
        if f not in (ORDERED, OWN, OPPONENT, WINNING_LINE) or (f == ORDERED and not ordered):
            raise Refusal(f"field {f} at {x},{y}: expected 1 (own), 2 (opponent) or 3 (winning line)")
        if (x, y) in seen:
            raise Refusal(f"{x},{y} appears twice in {block}")

    def _position_of(self, stones: list[Stone]) -> Position:
        """A position holding a board block's ``stones`` (checked by :meth:`check_stone`), ours to move.

        Our colour is black when we have as many stones as the opponent, or under renju when the
        first coloured stone is ours."""
        p = self.require_game()
        own = sum(1 for s in stones if s[2] == OWN)
        opp = sum(1 for s in stones if s[2] == OPPONENT)
        b = Position(p.width, p.height, self.rule)
        if self.rule & 4 and stones:
            first = next((s[2] for s in stones if s[2] != WINNING_LINE), OWN)
            ours = BLACK if first == OWN else WHITE
        else:
            ours = BLACK if own >= opp else WHITE
        theirs = WHITE if ours == BLACK else BLACK
        for x, y, f in stones:
            color = NEUTRAL if f == WINNING_LINE else (ours if f == OWN else theirs)
            b.play(b.index(x, y), color)
        b.side = ours
        return b

    def _ordered_position(self, stones: list[Stone]) -> Position:
        """A position holding swap2's ``stones``, black, white, black… in the order given."""
        p = self.require_game()
        b = Position(p.width, p.height, self.rule)
        for n, (x, y, f) in enumerate(stones):
            color = BLACK if n % 2 == 0 else WHITE
            b.play(b.index(x, y), color if f != WINNING_LINE else NEUTRAL)
        b.side = BLACK if len(stones) % 2 == 0 else WHITE
        return b

    @undone_on_failure
    def set_board(self, stones: list[Stone]) -> None:
        """``YXBOARD``: the game is these stones, ours to move; nothing is played."""
        self.position = self._position_of(stones)
        self._commit()

    # --- thinking --------------------------------------------------------------------------------

    def busy(self) -> bool:
        return self.worker.busy()

    def stop(self) -> None:
        """Answer now (``YXSTOP``, ``END``)."""
        self.brain.stop()

    def wait(self) -> None:
        self.worker.join()

    def end(self) -> None:
        """The session is over: the brain's worker process ends now, even if a move is still being
        chosen (the manager has moved on)."""
        self.brain.kill()

    @undone_on_failure
    def begin(self, say: Say, done: Done, failed: Failed) -> None:
        """``BEGIN``: our first stone on an empty board."""
        p = self.require_game()
        if p.stones:
            raise Refusal("BEGIN on a board that already has stones")
        self._move(p, say, done, failed)

    @undone_on_failure
    def turn(self, x: int, y: int, say: Say, done: Done, failed: Failed) -> None:
        """``TURN``: the opponent's stone on ``x,y``, then ours."""
        p = self.require_game()
        i = self._free(p, x, y)
        if p.stones + 1 >= len(p.points):
            raise Refusal("the board is full")
        p.play(i, p.side)
        self._move(p, say, done, failed)

    @undone_on_failure
    def board(self, stones: list[Stone], say: Say, done: Done, failed: Failed) -> None:
        """``BOARD``: the game is these stones, and we move."""
        b = self._position_of(stones)
        if b.full():
            raise Refusal("the board is full")
        self.position = b
        self._move(b, say, done, failed)

    @undone_on_failure
    def nbest(self, count: int, say: Say, done: Done, failed: Failed) -> None:
        """``YXNBEST``: the ``count`` best moves, the first as the move we would play; nothing is played."""
        self._move(self.require_game(), say, done, failed, count, False)

    def _move(self, p: Position, say: Say, done: Done, failed: Failed, multipv: int = 1, place: bool = True) -> None:
        if p.full():
            raise Refusal("the board is full")
        soft, hard = self.limits()

        def decide(answer: SearchAnswer) -> Decision:
            return self._decided(p, answer, place)

        self._think(p, soft, hard, say, multipv, decide, done, failed)

    def _decided(self, p: Position, answer: SearchAnswer, place: bool) -> Decision:
        if answer.move < 0:
            return Decision(NO_MOVE, answer, [], [], [])
        pv = [p.name(m) for m in answer.pv] if answer.pv else [p.name(answer.move)]
        lines = self.brain.last_lines
        nbest = [p.name(m) for m in lines] if len(lines) > 1 else []
        point = p.xy(answer.move)
        if place:
            p.play(answer.move, p.side)
        return Decision(MOVE, answer, [point], pv, nbest)

    def _think(self, p: Position, soft: int, hard: int, say: Say, multipv: int,
               decide: Callable[[SearchAnswer], Decision], done: Done, failed: Failed) -> None:
        """Choose in the worker; commit what ``decide`` made of the search, then hand it to ``done``.
        If anything fails, the game is put back as last committed, then ``failed`` hears of it (the
        order of a command that fails, see :class:`engine_core.loop.Front`)."""
        planned = f"time soft {soft} hard {hard} game clock {self.clock_ms}"

        def job() -> None:
            try:
                say(planned)
                decision = decide(self.brain.think(p, soft, hard, say, multipv))
                self._commit()
                answered = time.perf_counter()
                done(decision)
                self.count(answered)
            except Exception as exc:  # noqa: BLE001 - as for a command: put the game back, report it
                self.recover()
                failed(exc)

        self.worker.start(job)

    # --- swap2 -----------------------------------------------------------------------------------

    @undone_on_failure
    def swap2(self, stones: list[Stone], say: Say, done: Done, failed: Failed) -> list[Point]:
        """``SWAP2BOARD``: propose three stones (returned at once); after three, take black (SWAP),
        play white's move, or add a white and a black stone and leave the choice to the opponent;
        after five, SWAP or play white's move (those through ``done``)."""
        self.require_game()
        if len(stones) not in (0, 3, 5):
            raise Refusal(f"SWAP2BOARD with {len(stones)} stones: expected 0, 3 or 5")
        soft, hard = self.limits()
        if not stones:
            three = self._propose_three()
            self.count(time.perf_counter())  # answered at once, but on the game's clock all the same
            return three
        b = self._ordered_position(stones)
        self.position = b
        may_add_two = len(stones) == 3

        def decide(answer: SearchAnswer) -> Decision:
            return self._swap2_decided(b, answer, may_add_two)

        self._think(b, soft, hard, say, 1, decide, done, failed)
        return []

    def _propose_three(self) -> list[Point]:
        old = self.require_game()
        cx, cy = old.width // 2, old.height // 2
        b = Position(old.width, old.height, self.rule)
        out = []
        for dx, dy in self.rng.choice(SWAP2_OPENINGS):
            x, y = cx + dx, cy + dy
            b.play(b.index(x, y), b.side)
            out.append((x, y))
        self.position = b
        self._commit()
        return out

    def _swap2_decided(self, b: Position, answer: SearchAnswer, may_add_two: bool) -> Decision:
        """White (to move) scored ``answer.score``: far behind, take black; about even after three
        stones, put white's best move and black's best reply and let the opponent choose."""
        if answer.move < 0 or answer.score < -SWAP_MARGIN:
            return Decision(SWAP, answer, [], [], [])
        pv = answer.pv[:2]
        if may_add_two and abs(answer.score) <= BALANCED and len(pv) == 2 and pv[0] == answer.move:
            b.play(pv[0], b.side)
            if b.legal(pv[1], b.side):
                b.play(pv[1], b.side)
                return Decision(TWO_STONES, answer, [b.xy(m) for m in pv], [], [])
            b.unmake()
        return self._decided(b, answer, True)
