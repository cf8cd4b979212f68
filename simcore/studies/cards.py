"""Which card tips the balance: each card knocked out of the deck, on the same seeds.

    table = card_values("classic", players=5, games=20_000, seed=1)

For each distinct card name, one arm plays the theme with every copy of it removed (the
experiments' override `cards."NAME".copies = []`, compiled by the theme loader), or, where
that breaks a rule of the file (a deck too small to deal, a card other rules need), one
copy fewer; the printed deck is the other arm, shared by all cards. Every arm plays game
indices 0 .. games-1 with the same seed, so game g deals the same roles and characters in
all of them: common random numbers; the shuffle differs with the deck. Per game and side,
d = won without the card - won with it (-1, 0 or 1); the knock-out effect is the mean of
d in win-rate points with the normal-approximation 95% interval over these paired games.
A card's row in the table is its largest effect on any side; the table lists every side.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simcore.engine.request import check_games, check_seed, player_counts
from simcore.engine.theme import Theme, load_theme
from simcore.engine.vocab import WINNERS
from simcore.runs.backend import Backend
from simcore.stats import agreeing_digits, paired_interval
from simcore.studies.batch import Work, play_all
from simcore.studies.stored import read_tables
from strategies.presets import DEFAULT_PRESET, StrategySpec, check_strategy

PREFIX = "cards"  # its files in a run folder: cards-THEME_Np.json (simcore.studies.stored)
SCHEMA: dict[str, pl.DataType] = {
    "theme": pl.String(),
    "players": pl.Int64(),
    "strategy": pl.String(),
    "card": pl.String(),
    "copies": pl.Int64(),  # in the printed deck
    "removed": pl.Int64(),  # all of them, or one where removing all breaks the file
    "side": pl.String(),  # vocab.WINNERS
    "games": pl.Int64(),  # per arm: the same game indices in every arm
    "seed": pl.Int64(),
    "rate_printed": pl.Float64(),
    "rate_without": pl.Float64(),
    "effect": pl.Float64(),  # mean paired difference: rate_without - rate_printed
    "effect_lower": pl.Float64(),
    "effect_upper": pl.Float64(),
    "p_value": pl.Float64(),  # paired z test of "effect = 0"
}


def knocked_out(theme: Theme, card: str) -> tuple[Theme, int]:
    """`theme` without `card`: every copy (its entry gone), else, where the file then breaks
    a rule (a deck too small to deal), one copy fewer; and how many copies went. ValueError
    when not even one copy can go."""
    from simcore.engine.theme import compile_theme

    copies = next(c["copies"] for c in theme.raw["cards"] if c.get("name") == card)
    error = None
    for kept in ([], copies[:-1]) if len(copies) > 1 else ([],):
        raw = copy.deepcopy(theme.raw)
        raw["cards"] = [
            {**c, "copies": kept} if c.get("name") == card else c
            for c in raw["cards"] if kept or c.get("name") != card
        ]  # fmt: skip
        try:
            compiled = compile_theme(raw, theme.path)
        except ValueError as e:
            error = e
            continue
        # a theme file playing under a label of its own (own_id) keeps it
        return dataclasses.replace(compiled, id=theme.id, shipped_id=theme.shipped_id), len(
            copies
        ) - len(kept)
    raise ValueError(f"{card}: no copy can be removed ({error})")


def check_cards(cards: Sequence[str] | None, theme: Theme) -> list[str]:
    """The theme's card names to knock out (default all), as the file spells them;
    ValueError naming an unknown one, with the closest name."""
    from simcore.engine.play import did_you_mean

    names = list(dict.fromkeys(c["name"] for c in theme.raw["cards"]))
    if not cards:
        return names
    for card in cards:
        if card not in names:
            hint = did_you_mean(card, names).strip()
            raise ValueError(
                f"--cards: theme {theme.id!r} has no card {card!r}" + (f" ({hint})" if hint else "")
            )
    return list(dict.fromkeys(cards))


def card_values(
    theme: str | Path | Theme = "classic",
    players: int = 5,
    games: int = 20_000,
    seed: int = 1,
    strategy: StrategySpec = DEFAULT_PRESET,
    cards: Sequence[str] | None = None,
    progress: Callable[[Iterable[str]], Iterable[str]] | None = None,
    backend: Backend | None = None,
) -> pl.DataFrame:
    """Each card's knock-out effect on each side (see the module doc): one row per card and
    side, columns as SCHEMA, cards sorted by their largest effect in size. progress: wraps
    the iteration over cards; backend (simcore.runs.backend, default local) plays each arm,
    with the same results. ValueError (one line) on bad input."""
    loaded = load_theme(theme)
    (players,) = player_counts(players, loaded)
    check_games(games)
    check_seed(seed)
    label = check_strategy(strategy, (players,), loaded.plays_as)
    names = check_cards(cards, loaded)
    arms = [knocked_out(loaded, name) for name in names]
    todo = [Work(loaded, players, label, seed, games)]
    todo += [Work(without, players, label, seed, games) for without, _ in arms]
    played = play_all(todo, backend)
    printed = next(played)
    copies = {c["name"]: len(c["copies"]) for c in loaded.raw["cards"]}
    rows = []
    for name, (_, removed) in zip(progress(names) if progress else names, arms, strict=True):
        without = next(played)
        for code, side in enumerate(WINNERS):
            won = without.winner == code
            was = printed.winner == code
            rows.append({
                "theme": loaded.id, "players": players, "strategy": label, "card": name,
                "copies": copies[name], "removed": removed, "side": side, "games": games,
                "seed": seed, **_paired(won, was),
            })  # fmt: skip
    table = pl.DataFrame(rows, schema=SCHEMA)
    size = table.group_by("card").agg(pl.col("effect").abs().max().alias("_size"))
    return (
        table.join(size, on="card")
        .sort("_size", "card", descending=[True, False], maintain_order=True)
        .drop("_size")
    )


def read_cards(folder: Path) -> pl.DataFrame | None:
    """The card tables written into `folder` (`bangsim cards --out`: cards-*.json), as one
    table; None when there are none. ValueError (one line) for a file that is not one."""
    return read_tables(folder, PREFIX, SCHEMA, "a card table")


def _paired(without: np.ndarray, printed: np.ndarray) -> dict[str, Any]:
    d = without.astype(np.int64) - printed.astype(np.int64)
    mean, sd, half = paired_interval(d)
    if sd > 0:
        p = math.erfc(abs(mean) / (sd / math.sqrt(len(d))) / math.sqrt(2))
    else:
        p = 1.0 if mean == 0 else 0.0
    return {
        "rate_printed": float(printed.mean()),
        "rate_without": float(without.mean()),
        "effect": mean,
        "effect_lower": mean - half,
        "effect_upper": mean + half,
        "p_value": p,
    }


def top_line(table: pl.DataFrame, side_name: Callable[[str], str]) -> str:
    """The card whose knock-out moves a side the most, in words: "knocking out BANG! moves
    the most: Outlaws +10.6 points [+9.9, +11.3]"."""
    first = table.row(0, named=True)
    top = table.filter(pl.col("card") == first["card"]).sort(pl.col("effect").abs()).row(-1, named=True)  # fmt: skip
    return (
        f"knocking out {top['card']} moves the most: {side_name(top['side'])} "
        f"{_signed(top['effect'], 1)} points [{_signed(top['effect_lower'], 1)}, "
        f"{_signed(top['effect_upper'], 1)}]"
    )


