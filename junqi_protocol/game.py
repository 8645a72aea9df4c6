"""Game state: who stands where, whose turn it is, who is out, and how the game ends.

:class:`Pieces` is shared by the referee (every kind known) and by a player's view (only its own
kinds, -1 for the rest); both follow a game by the announced move results alone.
:class:`Game` adds turns, passes, eliminations, the no-capture limit and the outcome.

>>> g = Game(Board("2p"), Rules("2p"))
>>> g.place(0, parse_lineup("abccddeeffggghhhiiijjkklj")); g.place(1, parse_lineup("abccddeeffggghhhiiijjkklj"))
>>> [e.text(g.board) for e in g.start()]
[]
>>> [e.text(g.board) for e in g.move(g.board.point("G0"), g.board.point("F0"))]
['move S G0-F0 EAT']
"""

from typing import Final, Optional

from junqi_protocol.board import HOME, Board
from junqi_protocol.rules import (BOMB, BOTH, EAT, ENGLISH, ENGINEER, FLAG, KILLED, MARSHAL, MOVE, RESULTS, combat,
                                  parse_lineup, targets, why_illegal)

INFO_MODES: Final = ("dark", "allies", "open")


class Rules:
    """Options of one game. Defaults: four players draw after 70 moves without a capture and are out
    after 5 passes or timeouts; two players follow the competition (31 quiet moves: the side to
    move loses; the first pass or timeout loses)."""

    def __init__(self, variant: str, text: str = "") -> None:
        four = variant == "4p"
        self.nocapture: int = 70 if four else 31
        self.nocapture_loses: bool = not four
        self.passes: int = 5 if four else 1
        self.info: str = "dark"
        for item in text.split():
            self.set(item)

    def set(self, item: str) -> None:
        """Apply one ``key=value``; raises ValueError naming what is wrong."""
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"rule option {item!r} is not key=value")
        if key == "info":
            if value not in INFO_MODES:
                raise ValueError(f"info={value}: use one of {', '.join(INFO_MODES)}")
            self.info = value
            return
        if key not in ("nocapture", "nocapture_loses", "passes"):
            raise ValueError(f"unknown rule option {key!r}; known: nocapture, nocapture_loses, passes, info")
        if not value.isdigit():
            raise ValueError(f"{key}={value}: a whole number is expected")
        n = int(value)
        if key == "nocapture":
            self.nocapture = n
        elif key == "passes":
            self.passes = max(1, n)
        else:
            self.nocapture_loses = n != 0

    def text(self) -> str:
        return f"nocapture={self.nocapture} nocapture_loses={int(self.nocapture_loses)} passes={self.passes} info={self.info}"


class Event:
    """Something every player is told: ``move``, ``pass``, ``marshal`` (its flag square in
    ``frm``), ``flag`` (captured), ``out`` (with a reason) or ``end`` (``seat`` = winning team,
    -1 for a draw)."""

    def __init__(self, kind: str, seat: int, frm: int = -1, to: int = -1, result: int = -1, reason: str = "") -> None:
        self.kind: str = kind
        self.seat: int = seat
        self.frm: int = frm
        self.to: int = to
        self.result: int = result
        self.reason: str = reason

    def text(self, board: Board) -> str:
        """The broadcast line of our protocol."""
        who = board.letters[self.seat] if self.seat >= 0 else ""
        if self.kind == "move":
            return f"move {who} {board.names[self.frm]}-{board.names[self.to]} {RESULTS[self.result]}"
        if self.kind == "marshal":
            return f"marshal {who} {board.names[self.frm] if self.frm >= 0 else 'none'}"
        if self.kind == "end":
            return f"gameover {team_name(board, self.seat)} {self.reason}"
        return f"{self.kind} {who} {self.reason}".rstrip()


def team_name(board: Board, team: int) -> str:
    """``SN``/``EW`` in four-player games, the seat letter in two-player games, ``draw`` for -1."""
    if team < 0:
        return "draw"
    return "".join(board.letters[s] for s in range(board.seats) if board.team(s) == team)


