"""A teacher's labels: play-phase decisions sampled from a field's games, each option valued
by rollouts (what strategies.learned's tables are learned from: simcore.studies.learn).

Each game of (seed) is played by the field, every seat pausing at each of its play-phase
decisions (kernel.take_turn, state.SK_PLAY_KINDS); a decision is labelled with probability
`rate`, keyed by (seed, game, decision) alone, up to D_CAP a game. A labelled decision's
options are ending the play phase (code 1) and every legal play (code k + 2), each played on
the same `worlds` worlds (search.deal_world: what the seat cannot see redealt, roles by
`beta`, the field at every seat from there); an option's label is the games its seat's side
wins. The game then goes on with the field's own choice, so the decisions sampled are those
the field meets. What a learned table reads of each play (decide.play_context) is kept with
it. A decision with more than O_CAP options is not labelled (counted).

The labels are a function of (theme, players, seed, games, field, rate, worlds, beta):
whatever the threads.
"""

from typing import NamedTuple

import numpy as np
from numba import config, get_thread_id, prange

from simcore.engine.jit import njit
from simcore.engine.kernel import NO_STOP, play_on, setup_game, verify
from simcore.engine.rng import GOLDEN, mix64
from simcore.engine.search import C_BETA_CENTI, N_CFG, copies, deal_world, play_world
from simcore.engine.state import (
    S_BASE,
    S_CUR,
    S_DECISIONS,
    S_ERR,
    S_FORCE,
    S_OPTIONS,
    S_PAUSED,
    S_SEARCH,
    S_SEARCH_KINDS,
    S_TURN,
    SK_PLAY_KINDS,
    new_states,
)
from simcore.engine.tables import pack_tables
from simcore.engine.theme import Theme
from strategies.decide import play_context
from strategies.params import N_CTX

D_CAP = 6  # decisions labelled per game at most
O_CAP = 48  # options of a labelled decision at most
TAG_LABEL = np.uint64(0x3C6EF372FE94F82B)  # separates the labels' keys from the games'
# meta columns: the deciding seat, its role, options, the field's choice (its code), the
# decision's number in the game, the turn
M_SEAT, M_ROLE, M_OPTIONS, M_BASE, M_DECISION, M_TURN = range(6)
N_META = 6


class Labels(NamedTuple):
    """Labelled decisions, one row each (d), and their options (d, o): option 0 ends the
    play phase, option k + 1 is legal play k."""

    meta: np.ndarray  # int64[d, N_META]
    wins: np.ndarray  # int64[d, O_CAP]: games won per option (options beyond M_OPTIONS: 0)
    slot: np.ndarray  # int64[d, O_CAP]: each play's learned-table row (-1: option 0)
    ctx: np.ndarray  # float64[d, O_CAP, N_CTX]: each play's context (params.CONTEXT)
    worlds: int  # worlds each option was played on
    games: int  # games played
    skipped: int  # sampled decisions not labelled: too many options


@njit(cache=True)
def label_options(G, Gw, S, Sw, D, Dw, T, W, rows, key, worlds, cfg, wins, slot, ctx):
    """Label the paused play-phase decision of G (its seat G.s[S_CUR]): option j (code j + 1)
    played on worlds 0 .. worlds - 1 of `key` (search.deal_world, search.play_world: each
    world dealt once into D, every option played on it), its wins in wins[j], and each
    play's learned-table row and context in slot[j], ctx[j] (slot[0] = -1: ending)."""
    pure = np.zeros((0, 5), np.float64)  # the field is not mixed (search.world_rows)
    p = G.s[S_CUR]
    m = G.s[S_OPTIONS] + 1
    slot[0] = -1
    for k in range(m - 1):
        slot[k + 1] = play_context(G, T, p, k, ctx[k + 1])
    wins[:m] = 0
    for world in range(worlds):
        deal_world(G, Gw, D, Dw, W, rows, key, world, cfg, pure)
        for j in range(m):
            wins[j] += play_world(G, D, Dw, S, Sw, T, j + 1, j == m - 1)


