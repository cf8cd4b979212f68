"""What seat p may see of a game: the view the bots read the table through.

A player at the table sees his own hand, role and parameters, the public board (life, cards
in play, hand sizes, seats, distances and reach, the discard pile), the leader's role, the
roles of the eliminated, the role mix of the player count, the public record of who did
what to whom (G.karma, G.acted) and what was done to him alone (his row of G.belief). The
bots (strategies/) read other seats' hands and roles, the draw pile and others' beliefs only
through the functions here, which give what a player may know of them; they read the rest
of the state at their own seat (tests/test_information.py holds them to both).
"""

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
from simcore.engine.vocab import R_OUTLAW, R_RENEGADE

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
