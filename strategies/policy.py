"""The scored bot: every choice the rules give a player, read from a parameter vector.

Each function takes the game state G (seat p's parameter vector is G.w[p], its preset's row
of the strategy matrix), the theme tables T and the deciding seat p. They read what p can
see, through simcore.engine.view: p's own hand, cards in play, life, seats, the leader's
role, revealed roles of the eliminated and the public record of who attacked whom
(G.karma). Cards are judged by their effects' traits (vocab.FX_*). The kernel asks them
through strategies.decide, which hands a `random` seat's choices to strategies.uniform.
"""

from simcore.engine.jit import njit
from simcore.engine.state import (
    NOT_CHOSEN,
    S_ALIVE_N,
    S_BANGS,
    S_CHOICE,
    S_ENEMY_FOR,
    S_ENEMY_LIFE0,
    S_ENEMY_VER,
    S_N,
    S_RECORD,
)
from simcore.engine.view import (
    all_unknowns_hostile,
    count_in_hand,
    count_playable_as,
    in_play_has,
    in_play_named,
    is_leader,
    n_alive,
    next_alive,
    reach,
    revealed_dead,
    role_total,
)
from simcore.engine.vocab import (
    AIM_REACH,
    CF_BEER,
    D_DRAW,
    D_HIT_ALL,
    D_OTHER_GAINS,
    D_OTHERS_DISCARD,
    D_TAKE,
    E_BANG,
    E_BANG_ANY,
    E_BARREL,
    E_DRAW,
    E_DUEL,
    E_DYNAMITE,
    E_GATLING,
    E_GENERAL_STORE,
    E_HEAL,
    E_HEAL_ALL,
    E_HEAL_ANY,
    E_INDIANS,
    E_JAIL,
    E_MISSED,
    E_MUSTANG,
    E_NEW_HOPE,
    E_VOLCANIC,
    E_WEAPON,
    FX_AIM,
    FX_ATTACK,
    FX_BURDEN,
    FX_PICKS,
    FX_PLACE,
    PL_IN_FRONT,
    PL_IN_PLAY,
    PL_WEAPON,
    R_DEPUTY,
    R_LEADER,
    R_OUTLAW,
    R_RENEGADE,
    RU_BEER_MIN_PLAYERS,
    RU_JAIL_ON_LEADER,
)
from strategies.params import (
    P_ANSWER_MIN_BANGS,
    P_AOE_MIN_NET,
    P_AOE_SPARE_LEADER,
    P_DUEL_MIN_BANGS,
    P_DYNAMITE_AWAY,
    P_DYNAMITE_LAW,
    P_DYNAMITE_MIN_LIFE,
    P_ENEMY_MIN,
    P_FOCUS,
    P_FREE_FRIEND,
    P_GUARD_LEADER,
    P_HEAL_MISSING,
    P_HOLD_VOLCANIC,
    P_JAIL_AFTER_BANG,
    P_KEEP_BANGS,
    P_KEEP_HEAL,
    P_KIT_DENY,
    P_LEADER_SHOOTS_UNKNOWN,
    P_PEDRO_MIN_VALUE,
    P_PERSONAL,
    P_RENEGADE_LEAN,
    P_RENEGADE_TURN_ALIVE,
    P_RENEGADE_TURN_OUTLAWS,
    P_SPARE_LEADER,
    P_STORE_PLAY,
    P_TAKE_COVER,
    P_TAKE_HITS_ABOVE,
    P_TAKE_VALUE,
    P_TEMPERED,
    P_VALUE,
    P_VALUE_DEAD,
    P_VALUE_SPARE,
    P_VOLCANIC_BANGS,
)


@njit(cache=True, inline="always")
def renegade_turned(G, w):
    """The renegade drops its cover once few are left or few outlaws are (every outlaw
    revealed dead, or `renegade_turn_outlaws` or fewer left by the public role mix)."""
    if n_alive(G) <= w[P_RENEGADE_TURN_ALIVE]:
        return True
    return role_total(G, R_OUTLAW) - revealed_dead(G, R_OUTLAW) <= w[P_RENEGADE_TURN_OUTLAWS]


@njit(cache=True, inline="always")
def outlaws_left(G):
    """Are outlaws alive, by the public role mix less the outlaws revealed dead?"""
    return role_total(G, R_OUTLAW) - revealed_dead(G, R_OUTLAW) > 0


