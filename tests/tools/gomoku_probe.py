"""Why a turning move was played: our brain's view of the positions ``gomoku_turns.py`` points at
(an analysis tool, not a test).

For each ``GAME:PLY`` (the number of the move as ``gomoku_turns.py`` prints it; the move must be
ours) it prints what the brain said in the game (its ``MESSAGE`` lines, when the brains' logs are
given: ``sanqi --protocol gomocup | tee`` per game, matched to the game by our moves), our root
candidates and the rank of the scorer's move in our move ordering (the search only ever tries
the first ``QUIET_MOVES``), what a fresh brain plays there with each ``--ms`` (move, how, depth
reached, score), our own VCT there, and how fast our threat search finds the opponent's win
after the move played and after the scorer's move. With ``--rapfi`` the stronger brain scores
again, at ``--rapfi-depth`` and ``--rapfi-ms``, the position before our move, after its own move
there and after ours (the last two with the opponent to move, where its mates are seen).

``--ranks`` instead goes over every move of ours in the scored games (no search): how often our
move was the scorer's, and where the scorer's move ranked in our ordering when it was not. Run
from the repository root with an installed (compiled) sanqi, so the times mean what they mean in
a match::

    python tests/tools/gomoku_turns.py --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi --size 20 \\
        games.sgf > turns.txt
    python tests/tools/gomoku_probe.py games.sgf --turns turns.txt --logs LOGDIR 3:16 5:34
    python tests/tools/gomoku_probe.py games.sgf --turns turns.txt --ranks
"""

import argparse
import glob
import os
import re
import sys
import time
from typing import Optional

try:
    import gomoku_protocol  # noqa: F401  (an installed, compiled sanqi first)
except ImportError:  # pragma: no cover - from a bare checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from gomoku_protocol import label
from gomoku_protocol.brain import Brain
from gomoku_protocol.fit import MATE, read_text
from gomoku_protocol.position import QUIET_MOVES, Position
from gomoku_protocol.record import SgfGame, format_pos, parse_pos, read_sgf_games
from gomoku_protocol.threats import ThreatSearch

_TURN = re.compile(r"^\s*(\d+) (\S+)\s+played (\S+)\s+scorer's move (\S*)\s+score for \S+ (-?\d+)")


def read_games(path: str, name: str) -> dict[int, tuple[SgfGame, int, list[int]]]:
    """Game number -> (game, our colour: 1 black, 2 white, each move's time in ms as the record's
    comments give it, 0 where none)."""
    text = read_text(path)
    out: dict[int, tuple[SgfGame, int, list[int]]] = {}
    for n, (body, game) in enumerate(zip(re.findall(r"\(;(.*?)\)", text, re.S), read_sgf_games(text))):
        number = re.search(r"GN\[(\d+)\]", body)
        times = [int(ms or 0) for ms in re.findall(r";[BW]\[[a-z]*\](?:C\[(?:(\d+)ms|[^\]]*)\])?", body)]
        out[int(number.group(1)) if number else n + 1] = (game, 1 if f"PB[{name}]" in body else 2, times)
    return out


def read_turns(path: str) -> dict[int, dict[int, tuple[str, int]]]:
    """Game number -> move number -> (the scorer's move, its score for us) from gomoku_turns.py's output."""
    out: dict[int, dict[int, tuple[str, int]]] = {}
    game = 0
    for line in read_text(path).splitlines():
        head = re.match(r"game (\d+):", line)
        if head:
            game = int(head.group(1))
            out[game] = {}
            continue
        m = _TURN.match(line)
        if m and game:
            out[game][int(m.group(1))] = (m.group(4), int(m.group(5)))
    return out


def read_logs(directory: str) -> list[list[tuple[tuple[int, int], list[str]]]]:
    """Per brain log: each move it answered, with the MESSAGE lines it printed before it."""
    logs = []
    for path in sorted(glob.glob(os.path.join(directory, "*.log"))):
        moves: list[tuple[tuple[int, int], list[str]]] = []
        said: list[str] = []
        for line in read_text(path).splitlines():
            m = re.fullmatch(r"(\d+),(\d+)", line.strip())
            if m:
                moves.append(((int(m.group(1)), int(m.group(2))), said))
                said = []
            elif line.startswith("MESSAGE"):
                said.append(line[8:])
        logs.append(moves)
    return logs


