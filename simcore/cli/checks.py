"""`bangsim trace`, `bangsim selfcheck` and `bangsim bench`: one game play by play, the
kernel checked against its rules, and its speed."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import PlayersOption, fail, games_option, parse_characters
from simcore.runs.runfolder import (
    check_writable,
)
from strategies.presets import DEFAULT_PRESET


def trace(
    game: Annotated[
        int | None,
        typer.Option(help="Game index, 0 first: the seat rows' game column (or --winner)."),
    ] = None,
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
            help='Without RUN: bot preset, or one per role "leader=smart,..." (default tuned); '
            '"outlaw=search:tuned" shows each searched decision\'s options and win rates.'
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
    winner: Annotated[
        str | None,
        typer.Option(
            help="With RUN, instead of --game: the first game this side won (leader, outlaw, "
            "renegade, or a role as the theme names it)."
        ),
    ] = None,
) -> None:
    """Replay one game exactly and print it play by play, in the theme's own words.

    Every game's randomness is keyed by (seed, game index), so any game of any run replays
    as it was played: the deal (roles, characters, life, hands), each turn's draws, every
    card played with its target (and, for a BANG!, the distance and the reach), every
    answer, every draw! with the card revealed and whether it succeeded, damage and its
    source, deaths with the revealed role, rewards and penalties, and the winner. At each
    play the bot's enemy scores for the others show what it believed (above 0: an enemy).
    A seat that searches (search:BASE) shows at each searched decision its options with
    their rollout wins, the one taken and BASE's choice. The replay runs the same kernel as
    plain Python: a second or two for a game.

    Examples:

    bangsim trace runs/classic --game 4217 --config classic/5p/smart

    bangsim trace --theme classic --players 5 --seed 1 --game 4217

    bangsim trace --theme star_wars --players 6 --game 3 --format json > game3.json

    bangsim trace --strategy renegade=search:tuned --game 3

    bangsim trace runs/classic --config classic/5p/tuned --winner renegade
    """

    from simcore.studies.trace import (
        TraceError,
        check_against_rows,
        game_won_by,
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
            if (game is None) == (winner is None):
                raise TraceError("give --game or --winner (which game of the run to replay)")
            if winner is not None:
                game = game_won_by(run, winner, config)
            spec = spec_from_run(run, game, config)
        else:
            if winner is not None:
                raise TraceError("--winner picks a game of a run folder: give RUN too")
            if game is None:
                raise TraceError("--game: which game to replay (0 first)")
            if config is not None:
                raise TraceError("--config picks a configuration of a run folder: give RUN too")
            spec = spec_from_options(
                theme or "classic",
                players if players is not None else 5,
                seed if seed is not None else 1,
                game,
                strategy or DEFAULT_PRESET,
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


def selfcheck(
    games: Annotated[
        int, games_option("Games per theme and strategy (more: narrower intervals).")
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same verdicts.")] = 1,
    players: PlayersOption = 5,
) -> None:
    """Check facts any correct engine must show, on simulated games of every shipped theme.

    Each line prints the observed value, the expected value and the interval the observed
    value must fall in: draw! rates (Barrel, Jail, Dynamite, A New Hope, Black Jack's second
    card) against the faces of the draw pile, Beers with two players left never healing,
    the Renegade never winning with anyone else alive, and The Walking Dead agreeing with
    classic (the same game re-skinned). Exit code 1 when any check fails.

    Example: bangsim selfcheck --games 50000
    """
    from simcore.studies.selfcheck import run_selfcheck

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
    continuation_states: Annotated[
        int | None,
        typer.Option(
            min=0, help="Paused games of the continuation timing, 100 worlds each (0 skips it)."
        ),
    ] = None,
    search_games: Annotated[
        int | None,
        typer.Option(min=0, help="Games of the search-seat timing (0 skips it)."),
    ] = None,
    teacher_games: Annotated[
        int | None,
        typer.Option(min=0, help="Games of the teacher's labelling timing (0 skips it)."),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the results to this JSON file.")
    ] = None,
) -> None:
    """How fast bangsim plays on this machine, against the speed targets (docs/speed.md).

    Games/s of every shipped theme at 4 and 7 players with smart and tuned bots, on one
    thread and on all (parallel efficiency, microseconds per turn); classic 5 players smart
    with more games and its ratio to the stripped kernel's 85,000 games/s; mid-game
    continuations per second; one seat that searches by rollouts (games and decisions per
    second); every shipped strong field beside tuned; the teacher's labelled decisions per
    second (bangsim learn); a timed `bangsim run` (Parquet included) and its peak memory; the time
    from a fresh process to the first game with a warm and an empty numba cache. About 3
    minutes on 2 cores; --quick takes seconds.

    Example: bangsim bench --json bench.json
    """
    from simcore.studies.bench import QUICK, Settings, table, write_json
    from simcore.studies.bench import bench as run_bench

    if json_out is not None:
        check_writable(json_out.parent, "--json")
    base = QUICK if quick else Settings()
    given = dict(
        games=games,
        target_games=target_games,
        run_games=run_games,
        cold=cold,
        continuation_states=continuation_states,
        search_games=search_games,
        teacher_games=teacher_games,
    )
    given = {k: v for k, v in given.items() if v is not None}
    settings = Settings(**{**asdict(base), **given, "event_pairs": event_pairs})
    result = run_bench(settings, say=typer.echo)
    typer.echo("")
    typer.echo(table(result))
    if json_out is not None:
        write_json(result, json_out)
        typer.echo(f"results: {json_out}")
