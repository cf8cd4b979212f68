"""The kernel's vocabulary: small integers for effects, abilities, checks, roles, rules.

Names live only in theme files, the loader and reports; the kernel branches on these codes.
`EFFECTS`, `ABILITIES`, `CHECKS` and `RULES` map the names a theme file may use to codes.
"""

from typing import NamedTuple

import numpy as np

# --- card effects -----------------------------------------------------------------
E_NONE = 0
E_BANG = 1  # BANG!: a BANG! effect on one player within reach; a BANG! card
E_MISSED = 2  # Missed!: cancels a BANG! effect
E_HEAL = 3  # Beer / Whisky: +value life; a Beer (CF_BEER) is also playable at a lethal hit
E_HEAL_ALL = 4  # Saloon: every living player +1
E_DRAW = 5  # Stagecoach / Wells Fargo: draw `value` cards
E_STEAL = 6  # Panic!: take a card from a player at distance <= value
E_DISCARD_ANY = 7  # Cat Balou: any player discards a card
E_GENERAL_STORE = 8
E_DUEL = 9
E_GATLING = 10
E_INDIANS = 11
E_BARREL = 12  # blue
E_SCOPE = 13  # blue
E_MUSTANG = 14  # blue
E_JAIL = 15  # blue, played in front of another player
E_DYNAMITE = 16  # blue
E_WEAPON = 17  # blue, reach = value
E_VOLCANIC = 18  # blue, reach = value, any number of BANG! cards
E_BANG_ANY = 19  # Springfield: a BANG! effect on any player, any distance; not a BANG! card
E_HEAL_ANY = 20  # Tequila: any one player, you included, +value life
E_NEW_HOPE = 21  # blue, A New Hope: passes like the Dynamite; on its check +rules.new_hope_heal
N_EFFECTS = 22

EFFECTS = {
    "bang": E_BANG,
    "missed": E_MISSED,
    "heal": E_HEAL,
    "heal_all": E_HEAL_ALL,
    "draw": E_DRAW,
    "steal": E_STEAL,
    "discard_any": E_DISCARD_ANY,
    "general_store": E_GENERAL_STORE,
    "duel": E_DUEL,
    "gatling": E_GATLING,
    "indians": E_INDIANS,
    "barrel": E_BARREL,
    "scope": E_SCOPE,
    "mustang": E_MUSTANG,
    "jail": E_JAIL,
    "dynamite": E_DYNAMITE,
    "weapon": E_WEAPON,
    "volcanic": E_VOLCANIC,
    "bang_any": E_BANG_ANY,
    "heal_any": E_HEAL_ANY,
    "new_hope": E_NEW_HOPE,
}

# --- "draw!" checks: one bit per predicate in each card's check mask ------------------
CHK_BARREL = 1  # the Barrel (and Jourdonnais) cancels a BANG! effect
CHK_JAIL = 2  # the jailed player escapes
CHK_DYNAMITE = 4  # the Dynamite explodes
CHK_DRAW_EXTRA = 8  # Black Jack draws one more card
CHK_NEW_HOPE = 16  # A New Hope comes to your aid
CHECKS = {
    "barrel": CHK_BARREL,
    "jail": CHK_JAIL,
    "dynamite": CHK_DYNAMITE,
    "draw_extra": CHK_DRAW_EXTRA,
    "new_hope": CHK_NEW_HOPE,
}

# --- effect traits: what each effect does, as data ------------------------------------
# The kernel, the bots, the referee, the search and the tracer read these traits instead of
# naming effects: FX_* (below) hold them per effect code (constants of the compiled kernel),
# Tables.card_aim and card_draws per card (a theme's own effects, theme.py `[[effects]]`,
# change those two).

