"""The junqi engine's ``threads`` option: worker processes that search the worlds beside the engine,
started once, and gone whenever the engine is (``quit``, end of input, a SIGKILL); and the chance
node that scores an attack on a hidden piece as the mix of its outcomes."""

import os
import signal
import time

import pytest

from junqi_protocol.board import Board
from junqi_protocol.player import Player
from junqi_protocol.game import Rules
from junqi_protocol.position import Position, zobrist_keys
from junqi_protocol.rules import BOMB, BOTH, COMBAT, EAT, FLAG, KILLED, MINE, PLATOON, REGIMENT, combat
from junqi_protocol.worlds import Scorer, chances

SETUP = ["junqi", "setoption name threads value 2", "newgame 4p S info=allies", "lineup", "start"]


def children(pid: int) -> set[int]:
    """Every process whose parent is ``pid``, and theirs (a one-file executable runs the engine in a child)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == parent and fields[0] != "Z" and int(name) not in found:
                    found.add(int(name))
                    todo.append(int(name))
    return found


def running(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.add(pid)
        except OSError:
            pass
    return alive


def engine_with_workers(make):
    s = make(["--protocol", "junqi"])
    for line in SETUP:
        s.send(line)
    s.expect("lineup ")
    s.send("go time 60000 movetime 300")
    s.expect("move ", 20)
    workers = children(s.proc.pid)
    assert workers, "threads 2 started no worker process"
    return s, workers


def gone_within(pids: set[int], seconds: float) -> set[int]:
    end = time.monotonic() + seconds
    while running(pids) and time.monotonic() < end:
        time.sleep(0.1)
    return running(pids)


def end(s, ending: str) -> None:
    """End the engine of ``s`` by ``ending``: "eof" (its input closed), "sigkill", or that command."""
    if ending == "eof":
        assert s.proc.stdin is not None
        s.proc.stdin.close()
    elif ending == "sigkill":
        os.kill(s.proc.pid, signal.SIGKILL)
    else:
        s.send(ending)
    s.proc.wait(10)


@pytest.mark.parametrize("ending", ["quit", "eof", "sigkill"])
def test_workers_are_gone_after_the_engine(session_factory, ending):
    s, workers = engine_with_workers(session_factory)
    end(s, ending)
    assert gone_within(workers, 5.0) == set()


def test_threads_option(session_factory):
    s = session_factory(["--protocol", "junqi"])
    s.send("junqi")
    _, before = s.expect("junqiok")
    assert "option name threads type spin default 1 min 1 max 8" in before
    for bad in ("0", "9", "two"):
        s.send(f"setoption name threads value {bad}")
        assert s.expect("error ")[0].startswith(f"error threads={bad}")
    for line in SETUP[1:]:
        s.send(line)
    s.expect("lineup ")
    for _ in range(2):  # the same workers serve every move
        s.send("go time 60000 movetime 300")
        assert s.expect("move ", 20)[0].count("-") == 1
    assert s.close() == 0


def _duel(defender: int) -> Position:
    """Two players: our regiment on G2 faces a piece of N's on F2; N's flag is far away on A1, and
    its platoon on C0 can move whatever happens on F2."""
    board = Board("2p")
    owner, kind = [-1] * board.size, [-1] * board.size
    for name, seat, k in [("L1", 0, FLAG), ("G2", 0, REGIMENT), ("K3", 0, MINE), ("A1", 1, FLAG), ("F2", 1, defender),
                          ("B3", 1, MINE), ("C0", 1, PLATOON)]:
        owner[board.point(name)], kind[board.point(name)] = seat, k
    return Position(board, owner, kind, [True, True], 0, 0, 31, True, zobrist_keys(board))


@pytest.mark.parametrize("depth", [1, 2])
def test_an_attack_of_known_odds_is_scored_as_the_mix_of_its_outcomes(depth):
    """A regiment attacks a piece that is a battalion (it wins) with probability 0.2, a general (it
    loses) with 0.5 and a bomb (both die) with 0.3: the attack's value is 0.2, 0.5 and 0.3 of the
    values of the three worlds in which the defender is known, whatever the world sampled."""
    odds = {EAT: (0.2, 5), KILLED: (0.5, 1), BOTH: (0.3, BOMB)}
    assert all(combat(REGIMENT, k) == r for r, (_, k) in odds.items())
    board = Board("2p")
    attack = (board.point("G2"), board.point("F2"))
    inf = float("inf")
    alone = {r: Scorer().score(_duel(k), [attack], [[]], depth, inf, inf)[0] for r, (_, k) in odds.items()}
    assert len(set(alone.values())) == 3
    mix = [(p, [(1.0, k)]) for p, k in odds.values()]
    for sampled in (5, 1, BOMB, 3):
        pos = _duel(sampled)
        key = pos.key()
        got = Scorer().score(pos, [attack], [mix], depth, inf, inf)[0]
        assert got == pytest.approx(sum(p * alone[r] for r, (p, _) in odds.items()))
        assert (pos.key(), pos.kind[attack[1]]) == (key, sampled)


def _dark_start() -> tuple[Board, Player, int, int]:
    """The `search` player at the start of a dark two-player game, and its attack G2-F2."""
    board = Board("2p")
    engine = Player("search", 1)
    engine.new_game("2p", 0, Rules("2p"))
    engine.lineup("")
    engine.begin({})
    engine.deployments.refresh(engine.pos)
    return board, engine, board.point("G2"), board.point("F2")


def test_chances_follow_the_beliefs():
    """At the start of a dark game every hidden front-row piece may be almost anything: the attack's
    outcomes carry the beliefs' probabilities by result, and each result its kinds in proportion."""
    board, engine, frm, to = _dark_start()
    seat = engine.pos.owner[to]
    probs = engine.deployments.probabilities(seat, engine.pos.tag[to])
    odd = chances(engine.pos, engine.deployments, frm, to)
    att = engine.pos.kind[frm]
    assert sum(p for p, _ in odd) == pytest.approx(1.0)
    for p, kinds in odd:
        result = combat(att, kinds[0][1])
        same = [q for q in range(12) if probs[q] > 0 and COMBAT[att * 12 + q] == result]
        assert p == pytest.approx(sum(probs[q] for q in same))
        assert sorted(k for _, k in kinds) == same
        assert all(share == pytest.approx(probs[k] / p) for share, k in kinds)
    assert chances(engine.pos, engine.deployments, frm, board.point("G1")) == []  # our own piece
