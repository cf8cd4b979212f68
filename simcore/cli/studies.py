"""`bangsim abilities`, `bangsim cards`, `bangsim character` and `bangsim balance`: what each
character's ability is worth, which card tips the balance, one character's answer to "too
strong?", and the search for the smallest theme changes that meet balance targets."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import (
    BackendName,
    PlayersOption,
    RayAddress,
    ShowProgress,
    StrategyOption,
    ThemeOption,
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
from strategies.presets import DEFAULT_PRESET


def abilities(
    ctx: typer.Context,
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    games: Annotated[
        int, games_option("Games per character and arm (with, without its ability).")
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed, shared by both arms of every character.")] = 1,
    strategy: StrategyOption = DEFAULT_PRESET,
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
    from simcore.progress import progress_bar
    from simcore.studies.abilities import ability_lines, ability_values, write_abilities

    try:
        if threads is not None:
            set_threads(threads)
        if out is not None:
            check_writable(out)
        pool = parse_characters(characters)
        bar = lambda names: progress_bar(  # noqa: E731
            iterable=names, unit="character", disable=not progress, dynamic_ncols=True, desc=theme
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


def cards(
    ctx: typer.Context,
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    games: Annotated[
        int, games_option("Games per arm: the printed deck, and each card knocked out.")
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed, shared by every arm.")] = 1,
    strategy: StrategyOption = DEFAULT_PRESET,
    names: Annotated[
        str | None,
        typer.Option("--cards", help="Cards to knock out, comma-separated (default: every card)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder to write cards-THEME_Np.json and its chart (.png) to: a run folder's "
            "report shows them."
        ),
    ] = None,
    threads: Threads = None,
    progress: ShowProgress = True,
    backend_name: BackendName = "local",
    address: RayAddress = None,
) -> None:
    """Which card tips the balance: each card knocked out of the deck, side by side.

    For every card, the games are played again with all its copies removed (one copy, where
    the deck would be too small without them all), on the same seeds as the printed deck:
    the same roles and characters in every game. Prints, largest first, how far each side's
    win rate moves without the card, in points with a paired 95% interval (* where it
    excludes 0). A positive number: that side wins more without the card, so the card
    works against it.

    Examples:

    bangsim cards --theme classic --players 5

    bangsim cards --theme walking_dead --cards "Missed!,First Aid" --games 50000

    bangsim cards --theme classic --players 5 --out runs/default   (then: bangsim report
    runs/default shows it)
    """
    from reports.charts import knockout_chart, png
    from reports.names import Names
    from simcore.engine.theme import load_theme
    from simcore.progress import progress_bar
    from simcore.studies.cards import PREFIX, card_lines, card_values, top_line
    from simcore.studies.stored import write_table

    try:
        if threads is not None:
            set_threads(threads)
        if out is not None:
            check_writable(out)
        pool = parse_characters(names, "--cards")
        bar = lambda names: progress_bar(  # noqa: E731
            iterable=names, unit="card", disable=not progress, dynamic_ncols=True, desc=theme
        )
        backend = open_backend(ctx, backend_name, address)
        start = time.perf_counter()
        table = card_values(theme, players, games, seed, strategy, pool, bar, backend)
        loaded = load_theme(theme)
    except ValueError as e:
        fail(str(e))
    seconds = time.perf_counter() - start
    named = Names({loaded.id: dict(loaded.role_names)}, {loaded.id: loaded.title})
    side = lambda s: named.side(s, loaded.id)  # noqa: E731
    label = table["strategy"][0]
    top = top_line(table, side)
    typer.echo(
        f"{loaded.title}, {players} players, {label}: {games:,} games per arm (seed {seed}). "
        f"{top[0].upper()}{top[1:]}."
    )
    typer.echo("\n".join(card_lines(table, side)))
    typer.echo(
        "points: a side's win rate without the card minus with it, the same seeds paired; "
        f"* the 95% interval excludes 0. {games * (table['card'].n_unique() + 1):,} games in "
        f"{seconds:.1f} s"
    )
    if out is not None:
        title = f"{loaded.title}, {players} players: each card knocked out, {label}"
        chart = png(knockout_chart(table, side, title))
        path = write_table(out, PREFIX, loaded.id, players, table, chart)
        typer.echo(f"wrote {path} and {path.with_suffix('.png').name}")


def character(
    name: Annotated[str, typer.Argument(help="The character, as the theme names it.")],
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    games: Annotated[
        int,
        games_option(
            "Games of the run its effect is read from (half as many per arm for its ability)."
        ),
    ] = 40_000,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same answer.")] = 1,
    strategy: StrategyOption = DEFAULT_PRESET,
    threads: Threads = None,
) -> None:
    """Is this character too strong or too weak? One answer, in plain sentences.

    First the headline, the report's figure: how much more often the character's players
    win than their roles do, over a run with every character in the pool. Then the same
    per role. Then what its ability is worth to it: featured in every game with and without
    its ability on the same deals (bangsim abilities), which says what the ability adds, not
    how the character compares with the others. Every number has its 95% interval.

    Example: bangsim character "Calamity Janet" --theme classic --players 5
    """
    from simcore.studies.character import character_answer, character_lines

    try:
        if threads is not None:
            set_threads(threads)
        start = time.perf_counter()
        answer = character_answer(name, theme, players, games, seed, strategy)
    except ValueError as e:
        fail(str(e))
    typer.echo("\n".join(character_lines(answer)))
    played = games + 2 * answer.ability["games"]
    typer.echo(f"{played:,} games in {time.perf_counter() - start:.1f} s")


def skill(
    ctx: typer.Context,
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    games: Annotated[int, games_option("Games per role and level.")] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed, shared by every cell.")] = 1,
    field: Annotated[
        str, typer.Option(help="The preset every seat of the other roles plays.")
    ] = DEFAULT_PRESET,
    search: Annotated[
        bool,
        typer.Option(
            "--search", help="Add a searching level (search:tuned): minutes, not seconds."
        ),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder to write skill-THEME_Np.json and its chart (.png) to."),
    ] = None,
    threads: Threads = None,
    backend_name: BackendName = "local",
    address: RayAddress = None,
) -> None:
    """Is this role luck or skill? Each role's win rate at each strategy level.

    For each role, its seats play each level in turn, weakest first (random, basic, smart,
    tuned, and strong where one is shipped; with --search a seat that searches), while every
    other seat plays the field; every cell replays the same deals. Prints each role's win
    rate per level and its gain from smart to the strongest level (paired 95% interval), and
    where skill is worth most: a steep role rewards skill, a flat one is luck.

    Example: bangsim skill --theme classic --players 5
    """
    from reports.charts import png, skill_chart
    from simcore.engine.theme import load_theme
    from simcore.studies.skill import PREFIX, skill_depth, skill_line, skill_lines
    from simcore.studies.stored import write_table

    try:
        if threads is not None:
            set_threads(threads)
        if out is not None:
            check_writable(out)
        loaded = load_theme(theme)
        backend = open_backend(ctx, backend_name, address)
        start = time.perf_counter()
        table = skill_depth(loaded, players, games, seed, field, search, backend=backend)
    except ValueError as e:
        fail(str(e))
    levels = table["level"].n_unique()
    typer.echo(
        f"{loaded.title}, {players} players: each role at each level, the others {field} "
        f"({games:,} games per cell, seed {seed})"
    )
    typer.echo("\n".join(skill_lines(table, loaded.role_names)))
    typer.echo(f"{loaded.title}: {skill_line(table, loaded.role_names)}.")
    cells = table["role"].n_unique() * levels
    typer.echo(f"{cells * games:,} games in {time.perf_counter() - start:.1f} s")
    if out is not None:
        title = f"{loaded.title}, {players} players: win rate by strategy level"
        chart = png(skill_chart(table, loaded.role_names, title))
        path = write_table(out, PREFIX, loaded.id, players, table, chart)
        typer.echo(f"wrote {path} and {path.with_suffix('.png').name}")


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
    from reports.balance import answer_lines, write_balance_page
    from simcore.progress import progress_bar
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
    bar = progress_bar(
        total=problem.budget.generations, desc="balance", unit="round", disable=not progress
    )

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
