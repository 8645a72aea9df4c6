"""The Gomocup brain protocol (Piskvork's "new protocol") with the Yixin-board extensions.

This module only parses and prints: the game, its clock and every choice (swap2's included) are
:class:`engine.Engine`'s, which thinks in a worker thread so that ``YXSTOP`` and ``END`` are served
while it does. Bad input never changes the game: the engine checks a command in full before it
changes anything, and the answer is ``ERROR <reason>`` (a known command that cannot be done) or
``UNKNOWN <reason>``.
"""

import re
import time
import traceback

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import Channel
from gomoku_protocol.engine import (MOVE, NO_MOVE, ORDERED, SWAP, Decision, Engine, NoGame, Point, Refusal,
                                    Stone)

INFO_KEYS = {
    "timeout_turn", "timeout_match", "max_memory", "time_left", "game_type", "rule", "evaluate",
    "folder", "max_depth", "max_node", "hash_size", "thread_num", "style", "caution_factor",
    "pondering", "usedatabase", "checkmate", "show_detail",
}
YIXIN_KEYS = {"max_depth", "max_node", "hash_size", "thread_num", "caution_factor", "pondering"}
YIXIN_RENJU = 2  # Yixin numbers its rules 0 freestyle, 1 standard, 2 renju; Gomocup's renju is 4
GOMOCUP_RENJU = 4
_XY = re.compile(r"^\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*$")
_XYF = re.compile(r"^\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*$")
_INT = re.compile(r"^[+-]?\d+$")
MAX_DIGITS = 18  # more than any size, coordinate, field, time or memory a manager sends


class EndSession(Exception):
    """END arrived where a command was still being read."""


def number(text: str) -> int:
    """A whole number of at most :data:`MAX_DIGITS` digits, else Refusal.

    >>> number("-12"), number("+7")
    (-12, 7)
    >>> try:
    ...     number("9" * 5000)
    ... except Refusal as exc:
    ...     print(exc)
    number 99999999999999999999… of 5000 digits is too long
    """
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise Refusal(f"number {text[:20]}… of {digits} digits is too long")
    if not _INT.match(text):
        raise Refusal(f"{text[:20]!r} is not a whole number")
    return int(text)


def parse_xy(text: str) -> tuple[int, int]:
    m = _XY.match(text)
    if m is None:
        raise Refusal(f"malformed coordinates {text.strip()[:30]!r}, expected x,y")
    return number(m.group(1)), number(m.group(2))


