"""bangsim: a Monte Carlo balance simulator for BANG! (theme -> tables -> kernel -> run folder)."""

import hashlib
import os
from pathlib import Path

import numba

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
