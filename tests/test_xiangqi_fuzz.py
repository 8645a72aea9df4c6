"""Seeded fuzzing of both xiangqi dialects: hostile lines, and after every few of them a check that the
engine is alive, answers ``isready``, and plays a legal move when asked.

Every ``bestmove`` the engine prints is judged against the position it searched (read back with ``d``
just before the ``go``) by pyffish when it is installed, else by our own rules; each ``go`` that
starts a search must get exactly one answer. 2,000 hostile lines a dialect by default;
``SANQI_FUZZ_LINES=50000`` runs a longer benchmark-sized session. Hash sizes stay small (a GUI may
ask for 1 GB; the fuzzer does not, to spare a shared machine).
"""

import os
import random

import pytest

from conftest import Session
from engine_core.loop import clean_line
from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import move_name

LINES = int(os.environ.get("SANQI_FUZZ_LINES", "2000"))
EVERY = 8  # hostile lines between two checks
SEED = 20261122
SLOW = 60  # seconds a loaded machine may take to answer
UNICODE_DIGITS = ["\u00b2", "\u2462", "\u0663", "\uff13", "\u00bd", "\u2167"]

DIALECTS = {
    "ucci": {
        "hello": ("ucci", "ucciok"),
        "commands": ["position", "go", "stop", "ponderhit", "isready", "d", "setoption", "banmoves", "probe", "ucci"],
        "go_keys": ["depth", "nodes", "time", "movestogo", "increment", "opptime", "oppmovestogo", "oppincrement", "perft"],
        "go_flags": ["ponder", "draw", "infinite"],
        "options": ["usemillisec", "batch", "debug", "ponder", "usebook", "hashsize", "threads", "newgame", "randomness", "style", "idle"],
    },
    "uci": {
        "hello": ("uci", "uciok"),
        "commands": ["position", "go", "stop", "ponderhit", "isready", "d", "setoption", "ucinewgame", "debug", "register", "uci"],
        "go_keys": ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate", "searchmoves", "perft"],
        "go_flags": ["ponder", "infinite"],
        "options": ["Hash", "Threads", "Ponder", "MultiPV", "Move Overhead", "Clear Hash", "Skill Level", "Bogus"],
    },
}


def random_game(rng: random.Random) -> tuple[str, list[str]]:
    """A legal game of up to 60 random plies from the start."""
    pos = Position.from_fen(START_FEN)
    moves: list[str] = []
    for _ in range(rng.randint(0, 60)):
        legal = pos.legal_moves()
        if not legal:
            break
        name = move_name(rng.choice(legal))
        pos.push_name(name)
        moves.append(name)
    return START_FEN, moves


def number(rng: random.Random) -> str:
    return rng.choice([
        str(rng.randint(-5, 30)), str(rng.randint(0, 3000)), "9" * rng.choice([19, 4301, 6000]), "-" + "1" * 5000,
        "1e99", "-1e99", "nan", "inf", "-inf", "0x10", "1_000", "", "7.5", "+3", *UNICODE_DIGITS,
    ])


def square(rng: random.Random) -> str:
    return rng.choice("abcdefghijz~") + rng.choice("0123456789" + "".join(UNICODE_DIGITS))


def junk(rng: random.Random) -> str:
    return rng.choice([
        "\x00\x01\x02", "\u202e\ufeff", "x" * rng.choice([1, 300, 100000]), "\t\t", "\r", "\x0b\x0c\x1c",
        "".join(chr(rng.randint(1, 0x3000)) for _ in range(rng.randint(1, 40))),
    ])


def mutated(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars) + 1)
        action = rng.random()
        piece = rng.choice(UNICODE_DIGITS + list("0123456789KkAaBbEeNnHhRrCcPpXx/ -") + ["10", "\u3000"])
        if action < 0.4 and at < len(chars):
            chars[at] = piece
        elif action < 0.7:
            chars.insert(at, piece)
        elif at < len(chars):
            del chars[at]
    return "".join(chars)


def position_line(rng: random.Random, command: str = "position") -> str:
    fen, moves = random_game(rng)
    pos = Position.from_fen(fen)
    cut = rng.randint(0, len(moves))
    for m in moves[:cut]:
        pos.push_name(m)
    start = rng.choice(["startpos", f"fen {pos.fen()}", f"fen {mutated(rng, pos.fen())}", "", f"fen {junk(rng)}", "fen"])
    rest = moves if start == "startpos" else moves[cut:]
    if rng.random() < 0.3:
        rest = rest + [rng.choice([square(rng) + square(rng), "a0a1", "e0e9", junk(rng), "moves"])]
    tail = rng.choice([f" moves {' '.join(rest)}", "", " moves", f" moves {' '.join(square(rng) + square(rng) for _ in range(3))}"])
    return f"{command} {start}{tail}".replace("  ", " ").rstrip()


def go_line(rng: random.Random, spec: dict) -> str:
    words = ["go"]
    for _ in range(rng.randint(0, 4)):
        if rng.random() < 0.3:
            words.append(rng.choice(spec["go_flags"]))
        else:
            key = rng.choice(spec["go_keys"])
            value = rng.choice([number(rng), str(rng.randint(1, 3)), str(rng.randint(50, 400)), square(rng) + square(rng), "infinite"])
            words += [key, value] if rng.random() < 0.9 else [key]
    return " ".join(words)


