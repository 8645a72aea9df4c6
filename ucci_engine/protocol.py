"""UCCI and UCI adapters: they parse commands into :class:`Engine` calls and print the replies.

Both dialects share squares a0–i9 and FEN; they differ in option syntax, ``go`` arguments, score
format and what they allow while the engine thinks. Every malformed or illegal input gets an
``info string error …`` line and the engine keeps serving with its last valid position.
"""

import math
from typing import Optional

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.game import MATE, MATE_BOUND
from engine_core.loop import EndSession, Refusal, Session
from engine_core.search import MAX_PLY
from ucci_engine.engine import HASH_MB, RANDOMNESS, Engine, GoRequest, SearchAnswer, bound_name
from ucci_engine.evaluate import STYLES
from ucci_engine.perft import MOST_PLIES
from ucci_engine.position import BAN_SCORE, START_FEN
from ucci_engine.tables import move_name

AUTHOR = "the sanqi developers"
TRUE_WORDS = ("true", "on", "1", "yes")


def number(text: str, what: str, low: float, high: float) -> float:
    """Parse a number and clamp it to [low, high]; Refusal if it is not one.

    >>> number("1e99", "depth", 1, 128), number("-5", "time", 0, 1e10)
    (128, 0)
    >>> try:
    ...     number("\u00b2", "oppincrement", 0, 1e9)
    ... except Refusal as exc:
    ...     print(exc)
    oppincrement needs a number, not '²'
    """
    try:
        value = float(text) if text.isascii() else float("nan")
    except ValueError:
        value = float("nan")
    if math.isnan(value):
        raise Refusal(f"{what} needs a number, not {text[:20]!r}")
    return min(max(value, low), high)


def numbers(values: dict[str, str], ranges: dict[str, tuple[float, float]]) -> dict[str, float]:
    """Every numeric ``go`` argument parsed and clamped, used or not, so none slips through unchecked."""
    return {key: number(text, key, *ranges[key]) for key, text in values.items() if key in ranges}


def name_value(words: list[str]) -> tuple[str, str]:
    """``Move Overhead value 30`` → ('Move Overhead', '30'): a name of several words, then its value."""
    cut = words.index("value") if "value" in words else len(words)
    return " ".join(words[:cut]), " ".join(words[cut + 1 :])


def split_position(words: list[str]) -> tuple[str, list[str]]:
    """``startpos|fen F… [moves m…]`` → (FEN, moves)."""
    moves: list[str] = []
    if "moves" in words:
        cut = words.index("moves")
        words, moves = words[:cut], words[cut + 1 :]
    if not words:
        raise Refusal("position needs startpos or fen <FEN> before moves")
    if words[0] == "startpos":
        if len(words) > 1:
            raise Refusal(f"unexpected {' '.join(words[1:])!r} after startpos")
        return START_FEN, moves
    if words[0] == "fen" and len(words) > 1:
        return " ".join(words[1:]), moves
    raise Refusal("position needs startpos or fen <FEN>")


class Dialect(Session):
    """What UCCI and UCI share: the commands while thinking, positions, thinking and perft."""

    NAME = ""

    def __init__(self) -> None:
        super().__init__()
        self.engine = Engine(on_error=self.error)
        self.commands = {
            "isready": lambda args: self.chan.send("readyok"),
            "position": self.cmd_position,
            "go": self.cmd_go,
            "stop": self.cmd_stop,
            "ponderhit": self.cmd_ponderhit,
            "d": self.cmd_display,
        }

    # --- the session -------------------------------------------------------------------------

    def admit(self, word: str, line: str) -> None:
        if word in self.commands and self.engine.busy() and word not in self.allowed_while_thinking():
            raise Refusal(f"{word} is not allowed while thinking; send stop first")

    def unknown(self, line: str) -> None:
        raise Refusal(f"unknown command: {line[:80]}")

    def allowed_while_thinking(self) -> tuple[str, ...]:
        raise NotImplementedError

    def at_end(self) -> None:
        # A pondering or infinite search would never end by itself; a timed one may finish.
        if self.engine.endless():
            self.engine.stop()
        self.engine.wait()

    def error(self, text: str) -> None:
        self.chan.send(f"info string error {text}")

    # --- shared commands ---------------------------------------------------------------------

    def cmd_position(self, args: list[str]) -> None:
        fen, moves = split_position(args)
        self.engine.set_position(fen, moves)

    def cmd_display(self, args: list[str]) -> None:
        for line in self.engine.diagram().splitlines():
            self.chan.send(line)

    def cmd_stop(self, args: list[str]) -> None:
        # Wait for the search to hand its move over, so a go right behind the stop is not refused.
        if not self.engine.stop():
            self.when_idle_stop()
        self.engine.wait()

    def when_idle_stop(self) -> None:
        return None

    def cmd_ponderhit(self, args: list[str]) -> None:
        self.engine.ponderhit(bool(args) and args[0] == "draw")

    def cmd_go(self, args: list[str]) -> None:
        if args[:1] == ["perft"]:
            self.cmd_perft(args[1:])
            return
        go = self.parse_go(args)
        if go.static_only:
            self.chan.send(f"info depth 0 score {self.engine.static_eval()}")
            self.chan.send("nobestmove")
            return
        self.engine.go(go, self.info, self.done, self.chan.arrived)

    def cmd_perft(self, args: list[str]) -> None:
        asked = number(args[0], "perft", -1e9, 1e9) if args else 1.0
        depth = int(min(max(asked, 1), MOST_PLIES))
        if depth != asked:
            self.chan.send(f"info string perft {args[0][:20]} taken as perft {depth} (1 to {MOST_PLIES})")
        self.engine.perft(depth, self.chan.send)

    def parse_go(self, args: list[str]) -> GoRequest:
        raise NotImplementedError

    def info(self, depth: int, seldepth: int, index: int, score: int, nodes: int, ms: int, pv: list[str]) -> None:
        raise NotImplementedError

    def done(self, answer: Optional[SearchAnswer]) -> None:
        raise NotImplementedError

    def id_name(self) -> str:
        return f"sanqi {__version__} ({build_kind()})"


