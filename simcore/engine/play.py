"""Play games: the parallel njit driver and its Python wrapper.

Each game's randomness is keyed by (seed, game index), and each parallel work item writes
only its own games' output slots, so results are identical for any thread count or chunking.
"""

import difflib
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np
from numba import config, get_thread_id, prange

from simcore.engine.jit import njit
from simcore.engine.kernel import play_game
from simcore.engine.limits import BLOCK, MAX_PLAYERS, MIN_PLAYERS
from simcore.engine.search import C_ROLES, N_CFG, N_OPT, N_Q, NO_MIX, copies, search_game
from simcore.engine.state import (
    ERRORS,
    N_EV,
    QUIET,
    S_CAPPED,
    S_ERR,
    S_FEATURED,
    S_ROUNDS,
    S_TURN,
    S_WINNER,
    new_states,
)
from simcore.engine.tables import pack_tables
from simcore.engine.theme import Theme, load_theme
from simcore.engine.vocab import (
    ROLES,
    SIDE_OF,
)
from strategies.params import NO_LEARNED


class Strategy(Protocol):
    """What the engine reads of a strategy resolved at the edge (strategies.presets.Strategy:
    resolve_strategy(spec, players, theme.plays_as, mixed=True)); the engine parses no spec."""

    players: int | None  # the player count it was resolved for
    matrix: np.ndarray  # float64[4, N_PARAMS]: row r is what role r plays
    role_preset: np.ndarray  # int64[4]: the row of `matrix` each canonical role plays
    names: tuple[str, ...]  # the preset each row plays
    bases: tuple[str, ...]  # per role, the preset it plays or searches from (traces show it)
    search: Any  # how its searching roles search (None: none searches)
    mixture: Any  # a mixed strategy's draws (strategies.presets.Mixture), else None

    def search_config(self) -> np.ndarray: ...


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
    featured: np.ndarray  # int8[n]: the featured character's seat, -1 without a feature
    # with events=True (else 0 wide): State.ev per game (simcore.engine.events names them), and
    # the cards each seat used, by name (State.used; theme.card_names)
    events: np.ndarray  # int64[n, N_EV or 0] (the pile shares are sums of millionths)
    used: np.ndarray  # int16[n, players, card names or 0]
    # with a seat that searches (else None): per game, decisions searched, rollouts played,
    # decisions where the search left BASE's choice, and the same per kind (search.Q_*)
    searched: np.ndarray | None  # int64[n, search.N_Q]
    # with search_log=R: per game, the log of each searched decision (search.log_decision)
    decisions: np.ndarray | None = None  # int64[n, R, search.N_OPT]


NO_FEATURE = np.array([-1, -1], np.int64)  # setup_game's `feature`: none
# setup_game's `checked` for checked mode: an int, as _play passes it (a bool compiles anew)
CHECKED = 1


class CheckedModeError(AssertionError):
    """An invariant broke in checked mode."""


class Searching(NamedTuple):
    """What search_range needs for seats that search (simcore.engine.search): the settings,
    the states' int64 words and two scratch states per thread (2 t, 2 t + 1: search.decide's
    S and D) and their words."""

    cfg: np.ndarray  # int64[search.N_CFG]
    words: np.ndarray  # int64[threads, words]: the states' memory
    scratch: np.recarray  # two State records per thread
    scratch_words: np.ndarray
    mix: np.ndarray  # float64[J, 5]: the mixed field the rows were drawn from (search.world_rows)


def searching(cfg: np.ndarray, states: np.recarray, mix: np.ndarray = NO_MIX) -> Searching:
    """search_block's Searching for settings cfg (Strategy.search_config), its states and the
    mixed field `mix` (Mixture.table; 0 rows: a pure field)."""
    scratch = new_states(2 * len(states))
    return Searching(cfg, copies(states).words, scratch, copies(scratch).words, mix)


@njit(cache=True, inline="always")
def game_of(role_rows, game_idx, game0, g):
    """Slot g's game: (its row of role_rows, its game index)."""
    rows = role_rows[g] if role_rows.shape[0] > 1 else role_rows[0]
    game = game_idx[g] if game_idx.shape[0] > 0 else game0 + g
    return rows, game