def card_lines(table: pl.DataFrame, side_name: Callable[[str], str]) -> list[str]:
    """The table as aligned text: one line per card, its effect on each side (points, 95%
    interval), largest first; `side_name` names a side (reports.names.Names.side)."""
    if table.height == 0:
        return []
    sides = list(dict.fromkeys(table["side"]))
    width = max(len(c) for c in table["card"]) + 1
    cell = 24
    head = f"{'card':<{width}}{'removed':<9}" + "".join(
        f"{side_name(s)[: cell - 1]:<{cell}}" for s in sides
    )
    lines = [head]
    for (card,), group in table.group_by("card", maintain_order=True):
        first = group.row(0, named=True)
        gone = f"{first['removed']} of {first['copies']}"
        cells = "".join(f"{_effect(r):<{cell}}" for r in group.iter_rows(named=True))
        lines.append(f"{card:<{width}}{gone:<9}{cells.rstrip()}")
    return lines


def _effect(row: dict[str, Any]) -> str:
    lo, hi = row["effect_lower"], row["effect_upper"]
    mark = "*" if lo > 0 or hi < 0 else " "
    d = agreeing_digits(lo, hi)
    return f"{_signed(row['effect'], d)} [{_signed(lo, d)}, {_signed(hi, d)}]{mark}"


def _signed(x: float, digits: int) -> str:
    """Points with a sign, a rounded zero without one: 0.0."""
    text = f"{100 * x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text
