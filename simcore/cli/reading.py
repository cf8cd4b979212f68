"""`bangsim report` and `bangsim compare`: a run folder's tables, charts and HTML pages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import ShowProgress, TargetsOption, fail
from simcore.errors import UserError
from simcore.runs.runfolder import (
    check_writable,
)


def report(
    run: Annotated[Path, typer.Argument(help="Run folder written by `bangsim run`.")],
    format: Annotated[
        str,
        typer.Option(
            "--format",
            help="html: the report page with charts; csv or json: every table of the report as a file.",
        ),
    ] = "html",
    out: Annotated[Path | None, typer.Option(help="Folder to write (default: RUN/report).")] = None,
    targets: TargetsOption = None,
    single_file: Annotated[
        bool,
        typer.Option(
            "--single-file",
            help="html: the whole report as one page with its charts embedded, for mailing.",
        ),
    ] = False,
    progress: ShowProgress = True,
) -> None:
    """Render a run folder's report and print its balance summary.

    html writes a self-contained folder, RUN/report/: index.html (the grid at a glance, the
    verdict, the effects of an experiment's overrides, strategy levels, comparisons), a page
    per configuration (its verdict, sides, roles, characters, seats, cards, example games),
    characters.html (every character, sortable) and the charts as PNGs; --single-file
    writes it all as one page.
    csv and json write every table of the report, one file each.

    Examples:

    bangsim report runs/default

    bangsim report runs/default --format csv --out tables/
    """
    from reports.report import (
        REPORT_DIR,
        check_format,
        check_run,
        export_tables,
        load_report,
        write_report,
    )
    from reports.verdict import parse_targets

    try:
        check_format(format)
        check_writable(out or check_run(run) / REPORT_DIR)
        loaded = load_report(run, None if targets is None else parse_targets(targets))
    except UserError as e:
        fail(str(e))
    if format == "html":
        written = [write_report(loaded, out, single_file, progress=progress)]
    else:
        written = export_tables(loaded.tables, format, out or loaded.run / "report")
    echo_summary(loaded)
    where = (
        written[0] if format == "html" else f"{len(written)} {format} files in {written[0].parent}"
    )
    typer.echo(f"report: {where}")


def echo_summary(loaded) -> None:
    """What `report` and `experiment` print of a loaded report: the grid, the verdict in
    words, the effects of the experiment's overrides, the featured character's lines."""
    from reports.effects import effect_lines
    from reports.grid import terminal_summary
    from reports.report import featured_lines, report_verdict

    typer.echo(terminal_summary(loaded.tables, loaded.names))
    lines = report_verdict(loaded)
    effects = effect_lines(loaded.tables, loaded.names)
    if effects:
        lines += ["Effects of the changes (paired 95% intervals, * excludes 0):", *effects]
    lines += featured_lines(loaded.tables["featured"], loaded.names)
    for line in lines:
        typer.echo(line)


def compare(
    runs: Annotated[
        list[Path],
        typer.Argument(help="Run folders; the first is the baseline.", metavar="RUN"),
    ],
    out: Annotated[Path, typer.Option(help="Folder to write the comparison report to.")],
    format: Annotated[
        str,
        typer.Option(
            "--format",
            help="html: the comparison page with charts; csv or json: every difference table "
            "as a file in OUT.",
        ),
    ] = "html",
) -> None:
    """Compare run folders against the first, in OUT/index.html (or, with --format csv|json,
    every difference table as a file in OUT).

    Per side, role and character: the difference with a 95% interval and a Holm-corrected test.
    Configurations pair by label when all runs have the same ones, else by player count.

    Example: bangsim compare runs/default runs/more-missed --out runs/compare-missed
    """
    from reports.compare import (
        comparison_lines,
        load_comparison,
        theme_differences,
        values_lines,
        write_comparison,
    )
    from reports.report import check_format, export_tables

    try:
        check_format(format)
        check_writable(out)
        loaded = load_comparison(runs)
    except UserError as e:
        fail(str(e))
    typer.echo(
        "\n".join([*comparison_lines(loaded), *theme_differences(loaded), *values_lines(loaded)])
    )
    if format == "html":
        typer.echo(f"comparison: {write_comparison(loaded, out)}")
    else:
        written = export_tables(loaded.tables, format, out)
        typer.echo(f"comparison: {len(written)} {format} files in {out}")
