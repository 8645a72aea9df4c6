"""``sanqi bench [xiangqi] [--depth D] [--perft N] [--peer PATH [--peer-depth D]] [--records PGN …]``: fixed searches, nodes per second.

With ``--peer`` the same positions are searched by UCCI peers (ElephantEye, Fairy-Stockfish) in the
same run, one after the other, so the figures can be reported as ratios on this shared, noisy machine. Each side's rate is given
per wall-clock second and per second of its own CPU time: on a machine busy with other work the
second is what the engine does when it runs.
"""

import math
import os
import time
from typing import Optional

from engine_core.args import ArgParser, int_between, program, readable_file
from engine_core.cli import version_line
from engine_core.search import MAX_PLY, Limits, Searcher
from engine_core.seat import EngineSeat
from engine_core.tt import TransTable
from ucci_engine.arena import replay
from ucci_engine.engine import HASH_MB, XIANGQI_SEARCH
from ucci_engine.perft import MOST_PLIES
from ucci_engine.position import START_FEN, Position
from ucci_engine.tables import move_name

POSITIONS = [
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3",
    "3akab2/9/4b4/p3p3p/2p3p2/9/P1P1P1P1P/4B4/4A4/2BAK4 w - - 0 30",
]
PEER_DEPTH = 12  # a peer's depth when no --peer-depth is given for it
RECORD_PLIES = 60  # --records: the plies of each game searched (the middle game, where games are decided)


def run_ours(depth: int) -> tuple[int, float, float]:
    """Nodes, wall seconds and CPU seconds of our searches of :data:`POSITIONS` to ``depth``."""
    nodes, seconds = 0, 0.0
    cpu = time.process_time()
    for fen in POSITIONS:
        searcher = Searcher(TransTable(16), XIANGQI_SEARCH)
        lim = Limits()
        lim.depth = depth
        start = time.perf_counter()
        lines = searcher.think(Position.from_fen(fen), lim)
        took = time.perf_counter() - start
        nodes += searcher.nodes
        seconds += took
        print(f"  {move_name(lines[0].move) if lines else '-':5} {searcher.nodes:9d} nodes {took:7.2f} s  {fen}")
    return nodes, seconds, time.process_time() - cpu


def run_records(paths: list[str], depth: int) -> tuple[int, int, float]:
    """Searches, nodes and CPU seconds of one side's moves in each recorded game, to ``depth``, with
    one searcher and hash table a game as the engine keeps them, so what a search leaves to the next
    (its table, its history) counts as in play."""
    searches, nodes = 0, 0
    cpu = time.process_time()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            fens, _ = replay(f.read())
        searcher = Searcher(TransTable(HASH_MB), XIANGQI_SEARCH)
        for fen in fens[:RECORD_PLIES:2]:
            lim = Limits()
            lim.depth = depth
            searcher.think(Position.from_fen(fen), lim)
            searches += 1
            nodes += searcher.nodes
    return searches, nodes, time.process_time() - cpu


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux /proc; 0 where there is none)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rate(nodes: int, seconds: float) -> int:
    return int(nodes / max(seconds, 1e-9))


class Peer(EngineSeat):
    """A UCCI engine process on an :class:`EngineSeat`, driven line by line: ``send`` a command, read
    ``until`` a reply (``info`` lines included: they carry the node counts). Its stderr is discarded; it is
    waited for as long as it lives, and killed with its process group when closed or when we exit."""

    # The opening exchange: each line sent, then the reply awaited ("" awaits nothing).
    HELLO: tuple[tuple[str, str], ...] = (("ucci", "ucciok"),)

    def __init__(self, command: str) -> None:
        self.start(command, keep_info=True)
        for line, reply in self.HELLO:
            self.send(line)
            if reply:
                self.until(reply)

    def until(self, prefix: str | tuple[str, ...]) -> list[str]:
        seen = []
        while (line := self.line(math.inf)) is not None:
            seen.append(line)
            if line.startswith(prefix):
                return seen
        raise RuntimeError(f"{self.command} ended before {prefix!r}")

    def search(self, fen: str, depth: int) -> tuple[int, float]:
        """Nodes and wall seconds of one search (the CPU time is read from the process around it)."""
        self.send(f"position fen {fen}")
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        lines = self.until("bestmove")
        took = time.perf_counter() - start
        nodes = 0
        for line in lines:
            words = line.split()
            if "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
        return nodes, took

    def perft(self, fen: str, depth: int) -> tuple[int, float]:
        """Leaves and wall seconds of ``go perft``; -1 leaves from a peer that has no perft.

        The ``stop`` behind it ends the search such a peer starts instead (ElephantEye); a peer that
        counts reads it when done, with nothing to stop.
        """
        self.send(f"position fen {fen}")
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        self.send("stop")
        line = self.until(("Nodes searched", "bestmove", "nobestmove"))[-1]
        took = time.perf_counter() - start
        return (int(line.split()[-1]) if line.startswith("Nodes") else -1), took

    def close(self) -> None:
        self.stop("quit", grace=5.0)


