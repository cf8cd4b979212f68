"""The report's card-usage and event tables, from a run folder's event files.

Event files (`simcore.engine.event_rows`: events/<chunk>.parquet, one row per game) hold each
game's counts ("draw!" checks by kind, life lost by source, Beers, cards stolen or
discarded) and each role's card uses. Each chunk's writer sums every count and its square
beside its event file (`event_rows.event_sums`), and the report adds those sums per
configuration (`collect_event_cells`); the tables below derive from them, a few hundred
numbers per configuration, whatever the number of games:

- ``card_usage``: per configuration, card and role (``all`` = every seat): uses per game
  (all the role's seats together) and per seat of that role per game, each a mean with a
  95% normal interval (the game is the unit: a role's seats are summed within a game);
- ``draw_checks``: per configuration and kind of "draw!" (kinds with no check left out):
  checks per game, the share that passed (Wilson), the share of revealed cards that passed
  (Wilson) beside the share the piles they came from predicted;
- ``game_events``: per configuration and count (life lost by source, Dynamite explosions,
  Beers at a lethal hit, lethal hits a Beer saved, Beers with two players left, cards
  stolen, cards discarded by others): per game, a mean with a 95% normal interval.

Only event files whose seat chunk exists are read (a chunk is written event file first),
so both tables describe the same games; a chunk written before event files existed has
none, and `event_games` then counts fewer games than the seat rows.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import polars as pl

from simcore.engine import vocab
from simcore.engine.event_rows import (
    ALL,
    EVENTS,
    KILLED_BY,
    ending_expr,
    event_sums,
    killer_expr,
    sums_file,
)
from simcore.engine.events import CHECK_KINDS, DAMAGE_KINDS
from simcore.runs.cells import CONFIG_KEYS, scan_seats
from simcore.runs.runfolder import SEATS
from simcore.stats import Z95, wilson_exprs

CARD_ROLES = (ALL, *vocab.ROLES)
# game_events: the counts shown, in order (dynamite_explosions is dynamite_passed)
GAME_EVENTS = (
    *(f"damage_{kind}" for kind in DAMAGE_KINDS.values()),
    "damage_total",
    "dynamite_explosions",
    "beers_at_lethal",
    "beer_saves",
    "beers_two_left",
    "cards_stolen",
    "cards_discarded_by_others",
)
EVENT_LABELS = {
    "damage_bang": "life lost to BANG! effects",
    "damage_duel": "life lost in Duels",
    "damage_gatling": "life lost to Gatling",
    "damage_indians": "life lost to Indians!",
    "damage_dynamite": "life lost to Dynamite",
    "damage_other": "life lost to other effects",
    "damage_total": "life lost in all",
    "dynamite_explosions": "Dynamite explosions",
    "beers_at_lethal": "Beers drunk at a lethal hit",
    "beer_saves": "lethal hits a Beer saved",
    "beers_two_left": "Beers played with two players left (no effect)",
    "cards_stolen": "cards stolen",
    "cards_discarded_by_others": "cards discarded by others",
}
CHECK_LABELS = {
    "barrel": "Barrel (a BANG! missed)",
    "jail": "Jail (escaped)",
    "dynamite": "Dynamite (exploded)",
    "draw_extra": "Black Jack's extra card",
    "new_hope": "A New Hope (came to aid)",
}
_MEAN = ["games", "total", "mean", "lower", "upper"]


def event_sources(run: Path) -> list[list[Path]]:
    """The run's event files whose seat chunk exists, grouped by column set (one group per
    theme card list), each group sorted."""
    groups: dict[tuple[str, ...], list[Path]] = defaultdict(list)
    for path in sorted((Path(run) / EVENTS).glob("*.parquet")):
        if (Path(run) / SEATS / path.name).is_file():
            groups[tuple(pl.read_parquet_schema(path))].append(path)
    return list(groups.values())


def kept_sums(event_path: Path) -> dict[str, Any] | None:
    """The sums its chunk's writer left beside an event file (event_rows.event_sums), if
    they read as such and describe as many games as the event file holds (its footer's row
    count); None otherwise (the file is then summed from its rows)."""
    try:
        sums = json.loads(sums_file(event_path).read_text())
    except (OSError, ValueError):  # none, or not JSON
        return None
    if not isinstance(sums, dict) or not isinstance(sums.get("sums"), dict):
        return None
    games = pl.scan_parquet(event_path).select(pl.len()).collect().item()
    return sums if sums.get("games") == games else None


def chunk_sums(event_path: Path) -> dict[str, Any]:
    """The sums of one event file: those kept beside it (kept_sums), else summed from its
    rows (a chunk written before sums files existed)."""
    return kept_sums(event_path) or event_sums(pl.read_parquet(event_path))


def collect_event_cells(run: Path) -> list[dict[str, Any]]:
    """The event sums of each of the run's event files whose seat chunk exists (chunk_sums);
    empty when the run has no event files."""
    return [chunk_sums(path) for files in event_sources(run) for path in files]


def _long(cells: list[dict[str, Any]]) -> pl.DataFrame:
    """Sums as long rows, per configuration and name: config keys, name, games, total, sq."""
    rows = [
        (c["config"], c["theme"], c["players"], name, c["games"], total, sq)
        for c in cells
        for name, (total, sq) in c["sums"].items()
    ]
    schema = {
        "config": pl.String,
        "theme": pl.String,
        "players": pl.UInt8,
        "name": pl.String,
        "games": pl.Int64,
        "total": pl.Float64,
        "sq": pl.Float64,
    }
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    return frame.group_by(*CONFIG_KEYS, "name", maintain_order=True).agg(
        pl.col("games").sum(), pl.col("total").sum(), pl.col("sq").sum()
    )


def _mean_exprs(scale: pl.Expr | float = 1.0, prefix: str = "") -> list[pl.Expr]:
    """Mean per game of `total` over `games` (divided by `scale`) and its 95% normal
    interval: mean ± z · sd / sqrt(games), sd the sample standard deviation of the per-game
    values; NaN below two games."""
    g = pl.col("games").cast(pl.Float64)
    mean = pl.col("total") / g
    var = ((pl.col("sq") - g * mean * mean) / (g - 1)).clip(lower_bound=0.0)
    half = pl.when(g > 1).then(Z95 * (var / g).sqrt()).otherwise(float("nan"))
    return [
        (mean / scale).alias(f"{prefix}mean"),
        ((mean - half) / scale).alias(f"{prefix}lower"),
        ((mean + half) / scale).alias(f"{prefix}upper"),
    ]


def seats_per_game(seat_cells: pl.LazyFrame, game_cells: pl.LazyFrame) -> pl.LazyFrame:
    """Per configuration and role: seats of that role at each table (the role table's
    count), from the report's cells (`reports.aggregate.Cells`)."""
    games = game_cells.group_by(CONFIG_KEYS).agg(pl.col("games").sum().alias("_games"))
    return (
        seat_cells.group_by(*CONFIG_KEYS, "role")
        .agg(pl.col("games").sum().alias("_seats"))
        .join(games, on=CONFIG_KEYS)
        .select(
            *CONFIG_KEYS,
            "role",
            (pl.col("_seats") / pl.col("_games")).round().cast(pl.Int64).alias("seats"),
        )
    )


