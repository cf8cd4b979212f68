"""Play games: the parallel njit driver and its Python wrapper.

Each game's randomness is keyed by (seed, game index), and each parallel work item writes
only its own games' output slots, so results are identical for any thread count or chunking.
"""

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import config, get_thread_id, njit, prange

from simcore.kernel import play_game
from simcore.limits import BLOCK, MAX_PLAYERS, MIN_PLAYERS
from simcore.state import (
    ERRORS,
    EV_USED,
    S_CAPPED,
    S_ERR,
    S_ROUNDS,
    S_TURN,
    S_WINNER,
    new_states,
)
from simcore.tables import pack_tables
from simcore.theme import Theme, load_theme
from simcore.vocab import R_DEPUTY, R_LEADER, R_OUTLAW, R_RENEGADE, W_LEADER, W_OUTLAW, W_RENEGADE
from strategies.presets import DEFAULT_PRESET, Strategy, resolve_strategy


class GameBlock(NamedTuple):
    winner: np.ndarray  # int8[n]: vocab.W_*, W_NONE (-1) when capped
    turns: np.ndarray  # int16[n]
    rounds: np.ndarray  # int16[n]: rounds begun (turns the leader started)
    capped: np.ndarray  # bool[n]
    role: np.ndarray  # int8[n, players]: seat 0 = the leader, then clockwise
    character: np.ndarray  # int16[n, players]: index into theme.character_names
    survived: np.ndarray  # bool[n, players]
    won: np.ndarray  # bool[n, players]
    preset: np.ndarray  # int8[n, players]: index into preset_names
    preset_names: tuple[str, ...]
    events: np.ndarray  # int32[n, EV_USED + card names]: State.ev counts (simcore.events)


class CheckedModeError(AssertionError):
    """An invariant broke in checked mode."""


@njit(cache=True)
def play_range(
    states, tables, W, pool, role_preset, players, seed, game0, b, n, checked, out_s, out_p, out_e
):
    """Work item b: games b*BLOCK .. of the block, on the running thread's state.
    out_s[g] = (winner, turns, capped, error, rounds); out_p[g, q] = (role, character, alive);
    out_e[g] = the game's first out_e.shape[1] event counts (State.ev)."""
    G = states[get_thread_id()]  # setup_game resets every field: any state will do
    T = tables[0]
    for g in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
        play_game(G, T, W, pool, role_preset, players, seed, game0 + g, checked)
        out_s[g, 0] = G.s[S_WINNER]
        out_s[g, 1] = G.s[S_TURN]
        out_s[g, 2] = G.s[S_CAPPED]
        out_s[g, 3] = G.s[S_ERR]
        out_s[g, 4] = G.s[S_ROUNDS]
        for q in range(players):
            out_p[g, q, 0] = G.role[q]
            out_p[g, q, 1] = G.char[q]
            out_p[g, q, 2] = G.alive[q]
        for k in range(out_e.shape[1]):
            out_e[g, k] = G.ev[k]


@njit(parallel=True, cache=True)
def play_block(
    states, tables, W, pool, role_preset, players, seed, game0, n, checked, out_s, out_p, out_e
):
    """Play games game0 .. game0+n-1 in work items of BLOCK games. Records (the states, the
    one-row tables array) stay arrays here: parfors cannot pass a bare record."""
    for b in prange((n + BLOCK - 1) // BLOCK):
        play_range(
            states,
            tables,
            W,
            pool,
            role_preset,
            players,
            seed,
            game0,
            b,
            n,
            checked,
            out_s,
            out_p,
            out_e,
        )


def character_pool(theme: Theme, characters: Sequence[str] | None, players: int) -> np.ndarray:
    """Indices of the allowed characters; one-line ValueError for unknown or too few names."""
    if characters is None:
        return np.arange(len(theme.character_names), dtype=np.int64)
    index = {name: i for i, name in enumerate(theme.character_names)}
    pool = []
    for name in characters:
        if name not in index:
            raise ValueError(
                f"unknown character {name!r} in theme {theme.id!r} "
                f"(characters: {', '.join(theme.character_names)})"
            )
        if index[name] not in pool:
            pool.append(index[name])
    if len(pool) < players:
        raise ValueError(f"character pool of {len(pool)} is too small for {players} players")
    return np.array(pool, dtype=np.int64)


def check_players(theme: Theme, players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or players not in theme.player_counts():
        counts = ", ".join(map(str, theme.player_counts()))
        raise ValueError(f"theme {theme.id!r} plays {counts} players, not {players}")


def play_games(
    theme: "Theme | str",
    players: int,
    games: int,
    seed: int,
    *,
    game0: int = 0,
    strategy: "str | dict[str, str] | Strategy" = DEFAULT_PRESET,
    characters: Sequence[str] | None = None,
    checked: bool = False,
) -> GameBlock:
    """Play games game0 .. game0+games-1 of (theme, players, seed); see GameBlock.
    In checked mode an invariant violation raises CheckedModeError naming the game."""
    theme = load_theme(theme)
    check_players(theme, players)
    if games < 0:
        raise ValueError("games must be at least 0")
    if not 0 <= seed < 2**63:
        raise ValueError("seed must be between 0 and 2**63 - 1")
    strat = resolve_strategy(strategy)
    pool = character_pool(theme, characters, players)
    out_s = np.zeros((games, 5), np.int64)
    out_p = np.zeros((games, players, 3), np.int64)
    out_e = np.zeros((games, EV_USED + len(theme.card_names)), np.int32)
    with np.errstate(over="ignore"):  # uint64 wraparound in the RNG under NUMBA_DISABLE_JIT
        play_block(
            new_states(config.NUMBA_NUM_THREADS),
            pack_tables(theme.tables),
            strat.matrix,
            pool,
            strat.role_preset,
            players,
            seed,
            game0,
            games,
            checked,
            out_s,
            out_p,
            out_e,
        )
    bad = np.flatnonzero(out_s[:, 3])
    if bad.size:
        g = int(bad[0])
        raise CheckedModeError(
            f"game {game0 + g} (seed {seed}, {players} players): {ERRORS[int(out_s[g, 3])]}"
        )
    winner = out_s[:, 0].astype(np.int8)
    role = out_p[:, :, 0].astype(np.int8)
    side_won = np.zeros((games, 4), bool)
    side_won[:, R_LEADER] = side_won[:, R_DEPUTY] = winner == W_LEADER
    side_won[:, R_OUTLAW] = winner == W_OUTLAW
    side_won[:, R_RENEGADE] = winner == W_RENEGADE
    return GameBlock(
        winner=winner,
        turns=out_s[:, 1].astype(np.int16),
        rounds=out_s[:, 4].astype(np.int16),
        capped=out_s[:, 2].astype(bool),
        role=role,
        character=out_p[:, :, 1].astype(np.int16),
        survived=out_p[:, :, 2].astype(bool),
        won=np.take_along_axis(side_won, role.astype(np.int64), axis=1),
        preset=strat.role_preset[role].astype(np.int8),
        preset_names=strat.names,
        events=out_e,
    )