@njit(cache=True, inline="always")
def enemy_of(G, w, p, q, certain, turned, alone):
    """How much p wants q hurt (> enemy_min: an enemy; < 0: a friend), from public facts.
    certain: all unknowns are hostile (all_unknowns_hostile); turned: p is a renegade that
    has dropped its cover; alone: two players are left."""
    if q == p:
        return -100.0
    r = G.role[p]
    leader = q == 0
    law = G.karma[q] + w[P_PERSONAL + r] * G.belief[p, q]  # how law-side q looks to p
    if certain and not leader:
        return 5.0 - law  # all hostile: the most outlaw-looking first
    if r == R_LEADER:
        s = -law
        if s == 0.0 and w[P_LEADER_SHOOTS_UNKNOWN] > 0.5:
            s = w[P_ENEMY_MIN] + 0.01
        return s
    if r == R_DEPUTY:
        return -10.0 if leader else -law
    if r == R_OUTLAW:
        return 10.0 if leader else law
    # the renegade: a deputy in disguise until it turns, then everyone, the leader last
    if turned:
        if leader:
            if alone:
                return 10.0
            return -1.0 if G.life[0] <= w[P_SPARE_LEADER] else 1.0
        if G.life[0] <= w[P_GUARD_LEADER] and outlaws_left(G):
            # the outlaws would finish a weak leader: keep off the law side meanwhile
            return -law if law > 0.0 else 5.0 - law
        return 5.0 + w[P_RENEGADE_LEAN] * law  # lean > 0: the law side first
    return -10.0 if leader else -law


@njit(cache=True, inline="always")
def fill_enemy(G, w, p):
    """G.enemy[q] = enemy_of(p, q) for every seat (w: p's parameters), computed anew when
    p or what the scores read changed since the last time (S_ENEMY_*): the record made by
    the others (p's own attacks and help change neither its beliefs nor the karma it reads),
    the living, and for the renegade the leader's life."""
    ver = (G.s[S_RECORD] - G.acted[p]) * 8 + G.s[S_ALIVE_N]  # S_ALIVE_N <= MAX_PLAYERS < 8
    life0 = G.life[0] if G.role[p] == R_RENEGADE else 0
    if G.s[S_ENEMY_FOR] == p + 1 and G.s[S_ENEMY_VER] == ver and G.s[S_ENEMY_LIFE0] == life0:
        return
    G.s[S_ENEMY_FOR] = p + 1
    G.s[S_ENEMY_VER] = ver
    G.s[S_ENEMY_LIFE0] = life0
    r = G.role[p]
    certain = (r == R_LEADER or r == R_DEPUTY) and all_unknowns_hostile(G, p)
    turned = r == R_RENEGADE and renegade_turned(G, w)
    alone = n_alive(G) <= 2
    for q in range(G.s[S_N]):
        G.enemy[q] = enemy_of(G, w, p, q, certain, turned, alone)


@njit(cache=True)
def card_value(G, T, w, p, c, own):
    """Worth of holding card c for p: its effect's value, less if already useless, less
    `value_spare` for each other card of its effect in p's hand. own: 1 when c is one of
    p's hand cards (a discard), 0 when not (a pick)."""
    e = T.card_effect[c]
    v = w[P_VALUE + e]
    place = FX_PLACE[e]
    if place == PL_IN_PLAY or place == PL_WEAPON:  # equipment: one copy in play [C-10]
        if in_play_named(G, p, T.card_name[c]):
            return 0.5
        if e == E_WEAPON and T.card_value[c] <= reach(G, T, p):
            return 1.0
    if w[P_VALUE_SPARE] != 0.0:  # c itself not counted: `own` is 1 when it is in the hand
        v -= w[P_VALUE_SPARE] * (count_in_hand(G, T, p, e) - own)
    if w[P_VALUE_DEAD] != 0.0 and unplayable(G, T, p, c):
        v -= w[P_VALUE_DEAD]
    return v


