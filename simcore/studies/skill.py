"""Skill depth per role: how much a stronger player gains in each role (`bangsim skill`).

    table = skill_depth("classic", players=5, games=20_000, seed=1)

For each role and each strategy level, weakest first (random, basic, smart, tuned, and
`strong` where one is shipped for the theme and player count; `search:tuned` on request),
the seats of that role play the level while every other seat plays the field (the
reference level, `tuned`). Every cell plays game indices 0 .. games-1 with one seed, so
the levels of a role meet the same deals: common random numbers. Per role and level: the
role's win rate (Wilson interval) and its gain over the level below and over `smart`, each
the mean of the paired per-game differences with its normal 95% interval.

A role whose rate climbs steeply with the level is a role of skill; a flat one is a role
of luck (or of a game whose choices matter little in it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from simcore.engine.request import check_games, player_counts
from simcore.engine.theme import Theme, load_theme
from simcore.engine.vocab import ROLES
from simcore.runs.backend import Backend
from simcore.stats import paired_interval, wilson_interval
from simcore.studies.batch import Work, play_all
from simcore.studies.stored import read_tables
from strategies.learned_files import strong_path
from strategies.presets import DEFAULT_PRESET, check_strategy

LEVELS = ("random", "basic", "smart", "tuned")  # the presets, weakest first
STRONG = "strong"  # the learned field, where one is shipped
SEARCH_LEVEL = "search:tuned"  # a seat that searches: on request (minutes, not seconds)
BASE_LEVEL = "smart"  # the gains the verdict line quotes start here
PREFIX = "skill"  # its files in a run folder: skill-THEME_Np.json (simcore.studies.stored)

SCHEMA: dict[str, pl.DataType] = {
    "theme": pl.String(),
    "players": pl.Int64(),
    "field": pl.String(),
    "role": pl.String(),
    "level": pl.String(),
    "rank": pl.Int64(),  # 0 = weakest
    "games": pl.Int64(),
    "seed": pl.Int64(),
    "rate": pl.Float64(),
    "lower": pl.Float64(),
    "upper": pl.Float64(),
    "gain": pl.Float64(),  # over the level below (NaN for the weakest), paired
    "gain_lower": pl.Float64(),
    "gain_upper": pl.Float64(),
    "over_base": pl.Float64(),  # over BASE_LEVEL, paired (0 at it; NaN below it)
    "over_base_lower": pl.Float64(),
    "over_base_upper": pl.Float64(),
}


def skill_levels(theme: Theme, players: int, search: bool = False) -> list[str]:
    """The levels measured at this table, weakest first."""
    levels = list(LEVELS)
    if strong_path(theme.plays_as, players).is_file():
        levels.append(STRONG)
    if search:
        levels.append(SEARCH_LEVEL)
    return levels


def skill_depth(
    theme: str | Path | Theme = "classic",
    players: int = 5,
    games: int = 20_000,
    seed: int = 1,
    field: str = DEFAULT_PRESET,
    search: bool = False,
    levels: Sequence[str] | None = None,
    backend: Backend | None = None,
) -> pl.DataFrame:
    """One row per role and level (see the module doc), columns as SCHEMA; `levels`
    replaces skill_levels' (weakest first). ValueError (one line) on bad input."""
    loaded = load_theme(theme)
    (players,) = player_counts(players, loaded)
    check_games(games)
    levels = list(levels or skill_levels(loaded, players, search))
    if "=" in field or field.strip().endswith(".json"):
        raise ValueError(f"--field: one preset every other seat plays, got {field!r}")
    field = check_strategy(field, (players,), loaded.plays_as)
    for level in levels:
        check_strategy(level, (players,), loaded.plays_as)
    roles = sorted(set(loaded.tables.roles[players, :players].tolist()))
    works = [
        Work(loaded, players, {**dict.fromkeys(ROLES, field), ROLES[r]: level}, seed, games)
        for r in roles
        for level in levels
    ]
    played = play_all(works, backend)
    rows = []
    for r in roles:
        won = [next(played).side_won(r) for _ in levels]
        base = levels.index(BASE_LEVEL) if BASE_LEVEL in levels else None
        for k, level in enumerate(levels):
            rows.append({
                "theme": loaded.id, "players": players, "field": field, "role": ROLES[r],
                "level": level, "rank": k, "games": games, "seed": seed,
                **_rate(won[k]),
                **_gain("gain", won[k], won[k - 1] if k else None),
                **_gain("over_base", won[k], won[base] if base is not None and k >= base else None),
            })  # fmt: skip
    return pl.DataFrame(rows, schema=SCHEMA)


def _rate(won: np.ndarray) -> dict[str, float]:
    k, n = int(won.sum()), len(won)
    lo, hi = wilson_interval(k, n)
    return {"rate": k / n, "lower": lo, "upper": hi}


def _gain(name: str, won: np.ndarray, below: np.ndarray | None) -> dict[str, float]:
    if below is None:
        return {name: np.nan, f"{name}_lower": np.nan, f"{name}_upper": np.nan}
    mean, _, half = paired_interval(won.astype(np.int64) - below.astype(np.int64))
    return {name: mean, f"{name}_lower": mean - half, f"{name}_upper": mean + half}


def skill_line(table: pl.DataFrame, role_names: dict[str, str]) -> str:
    """The verdict's line: the role where skill is worth most, from smart to the strongest
    level measured, with its interval."""
    top = table.filter(pl.col("rank") == pl.col("rank").max())
    best = top.sort("over_base", descending=True, nulls_last=True).row(0, named=True)
    players, level = best["players"], best["level"]
    if best["over_base"] != best["over_base"]:  # NaN: no smart level measured
        return f"at {players} players: no {BASE_LEVEL} level measured to count skill from"
    return (
        f"at {players} players skill is worth most as the {role_names[best['role']]}: "
        f"{100 * best['over_base']:+.1f} points [{100 * best['over_base_lower']:+.1f}, "
        f"{100 * best['over_base_upper']:+.1f}] from {BASE_LEVEL} to {level}"
    )


def skill_lines(table: pl.DataFrame, role_names: dict[str, str]) -> list[str]:
    """The table as aligned text: a row per role, its win rate at each level (weakest
    first), then its gain from smart to the strongest level."""
    levels = table.sort("rank")["level"].unique(maintain_order=True).to_list()
    width = max(len(role_names[r]) for r in table["role"].unique()) + 2
    head = f"{'role':<{width}}" + "".join(f"{lv[:13]:>14}" for lv in levels) + "   gain from smart"
    lines = [head]
    for (role,), rows in table.group_by("role", maintain_order=True):
        rows = rows.sort("rank")
        cells = "".join(f"{100 * r:13.1f}%" for r in rows["rate"])
        last = rows.row(-1, named=True)
        gain = (
            f"{100 * last['over_base']:+.1f} [{100 * last['over_base_lower']:+.1f}, "
            f"{100 * last['over_base_upper']:+.1f}]"
            if last["over_base"] == last["over_base"]
            else "-"
        )
        lines.append(f"{role_names[role]:<{width}}{cells}   {gain}")
    return lines


def read_skill(folder: Path) -> pl.DataFrame | None:
    """The skill tables written into `folder` (`bangsim skill --out`: skill-*.json), as one
    table; None when there are none. ValueError (one line) for a file that is not one."""
    return read_tables(folder, PREFIX, SCHEMA, "a skill table")
