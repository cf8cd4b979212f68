"""The balance search: the Pareto front of smallest theme changes that reach the targets.

Two objectives: the **distance** to the targets (root mean square of the misses, in win-rate
units; see `distance`) and the **size** of the change (knobs moved from the printed theme,
ties broken by how far they moved, `Problem.far`). The front holds, for each number of
changes k = 0, 1, 2, ..., the closest variant with k changes, kept only when it is closer
than every variant with fewer changes (k = 0 is the printed theme).

How it searches (docs/balance.md explains the choice):
- Small problems (at most EXHAUSTIVE_MAX variants) play every variant every round.
- Larger ones run CMA-ES with margin (`cmaes.CMAwM`, the strategy search's optimiser,
  `simcore.studies.search_loop.cma_search`) over the knobs' value indices, minimising the distance
  from the printed theme outward; the first round also plays every one-knob change, so the
  one-change end of the front is searched exhaustively, and every later round each step of
  one knob from the closest variant so far (a local search beside CMA-ES's global one).
- Every variant ever played keeps its pooled counts (the archive); the front is read from
  it, a scalarised search plus a final Pareto filter.
- Common random numbers: all variants of a round play the same deals (one round seed, game
  indices 0 ..). Adaptive game counts: the games per variant rise geometrically from
  games_min (early rounds, candidates far apart) to games_max; the current front plays
  again every round, so the variants near the front gather the most games.
- The answer is re-measured: the front's variants and the printed theme play fresh deals
  (the same ones, so comparisons with the printed game are paired), with 95% intervals
  (Wilson for rates, paired normal for differences, a paired Poisson bootstrap for
  distances).
- The state is saved after every round (OUT/balance_state.pkl); a rerun resumes, and an
  interrupted search resumed gives what an uninterrupted one gives. The result depends on
  the file and seed only: rounds are played through `map_fn` (builtin `map`, or a backend's
  `map` that yields results in item order), each work item a pure function of its inputs.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simcore.engine.theme import THEMES_DIR, Theme
from simcore.engine.vocab import ROLES, WINNERS
from simcore.runs.atomic import write_atomic
from simcore.stats import paired_interval, wilson_interval
from simcore.studies import search_loop
from simcore.studies.balance import Problem, theme_toml, variant_toml
from simcore.studies.batch import MapFn, Outcomes, Tally, Work, play_work
from simcore.studies.search_loop import sub_seed

STATE = "balance_state.pkl"
RESULT = "result.json"
VARIANTS = "variants"
EXHAUSTIVE_MAX = 16  # problems with at most this many variants play them all every round
BOOTSTRAP = 200  # Poisson bootstrap resamples for the distances' intervals
INFEASIBLE = 10.0  # the distance told to CMA-ES for a variant that does not compile


# --- playing --------------------------------------------------------------------------------


def misses(tally: Tally, sides: dict[str, float], within: float | None) -> list[np.ndarray]:
    """The target groups' misses at one table: side rate - target per side target; each
    character's effect beyond ±within (0 inside the band)."""
    groups = []
    if sides:
        rates = tally.sides / tally.games
        groups.append(np.array([rates[WINNERS.index(s)] - t for s, t in sides.items()]))
    if within is not None:
        effect, seats = tally.effects()
        effect = effect[seats > 0]
        groups.append(np.maximum(np.abs(effect) - within, 0.0))
    return groups


def distance(problem: Problem, tallies: list[Tally]) -> float:
    """Distance to the targets over the tables (tallies in problem.configs order): the root
    of the mean over target groups (each table's side targets, each table's character band)
    of the group's mean squared miss. 0 on target; 0.05 is "5 points off" on average."""
    groups = [
        g
        for config, tally in zip(problem.configs, tallies, strict=True)
        for g in misses(tally, problem.targets.sides.get(config.players, {}),
                        problem.targets.within)
    ]  # fmt: skip
    return math.sqrt(sum(float(np.mean(g**2)) for g in groups) / len(groups))


