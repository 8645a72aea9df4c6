"""``sanqi xiangqi-match``: play sanqi against another UCCI engine (Fairy-Stockfish by default) and score it.

The referee is our own :class:`Position`: every move is checked for legality, clocks are kept
from the wall time between ``go`` and ``bestmove``, and games end by mate or stalemate, the
league repetition rule at the fourth occurrence, 60 moves without a capture, resignation, a move
over time, or adjudication as a draw after ``--max-plies``.
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
import queue
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Optional

from engine_core.args import ArgParser, int_between, positive_int, program, readable_file
from ucci_engine.position import START_FEN, FenError, Position

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


class UcciPlayer:
    """An engine process spoken to in UCCI with millisecond times."""

    def __init__(self, command: list[str], options: dict[str, str], stderr: Optional[IO[bytes]] = None) -> None:
        self.command = command
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr or subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.handshake(options)

    def handshake(self, options: dict[str, str]) -> None:
        self.send("ucci")
        self.expect("ucciok")
        self.send("setoption usemillisec true")
        for name, value in options.items():
            # UCCI's own form: Fairy-Stockfish ignores the UCI "name … value …" form in UCCI mode.
            self.send(f"setoption {name} {value}")

    def expect(self, word: str) -> None:
        """Wait (30 s at most) for a handshake reply; a silent engine shows up at its first move."""
        self.wait_for(word, 30.0)

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            pass

    def wait_for(self, prefix: str, timeout: float) -> Optional[str]:
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            if line.startswith(prefix) or (prefix == "bestmove" and line == "nobestmove"):
                return line

    def think(self, fen: str, moves: list[str], mine: int, inc: int, theirs: int) -> tuple[str, float]:
        """The reply to ``go`` (a ``bestmove`` line, or '' when none came in time) and the seconds taken."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        start = time.monotonic()
        self.send(f"go time {mine} increment {inc} opptime {theirs} oppincrement {inc}")
        line = self.wait_for("bestmove", mine / 1000 + 2.0)
        return line or "", time.monotonic() - start

    def close(self) -> None:
        self.send("quit")
        try:
            self.proc.wait(3)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class GameResult:
    def __init__(self, score: float, reason: str, moves: list[str]) -> None:
        self.score = score  # for red: 1 win, 0.5 draw, 0 loss
        self.reason = reason
        self.moves = moves


def repetition_verdict(pos: Position) -> Optional[float]:
    """Red's score when the current position occurs for the fourth time, else None."""
    keys, quiet = pos.keys, pos.quiet[-1]
    n = len(keys) - 1
    earlier = [i for i in range(max(0, n - quiet), n) if keys[i] == keys[n] and (n - i) % 2 == 0]
    if len(earlier) < 3:
        return None
    verdict = pos.judge_cycle(n - earlier[-1])
    if verdict == 0:
        return 0.5
    mover_wins = verdict > 0
    return 1.0 if mover_wins == (pos.side == 0) else 0.0


def play_game(red: UcciPlayer, black: UcciPlayer, base_ms: int, inc_ms: int, max_plies: int, start_fen: str = START_FEN) -> GameResult:
    pos = Position.from_fen(start_fen)
    moves: list[str] = []
    clocks = [base_ms, base_ms]
    players = [red, black]
    while True:
        side = pos.side
        if not pos.legal_moves():
            return GameResult(0.0 if side == 0 else 1.0, "mate", moves)
        verdict = repetition_verdict(pos)
        if verdict is not None:
            return GameResult(verdict, "repetition", moves)
        if pos.quiet[-1] >= 120:
            return GameResult(0.5, "60 moves without capture", moves)
        if len(moves) >= max_plies:
            return GameResult(0.5, "adjudicated at the ply limit", moves)
        line, spent = players[side].think(start_fen, moves, clocks[side], inc_ms, clocks[side ^ 1])
        clocks[side] -= int(spent * 1000)
        lost = 0.0 if side == 0 else 1.0
        words = line.split()
        if clocks[side] < 0:
            return GameResult(lost, f"{'red' if side == 0 else 'black'} over time", moves)
        if len(words) < 2 or words[0] != "bestmove":
            return GameResult(lost, f"no move from {'red' if side == 0 else 'black'}: {line!r}", moves)
        if "resign" in words[2:]:
            return GameResult(lost, "resigned", moves)
        if not pos.push_name(words[1]):
            return GameResult(lost, f"illegal move {words[1]}", moves)
        moves.append(words[1])
        clocks[side] += inc_ms


def read_openings(path: str) -> list[str]:
    """The FENs of an openings file: one a line, blank lines and '#' comments skipped."""
    with open(path) as f:
        fens = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    for fen in fens:
        Position.from_fen(fen)  # a bad line fails here, before any engine starts
    return fens


