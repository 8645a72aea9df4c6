"""Time manager: a soft limit (don't start another iteration) and a hard limit (stop now).

Each game's engine holds one :class:`TimeManager`. It reads one request type, :class:`MoveRequest` (a game
clock with increment as UCCI/UCI's ``go`` and the junqi referee's give it, a fixed time a move,
Gomocup's turn and match budgets, nodes and depth), which the protocol fills as Stockfish's
``LimitsType``; it is begun with the moment the request's line arrived and gives the move's soft and
hard limits (a :class:`Budget`) by the game's rule (:data:`INCREMENT` for xiangqi, :data:`SHARE` for
junqi, :data:`TURN` for gomoku), and it is told when the answer went out, so that the lag a move's
answer meets beyond the engine's own watch is measured once, by one :class:`LagMeter`, for every game.
The CPU share a process gets on a shared machine is measured by :class:`CpuShare`.

All figures are milliseconds. Three things keep a short game (6 s + 0.1 s) off the flag on a busy
machine, where a move may reach the GUI a few hundred milliseconds after the search ends:

* every move leaves ``overhead`` for the move to travel;
* a reserve of ``RESERVE_MOVES`` overheads is never planned with: only the clock above it is shared
  out over the moves to come;
* the increment is spent in full only while the reserve is intact; below it, a move gets a shrinking
  part of the increment, so each move gives back more than it takes until the reserve refills.
"""

import time
from dataclasses import dataclass
from typing import Callable, Final, NamedTuple, Optional

HORIZON: Final = 30  # moves the clock is shared over when the control gives no movestogo
RESERVE_MOVES: Final = 20  # the clock kept back, in move overheads (1 s with the usual 50 ms)
HARD_SHARE: Final = 4  # the hard limit: this many soft limits, and at most 1/HARD_SHARE of the spare clock
UNSETTLED_SHARE: Final = 2  # soft limits a search may use while its best move or score just changed


GAP_KEEP_EIGHTHS: Final = 7  # a gap in the GUI's clock keeps this many eighths of itself a move
GAP_CEILING: Final = 2000  # ms: a larger gap is a clock the GUI reset or paused, not a lag
OVERRUN_KEEP_EIGHTHS: Final = 6  # an overrun of our own budget keeps three quarters of itself a move


class LagMeter:
    """The lag a move's answer meets beyond what the engine's own watch planned for: the largest
    seen, fading a little each move. A game feeds it what it can observe:

    * xiangqi, the gap in the GUI's clock (:meth:`clock_gaps`): after a move the engine knows what
      its clock should read at the next ``go``, and the GUI's figure is lower by what the engine
      cannot see (the pipes, a scheduler that ran it late, the GUI's own delays). The whole
      overhead shows there, so the configured one is only a floor (:meth:`margin`); a gap above
      ``GAP_CEILING`` is a clock the GUI reset or paused, no evidence;
    * junqi and gomoku, a move's wall time over its budget (:meth:`overruns`): the overhead the
      budget already kept does not show, so the lag (:attr:`peak`) comes off the next budgets on
      top of it; every overrun counts.

    The two keep the fading each had before they shared this class (an eighth a move for xiangqi's
    gaps, a quarter for junqi's overruns), so those games' budgets are as they were; gomoku, which
    measured no lag before, takes junqi's rule, and its limits change only after a late answer.

    >>> gaps = LagMeter.clock_gaps()
    >>> gaps.observe(5000 - 4700)  # the clock expected, less the one the GUI sent
    >>> gaps.margin(50)
    300
    >>> for _ in range(30):
    ...     gaps.observe(5000 - 4990)
    >>> gaps.margin(50)
    50
    >>> over, peaks = LagMeter.overruns(), []
    >>> for wall_over_budget in (120, -30, 40, 2500):
    ...     over.observe(wall_over_budget)
    ...     peaks.append(over.peak)
    >>> peaks
    [120, 90, 67, 2500]
    """

    def __init__(self, keep_eighths: int, ceiling: Optional[int]) -> None:
        """``keep_eighths``: what the peak keeps of itself a move; ``ceiling``: the largest lag
        taken as evidence (None: any)."""
        self.keep_eighths = keep_eighths
        self.ceiling = ceiling
        self.peak = 0

    @classmethod
    def clock_gaps(cls) -> "LagMeter":
        return cls(GAP_KEEP_EIGHTHS, GAP_CEILING)

    @classmethod
    def overruns(cls) -> "LagMeter":
        return cls(OVERRUN_KEEP_EIGHTHS, None)

    def observe(self, lag: int) -> None:
        """One move's evidence, ms (0 or less: the move was on time)."""
        self.peak = self.peak * self.keep_eighths // 8
        if 0 < lag and (self.ceiling is None or lag <= self.ceiling) and lag > self.peak:
            self.peak = lag

    def margin(self, configured: int) -> int:
        """The overhead to plan each move with, where the lag observed is the whole overhead."""
        return max(configured, self.peak)


