"""Copy a game paused between turns, redeal what one seat cannot see, and play it on.

A paused state (kernel.play_on with a `stop`) is copied (as int64 words: search.Copies), its
hidden parts replaced (search.resample_hidden, uniformly: the other seats' hands and the
draw pile's order, and the hidden roles, redealt at random from what the seat cannot tell
apart, each redealt seat's belief row signed for its new role), every seat given the
strategy its (new) role plays, and played to the end (continue_game), each world on its
own random stream keyed by (seed, world). The player that searches by rollouts
(simcore.engine.search) does the same inside a turn.

What the seat sees stays as it was: its own hand and role, every card in play, the discard
pile, life and max life, characters, who is alive, the leader's role and the roles of the
eliminated, how many cards each hand and the draw pile hold, the public record (karma).
Not conditioned on (ASSUMPTION, for the search to weight if it wants): what the seat saw
in passing (a card it drew and put back as Kit Carlson, a General Store's cards now in
hands) and what the others' play so far hints at their roles.
"""

from typing import NamedTuple

import numpy as np
from numba import config, get_thread_id, prange

from simcore.engine.jit import njit
from simcore.engine.kernel import NO_STOP, play_on, seat_strategies, setup_game, verify
from simcore.engine.limits import BLOCK
from simcore.engine.play import (
    NO_FEATURE,
    CheckedModeError,
    Strategy,
    character_pool,
    check_players,
    check_resolved,
)
from simcore.engine.rng import rng_seed
from simcore.engine.search import copies, resample_hidden
from simcore.engine.state import (
    COPIED_WORDS,
    ERRORS,
    QUIET,
    S_CAPPED,
    S_ERR,
    S_N,
    S_OVER,
    S_TURN,
    S_WINNER,
    new_states,
)
from simcore.engine.tables import pack_tables
from simcore.engine.theme import Theme, load_theme


@njit(cache=True)
def new_world(G, T, W, role_preset, seat, seed, world):
    """Make paused G world `world` of (seed) seen from `seat`: its hidden parts redealt (seat
    -1: none), every seat playing W[role_preset[its role]]. Seed -1: G keeps its own random
    stream (and, with seat -1, goes on as the paused game would have)."""
    if seed >= 0:
        rng_seed(G.rng, seed, world)
    if seat >= 0:
        resample_hidden(G, seat, 0.0)
    seat_strategies(G, W, role_preset)
    verify(G, T)


@njit(cache=True)
def continue_game(G, T, W, role_preset, seat, seed, world):
    """new_world, then play G to its end."""
    new_world(G, T, W, role_preset, seat, seed, world)
    play_on(G, T, NO_STOP)


@njit(cache=True)
def new_worlds(start, out, tables, W, role_preset, seat, seed, worlds):
    """out (Copies) = worlds `worlds` (indices) of the paused `start` (its words), not
    played on."""
    for i in range(worlds.shape[0]):
        out.words[i, :COPIED_WORDS] = start[:COPIED_WORDS]
        new_world(out.s[i], tables[0], W, role_preset, seat, seed, worlds[i])


@njit(cache=True)
def continue_range(start, states, tables, W, role_preset, seat, seed, world0, b, n, out):
    """Work item b of continue_block: worlds world0 + b*BLOCK .. on the thread's state.
    out[i] = (winner, turns, capped, error, alive seats as bits)."""
    t = get_thread_id()
    G = states.s[t]
    T = tables[0]
    for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
        states.words[t, :COPIED_WORDS] = start[:COPIED_WORDS]  # a copy of the paused state
        continue_game(G, T, W, role_preset, seat, seed, world0 + i)
        out[i, 0] = G.s[S_WINNER]
        out[i, 1] = G.s[S_TURN]
        out[i, 2] = G.s[S_CAPPED]
        out[i, 3] = G.s[S_ERR]
        alive = 0
        for q in range(G.s[S_N]):
            alive |= G.alive[q] << q
        out[i, 4] = alive