@njit(cache=True)
def unplayable(G, T, p, c):
    """Can card c do nothing for p now? A Beer while Beers heal no one (too few alive), a
    Jail with no one to go on (every other living player the leader under [K-16] or jailed
    already). Only what the table shows: the living, cards in play, the leader's seat."""
    if T.card_flags[c] & CF_BEER:
        return n_alive(G) < T.rules[RU_BEER_MIN_PLAYERS]
    if T.card_effect[c] != E_JAIL:
        return False
    for q in range(G.s[S_N]):
        if q == p or G.alive[q] == 0:
            continue
        if is_leader(G, q) and T.rules[RU_JAIL_ON_LEADER] == 0:
            continue
        if not in_play_named(G, q, T.card_name[c]):
            return False
    return True


@njit(cache=True)
def lowest_value_card(G, T, p, skip):
    """Hand index of p's least valuable card other than index `skip`."""
    n = G.hand_n[p]
    w = G.w[p]
    best = -1
    best_v = 1e18
    for i in range(n):
        if i == skip:
            continue
        v = card_value(G, T, w, p, G.hand[p, i], 1)
        if v < best_v:
            best_v = v
            best = i
    return best


@njit(cache=True)
def destiny_friend(G, p):
    """[S-16] Who gets p's Encounter with Destiny +1 life: the friendliest hurt non-enemy
    (lowest enemy score, then lowest life); else a player at full life (wasted, better than
    helping an enemy); else the least hostile hurt player. -1 when no other player lives."""
    fill_enemy(G, G.w[p], p)
    best = -1
    best_s = 1e18
    full = -1
    for q in range(G.s[S_N]):
        if q == p or G.alive[q] == 0:
            continue
        if G.life[q] >= G.max_life[q]:
            full = q
            continue
        s = G.enemy[q] * 100.0 + G.life[q]
        if s < best_s:
            best_s = s
            best = q
    if best >= 0 and G.enemy[best] <= 0.0:
        return best
    if full >= 0:
        return full
    return best


@njit(cache=True)
def destiny_discard_pick(G, T, p, q):
    """[S-10] The card q loses to p's "discard a card from each other player": -1 for a
    random card from q's hand, else the slot of q's card in play p picks (q holds at least
    one card). A scored bot takes an enemy's card in play (not its Jail or Dynamite), frees
    a friend from Jail or Dynamite, and otherwise takes from the hand."""
    h = G.hand_n[q]
    m = G.table_n[q]
    w = G.w[p]
    fill_enemy(G, w, p)
    stuck = -1  # a burden in front of q (a Jail or Dynamite)
    other = -1
    for s in range(m):
        if FX_BURDEN[T.card_effect[G.table[q, s]]]:
            stuck = s
        elif other < 0:
            other = s
    if G.enemy[q] > w[P_ENEMY_MIN] and other >= 0:
        return other
    if G.enemy[q] < 0.0 and stuck >= 0:
        return stuck
    if h > 0:
        return -1
    return other if other >= 0 else stuck


@njit(cache=True)
def aoe_net(G, w, p):
    """Enemies minus friends among the other living players (the leader counts triple);
    reads G.enemy (fill_enemy)."""
    net = 0.0
    for q in range(G.s[S_N]):
        if q == p or G.alive[q] == 0:
            continue
        s = G.enemy[q]
        if s > w[P_ENEMY_MIN]:
            net += 1.0
        elif s < 0.0:
            net -= 3.0 if q == 0 else 1.0
    return net


@njit(cache=True, inline="always")
def aoe_spares_leader(G, w, p):
    """Does p hold back a hit on every other player, the leader at `aoe_spare_leader` life or
    less, since his death beats p's side (a deputy; a renegade while others live too)?"""
    if p == 0 or G.life[0] > w[P_AOE_SPARE_LEADER]:
        return False
    r = G.role[p]
    return r == R_DEPUTY or (r == R_RENEGADE and n_alive(G) > 2)


@njit(cache=True)
def destiny_bonus(G, T, w, p, f, tgt):
    """What Encounter with Destiny f adds to a play worth playing on tgt (copies of a card
    differ only in it): a hit on every other player only while it hits enough more enemies
    than friends (never played otherwise); every other player discarding, by the same
    count; a card taken, a card drawn, a friend healed. Reads G.enemy (fill_enemy)."""
    if f == D_HIT_ALL:
        if aoe_spares_leader(G, w, p):
            return -1e9
        net = aoe_net(G, w, p)
        return net - 1.0 if net >= w[P_AOE_MIN_NET] else -1e9
    if f == D_OTHERS_DISCARD:
        return 0.5 * aoe_net(G, w, p)
    if f == D_TAKE:
        return 2.0 if G.hand_n[tgt] + G.table_n[tgt] > 0 else 0.0
    if f == D_DRAW:
        return 1.0
    if f == D_OTHER_GAINS:
        return 0.5
    return 0.0