@dataclass
class MoveRequest:
    """What one move may spend, as a protocol reads it from its request (Stockfish's ``LimitsType``:
    the protocol fills it, a :class:`TimeManager` reads it). All times are milliseconds.

    A game clock: ``left`` is our clock (-1: not given), ``inc`` its increment a move, ``movestogo``
    the moves to the next time control (0: not given), ``opp_left`` the opponent's clock (0: not
    given). A fixed time: ``movetime``, the most this move may take (0: not given). A turn and a
    match budget (Gomocup's): ``turn`` is ``timeout_turn`` (0: answer at once), ``match``
    ``timeout_match`` (0: no game clock); when ``left`` is not given, ``match`` less ``used`` (our
    own count of the game's thinking) stands for it; ``to_go`` is the most moves the side can still
    make (0: not known), which shortens the clock's horizon near a full board. And the bounds that
    are not time: ``depth`` and ``nodes`` (0: none), and ``ponder``: the move is thought on the
    opponent's time, so its clock is no evidence of lag.
    """

    left: int = -1
    inc: int = 0
    movestogo: int = 0
    opp_left: int = 0
    movetime: int = 0
    turn: int = 0
    match: int = 0
    used: int = 0
    to_go: int = 0
    depth: int = 0
    nodes: int = 0
    ponder: bool = False

    def game_left(self) -> int:
        """What is left of the game's clock (-1: no game clock).

        >>> MoveRequest(match=180000, used=139000).game_left(), MoveRequest(match=180000, used=139000, left=50000).game_left()
        (41000, 50000)
        """
        if self.left >= 0:
            return self.left
        if self.match > 0:
            return max(0, self.match - self.used)
        return -1