class Pieces:
    """The pieces on the board as one side knows them: occupancy (``owner``), kinds (-1 unknown) and
    each piece's starting point (``tag``). Not the search's position (that is
    :class:`junqi_protocol.position.Position`, one sampled world with every kind fixed)."""

    def __init__(self, board: Board) -> None:
        self.board: Board = board
        self.owner: list[int] = [-1] * board.size
        self.kind: list[int] = [-1] * board.size
        self.tag: list[int] = [-1] * board.size

    def place(self, seat: int, kinds: Optional[list[int]]) -> None:
        """Fill a home area; ``kinds`` per home slot, or None when they are hidden."""
        for slot in range(HOME):
            p = seat * HOME + slot
            if self.board.camp[p]:
                continue
            self.owner[p] = seat
            self.kind[p] = kinds[slot] if kinds is not None else -1
            self.tag[p] = p

    def apply(self, frm: int, to: int, result: int) -> None:
        if result in (KILLED, BOTH):
            self._clear(frm)
        if result in (EAT, BOTH):
            self._clear(to)
        if result in (MOVE, EAT):
            self.owner[to] = self.owner[frm]
            self.kind[to] = self.kind[frm]
            self.tag[to] = self.tag[frm]
            self._clear(frm)

    def _clear(self, p: int) -> None:
        self.owner[p] = -1
        self.kind[p] = -1
        self.tag[p] = -1

    def remove(self, seat: int) -> None:
        for p in range(self.board.size):
            if self.owner[p] == seat:
                self._clear(p)

    def find(self, seat: int, kind: int) -> int:
        for p in range(self.board.size):
            if self.owner[p] == seat and self.kind[p] == kind:
                return p
        return -1

    def moves(self, seat: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for p in range(self.board.size):
            if self.owner[p] == seat:
                for q in targets(self.board, self.owner, self.kind, p):
                    out.append((p, q))
        return out

    def has_move(self, seat: int) -> bool:
        for p in range(self.board.size):
            if self.owner[p] == seat and targets(self.board, self.owner, self.kind, p):
                return True
        return False


class IllegalMove(Exception):
    """A move the rules forbid: the referee's verdict on a seat, not a bad value (so no ValueError, which
    a bug may raise too)."""


class Game:
    """A refereed game with every kind known. Seats move in order 0, 1, 2, 3 (S, E, N, W:
    counter-clockwise), skipping players who are out."""

    def __init__(self, board: Board, rules: Rules) -> None:
        self.board: Board = board
        self.rules: Rules = rules
        self.pos: Pieces = Pieces(board)
        self.alive: list[bool] = [True] * board.seats
        self.passes: list[int] = [0] * board.seats
        self.turn: int = 0
        self.quiet: int = 0
        self.ply: int = 0
        self.over: bool = False
        self.winner: int = -2
        self.reason: str = ""

    def place(self, seat: int, kinds: list[int]) -> None:
        self.pos.place(seat, kinds)

    def start(self) -> list[Event]:
        """Events before the first move: players already out, or a first player without a move."""
        events: list[Event] = []
        self._check_end(events)
        if not self.over and not self.alive[self.turn]:
            self._advance(events)
        elif not self.over:
            self._begin_turn(events)
        return events

    def legal_moves(self) -> list[tuple[int, int]]:
        return self.pos.moves(self.turn)

    def move(self, frm: int, to: int) -> list[Event]:
        """Play a move of the side to move; raises IllegalMove naming the rule it breaks."""
        if self.over:
            raise IllegalMove("the game is over")
        if not (0 <= frm < self.board.size and 0 <= to < self.board.size):
            raise IllegalMove("off the board")
        seat = self.turn
        pos = self.pos
        err = why_illegal(self.board, pos.owner, pos.kind, seat, frm, to)
        if err is not None:
            raise IllegalMove(err)
        defender = pos.owner[to]
        att, dfn = pos.kind[frm], pos.kind[to]
        result = MOVE if defender < 0 else combat(att, dfn)
        pos.apply(frm, to, result)
        events = [Event("move", seat, frm, to, result)]
        self.ply += 1
        self.quiet = 0 if result != MOVE else self.quiet + 1
        if att == MARSHAL and result in (KILLED, BOTH):
            events.append(Event("marshal", seat, pos.find(seat, FLAG)))
        if dfn == MARSHAL and result in (EAT, BOTH):
            events.append(Event("marshal", defender, pos.find(defender, FLAG)))
        if dfn == FLAG:
            events.append(Event("flag", defender, reason=self.board.letters[seat]))
            self._eliminate(defender, "flag", events)
        self._after(events)
        return events

    def pass_turn(self, reason: str = "pass") -> list[Event]:
        """A pass or a timeout of the side to move; its ``rules.passes``-th of the game puts it out."""
        seat = self.turn
        self.ply += 1
        self.quiet += 1
        self.passes[seat] += 1
        events = [Event("pass", seat, reason=reason)]
        if self.passes[seat] >= self.rules.passes:
            self._eliminate(seat, "passes", events)
        self._after(events)
        return events

    def eliminate(self, seat: int, reason: str) -> list[Event]:
        """Put a player out for a reason outside the board (illegal move, crash, clock)."""
        events: list[Event] = []
        if self.over or not self.alive[seat]:
            return events
        was_turn = seat == self.turn
        self._eliminate(seat, reason, events)
        if was_turn:
            self._after(events)
        else:
            self._check_end(events)
        return events

    def _eliminate(self, seat: int, reason: str, events: list[Event]) -> None:
        if not self.alive[seat]:
            return
        self.alive[seat] = False
        self.pos.remove(seat)
        events.append(Event("out", seat, reason=reason))

    def _check_end(self, events: list[Event]) -> None:
        if self.over:
            return
        teams = {self.board.team(s) for s in range(self.board.seats) if self.alive[s]}
        if len(teams) <= 1:
            reason = events[-1].reason if events and events[-1].kind == "out" else "out"
            self._end(teams.pop() if teams else -1, reason, events)

    def _end(self, winner: int, reason: str, events: list[Event]) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason
        events.append(Event("end", winner, reason=reason))

    def _after(self, events: list[Event]) -> None:
        self._check_end(events)
        if self.over:
            return
        self._advance(events)

    def _advance(self, events: list[Event]) -> None:
        n = self.board.seats
        self.turn = (self.turn + 1) % n
        while not self.alive[self.turn]:
            self.turn = (self.turn + 1) % n
        if self.quiet >= self.rules.nocapture:
            if not self.rules.nocapture_loses:
                self._end(-1, "nocapture", events)
                return
            self.quiet = 0
            self._eliminate(self.turn, "nocapture", events)
            self._after(events)
            return
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        if self.pos.has_move(self.turn):
            return
        if self.board.seats == 2 and not self.pos.has_move(1 - self.turn):
            self._end(-1, "nomoves", events)
            return
        self._eliminate(self.turn, "nomoves", events)
        self._after(events)


def full_game(variant: str, lineups: list[str], rules_text: str = "") -> Game:
    """A game with every seat's lineup placed, ready for :meth:`Game.start`."""
    board = Board(variant)
    g = Game(board, Rules(variant, rules_text))
    for seat, text in enumerate(lineups):
        g.place(seat, parse_lineup(text))
    return g


MOVERS: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, BOMB)


