"""What each override of an experiment changes, on the same deals: the report's first answer
to a what-if experiment (and only to one with overrides).

An experiment plays every cell on the same seeds: game g of one cell and game g of another
draw from the same random stream (keyed by seed and game index), so they pair up. For one
override (a *factor*, e.g. ``cards."Missed!".extra_copies``) and one of its levels, the
effect on a side is the mean over games g of

    d_g = [side won game g at that level] - [side won game g at the base value]

with every other setting of the cell the same, and its 95% interval mean ± 1.96 sd / √n
(`simcore.stats.paired_interval`). Shared luck cancels in d_g, so the interval is narrower
than two independent runs would give. A character the override touches (a
``characters."NAME".*`` override) is compared the same way over the games it was dealt in
both cells.

The base value is the printed theme's value of the setting when it is one of the levels
(`simcore.studies.balance.printed_value`: 1 for leader_extra_life, 0 for extra_copies),
else the first level listed. Each level is compared with the base at every setting of the
other overrides (``others`` says which; "" when there are none).

With two or more overrides, each pair's interaction at two non-base levels f and g (every
other override at its base):

    i_g = y_g(f, g) - y_g(f, base) - y_g(base, g) + y_g(base, base)

its mean and paired interval: 0 when the two effects add up, the interval saying whether
they do within noise. Intervals are per comparison (no multiplicity correction);
`significant` means the 95% interval excludes 0.

    tables = override_effects(run, manifest)   # {} without overrides; else
    tables["effects"], tables["interactions"]  # polars frames, columns below
"""

from __future__ import annotations

import itertools
import json
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from reports.html import pp, pp_interval
from reports.names import Names
from simcore.engine.theme import load_theme
from simcore.runs.cells import SIDES, scan_seats
from simcore.runs.experiment import value_text
from simcore.stats import paired_interval
from simcore.studies.balance import printed_value

EFFECT_SCHEMA = {
    "theme": pl.String,
    "players": pl.Int64,
    "series": pl.String,  # the cell label without its overrides: classic/5p/smart
    "factor": pl.String,  # the override as written: cards."Missed!".extra_copies
    "level": pl.String,
    "base": pl.String,
    "others": pl.String,  # the other overrides' values in both cells ("" without others)
    "measure": pl.String,  # side or character
    "subject": pl.String,  # the side (leader, outlaw, renegade) or the character's name
    "games": pl.Int64,  # paired games
    "base_rate": pl.Float64,
    "rate": pl.Float64,
    "change": pl.Float64,
    "lower": pl.Float64,
    "upper": pl.Float64,
    "significant": pl.Boolean,
}
INTERACTION_SCHEMA = {
    "theme": pl.String,
    "players": pl.Int64,
    "series": pl.String,
    "factors": pl.String,  # "A × B"
    "levels": pl.String,  # "A=4, B=2"
    "measure": pl.String,
    "subject": pl.String,
    "games": pl.Int64,
    "interaction": pl.Float64,
    "lower": pl.Float64,
    "upper": pl.Float64,
    "significant": pl.Boolean,
}