@njit(cache=True, inline="always")
def scoring_inputs(G, T, w, p):
    """What every play's score reads besides the play (w: p's parameters): G.enemy filled
    (fill_enemy), and whether a Beer heals and p's reach, returned."""
    fill_enemy(G, w, p)
    return n_alive(G) >= T.rules[RU_BEER_MIN_PLAYERS], reach(G, T, p)


@njit(cache=True, inline="always")
def play_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach):
    """Desirability of playing hand card i of p (-1: Sid Ketchum's ability) as effect e (a
    Missed! shot as Calamity Janet's BANG! is E_BANG) on tgt with option opt; the bot plays
    the first best legal play while its score is positive. Reads G.enemy and beer_works,
    my_reach (scoring_inputs). [S-06] At 2 life or less a copy's Encounter with Destiny adds
    destiny_bonus."""
    s = base_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach)
    if s <= 0.0 or i < 0 or G.life[p] > 2:
        return s
    c = G.hand[p, i]
    f = T.card_destiny[c]
    if f == 0 or T.card_effect[c] == E_MISSED:  # [S-07] no destiny on a swapped Missed!
        return s
    return s + destiny_bonus(G, T, w, p, f, tgt)


@njit(cache=True, inline="always")
def action_effect(G, T, p, k):
    """(hand index, effect) of legal play k (G.act_*): -1, -1 for an ability's."""
    i = G.act_idx[k]
    e = -1
    if i >= 0:
        e = T.card_effect[G.hand[p, i]]
        if e == E_MISSED:  # Calamity Janet shooting a Missed! as a BANG!
            e = E_BANG
    return i, e


@njit(cache=True, inline="always")
def score_action(G, T, w, p, k, beer_works, my_reach):
    """play_score of legal play k (G.act_*)."""
    i, e = action_effect(G, T, p, k)
    return play_score(G, T, w, p, i, e, G.act_tgt[k], G.act_opt[k], beer_works, my_reach)


@njit(cache=True, inline="always")
def holds_volcanic(G, T, w, p):
    """A Volcanic in play and `hold_volcanic` BANG!s in hand, or still one once the turn's
    shooting began: a longer gun waits until they are fired (or none reaches)."""
    if not in_play_has(G, p, E_VOLCANIC):
        return False
    bangs = count_playable_as(G, T, p, E_BANG)
    return bangs >= w[P_HOLD_VOLCANIC] or (G.s[S_BANGS] > 0 and bangs > 0)


