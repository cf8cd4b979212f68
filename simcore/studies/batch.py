"""One way to play a study's batch: configurations on the same deals, tallied per side,
role and character.

A study (ability values, the self-check, best responses and tuning, tournaments, the
balance search) asks "play these configurations on these deals": each configuration is a
`Work` (theme, table, strategy, seed, games, and optionally a featured character or the
event counts), every `Work` of one seed plays the same deals 0 .. games-1 (common random
numbers), and `play_all` plays a list of them on a backend (simcore.runs.backend: this
machine, or Ray tasks), yielding their `Outcomes` in order whatever the backend. `Tally`
counts outcomes per side and per character in each role, poolable across batches.

A strategy search plays many candidates at once instead: `candidate_winners` plays each
candidate's row of one parameter matrix in one role, on the same deals, in one kernel call
per worker; `EngineTable` is that, bound to one theme and table, as the searches use it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from simcore.engine.theme import Theme
from simcore.engine.vocab import ROLES, SIDE_OF, WINNERS
from simcore.runs.backend import Backend, LocalBackend
from strategies.params import NO_LEARNED
from strategies.presets import Strategy, StrategySpec, resolve_strategy

MapFn = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]  # map() or Backend.map


@dataclass(frozen=True)
class Work:
    """One configuration on deals 0 .. games-1 of `seed`: a theme at one table with a
    strategy, and optionally a featured character ("NAME" or "NAME=ROLE") and the event
    counts. Picklable, so a backend can play it anywhere; `play_work` of it depends on
    nothing else."""

    theme: Theme
    players: int
    strategy: Strategy | StrategySpec
    seed: int
    games: int
    feature: str | None = None
    events: bool = False


class Outcomes(NamedTuple):
    """Per game: the winning side (vocab.W_*, -1 capped); per seat: role, character, won,
    survived; the featured seat (-1: none) and, when asked, the event counts."""

    winner: np.ndarray  # int8[n]
    role: np.ndarray  # int8[n, players]
    character: np.ndarray  # int16[n, players]
    won: np.ndarray  # bool[n, players]
    survived: np.ndarray | None = None  # bool[n, players]
    featured: np.ndarray | None = None  # int8[n]
    events: np.ndarray | None = None  # int64[n, N_EV] (Work.events), else 0 wide
    searched: np.ndarray | None = None  # int64[n, search.N_Q] with a seat that searches

    def featured_won(self) -> np.ndarray:
        """Per game: whether the featured character's side won."""
        return self.won[np.arange(len(self.winner)), self.featured.astype(np.int64)]

    def side_won(self, role: int) -> np.ndarray:
        """Per game: whether `role`'s side (vocab.R_*) won."""
        return self.winner == SIDE_OF[role]


def play_work(work: Work) -> Outcomes:
    """Play one work item (module level: backends pickle it by reference); its strategy is
    resolved here for its table, as given or as a spec."""
    from simcore.engine.play import play_games  # numba loads on first use, not on import

    strategy = resolve_strategy(work.strategy, work.players, work.theme.plays_as, mixed=True)
    block = play_games(
        work.theme, work.players, work.games, work.seed, strategy=strategy,
        feature=work.feature, events=work.events,
    )  # fmt: skip
    return Outcomes(
        block.winner, block.role, block.character, block.won, block.survived, block.featured,
        block.events, block.searched,
    )  # fmt: skip


def play_all(works: Iterable[Work], backend: Backend | None = None) -> Iterator[Outcomes]:
    """The outcomes of every work item, in order, played on `backend` (default local)."""
    return (backend or LocalBackend()).map(play_work, works)


@dataclass
class Tally:
    """Counts of one variant at one table, poolable across rounds (weights: a bootstrap)."""

    games: float
    sides: np.ndarray  # float64[3]: games each side (WINNERS) won
    seats: np.ndarray  # float64[characters, 4]: seats dealt per character and role
    wins: np.ndarray  # float64[characters, 4]: of them, won

    @classmethod
    def of(cls, o: Outcomes, characters: int, weights: np.ndarray | None = None) -> Tally:
        w = np.ones(len(o.winner)) if weights is None else weights
        seat_w = np.repeat(w, o.role.shape[1])
        cell = (o.character.astype(np.int64) * len(ROLES) + o.role).ravel()
        size = characters * len(ROLES)
        seats = np.bincount(cell, seat_w, size).reshape(characters, len(ROLES))
        wins = np.bincount(cell, seat_w * o.won.ravel(), size).reshape(characters, len(ROLES))
        sides = np.bincount(o.winner[o.winner >= 0], w[o.winner >= 0], len(WINNERS))
        return cls(float(w.sum()), sides, seats, wins)

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.sides + other.sides,
            self.seats + other.seats,
            self.wins + other.wins,
        )

    def effects(self) -> tuple[np.ndarray, np.ndarray]:
        """Per character: its role-adjusted effect (win rate minus the rate its roles give,
        as simcore.runs.cells.effects_overall) and its seats; NaN effect for no seats."""
        role_seats = self.seats.sum(axis=0)
        baseline = np.divide(self.wins.sum(axis=0), role_seats, where=role_seats > 0,
                             out=np.zeros(len(ROLES)))  # fmt: skip
        seats = self.seats.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = self.wins.sum(axis=1) / seats
            expected = (self.seats * baseline).sum(axis=1) / seats
        return rate - expected, seats