# where a played card goes
PL_DISCARD = 0  # resolved, then discarded (brown-bordered) [C-12]
PL_IN_PLAY = 1  # in front of its player (blue-bordered) [C-10]
PL_WEAPON = 2  # in front of its player, replacing the weapon there [C-11]
PL_PASSING = 3  # in front of its player, passed on after its check (Dynamite, A New Hope)
PL_IN_FRONT = 4  # in front of the player it aims at (Jail) [C-12]
PLACES = {
    "discard": PL_DISCARD,
    "in_play": PL_IN_PLAY,
    "weapon": PL_WEAPON,
    "passing": PL_PASSING,
    "in_front": PL_IN_FRONT,
}

# whom it aims at
AIM_NONE = 0  # nobody: not played on its own (Missed!: only against a hit)
AIM_SELF = 1  # no one chosen: its player
AIM_EVERY_OTHER = 2  # every other player, clockwise from its player (Gatling, Indians!)
AIM_REACH = 3  # one other player within its player's reach [C-15]
AIM_RANGE = 4  # one other player at a distance of at most the card's value (Panic!)
AIM_ANY_OTHER = 5  # any one other player, at any distance
AIM_ANY = 6  # any one player, its player included
AIMS = {
    "none": AIM_NONE,
    "self": AIM_SELF,
    "every_other": AIM_EVERY_OTHER,
    "reach": AIM_REACH,
    "range": AIM_RANGE,
    "any_other": AIM_ANY_OTHER,
    "any": AIM_ANY,
}
# aims that name one chosen player: the play's target, and a record of who did what to whom
CHOSEN_AIMS = frozenset({AIM_REACH, AIM_RANGE, AIM_ANY_OTHER, AIM_ANY})

# the hit it deals, by what cancels it
HIT_NONE = 0
HIT_MISSED = 1  # a BANG! effect: a Barrel's draw!, then Missed! cards cancel it [C-17]
HIT_BANG = 2  # answered by discarding a BANG! card, else 1 life lost (Duel, Indians!)

# life lost, by what hurt: State.ev[EV_DMG + DMG_*] (an effect's `dmg` trait)
DMG_BANG = 0  # BANG! cards and other BANG! effects (Springfield, destiny hits)
DMG_DUEL = 1
DMG_GATLING = 2
DMG_INDIANS = 3
DMG_DYNAMITE = 4
DMG_OTHER = 5  # anything else (a Missed!'s destiny hitting back)


class Traits(NamedTuple):
    place: int  # PL_*: where the card goes when played
    aim: int  # AIM_*: whom it aims at (a theme's own effect may change it)
    hit: int = HIT_NONE  # HIT_*: the hit it deals to whom it aims at
    bang_card: bool = False  # a BANG! card: bang_limit per turn, answers a Duel or Indians!
    cancels: bool = False  # cancels a BANG! effect aimed at its player (a Missed! card)
    attack: bool = False  # hurts whom it aims at: an attack on the public record
    picks: bool = False  # takes or discards one of the target's cards, from hand or play
    burden: bool = False  # in play, it hurts the player it is in front of (Jail, Dynamite)
    check: int = 0  # CHK_* bit of the draw! it makes in play (0: none)
    tempered: bool = False  # a `tempered` player may repeat it [S-37]: red-bordered ones
    dmg: int = DMG_OTHER  # DMG_*: the kind of the life it takes
    draws: int = 0  # cards its player draws after using it (a theme's own effect may set it)


