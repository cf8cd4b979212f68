"""The `bangsim` command line: thin typer commands over plain functions.

Bad input ends with one line on stderr, ``error: ...``, exit code 2, and nothing written.
Every failure is one line and an exit code (docs/errors.md): `BangsimGroup` applies the
table of `simcore.errors` to whatever escapes a command; `bangsim --debug ...` shows the
traceback instead.
"""

from __future__ import annotations

import errno
import json
import re
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any, NoReturn

import polars as pl
import typer
from typer.core import TyperGroup

try:  # newer typer carries its own copy of click
    from typer._click import exceptions as _click_exceptions
except ImportError:  # pragma: no cover - older typer on click
    from click import exceptions as _click_exceptions

from simcore import limits
from simcore.backend import Backend
from simcore.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, UserError, describe, one_line
from simcore.precision import DEFAULT_CAP
from simcore.runfolder import (
    DEFAULT_CHUNK_SIZE,
    RunFolderError,
    check_writable,
    chunks_kept,
    execute_study,
    pending_games,
    pending_in,
    plan_study,
    read_manifest,
)
from simcore.theme import Theme
from simcore.vocab import ROLES

_UsageError = _click_exceptions.UsageError
_NoArgsIsHelp = getattr(_click_exceptions, "NoArgsIsHelpError", ())
_ClickException = _click_exceptions.ClickException
OPTIONS = {"debug": False}  # global options of this invocation (set by `main`)
RESUMING_COMMANDS = ("run", "experiment")  # a rerun of these resumes their run folder
RUN_GAMES = 100_000  # bangsim run's games per player count without --precision

# adaptive precision, shared by run and experiment (docs/precision.md)
PrecisionOption = Annotated[
    float | None,
    typer.Option(
        help="Keep adding chunks, round by round, until every side's win rate has a 95% "
        "interval of at most ± this (0.005 = ±0.5 points) in every configuration; --games is "
        "then the cap. Where it stops depends only on the seed and the target.",
        show_default=False,
    ),
]
PrecisionCharactersOption = Annotated[
    bool,
    typer.Option(
        "--precision-characters",
        help="With --precision: every character's effect within each role too (the report's "
        "character-in-role table); takes many more games.",
    ),
]


class BangsimGroup(TyperGroup):
    """The top-level command group. Whatever escapes a command (of any subgroup too) ends as
    one line on stderr and the exit code of `simcore.errors.describe`, without a traceback;
    with --debug it propagates with its traceback."""

    def make_context(self, info_name: Any, args: Any, parent: Any = None, **extra: Any) -> Any:
        try:  # parsing the top-level options: `bangsim --bogus`
            return super().make_context(info_name, args, parent=parent, **extra)
        except _NoArgsIsHelp:
            raise  # `bangsim` alone prints the help
        except _UsageError as e:
            usage_exit(e)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except _NoArgsIsHelp:
            raise
        except _UsageError as e:  # a subcommand's options: a typo, a bad value, one missing
            usage_exit(e)
        except (typer.Exit, typer.Abort, _ClickException):
            raise  # typer's own exits
        except OSError as e:
            if e.errno == errno.EPIPE or OPTIONS["debug"]:
                raise  # typer quietly ends a command piped into `head`
            self.exit_with(ctx, e)
        except (Exception, KeyboardInterrupt) as e:
            if OPTIONS["debug"]:
                raise
            self.exit_with(ctx, e)

    @staticmethod
    def exit_with(ctx: Any, e: BaseException) -> NoReturn:
        line, code = describe(e, resumable=ctx.invoked_subcommand in RESUMING_COMMANDS)
        typer.echo(line, err=True)
        raise typer.Exit(code) from None


def usage_exit(e: Any) -> NoReturn:
    """A usage error (unknown option or command, bad or missing value) as one line, exit 2."""
    where = f"; see '{e.ctx.command_path} --help'" if getattr(e, "ctx", None) else ""
    typer.echo(f"error: {one_line(e.format_message()).rstrip('.')}{where}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


app = typer.Typer(
    name="bangsim",
    cls=BangsimGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def main(
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="On any error, show the Python traceback instead of one line."
        ),
    ] = False,
) -> None:
    """Monte Carlo balance simulator for BANG! and its re-themed editions.

    Play many games with bots, then read win rates by role with 95% confidence
    intervals. Start with: bangsim run --help

    Errors: one line on stderr; exit 1 disk full or I/O, 2 bad input, 70 a bug, 130 Ctrl-C.
    """
    OPTIONS["debug"] = debug


BackendName = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where the games are played: local (every core of this machine) or ray (Ray "
        "tasks: a local Ray instance, or the cluster at --address); the same results either "
        "way (docs/scale.md).",
    ),
]
RayAddress = Annotated[
    str | None,
    typer.Option(help="With --backend ray: HOST:PORT of a Ray cluster's head (ray start --head)."),
]
ShowProgress = Annotated[bool, typer.Option(help="Show a progress bar.")]
Threads = Annotated[int | None, typer.Option(help="CPU threads to use (default: all cores).")]
WriteEvents = Annotated[
    bool,
    typer.Option(
        "--events/--no-events",
        help="Also write each chunk's event counts (events/*.parquet: draw! checks, damage by "
        "source, cards used by role) for the report's card tables; --no-events is about 5% "
        "faster.",
    ),
]


def open_backend(ctx: typer.Context, name: str, address: str | None) -> Backend:
    """The backend --backend and --address ask for (simcore.backend), closed when the command
    ends, however it ends (a local Ray instance stops with it)."""
    from simcore.backend import get_backend

    backend = get_backend(name, address)
    ctx.call_on_close(backend.close)
    return backend


