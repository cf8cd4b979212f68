"""Verdicts as bands: where bands ship for a configuration's theme and player count
(simcore.studies.band: strategies/bands, or BANGSIM_BANDS), the report shows each banded
side's rate with the range its band's end profiles give, e.g. "55.3% (49.0–64.0%)".

The ends are replayed on the report's own deals: each end preset, and the run's own
strategy, play deals 0 .. min(games, REPLAY_GAMES)-1 of the run's seed, so centre and ends
differ by the strategies alone (common random numbers). Each end reads the run's rate plus
its paired difference from the centre on those deals, so a band whose end is the run's own
play holds the run's rate. The characters' effects are measured at every end too.
A band applies to a configuration that plays the printed game (no overrides, the whole
character pool, no featured character) under the strategy the band was searched from
(`tuned`): its ends are near-equilibria of that game, not of another.

A character's verdict is *robust* when its effect has the same sign under the
configuration's own play and at every end of every band at that table; otherwise the
report flags it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simcore.engine.request import split_label
from simcore.engine.theme import ThemeError, load_theme
from simcore.studies.band import ENDS, Replayed, replay


def config_bands(manifest: dict[str, Any] | None, summary: pl.DataFrame) -> dict[str, Replayed]:
    """Per configuration of the run that a shipped band applies to, its bands replayed on
    the run's deals (the manifest's seed); empty without a manifest or a band."""
    request = (manifest or {}).get("request", {})
    seed = request.get("seed")
    if seed is None:
        return {}
    files = (manifest or {}).get("theme_files") or {}
    out = {}
    for config, theme_id, players, games in summary.select(
        "config", "theme", "players", "games"
    ).iter_rows():
        parts = split_label(config)
        if parts.extras:  # a pool, a featured character or overrides: another game
            continue
        try:
            theme = load_theme(files.get(theme_id, theme_id))
        except ThemeError:
            continue
        found = replay(theme, players, seed, games, start=parts.strategy)
        if found is not None:
            out[config] = found
    return out


def band_table(bands: dict[str, Replayed], sides: pl.DataFrame) -> pl.DataFrame:
    """One row per configuration and banded side: its band's ends replayed on the run's
    deals and read against the run's own rate of the side in `sides` (Replayed.side_band;
    rates as shares), and the end presets."""
    rate = {(c, s): r for c, s, r in sides.select("config", "side", "rate").iter_rows()}
    rows = []
    for config, found in bands.items():
        for b in found.bands:
            low, high = found.side_band(b.side, rate.get((config, b.side)))
            rows.append(
                {
                    "config": config, "side": b.side, "epsilon": b.epsilon / 100,
                    "band_low": low, "band_high": high, "band_games": found.games,
                    "shipped_low": b.low / 100, "shipped_high": b.high / 100,
                    "low_strategy": b.low_strategy, "high_strategy": b.high_strategy,
                    "start_within": b.start_within,
                }
            )  # fmt: skip
    schema = {
        "config": pl.String, "side": pl.String, "epsilon": pl.Float64, "band_low": pl.Float64,
        "band_high": pl.Float64, "band_games": pl.Int64, "shipped_low": pl.Float64,
        "shipped_high": pl.Float64, "low_strategy": pl.String, "high_strategy": pl.String,
        "start_within": pl.Boolean,
    }  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def with_bands(sides: pl.DataFrame, bands: pl.DataFrame) -> pl.DataFrame:
    """The sides table with `band_low`, `band_high`, `band_epsilon` and `start_within` (is
    the configuration's own play within epsilon of every best response?), null where no
    band applies or, for start_within, where its row does not say."""
    ends = bands.select(
        "config", "side", "band_low", "band_high", pl.col("epsilon").alias("band_epsilon"),
        "start_within",
    )  # fmt: skip
    return sides.join(ends, on=["config", "side"], how="left")


def robust_characters(characters: pl.DataFrame, bands: dict[str, Replayed]) -> pl.DataFrame:
    """The characters table with `robust`: the effect's sign the same under the
    configuration's play and at every band end (null where no band applies)."""
    rows = []
    for config, found in bands.items():
        ends = [found.ends[(b.side, e)].effects()[0] for b in found.bands for e in ENDS]
        for i, name in enumerate(found.characters):
            signs = sorted({float(np.sign(e[i])) for e in ends if np.isfinite(e[i])})
            rows.append({"config": config, "character": name, "_signs": signs})
    schema = {"config": pl.String, "character": pl.String, "_signs": pl.List(pl.Float64)}
    own = pl.col("effect").sign().cast(pl.Float64)
    robust = (pl.col("_signs").list.len() == 1) & (pl.col("_signs").list.first() == own)
    return (
        characters.join(pl.DataFrame(rows, schema=schema), on=["config", "character"], how="left")
        .with_columns(
            pl.when(pl.col("_signs").is_null()).then(None).otherwise(robust).alias("robust")
        )
        .drop("_signs")
    )
