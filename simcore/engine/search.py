"""A seat that searches by rollouts: `--strategy search:BASE` (strategies.presets.Search).

The game is played by the kernel as any other (play.search_range calls search_game for it),
but a searching seat's turn pauses at each of its decisions of the kinds it searches
(kernel.take_turn: S_PAUSED). There `decide` weighs every option (each legal play and
stop; each distinct card to discard down to life; as Kit Carlson, each distinct card
drawn to put back), or for a search of some kinds only (state.SK_*) BASE's choice and
its alternatives of those kinds (option_kinds): in worlds sampled from what the
seat can see (resample_hidden), each dealt once from the paused state into a scratch
state of the thread (deal_world), each option is taken on a copy of the deal and the game
played to its end with BASE at every seat, the searching seat's own later choices too
(play_world); an option's score is the games its side wins.
The budget per decision (rollouts) is spent by successive halving: every option on `worlds`
worlds, the better half kept (the seat's own strategy's choice always), worlds doubled,
while the budget lasts. Every option is played on the same worlds (common random numbers).
The seat takes the option with the most wins if it beats BASE's choice, else BASE's (so
with a budget too small to try every option once it plays BASE's games exactly); the real
game then resumes with that option forced (S_FORCE).

World w of decision d of game g of seed s has its own random stream keyed by (s, g, d, w):
the games are the same whatever the threads, chunks or backend.

What the seat can see, and so what a world keeps: its own hand and role, every card in play,
the discard pile, life, characters, who is alive, the leader's role and the roles of the
eliminated, how many cards each hand and the draw pile hold, the public record (karma) and
what each other seat saw of the others in public (its belief row, whose sign its own role
sets: kernel.record). A world redeals the cards in other hands and the draw pile
uniformly from those the seat has not seen, and deals the hidden roles by the seat's
belief over their assignments (draw_assignment: every distinct assignment enumerated,
weighted by how well it fits the public record and what the seat saw, `beta`), each hidden
seat's belief row signed for its new role; the sample is a function of what the seat sees
(the hidden cards and roles are sorted first), so permuting what it cannot see changes
none of its decisions. Not conditioned on (ASSUMPTION): what the seat saw in passing (a
card it drew and put back as Kit Carlson, a General Store's cards now in hands).

Against a mixed field (a PSRO mixture: each game plays one profile of it, drawn by weight)
the seat knows its own row but not which profile the game drew: each world draws a profile
from the mixture among those in which the seat's role plays its own row, by weight
(world_rows), and every seat of the world plays that profile.

Decisions deep in the rules' call stack (answering a BANG!, Indians! or a Duel, a Beer at
a lethal hit, a General Store pick, Jesse Jones's and Pedro Ramirez's draws, a Whisky's
cost card) do not pause: BASE makes them. Kit Carlson's put-back is the draw phase's, at
the top of his turn: it pauses (kind putback) with the cards drawn held in his hand.
"""

from typing import NamedTuple

import numpy as np

from simcore.engine.jit import njit
from simcore.engine.kernel import (
    NO_STOP,
    count_held,
    first_twin,
    play_on,
    seat_strategies,
    setup_game,
    shuffle,
    verify,
)
from simcore.engine.limits import MAX_ACTIONS, MAX_PLAYERS
from simcore.engine.rng import GOLDEN, mix64, rng_next, rng_seed
from simcore.engine.state import (
    COPIED_WORDS,
    N_SK,
    PH_PLAY,
    PH_PUTBACK,
    S_BASE,
    S_CUR,
    S_DECISIONS,
    S_DECK_N,
    S_ERR,
    S_FORCE,
    S_N,
    S_OPTIONS,
    S_PAUSED,
    S_PHASE,
    S_QUIET,
    S_SEARCH,
    S_SEARCH_KINDS,
    S_WINNER,
    SK_AREA,
    SK_BEER,
    SK_DISCARD,
    SK_DUEL,
    SK_PLAY,
    SK_PUTBACK,
    SK_STOP,
    SK_TAKE,
    SK_TARGET,
    STATE_DTYPE,
    new_states,
)
from simcore.engine.view import (
    HIDDEN_ROLES,
    assignment_weight,
    next_assignment,
    sort_hidden_roles,
)
from simcore.engine.vocab import (
    AIM_EVERY_OTHER,
    E_DUEL,
    E_HEAL,
    FX_AIM,
    FX_PICKS,
    R_LEADER,
    R_OUTLAW,
    SIDE_OF,
)

