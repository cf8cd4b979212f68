"""One game's state as fixed-shape arrays in one numpy record, which njit code mutates.

Card piles hold physical card ids (0..n_cards-1) and -1 where empty. Seat 0 is the leader;
seats go clockwise. `s` holds the scalars, indexed by the S_* constants below.
"""

from types import SimpleNamespace

import numpy as np
from numba import config

from simcore.engine.limits import MAX_ACTIONS, MAX_CARD_NAMES, MAX_CARDS, MAX_PLAYERS, MAX_TABLE
from simcore.engine.vocab import N_EFFECTS
from strategies.params import N_CTX, N_PARAMS

# indices into State.s
S_N = 0  # players at the table
S_NC = 1  # physical cards in the deck
S_CUR = 2  # seat whose turn it is
S_TURN = 3  # turns played
S_OVER = 4  # 1 once the game has ended
S_WINNER = 5  # vocab.W_* once over
S_BANGS = 6  # BANG! cards played this turn
S_DECK_N = 7  # cards in the draw pile
S_DISC_N = 8  # cards in the discard pile
S_ERR = 9  # checked mode: first invariant broken (ERR_*), 0 when none
S_CHECKED = 10  # 1: assert invariants after every action
S_CAPPED = 11  # 1: ended by the turn cap
S_TURN_ACTIONS = 12  # plays made this turn
S_TEMPERED = 13  # 1 once a `tempered` player has repeated a card this turn
S_ROUNDS = 14  # rounds begun: turns the leader has started (the game ends with his death)
S_DEFER = 15  # 1 while a card's two effects resolve: hand_emptied waits ([S-06])
S_FEATURED = 16  # the featured character's seat (setup_game's `feature`), -1 for none
# what distances and reach depend on changes (a card put in play or taken from it, a player
# eliminated): kernel.distances_and_reach keeps G.dist while this stays
S_LAYOUT = 17
S_DIST_FOR = 18  # (S_LAYOUT << 3) + seat + 1 of the distances in G.dist; 0: none
S_ALIVE_N = 19  # players alive
S_RECORD = 20  # changes of the public record and the private beliefs (kernel.record)
# policy.fill_enemy keeps G.enemy while its inputs stay: for seat p = S_ENEMY_FOR - 1 (0:
# none), at the others' record and the living, (S_RECORD - acted[p]) * 8 + S_ALIVE_N =
# S_ENEMY_VER, and (for a renegade) the leader's life S_ENEMY_LIFE0
S_ENEMY_FOR = 21
S_ENEMY_VER = 22
S_ENEMY_LIFE0 = 23
S_QUIET = 24  # 1: no one reads the event counts, whose pile shares are then not computed
# a seat that searches (simcore.engine.search): kernel.take_turn pauses at its decisions
S_SEARCH = 25  # bit q: seat q pauses at its decisions of the kinds in S_SEARCH_KINDS
S_SEARCH_KINDS = 26  # bits SK_* below
S_PHASE = 27  # where the turn under way stands (PH_*), so that a paused turn resumes there
S_PAUSED = 28  # 1: play_on returned at a searching seat's decision (S_OPTIONS options)
S_FORCE = 29  # the option the resumed decision takes (0: none); an option is a code:
# in the play phase 1 stops and k + 2 plays legal action k; in the discard phase i + 2
# discards hand card i; in Kit Carlson's put-back j + 2 puts back drawn card j
S_BASE = 30  # at a pause: the option the seat's own strategy took
S_OPTIONS = 31  # at a pause: the legal actions in the play phase (codes 1 .. n + 1); the
# cards drawn (the last in hand, codes 2 .. n + 1) in Kit Carlson's put-back
S_DECISIONS = 32  # pauses so far (a searched decision's number)
# kernel.legal_actions' pick when it scored the plays while listing them (choose_action
# returns it), NOT_CHOSEN when it only listed them
S_CHOICE = 33
# strategies.learned.prepare keeps G.marg while what it reads stays: this key of the seat,
# its role, the others' record and the living (0: none kept)
S_MARG_FOR = 34
N_S = 35
NOT_CHOSEN = -2
PH_START = 0  # the turn has not begun (or is over)
PH_PLAY = 1  # drawn: playing cards
PH_DISCARD = 2  # discarding down to life
PH_PUTBACK = 3  # Kit Carlson drew his cards (held in hand while paused): one goes back
# the decision kinds a searching seat searches (simcore.engine.search.option_kinds): bit k
# of S_SEARCH_KINDS. A play-phase option other than BASE's choice is an alternative of a
# kind by what the two differ in; searching a kind searches BASE's choice and its
# alternatives of that kind only
SK_PLAY = 1  # the whole play phase: which card on whom, with which option, or stop
SK_DISCARD = 2  # the discards down to life, one card at a time
SK_TARGET = 4  # the card BASE plays, on another target
SK_STOP = 8  # stop or play: stopping where BASE plays, any play where BASE stops
SK_BEER = 16  # a Beer (a heal for oneself: `heal`) played where BASE plays none, or the reverse
SK_DUEL = 32  # a Duel played where BASE plays none, or the reverse
SK_AREA = 64  # Gatling or Indians! played where BASE plays neither, or the reverse
SK_TAKE = 128  # the Panic!/Cat Balou BASE plays on its target, taking another card
SK_PUTBACK = 256  # Kit Carlson's put-back: which card drawn goes back on the deck
N_SK = 9  # kinds (bits)
SK_PLAY_KINDS = SK_PLAY | SK_TARGET | SK_STOP | SK_BEER | SK_DUEL | SK_AREA | SK_TAKE
QUIET = 2  # kernel.setup_game's `checked` flag for S_QUIET (1 is checked mode)

