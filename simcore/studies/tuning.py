"""`bangsim tune` as study calls: one role's best response kept as a preset (tune_role), or
the iterated best responses, or PSRO, over player counts with their trail and the preset or
mixture file they make (tune_counts)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from simcore.engine.theme import Theme
from simcore.engine.vocab import ROLES
from simcore.runs.backend import Backend
from simcore.studies.search_loop import Generation, write_text
from simcore.studies.tune import (
    GAIN,
    META_GAMES,
    BestResponse,
    MetaGame,
    Settings,
    Step,
    best_response,
    iterate,
    psro,
    unsettled,
)
from strategies.presets import Mixture, Strategy, mixture_text, preset_toml

PSRO = "psro"
METHODS = ("best-response", PSRO)  # bangsim tune --method


def tune_role(
    settings: Settings,
    folder: Path,
    progress: Callable[[int, Generation, float], None] | None = None,
    backend: Backend | None = None,
    *,
    theme: Theme,
    field: Strategy,
) -> BestResponse:
    """settings.role's best response to `field` (best_response, its state in `folder`),
    written as folder/best.toml: the field with the role's row replaced, preset `best`."""
    result = best_response(settings, folder, progress, backend, theme=theme, field=field)
    matrix = field.matrix.copy()
    matrix[ROLES.index(settings.role)] = result.vector
    write_text(
        folder / "best.toml", preset_toml("best", {settings.players: matrix}, result.summary())
    )
    return result


@dataclass
class Tuned:
    """What tune_counts made: per player count the tuned matrix (or psro's mixture), the
    trail of best responses, psro's meta-games, and the counts its rounds left unsettled."""

    tables: dict[int, np.ndarray | Mixture]
    trail: list[Step]
    metas: list[MetaGame]
    open_counts: list[int]
    seconds: float

    @property
    def games(self) -> int:
        return sum(s.games for s in self.trail) + sum(m.games for m in self.metas)


def tune_counts(
    theme_id: str,
    fields: dict[int, Strategy],
    seed: int,
    folder: Path,
    threshold: float,
    rounds: int,
    budget: dict[str, Any],
    backend: Backend | None = None,
    *,
    theme: Theme,
    command: str,
    method: str = METHODS[0],
    keep: str = GAIN,
    searches: int = 1,
    meta_games: int = META_GAMES,
    bars: Callable[[str], Any] | None = None,
    say: Callable[[str], None],
) -> Tuned:
    """For each player count N of `fields`, iterate (or psro, by `method`) in folder/Np from
    fields[N], in `theme` (theme_id loaded, which the searches record); then writes folder/trail.json and folder/tuned.toml (preset `tuned`), or under psro
    folder/mixture.json and folder/meta.json, their header `command` and what the run
    did. `threshold` is in points; bars(desc) gives a progress bar (tqdm's set_postfix_str,
    update, close) per count; say gets each best response's line as its count ends, the
    counts left unsettled, and what was written."""
    tables, trail, metas, open_counts = {}, [], [], []
    t0 = time.perf_counter()
    for n, start in fields.items():
        bar = bars(f"tune {n}p") if bars else None
        shown = partial(_shown, bar) if bar is not None else None
        args = (theme_id, n, start, seed, folder / f"{n}p", threshold / 100, rounds, budget, shown)
        try:
            if method == PSRO:
                tables[n], steps, meta = psro(
                    *args, backend, keep=keep, meta_games=meta_games, theme=theme
                )
                metas += meta
            else:
                tables[n], steps = iterate(
                    *args, backend, keep=keep, searches=searches, theme=theme
                )
        finally:
            if bar is not None:
                bar.close()
        trail += steps
        for step in steps:
            which = f" (search {step.search})" if step.search > 1 else ""
            say(
                f"{n}p round {step.round} {step.role:<8}{which} gain {100 * step.gain:+5.1f} pts "
                f"[{100 * step.gain_low:+.1f}, {100 * step.gain_high:+.1f}]"
                f"{'' if step.replaced else ' (kept the old values)'}"
            )
        if method != PSRO and (left := unsettled(steps, threshold / 100, keep)):
            open_counts.append(n)
            gains = ", ".join(f"{s.role} {100 * s.gain:+.1f}" for s in left)
            say(
                f"{n}p NOT settled in {rounds} rounds: round {left[0].round} took {gains} pts "
                f"(rerun with more --rounds to resume from here)"
            )
    tuned = Tuned(tables, trail, metas, open_counts, time.perf_counter() - t0)
    rule = "" if keep == GAIN else f", --keep {keep}"
    rule += f", {searches} searches a role to settle" if searches > 1 else ""
    rule += f", --method psro --meta-games {meta_games}" if method == PSRO else ""
    rule += f"; NOT settled at {', '.join(f'{n}p' for n in open_counts)}" if open_counts else ""
    header = (
        f"{command} (threshold {threshold} points, at most {rounds} rounds{rule}); "
        f"{tuned.games:,} games, {tuned.seconds:.0f} s this run"
    )
    write_text(folder / "trail.json", json.dumps([asdict(s) for s in trail], indent=1) + "\n")
    if method == PSRO:
        write_text(folder / "mixture.json", mixture_text(tables, header))
        write_text(folder / "meta.json", json.dumps([asdict(m) for m in metas], indent=1) + "\n")
        for m in metas:
            say(
                f"{m.players}p round {m.round} meta-game: {m.profiles} profiles, "
                f"{m.games:,} games; the mixture {m.support} of them"
            )
        say(f"mixture: {folder / 'mixture.json'}; trail: {folder / 'trail.json'}")
    else:
        write_text(folder / "tuned.toml", preset_toml("tuned", tables, header))
        say(f"preset: --strategy {folder / 'tuned.toml'}:tuned; trail: {folder / 'trail.json'}")
    return tuned


def _shown(bar, what: str) -> None:
    """A tune's progress: the best response now searched, one step of `bar`."""
    bar.set_postfix_str(what)
    bar.update(1)
