"""``sanqi bench gomoku``: forbidden-point scan time, VCF solve times and search speed.

The reference positions ship in ``gomoku_protocol/data/`` (``--reference DIR`` reads
``DIR/gomoku/*.json`` instead). Every figure is measured, none is assumed.
"""

import json
import pathlib
import statistics
import time
from typing import Any

from engine_core.search import Limits, Searcher
from engine_core.tt import TransTable
from engine_core.args import ArgParser, UsageError, guarded, positive_int
from gomoku_protocol.data_files import DATA
from gomoku_protocol.position import Position
from gomoku_protocol.record import parse_pos
from gomoku_protocol.rules import BLACK, WHITE
from gomoku_protocol.threats import ThreatSearch

RULES = {"renju": 4, "freestyle": 0, "standard": 1}
# Mid-game search positions: 15x15 freestyle openings played out a little (h8 notation).
SEARCH_POSITIONS = ["h8i9j8i8i7j6h9g10h10", "h8h9i8g8j9k10i10", "h8i9h9h10g8f7i7j6g9"]


def _cases(folder: pathlib.Path, name: str) -> list[dict[str, Any]]:
    path = folder / name
    try:
        cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot read the positions of {str(path)!r}: {exc}") from None
    return cases


def _setup(case: dict[str, Any], rule: int) -> Position:
    b = Position(15, 15, rule)
    for x, y in case["black"]:
        b.place(b.index(x, y), BLACK)
    for x, y in case["white"]:
        b.place(b.index(x, y), WHITE)
    b.side = WHITE if case.get("side_to_move") == "white" else BLACK
    return b


def bench_forbidden(cases: list[dict[str, Any]], repeat: int) -> None:
    per_board: list[float] = []
    with_setup: list[float] = []
    for n, case in enumerate(cases):
        b = _setup(case, 4)
        times: list[float] = []
        found = 0
        for _ in range(repeat):
            t = time.perf_counter()
            found = len(b.forbidden_points())
            times.append(time.perf_counter() - t)
        ms = statistics.median(times) * 1000
        per_board.append(ms)
        # The referee's checker starts from a bare position: count building our tables too.
        setups: list[float] = []
        for _ in range(max(1, repeat // 4)):
            t = time.perf_counter()
            len(_setup(case, 4).forbidden_points())
            setups.append(time.perf_counter() - t)
        with_setup.append(statistics.median(setups) * 1000)
        print(f"forbidden scan {n + 1:2d} {case['test']:<36} {found} points  {ms:6.2f} ms  ({with_setup[-1]:6.2f} ms with board set-up)")
    print(f"forbidden scan: mean {statistics.mean(per_board):.2f} ms, max {max(per_board):.2f} ms per 15x15 board; "
          f"with set-up mean {statistics.mean(with_setup):.2f} ms (reference checker: about 37 ms)")


def bench_vcf(cases: list[dict[str, Any]]) -> None:
    for n, case in enumerate(cases):
        b = _setup(case, RULES.get(case["rule"], 0))
        ts = ThreatSearch(b)
        t = time.perf_counter()
        line = ts.vcf(40, 10000)
        ms = (time.perf_counter() - t) * 1000
        shown = f"{(len(line) + 1) // 2} fours, first {b.name(line[0])}" if line else "NOT FOUND"
        print(f"vcf {n + 1} {case['rule']}: {ms:7.1f} ms, {ts.nodes} nodes, {shown}")


def bench_search(ms: int, depth: int) -> int:
    """Each position searched for ``ms`` or, with ``depth``, to that depth: then the nodes, moves and
    scores are the same on every run and build, and builds compare by CPU time per node. The nodes
    of all the searches."""
    total_nodes = 0
    total_ms = 0.0
    cpu = 0.0
    for pos in SEARCH_POSITIONS:
        b = Position(15, 15, 0)
        for x, y in parse_pos(pos):
            b.play(b.index(x, y), b.side)
        searcher = Searcher(TransTable(16))
        limits = Limits()
        if depth:
            limits.depth = depth
        else:
            limits.soft_ms = ms
            limits.hard_ms = ms
        t = time.perf_counter()
        started = time.process_time()
        lines = searcher.think(b, limits)
        used = time.process_time() - started
        spent = (time.perf_counter() - t) * 1000
        cpu += used
        total_nodes += searcher.nodes
        total_ms += spent
        if depth:
            shown = f"score {lines[0].score} pv {' '.join(b.name(m) for m in lines[0].pv)}" if lines else "no move"
            print(f"search {pos} depth {depth}: {searcher.nodes} nodes, {shown}; {used * 1000:.0f} ms CPU "
                  f"({used * 1e6 / max(1, searcher.nodes):.2f} us a node)")
            continue
        best = b.name(lines[0].move) if lines else "-"
        print(f"search {pos}: {searcher.nodes} nodes in {spent:.0f} ms ({searcher.nodes * 1000 / max(1.0, spent):.0f} nodes/s), best {best}")
    # CPU time as well: on a shared machine the wall clock counts other jobs' share of the cores.
    print(f"search: {total_nodes * 1000 / max(1.0, total_ms):.0f} nodes/s overall, "
          f"{total_nodes / max(1e-3, cpu):.0f} per CPU second")
    b = Position(15, 15, 0)
    for x, y in parse_pos(SEARCH_POSITIONS[0]):
        b.play(b.index(x, y), b.side)
    points = sorted(b.cand)
    t = time.perf_counter()
    cpu = time.process_time()
    count = 0
    while count < 5000:
        for m in points:
            b.make(m)
            b.unmake()
        count += len(points)
    spent = time.perf_counter() - t
    cpu = time.process_time() - cpu
    print(f"board: {count / spent:.0f} make+unmake pairs/s, {count / max(1e-3, cpu):.0f} per CPU second "
          f"(incremental patterns and threat sets)")
    return total_nodes


def parser() -> ArgParser:
    p = ArgParser(prog="sanqi bench gomoku", description=__doc__)
    p.add_argument("--reference", help="a folder holding gomoku/renju_forbidden.json and gomoku/renju_vcf.json "
                   "(default: the copies shipped with sanqi)")
    p.add_argument("--repeat", type=positive_int, default=20, help="forbidden scans per board (the median is shown)")
    p.add_argument("--ms", type=positive_int, default=2000, help="search time per position in milliseconds")
    p.add_argument("--depth", type=positive_int, default=0,
                   help="search each position to this depth instead (the same trees on every run: compare builds "
                   "by CPU time per node)")
    return p


def run(args: list[str]) -> int:
    return guarded("sanqi bench gomoku", lambda: bench(parser().parse_args(args)))


def bench(opts: Any) -> int:
    folder = pathlib.Path(opts.reference) / "gomoku" if opts.reference else DATA
    forbidden = _cases(folder, "renju_forbidden.json")
    vcfs = _cases(folder, "renju_vcf.json")
    t = time.perf_counter()
    Position(15, 15, 4)
    print(f"start-up: empty renju board with its tables in {(time.perf_counter() - t) * 1000:.1f} ms")
    bench_forbidden(forbidden, opts.repeat)
    bench_vcf(vcfs)
    nodes = bench_search(opts.ms, opts.depth)
    print(f"Nodes searched: {nodes}")  # the last line of every game's bench: its fingerprint (with --depth)
    return 0
