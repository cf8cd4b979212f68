"""`bangsim run` and `bangsim experiment`: games played into a run folder, resumable, with the
balance grid at the end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import polars as pl
import typer

from simcore.cli.options import (
    OPTIONS,
    BackendName,
    RayAddress,
    ShowProgress,
    Threads,
    WriteEvents,
    fail,
    games_option,
    open_backend,
    parse_characters,
    parse_players,
    set_threads,
)
from simcore.engine.theme import Theme, face_warnings
from simcore.errors import EXIT_INTERRUPTED
from simcore.runs.lock import folder_lock
from simcore.runs.precision import DEFAULT_CAP
from simcore.runs.runfolder import (
    DEFAULT_CHUNK_SIZE,
    RunFolderError,
    chunks_kept,
    done_files,
    execute_study,
    grown_from,
    pending_games,
    pending_in,
    plan_study,
    read_manifest,
)
from strategies.presets import DEFAULT_PRESET, values_source

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
        games_option(
            f"Games per player count (default {RUN_GAMES:,}; 100,000 and 1e5 read too); with "
            f"--precision, the most per player count (default {DEFAULT_CAP:,}).",
            show_default=False,
        ),
    ] = None,
    precision: PrecisionOption = None,
    precision_characters: PrecisionCharactersOption = False,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same games.")] = 1,
    strategy: Annotated[
        str,
        typer.Option(
            help="Bot preset every seat plays: tuned (found by search, the strongest and the "
            "reference for verdicts, as in experiment default and balance; shipped per theme in "
            "strategies/tuned, classic's where a theme has none), smart, basic, random, "
            "aggressive or cautious; or one "
            'per role: "leader=smart,outlaw=aggressive"; or a mixture file (a mixed strategy, '
            "from bangsim tune --method psro): strategies/mixtures/classic-5p.json."
        ),
    ] = DEFAULT_PRESET,
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

    Prints a grid of side win rates per player count, * where a rate misses an even share
    by more than 5 points with its whole 95% Wilson interval. The folder holds
    manifest.json (what was asked, versions, chunks done), seats/*.parquet (one row per
    seat per game) and, unless --no-events, events/*.parquet (one row per game: draw! checks, damage by source, cards used by each
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
    ctx.with_resource(folder_lock(out))  # a second writer is refused before a backend starts
    if study.theme.shipped_id is not None:
        typer.echo(
            f"note: {theme} gives the id '{study.theme.shipped_id}' but differs from that "
            f"shipped theme, so it plays as '{study.theme.id}' (bangsim themes diff "
            f"{study.theme.shipped_id} {theme} lists the differences)"
        )
    there = (read_manifest(out) or {}).get("request", {}) if out.is_dir() else {}
    grown = grown_from(there, study.request)
    if grown is not None:
        typer.echo(
            f"adding games to {out}: {grown:,} per configuration there, {study.games:,} asked "
            "(the same seed: the games played are kept and the new ones added)"
        )
    for line in face_warnings(study.theme):
        typer.echo(f"warning: {theme}: {line}", err=True)
    source = values_source(study.strategy, study.theme.plays_as)
    if source is not None and source != study.theme.id:
        typer.echo(
            f"note: {study.theme.id} has no tuned values of its own: its tuned seats play "
            f"{source}'s (strategies/tuned/{source}.toml)"
        )
    backend = open_backend(ctx, backend_name, address)
    pending = pending_games(study)
    seconds = play_timed(
        lambda: execute_study(study, progress, backend), out, study.chunks, study.precision
    )
    replay_bands(out, study.chunks)
    typer.echo(summary_text(out, study.theme))
    if study.feature is not None:
        typer.echo(featured_text(out, study.theme))
    typer.echo(played_line(out, study.chunks, pending, seconds) + f"; results: {out}")
    typer.echo(
        f"report: bangsim report {out} (HTML page with charts; --format csv|json for tables)"
    )


def played_line(out: Path, chunks: list[Any], pending: int, seconds: float) -> str:
    """played_text for `chunks` played into `out`, `pending` games of them unplayed before;
    an adaptive run (--precision) first says where it stopped, and counts what it played,
    not its cap."""
    from simcore.runs.precision import precision_lines

    left = pending_in(out, chunks)
    manifest = read_manifest(out) or {}
    lines = precision_lines(manifest) if "precision" in manifest else []
    return "\n".join(
        [*lines, played_text(pending - left, sum(c.games for c in chunks) - left, seconds)]
    )


def replay_bands(out: Path, chunks: list[Any]) -> None:
    """The band ends of the run's cells that a shipped band applies to, replayed on their
    deals and kept in the run folder for its reports (reports.bands.keep_bands); says how
    many games that took, when it took any."""
    from reports.bands import BANDS_FILE, keep_bands

    done = done_files(out, chunks)
    games: dict[str, int] = {}
    cells = {}
    for chunk in chunks:
        if chunk.file in done:
            games[chunk.label] = games.get(chunk.label, 0) + chunk.games
            cells[chunk.label] = chunk.cell
    start = time.perf_counter()
    played = keep_bands(
        out,
        read_manifest(out),
        [(c, cell.theme.id, cell.players, games[c]) for c, cell in cells.items()],
    )
    if played:
        typer.echo(
            f"replayed the band ends on this run's deals: {played:,} games in "
            f"{time.perf_counter() - start:.1f} s (kept in {out / BANDS_FILE} for its reports)"
        )


def kernel_cold() -> bool:
    """Whether the kernel (play_block) has no compiled code for its present source, in this
    process or in numba's cache: the next game compiles it first (minutes, once)."""
    from numba import config

    from simcore.engine.play import play_block

    if config.DISABLE_JIT or play_block.signatures:
        return False
    try:
        return not play_block._cache._cache_file._load_index()  # numba's index of this source
    except (AttributeError, OSError):
        return False  # a numba without that index: say nothing


