"""The run summary `bangsim run` prints: win rate by role per configuration, capped games.

Lazy polars queries over seat rows (`simcore.engine.rows.SEAT_SCHEMA`), so they run in bounded
memory over any number of `seats/*.parquet` chunks.
"""

from __future__ import annotations

import polars as pl

from simcore.engine import vocab
from simcore.runs.cells import CONFIG_KEYS
from simcore.stats import wilson_exprs


def game_counts(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per configuration: games played and games capped (one seat-0 row per game)."""
    return (
        seats.filter(pl.col("seat") == 0)
        .group_by(CONFIG_KEYS)
        .agg(pl.len().alias("games"), pl.col("capped").sum().alias("capped"))
    )


def role_win_rates(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per configuration and canonical role: win rate and its 95% Wilson interval.

    Columns: config, theme, players, role, games, wins, rate, lower, upper; sorted by
    players, config, then role in canonical order. The sample is games, not seats: all
    seats of one role win together (two outlaws are one outcome), so `wins` counts games
    the role's side won among games where the role was dealt.
    """
    by_role = seats.group_by(*CONFIG_KEYS, "role").agg(
        pl.len().alias("seats"), pl.col("won").sum().alias("seat_wins")
    )
    # float before multiplying: seat_wins * games overflows u32 past ~65k games
    rate = pl.col("seat_wins").cast(pl.Float64) / pl.col("seats")
    wins = (rate * pl.col("games")).alias("wins")
    lower, upper = wilson_exprs("wins", "games")
    order = {role: i for i, role in enumerate(vocab.ROLES)}
    return (
        by_role.join(game_counts(seats), on=CONFIG_KEYS)
        .with_columns(wins, rate.alias("rate"))
        .with_columns(lower.alias("lower"), upper.alias("upper"))
        .with_columns(pl.col("role").replace_strict(order, return_dtype=pl.UInt8).alias("_order"))
        .sort("players", "config", "_order")
        .select(*CONFIG_KEYS, "role", "games", "wins", "rate", "lower", "upper")
    )
