"""The search loop that tune, exploit, band and balance share: CMA-ES with margin
(`cmaes.CMAwM`, Hamano et al. 2022) asked and told generation by generation in the unit
cube (cma_search), the games each generation plays (games_for), the search's state saved
after every generation so that a rerun with the same request resumes (load_state,
save_state), and the seeds of a search's parts (sub_seed).

What is searched (a strategy's parameters: simcore.studies.tune; a theme's knobs:
simcore.studies.balance_search) and how a generation is scored are the caller's."""

from __future__ import annotations

import hashlib
import math
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cmaes import CMAwM

from simcore.runs.atomic import write_atomic
from simcore.runs.runfolder import RunFolderError

STATE = "search_state.pkl"


@dataclass
class Generation:
    games: int  # per candidate
    best_gain: float  # best candidate's win rate minus the baseline's, on the same deals
    mean_rate: float  # the candidates' mean win rate
    baseline_rate: float
    seconds: float


def sub_seed(seed: int, *tag: Any) -> int:
    """A seed for one part of a search (a generation, the final check), from the search's."""
    text = ":".join(str(t) for t in (seed, *tag))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1


def new_optimizer(x0: np.ndarray, steps: np.ndarray, sigma0: float, seed: int, population: int):
    """CMA-ES with margin over the unit cube from x0 (steps > 0: a discrete dimension)."""
    return CMAwM(
        mean=np.asarray(x0, float),
        sigma=sigma0,
        bounds=np.tile([0.0, 1.0], (len(x0), 1)),
        steps=np.asarray(steps, float),
        seed=seed % 2**31,
        population_size=population or None,
    )


def cma_search(
    state: dict,
    score: Callable[[list[np.ndarray], int], tuple[np.ndarray, Generation]],
    generations: int,
    seed: int,
    save: Callable[[dict], None] = lambda state: None,
    progress: Callable[[int, Generation, float], None] | None = None,
) -> np.ndarray:
    """Ask/tell until `generations` (state["opt"]: the optimiser; state["trail"]: one
    Generation each, so a saved state resumes where it stopped). score(points, generation)
    scores a generation's unit-cube points, higher better, on common random numbers.
    Returns the distribution's mean: the answer. Each generation's samples come from
    (seed, generation): a pickled optimiser forgets its random state, so a resumed search
    draws what an uninterrupted one would (see the round trip through pickle below)."""
    opt = state["opt"]
    trail: list[Generation] = state["trail"]
    while len(trail) < generations:
        opt.reseed_rng(sub_seed(seed, "cma", len(trail)) % 2**31)
        asked = [opt.ask() for _ in range(opt.population_size)]
        scores, gen = score([x for x, _ in asked], len(trail))
        opt.tell([(x_tell, -float(v)) for (_, x_tell), v in zip(asked, scores, strict=True)])
        # go on from the pickled optimiser, as a resumed search does: pickling symmetrises
        # the covariance matrix, which changes the next samples in the last bits
        opt = state["opt"] = pickle.loads(pickle.dumps(opt))
        trail.append(gen)
        save(state)
        if progress:
            progress(len(trail), gen, max(t.best_gain for t in trail))
    return opt.mean


def games_for(settings: Any, generation: int) -> int:
    """Games per candidate in a generation: games_min, rising geometrically to games_max at
    the last generation, in whole blocks of 32 (settings: its generations, games_min and
    games_max, as tune.Settings and a balance search's budget give them)."""
    last = max(1, settings.generations - 1)
    ratio = settings.games_max / settings.games_min
    games = settings.games_min * ratio ** (min(generation, last) / last)
    return max(32, int(math.ceil(games / 32)) * 32)


def load_state(out: Path | None, digest: str, name: str = STATE, made_by: str = "request"):
    """The search state pickled in out/name (a best response's, a balance search's), or None
    if there is none; RunFolderError if another `made_by` (its digest differs) made it."""
    if out is None or not (out / name).is_file():
        return None
    with open(out / name, "rb") as f:
        state = pickle.load(f)
    found = state.get("digest") if isinstance(state, dict) else getattr(state, "digest", None)
    if found != digest:
        raise RunFolderError(
            f"{out} holds another search ({name} was made by a different {made_by}); "
            "choose another --out or delete that folder"
        )
    return state


def save_state(out: Path | None, state: Any, name: str = STATE) -> None:
    if out is not None:
        write_atomic(out / name, pickle.dumps(state))


def write_text(path: Path, text: str) -> None:
    write_atomic(path, text.encode())
