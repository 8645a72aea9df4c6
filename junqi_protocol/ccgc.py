"""The CCGC 1.0 Junqi protocol (China Computer Games Championship, two players), engine side: parses
and prints only; what the lines mean for the game is judged by the front
(:class:`junqi_protocol.engine.Engine`).

We always see ourselves as seat S in rows G-L, as the protocol promises. CCGC has no error reply,
so a line we cannot use is reported on stderr (``ccgc: error …``) and changes nothing. Our own
move's result is the one thing we cannot do without: when ``RESULT`` is missing (the next ``GO``
came first) or unusable, the front settles it from what we know: a move to an empty point was a
plain move, and a contested one is taken as lost (the cautious reading: we never count on a piece
we may not have). Either way our board stays in step with the moves actually made.
"""

import re
from typing import Optional

from engine_core.loop import EndSession, Refusal
from junqi_protocol.game import Rules
from junqi_protocol.protocol import FrontSession
from junqi_protocol.rules import BOTH, EAT, KILLED, MOVE, RESULTS

# Result codes are from the mover's side: 0 mover removed, 1 mover captured, 2 both removed, 3 plain move.
FROM_CODE = {"0": KILLED, "1": EAT, "2": BOTH, "3": MOVE}
SQUARE = re.compile(r"[A-La-l][0-4]")
# END's codes in the 2012 specification (it has none for a draw).
END_MEANING = {"0": "we lost", "1": "we won", "2": "abnormal end"}


class CcgcProtocol(FrontSession):
    NAME = "ccgc"

    @staticmethod
    def detect(line: str) -> bool:
        """``INFO 1.0``; Gomocup's ``INFO key value`` lines are not ours."""
        return re.fullmatch(r"INFO \d+(\.\d+)*", line.strip()) is not None

    def __init__(self) -> None:
        super().__init__()
        self.commands = {
            "INFO": lambda args: self.chan.send("NAME sanqi"),
            "START": self.cmd_start,
            "GO": self.cmd_go,
            "RESULT": self.cmd_result,
            "END": self.cmd_end,
        }

    def error(self, text: str) -> None:
        self.chan.log(f"ccgc: error: {text}")  # CCGC has no error reply

    def unknown(self, line: str) -> None:
        raise Refusal(f"{line.split()[0][:20]!r} is not a CCGC command")

    def cmd_end(self, args: list[str]) -> None:
        code = args[0] if args else ""
        self.chan.log(f"ccgc: END {code[:10]}: {END_MEANING.get(code, 'not a code of the specification')}")
        raise EndSession()

    def cmd_start(self, args: list[str]) -> None:
        if len(args) != 3 or not all(w.isascii() and w.isdigit() for w in args) or args[0] not in ("0", "1"):
            raise Refusal(f"START: expected 'START 0|1 SECONDS STEPS', got {' '.join(['START', *args])[:60]!r}")
        rules = Rules("2p")
        rules.nocapture = int(args[2])
        self.chan.send(f"ARRAY {self.engine.deal('2p', 0, rules)}")

    def require(self, word: str, args: list[str], form: str) -> None:
        """Refuse ``word`` before START, or unless ``args`` has the fields of ``form``."""
        if not self.engine.started:
            raise Refusal(f"{word}: no START yet")
        if len(args) != len(form.split()) - 1:
            raise Refusal(f"{word}: expected {form}")

    def cmd_go(self, args: list[str]) -> None:
        self.require("GO", args, "GO MOVE RESULT FLAG")
        move, code, flag = args
        if self.engine.awaiting_result:
            self.settle("", "no RESULT came for our last move")
        if move != "0000":
            self.opponent_move(move, code)
        self.flag(flag)
        m = self.engine.play(None, self.chan.arrived)
        if m is None:
            self.chan.send("BESTMOVE 0000")
            return
        names = self.engine.board("GO").names
        self.chan.send(f"BESTMOVE {names[m[0]]}{names[m[1]]}")

    def cmd_result(self, args: list[str]) -> None:
        self.require("RESULT", args, "RESULT RESULT FLAG")
        code, flag = args
        if not self.engine.awaiting_result:
            raise Refusal("RESULT: we have no move waiting for a result")
        self.settle(code, f"RESULT {code[:10]!r} is not a result code that fits our move")
        self.flag(flag)

    def settle(self, code: str, why: str) -> None:
        """Our waiting move's result: ``code``'s, or the one the front can be sure of (said on stderr)."""
        taken, given, problem = self.engine.settle(FROM_CODE.get(code, -1))
        if not given:
            self.error(f"{why}; taking it as {RESULTS[taken]}")
        self.ignored(problem)

    def opponent_move(self, move: str, code: str) -> None:
        if not (len(move) == 4 and SQUARE.fullmatch(move[:2]) and SQUARE.fullmatch(move[2:]) and code in FROM_CODE):
            self.error(f"GO {move[:10]!r} {code[:10]!r} is not a move and a result code; ignored")
            return
        b = self.engine.board("GO")
        self.ignored(self.engine.opponent_moved(b.point(move[:2]), b.point(move[2:]), FROM_CODE[code]))

    def flag(self, flag: str) -> None:
        """The flag field: ``00``, or a flag square shown (see :meth:`Engine.flag_shown`)."""
        if flag == "00":
            return
        if not SQUARE.fullmatch(flag):
            self.error(f"flag field {flag[:10]!r} is neither 00 nor a square; ignored")
            return
        self.ignored(self.engine.flag_shown(self.engine.board("flag").point(flag)))

    def ignored(self, problem: Optional[str]) -> None:
        """Say on stderr why the front set a report aside, if it did."""
        if problem is not None:
            self.error(f"{problem}; ignored")
