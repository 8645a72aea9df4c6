"""Training positions for the xiangqi network (docs/xiangqi.md, "Learned evaluation").

A strong engine (Pikafish with its hand-written evaluation by default; Fairy-Stockfish or any UCI xiangqi
engine too) plays games against itself at a small fixed node count. Game ``g`` of seed ``s`` starts from
one of our balanced openings (ucci_engine/data/balanced.epd) followed by two to five random legal plies, and
plays a random legal move now and then in its first plies; all of it is drawn from a generator seeded by
``(s, g)`` alone, and the labeller's hash is cleared before each game, so a game is the same whichever
worker plays it and whenever. Every position searched is written with the search's score (red's point of
view, the labeller's centipawns), whether the side to move is in check, whether the best move captures,
and, at the end of the game, its result for red (1, 0.5, 0). One JSON object a line, a game's lines
together:

    nice -n 19 python3 tests/tools/xq_nn_data.py --games 20000 --nodes 5000 --out ~/.cache/sanqi-data/xq/games.jsonl

The same command run again resumes: the games already in ``--out`` are skipped (a game cut off in the
middle of its write is dropped first). ``--workers N`` plays N games at once (default: every core);
``--cluster ADDRESS`` sends each game to a Dask scheduler instead, as ``sanqi match --cluster`` does
(``pip install 'sanqi[cluster]'``; every worker needs sanqi and the labeller at the same path).

Needs only the standard library, librt and the engine (its Position decides legality and game ends).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import IO, Iterator, Optional

from engine_core.arena import GamePool, Job, LocalPool
from engine_core.game import NO_SCORE
from ucci_engine.position import Position
from ucci_engine.tables import move_name, parse_move

PIKAFISH = os.path.expanduser("~/.cache/sanqi-peers/bin/pikafish-hce")
MAX_PLIES = 240  # a game not over by then is adjudicated on the last score
DECIDED_CP = 1500  # this many centipawns for one side on four plies running ends the game
RANDOM_OPENING_PLIES = (2, 5)  # this many random plies (the bounds included) after the balanced opening
RANDOM_UNTIL = 20  # a random move now and then before this ply ...
RANDOM_CHANCE = 0.05  # ... with this chance


def default_engine() -> str:
    """Pikafish-HCE: $SANQI_PIKAFISH, else on PATH, else the peers' cache."""
    from shutil import which

    return os.environ.get("SANQI_PIKAFISH") or which("pikafish-hce") or PIKAFISH


class Labeller:
    """A UCI xiangqi engine searching to a fixed node count. Pikafish and ours number the ranks 0-9;
    Fairy-Stockfish's plain UCI numbers them 1-10 and needs its variant set (it says who it is)."""

    def __init__(self, command: str, hash_mb: int = 16) -> None:
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        names = [line for line in self.until("uciok") if line.startswith("id name")]
        self.fairy = any("fairy" in line.lower() for line in names)
        if self.fairy:
            self.send("setoption name UCI_Variant value xiangqi")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the labeller exited")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")

    def ours(self, move: str) -> str:
        if not self.fairy:
            return move
        import re

        m = re.fullmatch(r"([a-i])(10|[1-9])([a-i])(10|[1-9])", move)
        return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}" if m else ""

    def theirs(self, move: str) -> str:
        return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}" if self.fairy else move

    def search(self, fen: str, moves: list[str], nodes: int) -> tuple[str, Optional[int], Optional[int]]:
        """Best move, centipawns and mate distance for the side to move (one of the two is None). The score
        is the last exact one the search printed: a search stopped by the node count may end on a bound."""
        line = f"position fen {fen}"
        if moves:
            line += " moves " + " ".join(self.theirs(m) for m in moves)
        self.send(line)
        self.send(f"go nodes {nodes}")
        cp: Optional[int] = None
        mate: Optional[int] = None
        best = ""
        for line in self.until("bestmove"):
            words = line.split()
            if words[0] == "info" and "score" in words:
                i = words.index("score")
                bound = len(words) > i + 3 and words[i + 3] in ("upperbound", "lowerbound")
                if bound and (cp, mate) != (None, None):
                    continue
                if words[i + 1] == "cp":
                    cp, mate = int(words[i + 2]), None
                elif words[i + 1] == "mate":
                    cp, mate = None, int(words[i + 2])
            elif words[0] == "bestmove" and len(words) > 1:
                best = self.ours(words[1])
        return best, cp, mate

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def game_rng(seed: int, game: int) -> random.Random:
    return random.Random(f"xq-nn-data {seed} {game}")


