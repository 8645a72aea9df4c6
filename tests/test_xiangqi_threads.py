"""Xiangqi's ``threads`` option (UCCI ``threads``, UCI ``Threads``): helper processes that search beside the
engine on a shared transposition table, started at the first ``go``, while the engine itself keeps answering;
and gone whenever the engine is (``quit``, end of input, a SIGKILL)."""

import pytest

from conftest import greeted, plays_legally
from test_junqi_workers import children, end_engine, gone_within
from ucci_engine.engine import MAX_THREADS
from ucci_engine.position import START_FEN

SLOW = 60  # seconds: how long a loaded machine may take to answer, far above the usual
# dialect: (handshake, its last line, the option's line, how to set it to a value)
DIALECTS = {
    "ucci": ("ucci", "ucciok", f"option threads type spin min 1 max {MAX_THREADS} default 1", "setoption threads {}"),
    "uci": ("uci", "uciok", f"option name Threads type spin default 1 min 1 max {MAX_THREADS}",
            "setoption name Threads value {}"),
}


@pytest.fixture(params=sorted(DIALECTS))
def dialect(request):
    return DIALECTS[request.param]


def thinking_on_two(make, dialect):
    """A session with threads 2 searching the start position until told to stop, once its helper runs."""
    hello, ok, _, setting = dialect
    s = greeted(make, hello, ok)
    s.send(setting.format(2))
    s.send("position startpos")
    s.send("go infinite")
    s.expect("info depth 3", timeout=SLOW)
    return s


def test_the_option_is_listed_and_refuses_bad_values_keeping_the_last_good_one(session_factory, dialect):
    hello, ok, listed, setting = dialect
    s = session_factory()
    s.send(hello)
    _, before = s.expect(ok)
    assert listed in before
    s.send(setting.format(2))
    for bad in ("0", str(MAX_THREADS + 1), "two", "1.5", ""):
        s.send(setting.format(bad).rstrip())
        s.send("isready")
        _, before = s.expect("readyok")
        assert [b for b in before if b.startswith("info string error")], bad
    s.send("position startpos")
    s.send("go depth 2")
    s.expect("bestmove", timeout=SLOW)
    assert len(children(s.proc.pid)) == 1  # threads 2 kept: one helper beside the engine
    s.send(setting.format(1))
    s.send("go depth 2")
    s.expect("bestmove", timeout=SLOW)
    assert gone_within(children(s.proc.pid), SLOW) == set()  # threads 1: no helper


def test_a_search_on_two_processes_plays_a_legal_move_and_stops_on_stop(session_factory, dialect):
    s = thinking_on_two(session_factory, dialect)
    assert len(children(s.proc.pid)) == 1
    s.send("stop")
    line, _ = s.expect("bestmove", timeout=SLOW)
    assert plays_legally(START_FEN, [], line.split()[1])
    for _ in range(2):  # the same helper serves the next searches
        s.send("position startpos moves " + line.split()[1])
        s.send("go depth 3")
        again, _ = s.expect("bestmove", timeout=SLOW)
        assert plays_legally(START_FEN, [line.split()[1]], again.split()[1])
    assert len(children(s.proc.pid)) == 1


@pytest.mark.parametrize("ending", ["quit", "eof", "sigkill"])
def test_helpers_are_gone_after_the_engine(session_factory, dialect, ending):
    s = thinking_on_two(session_factory, dialect)
    helpers = children(s.proc.pid)
    assert helpers
    end_engine(s, ending)
    s.proc.wait(SLOW)
    assert gone_within(helpers, SLOW) == set()
