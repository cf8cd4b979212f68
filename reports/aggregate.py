"""The report's tables: lazy polars aggregations over a run's cells (`simcore.runs.cells`:
the two small streaming group-bys of its seat rows). Every table function takes the
`Cells` and returns a LazyFrame; nothing is collected here except at the two edges:

    cells = collect_cells(scan_seats(run))          # the passes over the Parquet files
    tables = collect_tables(report_tables(cells))   # every table, from the small cells

Every table is keyed by configuration (`config`, `theme`, `players`), so a run folder with
several themes, player counts or strategies gives comparison-ready tables.

Definitions the report relies on:
- side: the winning faction, `leader` (leader + deputies), `outlaw` or `renegade`;
  a side's even share is 1 / (sides at the table).
- effect of a character (or seat) within a role: its win rate in that role minus the
  role's win rate in that configuration (the baseline). Its interval is the 95% Wilson
  interval of its rate minus the baseline; its p-value is the score test of "rate =
  baseline" (the test Wilson inverts, so interval and unadjusted test agree).
- overall effect of a character: its win rate minus the rate expected from the roles it
  was dealt (sum over roles of games x role baseline, / games): what it adds, role mix
  controlled for.
- significant: Holm-adjusted p < 0.05 within the family of comparisons shown together
  (all characters of one role in one configuration; all characters of one configuration).
"""

from __future__ import annotations

import polars as pl

from simcore.engine import vocab
from simcore.runs.cells import (
    CONFIG_KEYS,
    EFFECT_COLUMNS,
    SIDES,
    Cells,
    canonical_order,
    counts,
    effects_in_role,
    effects_overall,
    game_totals,
    role_baselines,
    side_win_rates,
)
from simcore.stats import (
    ALPHA,
    newcombe_exprs,
    two_proportion_p_expr,
    wilson_exprs,
    with_holm,
)

QUANTILES = {"p10": 0.1, "median": 0.5, "p90": 0.9}


# the columns of the featured-character table after its keys (config, character, role)
FEATURED_COLUMNS = (
    *EFFECT_COLUMNS[:5],  # games, wins, rate, lower, upper: the featured character's
    "other_games",
    "other_wins",
    "other_rate",
    "other_lower",
    "other_upper",
    "difference",
    "diff_lower",
    "diff_upper",
    "p_value",
    "p_adjusted",
    "significant",
)


def role_win_rates(cells: Cells) -> pl.LazyFrame:
    """Per configuration and role: games, wins, rate, lower, upper, derived from the
    shared cells (counts as Int64). The sample is games: two outlaws are one outcome."""
    lower, upper = wilson_exprs("wins", "games")
    return (
        role_baselines(cells)
        .join(game_totals(cells), on=CONFIG_KEYS)
        .with_columns(
            (pl.col("baseline") * pl.col("games")).round().cast(pl.Int64).alias("wins"),
            pl.col("baseline").alias("rate"),
        )
        .with_columns(lower.alias("lower"), upper.alias("upper"))
        .sort("players", "config", canonical_order("role", vocab.ROLES))
        .select(*CONFIG_KEYS, "role", "games", "wins", "rate", "lower", "upper")
    )


