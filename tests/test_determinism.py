"""A run is a pure function of its inputs and seed: same seed, same rows, whatever the
thread count, chunking or backend (compiled or plain Python)."""

import json
import os
import platform
import subprocess
import sys

import numba
import numpy as np
import pytest
from played import play_games
from polars.testing import assert_frame_equal

import simcore


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
from strategies.presets import resolve_strategy
out = {}
for players in (4, 7):
    for strategy in ("basic", "random"):
        played = resolve_strategy(strategy, players, "classic")
        b = play_games("classic", players, 6, seed=21, strategy=played, checked=True)
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


# CMA-ES with margin, as the searches run it, on a fixed objective: the digest of its mean
# after 40 generations follows every last bit of numpy's float64 exp (the step size) and of
# OpenBLAS's eigendecomposition
CMA_PROBE = """
import hashlib, sys
if sys.argv[1] == "simcore":
    import simcore  # noqa: F401  (first, as the CLI and the tests import it)
import numpy as np
from cmaes import CMAwM

d = 12
steps = np.array([0.0] * 8 + [0.25] * 4)
bounds = np.tile([0.0, 1.0], (d, 1))
opt = CMAwM(mean=np.full(d, 0.5), sigma=0.25, bounds=bounds, steps=steps, seed=1, population_size=8)
target = np.linspace(0.1, 0.9, d)
for _ in range(40):
    told = []
    for _ in range(opt.population_size):
        x_eval, x_tell = opt.ask()
        told.append((x_tell, float(np.sum((x_eval - target) ** 2))))
    opt.tell(told)
print(hashlib.sha256(opt.mean.tobytes()).hexdigest())
"""


def cma_probe(first: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in simcore.NUMPY_FEATURE_VARS}
    run = subprocess.run(
        [sys.executable, "-c", CMA_PROBE, first],
        env={**clean, "OPENBLAS_CORETYPE": simcore.BLAS_KERNEL, **env},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_numpy_s_avx512_code_is_switched_off_on_x86():
    """numpy's float64 exp (CMA-ES's step size) differs in the last bit on a CPU with
    AVX-512, and a search turns a last bit into another path: simcore switches numpy's
    AVX-512 groups off before numpy loads, unless the user set numpy's feature variables."""
    assert simcore.numpy_simd_env({}, "x86_64") == {
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"
    }
    assert simcore.numpy_simd_env({}, "AMD64") == {
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"
    }
    assert simcore.numpy_simd_env({"NPY_DISABLE_CPU_FEATURES": ""}, "x86_64") == {}
    assert simcore.numpy_simd_env({"NPY_ENABLE_CPU_FEATURES": "X86_V3"}, "x86_64") == {}
    assert simcore.numpy_simd_env({}, "aarch64") == {}


@pytest.mark.skipif(
    simcore.numpy_simd_env({}, platform.machine()) == {},
    reason="numpy's code is pinned on x86-64 only",
)
def test_a_search_is_the_same_with_and_without_avx512():
    """With simcore imported first, CMA-ES on a fixed objective ends where it ends with
    every numpy code path above AVX2 switched off by hand (numpy's own list of them), so an
    AVX-512 machine searches as an AVX2 one does; on a CPU with AVX-512, numpy left to its
    own choice ends elsewhere (the probe sees the difference the pin removes)."""
    umath = np._core._multiarray_umath
    above_avx2 = " ".join(f for f in umath.__cpu_dispatch__ if f != "X86_V3")
    pinned = cma_probe("simcore")
    assert pinned == cma_probe("numpy", NPY_DISABLE_CPU_FEATURES=above_avx2)
    if umath.__cpu_features__.get("X86_V4"):
        assert pinned != cma_probe("numpy", NPY_DISABLE_CPU_FEATURES="")