_BROWN_HIT = dict(attack=True, tempered=True, dmg=DMG_BANG)
EFFECT_TRAITS = {
    E_NONE: Traits(PL_DISCARD, AIM_NONE),
    E_BANG: Traits(PL_DISCARD, AIM_REACH, HIT_MISSED, bang_card=True, **_BROWN_HIT),
    E_MISSED: Traits(PL_DISCARD, AIM_NONE, cancels=True),
    E_HEAL: Traits(PL_DISCARD, AIM_SELF, tempered=True),
    E_HEAL_ALL: Traits(PL_DISCARD, AIM_SELF, tempered=True),
    E_DRAW: Traits(PL_DISCARD, AIM_SELF, tempered=True),
    E_STEAL: Traits(PL_DISCARD, AIM_RANGE, attack=True, picks=True, tempered=True),
    E_DISCARD_ANY: Traits(PL_DISCARD, AIM_ANY_OTHER, attack=True, picks=True, tempered=True),
    E_GENERAL_STORE: Traits(PL_DISCARD, AIM_SELF, tempered=True),
    E_DUEL: Traits(PL_DISCARD, AIM_ANY_OTHER, HIT_BANG, attack=True, tempered=True, dmg=DMG_DUEL),
    E_GATLING: Traits(
        PL_DISCARD, AIM_EVERY_OTHER, HIT_MISSED, attack=True, tempered=True, dmg=DMG_GATLING
    ),
    E_INDIANS: Traits(
        PL_DISCARD, AIM_EVERY_OTHER, HIT_BANG, attack=True, tempered=True, dmg=DMG_INDIANS
    ),
    E_BARREL: Traits(PL_IN_PLAY, AIM_SELF, check=CHK_BARREL),
    E_SCOPE: Traits(PL_IN_PLAY, AIM_SELF),
    E_MUSTANG: Traits(PL_IN_PLAY, AIM_SELF),
    E_JAIL: Traits(PL_IN_FRONT, AIM_ANY_OTHER, attack=True, burden=True, check=CHK_JAIL),
    E_DYNAMITE: Traits(PL_PASSING, AIM_SELF, burden=True, check=CHK_DYNAMITE, dmg=DMG_DYNAMITE),
    E_WEAPON: Traits(PL_WEAPON, AIM_SELF),
    E_VOLCANIC: Traits(PL_WEAPON, AIM_SELF),
    E_BANG_ANY: Traits(PL_DISCARD, AIM_ANY_OTHER, HIT_MISSED, **_BROWN_HIT),
    E_HEAL_ANY: Traits(PL_DISCARD, AIM_ANY, tempered=True),
    E_NEW_HOPE: Traits(PL_PASSING, AIM_SELF, check=CHK_NEW_HOPE),
}

# The traits as constant arrays the compiled kernel folds in: trait t of effect e is
# FX_<T>[e] (constants, not fields of the tables record, so that writes to the state never
# force them to be read again). A card's own aim and draws (a theme's own effect may change
# them) are Tables.card_aim and Tables.card_draws.


def _trait(name: str) -> np.ndarray:
    return np.array([int(getattr(EFFECT_TRAITS[e], name)) for e in range(N_EFFECTS)], np.int64)


FX_PLACE = _trait("place")
FX_AIM = _trait("aim")
FX_HIT = _trait("hit")
FX_BANG_CARD = _trait("bang_card")
FX_CANCELS = _trait("cancels")
FX_ATTACK = _trait("attack")
FX_PICKS = _trait("picks")
FX_BURDEN = _trait("burden")
FX_TEMPERED = _trait("tempered")
FX_DMG = _trait("dmg")
assert sorted(EFFECT_TRAITS) == list(range(N_EFFECTS))

# blue-bordered effects: they stay in play
BLUE_EFFECTS = frozenset(e for e, t in EFFECT_TRAITS.items() if t.place != PL_DISCARD)
# effects aimed at a chosen player that `rules.self_target_effects` may let a player aim at
# himself: taking or discarding one of his own cards
SELF_TARGETABLE = frozenset(e for e, t in EFFECT_TRAITS.items() if t.picks)
# effects that deal a hit a Missed! cancels: `rules.double_missed_effects` picks among them
HIT_EFFECTS = frozenset(e for e, t in EFFECT_TRAITS.items() if t.hit == HIT_MISSED)
# effects whose `value` is meaningful, with its default
EFFECT_DEFAULT_VALUE = {
    E_HEAL: 1,
    E_HEAL_ANY: 1,
    E_DRAW: 2,
    E_STEAL: 1,
    E_WEAPON: 1,
    E_VOLCANIC: 1,
}

# --- per-card flags: bits of Tables.card_flags -----------------------------------------
# CF_BEER: a `heal` card that is a Beer (the theme key `beer`, default true): playable at a
# lethal hit when it costs nothing, and no effect with fewer than rules.beer_min_players
# alive. Whisky is a heal that is not a Beer.
CF_BEER = 1