def report_problem(pos: Pieces, alive: list[bool], ev: Event) -> Optional[str]:
    """Why an announced event cannot be true on ``pos`` (kinds -1 where unknown), or None.

    >>> g = full_game("2p", ["abccddeeffggghhhiiijjkklj"] * 2)
    >>> b = g.board
    >>> report_problem(g.pos, g.alive, parse_event(b, "move N G0-L1 EAT"))
    'move: N has no piece on G0'
    >>> report_problem(g.pos, g.alive, parse_event(b, "move S K0-L1 EAT"))
    'move: L1 holds an ally of S'
    >>> report_problem(g.pos, g.alive, parse_event(b, "marshal N L1"))
    "marshal: L1 is not one of N's headquarters"
    """
    b = pos.board
    if ev.kind == "end":
        return None
    who = b.letters[ev.seat]
    if not alive[ev.seat]:
        return f"{ev.kind}: {who} is out already"
    if ev.kind == "move":
        return _move_problem(pos, ev)
    if ev.kind == "marshal":
        return _marshal_problem(pos, ev)
    if ev.kind == "flag":
        by = b.letters.find(ev.reason) if len(ev.reason) == 1 else -1
        if by < 0 or not alive[by] or b.team(by) == b.team(ev.seat):
            return f"flag: {ev.reason!r} is no opponent of {who} still playing"
    return None


