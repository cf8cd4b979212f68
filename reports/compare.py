"""Compare run folders: each run against the first (the baseline), per side, role and character.

    render_comparison([run_a, run_b, ...], out) -> out/index.html (+ PNGs beside it)

Configurations are paired by label when every run has the same labels (the same study,
another seed, deck or bot), else by player count (classic against star_wars at 5 players)
when no run has two configurations at one player count; anything else is refused.

Differences are run minus baseline, in percentage points:
- sides and roles: the win rate difference, with Newcombe's hybrid Wilson interval and the
  pooled two-proportion z test;
- characters: the difference of their role-adjusted effects (`simcore.runs.cells.effects_overall`),
  so a change that moves every character of a role alike does not show as a character
  change; the interval is Newcombe's for the rates minus the change in expected rate, the
  test the two-proportion test of that shifted difference.
Flags are Holm-adjusted within one run and one configuration pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from reports import charts
from reports.aggregate import collect_tables, role_win_rates
from reports.html import Chart, chart, pp, write_page
from reports.names import Names, load_names
from reports.report import ReportError, check_run
from simcore.engine import vocab
from simcore.engine.request import split_label
from simcore.engine.theme import load_theme
from simcore.engine.themediff import diff_text
from simcore.runs.cells import SIDES, collect_cells, effects_overall, scan_seats, side_win_rates
from simcore.runs.runfolder import read_manifest
from simcore.stats import ALPHA, newcombe_exprs, two_proportion_p_expr, wilson_exprs, with_holm
from strategies.presets import values_source

DIFF_COLUMNS = (
    "games_base",
    "wins_base",
    "rate_base",
    "effect_base",
    "games_run",
    "wins_run",
    "rate_run",
    "effect_run",
    "diff",
    "diff_lower",
    "diff_upper",
    "p_value",
    "p_adjusted",
    "significant",
)


@dataclass(frozen=True)
class Comparison:
    """Runs compared (labels[0] is the baseline), how configurations pair, the tables."""

    runs: list[Path]
    labels: list[str]
    pairing: str  # "config" or "players"
    tables: dict[str, pl.DataFrame]
    names: Names
    manifests: list[dict[str, Any] | None]


def run_labels(runs: list[Path]) -> list[str]:
    """Short unique names for runs: folder names, or the paths as given where those clash."""
    names = [Path(r).resolve().name for r in runs]
    if len(set(names)) == len(names):
        return names
    paths = [str(r) for r in runs]
    if len(set(paths)) < len(paths):
        raise ReportError("the same run folder is given twice")
    return paths


def run_configs(run: Path, manifest: dict[str, Any] | None) -> pl.DataFrame:
    """(config, players) of a run: from its manifest, else from its seat rows."""
    if manifest and manifest.get("configs"):
        return pl.DataFrame(
            [(c["label"], c["players"]) for c in manifest["configs"]],
            schema={"config": pl.String, "players": pl.Int64},
            orient="row",
        )
    return (
        scan_seats(run)
        .select("config", pl.col("players").cast(pl.Int64))
        .unique()
        .collect(engine="streaming")
    )


def pairing(configs: list[pl.DataFrame], labels: list[str]) -> str:
    """How to pair configurations: by "config" label when all runs have the same labels, by
    "players" when each player count has one configuration per run; else ReportError."""
    sets = [set(c["config"]) for c in configs]
    if all(s == sets[0] for s in sets):
        return "config"
    for frame, label in zip(configs, labels, strict=True):
        if frame["players"].n_unique() < frame.height:
            raise ReportError(
                f"cannot pair configurations: the runs have different configuration labels "
                f"and {label} has several at one player count"
            )
    common = set.intersection(*(set(c["players"]) for c in configs))
    if not common:
        raise ReportError("cannot pair configurations: the runs share no player count")
    return "players"


def _match(how: str) -> pl.Expr:
    if how == "config":
        return pl.col("config").alias("match")
    return (pl.col("players").cast(pl.String) + " players").alias("match")


def _run_tables(run: Path, how: str) -> dict[str, pl.LazyFrame]:
    """Per run, with a `match` key: sides and roles (expected 0) and role-adjusted characters."""
    cells = collect_cells(scan_seats(run))  # the one pass over this run's seat rows
    rates = ["games", "wins", pl.lit(0.0).alias("expected")]
    chars = effects_overall(cells, "character").with_columns(pl.col("baseline").alias("expected"))
    keep = [_match(how), "config", "theme", "players"]
    return {
        "sides": side_win_rates(cells).select(*keep, "side", *rates),
        "roles": role_win_rates(cells).select(*keep, "role", *rates),
        "characters": chars.select(*keep, "character", "games", "wins", "expected"),
    }


def differences(base: pl.LazyFrame, run: pl.LazyFrame, on: list[str]) -> pl.LazyFrame:
    """Join two runs' (games, wins, expected) on `on` and test run minus base (see module)."""
    joined = base.join(run, on=on, how="inner", suffix="_run").rename(
        {
            "games": "games_base",
            "wins": "wins_base",
            "expected": "expected_base",
            "config": "config_base",
            "theme": "theme_base",
            "players": "players_base",
        }
    )
    lower, upper = newcombe_exprs("wins_run", "games_run", "wins_base", "games_base")
    shift = pl.col("expected_run") - pl.col("expected_base")
    return joined.with_columns(
        (pl.col("wins_base") / pl.col("games_base")).alias("rate_base"),
        (pl.col("wins_run") / pl.col("games_run")).alias("rate_run"),
    ).with_columns(
        (pl.col("rate_base") - pl.col("expected_base")).alias("effect_base"),
        (pl.col("rate_run") - pl.col("expected_run")).alias("effect_run"),
        (pl.col("rate_run") - pl.col("rate_base") - shift).alias("diff"),
        (lower - shift).alias("diff_lower"),
        (upper - shift).alias("diff_upper"),
        two_proportion_p_expr("wins_run", "games_run", "wins_base", "games_base", shift).alias(
            "p_value"
        ),
    )


