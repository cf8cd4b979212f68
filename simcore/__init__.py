"""bangsim: a Monte Carlo balance simulator for BANG! (theme -> tables -> kernel -> run folder)."""

import hashlib
import os
import platform
from collections.abc import Mapping
from pathlib import Path

# The searches (bangsim tune, band, balance, exploit) draw their candidates through CMA-ES,
# whose samples pass through an eigendecomposition of its covariance matrix; where the
# spectrum is degenerate (most of it, early on) any basis is an answer, and numpy's
# OpenBLAS picks one by the kernel it chooses for the CPU at load time. One tune request
# had two answers: one under OPENBLAS_CORETYPE Haswell (what OpenBLAS picks on the
# project's 2-core AMD EPYC), another under SkylakeX (what it picks with AVX-512). So the
# kernel is pinned, before numpy loads, wherever it can run (x86-64 with AVX2 and FMA,
# Linux) and the user has not chosen one: a search is then the same on every such machine.
BLAS_KERNEL = "Haswell"
X86_64 = ("x86_64", "amd64")  # platform.machine() of an x86-64 machine, lower-cased


def blas_kernel_env(environ: Mapping[str, str], machine: str, cpu_flags: set[str]) -> dict:
    """The environment to add before numpy loads: OPENBLAS_CORETYPE pinned to BLAS_KERNEL
    on an x86-64 CPU that runs it, unless already set; else nothing."""
    runs = machine.lower() in X86_64 and {"avx2", "fma"} <= cpu_flags
    return {"OPENBLAS_CORETYPE": BLAS_KERNEL} if runs and "OPENBLAS_CORETYPE" not in environ else {}


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


# numpy's own float64 exp, log, power and others take another code path on a CPU with
# AVX-512, whose results differ from the AVX2 path's in the last bit on some inputs (exp: 9,200
# of 200,000 uniform draws on [-0.5, 0.5]). CMA-ES's step size passes through np.exp every
# generation, and the degenerate eigendecomposition above turns a last bit into another
# basis: one tune request had one answer with numpy's AVX-512 code and another without it,
# and classic's 7-player tune parted between an AVX-512 Intel Xeon and the AMD EPYC of the
# earlier sessions. So numpy's AVX-512 groups (numpy >= 2.4 names them so) are switched off
# before numpy loads, on x86-64 unless the user chose numpy's features: every such machine then
# computes what a CPU with AVX2 alone computes (tests/test_determinism.py).
NUMPY_AVX512 = "X86_V4 AVX512_ICL AVX512_SPR"
NUMPY_FEATURE_VARS = ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES")


def numpy_simd_env(environ: Mapping[str, str], machine: str) -> dict:
    """The environment to add before numpy loads: numpy's AVX-512 code switched off on an
    x86-64 machine, unless the user set numpy's feature variables; else nothing."""
    x86 = machine.lower() in X86_64
    chosen = any(name in environ for name in NUMPY_FEATURE_VARS)
    return {"NPY_DISABLE_CPU_FEATURES": NUMPY_AVX512} if x86 and not chosen else {}


os.environ.update(blas_kernel_env(os.environ, platform.machine(), _cpu_flags()))
os.environ.update(numpy_simd_env(os.environ, platform.machine()))

import numba  # noqa: E402  (after BLAS and numpy's code paths are pinned: numba loads numpy)

__all__ = ["simulate"]


# modules without njit code whose constants compiled code freezes
_CONSTANT_MODULES = ("vocab.py", "limits.py", "state.py", "params.py")


def _kernel_cache_dir() -> str:
    """numba's cache=True notices edits to a function's own file only, not to the njit
    functions it calls from other files. Keying the cache folder by a digest of every kernel
    and strategy source (and of the constants they freeze) makes any edit start a fresh
    cache instead of running stale code."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for folder in ("simcore/engine", "strategies"):
        for src in sorted((root / folder).glob("*.py")):
            text = src.read_bytes()
            if b"njit" in text or src.name in _CONSTANT_MODULES:
                digest.update(src.name.encode())
                digest.update(text)
    base = os.environ.get("NUMBA_CACHE_DIR") or str(root / ".numba_cache")
    return os.path.join(base, digest.hexdigest()[:12])


# must be set before any @njit(cache=True) decorator in this package runs
numba.config.CACHE_DIR = _kernel_cache_dir()


def __getattr__(name: str):
    # `simcore.simulate` and `simcore.report_tables` without importing polars for every `import simcore.engine.vocab`
    if name in ("simulate", "report_tables"):
        from simcore import api

        return getattr(api, name)
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")
