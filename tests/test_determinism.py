"""A run is a pure function of its inputs and seed: same seed, same rows, whatever the
thread count, chunking or backend (compiled or plain Python)."""

import json
import os
import platform
import subprocess
import sys

import numba
import numpy as np
from polars.testing import assert_frame_equal

import simcore
from simcore.engine.play import play_games


def test_same_seed_same_frame():
    a = simcore.simulate(theme="classic", players=5, games=3_000, seed=7)
    b = simcore.simulate(theme="classic", players=5, games=3_000, seed=7)
    assert_frame_equal(a, b)


def test_other_seed_other_games():
    a = play_games("classic", 5, 500, seed=1)
    b = play_games("classic", 5, 500, seed=2)
    assert not np.array_equal(a.turns, b.turns)


def test_one_thread_equals_all_threads():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simcore.simulate(theme="classic", players=6, games=4_000, seed=3)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        every = simcore.simulate(theme="classic", players=6, games=4_000, seed=3)
    finally:
        numba.set_num_threads(threads)
    assert_frame_equal(one, every)


def test_chunking_does_not_change_games():
    whole = play_games("classic", 4, 300, seed=9)
    parts = [play_games("classic", 4, 100, seed=9, game0=g) for g in (0, 100, 200)]
    for field in ("winner", "turns", "role", "character", "survived"):
        joined = np.concatenate([getattr(p, field) for p in parts])
        assert np.array_equal(getattr(whole, field), joined), field


PROBE = """
import json, sys
from simcore.engine.play import play_games
out = {}
for players in (4, 7):
    for strategy in ("basic", "random"):
        b = play_games("classic", players, 6, seed=21, strategy=strategy, checked=True)
        out[f"{players}/{strategy}"] = [b.winner.tolist(), b.turns.tolist(), b.survived.tolist(),
                                        b.character.tolist(), b.role.tolist()]
json.dump(out, sys.stdout)
"""


def run_probe(disable_jit: bool) -> dict:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_plain_python_equals_compiled():
    """NUMBA_DISABLE_JIT=1 (for debugging and coverage) plays the very same games."""
    assert run_probe(disable_jit=True) == run_probe(disable_jit=False)


def test_the_blas_kernel_is_pinned_where_it_runs():
    """A search's candidates pass through CMA-ES's eigendecomposition, whose basis OpenBLAS
    picks by its kernel for the CPU: simcore pins the kernel (unless the user chose one)
    on x86-64 CPUs that run it, so a search is the same on every such machine."""
    avx2 = {"avx2", "fma", "sse2"}
    assert simcore.blas_kernel_env({}, "x86_64", avx2) == {"OPENBLAS_CORETYPE": "Haswell"}
    assert simcore.blas_kernel_env({}, "AMD64", avx2) == {"OPENBLAS_CORETYPE": "Haswell"}
    assert simcore.blas_kernel_env({"OPENBLAS_CORETYPE": "Zen"}, "x86_64", avx2) == {}
    assert simcore.blas_kernel_env({}, "x86_64", {"sse2", "avx"}) == {}  # it would not run
    assert simcore.blas_kernel_env({}, "aarch64", avx2) == {}
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    code = "import os, simcore; print(os.environ.get('OPENBLAS_CORETYPE'))"
    seen = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert seen.returncode == 0, seen.stderr
    pinned = simcore.blas_kernel_env({}, platform.machine(), simcore._cpu_flags())
    assert seen.stdout.strip() == pinned.get("OPENBLAS_CORETYPE", "None")
