"""`njit` for the kernel: numba's, compiled once per argument *type*, never per constant.

Numba types a constant argument of a call between compiled functions as a literal
(`damage(G, T, p, 1, -1, -1, E_DYNAMITE)` is typed with Literal[int](1), Literal[int](16),
...) and compiles a separate specialisation of the callee, and of everything it calls,
for every combination of constants it is called with: 343 compiled specialisations of
about 70 functions, most of the 1-2 minutes a cold start took. KernelDispatcher types
every argument as its plain type (int64, bool), so each function compiles once per
argument types; LLVM still sees the constants where it inlines. The games are the same
(tests/test_same_games.py) and the speed too (docs/speed.md).
"""

from numba import config, types
from numba.core.registry import CPUDispatcher


class KernelDispatcher(CPUDispatcher):
    """A CPUDispatcher that drops the literal types of its callers' arguments."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(func=None, *, cache: bool = True, **options):
    """numba.njit(cache=True, **options) with a KernelDispatcher; under NUMBA_DISABLE_JIT=1
    the plain Python function, as numba's."""

    def wrap(f):
        if config.DISABLE_JIT:
            return f
        # error_model "numpy": no zero-division checks (the kernel never divides by zero)
        targetoptions = {"nopython": True, "boundscheck": None, "error_model": "numpy", **options}
        dispatcher = KernelDispatcher(py_func=f, locals={}, targetoptions=targetoptions)
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return wrap if func is None else wrap(func)
