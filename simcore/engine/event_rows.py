"""Event rows: one engine `GameBlock` (played with events=True) -> the run folder's event table.

    out/events/<config>-<chunk>.parquet     one row per game, beside seats/<same name>
    out/events/<config>-<chunk>.sums.json   the sums a report reads of it (event_sums)

written by every chunk of `bangsim run` and `bangsim experiment` unless --no-events (about
5% of games per second: `make bench` measures it).

Columns, in order:

- ``config, theme, players, game``: the keys of the seat rows (`simcore.engine.rows`), so an event
  row joins its game's seat rows on (config, game);
- the per-game counts of `simcore.engine.events.event_names()` (UInt32): "draw!" checks by kind
  (``barrel_checks``, ``barrel_passed``, ..., ``dynamite_passed`` = explosions), life lost
  by source (``damage_bang``, ...), ``beers_at_lethal``, ``beer_saves``, ``cards_stolen``,
  ``cards_discarded_by_others``, ...;
- ``used:<role>:<card>`` (UInt32) for every canonical role (`vocab.ROLES`) and every card
  name of the theme: how many times the seats of that role used that card in the game
  (played it, or answered with it: a Missed!, a Beer at a lethal hit, a BANG! against a
  Duel or Indians!). A role absent from the table (no deputy at 4 players) has zeros.

Card names differ between themes (and between variants that drop a card), so files of
different configurations may have different ``used:`` columns; `reports.events` reads
them by schema. One row per game and role, not per seat: the report needs uses per game
and per seat of each role, and a game's total is the sum of its role columns; it keeps a
1M-game run small (about 40 MB at 5 players) and a single pass aggregates it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
from numba import njit

from simcore.engine import vocab
from simcore.engine.events import event_names

if TYPE_CHECKING:
    from simcore.engine.theme import Theme

EVENTS = "events"  # the run folder's event files: events/<seat chunk's file name>
KEYS: dict[str, pl.DataType] = {
    "config": pl.String(),
    "theme": pl.String(),
    "players": pl.UInt8(),
    "game": pl.UInt64(),
}
USED = "used:"  # prefix of the card-use columns: used:<role>:<card>
ALL = "all"  # the role of event_sums' used:all:<card>, every seat together
# how event files are written: zstd level 1 without column statistics is a third faster to
# write than the default for the same size (the files are always read whole)
WRITE_OPTIONS: dict[str, Any] = {"compression": "zstd", "compression_level": 1, "statistics": False}


def used_column(role: str, card: str) -> str:
    """'used:outlaw:BANG!': the column of a role's uses of a card."""
    return f"{USED}{role}:{card}"


def parse_used_column(name: str) -> tuple[str, str] | None:
    """(role, card) of a used:<role>:<card> column, None for any other column."""
    if not name.startswith(USED):
        return None
    role, sep, card = name[len(USED) :].partition(":")
    return (role, card) if sep and role in vocab.ROLES else None


def event_columns(card_names: list[str] | tuple[str, ...]) -> list[str]:
    """Every column of an event file for a theme with these card names, in order."""
    return [
        *KEYS,
        *event_names(),
        *(used_column(r, c) for r in vocab.ROLES for c in card_names),
    ]


def event_file(seat_file: str) -> str:
    """The event file of a seat chunk: 'seats/x-00001.parquet' -> 'events/x-00001.parquet'."""
    return f"{EVENTS}/{Path(seat_file).name}"


def sums_file(event_path: Path) -> Path:
    """The sums file of an event file: events/x-00001.parquet -> events/x-00001.sums.json."""
    return event_path.with_name(f"{event_path.stem}.sums.json")


KILLED_BY = ("deputy", "outlaw", "renegade", "no_one")  # leader_killed_by_<who> counts


def killer_expr() -> pl.Expr:
    """Who eliminated the leader (a KILLED_BY entry) from a game's event row; null when no
    one did."""
    return pl.coalesce(
        pl.when(pl.col(f"leader_killed_by_{k}") > 0).then(pl.lit(k)) for k in KILLED_BY
    )


def ending_expr() -> pl.Expr:
    """How a game ended (reports.events.ENDINGS names them) from its leader's seat row
    (winner, capped) and `killer` (killer_expr; null where not recorded): "capped", the
    winning side, and for the outlaws who eliminated the leader ("outlaw_by_<who>")."""
    return (
        pl.when(pl.col("capped") | (pl.col("winner") == "none")).then(pl.lit("capped"))
        .when((pl.col("winner") == "outlaw") & pl.col("killer").is_not_null())
        .then(pl.lit("outlaw_by_") + pl.col("killer"))
        .otherwise(pl.col("winner"))
    )  # fmt: skip


