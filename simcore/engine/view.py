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
from simcore.engine.limits import MAX_PLAYERS
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


# The hidden seats and roles of an assignment live in G.buf, which is free while a seat
# decides: seat i at G.buf[i], its role at G.buf[HIDDEN_ROLES + i]. The functions below
# index it (no views: a view of a record's field counts references shared by threads).
HIDDEN_ROLES = MAX_PLAYERS
FACTOR_MAX = 100.0  # role_marginals' largest exponent of one seat's factor


@njit(cache=True)
def next_assignment(G, k):
    """Step the k hidden roles (a multiset, first sorted) to their next distinct order,
    lexicographically; False, leaving them as they are, after the last."""
    b0 = HIDDEN_ROLES
    i = k - 2
    while i >= 0 and G.buf[b0 + i] >= G.buf[b0 + i + 1]:
        i -= 1
    if i < 0:
        return False
    j = k - 1
    while G.buf[b0 + j] <= G.buf[b0 + i]:
        j -= 1
    t = G.buf[b0 + i]
    G.buf[b0 + i] = G.buf[b0 + j]
    G.buf[b0 + j] = t
    lo = i + 1
    hi = k - 1
    while lo < hi:  # the tail reversed
        t = G.buf[b0 + lo]
        G.buf[b0 + lo] = G.buf[b0 + hi]
        G.buf[b0 + hi] = t
        lo += 1
        hi -= 1
    return True


@njit(cache=True)
def assignment_weight(G, p, beta, k):
    """p's belief's weight of the k hidden roles at their seats: exp(beta * the sum over
    them of lawness(role) * how law-side the seat looks to p, the public record (karma)
    plus what p alone saw of it (p's belief row))."""
    x = 0.0
    for i in range(k):
        q = G.buf[i]
        x += lawness(G.buf[HIDDEN_ROLES + i]) * (G.karma[q] + G.belief[p, q])
    return np.exp(min(beta * x, 700.0))


@njit(cache=True)
def sort_hidden_roles(G, k):
    """The k hidden roles in ascending order (insertion sort: k <= 6)."""
    b0 = HIDDEN_ROLES
    for i in range(1, k):
        t = G.buf[b0 + i]
        j = i - 1
        while j >= 0 and G.buf[b0 + j] > t:
            G.buf[b0 + j + 1] = G.buf[b0 + j]
            j -= 1
        G.buf[b0 + j + 1] = t


@njit(cache=True)
def role_marginals(G, p, beta):
    """G.marg[q, r]: how likely seat q holds role r as p sees the game, by its belief over
    the assignments of the hidden roles (assignment_weight's, every distinct assignment
    enumerated, its exponential taken apart into one factor per hidden seat, G.fac, where
    none passes exp(FACTOR_MAX): a product of six stays finite and above 0): 1 for a role p
    knows (its own, the leader's, the revealed dead's). The hidden roles are the
    public role mix less those (a count)."""
    n = G.s[S_N]
    for q in range(n):
        for r in range(4):
            G.marg[q, r] = 0.0
    k = 0
    for q in range(n):
        if q == p or is_leader(G, q) or G.alive[q] == 0:
            G.marg[q, G.role[q]] = 1.0
        else:
            G.buf[k] = q
            k += 1
    if k == 0:
        return
    m = 0
    for r in (R_DEPUTY, R_OUTLAW, R_RENEGADE):
        left = role_total(G, r) - revealed_dead(G, r) - (1 if G.role[p] == r else 0)
        for _ in range(left):
            G.buf[HIDDEN_ROLES + m] = r
            m += 1
    factors = True  # each seat's factor for a law-side role; none past FACTOR_MAX
    for i in range(k):
        x = beta * (G.karma[G.buf[i]] + G.belief[p, G.buf[i]])
        factors = factors and abs(x) <= FACTOR_MAX
        G.fac[i] = np.exp(x) if factors else 1.0
    total = 0.0
    while True:
        if factors:
            w = 1.0
            for i in range(k):
                law = lawness(G.buf[HIDDEN_ROLES + i])
                if law > 0.0:
                    w *= G.fac[i]
                elif law < 0.0:
                    w /= G.fac[i]
        else:
            w = assignment_weight(G, p, beta, k)
        total += w
        for i in range(k):
            G.marg[G.buf[i], G.buf[HIDDEN_ROLES + i]] += w
        if not next_assignment(G, k):
            break
    for i in range(k):
        for r in range(4):
            G.marg[G.buf[i], r] /= total
        G.buf[i] = -1
        G.buf[HIDDEN_ROLES + i] = -1
