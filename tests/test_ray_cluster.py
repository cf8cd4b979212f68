"""The ray backend on a two-node Ray cluster on this machine (ray.cluster_utils.Cluster: a
head and a second node of one CPU each): its tasks run on both nodes, and a balance search
gives the same answer as played locally. Skipped when Ray is not installed."""

from __future__ import annotations

import shutil
import tempfile
import time

import pytest
from test_backend import same_balance_front

from simcore.runs.backend import get_backend

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'bangsim[ray]'")


@pytest.fixture(scope="module")
def two_nodes():
    """The ray backend joined to a cluster of two 1-CPU nodes, started for this module in a
    temp dir of its own (RAY_TMPDIR: its address file is not where another process's
    ray.init() on this machine would find and join it) and stopped after it."""
    from ray.cluster_utils import Cluster

    temp = tempfile.mkdtemp(prefix="bangsim-ray-")
    env = pytest.MonkeyPatch()
    env.setenv("RAY_TMPDIR", temp)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        with get_backend("ray", cluster.address) as backend:
            yield backend
    finally:
        cluster.shutdown()
        env.undo()
        shutil.rmtree(temp, ignore_errors=True)


def test_tasks_run_on_both_nodes(two_nodes):
    def node_of(_):
        time.sleep(0.5)  # long enough for the two nodes to work at once
        return ray.get_runtime_context().get_node_id()

    assert two_nodes.workers == 2 and sum(n["Alive"] for n in ray.nodes()) == 2
    assert len(set(two_nodes.map(node_of, range(8)))) == 2


def test_balance_same_front_on_two_nodes(two_nodes, tmp_path):
    same_balance_front(two_nodes, tmp_path)
