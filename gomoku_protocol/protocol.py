"""The Gomocup brain protocol (Piskvork's "new protocol") with the Yixin-board extensions.

This module parses and prints; the board is :class:`position.Position` and the thinking is
:class:`brain.Brain`. A move is computed in a worker thread so that ``YXSTOP`` and ``END`` are
served while it thinks. Bad input never changes the board: a command is checked in full before
anything is applied, and answered ``ERROR <reason>`` (a known command that cannot be done) or
``UNKNOWN <reason>``.
"""

import random
import re
import time
import traceback
from typing import Callable, Optional

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import Channel, Worker
from engine_core.timeman import TurnClock, turn_limits
from gomoku_protocol.brain import Brain, Result
from gomoku_protocol.clock import process_age
from gomoku_protocol.position import MAX_SIZE, MIN_SIZE, STYLES, Position
from gomoku_protocol.rules import BLACK, NEUTRAL, WHITE

UNLIMITED = 2147483647
DEFAULT_TURN_MS = 5000  # when no manager says: a GUI user waits, a tournament always sends INFO
INFO_KEYS = {
    "timeout_turn", "timeout_match", "max_memory", "time_left", "game_type", "rule", "evaluate",
    "folder", "max_depth", "max_node", "hash_size", "thread_num", "style", "caution_factor",
    "pondering", "usedatabase", "checkmate", "show_detail",
}
YIXIN_KEYS = {"max_depth", "max_node", "hash_size", "thread_num", "caution_factor", "pondering"}
_XY = re.compile(r"^\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*$")
_XYF = re.compile(r"^\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*$")
_INT = re.compile(r"^[+-]?\d+$")
MAX_DIGITS = 18  # more than any size, coordinate, field, time or memory a manager sends
# Balanced three-stone swap2 openings (offsets from the centre, black, white, black).
SWAP2_OPENINGS = [
    ((0, 0), (1, 0), (1, 3)), ((0, 0), (1, 1), (0, 3)), ((0, 0), (1, 0), (0, 3)),
    ((0, 0), (1, 1), (1, 3)), ((0, 0), (1, 0), (3, 0)), ((0, 0), (1, 1), (-1, 3)),
]
SWAP_MARGIN = 40  # white must be this far behind (a shape or two) before we take black
BALANCED = 40  # within this of even, three stones become five and the opponent chooses


class ProtocolError(Exception):
    """A command that cannot be carried out; the text follows ``ERROR``."""


class EndSession(Exception):
    """END arrived where a command was still being read."""


def number(text: str) -> int:
    """A whole number of at most :data:`MAX_DIGITS` digits, else ProtocolError.

    >>> number("-12"), number("+7")
    (-12, 7)
    >>> try:
    ...     number("9" * 5000)
    ... except ProtocolError as exc:
    ...     print(exc)
    number 99999999999999999999… of 5000 digits is too long
    """
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise ProtocolError(f"number {text[:20]}… of {digits} digits is too long")
    if not _INT.match(text):
        raise ProtocolError(f"{text[:20]!r} is not a whole number")
    return int(text)


def parse_xy(text: str) -> tuple[int, int]:
    m = _XY.match(text)
    if m is None:
        raise ProtocolError(f"malformed coordinates {text.strip()[:30]!r}, expected x,y")
    return number(m.group(1)), number(m.group(2))


def parse_stone(text: str, bare: bool) -> tuple[int, int, int]:
    """``x,y,field`` as a triple; with ``bare`` (swap2, coloured by order) also ``x,y``, field 0."""
    m = _XYF.match(text)
    if m is not None:
        return number(m.group(1)), number(m.group(2)), number(m.group(3))
    if bare and _XY.match(text):
        x, y = parse_xy(text)
        return x, y, 0
    raise ProtocolError(f"malformed line {text[:30]!r}, expected x,y{'' if bare else ',field'}")


