"""The `random` bot: every choice uniform over what the rules allow, from the game's own
random stream (the floor every strategy is measured against). It reads nothing but the
choices' count and, for a player to draw from, the hand sizes (public)."""

from simcore.engine.jit import njit
from simcore.engine.rng import rng_below, rng_coin
from simcore.engine.state import S_N


@njit(cache=True)
def choose_action(G, n):
    """One of the n legal plays, or -1 (end the play phase) as one more choice."""
    k = rng_below(G.rng, n + 1)
    return k if k < n else -1


@njit(cache=True)
def card_to_discard(G, p, skip):
    """Any hand card of p but index `skip`."""
    n = G.hand_n[p]
    k = rng_below(G.rng, n - 1 if 0 <= skip < n else n)
    if 0 <= skip <= k:
        k += 1
    return k


@njit(cache=True)
def card_given_up(G, q):
    """Any card of q's: -1 for one from the hand, else a slot in play."""
    m = G.table_n[q]
    k = rng_below(G.rng, m + (1 if G.hand_n[q] > 0 else 0))
    return k if k < m else -1


@njit(cache=True)
def yes_or_no(G):
    return rng_coin(G.rng)


@njit(cache=True)
def one_of(G, n):
    return rng_below(G.rng, n)


@njit(cache=True)
def draw_source(G, p):
    """Any other living player with cards in hand, or -1 (the deck) as one more choice."""
    n = G.s[S_N]
    k = 0
    for q in range(n):
        if q != p and G.alive[q] and G.hand_n[q] > 0:
            k += 1
    pick = rng_below(G.rng, k + 1)
    for q in range(n):
        if q != p and G.alive[q] and G.hand_n[q] > 0:
            if pick == 0:
                return q
            pick -= 1
    return -1
