"""The rules kernel: one game of BANG! played on fixed-shape arrays, in numba.

Every function takes the game state G (simcore.engine.state.State) and the theme tables T
(simcore.engine.tables.Tables). Each seat's strategy parameters are in the state (G.w, copied from
the strategy matrix W at setup); decisions are asked of strategies.decide (the bots' seam), and this
module only applies the rules. The bracketed IDs name the rules in
shared/reference/rules-checklist.md that a function implements."""

import numpy as np

from simcore.engine.board import (
    count_in_play,
    count_playable_as,
    fill_distances,
    find_in_hand,
    find_in_play,
    find_playable_as,
    find_weapon,
    hostiles_alive,
    in_play_has,
    in_play_named,
    layout_key,
    n_alive,
    next_alive,
    reach,
    unlimited_bangs,
    weapon_reach,
)
from simcore.engine.jit import njit
from simcore.engine.limits import ACTIONS_PER_TURN_CAP, MAX_ACTIONS, MAX_CARDS
from simcore.engine.rng import rng_below, rng_seed
from simcore.engine.state import (
    ERR_CARDS,
    ERR_DEAD_HOLDS,
    ERR_HELD,
    ERR_IN_PLAY,
    ERR_LIFE,
    ERR_WINNER,
    EV_BEER_SAVES,
    EV_BEERS_AT_LETHAL,
    EV_BEERS_TWO_LEFT,
    EV_BEERS_TWO_LEFT_AT_LETHAL,
    EV_BEERS_TWO_LEFT_HEALED,
    EV_CHECK,
    EV_DISCARDED_BY_OTHERS,
    EV_DMG,
    EV_LEADER_KILLED,
    EV_LETHAL_TWO_LEFT_BEER,
    EV_STOLEN,
    NOT_CHOSEN,
    PH_DISCARD,
    PH_PLAY,
    PH_PUTBACK,
    PH_START,
    QUIET,
    S_ALIVE_N,
    S_BANGS,
    S_BASE,
    S_CAPPED,
    S_CHECKED,
    S_CHOICE,
    S_CUR,
    S_DECISIONS,
    S_DECK_N,
    S_DEFER,
    S_DISC_N,
    S_DIST_FOR,
    S_ENEMY_FOR,
    S_ERR,
    S_FEATURED,
    S_FORCE,
    S_LAYOUT,
    S_N,
    S_NC,
    S_OPTIONS,
    S_OVER,
    S_PAUSED,
    S_PHASE,
    S_QUIET,
    S_RECORD,
    S_ROUNDS,
    S_SEARCH,
    S_SEARCH_KINDS,
    S_TEMPERED,
    S_TURN,
    S_TURN_ACTIONS,
    S_WINNER,
    SK_DISCARD,
    SK_PLAY_KINDS,
    SK_PUTBACK,
)
from simcore.engine.vocab import (
    A_BANG_MISSED_SWAP,
    A_BUILTIN_BARREL,
    A_DISCARD_TWO_HEAL,
    A_DOUBLE_CHECK,
    A_DOUBLE_MISSED,
    A_DRAW_EXTRA_ON_CHECK,
    A_DRAW_FROM_DISCARD,
    A_DRAW_FROM_PLAYER,
    A_DRAW_ON_DAMAGE,
    A_DRAW_THREE_KEEP_TWO,
    A_DRAW_WHEN_EMPTY,
    A_STEAL_ON_DAMAGE,
    A_TAKE_ELIMINATED_CARDS,
    A_TEMPERED,
    AIM_ANY,
    AIM_ANY_OTHER,
    AIM_EVERY_OTHER,
    AIM_NONE,
    AIM_RANGE,
    AIM_REACH,
    CF_BEER,
    CHK_BARREL,
    CHK_DRAW_EXTRA,
    CHK_DYNAMITE,
    CHK_JAIL,
    CHK_NEW_HOPE,
    D_ATTACKER_LOSES,
    D_DRAW,
    D_HIT_ALL,
    D_OTHER_GAINS,
    D_OTHERS_DISCARD,
    D_SWAP_HANDS,
    D_TAKE,
    E_BANG,
    E_BARREL,
    E_DISCARD_ANY,
    E_DRAW,
    E_DUEL,
    E_DYNAMITE,
    E_GENERAL_STORE,
    E_HEAL,
    E_HEAL_ALL,
    E_HEAL_ANY,
    E_JAIL,
    E_MISSED,
    E_MUSTANG,
    E_NEW_HOPE,
    E_SCOPE,
    E_STEAL,
    FX_AIM,
    FX_ATTACK,
    FX_BANG_CARD,
    FX_BURDEN,
    FX_CANCELS,
    FX_DMG,
    FX_HIT,
    FX_PICKS,
    FX_PLACE,
    FX_TEMPERED,
    HIT_BANG,
    HIT_MISSED,
    N_EFFECTS,
    PL_DISCARD,
    PL_IN_FRONT,
    PL_WEAPON,
    R_DEPUTY,
    R_LEADER,
    R_OUTLAW,
    R_RENEGADE,
    RU_BANG_LIMIT,
    RU_BEER_MIN_PLAYERS,
    RU_DOUBLE_MISSED_EFFECTS,
    RU_DRAW_COUNT,
    RU_DYNAMITE_DAMAGE,
    RU_JAIL_ON_LEADER,
    RU_LEADER_EXTRA_LIFE,
    RU_LEADER_KILLS_DEPUTY_PENALTY,
    RU_NEW_HOPE_HEAL,
    RU_NO_ONE_EFFECTS,
    RU_NO_REWARD_EFFECTS,
    RU_OUTLAW_REWARD,
    RU_SELF_TARGET_EFFECTS,
    RU_TURN_CAP,
    W_LEADER,
    W_NONE,
    W_OUTLAW,
    W_RENEGADE,
)
from strategies.decide import (
    answer_with_bang,
    cancel_hit,
    card_to_discard,
    choose_action,
    destiny_discard_pick,
    destiny_friend,
    draw_source,
    listing_inputs,
    listing_score,
    pick_from,
    put_back,
    repeats_card,
    saves_life,
    scores_while_listing,
    takes_discard_top,
)

# --- piles ------------------------------------------------------------------------------


