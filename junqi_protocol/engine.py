"""The junqi front object both adapters call: one player in one game, through :class:`Player` (the
thinking) and the :class:`Journal` of everything it accepted, so the adapters (``protocol``,
``ccgc``) only parse words and print.

Each operation checks its command against the game's state before it changes anything and refuses
it with the core's :class:`engine_core.loop.Refusal`, the state as it was (the player raises it too,
for an option it cannot take). The journal records a change only once the player has made it whole.
Should an operation fail anyway half-way (a bug of ours, any other exception, a ``ValueError`` too:
only a Refusal is a refusal), the front restores itself
before the failure goes on to the adapter, by the core's one rule
(:func:`engine_core.loop.undone_on_failure`, as gomoku's front does): a new player is rebuilt from
the journal, through everything accepted before the command.

>>> front = Engine(lambda: Player("random"))
>>> front.lineup("")
Traceback (most recent call last):
engine_core.loop.Refusal: lineup: no newgame yet
>>> front.new_game("2p", 0, Rules("2p"))
>>> front.lineup("abccddeeffggghhhiiijjkklj")
'abccddeeffggghhhiiijjkklj'
>>> front.start()
>>> front.started
True
"""

from typing import Callable, Optional

from engine_core.loop import Front, Refusal, undone_on_failure
from engine_core.timeman import MoveRequest
from junqi_protocol.board import Board
from junqi_protocol.game import Event, Rules
from junqi_protocol.journal import Journal
from junqi_protocol.player import Player
from junqi_protocol.rules import KILLED, MOVE, check_lineup, short_lineup

Move = tuple[int, int]


