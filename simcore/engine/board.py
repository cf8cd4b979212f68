"""Read-only questions about a game state: seats, distance, reach, what is in play or in hand.

Shared by the rules kernel and the strategies; nothing here changes the state.
"""

from simcore.engine.jit import njit
from simcore.engine.state import S_ALIVE_N, S_LAYOUT, S_N
from simcore.engine.vocab import (
    A_BANG_MISSED_SWAP,
    A_BUILTIN_MUSTANG,
    A_BUILTIN_SCOPE,
    A_UNLIMITED_BANG,
    E_BANG,
    E_MISSED,
    E_VOLCANIC,
    FX_PLACE,
    PL_WEAPON,
    R_OUTLAW,
    R_RENEGADE,
)


@njit(cache=True)
def next_alive(G, p):
    """The next living seat clockwise from p (p itself if alone)."""
    n = G.s[S_N]
    q = (p + 1) % n
    while q != p and G.alive[q] == 0:
        q = (q + 1) % n
    return q


@njit(cache=True, inline="always")
def n_alive(G):
    return G.s[S_ALIVE_N]


@njit(cache=True)
def seat_distance(G, a, b):
    """[C-14] The fewer living seats between a and b, either way round."""
    n = G.s[S_N]
    cw = 0
    q = a
    while q != b:
        q = (q + 1) % n
        if G.alive[q]:
            cw += 1
    ccw = n_alive(G) - cw
    return cw if cw < ccw else ccw


@njit(cache=True, inline="always")
def count_in_play(G, T, p, effect):
    k = 0
    for i in range(G.table_n[p]):
        if T.card_effect[G.table[p, i]] == effect:
            k += 1
    return k


@njit(cache=True, inline="always")
def find_in_play(G, T, p, effect):
    """Slot of the first card with this effect in front of p, or -1."""
    for i in range(G.table_n[p]):
        if T.card_effect[G.table[p, i]] == effect:
            return i
    return -1


@njit(cache=True, inline="always")
def in_play_named(G, p, name):
    """[C-10] Is a card of this name in front of p (one copy per name)? G.named, kept as
    cards go in and out of play."""
    return (G.named[p] >> name) & 1 == 1


@njit(cache=True, inline="always")
def in_play_has(G, p, effect):
    """Is a card with this effect in front of p? G.kinds, kept as cards go in and out of play."""
    return (G.kinds[p] >> effect) & 1 == 1


@njit(cache=True, inline="always")
def find_weapon(G, T, p):
    """Slot of p's weapon in play (an effect placed as one), or -1."""
    for i in range(G.table_n[p]):
        if FX_PLACE[T.card_effect[G.table[p, i]]] == PL_WEAPON:
            return i
    return -1


@njit(cache=True, inline="always")
def sees_closer(G, T, a):
    """[C-16] Scope-likes of a: a sees every other player this much closer."""
    return G.near[a] + (1 if G.ability[a] == A_BUILTIN_SCOPE else 0)


@njit(cache=True, inline="always")
def seen_farther(G, T, b):
    """[C-16] Mustang-likes of b: every other player sees b this much farther."""
    return G.far[b] + (1 if G.ability[b] == A_BUILTIN_MUSTANG else 0)


@njit(cache=True)
def distance(G, T, a, b):
    """[C-16] Seat distance, +1 per Mustang-like of b, -1 per Scope-like of a, never below 1."""
    d = seat_distance(G, a, b) + seen_farther(G, T, b) - sees_closer(G, T, a)
    return d if d > 1 else 1


@njit(cache=True, inline="always")
def fill_distances(G, T, p):
    """G.dist[q] = distance(G, T, p, q) for every living q but p, else 0: one walk round the
    table instead of one per seat."""
    n = G.s[S_N]
    m = n_alive(G)
    near = sees_closer(G, T, p)
    G.dist[p] = 0
    cw = 0  # living seats passed clockwise from p, q included
    q = p
    for _ in range(n - 1):
        q = q + 1 if q + 1 < n else 0
        if G.alive[q] == 0:
            G.dist[q] = 0
            continue
        cw += 1
        d = (cw if cw < m - cw else m - cw) + seen_farther(G, T, q) - near
        G.dist[q] = d if d > 1 else 1


@njit(cache=True, inline="always")
def weapon_reach(G, T, p):
    """[C-11] [C-15] The reach of p's weapon in play; the board's gun reaches 1. Counted from
    the cards in play: what G.gun keeps (reach)."""
    w = find_weapon(G, T, p)
    if w < 0:
        return 1
    return T.card_value[G.table[p, w]]


@njit(cache=True, inline="always")
def reach(G, T, p):
    """[C-11] [C-15] p's reach (weapon_reach, kept in G.gun as cards go in and out of play)."""
    return G.gun[p]


@njit(cache=True, inline="always")
def layout_key(G, p):
    """Seat p at this layout of cards in play and living players (S_LAYOUT), never 0."""
    return (G.s[S_LAYOUT] << 3) + p + 1


@njit(cache=True, inline="always")
def unlimited_bangs(G, T, p):
    """[K-18] [A-16] Volcanic in play or Willy the Kid: any number of BANG! cards."""
    return G.ability[p] == A_UNLIMITED_BANG or in_play_has(G, p, E_VOLCANIC)


@njit(cache=True)
def find_in_hand(G, T, p, effect):
    for i in range(G.hand_n[p]):
        if T.card_effect[G.hand[p, i]] == effect:
            return i
    return -1


@njit(cache=True, inline="always")
def count_in_hand(G, T, p, effect):
    """Cards of this effect in p's hand: G.held, kept as cards go in and out of hands."""
    return G.held[p, effect]


@njit(cache=True, inline="always")
def count_playable_as(G, T, p, effect):
    """Cards in p's hand usable as `effect` (BANG! or Missed!), Calamity Janet's swap included."""
    k = count_in_hand(G, T, p, effect)
    if G.ability[p] == A_BANG_MISSED_SWAP:
        if effect == E_BANG:
            k += count_in_hand(G, T, p, E_MISSED)
        elif effect == E_MISSED:
            k += count_in_hand(G, T, p, E_BANG)
    return k


@njit(cache=True)
def find_playable_as(G, T, p, effect):
    """Hand index of a card usable as `effect`, the real card first, else Janet's swap; -1."""
    i = find_in_hand(G, T, p, effect)
    if i >= 0 or G.ability[p] != A_BANG_MISSED_SWAP:
        return i
    if effect == E_BANG:
        return find_in_hand(G, T, p, E_MISSED)
    if effect == E_MISSED:
        return find_in_hand(G, T, p, E_BANG)
    return -1


@njit(cache=True)
def hostiles_alive(G):
    """Outlaws and renegades alive, for the end condition."""
    k = 0
    for q in range(G.s[S_N]):
        if G.alive[q] and (G.role[q] == R_OUTLAW or G.role[q] == R_RENEGADE):
            k += 1
    return k
