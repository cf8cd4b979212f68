"""Exploitability beyond the parameter family: what one seat that searches by rollouts
(`search:BASE`, simcore.engine.search) gains against a field, per role.

For each role, one seat of it (the first clockwise from the leader) plays `search:F`, F
being the field's own preset for the role, and every other seat plays the field (against
a mixed field, a mixture file: F is the row the game drew for the role, and the seat's
worlds draw the others' rows from the mixture, simcore.engine.search.world_rows); the same
deals are played with the field's own play in that seat, and the gain is the paired
difference of that seat's wins (its side's), with a 95% interval (simcore.stats). The
games are played in chunks, each its own seed for both arms (common random numbers), so a
backend can spread them.

Where the search wins, and why (search_by_kind, `exploit --method search --by-kind`): the
same pairing with the seat searching one kind of decision at a time (state.SK_*: BASE's
choice against its alternatives of that kind only, search.option_kinds), every row on the
same deals; per row, how often the search left BASE's choice (per 100 decisions of the
kind, per game) and the gain.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from simcore.engine.play import check_players
from simcore.engine.search import Q_CHANGED, Q_DECISIONS, Q_KIND, Q_ROLLOUTS
from simcore.engine.theme import Theme
from simcore.engine.vocab import ROLES
from simcore.runs.backend import Backend
from simcore.stats import paired_interval
from simcore.studies.batch import Outcomes, Work, play_all
from simcore.studies.search_loop import sub_seed
from simcore.studies.tune import roles_at
from strategies.presets import SEARCH, SEARCH_KINDS, Search, Strategy, resolve_strategy

CHUNK = 256  # games per work item
# the disagreement table's rows (search_by_kind): each kind searched alone, then `together`
BY_KIND = ("target", "stop", "beer", "duel", "area", "take", "discard", "putback")
TOGETHER = Search.kinds  # the default search: play+discard (putback is opt-in)
# kinds of decision a searching seat cannot take (the table says why, instead of a number)
NOT_SEARCHED = {
    "answers": "not searched: BASE decides deep in the rules' call stack (a Missed! or "
    "BANG! answering a BANG!, Gatling, Indians! or Duel; a Beer at a lethal hit)",
}


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
    seconds: float  # playing the search seat's games
    decisions: int  # decisions searched
    rollouts: int
    changed: int  # decisions where the search left the field's choice
    # per kind (SEARCH_KINDS): (decisions searched with an alternative of the kind, decisions
    # where the search took one): search.Q_KIND
    kinds: dict[str, tuple[int, int]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "field_rate": self.field_rate,
            "search_rate": self.search_rate,
            "gain": self.gain,
            "gain_low": self.gain_low,
            "gain_high": self.gain_high,
            "games": self.games,
            "seconds": self.seconds,
            "decisions": self.decisions,
            "rollouts": self.rollouts,
            "changed": self.changed,
            "games_per_second": self.games / self.seconds if self.seconds else None,
            "decisions_per_second": self.decisions / self.seconds if self.seconds else None,
            "by_kind": {k: {"decisions": d, "changed": c} for k, (d, c) in self.kinds.items()},
        }


def settings(search: Search) -> dict[str, Any]:
    return {
        "worlds": search.worlds,
        "budget": search.budget,
        "kinds": list(search.kinds),
        "z": search.z,
        "beta": search.beta,
    }


@dataclass
class SearchGain:
    strategy: str
    theme: str
    players: int
    search: Search
    roles: list[RoleGain]

    def as_dict(self) -> dict[str, Any]:
        return head(self) | {
            "search": settings(self.search),
            "roles": {r.role: r.as_dict() for r in self.roles},
        }


def head(answer: SearchGain | KindTable) -> dict[str, Any]:
    """What a search exploitability's JSON opens with."""
    return {k: getattr(answer, k) for k in ("strategy", "theme", "players")} | {"method": "search"}


@dataclass
class KindRow:
    """A row of the disagreement table: one seat of a role searching only `kinds`."""

    kinds: tuple[str, ...]
    gain: RoleGain

    @property
    def name(self) -> str:
        return "+".join(self.kinds)

    def as_dict(self) -> dict[str, Any]:
        g = self.gain
        return {
            "kinds": list(self.kinds),
            "decisions_per_game": g.decisions / g.games,
            "disagree_per_100": 100 * g.changed / g.decisions if g.decisions else None,
            "disagree_per_game": g.changed / g.games,
            **g.as_dict(),
        }


@dataclass
class KindTable:
    """The disagreement table (search_by_kind): per role, a row per kind searched alone."""

    strategy: str
    theme: str
    players: int
    search: Search  # the settings of every row, its kinds aside
    roles: dict[str, list[KindRow]]

    def as_dict(self) -> dict[str, Any]:
        return head(self) | {
            "by_kind": True,
            "search": {k: v for k, v in settings(self.search).items() if k != "kinds"},
            "roles": {
                role: {row.name: row.as_dict() for row in rows} for role, rows in self.roles.items()
            },
            "not_searched": NOT_SEARCHED,
        }