# event counts kept per game in State.ev (simcore.engine.events names them): for each "draw!" kind
# k (the bit order of vocab.CHK_*: barrel, jail, dynamite, draw_extra, new_hope), at
# EV_CHECK + 5 k: checks made, checks passed, cards revealed, revealed cards passing, and
# the passing cards expected from the piles they came from, in millionths (kernel.pile_share)
EV_CHECK = 0
N_CHECK_KINDS = 5
EV_DMG = 25  # life lost, by what hurt: + vocab.DMG_* (an effect's `dmg` trait), 6 kinds
EV_BEERS_AT_LETHAL = 31  # Beers drunk at a lethal hit
EV_BEER_SAVES = 32  # lethal hits survived thanks to Beers
EV_BEERS_TWO_LEFT = 33  # Beers played with two players left
EV_BEERS_TWO_LEFT_HEALED = 34  # ... that raised a life total (a correct engine: never)
EV_STOLEN = 35  # cards taken from another player's hand or play
EV_DISCARDED_BY_OTHERS = 36  # cards a player lost to another's discard effect
EV_LETHAL_TWO_LEFT_BEER = 37  # lethal hits taken with two players left, a Beer in hand
EV_BEERS_TWO_LEFT_AT_LETHAL = 38  # ... Beers drunk at such a hit (a correct engine: never)
# the leader's elimination, by the role of who caused it (+ vocab.R_*; R_LEADER: no one, as
# a Dynamite's): how a game the leader lost ended
EV_LEADER_KILLED = 39
N_EV = 43
# State.used[p, name index]: cards of that name seat p played, or used to answer (a Missed!,
# a Beer at a lethal hit, a BANG! answering a Duel or Indians!)

# invariant violations reported in checked mode
ERR_CARDS = 1  # a card is missing or in two places
ERR_LIFE = 2  # life outside 0..max
ERR_DEAD_HOLDS = 3  # an eliminated player holds cards
ERR_WINNER = 4  # an ended game without exactly one winning side
ERR_ILLEGAL = 6  # a strategy chose an action outside the legal list
ERR_IN_PLAY = 7  # State.far, near, gun, named or kinds other than what the cards in play give
ERR_HELD = 8  # State.held other than what the hands hold
ERRORS = {
    ERR_CARDS: "card conservation broken",
    ERR_LIFE: "life outside 0..max",
    ERR_DEAD_HOLDS: "an eliminated player holds cards",
    ERR_WINNER: "ended game without exactly one winning side",
    ERR_ILLEGAL: "illegal action chosen",
    ERR_IN_PLAY: "cards-in-play counters out of date",
    ERR_HELD: "cards-in-hand counters out of date",
}


