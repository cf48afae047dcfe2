"""Playing on a Dask cluster: the second executor behind the chunk runner (uno_sim.running.chunks).

`--cluster tcp://HOST:8786` connects to a running Dask scheduler (`dask scheduler` on one
machine, `dask worker tcp://HOST:8786` on each machine that plays); `--cluster local[:N]`
starts a LocalCluster of N worker processes on this machine (default: one per core), bound
to 127.0.0.1. Each chunk of a fixed plan (chunks.fixed_chunk) is one task: the worker plays
it with `chunks.play` and sends back only the chunk's aggregate (counters and histograms,
a few kilobytes), never its rows; the client merges the aggregates in chunk order. The
integers merge exactly, so the results are byte-identical to a run on threads.

Every task checks that its worker runs the same engine (a hash of the engine's sources and
numba's version) as the client, so a worker with another uno-sim installed fails loudly
instead of playing other games. A lost worker's tasks are played again elsewhere by Dask;
with a checkpoint, even a lost cluster only costs the chunks in flight.

Dask (`dask[distributed]`) is an optional extra: `pip install 'uno-sim[cluster]'`.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
import time
import uuid
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import numpy as np

from ..game.errors import InputError, RunFailure
from .chunks import available_threads
from .progress import SILENT, Progress

INSTALL = "pip install 'uno-sim[cluster]'"
LOCAL = re.compile(r"^local(?::(\d+))?$")
ADDRESS = re.compile(r"^(tcp|tls|ucx|inproc)://[^\s/]+$")
LOCAL_PER_CORE = 4  # local:N starts at most this many worker processes per core (more only wait their turn)
CONNECT_SECONDS = 10
WORKERS_SECONDS = 30
# Local workers: no statistical profiler (it samples every thread's stack 100 times a second,
# about 5% of the games' time, for a dashboard that is not started).
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}


@dataclass(frozen=True)
class ClusterSpec:
    """A checked --cluster value: a scheduler address, or local with a worker count."""

    text: str
    address: str | None = None
    local_workers: int | None = None

    @property
    def is_local(self) -> bool:
        return self.address is None


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def parse_cluster(text: str | None) -> ClusterSpec | None:
    """`tcp://host:port` (any Dask scheme), `local` or `local:N`; InputError naming the
    problem, or saying what to install when Dask is missing."""
    if text is None:
        return None
    value = text.strip()
    local = LOCAL.match(value)
    if local:
        n = int(local[1]) if local[1] is not None else None
        most = LOCAL_PER_CORE * available_threads()
        if n is not None and not 1 <= n <= most:
            raise InputError(f"--cluster {text}: the number of local worker processes must be 1-{most} (this "
                             f"machine gives uno-sim {available_threads()} cores; each worker plays on one)")
        spec = ClusterSpec(value, local_workers=n)
    elif ADDRESS.match(value):
        spec = ClusterSpec(value, address=value)
    else:
        raise InputError(f"--cluster {text!r}: expected a Dask scheduler address such as tcp://HOST:8786, "
                         "or local[:N] for N worker processes on this machine")
    if not dask_available():
        raise InputError(f"--cluster needs Dask's distributed scheduler, which is not installed: {INSTALL}")
    return spec


# ---------------------------------------------------------------- on the workers

_STOPS: dict[str, np.ndarray] = {}
_STOPS_LOCK = threading.Lock()


class Stopped(Exception):
    """The client asked the run's tasks to stop (a signal, an error elsewhere)."""


class EngineMismatch(Exception):
    """A worker runs another uno-sim engine than the client."""


def _stop_flag(run_id: str) -> np.ndarray:
    with _STOPS_LOCK:
        return _STOPS.setdefault(run_id, np.zeros(1, dtype=np.int64))


def stop_run(run_id: str) -> None:
    """On a worker: make the run's kernels stop at their next game boundary."""
    _stop_flag(run_id)[0] = 1


def forget_run(run_id: str) -> None:
    with _STOPS_LOCK:
        _STOPS.pop(run_id, None)


@lru_cache(maxsize=1)
def engine_hash() -> str:
    from ..engine.jit import sources_hash

    return sources_hash()


def warm_worker(kind: str) -> bool:
    """On a worker: compile or load the kernels for `kind`; True when it had to compile."""
    from .warmup import cached, warm_up

    compiling = not cached(kind)
    warm_up(kind)
    return compiling


def play_task(work, first: int, n: int, run_id: str, engine: str):
    """A cluster task: play one chunk and return its aggregate."""
    from .chunks import play

    mine = engine_hash()
    if mine != engine:
        raise EngineMismatch(f"a worker runs uno-sim engine {mine}, this client engine {engine}: install the same "
                             "uno-sim version (and numba) on every worker")
    stop = _stop_flag(run_id)
    if not stop[0]:
        agg = play(work, first, n, threads=1, stop=stop)
    if stop[0]:
        raise Stopped(run_id)
    return agg


# ---------------------------------------------------------------- on the client


class ClusterJob:
    """One chunk's task; `wait` without asking the scheduler (a done callback sets an event)."""

    def __init__(self, future) -> None:
        self.future = future
        self.done = threading.Event()
        future.add_done_callback(lambda _: self.done.set())

    def wait(self, timeout: float | None) -> bool:
        return self.done.wait(timeout)

    def outcome(self):
        try:
            return self.future.result(), None
        except EngineMismatch as exc:
            raise RunFailure(str(exc)) from None
        except Exception as exc:
            raise RunFailure(f"a chunk failed on the Dask cluster: {type(exc).__name__}: {exc}") from exc