# search_game's settings, int64[N_CFG] (strategies.presets.Search.config)
C_ROLES = 0  # bit r: seats of role r search (0: no seat searches)
C_WORLDS = 1  # worlds per option in the first round
C_BUDGET = 2  # rollouts per decision at most
C_KINDS = 3  # state.SK_* bits: the decisions that search
C_ONE = 4  # 1: only the first seat (clockwise from the leader) of each searching role
C_Z_CENTI = 5  # 100 z: how sure a better option must be to replace BASE's (decide)
C_BETA_CENTI = 6  # 100 beta: how much the worlds' roles follow the record (draw_assignment)
N_CFG = 7
N_OPT = 6  # decide's opts columns
# per game, search_game's counts: decisions searched, rollouts played, decisions where the
# search took another option than BASE; then per kind k (bit k of state.SK_*), at
# Q_KIND + 2 k the decisions searched with an alternative of kind k among their options
# and at Q_KIND + 2 k + 1 those where the search took an alternative of kind k
Q_DECISIONS = 0
Q_ROLLOUTS = 1
Q_CHANGED = 2
Q_KIND = 3
N_Q = Q_KIND + 2 * N_SK
LOG_FULL = -1  # log_decision: the log had no room for every decision

TAG_SEARCH = np.uint64(0xBB67AE8584CAA73B)  # separates the worlds' keys from the games'
NO_MIX = np.zeros((0, 5), np.float64)  # world_rows' `mix` for a pure field


class Copies(NamedTuple):
    """State records and the same memory as int64 words, a row per record (copies()): njit
    code copies a state as words."""

    s: np.recarray
    words: np.ndarray


