"""The move that lost each game, and why we played it (an analysis tool, not a test).

For every game the named player lost (an SGF file as ``sanqi match --records`` writes it) the positions
are walked back from the last move while they are lost for it: a stronger brain (Rapfi at ``--depth``)
sees a mate for the opponent (with either side to move: at a fixed depth it often sees the mate from
one side only, so one position not seen lost between two seen lost does not end the run), our threat
search proves the opponent's win (VCT depth 6 and ``--deep`` within ``--walk-nodes``: a proof), or we
must block a four. The losing move is the loser's last move before that run: the first after which the
opponent had a forced win to the end. There the brain also gives its own move and the score after it.
Then our threat search, with a node budget and fresh memos each time (``--nodes``, no clock, so the
machine's load does not change the answers), asks what the brain could have known:

* ``own`` the loser's VCT before the move (a win of ours that was missed; Rapfi's mate for us too);
* ``threat`` the opponent's VCF or VCT (depth 6, as the brain's checks) if it could move before ours:
  the brain then judged defences (:meth:`Brain._defences`), else it checked its chosen move only;
* ``after`` the opponent's win after the move played: a VCF, a VCT at the checks' depth 6, then at
  ``--deep``; with the nodes each took;
* ``scorer's`` the same after the brain's move (our threat search's view of the move that held);
* what each move is (our four or three point, the opponent's, or quiet: the brain's defences are the
  opponent's threat line and its fours and threes and ours), and with ``--think-ms`` what a fresh
  brain plays there now and what it said of the opponent's threats.

Each game ends with a class, counted at the end:

* ``missed win``: Rapfi saw a mate for us before the move (``our VCT found it`` or not);
* ``defence let through``: the opponent threatened and our depth-6 threat search finds its win after
  the move played (the check was cut short, or never reached it);
* ``defence, win beyond depth 6``: the opponent threatened, and its win after our move is deeper;
* ``quiet, check missed``: no threat before, and our depth-6 search finds the win after our move;
* ``quiet, beyond depth 6``: found only at ``--deep``; ``quiet, beyond our threat search``: not even
  there (a quiet first move, a longer line: the evaluation's or the alpha-beta's business);
* ``no escape``: Rapfi's own move loses too, by its mate or by our search's proof (the game was lost
  earlier than both see).

Run from the repository root with an installed sanqi (compiled: the budgets are nodes, so pure gives
the same answers, only slower)::

    nice -n 19 python tests/tools/gomoku_losing_move.py rec/games.sgf --name m6 \\
        --brain ~/.cache/sanqi-peers/bin/pbrain-rapfi --depth 16 > losing.txt
"""

import argparse
import collections
import os
import re
import sys
from typing import Optional

try:
    import gomoku_protocol  # noqa: F401  (an installed, compiled sanqi first)
except ImportError:  # pragma: no cover - from a bare checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from gomoku_protocol import label
from gomoku_protocol.brain import Brain
from gomoku_protocol.fit import MATE, read_text
from gomoku_protocol.position import Position
from gomoku_protocol.record import SgfGame, format_pos, read_sgf_games
from gomoku_protocol.threats import ThreatSearch

CHECK_DEPTH = 6  # the brain's checks of the opponent's VCT (Brain._after, Brain._opponent_threat)
NO_CLOCK_MS = 10**7  # the threat searches here are cut by nodes only


def board_at(game: SgfGame, ply: int) -> Position:
    """The position before the ``ply``-th move (0-based)."""
    b = Position(game.size, game.size, game.rule)
    for x, y in game.moves[:ply]:
        b.play(b.index(x, y), b.side)
    return b


def win(b: Position, depths: list[int], nodes: int) -> str:
    """The side to move's win by our threat search: "VCF n" or "VCT d n" (d the depth, n its nodes,
    each search fresh and cut at ``nodes``), "none" (proven absent to the last depth) or "cut"."""
    ts = ThreatSearch(b)
    if ts.vcf(30, NO_CLOCK_MS, nodes):
        return f"VCF {ts.nodes}"
    for depth in depths:
        ts = ThreatSearch(b)
        if ts.vct(depth, NO_CLOCK_MS, nodes):
            return f"VCT {depth} {ts.nodes}"
    return "cut" if ts.stopped else "none"


