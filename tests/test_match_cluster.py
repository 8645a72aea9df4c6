"""sanqi match on a Dask cluster the test starts (two local workers): the local run's results, even
when a worker is killed in the middle of a game (its game is played again elsewhere)."""

import json
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass

import pytest

distributed = pytest.importorskip("distributed", reason="the cluster extra (pip install 'sanqi[cluster]') is not installed")

from engine_core.arena import Job, LocalPool, Outcome, run_match, schedule  # noqa: E402
from engine_core.cluster import ClusterPool  # noqa: E402
from junqi_protocol.arena import JunqiSetup  # noqa: E402

SETUP = JunqiSetup(("events", "random"), ((), ()), "2p", ())


@dataclass(frozen=True)
class SlowFirstGame:
    """The same games, the first one held back a few seconds so a worker can be killed while playing it."""

    inner: JunqiSetup
    names: tuple[str, str] = ("events", "random")
    openings: int = 0
    in_process: bool = True

    def play(self, job: Job) -> Outcome:
        if job.number == 1:
            time.sleep(3)
        return self.inner.play(job)


@pytest.fixture(scope="module")
def cluster():
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import this test module
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


def results(outcomes: list[Outcome]) -> list[tuple[int, float, str, int, list[dict[str, object]]]]:
    """Each game's result and record, less the milliseconds each move took (the one thing timing may change)."""
    return [(o.number, o.score, o.reason, o.plies, [untimed(line) for line in o.records["games.jsonl"].splitlines()])
            for o in outcomes]


def untimed(line: str) -> dict[str, object]:
    obj = json.loads(line)
    obj.pop("ms", None)
    return obj


def test_a_cluster_run_gives_the_local_runs_results_with_the_same_seed(cluster, capsys):
    jobs = schedule(8, SETUP.openings, seed=11)
    local = run_match(SETUP, jobs, LocalPool(2, SETUP.in_process), concurrency=2)
    remote = run_match(SETUP, jobs, ClusterPool(cluster.scheduler_address), concurrency=2)
    assert results(remote.outcomes) == results(local.outcomes)
    assert remote.tally == local.tally


def test_a_game_on_a_killed_worker_is_played_again(cluster, capsys):
    setup = SlowFirstGame(SETUP)
    jobs = schedule(6, 0, seed=12)
    pool = ClusterPool(cluster.scheduler_address)
    killed: list[str] = []

    def kill_the_worker_of_game_1() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            for worker, keys in pool.client.processing().items():
                if any(str(k).endswith("-game-1") for k in keys):
                    pid = pool.client.run(os.getpid, workers=[worker])[worker]
                    os.kill(pid, signal.SIGKILL)
                    killed.append(worker)
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_the_worker_of_game_1)
    killer.start()
    remote = run_match(setup, jobs, pool, concurrency=2)
    killer.join()
    assert killed, "game 1 was never seen running"
    local = run_match(SETUP, jobs, LocalPool(1, True), concurrency=1)
    assert results(remote.outcomes) == results(local.outcomes)
