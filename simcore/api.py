"""The Python API: play games and get seat rows back as a polars DataFrame.

    import polars as pl, simcore
    seats = simcore.simulate("classic", players=5, games=10_000, seed=1)
    seats.filter(pl.col("role") == "leader")["won"].mean()  # the leader's win rate

Rows are the run folder's seat rows (`simcore.engine.rows.SEAT_SCHEMA`); `bangsim run` writes the
same rows to disk chunk by chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import polars as pl

from simcore.engine.request import (
    check_characters,
    check_feature,
    check_games,
    config_label,
    player_counts,
)
from simcore.engine.rows import seat_frame
from simcore.engine.theme import Theme, load_theme
from strategies.presets import DEFAULT_PRESET, StrategySpec, check_strategy, resolve_strategy


def simulate(
    theme: str | Path | Theme = "classic",
    players: int | Iterable[int] = 5,
    games: int = 10_000,
    seed: int = 1,
    strategy: StrategySpec = DEFAULT_PRESET,
    characters: Sequence[str] | None = None,
    *,
    feature: str | None = None,
    checked: bool = False,
) -> pl.DataFrame:
    """Play `games` games per player count and return one row per seat per game.

    theme: a theme id ("classic"), a path to a theme TOML file, or a loaded Theme.
    players: a player count or several (their rows are concatenated; games are numbered
    from 0 within each count). strategy: a preset name for every seat, or a dict
    canonical role -> preset. characters: the pool characters are dealt from (theme names);
    None = the theme's full list. feature: "NAME" puts that character in every game at a
    uniformly random seat (the others dealt from the pool less it), "NAME=ROLE" also fixes
    its role (canonical or the theme's name); the `featured` column marks its seat.
    checked: assert the kernel's invariants after every action.
    Raises ValueError (ThemeError included) with a one-line message on bad input.
    """
    from simcore.engine.play import play_games  # numba loads on first use, not on import

    loaded = load_theme(theme)
    counts = player_counts(players, loaded)
    check_games(games)
    label = check_strategy(strategy)
    pool = check_characters(characters, loaded, counts)
    feature = check_feature(feature, loaded, counts)
    frames = []
    for n in counts:
        block = play_games(
            loaded, n, games, seed, game0=0, characters=pool, feature=feature, checked=checked,
            strategy=resolve_strategy(label, n, loaded.plays_as, mixed=True),
        )  # fmt: skip
        config = config_label(loaded.id, n, label, pool, feature)
        frames.append(seat_frame(block, loaded, n, 0, config))
    return pl.concat(frames)


def report_tables(run: str | Path, targets: str | None = None) -> dict[str, pl.DataFrame]:
    """Every table of a run folder's report, by name, as polars DataFrames: the same tables
    `bangsim report RUN --format csv` writes (summary, sides, roles, characters,
    character_roles, seats, featured, game_lengths, turn_histogram, the card and event
    tables, ability values when measured, and for an experiment with overrides `effects`
    and `interactions`), plus `verdict`: the verdict lines as a one-column frame.
    `targets` as `bangsim report --targets` ("40,40,20" or a balance file). Raises
    ReportError (a UserError) with a one-line message for a folder that is no run."""
    from reports.report import load_report, report_verdict
    from reports.verdict import parse_targets

    loaded = load_report(Path(run), None if targets is None else parse_targets(targets))
    return {**loaded.tables, "verdict": pl.DataFrame({"verdict": report_verdict(loaded)})}
