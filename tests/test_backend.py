"""Backends (simcore.runs.backend): the ray backend gives the same rows, search scores and ability
values as the local one for the same seed, and the same run folder.

One local Ray instance of 2 CPUs serves the module (started once: about 5 s, and each of its
two workers loads the kernel cache once); the tests skip when Ray is not installed."""

from __future__ import annotations

import functools
import operator
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from played import best_response
from polars.testing import assert_frame_equal
from test_experiment import TINY  # 4 cells of 120 games in chunks of 50

from simcore.engine.theme import load_theme
from simcore.runs.backend import LocalBackend, RayBackend, get_backend
from simcore.runs.experiment import execute_experiment, plan_experiment
from simcore.runs.runfolder import execute_study, plan_study, read_manifest
from simcore.studies.abilities import ability_values
from simcore.studies.balance import read_problem
from simcore.studies.balance_search import measure, search
from simcore.studies.batch import candidate_winners
from simcore.studies.tune import Settings
from strategies.presets import resolve_strategy

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'bangsim[ray]'")


@pytest.fixture(scope="module")
def backend():
    """The ray backend on a module-wide local Ray instance of 2 CPUs."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with get_backend("ray") as b:
            yield b
        assert ray.is_initialized(), "closing a backend stopped a Ray instance it did not start"
    finally:
        ray.shutdown()


def folder_rows(out: Path) -> dict[str, pl.DataFrame]:
    """Every Parquet file of a run folder by its relative path."""
    return {str(p.relative_to(out)): pl.read_parquet(p) for p in sorted(out.glob("*/*.parquet"))}


def same_folders(a: Path, b: Path) -> None:
    rows_a, rows_b = folder_rows(a), folder_rows(b)
    assert list(rows_a) == list(rows_b) and any(k.startswith("events/") for k in rows_a)
    for name, frame in rows_a.items():
        assert_frame_equal(frame, rows_b[name])
    ma, mb = read_manifest(a), read_manifest(b)
    assert ma["request"] == mb["request"] and ma["complete"] and mb["complete"]
    strip = [{k: v for k, v in c.items() if k != "seconds"} for c in ma["chunks_done"]]
    assert strip == [{k: v for k, v in c.items() if k != "seconds"} for c in mb["chunks_done"]]


def test_ray_backend_yields_in_item_order(backend):
    assert backend.name == "ray" and backend.workers == 2
    items = list(range(11))  # more than the tasks kept in flight
    assert list(backend.map(functools.partial(operator.mul, 3), items)) == [3 * i for i in items]
    assert list(LocalBackend().map(functools.partial(operator.mul, 3), items)) == [
        3 * i for i in items
    ]


def test_a_task_gets_writable_arrays(backend):
    """Ray hands arrays over read-only; numba would compile a read-only kernel in every
    worker instead of loading the local one from its cache. A task's arrays are writable,
    in its function's arguments and in its item."""
    big = np.zeros(100_000)  # large enough for Ray's shared object store
    writable = operator.attrgetter("flags.writeable")
    assert list(backend.map(writable, [big, np.zeros(3)])) == [True, True]
    # a bound array arrives read-only too: copying into it would raise
    assert list(backend.map(functools.partial(np.copyto, big), [1.0])) == [None]


def test_a_task_error_is_the_tasks_own(backend):
    with pytest.raises(ZeroDivisionError):
        list(backend.map(functools.partial(operator.truediv, 1), [1, 0, 2]))


def test_run_same_folder(backend, tmp_path):
    """A run of two player counts in 3 chunks each: the same chunk files, rows and
    manifest chunk list; a run half played locally finishes on Ray the same."""

    def plan(out):
        return plan_study(out, "classic", [4, 5], 250, 7, chunk_size=100)

    local = execute_study(plan(tmp_path / "local"), progress=False)
    remote = execute_study(plan(tmp_path / "ray"), progress=False, backend=backend)
    same_folders(local, remote)

    mixed = tmp_path / "mixed"
    execute_study(plan(mixed), progress=False)
    manifest = read_manifest(mixed)
    for record in manifest["chunks_done"][2:]:  # lose all but two chunks
        (mixed / record["file"]).unlink()
    execute_study(plan(mixed), progress=False, backend=backend)
    same_folders(local, mixed)