@njit(cache=True, inline="always")
def base_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach):
    """play_score without Encounter with Destiny."""
    missing = G.max_life[p] - G.life[p]
    if i < 0:  # Sid Ketchum's ability: only with cards to spare
        return 10.0 if missing > 0 and G.hand_n[p] - 2 >= G.life[p] else -1.0
    c = G.hand[p, i]
    if FX_AIM[e] < AIM_REACH:  # played on no chosen player (the listing knows which)
        if e == E_DRAW:
            return 100.0
        if FX_PLACE[e] == PL_IN_PLAY:  # Barrel, Mustang, Scope
            return 50.0
        if e == E_WEAPON:
            r = T.card_value[c]
            if r > my_reach and w[P_HOLD_VOLCANIC] > 0 and holds_volcanic(G, T, w, p):
                return 10.0 + r  # below any BANG!: fire them with the Volcanic first
            return 45.0 + r if r > my_reach else -1.0
        if e == E_VOLCANIC:
            bangs = count_in_hand(G, T, p, E_BANG)
            return 30.0 if my_reach <= 1 and bangs >= w[P_VOLCANIC_BANGS] else -1.0
        if e == E_HEAL:
            if (
                not beer_works and T.card_flags[c] & CF_BEER
            ) or missing == 0:  # a Whisky still works
                return -1.0
            if G.hand_n[p] > G.life[p]:
                return 60.0  # drink rather than discard
            if missing >= w[P_HEAL_MISSING]:
                if G.life[p] <= 2 or count_in_hand(G, T, p, E_HEAL) > w[P_KEEP_HEAL]:
                    return 60.0
            return -1.0
        if e == E_HEAL_ALL:
            return 55.0 if missing > 0 else -1.0
        if e == E_GENERAL_STORE:
            return w[P_STORE_PLAY] if w[P_STORE_PLAY] > 0 else -1.0
        if e == E_NEW_HOPE:  # it heals whoever passes its check first; it starts with you
            return 15.0
        if e == E_DYNAMITE:
            if G.role[p] != R_OUTLAW and w[P_DYNAMITE_LAW] < 0.5:
                return -1.0  # a Dynamite going round hurts the side defending a leader
            return 20.0 if G.life[p] >= w[P_DYNAMITE_MIN_LIFE] else -1.0
        if e == E_GATLING or e == E_INDIANS:
            if aoe_spares_leader(G, w, p):
                return -1.0
            net = aoe_net(G, w, p)
            return 35.0 + net if net >= w[P_AOE_MIN_NET] else -1.0
    if e == E_HEAL_ANY:
        if tgt == p:
            return 56.0 if missing > 0 else -1.0
        hurt = G.max_life[tgt] - G.life[tgt]
        return 50.0 if hurt > 0 and G.enemy[tgt] < 0.0 else -1.0
    s = G.enemy[tgt]  # yourself too (rules.self_target_effects): -100, so never chosen
    picks = FX_PICKS[e]
    if picks and tgt != p and s < 0.0 and opt >= 0:
        if FX_BURDEN[T.card_effect[G.table[tgt, opt]]] and w[P_FREE_FRIEND] > 0:
            return w[P_FREE_FRIEND]  # free a friend from Jail or Dynamite
    if picks and tgt != p and opt >= 0 and w[P_DYNAMITE_AWAY] > 0:
        if T.card_effect[G.table[tgt, opt]] == E_DYNAMITE and next_alive(G, tgt) == p:
            return w[P_DYNAMITE_AWAY]  # the Dynamite would pass to p next
    if s <= w[P_ENEMY_MIN]:
        return -1.0
    low = w[P_FOCUS] / G.life[tgt]
    if FX_PLACE[e] == PL_IN_FRONT:  # Jail
        if G.life[tgt] <= w[P_JAIL_AFTER_BANG] and count_playable_as(G, T, p, E_BANG) > 0:
            return 20.0 + s  # below a BANG!: a shot that kills him wastes no Jail
        return 42.0 + s
    if picks:
        bonus = 0.0
        if opt >= 0:
            te = T.card_effect[G.table[tgt, opt]]
            if FX_BURDEN[te]:
                return -1.0  # leave an enemy's Jail and Dynamite where they are
            bonus = 10.0
            if w[P_TAKE_VALUE] != 0.0:  # the card in play the bot values most, not the oldest
                bonus += w[P_TAKE_VALUE] * w[P_VALUE + te]
            if w[P_TAKE_COVER] != 0.0 and (te == E_BARREL or te == E_MUSTANG):
                bonus += w[P_TAKE_COVER]  # his cover first: he is easier to hit without it
        return 40.0 + s + bonus
    if e == E_DUEL:
        if count_playable_as(G, T, p, E_BANG) < w[P_DUEL_MIN_BANGS]:
            return -1.0
        return 30.0 + s + low
    if e == E_BANG and G.s[S_BANGS] > 0:  # Volcanic, Willy the Kid: keep some to answer with
        if count_playable_as(G, T, p, E_BANG) <= w[P_KEEP_BANGS]:
            return -1.0
    if e == E_BANG or e == E_BANG_ANY:
        return 25.0 + s + low
    return -1.0


@njit(cache=True)
def choose_action(G, T, p, n):
    """Index of the legal play p makes next among the n listed, or -1 to end the play
    phase: legal_actions' pick when it scored while listing (S_CHOICE), else the first best
    by score_action (the same pick)."""
    k = G.s[S_CHOICE]
    if k != NOT_CHOSEN:
        G.s[S_CHOICE] = NOT_CHOSEN
        return k
    w = G.w[p]
    beer_works, my_reach = scoring_inputs(G, T, w, p)
    best = -1
    best_s = 0.0
    for k in range(n):
        s = score_action(G, T, w, p, k, beer_works, my_reach)
        if s > best_s:
            best_s = s
            best = k
    return best