def after(b: Position, move: int, depths: list[int], nodes: int) -> str:
    """:func:`win` for the opponent after ``move``."""
    if not b.make(move):
        return "illegal"
    try:
        return win(b, depths, nodes)
    finally:
        b.unmake()


def threat(b: Position, nodes: int) -> str:
    """The opponent's VCF or VCT at the checks' depth if it could move now (as the brain asks)."""
    b.make_null()
    try:
        return win(b, [CHECK_DEPTH], nodes)
    finally:
        b.unmake_null()


def classify(own_mate: bool, own: str, before: str, found: str, escape: bool) -> str:
    """The class of a losing move from what the searches said (see the module's note)."""
    if own_mate:
        return f"missed win ({'our VCT found it' if own.startswith(('VCF', 'VCT')) else 'beyond our VCT'})"
    if not escape:
        return "no escape"
    at_check = found.startswith(("VCF", f"VCT {CHECK_DEPTH} "))
    if before.startswith(("VCF", "VCT")):
        return "defence let through" if at_check else "defence, win beyond depth 6"
    if at_check:
        return "quiet, check missed"
    return "quiet, beyond depth 6" if found.startswith("VCT") else "quiet, beyond our threat search"


def lost(scorer: label.Labeller, game: SgfGame, ours: int, plies: int, nodes: int, deep: int) -> bool:
    """Whether the position after the first ``plies`` moves is lost for us, as far as the walk back
    from the end knows: we must block a four (the position after the block is lost, the walk was
    there), the scorer sees a mate against us, or (the opponent to move) our threat search proves
    its win within ``nodes`` (VCT depth 6, then ``deep``)."""
    b = board_at(game, plies)
    if b.fives[b.side]:  # with a five to make, the scorer plays it and prints no score
        return b.side != ours
    if b.side == ours and b.fives[3 - ours]:  # we must block a four: lost as the position after the block
        return True
    if b.side != ours and win(b, [CHECK_DEPTH, deep], nodes).startswith(("VCF", "VCT")):
        return True
    score, _ = scorer.score(format_pos(game.moves[:plies]))
    return score is not None and abs(score) >= MATE and (score > 0) == (b.side != ours)


def losing_move(scorer: label.Labeller, game: SgfGame, ours: int, nodes: int, deep: int) -> Optional[tuple[int, str, Optional[int]]]:
    """(ply, the scorer's move there, its score for us after that move, the opponent to move) of our
    move before the run of positions lost for us that ends the game (see :func:`lost`); None if the run
    starts at the opening."""
    # The earliest position of the run seen lost (counted in moves played). At a fixed depth the scorer
    # sometimes sees the mate only from the defender's side, so one position not seen lost between two
    # seen lost does not end the run (a position lost after the opponent's move was lost before it).
    first = len(game.moves) - 1  # the opponent's five to make
    plies = first - 1
    while plies > game.opening and first - plies <= 2:
        if lost(scorer, game, ours, plies, nodes, deep):
            first = plies
        plies -= 1
    # Our last move before that position: a position lost after the opponent's move was lost before
    # it too, where the opponent had that move to play.
    turn = first - 1 if ((first - 1) % 2 == 0) == (ours == 1) else first - 2
    if turn < game.opening:
        return None
    _, best = scorer.score(format_pos(game.moves[:turn]))
    played = format_pos([game.moves[turn]])
    if not best or best == played:
        return turn, best, None
    score, _ = scorer.score(format_pos(game.moves[:turn]) + best)
    return turn, best, None if score is None else -score


def kinds(b: Position, move: int) -> str:
    """What ``move`` is for the side to move: its four or three point, the opponent's (the brain's
    defences are the opponent's threat line and these points but our threes), or "quiet"."""
    s, o = b.side, 3 - b.side
    sets = (("our four", b.fours(s)), ("our three", b.threes(s)), ("their four", b.fours(o)), ("their three", b.threes(o)))
    return "+".join(name for name, points in sets if move in points) or "quiet"