def _parse_keywords(args: list[str], keys: dict[str, int], flags: tuple[str, ...]) -> tuple[dict[str, str], set[str], list[str]]:
    """Split ``go`` words into key→value, bare flags, and trailing words of the last list key."""
    values: dict[str, str] = {}
    seen: set[str] = set()
    rest: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        if word in flags:
            seen.add(word)
            i += 1
        elif word in keys:
            if keys[word] == 0:  # takes every following word (UCI searchmoves)
                j = i + 1
                while j < len(args) and args[j] not in keys and args[j] not in flags:
                    rest.append(args[j])
                    j += 1
                i = j
            elif i + 1 < len(args):
                values[word] = args[i + 1]
                i += 2
            else:
                raise Refusal(f"go {word} needs a value")
        else:
            raise Refusal(f"go: unexpected {word!r}")
    return values, seen, rest


class UcciProtocol(Dialect):
    """UCCI 3.0 as ElephantEye speaks it."""

    NAME = "ucci"

    @staticmethod
    def detect(first: str) -> bool:
        return first.split()[:1] == ["ucci"]

    def __init__(self) -> None:
        super().__init__()
        self.millis = False
        self.booted = False
        self.commands.update(
            {
                "ucci": self.cmd_ucci,
                "setoption": self.cmd_setoption,
                "banmoves": self.cmd_banmoves,
                "probe": self.cmd_probe,
                "quit": self.cmd_quit,
            }
        )

    def admit(self, word: str, line: str) -> None:
        if not self.booted and word != "ucci":  # the boot state knows only ``ucci``
            raise Refusal(f"send ucci first (got {line[:40]!r})")
        super().admit(word, line)

    def allowed_while_thinking(self) -> tuple[str, ...]:
        return ("isready", "stop", "ponderhit", "probe", "quit", "d")

    def cmd_ucci(self, args: list[str]) -> None:
        self.booted = True
        send = self.chan.send
        send(f"id name {self.id_name()}")
        send("id copyright MIT licence")
        send(f"id author {AUTHOR}")
        send("id user unknown")
        send("option usemillisec type check default false")
        send("option batch type check default false")
        send("option debug type check default false")
        send("option ponder type check default false")
        send("option usebook type check default false")
        send(f"option hashsize type spin min 1 max 1024 default {HASH_MB}")
        send("option threads type spin min 1 max 1 default 1")
        send("option newgame type button")
        send("option randomness type combo " + " ".join(f"var {r}" for r in RANDOMNESS) + " default none")
        send("option style type combo " + " ".join(f"var {s}" for s in STYLES) + " default normal")
        send("option usenn type check default true")
        send("ucciok")

    def cmd_setoption(self, args: list[str]) -> None:
        if args[:1] == ["name"]:  # the UCI form some drivers send
            name, value = name_value(args[1:])
            name = name.lower()
        elif args:
            name, value = args[0].lower(), " ".join(args[1:])
        else:
            raise Refusal("setoption needs an option name")
        flag = value.lower() in TRUE_WORDS
        if name == "usemillisec":
            self.millis = flag
        elif name == "hashsize":
            self.engine.set_hash(int(number(value, "hashsize", 1, 1024)))
        elif name == "threads":
            number(value, "threads", 1, 1)
        elif name == "newgame":
            self.engine.clear_hash()
        elif name == "randomness":
            self.engine.set_randomness(value.lower())
        elif name == "style":
            self.engine.set_style(value.lower())
        elif name == "usebook":
            self.engine.set_book(flag)
        elif name == "usenn":
            self.engine.set_network(flag)
        # Other names (batch and debug, announced but changing nothing here, ponder, idle, pruning, …)
        # are accepted: UCCI says an unknown name is not an error.

    def cmd_banmoves(self, args: list[str]) -> None:
        self.engine.set_banned(args)

    def cmd_probe(self, args: list[str]) -> None:
        fen, moves = split_position(args)
        found = self.engine.probe(fen, moves)
        if found is None:
            self.chan.send("pophash")
            return
        move, bound, score, depth = found
        text = "pophash" + (f" bestmove {move}" if move else "")
        name = bound_name(bound)
        if name in ("exact", "lowerbound"):
            text += f" lowerbound {score} depth {depth}"
        if name in ("exact", "upperbound"):
            text += f" upperbound {score} depth {depth}"
        self.chan.send(text)

    def cmd_quit(self, args: list[str]) -> None:
        self.engine.stop_and_wait()
        self.chan.send("bye")
        raise EndSession()

    def when_idle_stop(self) -> None:
        self.chan.send("nobestmove")

    def parse_go(self, args: list[str]) -> GoRequest:
        go = GoRequest()
        values, flags, _ = _parse_keywords(args, dict.fromkeys(UCCI_GO_RANGES, 1), ("ponder", "draw", "infinite"))
        go.ponder = "ponder" in flags
        go.draw_offered = "draw" in flags
        go.infinite = "infinite" in flags or values.get("depth") == "infinite"  # ElephantEye takes both
        if go.infinite:
            values.pop("depth", None)
        got = numbers(values, UCCI_GO_RANGES)
        scale = 1.0 if self.millis else 1000.0
        if "depth" in got:
            go.depth = int(got["depth"])
            go.static_only = go.depth == 0
        go.nodes = int(got.get("nodes", 0))
        if "time" in got:
            go.left = int(got["time"] * scale)
            go.inc = int(got.get("increment", 0) * scale)
            go.movestogo = int(got.get("movestogo", 0))
            go.opp_left = int(got.get("opptime", 0) * scale)
        if not values and not go.infinite:
            go.infinite = True  # bare ``go``: think until stop
        return go

    def info(self, depth: int, seldepth: int, index: int, score: int, nodes: int, ms: int, pv: list[str]) -> None:
        self.chan.send(f"info depth {depth} score {ucci_score(score)} pv {' '.join(pv)}")
        self.chan.send(f"info time {ms} nodes {nodes}")

    def done(self, answer: Optional[SearchAnswer]) -> None:
        if answer is None:
            self.chan.send("nobestmove")
            return
        text = f"bestmove {move_name(answer.best)}"
        if answer.ponder:
            text += f" ponder {move_name(answer.ponder)}"
        if answer.draw:
            text += " draw"
        elif answer.resign:
            text += " resign"
        self.chan.send(text)


