"""The search's margins as parameters (issue 61 item 2): the defaults are the values every game searched with before,
xiangqi takes a trial's from ``SANQI_SEARCH`` once at start, and a changed value changes the tree."""

import math

import pytest

from engine_core.search import REDUCTION_ROWS, Limits, SearchParams, Searcher
from engine_core.tt import TransTable
from ucci_engine import engine as xiangqi
from ucci_engine.position import Position

# A middlegame of the bench (ucci_engine/bench.py), where every margin is met in a few plies.
MIDDLEGAME = "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"


def nodes(params: SearchParams, depth: int = 5) -> tuple[int, int]:
    """The move and node count of a fixed-depth search of MIDDLEGAME with ``params``."""
    limits = Limits()
    limits.depth = depth
    searcher = Searcher(TransTable(8), params)
    line = searcher.think(Position.from_fen(MIDDLEGAME), limits)[0]
    return line.move, searcher.nodes


def test_the_defaults_are_the_values_the_search_had_as_constants() -> None:
    params = SearchParams()
    assert (params.aspiration, params.futility, params.null_base, params.null_divisor) == (35, 70, 2, 4)
    old = [int(0.6 + math.log(max(d, 1)) * math.log(max(m, 1)) / 2.0) for d in range(64) for m in range(64)]
    assert list(params.reductions()) == old and REDUCTION_ROWS == 64
    assert params.check_see == 0  # every game extends every check, but xiangqi:
    assert xiangqi.XIANGQI_SEARCH.describe() == params.changed("check_see=1").describe()


@pytest.mark.parametrize("change", ["futility=0", "aspiration=5", "null_base=0", "lmr_divisor=0.5", "check_see=1"])
def test_each_parameter_is_read_by_the_search(change: str) -> None:
    assert nodes(SearchParams().changed(change))[1] != nodes(SearchParams())[1]


def test_the_xiangqi_engine_reads_a_trial_from_the_environment_once(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SANQI_SEARCH", "futility=90, lmr_divisor=2.25")
    engine = xiangqi.Engine()
    assert (engine.searcher.futility, engine.searcher.params.lmr_divisor) == (90, 2.25)
    assert "SANQI_SEARCH: aspiration=35 futility=90" in capsys.readouterr().err  # stderr: stdout is the protocol's
    monkeypatch.setenv("SANQI_SEARCH", "futility=110")
    assert engine.searcher.futility == 90  # read at start only
    monkeypatch.delenv("SANQI_SEARCH")
    assert xiangqi.Engine().searcher.params is xiangqi.XIANGQI_SEARCH


@pytest.mark.parametrize("text,said", [("futile=90", "no search parameter 'futile'"),
                                       ("null_divisor=0", "null_divisor must be a whole number from 1 up"),
                                       ("futility=9.5", "futility must be a whole number"),
                                       ("lmr_divisor=x", "lmr_divisor must be a number from 0.25 up")])
def test_a_bad_trial_is_said_on_stderr_and_the_defaults_kept(text: str, said: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert xiangqi.search_params(text) is xiangqi.XIANGQI_SEARCH
    err = capsys.readouterr().err
    assert err.startswith("SANQI_SEARCH ignored: ") and said in err


def test_the_other_games_search_with_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    from gomoku_protocol.brain import Brain  # only this test needs the other games
    from junqi_protocol.worlds import Scorer

    monkeypatch.setenv("SANQI_SEARCH", "futility=90")
    searchers = [Brain().searcher, Scorer().searcher]
    assert [s.params.describe() for s in searchers] == [SearchParams().describe()] * 2
