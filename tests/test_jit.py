"""The kernel's njit (simcore.engine.jit): numba's, with what it changes while the kernel
compiles tested against numba's own."""

import numba
import numpy as np
import pytest

from simcore.engine.jit import njit

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled")


def item(a, i):
    return a[i]


def test_an_index_is_taken_as_it_is():
    """numba wraps a negative index round to the end: a compare and a select on every index,
    on the path of every load's address. The kernel never indexes with a negative number, so
    its compile takes an index as it is (NUMBA_BOUNDSCHECK=1 compiles every index checked
    instead: `make check-index`)."""
    ours, numbas = njit(cache=False)(item), numba.njit(cache=False)(item)
    a = np.arange(5, dtype=np.int64)
    assert ours(a, 3) == numbas(a, 3) == 3
    assert numbas(a, -1) == 4  # numba's wraparound, which the kernel does without

    def body(f):
        ir = next(iter(f.inspect_llvm().values()))
        start = ir.index(next(iter(f.overloads.values())).fndesc.mangled_name)
        return ir[start : ir.index("\n}", start)]

    assert "select" in body(numbas)
    assert "select" not in body(ours)
