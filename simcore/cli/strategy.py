"""`bangsim tournament`, `bangsim tune` and `bangsim exploit`: strategies against each other,
iterated best responses, and how much a best response still gains against a field."""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import (
    BackendName,
    PlayersOption,
    RayAddress,
    ShowProgress,
    TextOrJson,
    ThemeOption,
    check_text_or_json,
    fail,
    games_option,
    open_backend,
    parse_players,
)
from simcore.engine.vocab import ROLES
from simcore.runs.runfolder import (
    check_writable,
)
from strategies.presets import DEFAULT_PRESET, Search

# exploit --method search: deals per role, sized so one role at 5 players reaches about
# +-1 point within 30 minutes on a 2-core machine with the default Search (docs/speed.md)
SEARCH_GAMES = 8000


def tournament(
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    games: Annotated[int, games_option("Games per (role, preset) cell.")] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed, shared by every cell.")] = 1,
    presets: Annotated[
        str | None,
        typer.Option(help="Comma-separated presets to try (default: every preset)."),
    ] = None,
    field: Annotated[str, typer.Option(help="Preset every other seat plays.")] = DEFAULT_PRESET,
) -> None:
    """Which strategy is best for which role: each preset in each role against a field.

    For every role, the seats of that role play each preset in turn while every other seat
    plays the field preset; all cells replay the same deals (one seed), so differences are
    the strategies', not luck. Prints each preset's win rate in each role with a 95% interval.

    Example: bangsim tournament --theme classic --players 5 --games 50000
    """
    from simcore.engine.play import check_players
    from simcore.engine.theme import ThemeError, load_theme
    from simcore.studies.tournament import tournament as play_tournament

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


# a best response's budget, shared by tune and exploit
Generations = Annotated[int, typer.Option(help="CMA-ES generations per best response.")]


GamesMin = Annotated[int, typer.Option(help="Games per candidate, first generation.")]


GamesMax = Annotated[int, typer.Option(help="Games per candidate, last generation.")]


FinalGames = Annotated[
    int, typer.Option(help="Fresh deals each answer is re-measured on against the field.")
]


def worlds_option(which: str):
    """The search seat's worlds per option in the first round, for `which` (an option)."""
    return typer.Option(help=f"{which}: worlds per option in the first round.")


def rollouts_option(which: str):
    """The search seat's rollouts per decision at most, for `which` (an option)."""
    return typer.Option(help=f"{which}: rollouts per decision at most.")


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


