"""A run folder's report: its tables (collected once), charts, the HTML pages, CSV/JSON files.

    render_report(run)            -> run/report/index.html, a page per configuration
                                     (config-<label>.html), characters.html, the PNGs
    render_report(run, single_file=True) -> run/report/index.html alone, charts embedded
    export_report(run, "csv", d)  -> d/<table>.csv for every table of the report
    summary_lines(report)         -> the balance summary, one line per configuration

Bad input (no such folder, no seat rows, a damaged chunk, a manifest this version cannot
read) raises ReportError with a one-line message.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl

from reports import charts
from reports.aggregate import balance_summary, collect_tables, report_tables
from reports.bands import band_table, config_bands, robust_characters, with_bands
from reports.draw import Drawing, draw_all
from reports.effects import override_effects
from reports.events import (
    collect_event_cells,
    ending_text,
    event_tables,
    event_views,
    game_endings,
)
from reports.examples import example_games
from reports.grid import (
    MARK_AT,
    SIDE_HEADINGS,
    HeatTable,
    even_text,
    heat_limit,
    heat_table,
    legend,
    side_grid,
)
from reports.html import (
    PAGE,
    Chart,
    pct,
    pp,
    pp_interval,
    pvalue,
    write_files,
    write_page,
    write_pages,
)
from reports.levels import strategy_levels
from reports.names import Names, load_names
from reports.verdict import Targets, band_text, reference_text, verdict_groups, with_targets
from simcore.engine import vocab
from simcore.engine.request import safe_name, split_label
from simcore.engine.theme import load_theme
from simcore.errors import UserError, one_line
from simcore.progress import progress_bar
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
from simcore.studies.cards import read_cards, top_line
from simcore.studies.skill import read_skill, skill_line
from strategies.presets import borrowed_counts, tuned_theme

REPORT_DIR = "report"
FORMATS = ("html", "csv", "json")
HOLM = (
    "Holm step-down correction at a family-wise 5% level: within one configuration, the "
    "characters compared in one role (heat table, per-role tables) or all its characters "
    "(strength: the heat table's first column and the strength table)"
)

# the studies a run folder may hold beside its games (`bangsim abilities|skill|cards --out
# RUN`): the report's table name, and how it is read
STUDY_TABLES = {"abilities": read_abilities, "skill": read_skill, "knockouts": read_cards}


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
        tables["endings"] = game_endings(run)
    except pl.exceptions.PolarsError as e:  # damage inside a file whose footer reads fine
        text = " ".join(str(e).split())[:160]
        raise ReportError(
            f"{run}: cannot read the seat or event rows ({text}); a chunk file is damaged: "
            f"{DAMAGED_HINT}"
        ) from None
    for name, read in STUDY_TABLES.items():  # written beside the seat rows by a study
        try:
            table = read(run)
        except ValueError as e:
            raise ReportError(str(e)) from None
        if table is not None:
            tables[name] = table
    if targets is not None:  # the sides, and the summary's gaps, against the targets
        tables["sides"] = with_targets(tables["sides"], targets)
        tables["summary"] = balance_summary(
            tables["sides"].lazy(), tables["characters"].lazy(), tables["game_lengths"].lazy()
        ).collect()
    bands = config_bands(manifest, tables["summary"], run)  # shipped bands, on these deals
    if bands:
        tables["bands"] = band_table(bands, tables["sides"])
        tables["sides"] = with_bands(tables["sides"], tables["bands"])
        tables["characters"] = robust_characters(tables["characters"], bands)
    try:
        tables.update(override_effects(run, manifest))
    except pl.exceptions.PolarsError as e:
        raise ReportError(
            f"{run}: cannot pair the experiment's games ({one_line(str(e))[:160]})"
        ) from None
    themes = tables["summary"]["theme"].unique(maintain_order=True).to_list()
    names = load_names(themes, (manifest or {}).get("theme_files"))
    return RunReport(run, manifest, tables, names, targets)


def render_report(run: Path, out: Path | None = None, single_file: bool = False) -> Path:
    """Write the run's HTML report to `out` (default run/report/); return index.html's path."""
    return write_report(load_report(run), out, single_file)


def write_report(
    report: RunReport, out: Path | None = None, single_file: bool = False, progress: bool = False
) -> Path:
    """Write a loaded report to `out` (default run/report/): the index, a page per
    configuration and the characters page, charts as PNGs beside them; or with
    `single_file` the whole report as one page with its charts embedded (and saved beside
    it). `progress`: a bar over the charts drawn (most of the time). Returns index.html's
    path."""
    out = Path(out) if out is not None else report.run / REPORT_DIR

    def drawn_beside_examples(figures: Figures, configs: list[str]):
        """(the charts drawn, the example games of `configs`): the games are traced in
        subprocesses (reports.examples), one per two usable cores (their games take a
        fraction of the charts' time), each taking every k-th configuration, beside the
        charts' drawing."""
        k = max(1, min(len(os.sched_getaffinity(0)) // 2, len(configs)))
        with ThreadPoolExecutor(k) as pool:
            pending = [
                pool.submit(example_games, report.run, configs[i::k], report.names)
                for i in range(k)
            ]
            charts_ = drawn(figures, progress)
            return charts_, {c: e for p in pending for c, e in p.result().items()}

    if single_file:
        first = report.configs[:1]  # a few games of the first configuration, as traces
        figures, examples = drawn_beside_examples(single_page_figures(report), first)
        context = page_context(report, {}) | {
            "title": f"{report.run.resolve().name}: balance report",
            "configs": report.configs,
            "seat_chart": "seats",
            "summary": summary_lines(report),
            "examples": examples.get(first[0]),
            "cards_by_role": True,
        }
        context["contents"] = single_page_contents(context)
        return write_page(out, "report.html", figures, **context)
    pages = {config: config_page(config) for config in report.configs}
    context = page_context(report, pages)
    name = report.run.resolve().name
    at = context["drawn_at"]  # a weaker level's page links to the strongest's examples too
    traced = [config for config in report.configs if at[config] == config]
    figures, examples = drawn_beside_examples(site_figures(report), traced)
    files = [
        (
            pages[config],
            "config.html",
            config_context(report, config, context, examples.get(config)),
        )
        for config in report.configs
    ]
    files.append(
        (
            CHARACTERS_PAGE,
            "characters.html",
            context | {"title": f"{name}: every character", "matrix": character_matrix(report)},
        )
    )
    index = context | {
        "title": f"{name}: balance report",
        "summary": summary_lines(report),
        "cards_by_role": False,
    }
    index["contents"] = index_contents(index)
    files.append((PAGE, "index.html", index))
    return write_pages(out, figures, files)


CHARACTERS_PAGE = "characters.html"


def config_page(config: str) -> str:
    """The file name of a configuration's page."""
    return f"config-{safe_name(config)}.html"


def page_context(report: RunReport, pages: dict[str, str]) -> dict[str, Any]:
    """What every page of the report sees: the tables, names, run details and warnings,
    the grid at a glance, the verdict (reports.verdict: its lines, each with the
    configurations it speaks for), the effects of an experiment's overrides (None without),
    the designer's targets (None: even), and `pages` (configuration -> its page; empty on
    one page)."""
    return {
        "report": report,
        "t": report.tables,
        "names": report.names,
        "metadata": run_metadata(report),
        "warnings": run_warnings(report),
        "several_series": len(_series(report)) > 1,
        "holm": HOLM,
        "sides": SIDES,
        "safe_name": safe_name,
        "pages": pages,
        "verdict": report_verdict_groups(report),
        "effects": effect_sections(report),
        "targets": report.targets,
        "summary": [],  # the balance summary in words, below its table (the one-page form)
        "overview": True,  # the charts across configurations (not on a configuration's page)
        "any_capped": bool(report.tables["summary"]["capped_share"].max()),
        "rows": {
            name: rows_by_config(report.tables[name]) for name in ("characters", "character_roles")
        },
        "heat": heat_tables(report),
        "featured": rows_by_config(report.tables["featured"]),
        "abilities": ability_groups(report),
        "skill": skill_groups(report),
        "knockouts": knockout_groups(report),
        "dot_series": dot_series(report),  # a character dot plot each (charts "dots-")
        "levels": strategy_levels(
            (report.manifest or {}).get("configs", []),
            report.tables["sides"],
            report.tables["characters"],
        ),
        "cards": event_views(report.tables, report.names),
        "ending_text": ending_text,
        "win_chart": None,  # a configuration's page: its chart of the rounds sides win in
        "drawn_at": drawn_at(report),
        "charts_at": None,  # a weaker level's page: (label, page) of the level charted
        **glance(report),
    }


def config_context(
    report: RunReport, config: str, context: dict[str, Any], examples: Any
) -> dict[str, Any]:
    """A configuration's page: the common context with every table cut to its rows."""
    tables = {
        name: frame.filter(pl.col("config") == config) if "config" in frame.columns else frame
        for name, frame in report.tables.items()
    }
    featured = {k: v for k, v in context["featured"].items() if k == config}
    top = context["drawn_at"][config]
    page = context | {
        "title": config,
        "overview": False,
        "t": tables,
        "configs": [config],
        "featured": featured,
        "cards": event_views(tables, report.names),
        "cards_by_role": True,
        "seat_chart": f"seats-{safe_name(config)}",
        "win_chart": f"win-rounds-{safe_name(config)}",
        "charts_at": None if top == config else (top, context["pages"][top]),
        "examples": examples,
        "verdict": [(labels, line) for labels, line in context["verdict"] if config in labels],
        "warnings": [w for w in context["warnings"] if w.startswith(f"{config}:")],
    }
    page["contents"] = [
        ("sides", "Sides and roles"),
        ("characters", "Characters"),
        *([("featured", "Featured character")] if featured else []),
        ("seats", "Seats"),
        ("length", "Game length"),
        ("endings", "How each side wins"),
        *([("cards", "Cards and events")] if page["cards"] else []),
        *([("examples", "Example games")] if examples else []),
        ("method", "Method"),
    ]
    return page


def index_contents(context: dict[str, Any]) -> list[tuple[str, str]]:
    """The index's contents, the sections it holds in page order."""
    return [
        *opening_contents(context),
        *([("levels", "Strategy levels")] if context["levels"] else []),
        ("summary", "Balance summary"),
        ("dots", "Characters at a glance"),
        ("sides", "Sides and roles"),
        *([("compare", "Configurations compared")] if context["several_series"] else []),
        ("length", "Game length"),
        *([("abilities", "Ability values")] if context["abilities"] else []),
        *([("skill", "Luck or skill")] if context["skill"] else []),
        *([("knockouts", "Which card tips the balance")] if context["knockouts"] else []),
        *([("cards", "Cards and events")] if context["cards"] else []),
        ("pages", "Pages"),
        ("method", "Method"),
    ]


def opening_contents(context: dict[str, Any]) -> list[tuple[str, str]]:
    """How the index and the one-page form open: the grid at a glance, the verdict, the
    effects of the experiment's overrides (when it has any)."""
    return [
        ("glance", "At a glance"),
        ("verdict", "Verdict"),
        *([("effects", "Effects of the changes")] if context["effects"] else []),
    ]


def single_page_contents(context: dict[str, Any]) -> list[tuple[str, str]]:
    """The one-page form's contents, in page order."""
    return [
        *opening_contents(context),
        ("summary", "Balance summary"),
        ("dots", "Characters at a glance"),
        ("sides", "Sides and roles"),
        *([("compare", "Configurations compared")] if context["several_series"] else []),
        *([("levels", "Strategy levels")] if context["levels"] else []),
        *([("abilities", "Ability values")] if context["abilities"] else []),
        *([("skill", "Luck or skill")] if context["skill"] else []),
        *([("knockouts", "Which card tips the balance")] if context["knockouts"] else []),
        ("characters", "Characters"),
        *([("featured", "Featured character")] if context["featured"] else []),
        ("seats", "Seats"),
        ("length", "Game length"),
        ("endings", "How each side wins"),
        *([("cards", "Cards and events")] if context["cards"] else []),
        *([("examples", "Example games")] if context["examples"] else []),
        ("method", "Method"),
    ]


def glance(report: RunReport) -> dict[str, Any]:
    """The page's opening grid (reports.grid): side win rates, series x player counts."""
    grid = side_grid(report.tables["sides"])
    return {
        "grid": grid,
        "grid_legend": legend(grid, report.names),
        "grid_even": even_text(grid),
        "mark_at": round(100 * MARK_AT),
        "side_headings": SIDE_HEADINGS,
        "several_themes": len(grid.themes) > 1,
        "bands": "bands" in report.tables,
        "band_of": {
            (r["config"], r["side"]): f"{100 * r['band_low']:.1f}–{100 * r['band_high']:.1f}%"
            for r in report.tables.get("bands", pl.DataFrame()).iter_rows(named=True)
        },
        "robust_of": {c: character_robustness(report, c) for c in report.configs},
    }


def report_verdict(report: RunReport) -> list[str]:
    """The verdict in words, one line per configuration (reports.verdict)."""
    return [line for _, line in report_verdict_groups(report)]


def report_verdict_groups(report: RunReport) -> list[tuple[list[str], str]]:
    """The verdict lines, each with the configurations it speaks for (the strategy levels
    of one setting, strongest first): reports.verdict.verdict_groups."""
    configs = (report.manifest or {}).get("configs", [])
    return verdict_groups(configs, report.tables["sides"], report.names, report.targets)


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


def character_matrix(report: RunReport) -> dict[str, Any]:
    """The characters page: one row per character and series (reports.charts.with_series:
    theme / strategy / variant), strongest first (its overall effect, averaged over the
    player counts), a cell per measure and player count: the overall effect
    (`all`, role mix controlled for) or the effect within each role, with its class (up,
    down: Holm-significant; flat) and a hover text."""
    names = report.names
    overall = charts.with_series(report.tables["characters"]).with_columns(
        pl.lit("all").alias("role")
    )
    within = charts.with_series(report.tables["character_roles"])
    columns = ["series", "theme", "players", "config", "character", "role", "games", "rate",
               "effect", "effect_lower", "effect_upper", "p_adjusted", "significant"]  # fmt: skip
    cells = pl.concat([overall.select(columns), within.select(columns)])
    one_theme = cells["theme"].n_unique() == 1
    roles = [r for r in vocab.ROLES if r in set(within["role"])]
    measures = [("all", "overall (role mix controlled for)")] + [
        (r, f"as {names.role(r) if one_theme else r}") for r in roles
    ]
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for r in cells.sort("theme", "series", "character").iter_rows(named=True):
        row = rows.setdefault(
            (r["series"], r["character"]),
            {
                "character": r["character"],
                "theme": names.titles.get(r["theme"], r["theme"]),
                "series": r["series"],
                "cells": {},
            },
        )
        where = "overall" if r["role"] == "all" else f"as {names.role(r['role'], r['theme'])}"
        row["cells"][(r["role"], r["players"])] = {
            "v": r["effect"],
            "cls": ("up" if r["effect"] > 0 else "down") if r["significant"] else "flat",
            "title": (
                f"{r['config']}, {where}: won {pct(r['rate'])} of {r['games']:,} games; "
                f"effect {pp(r['effect'])} {pp_interval(r['effect_lower'], r['effect_upper'])}, "
                f"p (Holm) {pvalue(r['p_adjusted'])}"
            ),
        }

    def strength(row: dict[str, Any]) -> float:  # its overall effect, over the player counts
        effects = [c["v"] for (role, _), c in row["cells"].items() if role == "all"]
        return sum(effects) / len(effects) if effects else 0.0

    return {
        "measures": measures,
        "players": cells["players"].unique().sort().to_list(),
        # strongest first within each theme and series: the answer reads from the top
        "rows": sorted(rows.values(), key=lambda r: (r["theme"], r["series"], -strength(r))),
    }


def heat_tables(report: RunReport) -> dict[str, HeatTable]:
    """Every configuration's heat table of its characters' strength and effect in each role,
    on one colour scale."""
    t = report.tables
    limit = heat_limit(t["character_roles"], t["characters"])
    return {c: heat_table(t["character_roles"], t["characters"], c, limit) for c in report.configs}


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


Figures = Iterator[tuple[str, str, Drawing]]  # (file stem, one-line description, drawing)
DRAWN_APART_FROM = 16  # charts from which worker processes (about 1.5 s to start) pay


def drawn(figures: Figures, progress: bool = False, workers: int | None = None) -> list[Chart]:
    """Every chart drawn as PNG, in order: by `workers` processes, this one among them
    (default: one per usable core) when there are DRAWN_APART_FROM or more, else here
    (reports.draw); the same bytes either way. `progress`: a bar over the charts drawn."""
    items = list(figures)
    workers = len(os.sched_getaffinity(0)) if workers is None else workers
    workers = min(workers, len(items)) if len(items) >= DRAWN_APART_FROM else 1
    with progress_bar(desc="report", unit="chart", total=len(items), disable=not progress) as bar:
        pngs = draw_all([d for _, _, d in items], workers, bar.update)
    return [Chart(name, alt, png) for (name, alt, _), png in zip(items, pngs, strict=True)]


def overview_figures(report: RunReport) -> Figures:
    """The charts across configurations: sides, roles, configurations compared (several
    series), ability values, game length; one at a time, in page order."""
    t, names = report.tables, report.names
    yield (
        "sides",
        "Win rate by side and player count",
        partial(charts.side_rates_chart, t["sides"], names),
    )
    yield (
        "roles",
        "Win rate by role and player count",
        partial(charts.role_rates_chart, t["roles"], names),
    )
    if len(_series(report)) > 1:
        yield (
            "compare-sides",
            "Side win rates compared across configurations",
            partial(charts.series_bars_chart, t["sides"], names),
        )
    levels = strategy_levels(
        (report.manifest or {}).get("configs", []), t["sides"], t["characters"]
    )
    if levels:
        yield (
            "levels",
            "Side win rates by strategy level",
            partial(charts.levels_chart, levels, names),
        )
    for series in dot_series(report):
        yield (
            f"dots-{safe_name(series)}",
            f"{series}: character strength by player count",
            partial(charts.character_dots, t["characters"], series),
        )
    for key, group in ability_groups(report).items():
        yield (
            f"abilities-{safe_name(key)}",
            f"{key}: ability values",
            partial(ability_chart, group, key),
        )
    for key, (group, _) in skill_groups(report).items():
        names = report.names
        roles = {r: names.role(r, group["theme"][0]) for r in vocab.ROLES}
        title = f"{key}: win rate by strategy level"
        yield f"skill-{safe_name(key)}", title, partial(charts.skill_chart, group, roles, title)
    for key, (group, _) in knockout_groups(report).items():
        theme = group["theme"][0]
        title = f"{key}: each card knocked out, {group['strategy'][0]}"
        side = partial(report.names.side, theme=theme)
        yield (
            f"knockouts-{safe_name(key)}",
            title,
            partial(charts.knockout_chart, group, side, title),
        )
    yield (
        "length",
        "Game length distribution",
        partial(charts.length_chart, t["turn_histogram"], t["game_lengths"]),
    )


def single_page_figures(report: RunReport) -> Figures:
    """Every chart of the one-page report: the overview, the seats of every configuration as
    small multiples."""
    yield from overview_figures(report)
    yield (
        "seats",
        "Win rate by seat and role",
        partial(charts.seat_chart, report.tables["seats"], report.names),
    )


def drawn_at(report: RunReport) -> dict[str, str]:
    """Each configuration -> the one whose page draws its charts: itself, or where several
    strategy levels play the same setting, the strongest of them (the verdict's level,
    reports.verdict.verdict_groups); a weaker level's page links there."""
    top = {label: labels[0] for labels, _ in report_verdict_groups(report) for label in labels}
    return {config: top.get(config, config) for config in report.configs}


def site_figures(report: RunReport) -> Figures:
    """Every chart of the report's pages: the index's overview, then per configuration its
    seats and the rounds each side wins in, for the strongest strategy level of each
    setting (drawn_at)."""
    yield from overview_figures(report)
    seats = report.tables["seats"]
    at = drawn_at(report)
    for config in (c for c in report.configs if at[c] == c):
        yield (
            f"seats-{safe_name(config)}",
            f"{config}: win rate by seat and role",
            partial(charts.seat_chart, seats.filter(pl.col("config") == config), report.names),
        )
        yield (
            f"win-rounds-{safe_name(config)}",
            f"{config}: the round each side wins in",
            partial(charts.win_round_chart, report.tables["win_rounds"], report.names, config),
        )


def study_groups(
    report: RunReport, name: str, tell: Callable[[pl.DataFrame, str], str], *order: Any
) -> dict[str, tuple[pl.DataFrame, str]]:
    """A study's table kept in the run folder (report.STUDY_TABLES `name`), one group per
    theme and player count, keyed "theme/Np", sorted by `order` when given, each with
    `tell(group, theme)`, its line in words; empty when the folder holds none."""
    table = report.tables.get(name)
    if table is None:
        return {}
    groups = {}
    for (theme, players), group in table.group_by("theme", "players", maintain_order=True):
        group = group.sort(*order) if order else group
        groups[f"{theme}/{players}p"] = (group, tell(group, theme))
    return groups


def skill_groups(report: RunReport) -> dict[str, tuple[pl.DataFrame, str]]:
    """The skill tables (`bangsim skill --out RUN`), with the role where skill is worth
    most (simcore.studies.skill.skill_line)."""

    def tell(group: pl.DataFrame, theme: str) -> str:
        roles = {r: report.names.role(r, theme) for r in vocab.ROLES}
        return f"{theme}: {skill_line(group, roles)}."

    order = pl.col("role").replace_strict({r: i for i, r in enumerate(vocab.ROLES)})
    return study_groups(report, "skill", tell, order, "rank")


def knockout_groups(report: RunReport) -> dict[str, tuple[pl.DataFrame, str]]:
    """The card tables (`bangsim cards --out RUN`), with the card that moves a side most
    (simcore.studies.cards.top_line)."""

    def tell(group: pl.DataFrame, theme: str) -> str:
        side = lambda s: report.names.side(s, theme)  # noqa: E731
        return f"{theme}, {group['players'][0]} players: {top_line(group, side)}."

    return study_groups(report, "knockouts", tell)


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
                    f"({pp(r['difference'])} {pp_interval(r['diff_lower'], r['diff_upper'])}{mark})"
                )
            else:
                parts.append(f"{role} {pct(r['rate'])} [{pct(r['lower'])}, {pct(r['upper'])}]")
        lines.append(
            f"{config}: featured {character} vs the rest of its role: " + "; ".join(parts) + "."
        )
    return lines


def _series(report: RunReport) -> list[str]:
    return charts.with_series(report.tables["summary"])["series"].unique().to_list()


def dot_series(report: RunReport) -> list[str]:
    """The series that get a character dot plot: those of the configurations whose pages
    draw their charts (drawn_at: where several strategy levels play a setting, the
    strongest)."""
    at = drawn_at(report)
    drawn = [c for c, page in at.items() if page == c]
    summary = charts.with_series(report.tables["summary"]).filter(pl.col("config").is_in(drawn))
    return sorted(summary["series"].unique().to_list())


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
            f"{names.side(s['side'], theme)} {pct(s['rate'])}{band_text(s)} ({pp(s['vs_even'])})"
            for s in rows.iter_rows(named=True)
        )
        robust = character_robustness(report, config)
        capped = f", {pct(row['capped_share'])} capped" if row["capped_share"] else ""
        text = f"{config}: {row['games']:,} games{capped}. Side win rates vs {share}: {parts}."
        if row["strongest"] is not None:
            text += (
                f" Strongest character {row['strongest']} {pp(row['strongest_effect'])} "
                f"({_flag(row['strongest_significant'], robust.get(row['strongest']))}), "
                f"weakest {row['weakest']} {pp(row['weakest_effect'])} "
                f"({_flag(row['weakest_significant'], robust.get(row['weakest']))}); effects "
                f"spread {100 * (row['effect_sd'] or 0):.1f} pp (noise alone "
                f"{100 * row['noise_sd']:.1f} pp), {row['significant']} of "
                f"{row['characters']} characters significant."
            )
        lines.append(text)
    return lines


def _flag(significant: bool, robust: bool | None = None) -> str:
    text = "significant" if significant else "within noise"
    if robust is None:
        return text
    return text + (", robust over the band" if robust else ", its sign changes over the band")


def character_robustness(report: RunReport, config: str) -> dict[str, bool]:
    """Character -> whether its effect keeps its sign at every end of the configuration's
    bands (reports.bands); empty where no band applies."""
    chars = report.tables["characters"]
    if "robust" not in chars.columns:
        return {}
    rows = chars.filter((pl.col("config") == config) & pl.col("robust").is_not_null())
    return dict(rows.select("character", "robust").iter_rows())


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
    warnings += tuned_fallbacks(report)
    for row in report.tables["game_lengths"].iter_rows(named=True):
        if row["capped"]:
            warnings.append(
                f"{row['config']}: {row['capped']:,} games ({pct(row['capped_share'], 2)}) hit "
                "the turn cap and count as won by no side."
            )
    return warnings


def tuned_fallbacks(report: RunReport) -> list[str]:
    """A line per theme whose configurations play `tuned` without tuned values of their own
    (strategies.presets.tuned_theme): they play another theme's, the shipped theme's an
    edited copy names, else classic's; and a line per theme whose own file holds classic's
    values at the counts played (strategies.presets.borrowed_counts: not yet re-tuned)."""
    lines = []
    files = (report.manifest or {}).get("theme_files") or {}
    labels = [split_label(c) for c in report.configs]
    for theme in report.tables["summary"]["theme"].unique(maintain_order=True):
        tuned_at = {p.players for p in labels if p.theme == theme and p.strategy
                    and "tuned" in {q.rpartition("=")[2] for q in p.strategy.split(",")}}  # fmt: skip
        if not tuned_at:
            continue
        try:  # an edited copy of a shipped theme plays that theme's values (Theme.plays_as)
            source = tuned_theme(load_theme(files.get(theme, theme)).plays_as)
        except (ValueError, OSError):
            source = tuned_theme(theme)
        title = report.names.titles.get(theme, theme)
        copied = " and ".join(str(n) for n in borrowed_counts(source) if f"{n}p" in tuned_at)
        if copied:  # the values the file holds at those counts are a copy of classic's
            copied = (f"at {copied} players strategies/tuned/{source}.toml holds classic's "
                      "values, not yet re-tuned for that game")  # fmt: skip
        if source != theme:
            lines.append(
                f"{title} ({theme}) has no tuned values of its own: its tuned seats played "
                + (f"{source}'s (strategies/tuned/{source}.toml), tuned for that game, so its "
                   "verdicts under tuned are approximate" if source else "the defaults")
                + (f" ({copied})" if copied else "") + "; see docs/tuning.md."
            )  # fmt: skip
        elif copied:
            lines.append(
                f"{title} ({theme}): {copied}, so its verdicts under tuned at that count are "
                "approximate; see docs/tuning.md."
            )
    return lines


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_text(v)}" for k, v in value.items())
    return str(value)