def compare_tables(runs: list[Path], labels: list[str], how: str) -> dict[str, pl.LazyFrame]:
    """Lazy difference tables, every run against runs[0]; columns: run, match, config_base,
    config_run, theme_base, theme_run, <side|role|character>, then DIFF_COLUMNS."""
    per_run = [_run_tables(run, how) for run in runs]
    out = {}
    for name, key in (("sides", "side"), ("roles", "role"), ("characters", "character")):
        parts = [
            differences(per_run[0][name], tables[name], ["match", key]).with_columns(
                pl.lit(label).alias("run"), pl.lit(i).alias("_run")
            )
            for i, (label, tables) in enumerate(zip(labels[1:], per_run[1:], strict=True))
        ]
        frame = with_holm(pl.concat(parts), "p_value", ["run", "match"]).with_columns(
            (pl.col("p_adjusted") < ALPHA).alias("significant")
        )
        order = {"side": SIDES, "role": vocab.ROLES}.get(key)
        ranks = [pl.col(key).replace_strict({v: i for i, v in enumerate(order)})] if order else []
        frame = frame.sort(
            "_run",  # runs in the order given
            "players_base",
            "match",
            *ranks,
            pl.col("diff").abs(),
            descending=[False, False, False, *[False] * len(ranks), True],
        )
        out[name] = frame.select(
            "run",
            "match",
            "config_base",
            "config_run",
            "theme_base",
            "theme_run",
            key,
            *DIFF_COLUMNS,
        )
    return out


def load_comparison(runs: list[Path]) -> Comparison:
    """Check the runs, pair their configurations and collect the difference tables."""
    if len(runs) < 2:
        raise ReportError("compare needs at least two run folders")
    runs = [check_run(Path(r)) for r in runs]
    labels = run_labels(runs)
    try:
        manifests = [read_manifest(r) for r in runs]
    except ValueError as e:
        raise ReportError(str(e)) from None
    how = pairing([run_configs(r, m) for r, m in zip(runs, manifests, strict=True)], labels)
    tables = collect_tables(compare_tables(runs, labels, how))
    themes = sorted(set(tables["sides"]["theme_base"]) | set(tables["sides"]["theme_run"]))
    files: dict[str, str] = {}
    for m in manifests:
        files.update((m or {}).get("theme_files", {}))
    return Comparison(runs, labels, how, tables, load_names(themes, files), manifests)


