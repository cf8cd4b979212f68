"""bangsim: a Monte Carlo balance simulator for BANG! (theme -> tables -> kernel -> run folder)."""

__all__ = ["simulate"]


def __getattr__(name: str):
    # `simcore.simulate` without importing polars for every `import simcore.vocab`
    if name == "simulate":
        from simcore.api import simulate

        return simulate
    raise AttributeError(f"module 'simcore' has no attribute {name!r}")
