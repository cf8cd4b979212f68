"""Exploitability beyond the parameter family: what one seat that searches by rollouts
(`search:BASE`, simcore.engine.search) gains against a field, per role.

For each role, one seat of it (the first clockwise from the leader) plays `search:F`, F
being the field's own preset for the role, and every other seat plays the field; the same
deals are played with the field's own play in that seat, and the gain is the paired
difference of that seat's wins (its side's), with a 95% interval (simcore.stats). The
games are played in chunks, each its own seed for both arms (common random numbers), so a
backend can spread them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore.engine.play import check_players
from simcore.engine.theme import load_theme
from simcore.engine.vocab import ROLES
from simcore.runs.backend import Backend
from simcore.stats import paired_interval
from simcore.studies.batch import Work, play_all
from simcore.studies.tune import roles_at, sub_seed
from strategies.presets import SEARCH, Search, resolve_strategy

CHUNK = 256  # games per work item


@dataclass
class RoleGain:
    """One role's search seat against the field, paired with the field's own play."""

    role: str
    field_rate: float
    search_rate: float
    gain: float
    gain_low: float
    gain_high: float
    games: int
    seconds: float
    decisions: int  # decisions searched
    rollouts: int
    changed: int  # decisions where the search left the field's choice


@dataclass
class SearchGain:
    strategy: str
    theme: str
    players: int
    search: Search
    roles: list[RoleGain]

    def as_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "theme": self.theme,
            "players": self.players,
            "method": "search",
            "search": {
                "worlds": self.search.worlds,
                "budget": self.search.budget,
                "kinds": list(self.search.kinds),
                "z": self.search.z,
                "beta": self.search.beta,
            },
            "roles": {
                r.role: {
                    "field_rate": r.field_rate,
                    "search_rate": r.search_rate,
                    "gain": r.gain,
                    "gain_low": r.gain_low,
                    "gain_high": r.gain_high,
                    "games": r.games,
                    "seconds": r.seconds,
                    "decisions": r.decisions,
                    "rollouts": r.rollouts,
                    "changed": r.changed,
                    "games_per_second": r.games / r.seconds if r.seconds else None,
                    "decisions_per_second": r.decisions / r.seconds if r.seconds else None,
                }
                for r in self.roles
            },
        }


def search_spec(search: Search, base: str) -> str:
    """The strategy spec of one seat searching with `search` over `base`."""
    parts = [f"worlds={search.worlds}", f"budget={search.budget}", f"z={search.z}"]
    parts.append(f"beta={search.beta}")
    parts += [f"kinds={'+'.join(search.kinds)}", "seats=one"]
    return f"{SEARCH}@{'@'.join(parts)}:{base}"


def search_gain(
    strategy: str,
    theme_id: str,
    players: int,
    seed: int,
    games: int,
    search: Search | None = None,
    roles: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
) -> SearchGain:
    """Per role (those at the table, or `roles`), one search seat's gain over the field
    `strategy` on `games` deals."""
    search = search or Search()
    theme = load_theme(theme_id)
    check_players(theme, players)
    at = roles_at(theme, players)
    for r in roles or []:
        if r not in at:
            raise ValueError(
                f"no {r} at {players} players in {theme.id!r} (roles: {', '.join(at)})"
            )
    field = resolve_strategy(strategy, players, theme.plays_as)
    if field.search:
        raise ValueError("the field of exploit --method search cannot search itself")
    out = []
    for role in roles or at:
        if progress:
            progress(role)
        r = ROLES.index(role)
        by_role = dict(zip(ROLES, field.by_role, strict=True))
        by_role[role] = search_spec(search, by_role[role])
        searching = resolve_strategy(by_role, players, theme.plays_as)
        seeds = [sub_seed(seed, "search", role, k) for k in range(math.ceil(games / CHUNK))]
        sizes = [min(CHUNK, games - k * CHUNK) for k in range(len(seeds))]
        works = []
        for s, n in zip(seeds, sizes, strict=True):
            works += [Work(theme, players, field, s, n), Work(theme, players, searching, s, n)]
        t0 = time.perf_counter()
        done = list(play_all(works, backend))
        seconds = time.perf_counter() - t0
        base_won, search_won, counts = [], [], np.zeros(3, np.int64)
        for base, played in zip(done[::2], done[1::2], strict=True):
            seat = np.argmax(base.role == r, axis=1)  # the searching seat: first of its role
            rows = np.arange(len(seat))
            base_won.append(base.won[rows, seat])
            search_won.append(played.won[rows, seat])
            counts += played.searched.sum(axis=0)
        b = np.concatenate(base_won).astype(float)
        s_ = np.concatenate(search_won).astype(float)
        gain, _, half = paired_interval(s_ - b)
        out.append(
            RoleGain(
                role,
                float(b.mean()),
                float(s_.mean()),
                gain,
                gain - half,
                gain + half,
                games,
                seconds,
                int(counts[0]),
                int(counts[1]),
                int(counts[2]),
            )  # fmt: skip
        )
    return SearchGain(field.label(), theme.id, players, search, out)
