"""A run folder's seat rows reduced to cells, the small sufficient counts every side,
role and character interval is computed from, and the widest of those intervals, which
adaptive precision stops on (`simcore.runs.precision`). The report's tables
(`reports.aggregate`) derive from the same cells.

Only two queries read seat rows (`simcore.engine.rows.SEAT_SCHEMA`, lazily from
`scan_seats`): `seat_cells` (games and wins per configuration, role, character and seat)
and `game_cells` (games per configuration, winner, length, capped). Both are streaming
group-bys, so memory stays bounded whatever the number of games, and their results are a
few thousand rows:

    cells = collect_cells(scan_seats(run))          # the passes over the Parquet files
    widest_intervals(cells).collect()               # per configuration: its widest interval

(`cells_of` gives the same cells uncollected, for tests and one-off queries.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simcore.engine import vocab
from simcore.engine.rows import SEAT_DEFAULTS
from simcore.stats import ALPHA, score_test_p_expr, wilson_exprs, with_holm

CONFIG_KEYS = ("config", "theme", "players")


def scan_seats(run: Path, files: Sequence[str] | None = None) -> pl.LazyFrame:
    """All seat rows of a run folder, lazily; or those of some chunk `files` (paths relative
    to `run`, as a manifest lists them). Columns added to the seat table later
    (`simcore.engine.rows.SEAT_DEFAULTS`, e.g. `featured`) read as their default in chunks written
    before them, so old run folders report as before."""
    paths = Path(run) / "seats" / "*.parquet" if files is None else [Path(run) / f for f in files]
    seats = pl.scan_parquet(paths, missing_columns="insert", extra_columns="ignore")
    names = seats.collect_schema().names()  # the first file's footer
    return seats.with_columns(
        pl.col(c).fill_null(v) if c in names else pl.lit(v).alias(c)
        for c, v in SEAT_DEFAULTS.items()
    )


SIDES = vocab.WINNERS  # leader (leader + deputies), outlaw, renegade
ROLE_SIDE = {"leader": "leader", "deputy": "leader", "outlaw": "outlaw", "renegade": "renegade"}
SEAT_CELL_KEYS = (*CONFIG_KEYS, "role", "character", "seat", "featured")  # of seat_cells
GAME_CELL_KEYS = (*CONFIG_KEYS, "winner", "turns", "rounds", "capped")  # of game_cells


# the columns of an effects table after its key columns
EFFECT_COLUMNS = (
    "games",
    "wins",
    "rate",
    "lower",
    "upper",
    "effect",
    "effect_lower",
    "effect_upper",
    "p_value",
    "p_adjusted",
    "significant",
)


def canonical_order(col: str, names: tuple[str, ...]) -> pl.Expr:
    """A column's position in a canonical order (roles, sides), for sorting."""
    return pl.col(col).replace_strict({n: i for i, n in enumerate(names)}, return_dtype=pl.UInt8)


def counts(games: pl.Expr, wins: pl.Expr) -> list[pl.Expr]:
    return [games.cast(pl.Int64).alias("games"), wins.cast(pl.Int64).alias("wins")]


@dataclass(frozen=True)
class Cells:
    """The two small aggregates every report table derives from."""

    seats: pl.LazyFrame  # seat_cells: config keys, role, character, seat, featured -> games, wins
    games: pl.LazyFrame  # game_cells: config keys, winner, turns, rounds, capped -> games


def cells_of(seats: pl.LazyFrame) -> Cells:
    """The cells of some seat rows, as lazy queries (nothing read yet)."""
    return Cells(seat_cells(seats), game_cells(seats))


def collect_cells(seats: pl.LazyFrame) -> Cells:
    """Read the seat rows into the cells, kept in memory as LazyFrames: two streaming
    passes, in bounded memory. (One collect_all of both would cache their common scan, every
    seat row in memory: 8.5 GB for 20M games, and slower.)"""
    seat_part = seat_cells(seats).collect(engine="streaming")
    game_part = game_cells(seats).collect(engine="streaming")
    return Cells(seat_part.lazy(), game_part.lazy())


