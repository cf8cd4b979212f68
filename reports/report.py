"""A run folder's report: its tables (collected once), charts, the HTML page, CSV/JSON files.

    render_report(run)            -> run/report/index.html (+ the PNGs beside it)
    export_report(run, "csv", d)  -> d/<table>.csv for every table of the report
    summary_lines(report)         -> the balance summary, one line per configuration

Bad input (no such folder, no seat rows, a damaged chunk, a manifest this version cannot
read) raises ReportError with a one-line message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from reports import charts
from reports.aggregate import balance_summary, collect_tables, report_tables
from reports.effects import override_effects
from reports.events import collect_event_cells, event_tables, event_views
from reports.examples import example_games
from reports.grid import SIDE_HEADINGS, even_text, legend, side_grid
from reports.html import Chart, chart, pct, pp, write_files, write_page
from reports.levels import strategy_levels
from reports.names import Names, load_names
from reports.verdict import Targets, reference_text, verdict_lines, with_targets
from simcore.engine.request import safe_name
from simcore.errors import UserError, one_line
from simcore.runs.cells import SIDES, collect_cells, scan_seats
from simcore.runs.precision import ABOVE, precision_lines
from simcore.runs.runfolder import (
    MANIFEST,
    SEATS,
    RunFolderError,
    check_chunk_files,
    check_version,
    read_manifest,
)
from simcore.studies.abilities import read_abilities

REPORT_DIR = "report"
FORMATS = ("html", "csv", "json")
HOLM = (
    "Holm step-down correction at a family-wise 5% level: within one configuration, the "
    "characters compared in one role (heatmap, per-role tables) or all its characters "
    "(strength chart and table)"
)


class ReportError(UserError):
    """The report cannot be made (no such run folder, no seat rows, a damaged chunk, bad
    format); one line."""


@dataclass(frozen=True)
class RunReport:
    """Everything a report shows: the run's tables, manifest and display names."""

    run: Path
    manifest: dict[str, Any] | None
    tables: dict[str, pl.DataFrame]
    names: Names
    targets: Targets | None = None  # the designer's side targets (--targets), else even

    @property
    def configs(self) -> list[str]:
        """Configuration labels in report order (by player count, then label)."""
        return self.tables["summary"]["config"].to_list()


def check_run(run: Path) -> Path:
    """`run` if it is a run folder with seat rows; ReportError otherwise.

    Every chunk file's footer is read (a millisecond each): a truncated, empty or foreign
    file is named instead of being skipped or failing deep inside the aggregation. A run of
    another rules version reads fine (its rows are what that version played, and the page
    says which); a manifest of another format is refused."""
    run = Path(run)
    if not run.is_dir():
        raise ReportError(f"{run}: no such run folder")
    if not any((run / SEATS).glob("*.parquet")):
        raise ReportError(
            f"{run}: no seat rows ({SEATS}/*.parquet); play games first with `bangsim run`"
        )
    try:
        manifest = read_manifest(run)
        if manifest is not None:
            check_version(run, manifest, resume=False)
        check_chunk_files(run, manifest, listed_only=False, hint=DAMAGED_HINT)
    except RunFolderError as e:
        raise ReportError(str(e)) from None
    return run


DAMAGED_HINT = (
    "delete it, rerun the command that played the run (it plays that chunk again), "
    "then report again"
)


def load_report(run: Path, targets: Targets | None = None) -> RunReport:
    """Aggregate the run folder's seat rows (one collect) and load its names and manifest;
    `targets` (reports.verdict.parse_targets) replace the even share as the sides'
    reference. An experiment with overrides adds the `effects` (and `interactions`) tables
    of reports.effects."""
    run = check_run(run)
    try:
        manifest = read_manifest(run)
    except ValueError as e:
        raise ReportError(str(e)) from None
    try:
        cells = collect_cells(scan_seats(run))
        tables = collect_tables(report_tables(cells))
        # card usage, draw! checks, game events (reports.events): from events/*.parquet
        tables.update(event_tables(collect_event_cells(run), cells.seats, cells.games))
    except pl.exceptions.PolarsError as e:  # damage inside a file whose footer reads fine
        text = " ".join(str(e).split())[:160]
        raise ReportError(
            f"{run}: cannot read the seat or event rows ({text}); a chunk file is damaged: "
            f"{DAMAGED_HINT}"
        ) from None
    try:  # written beside the seat rows by `bangsim abilities --out RUN`
        abilities = read_abilities(run)
    except ValueError as e:
        raise ReportError(str(e)) from None
    if abilities is not None:
        tables["abilities"] = abilities
    if targets is not None:  # the sides, and the summary's gaps, against the targets
        tables["sides"] = with_targets(tables["sides"], targets)
        tables["summary"] = balance_summary(
            tables["sides"].lazy(), tables["characters"].lazy(), tables["game_lengths"].lazy()
        ).collect()
    try:
        tables.update(override_effects(run, manifest))
    except pl.exceptions.PolarsError as e:
        raise ReportError(
            f"{run}: cannot pair the experiment's games ({one_line(str(e))[:160]})"
        ) from None
    themes = tables["summary"]["theme"].unique(maintain_order=True).to_list()
    names = load_names(themes, (manifest or {}).get("theme_files"))
    return RunReport(run, manifest, tables, names, targets)


