"""Bot policies: njit decision functions (strategies.policy) and named presets, which are
parameter vectors kept as data in strategies/presets.toml."""

from strategies.presets import Strategy, load_presets, resolve_strategy

__all__ = ["Strategy", "load_presets", "resolve_strategy"]
