"""The CCGC 1.0 Junqi protocol (China Computer Games Championship, two players), engine side.

We always see ourselves as seat S in rows G-L, as the protocol promises. CCGC has no error reply,
so lines we cannot use are reported on stderr and otherwise ignored.
"""

import re

from engine_core.loop import Channel
from junqi_protocol.board import Board
from junqi_protocol.game import Event, Rules
from junqi_protocol.players import Engine
from junqi_protocol.rules import BOTH, EAT, KILLED, MOVE

# Result codes are from the mover's side: 0 mover removed, 1 mover captured, 2 both removed, 3 plain move.
FROM_CODE = {"0": KILLED, "1": EAT, "2": BOTH, "3": MOVE}
SQUARE = re.compile(r"[A-La-l][0-4]")


class CcgcProtocol:
    NAME = "ccgc"

    @staticmethod
    def detect(line: str) -> bool:
        """``INFO 1.0``; Gomocup's ``INFO key value`` lines are not ours."""
        return re.fullmatch(r"INFO \d+(\.\d+)*", line.strip()) is not None

    def __init__(self) -> None:
        self.engine: Engine = Engine("events")
        self.board: Board = Board("2p")
        self.last: str = ""
        self.enemy_flag: str = "00"
        self.started: bool = False

    def run(self, chan: Channel) -> None:
        while True:
            line = chan.get()
            if line is None:
                return
            words = line.split()
            if not words:
                continue
            if words[0] == "END":
                return
            try:
                self.handle(chan, words)
            except ValueError as exc:
                chan.log(f"ccgc: ignored {line[:60]!r}: {exc}")

    def handle(self, chan: Channel, words: list[str]) -> None:
        cmd = words[0]
        if cmd == "INFO":
            chan.send("NAME sanqi")
        elif cmd == "START" and len(words) == 4 and all(w.isdigit() for w in words[1:]):
            rules = Rules("2p")
            rules.nocapture = int(words[3])
            self.engine.new_game("2p", 0, rules)
            array = self.engine.lineup("")
            self.engine.begin({})
            self.last = ""
            self.enemy_flag = "00"
            self.started = True
            chan.send(f"ARRAY {array}")
        elif cmd == "GO" and len(words) == 4 and self.started:
            if words[1] != "0000":
                try:
                    self.learn(1, words[1], words[2], words[3])
                except ValueError as exc:
                    # The referee still wants a move; we answer from what we knew before.
                    chan.log(f"ccgc: cannot follow {' '.join(words)}: {exc}")
            m = self.engine.choose()
            if m is None:
                chan.send("BESTMOVE 0000")
                return
            self.last = self.board.names[m[0]] + self.board.names[m[1]]
            chan.send(f"BESTMOVE {self.last}")
        elif cmd == "RESULT" and len(words) == 3 and self.started:
            if not self.last:
                raise ValueError("RESULT without a move of ours")
            self.learn(0, self.last, words[1], words[2])
            self.last = ""
        else:
            raise ValueError("not a CCGC command here")

    def learn(self, seat: int, move: str, code: str, flag: str) -> None:
        if len(move) != 4 or not SQUARE.fullmatch(move[:2]) or not SQUARE.fullmatch(move[2:]) or code not in FROM_CODE:
            raise ValueError(f"bad move {move!r} or result {code!r}")
        b = self.board
        self.engine.observe(Event("move", seat, b.point(move[:2]), b.point(move[2:]), FROM_CODE[code]))
        if flag != "00" and flag != self.enemy_flag:
            if not SQUARE.fullmatch(flag):
                raise ValueError(f"bad flag square {flag!r}")
            if b.seat_of[b.point(flag)] == 0:
                return  # our own flag, announced because our 司令 died: nothing new to us
            self.enemy_flag = flag.upper()
            self.engine.observe(Event("marshal", 1, b.point(flag)))