def event_sums(frame: pl.DataFrame, leaders: pl.DataFrame | None = None) -> dict[str, Any]:
    """What a report reads of one configuration's event rows (an event file), a few hundred
    numbers whatever the games: its config, theme, players and games, and under "sums" each
    count's sum and sum of squares over the games ([sum, sq], floats: squares of large
    counts over millions of games overflow 64-bit integers), for every count column, every
    used:<role>:<card> column, and two per-game totals: damage_total (the damage_* counts)
    and used:all:<card> (a card's uses by every role).

    With `leaders`, the same games' seat rows of seat 0 (game, winner, capped), also under
    "endings" the games per way they ended (ending_expr).

    A chunk's writer stores them beside its event file (sums_file), so a report adds a few
    numbers per chunk instead of reading every game's row (reports.events.chunk_sums).
    Raises ValueError for rows of no configuration or of several."""
    configs = frame.select("config", "theme", "players").unique()
    if configs.height != 1:
        raise ValueError(f"event rows of {configs.height} configurations, expected one")
    sums: dict[str, list[float]] = {}

    def add(name: str, values: np.ndarray) -> None:
        sums[name] = list(_sum_sq(values))

    columns = {c: frame[c].to_numpy() for c in frame.columns if c not in KEYS}
    counts = [c for c in columns if parse_used_column(c) is None]
    for c in counts:
        add(c, columns[c])
    add("damage_total", sum(columns[c].astype(np.int64) for c in counts if c.startswith("damage_")))
    by_card: dict[str, list[str]] = {}
    for c in columns:
        if (parsed := parse_used_column(c)) is not None:
            by_card.setdefault(parsed[1], []).append(c)
    for card, role_columns in by_card.items():
        for c in role_columns:
            add(c, columns[c])
        add(used_column(ALL, card), sum(columns[c].astype(np.int64) for c in role_columns))
    config, theme, players = configs.row(0)
    found = {"config": config, "theme": theme, "players": players, "games": frame.height}
    if leaders is not None:
        if not leaders["game"].equals(frame["game"]):
            raise ValueError("the leaders' seat rows are not those of the event rows' games")
        games = leaders.select(
            "winner", "capped", frame.select(killer_expr().alias("killer")).to_series()
        )
        ends = games.group_by(ending_expr().alias("ending")).len().sort("ending")
        found["endings"] = dict(ends.iter_rows())
    return {**found, "sums": sums}


def event_frame(block: Any, theme: Theme, players: int, game0: int, config: str) -> pl.DataFrame:
    """The event rows of `block` (games game0, game0+1, ...), columns as `event_columns`.

    Raises ValueError when the block was played without events or its shapes or counts are
    inconsistent (an engine bug, never silently written to disk).
    """
    n = len(block.winner)
    names = event_names()
    cards = len(theme.card_names)
    if np.shape(block.events) != (n, len(names)):
        raise ValueError(
            f"engine block: events has shape {np.shape(block.events)}, expected "
            f"{(n, len(names))} (play_games(..., events=True))"
        )
    if np.shape(block.used) != (n, players, cards):
        raise ValueError(
            f"engine block: used has shape {np.shape(block.used)}, expected {(n, players, cards)}"
        )
    if n and (block.events.min() < 0 or block.used.min() < 0):
        raise ValueError("engine block: negative event counts")
    by_role = np.zeros((len(vocab.ROLES), cards, n), np.uint32)
    _sum_by_role(block.used, block.role, by_role)
    counts = np.ascontiguousarray(block.events.T)  # int64: the pile shares are millionths
    columns: dict[str, Any] = {
        "game": np.arange(game0, game0 + n, dtype=np.uint64),
        **{name: counts[k] for k, name in enumerate(names)},
        **{
            used_column(role, card): by_role[r, k]
            for r, role in enumerate(vocab.ROLES)
            for k, card in enumerate(theme.card_names)
        },
    }
    frame = pl.DataFrame(columns)
    return frame.select(
        pl.lit(config, dtype=pl.String).alias("config"),
        pl.lit(theme.id, dtype=pl.String).alias("theme"),
        pl.lit(players, dtype=pl.UInt8).alias("players"),
        pl.all(),
    )


@njit(cache=True)
def _sum_sq(x):
    """The sum of x and the sum of its squares, in floats, added in order (the same
    numbers on every machine, no copy of x)."""
    total = 0.0
    sq = 0.0
    for v in x:
        f = float(v)
        total += f
        sq += f * f
    return total, sq


@njit(cache=True)
def _sum_by_role(used, role, out):
    """out[role, card, game] += used[game, seat, card] over the seats of each role."""
    n, players, cards = used.shape
    for g in range(n):
        for q in range(players):
            r = role[g, q]
            for k in range(cards):
                out[r, k, g] += used[g, q, k]


# counts added after event files were first written: a file written before lacks them and
# is not damaged (reports.events.game_endings then cannot tell who eliminated the leader)
LATER_EVENTS = frozenset(f"leader_killed_by_{k}" for k in ("no_one", "deputy", "outlaw", "renegade"))  # fmt: skip


def event_problem(path: Path, games: int | None = None) -> str | None:
    """Why `path` is not a complete event file (of `games` rows, if given), or None."""
    required = [n for n in event_names() if n not in LATER_EVENTS]
    return parquet_problem(path, (*KEYS, *required), games)


def parquet_problem(path: Path, required: Sequence[str], rows: int | None) -> str | None:
    """Why `path` is not a complete Parquet file with the `required` columns (and `rows`
    rows, if given), or None. Reads the footer only."""
    try:
        scan = pl.scan_parquet(path)
        columns = scan.collect_schema().names()
        found = scan.select(pl.len()).collect().item()
    except (OSError, pl.exceptions.PolarsError) as e:
        text = " ".join(str(e).split())
        return f"not a readable Parquet file: {text[:120]}"
    missing = [c for c in required if c not in columns]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        return f"no {', '.join(missing[:3])}{more} column{'s' if len(missing) > 1 else ''}"
    if rows is not None and found != rows:
        return f"{found:,} rows, the manifest says {rows:,}"
    return None