@dataclass(frozen=True)
class SelfPlay:
    """One game a job (``job.number`` is the game id); picklable, so it runs in a process or on a Dask worker."""

    engine: str
    nodes: int
    seed: int
    openings_fens: tuple[str, ...]
    max_plies: int = MAX_PLIES
    hash_mb: int = 16
    names: tuple[str, str] = ("labeller", "labeller")
    openings: int = 0
    in_process: bool = True  # the game's work is in our process (its Position): processes, not threads

    def play(self, job: Job) -> list[str]:
        """The game's JSON lines, each with the game id and the number of lines of the game."""
        fish = Labeller(self.engine, self.hash_mb)
        try:
            return self.lines(fish, job.number)
        finally:
            fish.close()

    def lines(self, fish: Labeller, game: int) -> list[str]:
        rng = game_rng(self.seed, game)
        fen = rng.choice(self.openings_fens)
        pos = Position.from_fen(fen)
        for _ in range(rng.randint(*RANDOM_OPENING_PLIES)):
            legal = pos.legal_moves()
            if not legal or pos.rule_score(0) != NO_SCORE:
                break
            pos.make(rng.choice(legal))
        fen = pos.fen()
        pos = Position.from_fen(fen)  # the game's history starts here, for us and for the labeller alike
        fish.new_game()
        moves: list[str] = []
        records: list[dict[str, object]] = []
        result: Optional[float] = None
        end = ""
        seen: dict[str, int] = {}
        decided = 0
        last_red_cp = 0
        while len(moves) < self.max_plies:
            legal = pos.legal_moves()
            red = pos.side == 0
            if not legal:
                result, end = (0.0 if red else 1.0), "mated"  # no move loses, stalemate too
                break
            key = pos.fen().rsplit(" ", 4)[0]  # the board and the side to move
            seen[key] = seen.get(key, 0) + 1
            rule = pos.rule_score(0)
            # Our rule judges the first repetition, as a search does; the game goes on to the third
            # occurrence, as the labeller (which sees the whole history) plays by its own judgement till then.
            if rule != NO_SCORE and (seen[key] >= 3 or seen[key] == 1):  # once: 60 moves without a capture
                result, end = (0.5 if rule == 0 else float((rule > 0) == red)), "rule"
                break
            best, cp, mate = fish.search(fen, moves, self.nodes)
            if mate is not None:
                result, end = float((mate > 0) == red), "mate"
                break
            if cp is None:
                raise RuntimeError(f"no score from the labeller at {pos.fen()}")
            red_cp = cp if red else -cp
            last_red_cp = red_cp
            move = parse_move(best)
            records.append({"game": game, "fen": pos.fen(), "cp": red_cp, "check": pos.in_check(),
                            "capture": move >= 0 and pos.board[move & 127] != 0, "best": best})
            decided = decided + 1 if abs(red_cp) >= DECIDED_CP else 0
            if decided >= 4:
                result, end = (1.0 if red_cp > 0 else 0.0), "score"
                break
            if len(moves) < RANDOM_UNTIL and rng.random() < RANDOM_CHANCE:
                move = rng.choice(legal)
            if move not in legal or not pos.make(move):
                raise RuntimeError(f"the labeller's move {best} is not legal at {pos.fen()}")
            moves.append(move_name(move))
        if result is None:
            result, end = (0.5 if abs(last_red_cp) < 400 else (1.0 if last_red_cp > 0 else 0.0)), "length"
        return [json.dumps({**rec, "n": len(records), "result": result, "end": end}) for rec in records]