def our_moves(game: SgfGame, ours: int) -> list[tuple[int, int]]:
    return [mv for ply, mv in enumerate(game.moves) if ply >= game.opening and (ply % 2 == 0) == (ours == 1)]


def log_of(game: SgfGame, ours: int, logs: list[list[tuple[tuple[int, int], list[str]]]]) -> Optional[list[tuple[tuple[int, int], list[str]]]]:
    mine = our_moves(game, ours)
    for log in logs:
        if [mv for mv, _ in log] == mine:
            return log
    return None


def position(game: SgfGame, ply: int) -> Position:
    """The position before move number ``ply`` (1-based)."""
    b = Position(game.size, game.size, game.rule)
    for x, y in game.moves[: ply - 1]:
        b.play(b.index(x, y), b.side)
    return b


def ordering(b: Position) -> list[int]:
    """Every candidate point in our quiet move ordering, best first (the search keeps QUIET_MOVES)."""
    s = b.side
    return [i for _, i in sorted(((b.order_score(i, s), i) for i in b.cand), reverse=True)]


def rank(b: Position, name: str) -> str:
    order = [b.name(i) for i in ordering(b)]
    return str(order.index(name) + 1) if name in order else "none"


def threat_after(b: Position, move: int, ms: int, depths: list[int]) -> str:
    """How our threat search finds the opponent's win after ``move``: a VCF, then a VCT to each of
    ``depths`` (the brain's checks use 6), ``ms`` each, with a fresh search (memos) each time."""
    b.make(move)
    found = "none"
    for kind, depth in [("VCF", 30)] + [("VCT", d) for d in depths]:
        ts = ThreatSearch(b)
        t = time.perf_counter()
        line = ts.vcf(depth, ms) if kind == "VCF" else ts.vct(depth, ms)
        took = time.perf_counter() - t
        if line:
            found = f"{kind} {' '.join(b.name(m) for m in line[:9])} ({len(line)} plies, depth {depth}, {ts.nodes} nodes) in {took * 1000:.0f} ms"
            break
        if ts.stopped:
            found = f"none ({kind} to depth {depth} cut at {ms} ms, {ts.nodes} nodes)"
        elif kind == "VCT":
            found = f"none (no VCT to depth {depth}, proven in {ts.nodes} nodes)"
    b.unmake()
    return found


