"""Seeded fuzzing of our Junqi engine in both protocols: hostile lines between the moves of real
games, and after every few of them a check that the engine is alive, answers a valid request, and
plays only legal moves of the game the referee (a full-knowledge model here) is running.

A hostile line is one the engine must not act on: garbage, broken or out-of-order commands, and
reports that contradict what the engine knows (filtered with the engine's own view, so a line that
happens to be a believable report is never sent). 2,000+ hostile lines per protocol by default;
``SANQI_FUZZ_LINES=50000`` runs a longer, benchmark-sized session.
"""

import os
import random
import threading

from conftest import Session
from junqi_protocol.board import Board
from junqi_protocol.game import Event, Game, Pieces, Rules, parse_event, report_problem
from junqi_protocol.lineups import random_lineup
from junqi_protocol.rules import BOTH, EAT, FLAG, KILLED, MARSHAL, MOVE, parse_lineup

LINES = int(os.environ.get("SANQI_FUZZ_LINES", "2000"))
EVERY = 8  # hostile lines between two liveness checks
CCGC_PINGS = 15  # liveness checks between two CCGC moves of ours (our default player takes a while to move)
SEED = 20261122
CCGC_CODE = {KILLED: 0, EAT: 1, BOTH: 2, MOVE: 3}


def junk(rng: random.Random) -> str:
    return rng.choice([
        "\x00\x01\x02", "\u202e\ufeff", "x" * rng.choice([1, 300, 100_000]), "-", ";;", "\t\t", "²", "③",
        "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(1, 40))), str(rng.randint(-2**70, 2**70)),
    ])


def mutate(rng: random.Random, line: str) -> str:
    """A valid line bent out of shape: a token changed, dropped, doubled or swapped."""
    words = line.split() or [""]
    i = rng.randrange(len(words))
    how = rng.random()
    if how < 0.35:
        words[i] = rng.choice([junk(rng), words[i][::-1], words[i].lower(), words[i] + "9", "C99", "S55", "N-1"])
    elif how < 0.55 and len(words) > 1:
        del words[i]
    elif how < 0.75:
        words.insert(i, words[i])
    else:
        j = rng.randrange(len(words))
        words[i], words[j] = words[j], words[i]
    return " ".join(words)


class View:
    """What one player knows: its own kinds, the others' pieces as unknown, who is still playing."""

    def __init__(self, board: Board, seat: int, lineups: list[str]) -> None:
        self.pos = Pieces(board)
        for s, text in enumerate(lineups):
            self.pos.place(s, parse_lineup(text) if s == seat else None)
        self.alive = [True] * board.seats

    def apply(self, ev: Event) -> None:
        if ev.kind == "move":
            self.pos.apply(ev.frm, ev.to, ev.result)
        elif ev.kind == "out":
            self.alive[ev.seat] = False
            self.pos.remove(ev.seat)

    def refuses(self, line: str) -> bool:
        """Would the engine, knowing what this view knows, refuse this event line?"""
        try:
            ev = parse_event(self.pos.board, line)
        except ValueError:
            return True
        return ev.kind != "end" and report_problem(self.pos, self.alive, ev) is not None


class Refereed:
    """A game with every kind known, and the last broadcast lines to bend into hostile ones."""

    def __init__(self, rng: random.Random, variant: str, seat: int, ours: str) -> None:
        self.board = Board(variant)
        self.lineups = [ours if s == seat else random_lineup(rng) for s in range(self.board.seats)]
        self.game = Game(self.board, Rules(variant, "nocapture=40 passes=3" if variant == "4p" else "nocapture=40"))
        for s, text in enumerate(self.lineups):
            self.game.place(s, parse_lineup(text))
        self.view = View(self.board, seat, self.lineups)
        self.seat = seat
        self.recent: list[str] = [f"visible {self.board.letters[seat - 1]} {self.lineups[seat - 1]}"]

    def legal(self) -> set[str]:
        return {f"{self.board.names[a]}-{self.board.names[b]}" for a, b in self.game.legal_moves()}

    def play(self, move: str) -> list[Event]:
        frm, to = move.split("-")
        events = self.game.move(self.board.point(frm), self.board.point(to))
        self.told(events)
        return events

    def pass_turn(self) -> list[Event]:
        events = self.game.pass_turn()
        self.told(events)
        return events

    def told(self, events: list[Event]) -> None:
        for ev in events:
            self.view.apply(ev)
            self.recent = (self.recent + [ev.text(self.board)])[-6:]


def line_hostile(rng: random.Random, ref: Refereed) -> str:
    """A line our protocol's engine must refuse or ignore without changing its game."""
    while True:
        kind = rng.random()
        if kind < 0.2:
            line = junk(rng)
        elif kind < 0.35:
            line = rng.choice(["lineup", f"lineup {ref.lineups[ref.seat]}", "start", "visible", "setoption",
                               "setoption name player value strongest", "setoption name seed value -x",
                               "newgame", "newgame 3p S", "newgame 4p Q", "newgame 2p S time=²", "error oops"])
        else:
            line = mutate(rng, rng.choice(ref.recent))
        word = line.split()[0] if line.split() else ""
        if line.strip() in ("quit", "isready", "junqi") or word in ("go", "isready"):
            continue
        if word in ("move", "pass", "marshal", "flag", "out", "gameover") and not ref.view.refuses(line):
            continue  # believable: a referee's word the engine has to take
        return line