class Saved:
    """What a command may change in the game, to put back if it fails half-way."""

    def __init__(self, proto: "GomocupProtocol") -> None:
        b = proto.board
        self.present = b is not None
        self.size = (proto.width, proto.height, proto.rule)
        self.moves = list(b.history) if b is not None else []
        self.colors = list(b.colors) if b is not None else []
        self.side = b.side if b is not None else BLACK

    def board(self) -> Optional[Position]:
        """A fresh board with the saved stones (the failed one may be half-way through a move)."""
        if not self.present:
            return None
        width, height, rule = self.size
        b = Position(width, height, rule)
        for m, c in zip(self.moves, self.colors):
            b.play(m, c)
        b.side = self.side
        return b


class GomocupProtocol:
    NAME = "gomocup"

    @staticmethod
    def detect(line: str) -> bool:
        """Claim a session that opens with START, RECTSTART, ABOUT or ``INFO <key> <value>``.

        >>> GomocupProtocol.detect("START 20"), GomocupProtocol.detect("INFO timeout_turn 5000")
        (True, True)
        >>> GomocupProtocol.detect("INFO 1.0"), GomocupProtocol.detect("uci")
        (False, False)
        """
        parts = line.split()
        if not parts:
            return False
        head = parts[0]
        if head in ("START", "RECTSTART", "ABOUT"):
            return True
        return head == "INFO" and len(parts) >= 3 and parts[1] in INFO_KEYS

    def __init__(self) -> None:
        self.chan = Channel()
        self.brain = Brain()
        self.worker = Worker()
        self.board: Optional[Position] = None
        self.width = 0
        self.height = 0
        self.rule = 0
        self.yixin = False
        self.timeout_turn = DEFAULT_TURN_MS
        self.timeout_match = 0
        self.time_left = UNLIMITED
        self.used_ms = 0  # this game's thinking, for a game clock without time_left
        self.max_memory = 0
        self.game_type = 0
        self.folder = ""
        self.received = 0.0  # when the current move request arrived
        self.startup = 0.0  # seconds from the process's start to the session's first line
        self.setup_spent = 0.0  # seconds spent handling commands before the first move request
        self.first_move = True
        self.saved = Saved(self)
        self.rng = random.Random()

    # --- the loop --------------------------------------------------------------------------------

    def run(self, chan: Channel) -> None:
        self.chan = chan
        self.startup = process_age()
        while True:
            line = chan.get()
            if line is None:
                self.brain.stop()
                self.worker.join()
                return
            self.received = time.perf_counter()
            text = line.strip()
            if not text:
                continue
            head = text.split()[0].upper()
            if self.worker.busy():
                if head == "YXSTOP":
                    self.brain.stop()
                    continue
                if head == "END":
                    self.brain.stop()
                    return
                self.worker.join()
            if head == "END":
                return
            self.saved = Saved(self)
            try:
                self.dispatch(head, text)
            except EndSession:
                return
            except ProtocolError as exc:
                chan.send(f"ERROR {exc}")
            except Exception as exc:  # noqa: BLE001 - a bug must not end the game: report it, put the game back
                self._fail(exc, self.saved)
            if self.first_move:
                self.setup_spent += time.perf_counter() - self.received

    def _fail(self, exc: Exception, saved: Saved) -> None:
        """An unexpected exception: one ``ERROR`` line, and the game as it was before the command."""
        self.chan.log(traceback.format_exc())
        self.chan.send(f"ERROR internal error: {type(exc).__name__}: {str(exc)[:200]}")
        self.width, self.height, self.rule = saved.size
        try:
            self.board = saved.board()
        except Exception:  # noqa: BLE001 - the saved game itself cannot be rebuilt: start over rather than die
            self.chan.log(traceback.format_exc())
            self.board = None
        try:
            self.brain.clear()
        except Exception:  # noqa: BLE001 - the tables themselves are broken (out of memory): fresh default ones
            self.chan.log(traceback.format_exc())
            self.brain = self.brain.renewed()

    def dispatch(self, head: str, text: str) -> None:
        rest = text[len(head):].strip()
        if head == "START":
            self.cmd_start(rest)
        elif head == "RECTSTART":
            self.cmd_rectstart(rest)
        elif head == "RESTART":
            self.cmd_restart()
        elif head == "INFO":
            self.cmd_info(rest)
        elif head == "ABOUT":
            self.chan.send(
                f'name="sanqi", version="{__version__} ({build_kind()})", author="sanqi developers", country="", '
                f'www="", email=""'
            )
        elif head == "BEGIN":
            self.cmd_begin()
        elif head == "TURN":
            self.cmd_turn(rest)
        elif head in ("BOARD", "YXBOARD", "SWAP2BOARD"):
            self.cmd_board(head)
        elif head == "TAKEBACK":
            self.cmd_takeback(rest)
        elif head == "PLAY":
            self.cmd_play(rest)
        elif head == "YXSTOP":
            self.yixin = True  # nothing is running: the move was already sent
        elif head == "YXSHOWFORBID":
            self.yixin = True
            self.cmd_showforbid()
        elif head == "YXNBEST":
            self.yixin = True
            self.cmd_nbest(rest)
        elif head == "YXHASHCLEAR":
            self.yixin = True
            self.brain.clear()
        else:
            self.chan.send(f"UNKNOWN command {head[:30]}")

    # --- set-up ----------------------------------------------------------------------------------

    def _new_board(self, width: int, height: int) -> Position:
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise ProtocolError(f"unsupported size {width}x{height}: sizes {MIN_SIZE} to {MAX_SIZE} are supported")
        return Position(width, height, self.rule)

    def cmd_start(self, rest: str) -> None:
        if not re.fullmatch(r"\d{1,4}", rest):
            raise ProtocolError(f"malformed START {rest[:20]!r}, expected a board size")
        size = int(rest)
        self.board = self._new_board(size, size)
        self.width = self.height = size
        self.brain.clear()
        self.used_ms = 0
        self.chan.send("OK")

    def cmd_rectstart(self, rest: str) -> None:
        m = re.fullmatch(r"(\d{1,4})\s*,\s*(\d{1,4})", rest)
        if m is None:
            raise ProtocolError(f"malformed RECTSTART {rest[:20]!r}, expected width,height")
        w, h = int(m.group(1)), int(m.group(2))
        self.board = self._new_board(w, h)
        self.width, self.height = w, h
        self.brain.clear()
        self.used_ms = 0
        self.chan.send("OK")

    def cmd_restart(self) -> None:
        if self.board is None:
            raise ProtocolError("RESTART before START")
        self.board = self._new_board(self.width, self.height)
        self.brain.clear()
        self.used_ms = 0
        self.chan.send("OK")

    def _require_board(self, what: str) -> Position:
        if self.board is None:
            raise ProtocolError(f"{what} before START")
        return self.board

    def cmd_info(self, rest: str) -> None:
        parts = rest.split(None, 1)
        if len(parts) < 2:
            raise ProtocolError(f"malformed INFO {rest[:30]!r}, expected a key and a value")
        key, value = parts[0].lower(), parts[1].strip()
        if key in YIXIN_KEYS:
            self.yixin = True
        if key == "folder":
            self.folder = value
            return
        if key == "style":
            if value not in STYLES:
                raise ProtocolError(f"unknown style {value[:20]!r}: use one of {', '.join(STYLES)}")
            self.brain.style = value
            return
        if key == "evaluate":
            return  # the manager's cursor position: nothing to do
        if key not in INFO_KEYS:
            return  # unknown keys are ignored, as the protocol asks
        try:
            n = number(value)
        except ProtocolError as exc:
            raise ProtocolError(f"INFO {key} needs a whole number: {exc}") from None
        if key == "timeout_turn":
            self.timeout_turn = max(0, n)
        elif key == "timeout_match":
            self.timeout_match = max(0, n)
        elif key == "time_left":
            self.time_left = n
        elif key == "max_memory":
            self.max_memory = max(0, n)
            self.brain.set_memory(self.max_memory)
        elif key == "game_type":
            self.game_type = n
        elif key == "rule":
            self.set_rule(n)
        elif key == "max_depth":
            self.brain.max_depth = max(0, min(n, 100))
        elif key == "max_node":
            self.brain.max_nodes = max(0, n)
        elif key == "hash_size":
            if n > 0 and self.max_memory == 0:
                self.brain.resize(max(1, n // 1024))  # Yixin gives kilobytes
        # thread_num and the other Yixin keys: one search thread, nothing to set

    def set_rule(self, n: int) -> None:
        rule = n
        if self.yixin and n == 2:
            rule = 4  # Yixin's numbering: 0 freestyle, 1 standard, 2 renju
        if rule < 0 or rule > 15:
            raise ProtocolError(f"unsupported rule {n}")
        if rule != self.rule:
            self.rule = rule
            if self.board is not None:
                self.board = self._rebuild(self.board.history, self.board.colors)
            self.brain.clear()

    def _rebuild(self, moves: list[int], colors: list[int]) -> Position:
        old = self.board
        assert old is not None
        b = Position(self.width, self.height, self.rule)
        for m, c in zip(moves, colors):
            x, y = old.xy(m)
            b.play(b.index(x, y), c)
        b.side = old.side
        return b

    # --- moves -----------------------------------------------------------------------------------

    def _point(self, b: Position, text: str) -> int:
        x, y = parse_xy(text)
        if not b.on_board(x, y):
            raise ProtocolError(f"{x},{y} is off the {b.width}x{b.height} board")
        i = b.index(x, y)
        if b.cells[i] != 0:
            raise ProtocolError(f"{x},{y} is already occupied")
        return i

    def cmd_begin(self) -> None:
        b = self._require_board("BEGIN")
        if b.stones:
            raise ProtocolError("BEGIN on a board that already has stones")
        self.move()

    def cmd_turn(self, rest: str) -> None:
        b = self._require_board("TURN")
        i = self._point(b, rest)
        b.play(i, b.side)
        self.move()

    def cmd_play(self, rest: str) -> None:
        b = self._require_board("PLAY")
        i = self._point(b, rest)
        if b.side == BLACK and b.forbidden(i):
            raise ProtocolError(f"{rest.strip()} is forbidden for black")
        b.play(i, b.side)
        x, y = b.xy(i)
        self.chan.send(f"{x},{y}")

    def cmd_takeback(self, rest: str) -> None:
        b = self._require_board("TAKEBACK")
        x, y = parse_xy(rest)
        if not b.on_board(x, y) or b.cells[b.index(x, y)] == 0:
            raise ProtocolError(f"no stone on {rest.strip()} to take back")
        i = b.index(x, y)
        if b.history and b.history[-1] == i:
            b.unmake()
        else:
            at = b.history.index(i)
            moves = b.history[:at] + b.history[at + 1:]
            colors = b.colors[:at] + b.colors[at + 1:]
            side = b.colors[at] if b.colors[at] != NEUTRAL else b.side
            self.board = self._rebuild(moves, colors)
            self.board.side = side
        self.chan.send("OK")

    def _read_stones(self, head: str) -> list[tuple[int, int, int]]:
        """The stone lines up to DONE, checked in full (ProtocolError on the first fault, raised at
        DONE so the block is always read to its end). SWAP2BOARD lines may be bare ``x,y``, as
        Piskvork and GomocupJudge send them (field 0: coloured by order)."""
        stones: list[tuple[int, int, int]] = []
        seen: set[tuple[int, int]] = set()
        fault = ""
        while True:
            line = self.chan.get()
            if line is None:
                raise ProtocolError(f"input ended inside {head}")
            text = line.strip()
            if not text:
                continue
            if text.upper() == "DONE":
                break
            if text.upper() == "END":
                raise EndSession()
            if fault:
                continue
            try:
                stone = self._checked_stone(text, head, seen)
            except ProtocolError as exc:
                fault = str(exc)
                continue
            seen.add((stone[0], stone[1]))
            stones.append(stone)
        if fault:
            raise ProtocolError(fault)
        self.received = time.perf_counter()  # DONE starts the move's clock (the manager's view)
        return stones

    def _checked_stone(self, text: str, head: str, seen: set[tuple[int, int]]) -> tuple[int, int, int]:
        try:
            x, y, f = parse_stone(text, head == "SWAP2BOARD")
        except ProtocolError as exc:
            raise ProtocolError(f"{head}: {exc}") from None
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ProtocolError(f"{x},{y} is off the {self.width}x{self.height} board")
        if f not in (0, 1, 2, 3) or (f == 0 and head != "SWAP2BOARD"):
            raise ProtocolError(f"field {f} at {x},{y}: expected 1 (own), 2 (opponent) or 3 (winning line)")
        if (x, y) in seen:
            raise ProtocolError(f"{x},{y} appears twice in {head}")
        return x, y, f

    def _board_from(self, stones: list[tuple[int, int, int]], order_colors: bool) -> Position:
        """A board holding ``stones`` with the side to move being us (field 1)."""
        own = sum(1 for s in stones if s[2] == 1)
        opp = sum(1 for s in stones if s[2] == 2)
        b = Position(self.width, self.height, self.rule)
        if order_colors:
            # swap2: stones are black, white, black… in the order given.
            colors = [BLACK if n % 2 == 0 else WHITE for n in range(len(stones))]
            for (x, y, f), c in zip(stones, colors):
                b.play(b.index(x, y), c if f != 3 else NEUTRAL)
            b.side = BLACK if len(stones) % 2 == 0 else WHITE
            return b
        if self.rule & 4 and stones:
            first = next((s[2] for s in stones if s[2] != 3), 1)
            ours = BLACK if first == 1 else WHITE
        else:
            ours = BLACK if own >= opp else WHITE
        for x, y, f in stones:
            color = NEUTRAL if f == 3 else (ours if f == 1 else 3 - ours)
            b.play(b.index(x, y), color)
        b.side = ours
        return b

    def cmd_board(self, head: str) -> None:
        self._require_board(head)
        stones = self._read_stones(head)
        if head == "SWAP2BOARD":
            self.swap2(stones)
            return
        self.board = self._board_from(stones, False)
        if head == "BOARD":
            self.move()

    def cmd_showforbid(self) -> None:
        b = self._require_board("YXSHOWFORBID")
        text = ""
        if b.renju:
            for i in b.forbidden_points():
                x, y = b.xy(i)
                text += f"{x:02d}{y:02d}"
        self.chan.send(f"FORBID {text}.")

    def cmd_nbest(self, rest: str) -> None:
        self._require_board("YXNBEST")
        if not re.fullmatch(r"\d{1,3}", rest) or int(rest) < 1:
            raise ProtocolError(f"malformed YXNBEST {rest[:20]!r}, expected a count")
        self.move(multipv=int(rest), place=False)

    # --- thinking --------------------------------------------------------------------------------

    def clock(self) -> TurnClock:
        """The clock request for the move asked now, from the manager's ``INFO`` (read by
        :func:`engine_core.timeman.turn_limits`). What the move has cost before the search
        starts is counted from the request; the process's first move pays for its start-up and
        the commands before it too."""
        spent = time.perf_counter() - self.received
        if self.first_move:
            spent += self.startup + self.setup_spent
        left = -1 if self.time_left == UNLIMITED else max(0, self.time_left)
        return TurnClock(self.timeout_turn, self.timeout_match, left, self.used_ms, int(spent * 1000))

    def _limits(self) -> tuple[int, int]:
        """Soft and hard milliseconds left for the move requested now."""
        soft, hard = turn_limits(self.clock())
        self.first_move = False
        return soft, hard

    def _count(self, began: float) -> None:
        """Add a move's thinking, from its request to its answer, to the game's ``used_ms``."""
        self.used_ms += int((time.perf_counter() - began) * 1000)

    def move(self, multipv: int = 1, place: bool = True) -> None:
        b = self._require_board("move")
        if b.full():
            raise ProtocolError("the board is full")
        soft, hard = self._limits()
        began = self.received

        def job() -> None:
            result = self.brain.think(b, soft, hard, self._message, multipv)
            self._answer(b, result, place)
            self._count(began)

        self._think(job)

    def _think(self, job: Callable[[], None]) -> None:
        """Run ``job`` in the worker; if it fails, say so and put the game back as it was before
        the command."""
        saved = self.saved

        def guarded() -> None:
            try:
                job()
            except Exception as exc:  # noqa: BLE001 - as in the command loop: report it, put the game back
                self._fail(exc, saved)

        self.worker.start(guarded)

    def _message(self, text: str) -> None:
        self.chan.send(f"MESSAGE {text}")

    def _answer(self, b: Position, result: Result, place: bool) -> None:
        if result.move < 0:
            self.chan.send("ERROR no legal move")
            return
        pv = " ".join(b.name(m) for m in result.pv) if result.pv else b.name(result.move)
        self.chan.send(f"MESSAGE depth {result.depth} score {result.score} pv {pv} ({result.how})")
        if len(self.brain.last_lines) > 1:
            self.chan.send("MESSAGE nbest " + " ".join(b.name(m) for m in self.brain.last_lines))
        x, y = b.xy(result.move)
        if place:
            b.play(result.move, b.side)
        self.chan.send(f"{x},{y}")

    # --- swap2 -----------------------------------------------------------------------------------

    def swap2(self, stones: list[tuple[int, int, int]]) -> None:
        """Swap2: propose three stones; after three choose to take black (SWAP), play white's move,
        or add a white and a black stone and leave the choice to the opponent; after five, SWAP
        or play white's move."""
        if len(stones) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD with {len(stones)} stones: expected 0, 3 or 5")
        soft, hard = self._limits()
        if not stones:
            self._propose_three()
            return
        b = self._board_from(stones, True)
        self.board = b
        began = self.received

        def job() -> None:
            result = self.brain.think(b, soft, hard, self._message)
            self._swap2_answer(b, result, len(stones) == 3)
            self._count(began)

        self._think(job)

    def _propose_three(self) -> None:
        cx, cy = self.width // 2, self.height // 2
        b = Position(self.width, self.height, self.rule)
        out = []
        for dx, dy in self.rng.choice(SWAP2_OPENINGS):
            x, y = cx + dx, cy + dy
            b.play(b.index(x, y), b.side)
            out.append(f"{x},{y}")
        self.board = b
        self.chan.send(" ".join(out))

    def _swap2_answer(self, b: Position, result: Result, may_add_two: bool) -> None:
        """White (to move) scored ``result.score``: far behind, take black; about even after three
        stones, put white's best move and black's best reply and let the opponent choose."""
        if result.move < 0 or result.score < -SWAP_MARGIN:
            self.chan.send(f"MESSAGE white scores {result.score}: taking black")
            self.chan.send("SWAP")
            return
        pv = result.pv[:2]
        if may_add_two and abs(result.score) <= BALANCED and len(pv) == 2 and pv[0] == result.move:
            self.chan.send(f"MESSAGE white scores {result.score}: adding two stones, the opponent chooses")
            b.play(pv[0], b.side)
            if b.legal(pv[1], b.side):
                b.play(pv[1], b.side)
                self.chan.send(" ".join(f"{b.xy(m)[0]},{b.xy(m)[1]}" for m in pv))
                return
            b.unmake()
        self._answer(b, result, True)