def copies(states: np.recarray) -> Copies:
    return Copies(states, states.view(np.int64).reshape(len(states), STATE_DTYPE.itemsize // 8))


@njit(cache=True)
def resample_hidden(G, seat, beta):
    """Redeal what `seat` cannot see, with G's random stream: the cards in the other seats'
    hands and in the draw pile, sorted, shuffled and dealt back in the same counts (hands
    in seat order, then the pile); the roles of the living seats but `seat` and the leader,
    sorted and dealt among them (uniformly for beta 0, else weighted: draw_assignment),
    each such seat's belief row signed for its new role (an outlaw's is the public one negated:
    kernel.record)."""
    n = G.s[S_N]
    m = 0
    for i in range(G.s[S_DECK_N]):
        G.buf[m] = G.deck[i]
        m += 1
    for q in range(n):
        if q != seat:
            for i in range(G.hand_n[q]):
                G.buf[m] = G.hand[q, i]
                m += 1
    G.buf[:m].sort()
    shuffle(G, G.buf, m)
    m = 0
    for q in range(n):
        if q != seat:
            for i in range(G.hand_n[q]):
                G.hand[q, i] = G.buf[m]
                m += 1
            count_held(G, q)
    for i in range(G.s[S_DECK_N]):
        G.deck[i] = G.buf[m]
        m += 1
    G.buf[:m] = -1
    k = 0  # the hidden seats, listed in G.buf, their roles sorted after them
    roles = G.buf[HIDDEN_ROLES : HIDDEN_ROLES + MAX_PLAYERS]
    for q in range(n):
        if q != seat and G.alive[q] and G.role[q] != R_LEADER:
            G.buf[k] = q
            roles[k] = G.role[q]
            k += 1
            if G.role[q] == R_OUTLAW:  # the public row
                for j in range(n):
                    G.belief[q, j] = -G.belief[q, j]
    roles[:k].sort()
    draw_assignment(G, seat, beta, k)
    for i in range(k):
        q = G.buf[i]
        G.role[q] = roles[i]
        if G.role[q] == R_OUTLAW:
            for j in range(n):
                G.belief[q, j] = -G.belief[q, j]
    G.buf[:k] = -1
    roles[:k] = -1


@njit(cache=True)
def draw_assignment(G, seat, beta, k):
    """Deal the k hidden roles (sorted, view.HIDDEN_ROLES) to the hidden seats (G.buf[:k]):
    one of their distinct assignments, drawn with probability proportional to
    assignment_weight (beta 0: uniformly), by exact enumeration (at most 60 assignments at 7
    players with the printed role mixes), with G's random stream."""
    total = 0.0
    while True:
        total += assignment_weight(G, seat, beta, k)
        if not next_assignment(G, k):
            break
    sort_hidden_roles(G, k)
    u = (rng_next(G.rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    while True:
        u -= assignment_weight(G, seat, beta, k)
        if u < 0.0 or not next_assignment(G, k):
            return  # the last assignment when rounding leaves u at 0


@njit(cache=True)
def search_seats(G, cfg):
    """G.s[S_SEARCH]: the seats whose role searches (the first of each role with C_ONE)."""
    mask = 0
    taken = 0  # roles whose first seat searches already
    for q in range(G.s[S_N]):
        r = G.role[q]
        if (cfg[C_ROLES] >> r) & 1 and not (cfg[C_ONE] and (taken >> r) & 1):
            mask |= 1 << q
            taken |= 1 << r
    G.s[S_SEARCH] = mask
    G.s[S_SEARCH_KINDS] = cfg[C_KINDS]


@njit(cache=True)
def search_game(
    G, Gw, S, Sw, D, Dw, T, W, pool, role_preset, feature, players, seed, game, checked, cfg, q,
    log, mix,
):  # fmt: skip
    """Play game `game` of (seed) as kernel.play_game, the seats search_seats names deciding
    by rollouts on scratch states S and D (Gw, Sw, Dw: G's, S's and D's int64 words); q
    (int64[N_Q]) gets the counts of the search, log (int64[rows, N_OPT], 0 rows: none) each
    decision (log_decision); mix: the mixed field the game's rows were drawn from
    (world_rows)."""
    setup_game(G, T, W, pool, role_preset, feature, players, seed, game, checked)
    verify(G, T)
    search_seats(G, cfg)
    q[:] = 0
    opts = np.zeros((MAX_ACTIONS + 1, N_OPT), np.int64)
    r = 0  # log rows written
    while True:
        play_on(G, T, NO_STOP)
        if G.s[S_PAUSED] == 0:
            return
        G.s[S_PAUSED] = 0
        G.s[S_FORCE] = decide(
            G, Gw, S, Sw, D, Dw, T, W, role_preset, seed, game, cfg, q, opts, mix
        )  # fmt: skip
        r = log_decision(G, opts, log, r)
        if G.s[S_ERR]:
            return


@njit(cache=True)
def log_decision(G, opts, log, r):
    """Write the decision just taken at row r of `log` (a game's trace: tracer.replaying):
    a row (decision number S_DECISIONS, the option taken S_FORCE, BASE's S_BASE, how many
    options m, the seat), then decide's m rows of opts. Returns the next row. One that does
    not fit marks the log full (LOG_FULL in its last row's first column) and ends it."""
    if log.shape[0] == 0:
        return r
    m = 0
    while opts[m, 0] >= 0:
        m += 1
    if r + 1 + m > log.shape[0]:
        log[log.shape[0] - 1, 0] = LOG_FULL
        return log.shape[0]
    log[r, 0] = G.s[S_DECISIONS]
    log[r, 1] = G.s[S_FORCE]
    log[r, 2] = G.s[S_BASE]
    log[r, 3] = m
    log[r, 4] = G.s[S_CUR]
    log[r + 1 : r + 1 + m, :] = opts[:m, :]
    return r + 1 + m


@njit(cache=True)
def played_effect(G, T, p, code):
    """The effect of the card play-phase option `code` of p plays (-1: stop, an ability)."""
    if code == 1 or G.act_idx[code - 2] < 0:
        return -1
    return T.card_effect[G.hand[p, G.act_idx[code - 2]]]


@njit(cache=True)
def option_kinds(G, T, p, code, base):
    """The kinds (state.SK_* bits) of which play-phase option `code` of p is an alternative
    to BASE's `base` (0 for BASE's own): every other option is one of SK_PLAY; of SK_STOP
    if one of the two stops; of SK_BEER, SK_DUEL, SK_AREA if one of the two plays a heal
    for oneself (Beer, Whisky), a Duel, an effect on every other player (Gatling, Indians!);
    of SK_TARGET if both play the same hand card on different targets, of SK_TAKE on the
    same target, an effect that picks a card (Panic!, Cat Balou) taking another card (kernel.legal_actions lists each card in play and the
    hand of each target as its own option)."""
    if code == base:
        return 0
    kinds = SK_PLAY
    if code == 1 or base == 1:
        kinds |= SK_STOP
    e = played_effect(G, T, p, code)
    eb = played_effect(G, T, p, base)
    if e == E_HEAL or eb == E_HEAL:
        kinds |= SK_BEER
    if e == E_DUEL or eb == E_DUEL:
        kinds |= SK_DUEL
    if (e >= 0 and FX_AIM[e] == AIM_EVERY_OTHER) or (eb >= 0 and FX_AIM[eb] == AIM_EVERY_OTHER):
        kinds |= SK_AREA
    if code > 1 and base > 1 and G.act_idx[code - 2] == G.act_idx[base - 2]:
        if G.act_tgt[code - 2] != G.act_tgt[base - 2]:
            kinds |= SK_TARGET
        elif e >= 0 and FX_PICKS[e]:
            kinds |= SK_TAKE
    return kinds


@njit(cache=True)
def options(G, T, opts, kinds):
    """The options of G's paused decision that a search of `kinds` (state.SK_* bits) weighs,
    as codes (state.S_FORCE) in opts[:, 0], each one's option_kinds in opts[:, 5], BASE's
    among them: (how many, BASE's code). Play phase: BASE's and its alternatives of those
    kinds. Discards: one card of each name (and destiny) in hand; Kit Carlson's put-back:
    one card of each among those drawn."""
    base = G.s[S_BASE]
    p = G.s[S_CUR]
    m = 0
    if G.s[S_PHASE] == PH_PUTBACK:
        h = G.hand_n[p] - G.s[S_OPTIONS]  # the cards drawn are held last in hand
        for j in range(G.s[S_OPTIONS]):
            first = j  # the first card drawn of the same name and destiny
            for t in range(j):
                if first == j and first_twin(G, T, p, h + t) == first_twin(G, T, p, h + j):
                    first = t
            if first < j:
                if base == j + 2:
                    base = first + 2  # the same put-back
                continue
            opts[m, 0] = j + 2
            m += 1
        for i in range(m):
            opts[i, 5] = SK_PUTBACK if opts[i, 0] != base else 0
        return m, base
    if G.s[S_PHASE] == PH_PLAY:
        for j in range(G.s[S_OPTIONS] + 1):
            k = option_kinds(G, T, p, j + 1, base)
            if j + 1 == base or k & kinds:
                opts[m, 0] = j + 1
                opts[m, 5] = k
                m += 1
        return m, base
    base = first_twin(G, T, p, base - 2) + 2  # the same discard
    for i in range(G.hand_n[p]):
        if first_twin(G, T, p, i) == i:
            opts[m, 0] = i + 2
            opts[m, 5] = SK_DISCARD if i + 2 != base else 0
            m += 1
    return m, base


@njit(cache=True)
def world_rows(S, role_preset, mix, role):
    """The row of W each role plays in a world: the game's own (role_preset) when the field
    is pure (mix has 0 rows); in a mixed field, whose draw the seat cannot see, a profile
    of it drawn by weight among those in which `role`, the seat's, plays its own row (the
    draw's law given what the seat knows of it). mix: float64[J, 5], per profile the row
    each role plays and its weight (strategies.presets.Mixture.table)."""
    if mix.shape[0] == 0:
        return role_preset
    own = role_preset[role]
    total = 0.0
    for j in range(mix.shape[0]):
        if mix[j, role] == own:
            total += mix[j, 4]
    u = np.float64(rng_next(S.rng) >> np.uint64(11)) * 2.0**-53 * total
    pick = -1
    for j in range(mix.shape[0]):
        if mix[j, role] == own:
            pick = j  # the last that matches: u's rounding at the top end lands there
            u -= mix[j, 4]
            if u < 0.0:
                break
    rows = role_preset.copy()
    for r in range(4):
        rows[r] = np.int64(mix[pick, r])
    return rows


@njit(cache=True)
def deal_world(G, Gw, D, Dw, W, role_preset, key, world, cfg, mix):
    """Deal world `world` of `key` of the paused G's deciding seat into D (Gw, Dw: G's and
    D's int64 words): G copied, what the seat cannot see redealt (resample_hidden) and every
    seat playing its role's row of W from there (world_rows: the game's rows, or a profile
    drawn from the mixed field `mix`), all with the world's own random stream. Each option
    is then played on the world from the same deal (play_world)."""
    p = G.s[S_CUR]
    Dw[:COPIED_WORDS] = Gw[:COPIED_WORDS]
    D.s[S_SEARCH] = 0
    D.s[S_PAUSED] = 0
    D.s[S_QUIET] = 1
    rng_seed(D.rng, key, world)
    resample_hidden(D, p, cfg[C_BETA_CENTI] / 100.0)
    seat_strategies(D, W, world_rows(D, role_preset, mix, G.role[p]))


@njit(cache=True)
def play_world(G, D, Dw, S, Sw, T, code, last):
    """Does the paused G's deciding seat's side win the world dealt in D (deal_world) with
    option `code` taken, the game played to its end on a copy S of D (Sw: S's words), or on D
    itself for the `last` option played on that world?"""
    X = D
    if not last:
        Sw[:COPIED_WORDS] = Dw[:COPIED_WORDS]
        X = S
    X.s[S_FORCE] = code
    play_on(X, T, NO_STOP)
    if X.s[S_ERR]:
        G.s[S_ERR] = X.s[S_ERR]
    return X.s[S_WINNER] == SIDE_OF[G.role[G.s[S_CUR]]]


@njit(cache=True)
def decision_key(seed, game, decision):
    """The key of the worlds of decision `decision` of game `game` of `seed` (deal_world)."""
    key = mix64(mix64(np.uint64(seed) ^ TAG_SEARCH) + np.uint64(game) * GOLDEN)
    return mix64(key + np.uint64(decision))


@njit(cache=True)
def decide(G, Gw, S, Sw, D, Dw, T, W, role_preset, seed, game, cfg, q, opts, mix):
    """The option (a code) the paused seat takes: successive halving over its options (see
    the module docstring). opts[j] = (code, wins, rollouts, wins less BASE's on the same
    worlds, worlds where they differ, its kinds) of option j: m rows as options() lists,
    then a code -1. The best option is taken only if it beats BASE's by C_Z_CENTI / 100
    standard errors of a sign test over the worlds where the two differ. q counts the
    decision, its rollouts, whether it left BASE, and the same per kind (Q_KIND)."""
    m, base = options(G, T, opts, cfg[C_KINDS])
    opts[: m + 1, 1:5] = 0
    opts[m, 5] = 0
    opts[m, 0] = -1
    w = min(cfg[C_WORLDS], cfg[C_BUDGET] // m) if m > 1 else 0
    if w == 0:
        return base
    q[Q_DECISIONS] += 1
    key = decision_key(seed, game, G.s[S_DECISIONS])
    b = 0  # BASE's row, played first on each world: the others are compared with it
    for j in range(m):
        if opts[j, 0] == base:
            b = j
    won = np.zeros(2 * cfg[C_BUDGET] + 2, np.bool_)  # BASE's outcome per world
    alive = np.ones(m, np.bool_)
    n_alive = m
    done = 0  # worlds every option still in play has been played on
    spent = 0
    while True:
        last = b  # the option played last on a world (BASE's first): on its deal itself
        for j in range(m):
            if alive[j] and j != b:
                last = j
        for world in range(done, w):
            deal_world(G, Gw, D, Dw, W, role_preset, key, world, cfg, mix)
            won[world] = play_world(G, D, Dw, S, Sw, T, base, b == last)
            opts[b, 1] += won[world]
            for j in range(m):
                if alive[j] and j != b:
                    x = play_world(G, D, Dw, S, Sw, T, opts[j, 0], j == last)
                    opts[j, 1] += x
                    opts[j, 3] += np.int64(x) - np.int64(won[world])
                    opts[j, 4] += x != won[world]
            if G.s[S_ERR]:
                return base
        for j in range(m):
            if alive[j]:
                opts[j, 2] = w
        spent += n_alive * (w - done)
        done = w
        keep = (n_alive + 1) // 2
        if n_alive == 1 or spent + keep * w > cfg[C_BUDGET]:
            break
        n_alive = halve(opts, alive, m, keep, base)
        if n_alive == 1:
            break
        w *= 2
    q[Q_ROLLOUTS] += spent
    best = b
    z = cfg[C_Z_CENTI] / 100.0
    for j in range(m):
        if alive[j] and opts[j, 1] > opts[best, 1] and opts[j, 3] > z * np.sqrt(opts[j, 4]):
            best = j
    q[Q_CHANGED] += best != b
    among = 0  # the kinds of the alternatives weighed
    for j in range(m):
        among |= opts[j, 5]
    for k in range(N_SK):
        q[Q_KIND + 2 * k] += (among >> k) & 1
        q[Q_KIND + 2 * k + 1] += (opts[best, 5] >> k) & 1
    return opts[best, 0]


@njit(cache=True)
def halve(opts, alive, m, keep, base):
    """Keep the `keep` options in play with the most wins (opts[:, 1]; ties: BASE's, then
    the earlier) and BASE's own; returns how many are kept."""
    kept = np.zeros(m, np.bool_)
    for _ in range(keep):
        pick = -1
        for j in range(m):
            if alive[j] and not kept[j]:
                if (
                    pick < 0
                    or opts[j, 1] > opts[pick, 1]
                    or (opts[j, 1] == opts[pick, 1] and opts[j, 0] == base)
                ):
                    pick = j
        kept[pick] = True
    n = 0
    for j in range(m):
        alive[j] = kept[j] or (alive[j] and opts[j, 0] == base)
        n += alive[j]
    return n


@njit(cache=True)
def decide_once(states, scratch, tables, W, role_preset, seed, game, cfg, opts, mix):
    """decide at the paused states.s[0] (Copies) with scratch (Copies: two records, S and D);
    returns the code."""
    q = np.zeros(N_Q, np.int64)
    G = states.s[0]
    G.s[S_PAUSED] = 0
    return decide(
        G, states.words[0], scratch.s[0], scratch.words[0], scratch.s[1], scratch.words[1],
        tables[0], W, role_preset, seed, game, cfg, q, opts, mix,
    )  # fmt: skip


class Decision(NamedTuple):
    """A searched decision: the option taken and BASE's (codes, state.S_FORCE), and per
    option (code, wins, rollouts, wins less BASE's on its worlds, worlds they differ on,
    the kinds it is an alternative of: option_kinds)."""

    code: int
    base: int
    options: np.ndarray  # int64[options, N_OPT]


def searched_decision(
    tables, state, strategy, seed: int = 0, game: int = 0, rows: np.ndarray | None = None
) -> Decision:
    """The decision a `search:` strategy (strategies.presets.Strategy) takes at the paused
    `state` (a record with S_PAUSED set: kernel.play_on returned at a searching seat's
    decision); tables: pack_tables(theme.tables); `state` is left unchanged. A mixed
    strategy's game drew `rows` (int64[4], the row of its mixture each role plays)."""
    start = new_states(1)
    start[0] = state
    opts = np.zeros((MAX_ACTIONS + 1, N_OPT), np.int64)
    mixed = strategy.mixture
    W, mix = (strategy.matrix, NO_MIX) if mixed is None else (mixed.rows, mixed.table())
    with np.errstate(over="ignore"):
        code = decide_once(
            copies(start), copies(new_states(2)), tables, W,
            strategy.role_preset if rows is None else np.asarray(rows, np.int64), seed, game,
            strategy.search_config(), opts, mix,
        )  # fmt: skip
    m = int(np.argmax(opts[:, 0] < 0)) if (opts[:, 0] < 0).any() else len(opts)
    return Decision(int(code), int(start[0].s[S_BASE]), opts[:m].copy())