def allot(left: int, inc: int, movestogo: int, opp_left: int, overhead: int, reserve: int = -1) -> tuple[int, int]:
    """Soft and hard limits for one move; ``reserve`` is the clock kept back (-1: ``RESERVE_MOVES``
    overheads). A caller that measures a larger overhead than configured keeps the reserve of the
    configured one: the measured lag is already paid on every move, the reserve is for what comes beyond.

    >>> allot(6000, 100, 0, 6000, 50)  # the first move of 6 s + 0.1 s
    (203, 812)
    >>> allot(1200, 100, 0, 1200, 50)  # near the reserve: less than the increment comes back
    (43, 100)
    >>> allot(500, 100, 0, 500, 50)  # inside the reserve: a part of the increment only
    (18, 25)
    >>> allot(60000, 0, 1, 0, 50)  # the last move before the next time control
    (47200, 47200)
    >>> allot(30, 0, 0, 0, 50)
    (1, 1)
    >>> allot(6000, 100, 0, 6000, 150), allot(6000, 100, 0, 6000, 150, 1000)  # a lag of 150 ms measured
    ((100, 400), (166, 664))
    """
    budget = left - overhead
    if budget <= 1:
        return 1, 1
    if reserve < 0:
        reserve = overhead * RESERVE_MOVES
    spare = max(0, left - reserve)
    if movestogo == 1:
        hard = max(1, min(spare * 8 // 10, budget))
        return hard, hard
    horizon = movestogo if 0 < movestogo < HORIZON else HORIZON
    net_inc = max(0, inc - overhead)
    if left < reserve:
        net_inc = net_inc * left // reserve
    soft = spare // horizon + net_inc * 3 // 4
    if opp_left > 0:
        # Ahead on the clock: think a little longer; behind: a little shorter.
        soft = soft * min(max(left * 100 // opp_left, 75), 133) // 100
    hard = min(soft * HARD_SHARE, spare // HARD_SHARE + net_inc, budget)
    return max(1, min(soft, hard)), max(1, hard)


def per_move(clock: MoveRequest, overhead: int, horizon: int = HORIZON) -> tuple[int, bool]:
    """The most one move may think when it must reach the referee within its ``movetime`` (0: none)
    with ``left`` on its game clock (0 or less: no game clock, as junqi has always read a ``time 0``):
    the movetime, or a ``horizon``-th of the clock if that is less, less the ``overhead`` that the
    reply needs to reach the referee (0: no bound was given); and whether the clock's share is the
    bound (the choice is made here once, for the hard and the soft limit alike).

    >>> [per_move(MoveRequest(left, movetime=limit), 60) for left, limit in ((0, 1000), (6000, 1000), (0, 0), (0, 50), (20, 0))]
    [(940, False), (140, True), (0, False), (1, False), (1, True)]
    >>> per_move(MoveRequest(30000, movetime=1000), 60)  # a share equal to the movetime: the movetime bounds it
    (940, False)
    """
    limit, by_clock = clock.movetime, False
    if clock.left > 0:
        share = max(1, clock.left // horizon)
        if limit <= 0 or share < limit:
            limit, by_clock = share, True
    if limit <= 0:
        return 0, False
    return max(1, limit - overhead), by_clock


FULL_SHARE: Final = 0.5  # of a CPU: a process that gets at least this thinks its whole budget
START_SHARE: Final = FULL_SHARE * 3 / 4  # until measured: a busy machine's (a new engine that assumed a
#   whole CPU played the first moves of a game late)
SHARE_WEIGHT: Final = 0.3  # what one move's measurement weighs in the running share
SHARE_MIN_BUSY: Final = 0.005  # s: a move that computed less is no evidence of the share


class CpuShare:
    """The share of a CPU the process gets while it computes, on a machine it may share: the CPU
    time of its recent moves over the wall time they did not spend waiting (for worker processes,
    whose CPU is not ours), averaged with weight ``SHARE_WEIGHT`` a move; ``START_SHARE`` until
    measured. A starved process is also the one that waits longest for a CPU between two looks at
    the clock, so a :class:`TimeManager` under :data:`SHARE` scales its budget by the share.

    >>> cpu = CpuShare()
    >>> cpu.share
    0.375
    >>> cpu.observe(0.2, 0.4)  # 0.2 s of CPU in 0.4 s that did not wait: half a CPU
    >>> round(cpu.share, 4)
    0.4125
    >>> cpu.observe(0.9, 0.9), cpu.observe(0.001, 0.004)  # a whole CPU; then too short a move to tell
    (None, None)
    >>> round(cpu.share, 3)
    0.589
    """

    def __init__(self, share: float = START_SHARE) -> None:
        self.share = share
        self.wall = 0.0  # time.perf_counter() when the move's measurement began
        self.cpu = 0.0  # time.process_time() then

    def start(self) -> float:
        """Begin a move's measurement; the ``time.perf_counter()`` time it began."""
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self.wall

    def stop(self, waited: float = 0.0) -> None:
        """End the move's measurement; ``waited``: the seconds it spent waiting for workers."""
        busy = time.perf_counter() - self.wall - waited
        self.observe(time.process_time() - self.cpu, busy)

    def observe(self, cpu: float, busy: float) -> None:
        """One move's evidence: ``cpu`` seconds of CPU time in ``busy`` seconds of wall time."""
        if busy > SHARE_MIN_BUSY:
            self.share = (1 - SHARE_WEIGHT) * self.share + SHARE_WEIGHT * min(1.0, cpu / busy)


# --- Gomocup's clocks: a limit a turn and one a game, no increment -----------------------------------

TURN_SHARE_TWENTIETHS: Final = 19  # of timeout_turn the hard limit may use; the referee's tolerance is never relied on
TURN_MARGIN: Final = 50  # ms kept beside that twentieth, for the answer to reach the referee (Pela answers 30 ms
#   before a 1 s turn is up; a tenth and 100 ms left our moves 300-650 ms of it)
SOFT_QUARTERS: Final = 3  # the soft target: three quarters of the hard limit (at a half, moves took about
#   40 % of a 1 s turn while Pela took all of it)
TRAVEL: Final = 10  # ms of the game clock kept for each move the board still allows, for its answer's travel
#   past our own count (which runs from the line's arrival): at 50 ms a 20x20 game at 1 s a turn and 30 s
#   a game got 17.8 s of its first 60 moves' soft limits against 24.9 s without, a third less from move 10 on
MATCH_HORIZON: Final = 20  # with a game clock, the moves expected to remain (fewer only near a full board):
#   a quiet move takes one share of the clock above the reserve
MATCH_RESERVE: Final = 1000  # ms of the game clock never planned with, at least (RESERVE_MOVES overheads of 50 ms) ...
MATCH_RESERVE_SHARE: Final = 10  # ... and at least this part of the game's time: 120 moves of 80 ms lag and a
#   hundredth of the clock each fit in the 18 s of a 180 s game (no increment comes back)
LOW_CLOCK_SHARE: Final = 100  # inside the reserve, a move may still take this part of what is left


class Budget(NamedTuple):
    """One move's limits, ms: ``soft`` (no new iteration after it), ``hard`` (stop now) and
    ``unsettled`` (the soft limit while the root's best move or score just changed); 0: none."""

    soft: int
    hard: int
    unsettled: int


@dataclass(frozen=True)
class Rule:
    """How a game's :class:`TimeManager` plans a move and learns its lag: one row of choices the manager
    reads (its ``plan`` of the limits, the :class:`LagMeter` it keeps and what that meter learns from),
    so that no part of the manager asks which game it serves. The three rows are :data:`INCREMENT`,
    :data:`SHARE` and :data:`TURN`, each game's as it was before they shared one class."""

    name: str
    plan: "Callable[[TimeManager, MoveRequest, int], Budget]"  # the move's limits, ``spent`` ms after its request
    lag: Callable[[], LagMeter]  # the meter the manager keeps
    gaps: bool  # the lag is the gap in the GUI's clock at the next request (else what an answer ran over its hard limit)
    from_now: bool  # the limits count from the search's start, not from the request's arrival


class TimeManager:
    """One move's time, from the line that asked for it to the answer, as Stockfish's
    ``TimeManagement`` reads one ``LimitsType``. Each game's engine holds one, made with the game's
    ``rule`` (a :class:`Rule`: :data:`INCREMENT`, :data:`SHARE`, :data:`TURN`), the ``overhead`` its answer needs to
    reach the GUI or referee and the time of an ``untimed`` move (:data:`SHARE` only).

    :meth:`begin` starts a move with its :class:`MoveRequest` and the moment its line arrived (the
    protocol's ``Channel.arrived``), and gives its :class:`Budget`; :meth:`answered` is told when the
    answer went out. Between the two the manager measures the lag (:attr:`lag`, a :class:`LagMeter`)
    once for every game: under :data:`INCREMENT` the gap in the GUI's clock at the next request, under
    the others what the answer ran over its hard limit. :data:`SHARE` scales by the CPU share the
    process gets (:attr:`cpu`, measured by the game around its search).

    >>> tm = TimeManager(TURN)
    >>> tm.begin(MoveRequest(turn=1000))  # asked now: nothing spent yet
    Budget(soft=675, hard=900, unsettled=675)
    >>> late = tm.arrived + (tm.due + 120.5) / 1000  # the answer went out 120 ms after the hard limit
    >>> tm.answered(late) - tm.due, tm.lag.peak
    (120, 120)
    """

    def __init__(self, rule: Rule, overhead: int = 0, untimed: int = 0) -> None:
        self.rule = rule
        self.overhead = overhead
        self.untimed = untimed
        self.lag = rule.lag()
        self.cpu = CpuShare()
        self.arrived = 0.0  # ``time.perf_counter()`` when the move under way was asked for
        self.due = 0  # ms from ``arrived``: that move's hard limit (an answer past it is lag)
        self.noted: Optional[tuple[int, int]] = None  # rule.gaps: that move's clock and increment, if timed
        self.expected: Optional[int] = None  # rule.gaps: our clock as the next request should show it

    def limits(self, request: MoveRequest, spent: int = 0) -> Budget:
        """The budget of a move ``request`` asks for, ``spent`` ms after it arrived (only
        :data:`TURN`'s limits count from now: the other rules' count from the arrival and the game
        takes off the time gone where it starts its search)."""
        return self.rule.plan(self, request, spent)

    def begin(self, request: MoveRequest, arrived: float = 0.0, continues: bool = True) -> Budget:
        """Start the move ``request`` asks for by a line that arrived at ``arrived`` (a
        ``time.perf_counter()`` time; 0: now); ``continues``: the request is in the game of the last
        answer, two plies on, so a gap in its clock is evidence of lag (:data:`INCREMENT`)."""
        now = time.perf_counter()
        self.arrived = arrived or now
        spent = int((now - self.arrived) * 1000)
        expected, self.expected, self.noted = self.expected, None, None
        if self.rule.gaps and request.left >= 0 and not request.ponder:
            if continues and expected is not None:
                self.lag.observe(expected - request.left)
            self.noted = (request.left, request.inc)
        budget = self.limits(request, spent)
        self.due = budget.hard + (spent if self.rule.from_now else 0)
        return budget

    def answered(self, at: float = 0.0) -> int:
        """The move's answer went out at ``at`` (a ``time.perf_counter()`` time, read before the answer
        is handed on; 0: now): the ms it took from the request's arrival, which the lag learns from."""
        took = int(((at or time.perf_counter()) - self.arrived) * 1000)
        if not self.rule.gaps:
            self.lag.observe(took - self.due)
        elif self.noted is not None:
            left, inc = self.noted
            self.expected = left - took + inc
        return took

    def _increment(self, request: MoveRequest, spent: int) -> Budget:
        """A UCCI/UCI request's limits (none: it gave no time), with the configured ``overhead`` and
        the lag the GUI's clock showed.

        A time a move has the hard limit alone, the time less the overhead: the whole time is the GUI's
        to give, and Stockfish spends it (a soft limit would stop deepening at half of it). A game clock
        is shared out by :func:`allot`, planning every move with the larger of the overhead and the lag,
        and keeping the configured overhead's reserve and, for a lag beyond the increment (lost on every
        move, however short), that lag for ``HORIZON`` moves more. An unsettled root may use
        ``UNSETTLED_SHARE`` soft limits, never past the hard one.

        >>> tm = TimeManager(INCREMENT, 50)
        >>> tm.limits(MoveRequest(movetime=1000)), tm.limits(MoveRequest())
        (Budget(soft=0, hard=950, unsettled=0), Budget(soft=0, hard=0, unsettled=0))
        >>> tm.limits(MoveRequest(left=6000, inc=100, opp_left=6000))
        Budget(soft=203, hard=812, unsettled=406)
        >>> tm.lag.observe(150)
        >>> tm.limits(MoveRequest(left=10000, inc=100))
        Budget(soft=250, hard=1000, unsettled=500)
        """
        if request.movetime > 0:
            return Budget(0, max(1, request.movetime - self.overhead), 0)
        if request.left < 0:
            return Budget(0, 0, 0)
        margin = self.lag.margin(self.overhead)
        reserve = self.overhead * RESERVE_MOVES + max(0, margin - request.inc) * HORIZON
        soft, hard = allot(request.left, request.inc, request.movestogo, request.opp_left, margin, reserve)
        return Budget(soft, hard, min(soft * UNSETTLED_SHARE, hard))

    def _share(self, request: MoveRequest, spent: int) -> Budget:
        """Limits for a move that must reach the referee within the request's ``movetime`` and its
        share of the game clock (:func:`per_move`, less the ``overhead`` the reply needs), or
        ``untimed`` ms when the request gave neither; scaled down while the process gets less than
        ``FULL_SHARE`` of a CPU (:attr:`cpu`), less the ``lag.peak`` by which the last moves ran over
        their hard limits; at least 10 ms.

        The soft limit (no new iteration) is the hard one where the referee's ``movetime`` or the untimed
        default bounds the move: that time is this move's, and none of it comes back later (as
        :data:`INCREMENT`'s time a move). Where the clock's share bounds it, a saved millisecond is
        shared out again over the moves to come, and the soft limit is ``SOFT_QUARTERS`` of the hard one
        (as :data:`TURN`'s).

        >>> tm = TimeManager(SHARE, 80, 1000)
        >>> tm.cpu.share = FULL_SHARE
        >>> [tm.limits(MoveRequest(left, movetime=limit))[:2] for left, limit in ((600000, 1000), (0, 0), (3000, 10000))]
        [(920, 920), (1000, 1000), (15, 20)]
        >>> tm.limits(MoveRequest(20, movetime=300))[:2]  # a clock that has run out
        (7, 10)
        >>> tm.cpu.share = FULL_SHARE / 2
        >>> tm.limits(MoveRequest(600000, movetime=1000))[:2]
        (460, 460)
        >>> tm.cpu.share = 1.0
        >>> tm.lag.observe(60)
        >>> tm.limits(MoveRequest(600000, movetime=1000))[:2]
        (860, 860)
        """
        # A starved process (a loaded machine) is also the one that waits longest for a CPU between two
        # looks at the clock: it thinks in proportion to the share it gets.
        scale = min(1.0, self.cpu.share / FULL_SHARE)
        bound, clock_bound = per_move(request, self.overhead)
        hard = max(10, int((bound or self.untimed) * scale) - self.lag.peak)
        soft = max(1, hard * SOFT_QUARTERS // 4) if clock_bound else hard
        return Budget(soft, hard, soft)

    def _turn(self, request: MoveRequest, spent: int) -> Budget:
        """Limits for one move on Gomocup's clocks, counted from now, ``spent`` ms after the request
        arrived (for the process's first move, its start-up too: a referee's clock may start with the
        process); 0: answer at once.

        The soft limit (no new iteration) is what a quiet move takes; the hard limit is what a move
        may take where the opponent threatens, for the checks of the defences. Both keep a twentieth
        of the turn and 50 ms in hand. With a game clock, a reserve (a tenth of the game, at least 1 s)
        is kept for the lag of the moves to come, and the clock above it is shared out over the moves
        expected to remain: ``MATCH_HORIZON`` (an undecided game goes on about as long however long it
        has lasted, as Rapfi's 22), fewer near a full board (``to_go``). A quiet move takes one share
        and a threatened one a quarter of the clock above the reserve (at most ``to_go`` shares), so a
        run of threatened moves cannot empty it; inside the reserve a move gets a hundredth of what is
        left. Before any of that, ``TRAVEL`` for every move the board still allows is never
        planned with: a game of n moves then runs out only when the clock cannot pay n answers' travel
        (10 ms each, ``tests/test_gomoku_clock.py``), and a clock that holds no more than that
        answers at once. What was ``spent`` and what the last answers ran over their hard limits
        (:attr:`lag`) come off the hard limit.

        >>> tm = TimeManager(TURN)
        >>> tm.limits(MoveRequest(turn=1000))                       # a turn limit only
        Budget(soft=675, hard=900, unsettled=675)
        >>> tm.limits(MoveRequest(turn=1000, left=30000))[:2]       # 1 s a turn, 30 s a game
        (675, 900)
        >>> tm.limits(MoveRequest(turn=1000, match=30000, left=6000))[:2]  # the game clock runs low
        (150, 750)
        >>> tm.limits(MoveRequest(turn=30000, match=180000))[:2]    # Gomocup freestyle, no time_left sent
        (8100, 28450)
        >>> tm.limits(MoveRequest(turn=30000, match=180000, used=150000))[:2]
        (600, 3000)
        >>> tm.limits(MoveRequest(turn=30000, match=180000, left=60000, to_go=3))[:2]  # three moves left on the board
        (10492, 13990)
        >>> tm.limits(MoveRequest(turn=1000), 300)[:2], tm.limits(MoveRequest(turn=1000), 900)[:2]
        ((600, 600), (0, 0))
        >>> tm.lag.observe(200)  # the last moves answered late
        >>> tm.limits(MoveRequest(turn=1000), 100)[:2]
        (600, 600)
        >>> tm.limits(MoveRequest(turn=0))[:2], tm.limits(MoveRequest(turn=1000, left=0))[:2]
        ((0, 0), (0, 0))
        """
        left = request.game_left()
        if request.turn <= 0 or left == 0:
            return Budget(0, 0, 0)
        hard = request.turn * TURN_SHARE_TWENTIETHS // 20 - TURN_MARGIN
        soft = hard * SOFT_QUARTERS // 4
        if left > 0:
            to_go = request.to_go
            horizon = min(MATCH_HORIZON, to_go) if to_go > 0 else MATCH_HORIZON
            usable = left - max(0, to_go) * TRAVEL  # every move that may come pays its answer's travel
            spare = usable - max(MATCH_RESERVE, request.match // MATCH_RESERVE_SHARE)
            least = usable // LOW_CLOCK_SHARE
            hard = min(hard, left * TURN_SHARE_TWENTIETHS // 20 - TURN_MARGIN, max(least, spare // min(HARD_SHARE, horizon)))
            soft = min(soft, hard * SOFT_QUARTERS // 4, max(least, spare // horizon))
        hard -= spent + self.lag.peak
        if hard <= 0:
            return Budget(0, 0, 0)
        soft = max(1, min(soft, hard))
        return Budget(soft, hard, soft)


# xiangqi: a GUI's game clock with increment, or a fixed time a move
INCREMENT: Final = Rule("increment", TimeManager._increment, LagMeter.clock_gaps, gaps=True, from_now=False)
# junqi: a referee's movetime and a share of the clock, scaled by the CPU share
SHARE: Final = Rule("share", TimeManager._share, LagMeter.overruns, gaps=False, from_now=False)
# gomoku: Gomocup's turn and match budgets
TURN: Final = Rule("turn", TimeManager._turn, LagMeter.overruns, gaps=False, from_now=True)
