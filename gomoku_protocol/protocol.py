"""The Gomocup brain protocol (Piskvork's "new protocol") with the Yixin-board extensions.

This module only parses and prints: the game, its clock and every choice (swap2's included) are
:class:`engine.Engine`'s, which thinks in a worker thread so that ``YXSTOP`` and ``END`` are served
while it does. Bad input never changes the game: the engine checks a command in full before it
changes anything, and the answer is ``ERROR <reason>`` (a known command that cannot be done) or
``UNKNOWN <reason>``. A command that fails half-way is undone by the engine too, before the adapter
prints the error.
"""

import re

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import Channel, EndSession, Refusal, Session
from gomoku_protocol.engine import MOVE, NO_MOVE, ORDERED, SWAP, Decision, Engine, NoGame, Point, Stone

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


class GomocupProtocol(Session):
    NAME = "gomocup"
    CASE_BLIND = True

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
        super().__init__()
        self.engine = Engine(lambda text: self.chan.log(text))
        self.yixin = False  # the manager spoke Yixin's extensions: its rule numbers are Yixin's
        self.commands = {
            "START": self.cmd_start,
            "RECTSTART": self.cmd_rectstart,
            "RESTART": self.cmd_restart,
            "INFO": self.cmd_info,
            "ABOUT": self.cmd_about,
            "BEGIN": lambda args: self.engine.begin(self._message, self._answer, self.failed),
            "TURN": self.cmd_turn,
            "BOARD": lambda args: self.cmd_board("BOARD"),
            "YXBOARD": lambda args: self.cmd_board("YXBOARD"),
            "SWAP2BOARD": lambda args: self.cmd_board("SWAP2BOARD"),
            "TAKEBACK": self.cmd_takeback,
            "PLAY": self.cmd_play,
            "END": self.cmd_end,
            "YXSTOP": self.cmd_yxstop,
            "YXSHOWFORBID": self.cmd_showforbid,
            "YXNBEST": self.cmd_nbest,
            "YXHASHCLEAR": self.cmd_hashclear,
        }

    # --- the session -----------------------------------------------------------------------------

    def run(self, chan: Channel) -> None:
        self.engine.session_started()
        super().run(chan)

    def serve(self, line: str) -> None:
        self.engine.arrived(self.chan.arrived)
        super().serve(line)
        self.engine.handled()

    def admit(self, word: str, line: str) -> None:
        # A move is being chosen: YXSTOP and END reach it; any other command waits for the move.
        if self.engine.busy() and word not in ("YXSTOP", "END"):
            self.engine.wait()

    def error(self, text: str) -> None:
        self.chan.send(f"ERROR {text}")

    def unknown(self, line: str) -> None:
        self.chan.send(f"UNKNOWN command {line.split()[0].upper()[:30]}")

    def reason(self, word: str, exc: Exception) -> str:
        return f"{word} before START" if isinstance(exc, NoGame) else str(exc)

    def at_end(self) -> None:
        self.engine.stop()
        self.engine.wait()
        self.engine.end()

    def cmd_end(self, args: list[str]) -> None:
        if self.engine.busy():
            self.engine.stop()  # the move is not waited for: the manager has moved on
        self.engine.end()
        raise EndSession()

    def cmd_yxstop(self, args: list[str]) -> None:
        if self.engine.busy():
            self.engine.stop()
        else:
            self.yixin = True  # nothing is running: the move was already sent

    def cmd_about(self, args: list[str]) -> None:
        self.chan.send(
            f'name="sanqi", version="{__version__} ({build_kind()})", author="sanqi developers", country="", '
            f'www="", email=""'
        )

    # --- set-up ----------------------------------------------------------------------------------

    def cmd_start(self, args: list[str]) -> None:
        rest = " ".join(args)
        if not re.fullmatch(r"\d{1,4}", rest):
            raise Refusal(f"malformed START {rest[:20]!r}, expected a board size")
        self.engine.new_game(int(rest), int(rest))
        self.chan.send("OK")

    def cmd_rectstart(self, args: list[str]) -> None:
        rest = " ".join(args)
        m = re.fullmatch(r"(\d{1,4})\s*,\s*(\d{1,4})", rest)
        if m is None:
            raise Refusal(f"malformed RECTSTART {rest[:20]!r}, expected width,height")
        self.engine.new_game(int(m.group(1)), int(m.group(2)))
        self.chan.send("OK")

    def cmd_restart(self, args: list[str]) -> None:
        self.engine.restart()
        self.chan.send("OK")

    def cmd_info(self, args: list[str]) -> None:
        if len(args) < 2:
            raise Refusal(f"malformed INFO {' '.join(args)[:30]!r}, expected a key and a value")
        key, value = args[0].lower(), " ".join(args[1:])
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
        elif key == "thread_num":
            engine.set_threads(n)
        # game_type and the other Yixin keys: nothing to set

    # --- the game ------------------------------------------------------------------------------

    def cmd_turn(self, args: list[str]) -> None:
        self.engine.require_game()  # before START, that is the answer whatever the coordinates
        x, y = parse_xy(" ".join(args))
        self.engine.turn(x, y, self._message, self._answer, self.failed)

    def cmd_takeback(self, args: list[str]) -> None:
        self.engine.require_game()
        x, y = parse_xy(" ".join(args))
        self.engine.takeback(x, y)
        self.chan.send("OK")

    def cmd_play(self, args: list[str]) -> None:
        self.engine.require_game()
        x, y = parse_xy(" ".join(args))
        self.chan.send(points(self.engine.play(x, y)))

    def cmd_showforbid(self, args: list[str]) -> None:
        self.yixin = True
        self.chan.send(f"FORBID {''.join(f'{x:02d}{y:02d}' for x, y in self.engine.forbidden_points())}.")

    def cmd_hashclear(self, args: list[str]) -> None:
        self.yixin = True
        self.engine.clear_hash()

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
        self.engine.arrived(self.chan.arrived)  # DONE starts the move's clock (the manager's view)
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
            proposed = self.engine.swap2(stones, self._message, self._answer, self.failed)
            if proposed:
                self.chan.send(points(*proposed))
        elif head == "BOARD":
            self.engine.board(stones, self._message, self._answer, self.failed)
        else:
            self.engine.set_board(stones)

    def cmd_nbest(self, args: list[str]) -> None:
        self.yixin = True
        self.engine.require_game()
        rest = " ".join(args)
        if not re.fullmatch(r"\d{1,3}", rest) or int(rest) < 1:
            raise Refusal(f"malformed YXNBEST {rest[:20]!r}, expected a count")
        self.engine.nbest(int(rest), self._message, self._answer, self.failed)

    # --- the engine's answers --------------------------------------------------------------------

    def _message(self, text: str) -> None:
        self.chan.send(f"MESSAGE {text}")

    def _answer(self, decision: Decision) -> None:
        """A move request's decision, as the protocol says it (from the worker thread)."""
        answer = decision.answer
        if decision.kind == NO_MOVE:
            self.chan.send("ERROR no legal move")
        elif decision.kind == SWAP:
            self._message(f"white scores {answer.score}: taking black")
            self.chan.send("SWAP")
        elif decision.kind == MOVE:
            self._message(f"depth {answer.depth} score {answer.score} pv {' '.join(decision.pv)} ({answer.how})")
            if decision.nbest:
                self._message("nbest " + " ".join(decision.nbest))
            self.chan.send(points(*decision.stones))
        else:  # swap2's two stones more
            self._message(f"white scores {answer.score}: adding two stones, the opponent chooses")
            self.chan.send(points(*decision.stones))


def points(*stones: Point) -> str:
    """Points as the protocol writes them: ``x,y``, several on one line.

    >>> points((7, 7), (8, 9))
    '7,7 8,9'
    """
    return " ".join(f"{x},{y}" for x, y in stones)
