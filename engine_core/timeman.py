"""Time manager: a soft limit (don't start another iteration) and a hard limit (stop now).

Two clock forms: a game clock with an increment and a time a move, as UCCI/UCI's ``go`` and the
junqi referee's give it (:class:`GameClock`, read by :func:`game_limits` for xiangqi and by
:func:`share_limits` for junqi), and Gomocup's limit a turn and a game (:class:`TurnClock`,
:func:`turn_limits`); each is a small request the protocol fills and the time manager reads, as
Stockfish's ``LimitsType``. The lag that a move's answer meets beyond the engine's own watch is
measured by one :class:`LagMeter` in every game; the CPU share a process gets on a shared machine,
by :class:`CpuShare`.

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
from typing import Final, Optional

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
class GameClock:
    """A clock request for one move as UCCI/UCI's ``go`` or the junqi referee's ``go`` gives it. All
    figures are milliseconds.

    ``left`` is our clock (-1: not given), ``inc`` its increment a move, ``movestogo`` the moves to
    the next time control (0: not given), ``opp_left`` the opponent's clock (0: not given) and
    ``movetime`` the most this move may take (0: not given).
    """

    left: int = -1
    inc: int = 0
    movestogo: int = 0
    opp_left: int = 0
    movetime: int = 0


def game_limits(clock: GameClock, overhead: int, lag: LagMeter) -> tuple[int, int, int]:
    """Soft, unsettled and hard limits for a UCCI/UCI request (0, 0, 0: it gave no time), with the
    configured move ``overhead`` and the ``lag`` the GUI's clock showed.

    A time a move has the hard limit alone, the time less the overhead: the whole time is the GUI's
    to give, and Stockfish spends it (a soft limit would stop deepening at half of it). A game clock
    is shared out by :func:`allot`, planning every move with the larger of the overhead and the lag,
    and keeping the configured overhead's reserve and, for a lag beyond the increment (lost on every
    move, however short), that lag for ``HORIZON`` moves more. An unsettled root may use
    ``UNSETTLED_SHARE`` soft limits, never past the hard one.

    >>> gaps = LagMeter.clock_gaps()
    >>> game_limits(GameClock(movetime=1000), 50, gaps), game_limits(GameClock(), 50, gaps)
    ((0, 0, 950), (0, 0, 0))
    >>> game_limits(GameClock(left=6000, inc=100, opp_left=6000), 50, gaps)
    (203, 406, 812)
    >>> gaps.observe(150)
    >>> game_limits(GameClock(left=10000, inc=100), 50, gaps)
    (250, 500, 1000)
    """
    if clock.movetime > 0:
        return 0, 0, max(1, clock.movetime - overhead)
    if clock.left < 0:
        return 0, 0, 0
    margin = lag.margin(overhead)
    reserve = overhead * RESERVE_MOVES + max(0, margin - clock.inc) * HORIZON
    soft, hard = allot(clock.left, clock.inc, clock.movestogo, clock.opp_left, margin, reserve)
    return soft, min(soft * UNSETTLED_SHARE, hard), hard


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


def per_move(clock: GameClock, overhead: int, horizon: int = HORIZON) -> tuple[int, bool]:
    """The most one move may think when it must reach the referee within its ``movetime`` (0: none)
    with ``left`` on its game clock (0 or less: no game clock, as junqi has always read a ``time 0``):
    the movetime, or a ``horizon``-th of the clock if that is less, less the ``overhead`` that the
    reply needs to reach the referee (0: no bound was given); and whether the clock's share is the
    bound (the choice is made here once, for the hard and the soft limit alike).

    >>> [per_move(GameClock(left, movetime=limit), 60) for left, limit in ((0, 1000), (6000, 1000), (0, 0), (0, 50), (20, 0))]
    [(940, False), (140, True), (0, False), (1, False), (1, True)]
    >>> per_move(GameClock(30000, movetime=1000), 60)  # a share equal to the movetime: the movetime bounds it
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
    the clock, so :func:`share_limits` scales its budget by the share.

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


