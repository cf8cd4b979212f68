"""`search.retune = "inside"`: every candidate judged at strategies re-tuned for it.

The plain search (`simcore.studies.balance_search`) judges every variant with the file's
strategy, tuned for the printed game; players adapt to a rule change, and a variant's
verdict moves with them. Here the verdict is taken at strategies re-tuned for the variant
(one round of iterated best responses per table, `simcore.studies.tune.iterate`, warm
started from the current strong play), and the budget is spent by successive halving:

1. **screen**: the plain search's rounds, every candidate under the file's strategy;
2. **light**: the screen's front and its `retune_light` closest other variants, each
   re-tuned lightly (LIGHT_BUDGET) from the file's strategy, then all of them played on the
   same deals (games_max per variant and table) at their re-tuned strategies;
3. **full**: the front of the light stage, re-tuned fully (FULL_BUDGET) from its light
   strategies (the parent's re-tuned play), played on the same (new) deals;
4. **final**: the front of the full stage re-tuned fully again from the file's strategy,
   with another seed (an independent re-tune, so the selection of the full stage's luckiest
   re-tunes does not carry into the answer), search.retune_replicates times with seeds of
   their own, and played on the final deals no stage saw, beside the same front under the
   file's strategy on the same deals; a variant's verdict is its worst re-tune's
   (balance_retune.worst_replicate: one re-tune lands on one of its near-equilibria).

The front, the distances, the sides and the characters reported are then the variants'
own strong play's; each also carries its distance under the printed game's strategies.
The state is saved after every stage (OUT/inside_state.pkl) and every best response keeps
its own folder under OUT/inside/, so a rerun resumes; the answer depends on the file and
seed only, whatever the backend (an `Arena`: the plays go through its `map_fn`, the best
responses through its `backend`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simcore.engine.theme import Theme, load_theme
from simcore.engine.vocab import SIDE_OF_ROLE
from simcore.runs.atomic import write_atomic
from simcore.runs.backend import Backend
from simcore.studies.balance import Config, Problem, theme_toml
from simcore.studies.balance_retune import (
    RETUNE_BUDGET,
    RETUNED,
    WARM_SIGMA,
    replicate_dir,
    replicate_seed,
    worst_replicate,
)
from simcore.studies.balance_search import (
    Answer,
    State,
    chosen_of,
    distance,
    final_outcomes,
    front_of,
    judged,
    misses,
    pooled,
    tallies_of,
)
from simcore.studies.band import band
from simcore.studies.batch import MapFn, Outcomes, Tally, Work, play_work
from simcore.studies.search_loop import load_state, save_state, sub_seed
from simcore.studies.tune import GAIN, iterate, roles_at
from strategies.presets import preset_toml, resolve_strategy

INSIDE = "inside_state.pkl"
STRATEGIES = "strategies"  # OUT/strategies/NAME.toml: each front variant's own strategy
OWN = "own"  # the preset name in those files
LIGHT_BUDGET = {"generations": 2, "games_min": 500, "games_max": 1000, "final_games": 2000,
                "sigma0": WARM_SIGMA}  # fmt: skip
FULL_BUDGET = RETUNE_BUDGET  # the --retune check's: 6 generations of 500 to 2,000 games
STAGES = ("light", "full", "final")

Variant = tuple[int, ...]


@dataclass
class Stage:
    """One stage of the halving: the variants re-tuned and played on its common deals."""

    name: str
    generations: int  # per best response
    games: int  # per variant and table on the stage's common deals
    variants: int
    strategies: dict[Variant, dict[str, str]]  # variant -> table label -> --strategy spec
    distances: dict[Variant, float]  # on the stage's deals, at the variant's own strategies
    front: list[tuple[int, float]]  # (changes, distance) of the stage's front
    tune_games: int  # the best responses' games
    play_games: int
    seconds: float
    outcomes: dict[Variant, list[Outcomes]] | None = None  # kept for the final stage only
    # the final stage's: every re-tune's distance per variant (the worst one's is kept above)
    replicates: dict[Variant, list[float]] | None = None

    def record(self) -> dict[str, Any]:
        """What result.json and the page show of it."""
        return {
            "name": self.name, "generations": self.generations, "games": self.games,
            "variants": self.variants, "front": self.front, "tune_games": self.tune_games,
            "play_games": self.play_games, "seconds": self.seconds,
        }  # fmt: skip


@dataclass
class Inside:
    """What a rerun resumes from (pickled after every stage)."""

    digest: str
    stages: list[Stage] = field(default_factory=list)
    band: dict[Variant, float] | None = None  # with band_epsilon: distance_band_worst
    band_games: int = 0
    band_seconds: float = 0.0


@dataclass(frozen=True)
class Arena:
    """Where the stages play: `map_fn` their games (builtin map or a backend's map), `backend`
    their best responses (None: this machine), on the kernel, or on what table_of(theme,
    players) gives when set (a test's toy table)."""

    map_fn: MapFn = map
    backend: Backend | None = None
    table_of: Callable[[Any, int], Any] | None = None

    def table(self, theme: Theme, players: int) -> Any:
        """What a best response in `theme` plays on (None: the kernel)."""
        return None if self.table_of is None else self.table_of(theme, players)


def key_of(variant: Variant) -> str:
    """A variant's folder name: its value indices."""
    return "v" + "-".join(map(str, variant))


def inside_digest(problem: Problem) -> str:
    """Names the stages' state: the request's digest, the re-tunes' rule when it is not
    "gain" and their replicates when not 1 (what the states saved before search.retune_keep
    and search.retune_replicates existed were made under)."""
    keep, reps = problem.budget.retune_keep, problem.budget.retune_replicates
    return (
        problem.digest() + ("" if keep == GAIN else f"-{keep}") + ("" if reps == 1 else f"-r{reps}")
    )


def search_inside(
    problem: Problem,
    state: State,
    out: Path,
    arena: Arena = Arena(),
    progress: Callable[[str], None] | None = None,
) -> Inside:
    """The stages after the screen (`state`, the plain search's rounds): see the module doc.
    Resumes from `out`; `arena` says where the games and best responses play."""
    digest = inside_digest(problem)
    what = "file, seed, theme, search.retune_keep or search.retune_replicates"
    inside = load_state(out, digest, INSIDE, what)
    inside = inside or Inside(digest)
    while len(inside.stages) < len(STAGES):
        name = STAGES[len(inside.stages)]
        if name == "light":
            dist = pooled(problem, state)
            ranked = sorted(dist, key=lambda v: (dist[v], problem.far(v)))
            picked = [*front_of(problem, dist), *ranked[: problem.budget.retune_light]]
        else:
            picked = front_of(problem, inside.stages[-1].distances)
        picked = list(dict.fromkeys([problem.printed, *picked]))
        if progress:
            progress(f"{name} re-tune of {len(picked)} variant(s)")
        inside.stages.append(run_stage(problem, inside, name, picked, out, arena))
        save_state(out, inside, INSIDE)
    if problem.budget.band_epsilon > 0:
        if progress and inside.band is None:
            progress(f"the bands of {len(inside.stages[-1].strategies)} variant(s)")
        band_worst(problem, inside, out, arena)
    return inside


def run_stage(
    problem: Problem,
    inside: Inside,
    name: str,
    variants: list[Variant],
    out: Path,
    arena: Arena,
) -> Stage:
    """Re-tune each variant at each table (the final stage: search.retune_replicates times),
    then play them all on the stage's common deals."""
    t0 = time.perf_counter()
    budget = LIGHT_BUDGET if name == "light" else FULL_BUDGET
    parent = inside.stages[-1].strategies if name == "full" else {}
    final = name == "final"
    reps = problem.budget.retune_replicates if final else 1
    specs: dict[Variant, list[dict[str, str]]] = {}
    tune_games, items = 0, []
    for v in variants:
        themes = problem.themes_of(v)
        specs[v] = [{} for _ in range(reps)]
        for r in range(reps):
            for config in problem.configs:
                start = (
                    resolve_strategy(parent[v][config.label], config.players).matrix
                    if v in parent
                    else config.strategy.matrix
                )
                spec, games = retune(problem, config, v, name, start, budget, out, arena, r)
                specs[v][r][config.label] = spec
                tune_games += games
                strategy = resolve_strategy(spec, config.players, config.theme.plays_as)
                items.append((themes[config.theme.id], config, strategy))
    seed = sub_seed(problem.seed, "final" if final else ("inside", name))
    games = problem.budget.final_games if final else problem.budget.games_max
    played = iter(
        arena.map_fn(play_work, [Work(t, c.players, s, seed, games) for t, c, s in items])
    )
    runs = {v: [[next(played) for _ in problem.configs] for _ in range(reps)] for v in variants}
    every = {v: [distance(problem, tallies_of(problem, o)) for o in runs[v]] for v in variants}
    worst = {v: worst_replicate(every[v]) for v in variants}
    outcomes = {v: runs[v][worst[v]] for v in variants}
    dist = {v: every[v][worst[v]] for v in variants}
    return Stage(
        name, budget["generations"], games, len(variants),
        {v: specs[v][worst[v]] for v in variants}, dist,
        [(problem.changes(v), dist[v]) for v in front_of(problem, dist)], tune_games,
        len(items) * games, time.perf_counter() - t0, outcomes if final else None,
        every if final else None,
    )  # fmt: skip


def retune(
    problem: Problem,
    config: Config,
    variant: Variant,
    stage: str,
    start: np.ndarray,
    budget: dict[str, int],
    out: Path,
    arena: Arena,
    replicate: int = 0,
) -> tuple[str, int]:
    """One round of best responses for `variant` at one table, from the profile `start`, in
    OUT/inside/STAGE/KEY/THEME-Np/ (OUT/inside/STAGE/KEY/rR/THEME-Np/ for the final stage's
    replicate R > 0; resumes there); the re-tuned profile's --strategy spec (a presets file
    beside) and the games played."""
    theme_id, n, key = config.theme.id, config.players, key_of(variant)
    folder = replicate_dir(out / "inside" / stage / key, replicate, theme_id, n)
    what = (
        f"variant {key} of {problem.source.name} ({'; '.join(problem.words(variant)) or 'printed'})"
    )
    theme_file = folder / "theme.toml"
    theme = problem.themes_of(variant)[theme_id]
    write_atomic(theme_file, theme_toml(theme, f"{theme_id}-{key}", what).encode())
    start_file = folder / "start.toml"
    write_atomic(start_file, preset_toml("start", {n: start}, f"the start of {what}").encode())
    loaded = load_theme(str(theme_file))
    matrix, steps = iterate(
        str(theme_file), n, resolve_strategy(f"{start_file}:start", n, loaded.plays_as),
        replicate_seed(problem.seed, replicate, "inside", stage, key, config.label), folder,
        rounds=1, br=budget,
        backend=arena.backend, table=arena.table(loaded, n), keep=problem.budget.retune_keep,
        theme=loaded,
    )  # fmt: skip
    preset = folder / f"{RETUNED}.toml"
    header = f"strategies re-tuned for {what} ({stage} stage)"
    write_atomic(preset, preset_toml(RETUNED, {n: matrix}, header).encode())
    return f"{preset}:{RETUNED}", sum(s.games for s in steps)


def band_worst(
    problem: Problem,
    inside: Inside,
    out: Path,
    arena: Arena = Arena(),
) -> dict[Variant, float]:
    """With search.band_epsilon > 0: each final-stage variant's worst distance over the ends
    of its bands. At each table, for each side with a target there (every side dealt when it
    has none), the band of that side's rate (simcore.studies.band, from the variant's own
    strategy, LIGHT_BUDGET best responses, in OUT/inside/band/KEY/THEME-Np/SIDE/); every end
    profile plays the final deals, and each table takes its worst end (the distance's groups
    are per table, so that is the worst over every combination of ends). Saved in the
    state; the bands' games in inside.band_games."""
    if inside.band is not None:
        return inside.band
    t0 = time.perf_counter()
    last, eps, within = inside.stages[-1], problem.budget.band_epsilon, problem.targets.within
    seed, n = sub_seed(problem.seed, "final"), problem.budget.final_games
    worst, games = {}, 0
    for v in last.strategies:
        themes, key = problem.themes_of(v), key_of(v)
        total, groups = 0.0, 0
        for config in problem.configs:
            theme_id, players, label = config.theme.id, config.players, config.label
            theme_file = out / "inside" / "final" / key / f"{theme_id}-{players}p" / "theme.toml"
            targets = problem.targets.sides.get(players, {})
            dealt = dict.fromkeys(SIDE_OF_ROLE[r] for r in roles_at(config.theme, players))
            theme = load_theme(str(theme_file))
            table = arena.table(theme, players)
            ends = []
            for side in list(targets) or list(dealt):
                b = band(
                    str(theme_file), players, side,
                    out / "inside" / "band" / key / f"{theme_id}-{players}p" / side, eps,
                    sub_seed(problem.seed, "band", key, label, side), last.strategies[v][label],
                    push=LIGHT_BUDGET, respond=LIGHT_BUDGET, check=LIGHT_BUDGET,
                    final_games=LIGHT_BUDGET["final_games"], backend=arena.backend, table=table,
                    theme=theme,
                )  # fmt: skip
                games += b.games
                ends += [b.low.strategy, b.high.strategy]
            works = [Work(themes[theme_id], players, resolve_strategy(e, players), seed, n)
                     for e in ends]  # fmt: skip
            chars = len(config.theme.character_names)
            squares = [
                [float(np.mean(g**2)) for g in misses(Tally.of(o, chars), targets, within)]
                for o in arena.map_fn(play_work, works)
            ]
            total += max(sum(x) for x in squares)
            groups += len(squares[0])
            games += len(works) * n
        worst[v] = float(np.sqrt(total / groups))
    inside.band, inside.band_games = worst, games
    inside.band_seconds = time.perf_counter() - t0
    save_state(out, inside, INSIDE)
    return worst


def measure_inside(
    problem: Problem, state: State, inside: Inside, out: Path, map_fn: MapFn = map
) -> Answer:
    """The final stage's front at its own strategies on the final deals (the printed theme's
    own among them, for the paired comparisons) and under the file's strategy on the same
    deals: every number of the answer, the chosen variant by its own play. Writes each front
    variant's own strategy as a presets file, OUT/strategies/NAME[-THEME].toml."""
    t0 = time.perf_counter()
    last = inside.stages[-1]
    front = front_of(problem, inside.stages[-2].distances)
    printed_play = final_outcomes(problem, state, front, out, map_fn)
    full = inside.stages[-2]
    searched = {v: (full.distances[v], full.games) for v in front}
    variants = judged(problem, front, last.outcomes, searched)
    under_printed = judged(problem, front, printed_play, searched)
    several = len(problem.themes) > 1
    for var, p in zip(variants, under_printed, strict=True):
        var.distance_own_play = var.distance
        var.distance_own_replicates = (last.replicates or {}).get(var.choice)
        var.distance_printed_play = p.distance
        var.distance_printed_lower, var.distance_printed_upper = p.distance_lower, p.distance_upper
        var.distance_band_worst = None if inside.band is None else inside.band[var.choice]
        for theme in problem.themes:
            configs = [c for c in problem.configs if c.theme.id == theme.id]
            tables = {
                c.players: resolve_strategy(last.strategies[var.choice][c.label], c.players).matrix
                for c in configs
            }
            file = out / STRATEGIES / f"{var.name}{f'-{theme.id}' if several else ''}.toml"
            header = (
                f"bangsim balance {problem.source.name} (seed {problem.seed}): the strategies "
                f"re-tuned for variant {var.name} of theme '{theme.id}'"
            )
            write_atomic(file, preset_toml(OWN, tables, header).encode())
            var.own_strategy[theme.id] = f"{file}:{OWN}"
    n = problem.budget.final_games
    games = state.games + len(front) * len(problem.configs) * n
    games += sum(s.tune_games + s.play_games for s in inside.stages) + inside.band_games
    seconds = state.seconds + sum(s.seconds for s in inside.stages) + inside.band_seconds
    seconds += time.perf_counter() - t0
    return Answer(variants, chosen_of(variants), n, games, seconds)