def play_variants(
    problem: Problem, variants: list[tuple[int, ...]], seed: int, games: int, map_fn: MapFn
) -> dict[tuple[int, ...], list[Outcomes] | None]:
    """Every variant at every table on the same deals (seed, games 0 .. games-1); None for a
    variant that does not compile."""
    themes = {v: problem.themes_of(v) for v in variants}
    items = [
        Work(themes[v][c.theme.id], c.players, c.strategy, seed, games)
        for v in variants
        if themes[v] is not None
        for c in problem.configs
    ]
    results = iter(map_fn(play_work, items))
    return {
        v: None if themes[v] is None else [next(results) for _ in problem.configs] for v in variants
    }


def tallies_of(problem: Problem, outcomes: list[Outcomes], weights=None) -> list[Tally]:
    """One Tally per table (weights: one array per table, or None)."""
    return [
        Tally.of(o, len(c.theme.character_names), None if weights is None else w)
        for c, o, w in zip(problem.configs, outcomes, weights or [None] * len(outcomes),
                           strict=True)
    ]  # fmt: skip


# --- searching ------------------------------------------------------------------------------


@dataclass
class Round:
    """One round of the search."""

    games: int  # per variant and table
    variants: int  # played this round
    best_distance: float  # the closest of them, on this round's deals
    front: list[tuple[int, float]]  # (changes, pooled distance) of the front after it
    seconds: float


@dataclass
class State:
    """What a rerun resumes from (pickled after every round)."""

    digest: str
    opt: Any  # the CMA-ES optimiser; None for an exhaustive search
    trail: list[Round] = field(default_factory=list)
    archive: dict[tuple[int, ...], list[Tally] | None] = field(default_factory=dict)
    games: int = 0
    seconds: float = 0.0
    final: dict[tuple[int, ...], list[Outcomes]] | None = None


def all_variants(problem: Problem) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(len(k.values)) for k in problem.knobs)))


def space_size(problem: Problem) -> int:
    return math.prod(len(k.values) for k in problem.knobs)


def one_changes(problem: Problem) -> list[tuple[int, ...]]:
    """The printed theme and every variant that moves one knob."""
    base = problem.printed
    found = [base]
    for j, knob in enumerate(problem.knobs):
        found += [
            base[:j] + (i,) + base[j + 1 :] for i in range(len(knob.values)) if i != knob.printed
        ]
    return found