def run(args: Optional[list[str]] = None) -> int:
    parser = ArgParser(prog="sanqi bench xiangqi", description="Fixed-depth searches of eight positions; nodes per second, and perft.")
    parser.add_argument("--depth", type=int_between(1, MAX_PLY), default=6, help="search depth of each position")
    parser.add_argument("--perft", type=int_between(0, MOST_PLIES), default=0,
                        help="also time perft N of the start position (and N-1 of four others); 0: no perft")
    parser.add_argument("--peer", type=program, action="append", default=[],
                        help="a UCCI engine measured in the same run, e.g. /usr/games/fairy-stockfish; repeat for more (default: none)")
    parser.add_argument("--peer-depth", type=int_between(1, MAX_PLY), action="append", default=[],
                        help=f"the search depth of the peer given in the same place; repeat for each peer (default: {PEER_DEPTH})")
    parser.add_argument("--records", nargs="+", type=readable_file, default=[], metavar="PGN",
                        help=f"instead, search the first {RECORD_PLIES} plies of these games (`sanqi match --records`), "
                        "every other position as one engine of the game would, to --depth")
    opts = parser.parse_args(args or [])
    if len(opts.peer_depth) > len(opts.peer):
        parser.error(f"{len(opts.peer_depth)} --peer-depth for {len(opts.peer)} --peer")
    if opts.records and (opts.peer or opts.perft):
        parser.error("--records searches sanqi alone: no --peer or --perft with it")
    if opts.records:
        searches, nodes, cpu = run_records(opts.records, opts.depth)
        print(f"{version_line()}: {searches} positions of {len(opts.records)} games to depth {opts.depth}")
        print(f"Nodes searched  : {nodes}")
        print(f"CPU seconds     : {cpu:.2f}")
        print(f"Nodes/CPU second: {rate(nodes, cpu)}")
        print(f"Nodes searched: {nodes}")  # the last line of every game's bench: its fingerprint
        return 0

    print(f"{version_line()}: {len(POSITIONS)} positions to depth {opts.depth}")
    nodes, seconds, cpu = run_ours(opts.depth)
    nps = nodes / max(seconds, 1e-9)
    print(f"Total time (ms) : {int(seconds * 1000)}")
    print(f"Nodes searched  : {nodes}")
    print(f"Nodes/second    : {int(nps)}")
    print(f"Nodes/CPU second: {rate(nodes, cpu)}")
    peers = [Peer(path) for path in opts.peer]
    depths = opts.peer_depth + [PEER_DEPTH] * (len(peers) - len(opts.peer_depth))
    for peer, depth in zip(peers, depths):
        pn, ps = 0, 0.0
        pcpu = cpu_seconds(peer.pid)
        for fen in POSITIONS:
            n, s = peer.search(fen, depth)
            pn, ps = pn + n, ps + s
        pcpu = cpu_seconds(peer.pid) - pcpu
        print(f"Peer {peer.command} to depth {depth}: {pn} nodes, {rate(pn, ps)} nodes/s; sanqi/peer = {nps / rate(pn, ps):.3f}")
        if pcpu > 0:
            print(f"  per CPU second: {rate(pn, pcpu)} nodes/s; sanqi/peer = {rate(nodes, cpu) / rate(pn, pcpu):.3f}")
    if opts.perft:
        for i, fen in enumerate(POSITIONS[:5]):
            depth = opts.perft if i == 0 else opts.perft - 1
            start = time.perf_counter()
            count = Position.from_fen(fen).perft(depth)
            took = time.perf_counter() - start
            line = f"perft({depth}) {count} in {took:.2f} s ({int(count / took)} leaves/s)"
            for peer in peers:
                pcount, ptook = peer.perft(fen, depth)
                if pcount < 0:
                    line += f"; {peer.command} has no perft"
                else:
                    line += f"; {peer.command} {pcount} in {ptook:.2f} s ({'same' if pcount == count else 'DIFFERENT'}, time ratio {took / ptook:.1f})"
            print(f"{line}  {fen}")
    for peer in peers:
        peer.close()
    print(f"Nodes searched: {nodes}")  # the last line of every game's bench: its fingerprint
    return 0