class DaskExecutor:
    """Chunks as tasks on a Dask cluster (chunks.Threads is the other executor)."""

    fixed = True  # fixed chunk plans: tasks of a size known in advance
    keeps_rows = True  # the rows stay on the workers

    def __init__(self, client, where: str, local_cluster=None) -> None:
        self.client = client
        self.where = where
        self.local_cluster = local_cluster
        self.run_id = uuid.uuid4().hex
        self.engine = engine_hash()
        self._slots = (0, 0.0)

    @property
    def slots(self) -> int:
        """Task slots (worker threads) in the cluster, refreshed every few seconds."""
        count, when = self._slots
        if time.monotonic() - when > 5.0:
            count = max(1, sum(self.client.nthreads().values()))
            self._slots = (count, time.monotonic())
        return count

    @property
    def workers(self) -> int:
        return self.slots

    @property
    def in_flight(self) -> int:
        return 2 * self.slots + 2

    def warm_up(self, kind: str, progress: Progress = SILENT):
        """Compile or load the engine's kernels on every worker (in parallel), untimed."""
        from .warmup import Startup

        began = time.perf_counter()
        with progress.starting("loading the engine on the cluster's workers",
                               "engine loaded on the workers in {seconds:.1f} s", plain=False):
            compiled = self.client.run(warm_worker, kind)
        return Startup(time.perf_counter() - began, any(compiled.values()))

    def submit(self, work, first: int, n: int) -> ClusterJob:
        future = self.client.submit(play_task, work, first, n, self.run_id, self.engine, pure=False,
                                    key=f"uno-sim-{self.run_id[:12]}-{first}-{uuid.uuid4().hex[:8]}")
        return ClusterJob(future)

    def completed(self, jobs) -> list[bool]:
        return [job.done.is_set() for job in jobs]

    def abandon(self, jobs, interrupted: bool) -> None:
        """Stop the run's kernels on every worker (at a game boundary) and drop its tasks."""
        if not jobs:
            return
        try:
            self.client.run(stop_run, self.run_id)
        except Exception:  # a worker gone: its tasks are gone too
            pass
        self.client.cancel([job.future for job in jobs])

    def close(self) -> None:
        if self.local_cluster is not None:
            # Our own worker processes hold nothing once the run is over (or stopped): end them at
            # once rather than shut them down gracefully, which takes most of a second.
            for nanny in list(self.local_cluster.workers.values()):
                nanny.auto_restart = False
                pid = getattr(getattr(nanny, "process", None), "pid", None)
                if pid:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
        else:
            try:
                self.client.run(forget_run, self.run_id)
            except Exception:
                pass
        self.client.close()
        if self.local_cluster is not None:
            self.local_cluster.close()


def _quiet() -> None:
    """Dask's own log lines (workers joining, connections closing) are not for our users."""
    for name in ("distributed", "distributed.client", "distributed.scheduler", "distributed.worker",
                 "distributed.nanny", "distributed.core", "distributed.comm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def connect(spec: ClusterSpec) -> DaskExecutor:
    """Start the local cluster or reach the scheduler; InputError when it cannot be reached,
    has no workers, or its workers run another engine."""
    import dask
    from distributed import Client, LocalCluster

    _quiet()
    if spec.is_local:
        n = spec.local_workers or available_threads()
        with warnings.catch_warnings(), dask.config.set(WORKER_CONFIG):
            warnings.simplefilter("ignore")  # e.g. "port 8787 in use" for the scheduler's HTTP endpoint
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                   host="127.0.0.1", silence_logs=logging.CRITICAL)
        client = Client(cluster, set_as_default=False)
        return DaskExecutor(client, f"a local Dask cluster of {n} worker process{'es' if n != 1 else ''}", cluster)
    try:
        client = Client(spec.address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ...
        raise InputError(f"--cluster {spec.address}: cannot reach a Dask scheduler there "
                         f"({type(exc).__name__}: {exc}); start one with `dask scheduler`") from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except Exception:
        client.close()
        raise InputError(f"--cluster {spec.address}: the scheduler has no workers after {WORKERS_SECONDS} s; "
                         f"start some with `dask worker {spec.address}`") from None
    mine = engine_hash()
    others = {w: h for w, h in client.run(engine_hash).items() if h != mine}
    if others:
        client.close()
        listed = ", ".join(f"{w} ({h})" for w, h in list(others.items())[:3])
        raise InputError(f"--cluster {spec.address}: worker(s) {listed} run another uno-sim engine than this one "
                         f"({mine}); install the same uno-sim version on every worker")
    executor = DaskExecutor(client, f"the Dask cluster at {spec.address}")
    executor.where = f"the Dask cluster at {spec.address} ({executor.slots} worker threads)"
    return executor


@contextmanager
def executor(spec: ClusterSpec | None, workers: int | None = None) -> Iterator[object]:
    """The executor to play on: this process's threads, or the cluster (closed afterwards)."""
    from .chunks import Threads

    if spec is None:
        yield Threads(workers)
        return
    ex = connect(spec)
    try:
        yield ex
    finally:
        ex.close()