@njit(cache=True, inline="always")
def game_out(G, g, players, out):
    """Slot g's outputs from the ended game G (play_range)."""
    out.s[g, 0] = G.s[S_WINNER]
    out.s[g, 1] = G.s[S_TURN]
    out.s[g, 2] = G.s[S_CAPPED]
    out.s[g, 3] = G.s[S_ERR]
    out.s[g, 4] = G.s[S_ROUNDS]
    out.s[g, 5] = G.s[S_FEATURED]
    for q in range(players):
        out.p[g, q, 0] = G.role[q]
        out.p[g, q, 1] = G.char[q]
        out.p[g, q, 2] = G.alive[q]
    for k in range(out.e.shape[1]):
        out.e[g, k] = G.ev[k]
    for q in range(out.u.shape[1]):
        for k in range(out.u.shape[2]):
            out.u[g, q, k] = min(G.used[q, k], 32767)


@njit(cache=True)
def play_range(
    states, tables, W, pool, role_rows, feature, players, seed, game_idx, game0, b, n, checked,
    out,
):  # fmt: skip
    """Work item b: games b*BLOCK .. of the block, on the running thread's state. Game g is
    game index game_idx[g] (game0 + g when game_idx is empty) with role_rows[g] (row 0 when
    role_rows has one row) as the row of W each role plays.
    out.s[g] = (winner, turns, capped, error, rounds, featured seat); out.p[g, q] = (role,
    character, alive); out.e[g] = State.ev and out.u[g, q] = State.used[q] (when not 0 wide)."""
    G = states[get_thread_id()]  # setup_game resets every field: any state will do
    T = tables[0]
    for g in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
        rows, game = game_of(role_rows, game_idx, game0, g)
        play_game(G, T, W, pool, rows, feature, players, seed, game, checked)
        game_out(G, g, players, out)


@njit(cache=True)
def search_range(
    states, tables, W, pool, role_rows, feature, players, seed, game_idx, game0, b, n, checked,
    srch, out,
):  # fmt: skip
    """play_range with seats that search (srch): each game played by search.search_game;
    out.q[g] = the search's counts (search.Q_*) and out.d[g] its decisions
    (search.log_decision; 0 rows: not logged)."""
    t = get_thread_id()
    G = states[t]
    T = tables[0]
    S, D = srch.scratch[2 * t], srch.scratch[2 * t + 1]
    Gw = srch.words[t]
    Sw, Dw = srch.scratch_words[2 * t], srch.scratch_words[2 * t + 1]
    for g in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
        rows, game = game_of(role_rows, game_idx, game0, g)
        search_game(
            G, Gw, S, Sw, D, Dw, T, W, pool, rows, feature, players, seed, game, checked,
            srch.cfg, out.q[g], out.d[g], srch.mix,
        )  # fmt: skip
        game_out(G, g, players, out)


