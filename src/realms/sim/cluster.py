"""Simulation on a Dask distributed cluster: ``realms simulate … --cluster tcp://host:8786``.

Start the cluster with Dask's own commands (realms installed on every machine)::

    dask scheduler                       # on the scheduler machine: tcp://host:8786
    dask worker tcp://host:8786 --nworkers 4 --nthreads 1   # on each worker machine

Games are sent in batches, one task per batch, so that Dask's per-task overhead (about a
millisecond) stays small against the games (tens to hundreds of milliseconds each): by
default about eight batches per worker thread, at most 20 games a batch, so that the
last batches do not leave workers idle for long.  A task plays its games with
:func:`realms.sim.batch.play_batch`, exactly as a local worker does, so the lines — and
the report — are the same as a local run with the same seeds.
"""

from __future__ import annotations

from typing import Generator, Sequence

from .batch import Job, SimulationError, batches, play_batch

MAX_BATCH = 20
#: How long to try reaching the scheduler before giving up.
CONNECT_TIMEOUT = "10s"


def cluster_batch_size(n_jobs: int, threads: int) -> int:
    """About eight tasks per worker thread, at most :data:`MAX_BATCH` games a task."""
    return max(1, min(MAX_BATCH, -(-n_jobs // (max(threads, 1) * 8))))


def _distributed():
    """Dask's ``distributed`` package, installed by the ``cluster`` extra only (the one
    command that uses it), or a clear error naming the extra."""
    try:
        import distributed
    except ImportError:
        raise SimulationError("--cluster needs Dask: pip install 'realms[cluster]'") from None
    return distributed


def connect(cluster):
    """A ``distributed.Client`` for an address (``tcp://host:8786``), a cluster object
    (``LocalCluster``), or the client itself; and whether we own (must close) it."""
    Client = _distributed().Client

    if isinstance(cluster, Client):
        return cluster, False
    try:
        return Client(cluster, timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError) as exc:
        raise SimulationError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None


def run_on_cluster(cluster, game_id: str, options: dict, jobs: Sequence[Job], *, chronicle: bool = False,
                   batch_size: int | None = None, on_connect=None) -> Generator[list[dict], None, None]:
    """Batches of finished lines, in the order they finish on the cluster; ``on_connect``
    is told the cluster's worker threads (the run's worker count) once connected."""
    as_completed = _distributed().as_completed
    client, owned = connect(cluster)
    futures = []
    try:
        threads = sum(client.nthreads().values()) or 1
        if on_connect is not None:
            on_connect(threads)
        size = batch_size or cluster_batch_size(len(jobs), threads)
        futures = [client.submit(play_batch, game_id, options, list(b), chronicle, pure=False)
                   for b in batches(list(jobs), size)]
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        pending = [f for f in futures if not f.done()]
        if pending:
            client.cancel(pending)
        if owned:
            client.close()
