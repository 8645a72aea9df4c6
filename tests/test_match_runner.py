"""The game-agnostic runner with a scripted game: pairing, progress lines, SPRT stop, forfeits, records."""

import io
from dataclasses import dataclass

from engine_core.arena import Job, LocalPool, Outcome, run_match, schedule, table
from engine_core.ends import End
from engine_core.stats import Sprt


@dataclass(frozen=True)
class Scripted:
    """A game whose result is fixed by its number: the first engine wins unless told otherwise."""

    losses: tuple[int, ...] = ()
    time_forfeits: tuple[int, ...] = ()
    names: tuple[str, str] = ("new", "old")
    openings: int = 3
    in_process: bool = False

    def play(self, job: Job) -> Outcome:
        lost = job.number in self.losses or job.number in self.time_forfeits
        forfeits = [(0, End.TIME)] if job.number in self.time_forfeits else []
        return Outcome(job.number, 0.0 if lost else 1.0, "time" if forfeits else "mate", 10, forfeits,
                       {"all.txt": f"game {job.number} opening {job.opening} swapped {job.swapped}\n"},
                       End.TIME if forfeits else End.RESULT)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_each_opening_is_played_twice_with_the_seats_swapped():
    jobs = schedule(games=6, openings=3)
    assert [(j.opening, j.swapped) for j in jobs] == [(0, False), (0, True), (1, False), (1, True), (2, False), (2, True)]
    shuffled = schedule(games=6, openings=3, seed=4, shuffle=True)
    assert sorted(j.opening for j in shuffled) == [0, 0, 1, 1, 2, 2]
    assert [j.swapped for j in shuffled] == [False, True] * 3
    assert shuffled == schedule(games=6, openings=3, seed=4, shuffle=True)


def test_a_match_counts_games_pairs_and_forfeits_apart(tmp_path):
    out = io.StringIO()
    summary = run_match(Scripted(losses=(2,), time_forfeits=(5,)), schedule(6, 3), LocalPool(2, False), out,
                        records=str(tmp_path), concurrency=2)
    t = summary.tally
    assert (t.wins, t.draws, t.losses, t.pentanomial) == (4, 0, 2, [0, 0, 2, 0, 1])  # pairs: 1+0, 1+1, 0+1
    assert summary.forfeits(0, End.TIME) == 1 and summary.forfeits(1, End.TIME) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 6 and all(line.startswith("game ") and "ETA" in line for line in lines)
    final = table(summary)
    assert "forfeits: new time 1, illegal 0, crash 0, no answer 0; old time 0, illegal 0, crash 0, no answer 0" in final
    assert "ends: result 5, time 1, illegal 0, crash 0, no answer 0" in final
    assert "pentanomial [0, 0.5, 1, 1.5, 2]: [0, 0, 2, 0, 1]" in final
    assert sorted((tmp_path / "all.txt").read_text().splitlines()) == sorted(
        f"game {j.number} opening {j.opening} swapped {j.swapped}" for j in schedule(6, 3))


def test_on_a_terminal_the_progress_is_one_rewritten_line():
    out = Terminal()
    run_match(Scripted(), schedule(4, 3), LocalPool(1, False), out)
    text = out.getvalue()
    assert text.count("\r\x1b[K") == 4 and text.endswith("\n") and text.count("\n") == 1
    assert "4/4 games, new 4/4 (+4 =0 -0)" in text


def test_an_sprt_decision_stops_the_match_and_is_reported():
    test = Sprt(0, 50)
    summary = run_match(Scripted(), schedule(1000, 3), LocalPool(1, False), io.StringIO(), sprt=test)
    assert summary.verdict == "H1" and summary.tally.games < 100
    assert "H1 accepted (elo >= 50)" in table(summary, test)


@dataclass(frozen=True)
class Broken(Scripted):
    """Game 3's referee fails."""

    def play(self, job: Job) -> Outcome:
        if job.number == 3:
            raise RuntimeError("the referee tripped")
        return Scripted.play(self, job)


def test_a_game_whose_referee_fails_is_reported_and_not_counted():
    out = io.StringIO()
    summary = run_match(Broken(), schedule(4, 3), LocalPool(1, False), out)
    assert summary.tally.games == 3 and summary.tally.pentanomial == [0, 0, 0, 0, 1]
    assert "game 3: not played to the end, not counted: RuntimeError: the referee tripped" in out.getvalue()
    assert "not counted (not played to the end): game 3: RuntimeError: the referee tripped" in table(summary)


def test_with_an_sprt_the_progress_shows_the_log_likelihood_ratio():
    out = io.StringIO()
    run_match(Scripted(), schedule(2, 3), LocalPool(1, False), out, sprt=Sprt(0, 50))
    assert "LLR +" in out.getvalue().splitlines()[-1]


class Interrupted(LocalPool):
    """A pool whose wait for the third result is cut short by Ctrl-C."""

    def __init__(self) -> None:
        super().__init__(2, False)
        self.waits = 0
        self.closed_waiting: list[bool] = []

    def done(self, pending):
        self.waits += 1
        if self.waits == 3:
            raise KeyboardInterrupt
        yield from super().done(pending)

    def close(self, wait=True):
        self.closed_waiting.append(wait)
        super().close(wait)


def test_ctrl_c_stops_at_once_and_counts_only_the_finished_games():
    pool = Interrupted()
    summary = run_match(Scripted(), schedule(10, 3), pool, io.StringIO(), concurrency=2)
    assert pool.closed_waiting == [False]
    assert summary.tally.games == len(summary.outcomes) and 2 <= summary.tally.games <= 4
    assert summary.unplayed == 10 - summary.tally.games
    assert f"interrupted: {summary.unplayed} games not played or not finished, not counted" in table(summary)
