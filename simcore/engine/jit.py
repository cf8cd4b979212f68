"""`njit` for the kernel: numba's, compiled once per argument *type*, never per constant.

Numba types a constant argument of a call between compiled functions as a literal
(`damage(G, T, p, 1, -1, -1, E_DYNAMITE)` is typed with Literal[int](1), Literal[int](16),
...) and compiles a separate specialisation of the callee, and of everything it calls,
for every combination of constants it is called with: 343 compiled specialisations of
about 70 functions, most of the 1-2 minutes a cold start took. KernelDispatcher types
every argument as its plain type (int64, bool), so each function compiles once per
argument types; LLVM still sees the constants where it inlines. The games are the same
(tests/test_same_games.py) and the speed too (docs/speed.md).

While it compiles, a call's return-value and exception slots are zeroed at the call only:
numba zeroes every slot in the function's entry block too, and LLVM keeps those stores (the
slots' addresses go to the callee), so `legal_actions` stored 54 zeros each time it was
entered, whichever calls it then made. The same games, 4-7% more per CPU-second
(docs/notes/2026-12-05-kernel-speed.md, "the fifth change").

While it compiles, an array index is taken as it is: numba wraps a negative integer index
round to the end (a[-1] is the last item), a compare and a select on every index the kernel
reads or writes, on the path of every load's address. The kernel never indexes with a
negative number (its piles' "none" is -1 as a *value*, never read through), so it is dropped.
`NUMBA_BOUNDSCHECK=1` (with its own NUMBA_CACHE_DIR) compiles every index checked against
0 <= index < size instead, a negative one raising IndexError: how that was verified, and how
to verify it again after a change (`make check-index`; docs/notes/2026-12-05-kernel-speed.md,
"the seventh change").
"""

from contextlib import contextmanager

from numba import config, types
from numba.core import callconv, cgutils, debuginfo
from numba.core.registry import CPUDispatcher
from numba.np import arrayobj


def _alloca_at_use(builder, ty, size=None, name="", zfill=False):
    """cgutils.alloca_once, zero-filled where it is used instead of also at the function's
    entry: a call's return-value and exception slots are read only after that call. A slot
    asked zero-filled (a try block's state, read on any path) keeps numba's entry fill."""
    if zfill:
        return cgutils.alloca_once(builder, ty, size=size, name=name, zfill=True)
    if isinstance(size, int):
        size = cgutils.intp_t(size)
    with debuginfo.suspend_emission(builder), builder.goto_entry_block():
        ptr = builder.alloca(ty, size=size, name=name)
    builder.store(ty(None), ptr)
    return ptr


class _CallSlots:
    """callconv's view of cgutils while the kernel compiles: slots zeroed at their call."""

    def __getattr__(self, name):
        return _alloca_at_use if name == "alloca_once" else getattr(cgutils, name)


def _index_as_is(context, builder, idxty, idx, size):
    """arrayobj.fix_integer_index without the wraparound of a negative index."""
    return context.cast(builder, idx, idxty, types.intp if idxty.signed else types.uintp)


@contextmanager
def _kernel_codegen():
    """While the kernel compiles: a call's slots zeroed at their call, indices as they are."""
    slots, index = callconv.cgutils, arrayobj.fix_integer_index
    callconv.cgutils = _CallSlots()  # compiles nest: a callee compiles while its caller is typed
    arrayobj.fix_integer_index = _index_as_is
    try:
        yield
    finally:
        callconv.cgutils, arrayobj.fix_integer_index = slots, index


class KernelDispatcher(CPUDispatcher):
    """A CPUDispatcher that drops the literal types of its callers' arguments, zeroes a
    call's slots at the call only and takes array indices as they are."""

    def compile(self, sig):
        with _kernel_codegen():
            return super().compile(sig)

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
