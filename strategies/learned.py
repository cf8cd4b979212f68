"""The learned bot (`strong`): the scored policy's plays, corrected by a learned table.

A seat whose parameter `learned` is k >= 1 scores each legal play of its turn as

    prior(s) + T.learn[k - 1, slot] . context(play)

where s is the scored policy's score of the play (strategies.policy.play_score over the
seat's parameters), prior(s) = PRIOR * (1 + s / 100) when s > 0 (the scored policy would
make the play) and -PRIOR otherwise, slot is the play's effect (an ability's play: the last
slot), and context the numbers params.CONTEXT names, read from the seat's view. As for every
seat, the first best play scoring above 0 is made, none ending the play phase. With a zero
table the seat makes the scored policy's plays exactly (prior keeps its order and sign).

A table is learned (simcore.studies.learn) by regressing a teacher's rollout values: the
win rate of the seat's side after each play less after ending the play phase, less the
prior. A weight is thus in win-rate units (0.01: a point) per unit of its column.
"""

from simcore.engine.jit import njit
from simcore.engine.state import (
    NOT_CHOSEN,
    S_ALIVE_N,
    S_BANGS,
    S_CHOICE,
    S_MARG_FOR,
    S_N,
    S_RECORD,
)
from simcore.engine.view import (
    count_in_hand,
    count_playable_as,
    in_play_has,
    n_alive,
    revealed_dead,
    role_marginals,
    role_total,
)
from simcore.engine.vocab import (
    E_BANG,
    E_BARREL,
    E_MISSED,
    E_MUSTANG,
    FX_PICKS,
    N_EFFECTS,
    R_DEPUTY,
    R_OUTLAW,
    R_RENEGADE,
)
from strategies import policy
from strategies.params import N_CTX, P_LEARNED, P_VALUE

BELIEF_BETA = 1.0  # the belief's weight of the record (the teacher's default: Search.beta)
PRIOR = 0.03  # the scored policy's say: a play it makes starts 3 to 7.5 points above stopping


@njit(cache=True, inline="always")
def clip(x, low, high):
    return min(max(x, low), high)


@njit(cache=True)
def context(G, T, w, p, i, e, tgt, opt, s):
    """Fill the play's columns of G.ctx (params.CONTEXT) for p's play of hand card i (-1: an
    ability) as effect e on tgt with option opt, s its scored-policy score; the seat's own
    columns are prepare's. Reads G.enemy (filled by policy.scoring_inputs for p) and G.marg."""
    G.ctx[1] = 1.0 if s > 0.0 else 0.0
    G.ctx[2] = max(s, -1.0) / 100.0
    other = tgt != p
    G.ctx[7] = 0.0 if other else 1.0
    G.ctx[8] = 1.0 if other and tgt == 0 else 0.0
    G.ctx[9] = clip(G.enemy[tgt], -10.0, 10.0) / 10.0 if other else 0.0
    G.ctx[10] = clip(G.karma[tgt], -5.0, 5.0) / 5.0 if other else 0.0
    G.ctx[11] = clip(G.belief[p, tgt], -5.0, 5.0) / 5.0 if other else 0.0
    G.ctx[12] = G.life[tgt] / 5.0 if other else 0.0
    G.ctx[13] = 1.0 if other and G.life[tgt] == 1 else 0.0
    G.ctx[14] = G.hand_n[tgt] / 5.0 if other else 0.0
    cover = other and (in_play_has(G, tgt, E_BARREL) or in_play_has(G, tgt, E_MUSTANG))
    G.ctx[15] = 1.0 if cover else 0.0
    taken = e >= 0 and FX_PICKS[e] and opt >= 0
    G.ctx[16] = 1.0 if taken else 0.0
    G.ctx[17] = w[P_VALUE + T.card_effect[G.table[tgt, opt]]] / 10.0 if taken else 0.0
    G.ctx[26] = G.marg[tgt, R_OUTLAW] if other else 0.0
    G.ctx[27] = G.marg[tgt, R_RENEGADE] if other else 0.0
    G.ctx[28] = G.marg[tgt, R_DEPUTY] if other else 0.0


