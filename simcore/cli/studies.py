"""`bangsim abilities` and `bangsim balance`: what each character's ability is worth, and the
search for the smallest theme changes that meet balance targets."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import (
    BackendName,
    RayAddress,
    ShowProgress,
    Threads,
    fail,
    games_option,
    open_backend,
    parse_characters,
    set_threads,
)
from simcore.runs.runfolder import (
    check_writable,
)


def abilities(
    ctx: typer.Context,
    theme: Annotated[str, typer.Option(help="Theme id or path to a theme TOML file.")] = "classic",
    players: Annotated[int, typer.Option(help="Players at the table.")] = 5,
    games: Annotated[
        int, games_option("Games per character and arm (with, without its ability).")
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

    from simcore.studies.abilities import ability_lines, ability_values, write_abilities

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
    retune_inside: Annotated[
        bool,
        typer.Option(
            "--retune-inside",
            help="Judge the candidates at strategies re-tuned for each (search.retune = "
            '"inside"): screened under the file\'s strategy, the closest re-tuned lightly, '
            "the front re-tuned fully, then again with another seed on fresh deals.",
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

    bangsim balance classic_5p --retune-inside --out runs/balance/classic_5p-inside
    """
    from tqdm.auto import tqdm

    from reports.balance import answer_lines, write_balance_page
    from simcore.studies.balance import read_problem
    from simcore.studies.balance_search import (
        measure,
        saved_state,
        search,
        write_result,
        write_variants,
    )

    try:
        if threads is not None:
            set_threads(threads)
        problem = read_problem(file, seed, "inside" if retune_inside else None)
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
    stages = None
    if problem.budget.retune == "inside":
        from simcore.studies.balance_inside import Arena, measure_inside, search_inside

        def said(text: str) -> None:
            if progress:
                typer.echo(text, err=True)

        arena = Arena(backend.map, backend)
        inside = search_inside(problem, state, folder, arena, progress=said)
        answer = measure_inside(problem, state, inside, folder, backend.map)
        stages = [s.record() for s in inside.stages]
    else:
        answer = measure(problem, state, folder, backend.map)
    write_variants(problem, answer, folder)
    retuned = []
    if retune:
        from simcore.studies.balance_retune import retune as retune_variants

        typer.echo("re-tuning the strategies for the chosen variant ...", err=True)
        retuned = retune_variants(problem, state, answer, folder, backend)
    write_result(problem, state, answer, folder, retuned, stages)
    page = write_balance_page(problem, state, answer, folder, retuned if retune else None, stages)
    for line in answer_lines(problem, answer, retuned):
        typer.echo(line)
    games = answer.games + sum(r.games for r in retuned)
    seconds = answer.seconds + sum(r.seconds for r in retuned)
    variants = folder / "variants" if len(answer.variants) > 1 else "none (no change is closer)"
    typer.echo(f"{games:,} games, {seconds:.0f} s; variants: {variants}; page: {page}")