@njit(parallel=True, cache=True)
def continue_block(start, states, tables, W, role_preset, seat, seed, world0, n, out):
    """n worlds of the paused state `start` (its words: copies(...).words[0]), in parallel
    on `states` (Copies)."""
    for b in prange((n + BLOCK - 1) // BLOCK):
        continue_range(start, states, tables, W, role_preset, seat, seed, world0, b, n, out)


@njit(cache=True)
def pause_games(paused, tables, W, pool, role_preset, players, seed, games, stops, checked):
    """paused[g] = game games[g] of (seed) played up to turn stops[g] (or its end, earlier)."""
    T = tables[0]
    for g in range(games.shape[0]):
        G = paused[g]
        setup_game(G, T, W, pool, role_preset, NO_FEATURE, players, seed, games[g], checked)
        verify(G, T)
        play_on(G, T, stops[g])


class Continuations(NamedTuple):
    winner: np.ndarray  # int8[n]: vocab.W_*, W_NONE (-1) when capped
    turns: np.ndarray  # int64[n]: the game's turns, those before the pause included
    capped: np.ndarray  # bool[n]
    alive: np.ndarray  # bool[n, players]: alive at the end


def paused_games(
    theme: "Theme | str",
    players: int,
    seed: int,
    games: np.ndarray,
    stops: np.ndarray,
    *,
    strategy: Strategy,
    checked: bool = False,
) -> np.recarray:
    """State records of games `games` of (theme, players, seed) paused at turns `stops`
    (each the same game play_games plays, up to there; one that ended earlier is over) with
    `strategy` resolved for `players` (play.Strategy)."""
    theme = load_theme(theme)
    check_players(theme, players)
    check_resolved(strategy, players)
    games = np.asarray(games, np.int64)
    paused = new_states(len(games))
    with np.errstate(over="ignore"):
        pause_games(
            paused,
            pack_tables(theme.tables, strategy.learned),
            strategy.matrix,
            character_pool(theme, None, players),
            strategy.role_preset,
            players,
            seed,
            games,
            np.asarray(stops, np.int64),
            int(checked) | QUIET,
        )
    return paused


def _start(theme, state, seat, seed, strategy):
    """(theme, the words of a copy of state) after the argument checks."""
    theme = load_theme(theme)
    players = int(state.s[S_N])
    if state.s[S_OVER]:
        raise ValueError("the game is over: nothing to continue")
    if not -1 <= seat < players:
        raise ValueError(f"seat {seat} is not at a table of {players}")
    check_resolved(strategy, players)
    if not -1 <= seed < 2**63:
        raise ValueError("seed must be between -1 (the state's own stream) and 2**63 - 1")
    start = new_states(1)
    start[0] = state
    return theme, copies(start).words[0]


def sample_worlds(theme, state, seat, seed, worlds, strategy: Strategy) -> np.recarray:
    """State records of worlds `worlds` (indices) of (seed) of the paused `state` seen from
    `seat` (new_world), ready to play on; `state` itself is left unchanged."""
    theme, start = _start(theme, state, seat, seed, strategy)
    worlds = np.asarray(worlds, np.int64)
    out = new_states(len(worlds))
    tables = pack_tables(theme.tables, strategy.learned)
    with np.errstate(over="ignore"):
        new_worlds(
            start, copies(out), tables, strategy.matrix, strategy.role_preset, seat, seed, worlds
        )
    return out


def continue_worlds(
    theme: "Theme | str",
    state: np.record,
    seat: int,
    worlds: int,
    seed: int,
    *,
    world0: int = 0,
    strategy: Strategy,
) -> Continuations:
    """Play the paused `state` (one record of paused_games) on `worlds` times, worlds
    world0.. of (seed), each with what `seat` cannot see redealt (seat -1: nothing) and
    `strategy` at every seat; `state` itself is left unchanged. Seed -1: every world goes on
    with the state's own random stream (with seat -1: the game as it would have gone on)."""
    theme, start = _start(theme, state, seat, seed, strategy)
    players = int(state.s[S_N])
    out = np.zeros((worlds, 5), np.int64)
    with np.errstate(over="ignore"):
        continue_block(
            start,
            copies(new_states(config.NUMBA_NUM_THREADS)),
            pack_tables(theme.tables, strategy.learned),
            strategy.matrix,
            strategy.role_preset,
            seat,
            seed,
            world0,
            worlds,
            out,
        )
    if out[:, 3].any():
        i = int(np.flatnonzero(out[:, 3])[0])
        raise CheckedModeError(f"world {world0 + i} (seed {seed}): {ERRORS[int(out[i, 3])]}")
    bits = np.arange(players)
    return Continuations(
        winner=out[:, 0].astype(np.int8),
        turns=out[:, 1],
        capped=out[:, 2].astype(bool),
        alive=((out[:, 4:5] >> bits) & 1).astype(bool),
    )