def share_limits(clock: GameClock, share: float, lag: LagMeter, overhead: int, untimed: int) -> tuple[int, int]:
    """Soft and hard limits for a move that must reach the referee within the request's ``movetime``
    and its share of the game clock (:func:`per_move`, less the ``overhead`` the reply needs), or
    ``untimed`` ms when the request gave neither; scaled down while the process gets less than
    ``FULL_SHARE`` of a CPU (``share``, as :class:`CpuShare` measures it), less the ``lag.peak`` by
    which the last moves ran over their hard limits (a :meth:`LagMeter.overruns`); at least 10 ms.

    The soft limit (no new iteration) is the hard one where the referee's ``movetime`` or the untimed
    default bounds the move: that time is this move's, and none of it comes back later (as
    :func:`game_limits`' time a move). Where the clock's share bounds it, a saved millisecond is
    shared out again over the moves to come, and the soft limit is ``SOFT_QUARTERS`` of the hard one
    (as :func:`turn_limits`').

    >>> gone = LagMeter.overruns()
    >>> [share_limits(GameClock(left, movetime=limit), FULL_SHARE, gone, 80, 1000) for left, limit in ((600000, 1000), (0, 0), (3000, 10000))]
    [(920, 920), (1000, 1000), (15, 20)]
    >>> share_limits(GameClock(600000, movetime=1000), FULL_SHARE / 2, gone, 80, 1000)
    (460, 460)
    >>> late = LagMeter.overruns()
    >>> late.observe(60)
    >>> share_limits(GameClock(600000, movetime=1000), 1.0, late, 80, 1000)
    (860, 860)
    >>> share_limits(GameClock(20, movetime=300), FULL_SHARE, gone, 80, 1000)  # a clock that has run out
    (7, 10)
    """
    # A starved process (a loaded machine) is also the one that waits longest for a CPU between two
    # looks at the clock: it thinks in proportion to the share it gets.
    scale = min(1.0, share / FULL_SHARE)
    bound, clock_bound = per_move(clock, overhead)
    hard = max(10, int((bound or untimed) * scale) - lag.peak)
    return (max(1, hard * SOFT_QUARTERS // 4) if clock_bound else hard), hard


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

@dataclass
class TurnClock:
    """A Gomocup manager's clock request for one move, as the protocol read it from ``INFO``
    (Stockfish's ``LimitsType``: the protocol fills it, :func:`turn_limits` reads it). All
    figures are milliseconds.

    ``turn`` is ``timeout_turn`` (0: answer at once); ``match`` is ``timeout_match`` (0: no game
    clock); ``left`` is ``time_left`` (-1: the manager did not say; then ``match`` less ``used``,
    the brain's own count of the game's thinking, stands for it); ``spent`` is what this move
    has already cost before the search starts: the commands since the request and, for the
    process's first move, its start-up (a referee's clock may start with the process); ``lag`` is
    what the last moves' answers ran over their hard limits (the brain's :meth:`LagMeter.overruns`),
    kept off this one's as ``spent`` is; ``to_go`` is the most moves the side can still make (a
    board's empty points, half of them ours; 0: not known), which shortens the clock's horizon
    near a full board.
    """

    turn: int = 5000
    match: int = 0
    left: int = -1
    used: int = 0
    spent: int = 0
    lag: int = 0
    to_go: int = 0

    def game_left(self) -> int:
        """What is left of the game's clock (-1: no game clock)."""
        if self.left >= 0:
            return self.left
        if self.match > 0:
            return max(0, self.match - self.used)
        return -1


def turn_limits(clock: TurnClock) -> tuple[int, int]:
    """Soft and hard limits for one move on Gomocup's clocks; (0, 0): answer at once.

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
    answers at once.

    >>> turn_limits(TurnClock(turn=1000))                       # a turn limit only
    (675, 900)
    >>> turn_limits(TurnClock(turn=1000, left=30000))           # 1 s a turn, 30 s a game
    (675, 900)
    >>> turn_limits(TurnClock(turn=1000, match=30000, left=6000))  # the game clock runs low
    (150, 750)
    >>> turn_limits(TurnClock(turn=30000, match=180000))        # Gomocup freestyle, no time_left sent
    (8100, 28450)
    >>> turn_limits(TurnClock(turn=30000, match=180000, used=150000))
    (600, 3000)
    >>> turn_limits(TurnClock(turn=30000, match=180000, left=60000, to_go=3))  # three moves left on the board
    (10492, 13990)
    >>> turn_limits(TurnClock(turn=1000, spent=300)), turn_limits(TurnClock(turn=1000, spent=900))
    ((600, 600), (0, 0))
    >>> turn_limits(TurnClock(turn=1000, spent=100, lag=200))  # the last moves answered late
    (600, 600)
    >>> turn_limits(TurnClock(turn=0)), turn_limits(TurnClock(turn=1000, left=0))
    ((0, 0), (0, 0))
    """
    left = clock.game_left()
    if clock.turn <= 0 or left == 0:
        return 0, 0
    hard = clock.turn * TURN_SHARE_TWENTIETHS // 20 - TURN_MARGIN
    soft = hard * SOFT_QUARTERS // 4
    if left > 0:
        horizon = min(MATCH_HORIZON, clock.to_go) if clock.to_go > 0 else MATCH_HORIZON
        usable = left - max(0, clock.to_go) * TRAVEL  # every move that may come pays its answer's travel
        spare = usable - max(MATCH_RESERVE, clock.match // MATCH_RESERVE_SHARE)
        least = usable // LOW_CLOCK_SHARE
        hard = min(hard, left * TURN_SHARE_TWENTIETHS // 20 - TURN_MARGIN, max(least, spare // min(HARD_SHARE, horizon)))
        soft = min(soft, hard * SOFT_QUARTERS // 4, max(least, spare // horizon))
    hard -= clock.spent + clock.lag
    if hard <= 0:
        return 0, 0
    return max(1, min(soft, hard)), hard