def _move_problem(pos: Pieces, ev: Event) -> Optional[str]:
    b = pos.board
    frm, to = ev.frm, ev.to
    who = b.letters[ev.seat]
    if pos.owner[frm] != ev.seat:
        return f"move: {who} has no piece on {b.names[frm]}"
    d = pos.owner[to]
    if d >= 0 and b.team(d) == b.team(ev.seat):
        return f"move: {b.names[to]} holds an ally of {who}"
    if (d < 0) != (ev.result == MOVE):
        return f"move: {RESULTS[ev.result]} does not fit {'an empty' if d < 0 else 'an occupied'} {b.names[to]}"
    att = pos.kind[frm]
    if att < 0:
        pos.kind[frm] = ENGINEER  # an unknown piece: the widest reach any mover has
        err = why_illegal(b, pos.owner, pos.kind, ev.seat, frm, to)
        pos.kind[frm] = att
    else:
        err = why_illegal(b, pos.owner, pos.kind, ev.seat, frm, to)
    if err is not None:
        return f"move: {b.names[frm]}-{b.names[to]}: {err}"
    if d >= 0:
        attackers = [att] if att >= 0 else list(MOVERS)
        defenders = [pos.kind[to]] if pos.kind[to] >= 0 else list(range(12))
        if not any(combat(a, k) == ev.result for a in attackers for k in defenders):
            return (f"move: {RESULTS[ev.result]} cannot happen when {_kind_name(att)} on {b.names[frm]} "
                    f"attacks {_kind_name(pos.kind[to])} on {b.names[to]}")
    return None


def _marshal_problem(pos: Pieces, ev: Event) -> Optional[str]:
    b = pos.board
    who = b.letters[ev.seat]
    if ev.frm >= 0 and not (b.hq[ev.frm] and b.seat_of[ev.frm] == ev.seat):
        return f"marshal: {b.names[ev.frm]} is not one of {who}'s headquarters"
    if ev.frm >= 0 and (pos.owner[ev.frm] != ev.seat or pos.kind[ev.frm] not in (-1, FLAG)):
        return f"marshal: {who}'s flag cannot stand on {b.names[ev.frm]}"
    if pos.find(ev.seat, MARSHAL) >= 0:
        return f"marshal: {who}'s 司令 is still on the board"
    return None


def _kind_name(kind: int) -> str:
    return "a hidden piece" if kind < 0 else f"a {ENGLISH[kind]}"


def parse_event(board: Board, line: str) -> Event:
    """The inverse of :meth:`Event.text`; raises ValueError on a line that is not an event.

    >>> parse_event(Board("4p"), "move E E01-C22 EAT").text(Board("4p"))
    'move E E01-C22 EAT'
    """
    words = line.split()
    if not words:
        raise ValueError("empty event")
    kind = words[0]
    if kind == "gameover" and len(words) == 3:
        team = -1
        if words[1] != "draw":
            seats = [board.letters.find(ch) for ch in words[1]]
            if not seats or min(seats) < 0:
                raise ValueError(f"unknown team {words[1]!r}")
            team = board.team(seats[0])
        return Event("end", team, reason=words[2])
    if len(words) < 2 or len(words[1]) != 1 or words[1] not in board.letters:
        raise ValueError(f"not an event: {line!r}")
    seat = board.letters.index(words[1])
    if kind == "move" and len(words) == 4 and words[3] in RESULTS:
        frm, dash, to = words[2].partition("-")
        if not dash:
            raise ValueError(f"move {words[2]!r} is not FROM-TO")
        return Event("move", seat, board.point(frm), board.point(to), RESULTS.index(words[3]))
    if kind == "marshal" and len(words) == 3:
        return Event("marshal", seat, board.point(words[2]) if words[2] != "none" else -1)
    if kind in ("pass", "out", "flag") and len(words) == 3:
        return Event(kind, seat, reason=words[2])
    raise ValueError(f"not an event: {line!r}")