def render_report(run: Path, out: Path | None = None) -> Path:
    """Write the run's HTML report to `out` (default run/report/); return index.html's path."""
    return write_report(load_report(run), out)


def write_report(report: RunReport, out: Path | None = None) -> Path:
    """Write a loaded report's HTML page and PNGs to `out` (default run/report/)."""
    out = Path(out) if out is not None else report.run / REPORT_DIR
    return write_page(
        out,
        "report.html",
        report_charts(report),
        title=f"{report.run.resolve().name}: balance report",
        report=report,
        t=report.tables,
        names=report.names,
        metadata=run_metadata(report),
        warnings=run_warnings(report),
        summary=summary_lines(report),
        verdict=report_verdict(report),
        targets=report.targets,
        effects=effect_sections(report),
        several_series=len(_series(report)) > 1,
        holm=HOLM,
        sides=SIDES,
        rows={
            name: rows_by_config(report.tables[name]) for name in ("characters", "character_roles")
        },
        safe_name=safe_name,
        featured=rows_by_config(report.tables["featured"]),
        abilities=ability_groups(report),
        examples=example_games(
            report.run, report.configs, report.names
        ),  # a few games replayed as traces
        levels=strategy_levels(
            (report.manifest or {}).get("configs", []),
            report.tables["sides"],
            report.tables["characters"],
        ),
        **glance(report),
        cards=event_views(report.tables, report.names),
    )


def glance(report: RunReport) -> dict[str, Any]:
    """The page's opening grid (reports.grid): side win rates, series x player counts."""
    grid = side_grid(report.tables["sides"])
    return {
        "grid": grid,
        "grid_legend": legend(grid, report.names),
        "grid_even": even_text(grid),
        "side_headings": SIDE_HEADINGS,
        "several_themes": len(grid.themes) > 1,
    }


def report_verdict(report: RunReport) -> list[str]:
    """The verdict in words, one line per configuration (reports.verdict)."""
    configs = (report.manifest or {}).get("configs", [])
    return verdict_lines(configs, report.tables["sides"], report.names, report.targets)


def effect_sections(report: RunReport) -> dict[str, list[dict[str, Any]]] | None:
    """The effects of an experiment's overrides (reports.effects) as the page shows them:
    "tables", per series and override, its rows grouped by level and the other overrides'
    setting; "interactions", their rows; None for a run without overrides."""
    effects = report.tables.get("effects")
    if effects is None:
        return None
    sections = []
    for (series, factor, theme), group in effects.group_by(
        "series", "factor", "theme", maintain_order=True
    ):
        subjects = group.select("measure", "subject").unique(maintain_order=True).rows()
        rows = [
            {"level": level, "base": base, "others": others, "games": g["games"][0],
             "cells": {(r["measure"], r["subject"]): r for r in g.iter_rows(named=True)}}
            for (level, base, others), g in group.group_by("level", "base", "others",
                                                          maintain_order=True)
        ]  # fmt: skip
        sections.append(
            {"series": series, "factor": factor, "subjects": [
                (m, s, report.names.side(s, theme) if m == "side" else s) for m, s in subjects
            ], "rows": rows}
        )  # fmt: skip
    interactions = report.tables.get("interactions")
    return {
        "tables": sections,
        "interactions": [] if interactions is None else interactions.to_dicts(),
    }