@app.command()
def run(
    ctx: typer.Context,
    out: Annotated[
        Path, typer.Option(help="Run folder to write (created; rerun the same command to resume).")
    ],
    theme: Annotated[
        str, typer.Option(help="Theme id (classic, ...) or path to a theme TOML file.")
    ] = "classic",
    players: Annotated[
        str, typer.Option(help='Player counts: "5", a range "4-7", or a list "4,6".')
    ] = "5",
    games: Annotated[
        int | None,
        typer.Option(
            help=f"Games per player count (default {RUN_GAMES:,}); with --precision, the most "
            f"per player count (default {DEFAULT_CAP:,}).",
            show_default=False,
        ),
    ] = None,
    precision: PrecisionOption = None,
    precision_characters: PrecisionCharactersOption = False,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same games.")] = 1,
    strategy: Annotated[
        str,
        typer.Option(
            help="Bot preset every seat plays (random, basic, smart, aggressive, cautious), "
            'or one per role: "leader=smart,outlaw=aggressive".'
        ),
    ] = "smart",
    characters: Annotated[
        str | None,
        typer.Option(
            help='Character pool, comma-separated theme names, e.g. "Bart Cassidy,Jourdonnais".'
        ),
    ] = None,
    feature: Annotated[
        str | None,
        typer.Option(
            help='A character in every game at a uniformly random seat, e.g. "Willy the Kid"; '
            '"Willy the Kid=outlaw" also fixes its role. The report compares it with the '
            "rest of its role."
        ),
    ] = None,
    chunk_size: Annotated[
        int, typer.Option(help="Games per Parquet chunk (the unit of resume).")
    ] = DEFAULT_CHUNK_SIZE,
    checked: Annotated[
        bool,
        typer.Option("--checked", help="Assert the game invariants after every action (slower)."),
    ] = False,
    threads: Threads = None,
    progress: ShowProgress = True,
    events: WriteEvents = True,
    backend_name: BackendName = "local",
    address: RayAddress = None,
) -> None:
    """Play games with bots and write one row per seat per game to a run folder.

    Prints a grid of side win rates per player count, * where the 95% Wilson interval
    misses an even share. The folder holds manifest.json (what was asked, versions, chunks
    done), seats/*.parquet (one row per seat per game) and, unless --no-events,
    events/*.parquet (one row per game: draw! checks, damage by source, cards used by each
    role). Interrupted runs resume: rerun the same command.

    Examples (all 4 to 7 player tables; then 5 players with uniformly random bots):

    bangsim run --players 4-7 --games 1000000 --out runs/classic

    bangsim run --players 5 --strategy random --games 200000 --out runs/random5

    bangsim run --feature "Willy the Kid" --games 100000 --out runs/willy

    Until every side's 95% interval is within ±0.5 points (docs/precision.md):

    bangsim run --players 4-7 --precision 0.005 --out runs/precise
    """
    try:
        counts = parse_players(players)
        pool = parse_characters(characters)
        if threads is not None:
            set_threads(threads)
        if games is None and precision is None:
            games = RUN_GAMES
        study = plan_study(
            out, theme, counts, games, seed, strategy, pool, chunk_size, checked, feature,
            events=events, precision=precision, precision_characters=precision_characters,
        )  # fmt: skip
    except ValueError as e:
        fail(str(e))
    backend = open_backend(ctx, backend_name, address)
    pending = pending_games(study)
    seconds = play_timed(
        lambda: execute_study(study, progress, backend), out, study.chunks, study.precision
    )
    typer.echo(summary_text(out, study.theme))
    if study.feature is not None:
        typer.echo(featured_text(out, study.theme))
    typer.echo(played_line(out, study.chunks, pending, seconds) + f"; results: {out}")


def played_line(out: Path, chunks: list[Any], pending: int, seconds: float) -> str:
    """played_text for `chunks` played into `out`, `pending` games of them unplayed before;
    an adaptive run (--precision) first says where it stopped, and counts what it played,
    not its cap."""
    from simcore.precision import precision_lines

    left = pending_in(out, chunks)
    manifest = read_manifest(out) or {}
    lines = precision_lines(manifest) if "precision" in manifest else []
    return "\n".join(
        [*lines, played_text(pending - left, sum(c.games for c in chunks) - left, seconds)]
    )


