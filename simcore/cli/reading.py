"""`bangsim report` and `bangsim compare`: a run folder's tables, charts and HTML pages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import fail
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
    single_file: Annotated[
        bool,
        typer.Option(
            "--single-file",
            help="html: the whole report as one page with its charts embedded, for mailing.",
        ),
    ] = False,
) -> None:
    """Render a run folder's report and print its balance summary.

    html writes a self-contained folder, RUN/report/: index.html (the grid at a glance, a
    verdict per configuration, strategy levels, comparisons), a page per configuration
    (sides, roles, characters, seats, cards, example games), characters.html (every
    character, sortable) and the charts as PNGs; --single-file writes it all as one page.
    csv and json write every table of the report, one file each.

    Examples:

    bangsim report runs/default

    bangsim report runs/default --format csv --out tables/
    """
    from reports.grid import terminal_summary
    from reports.report import (
        REPORT_DIR,
        check_format,
        check_run,
        export_tables,
        featured_lines,
        load_report,
        write_report,
    )

    try:
        check_format(format)
        check_writable(out or check_run(run) / REPORT_DIR)
        loaded = load_report(run)
    except UserError as e:
        fail(str(e))
    if format == "html":
        written = [write_report(loaded, out, single_file)]
    else:
        written = export_tables(loaded.tables, format, out or loaded.run / "report")
    typer.echo(terminal_summary(loaded.tables, loaded.names))
    for line in featured_lines(loaded.tables["featured"], loaded.names):
        typer.echo(line)
    where = (
        written[0] if format == "html" else f"{len(written)} {format} files in {written[0].parent}"
    )
    typer.echo(f"report: {where}")


def compare(
    runs: Annotated[
        list[Path],
        typer.Argument(help="Run folders; the first is the baseline.", metavar="RUN"),
    ],
    out: Annotated[Path, typer.Option(help="Folder to write the comparison report to.")],
) -> None:
    """Compare run folders against the first, in OUT/index.html.

    Per side, role and character: the difference with a 95% interval and a Holm-corrected test.
    Configurations pair by label when all runs have the same ones, else by player count.

    Example: bangsim compare runs/default runs/more-missed --out runs/compare-missed
    """
    from reports.compare import comparison_lines, load_comparison, write_comparison

    try:
        check_writable(out)
        loaded = load_comparison(runs)
    except UserError as e:
        fail(str(e))
    page = write_comparison(loaded, out)
    typer.echo("\n".join(comparison_lines(loaded)))
    typer.echo(f"comparison: {page}")