# --- Encounter with Destiny: codes of Tables.card_destiny (Star Wars) ------------------
# A card copy's extra effect, applied with the card when its player has 2 life or less at
# the moment it is played (never when discarded instead of played, never on a repeat).
D_NONE = 0
D_DRAW = 1  # bang / missed / heal / draw: draw a card
D_TAKE = 2  # bang: take a card from the target (random from hand, else its first in play)
D_OTHERS_DISCARD = 3  # bang: each other player discards a card from hand
D_HIT_ALL = 4  # bang: instead of the basic effect, a BANG! effect on every other player
D_ATTACKER_LOSES = 5  # missed: the attacker loses 1 life (caused by the defender)
D_SWAP_HANDS = 6  # missed: swap hands with the attacker
D_OTHER_GAINS = 7  # heal: another player +1 life (not with two players left)
DESTINIES = {
    "none": D_NONE,
    "draw": D_DRAW,
    "take": D_TAKE,
    "others_discard": D_OTHERS_DISCARD,
    "hit_all": D_HIT_ALL,
    "attacker_loses": D_ATTACKER_LOSES,
    "swap_hands": D_SWAP_HANDS,
    "other_gains": D_OTHER_GAINS,
}
DESTINIES_BY_CODE = {code: name for name, code in DESTINIES.items()}
# the effects each destiny code may appear on
DESTINY_EFFECTS = {
    D_DRAW: frozenset({E_BANG, E_MISSED, E_HEAL, E_DRAW}),
    D_TAKE: frozenset({E_BANG}),
    D_OTHERS_DISCARD: frozenset({E_BANG}),
    D_HIT_ALL: frozenset({E_BANG}),
    D_ATTACKER_LOSES: frozenset({E_MISSED}),
    D_SWAP_HANDS: frozenset({E_MISSED}),
    D_OTHER_GAINS: frozenset({E_HEAL}),
}

# --- character abilities -------------------------------------------------------------
A_NONE = 0
A_DRAW_ON_DAMAGE = 1  # Bart Cassidy
A_DRAW_EXTRA_ON_CHECK = 2  # Black Jack
A_BANG_MISSED_SWAP = 3  # Calamity Janet
A_STEAL_ON_DAMAGE = 4  # El Gringo
A_DRAW_FROM_PLAYER = 5  # Jesse Jones
A_BUILTIN_BARREL = 6  # Jourdonnais
A_DRAW_THREE_KEEP_TWO = 7  # Kit Carlson
A_DOUBLE_CHECK = 8  # Lucky Duke
A_BUILTIN_MUSTANG = 9  # Paul Regret
A_DRAW_FROM_DISCARD = 10  # Pedro Ramirez
A_BUILTIN_SCOPE = 11  # Rose Doolan
A_DISCARD_TWO_HEAL = 12  # Sid Ketchum
A_DOUBLE_MISSED = 13  # Slab the Killer
A_DRAW_WHEN_EMPTY = 14  # Suzy Lafayette
A_TAKE_ELIMINATED_CARDS = 15  # Vulture Sam
A_UNLIMITED_BANG = 16  # Willy the Kid
A_TEMPERED = 17  # Star Wars Tempered: once per turn, discard a BANG! to repeat a brown card
N_ABILITIES = 18

ABILITIES = {
    "none": A_NONE,
    "draw_on_damage": A_DRAW_ON_DAMAGE,
    "draw_extra_on_check": A_DRAW_EXTRA_ON_CHECK,
    "bang_missed_swap": A_BANG_MISSED_SWAP,
    "steal_on_damage": A_STEAL_ON_DAMAGE,
    "draw_from_player": A_DRAW_FROM_PLAYER,
    "builtin_barrel": A_BUILTIN_BARREL,
    "draw_three_keep_two": A_DRAW_THREE_KEEP_TWO,
    "double_check": A_DOUBLE_CHECK,
    "builtin_mustang": A_BUILTIN_MUSTANG,
    "draw_from_discard": A_DRAW_FROM_DISCARD,
    "builtin_scope": A_BUILTIN_SCOPE,
    "discard_two_heal": A_DISCARD_TWO_HEAL,
    "double_missed": A_DOUBLE_MISSED,
    "draw_when_empty": A_DRAW_WHEN_EMPTY,
    "take_eliminated_cards": A_TAKE_ELIMINATED_CARDS,
    "unlimited_bang": A_UNLIMITED_BANG,
    "tempered": A_TEMPERED,
}

