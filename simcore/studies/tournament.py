"""Which strategy is best for which role: each preset in each role against a field.

For every role and every preset, the seats of that role play the preset and every other
seat plays the field preset. All cells share the seed, so they replay the same deals and
decks (common random numbers): differences between presets are not deal luck.
"""

import numpy as np
import polars as pl

from simcore.engine.theme import Theme, load_theme
from simcore.engine.vocab import ROLES
from simcore.stats import wilson_interval
from simcore.studies.batch import Work, play_all
from strategies.presets import load_presets, resolve_strategy


def tournament(
    theme: "Theme | str",
    players: int,
    games: int,
    seed: int,
    presets: list[str] | None = None,
    field: str = "smart",
) -> pl.DataFrame:
    """One row per (role, preset): games, wins, rate and its 95% Wilson interval."""
    theme = load_theme(theme)
    presets = list(presets or load_presets())
    for name in [*presets, field]:
        resolve_strategy(name)  # a one-line ValueError for an unknown preset (search:BASE too)
    roles = sorted(set(theme.tables.roles[players, :players].tolist()))
    cells, works = [], []
    for role in roles:
        for preset in presets:
            cells.append((role, preset))
            spec = {r: (preset if i == role else field) for i, r in enumerate(ROLES)}
            works.append(Work(theme, players, spec, seed, games))
    rows = []
    for (role, preset), outcomes in zip(cells, play_all(works), strict=True):
        wins = int(np.count_nonzero(outcomes.side_won(role)))
        lo, hi = wilson_interval(wins, games)
        rows.append((ROLES[role], preset, games, wins, wins / games, lo, hi))
    return pl.DataFrame(
        rows,
        schema=["role", "preset", "games", "wins", "rate", "lower", "upper"],
        orient="row",
    )