def neighbours(problem: Problem, variant: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The variants one knob's step (one value up or down its list) away from `variant`."""
    found = []
    for j, knob in enumerate(problem.knobs):
        for i in (variant[j] - 1, variant[j] + 1):
            if 0 <= i < len(knob.values):
                found.append(variant[:j] + (i,) + variant[j + 1 :])
    return found


def pooled(problem: Problem, state: State) -> dict[tuple[int, ...], float]:
    """Each playable variant's distance on all the games it has played."""
    return {v: distance(problem, t) for v, t in state.archive.items() if t is not None}


def front_of(problem: Problem, dist: dict[tuple[int, ...], float]) -> list[tuple[int, ...]]:
    """For each number of changes, the closest variant (ties: moved less far, then first
    seen), kept when closer than every variant with fewer changes: the Pareto front."""
    best: dict[int, tuple[int, ...]] = {}
    for v, d in dist.items():
        k = problem.changes(v)
        if k not in best or (d, problem.far(v)) < (dist[best[k]], problem.far(best[k])):
            best[k] = v
    front, closest = [], math.inf
    for k in sorted(best):
        if dist[best[k]] < closest:
            front.append(best[k])
            closest = dist[best[k]]
    return front


def play_round(
    problem: Problem, state: State, candidates: list[tuple[int, ...]], map_fn: MapFn
) -> tuple[np.ndarray, Round]:
    """Play round len(state.trail): the candidates and the current front on the round's
    common deals, pooled into the archive. Returns the candidates' distances on this round's
    deals (INFEASIBLE for one that does not compile) and the round's record."""
    t0 = time.perf_counter()
    g = len(state.trail)
    games = search_loop.games_for(problem.budget, g)  # the same schedule as a best response's
    front = front_of(problem, pooled(problem, state))
    variants = list(dict.fromkeys([*candidates, *front]))
    played = play_variants(problem, variants, sub_seed(problem.seed, "round", g), games, map_fn)
    now = {}
    for v, outcomes in played.items():
        if outcomes is None:
            state.archive[v] = None
            continue
        tallies = tallies_of(problem, outcomes)
        now[v] = distance(problem, tallies)
        old = state.archive.get(v)
        state.archive[v] = (
            tallies if old is None else [a + b for a, b in zip(old, tallies, strict=True)]
        )
        state.games += games * len(problem.configs)
    dist = pooled(problem, state)
    seconds = time.perf_counter() - t0
    state.seconds += seconds
    record = Round(
        games,
        len(variants),
        min(now.values(), default=math.nan),
        [(problem.changes(v), dist[v]) for v in front_of(problem, dist)],
        seconds,
    )
    return np.array([now.get(v, INFEASIBLE) for v in candidates]), record


def saved_state(out: Path | None, problem: Problem) -> State | None:
    """The state of this problem's search saved in `out`, or None; RunFolderError when `out`
    holds another problem's."""
    return search_loop.load_state(out, problem.digest(), STATE, "file, seed or theme")


def search(
    problem: Problem,
    out: Path | None,
    map_fn: MapFn = map,
    progress: Callable[[State], None] | None = None,
) -> State:
    """Run (or resume from `out`) the rounds of the search; returns the state, whose archive
    holds every variant played. progress(state) after every round."""
    state = saved_state(out, problem)
    knobs = problem.knobs
    exhaustive = space_size(problem) <= EXHAUSTIVE_MAX
    steps = np.array([1.0 / (len(k.values) - 1) for k in knobs])  # index -> unit cube
    if state is None:
        opt = None
        if not exhaustive:
            opt = search_loop.new_optimizer(
                np.array(problem.printed) * steps,
                steps,
                problem.budget.sigma0,
                sub_seed(problem.seed, "cma"),
                problem.budget.population,
            )
        state = State(problem.digest(), opt)

    def done_round(holder: dict | None = None) -> None:
        if holder is not None:
            state.opt = holder["opt"]
        search_loop.save_state(out, state, STATE)
        if progress:
            progress(state)

    if exhaustive:
        while len(state.trail) < problem.budget.generations:
            state.trail.append(play_round(problem, state, all_variants(problem), map_fn)[1])
            done_round()
        return state

    def score(points: list[np.ndarray], g: int) -> tuple[np.ndarray, Round]:
        candidates = [tuple(int(i) for i in np.round(np.clip(x, 0, 1) / steps)) for x in points]
        if g == 0:
            extra = one_changes(problem)
        else:  # the closest variant so far, each knob a step either way: a local search
            dist = pooled(problem, state)
            extra = neighbours(problem, min(dist, key=dist.__getitem__))
        dist, record = play_round(problem, state, [*candidates, *extra], map_fn)
        return -dist[: len(candidates)], record

    # cma_search appends each round's record to holder["trail"] (our trail) and keeps the
    # optimiser in holder["opt"]
    holder = {"opt": state.opt, "trail": state.trail}
    search_loop.cma_search(holder, score, problem.budget.generations, problem.seed, done_round)
    return state


# --- the answer -----------------------------------------------------------------------------


@dataclass
class SideRow:
    """A side's win rate at one table: against its target and against the printed theme."""

    config: str
    side: str
    target: float | None
    rate: float
    lower: float
    upper: float
    printed: float  # the printed theme's rate on the same deals
    vs_printed: float  # rate - printed, paired over the deals
    vs_printed_lower: float
    vs_printed_upper: float

    @property
    def meets(self) -> bool | None:
        """The target lies in the rate's 95% interval (None without a target)."""
        return None if self.target is None else self.lower <= self.target <= self.upper


@dataclass
class CharacterRow:
    """A character's role-adjusted effect at one table, beside the printed theme's."""

    config: str
    character: str
    seats: int
    effect: float
    lower: float
    upper: float
    printed: float

    def outside(self, within: float | None) -> bool:
        """The whole interval lies outside ±within: beyond the band, beyond luck."""
        return within is not None and (self.lower > within or self.upper < -within)


@dataclass
class Variant:
    """A front variant, re-measured on fresh deals."""

    name: str
    choice: tuple[int, ...]  # value index per knob
    changes: int
    far: float
    words: list[str]
    overrides: dict[str, Any]  # override path -> value, its moved knobs
    distance: float
    distance_lower: float
    distance_upper: float
    vs_best_lower: float  # its distance minus the front's closest, paired bootstrap interval
    vs_best_upper: float
    search_distance: float  # pooled over the search's rounds
    search_games: int  # games per table the search played it on
    sides: list[SideRow]
    characters: list[CharacterRow]
    files: dict[str, str] = field(default_factory=dict)  # theme id -> its variant file
    # the distance three ways (docs/balance.md): under the file's strategy, and with
    # search.retune = "inside" under strategies re-tuned for the variant (then `distance`,
    # the sides and the characters are its own play's), each with its 95% interval
    distance_printed_play: float | None = None
    distance_printed_lower: float | None = None
    distance_printed_upper: float | None = None
    distance_own_play: float | None = None
    # with search.retune = "inside": every independent re-tune's distance on the same deals,
    # the largest of which is distance_own_play (search.retune_replicates)
    distance_own_replicates: list[float] | None = None
    distance_band_worst: float | None = None  # with search.band_epsilon: over its bands' ends
    own_strategy: dict[str, str] = field(default_factory=dict)  # theme id -> --strategy spec


@dataclass
class Answer:
    """The measured front; `chosen` indexes the variant to recommend."""

    variants: list[Variant]
    chosen: int
    final_games: int  # per variant and table
    games: int  # every game played, search and final measure
    seconds: float


def variant_name(changes: int) -> str:
    return "printed" if changes == 0 else f"{changes}-change{'s' if changes > 1 else ''}"


def measure(problem: Problem, state: State, out: Path | None, map_fn: MapFn = map) -> Answer:
    """Re-measure the front on fresh deals (the same for every variant and the printed
    theme), with intervals; the chosen variant is the one with the fewest changes whose
    distance is not beyond luck worse than the closest variant's."""
    t0 = time.perf_counter()
    front = front_of(problem, pooled(problem, state))
    final = final_outcomes(problem, state, front, out, map_fn)
    searched = {v: (distance(problem, state.archive[v]), int(state.archive[v][0].games))
                for v in front}  # fmt: skip
    variants = judged(problem, front, final, searched)
    for var in variants:  # the file's strategy is the only play judged
        var.distance_printed_play = var.distance
        var.distance_printed_lower, var.distance_printed_upper = (
            var.distance_lower,
            var.distance_upper,
        )
    n = problem.budget.final_games
    return Answer(
        variants, chosen_of(variants), n, state.games + len(front) * len(problem.configs) * n,
        state.seconds + time.perf_counter() - t0,
    )  # fmt: skip


def final_outcomes(
    problem: Problem, state: State, front: list[tuple[int, ...]], out: Path | None, map_fn: MapFn
) -> dict[tuple[int, ...], list[Outcomes]]:
    """The front's games on the final deals (fresh: no round saw them) under the file's
    strategy, played once and kept in the saved state (state.final)."""
    if state.final is None or list(state.final) != front:
        t0 = time.perf_counter()
        seed, n = sub_seed(problem.seed, "final"), problem.budget.final_games
        state.final = play_variants(problem, front, seed, n, map_fn)
        state.seconds += time.perf_counter() - t0
        search_loop.save_state(out, state, STATE)
    return state.final


def judged(
    problem: Problem,
    front: list[tuple[int, ...]],
    final: dict[tuple[int, ...], list[Outcomes]],
    searched: dict[tuple[int, ...], tuple[float, int]],
) -> list[Variant]:
    """The front's variants measured on their final outcomes (the printed theme's among
    them, for the paired comparisons): distances with bootstrap intervals, each against the
    closest, side rates and character effects. searched: variant -> (the search's distance,
    its games per table)."""
    tallies = {v: tallies_of(problem, final[v]) for v in front}
    point = np.array([distance(problem, tallies[v]) for v in front])
    boot = bootstrap(problem, [final[v] for v in front])
    diff = boot - boot[:, [int(np.argmin(point))]]
    printed = final[problem.printed]
    variants = []
    for j, v in enumerate(front):
        lo, hi = np.quantile(boot[:, j], [0.025, 0.975])
        dlo, dhi = np.quantile(diff[:, j], [0.025, 0.975])
        changes = problem.changes(v)
        variants.append(
            Variant(
                variant_name(changes), v, changes, problem.far(v), problem.words(v),
                {o.key: o.value for o in problem.overrides(v)},
                float(point[j]), float(lo), float(hi), float(dlo), float(dhi), *searched[v],
                side_rows(problem, final[v], printed),
                character_rows(problem, tallies[v], tallies[problem.printed]),
            )
        )  # fmt: skip
    return variants


def chosen_of(variants: list[Variant]) -> int:
    """The variant with the fewest changes whose distance is not beyond luck larger than
    the closest's (the paired interval of the difference reaches 0)."""
    return next(j for j, var in enumerate(variants) if var.vs_best_lower <= 0)


def bootstrap(problem: Problem, played: list[list[Outcomes]]) -> np.ndarray:
    """Distances of each entry of `played` (outcomes on the final deals, per table) in
    BOOTSTRAP Poisson resamples of the deals, float64[BOOTSTRAP, len(played)]. Every entry
    gets the same resamples, and every call the same ones (seeded by the problem), so
    differences between entries, and between calls, are paired."""
    rng = np.random.default_rng(sub_seed(problem.seed, "bootstrap"))
    n = problem.budget.final_games
    boot = np.empty((BOOTSTRAP, len(played)))
    for b in range(BOOTSTRAP):
        weights = [rng.poisson(1.0, n).astype(np.float64) for _ in problem.configs]
        for j, outcomes in enumerate(played):
            boot[b, j] = distance(problem, tallies_of(problem, outcomes, weights))
    return boot


def side_rows(problem: Problem, outcomes: list[Outcomes], printed: list[Outcomes]) -> list[SideRow]:
    rows = []
    for config, o, p in zip(problem.configs, outcomes, printed, strict=True):
        targets = problem.targets.sides.get(config.players, {})
        present = {WINNERS.index(s) for s in ("leader", "outlaw", "renegade")
                   if (o.role == (ROLES.index(s))).any()}  # fmt: skip
        for w in sorted(present):
            side = WINNERS[w]
            mine, theirs = o.winner == w, p.winner == w
            lo, hi = wilson_interval(int(mine.sum()), len(mine))
            mean, _, half = paired_interval(mine.astype(float) - theirs)
            rows.append(
                SideRow(config.label, side, targets.get(side), float(mine.mean()), lo, hi,
                        float(theirs.mean()), mean, mean - half, mean + half)
            )  # fmt: skip
    return rows


def character_rows(
    problem: Problem, tallies: list[Tally], printed: list[Tally]
) -> list[CharacterRow]:
    rows = []
    for config, t, p in zip(problem.configs, tallies, printed, strict=True):
        effect, seats = t.effects()
        printed_effect, _ = p.effects()
        rates = t.wins.sum(axis=1)
        for c, name in enumerate(config.theme.character_names):
            if seats[c] == 0:
                continue
            lo, hi = wilson_interval(int(rates[c]), int(seats[c]))
            shift = effect[c] - rates[c] / seats[c]  # -(the rate its roles give)
            rows.append(
                CharacterRow(config.label, name, int(seats[c]), float(effect[c]), lo + shift,
                             hi + shift, float(printed_effect[c]))
            )  # fmt: skip
    return rows


def write_variants(problem: Problem, answer: Answer, out: Path) -> None:
    """Each changed front variant as a ready theme file, OUT/variants/NAME.toml (one per
    theme, NAME-THEME.toml, when the file balances several), recorded in `files`."""
    several = len(problem.themes) > 1
    printed = {t.id: t for t in problem.themes}
    for var in answer.variants[1:]:
        themes = problem.themes_of(var.choice)
        for theme_id, theme in themes.items():
            file = out / VARIANTS / f"{var.name}{f'-{theme_id}' if several else ''}.toml"
            lines = [
                f"bangsim balance {problem.source.name} (seed {problem.seed}): variant "
                f"{var.name} of theme '{theme_id}'",
                *(f"  {w}" for w in var.words),
                f"distance to the targets{' at its own re-tuned play' if var.own_strategy else ''} "
                f"{100 * var.distance:.1f} points "
                f"[{100 * var.distance_lower:.1f}, {100 * var.distance_upper:.1f}] over "
                f"{answer.final_games:,} fresh deals per table (the printed theme: "
                f"{100 * answer.variants[0].distance:.1f})",
                f"play it: bangsim run --theme {file} --players "
                f"{','.join(map(str, problem.players))} --strategy "
                f"{var.own_strategy.get(theme_id, problem.strategy)}",
            ]
            new_id = f"{theme_id}-{var.name}"
            text = variant_toml(
                printed[theme_id], problem.overrides(var.choice), theme, new_id,
                "\n".join([*lines, "below: the printed theme's file, each change marked "
                            "'bangsim balance: ...' on its line"]),
            )  # fmt: skip
            if text is None:
                text = theme_toml(theme, new_id, "\n".join([
                    *lines, "the rest is the printed theme's data, without its comments (its "
                    f"rulebook quotes and assumptions): see {printed_source(printed[theme_id])}",
                ]))  # fmt: skip
            write_atomic(file, text.encode())
            var.files[theme_id] = str(file)


def printed_source(theme: Theme) -> str:
    """Where a designer reads the printed theme's file: for a shipped theme the command that
    prints it, else its path."""
    path = theme.path
    if not isinstance(path, Path) or path.resolve().parent == Path(str(THEMES_DIR)).resolve():
        return f"bangsim themes export {theme.id}"
    return str(path)


def write_result(
    problem: Problem,
    state: State,
    answer: Answer,
    out: Path,
    retuned: list | None = None,
    stages: list[dict] | None = None,
) -> Path:
    """OUT/result.json: the request, the rounds, the measured front and, with --retune, the
    re-tuned checks (simcore.studies.balance_retune.Retuned); with search.retune = "inside"
    the stages' records (simcore.studies.balance_inside.Stage.record)."""
    data = {
        "file": str(problem.source),
        "title": problem.title,
        "seed": problem.seed,
        "themes": [t.id for t in problem.themes],
        "players": problem.players,
        "strategy": problem.strategy,
        "targets": {
            "sides": {str(n): t for n, t in problem.targets.sides.items()},
            "characters_within": problem.targets.within,
        },
        "knobs": {
            k.key: {"values": list(k.values), "printed": k.values[k.printed]} for k in problem.knobs
        },  # fmt: skip
        "budget": asdict(problem.budget),
        "rounds": [asdict(r) for r in state.trail],
        "front": [asdict(v) for v in answer.variants],
        "chosen": answer.variants[answer.chosen].name,
        "retuned": [asdict(r) for r in retuned or []],
        "stages": stages or [],
        "final_games": answer.final_games,
        "games": answer.games,
        "seconds": answer.seconds,
    }
    path = out / RESULT
    write_atomic(path, (json.dumps(data, indent=1, default=str) + "\n").encode())
    return path