@njit(cache=True)
def label_game(G, Gw, S, Sw, D, Dw, T, W, pool, rows, players, seed, game, cfg, rate, worlds,
               meta, wins, slot, ctx):  # fmt: skip
    """Play game `game`, labelling its sampled decisions into meta/wins/slot/ctx[:D_CAP]
    (see the module docstring); returns (decisions labelled, decisions skipped)."""
    no_feature = np.full(2, -1, np.int64)
    setup_game(G, T, W, pool, rows, no_feature, players, seed, game, 0)
    verify(G, T)
    G.s[S_SEARCH] = (1 << players) - 1
    G.s[S_SEARCH_KINDS] = SK_PLAY_KINDS
    base_key = mix64(mix64(np.uint64(seed) ^ TAG_LABEL) + np.uint64(game) * GOLDEN)
    cut = np.uint64(rate * 18446744073709551615.0) if rate < 1.0 else np.uint64(2**64 - 1)
    d = 0
    skipped = 0
    while True:
        play_on(G, T, NO_STOP)
        if G.s[S_PAUSED] == 0 or G.s[S_ERR]:
            return d, skipped
        G.s[S_PAUSED] = 0
        key = mix64(base_key + np.uint64(G.s[S_DECISIONS]))
        if d < D_CAP and mix64(key ^ TAG_LABEL) <= cut:
            m = G.s[S_OPTIONS] + 1
            if m > O_CAP:
                skipped += 1
            else:
                p = G.s[S_CUR]
                meta[d, 0] = p
                meta[d, 1] = G.role[p]
                meta[d, 2] = m
                meta[d, 3] = G.s[S_BASE]
                meta[d, 4] = G.s[S_DECISIONS]
                meta[d, 5] = G.s[S_TURN]
                label_options(
                    G, Gw, S, Sw, D, Dw, T, W, rows, key, worlds, cfg, wins[d], slot[d], ctx[d]
                )  # fmt: skip
                d += 1
        G.s[S_FORCE] = G.s[S_BASE]


@njit(parallel=True, cache=True)
def label_block(states, scratch, tables, W, pool, rows, players, seed, game0, n, cfg, rate,
                worlds, meta, wins, slot, ctx, counts):  # fmt: skip
    """label_game for games game0 .. game0 + n - 1, one work item each, on thread t's state
    and its two scratch states (2 t, 2 t + 1); counts[g] = its (labelled, skipped)."""
    for g in prange(n):
        t = get_thread_id()
        a, b = label_game(
            states.s[t], states.words[t], scratch.s[2 * t], scratch.words[2 * t],
            scratch.s[2 * t + 1], scratch.words[2 * t + 1], tables[0], W, pool, rows, players,
            seed, game0 + g, cfg, rate, worlds, meta[g], wins[g], slot[g], ctx[g],
        )  # fmt: skip
        counts[g, 0] = a
        counts[g, 1] = b


def label_decisions(
    theme: Theme,
    players: int,
    seed: int,
    games: int,
    strategy,
    pool: np.ndarray,
    rate: float,
    worlds: int,
    beta: float = 0.0,
    game0: int = 0,
) -> Labels:
    """Labels of games game0 .. game0 + games - 1 of (theme, players, seed) played by
    `strategy` (a resolved field, no seat searching), every option on `worlds` worlds."""
    threads = config.NUMBA_NUM_THREADS
    cfg = np.zeros(N_CFG, np.int64)
    cfg[C_BETA_CENTI] = round(beta * 100)
    meta = np.zeros((games, D_CAP, N_META), np.int64)
    wins = np.zeros((games, D_CAP, O_CAP), np.int64)
    slot = np.zeros((games, D_CAP, O_CAP), np.int64)
    ctx = np.zeros((games, D_CAP, O_CAP, N_CTX), np.float64)
    counts = np.zeros((games, 2), np.int64)
    with np.errstate(over="ignore"):
        label_block(
            copies(new_states(threads)), copies(new_states(2 * threads)),
            pack_tables(theme.tables, strategy.learned), strategy.matrix, pool,
            strategy.role_preset, players, seed, game0, games, cfg, float(rate), worlds, meta,
            wins, slot, ctx, counts,
        )  # fmt: skip
    keep = np.arange(D_CAP)[None, :] < counts[:, :1]
    return Labels(meta[keep], wins[keep], slot[keep], ctx[keep], worlds, games,
                  int(counts[:, 1].sum()))  # fmt: skip


def labelled_options(tables, state, strategy, worlds: int, beta: float = 0.0, key: int = 0):
    """label_options at the paused `state` (a record, S_PAUSED set at a play-phase decision),
    with the field `strategy` (resolved) at every seat of its worlds: (wins, slot, ctx) per
    option, option 0 ending the play phase; `state` is left unchanged. tables:
    pack_tables(theme.tables, strategy.learned)."""
    start = new_states(1)
    start[0] = state
    m = int(state.s[S_OPTIONS]) + 1
    cfg = np.zeros(N_CFG, np.int64)
    cfg[C_BETA_CENTI] = round(beta * 100)
    wins = np.zeros(m, np.int64)
    slot = np.zeros(m, np.int64)
    ctx = np.zeros((m, N_CTX), np.float64)
    G, S = copies(start), copies(new_states(2))
    with np.errstate(over="ignore"):
        label_options(
            G.s[0], G.words[0], S.s[0], S.words[0], S.s[1], S.words[1], tables[0], strategy.matrix,
            strategy.role_preset, np.uint64(key), worlds, cfg, wins, slot, ctx,
        )  # fmt: skip
    return wins, slot, ctx
