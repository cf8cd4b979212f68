"""`bangsim learn`: learn the strong field by rounds of a teacher's rollouts (Expert
Iteration, simcore.studies.learn)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated, Any

import typer

from simcore.cli.options import (
    BackendName,
    PlayersOption,
    RayAddress,
    ShowProgress,
    ThemeOption,
    fail,
    open_backend,
)
from simcore.runs.runfolder import check_writable
from strategies.learned_files import CHECK_GAMES, GAMES, RATE, ROUNDS, WORLDS
from strategies.presets import Search


def learn(
    ctx: typer.Context,
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    rounds: Annotated[
        int, typer.Option(help="Rounds of learning, each from the last's field.")
    ] = ROUNDS,
    games: Annotated[
        int, typer.Option(help="Games of the field a round samples decisions from.")
    ] = GAMES,
    worlds: Annotated[
        int, typer.Option(help="Worlds (rollouts) each option of a sampled decision is played on.")
    ] = WORLDS,
    rate: Annotated[
        float, typer.Option(help="Share of the field's play-phase decisions labelled (0 to 1).")
    ] = RATE,
    start: Annotated[
        str, typer.Option(help="The first round's field: a preset (its plays are corrected).")
    ] = "tuned",
    beta: Annotated[
        float, typer.Option(help="How much the worlds' hidden roles follow the record.")
    ] = Search.beta,
    check_games: Annotated[
        int, typer.Option(help="Deals each round's field is checked on, per role.")
    ] = CHECK_GAMES,
    seed: Annotated[int, typer.Option(help="Seed: the same seed learns the same tables.")] = 1,
    steps: Annotated[
        str,
        typer.Option(
            help="Steps toward each round's new tables, comma-separated in (0, 1]: each is "
            "checked and each role takes its best (1: the new tables).",
        ),
    ] = "1",
    out: Annotated[
        Path | None,
        typer.Option(help="Folder of the rounds (default runs/learn/THEME_Np); rerun to resume."),
    ] = None,
    ship: Annotated[
        bool,
        typer.Option(
            "--ship",
            help="Copy the last round's field to strategies/strong/THEME_Np.toml: `strong`.",
        ),
    ] = False,
    progress: ShowProgress = True,
    backend_name: BackendName = "local",
    address: RayAddress = None,
) -> None:
    """Learn a field that plays closer to a searching player: the strong field.

    Each round plays --games games of the current field (first --start), labels a share
    (--rate) of its play-phase decisions by playing every option on --worlds worlds to
    the end with the field (a search seat's rollouts), fits per role and card effect a
    correction of the field's play scores to those values, and checks the new field
    against the old per role on the same deals. With --steps 1,0.5,0.25 each step toward
    the new tables is checked and each role takes its best, and the field made is checked
    again on fresh deals. Needs scikit-learn (bangsim[learn]); playing a learned field needs
    nothing more than a run does.

    Example: bangsim learn --theme classic --players 5 --rounds 3 --ship
    """
    from simcore.engine.theme import load_theme
    from simcore.progress import progress_bar
    from simcore.studies.learn import learn as run_rounds
    from strategies.learned_files import strong_path

    try:
        loaded = load_theme(theme)
    except ValueError as e:
        fail(str(e))
    try:
        step_sizes = tuple(float(a) for a in steps.split(","))
    except ValueError:
        fail(f"--steps: not numbers separated by commas: {steps!r}")
    folder = out or Path("runs") / "learn" / f"{loaded.id}_{players}p"
    check_writable(folder)
    command = (
        f"bangsim learn --theme {loaded.id} --players {players} --rounds {rounds} "
        f"--games {games} --worlds {worlds} --rate {rate} --start {start} --beta {beta} "
        f"--check-games {check_games} --seed {seed}"
        + ("" if step_sizes == (1.0,) else f" --steps {steps}")
    )
    bars: dict[int, Any] = {}

    def tick(stage: str, k: int, n: int) -> None:
        if not progress:
            return
        if stage == "label":
            if k not in bars:
                bars[k] = progress_bar(total=games, desc=f"round {k}: label", unit="game")
            bars[k].update(n)
        else:
            if k in bars:
                bars[k].close()
            typer.echo(f"round {k}: fitted; checking against the field it learned from", err=True)

    try:
        backend = open_backend(ctx, backend_name, address)
        done = run_rounds(
            loaded, players, folder, rounds, games, worlds, rate, seed, start, beta,
            check_games, command, tick, backend, step_sizes,
        )  # fmt: skip
    except ValueError as e:
        fail(str(e))
    for rnd in done:
        if not rnd.gains:
            typer.echo(f"round {rnd.number}: {rnd.field} (made before)")
            continue
        gains = ", ".join(
            f"{r} {100 * g:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            for r, (g, lo, hi) in rnd.gains.items()
        )
        kept = f"; kept the last field's tables for {', '.join(rnd.kept)}" if rnd.kept else ""
        if rnd.steps:
            kept += "; steps " + ", ".join(f"{r} {a:g}" for r, a in rnd.steps.items())
        typer.echo(
            f"round {rnd.number}: {rnd.field}: {rnd.decisions:,} decisions, "
            f"{rnd.rollouts:,} rollouts, {rnd.seconds:,.0f} s; each role playing its new "
            f"table gains (points, 95%) {gains}{kept}"
        )
    if ship:
        target = strong_path(loaded.plays_as, players)
        shutil.copyfile(done[-1].field, target)
        typer.echo(f"shipped as {target} (--strategy strong)")