def warm_up() -> None:
    """Compile the kernel (or load it from the cache) by playing one game."""
    from simcore.engine.limits import MIN_PLAYERS
    from simcore.engine.play import play_games
    from strategies.presets import resolve_strategy

    play_games("classic", MIN_PLAYERS, 1, 1, strategy=resolve_strategy("smart", MIN_PLAYERS))


def play_timed(execute, out: Path, chunks: list[Any], adaptive: Any = None) -> float:
    """Run `execute()` (plays `chunks` into the run folder `out`; with an `adaptive`
    precision target, only as many as it needs); seconds it took. A folder error is one
    line and exit 2; Ctrl-C keeps the complete chunks, says how many, exits 130."""
    if kernel_cold():
        typer.echo(
            "compiling the game kernel, once: about 3 to 4 minutes on 2 cores (later runs "
            "load it from the cache and start at once)",
            err=True,
        )
        start = time.perf_counter()
        warm_up()
        typer.echo(f"compiled in {time.perf_counter() - start:.0f} s", err=True)
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


def summary_text(out: Path, theme: Theme) -> str:
    """The balance grid (reports.grid): side win rates per configuration and player count,
    marked where a rate misses an even share by more than 5 points beyond luck, any capped
    games, and the verdict
    in words (reports.verdict)."""
    from reports.aggregate import game_lengths, turn_histogram
    from reports.grid import terminal_summary
    from reports.names import Names
    from reports.verdict import verdict_lines
    from simcore.runs.cells import collect_cells, scan_seats, side_win_rates

    cells = collect_cells(scan_seats(out))
    sides, lengths = pl.collect_all([side_win_rates(cells), game_lengths(turn_histogram(cells))])
    names = Names({theme.id: dict(theme.role_names)}, {theme.id: theme.title})
    configs = (read_manifest(out) or {}).get("configs", [])
    return "\n".join(
        [
            terminal_summary({"sides": sides, "game_lengths": lengths}, names),
            *verdict_lines(configs, sides, names),
        ]
    )


def featured_text(out: Path, theme: Theme) -> str:
    """The featured character's win rate per role against the rest of its role."""
    from reports.aggregate import featured_effects
    from reports.names import Names
    from reports.report import featured_lines
    from simcore.runs.cells import collect_cells, scan_seats

    table = featured_effects(collect_cells(scan_seats(out))).collect()
    names = Names({theme.id: dict(theme.role_names)}, {theme.id: theme.title})
    return "\n".join(featured_lines(table, names))


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
        games_option(
            "Games per cell (replaces the file's experiment.games; 100,000 and 1e5 read too); "
            f"with --precision, the most per cell (default {DEFAULT_CAP:,}).",
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
    from simcore.runs.experiment import execute_experiment, plan_experiment

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
    ctx.with_resource(folder_lock(plan.out))  # as in run: held until the report is written
    pending = pending_games(plan)
    backend = open_backend(ctx, backend_name, address)
    seconds = play_timed(
        lambda: execute_experiment(plan, progress, backend), plan.out, plan.chunks, plan.precision
    )
    played = played_line(plan.out, plan.chunks, pending, seconds)
    replay_bands(plan.out, plan.chunks)
    if not render:
        typer.echo(f"{played} ({len(plan.cells)} cells); results: {plan.out}")
        typer.echo(f"render the report with: bangsim report {plan.out}")
        return
    from reports.report import load_report, write_report
    from simcore.cli.reading import echo_summary

    start = time.perf_counter()
    loaded = load_report(plan.out)
    page = write_report(loaded, progress=progress)
    rendered = time.perf_counter() - start
    echo_summary(loaded)
    typer.echo(f"{played} ({len(plan.cells)} cells); results: {plan.out}")
    typer.echo(f"report: {page} (rendered in {rendered:.1f} s)")