@njit(parallel=True, cache=True)
def play_block(
    states, tables, W, pool, role_rows, feature, players, seed, game_idx, game0, n, checked,
    out,
):  # fmt: skip
    """Play n games (see play_range) in work items of BLOCK games. Records (the states, the
    one-row tables array) stay arrays here: parfors cannot pass a bare record. Apart from
    search_block, so that a run without a seat that searches does not compile the search."""
    for b in prange((n + BLOCK - 1) // BLOCK):
        play_range(
            states, tables, W, pool, role_rows, feature, players, seed, game_idx, game0, b, n,
            checked, out,
        )  # fmt: skip


@njit(parallel=True, cache=True)
def search_block(
    states, tables, W, pool, role_rows, feature, players, seed, game_idx, game0, n, checked,
    srch, out,
):  # fmt: skip
    """play_block with seats that search (search_range)."""
    for b in prange((n + BLOCK - 1) // BLOCK):
        search_range(
            states, tables, W, pool, role_rows, feature, players, seed, game_idx, game0, b, n,
            checked, srch, out,
        )  # fmt: skip


class Outputs(NamedTuple):
    """play_block's output arrays (a tuple of arrays passes to njit code as one argument)."""

    # int16 as GameBlock keeps them: a game's outputs are memory the kernel touches first
    s: np.ndarray  # int16[n, 6]
    p: np.ndarray  # int16[n, players, 3]
    e: np.ndarray  # int64[n, N_EV or 0]
    u: np.ndarray  # int16[n, players or 0, card names or 0]
    q: np.ndarray  # int64[n, search.N_Q or 0]
    d: np.ndarray  # int64[n, log rows or 0, search.N_OPT]


def character_pool(
    theme: Theme, characters: Sequence[str] | None, players: int, exclude: int = -1
) -> np.ndarray:
    """Indices of the allowed characters, less `exclude` (a featured character); one-line
    ValueError for unknown or too few names."""
    if characters is None:
        pool = [i for i in range(len(theme.character_names)) if i != exclude]
        return np.array(pool, dtype=np.int64)
    index = {name: i for i, name in enumerate(theme.character_names)}
    pool = []
    for name in characters:
        if name not in index:
            raise ValueError(
                f"unknown character {name!r} in theme {theme.id!r} "
                f"(characters: {', '.join(theme.character_names)})"
            )
        if index[name] not in pool and index[name] != exclude:
            pool.append(index[name])
    if len(pool) < players:
        raise ValueError(f"character pool of {len(pool)} is too small for {players} players")
    return np.array(pool, dtype=np.int64)


def check_players(theme: Theme, players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS or players not in theme.player_counts():
        counts = ", ".join(map(str, theme.player_counts()))
        raise ValueError(f"theme {theme.id!r} plays {counts} players, not {players}")


def check_resolved(strategy: Strategy, players: int) -> None:
    """A strategy's per-count values are those of the table it plays at."""
    if strategy.players != players:
        raise ValueError(f"a strategy resolved for {strategy.players} players, played at {players}")


def parse_feature(theme: Theme, feature: str | None, players: int) -> np.ndarray:
    """setup_game's `feature` from "NAME" or "NAME=ROLE" (a canonical role or the theme's
    name for it); a one-line ValueError for an unknown name or a role the table lacks."""
    if feature is None:
        return NO_FEATURE
    name, _, role = (part.strip() for part in feature.partition("="))
    if name not in theme.character_names:
        raise ValueError(
            f"unknown character {name!r} in --feature for theme {theme.id!r} "
            f"({did_you_mean(name, theme.character_names)}characters: "
            f"{', '.join(theme.character_names)})"
        )
    r = -1
    if role:
        names = {c: i for i, c in enumerate(ROLES)}
        names.update({theme.role_names[c].lower(): i for i, c in enumerate(ROLES)})
        if role.lower() not in names:
            raise ValueError(
                f"unknown role {role!r} in --feature {feature!r} (roles: {', '.join(ROLES)})"
            )
        r = names[role.lower()]
        if r not in theme.tables.roles[players, :players]:
            raise ValueError(f"no {ROLES[r]} at {players} players in theme {theme.id!r}")
    return np.array([theme.character_names.index(name), r], np.int64)


def did_you_mean(name: str, names: list[str]) -> str:
    """ "did you mean 'Willy the Kid'? " for a near miss (case aside), else ""."""
    folded = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.75)
    return f"did you mean {folded[close[0]]!r}? " if close else ""


NO_GAMES = np.zeros(0, np.int64)  # play_block's game_idx: game0 + g
NO_SEARCH = np.zeros(N_CFG, np.int64)  # _play's `cfg` without a searching role


def _play(
    theme, players, seed, W, role_rows, game_idx, game0, n, pool, feat, checked, events, cfg,
    log_rows=0, mix=NO_MIX, learned=NO_LEARNED,
):  # fmt: skip
    """Run play_block (search_block with seats that search) on n games and return its
    Outputs; CheckedModeError names a game whose invariants broke. Without `events` the kernel skips what only the event counts need;
    cfg: the search settings (Strategy.search_config); log_rows: rows of each game's log of
    its searched decisions (0: none); mix: the mixed field role_rows were drawn from, which
    a searching seat's worlds draw from (Mixture.table; 0 rows: none); learned: the learned
    tables W's rows with `learned` play (Strategy.learned)."""
    out = Outputs(
        s=np.zeros((n, 6), np.int16),
        p=np.zeros((n, players, 3), np.int16),
        e=np.zeros((n, N_EV if events else 0), np.int64),
        u=np.zeros((n, players, len(theme.card_names)) if events else (n, 0, 0), np.int16),
        q=np.zeros((n, N_Q if cfg[C_ROLES] else 0), np.int64),
        d=np.zeros((n, log_rows if cfg[C_ROLES] else 0, N_OPT), np.int64),
    )
    states = new_states(config.NUMBA_NUM_THREADS)
    # one array layout for every caller: another order or dtype compiles the kernel anew
    W, pool, role_rows, game_idx = (
        np.ascontiguousarray(a, dtype) for a, dtype in
        ((W, np.float64), (pool, np.int64), (role_rows, np.int64), (game_idx, np.int64))
    )  # fmt: skip
    args = (
        states, pack_tables(theme.tables, learned), W, pool, role_rows, feat, players, seed,
        game_idx, game0, n, int(checked) | (0 if events else QUIET),
    )  # fmt: skip
    with np.errstate(over="ignore"):  # uint64 wraparound in the RNG under NUMBA_DISABLE_JIT
        if cfg[C_ROLES]:
            search_block(*args, searching(cfg, states, np.ascontiguousarray(mix, np.float64)), out)
        else:
            play_block(*args, out)
    bad = np.flatnonzero(out.s[:, 3])
    if bad.size:
        g = int(bad[0])
        game = int(game_idx[g]) if game_idx.size else game0 + g
        raise CheckedModeError(
            f"game {game} (seed {seed}, {players} players): {ERRORS[int(out.s[g, 3])]}"
        )
    return out


def play_rows(
    theme: Theme,
    players: int,
    seed: int,
    W: np.ndarray,
    role_rows: np.ndarray,
    game_idx: np.ndarray,
    checked: bool = False,
    learned: np.ndarray = NO_LEARNED,
) -> tuple[np.ndarray, np.ndarray]:
    """Play game game_idx[g] with role_rows[g] (the row of W each canonical role plays), for
    every g in one parallel call: a strategy search's whole generation, each game carrying
    its candidate's parameters, the same game indices (deals, draws) for every candidate;
    learned: the tables of the rows with `learned` (Strategy.learned). Returns (winner int8[n], role int8[n, players]) as GameBlock's."""
    n = len(game_idx)
    if role_rows.shape != (n, 4) or W.ndim != 2 or role_rows.max(initial=0) >= len(W):
        raise ValueError("role_rows must be int64[n, 4] rows of W, one per game index")
    pool = character_pool(theme, None, players)
    out = _play(
        theme, players, seed, W, role_rows, game_idx, 0, n, pool, NO_FEATURE, checked, False,
        NO_SEARCH, learned=learned,
    )  # fmt: skip
    return out.s[:, 0].astype(np.int8), out.p[:, :, 0].astype(np.int8)


def play_games(
    theme: "Theme | str",
    players: int,
    games: int,
    seed: int,
    *,
    game0: int = 0,
    strategy: Strategy,
    characters: Sequence[str] | None = None,
    feature: str | None = None,
    checked: bool = False,
    events: bool = False,
    search_log: int = 0,
) -> GameBlock:
    """Play games game0 .. game0+games-1 of (theme, players, seed) with `strategy`, resolved
    for `players` (Strategy); see GameBlock.
    `feature` ("NAME" or "NAME=ROLE") puts that character in every game at a uniformly random
    seat (of that role), the others dealt from `characters` less it. `events` also returns
    the per-game event counts and the cards each seat used; `search_log` (rows per game)
    each searched decision (a trace replays them: simcore.engine.tracer). In checked mode an
    invariant violation raises CheckedModeError naming the game."""
    theme = load_theme(theme)
    check_players(theme, players)
    if games < 0:
        raise ValueError("games must be at least 0")
    if not 0 <= seed < 2**63:
        raise ValueError("seed must be between 0 and 2**63 - 1")
    check_resolved(strategy, players)
    feat = parse_feature(theme, feature, players)
    pool = character_pool(theme, characters, players - (feat[0] >= 0), exclude=feat[0])
    mix = strategy.mixture
    W = strategy.matrix if mix is None else mix.rows
    rows = strategy.role_preset.reshape(1, 4) if mix is None else mix.draw(seed, games, game0)
    out = _play(
        theme,
        players,
        seed,
        W,
        rows,
        NO_GAMES,
        game0,
        games,
        pool,
        feat,
        checked,
        events,
        strategy.search_config(),
        search_log,
        NO_MIX if mix is None else mix.table(),
        strategy.learned,
    )
    out_s, out_p = out.s, out.p
    winner = out_s[:, 0].astype(np.int8)
    role = out_p[:, :, 0].astype(np.int8)
    side_won = np.zeros((games, 4), bool)
    for r, side in enumerate(SIDE_OF):
        side_won[:, r] = winner == side
    return GameBlock(
        winner=winner,
        turns=out_s[:, 1].astype(np.int16),
        rounds=out_s[:, 4].astype(np.int16),
        capped=out_s[:, 2].astype(bool),
        role=role,
        character=out_p[:, :, 1].astype(np.int16),
        survived=out_p[:, :, 2].astype(bool),
        won=np.take_along_axis(side_won, role.astype(np.int64), axis=1),
        preset=strategy.role_preset[role].astype(np.int8),
        preset_names=strategy.names,
        featured=out_s[:, 5].astype(np.int8),
        events=out.e,
        used=out.u,
        searched=out.q if strategy.search else None,
        decisions=out.d if strategy.search and search_log else None,
    )
