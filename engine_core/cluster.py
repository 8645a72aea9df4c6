"""Games on a Dask distributed cluster (``sanqi match --cluster ADDRESS``; ``pip install 'sanqi[cluster]'``).

Each game is one Dask task: the scheduler hands it to a free worker, and when a worker dies (a
machine lost, a process killed) the scheduler gives its running games to other workers, so a lost
game is played again from the start; ``retries`` also replays a game whose task raised. Results come
back here, where the runner tallies them and writes records: the statistics and the SPRT are those
of a local run. Nothing of this module is needed to play games or run the engine.
"""

import uuid
from typing import Iterator

from distributed import Client, wait

from engine_core.arena import Job, Outcome, Setup


class ClusterPool:
    """The runner's :class:`engine_core.arena.GamePool` over a Dask scheduler at ``address``."""

    def __init__(self, address: str, retries: int = 3) -> None:
        self.client = Client(address)
        self.retries = retries
        self.run = uuid.uuid4().hex[:8]  # task keys unique to this match

    def submit(self, setup: Setup, job: Job) -> object:
        return self.client.submit(setup.play, job, key=f"sanqi-{self.run}-game-{job.number}", pure=False, retries=self.retries)

    def done(self, pending: set[object]) -> Iterator[tuple[object, "Outcome | BaseException"]]:
        finished = wait(list(pending), return_when="FIRST_COMPLETED").done
        for fut in finished:
            yield fut, fut.exception() if fut.status == "error" else fut.result()

    def close(self, wait: bool = True) -> None:
        """Closing the client releases its tasks: the scheduler cancels those still in flight, so there is
        nothing to wait for either way."""
        self.client.close()