def play_timed(execute, out: Path, chunks: list[Any], adaptive: Any = None) -> float:
    """Run `execute()` (plays `chunks` into the run folder `out`; with an `adaptive`
    precision target, only as many as it needs); seconds it took. A folder error is one
    line and exit 2; Ctrl-C keeps the complete chunks, says how many, exits 130."""
    start = time.perf_counter()
    try:
        execute()
    except RunFolderError as e:
        fail(str(e))
    except KeyboardInterrupt:
        if OPTIONS["debug"]:
            raise
        kept = chunks_kept(out, chunks)
        typer.echo(
            f"interrupted: {kept} of {'at most ' if adaptive else ''}{len(chunks)} chunks kept "
            f"in {out}; "
            "rerun the same command to resume",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    return time.perf_counter() - start


def played_text(played: int, total: int, seconds: float) -> str:
    """'played 80,000 games in 70.6 s (1,133 games/s)', noting a resumed or finished run."""
    if played == 0:
        return f"all {total:,} games were already played"
    of = f" of {total:,}" if played < total else ""
    return f"played {played:,}{of} games in {seconds:.1f} s ({played / seconds:,.0f} games/s)"


def fail(message: str) -> NoReturn:
    """One line on stderr and exit code 2; with --debug, called while handling an exception,
    that exception propagates with its traceback instead."""
    if OPTIONS["debug"] and sys.exc_info()[1] is not None:
        raise  # the exception the caller is handling, with its traceback
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def parse_players(text: str) -> list[int]:
    """ "5" -> [5]; "4-7" -> [4, 5, 6, 7]; "4,6" -> [4, 6]; ranges and lists mix: "4-5,7"."""
    counts: list[int] = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ValueError(f'--players: expected "5", "4-7" or "4,6", got {text!r}')
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise ValueError(f"--players: empty range {part!r}")
        for n in (lo, hi):
            if not limits.MIN_PLAYERS <= n <= limits.MAX_PLAYERS:
                raise ValueError(
                    f"players must be between {limits.MIN_PLAYERS} and {limits.MAX_PLAYERS}, got {n}"
                )
        counts.extend(range(lo, hi + 1))
    return sorted(set(counts))


def parse_characters(text: str | None) -> list[str] | None:
    """ "A, B" -> ["A", "B"]; None -> None (the theme's full list)."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError("--characters: no names given")
    return names


def set_threads(threads: int) -> None:
    """numba.set_num_threads, with a one-line error outside 1..cores."""
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= most:
        raise ValueError(f"--threads must be between 1 and {most}, got {threads}")
    numba.set_num_threads(threads)


def summary_text(out: Path, theme: Theme) -> str:
    """The balance grid (reports.grid): side win rates per configuration and player count,
    marked where the 95% interval misses an even share, and any capped games."""
    from reports.aggregate import collect_cells, game_lengths, side_win_rates, turn_histogram
    from reports.grid import terminal_summary
    from reports.names import Names
    from reports.summary import scan_seats

    cells = collect_cells(scan_seats(out))
    sides, lengths = pl.collect_all([side_win_rates(cells), game_lengths(turn_histogram(cells))])
    names = Names({theme.id: dict(theme.role_names)}, {theme.id: theme.title})
    return terminal_summary({"sides": sides, "game_lengths": lengths}, names)


def featured_text(out: Path, theme: Theme) -> str:
    """The featured character's win rate per role against the rest of its role."""
    from reports.aggregate import collect_cells, featured_effects
    from reports.names import Names
    from reports.report import featured_lines
    from reports.summary import scan_seats

    table = featured_effects(collect_cells(scan_seats(out))).collect()
    names = Names({theme.id: dict(theme.role_names)}, {theme.id: theme.title})
    return "\n".join(featured_lines(table, names))


# --- themes -------------------------------------------------------------------------------

themes_app = typer.Typer(no_args_is_help=False, invoke_without_command=True)
app.add_typer(themes_app, name="themes")


@themes_app.callback()
def themes(ctx: typer.Context) -> None:
    """List the shipped themes (id, title, cards, characters, player counts).

    Show one in full, from a shipped id or the path to a theme TOML file:

    bangsim themes show walking_dead

    Start a variant from a shipped theme's file (then edit it; pass its path as --theme):

    bangsim themes export classic > my_variant.toml
    """
    if ctx.invoked_subcommand is None:
        from simcore.themeinfo import theme_list_text

        try:
            typer.echo(theme_list_text())
        except ValueError as e:
            fail(str(e))


@themes_app.command("show")
def themes_show(
    theme: Annotated[str, typer.Argument(help="Theme id (classic, ...) or path to a theme TOML.")],
) -> None:
    """Print one theme: deck, characters, draw! checks and rule flags.

    Deck: card name, effect, cost, copies, faces. Characters: name, life, ability.

    A broken theme file gives one error line (exit code 2).
    """
    from simcore.theme import load_theme
    from simcore.themeinfo import theme_text

    try:
        loaded = load_theme(theme)
    except ValueError as e:
        fail(str(e))
    typer.echo(theme_text(loaded))


@themes_app.command("export")
def themes_export(
    theme: Annotated[str, typer.Argument(help="Shipped theme id (bangsim themes lists them).")],
    out: Annotated[
        Path | None,
        typer.Option(help="File to write (must not exist yet); default: standard output."),
    ] = None,
) -> None:
    """Print a shipped theme's TOML file, verbatim with its comments, to start a variant.

    Give the copy its own id (the id key of its theme table, so reports and experiments
    can tell it from the original), edit it, then pass its path wherever a theme id is
    accepted.

    Examples:

    bangsim themes export classic > my_variant.toml

    bangsim themes export walking_dead --out my_wd.toml

    bangsim run --theme my_variant.toml --games 100000 --out runs/my_variant
    """
    from simcore.theme import shipped_theme_file

    try:
        text = shipped_theme_file(theme).read_text(encoding="utf-8")
    except ValueError as e:
        fail(str(e))
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        with out.open("x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        fail(f"{out}: already exists (remove it or choose another --out)")
    except OSError as e:
        fail(f"{out}: cannot write: {e.strerror}")
    typer.echo(f"wrote {out} (theme '{theme}'; change its [theme] id before using it)")


@app.command()
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
) -> None:
    """Render a run folder's report and print its balance summary.

    html writes one self-contained page, RUN/report/index.html (charts embedded, and saved
    beside it as PNGs): win rates by side, role, character and seat with 95% intervals,
    and game length. csv and json write every table of the report, one file each.

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
        written = [write_report(loaded, out)]
    else:
        written = export_tables(loaded.tables, format, out or loaded.run / "report")
    typer.echo(terminal_summary(loaded.tables, loaded.names))
    for line in featured_lines(loaded.tables["featured"], loaded.names):
        typer.echo(line)
    where = (
        written[0] if format == "html" else f"{len(written)} {format} files in {written[0].parent}"
    )
    typer.echo(f"report: {where}")


@app.command()
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


@app.command()
def trace(
    game: Annotated[int, typer.Option(help="Game index, 0 first: the seat rows' game column.")],
    run: Annotated[
        Path | None,
        typer.Argument(
            help="Run folder to replay a game of (its manifest gives the theme, players, "
            "seed, ...); leave it out to give --theme, --players and --seed instead.",
            metavar="RUN",
        ),
    ] = None,
    config: Annotated[
        str | None,
        typer.Option(help="The run's configuration label (needed when it has several)."),
    ] = None,
    theme: Annotated[
        str | None, typer.Option(help="Without RUN: theme id or path (default classic).")
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Without RUN: players at the table (default 5).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Without RUN: the seed (default 1).")] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            help='Without RUN: bot preset, or one per role "leader=smart,..." (default smart).'
        ),
    ] = None,
    characters: Annotated[
        str | None,
        typer.Option(help="Without RUN: character pool, comma-separated theme names."),
    ] = None,
    feature: Annotated[
        str | None,
        typer.Option(help='Without RUN: a featured character, "NAME" or "NAME=ROLE".'),
    ] = None,
    format: Annotated[
        str, typer.Option("--format", help="text: play by play; json: the same events as data.")
    ] = "text",
) -> None:
    """Replay one game exactly and print it play by play, in the theme's own words.

    Every game's randomness is keyed by (seed, game index), so any game of any run replays
    as it was played: the deal (roles, characters, life, hands), each turn's draws, every
    card played with its target (and, for a BANG!, the distance and the reach), every
    answer, every draw! with the card revealed and whether it succeeded, damage and its
    source, deaths with the revealed role, rewards and penalties, and the winner. At each
    play the bot's enemy scores for the others show what it believed (above 0: an enemy).
    The replay runs the same kernel as plain Python: a second or two for a game.

    Examples:

    bangsim trace runs/classic --game 4217 --config classic/5p/smart

    bangsim trace --theme classic --players 5 --seed 1 --game 4217

    bangsim trace --theme star_wars --players 6 --game 3 --format json > game3.json
    """
    import json

    from simcore.trace import (
        TraceError,
        check_against_rows,
        render_text,
        spec_from_options,
        spec_from_run,
        trace_games,
    )

    try:
        if format not in ("text", "json"):
            raise TraceError(f"--format must be text or json, got {format!r}")
        if run is not None:
            given = [
                f"--{name}"
                for name, value in (
                    ("theme", theme),
                    ("players", players),
                    ("seed", seed),
                    ("strategy", strategy),
                    ("characters", characters),
                    ("feature", feature),
                )
                if value is not None
            ]
            if given:
                raise TraceError(
                    f"{run} gives the theme, players, seed, strategy and characters of its "
                    f"games; leave out {', '.join(given)} (or leave out the run folder)"
                )
            spec = spec_from_run(run, game, config)
        else:
            if config is not None:
                raise TraceError("--config picks a configuration of a run folder: give RUN too")
            spec = spec_from_options(
                theme or "classic",
                players if players is not None else 5,
                seed if seed is not None else 1,
                game,
                strategy or "smart",
                parse_characters(characters),
                feature,
            )
    except ValueError as e:
        fail(str(e))
    [traced] = trace_games([spec])
    if run is not None:
        check_against_rows(run, traced)
    if format == "json":
        typer.echo(json.dumps(traced, ensure_ascii=False, indent=1))
    else:
        typer.echo(render_text(traced))


@app.command()
def tournament(
    theme: Annotated[str, typer.Option(help="Theme id or path to a theme TOML file.")] = "classic",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 5,
    games: Annotated[int, typer.Option(help="Games per (role, preset) cell.")] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed, shared by every cell.")] = 1,
    presets: Annotated[
        str | None,
        typer.Option(help="Comma-separated presets to try (default: every preset)."),
    ] = None,
    field: Annotated[str, typer.Option(help="Preset every other seat plays.")] = "smart",
) -> None:
    """Which strategy is best for which role: each preset in each role against a field.

    For every role, the seats of that role play each preset in turn while every other seat
    plays the field preset; all cells replay the same deals (one seed), so differences are
    the strategies', not luck. Prints each preset's win rate in each role with a 95% interval.

    Example: bangsim tournament --theme classic --players 5 --games 50000
    """
    from simcore.engine import check_players
    from simcore.theme import ThemeError, load_theme
    from strategies.tournament import tournament as play_tournament

    try:
        loaded = load_theme(theme)
        check_players(loaded, players)
        if games < 1:
            raise ValueError("games must be at least 1")
        names = [p.strip() for p in presets.split(",")] if presets else None
        table = play_tournament(loaded, players, games, seed, names, field)
    except (ThemeError, ValueError) as e:
        fail(str(e))
    typer.echo(f"{loaded.id}, {players} players, field {field}, {games:,} games per cell")
    for role, rows in table.group_by("role", maintain_order=True):
        typer.echo(f"  {loaded.role_names[role[0]]}")
        for row in rows.sort("rate", descending=True).iter_rows(named=True):
            typer.echo(
                f"    {row['preset']:<12} {100 * row['rate']:5.1f}% "
                f"[{100 * row['lower']:.1f}, {100 * row['upper']:.1f}]"
            )


@app.command()
def abilities(
    ctx: typer.Context,
    theme: Annotated[str, typer.Option(help="Theme id or path to a theme TOML file.")] = "classic",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 5,
    games: Annotated[
        int, typer.Option(help="Games per character and arm (with, without its ability).")
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed, shared by both arms of every character.")] = 1,
    strategy: Annotated[
        str,
        typer.Option(help='Bot preset every seat plays, or one per role: "leader=smart,...".'),
    ] = "smart",
    characters: Annotated[
        str | None,
        typer.Option(help="Characters to measure, comma-separated (default: all of the theme)."),
    ] = None,
    role: Annotated[
        str | None,
        typer.Option(help="Feature each character in this role only (default: any role)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder to write abilities.json and abilities.csv to (merged with what is "
            "there); a run folder's report then shows them."
        ),
    ] = None,
    threads: Threads = None,
    progress: ShowProgress = True,
    backend_name: BackendName = "local",
    address: RayAddress = None,
) -> None:
    """What each character's ability is worth, in win-rate points.

    Each character is featured in every game (a random seat) twice, on the same seeds: with
    its ability and with the ability replaced by none, life as printed. The games pair up
    (same deal, same seats), so the difference needs far fewer games than two independent
    runs. Prints, largest first: the win rate with and without (95% Wilson intervals) and
    the value with a paired 95% interval; a value below zero beyond noise is flagged.

    Examples:

    bangsim abilities --theme classic --players 5 --games 50000

    bangsim abilities --characters "Willy the Kid,Jourdonnais" --role outlaw --out runs/classic
    """
    from tqdm.auto import tqdm

    from simcore.abilities import ability_lines, ability_values, write_abilities

    try:
        if threads is not None:
            set_threads(threads)
        if out is not None:
            check_writable(out)
        pool = parse_characters(characters)
        bar = lambda names: tqdm(  # noqa: E731
            names, unit="character", disable=not progress, dynamic_ncols=True, desc=theme
        )
        backend = open_backend(ctx, backend_name, address)
        start = time.perf_counter()
        table = ability_values(theme, players, games, seed, strategy, pool, role, bar, backend)
    except ValueError as e:
        fail(str(e))
    seconds = time.perf_counter() - start
    first = table.row(0, named=True)
    where = "any role" if first["role"] == "any" else f"the {first['role']} role"
    typer.echo(
        f"{first['theme']}, {players} players, {first['strategy']}, featured in {where}: "
        f"{games:,} games per character with and without its ability (seed {seed})"
    )
    typer.echo("\n".join(ability_lines(table)))
    typer.echo(
        "value: win rate with the ability minus without, the same deals paired; 95% interval "
        f"mean ± 1.96 sd/√n of the paired differences. {2 * games * table.height:,} games "
        f"in {seconds:.1f} s"
    )
    if out is not None:
        written = write_abilities(table, out)
        typer.echo(f"wrote {written[0]} and {written[1].name}")


# --- experiments --------------------------------------------------------------------------


@app.command()
def experiment(
    ctx: typer.Context,
    file: Annotated[
        str,
        typer.Argument(
            help="A shipped experiment's name, e.g. default (a wrong name lists them all), or "
            "the path to an experiment file (TOML), see docs/experiments.md.",
            metavar="NAME|FILE",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(help="Run folder to write (default: runs/<name>); rerun to resume."),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            help="Games per cell (replaces the file's experiment.games); with --precision, the "
            f"most per cell (default {DEFAULT_CAP:,}).",
        ),
    ] = None,
    precision: PrecisionOption = None,
    precision_characters: PrecisionCharactersOption = False,
    seed: Annotated[
        int | None, typer.Option(help="Seed (replaces the file's experiment.seed).")
    ] = None,
    feature: Annotated[
        str | None,
        typer.Option(
            help='A character in every game of every cell, "NAME" or "NAME=ROLE" (replaces '
            "the file's grid.feature)."
        ),
    ] = None,
    threads: Threads = None,
    progress: ShowProgress = True,
    events: WriteEvents = True,
    render: Annotated[
        bool, typer.Option("--report/--no-report", help="Render RUN/report/index.html after.")
    ] = True,
    backend_name: BackendName = "local",
    address: RayAddress = None,
) -> None:
    """Play a grid of configurations into one run folder and render one report comparing them.

    The grid is themes x player counts x character pools x strategies x override values of
    any theme setting (a rule, a card's copies, a character's life); each cell is labelled
    like classic/5p/smart/leader_extra_life=2. The whole grid is validated before anything
    is written; an interrupted experiment resumes when rerun.

    Shipped experiments run by name; start your own from a copy of one (in a clone:
    configs/experiments/) and pass its path.

    Examples:

    bangsim experiment default --out runs/default

    bangsim experiment leader_extra_life --games 20000

    bangsim experiment my_experiment.toml --out runs/mine
    """
    from simcore.experiment import execute_experiment, plan_experiment
    from simcore.experiment import pending_games as pending_experiment_games

    try:
        if threads is not None:
            set_threads(threads)
        plan = plan_experiment(
            file, out, games, seed, feature, events=events, precision=precision,
            precision_characters=precision_characters,
        )  # fmt: skip
    except ValueError as e:
        fail(str(e))
    for skipped in plan.skipped:
        typer.echo(f"skipped {skipped}: the theme has no role table for that many players")
    pending = pending_experiment_games(plan)
    backend = open_backend(ctx, backend_name, address)
    seconds = play_timed(
        lambda: execute_experiment(plan, progress, backend), plan.out, plan.chunks, plan.precision
    )
    played = played_line(plan.out, plan.chunks, pending, seconds)
    if not render:
        typer.echo(f"{played} ({len(plan.cells)} cells); results: {plan.out}")
        typer.echo(f"render the report with: bangsim report {plan.out}")
        return
    from reports.grid import terminal_summary
    from reports.report import featured_lines, load_report, write_report

    loaded = load_report(plan.out)
    page = write_report(loaded)
    typer.echo(terminal_summary(loaded.tables, loaded.names))
    for line in featured_lines(loaded.tables["featured"], loaded.names):
        typer.echo(line)
    typer.echo(f"{played} ({len(plan.cells)} cells); results: {plan.out}")
    typer.echo(f"report: {page}")


# --- self-checks ----------------------------------------------------------------------------


@app.command()
def selfcheck(
    games: Annotated[
        int, typer.Option(help="Games per theme and strategy (more: narrower intervals).")
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same verdicts.")] = 1,
    players: Annotated[int, typer.Option(help="Players at the table.")] = 5,
) -> None:
    """Check facts any correct engine must show, on simulated games of every shipped theme.

    Each line prints the observed value, the expected value and the interval the observed
    value must fall in: draw! rates (Barrel, Jail, Dynamite, A New Hope, Black Jack's second
    card) against the faces of the draw pile, Beers with two players left never healing,
    the Renegade never winning with anyone else alive, and The Walking Dead agreeing with
    classic (the same game re-skinned). Exit code 1 when any check fails.

    Example: bangsim selfcheck --games 50000
    """
    from simcore.selfcheck import run_selfcheck

    if games < 100:
        fail("games must be at least 100 for the checks to mean anything")
    if not 0 <= seed < 2**63:
        fail("seed must be between 0 and 2**63 - 1")
    checks = run_selfcheck(games, seed, players, progress=lambda t: typer.echo(f"playing {t} ..."))
    for check in checks:
        typer.echo(check.line())
    failed = sum(not c.passed for c in checks)
    typer.echo(f"{len(checks) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


# --- strategy search ------------------------------------------------------------------------

# a best response's budget, shared by tune and exploit
Generations = Annotated[int, typer.Option(help="CMA-ES generations per best response.")]
GamesMin = Annotated[int, typer.Option(help="Games per candidate, first generation.")]
GamesMax = Annotated[int, typer.Option(help="Games per candidate, last generation.")]
FinalGames = Annotated[
    int, typer.Option(help="Fresh deals each answer is re-measured on against the field.")
]


def search_budget(generations: int, games_min: int, games_max: int, final_games: int) -> dict:
    """The best-response settings the options give; one-line errors for bad values."""
    for name, value, least in (
        ("generations", generations, 1),
        ("games-min", games_min, 32),
        ("games-max", games_max, games_min),
        ("final-games", final_games, 100),
    ):
        if value < least:
            fail(f"--{name} must be at least {least}")
    return dict(
        generations=generations, games_min=games_min, games_max=games_max, final_games=final_games
    )


@app.command()
def tune(
    ctx: typer.Context,
    theme: Annotated[str, typer.Option(help="Theme id or path to a theme TOML file.")] = "classic",
    players: Annotated[
        str, typer.Option(help='Player counts: "5", a range "4-7", or a list "4,6".')
    ] = "5",
    role: Annotated[
        str | None,
        typer.Option(help="Search only this role's best response to --field (one player count)."),
    ] = None,
    field: Annotated[
        str,
        typer.Option(
            help='The strategy to start from (every seat): a preset, "role=preset,...", or '
            "path/to/presets.toml:NAME."
        ),
    ] = "smart",
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same search.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the searches' states and results (default: runs/tune/THEME); "
            "rerun the same command to resume."
        ),
    ] = None,
    threshold: Annotated[
        float, typer.Option(help="Stop once no role gains more than this many points in a round.")
    ] = 1.0,
    rounds: Annotated[int, typer.Option(help="At most this many rounds over the roles.")] = 3,
    generations: Generations = 40,
    games_min: GamesMin = 1000,
    games_max: GamesMax = 8000,
    final_games: FinalGames = 40_000,
    backend_name: BackendName = "local",
    address: RayAddress = None,
    progress: ShowProgress = True,
) -> None:
    """Tune strategies by search: iterated best responses over the roles, or one role's.

    Without --role: for each player count, cycle over the roles (leader, deputy, outlaw,
    renegade), replacing each role's parameters by its best response to the current field,
    until no role gains more than --threshold points in a round or --rounds are done; writes
    OUT/tuned.toml (the preset `tuned`, per player count and role) and OUT/trail.json.

    With --role: that role's best response to --field at one player count; writes
    OUT/best.toml (the field with the role replaced: --strategy OUT/best.toml:best).

    A best response is CMA-ES (with margin, for integer and on/off parameters) over every key
    of strategies/params.py; each generation's candidates play the same deals; the answer is
    re-measured against the field's own parameters on fresh deals with a paired 95%
    interval. See docs/strategies.md.

    Examples:

    bangsim tune --role outlaw --theme classic --players 5

    bangsim tune --theme classic --players 4-7 --out runs/tune/classic
    """
    from tqdm.auto import tqdm

    from simcore.atomic import write_atomic
    from simcore.theme import load_theme
    from strategies.presets import preset_toml, resolve_strategy
    from strategies.search import Settings, best_response, iterate

    budget = search_budget(generations, games_min, games_max, final_games)
    try:
        counts = parse_players(players)
        resolve_strategy(field)
    except ValueError as e:
        fail(str(e))
    folder = out or Path("runs") / "tune" / Path(theme).stem
    check_writable(folder)
    backend = open_backend(ctx, backend_name, address)

    def save(path: Path, text: str) -> None:
        write_atomic(path, text.encode())

    if role is not None:
        if role not in ROLES:
            fail(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
        if len(counts) != 1:
            fail("--role searches one player count: give --players a single number")
        settings = Settings(theme, counts[0], role, field, seed, **budget)
        folder = folder / f"{counts[0]}p-{role}" if out is None else folder
        bar = tqdm(total=generations, desc=f"tune {role}", unit="gen", disable=not progress)

        def progress(done, gen, best):
            bar.n = done
            bar.set_postfix_str(f"{gen.games} games/candidate, best gain {100 * best:+.1f} pts")

        try:
            result = best_response(settings, folder, progress, backend)
        except ValueError as e:
            fail(str(e))
        finally:
            bar.close()
        matrix = resolve_strategy(field, counts[0], load_theme(theme).id).matrix.copy()
        matrix[ROLES.index(role)] = result.vector
        save(folder / "best.toml", preset_toml("best", {counts[0]: matrix}, result.summary()))
        typer.echo(result.summary())
        typer.echo(f"preset: --strategy {folder / 'best.toml'}:best; search: {folder}")
        return

    tables, trail = {}, []
    t0 = time.perf_counter()
    for n in counts:
        bar = tqdm(desc=f"tune {n}p", unit="best response", disable=not progress)
        try:
            matrix, steps = iterate(
                theme,
                n,
                field,
                seed,
                folder / f"{n}p",
                threshold / 100,
                rounds,
                budget,
                lambda what, bar=bar: (bar.set_postfix_str(what), bar.update(1)),
                backend,
            )
        except ValueError as e:
            fail(str(e))
        finally:
            bar.close()
        trail += steps
        tables[n] = matrix
        for step in steps:
            typer.echo(
                f"{n}p round {step.round} {step.role:<8} gain {100 * step.gain:+5.1f} pts "
                f"[{100 * step.gain_low:+.1f}, {100 * step.gain_high:+.1f}]"
                f"{'' if step.replaced else ' (kept the old values)'}"
            )
    games = sum(s.games for s in trail)
    header = (
        f"bangsim tune --theme {theme} --players {players} --field {field} --seed {seed} "
        f"(threshold {threshold} points, at most {rounds} rounds); {games:,} games, "
        f"{time.perf_counter() - t0:.0f} s this run"
    )
    save(folder / "tuned.toml", preset_toml("tuned", tables, header))
    save(folder / "trail.json", json.dumps([asdict(s) for s in trail], indent=1) + "\n")
    typer.echo(f"preset: --strategy {folder / 'tuned.toml'}:tuned; trail: {folder / 'trail.json'}")


@app.command()
def exploit(
    ctx: typer.Context,
    strategy: Annotated[
        str,
        typer.Option(help='The strategy measured: a preset, "role=preset,...", or path.toml:NAME.'),
    ] = "smart",
    theme: Annotated[str, typer.Option(help="Theme id or path to a theme TOML file.")] = "classic",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed of the searches.")] = 1,
    out: Annotated[
        Path | None, typer.Option(help="Folder to keep the searches in (resumable).")
    ] = None,
    output: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    generations: Generations = 40,
    games_min: GamesMin = 1000,
    games_max: GamesMax = 8000,
    final_games: FinalGames = 40_000,
    backend_name: BackendName = "local",
    address: RayAddress = None,
    progress: ShowProgress = True,
) -> None:
    """How far a strategy is from strong play: per role, what a best response gains.

    For each role at the table, a best response searched against the strategy (every other
    seat plays it) is re-measured on fresh deals against the strategy's own parameters for
    that role: the gain in points with a paired 95% interval. The total sums the roles'.
    Near 0 everywhere: no role can do much better against this field.

    Example: bangsim exploit --strategy smart --theme classic --players 5 --format json
    """
    from strategies.presets import resolve_strategy
    from strategies.search import exploitability

    if output not in ("text", "json"):
        fail(f"--format must be text or json, got {output!r}")
    budget = search_budget(generations, games_min, games_max, final_games)
    try:
        resolve_strategy(strategy)
    except ValueError as e:
        fail(str(e))
    if out is not None:
        check_writable(out)
    backend = open_backend(ctx, backend_name, address)

    def announce(role: str) -> None:
        if progress:
            typer.echo(f"searching the {role}'s best response ...", err=True)

    try:
        result = exploitability(
            strategy,
            theme,
            players,
            seed,
            out,
            budget,
            announce,
            backend,
        )
    except ValueError as e:
        fail(str(e))
    if output == "json":
        typer.echo(json.dumps(result.as_dict(), indent=1))
        return
    typer.echo(f"exploitability of {strategy} ({result.theme}, {players} players):")
    for r in result.roles:
        typer.echo(
            f"  {r.settings.role:<8} {100 * r.baseline_rate:5.1f}% -> {100 * r.answer_rate:5.1f}%"
            f"  gain {100 * r.gain:+5.1f} pts [{100 * r.gain_low:+.1f}, {100 * r.gain_high:+.1f}]"
        )
    typer.echo(
        f"  total    {100 * result.total:+.1f} pts "
        f"[{100 * result.total_low:+.1f}, {100 * result.total_high:+.1f}]"
    )


# --- balance search -------------------------------------------------------------------------


@app.command()
def balance(
    ctx: typer.Context,
    file: Annotated[
        str,
        typer.Argument(
            help="A shipped balance file's name, e.g. classic_5p, or the path to a balance "
            "file (TOML): targets and knobs, see docs/balance.md.",
            metavar="NAME|FILE",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the search's state, the variants and the page (default: "
            "runs/balance/<name>); rerun the same command to resume."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed (replaces the file's balance.seed).")
    ] = None,
    backend_name: BackendName = "local",
    address: RayAddress = None,
    threads: Threads = None,
    progress: ShowProgress = True,
    retune: Annotated[
        bool,
        typer.Option(
            "--retune",
            help="Then re-tune the strategies for the chosen (and the closest) variant, one "
            "round of best responses per table, and say whether the verdict holds.",
        ),
    ] = False,
) -> None:
    """Search the smallest theme changes that bring the win rates to your targets.

    The file names the theme(s), player counts and strategy (default tuned), the targets
    (win rate per side and player count, and/or every character's effect within ± a band)
    and the knobs (theme settings the search may move, each with its allowed values). The
    answer is the Pareto front: for each number of changes, the variant closest to the
    targets, re-measured on fresh deals with 95% intervals against the targets and the
    printed theme. Each changed variant is written as a ready theme file,
    OUT/variants/NAME.toml (bangsim run --theme OUT/variants/NAME.toml), and the page
    OUT/report/index.html shows the front and every variant's changes in words.

    The search is deterministic for a seed, saves its state after every round and resumes
    when rerun. See docs/balance.md.

    Examples:

    bangsim balance classic_5p --out runs/balance/classic_5p

    bangsim balance my_targets.toml --seed 2 --backend ray --address 10.0.0.5:6379

    bangsim balance classic_5p --retune
    """
    from tqdm.auto import tqdm

    from reports.balance import answer_lines, write_balance_page
    from simcore.balance import read_problem
    from simcore.balance_search import (
        measure,
        saved_state,
        search,
        write_result,
        write_variants,
    )

    try:
        if threads is not None:
            set_threads(threads)
        problem = read_problem(file, seed)
    except ValueError as e:
        fail(str(e))
    folder = out or Path("runs") / "balance" / problem.source.stem
    check_writable(folder)
    saved_state(folder, problem)  # another search's folder: one line before any bar
    backend = open_backend(ctx, backend_name, address)
    bar = tqdm(total=problem.budget.generations, desc="balance", unit="round", disable=not progress)

    def shown(state) -> None:
        bar.n = len(state.trail)
        front = ", ".join(f"{k}: {100 * d:.1f}" for k, d in state.trail[-1].front)
        bar.set_postfix_str(f"{state.trail[-1].games} games each; front (changes: points) {front}")

    try:
        state = search(problem, folder, backend.map, shown)
    finally:
        bar.close()
    answer = measure(problem, state, folder, backend.map)
    write_variants(problem, answer, folder)
    retuned = []
    if retune:
        from simcore.balance_retune import retune as retune_variants

        typer.echo("re-tuning the strategies for the chosen variant ...", err=True)
        retuned = retune_variants(problem, state, answer, folder, backend)
    write_result(problem, state, answer, folder, retuned)
    page = write_balance_page(problem, state, answer, folder, retuned if retune else None)
    for line in answer_lines(problem, answer, retuned):
        typer.echo(line)
    games = answer.games + sum(r.games for r in retuned)
    seconds = answer.seconds + sum(r.seconds for r in retuned)
    variants = folder / "variants" if len(answer.variants) > 1 else "none (no change is closer)"
    typer.echo(f"{games:,} games, {seconds:.0f} s; variants: {variants}; page: {page}")


@app.command()
def bench(
    games: Annotated[
        int | None, typer.Option(min=1, help="Games per timing of each theme, players, strategy.")
    ] = None,
    target_games: Annotated[
        int | None, typer.Option(min=1, help="Games per timing of classic 5p smart.")
    ] = None,
    run_games: Annotated[
        int | None, typer.Option(min=0, help="Games of the timed `bangsim run` (0 skips it).")
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="Fewer games everywhere and no cold start: seconds.")
    ] = False,
    cold: Annotated[
        bool | None,
        typer.Option(
            "--cold/--no-cold", help="Time a start with an empty numba cache (about 1-2 min)."
        ),
    ] = None,
    event_pairs: Annotated[
        int, typer.Option(min=0, help="Alternating off/on pairs timing the event files' cost.")
    ] = 0,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the results to this JSON file.")
    ] = None,
) -> None:
    """How fast bangsim plays on this machine, against the speed targets (docs/speed.md).

    Games/s of every shipped theme at 4 and 7 players with smart and tuned bots, on one
    thread and on all (parallel efficiency, microseconds per turn); classic 5 players smart
    with more games; a timed `bangsim run` (Parquet included) and its peak memory; the time
    from a fresh process to the first game with a warm and an empty numba cache. About 3
    minutes on 2 cores; --quick takes seconds.

    Example: bangsim bench --json bench.json
    """
    from simcore.bench import QUICK, Settings, table, write_json
    from simcore.bench import bench as run_bench

    if json_out is not None:
        check_writable(json_out.parent, "--json")
    base = QUICK if quick else Settings()
    given = dict(games=games, target_games=target_games, run_games=run_games, cold=cold)
    given = {k: v for k, v in given.items() if v is not None}
    settings = Settings(**{**asdict(base), **given, "event_pairs": event_pairs})
    result = run_bench(settings, say=typer.echo)
    typer.echo("")
    typer.echo(table(result))
    if json_out is not None:
        write_json(result, json_out)
        typer.echo(f"results: {json_out}")