def done_games(path: str) -> set[int]:
    """The ids of the games whole in ``path``; a game cut off at the end of the file (its write interrupted)
    is cut from the file. Games are appended whole, one after the other, so only the last can be cut."""
    done: set[int] = set()
    if not os.path.exists(path):
        return done
    seen: dict[int, int] = {}
    good = 0  # the file's length up to the end of its last whole game
    offset = 0
    with open(path, "rb") as f:
        for raw in f:
            offset += len(raw)
            if not raw.endswith(b"\n"):
                break
            try:
                rec = json.loads(raw)
                game, n = int(rec["game"]), int(rec["n"])
            except (ValueError, KeyError, TypeError):
                break
            seen[game] = seen.get(game, 0) + 1
            if seen[game] == n:
                done.add(game)
                good = offset
    if good < os.path.getsize(path):
        print(f"{path}: cutting {os.path.getsize(path) - good} bytes of an unfinished game", file=sys.stderr)
        with open(path, "r+b") as f:
            f.truncate(good)
    return done


def read_openings(path: str) -> tuple[str, ...]:
    with open(path, encoding="utf-8") as f:
        return tuple(" ".join(line.split()[:2]) + " - - 0 1" for line in f if line.strip() and not line.startswith("#"))


def results(pool: GamePool, setup: SelfPlay, games: list[int], in_flight: int) -> Iterator[tuple[int, list[str] | BaseException]]:
    """Each game's lines as its game ends, at most ``in_flight`` games handed out at once."""
    todo = iter(games)
    pending: dict[object, int] = {}
    try:
        while True:
            while len(pending) < in_flight:
                game = next(todo, None)
                if game is None:
                    break
                pending[pool.submit(setup, Job(game, 0, False, setup.seed))] = game  # type: ignore[arg-type]
            if not pending:
                return
            for fut, got in pool.done(set(pending)):
                yield pending.pop(fut), got  # type: ignore[misc]
    finally:
        pool.close(wait=False)


def make_pool(cluster: Optional[str], workers: int, setup: SelfPlay) -> GamePool:
    if not cluster:
        return LocalPool(workers, setup.in_process)
    try:
        import cloudpickle

        from engine_core.cluster import ClusterPool
    except ImportError:
        raise SystemExit("--cluster needs Dask distributed: pip install 'sanqi[cluster]'") from None
    # The workers have sanqi but not this tool: its code travels with the tasks.
    cloudpickle.register_pickle_by_value(sys.modules[SelfPlay.__module__])
    return ClusterPool(cluster)


def generate(out_path: str, setup: SelfPlay, games: int, workers: int, cluster: Optional[str] = None,
             log: IO[str] = sys.stderr) -> int:
    """Plays games 0 .. games-1 not yet in ``out_path`` and appends them; returns the games played."""
    done = done_games(out_path)
    todo = [g for g in range(games) if g not in done]
    print(f"{len(done)} games already in {out_path}, {len(todo)} to play at {setup.nodes} nodes a move"
          f" ({'cluster ' + cluster if cluster else f'{workers} workers'})", file=log, flush=True)
    if not todo:
        return 0
    start = time.monotonic()
    played = positions = 0
    pool = make_pool(cluster, workers, setup)
    with open(out_path, "a", encoding="utf-8") as out:
        for game, got in results(pool, setup, todo, in_flight=2 * workers if not cluster else 4 * workers):
            if isinstance(got, BaseException):
                print(f"game {game} failed: {got!r}", file=log, flush=True)
                continue
            out.write("".join(line + "\n" for line in got))
            out.flush()
            played += 1
            positions += len(got)
            hours = (time.monotonic() - start) / 3600
            print(f"{time.strftime('%H:%M:%S', time.gmtime())} game {game}: {len(got)} positions; {played}/{len(todo)} games, {positions} positions,"
                  f" {positions / max(hours, 1e-9):.0f} an hour", file=log, flush=True)
    return played


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=300, help="game ids 0 .. GAMES-1 (those already in --out are skipped)")
    p.add_argument("--nodes", type=int, default=5000, help="the labeller's nodes a move")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engine", default=None, help="the labeller's command (default: pikafish-hce, see default_engine)")
    p.add_argument("--hash", type=int, default=16, help="the labeller's hash in MB")
    p.add_argument("--max-plies", type=int, default=MAX_PLIES)
    p.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "..", "..", "ucci_engine", "data", "balanced.epd"))
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="games at once on this machine (default: every core)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play the games on the Dask scheduler at ADDRESS")
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    setup = SelfPlay(a.engine or default_engine(), a.nodes, a.seed, read_openings(a.openings), a.max_plies, a.hash)
    generate(a.out, setup, a.games, max(1, a.workers), a.cluster)
    return 0


if __name__ == "__main__":
    sys.exit(main())