def rows_by_config(frame: pl.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """A table's rows grouped by configuration, order kept."""
    return {
        config: group.to_dicts()
        for (config,), group in frame.group_by("config", maintain_order=True)
    }


def export_report(run: Path, fmt: str, out: Path | None = None) -> list[Path]:
    """Every table of the report as out/<table>.csv or .json (default out: run/report/)."""
    check_format(fmt)
    report = load_report(run)
    return export_tables(report.tables, fmt, out if out is not None else report.run / REPORT_DIR)


def check_format(fmt: str) -> str:
    """`fmt` if it is a report format (html, csv, json); ReportError otherwise."""
    if fmt not in FORMATS:
        raise ReportError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    return fmt


def export_tables(tables: dict[str, pl.DataFrame], fmt: str, out: Path) -> list[Path]:
    """Write each table atomically as CSV or JSON (a list of row objects; NaN as null)."""
    files: dict[Path, bytes] = {}
    check_format(fmt)
    if fmt == "html":
        raise ReportError("export_tables writes csv or json; use write_report for html")
    for name, frame in tables.items():
        path = Path(out) / f"{name}.{fmt}"
        if fmt == "csv":
            data = frame.write_csv().encode("utf-8")
        else:
            rows = frame.with_columns(pl.selectors.float().fill_nan(None)).to_dicts()
            data = (json.dumps(rows, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
        files[path] = data
    return write_files(files)


def report_charts(report: RunReport) -> list[Chart]:
    """Every chart of the HTML report, in page order."""
    t, names = report.tables, report.names
    figures = [
        chart(
            "sides", "Win rate by side and player count", charts.side_rates_chart(t["sides"], names)
        ),
        chart(
            "roles", "Win rate by role and player count", charts.role_rates_chart(t["roles"], names)
        ),
    ]
    if len(_series(report)) > 1:
        figures.append(
            chart(
                "compare-sides",
                "Side win rates compared across configurations",
                charts.series_bars_chart(t["sides"], names),
            )
        )
    for config in report.configs:
        key = safe_name(config)
        figures.append(
            chart(
                f"strength-{key}",
                f"{config}: character strength",
                charts.effect_forest(t["characters"], config),
            )
        )
        figures.append(
            chart(
                f"heatmap-{key}",
                f"{config}: character effect within each role",
                charts.effect_heatmap(t["character_roles"], t["characters"], names, config),
            )
        )
    for key, group in ability_groups(report).items():
        figures.append(
            chart(
                f"abilities-{safe_name(key)}", f"{key}: ability values", ability_chart(group, key)
            )
        )
    figures.append(
        chart("seats", "Win rate by seat and role", charts.seat_chart(t["seats"], names))
    )
    figures.append(
        chart(
            "length",
            "Game length distribution",
            charts.length_chart(t["turn_histogram"], t["game_lengths"]),
        )
    )
    return figures


def ability_groups(report: RunReport) -> dict[str, pl.DataFrame]:
    """The run folder's ability values (`bangsim abilities --out RUN`), one table per
    measurement setup, keyed "theme/Np/strategy[/role]"; empty when there are none."""
    table = report.tables.get("abilities")
    if table is None:
        return {}
    groups = {}
    for (theme, players, strategy, role), group in table.group_by(
        "theme", "players", "strategy", "role", maintain_order=True
    ):
        key = f"{theme}/{players}p/{strategy}" + ("" if role == "any" else f"/{role}")
        groups[key] = group.sort("value", descending=True)
    return groups


def ability_chart(group: pl.DataFrame, key: str):
    """Each character's ability value with its paired 95% interval (red: below zero)."""
    frame = group.select(
        "character",
        pl.col("value").alias("effect"),
        pl.col("value_lower").alias("effect_lower"),
        pl.col("value_upper").alias("effect_upper"),
        ((pl.col("value_lower") > 0) | (pl.col("value_upper") < 0)).alias("significant"),
    )
    return charts.forest(
        frame,
        "character",
        f"{key}: ability value (blue/red: interval excludes 0)",
        "win rate with the ability minus without, same deals (percentage points)",
    )


def featured_lines(table: pl.DataFrame, names: Names) -> list[str]:
    """One line per configuration with a featured character (the `featured` table): its win
    rate in each role against the role's rate in the other games, with the difference's
    95% interval (* where Holm-significant)."""
    lines = []
    for (config,), group in table.group_by("config", maintain_order=True):
        parts = []
        character = group["character"][0]
        if group.height == 1 and not group["other_games"][0]:
            r = group.row(0, named=True)
            lines.append(
                f"{config}: featured {character}, always {names.role(r['role'], r['theme'])}: "
                f"{pct(r['rate'])} [{pct(r['lower'])}, {pct(r['upper'])}] (its role was fixed: "
                "compare with a run without the feature)."
            )
            continue
        for r in group.iter_rows(named=True):
            role = names.role(r["role"], r["theme"])
            if r["other_games"]:
                mark = " *" if r["significant"] else ""
                parts.append(
                    f"{role} {pct(r['rate'])} vs {pct(r['other_rate'])} "
                    f"({pp(r['difference'])} [{pp(r['diff_lower'])}, {pp(r['diff_upper'])}]{mark})"
                )
            else:
                parts.append(f"{role} {pct(r['rate'])} [{pct(r['lower'])}, {pct(r['upper'])}]")
        lines.append(
            f"{config}: featured {character} vs the rest of its role: " + "; ".join(parts) + "."
        )
    return lines


def _series(report: RunReport) -> list[str]:
    return charts.with_series(report.tables["summary"])["series"].unique().to_list()


def summary_lines(report: RunReport) -> list[str]:
    """One sentence per configuration: the side furthest from an even share, the other
    sides, the strongest and weakest characters, and the spread of character effects."""
    sides, names = report.tables["sides"], report.names
    lines = []
    for row in report.tables["summary"].iter_rows(named=True):
        config, theme = row["config"], row["theme"]
        rows = sides.filter(pl.col("config") == config).sort("vs_even", descending=True)
        even = rows["even_share"][0]
        share = "an even third" if abs(even - 1 / 3) < 1e-9 else f"an even share ({pct(even)})"
        if report.targets is not None:
            share = reference_text(rows["even_share"].to_list(), report.targets)
        parts = "; ".join(
            f"{names.side(s['side'], theme)} {pct(s['rate'])} ({pp(s['vs_even'])})"
            for s in rows.iter_rows(named=True)
        )
        capped = f", {pct(row['capped_share'])} capped" if row["capped_share"] else ""
        text = f"{config}: {row['games']:,} games{capped}. Side win rates vs {share}: {parts}."
        if row["strongest"] is not None:
            text += (
                f" Strongest character {row['strongest']} {pp(row['strongest_effect'])} "
                f"({_flag(row['strongest_significant'])}), weakest {row['weakest']} "
                f"{pp(row['weakest_effect'])} ({_flag(row['weakest_significant'])}); effects "
                f"spread {100 * (row['effect_sd'] or 0):.1f} pp (noise alone "
                f"{100 * row['noise_sd']:.1f} pp), {row['significant']} of "
                f"{row['characters']} characters significant."
            )
        lines.append(text)
    return lines


def _flag(significant: bool) -> str:
    return "significant" if significant else "within noise"


def run_metadata(report: RunReport) -> list[tuple[str, str]]:
    """(label, value) rows for the page header, from the manifest and the tables."""
    m = report.manifest or {}
    request = m.get("request", {})
    names = report.names
    lengths = report.tables["game_lengths"]
    themes = ", ".join(
        f"{names.titles.get(t, t)} ({t})" for t in lengths["theme"].unique(maintain_order=True)
    )
    rows = [
        ("Run folder", str(report.run.resolve())),
        ("Themes", themes),
        ("Players", ", ".join(str(p) for p in lengths["players"].unique().sort())),
        ("Configurations", str(lengths.height)),
        (
            "Games",
            f"{lengths['games'].sum():,} ("
            + ", ".join(f"{g:,}" for g in lengths["games"].unique().sort())
            + " per configuration)",
        ),
    ]
    known = {
        "seed": "Seed",
        "strategies": "Strategies",
        "characters": "Character pool",
        "chunk_size": "Chunk size",
        "checked": "Checked mode",
        "rules_version": "Rules version",
    }
    for key, label in known.items():
        if key in request:
            value = request[key]
            if key == "characters" and value is None:
                value = "every character of the theme"
            rows.append((label, _text(value)))
    if isinstance(m.get("precision"), dict):  # an adaptive run (docs/precision.md)
        rows.append(("Precision", precision_lines(m)[0]))
    skip = {"themes", "theme_digests", "players", "games", "precision", *known}
    rows += [(key, _text(value)) for key, value in request.items() if key not in skip]
    if m.get("versions"):
        rows.append(("Versions", ", ".join(f"{k} {v}" for k, v in m["versions"].items())))
    for key, label in (("created", "Started"), ("finished", "Finished")):
        if m.get(key):
            rows.append((label, m[key]))
    if "run_seconds" in m:
        rows.append(("Run time", f"{m['run_seconds']:,.1f} s of play"))
    if not report.manifest:
        rows.append(("Manifest", f"none ({MANIFEST} missing): settings unknown"))
    return rows


def run_warnings(report: RunReport) -> list[str]:
    """Things a reader must know before trusting the numbers."""
    warnings = []
    m = report.manifest
    if m is not None and not m.get("complete", False):
        done = len(m.get("chunks_done", []))
        planned = sum(c.get("chunks", 0) for c in m.get("configs", [])) or "?"
        warnings.append(
            f"The run is incomplete ({done} of {planned} chunks): these are the games played so far."
        )
    precision = (m or {}).get("precision")
    if isinstance(precision, dict) and precision.get("finished") and not precision["reached"]:
        head, *configs = precision_lines(m)
        above = [c.strip() for c in configs if c.endswith(ABOVE)]
        warnings.append(f"{head[0].upper()}{head[1:]}: {'; '.join(above)}.")
    for row in report.tables["game_lengths"].iter_rows(named=True):
        if row["capped"]:
            warnings.append(
                f"{row['config']}: {row['capped']:,} games ({pct(row['capped_share'], 2)}) hit "
                "the turn cap and count as won by no side."
            )
    return warnings


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_text(v)}" for k, v in value.items())
    return str(value)