def test_line_protocol_survives_hostile_lines(session_factory):
    rng = random.Random(SEED)
    s: Session = session_factory()
    s.send("junqi")
    s.expect("junqiok")
    s.send("setoption name player value random")
    sent = games = 0
    while sent < LINES:
        variant = "4p" if games % 2 else "2p"
        seat = rng.randrange(2 if variant == "2p" else 4)
        board = Board(variant)
        s.send(f"newgame {variant} {board.letters[seat]} nocapture=40")
        s.send("lineup")
        ours = s.expect("lineup ")[0].split()[1]
        ref = Refereed(rng, variant, seat, ours)
        s.send("start")
        events = ref.game.start()
        ref.told(events)
        for ev in events:
            s.send(ev.text(board))
        while not ref.game.over and sent < LINES:
            for _ in range(EVERY):
                s.send(line_hostile(rng, ref))
                sent += 1
            s.send("isready")
            _, before = s.expect("readyok", timeout=30)
            assert all(b.startswith(("error ", "id ", "option ")) or b == "junqiok" for b in before), before
            for _ in range(board.seats):
                if ref.game.over:
                    break
                if ref.game.turn == seat:
                    clock = "time 600000 movetime 10000"
                    s.send(f"go {mutate(rng, clock) if rng.random() < 0.3 else clock}")  # still a request for a move
                    reply, before = s.expect(("move ", "pass"), timeout=30)
                    assert all(b.startswith("error ") for b in before), before
                    move = reply.split()[1] if reply.startswith("move ") else "pass"
                    assert move in ref.legal() or (move == "pass" and not ref.legal()), (move, sorted(ref.legal()))
                    events = ref.play(move) if move != "pass" else ref.pass_turn()
                else:
                    events = ref.play(rng.choice(sorted(ref.legal())))
                for ev in events:
                    s.send(ev.text(board))
        games += 1
    s.send("isready")
    s.expect("readyok", timeout=30)
    assert s.proc.poll() is None
    assert games >= 2


def ccgc_hostile(rng: random.Random, recent: list[str]) -> str:
    """A line the CCGC engine must ignore without changing its game (never END, START or a full GO)."""
    while True:
        kind = rng.random()
        if kind < 0.3:
            line = junk(rng)
        elif kind < 0.45:
            line = rng.choice(["GO", "GO 0000", "GO 0000 3", "RESULT", "RESULT 3", "START", "START 0 1800",
                               "START 2 1800 31", "START x y z", "INFO", "BESTMOVE G0F0", "ARRAY abc", "NAME x"])
        else:
            line = mutate(rng, rng.choice(recent))
        words = line.split()
        if not words or words[0] == "END" or (words[0] == "GO" and len(words) == 4):
            continue
        if words[0] == "START" and len(words) == 4 and all(w.isascii() and w.isdigit() for w in words[1:]):
            continue
        if words[0] == "RESULT" and len(words) == 3:
            continue  # no move of ours waits: refused, but a line that could settle one is not hostile here
        return line


def test_ccgc_survives_hostile_lines(session_factory):
    rng = random.Random(SEED + 1)
    sent = games = 0
    while sent < LINES:
        s: Session = session_factory(["--protocol", "ccgc"])
        threading.Thread(target=s.proc.stderr.read, daemon=True).start()  # CCGC's errors go there: keep it flowing
        s.send("INFO 1.0")
        s.expect("NAME ")
        first = rng.randrange(2)
        s.send(f"START {first} 10 40")  # a short clock keeps a time-managed player quick
        ours = s.expect("ARRAY ")[0].split()[1]
        ref = Refereed(rng, "2p", 0, ours)
        board = ref.board
        ref.game.turn = first  # CCGC: START 1 means the opponent moves first
        ref.told(ref.game.start())
        recent = ["GO 0000 3 00", "RESULT 3 00", "INFO 1.0", "START 0 1800 31"]
        last = "0000 3 00"
        while not ref.game.over and sent < LINES:
            for _ in range(CCGC_PINGS):
                for _ in range(EVERY):
                    s.send(ccgc_hostile(rng, recent))
                    sent += 1
                s.send("INFO 1.0")
                _, before = s.expect("NAME ", timeout=30)
                assert not any(b.startswith("BESTMOVE") for b in before), before
            if ref.game.turn == 1:
                mv = ref.play(rng.choice(sorted(ref.legal())))[0]
                last = f"{board.names[mv.frm]}{board.names[mv.to]} {CCGC_CODE[mv.result]} {enemy_flag(ref)}"
                if ref.game.over:
                    break
            s.send(f"GO {last}")
            recent = (recent + [f"GO {last}"])[-6:]
            best = s.expect("BESTMOVE ", timeout=30)[0].split()[1]
            move = f"{best[:2]}-{best[2:]}"
            assert move in ref.legal(), (move, sorted(ref.legal()))
            events = ref.play(move)
            s.send(f"RESULT {CCGC_CODE[events[0].result]} {enemy_flag(ref)}")
        s.send("INFO 1.0")
        s.expect("NAME ", timeout=30)
        assert s.proc.poll() is None
        s.send("END 1")
        assert s.proc.wait(10) == 0
        games += 1
    assert games >= 1


def enemy_flag(ref: Refereed) -> str:
    """CCGC's flag field: the opponent's flag square once its 司令 is dead."""
    pos = ref.game.pos
    if pos.find(1, MARSHAL) >= 0 or pos.find(1, FLAG) < 0:
        return "00"
    return ref.board.names[pos.find(1, FLAG)]