# --- canonical roles and winning factions ---------------------------------------------
R_LEADER = 0
R_DEPUTY = 1
R_OUTLAW = 2
R_RENEGADE = 3
ROLES = ("leader", "deputy", "outlaw", "renegade")

W_NONE = -1  # capped
W_LEADER = 0
W_OUTLAW = 1
W_RENEGADE = 2
WINNERS = ("leader", "outlaw", "renegade")
# the side each role wins with: SIDE_OF[r] is role r's W_* (a deputy wins with the leader)
SIDE_OF = (W_LEADER, W_LEADER, W_OUTLAW, W_RENEGADE)
SIDE_OF_ROLE = {role: WINNERS[SIDE_OF[r]] for r, role in enumerate(ROLES)}  # by name

# --- rule flags: the index of each rule in the compiled `rules` vector ----------------
RU_LEADER_EXTRA_LIFE = 0  # the leader's bonus life
RU_OUTLAW_REWARD = 1  # cards drawn for eliminating an outlaw
RU_LEADER_KILLS_DEPUTY_PENALTY = 2  # 1: the leader eliminating a deputy discards everything
RU_BEER_MIN_PLAYERS = 3  # Beer cards (CF_BEER) do nothing with fewer living players
RU_DYNAMITE_DAMAGE = 4
RU_BANG_LIMIT = 5  # BANG! cards per turn
RU_DRAW_COUNT = 6  # cards drawn in phase 1
RU_JAIL_ON_LEADER = 7  # 1: Jail may be played on the leader
RU_NO_ONE_EFFECTS = 8  # bitmask over effect codes: damage from these is caused by no one
RU_NO_REWARD_EFFECTS = 9  # bitmask over effect codes: eliminations by these earn no reward
RU_TURN_CAP = 10
RU_NEW_HOPE_HEAL = 11  # life gained when a `new_hope` card's check passes
RU_SELF_TARGET_EFFECTS = 12  # bitmask over SELF_TARGETABLE effect codes: may target yourself
RU_DOUBLE_MISSED_EFFECTS = 13  # bitmask over hit effects: a `double_missed` attacker's need 2
N_RULES = 14

# name in [rules] -> (index, default). List-valued rules (effect names) become bitmasks.
RULES = {
    "leader_extra_life": (RU_LEADER_EXTRA_LIFE, 1),
    "outlaw_reward": (RU_OUTLAW_REWARD, 3),
    "leader_kills_deputy_penalty": (RU_LEADER_KILLS_DEPUTY_PENALTY, True),
    "beer_min_players": (RU_BEER_MIN_PLAYERS, 3),
    "dynamite_damage": (RU_DYNAMITE_DAMAGE, 3),
    "bang_limit": (RU_BANG_LIMIT, 1),
    "draw_count": (RU_DRAW_COUNT, 2),
    "jail_on_leader": (RU_JAIL_ON_LEADER, False),
    "damage_by_no_one": (RU_NO_ONE_EFFECTS, ["dynamite"]),
    "no_reward_effects": (RU_NO_REWARD_EFFECTS, []),
    "turn_cap": (RU_TURN_CAP, 1000),
    "new_hope_heal": (RU_NEW_HOPE_HEAL, 2),
    "self_target_effects": (RU_SELF_TARGET_EFFECTS, []),
    "double_missed_effects": (RU_DOUBLE_MISSED_EFFECTS, ["bang"]),
}