def comparison_charts(c: Comparison) -> list[Chart]:
    """Side win rates side by side per run, and the character effect changes."""
    sides = c.tables["sides"]
    bars = ["match", "side", "bar", "games", "wins"]
    base = sides.unique(["run", "match", "side"], maintain_order=True).filter(
        pl.col("run") == c.labels[1]
    )  # the baseline's rows, once
    lower, upper = wilson_exprs("wins", "games")
    long = pl.concat(
        [
            base.select(
                pl.lit(c.labels[0]).alias("bar"),
                "match",
                "side",
                pl.col("games_base").alias("games"),
                pl.col("wins_base").alias("wins"),
            ),
            sides.select(
                pl.col("run").alias("bar"),
                "match",
                "side",
                pl.col("games_run").alias("games"),
                pl.col("wins_run").alias("wins"),
            ),
        ]
    ).select(
        *bars,
        (pl.col("wins") / pl.col("games")).alias("rate"),
        lower.alias("lower"),
        upper.alias("upper"),
    )
    figures = [
        chart(
            "sides",
            "Side win rates per run",
            charts.grouped_bars(
                long,
                "match",
                "side",
                SIDES,
                c.names.side,
                "Side win rates per run (95% intervals)",
                bar="bar",
            ),
        ),
    ]
    diffs = c.tables["characters"].select(
        (pl.col("run") + " vs " + pl.lit(c.labels[0]) + ": " + pl.col("match")).alias("panel"),
        "character",
        pl.col("diff").alias("effect"),
        pl.col("diff_lower").alias("effect_lower"),
        pl.col("diff_upper").alias("effect_upper"),
        "significant",
    )
    if diffs.height:
        figures.append(
            chart(
                "characters",
                "Change in character effects",
                charts.difference_chart(
                    diffs,
                    "character",
                    "Change in character effect, run minus baseline (95% intervals)",
                ),
            )
        )
    return figures


def comparison_lines(c: Comparison) -> list[str]:
    """One line per run and configuration pair: the largest side change, flagged characters."""
    lines = []
    sides, chars = c.tables["sides"], c.tables["characters"]
    for (run, match), group in sides.group_by("run", "match", maintain_order=True):
        top = group.sort(pl.col("diff").abs(), descending=True).row(0, named=True)
        flagged = chars.filter(
            (pl.col("run") == run) & (pl.col("match") == match) & pl.col("significant")
        )
        changed = ", ".join(
            f"{r['character']} {pp(r['diff'])}" for r in flagged.head(5).iter_rows(named=True)
        )
        lines.append(
            f"{run} vs {c.labels[0]}, {match}: largest side change "
            f"{c.names.side(top['side'], top['theme_run'])} {pp(top['diff'])} "
            f"({'significant' if top['significant'] else 'within noise'}); "
            f"{flagged.height} character effect{'' if flagged.height == 1 else 's'} "
            "changed significantly"
            + (f" ({changed}{', ...' if flagged.height > 5 else ''})." if changed else ".")
        )
    return lines


def theme_differences(c: Comparison) -> list[str]:
    """What differs between each run's themes and the baseline's when their content does
    (manifest digests), in `bangsim themes diff` lines; [] when every run plays the same
    themes. Single-theme runs pair their themes whatever the ids; otherwise by id."""
    base = _themes_of(c.manifests[0])
    lines = []
    for label, manifest in zip(c.labels[1:], c.manifests[1:], strict=True):
        other = _themes_of(manifest)
        pairs = (
            [(next(iter(base)), next(iter(other)))]
            if len(base) == 1 and len(other) == 1
            else [(t, t) for t in base if t in other]
        )
        for a, b in pairs:
            (da, fa), (db, fb) = base[a], other[b]
            if da is not None and da == db:
                continue
            try:
                text = diff_text(load_theme(fa or a), load_theme(fb or b), fa or a, fb or b)
            except (ValueError, OSError) as e:
                text = f"{a} → {b}: cannot list the differences ({e})"
            lines.append(f"{label} vs {c.labels[0]}, themes: {text}")
    return lines