def override_effects(run: Path, manifest: dict[str, Any] | None) -> dict[str, pl.DataFrame]:
    """{"effects": ..., "interactions": ...} for a run folder whose experiment varied
    overrides (interactions only with two or more); {} for any other run."""
    manifest = manifest or {}
    axes = (manifest.get("request") or {}).get("overrides") or {}
    configs = [c for c in manifest.get("configs", []) if c.get("overrides")]
    if not axes or not configs:
        return {}
    factors = list(axes)
    paths = {f: _path(f) for f in factors}
    groups: dict[tuple, dict[tuple, str]] = {}  # shared settings -> override values -> label
    themes: dict[tuple, str] = {}
    for c in configs:
        shared = (
            c.get("theme"),
            c.get("players"),
            c.get("strategy"),
            json.dumps(c.get("characters"), sort_keys=True),
            c.get("feature"),
        )
        values = tuple(_key(c["overrides"].get(f)) for f in factors)
        groups.setdefault(shared, {})[values] = c["label"]
        themes[shared] = c.get("theme")
    bases = {
        theme: {f: _base(theme, manifest, paths[f], axes[f]) for f in factors}
        for theme in set(themes.values())
    }
    touched = sorted({p[1] for p in paths.values() if p[0] == "characters" and len(p) == 3})
    labels = [label for cells in groups.values() for label in cells.values()]
    outcomes = _outcomes(run, labels, touched)
    effects, interactions = [], []
    for shared, cells in groups.items():
        base = tuple(_key(bases[themes[shared]][f]) for f in factors)
        some = next(iter(cells.values()))
        series = some.rsplit("/", len(factors))[0]
        for i, factor in enumerate(factors):
            subjects = _subjects(paths[factor])
            for values, label in cells.items():
                if values[i] == base[i]:
                    continue
                base_values = (*values[:i], base[i], *values[i + 1 :])
                if base_values not in cells:
                    continue
                others = ", ".join(
                    f"{factors[j]} = {value_text(json.loads(values[j]))}"
                    for j in range(len(factors))
                    if j != i
                )
                head = {
                    "theme": shared[0],
                    "players": shared[1],
                    "series": series,
                    "factor": factor,
                    "level": value_text(json.loads(values[i])),
                    "base": value_text(json.loads(base[i])),
                    "others": others,
                }
                terms = [(label, 1), (cells[base_values], -1)]
                effects += _measured(outcomes, subjects, terms, head)
        for i, j in itertools.combinations(range(len(factors)), 2):
            subjects = dict.fromkeys([*_subjects(paths[factors[i]]), *_subjects(paths[factors[j]])])
            for values in cells:
                if values[i] == base[i] or values[j] == base[j]:
                    continue
                if any(values[k] != base[k] for k in range(len(factors)) if k not in (i, j)):
                    continue
                corners = [
                    (values, 1),
                    (_with(values, i, base[i]), -1),
                    (_with(values, j, base[j]), -1),
                    (_with(_with(values, i, base[i]), j, base[j]), 1),
                ]
                if any(v not in cells for v, _ in corners):
                    continue
                terms = [(cells[v], w) for v, w in corners]
                head = {
                    "theme": shared[0],
                    "players": shared[1],
                    "series": series,
                    "factors": f"{factors[i]} × {factors[j]}",
                    "levels": f"{factors[i]} = {value_text(json.loads(values[i]))}, "
                    f"{factors[j]} = {value_text(json.loads(values[j]))}",
                }
                for row in _measured(outcomes, subjects, terms, head):
                    row["interaction"] = row["change"]
                    interactions.append({k: row[k] for k in INTERACTION_SCHEMA})
    tables = {"effects": pl.DataFrame(effects, schema=EFFECT_SCHEMA, orient="row")}
    if len(factors) > 1:
        tables["interactions"] = pl.DataFrame(interactions, schema=INTERACTION_SCHEMA, orient="row")
    return tables


def _path(key: str) -> tuple[str, ...]:
    """An override key as written (``cards."Missed!".extra_copies``) -> its path."""
    node: Any = tomllib.loads(f"{key} = 0")
    path = []
    while isinstance(node, dict):
        (name, node), *_ = node.items()
        path.append(name)
    return tuple(path)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _with(values: tuple, i: int, value: str) -> tuple:
    return (*values[:i], value, *values[i + 1 :])


def _base(theme_id: str, manifest: dict[str, Any], path: tuple[str, ...], levels: list) -> Any:
    """The printed theme's value when it is one of the levels, else the first level."""
    source = (manifest.get("theme_files") or {}).get(theme_id) or theme_id
    try:
        printed = printed_value(load_theme(source), path)
    except (ValueError, OSError):
        return levels[0]
    return printed if _key(printed) in {_key(v) for v in levels} else levels[0]


def _outcomes(run: Path, labels: list[str], characters: list[str]) -> dict[str, Any]:
    """Per cell, sorted by game: the game indices and, per side, whether it won; per touched
    character, the games it was dealt and whether it won them. One streaming pass each."""
    seats = scan_seats(run).filter(pl.col("config").is_in(labels))
    games = (
        seats.filter(pl.col("seat") == 0)
        .select("config", "game", "winner")
        .collect(engine="streaming")
        .sort("config", "game")
    )
    dealt = (
        seats.filter(pl.col("character").is_in(characters))
        .select("config", "game", "character", "won")
        .collect(engine="streaming")
        .sort("config", "character", "game")
    )
    out: dict[str, Any] = {"side": {}, "character": {}}
    for (config,), group in games.group_by("config"):
        winner = group["winner"].to_numpy()
        game = group["game"].to_numpy()
        out["side"][config] = {s: (game, (winner == s).astype(np.float64)) for s in SIDES}
    for (config, character), group in dealt.group_by("config", "character"):
        out["character"].setdefault(config, {})[character] = (
            group["game"].to_numpy(),
            group["won"].to_numpy().astype(np.float64),
        )
    return out


