"""Where a study's units of work are played: in this process, or as Ray tasks (docs/scale.md).

    with get_backend("ray", address="10.0.0.5:6379") as backend:
        for rows in backend.map(functools.partial(play_chunk, study), chunks):
            ...  # in chunk order, each as soon as it and those before it are done

A unit of work is `fn(item)`: a run's or an experiment's chunk, a batch of a search
generation's games, an arm of an ability measurement. Its result depends only on the item
(games are keyed by seed and game index), so where it runs never changes a row.

- `local`: plain calls in this process, one after the other; the compiled kernel already
  spreads each one over every local core with its threads.
- `ray`: each call a Ray task of one CPU whose kernel runs on one thread, so a node runs
  as many at once as it has CPUs; at most `IN_FLIGHT_PER_CPU` tasks per CPU of the cluster
  are queued, and the results come back in item order as they arrive, while the caller
  writes the earlier ones. A task whose worker dies (killed, out of memory, its node lost)
  is played again, up to `TASK_RETRIES` times, so the caller sees the same results. A Ray
  worker process is kept between tasks, so it loads (or, on a node with an empty cache,
  compiles) the kernel once. Without an address a local Ray instance is started for this
  process (and stopped by `close`); with one, bangsim joins that cluster, whose nodes must
  run the same bangsim (checked on every task).

`fn` and the items travel by pickle: module-level functions (or functools.partial of them)
and dataclasses. Ray is imported only by the ray backend: `pip install 'bangsim[ray]'`.
"""

from __future__ import annotations

import copy
import logging
import os
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from typing import Any

from simcore.engine.request import games_versions, versions_words
from simcore.errors import UserError

BACKENDS = ("local", "ray")
IN_FLIGHT_PER_CPU = 2  # tasks queued per cluster CPU: a CPU never waits for the next item
# a task whose worker process or node dies is played again (Ray's task retries), up to this
# many times: its result depends only on its item, so the rows are those of one try
TASK_RETRIES = 3
CONNECT_TIMEOUT_S = 5.0  # a cluster address that does not answer within this is unreachable
# the environment every Ray task of bangsim runs with: one kernel thread per task (Ray
# schedules one task per CPU); NUMBA_CACHE_DIR, when set here, is added (see _task_env)
TASK_ENV = {"NUMBA_NUM_THREADS": "1"}


class BackendError(UserError):
    """A backend that cannot be used as asked: unknown, Ray missing, a cluster that cannot be
    reached, or a node running another bangsim; one line naming it and what to do."""


class Backend:
    """Plays `fn(item)` for each item, yielding the results in item order."""

    name: str = ""
    workers: int = 1  # items worth playing at once (how many batches a search splits into)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend holds (a local Ray instance it started)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalBackend(Backend):
    """In this process, one item after the other (the kernel threads do the parallel work)."""

    name = "local"

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return map(fn, items)


class RayBackend(Backend):
    """Ray tasks on a local Ray instance (address None) or an existing cluster."""

    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'bangsim[ray]'") from None
        self._ray = ray
        self._owned = not ray.is_initialized()  # a caller's own ray.init stays theirs
        # map raises the first failed task's error; the tasks after it, never waited for,
        # would each log theirs too when dropped
        os.environ.setdefault("RAY_IGNORE_UNHANDLED_ERRORS", "1")
        if self._owned:
            if address is not None:
                check_reachable(address)
            try:
                ray.init(
                    address=address,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    configure_logging=True,
                )
            except (ConnectionError, RuntimeError, ValueError) as e:
                detail = " ".join(str(e).split())[:200]
                raise BackendError(
                    f"cannot join the Ray cluster at {address or 'a local instance'} ({detail}); "
                    "every node needs the same Ray, and this machine the cluster's token if it "
                    "uses token authentication (docs/scale.md)"
                ) from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(_run_task).options(
            num_cpus=1, max_retries=TASK_RETRIES, runtime_env={"env_vars": _task_env()}
        )

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        ray = self._ray
        fn_ref = ray.put(fn)  # travels once to each node, not once per task
        stamp = version_stamp()
        todo = iter(items)
        pending: deque = deque()

        def submit() -> None:
            for item in todo:
                pending.append(self._task.remote(stamp, fn_ref, item))
                return

        for _ in range(IN_FLIGHT_PER_CPU * self.workers):
            submit()
        while pending:
            try:
                result = ray.get(pending.popleft())
            except ray.exceptions.RayTaskError as e:
                # the task's own exception (a one-line BackendError, a CheckedModeError, ...);
                # --debug shows the remote traceback through the chain
                raise e.cause from e
            except ray.exceptions.RayError as e:
                detail = " ".join(str(e).split())[:200]
                raise ConnectionError(f"the Ray cluster lost a task ({detail})") from e
            submit()  # before yielding: the cluster works while the caller writes
            yield result

    def close(self) -> None:
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()


def get_backend(name: str = "local", address: str | None = None) -> Backend:
    """The backend called `name` ("local" or "ray"); `address` (HOST:PORT of a Ray cluster's
    head) only with "ray", which starts a local Ray instance without one. BackendError (one
    line) for an unknown name, an address without Ray, Ray missing or a cluster that cannot
    be reached."""
    if name not in BACKENDS:
        raise BackendError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")
    if name == "local":
        if address is not None:
            raise BackendError("--address is the Ray cluster to use: give --backend ray too")
        return LocalBackend()
    return RayBackend(address)


def check_reachable(address: str) -> None:
    """BackendError unless `address` is HOST:PORT (or ray://HOST:PORT) and something there
    accepts a connection within CONNECT_TIMEOUT_S (Ray itself would retry for minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BackendError(
            f"--address: expected HOST:PORT of a Ray cluster's head (e.g. 10.0.0.5:6379), "
            f"got {address!r}"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT_S).close()
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise BackendError(
            f"cannot reach a Ray cluster at {address} ({reason}); start one there with "
            "`ray start --head`, or leave out --address for a local Ray instance"
        ) from None


def version_stamp() -> tuple[str | None, int, int]:
    """(bangsim version, rules version, policy version): what must be equal on every node
    for equal rows."""
    try:
        version = metadata.version("bangsim")
    except metadata.PackageNotFoundError:
        version = None
    games = games_versions()
    return version, games["rules_version"], games["policy_version"]


def _task_env() -> dict[str, str]:
    env = dict(TASK_ENV)
    if os.environ.get("NUMBA_CACHE_DIR"):
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    return env


def _run_task(stamp: tuple[str | None, int, int], fn: Callable[[Any], Any], item: Any) -> Any:
    """One Ray task: fn(item), on a node that runs the caller's bangsim."""
    here = version_stamp()
    if here != stamp:
        raise BackendError(
            f"the Ray node {socket.gethostname()} runs bangsim {here[0]} "
            f"({versions_words(*here[1:])}), this one bangsim {stamp[0]} "
            f"({versions_words(*stamp[1:])}); install the same bangsim on every node"
        )
    # Ray hands numpy arrays over read-only, and numba compiles a kernel of its own for
    # read-only arrays (minutes, once per worker): writable copies of the task's arrays
    # load the kernel the local runs compiled from the on-disk cache instead
    fn, item = copy.deepcopy((fn, item))
    return fn(item)