def parse_stone(text: str, bare: bool) -> Stone:
    """``x,y,field`` as a triple; with ``bare`` (swap2, coloured by order) also ``x,y``, field 0."""
    m = _XYF.match(text)
    if m is not None:
        return number(m.group(1)), number(m.group(2)), number(m.group(3))
    if bare and _XY.match(text):
        x, y = parse_xy(text)
        return x, y, ORDERED
    raise Refusal(f"malformed line {text[:30]!r}, expected x,y{'' if bare else ',field'}")


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
        self.engine = Engine(lambda text: self.chan.log(text))
        self.yixin = False  # the manager spoke Yixin's extensions: its rule numbers are Yixin's

    # --- the loop --------------------------------------------------------------------------------

    def run(self, chan: Channel) -> None:
        self.chan = chan
        engine = self.engine
        engine.session_started()
        while True:
            line = chan.get()
            if line is None:
                engine.stop()
                engine.wait()
                return
            engine.arrived(time.perf_counter())
            text = line.strip()
            if not text:
                continue
            head = text.split()[0].upper()
            if engine.busy():
                if head == "YXSTOP":
                    engine.stop()
                    continue
                if head == "END":
                    engine.stop()
                    return
                engine.wait()
            if head == "END":
                return
            try:
                self.dispatch(head, text)
            except EndSession:
                return
            except NoGame:
                chan.send(f"ERROR {head} before START")
            except Refusal as exc:
                chan.send(f"ERROR {exc}")
            except Exception as exc:  # noqa: BLE001 - a bug must not end the game: report it, put the game back
                self._failed(exc)
                engine.recover()
            engine.handled()

    def _failed(self, exc: Exception) -> None:
        """An unexpected exception (the engine puts the game back): one ``ERROR`` line, the traceback on stderr."""
        self.chan.log(traceback.format_exc())
        self.chan.send(f"ERROR internal error: {type(exc).__name__}: {str(exc)[:200]}")

    def dispatch(self, head: str, text: str) -> None:
        rest = text[len(head):].strip()
        if head == "START":
            self.cmd_start(rest)
        elif head == "RECTSTART":
            self.cmd_rectstart(rest)
        elif head == "RESTART":
            self.engine.restart()
            self.chan.send("OK")
        elif head == "INFO":
            self.cmd_info(rest)
        elif head == "ABOUT":
            self.chan.send(
                f'name="sanqi", version="{__version__} ({build_kind()})", author="sanqi developers", country="", '
                f'www="", email=""'
            )
        elif head == "BEGIN":
            self.engine.begin(self._message, self._answer, self._failed)
        elif head == "TURN":
            self.engine.require_game()  # before START, that is the answer whatever the coordinates
            x, y = parse_xy(rest)
            self.engine.turn(x, y, self._message, self._answer, self._failed)
        elif head in ("BOARD", "YXBOARD", "SWAP2BOARD"):
            self.cmd_board(head)
        elif head == "TAKEBACK":
            self.engine.require_game()
            x, y = parse_xy(rest)
            self.engine.takeback(x, y)
            self.chan.send("OK")
        elif head == "PLAY":
            self.engine.require_game()
            x, y = parse_xy(rest)
            self.chan.send(points(self.engine.play(x, y)))
        elif head == "YXSTOP":
            self.yixin = True  # nothing is running: the move was already sent
        elif head == "YXSHOWFORBID":
            self.yixin = True
            self.chan.send(f"FORBID {''.join(f'{x:02d}{y:02d}' for x, y in self.engine.forbidden_points())}.")
        elif head == "YXNBEST":
            self.yixin = True
            self.cmd_nbest(rest)
        elif head == "YXHASHCLEAR":
            self.yixin = True
            self.engine.clear_hash()
        else:
            self.chan.send(f"UNKNOWN command {head[:30]}")

    # --- set-up ----------------------------------------------------------------------------------

    def cmd_start(self, rest: str) -> None:
        if not re.fullmatch(r"\d{1,4}", rest):
            raise Refusal(f"malformed START {rest[:20]!r}, expected a board size")
        self.engine.new_game(int(rest), int(rest))
        self.chan.send("OK")

    def cmd_rectstart(self, rest: str) -> None:
        m = re.fullmatch(r"(\d{1,4})\s*,\s*(\d{1,4})", rest)
        if m is None:
            raise Refusal(f"malformed RECTSTART {rest[:20]!r}, expected width,height")
        self.engine.new_game(int(m.group(1)), int(m.group(2)))
        self.chan.send("OK")

    def cmd_info(self, rest: str) -> None:
        parts = rest.split(None, 1)
        if len(parts) < 2:
            raise Refusal(f"malformed INFO {rest[:30]!r}, expected a key and a value")
        key, value = parts[0].lower(), parts[1].strip()
        if key in YIXIN_KEYS:
            self.yixin = True
        if key == "style":
            self.engine.set_style(value)
            return
        if key in ("folder", "evaluate") or key not in INFO_KEYS:
            return  # a folder for files (we keep none), the manager's cursor, or a key the protocol says to ignore
        try:
            n = number(value)
        except Refusal as exc:
            raise Refusal(f"INFO {key} needs a whole number: {exc}") from None
        engine = self.engine
        if key == "timeout_turn":
            engine.set_turn_time(n)
        elif key == "timeout_match":
            engine.set_match_time(n)
        elif key == "time_left":
            engine.set_time_left(n)
        elif key == "max_memory":
            engine.set_memory(n)
        elif key == "rule":
            engine.set_rule(GOMOCUP_RENJU if self.yixin and n == YIXIN_RENJU else n)
        elif key == "max_depth":
            engine.set_max_depth(n)
        elif key == "max_node":
            engine.set_max_nodes(n)
        elif key == "hash_size":
            engine.set_hash_kb(n)  # Yixin gives kilobytes
        # game_type, thread_num and the other Yixin keys: one search thread, nothing to set

    # --- board blocks ----------------------------------------------------------------------------

    def _read_stones(self, head: str) -> list[Stone]:
        """The stone lines up to DONE, checked in full (Refusal on the first fault, raised at
        DONE so the block is always read to its end). SWAP2BOARD lines may be bare ``x,y``, as
        Piskvork and GomocupJudge send them (field 0: coloured by order)."""
        stones: list[Stone] = []
        seen: set[Point] = set()
        fault = ""
        while True:
            line = self.chan.get()
            if line is None:
                raise Refusal(f"input ended inside {head}")
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
            except Refusal as exc:
                fault = str(exc)
                continue
            seen.add((stone[0], stone[1]))
            stones.append(stone)
        if fault:
            raise Refusal(fault)
        self.engine.arrived(time.perf_counter())  # DONE starts the move's clock (the manager's view)
        return stones

    def _checked_stone(self, text: str, head: str, seen: set[Point]) -> Stone:
        ordered = head == "SWAP2BOARD"
        try:
            stone = parse_stone(text, ordered)
        except Refusal as exc:
            raise Refusal(f"{head}: {exc}") from None
        self.engine.check_stone(stone, ordered, seen, head)
        return stone

    def cmd_board(self, head: str) -> None:
        self.engine.require_game()
        stones = self._read_stones(head)
        if head == "SWAP2BOARD":
            proposed = self.engine.swap2(stones, self._message, self._answer, self._failed)
            if proposed:
                self.chan.send(points(*proposed))
        elif head == "BOARD":
            self.engine.board(stones, self._message, self._answer, self._failed)
        else:
            self.engine.set_board(stones)

    def cmd_nbest(self, rest: str) -> None:
        self.engine.require_game()
        if not re.fullmatch(r"\d{1,3}", rest) or int(rest) < 1:
            raise Refusal(f"malformed YXNBEST {rest[:20]!r}, expected a count")
        self.engine.nbest(int(rest), self._message, self._answer, self._failed)

    # --- the engine's answers --------------------------------------------------------------------

    def _message(self, text: str) -> None:
        self.chan.send(f"MESSAGE {text}")

    def _answer(self, decision: Decision) -> None:
        """A move request's decision, as the protocol says it (from the worker thread)."""
        result = decision.result
        if decision.kind == NO_MOVE:
            self.chan.send("ERROR no legal move")
        elif decision.kind == SWAP:
            self._message(f"white scores {result.score}: taking black")
            self.chan.send("SWAP")
        elif decision.kind == MOVE:
            self._message(f"depth {result.depth} score {result.score} pv {' '.join(decision.pv)} ({result.how})")
            if decision.nbest:
                self._message("nbest " + " ".join(decision.nbest))
            self.chan.send(points(*decision.stones))
        else:  # swap2's two stones more
            self._message(f"white scores {result.score}: adding two stones, the opponent chooses")
            self.chan.send(points(*decision.stones))


def points(*stones: Point) -> str:
    """Points as the protocol writes them: ``x,y``, several on one line.

    >>> points((7, 7), (8, 9))
    '7,7 8,9'
    """
    return " ".join(f"{x},{y}" for x, y in stones)