def featured_effects(cells: Cells) -> pl.LazyFrame:
    """Per configuration with a featured character (`bangsim run --feature`) and per role it
    was dealt: its win rate in that role beside the role's win rate in the other games of
    the configuration (those where it held another role), the difference with Newcombe's
    interval and the pooled two-proportion test, Holm-adjusted over the roles of one
    configuration.

    The samples are games, as in `role_win_rates`: in its own games the featured seat's
    teammates share its result, so they are no comparison and are left out; the two samples
    are disjoint sets of games. With the role fixed (NAME=ROLE) there are no other games:
    the other_* columns are 0 and NaN (compare with a run without the feature instead).

    Columns: config, theme, players, character, role, games, wins, rate, lower, upper,
    other_games, other_wins, other_rate, other_lower, other_upper, difference, diff_lower,
    diff_upper, p_value, p_adjusted, significant.
    """
    featured = (
        cells.seats.filter(pl.col("featured"))
        .group_by(*CONFIG_KEYS, "role")
        .agg(
            pl.col("character").first(),
            *counts(pl.col("games").sum(), pl.col("wins").sum()),
        )
    )
    # every seat of a role shares one result and a role has a fixed number of seats per
    # game (the role table), so the role's games won = seats won / seats per game
    roles = role_baselines(cells).join(
        game_totals(cells).rename({"games": "all_games"}), on=CONFIG_KEYS
    )
    per_game = pl.col("seats") / pl.col("all_games")
    lower, upper = wilson_exprs("wins", "games")
    other_lower, other_upper = wilson_exprs("other_wins", "other_games")
    diff_lower, diff_upper = newcombe_exprs("wins", "games", "other_wins", "other_games")
    frame = (
        featured.join(roles, on=[*CONFIG_KEYS, "role"])
        .with_columns(
            (pl.col("all_games") - pl.col("games")).alias("other_games"),
            ((pl.col("seat_wins") / per_game).round().cast(pl.Int64) - pl.col("wins")).alias(
                "other_wins"
            ),
        )
        .with_columns(
            (pl.col("wins") / pl.col("games")).alias("rate"),
            lower.alias("lower"),
            upper.alias("upper"),
            (pl.col("other_wins") / pl.col("other_games")).alias("other_rate"),
            other_lower.alias("other_lower"),
            other_upper.alias("other_upper"),
            two_proportion_p_expr("wins", "games", "other_wins", "other_games").alias("p_value"),
            diff_lower.alias("diff_lower"),
            diff_upper.alias("diff_upper"),
        )
        .with_columns(
            (pl.col("rate") - pl.col("other_rate")).alias("difference"),
            # 0 other games: no difference to state (0/0 would read as NaN anyway)
            *(
                pl.when(pl.col("other_games") > 0).then(pl.col(c)).otherwise(float("nan"))
                for c in ("other_rate", "p_value", "diff_lower", "diff_upper")
            ),
        )
    )
    return (
        with_holm(frame, "p_value", ["config"])
        .with_columns((pl.col("p_adjusted") < ALPHA).alias("significant"))
        .sort("players", "config", canonical_order("role", vocab.ROLES))
        .select(*CONFIG_KEYS, "character", "role", *FEATURED_COLUMNS)
    )


def turn_histogram(cells: Cells) -> pl.LazyFrame:
    """Per configuration and game length in turns: games, how many of them were capped, and
    the rounds those games played in all."""
    return (
        cells.games.group_by(*CONFIG_KEYS, "turns")
        .agg(
            pl.col("games").sum().alias("games"),
            pl.col("games").filter(pl.col("capped")).sum().alias("capped"),
            (pl.col("rounds").cast(pl.Int64) * pl.col("games")).sum().alias("rounds"),
        )
        .sort("players", "config", "turns")
    )


def win_rounds(cells: Cells) -> pl.LazyFrame:
    """Per configuration, winning side and round: the games that side won in that round
    (rounds begun: turns the leader started), and its share of the side's wins. Capped
    games, which no side won, are left out."""
    won = pl.col("games").sum()
    return (
        cells.games.filter(~pl.col("capped"))
        .group_by(*CONFIG_KEYS, pl.col("winner").alias("side"), pl.col("rounds").cast(pl.Int64))
        .agg(won.alias("games"))
        .with_columns(
            (pl.col("games") / pl.col("games").sum().over(*CONFIG_KEYS, "side")).alias("share")
        )
        .sort("players", "config", canonical_order("side", SIDES), "rounds")
    )


