"""The seam between the rules and the bots: every decision the rules ask of a seat, named by
what it decides, handed to that seat's kind of bot.

The kernel (simcore.engine.kernel) asks its questions here and nowhere else. A seat's kind
comes from its parameter vector: `random` (P_RANDOM) chooses uniformly among what the rules
allow (strategies.uniform); any other seat plays the scored policy over its parameters
(strategies.policy), a seat with `learned` (P_LEARNED) its plays scored anew by a learned
table (strategies.learned: `strong`). A new kind of bot is a module of its own and a branch in the functions
here; no kernel function changes. While it lists a seat's legal plays the kernel scores
them for a bot that `scores_while_listing` (listing_inputs, listing_score), one pass instead
of a listing and a second pass to score it; choose_action then returns that pick.
"""

from simcore.engine.jit import njit
from strategies import learned, policy, uniform
from strategies.params import P_RANDOM


@njit(cache=True, inline="always")
def is_random(G, p):
    return G.w[p, P_RANDOM] > 0.5


# --- the play phase ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def scores_while_listing(G, p):
    """Does p's bot score each legal play as the kernel lists it (listing_score)?"""
    return not is_random(G, p)


@njit(cache=True, inline="always")
def listing_inputs(G, T, w, p):
    """What every play's score reads besides the play, once per listing (w: p's parameters)."""
    if learned.is_learned(w):
        learned.prepare(G, T, p)
    return policy.scoring_inputs(G, T, w, p)


@njit(cache=True, inline="always")
def listing_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach):
    """The score of playing hand card i (-1: the discard_two_heal ability) as effect e on
    tgt with option opt: the first best play above 0 is played. A learned seat corrects the
    scored policy's score by its table (strategies.learned)."""
    s = policy.play_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach)
    if learned.is_learned(w):
        return learned.play_score(G, T, w, p, i, e, tgt, opt, s)
    return s


@njit(cache=True)
def play_context(G, T, p, k, out):
    """What a learned table reads of p's legal play k (G.act_*): params.CONTEXT into out;
    returns the table's row for it (strategies.learned.slot_of). A teacher labels plays so."""
    w = G.w[p]
    beer_works, my_reach = policy.scoring_inputs(G, T, w, p)
    learned.prepare(G, T, p)
    i, e = policy.action_effect(G, T, p, k)
    tgt = G.act_tgt[k]
    opt = G.act_opt[k]
    s = policy.play_score(G, T, w, p, i, e, tgt, opt, beer_works, my_reach)
    learned.context(G, T, w, p, i, e, tgt, opt, s)
    out[:] = G.ctx
    return learned.slot_of(i, e)


@njit(cache=True, inline="always")
def choose_action(G, T, p, n):
    """The legal play (G.act_*) p makes next among the n listed, or -1 to end the phase."""
    if is_random(G, p):
        return uniform.choose_action(G, n)
    if learned.is_learned(G.w[p]):
        return learned.choose_action(G, T, p, n)
    return policy.choose_action(G, T, p, n)


@njit(cache=True, inline="always")
def card_to_discard(G, T, p, skip):
    """The hand card p discards (down to life, or paying a card's cost), never index skip."""
    if is_random(G, p):
        return uniform.card_to_discard(G, p, skip)
    return policy.lowest_value_card(G, T, p, skip)


@njit(cache=True, inline="always")
def repeats_card(G, T, p, c, tgt):
    """Discard a BANG! card to play brown card c (just played on tgt) again (tempered)?"""
    if is_random(G, p):
        return uniform.yes_or_no(G)
    return policy.tempered_repeats(G, T, p, c, tgt)


# --- answers ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def cancel_hit(G, p):
    """Cancel a BANG! effect with the Missed! cards it needs (held), or take the hit?"""
    if is_random(G, p):
        return uniform.yes_or_no(G)
    return policy.cancel_hit(G, p)


@njit(cache=True, inline="always")
def answer_with_bang(G, T, p):
    """Discard a BANG! to a Duel or Indians! rather than lose a life?"""
    if is_random(G, p):
        return uniform.yes_or_no(G)
    return policy.answer_with_bang(G, T, p)


@njit(cache=True, inline="always")
def saves_life(G, p):
    """At a lethal hit: drink a Beer, or discard two cards for a life (discard_two_heal)?
    A scored bot always does."""
    if is_random(G, p):
        return uniform.yes_or_no(G)
    return True


# --- picks ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def pick_from(G, T, p, cards, n):
    """The card among cards[:n] p takes (General Store)."""
    if is_random(G, p):
        return uniform.one_of(G, n)
    return policy.pick_from(G, T, p, cards, n)


@njit(cache=True, inline="always")
def put_back(G, T, p, cards, n):
    """The card among cards[:n] drawn p puts back on the deck (draw_three_keep_two)."""
    if is_random(G, p):
        return uniform.one_of(G, n)
    return policy.put_back(G, T, p, cards, n)


@njit(cache=True, inline="always")
def draw_source(G, p):
    """The player p draws his first card from (draw_from_player), or -1 for the deck."""
    if is_random(G, p):
        return uniform.draw_source(G, p)
    return policy.draw_source(G, p)


@njit(cache=True, inline="always")
def takes_discard_top(G, T, p, top):
    """Take the discard pile's top card instead of drawing (draw_from_discard)?"""
    if is_random(G, p):
        return uniform.yes_or_no(G)
    return policy.takes_discard_top(G, T, p, top)


@njit(cache=True, inline="always")
def destiny_discard_pick(G, T, p, q):
    """[S-10] The card q loses to p's "each other player discards": -1 for a random card
    from q's hand, else the slot of the card in play p picks (q holds at least one)."""
    if is_random(G, p):
        return uniform.card_given_up(G, q)
    return policy.destiny_discard_pick(G, T, p, q)


@njit(cache=True, inline="always")
def destiny_friend(G, p):
    """[S-16] The player p's Encounter with Destiny gives +1 life, or -1 for none."""
    return policy.destiny_friend(G, p)