def seat_cells(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per configuration, role, character, seat and featured flag: games (seats dealt) and
    wins.

    The one pass over seat rows that every role, character and seat table derives from:
    a few thousand rows whatever the number of games (`featured` adds none: it is true only
    on the featured character's seats, the one character dealt nowhere else).
    """
    return seats.group_by(SEAT_CELL_KEYS).agg(*counts(pl.len(), pl.col("won").sum()))


def game_cells(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per configuration, winner, length (turns and rounds) and capped flag: games (one
    seat-0 row per game).

    The one pass over seat rows that every game-level table (sides, lengths, the rounds
    each side wins in) derives from.
    """
    return (
        seats.filter(pl.col("seat") == 0)
        .group_by(GAME_CELL_KEYS)
        .agg(pl.len().cast(pl.Int64).alias("games"))
    )


def add_cells(parts: Sequence[Cells]) -> Cells:
    """The cells of disjoint sets of games (a run's chunks) as one, collected: their counts
    summed per key, so cells gathered chunk by chunk stay as small as one pass would make them."""
    seats, games = pl.collect_all(
        [
            pl.concat([p.seats for p in parts]).group_by(SEAT_CELL_KEYS).agg(pl.all().sum()),
            pl.concat([p.games for p in parts]).group_by(GAME_CELL_KEYS).agg(pl.all().sum()),
        ]
    )
    return Cells(seats.lazy(), games.lazy())


def game_totals(cells: Cells) -> pl.LazyFrame:
    return cells.games.group_by(CONFIG_KEYS).agg(pl.col("games").sum().alias("games"))


def side_win_rates(cells: Cells) -> pl.LazyFrame:
    """Per configuration and side: games, wins, rate, Wilson lower/upper, even_share, vs_even.

    One row per side present at the table (a side is present when one of its roles is
    dealt). Capped games count as games no side won, so the rates of a configuration sum to
    1 - capped share. vs_even = rate - even_share.
    """
    present = cells.seats.select(
        *CONFIG_KEYS, pl.col("role").replace_strict(ROLE_SIDE).alias("side")
    ).unique()
    won = cells.games.group_by(*CONFIG_KEYS, pl.col("winner").alias("side")).agg(
        pl.col("games").sum().alias("_wins")
    )
    lower, upper = wilson_exprs("wins", "games")
    even = 1.0 / pl.len().over(CONFIG_KEYS).cast(pl.Float64)
    return (
        present.join(game_totals(cells), on=CONFIG_KEYS)
        .join(won, on=[*CONFIG_KEYS, "side"], how="left")
        .with_columns(*counts(pl.col("games"), pl.col("_wins").fill_null(0)))
        .with_columns(
            (pl.col("wins") / pl.col("games")).alias("rate"),
            lower.alias("lower"),
            upper.alias("upper"),
            even.alias("even_share"),
        )
        .with_columns((pl.col("rate") - pl.col("even_share")).alias("vs_even"))
        .sort("players", "config", canonical_order("side", SIDES))
        .select(
            *CONFIG_KEYS,
            "side",
            "games",
            "wins",
            "rate",
            "lower",
            "upper",
            "even_share",
            "vs_even",
        )
    )


def role_baselines(cells: Cells) -> pl.LazyFrame:
    """Per configuration and role: seats dealt, seats won, and the baseline (their ratio).

    Every seat of a role shares its side's result, so the baseline equals the share of
    games the role's side won.
    """
    return (
        cells.seats.group_by(*CONFIG_KEYS, "role")
        .agg(pl.col("games").sum().alias("seats"), pl.col("wins").sum().alias("seat_wins"))
        .with_columns((pl.col("seat_wins") / pl.col("seats")).alias("baseline"))
    )


def by_role(cells: Cells, by: str) -> pl.LazyFrame:
    """Per configuration, role and `by` value: games, wins and the role's baseline rate."""
    return (
        cells.seats.group_by(*CONFIG_KEYS, "role", by)
        .agg(pl.col("games").sum(), pl.col("wins").sum())
        .join(role_baselines(cells).drop("seats", "seat_wins"), on=[*CONFIG_KEYS, "role"])
    )


def effects(cells: pl.LazyFrame, keys: list[str], family: list[str]) -> pl.LazyFrame:
    """Rates, intervals, effects and Holm-flagged score tests for cells with games, wins and
    `baseline`; sorted by configuration, then effect size (largest first) within `family`,
    ties by the last key (character name, seat)."""
    lower, upper = wilson_exprs("wins", "games")
    base = pl.col("baseline")
    frame = cells.with_columns(
        (pl.col("wins") / pl.col("games")).alias("rate"),
        lower.alias("lower"),
        upper.alias("upper"),
        score_test_p_expr("wins", "games", "baseline").alias("p_value"),
    ).with_columns(
        (pl.col("rate") - base).alias("effect"),
        (pl.col("lower") - base).alias("effect_lower"),
        (pl.col("upper") - base).alias("effect_upper"),
    )
    frame = with_holm(frame, "p_value", family).with_columns(
        (pl.col("p_adjusted") < ALPHA).alias("significant")
    )
    order = [canonical_order(k, vocab.ROLES) if k == "role" else pl.col(k) for k in family]
    return frame.sort(
        "players",
        *order,
        "effect",
        keys[-1],  # ties in effect: by name / seat
        descending=[False] * (1 + len(order)) + [True, False],
    ).select(*keys, "baseline", *EFFECT_COLUMNS)


def effects_overall(cells: Cells, by: str = "character") -> pl.LazyFrame:
    """Per configuration and `by` (character or seat): the role-adjusted overall effect.

    `baseline` is the rate expected from the roles dealt (games-weighted role baselines);
    effect = rate - baseline. Other columns as `effects_in_role`. Holm family: one
    configuration. Ordered by configuration, then effect (largest first).
    """
    totals = (
        by_role(cells, by)
        .group_by(*CONFIG_KEYS, by)
        .agg(
            *counts(pl.col("games").sum(), pl.col("wins").sum()),
            # summed role by role in a fixed order: a float sum in the group's row order,
            # which varies from run to run, differs in its last digits
            (
                pl.sum_horizontal(
                    (pl.col("games") * pl.col("baseline")).filter(pl.col("role") == r).sum()
                    for r in vocab.ROLES
                )
                / pl.col("games").sum()
            ).alias("baseline"),
        )
    )
    return effects(totals, [*CONFIG_KEYS, by], ["config"])


def effects_in_role(cells: Cells, by: str = "character") -> pl.LazyFrame:
    """Per configuration, role and `by` (character or seat): the effect within the role.

    Columns: config, theme, players, role, <by>, baseline, games, wins, rate, lower, upper,
    effect, effect_lower, effect_upper, p_value, p_adjusted, significant. Holm family: one
    role in one configuration. Ordered by configuration, role, then effect (largest first).
    """
    keys = [*CONFIG_KEYS, "role", by]
    return effects(by_role(cells, by), keys, ["config", "role"])


def widest_intervals(cells: Cells, characters: bool = False) -> pl.LazyFrame:
    """Per configuration: the widest 95% interval half-width ((upper - lower) / 2) among its
    side win rates (`side_win_rates`: Wilson) and, with `characters`, its character-in-role
    effects (`effects_in_role`: the Wilson interval of the character's rate in the role,
    less the role's baseline), and what it belongs to ("outlaw win rate", "Bart Cassidy as
    renegade"). The stopping rule of adaptive precision (docs/precision.md); a NaN
    half-width sorts widest. Columns: config, half_width, widest; sorted by config."""
    half = ((pl.col("upper") - pl.col("lower")) / 2).alias("half_width")
    parts = [
        side_win_rates(cells).select(
            "config", half, pl.format("{} win rate", "side").alias("widest")
        )
    ]
    if characters:
        parts.append(
            effects_in_role(cells, "character").select(
                "config",
                ((pl.col("effect_upper") - pl.col("effect_lower")) / 2).alias("half_width"),
                pl.format("{} as {}", "character", "role").alias("widest"),
            )
        )
    return (
        pl.concat(parts)
        .sort("config", "half_width", "widest", descending=[False, True, False])
        .group_by("config", maintain_order=True)
        .first()
    )