@njit(cache=True)
def tempered_repeats(G, T, p, c, tgt):
    """Tempered: discard a BANG! card to repeat brown card c (just played on tgt)? A scored
    bot repeats what still helps: another hit, steal, discard or Duel on an enemy, a draw,
    a heal while hurt, an area card that still hits more enemies than friends."""
    w = G.w[p]
    if w[P_TEMPERED] < 0.5:
        return False
    e = T.card_effect[c]
    if e == E_DRAW:
        return True
    missing = G.max_life[p] - G.life[p]
    if e == E_HEAL:
        if T.card_flags[c] & CF_BEER and n_alive(G) < T.rules[RU_BEER_MIN_PLAYERS]:
            return False
        return missing > 0
    if e == E_HEAL_ALL:
        return missing > 0
    fill_enemy(G, w, p)
    if e == E_HEAL_ANY:
        return G.max_life[tgt] > G.life[tgt] and (tgt == p or G.enemy[tgt] < 0.0)
    if e == E_GATLING or e == E_INDIANS:
        return not aoe_spares_leader(G, w, p) and aoe_net(G, w, p) >= w[P_AOE_MIN_NET]
    if e == E_BANG or e == E_BANG_ANY or FX_PICKS[e]:
        return G.enemy[tgt] > w[P_ENEMY_MIN]
    if e == E_DUEL:  # the BANG! discarded is one fewer to answer the Duel with
        return (
            G.enemy[tgt] > w[P_ENEMY_MIN]
            and count_playable_as(G, T, p, E_BANG) - 1 >= w[P_DUEL_MIN_BANGS]
        )
    return False


@njit(cache=True)
def cancel_hit(G, p):
    """Cancel a BANG! effect with Missed! cards (held in sufficient number)? A scored bot
    takes the hit instead only above `take_hits_above` life."""
    return G.life[p] <= G.w[p, P_TAKE_HITS_ABOVE]


@njit(cache=True)
def answer_with_bang(G, T, p):
    """Discard a BANG! to a Duel or Indians! rather than lose a life? A scored bot does when
    holding `answer_min_bangs` BANG!s or more, and always at 1 life."""
    if G.life[p] <= 1:
        return True
    return count_playable_as(G, T, p, E_BANG) >= G.w[p, P_ANSWER_MIN_BANGS]


@njit(cache=True)
def pick_from(G, T, p, cards, n):
    """Index in cards[:n] p takes (General Store): the most valuable."""
    w = G.w[p]
    best = 0
    best_v = -1e18
    for i in range(n):
        v = card_value(G, T, w, p, cards[i], 0)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True)
def put_back(G, T, p, cards, n):
    """Index in cards[:n] p puts back on the deck having drawn one more (draw_three_keep_two):
    the least valuable, an attack card worth `kit_deny` more when the next player (who
    draws it) is an enemy."""
    w = G.w[p]
    deny = 0.0
    if w[P_KIT_DENY] != 0.0:
        fill_enemy(G, w, p)
        if G.enemy[next_alive(G, p)] > w[P_ENEMY_MIN]:
            deny = w[P_KIT_DENY]
    worst = 0
    worst_v = 1e18
    for i in range(n):
        v = card_value(G, T, w, p, cards[i], 0)
        if deny != 0.0 and FX_ATTACK[T.card_effect[cards[i]]]:  # what an enemy plays on you
            v += deny
        if v < worst_v:
            worst_v = v
            worst = i
    return worst


@njit(cache=True)
def draw_source(G, p):
    """The player p draws his first card from (draw_from_player), or -1 for the deck: the
    enemy with the most cards in hand."""
    n = G.s[S_N]
    w = G.w[p]
    fill_enemy(G, w, p)
    best = -1
    best_n = 0
    for q in range(n):
        if q != p and G.alive[q] and G.hand_n[q] > best_n and G.enemy[q] > w[P_ENEMY_MIN]:
            best_n = G.hand_n[q]
            best = q
    return best


@njit(cache=True)
def takes_discard_top(G, T, p, top):
    """Take the discard pile's top card `top` instead of drawing (draw_from_discard)? When
    it is worth `pedro_min_value` or more."""
    w = G.w[p]
    return card_value(G, T, w, p, top, 0) >= w[P_PEDRO_MIN_VALUE]
