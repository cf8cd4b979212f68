"""The bots: the seam the kernel asks its decisions through (strategies.decide), the scored
policy (strategies.policy), uniform play (strategies.uniform) and named presets, which are
parameter vectors kept as data in strategies/presets.toml."""

from strategies.presets import Strategy, load_presets, resolve_strategy

__all__ = ["Strategy", "load_presets", "resolve_strategy"]