def tune(
    ctx: typer.Context,
    theme: ThemeOption = "classic",
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
    searches: Annotated[
        int,
        typer.Option(
            help="Best responses per role a round must pass to end the tune: once no role "
            "gains more than --threshold, K-1 more per role, each with its own seed and a "
            "start twice as wide, face the field it settled on, and a role one of them finds "
            "gaining more takes its answer and the tune goes on (one search finds one "
            "optimum). 1: the round's own."
        ),
    ] = 1,
    keep: Annotated[
        str,
        typer.Option(
            help="Which best responses replace a role's values: gain (a positive gain on the "
            "fresh deals) or beyond-luck (the lower end of its 95% interval above 0; a round "
            "that takes none ends the tune)."
        ),
    ] = "gain",
    method: Annotated[
        str,
        typer.Option(
            help="best-response: each role plays its latest answer (OUT/tuned.toml). psro: "
            "each role keeps every answer, and the field is the meta-game's correlated "
            "equilibrium over them (OUT/mixture.json); for roles that answer each other in "
            "a cycle."
        ),
    ] = "best-response",
    meta_games: Annotated[
        int, typer.Option(help="--method psro: deals per profile of the meta-game.")
    ] = 2000,
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
    until no role gains more than --threshold points in a round or --rounds are done (a count
    stopped by --rounds unsettled says so; rerun with more --rounds to resume it); writes
    OUT/tuned.toml (the preset `tuned`, per player count and role) and OUT/trail.json.

    --method psro (policy-space response oracles, with a coarse correlated equilibrium as
    meta-solver): each role keeps a population of answers, at first its values in --field.
    Each round plays every profile of the populations on the same --meta-games deals,
    solves that meta-game by regret matching, and searches every role's best response to
    the resulting mixture: its gain is the mixture's exploitability for the role. Writes
    OUT/mixture.json (per player count: the rows, profiles and weights) and OUT/trail.json.

    With --role: that role's best response to --field at one player count; writes
    OUT/best.toml (the field with the role replaced: --strategy OUT/best.toml:best).

    A best response is CMA-ES (with margin, for integer and on/off parameters) over every key
    of strategies/params.py; each generation's candidates play the same deals; the answer is
    re-measured against the field's own parameters on fresh deals with a paired 95%
    interval. See docs/tuning.md.

    Examples:

    bangsim tune --role outlaw --theme classic --players 5

    bangsim tune --theme classic --players 4-7 --out runs/tune/classic

    bangsim tune --method psro --players 5 --field tuned --out runs/tune/psro
    """
    from simcore.engine.theme import load_theme
    from simcore.progress import progress_bar
    from simcore.studies.tune import Settings, check_keep
    from simcore.studies.tuning import METHODS, PSRO, tune_counts, tune_role
    from strategies.presets import resolve_strategy

    budget = search_budget(generations, games_min, games_max, final_games)
    try:
        counts = parse_players(players)
        check_keep(keep, "--keep")
        loaded = load_theme(theme)
        fields = {n: resolve_strategy(field, n, loaded.plays_as) for n in counts}
    except ValueError as e:
        fail(str(e))
    if method not in METHODS:
        fail(f"--method must be {' or '.join(METHODS)}, not {method!r}")
    if meta_games < 100:
        fail("--meta-games must be at least 100")
    if rounds < 1:
        fail(f"--rounds must be at least 1, got {rounds}")
    if searches < 1:
        fail(f"--searches must be at least 1, got {searches}")
    if searches > 1 and (method == PSRO or role is not None):
        fail(
            "--searches confirms a settled round of iterated best response: leave out "
            "--method psro and --role"
        )
    if method == PSRO and role is not None:
        fail("--method psro tunes every role against the others' mixture: leave out --role")
    folder = out or Path("runs") / "tune" / Path(theme).stem
    check_writable(folder)
    backend = open_backend(ctx, backend_name, address)

    if role is not None:
        if role not in ROLES:
            fail(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
        if len(counts) != 1:
            fail("--role searches one player count: give --players a single number")
        settings = Settings(theme, counts[0], role, field, seed, **budget)
        folder = folder / f"{counts[0]}p-{role}" if out is None else folder
        bar = progress_bar(total=generations, desc=f"tune {role}", unit="gen", disable=not progress)

        def progress(done, gen, best):
            bar.n = done
            bar.set_postfix_str(f"{gen.games} games/candidate, best gain {100 * best:+.1f} pts")

        try:
            result = tune_role(
                settings, folder, progress, backend, theme=loaded, field=fields[counts[0]]
            )
        except ValueError as e:
            fail(str(e))
        finally:
            bar.close()
        typer.echo(result.summary())
        typer.echo(f"preset: --strategy {folder / 'best.toml'}:best; search: {folder}")
        return

    try:
        tune_counts(
            theme, fields, seed, folder, threshold, rounds, budget, backend, theme=loaded,
            command=f"bangsim tune --theme {theme} --players {players} --field {field} "
            f"--seed {seed}",
            method=method, keep=keep, searches=searches, meta_games=meta_games,
            bars=lambda desc: progress_bar(desc=desc, unit="best response", disable=not progress),
            say=typer.echo,
        )  # fmt: skip
    except ValueError as e:
        fail(str(e))


def exploit(
    ctx: typer.Context,
    strategy: Annotated[
        str,
        typer.Option(
            help='The strategy measured: a preset, "role=preset,...", path.toml:NAME, or a '
            "mixture file path.json (a search seat's worlds then draw the others' rows from it)."
        ),
    ] = DEFAULT_PRESET,
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    seed: Annotated[int, typer.Option(help="Seed of the searches.")] = 1,
    method: Annotated[
        str,
        typer.Option(
            help="params: a best response inside the parameter family (CMA-ES); search: one "
            "seat that searches by rollouts (beyond the family); both: side by side."
        ),
    ] = "params",
    role: Annotated[str | None, typer.Option(help="Only this role (default: every role).")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Folder to keep the searches in (resumable).")
    ] = None,
    output: TextOrJson = "text",
    generations: Generations = 40,
    games_min: GamesMin = 1000,
    games_max: GamesMax = 8000,
    final_games: FinalGames = 40_000,
    searches: Annotated[
        int,
        typer.Option(
            help="--method params: best responses per role, each with its own seed; the "
            "largest gain counts (a search finds one optimum: its gain is a lower bound)."
        ),
    ] = 1,
    games: Annotated[
        int, typer.Option(help="--method search: deals per role, played both ways.")
    ] = SEARCH_GAMES,
    worlds: Annotated[int, worlds_option("--method search")] = Search.worlds,
    budget: Annotated[int, rollouts_option("--method search")] = Search.budget,
    kinds: Annotated[
        str | None,
        typer.Option(
            help='--method search: the decisions that search (default "play+discard"); '
            "with --by-kind, the table's kinds, each searched alone (default: every kind, "
            "then all together)."
        ),
    ] = None,
    by_kind: Annotated[
        bool,
        typer.Option(
            "--by-kind",
            help="--method search: the disagreement table, a row per kind of decision "
            "searched alone: how often the search leaves the field's choice, and the gain.",
        ),
    ] = False,
    z: Annotated[
        float,
        typer.Option(help="--method search: standard errors an option must beat BASE's by."),
    ] = Search.z,
    beta: Annotated[
        float,
        typer.Option(help="--method search: how much the worlds' roles follow the record."),
    ] = Search.beta,
    backend_name: BackendName = "local",
    address: RayAddress = None,
    progress: ShowProgress = True,
) -> None:
    """How far a strategy is from strong play: per role, what a better player gains.

    --method params (the default): a best response searched inside the parameter family
    against the strategy (every other seat plays it) is re-measured on fresh deals against
    the strategy's own parameters for that role. --method search: one seat of the role
    searches by rollouts (search:BASE over the field's own preset), paired with the
    field's own play in that seat on the same deals. Either way the gain is in points with
    a paired 95% interval; near 0 everywhere: no role can do much better against this field.

    --by-kind (with --method search): the disagreement table, per role a row per kind of
    decision the seat searches alone (docs/bands.md), on the same deals.

    Example: bangsim exploit --strategy tuned --method search --role outlaw --format json
    """
    from simcore.engine.play import check_players
    from simcore.engine.theme import load_theme
    from simcore.studies.exploit import METHODS
    from simcore.studies.exploit import exploit as measure
    from strategies.presets import resolve_strategy

    check_text_or_json(output)
    if method not in METHODS:
        fail(f"--method must be params, search or both, not {method!r}")
    budget_ = search_budget(generations, games_min, games_max, final_games)
    if games < 2:
        fail("--games must be at least 2")
    if by_kind and method != "search":
        fail(f"--by-kind goes with --method search, not --method {method}")
    if searches < 1:
        fail(f"--searches is a number of best responses, at least 1, got {searches}")
    try:
        loaded = load_theme(theme)
        check_players(loaded, players)
        field = resolve_strategy(strategy, players, loaded.plays_as, mixed=True)
        if field.search:
            fail(
                f"exploit measures a field that does not search: give the base of "
                f"{strategy!r} (--method search adds the searching seat)"
            )
        together = "+".join(Search.kinds)
        search = Search.parse(
            f"search@worlds={worlds}@budget={budget}@kinds={kinds or together}@z={z}@beta={beta}"
        )
    except ValueError as e:
        fail(str(e))
    if role is not None and role not in ROLES:
        fail(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    if out is not None:
        check_writable(out)
    backend = open_backend(ctx, backend_name, address)
    try:
        found = measure(
            method, strategy, theme, players, seed, search, theme=loaded, field=field, out=out,
            budget=budget_, searches=searches, games=games, roles=[role] if role else None,
            by_kind=by_kind, rows=[(k,) for k in search.kinds] if kinds else None,
            progress=partial(typer.echo, err=True) if progress else None, backend=backend,
        )  # fmt: skip
    except ValueError as e:
        fail(str(e))
    if output == "json":
        typer.echo(json.dumps(found.as_dict(), indent=1))
        return
    for line in found.lines():
        typer.echo(line)


def band(
    ctx: typer.Context,
    theme: ThemeOption = "classic",
    players: PlayersOption = 5,
    side: Annotated[
        str,
        typer.Option(help="The side whose win rate is banded: leader, outlaw, renegade or all."),
    ] = "all",
    epsilon: Annotated[
        float,
        typer.Option(help="Points a role may be from its best response at either end of the band."),
    ] = 1.0,
    start: Annotated[
        str,
        typer.Option(help="The profile the search starts from: the band's centre."),
    ] = "tuned",
    also: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PROFILE",
            help="Another profile searched from like the start (repeatable): a near-"
            "equilibrium found another way, such as a PSRO mixture file from another seed "
            "or start (bangsim tune --method psro). The band spans every profile within "
            "epsilon.",
        ),
    ] = None,
    rounds: Annotated[
        int,
        typer.Option(
            help="Rounds of pushes (each role once a round); 0: none, the band over the "
            "start and the --also profiles as they are."
        ),
    ] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the searches.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the searches (resumable) and the end presets "
            "(default runs/band/THEME-Np)."
        ),
    ] = None,  # fmt: skip
    output: TextOrJson = "text",
    shipped: Annotated[
        bool,
        typer.Option(
            "--shipped",
            help="List the bands that ship (strategies/bands, or the folder BANGSIM_BANDS "
            "names), every theme's, without searching.",
        ),
    ] = False,
    ship: Annotated[
        bool,
        typer.Option(
            "--ship",
            help="Add the bands found to the shipped ones (THEME.json and its end presets "
            "in strategies/bands, or in BANGSIM_BANDS).",
        ),
    ] = False,
    generations: Generations = 20,
    games_min: GamesMin = 1000,
    games_max: GamesMax = 4000,
    final_games: FinalGames = 20_000,
    spot_check: Annotated[
        int,
        typer.Option(
            help="Deals per role on which one seat of each role searches by rollouts "
            "(search:BASE over the profile's own preset) against the start and each end "
            "within epsilon, beyond the family; 0: none. Costs about 0.1-0.2 s of a "
            "2-core machine per deal and role at 5 players (docs/bands.md).",
        ),
    ] = 0,
    check_seeds: Annotated[
        int,
        typer.Option(
            help="Best responses per role in each profile's check, each with its own seed; "
            "the largest gain counts (one search finds one optimum: its gain is a lower "
            "bound). Each adds a search per role and profile.",
        ),
    ] = 1,
    spot_worlds: Annotated[int, worlds_option("--spot-check")] = Search.worlds,
    spot_budget: Annotated[int, rollouts_option("--spot-check")] = Search.budget,
    backend_name: BackendName = "local",
    address: RayAddress = None,
    progress: ShowProgress = True,
) -> None:
    """How far a side's win rate moves over strategies that are all near-equilibria.

    From the start profile, each role in turn pushes the side's rate down (then up) while
    keeping its own win rate within --epsilon points of its current play, and the other
    roles re-respond; each end and the start are re-measured on fresh deals, with their
    exploitability per role (a best response each, with the same budget). Prints, per side,
    the centre and the band from low to high (over the start and the ends within epsilon)
    with the end profiles as --strategy specs (saved as presets in --out; a mixed one as a
    mixture file). --also adds profiles searched from the same way, such as PSRO mixtures
    from other seeds: the band spans them, so a verdict does not hang on one search's path.
    With --side all (the default) each side's band spans every side's profiles within
    epsilon, all measured on the same fresh deals: an end found by pushing the Outlaws'
    rate can be the Sheriff's side's lowest.
    Rerun the same command to resume. --ship adds the bands found to the shipped ones, which
    reports show beside the rates; --shipped lists the shipped bands without searching.
    --spot-check N also plays, for the start and each end within epsilon, one seat of each
    role that searches by rollouts against the profile on N deals (the gain beyond the
    parameter family, as exploit --method search measures it).

    Examples:

    bangsim band --theme classic --players 5 --side leader --format json

    bangsim band --theme classic --players 5 --side leader --spot-check 1000

    bangsim band --players 5 --side leader --rounds 0 --also psro-seed6/mixture.json

    bangsim band --shipped --format json
    """
    from simcore.engine.theme import load_theme
    from simcore.engine.vocab import WINNERS
    from simcore.studies.band import bands_dir, shipped_bands, side_bands
    from simcore.studies.exploit import pts

    check_text_or_json(output)
    if shipped:
        try:
            rows = [b.row() for b in shipped_bands()]
        except ValueError as e:
            fail(str(e))
        if output == "json":
            typer.echo(json.dumps(rows, indent=1))
        elif not rows:
            typer.echo(f"no bands ship yet ({bands_dir()} holds none; make one with --ship)")
        for r in rows if output == "text" else []:
            typer.echo(
                f"{r['theme']}, {r['players']} players, {r['side']} side, epsilon "
                f"{r['epsilon']:g} point(s): {r['low']:.1f}%-{r['high']:.1f}%  "
                f"low {r['low_strategy']}  high {r['high_strategy']}"
            )
        return
    sides = list(WINNERS) if side == "all" else [side]
    if any(s not in WINNERS for s in sides):
        fail(f"--side must be one of {', '.join(WINNERS)} or all, got {side!r}")
    if not 0 < epsilon < 100:
        fail(f"--epsilon is in points, between 0 and 100, got {epsilon:g}")
    if rounds < 0:
        fail(f"--rounds must be at least 0, got {rounds}")
    if spot_check < 0:
        fail(f"--spot-check is a number of deals, at least 0, got {spot_check}")
    if check_seeds < 1:
        fail(f"--check-seeds is a number of searches, at least 1, got {check_seeds}")
    try:
        search = Search.parse(f"search@worlds={spot_worlds}@budget={spot_budget}@seats=one")
    except ValueError as e:
        fail(str(e))
    budget = search_budget(generations, games_min, games_max, final_games)
    folder = out or Path("runs") / "band" / f"{Path(theme).stem}-{players}p"
    check_writable(folder)
    backend = open_backend(ctx, backend_name, address)

    def announce(line: str) -> None:
        if progress:
            typer.echo(line + " ...", err=True)

    try:
        results = side_bands(
            theme, players, sides, folder, epsilon / 100, seed, start, rounds, budget, ship,
            theme=load_theme(theme), progress=announce, backend=backend, spot_check=spot_check, search=search,
            also=also or (), check_seeds=check_seeds,
        )  # fmt: skip
    except ValueError as e:
        fail(str(e))
    if ship and progress:
        typer.echo(f"shipped: {bands_dir() / (results[0].theme + '.json')}", err=True)
    if output == "json":
        typer.echo(json.dumps([asdict(b) | {"row": b.row()} for b in results], indent=1))
        return
    for b in results:
        stages = ", ".join(f"{k} {v:,}" for k, v in b.cost.items() if v)
        typer.echo(
            f"{b.side} side, {b.theme}, {b.players} players, epsilon {epsilon:g} point(s): "
            f"{100 * b.centre:.1f}% under {b.start}, band {100 * b.low.rate:.1f}%-"
            f"{100 * b.high.rate:.1f}% ({b.games:,} games: {stages}; {b.reused} searches "
            "answered by an identical one before)"
        )
        for end in b.profiles.values():
            gains = ", ".join(f"{r} {100 * e['gain']:+.1f}" for r, e in end.exploit.items())
            beyond = f"  (a role gains more than {epsilon:g} points"
            flag = (
                ""
                if end.within
                else f"{beyond}: the verdict the band is of, it stays in it)"
                if end.end == "start"
                else f"{beyond}: not in the band)"
            )
            typer.echo(
                f"  {end.end:<5} {100 * end.rate:5.1f}%  {end.strategy}  best responses: {gains}{flag}"
            )
            if end.spot:
                typer.echo(
                    f"        a search seat ({end.spot['deals']:,} deals): "
                    + ", ".join(
                        f"{r} {pts(g['gain'], g['gain_low'], g['gain_high'])}"
                        for r, g in end.spot["roles"].items()
                    )
                )