def game_lengths(histogram: pl.LazyFrame) -> pl.LazyFrame:
    """Per configuration: games, capped, capped_share, mean_turns, p10, median, p90,
    max_turns (turns; a quantile q is the least length with at least q of games at or below
    it) and mean_rounds (rounds begun: turns the leader started). Takes `turn_histogram`, not
    seat rows: it is tiny."""
    turns = pl.col("turns").cast(pl.Int64)
    games = pl.col("games")
    total = games.sum()
    cumulative = games.sort_by("turns").cum_sum()
    quantiles = [
        turns.sort().filter(cumulative >= q * total).first().alias(name)
        for name, q in QUANTILES.items()
    ]
    return (
        histogram.group_by(CONFIG_KEYS)
        .agg(
            total.alias("games"),
            pl.col("capped").sum().alias("capped"),
            ((turns * games).sum() / total).alias("mean_turns"),
            *quantiles,
            turns.max().alias("max_turns"),
            (pl.col("rounds").sum() / total).alias("mean_rounds"),
        )
        .with_columns((pl.col("capped") / pl.col("games")).alias("capped_share"))
        .sort("players", "config")
        .select(
            *CONFIG_KEYS,
            "games",
            "capped",
            "capped_share",
            "mean_turns",
            *QUANTILES,
            "max_turns",
            "mean_rounds",
        )
    )


def balance_summary(
    sides: pl.LazyFrame, characters: pl.LazyFrame, lengths: pl.LazyFrame
) -> pl.LazyFrame:
    """The numbers a designer quotes, one row per configuration.

    From `side_win_rates`, `effects_overall(..., "character")` and `game_lengths`:
    games, capped_share; <side>_rate for each side and side_gap (the largest |rate - even
    share|) with favoured_side (the side furthest above its even share); strongest and
    weakest character with their effect and Holm flag; effect_sd (spread of the character
    effects) beside noise_sd (the spread sampling noise alone would give: the root mean
    square of their standard errors); significant (characters flagged) of characters.
    """
    side_cols = [
        pl.col("rate").filter(pl.col("side") == s).first().alias(f"{s}_rate") for s in SIDES
    ]
    side_stats = sides.group_by(CONFIG_KEYS).agg(
        *side_cols,
        pl.col("vs_even").abs().max().alias("side_gap"),
        pl.col("side").sort_by("vs_even", descending=True).first().alias("favoured_side"),
    )
    best = pl.col("effect").arg_max()
    worst = pl.col("effect").arg_min()
    se2 = pl.col("baseline") * (1 - pl.col("baseline")) / pl.col("games")
    char_stats = characters.group_by(CONFIG_KEYS).agg(
        pl.col("character").get(best).alias("strongest"),
        pl.col("effect").get(best).alias("strongest_effect"),
        pl.col("significant").get(best).alias("strongest_significant"),
        pl.col("character").get(worst).alias("weakest"),
        pl.col("effect").get(worst).alias("weakest_effect"),
        pl.col("significant").get(worst).alias("weakest_significant"),
        pl.col("effect").std().alias("effect_sd"),
        se2.mean().sqrt().alias("noise_sd"),
        pl.col("significant").sum().cast(pl.Int64).alias("significant"),
        pl.len().cast(pl.Int64).alias("characters"),
    )
    return (
        lengths.select(*CONFIG_KEYS, "games", "capped_share")
        .join(side_stats, on=CONFIG_KEYS, how="left")
        .join(char_stats, on=CONFIG_KEYS, how="left")
        .sort("players", "config")
    )


def report_tables(cells: Cells) -> dict[str, pl.LazyFrame]:
    """Every table of the report, by name, as lazy queries over the cells (summary first)."""
    sides = side_win_rates(cells)
    characters = effects_overall(cells, "character")
    histogram = turn_histogram(cells)
    lengths = game_lengths(histogram)
    return {
        "summary": balance_summary(sides, characters, lengths),
        "sides": sides,
        "roles": role_win_rates(cells),
        "characters": characters,
        "character_roles": effects_in_role(cells, "character"),
        "seats": effects_in_role(cells, "seat"),
        "featured": featured_effects(cells),
        "game_lengths": lengths,
        "turn_histogram": histogram,
        "win_rounds": win_rounds(cells),
    }


def collect_tables(tables: dict[str, pl.LazyFrame]) -> dict[str, pl.DataFrame]:
    """Run the table queries together (over collected cells they read no seat rows)."""
    frames = pl.collect_all(list(tables.values()))
    return dict(zip(tables, frames, strict=True))