@njit(cache=True)
def seat_context(G, T, p):
    """Fill the columns of G.ctx that read only the seat and the table, not the play: the
    same for every play of one listing."""
    life = G.life[p]
    own_max = max(G.max_life[p], 1)
    G.ctx[0] = 1.0
    G.ctx[3] = life / own_max
    G.ctx[4] = 1.0 if life == 1 else 0.0
    G.ctx[5] = max(G.hand_n[p] - life, 0) / 2.0
    G.ctx[6] = G.hand_n[p] / 5.0
    G.ctx[18] = n_alive(G) / G.s[S_N]
    G.ctx[19] = G.life[0] / max(G.max_life[0], 1)
    outlaws = role_total(G, R_OUTLAW)
    G.ctx[20] = (outlaws - revealed_dead(G, R_OUTLAW)) / max(outlaws, 1)
    G.ctx[21] = 1.0 if role_total(G, R_RENEGADE) > revealed_dead(G, R_RENEGADE) else 0.0
    G.ctx[22] = count_playable_as(G, T, p, E_BANG) / 3.0
    G.ctx[23] = count_in_hand(G, T, p, E_MISSED) / 2.0
    G.ctx[24] = 1.0 if G.s[S_BANGS] > 0 else 0.0
    G.ctx[25] = (G.max_life[p] - life) / own_max


@njit(cache=True)
def prepare(G, T, p):
    """What a learned seat's context reads besides the play, once per listing: the seat's own
    columns of G.ctx (seat_context) and its belief of every seat's role (G.marg,
    view.role_marginals with the teacher's BELIEF_BETA), the belief computed anew only when
    the seat, its role, the others' record or the living changed since (S_MARG_FOR: the
    belief reads nothing else; p's own acts change only its own record, which p's belief
    does not read)."""
    seat_context(G, T, p)
    key = ((G.s[S_RECORD] - G.acted[p]) * 8 + G.s[S_ALIVE_N]) * 32 + p * 4 + G.role[p] + 1
    if G.s[S_MARG_FOR] != key:
        G.s[S_MARG_FOR] = key
        role_marginals(G, p, BELIEF_BETA)


@njit(cache=True, inline="always")
def is_learned(w):
    """Does the seat with parameters w score its plays by a learned table?"""
    return w[P_LEARNED] > 0.5


@njit(cache=True, inline="always")
def prior(s):
    return PRIOR * (1.0 + s / 100.0) if s > 0.0 else -PRIOR


@njit(cache=True, inline="always")
def slot_of(i, e):
    """The table row of a play of hand card i (-1: an ability) as effect e."""
    return N_EFFECTS if i < 0 else e


@njit(cache=True)
def play_score(G, T, w, p, i, e, tgt, opt, s):
    """A learned seat's score of the play whose scored-policy score is s (see the module
    docstring); G.ctx is its scratch."""
    context(G, T, w, p, i, e, tgt, opt, s)
    k = int(w[P_LEARNED]) - 1
    slot = slot_of(i, e)
    v = prior(s)
    for j in range(N_CTX):  # indexed, not a view: no reference counting shared by threads
        v += T.learn[k, slot, j] * G.ctx[j]
    return v


@njit(cache=True)
def choose_action(G, T, p, n):
    """The legal play a learned seat makes next among the n listed, or -1 to end the play
    phase: the listing's pick (S_CHOICE), else the first best by play_score."""
    k = G.s[S_CHOICE]
    if k != NOT_CHOSEN:
        G.s[S_CHOICE] = NOT_CHOSEN
        return k
    w = G.w[p]
    beer_works, my_reach = policy.scoring_inputs(G, T, w, p)
    prepare(G, T, p)
    best = -1
    best_v = 0.0
    for k in range(n):
        i, e = policy.action_effect(G, T, p, k)
        tgt = G.act_tgt[k]
        opt = G.act_opt[k]
        s = policy.play_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach)
        v = play_score(G, T, w, p, i, e, tgt, opt, s)
        if v > best_v:
            best_v = v
            best = k
    return best