def search_spec(search: Search, base: str) -> str:
    """The strategy spec of one seat searching with `search` over `base`."""
    parts = [f"worlds={search.worlds}", f"budget={search.budget}", f"z={search.z}"]
    parts.append(f"beta={search.beta}")
    parts += [f"kinds={'+'.join(search.kinds)}", "seats=one"]
    return f"{SEARCH}@{'@'.join(parts)}:{base}"


def paired_arms(
    theme: Theme,
    players: int,
    field: Strategy,
    role: str,
    searches: list[Search],
    seed: int,
    games: int,
    backend: Backend | None,
) -> list[RoleGain]:
    """One seat of `role` (the first clockwise from the leader) searching with each of
    `searches` over the field's preset for it, every other seat the field, each paired
    with the field's own play in that seat on the same `games` deals (played once)."""
    r = ROLES.index(role)
    seeds = [sub_seed(seed, "search", role, k) for k in range(math.ceil(games / CHUNK))]
    sizes = [min(CHUNK, games - k * CHUNK) for k in range(len(seeds))]
    deals = list(zip(seeds, sizes, strict=True))
    base = list(play_all([Work(theme, players, field, s, n) for s, n in deals], backend))
    seats = [np.argmax(o.role == r, axis=1) for o in base]  # the first seat of the role

    def seat_won(arm: list[Outcomes]) -> np.ndarray:
        return np.concatenate(
            [o.won[np.arange(len(seat)), seat] for o, seat in zip(arm, seats, strict=True)]
        ).astype(float)

    b = seat_won(base)
    out = []
    for search in searches:
        if field.mixture is not None:  # the seat searches over its own draw of the mixture
            searching = replace(field, search=replace(search, seats="one"), search_roles=1 << r)
        else:
            by_role = dict(zip(ROLES, field.by_role, strict=True))
            by_role[role] = search_spec(search, by_role[role])
            searching = resolve_strategy(by_role, players, theme.plays_as)
        works = [Work(theme, players, searching, s, n) for s, n in deals]
        t0 = time.perf_counter()
        done = list(play_all(works, backend))
        seconds = time.perf_counter() - t0
        s_ = seat_won(done)
        counts = sum(o.searched.sum(axis=0) for o in done)
        gain, _, half = paired_interval(s_ - b)
        kinds = {
            k: (int(counts[Q_KIND + 2 * bit]), int(counts[Q_KIND + 2 * bit + 1]))
            for k, v in SEARCH_KINDS.items()
            for bit in [v.bit_length() - 1]
        }
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
                int(counts[Q_DECISIONS]),
                int(counts[Q_ROLLOUTS]),
                int(counts[Q_CHANGED]),
                kinds,
            )  # fmt: skip
        )
    return out


def measured_roles(
    theme: Theme, players: int, field: Strategy, roles: list[str] | None
) -> list[str]:
    """The roles measured (those at the table, or `roles`) against `field`, which must not
    search; one-line ValueError for a role not at the table."""
    check_players(theme, players)
    at = roles_at(theme, players)
    for r in roles or []:
        if r not in at:
            raise ValueError(
                f"no {r} at {players} players in {theme.id!r} (roles: {', '.join(at)})"
            )
    if field.search:
        raise ValueError("the field of exploit --method search cannot search itself")
    return roles or at


def search_gain(
    theme: Theme,
    players: int,
    field: Strategy,
    seed: int,
    games: int,
    search: Search | None = None,
    roles: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
) -> SearchGain:
    """Per role (those at the table, or `roles`), one search seat's gain over `field` (a
    strategy resolved at `players` in `theme`, mixed allowed) on `games` deals."""
    search = search or Search()
    measured = measured_roles(theme, players, field, roles)
    out = []
    for role in measured:
        if progress:
            progress(role)
        out += paired_arms(theme, players, field, role, [search], seed, games, backend)
    return SearchGain(field.label(), theme.id, players, search, out)


def search_by_kind(
    theme: Theme,
    players: int,
    field: Strategy,
    seed: int,
    games: int,
    search: Search | None = None,
    kinds: list[tuple[str, ...]] | None = None,
    roles: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
) -> KindTable:
    """The disagreement table: per role (those at the table, or `roles`) and per kind set of
    `kinds` (default: each of BY_KIND alone, then TOGETHER), one seat searching only those
    decisions with `search`'s other settings, paired with the field's own play on the
    same `games` deals (the same deals for every row); `theme`, `field`: as search_gain's."""
    search = search or Search()
    measured = measured_roles(theme, players, field, roles)
    kinds = kinds or [(k,) for k in BY_KIND] + [TOGETHER]
    rows = [replace(search, kinds=k) for k in kinds]
    table = {}
    for role in measured:
        if progress:
            progress(role)
        gains = paired_arms(theme, players, field, role, rows, seed, games, backend)
        table[role] = [KindRow(k, g) for k, g in zip(kinds, gains, strict=True)]
    return KindTable(field.label(), theme.id, players, search, table)