def think(game: SgfGame, ply: int, ms: int) -> str:
    b = position(game, ply)
    brain = Brain()
    t = time.perf_counter()
    r = brain.think(b, ms * 3 // 4, ms, lambda _line: None)
    return f"{b.name(r.move)} ({r.how}, depth {brain.last_depth}, score {r.score}) in {time.perf_counter() - t:.1f} s"


def probe(args: argparse.Namespace, games: dict[int, tuple[SgfGame, int, list[int]]], turns: dict[int, dict[int, tuple[str, int]]],
          logs: list[list[tuple[tuple[int, int], list[str]]]], rapfi: Optional[label.Labeller]) -> None:
    for spec in args.specs:
        parts = spec.split(":")
        number, ply = int(parts[0]), int(parts[1])
        game, ours, times = games[number]
        b = position(game, ply)
        played = b.index(*game.moves[ply - 1])
        scorer = parts[2] if len(parts) > 2 else turns.get(number, {}).get(ply, ("?", 0))[0]
        before = turns.get(number, {}).get(ply, ("", 0))[1]
        after = turns.get(number, {}).get(ply + 1, ("", 0))[1]
        used = sum(times[n] for n in range(ply - 1) if n % 2 == (ply - 1) % 2 and n < len(times))
        took = times[ply - 1] if ply - 1 < len(times) else 0
        print(f"game {number} move {ply}: played {b.name(played)}, scorer's {scorer}, score for us {before} -> {after};"
              f" our clock used before it {used / 1000:.1f} s, the move took {took} ms")
        log = log_of(game, ours, logs) if logs else None
        if log is not None:
            index = our_moves(game, ours).index(game.moves[ply - 1], (ply - 1 - game.opening) // 2)
            said = log[index][1]
            keep = [s for s in said if "multipv" not in s]
            deepest = [s for s in said if "multipv" in s][-1:]
            for s in deepest + keep:
                print(f"  in the game: {s}")
        roots = b.moves()
        print(f"  root moves {' '.join(b.name(m) for m in roots)}; the scorer's rank in our ordering {rank(b, scorer)}"
              f" of {len(b.cand)}{'' if len(roots) == min(QUIET_MOVES, len(b.cand)) else ' (a forced set at the root)'}")
        for ms in args.ms:
            print(f"  think {ms} ms: {think(game, ply, ms)}", flush=True)
        ts = ThreatSearch(b)
        for depth, ms in ((8, args.threat_ms), (12, 2 * args.threat_ms)):
            t = time.perf_counter()
            line = ts.vct(depth, ms)
            print(f"  our own VCT to depth {depth}: {' '.join(b.name(m) for m in line[:9]) if line else 'none'}"
                  f"{' (cut)' if ts.stopped else ''} in {(time.perf_counter() - t) * 1000:.0f} ms", flush=True)
            if line:
                break
        print(f"  after {b.name(played)}: the opponent's {threat_after(b, played, args.threat_ms, args.vct_depths)}", flush=True)
        if re.fullmatch(r"[a-t]\d{1,2}", scorer) and scorer != b.name(played):
            x, y = ord(scorer[0]) - 97, int(scorer[1:]) - 1
            if b.on_board(x, y) and b.cells[b.index(x, y)] == 0:
                print(f"  after {scorer}: the opponent's {threat_after(b, b.index(x, y), args.threat_ms, args.vct_depths)}", flush=True)
        if rapfi is not None:
            moves = format_pos(game.moves[: ply - 1])
            s0, m0 = rapfi.score(moves)
            s1, m1 = rapfi.score(moves + b.name(played))
            s2 = rapfi.score(moves + m0)[0] if m0 and m0 != b.name(played) else s1
            print(f"  scorer again (depth {args.rapfi_depth}, {args.rapfi_ms} ms): its move {m0}, {s0} before,"
                  f" {None if s2 is None else -s2} after its move, {None if s1 is None else -s1} after {b.name(played)}"
                  f" (its reply {m1})", flush=True)


def ranks(games: dict[int, tuple[SgfGame, int, list[int]]], turns: dict[int, dict[int, tuple[str, int]]]) -> None:
    """How our moves and the scorer's compare over every scored move of ours (quiet positions only)."""
    forced = 0
    buckets = {"same": 0, "top 3": 0, f"4-{QUIET_MOVES}": 0, f"{QUIET_MOVES + 1}-20": 0, "21+": 0, "no candidate": 0}
    drops: dict[str, list[int]] = {k: [] for k in buckets}
    for number, scored in sorted(turns.items()):
        game, ours, _ = games[number]
        for ply, (scorer, score) in sorted(scored.items()):
            if (ply % 2 == 1) != (ours == 1) or not scorer:
                continue
            b = position(game, ply)
            if len(b.moves()) != min(QUIET_MOVES, len(b.cand)):
                forced += 1
                continue
            r = rank(b, scorer)
            if b.name(b.index(*game.moves[ply - 1])) == scorer:
                key = "same"
            else:
                key = "no candidate" if r == "none" else "top 3" if int(r) <= 3 else f"4-{QUIET_MOVES}" \
                    if int(r) <= QUIET_MOVES else f"{QUIET_MOVES + 1}-20" if int(r) <= 20 else "21+"
            buckets[key] += 1
            if ply + 1 in scored and max(abs(score), abs(scored[ply + 1][1])) < MATE:
                drops[key].append(score - scored[ply + 1][1])
    print(f"our moves in quiet positions {sum(buckets.values())} (with a forced root set, left out: {forced});"
          " the scorer's move was ours, or ranked in our ordering (mean fall of the scorer's score for us over"
          " our move, positions with no mate score):")
    for key, count in buckets.items():
        d = drops[key]
        print(f"  {key:12} {count:4}   fall {sum(d) / len(d) if d else 0:6.0f} over {len(d)}")


def depths(args: argparse.Namespace) -> None:
    """Depth reached and nodes searched by a fresh brain at ``--ms[0]`` on quiet positions: every
    ``--every``-th position after move 10 of the games (an SGF file) or of a label file
    (``h8i9…`` first on each line, as gomoku_protocol.label writes it)."""
    text = read_text(args.games)
    sized: list[tuple[int, list[tuple[int, int]]]] = []
    if args.games.endswith((".sgf", ".sgf.gz")):
        for game in read_sgf_games(text):
            sized += [(game.size, game.moves[:ply]) for ply in range(10, len(game.moves))]
    else:
        sized += [(15, parse_pos(line.split()[0])) for line in text.splitlines() if line.strip()]
    done = reached = nodes = 0
    for size, moves in sized[:: args.every]:
        b = Position(size, size, 0)
        for x, y in moves:
            b.play(b.index(x, y), b.side)
        if b.fives[1] or b.fives[2] or len(b.moves()) != min(QUIET_MOVES, len(b.cand)):
            continue
        brain = Brain()
        reports: list[str] = []
        r = brain.think(b, args.ms[0] * 3 // 4, args.ms[0], reports.append)
        if r.how != "alpha-beta" and r.how != "alpha-beta, checked":
            continue
        done += 1
        reached += brain.last_depth
        nodes += max((int(m.group(1)) for m in (re.search(r"nodes (\d+)", s) for s in reports) if m), default=0)
    print(f"{args.games}: {done} quiet positions decided by the alpha-beta at {args.ms[0]} ms: mean depth"
          f" {reached / max(1, done):.1f}, mean nodes {nodes / max(1, done):.0f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", help="SGF file with the games (sanqi match --records)")
    p.add_argument("specs", nargs="*", help="GAME:PLY[:SCORER_MOVE], the move numbers gomoku_turns.py prints")
    p.add_argument("--name", default="sanqi", help="our PB/PW name")
    p.add_argument("--turns", help="gomoku_turns.py's output for these games (the scorer's moves and scores)")
    p.add_argument("--logs", help="directory of the brain's logs of these games (one *.log a game)")
    p.add_argument("--ms", type=lambda s: [int(v) for v in s.split(",")], default=[800, 8000],
                   help="hard limits to think with, comma-separated (the soft target is three quarters)")
    p.add_argument("--threat-ms", type=int, default=2000, help="time for each threat search after a move")
    p.add_argument("--rapfi", help="the scorer's command, to score each position again")
    p.add_argument("--rapfi-depth", type=int, default=16, help="its INFO max_depth (60: no limit but the time)")
    p.add_argument("--rapfi-ms", type=int, default=30000, help="its INFO timeout_turn")
    p.add_argument("--vct-depths", type=lambda s: [int(v) for v in s.split(",")], default=[6],
                   help="depths of our VCT after a move, comma-separated, each with --threat-ms")
    p.add_argument("--ranks", action="store_true", help="compare our moves with the scorer's over whole games")
    p.add_argument("--depths", action="store_true", help="depth reached at --ms on the games' quiet positions (or a label file's)")
    p.add_argument("--every", type=int, default=10, help="with --depths, take every n-th position")
    args = p.parse_intermixed_args()
    turns = read_turns(args.turns) if args.turns else {}
    if args.depths:
        depths(args)
        return 0
    games = read_games(args.games, args.name)
    if args.ranks:
        ranks(games, turns)
        return 0
    logs = read_logs(args.logs) if args.logs else []
    rapfi = None
    if args.rapfi:
        size = next(iter(games.values()))[0].size
        rapfi = label.Labeller(args.rapfi, args.rapfi_depth, args.rapfi_ms, patience_s=120.0)
        rapfi.setup[0] = f"START {size}"
        rapfi._restart()
    probe(args, games, turns, logs, rapfi)
    if rapfi is not None:
        rapfi.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
