"""Verdicts across strategy levels: configurations that differ only in the bots' strategy.

An experiment may put strategy levels on one axis (`strategies = ["random", "smart",
"tuned"]`). Configurations with the same theme, player count, character pool, featured
character and overrides then form a group, and the report shows, level by level, each
side's win rate with its interval over the games that level played (a level may play
fewer: `{ strategy = "search:tuned", games = 2000 }`, with wider intervals) and the
strongest and weakest characters, with flags where a verdict depends on the level:

- the leading side (the highest win rate) is not the same at every level;
- a side's verdict is not the same at every level: above its even share at one level,
  below it or within luck at another (its 95% Wilson interval above, below or across the
  even share);
- the strongest or the weakest character (overall effect, role mix controlled for) is not
  the same at every level;
- a character's verdict is not the same at every level: stronger at one (its effect beyond
  luck after Holm's correction, above 0), weaker or within luck at another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import polars as pl

SIDES = ("leader", "outlaw", "renegade")
FLAGGED_CHARACTERS = 6  # a flag names so many characters whose verdict changes, then a count


@dataclass
class LevelGroup:
    """One theme, player count, pool, feature and overrides, played at several levels."""

    key: str  # a readable name of what the levels share
    levels: list[dict[str, Any]]  # per level: strategy, config, sides {side: row}, best, worst
    flags: list[str] = field(default_factory=list)


def shared_settings(config: dict[str, Any]) -> tuple:
    """What configurations of one level group share: all but the strategy."""
    return (
        config.get("theme"),
        config.get("players"),
        json.dumps(config.get("characters"), sort_keys=True),
        config.get("feature"),
        json.dumps(config.get("overrides") or {}, sort_keys=True),
    )


def strategy_levels(
    configs: list[dict[str, Any]], sides: pl.DataFrame, characters: pl.DataFrame
) -> list[LevelGroup]:
    """The groups of configurations (manifest entries) that differ only in strategy, with
    their side rates (reports.aggregate.side_win_rates), extreme characters
    (effects_overall) and flags; [] when no two configurations differ only so."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for config in configs:
        groups.setdefault(shared_settings(config), []).append(config)
    out = []
    for members in groups.values():
        if len({c.get("strategy") for c in members}) < 2:
            continue
        levels = [_level(c, sides, characters) for c in members]
        first = members[0]
        key = f"{first.get('theme')}, {first.get('players')} players"
        if first.get("feature"):
            key += f", featuring {first['feature']}"
        if first.get("overrides"):
            key += ", " + ", ".join(f"{k} = {v}" for k, v in first["overrides"].items())
        out.append(LevelGroup(key, levels, _flags(levels)))
    return out


def _level(config: dict[str, Any], sides: pl.DataFrame, characters: pl.DataFrame) -> dict:
    label = config["label"]
    rows = {r["side"]: r for r in sides.filter(pl.col("config") == label).iter_rows(named=True)}
    chars = characters.filter(pl.col("config") == label).sort("effect", descending=True)
    games = [r["games"] for r in rows.values() if "games" in r]
    return {
        "strategy": config.get("strategy"),
        "config": label,
        "games": games[0] if games else None,  # a level may play fewer (a searching one)
        "sides": rows,
        "best": chars.row(0, named=True) if chars.height else None,
        "worst": chars.row(-1, named=True) if chars.height else None,
        "verdicts": {
            r["character"]: _verdict(
                r.get("significant", False), r["effect"], 0.0, "stronger", "weaker"
            )
            for r in chars.iter_rows(named=True)
        },  # fmt: skip
    }


def _verdict(beyond_luck: bool, value: float, reference: float, up: str, down: str) -> str:
    if not beyond_luck:
        return "within luck"
    return up if value > reference else down


def _flags(levels: list[dict[str, Any]]) -> list[str]:
    flags = []
    leaders = [max(lv["sides"].values(), key=lambda r: r["rate"])["side"] for lv in levels]
    if len(set(leaders)) > 1:
        flags.append(
            "the leading side changes with the level: "
            + ", ".join(f"{lv['strategy']} {s}" for lv, s in zip(levels, leaders, strict=True))
        )
    for side in SIDES:
        said = {}  # verdict -> the levels that give it
        for lv in levels:
            if side in lv["sides"]:
                lo, hi, even = _row(lv, side, "lower"), _row(lv, side, "upper"), _even(lv, side)
                verdict = _verdict(lo > even or hi < even, lo, even, "above even", "below even")
                said.setdefault(verdict, []).append(lv["strategy"])
        if len(said) > 1:
            flags.append(
                f"the {side} side is "
                + " and ".join(f"{v} with {', '.join(names)}" for v, names in said.items())
            )
    for which in ("best", "worst"):
        names = [lv[which]["character"] for lv in levels if lv[which]]
        if len(set(names)) > 1:
            word = "strongest" if which == "best" else "weakest"
            flags.append(
                f"the {word} character changes with the level: "
                + ", ".join(f"{lv['strategy']} {lv[which]['character']}" for lv in levels)
            )
    changed = [
        name
        for name in levels[0]["verdicts"]
        if len({lv["verdicts"].get(name) for lv in levels}) > 1
    ]
    if changed:
        told = [
            f"{name} ("
            + ", ".join(
                f"{lv['strategy']} {lv['verdicts'].get(name, 'not dealt')}" for lv in levels
            )
            + ")"
            for name in changed[:FLAGGED_CHARACTERS]
        ]
        more = len(changed) - len(told)
        flags.append(
            f"{len(changed)} character verdict{'s change' if len(changed) > 1 else ' changes'} "
            "with the level: " + "; ".join(told) + (f"; and {more} more" if more > 0 else "")
        )
    return flags


def _row(level: dict[str, Any], side: str, column: str) -> float:
    row = level["sides"].get(side)
    return row[column] if row else float("nan")


def _even(level: dict[str, Any], side: str) -> float:
    row = level["sides"].get(side)
    return row["even_share"] if row else float("nan")