def test_experiment_same_folder(backend, tmp_path):
    """An experiment of 4 cells (players x an override), 3 chunks each."""
    source = tmp_path / "exp.toml"
    source.write_text(TINY)
    local = execute_experiment(plan_experiment(source, tmp_path / "local"), progress=False)
    remote = execute_experiment(
        plan_experiment(source, tmp_path / "ray"), progress=False, backend=backend
    )
    same_folders(local, remote)


def test_search_generation_same_scores(backend):
    """A generation's games split into one batch per Ray CPU: the same per-game results as
    the one local kernel call, and the same best response."""
    field = resolve_strategy("smart", 5, "classic")
    theme = load_theme("classic")
    W = np.vstack([field.matrix, field.matrix[2], field.matrix[2] * 0.5])
    args = (theme, 5, 11, W, field.role_preset, 2, 2, 97)  # an odd count: uneven batches
    local = candidate_winners(*args)
    assert np.array_equal(local, candidate_winners(*args, backend=backend))
    assert 0 < (local == 1).mean() < 1  # the outlaws win some, not all

    settings = Settings(
        "classic", 5, "outlaw", "smart", seed=5, generations=2, population=4, games_min=64,
        games_max=64, final_games=200,
    )  # fmt: skip
    a, b = best_response(settings), best_response(settings, backend=backend)
    assert (a.vector, a.gain, a.trail[-1].best_gain) == (b.vector, b.gain, b.trail[-1].best_gain)


def test_abilities_same_values(backend):
    names = ["Bart Cassidy", "Kit Carlson"]
    local = ability_values("classic", 4, 150, seed=2, characters=names)
    remote = ability_values("classic", 4, 150, seed=2, characters=names, backend=backend)
    assert_frame_equal(local, remote)


def test_balance_same_front(backend, tmp_path):
    """A balance search (every variant of a 3-value knob, 2 rounds) and its re-measure, its
    variants' games played as Ray tasks: the same archive and answer as played locally."""
    same_balance_front(backend, tmp_path)


def same_balance_front(backend, tmp_path: Path) -> None:
    """The balance search of test_balance_same_front, locally and on `backend`: the same
    archive and answer (tests/test_ray_cluster.py runs it on a two-node cluster)."""
    source = tmp_path / "b.toml"
    source.write_text(
        "[balance]\nplayers = [5]\n[search]\ngenerations = 2\ngames_min = 64\n"
        'games_max = 128\nfinal_games = 300\n[targets]\n"5" = { leader = 0.5 }\n'
        "[knobs]\nrules.leader_extra_life = [0, 1, 2]\n"
    )
    problem = read_problem(source)
    local = search(problem, None)
    remote = search(problem, None, backend.map)
    assert local.archive.keys() == remote.archive.keys()
    a, b = measure(problem, local, None), measure(problem, remote, None, backend.map)
    assert [(v.overrides, v.distance) for v in a.variants] == [
        (v.overrides, v.distance) for v in b.variants
    ]


def test_balance_inside_same_answer(backend, tmp_path, monkeypatch):
    """search.retune = "inside" (tiny budgets): its stages' best responses and plays as Ray
    tasks give the same front, at own and at printed play, as played locally."""
    import simcore.studies.balance_inside as inside

    tiny = {"generations": 1, "games_min": 64, "games_max": 64, "final_games": 128}
    monkeypatch.setattr(inside, "LIGHT_BUDGET", tiny)
    monkeypatch.setattr(inside, "FULL_BUDGET", tiny)
    source = tmp_path / "b.toml"
    source.write_text(
        '[balance]\nplayers = [5]\n[search]\nretune = "inside"\nretune_light = 1\n'
        "generations = 1\ngames_min = 64\ngames_max = 64\nfinal_games = 200\n[targets]\n"
        '"5" = { leader = 0.5 }\n[knobs]\nrules.leader_extra_life = [0, 1, 2]\n'
    )
    problem = read_problem(source)
    answers = []
    for where, map_fn, on in (("local", map, None), ("ray", backend.map, backend)):
        out = tmp_path / where
        state = search(problem, out, map_fn)
        stages = inside.search_inside(problem, state, out, inside.Arena(map_fn, on))
        answers.append(inside.measure_inside(problem, state, stages, out, map_fn))
    a, b = answers
    assert [(v.overrides, v.distance, v.distance_printed_play) for v in a.variants] == [
        (v.overrides, v.distance, v.distance_printed_play) for v in b.variants
    ]


def test_joining_a_running_instance_leaves_it_running(backend):
    with RayBackend() as again:
        assert list(again.map(abs, [-1, 2])) == [1, 2]
    assert ray.is_initialized()