# One game's state as a numpy record: njit code receives it by reference, so passing it to a
# function costs one pointer. Field layout (every field int64 unless noted):
STATE_FIELDS = [
    ("s", np.int64, (N_S,)),  # scalars (S_*)
    ("rng", np.uint64, (2,)),  # stream key, counter
    ("deck", np.int64, (MAX_CARDS,)),  # draw pile, top = deck[s[S_DECK_N] - 1]
    ("disc", np.int64, (MAX_CARDS,)),  # discard pile, top = disc[s[S_DISC_N] - 1]
    ("hand", np.int64, (MAX_PLAYERS, MAX_CARDS)),  # hand[p, :hand_n[p]]
    ("hand_n", np.int64, (MAX_PLAYERS,)),
    ("table", np.int64, (MAX_PLAYERS, MAX_TABLE)),  # cards in play in front of p
    ("table_n", np.int64, (MAX_PLAYERS,)),
    ("life", np.int64, (MAX_PLAYERS,)),
    ("max_life", np.int64, (MAX_PLAYERS,)),
    ("alive", np.int64, (MAX_PLAYERS,)),  # 1 alive, 0 eliminated (the role is then public)
    ("role", np.int64, (MAX_PLAYERS,)),  # vocab.R_*: hidden but the leader's, until eliminated
    ("char", np.int64, (MAX_PLAYERS,)),  # character index in the theme
    ("ability", np.int64, (MAX_PLAYERS,)),  # vocab.A_* of the character
    ("preset", np.int64, (MAX_PLAYERS,)),  # row of the strategy parameter matrix
    # the seat's parameter vector: W[preset[p]], copied at setup (a record field, so reading
    # it costs no reference counting in njit code, as a view of W would)
    ("w", np.float64, (MAX_PLAYERS, N_PARAMS)),
    ("karma", np.float64, (MAX_PLAYERS,)),  # public record: > 0 acted for the leader, < 0 against
    # belief[i, j]: what i alone has seen of j (attacks on i, help to i), same sign as karma
    ("belief", np.float64, (MAX_PLAYERS, MAX_PLAYERS)),
    ("acted", np.int64, (MAX_PLAYERS,)),  # changes of the record each seat made as the actor
    ("dist", np.int64, (MAX_PLAYERS,)),  # scratch: distance from the player choosing a play
    # what p's cards in play do to distances and reach and what they are, kept by
    # kernel.put_in_play and kernel.take_from_table (checked mode checks them): Mustang-likes,
    # Scope-likes, the reach of p's weapon (1 without one), bit k for a card of name k in
    # play (MAX_CARD_NAMES <= 63), bit e for a card of effect e
    ("far", np.int64, (MAX_PLAYERS,)),
    ("near", np.int64, (MAX_PLAYERS,)),
    ("gun", np.int64, (MAX_PLAYERS,)),
    ("named", np.int64, (MAX_PLAYERS,)),
    ("kinds", np.int64, (MAX_PLAYERS,)),
    # held[p, e]: cards of effect e in p's hand, kept by kernel.to_hand and take_from_hand
    # (checked mode checks them); effect_of: the theme's card effects (Tables.card_effect),
    # copied at setup, so that the hand's functions keep the counts without the theme
    ("held", np.int64, (MAX_PLAYERS, N_EFFECTS)),
    ("effect_of", np.int64, (MAX_CARDS,)),
    ("enemy", np.float64, (MAX_PLAYERS,)),  # scratch: the deciding bot's enemy score per seat
    # a learned seat's belief of each seat's role (view.role_marginals; kept: S_MARG_FOR)
    ("marg", np.float64, (MAX_PLAYERS, 4)),
    ("buf", np.int64, (MAX_CARDS,)),  # scratch: General Store, Kit Carlson's look, the deal
    ("ev", np.int64, (N_EV,)),  # event counts (EV_*), zeroed at setup
    ("used", np.int64, (MAX_PLAYERS, MAX_CARD_NAMES)),  # cards used by seat and name
    ("act_idx", np.int64, (MAX_ACTIONS,)),  # legal plays: hand index (-1: ability)
    ("act_tgt", np.int64, (MAX_ACTIONS,)),  # target seat
    ("act_opt", np.int64, (MAX_ACTIONS,)),  # option: card to take (-1 random from hand)
    ("ctx", np.float64, (N_CTX,)),  # a learned seat's context of the play it scores
    ("fac", np.float64, (MAX_PLAYERS,)),  # scratch: view.role_marginals' factor per seat
]
STATE_DTYPE = np.dtype(STATE_FIELDS, align=True)
# The scratch of listing and scoring, last in the record: each is written before anything
# reads it (kernel.legal_actions, a learned seat's scoring), so a copy of a state (simcore.engine.search) takes every field before it, as
# int64 words, and none of it. A field added after it would be left out of copies: refused.
SCRATCH = ("act_idx", "act_tgt", "act_opt", "ctx", "fac")


def copied_words(fields: list[tuple]) -> int:
    """The int64 words a copy of a record of `fields` takes: all before the scratch, which
    must come last."""
    if tuple(f[0] for f in fields[-len(SCRATCH) :]) != SCRATCH:
        raise AssertionError(f"State: the fields {SCRATCH} must come last (a copy's end)")
    return np.dtype(fields, align=True).fields[SCRATCH[0]][1] // 8


COPIED_WORDS = copied_words(STATE_FIELDS)


class PlainRecords(np.recarray):
    """Records for the kernel run as plain Python (NUMBA_DISABLE_JIT=1): records[i] is a
    namespace of the record's fields, each the field's array (a view of the same memory),
    so a field read is an attribute lookup rather than numpy's record lookup, which made
    plain-Python games (traces, the checked tests) several times slower."""

    def __getitem__(self, index):
        row = super().__getitem__(index)
        if not isinstance(row, np.record):
            return row
        return SimpleNamespace(**{name: row[name] for name in self.dtype.names})


def records(n: int, dtype: np.dtype) -> np.recarray:
    """n zeroed records of `dtype`: a record array, or PlainRecords under plain Python."""
    return np.zeros(n, dtype).view(PlainRecords if config.DISABLE_JIT else np.recarray)


def new_states(n: int) -> np.recarray:
    """n zeroed game states (one per parallel work item); states[i] is a State record
    (or, under plain Python, its fields' namespace: PlainRecords)."""
    return records(n, STATE_DTYPE)