def rethink(game: SgfGame, ply: int, ms: int) -> str:
    """What a fresh brain plays before the ``ply``-th move with a hard limit of ``ms`` (the soft target
    three quarters), how, and what it said of the opponent's threats."""
    b = board_at(game, ply)
    said: list[str] = []
    r = Brain().think(b, ms * 3 // 4, ms, said.append)
    notes = [s for s in said if s.startswith("opponent") or "loses to" in s]
    return f"{b.name(r.move)} ({r.how}{'; ' if notes else ''}{'; '.join(notes)})"


def study(args: argparse.Namespace) -> collections.Counter[str]:
    text = read_text(args.games)
    bodies = re.findall(r"\(;(.*?)\)", text, re.S)
    games = [(b, g) for b, g in zip(bodies, read_sgf_games(text))]
    scorer = label.Labeller(args.brain, args.depth, args.turn_ms, patience_s=max(20.0, 3 * args.turn_ms / 1000))
    scorer.setup[0] = f"START {games[0][1].size}"  # label.Labeller starts 15x15 boards
    scorer._restart()
    counts: collections.Counter[str] = collections.Counter()
    deep = [CHECK_DEPTH, args.deep]
    for body, game in games:
        ours = 1 if f"PB[{args.name}]" in body else 2
        if game.winner != 3 - ours:
            continue
        number = re.search(r"GN\[(\d+)\]", body)
        times = re.findall(r";[BW]\[[a-z]*\](?:C\[(\d*)(?:ms)?[^\]]*\])?", body)
        head = f"game {number.group(1) if number else '?'} ({'black' if ours == 1 else 'white'}, {len(game.moves)} moves)"
        found = losing_move(scorer, game, ours, args.walk_nodes, args.deep)
        if found is None:
            print(f"{head}: lost from the opening on, as the scorer sees it", flush=True)
            counts["lost from the opening"] += 1
            continue
        ply, best, kept = found
        b = board_at(game, ply)
        move = b.index(*game.moves[ply])
        own_score, _ = scorer.score(format_pos(game.moves[:ply]))
        own = win(b, [args.deep], args.nodes)
        before = threat(b, args.nodes)
        beaten = after(b, move, deep, args.nodes)
        theirs = "-"
        if best and best != b.name(move):
            x, y = ord(best[0]) - 97, int(best[1:]) - 1
            theirs = f"{kinds(b, b.index(x, y))}, {after(b, b.index(x, y), deep, args.nodes)}"
        escape = (kept is None or kept > -MATE) and not re.search(r"VC[FT]", theirs)
        took = times[ply] if ply < len(times) and times[ply] else "?"
        again = f"; at {args.think_ms} ms now {rethink(game, ply, args.think_ms)}" if args.think_ms else ""
        kind = classify(own_score is not None and own_score >= MATE, own, before, beaten, escape)
        counts[kind] += 1
        print(f"{head}: move {ply + 1} {b.name(move)} ({kinds(b, move)}, {took} ms); scorer's {best or '?'} ({kept} after it, score before {own_score});"
              f" own {own}; threat before {before}; after ours {beaten}; after the scorer's {theirs}{again}: {kind}", flush=True)
    scorer.close()
    return counts


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", help="SGF file with the games (sanqi match --records DIR: DIR/games.sgf)")
    p.add_argument("--name", default="sanqi", help="the player whose lost games are studied (its PB/PW name)")
    p.add_argument("--brain", required=True, help="the scoring brain's command (pbrain-rapfi)")
    p.add_argument("--depth", type=int, default=16, help="its INFO max_depth")
    p.add_argument("--turn-ms", type=int, default=10000, help="its INFO timeout_turn")
    p.add_argument("--nodes", type=int, default=1_000_000, help="node budget of each of our threat searches")
    p.add_argument("--walk-nodes", type=int, default=100_000, help="node budget of our threat search on the walk back")
    p.add_argument("--think-ms", type=int, default=0, help="also ask a fresh brain there with this hard limit (0: not)")
    p.add_argument("--deep", type=int, default=12, help="the deeper VCT depth after the checks' 6")
    counts = study(p.parse_args())
    print("; ".join(f"{kind}: {n}" for kind, n in counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