def sanqi_command() -> list[str]:
    """The sanqi of this environment (a venv need not be on PATH), else the one on PATH, else this module's."""
    beside = os.path.join(os.path.dirname(sys.executable), "sanqi")
    found = beside if os.path.isfile(beside) else shutil.which("sanqi")
    return [found] if found else [sys.executable, "-m", "engine_core"]


def time_control(text: str) -> tuple[int, int]:
    """An argparse type: ``BASE+INC`` in seconds as (base ms, increment ms).

    >>> time_control("6+0.1"), time_control("30")
    ((6000, 100), (30000, 0))
    """
    base, _, inc = text.partition("+")
    try:
        base_ms, inc_ms = round(float(base) * 1000), round(float(inc or 0) * 1000)
    except (ValueError, OverflowError):
        base_ms, inc_ms = 0, -1
    if not 0 < base_ms < 10**9 or not 0 <= inc_ms < 10**8:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time control like 10+0.1 (base seconds above 0, + increment seconds)")
    return base_ms, inc_ms


def engine_option(text: str) -> tuple[str, str]:
    """An argparse type: ``NAME=VALUE``, sent as ``setoption NAME VALUE``."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE (e.g. Skill_Level=0)")
    return name.strip(), value.strip()


def openings_file(path: str) -> list[str]:
    """An argparse type: a readable file of legal starting FENs."""
    try:
        return read_openings(readable_file(path))
    except FenError as exc:
        raise argparse.ArgumentTypeError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {exc}") from None


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi xiangqi-match", description=__doc__)
    p.add_argument("--games", type=positive_int, default=20, help="games to play, colours alternating")
    p.add_argument("--tc", type=time_control, default="10+0.1", metavar="BASE+INC", help="time control: base seconds + increment seconds per move")
    p.add_argument("--peer", type=program, default=FAIRY_STOCKFISH, help="the opponent's command (a UCCI engine)")
    p.add_argument("--peer-option", type=engine_option, action="append", default=[], metavar="NAME=VALUE",
                   help="a UCCI option for the peer, e.g. Skill_Level=0; may be repeated (default: none)")
    p.add_argument("--engine-option", type=engine_option, action="append", default=[], metavar="NAME=VALUE",
                   help="a UCCI option for our engine, e.g. usebook=true; may be repeated (default: none)")
    p.add_argument("--engine", type=program, default=None, help="our engine's command (default: the sanqi beside this one)")
    p.add_argument("--concurrency", type=int_between(1, 64), default=1, help="games played at once")
    p.add_argument("--max-plies", type=positive_int, default=300, help="plies after which a game is adjudicated a draw")
    p.add_argument("--openings", type=openings_file, default=None, metavar="FILE",
                   help="FENs to start from, one a line ('#' comments); games 2k and 2k+1 share one, colours swapped (default: the start position)")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    args = parser().parse_args(argv)
    base_ms, inc_ms = args.tc
    ours = shlex.split(args.engine) if args.engine else sanqi_command()
    peer_options = dict(args.peer_option)
    starts = args.openings or [START_FEN]

    def one(game: int) -> tuple[float, str]:
        us, them = UcciPlayer(ours, dict(args.engine_option)), UcciPlayer(shlex.split(args.peer), peer_options)
        we_are_red = game % 2 == 0
        start = starts[game // 2 % len(starts)]
        try:
            result = play_game(us if we_are_red else them, them if we_are_red else us, base_ms, inc_ms, args.max_plies, start)
        finally:
            us.close()
            them.close()
        score = result.score if we_are_red else 1.0 - result.score
        print(f"game {game + 1}: sanqi {'red' if we_are_red else 'black'} scores {score} ({result.reason}, {len(result.moves)} plies)", flush=True)
        return score, result.reason

    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        results = list(pool.map(one, range(args.games)))
    total = sum(score for score, _ in results)
    wins = sum(1 for score, _ in results if score == 1.0)
    losses = sum(1 for score, _ in results if score == 0.0)
    tc = f"{base_ms / 1000:g}+{inc_ms / 1000:g}"
    options = " ".join(f"{name}={value}" for name, value in args.peer_option)
    print(f"sanqi vs {args.peer} {options} at {tc}: +{wins} ={args.games - wins - losses} -{losses}, "
          f"score {total}/{args.games} ({100 * total / args.games:.1f}%)")
    # A forfeit is always the loser's: score 0 means sanqi forfeited, 1 the peer.
    forfeits = [("sanqi" if score == 0.0 else "peer", reason) for score, reason in results if is_forfeit(reason)]
    on_time = [who for who, reason in forfeits if "over time" in reason]
    print(f"time forfeits: sanqi {on_time.count('sanqi')}, peer {on_time.count('peer')}")
    if forfeits:
        print("forfeits: " + "; ".join(f"{who}: {reason}" for who, reason in forfeits))
    return 0


def is_forfeit(reason: str) -> bool:
    return any(word in reason for word in ("illegal", "over time", "no move"))