class Engine(Front):
    """One junqi player's game behind an adapter: its :class:`Player`, the journal that rebuilds it,
    and what a game allows when (lineups before ``start``, events and moves after it), and what a
    CCGC game tells (our move's result, the enemy flag) judged against what we know. A refusal is a
    :class:`Refusal` (the player raises it too, for an option)."""

    def __init__(self, make: Callable[[], Player] = Player) -> None:
        self._make = make
        self._player = make()
        self._journal = Journal()
        self._pending: Optional[Move] = None  # our move whose result the referee tells only later (CCGC)
        self._enemy_flag = -1  # the enemy flag's point once CCGC has shown it (-1: not yet)

    def recover(self) -> None:
        """The state as the journal has it: the failed command may have changed the player half-way,
        so a new one goes through everything accepted so far."""
        self._player.close()
        self._player = self._journal.rebuild(self._make)

    def close(self) -> None:
        """End the player's worker processes, if any (the session is ending)."""
        self._player.close()

    # --- what the adapters read ------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """The kind of player (the ``player`` option)."""
        return self._player.kind

    @property
    def started(self) -> bool:
        """Whether the game has started (and not ended)."""
        return self._journal.started

    def board(self, word: str) -> Board:
        """The game's board, to read and write point names: ``word`` is refused before a new game."""
        if self._journal.board is None:
            raise Refusal(f"{word}: no newgame yet")
        return self._journal.board

    def setting_up(self, word: str) -> Board:
        """The game's board while lineups may still be given: ``word`` is refused otherwise."""
        board = self.board(word)
        if self._journal.started:
            raise Refusal(f"{word}: the game has started")
        return board

    def playing(self, word: str) -> Board:
        """The game's board once it has started: ``word`` is refused before."""
        board = self.board(word)
        if not self._journal.started:
            raise Refusal(f"{word}: the game has not started (send start after the lineups)")
        return board

    def problem(self, ev: Event) -> Optional[str]:
        """Why a reported ``ev`` cannot be true on what we know, or None."""
        return self._player.problem(ev)

    def occupied(self, point: int) -> bool:
        """Whether a piece (anyone's) stands on ``point``."""
        return self._player.occupied(point)

    def last_search(self) -> str:
        """What the last move's search did, for the log ("" when this kind of player does not search)."""
        return self._player.last_search()

    # --- what changes the state ------------------------------------------------------------------

    @undone_on_failure
    def set_option(self, name: str, value: str) -> None:
        """Set an engine option (``player``, ``seed``, ``threads``, ``movetime``): refused, changing nothing, or done."""
        self._player.set_option(name, value)
        self._journal.options.append((name, value))

    @undone_on_failure
    def new_game(self, variant: str, seat: int, rules: Rules) -> None:
        """A new game of ``variant`` in which we sit at ``seat``."""
        self._player.new_game(variant, seat, rules)
        self._journal.new_game(variant, seat, rules)

    @undone_on_failure
    def lineup(self, given: str) -> str:
        """Our lineup for the game, ``given`` ("": our own choice), before it starts."""
        self.setting_up("lineup")
        err = check_lineup(given) if given else None
        if err is not None:
            raise Refusal(f"lineup: {err}")
        text = self._player.lineup(given)
        self._journal.lineup = text
        return text

    def visible(self, seat: int, lineup: str) -> None:
        """Another seat's lineup, shown to us (a game with open lineups), before the game starts."""
        board = self.setting_up("visible")
        if seat == self._journal.seat:
            raise Refusal(f"visible: {board.letters[seat]} is our own seat")
        err = check_lineup(lineup)
        if err is not None:
            raise Refusal(f"visible {board.letters[seat]}: {err}")
        self._journal.visible[seat] = short_lineup(lineup)

    @undone_on_failure
    def start(self) -> None:
        """Start the game: every lineup is known (ours) or hidden (the others')."""
        self.board("start")
        if self._journal.started:
            raise Refusal("start: the game has started already")
        if not self._journal.lineup:
            raise Refusal("start: we have no lineup for this game (answer 'lineup' or 'lineup LETTERS' first)")
        self._player.begin(self._journal.visible)
        self._journal.started = True

    @undone_on_failure
    def deal(self, variant: str, seat: int, rules: Rules) -> str:
        """A new game started at once with a lineup of our choice (CCGC's ``START``): that lineup."""
        self._pending = None
        self._enemy_flag = -1
        self._player.new_game(variant, seat, rules)
        lineup = self._player.lineup("")
        self._player.begin({})
        self._journal.new_game(variant, seat, rules)
        self._journal.lineup = lineup
        self._journal.started = True
        return lineup

    @undone_on_failure
    def event(self, ev: Event) -> None:
        """What the referee reports: refused when it contradicts what we know; the end of
        the game ends it."""
        if ev.kind == "end":
            self._journal.started = False
            return
        problem = self._player.problem(ev)
        if problem is not None:
            raise Refusal(problem)
        self._player.observe(ev)
        self._journal.events.append(ev)

    @undone_on_failure
    def choose(self, clock: Optional[MoveRequest] = None, asked: float = 0.0) -> Optional[Move]:
        """Our move (None: pass) within ``clock`` counted from ``asked`` (see :meth:`Player.choose`)."""
        return self._player.choose(clock, asked)

    # --- a game told in CCGC's terms: our move's result after it, the enemy flag ---------------------

    @property
    def awaiting_result(self) -> bool:
        """Whether our last move by :meth:`play` still waits for its result."""
        return self._pending is not None

    def play(self, clock: Optional[MoveRequest] = None, asked: float = 0.0) -> Optional[Move]:
        """Our move, as :meth:`choose`, when the referee tells its result only afterwards (CCGC, where
        our own move is not reported back as an event): it waits for :meth:`settle`."""
        move = self.choose(clock, asked)
        self._pending = move
        return move

    def settle(self, result: int) -> tuple[int, bool, Optional[str]]:
        """Learn our waiting move with ``result`` (one of :data:`junqi_protocol.rules.RESULTS`' codes;
        -1: none came): ``result`` when it fits what we know, else the one we can be sure of: a move to
        an empty point was a plain move, and a contested one is taken as lost (the cautious reading: we
        never count on a piece we may not have). Returns the result taken, whether it is ``result``,
        and None or why it contradicts what we know (then it is not learned, see :meth:`learn`). Either
        way the move waits no more, unless learning it failed (then the next command settles it again)."""
        assert self._pending is not None
        frm, to = self._pending
        contested = self._player.occupied(to)
        given = result >= 0 and (result == MOVE) != contested
        taken = result if given else KILLED if contested else MOVE
        problem = self.learn(Event("move", self._journal.seat, frm, to, taken))
        self._pending = None
        return taken, given, problem

    def opponent_moved(self, frm: int, to: int, result: int) -> Optional[str]:
        """The opponent's move from ``frm`` to ``to`` with ``result``, as :meth:`learn` takes it."""
        return self.learn(Event("move", self._opponent(), frm, to, result))

    def flag_shown(self, point: int) -> Optional[str]:
        """A flag shown on ``point``: a side's flag is announced once its marshal is dead, and CCGC repeats
        it in every ``GO`` and ``RESULT``. The enemy's is news once (its marshal died), ours none to us.
        None, or why the news was set aside (:meth:`learn`)."""
        board = self.board("flag")
        if point == self._enemy_flag or board.seat_of[point] == self._journal.seat:
            return None
        problem = self.learn(Event("marshal", self._opponent(), point))
        if problem is None:
            self._enemy_flag = point
        return problem

    def learn(self, ev: Event) -> Optional[str]:
        """Take a reported ``ev`` unless it contradicts what we know: None, or why it was set aside (CCGC
        has no error reply, so a report that cannot be true is passed over rather than refused)."""
        problem = self._player.problem(ev)
        if problem is None:
            self.event(ev)
        return problem

    def _opponent(self) -> int:
        """The other seat of a two-player (CCGC) game."""
        return 1 - self._journal.seat
