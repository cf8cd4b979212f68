"""What seat p may see of a game: the view the bots read the table through.

A player at the table sees his own hand, role and parameters, the public board (life, cards
in play, hand sizes, seats, distances and reach, the discard pile), the leader's role, the
roles of the eliminated, the role mix of the player count, the public record of who did
what to whom (G.karma, G.acted) and what was done to him alone (his row of G.belief). The
bots (strategies/) read other seats' hands and roles, the draw pile and others' beliefs only
through the functions here, which give what a player may know of them; they read the rest
of the state at their own seat (tests/test_information.py holds them to both).
"""

import numpy as np

from simcore.engine.board import (
    count_in_hand,
    count_playable_as,
    in_play_has,
    in_play_named,
    n_alive,
    next_alive,
    reach,
)
from simcore.engine.jit import njit
from simcore.engine.state import S_N
from simcore.engine.vocab import R_DEPUTY, R_OUTLAW, R_RENEGADE

# the board's public questions, which the bots ask through this module
__all__ = [
    "count_in_hand",
    "count_playable_as",
    "in_play_has",
    "in_play_named",
    "n_alive",
    "next_alive",
    "reach",
    "ROLE_HIDDEN",
    "all_unknowns_hostile",
    "role_marginals",
    "is_leader",
    "revealed_dead",
    "role_total",
    "seen_role",
]

ROLE_HIDDEN = -1  # seen_role of a living player other than p and the leader


@njit(cache=True, inline="always")
def is_leader(G, q):
    """[C-02] The leader's role is public: he sits at seat 0."""
    return q == 0


@njit(cache=True)
def seen_role(G, p, q):
    """q's role as p sees it: his own, the leader's, an eliminated player's (revealed
    [C-22]); ROLE_HIDDEN for anyone else."""
    if q == p or q == 0 or G.alive[q] == 0:
        return G.role[q]
    return ROLE_HIDDEN


@njit(cache=True)
def role_total(G, role):
    """How many seats have `role`: public, since the role mix is fixed by the player count
    [C-01] (a count over the seats, the same whoever holds which role)."""
    k = 0
    for q in range(G.s[S_N]):
        if G.role[q] == role:
            k += 1
    return k


@njit(cache=True)
def revealed_dead(G, role):
    """Eliminated players whose revealed role is `role` [C-22]."""
    k = 0
    for q in range(G.s[S_N]):
        if G.alive[q] == 0 and G.role[q] == role:
            k += 1
    return k


@njit(cache=True, inline="always")
def all_unknowns_hostile(G, p):
    """Are all living players of unknown role (other than p and the leader) hostile,
    outlaws and renegades? The role mix is public and the dead are revealed, so counting
    tells, the same whoever holds which role (the leader facing the last player standing
    knows it is the renegade)."""
    unknown = 0
    hostile = 0
    for q in range(1, G.s[S_N]):  # the leader (seat 0) is known and never hostile
        if G.alive[q]:
            if q != p:
                unknown += 1
            if G.role[q] == R_OUTLAW or G.role[q] == R_RENEGADE:
                hostile += 1
    return unknown > 0 and hostile >= unknown


@njit(cache=True, inline="always")
def lawness(role):
    """+1 for a deputy, -1 for an outlaw, 0 for the renegade (who passes for law)."""
    if role == R_DEPUTY:
        return 1.0
    if role == R_OUTLAW:
        return -1.0
    return 0.0


@njit(cache=True)
def next_assignment(roles):
    """Step roles (a multiset, first sorted) to its next distinct order, lexicographically;
    False, leaving it as it is, after the last."""
    k = roles.shape[0]
    i = k - 2
    while i >= 0 and roles[i] >= roles[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = k - 1
    while roles[j] <= roles[i]:
        j -= 1
    t = roles[i]
    roles[i] = roles[j]
    roles[j] = t
    roles[i + 1 :] = roles[i + 1 :][::-1].copy()
    return True


@njit(cache=True)
def assignment_weight(G, p, beta, seats, roles):
    """p's belief's weight of hidden roles `roles` at `seats`: exp(beta * the sum over them
    of lawness(role) * how law-side the seat looks to p, the public record (karma) plus
    what p alone saw of it (p's belief row))."""
    x = 0.0
    for i in range(seats.shape[0]):
        q = seats[i]
        x += lawness(roles[i]) * (G.karma[q] + G.belief[p, q])
    return np.exp(min(beta * x, 700.0))


@njit(cache=True)
def role_marginals(G, p, beta, out):
    """out[q, r] (float64[MAX_PLAYERS, 4]): how likely seat q holds role r as p sees the
    game, by its belief over the assignments of the hidden roles (assignment_weight, every
    distinct assignment enumerated): 1 for a role p knows (its own, the leader's, the
    revealed dead's). The hidden roles are the public role mix less those (a count)."""
    n = G.s[S_N]
    out[:n, :] = 0.0
    seats = np.empty(n, np.int64)
    k = 0
    for q in range(n):
        if q == p or is_leader(G, q) or G.alive[q] == 0:
            out[q, G.role[q]] = 1.0
        else:
            seats[k] = q
            k += 1
    if k == 0:
        return
    roles = np.empty(k, np.int64)
    m = 0
    for r in (R_DEPUTY, R_OUTLAW, R_RENEGADE):
        left = role_total(G, r) - revealed_dead(G, r) - (1 if G.role[p] == r else 0)
        for _ in range(left):
            roles[m] = r
            m += 1
    total = 0.0
    while True:
        w = assignment_weight(G, p, beta, seats[:k], roles)
        total += w
        for i in range(k):
            out[seats[i], roles[i]] += w
        if not next_assignment(roles):
            break
    for i in range(k):
        out[seats[i], :] /= total