def values_lines(c: Comparison) -> list[str]:
    """A line per run and configuration pair whose `tuned` seats played different strategy
    values than the baseline's (strategies.presets.values_source, recorded in each
    manifest's configurations): a difference that mixes a rule change with a bot change."""
    played = [_values_of(m) for m in c.manifests]
    pairs = (
        c.tables["sides"]
        .select("run", "match", "config_base", "config_run")
        .unique(maintain_order=True)
    )
    lines = []
    for row in pairs.iter_rows(named=True):
        base = played[0].get(row["config_base"])
        other = played[c.labels.index(row["run"])].get(row["config_run"])
        if base != other:
            lines.append(
                f"{row['run']} vs {c.labels[0]}, {row['match']}: the bots differ: "
                f"{c.labels[0]} played {_values_text(base)}, {row['run']} {_values_text(other)}, "
                "so the difference mixes the rules with the bots"
            )
    return lines


def _values_text(source: str | None) -> str:
    return f"{source}'s tuned values" if source else "no per-theme values"


def _values_of(manifest: dict[str, Any] | None) -> dict[str, str | None]:
    """config label -> the theme whose shipped values its seats played; for a manifest that
    does not record it (written before it did), read again from its theme and strategy."""
    files = (manifest or {}).get("theme_files") or {}
    out = {}
    for config in (manifest or {}).get("configs", []):
        if "played" in config:
            out[config["label"]] = config["played"]["values"]
            continue
        parts = split_label(config["label"])
        try:
            theme = load_theme(files.get(parts.theme) or parts.theme).plays_as
            out[config["label"]] = values_source(parts.strategy, theme)
        except (ValueError, OSError):
            continue  # its theme file is gone: nothing to say
    return out


def _themes_of(manifest: dict[str, Any] | None) -> dict[str, tuple[str | None, str | None]]:
    """theme id -> (digest, file) from a run's manifest."""
    m = manifest or {}
    request = m.get("request") or {}
    digests = request.get("theme_digests") or {}
    files = m.get("theme_files") or {}
    return {t: (digests.get(t), files.get(t)) for t in request.get("themes", [])}


def render_comparison(runs: list[Path], out: Path) -> Path:
    """Write the comparison report to out/index.html; return its path."""
    return write_comparison(load_comparison(runs), out)


def write_comparison(c: Comparison, out: Path) -> Path:
    """Write a loaded comparison's HTML page and PNGs to `out`."""
    return write_page(
        Path(out),
        "compare.html",
        comparison_charts(c),
        title=f"{' vs '.join(c.labels[1:])} against {c.labels[0]}",
        c=c,
        t=c.tables,
        names=c.names,
        summary=comparison_lines(c),
        theme_diffs=theme_differences(c),
        bot_diffs=values_lines(c),
        runs=[
            _run_row(r, label, m) for r, label, m in zip(c.runs, c.labels, c.manifests, strict=True)
        ],
    )


def _run_row(run: Path, label: str, manifest: dict[str, Any] | None) -> dict[str, str]:
    request = (manifest or {}).get("request", {})
    versions = (manifest or {}).get("versions", {})

    def text(key: str) -> str:
        value = request.get(key, "–")
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

    return {
        "label": label,
        "path": str(run.resolve()),
        "themes": text("themes"),
        "players": text("players"),
        "games": text("games"),
        "seed": text("seed"),
        "strategies": text("strategies"),
        "versions": ", ".join(f"{k} {v}" for k, v in versions.items()) or "–",
    }
