"""`bangsim balance --retune`: does a variant's verdict hold once the bots adapt to it?

The search measures variants under the file's strategy, which was tuned (if `tuned`) for
the printed game. A variant changes the game, and strategies re-tuned for it may win
differently. For the chosen variant (and the closest, when that is another), each table's
strategy is re-tuned for the variant by one round of iterated best responses
(`simcore.studies.tune.iterate`, a small budget: RETUNE_BUDGET), starting from the file's
strategy; the variant then plays the final deals again under the re-tuned strategies. It is
re-tuned search.retune_replicates times, each with its own seed, and the worst re-tune's
distance is the check's (worst_replicate), each one's beside it.

The verdict is "the variant brings the game closer to the targets than the printed game";
it **holds** when, under the re-tuned strategies, the variant's distance is still below the
printed game's (under the file's strategy) beyond luck: the upper end of the paired
bootstrap interval of the difference is below 0.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.engine.theme import load_theme
from simcore.runs.atomic import write_atomic
from simcore.runs.backend import Backend, LocalBackend
from simcore.studies.balance import Problem
from simcore.studies.balance_search import (
    Answer,
    SideRow,
    State,
    Variant,
    bootstrap,
    distance,
    side_rows,
    tallies_of,
)
from simcore.studies.batch import Work, play_all
from simcore.studies.search_loop import sub_seed
from simcore.studies.tune import iterate
from strategies.presets import Strategy, preset_toml, resolve_strategy

# A warm start begins at strong play: CMA-ES's first step is a tenth of each key's range,
# not best_response's 0.25, whose drift over 47 keys costs a short search 1 to 3 points
WARM_SIGMA = 0.1
RETUNE_BUDGET = {"generations": 6, "games_min": 500, "games_max": 2000, "final_games": 5000,
                 "sigma0": WARM_SIGMA}  # fmt: skip
RETUNED = "retuned"  # the preset name in OUT/retune/NAME/THEME-Np/retuned.toml


def worst_replicate(distances: list[float]) -> int:
    """Which of several independent re-tunes of one variant gives its verdict: the one
    farthest from the targets (the first of ties). One re-tune lands on one of the variant's
    near-equilibria, whose distances can lie points apart, in clusters (docs/balance.md,
    "Re-tunes that repeat"): the worst of several is the verdict that holds however the
    players adapt among those found, another set of seeds repeats it where the median flips
    between clusters, and its profile replays it exactly."""
    return min(range(len(distances)), key=lambda r: (-distances[r], r))


def replicate_seed(seed: int, replicate: int, *tag: object) -> int:
    """The seed of re-tune `replicate` of a variant: the first one's is the seed a single
    re-tune had (sub_seed(seed, *tag)), so that a search with one replicate is the search
    before search.retune_replicates existed."""
    return sub_seed(seed, *tag) if replicate == 0 else sub_seed(seed, *tag, replicate)


def replicate_dir(base: Path, replicate: int, theme_id: str, players: int) -> Path:
    """The folder of re-tune `replicate` at one table, under `base`: BASE/THEME-Np/ for the
    first (the folder a single re-tune had), BASE/rR/THEME-Np/ for the others."""
    return base / (f"r{replicate}" if replicate else "") / f"{theme_id}-{players}p"


@dataclass
class Retuned:
    """A variant under strategies re-tuned for it, on the final deals: the worst of
    search.retune_replicates independent re-tunes (`replicates`, each one's distance)."""

    name: str  # the variant's
    distance: float
    distance_lower: float
    distance_upper: float
    vs_printed_lower: float  # its distance minus the printed game's, paired bootstrap
    vs_printed_upper: float
    holds: bool
    sides: list[SideRow]  # "printed" columns: the same variant under the file's strategy
    presets: dict[str, str]  # table label -> the re-tuned presets file
    steps: list[str]  # per table and role: the best response's gain, and whether it was taken
    games: int  # the re-tuning's games and the final deals'
    seconds: float
    replicates: list[float] | None = None


def retune(
    problem: Problem, state: State, answer: Answer, out: Path, backend: Backend | None = None
) -> list[Retuned]:
    """Re-tune the strategies for the chosen and the closest variant (the variant files must
    be written: simcore.studies.balance_search.write_variants) and re-measure them, the games played
    by `backend` (default local)."""
    backend = backend or LocalBackend()
    closest = min(range(len(answer.variants)), key=lambda j: answer.variants[j].distance)
    checked = [answer.variants[j] for j in dict.fromkeys([answer.chosen, closest]) if j > 0]
    return [retune_variant(problem, state, var, out, backend) for var in checked]


def retune_variant(
    problem: Problem, state: State, var: Variant, out: Path, backend: Backend
) -> Retuned:
    t0 = time.perf_counter()
    themes = problem.themes_of(var.choice)
    reps = problem.budget.retune_replicates
    games, presets, items, said = 0, [], [], []
    loaded = {c.theme.id: load_theme(var.files[c.theme.id]) for c in problem.configs}
    for r in range(reps):
        presets.append({})
        for config in problem.configs:
            theme_id, n = config.theme.id, config.players
            folder = replicate_dir(out / "retune" / var.name, r, theme_id, n)
            theme = loaded[theme_id]
            matrix, steps = iterate(
                var.files[theme_id], n, resolve_strategy(problem.strategy, n, theme.plays_as),
                replicate_seed(problem.seed, r, "retune", var.name, config.label), folder,
                rounds=1, br=RETUNE_BUDGET, backend=backend, keep=problem.budget.retune_keep,
                theme=theme,
            )  # fmt: skip
            games += sum(s.games for s in steps)
            said += [
                f"{config.label}{f' re-tune {r + 1}' if reps > 1 else ''} {s.role} "
                f"{100 * s.gain:+.1f} pts [{100 * s.gain_low:+.1f}, {100 * s.gain_high:+.1f}] "
                f"({'taken' if s.replaced else 'kept the old values'})"
                for s in steps
            ]
            header = f"strategies re-tuned for variant {var.name} of {problem.source.name}"
            preset = preset_toml(RETUNED, {n: matrix}, header)
            write_atomic(folder / f"{RETUNED}.toml", preset.encode())
            presets[r][config.label] = str(folder / f"{RETUNED}.toml")
            strategy = Strategy((RETUNED,) * 4, n, theme_id, matrix)
            seed = sub_seed(problem.seed, "final")
            items.append(Work(themes[theme_id], n, strategy, seed, problem.budget.final_games))
    played = iter(play_all(items, backend))
    games += len(items) * problem.budget.final_games
    runs = [[next(played) for _ in problem.configs] for _ in range(reps)]
    dists = [distance(problem, tallies_of(problem, o)) for o in runs]
    m = worst_replicate(dists)
    retuned = runs[m]
    before, printed = state.final[var.choice], state.final[problem.printed]
    boot = bootstrap(problem, [retuned, printed])
    lo, hi = np.quantile(boot[:, 0], [0.025, 0.975])
    dlo, dhi = np.quantile(boot[:, 0] - boot[:, 1], [0.025, 0.975])
    return Retuned(
        var.name, dists[m],
        float(lo), float(hi), float(dlo), float(dhi), bool(dhi < 0),
        side_rows(problem, retuned, before),
        presets[m], said, games, time.perf_counter() - t0, dists,
    )  # fmt: skip