def card_usage(long: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """Per configuration, card and role (`all` first, then the roles at the table): seats
    (of that role per game), games, uses, per_game (+ lower, upper) and per_seat (+
    per_seat_lower, per_seat_upper) = per_game / seats. Ordered by configuration, then
    cards by uses per game (most used first), then role."""
    cards = long.filter(pl.col("name").str.starts_with("used:")).with_columns(
        pl.col("name").str.splitn(":", 3).struct.field("field_1").alias("role"),
        pl.col("name").str.splitn(":", 3).struct.field("field_2").alias("card"),
    )
    everyone = seats.group_by(CONFIG_KEYS).agg(pl.col("seats").sum()).with_columns(role=pl.lit(ALL))
    seats = pl.concat([seats, everyone.select(seats.columns)])
    frame = (
        cards.join(seats, on=[*CONFIG_KEYS, "role"], how="inner")  # roles at the table only
        .with_columns(*_mean_exprs(1.0, "per_game_"))
        .with_columns(
            *(
                (pl.col(f"per_game_{s}") / pl.col("seats")).alias(f"per_seat_{s}")
                for s in ("mean", "lower", "upper")
            ),
        )
        .with_columns(
            pl.col("per_game_mean")
            .filter(pl.col("role") == ALL)
            .first()
            .over(*CONFIG_KEYS, "card")
            .alias("_order"),
            pl.col("role")
            .replace_strict({r: i for i, r in enumerate(CARD_ROLES)}, return_dtype=pl.UInt8)
            .alias("_role"),
        )
    )
    return frame.sort(
        "players",
        "config",
        "_order",
        "card",
        "_role",
        descending=[False, False, True, False, False],
    ).select(
        *CONFIG_KEYS,
        "card",
        "role",
        "seats",
        "games",
        pl.col("total").round().cast(pl.Int64).alias("uses"),
        pl.col("per_game_mean").alias("per_game"),
        pl.col("per_game_lower").alias("per_game_lower"),
        pl.col("per_game_upper").alias("per_game_upper"),
        pl.col("per_seat_mean").alias("per_seat"),
        "per_seat_lower",
        "per_seat_upper",
    )


def draw_checks(long: pl.DataFrame) -> pl.DataFrame:
    """Per configuration and kind of "draw!" with at least one check: games, checks, per
    game (mean, lower, upper), passed, pass_rate (+ Wilson pass_lower, pass_upper),
    revealed, revealed_passing, card_rate (+ card_lower, card_upper): the share of revealed
    cards that passed, and expected_card_rate: the share the piles predicted (the mean,
    over revealed cards, of the passing share of the pile each came from)."""
    checks = []
    for kind in CHECK_KINDS:
        part = long.filter(pl.col("name").str.starts_with(f"{kind}_"))
        if part.height == 0:
            continue
        field = pl.col("name").str.strip_prefix(f"{kind}_")
        wide = part.with_columns(field.alias("field")).pivot(
            "field", index=[*CONFIG_KEYS, "games"], values=["total", "sq"]
        )
        checks.append(
            wide.select(
                *CONFIG_KEYS,
                pl.lit(kind).alias("kind"),
                "games",
                pl.col("total_checks").alias("total"),
                pl.col("sq_checks").alias("sq"),
                pl.col("total_passed").alias("passed"),
                pl.col("total_revealed").alias("revealed"),
                pl.col("total_revealed_passing").alias("revealed_passing"),
                (pl.col("total_expected_passing_ppm") / 1e6).alias("expected_passing"),
            )
        )
    if not checks:
        return _empty_checks()
    pass_lo, pass_hi = wilson_exprs("passed", "checks")
    card_lo, card_hi = wilson_exprs("revealed_passing", "revealed")
    order = {k: i for i, k in enumerate(CHECK_KINDS)}
    return (
        pl.concat(checks)
        .filter(pl.col("total") > 0)
        .with_columns(*_mean_exprs(1.0, "per_game_"))
        .with_columns(
            *(pl.col(c).round().cast(pl.Int64) for c in ("total", "passed", "revealed")),
            pl.col("revealed_passing").round().cast(pl.Int64),
        )
        .rename({"total": "checks"})
        .with_columns(
            (pl.col("passed") / pl.col("checks")).alias("pass_rate"),
            pass_lo.alias("pass_lower"),
            pass_hi.alias("pass_upper"),
            (pl.col("revealed_passing") / pl.col("revealed")).alias("card_rate"),
            card_lo.alias("card_lower"),
            card_hi.alias("card_upper"),
            (pl.col("expected_passing") / pl.col("revealed")).alias("expected_card_rate"),
            pl.col("kind").replace_strict(order, return_dtype=pl.UInt8).alias("_kind"),
        )
        .sort("players", "config", "_kind")
        .rename({"per_game_mean": "per_game"})
        .select(*_CHECK_COLUMNS)
    )


_CHECK_COLUMNS = (
    *CONFIG_KEYS,
    "kind",
    "games",
    "checks",
    "per_game",
    "per_game_lower",
    "per_game_upper",
    "passed",
    "pass_rate",
    "pass_lower",
    "pass_upper",
    "revealed",
    "revealed_passing",
    "card_rate",
    "card_lower",
    "card_upper",
    "expected_card_rate",
)


def _empty_checks() -> pl.DataFrame:
    types = {"config": pl.String, "theme": pl.String, "players": pl.UInt8, "kind": pl.String}
    ints = ("games", "checks", "passed", "revealed", "revealed_passing")
    return pl.DataFrame(
        schema={c: types.get(c, pl.Int64 if c in ints else pl.Float64) for c in _CHECK_COLUMNS}
    )


def game_events(long: pl.DataFrame) -> pl.DataFrame:
    """Per configuration and count of GAME_EVENTS: games, total, per game mean with its 95%
    normal interval (lower, upper). damage_total is all life lost (the damage counts
    summed per game); dynamite_explosions is dynamite_passed."""
    counts = long.filter(~pl.col("name").str.starts_with("used:"))
    derived = counts.filter(pl.col("name") == "dynamite_passed").with_columns(
        name=pl.lit("dynamite_explosions")
    )
    counts = pl.concat([counts, derived])
    order = {name: i for i, name in enumerate(GAME_EVENTS)}
    return (
        counts.filter(pl.col("name").is_in(GAME_EVENTS))
        .with_columns(*_mean_exprs())
        .with_columns(pl.col("name").replace_strict(order, return_dtype=pl.UInt8).alias("_o"))
        .sort("players", "config", "_o")
        .select(
            *CONFIG_KEYS,
            pl.col("name").alias("event"),
            "games",
            pl.col("total").round().cast(pl.Int64),
            pl.col("mean").alias("per_game"),
            pl.col("lower").alias("per_game_lower"),
            pl.col("upper").alias("per_game_upper"),
        )
    )


# how a game ends, in the order the report lists them: the winning side, and for the
# outlaws who eliminated the leader (event counts leader_killed_by_*; "outlaw" alone where
# the run's event files do not record it)
ENDINGS = {
    "leader": "{leader}'s side wins: every {outlaw} and the {renegade} out",
    "outlaw_by_outlaw": "{outlaw}s win: the {leader} eliminated by an {outlaw}",
    "outlaw_by_renegade": "{outlaw}s win: the {leader} eliminated by the {renegade}",
    "outlaw_by_deputy": "{outlaw}s win: the {leader} eliminated by a {deputy}",
    "outlaw_by_no_one": "{outlaw}s win: the {leader} eliminated by no one (a Dynamite)",
    "outlaw": "{outlaw}s win: the {leader} eliminated (by whom: not recorded)",
    "renegade": "the {renegade} wins, last standing",
    "capped": "the turn cap: no side wins",
}


def ending_text(ending: str, names, theme: str) -> str:
    """An ENDINGS entry in the theme's role names (reports.names.Names)."""
    return ENDINGS[ending].format(**{r: names.role(r, theme) for r in vocab.ROLES})


def game_endings(run: Path) -> pl.DataFrame:
    """Per configuration and way a game ends (ENDINGS): games, and their share of the
    configuration's games with its Wilson interval (lower, upper). Each chunk's counts are
    those its writer kept (event_rows.event_sums' "endings"); a chunk without them is
    counted from its rows: the winner from the seat rows, who eliminated the leader from
    its event file where one records it."""
    counts, rest = [], []
    for path in sorted((Path(run) / SEATS).glob("*.parquet")):
        sums = kept_sums(Path(run) / EVENTS / path.name)
        if sums is not None and "endings" in sums:
            keys = (sums["config"], sums["theme"], sums["players"])
            counts += [(*keys, ending, n) for ending, n in sums["endings"].items()]
        else:
            rest.append(path.name)
    schema = {"config": pl.String, "theme": pl.String, "players": pl.UInt8, "ending": pl.String,
              "games": pl.Int64}  # fmt: skip
    frames = [pl.DataFrame(counts, schema=schema, orient="row").lazy()]
    if rest:
        frames.append(_counted_endings(run, rest).select(*schema))
    lower, upper = wilson_exprs("games", "total")
    order = {name: i for i, name in enumerate(ENDINGS)}
    return (
        pl.concat(frames)
        .group_by(*CONFIG_KEYS, "ending")
        .agg(pl.col("games").sum())
        .with_columns(pl.col("games").sum().over(CONFIG_KEYS).alias("total"))
        .with_columns(
            (pl.col("games") / pl.col("total")).alias("share"),
            lower.alias("lower"),
            upper.alias("upper"),  # fmt: skip
        )
        .with_columns(pl.col("ending").replace_strict(order, return_dtype=pl.UInt8).alias("_o"))
        .sort("players", "config", "_o")
        .drop("_o", "total")
        .collect(engine="streaming")
    )


def _counted_endings(run: Path, names: list[str]) -> pl.LazyFrame:
    """game_endings' counts of the seat chunks `names` from their rows."""
    killers = []
    columns = [f"leader_killed_by_{k}" for k in KILLED_BY]
    for files in event_sources(run):
        files = [f for f in files if f.name in names]
        if files and all(c in pl.read_parquet_schema(files[0]) for c in columns):
            killers.append(
                pl.scan_parquet(files).select("config", "game", killer_expr().alias("killer"))
            )
    games = scan_seats(run, [f"{SEATS}/{name}" for name in names]).filter(pl.col("seat") == 0)
    games = games.select(*CONFIG_KEYS, "game", "winner", "capped")
    if killers:
        games = games.join(pl.concat(killers), on=["config", "game"], how="left")
    else:
        games = games.with_columns(pl.lit(None, pl.String).alias("killer"))
    return games.group_by(*CONFIG_KEYS, ending_expr().alias("ending")).agg(
        pl.len().cast(pl.Int64).alias("games")
    )


def event_tables(
    cells: list[dict[str, Any]], seat_cells: pl.LazyFrame, game_cells: pl.LazyFrame
) -> dict[str, pl.DataFrame]:
    """card_usage, draw_checks, game_events and event_games (per configuration: games with
    event counts) from `collect_event_cells` and the report's cells."""
    long = _long(cells)
    seats = seats_per_game(seat_cells, game_cells).collect()
    games = long.group_by(CONFIG_KEYS).agg(pl.col("games").max()).sort("players", "config")
    return {
        "card_usage": card_usage(long, seats),
        "draw_checks": draw_checks(long),
        "game_events": game_events(long),
        "event_games": games,
    }


# --- the HTML section ----------------------------------------------------------------------

# game_events columns of the page, with short headings (under "life lost per game, by source"
# for the damage counts)
DAMAGE_HEADINGS = {
    "damage_bang": "BANG!",
    "damage_duel": "Duel",
    "damage_gatling": "Gatling",
    "damage_indians": "Indians!",
    "damage_dynamite": "Dynamite",
    "damage_other": "other",
    "damage_total": "all",
}
OTHER_HEADINGS = {
    "dynamite_explosions": "Dynamite explosions",
    "beers_at_lethal": "Beers at a lethal hit",
    "beer_saves": "lives a Beer saved",
    "beers_two_left": "Beers with two left",
    "cards_stolen": "cards stolen",
    "cards_discarded_by_others": "cards discarded by others",
}


def _places(x: float) -> int:
    return 3 if abs(x) < 0.1 else 2 if abs(x) < 10 else 1


def mean_cell(mean: float, lower: float, upper: float) -> dict[str, object]:
    """A mean for the page: value (sort key), text ('4.77'), pm ('±0.08'), title (the
    interval)."""
    if mean is None or mean != mean:
        return {"v": "", "text": "–", "pm": "", "title": ""}
    if mean == 0 and lower == upper == 0:  # never happened
        return {"v": 0.0, "text": "0", "pm": "", "title": "never in these games"}
    d = _places(mean)
    half = (upper - lower) / 2 if upper == upper and lower == lower else float("nan")
    pm = f"±{half:.{d}f}" if half == half else ""
    title = f"95% interval {lower:.{d}f} – {upper:.{d}f}" if half == half else ""
    return {"v": mean, "text": f"{mean:.{d}f}", "pm": pm, "title": title}


def _short_label(config: str, theme: str) -> str:
    """'classic/5p/smart' -> '5p/smart' (the theme is the table's)."""
    return config.removeprefix(f"{theme}/") or config


def event_views(tables: dict[str, pl.DataFrame], names) -> dict[str, object]:
    """What the page's cards-and-events section shows (empty when the run has no event
    files): per theme, cards x configurations (uses per game); per configuration, each
    card's uses per game and per seat of each role; the draw! checks; the game events; and
    a note when event files cover fewer games than the seat rows."""
    usage = tables.get("card_usage")
    if usage is None or usage.height == 0:
        return {}
    everyone = usage.filter(pl.col("role") == ALL)
    themes = []
    for (theme,), part in everyone.group_by("theme", maintain_order=True):
        configs = part["config"].unique(maintain_order=True).to_list()
        order = (
            part.group_by("card").agg(pl.col("per_game").mean()).sort("per_game", descending=True)
        )
        cells = defaultdict(dict)  # card -> config -> its uses per game
        for r in part.iter_rows(named=True):
            cells[r["card"]][r["config"]] = mean_cell(
                r["per_game"], r["per_game_lower"], r["per_game_upper"]
            )
        rows = [
            {"card": card, "cells": [cells[card].get(c, mean_cell(None, 0, 0)) for c in configs]}
            for card in order["card"].to_list()
        ]
        themes.append(
            {
                "theme": theme,
                "title": names.titles.get(theme, theme),
                "configs": [_short_label(c, theme) for c in configs],
                "rows": rows,
            }
        )
    per_config = []
    for (config,), part in usage.group_by("config", maintain_order=True):
        theme = part["theme"][0]
        roles = [r for r in vocab.ROLES if r in set(part["role"])]
        rows = []
        for (card,), group in part.group_by("card", maintain_order=True):
            by_role = {r["role"]: r for r in group.iter_rows(named=True)}
            every = by_role[ALL]
            rows.append(
                {
                    "card": card,
                    "uses": every["uses"],
                    "all": mean_cell(
                        every["per_game"], every["per_game_lower"], every["per_game_upper"]
                    ),
                    "roles": [
                        mean_cell(
                            by_role[r]["per_seat"],
                            by_role[r]["per_seat_lower"],
                            by_role[r]["per_seat_upper"],
                        )  # fmt: skip
                        for r in roles
                    ],
                }
            )
        per_config.append(
            {
                "config": config,
                "theme": theme,
                "roles": [
                    f"per {names.role(r, theme)}" + (f" ({n} seats)" if n > 1 else "")
                    for r in roles
                    for n in [int(part.filter(pl.col("role") == r)["seats"][0])]
                ],
                "games": int(part["games"][0]),
                "rows": rows,
            }
        )
    events = tables["game_events"]
    shown = events.group_by("event").agg(pl.col("total").sum()).filter(pl.col("total") > 0)["event"]
    damage = [e for e in DAMAGE_HEADINGS if e in set(shown)]
    other = [e for e in OTHER_HEADINGS if e in set(shown)]
    event_rows = []
    for (config,), part in events.group_by("config", maintain_order=True):
        by = {r["event"]: r for r in part.iter_rows(named=True)}
        event_rows.append(
            {
                "config": config,
                "cells": [
                    mean_cell(by[e]["per_game"], by[e]["per_game_lower"], by[e]["per_game_upper"])
                    if e in by
                    else mean_cell(None, 0, 0)
                    for e in (*damage, *other)
                ],
            }
        )
    return {
        "themes": themes,
        "configs": per_config,
        "damage": [DAMAGE_HEADINGS[e] for e in damage],
        "other": [OTHER_HEADINGS[e] for e in other],
        "events": event_rows,
        "checks": [
            {
                **r,
                "label": CHECK_LABELS.get(r["kind"], r["kind"]),
                "per": mean_cell(r["per_game"], r["per_game_lower"], r["per_game_upper"]),
            }
            for r in tables["draw_checks"].iter_rows(named=True)
        ],  # fmt: skip
        "coverage": _coverage(tables),
    }


def _coverage(tables: dict[str, pl.DataFrame]) -> list[str]:
    """Configurations whose event files cover fewer games than their seat rows."""
    games = dict(tables["event_games"].select("config", "games").iter_rows())
    notes = []
    for config, total in tables["summary"].select("config", "games").iter_rows():
        have = games.get(config, 0)
        if have < total:
            notes.append(f"{config}: {have:,} of {total:,} games")
    return notes