@njit(cache=True)
def shuffle(G, arr, n):
    for i in range(n - 1, 0, -1):
        j = rng_below(G.rng, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@njit(cache=True)
def reshuffle(G):
    """[C-06] The discard pile, shuffled, becomes the draw pile."""
    n = G.s[S_DISC_N]
    for i in range(n):
        G.deck[i] = G.disc[i]
        G.disc[i] = -1
    G.s[S_DISC_N] = 0
    G.s[S_DECK_N] = n
    shuffle(G, G.deck, n)


@njit(cache=True)
def draw_card(G):
    """[C-06] Top card of the draw pile; -1 if every card is in hands or in play. "As soon as
    the draw pile is empty, shuffle the discard pile to make a new deck": the moment the
    last card leaves, before anything else is discarded (a draw! card lands on the new,
    empty discard pile); a draw pile emptied while the discard pile was empty too refills at
    the next draw."""
    if G.s[S_DECK_N] == 0:
        reshuffle(G)
        if G.s[S_DECK_N] == 0:
            return -1
    n = G.s[S_DECK_N] - 1
    c = G.deck[n]
    G.deck[n] = -1
    G.s[S_DECK_N] = n
    if n == 0:
        reshuffle(G)
    return c


@njit(cache=True)
def discard(G, c):
    G.disc[G.s[S_DISC_N]] = c
    G.s[S_DISC_N] += 1


@njit(cache=True)
def to_hand(G, p, c):
    G.hand[p, G.hand_n[p]] = c
    G.hand_n[p] += 1
    G.held[p, G.effect_of[c]] += 1


@njit(cache=True)
def draw_to_hand(G, p, k):
    for _ in range(k):
        c = draw_card(G)
        if c < 0:
            return
        to_hand(G, p, c)


@njit(cache=True)
def take_from_hand(G, p, i):
    """Remove hand card i (the last card moves into its place). Callers run hand_emptied()."""
    last = G.hand_n[p] - 1
    c = G.hand[p, i]
    G.hand[p, i] = G.hand[p, last]
    G.hand[p, last] = -1
    G.hand_n[p] = last
    G.held[p, G.effect_of[c]] -= 1
    return c


@njit(cache=True, inline="always")
def hand_effects(G, p, out):
    """out[e] = cards of effect e in p's hand, counted from the hand: what G.held[p] keeps."""
    out[:] = 0
    for i in range(G.hand_n[p]):
        out[G.effect_of[G.hand[p, i]]] += 1


@njit(cache=True)
def count_held(G, p):
    """G.held[p] counted again, after p's hand was dealt anew in place (search's worlds)."""
    hand_effects(G, p, G.held[p])


@njit(cache=True, inline="always")
def in_play_counts(G, T, p):
    """What p's cards in play do to distances and reach and what they are, counted from
    them: (Mustang-likes, Scope-likes, the weapon's reach, the names' bits, the effects'
    bits), what G.far, near, gun, named and kinds keep."""
    named = 0
    kinds = 0
    for i in range(G.table_n[p]):
        c = G.table[p, i]
        named |= np.int64(1) << T.card_name[c]
        kinds |= np.int64(1) << T.card_effect[c]
    far = count_in_play(G, T, p, E_MUSTANG)
    return far, count_in_play(G, T, p, E_SCOPE), weapon_reach(G, T, p), named, kinds


@njit(cache=True, inline="always")
def in_play_changed(G, T, p):
    """p's cards in play changed: the layout moves on and p's counters are counted again."""
    G.s[S_LAYOUT] += 1
    G.far[p], G.near[p], G.gun[p], G.named[p], G.kinds[p] = in_play_counts(G, T, p)


@njit(cache=True)
def take_from_table(G, T, p, slot):
    last = G.table_n[p] - 1
    c = G.table[p, slot]
    G.table[p, slot] = G.table[p, last]
    G.table[p, last] = -1
    G.table_n[p] = last
    in_play_changed(G, T, p)
    return c


@njit(cache=True)
def put_in_play(G, T, p, c):
    G.table[p, G.table_n[p]] = c
    G.table_n[p] += 1
    in_play_changed(G, T, p)


@njit(cache=True)
def hand_emptied(G, p):
    """[A-14] Suzy Lafayette draws the moment her hand is empty, on anyone's turn; [S-06]
    not while a card's two effects resolve (resolve() asks again after both)."""
    if (
        G.ability[p] == A_DRAW_WHEN_EMPTY
        and G.hand_n[p] == 0
        and G.alive[p] == 1
        and G.s[S_OVER] == 0
        and G.s[S_DEFER] == 0
    ):
        draw_to_hand(G, p, 1)


@njit(cache=True)
def discard_from_hand(G, p, i):
    discard(G, take_from_hand(G, p, i))
    hand_emptied(G, p)


@njit(cache=True)
def discard_everything(G, T, p):
    while G.hand_n[p] > 0:
        discard(G, take_from_hand(G, p, G.hand_n[p] - 1))
    while G.table_n[p] > 0:
        discard(G, take_from_table(G, T, p, G.table_n[p] - 1))


# --- draw! ------------------------------------------------------------------------------


@njit(cache=True)
def check(G, T, p, bit, good):
    """[C-28] draw!: the top card is revealed and discarded; its face passes predicate `bit`
    or not. [A-08] Lucky Duke flips two, keeps the result he prefers (`good`: passing is
    what he wants), and discards both. Counts the check in G.ev (count_check)."""
    e1 = pile_share(G, T, bit) if G.s[S_QUIET] == 0 else 0
    c1 = draw_card(G)
    if G.ability[p] != A_DOUBLE_CHECK:
        if c1 < 0:
            return False
        discard(G, c1)
        ok = (T.card_check[c1] & bit) != 0
        count_check(G, bit, ok, 1, 1 if ok else 0, e1)
        return ok
    e2 = pile_share(G, T, bit) if G.s[S_QUIET] == 0 else 0
    c2 = draw_card(G)
    ok1 = c1 >= 0 and (T.card_check[c1] & bit) != 0
    ok2 = c2 >= 0 and (T.card_check[c2] & bit) != 0
    if c1 >= 0:
        discard(G, c1)
    if c2 >= 0:
        discard(G, c2)
    if c1 < 0 and c2 < 0:
        return False  # nothing revealed: no check counted, as for anyone else
    if c1 < 0 or c2 < 0:
        ok = ok1 or ok2
    else:
        ok = (ok1 or ok2) if good else (ok1 and ok2)
    e = (e1 if c1 >= 0 else 0) + (e2 if c2 >= 0 else 0)
    count_check(G, bit, ok, (c1 >= 0) + (c2 >= 0), ok1 + ok2, e)
    return ok


@njit(cache=True)
def pile_share(G, T, bit):
    """Parts per million of the pile the next card comes from (the draw pile, or the discard
    pile it is about to become) whose face passes check `bit`: the chance the next draw!
    passes, which selfcheck compares with what the draws! showed."""
    n = G.s[S_DECK_N]
    pile = G.deck
    if n == 0:
        n = G.s[S_DISC_N]
        pile = G.disc
    if n == 0:
        return 0
    k = 0
    for i in range(n):
        if T.card_check[pile[i]] & bit:
            k += 1
    return k * 1_000_000 // n


@njit(cache=True, inline="always")
def count_check(G, bit, ok, revealed, passing, expected_ppm):
    """A draw! of kind `bit` (vocab.CHK_*): made, passed, cards revealed, revealed passing,
    and the passing cards expected from the piles they came from (pile_share)."""
    k = EV_CHECK
    while bit > 1:
        bit >>= 1
        k += 5
    G.ev[k] += 1
    G.ev[k + 1] += ok
    G.ev[k + 2] += revealed
    G.ev[k + 3] += passing
    G.ev[k + 4] += expected_ppm


# --- public record ----------------------------------------------------------------------


@njit(cache=True)
def record(G, actor, target, hostile):
    """The public record the bots read: attacking the leader or a player who has acted for
    him marks the actor as against the leader; attacking his enemies, as for him. The
    target also learns privately: an outlaw attacked (or a law player helped) sees the actor
    as law-side; a law player or the renegade attacked, as outlaw-side."""
    if actor == target:
        return
    G.s[S_RECORD] += 1
    G.acted[actor] += 1
    sign = -1.0 if hostile else 1.0
    side = -sign if G.role[target] == R_OUTLAW else sign
    G.belief[target, actor] = min(3.0, max(-3.0, G.belief[target, actor] + side))
    if target == 0:
        delta = sign
    elif G.karma[target] > 0.0:
        delta = 0.5 * sign
    elif G.karma[target] < 0.0:
        delta = -0.5 * sign
    else:
        return
    k = G.karma[actor] + delta
    G.karma[actor] = min(3.0, max(-3.0, k))


@njit(cache=True, inline="always")
def takes_as_attack(G, T, q, opt):
    """Taking or discarding q's card (take_card's opt) is an attack on q, but for a burden in
    front of him (his Jail or Dynamite): freeing him of it helps him."""
    if opt < 0:
        return True
    return FX_BURDEN[T.card_effect[G.table[q, opt]]] == 0


# --- life and death ---------------------------------------------------------------------


@njit(cache=True)
def heal(G, p, amount):
    """[C-18] Life never rises above the starting maximum."""
    G.life[p] = min(G.max_life[p], G.life[p] + amount)


@njit(cache=True)
def check_end(G):
    """[C-25] [C-26] [C-27] The leader's death ends the game: the renegade wins as the only
    player alive, else the outlaws. With every outlaw and renegade dead the leader's side
    wins. Checked the moment a player is eliminated."""
    n = G.s[S_N]
    if G.alive[0] == 0:
        G.s[S_WINNER] = W_OUTLAW
        if n_alive(G) == 1:
            for q in range(n):
                if G.alive[q] and G.role[q] == R_RENEGADE:
                    G.s[S_WINNER] = W_RENEGADE
        G.s[S_OVER] = 1
    elif hostiles_alive(G) == 0:
        G.s[S_WINNER] = W_LEADER
        G.s[S_OVER] = 1


@njit(cache=True)
def eliminate(G, T, p, killer, effect):
    """[C-22] [C-23] [C-24] [A-15] Out of the game: the role is revealed, every card goes to
    the discard pile (or to Vulture Sam); then the outlaw bounty or the leader's penalty."""
    G.alive[p] = 0
    G.s[S_ALIVE_N] -= 1
    G.s[S_LAYOUT] += 1
    G.life[p] = 0
    if G.role[p] == R_LEADER:  # who ended the leader's game (no one: the leader's slot)
        G.ev[EV_LEADER_KILLED + (G.role[killer] if killer >= 0 and killer != p else R_LEADER)] += 1
    n = G.s[S_N]
    sam = -1
    for q in range(n):
        if G.alive[q] and G.ability[q] == A_TAKE_ELIMINATED_CARDS:
            sam = q
    while G.hand_n[p] > 0:
        c = take_from_hand(G, p, G.hand_n[p] - 1)
        if sam >= 0:
            to_hand(G, sam, c)
        else:
            discard(G, c)
    while G.table_n[p] > 0:
        c = take_from_table(G, T, p, G.table_n[p] - 1)
        if sam >= 0:
            to_hand(G, sam, c)
        else:
            discard(G, c)
    check_end(G)
    if G.s[S_OVER] or killer < 0 or killer == p or G.alive[killer] == 0:
        return
    if G.role[p] == R_OUTLAW:
        if (T.rules[RU_NO_REWARD_EFFECTS] >> effect) & 1 == 0:
            draw_to_hand(G, killer, T.rules[RU_OUTLAW_REWARD])
    elif G.role[p] == R_DEPUTY and G.role[killer] == R_LEADER:
        if T.rules[RU_LEADER_KILLS_DEPUTY_PENALTY]:
            discard_everything(G, T, killer)
            hand_emptied(G, killer)


@njit(cache=True, inline="always")
def lethal_beer(G, T, p):
    """Hand index of a Beer p may drink at a lethal hit (one that costs nothing), or -1."""
    for j in range(G.hand_n[p]):
        c = G.hand[p, j]
        if T.card_effect[c] == E_HEAL and T.card_cost[c] == 0 and T.card_flags[c] & CF_BEER:
            return j
    return -1


@njit(cache=True)
def save_from_lethal(G, T, p):
    """[C-19] [C-20] [C-21] [A-12] At a lethal hit: Beers (not with two players left; never a
    Saloon), or Sid Ketchum's two-card discards, until back above 0 life."""
    two_left = n_alive(G) == 2
    if two_left and lethal_beer(G, T, p) >= 0:  # selfcheck's witness of [C-20] at a lethal hit
        G.ev[EV_LETHAL_TWO_LEFT_BEER] += 1
    beers = 0
    while G.life[p] <= 0:
        if n_alive(G) >= T.rules[RU_BEER_MIN_PLAYERS]:
            i = lethal_beer(G, T, p)
            if i >= 0 and saves_life(G, p):
                c = take_from_hand(G, p, i)
                discard(G, c)
                heal(G, p, T.card_value[c])
                hand_emptied(G, p)
                G.used[p, T.card_name[c]] += 1
                G.ev[EV_BEERS_AT_LETHAL] += 1
                G.ev[EV_BEERS_TWO_LEFT_AT_LETHAL] += two_left
                beers += 1
                continue
        if G.hand_n[p] >= 2 and G.ability[p] == A_DISCARD_TWO_HEAL and saves_life(G, p):
            discard_two_heal(G, T, p)
            continue
        break
    if beers > 0 and G.life[p] > 0:
        G.ev[EV_BEER_SAVES] += 1


@njit(cache=True)
def discard_two_heal(G, T, p):
    """[A-12] Sid Ketchum: discard two cards to regain one life."""
    for _ in range(2):
        discard(G, take_from_hand(G, p, card_to_discard(G, T, p, -1)))
    heal(G, p, 1)
    hand_emptied(G, p)


@njit(cache=True)
def damage(G, T, p, amount, killer, source, effect):
    """p loses `amount` life to `effect` (counted by its `dmg` trait). `killer` is credited
    with an elimination, `source` played the card that hurt (El Gringo's victim); both -1
    for damage caused by no one ([K-17])."""
    if (T.rules[RU_NO_ONE_EFFECTS] >> effect) & 1:
        killer = -1
        source = -1
    G.ev[EV_DMG + FX_DMG[effect]] += amount
    G.life[p] -= amount
    if G.life[p] <= 0:
        save_from_lethal(G, T, p)
    if G.life[p] <= 0:
        eliminate(G, T, p, killer, effect)
        return
    if G.ability[p] == A_DRAW_ON_DAMAGE:
        draw_to_hand(G, p, amount)
    elif G.ability[p] == A_STEAL_ON_DAMAGE and source >= 0 and source != p:
        for _ in range(amount):
            if G.alive[source] and G.hand_n[source] > 0:
                c = take_from_hand(G, source, rng_below(G.rng, G.hand_n[source]))
                to_hand(G, p, c)
                G.ev[EV_STOLEN] += 1
                hand_emptied(G, source)


# --- attacks ----------------------------------------------------------------------------


@njit(cache=True)
def bang_effect(G, T, att, p, effect):
    """[C-17] [K-13] [A-06] [A-13] [S-40] A BANG! effect on p: Barrel draws! first (free;
    Jourdonnais adds one), then Missed! cards; a `double_missed` attacker's hits by the
    effects in rules.double_missed_effects (Slab the Killer: BANG! cards; Accurate: every
    hit) need two cancels, a Barrel success counting one."""
    need = 1
    if G.ability[att] == A_DOUBLE_MISSED and (T.rules[RU_DOUBLE_MISSED_EFFECTS] >> effect) & 1:
        need = 2
    cancels = 0
    tries = 1 if in_play_has(G, p, E_BARREL) else 0
    if G.ability[p] == A_BUILTIN_BARREL:
        tries += 1
    for _ in range(tries):
        if cancels >= need:
            break
        if check(G, T, p, CHK_BARREL, True):
            cancels += 1
    rest = need - cancels
    if rest > 0 and count_playable_as(G, T, p, E_MISSED) >= rest and cancel_hit(G, p):
        f1 = 0
        f2 = 0
        drawn = 0
        low = G.life[p] <= 2  # [S-06] Encounter with Destiny at 2 life or less
        for j in range(rest):
            m = take_from_hand(G, p, find_playable_as(G, T, p, E_MISSED))
            discard(G, m)
            G.used[p, T.card_name[m]] += 1
            if FX_CANCELS[T.card_effect[m]]:  # not a BANG! as Missed! [S-07]
                drawn += T.card_draws[m]
                if low:
                    if j == 0:
                        f1 = T.card_destiny[m]
                    else:
                        f2 = T.card_destiny[m]
        hand_emptied(G, p)
        if drawn > 0:  # a card that cancels, then draws (a theme's own `draws`)
            draw_to_hand(G, p, drawn)
        rest = 0
        if f1 != 0:
            missed_destiny(G, T, att, p, f1)
        if f2 != 0:
            missed_destiny(G, T, att, p, f2)
    if rest > 0:
        damage(G, T, p, 1, att, att, effect)


@njit(cache=True)
def missed_destiny(G, T, att, p, f):
    """[S-12] [S-13] [S-14] The Encounter with Destiny of a Missed! p played against att's
    hit: draw a card; att loses 1 life (caused by p, not a BANG!); or p and att swap hands."""
    if f == D_DRAW:
        draw_to_hand(G, p, 1)
        return
    if G.s[S_OVER] or att < 0 or att == p or G.alive[att] == 0 or G.alive[p] == 0:
        return
    if f == D_ATTACKER_LOSES:
        record(G, p, att, True)
        damage(G, T, att, 1, p, p, E_MISSED)
    elif f == D_SWAP_HANDS:
        n = max(G.hand_n[p], G.hand_n[att])
        for i in range(n):
            t = G.hand[p, i]
            G.hand[p, i] = G.hand[att, i]
            G.hand[att, i] = t
        t = G.hand_n[p]
        G.hand_n[p] = G.hand_n[att]
        G.hand_n[att] = t
        for e in range(N_EFFECTS):
            t = G.held[p, e]
            G.held[p, e] = G.held[att, e]
            G.held[att, e] = t
        hand_emptied(G, p)
        hand_emptied(G, att)


@njit(cache=True)
def destiny(G, T, p, f, tgt):
    """[S-06] [S-08] [S-09] [S-10] [S-11] [S-15] [S-16] The Encounter with Destiny of the
    BANG!, Bacta Tank or Repair p plays (on tgt), applied before the basic effect
    (ASSUMPTION: the fixed order the player would pick: take or discard first, then shoot;
    a Bacta Tank's extra effect before its heal, which would lift p above 2). D_HIT_ALL
    replaces the basic effect: a BANG! effect on every other player, clockwise from p
    (an Accurate player's need 2 Missed! [S-40])."""
    if f == D_DRAW:
        draw_to_hand(G, p, 1)
    elif f == D_TAKE:
        if G.hand_n[tgt] + G.table_n[tgt] > 0:
            to_hand(G, p, take_card(G, T, tgt, -1 if G.hand_n[tgt] > 0 else 0))
            G.ev[EV_STOLEN] += 1
    elif f == D_OTHERS_DISCARD:  # "a random card from hand or a card of your choice from play"
        ns = G.s[S_N]
        for step in range(1, ns):
            q = (p + step) % ns
            if G.alive[q] and G.hand_n[q] + G.table_n[q] > 0:
                discard(G, take_card(G, T, q, destiny_discard_pick(G, T, p, q)))
                G.ev[EV_DISCARDED_BY_OTHERS] += 1
    elif f == D_HIT_ALL:
        ns = G.s[S_N]
        for step in range(1, ns):
            q = (p + step) % ns
            if G.alive[q] == 0:
                continue
            bang_effect(G, T, p, q, E_BANG)
            if G.s[S_OVER] or G.alive[p] == 0:
                return
    elif f == D_OTHER_GAINS:
        if n_alive(G) > 2:
            q = destiny_friend(G, p)
            if q >= 0:
                record(G, p, q, False)
                heal(G, q, 1)


@njit(cache=True)
def duel(G, T, att, p):
    """[K-10] The target discards a BANG! or loses 1, then the challenger, and so on.
    Discarded BANG!s are not played: they do not count against the limit."""
    cur = p
    other = att
    while True:
        i = find_playable_as(G, T, cur, E_BANG)
        if i >= 0 and answer_with_bang(G, T, cur):
            G.used[cur, T.card_name[G.hand[cur, i]]] += 1
            discard_from_hand(G, cur, i)
            t = cur
            cur = other
            other = t
        else:
            damage(G, T, cur, 1, other, att, E_DUEL)
            return


@njit(cache=True)
def general_store(G, T, p):
    """[K-09] Reveal one card per living player; each picks one, clockwise from p."""
    m = 0
    for _ in range(n_alive(G)):
        c = draw_card(G)
        if c < 0:
            break
        G.buf[m] = c
        m += 1
    q = p
    while m > 0:
        j = pick_from(G, T, q, G.buf, m)
        c = G.buf[j]
        G.buf[j] = G.buf[m - 1]
        G.buf[m - 1] = -1
        m -= 1
        to_hand(G, q, c)
        q = next_alive(G, q)


@njit(cache=True)
def take_card(G, T, p, opt):
    """[K-05] [K-06] A random card from p's hand (opt -1) or the card in play at slot opt."""
    if opt < 0:
        c = take_from_hand(G, p, rng_below(G.rng, G.hand_n[p]))
        hand_emptied(G, p)
        return c
    return take_from_table(G, T, p, opt)


# --- the play phase -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def first_twin(G, T, p, i):
    """The first card of p's hand up to i with hand card i's name and destiny: the same
    card to play or discard."""
    c = G.hand[p, i]
    for j in range(i):
        d = G.hand[p, j]
        if T.card_name[d] == T.card_name[c] and T.card_destiny[d] == T.card_destiny[c]:
            return j
    return i


@njit(cache=True, inline="always")
def add_action(G, n, i, tgt, opt, s, best, best_s):
    """List play n (hand index i, target, option) unless the list is full; s is its score
    when legal_actions chooses (else 0.0): the first play scoring more than best_s becomes
    the best. Returns (n, best, best_s), updated."""
    if n < MAX_ACTIONS:
        G.act_idx[n] = i
        G.act_tgt[n] = tgt
        G.act_opt[n] = opt
        if s > best_s:
            best = n
            best_s = s
        n += 1
    return n, best, best_s


@njit(cache=True, inline="always")
def distances_and_reach(G, T, p):
    """Fill G.dist with p's distances (fill_distances) and return p's reach; kept while
    nothing they depend on changes (S_LAYOUT)."""
    key = layout_key(G, p)
    if G.s[S_DIST_FOR] != key:
        fill_distances(G, T, p)
        G.s[S_DIST_FOR] = key
    return reach(G, T, p)


@njit(cache=True, inline="always")
def can_aim_at(G, T, p, q, e, aim, far):
    """May p aim a card of effect e (aimed so, reaching `far`, 0: any distance) at q? Not at
    the dead; at himself only where the aim or a rule allows it ([S-41] "(you may also
    choose yourself)")."""
    if G.alive[q] == 0:
        return False
    if q == p:
        return aim == AIM_ANY or (T.rules[RU_SELF_TARGET_EFFECTS] >> e) & 1 == 1
    return far == 0 or G.dist[q] <= far


@njit(cache=True)
def legal_actions(G, T, p, choose=False):
    """Fill G.act_* with every legal play of p's turn; returns how many. Copies of one
    card name make the same plays, so only the first copy in hand is listed; [S-06] at 2
    life or less, when copies differ in their Encounter with Destiny, the first of each.
    choose (decide.scores_while_listing): score each play as it is listed (decide.listing_score)
    and leave p's pick in G.s[S_CHOICE] for choose_action, the pick choose_action would make
    from the list (one pass instead of a listing, then a second to score it)."""
    n = 0
    best = -1  # the first best play, while its score is above 0
    best_s = 0.0
    w = G.w[p]
    beer_works = False
    my_reach = 0
    if choose:
        beer_works, my_reach = listing_inputs(G, T, w, p)
    s = 0.0  # the score of the play listed next (0.0 when not choosing)
    ns = G.s[S_N]
    r = -1  # p's reach, once G.dist holds p's distances: only for a hand that needs them
    low = G.life[p] <= 2
    names = 0  # bit k: a card of name k comes earlier in the hand (MAX_CARD_NAMES <= 63)
    for i in range(G.hand_n[p]):
        c = G.hand[p, i]
        e = T.card_effect[c]
        bit = np.int64(1) << T.card_name[c]
        seen = (names & bit) != 0
        names |= bit
        if G.hand_n[p] - 1 < T.card_cost[c]:
            continue
        if seen and low:  # the same name: the same play unless the destinies differ
            seen = first_twin(G, T, p, i) < i
        if seen:
            continue
        if FX_BANG_CARD[e] or (FX_CANCELS[e] and G.ability[p] == A_BANG_MISSED_SWAP):
            # a BANG! card, or a Missed! card as a BANG!: played as a BANG! (E_BANG,
            # the one effect that is a BANG! card), a Missed! with a BANG!'s aim
            if G.s[S_BANGS] >= T.rules[RU_BANG_LIMIT] and not unlimited_bangs(G, T, p):
                continue  # [C-09] one BANG! card per turn
            if r < 0:
                r = distances_and_reach(G, T, p)
            far = r  # the reach, the card's range, or any distance
            if FX_BANG_CARD[e]:
                aim = T.card_aim[c]
                if aim == AIM_RANGE:
                    far = T.card_value[c]
                elif aim == AIM_ANY_OTHER:
                    far = MAX_CARDS
            for q in range(ns):
                if q != p and G.alive[q] and G.dist[q] <= far:
                    if choose:
                        s = listing_score(G, T, w, p, i, E_BANG, q, 0, beer_works, my_reach)
                    n, best, best_s = add_action(G, n, i, q, 0, s, best, best_s)
            continue
        place = FX_PLACE[e]
        if FX_AIM[e] < AIM_REACH:  # no chosen player (theme.py changes only the other aims)
            if FX_AIM[e] == AIM_NONE:
                continue
            if place != PL_DISCARD and in_play_named(G, p, T.card_name[c]):
                continue  # [C-10] one copy of a card in play
            if choose:
                s = listing_score(G, T, w, p, i, e, p, 0, beer_works, my_reach)
            n, best, best_s = add_action(G, n, i, p, 0, s, best, best_s)
            continue
        aim = T.card_aim[c]  # the effect's, or a theme's own effect's
        far = 0  # the farthest target: the reach, or the card's range (0: any distance)
        if aim == AIM_REACH or aim == AIM_RANGE:
            if r < 0:
                r = distances_and_reach(G, T, p)
            far = r if aim == AIM_REACH else T.card_value[c]
        if FX_PICKS[e]:  # one of the target's cards: from hand, or each card in play
            for q in range(ns):
                if not can_aim_at(G, T, p, q, e, aim, far):
                    continue
                left = G.hand_n[q]
                if q == p:
                    left -= 1 + T.card_cost[c]  # the card and its cost leave the hand first
                if left > 0:
                    if choose:
                        s = listing_score(G, T, w, p, i, e, q, -1, beer_works, my_reach)
                    n, best, best_s = add_action(G, n, i, q, -1, s, best, best_s)
                for slot in range(G.table_n[q]):
                    if choose:
                        s = listing_score(G, T, w, p, i, e, q, slot, beer_works, my_reach)
                    n, best, best_s = add_action(G, n, i, q, slot, s, best, best_s)
        elif place == PL_IN_FRONT:  # in front of the target
            for q in range(ns):
                if not can_aim_at(G, T, p, q, e, aim, far):
                    continue
                if G.role[q] == R_LEADER and T.rules[RU_JAIL_ON_LEADER] == 0:
                    continue  # [K-16] Jail cannot be played on the Sheriff
                if in_play_named(G, q, T.card_name[c]):
                    continue  # [C-10]
                if choose:
                    s = listing_score(G, T, w, p, i, e, q, 0, beer_works, my_reach)
                n, best, best_s = add_action(G, n, i, q, 0, s, best, best_s)
        else:
            for q in range(ns):
                if can_aim_at(G, T, p, q, e, aim, far):
                    if choose:
                        s = listing_score(G, T, w, p, i, e, q, 0, beer_works, my_reach)
                    n, best, best_s = add_action(G, n, i, q, 0, s, best, best_s)
    if G.ability[p] == A_DISCARD_TWO_HEAL and G.hand_n[p] >= 2 and G.life[p] < G.max_life[p]:
        if choose:
            s = listing_score(G, T, w, p, -1, -1, p, 0, beer_works, my_reach)
        n, best, best_s = add_action(G, n, -1, p, 0, s, best, best_s)
    G.s[S_CHOICE] = best if choose else NOT_CHOSEN
    return n


@njit(cache=True)
def resolve(G, T, p, k):
    """Play legal action k of p: pay for it, place or discard the card, apply its effect."""
    i = G.act_idx[k]
    tgt = G.act_tgt[k]
    opt = G.act_opt[k]
    if i < 0:
        discard_two_heal(G, T, p)
        return
    c = take_from_hand(G, p, i)
    e = T.card_effect[c]
    G.used[p, T.card_name[c]] += 1
    fate = T.card_destiny[c] if G.life[p] <= 2 else 0  # [S-06] at the moment it is played
    draws = T.card_draws[c]
    if FX_CANCELS[e]:  # a Missed! card played is Calamity Janet's BANG! [A-03]
        e = E_BANG
        fate = 0  # [S-07] Inventive's Missed! as a BANG!: no destiny
        draws = 0
    for _ in range(T.card_cost[c]):  # [D-03] [D-04] [D-05] discard one other card
        discard(G, take_from_hand(G, p, card_to_discard(G, T, p, -1)))
    place = FX_PLACE[e]
    if place == PL_DISCARD:
        discard(G, c)  # [C-12] brown cards resolve and are discarded
    elif place == PL_IN_FRONT:
        put_in_play(G, T, tgt, c)  # [C-12] Jail goes in front of another player
    else:
        if place == PL_WEAPON:  # [C-11] a new weapon replaces the old one
            w = find_weapon(G, T, p)
            if w >= 0:
                discard(G, take_from_table(G, T, p, w))
        put_in_play(G, T, p, c)
    if FX_BANG_CARD[e]:
        G.s[S_BANGS] += 1
    if fate == 0:
        hand_emptied(G, p)
        apply_effect(G, T, p, c, e, tgt, opt)
    else:
        # [S-06] "Effects of other cards and character abilities apply only after both
        # effects of the played card have been resolved, not between them."
        G.s[S_DEFER] = 1
        destiny(G, T, p, fate, tgt)
        if fate != D_HIT_ALL and G.s[S_OVER] == 0 and G.alive[p] == 1:
            apply_effect(G, T, p, c, e, tgt, opt)
        G.s[S_DEFER] = 0
        ns = G.s[S_N]
        for step in range(ns):
            hand_emptied(G, (p + step) % ns)
    if draws > 0 and G.s[S_OVER] == 0 and G.alive[p] == 1:
        draw_to_hand(G, p, draws)  # then its player draws (a theme's own `draws`)
    if G.ability[p] == A_TEMPERED:
        tempered(G, T, p, c, e, tgt)


@njit(cache=True)
def tempered(G, T, p, c, e, tgt):
    """[S-37] Tempered: once per turn, discard a BANG! card to repeat the effect of the
    brown card just played (card c, effect e, on tgt; its `tempered` trait), a BANG! too. The repeat is
    not a card played: no BANG! counted. A steal or discard repeat takes a random hand card
    of the target, or its first card in play when the hand is empty (ASSUMPTION)."""
    if G.s[S_TEMPERED] or G.s[S_OVER] or G.alive[p] == 0:
        return
    if FX_TEMPERED[e] == 0:
        return  # blue cards stay in play: only red-bordered cards repeat
    i = find_in_hand(G, T, p, E_BANG)
    if i < 0:
        return
    if tgt != p and G.alive[tgt] == 0:
        return
    picks = FX_PICKS[e]
    if picks and G.hand_n[tgt] == 0 and G.table_n[tgt] == 0:
        return
    if not repeats_card(G, T, p, c, tgt):
        return
    G.s[S_TEMPERED] = 1
    discard_from_hand(G, p, i)
    opt = -1
    if picks and G.hand_n[tgt] == 0:
        if G.table_n[tgt] == 0:
            return  # a Thrifty target may have emptied and refilled: nothing left to take
        opt = 0
    apply_effect(G, T, p, c, e, tgt, opt)


@njit(cache=True)
def apply_effect(G, T, p, c, e, tgt, opt):
    """The effect of card c (effect e) played by p on tgt with option opt, the card already
    placed or discarded. A play aimed at a chosen player goes on the public record first,
    as an attack when its effect's `attack` trait says so (taking a burden helps)."""
    aim = FX_AIM[e]
    if aim >= AIM_REACH:  # one chosen player (vocab.CHOSEN_AIMS)
        record(G, p, tgt, takes_as_attack(G, T, tgt, opt) if FX_PICKS[e] else FX_ATTACK[e] != 0)
    hit = FX_HIT[e]
    if aim == AIM_EVERY_OTHER:  # [K-11] [K-12] clockwise from the player
        ns = G.s[S_N]
        for step in range(1, ns):
            q = (p + step) % ns
            if G.alive[q] == 0:
                continue
            if hit == HIT_MISSED:
                bang_effect(G, T, p, q, e)
            else:
                j = find_playable_as(G, T, q, E_BANG)
                if j >= 0 and answer_with_bang(G, T, q):
                    G.used[q, T.card_name[G.hand[q, j]]] += 1
                    discard_from_hand(G, q, j)
                else:
                    damage(G, T, q, 1, p, p, e)
            if G.s[S_OVER] or G.alive[p] == 0:
                return
    elif hit == HIT_MISSED:
        bang_effect(G, T, p, tgt, e)
    elif hit == HIT_BANG:
        duel(G, T, p, tgt)
    elif e == E_HEAL:  # [C-20] a Beer (not a Whisky [D-05]) needs 3+ players alive
        before = G.life[p]
        if (T.card_flags[c] & CF_BEER) == 0 or n_alive(G) >= T.rules[RU_BEER_MIN_PLAYERS]:
            heal(G, p, T.card_value[c])
        if T.card_flags[c] & CF_BEER and n_alive(G) == 2:  # selfcheck's witness of [C-20]
            G.ev[EV_BEERS_TWO_LEFT] += 1
            G.ev[EV_BEERS_TWO_LEFT_HEALED] += G.life[p] > before
    elif e == E_HEAL_ALL:  # [K-04]
        for q in range(G.s[S_N]):
            if G.alive[q]:
                heal(G, q, 1)
    elif e == E_HEAL_ANY:
        heal(G, tgt, T.card_value[c])
    elif e == E_DRAW:  # [K-07] [K-08]
        draw_to_hand(G, p, T.card_value[c])
    elif e == E_STEAL:
        to_hand(G, p, take_card(G, T, tgt, opt))
        G.ev[EV_STOLEN] += tgt != p
    elif e == E_DISCARD_ANY:
        discard(G, take_card(G, T, tgt, opt))
        G.ev[EV_DISCARDED_BY_OTHERS] += tgt != p
    elif e == E_GENERAL_STORE:
        general_store(G, T, p)


# --- a turn -------------------------------------------------------------------------------


@njit(cache=True)
def draw_phase(G, T, p):
    """[C-06] Draw two, or as the character's ability says ([A-02] [A-05] [A-07] [A-10])."""
    k = T.rules[RU_DRAW_COUNT]
    ab = G.ability[p]
    if ab == A_DRAW_FROM_PLAYER:
        q = draw_source(G, p)
        if q >= 0 and G.hand_n[q] > 0:
            to_hand(G, p, take_card(G, T, q, -1))
            G.ev[EV_STOLEN] += 1
            k -= 1
    elif ab == A_DRAW_FROM_DISCARD:
        top = G.s[S_DISC_N] - 1
        if top >= 0 and takes_discard_top(G, T, p, G.disc[top]):
            to_hand(G, p, G.disc[top])
            G.disc[top] = -1
            G.s[S_DISC_N] = top
            k -= 1
    elif ab == A_DRAW_THREE_KEEP_TWO:
        m = 0
        for _ in range(k + 1):
            c = draw_card(G)
            if c < 0:
                break
            G.buf[m] = c
            m += 1
        back = put_back(G, T, p, G.buf, m) if m > k else -1
        if back >= 0 and pauses(G, p, SK_PUTBACK):
            # the cards drawn wait in hand (a world's redeal uses G.buf): take_turn resumes
            G.s[S_BASE] = back + 2
            G.s[S_OPTIONS] = m
            for j in range(m):
                to_hand(G, p, G.buf[j])
                G.buf[j] = -1
            return
        for j in range(m):
            if j == back:
                G.deck[G.s[S_DECK_N]] = G.buf[j]  # back on top of the deck, face down
                G.s[S_DECK_N] += 1
            else:
                to_hand(G, p, G.buf[j])
            G.buf[j] = -1
        return
    for j in range(k):
        shown = ab == A_DRAW_EXTRA_ON_CHECK and j == 1  # the second card is shown
        e = pile_share(G, T, CHK_DRAW_EXTRA) if shown and G.s[S_QUIET] == 0 else 0
        c = draw_card(G)
        if c < 0:
            return
        to_hand(G, p, c)
        if shown:
            ok = (T.card_check[c] & CHK_DRAW_EXTRA) != 0
            count_check(G, CHK_DRAW_EXTRA, ok, 1, ok, e)
            if ok:
                draw_to_hand(G, p, 1)


@njit(cache=True)
def pass_dynamite(G, T, p, c):
    """[K-17] An unexploded Dynamite passes to the next living player on the left."""
    q = next_alive(G, p)
    while q != p:
        if not in_play_named(G, q, T.card_name[c]):
            put_in_play(G, T, q, c)
            return
        q = next_alive(G, q)
    put_in_play(G, T, p, c)


@njit(cache=True)
def start_of_turn(G, T, p):
    """[C-29] [S-32] Dynamite, then A New Hope, then Jail (checked last). Returns False when
    p does not go on to draw and play."""
    if not (
        in_play_has(G, p, E_DYNAMITE) or in_play_has(G, p, E_NEW_HOPE) or in_play_has(G, p, E_JAIL)
    ):
        return True  # most turns
    slot = find_in_play(G, T, p, E_DYNAMITE)
    if slot >= 0:
        c = take_from_table(G, T, p, slot)
        if check(G, T, p, CHK_DYNAMITE, False):
            discard(G, c)
            damage(G, T, p, T.rules[RU_DYNAMITE_DAMAGE], -1, -1, E_DYNAMITE)
            if G.s[S_OVER] or G.alive[p] == 0:
                return False
        else:
            pass_dynamite(G, T, p, c)
    slot = find_in_play(G, T, p, E_NEW_HOPE)
    if slot >= 0:  # [S-31] on its check +new_hope_heal (never above max) and discarded
        c = take_from_table(G, T, p, slot)
        if check(G, T, p, CHK_NEW_HOPE, True):
            discard(G, c)
            heal(G, p, T.rules[RU_NEW_HOPE_HEAL])
        else:
            pass_dynamite(G, T, p, c)
    slot = find_in_play(G, T, p, E_JAIL)
    if slot >= 0:  # [K-16] discarded either way; a failed draw! skips the turn
        c = take_from_table(G, T, p, slot)
        escaped = check(G, T, p, CHK_JAIL, True)
        discard(G, c)
        if not escaped:
            return False
    return True


@njit(cache=True)
def take_turn(G, T, p):
    """[C-06] [C-07] [C-08] p's turn. A seat that searches (G.s[S_SEARCH] bit p) pauses at
    each decision of a kind it searches (S_SEARCH_KINDS) with more than one option: its own
    strategy's choice made (S_BASE, random numbers spent as without the pause), the turn
    returns with S_PAUSED set, and a later call with S_FORCE set resumes it there (S_PHASE)
    taking that option instead."""
    if G.s[S_PHASE] == PH_START:
        G.s[S_BANGS] = 0
        G.s[S_TURN_ACTIONS] = 0
        G.s[S_TEMPERED] = 0
        go_on = start_of_turn(G, T, p)
        verify(G, T)
        if not go_on:
            return
        draw_phase(G, T, p)
        verify(G, T)
        if G.s[S_PAUSED]:
            G.s[S_PHASE] = PH_PUTBACK
            return
        G.s[S_PHASE] = PH_PLAY
    if G.s[S_PHASE] == PH_PUTBACK:
        held_put_back(G, p, G.s[S_FORCE] - 2)
        G.s[S_FORCE] = 0
        G.s[S_PHASE] = PH_PLAY
    if G.s[S_PHASE] == PH_PLAY:
        choose = scores_while_listing(G, p)
        while True:  # [C-07] any number of cards, one at a time
            n = legal_actions(G, T, p, choose)
            if n == 0:
                break
            if G.s[S_FORCE]:
                k = G.s[S_FORCE] - 2
                G.s[S_FORCE] = 0
            else:
                k = choose_action(G, T, p, n)
                if pauses(G, p, SK_PLAY_KINDS):
                    G.s[S_BASE] = k + 2
                    G.s[S_OPTIONS] = n
                    return
            if k < 0:
                break
            resolve(G, T, p, k)
            G.s[S_TURN_ACTIONS] += 1
            verify(G, T)
            if G.s[S_OVER] or G.alive[p] == 0 or G.s[S_ERR]:
                G.s[S_PHASE] = PH_START
                return
            if G.s[S_TURN_ACTIONS] >= ACTIONS_PER_TURN_CAP:
                # plays that give back cards like themselves (a deck of draw cards drawing
                # themselves back) loop for ever: such a game goes nowhere, and ends capped
                G.s[S_CAPPED] = 1
                G.s[S_PHASE] = PH_START
                return
        G.s[S_PHASE] = PH_DISCARD
    while G.hand_n[p] > G.life[p]:  # [C-08] discard down to current life
        if G.s[S_FORCE]:
            i = G.s[S_FORCE] - 2
            G.s[S_FORCE] = 0
        else:
            i = card_to_discard(G, T, p, -1)
            if pauses(G, p, SK_DISCARD):
                G.s[S_BASE] = i + 2
                return
        discard_from_hand(G, p, i)
    G.s[S_PHASE] = PH_START
    verify(G, T)


@njit(cache=True)
def held_put_back(G, p, j):
    """[A-07] Kit Carlson, resumed at his put-back: drawn card j of those held last in his
    hand goes back on top of the deck, the others staying in the order drawn (as
    draw_phase leaves them unpaused)."""
    i = G.hand_n[p] - G.s[S_OPTIONS] + j
    c = G.hand[p, i]
    for t in range(i, G.hand_n[p] - 1):
        G.hand[p, t] = G.hand[p, t + 1]
    G.hand_n[p] -= 1
    G.hand[p, G.hand_n[p]] = -1
    G.held[p, G.effect_of[c]] -= 1
    G.deck[G.s[S_DECK_N]] = c  # back on top of the deck, face down
    G.s[S_DECK_N] += 1


@njit(cache=True, inline="always")
def pauses(G, p, kind):
    """Does p pause here, at a decision of `kind` (SK_*)? Then a pause is marked."""
    if (G.s[S_SEARCH] >> p) & 1 == 0 or G.s[S_SEARCH_KINDS] & kind == 0:
        return False
    G.s[S_PAUSED] = 1
    G.s[S_DECISIONS] += 1
    return True


# --- a game -----------------------------------------------------------------------------

NO_STOP = 1 << 62  # play_on's `stop`: play to the end


@njit(cache=True)
def setup_game(G, T, W, pool, role_preset, feature, players, seed, game, checked):
    """[C-01] [C-03] [C-04] Roles (the leader at seat 0), characters from the pool, life,
    a shuffled deck and starting hands of as many cards as life. feature = (character,
    role), -1 for none/any: that character sits at a uniformly random seat (of that role),
    the others are dealt from the pool (which must not hold it); G.s[S_FEATURED] = its seat
    or -1. Without a feature no random number is spent on it: the same games as before.
    checked: true or 1 for checked mode, plus QUIET (2) when no one reads the event counts."""
    rng_seed(G.rng, seed, game)
    nc = T.n_cards
    G.s[:] = 0
    G.s[S_N] = players
    G.s[S_NC] = nc
    G.s[S_WINNER] = W_NONE
    flags = np.int64(checked)
    G.s[S_CHECKED] = flags & 1
    G.s[S_QUIET] = 1 if flags & QUIET else 0
    G.hand[:, :] = -1
    G.table[:, :] = -1
    G.deck[:] = -1
    G.disc[:] = -1
    G.buf[:] = -1
    G.hand_n[:] = 0
    G.held[:, :] = 0
    for c in range(nc):
        G.effect_of[c] = T.card_effect[c]
    G.table_n[:] = 0
    G.far[:] = 0
    G.near[:] = 0
    G.gun[:] = 1
    G.named[:] = 0
    G.kinds[:] = 0
    G.alive[:] = 0
    G.karma[:] = 0.0
    G.belief[:, :] = 0.0
    G.acted[:] = 0
    G.life[:] = 0
    G.max_life[:] = 0
    G.role[:] = 0
    G.char[:] = 0
    G.ability[:] = 0
    G.preset[:] = 0
    G.ev[:] = 0
    G.used[:, :] = 0
    for q in range(players):
        G.role[q] = T.roles[players, q]
    for i in range(players - 1, 1, -1):  # the leader keeps seat 0; the rest are dealt
        j = 1 + rng_below(G.rng, i)
        t = G.role[i]
        G.role[i] = G.role[j]
        G.role[j] = t
    fs = -1
    if feature[0] >= 0:
        if feature[1] < 0:
            fs = rng_below(G.rng, players)
        else:
            k = 0
            for q in range(players):
                k += G.role[q] == feature[1]
            k = rng_below(G.rng, k)
            for q in range(players):
                if G.role[q] == feature[1]:
                    if k == 0:
                        fs = q
                    k -= 1
    G.s[S_FEATURED] = fs
    m = pool.shape[0]
    for j in range(m):
        G.buf[j] = pool[j]
    d = 0  # characters dealt from the pool
    for q in range(players):
        if q == fs:
            ch = feature[0]
        else:
            j = d + rng_below(G.rng, m - d)
            t = G.buf[d]
            G.buf[d] = G.buf[j]
            G.buf[j] = t
            ch = G.buf[d]
            d += 1
        G.char[q] = ch
        G.ability[q] = T.char_ability[ch]
        life = T.char_life[ch] + (T.rules[RU_LEADER_EXTRA_LIFE] if q == 0 else 0)
        G.life[q] = life
        G.max_life[q] = life
        G.alive[q] = 1
    G.s[S_ALIVE_N] = players
    G.s[S_CHOICE] = NOT_CHOSEN
    seat_strategies(G, W, role_preset)
    G.buf[:] = -1
    for i in range(nc):
        G.deck[i] = i
    G.s[S_DECK_N] = nc
    shuffle(G, G.deck, nc)
    for q in range(players):
        draw_to_hand(G, q, G.life[q])


@njit(cache=True)
def seat_strategies(G, W, role_preset):
    """Each seat plays the row role_preset[its role] of the strategy matrix W (the bots'
    enemy scores then need computing anew)."""
    for q in range(G.s[S_N]):
        G.preset[q] = role_preset[G.role[q]]
        G.w[q, :] = W[G.preset[q], :]
    G.s[S_ENEMY_FOR] = 0


@njit(cache=True)
def play_game(G, T, W, pool, role_preset, feature, players, seed, game, checked):
    """[C-05] The leader plays first, then clockwise over the living, until the game ends or
    the turn cap ends it as `capped`."""
    setup_game(G, T, W, pool, role_preset, feature, players, seed, game, checked)
    verify(G, T)
    play_on(G, T, NO_STOP)


@njit(cache=True)
def play_on(G, T, stop):
    """Play turns from the start of seat G.s[S_CUR]'s turn until the game ends (or the turn
    cap ends it as `capped`), or pause once G.s[S_TURN] reaches `stop`: G.s[S_CUR] is then
    the seat whose turn comes next, so play_on(G, T, NO_STOP) later plays the same game on.
    It also returns, S_PAUSED set, inside a searching seat's turn (take_turn), to go on
    from there once S_PAUSED is cleared.
    In checked mode an ended game without exactly one winning side is an error."""
    p = G.s[S_CUR]
    while G.s[S_ERR] == 0:
        if G.s[S_PHASE] == PH_START:  # else a paused turn resumes
            if G.s[S_TURN] >= stop:
                G.s[S_CUR] = p
                return
            if G.s[S_TURN] >= T.rules[RU_TURN_CAP]:
                G.s[S_CAPPED] = 1
                break
            if p == 0:
                G.s[S_ROUNDS] += 1
            G.s[S_CUR] = p
        take_turn(G, T, p)
        if G.s[S_PAUSED]:
            return  # at a searching seat's decision: S_FORCE set, play_on goes on
        G.s[S_TURN] += 1
        if G.s[S_OVER] or G.s[S_CAPPED]:
            break
        p = next_alive(G, p)
    if G.s[S_CHECKED] and G.s[S_ERR] == 0 and G.s[S_CAPPED] == 0:
        w = G.s[S_WINNER]
        if G.s[S_OVER] != 1 or not (w == W_LEADER or w == W_OUTLAW or w == W_RENEGADE):
            G.s[S_ERR] = ERR_WINNER


# --- checked mode -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def verify(G, T):
    """Checked mode: check_invariants (the unchecked kernel pays one test, not a call)."""
    if G.s[S_CHECKED]:
        check_invariants(G, T)


@njit(cache=True)
def check_invariants(G, T):
    """Every card in exactly one place, 0 < life <= max for the living, the dead at 0 life
    holding nothing, the counters kept of cards in play and in hand as the cards give them.
    Records the first violation in G.s[S_ERR]."""
    if G.s[S_ERR] != 0:
        return
    nc = G.s[S_NC]
    seen = np.zeros(nc, np.int64)
    held = np.zeros(N_EFFECTS, np.int64)
    total = G.s[S_DECK_N] + G.s[S_DISC_N]
    for i in range(G.s[S_DECK_N]):
        seen[G.deck[i]] += 1
    for i in range(G.s[S_DISC_N]):
        seen[G.disc[i]] += 1
    for q in range(G.s[S_N]):
        total += G.hand_n[q] + G.table_n[q]
        for i in range(G.hand_n[q]):
            seen[G.hand[q, i]] += 1
        for i in range(G.table_n[q]):
            seen[G.table[q, i]] += 1
        if G.alive[q]:
            if G.life[q] < 1 or G.life[q] > G.max_life[q]:
                G.s[S_ERR] = ERR_LIFE
        elif G.life[q] != 0 or G.hand_n[q] != 0 or G.table_n[q] != 0:
            G.s[S_ERR] = ERR_DEAD_HOLDS
        kept = (G.far[q], G.near[q], G.gun[q], G.named[q], G.kinds[q])
        if kept != in_play_counts(G, T, q):
            G.s[S_ERR] = ERR_IN_PLAY
        hand_effects(G, q, held)
        for e in range(N_EFFECTS):
            if G.held[q, e] != held[e]:
                G.s[S_ERR] = ERR_HELD
    for c in range(nc):
        if G.effect_of[c] != T.card_effect[c]:
            G.s[S_ERR] = ERR_HELD
    if total != nc:
        G.s[S_ERR] = ERR_CARDS
    for c in range(nc):
        if seen[c] != 1:
            G.s[S_ERR] = ERR_CARDS