def _subjects(path: tuple[str, ...]) -> list[tuple[str, str]]:
    """What an override is measured on: every side, and the character it touches."""
    subjects = [("side", s) for s in SIDES]
    if path[0] == "characters" and len(path) == 3:
        subjects.append(("character", path[1]))
    return subjects


def _measured(
    outcomes: dict[str, Any],
    subjects: list[tuple[str, str]],
    terms: list[tuple[str, int]],
    head: dict[str, Any],
) -> list[dict[str, Any]]:
    """`head` plus the contrast of `terms` (`_contrast`) on each subject that pairs."""
    rows = []
    for measure, subject in subjects:
        row = _contrast(outcomes, measure, subject, terms)
        if row is not None:
            rows.append({**head, "measure": measure, "subject": subject, **row})
    return rows


def _contrast(
    outcomes: dict[str, Any], measure: str, subject: str, terms: list[tuple[str, int]]
) -> dict[str, Any] | None:
    """Σ weight × outcome per game over the games every term's cell played (for a
    character: was dealt it), with its paired interval; None when no game pairs (a side
    absent at the table counts as never winning)."""
    arrays = [outcomes[measure].get(label, {}).get(subject) for label, _ in terms]
    if any(a is None for a in arrays):
        return None
    common = arrays[0][0]
    for games, _ in arrays[1:]:
        common = np.intersect1d(common, games, assume_unique=True)
    if len(common) == 0:
        return None
    ys = [y[np.searchsorted(games, common)] for games, y in arrays]
    d = sum(w * y for (_, w), y in zip(terms, ys, strict=True))
    mean, _, half = paired_interval(d)
    return {
        "games": len(common),
        "base_rate": float(ys[1].mean()),
        "rate": float(ys[0].mean()),
        "change": mean,
        "lower": mean - half,
        "upper": mean + half,
        "significant": bool(mean - half > 0 or mean + half < 0),
    }


def subject_name(measure: str, subject: str, theme: str, names: Names) -> str:
    """A side in the theme's words (Sheriff + Deputies); a character as named."""
    return names.side(subject, theme) if measure == "side" else subject


def effect_lines(tables: dict[str, pl.DataFrame], names: Names) -> list[str]:
    """One line per override level (and other overrides' setting): what it does to each
    side and touched character, in points with the paired 95% interval, * where it
    excludes 0; then one line per interaction."""
    lines = []
    effects = tables.get("effects")
    if effects is None:
        return lines
    keys = ["series", "factor", "level", "base", "others"]
    for (series, factor, level, base, others), group in effects.group_by(keys, maintain_order=True):
        parts = [
            f"{subject_name(r['measure'], r['subject'], r['theme'], names)} "
            f"{pp(r['change'])} {pp_interval(r['lower'], r['upper'])}"
            + (" *" if r["significant"] else "")
            for r in group.iter_rows(named=True)
        ]
        at = f" ({others})" if others else ""
        lines.append(
            f"{series}: {factor} {base} → {level}{at}, {group['games'][0]:,} paired games: "
            + "; ".join(parts)
        )
    interactions = tables.get("interactions")
    if interactions is None:
        return lines
    for (series, factors, levels), group in interactions.group_by(
        ["series", "factors", "levels"], maintain_order=True
    ):
        parts = [
            f"{subject_name(r['measure'], r['subject'], r['theme'], names)} "
            f"{pp(r['interaction'])} {pp_interval(r['lower'], r['upper'])}"
            + (" *" if r["significant"] else "")
            for r in group.iter_rows(named=True)
        ]
        lines.append(f"{series}: interaction {factors} at {levels}: " + "; ".join(parts))
    return lines