def candidate_winners(
    theme: Theme,
    players: int,
    seed: int,
    W: np.ndarray,
    field_rows: np.ndarray,
    role: int,
    candidates: int,
    games: int,
    backend: Backend | None = None,
    own: bool = False,
    learned: np.ndarray = NO_LEARNED,
) -> np.ndarray:
    """Per game, the winning side (vocab.W_*, -1 capped), for candidates rows
    len(W)-candidates.. of W, each playing `role` (every other role its row of field_rows)
    on the same `games` deals: int8[own + candidates, games]. field_rows: int64[4], the row
    of W each role plays, or int64[games, 4], per deal (a mixed field, tune.Mixture). With
    `own`, the first row is the field as it is (`role` playing its field rows too). The
    games are played in `backend.workers` consecutive batches (one kernel call locally),
    each a unit of work of `backend` (default local): the same winners however they are
    split."""
    first = len(W) - candidates
    field = np.broadcast_to(np.asarray(field_rows, np.int64).reshape(-1, 4), (games, 4))
    rows = np.tile(field, (own + candidates, 1))
    rows[own * games :, role] = first + np.repeat(np.arange(candidates), games)
    game_idx = np.tile(np.arange(games, dtype=np.int64), own + candidates)
    return _winners(theme, players, seed, W, rows, game_idx, backend, learned).reshape(-1, games)


def profile_winners(
    theme: Theme,
    players: int,
    seed: int,
    W: np.ndarray,
    profiles: np.ndarray,
    games: int,
    backend: Backend | None = None,
    learned: np.ndarray = NO_LEARNED,
) -> np.ndarray:
    """Per game, the winning side of each profile (int64[P, 4]: the row of W each role
    plays) on the same `games` deals: int8[P, games] (a meta-game's payoffs, tune.psro)."""
    rows = np.repeat(np.asarray(profiles, np.int64).reshape(-1, 4), games, axis=0)
    game_idx = np.tile(np.arange(games, dtype=np.int64), len(rows) // games)
    return _winners(theme, players, seed, W, rows, game_idx, backend, learned).reshape(-1, games)


def _winners(theme, players, seed, W, rows, game_idx, backend, learned) -> np.ndarray:
    """play_rows's winners, in `backend.workers` consecutive batches (learned: the tables
    of W's learned rows, Strategy.learned)."""
    backend = backend or LocalBackend()
    ends = np.linspace(0, len(game_idx), backend.workers + 1).astype(np.int64)
    batches = [(rows[a:b], game_idx[a:b]) for a, b in itertools.pairwise(ends) if b > a]
    play = partial(_batch_winners, theme, players, seed, W, learned)
    return np.concatenate(list(backend.map(play, batches)))


@dataclass(frozen=True)
class EngineTable:
    """The games a strategy search plays: one theme at one table on a backend.
    winners(...) is candidate_winners there, profiles(...) profile_winners; a search only
    ever asks these, so a test can hand a search a table of its own with a known answer."""

    theme: Theme
    players: int
    backend: Backend | None = None
    # the tables of the field's learned rows (`strong`)
    learned: np.ndarray = field(default_factory=lambda: NO_LEARNED)

    def winners(self, seed, W, field_rows, role, candidates, games, own=False) -> np.ndarray:
        return candidate_winners(
            self.theme, self.players, seed, W, field_rows, role, candidates, games,
            self.backend, own, self.learned,
        )  # fmt: skip

    def profiles(self, seed, W, profiles, games) -> np.ndarray:
        return profile_winners(
            self.theme, self.players, seed, W, profiles, games, self.backend, self.learned
        )


def _batch_winners(theme: Theme, players: int, seed: int, W: np.ndarray, learned, batch):
    """The winners of one batch (role rows, game indices) of a generation's games."""
    from simcore.engine.play import play_rows

    winner, _ = play_rows(theme, players, seed, W, *batch, learned=learned)
    return winner