# Every number UCCI's ``go`` takes, with the range it is clamped to (times in seconds or milliseconds).
UCCI_GO_RANGES: dict[str, tuple[float, float]] = {
    "depth": (0, MAX_PLY),
    "nodes": (1, 1e15),
    "time": (0, 1e10),
    "movestogo": (0, 1000),
    "increment": (0, 1e9),
    "opptime": (0, 1e10),
    "oppmovestogo": (0, 1000),
    "oppincrement": (0, 1e9),
}


def ucci_score(score: int) -> str:
    """ElephantEye's scale: a mate in n plies is 10000 - n; a loss by repetition rules ±9800."""
    if abs(score) > MATE_BOUND:
        return str((10000 - (MATE - abs(score))) * (1 if score > 0 else -1))
    if abs(score) >= BAN_SCORE - MAX_PLY:
        return "9800" if score > 0 else "-9800"
    return str(score)


class UciProtocol(Dialect):
    """UCI as Pikafish-style xiangqi GUIs speak it (squares a0–i9)."""

    NAME = "uci"

    @staticmethod
    def detect(first: str) -> bool:
        return first.split()[:1] == ["uci"]

    def __init__(self) -> None:
        super().__init__()
        self.commands.update(
            {
                "uci": self.cmd_uci,
                "setoption": self.cmd_setoption,
                "ucinewgame": lambda args: self.engine.clear_hash(),
                "debug": lambda args: None,
                "register": lambda args: None,
                "quit": self.cmd_quit,
            }
        )

    def allowed_while_thinking(self) -> tuple[str, ...]:
        # As in Stockfish, a position sent while thinking leaves the running search alone and is the
        # one the next go searches. A go while thinking is refused: each go gets exactly one bestmove.
        return ("isready", "stop", "ponderhit", "quit", "d", "position", "debug")

    def cmd_uci(self, args: list[str]) -> None:
        send = self.chan.send
        send(f"id name {self.id_name()}")
        send(f"id author {AUTHOR}")
        send(f"option name Hash type spin default {HASH_MB} min 1 max 1024")
        send("option name Threads type spin default 1 min 1 max 1")
        send("option name Ponder type check default false")
        send("option name MultiPV type spin default 1 min 1 max 128")
        send("option name Move Overhead type spin default 50 min 0 max 5000")
        send("option name Clear Hash type button")
        send("option name Skill Level type spin default 20 min 0 max 20")
        send("option name OwnBook type check default false")
        send("option name UseNN type check default true")
        send("uciok")

    def cmd_setoption(self, args: list[str]) -> None:
        if args[:1] != ["name"]:
            raise Refusal("setoption needs: name <id> [value <x>]")
        label, value = name_value(args[1:])
        name = label.lower()
        if name == "hash":
            self.engine.set_hash(int(number(value, "Hash", 1, 1024)))
        elif name == "threads":
            number(value, "Threads", 1, 1)
        elif name == "ponder":
            return
        elif name == "multipv":
            self.engine.set_multipv(int(number(value, "MultiPV", 1, 128)))
        elif name == "move overhead":
            self.engine.set_overhead(int(number(value, "Move Overhead", 0, 5000)))
        elif name == "clear hash":
            self.engine.clear_hash()
        elif name == "skill level":
            self.engine.set_skill(int(number(value, "Skill Level", 0, 20)))
        elif name == "ownbook":
            self.engine.set_book(value.lower() == "true")
        elif name == "usenn":
            self.engine.set_network(value.lower() == "true")
        else:
            raise Refusal(f"no such option: {label}")

    def cmd_quit(self, args: list[str]) -> None:
        self.engine.stop_and_wait()
        raise EndSession()

    def parse_go(self, args: list[str]) -> GoRequest:
        go = GoRequest()
        keys = dict.fromkeys(UCI_GO_RANGES, 1)
        keys["searchmoves"] = 0
        values, flags, moves = _parse_keywords(args, keys, ("infinite", "ponder"))
        go.infinite = "infinite" in flags
        go.ponder = "ponder" in flags
        got = numbers(values, UCI_GO_RANGES)
        go.depth = max(int(got.get("depth", 0)), int(got.get("mate", 0)) * 2)
        go.nodes = int(got.get("nodes", 0))
        go.movetime = int(got.get("movetime", 0))
        red = self.engine.red_to_move()
        mine, theirs, inc = ("wtime", "btime", "winc") if red else ("btime", "wtime", "binc")
        if mine in got:
            go.left = int(got[mine])
            go.inc = int(got.get(inc, 0))
            go.movestogo = int(got.get("movestogo", 0))
            go.opp_left = int(got.get(theirs, 0))
        go.searchmoves = moves  # the engine checks them when it starts
        if not values and not go.infinite and not go.ponder and not moves:
            go.infinite = True
        return go

    def info(self, depth: int, seldepth: int, index: int, score: int, nodes: int, ms: int, pv: list[str]) -> None:
        nps = nodes * 1000 // max(ms, 1)
        self.chan.send(
            f"info depth {depth} seldepth {max(seldepth, depth)} multipv {index} score {uci_score(score)} "
            f"nodes {nodes} nps {nps} hashfull {self.engine.hashfull()} time {ms} pv {' '.join(pv)}"
        )

    def done(self, answer: Optional[SearchAnswer]) -> None:
        if answer is None:
            self.chan.send("bestmove (none)")
            return
        text = f"bestmove {move_name(answer.best)}"
        if answer.ponder:
            text += f" ponder {move_name(answer.ponder)}"
        self.chan.send(text)


# Every number UCI's ``go`` takes, with the range it is clamped to (times in milliseconds).
UCI_GO_RANGES: dict[str, tuple[float, float]] = {
    "wtime": (0, 1e10),
    "btime": (0, 1e10),
    "winc": (0, 1e9),
    "binc": (0, 1e9),
    "movestogo": (0, 1000),
    "depth": (1, MAX_PLY),
    "nodes": (1, 1e15),
    "movetime": (1, 1e10),
    "mate": (1, MAX_PLY // 2),
}


def uci_score(score: int) -> str:
    if abs(score) > MATE_BOUND:
        plies = MATE - abs(score)
        moves = (plies + 1) // 2
        return f"mate {moves if score > 0 else -moves}"
    return f"cp {score}"