def hostile(rng: random.Random, spec: dict) -> bytes:
    """One line a broken or malicious GUI might send (never ``quit``: that ends the session)."""
    kind = rng.random()
    if kind < 0.25:
        text = position_line(rng, rng.choice(["position", "position", "probe"]) if "probe" in spec["commands"] else "position")
    elif kind < 0.5:
        text = go_line(rng, spec)
    elif kind < 0.65:
        name = rng.choice(spec["options"])
        small = name.lower() in ("hash", "hashsize")
        value = str(rng.randint(-3, 32)) if small else rng.choice([number(rng), "true", "false", "solid", "huge", junk(rng)])
        text = rng.choice([f"setoption name {name} value {value}", f"setoption {name} {value}", f"setoption name {name}", "setoption"])
    elif kind < 0.85:
        head = rng.choice(spec["commands"])
        text = f"{head} {rng.choice([number(rng), junk(rng), square(rng) + square(rng), 'draw', ''])}".rstrip()
    else:
        data = bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 60)))
        return data.replace(b"\n", b" ")
    return text.replace("\n", " ").encode("utf-8", "surrogatepass")


class Judge:
    """Legal moves of a FEN: pyffish's when installed (an independent rules engine), else ours."""

    def __init__(self) -> None:
        try:
            import pyffish
        except ImportError:
            pyffish = None
        self.ffish = pyffish

    def legal(self, fen: str) -> set[str]:
        if self.ffish is None:
            return {move_name(m) for m in Position.from_fen(fen).legal_moves()}
        board = " ".join(fen.split()[:2]) + " - - 0 1"
        return {ours(m) for m in self.ffish.legal_moves("xiangqi", board, [])}


def ours(ffish_move: str) -> str:
    """pyffish writes ranks 1–10 (``a10a9``); ours are 0–9."""
    letters = [i for i, ch in enumerate(ffish_move) if ch.isalpha()]
    frm, to = ffish_move[: letters[1]], ffish_move[letters[1] :]
    return f"{frm[0]}{int(frm[1:]) - 1}{to[0]}{int(to[1:]) - 1}"


class Fuzz:
    """One engine session under fuzzing, with every answer it gives checked in order."""

    def __init__(self, session: Session, judge: Judge) -> None:
        self.s = session
        self.judge = judge
        self.pending: list[list[str]] = []  # positions of searches whose answer has not come yet
        self.answers = 0
        self.owed_readyok = 0  # readyok lines still due for hostile lines that were an isready

    def observe(self, line: str) -> None:
        assert "internal error" not in line, line
        words = line.split()
        if words[:1] == ["nobestmove"] or words[:2] == ["bestmove", "(none)"]:
            if self.pending:  # else an idle UCCI stop
                self.pending.pop(0)
            return
        if words[:1] != ["bestmove"]:
            return
        assert self.pending, f"a bestmove no go asked for: {line}"
        fen = self.pending.pop(0)[0]
        self.answers += 1
        assert len(words) > 1 and words[1] in self.judge.legal(fen), f"illegal {line!r} in {fen}"
        if len(words) > 3 and words[2] == "ponder":
            after = Position.from_fen(fen)
            assert after.push_name(words[1])
            assert words[3] in self.judge.legal(after.fen()), f"illegal ponder move in {line!r} after {fen}"

    def read_until(self, prefix: str) -> list[str]:
        before: list[str] = []
        while True:
            line = self.s.read(SLOW)
            assert line is not None, f"the engine closed its output; exit status {self.s.proc.poll()}"
            self.observe(line)
            if line.startswith(prefix):
                return before
            before.append(line)

    def sync(self) -> list[str]:
        """Everything the engine said before it answered one more ``isready``."""
        assert self.s.proc.poll() is None, f"the engine died with status {self.s.proc.returncode}"
        self.s.send("isready")
        lines: list[str] = []
        for _ in range(self.owed_readyok + 1):
            lines += self.read_until("readyok")
        self.owed_readyok = 0
        return lines

    def board(self) -> str:
        self.sync()
        self.s.send("d")
        self.read_until("FEN: ")
        return self.s.seen[-1][len("FEN: ") :]

    def send(self, data: bytes) -> None:
        """Send a line; if the engine will read it as a go, note the position it searches."""
        words = clean_line(data).split()
        if words[:1] == ["quit"]:
            return
        if words[:1] != ["go"]:
            self.owed_readyok += words[:1] == ["isready"]
            self.s.send(data + b"\n")
            return
        fen = self.board()
        ticket = [fen]
        if words[1:2] != ["perft"]:
            self.pending.append(ticket)
        self.s.send(data + b"\n")
        refused = any(line.startswith("info string error") for line in self.sync())
        if refused and words[1:2] != ["perft"]:
            assert any(t is ticket for t in self.pending), "a refused go was answered"
            self.pending = [t for t in self.pending if t is not ticket]

    def ask_for_a_move(self, rng: random.Random) -> None:
        """A valid request: set a real game's position, search it briefly, and see the move come."""
        fen, moves = random_game(rng)
        self.s.send("stop")
        self.sync()
        self.s.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        answered = self.answers
        self.send(rng.choice([b"go depth 1", b"go nodes 200"]))
        while self.pending:
            self.read_until("")  # one line at a time until the move came
        assert self.answers == answered + 1 or not Position.from_fen(self.board()).legal_moves()


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_hostile_input_never_kills_the_engine_or_makes_it_play_an_illegal_move(session_factory, dialect: str) -> None:
    spec = DIALECTS[dialect]
    rng = random.Random(SEED + len(dialect))
    hello, ok = spec["hello"]
    s = session_factory(["--protocol", dialect])
    s.send(hello)
    fuzz = Fuzz(s, Judge())
    fuzz.read_until(ok)
    for sent in range(LINES):
        fuzz.send(hostile(rng, spec))
        if sent % EVERY == EVERY - 1:
            fuzz.sync()
            fuzz.ask_for_a_move(rng)
    s.send("stop")
    fuzz.sync()
    s.send("quit")
    assert s.proc.wait(SLOW) == 0
