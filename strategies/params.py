"""Indices into a strategy's parameter vector. Presets (strategies/presets.toml) name values.

Every decision function reads only these numbers and what a player at the table can see.
"""

from typing import NamedTuple

import numpy as np

from simcore.engine.vocab import EFFECTS, N_EFFECTS, ROLES

# The bots' version: bump it when a change alters what the bots decide or how they read the
# table (their decision functions, the public record kernel.record, the shipped tuned values
# in strategies/tuned, the shipped learned fields in strategies/strong), so that games of a
# given seed change; docs/changelog.md says why (tests/test_same_games.py checks both).
POLICY_VERSION = 15

P_RANDOM = 0  # 1: uniform over legal choices (the floor); 0: the scored policy below
P_HEAL_MISSING = 1  # drink a heal card on your turn once this much life is missing
P_DYNAMITE_MIN_LIFE = 2  # play Dynamite only at this life or more
P_ENEMY_MIN = 3  # a player is an enemy when the enemy score exceeds this
P_LEADER_SHOOTS_UNKNOWN = 4  # 1: the leader also shoots players with no public record
P_AOE_MIN_NET = 5  # play Gatling/Indians! when enemies hit minus friends hit >= this
P_RENEGADE_TURN_ALIVE = 6  # the renegade turns on everyone at this many living players or fewer
P_DUEL_MIN_BANGS = 7  # challenge only holding at least this many BANG!s
P_PEDRO_MIN_VALUE = 8  # Pedro Ramirez takes the discard top when its value is at least this
P_STORE_PLAY = 9  # score of playing a General Store (0: never)
P_FREE_FRIEND = (
    10  # score of a Panic!/Cat Balou that removes a friend's Jail or Dynamite (0: never)
)
P_FOCUS = 11  # bonus for shooting low-life enemies: focus / their life
P_SPARE_LEADER = 12  # a turned renegade spares a leader at this life or less while others live
P_KEEP_HEAL = 13  # heal cards kept back for a lethal hit when drinking on your turn
P_DYNAMITE_LAW = 14  # 1: the leader, deputies and renegade play Dynamite too (0: outlaws only)
P_PERSONAL = 15  # P_PERSONAL + own role: weight of what the bot alone saw (attacks on it, help
#                  to it) in its enemy scores, by the bot's own role
P_VALUE = 19  # P_VALUE + effect code: how much the bot values holding a card of that effect
P_TEMPERED = P_VALUE + N_EFFECTS  # 1: a `tempered` player repeats a brown card when it helps
P_TAKE_HITS_ABOVE = P_TEMPERED + 1  # keep Missed! and take a BANG! hit above this life
P_ANSWER_MIN_BANGS = P_TEMPERED + 2  # answer a Duel/Indians! with a BANG! holding this many
P_RENEGADE_TURN_OUTLAWS = P_TEMPERED + 3  # the renegade turns once this many outlaws or fewer live
P_VALUE_SPARE = P_TEMPERED + 4  # a card is worth this less per other held card of its effect
P_KEEP_BANGS = P_TEMPERED + 5  # after a turn's first BANG!, shoot again only holding more
P_VOLCANIC_BANGS = P_TEMPERED + 6  # equip a Volcanic (at reach 1) holding this many BANG!s
P_RENEGADE_LEAN = P_TEMPERED + 7  # a turned renegade hits the law side first (> 0), outlaws (< 0)
# keys for misplays seen in `tuned` games; each key's default plays as without it
P_GUARD_LEADER = P_TEMPERED + 8  # a turned renegade hits outlaws first while the leader is at
#                                  this life or less and an outlaw lives (0: never)
P_AOE_SPARE_LEADER = P_TEMPERED + 9  # no Gatling/Indians! hitting the leader at this life or
#                                      less by a seat his death beats (0: never)
P_TAKE_VALUE = P_TEMPERED + 10  # Panic!/Cat Balou on a card in play: + this x the bot's value
#                                 of the card's effect (0: every card in play alike)
P_DYNAMITE_AWAY = P_TEMPERED + 11  # score of a Panic!/Cat Balou on a Dynamite that passes to
#                                    the bot next (0: never)
P_HOLD_VOLCANIC = P_TEMPERED + 12  # with a Volcanic in play and this many BANG!s, a longer gun
#                                    waits until they are fired (0: never)
P_VALUE_DEAD = P_TEMPERED + 13  # a card that cannot be played (a Beer with two left, a Jail
#                                 with no one to jail) is worth this less
P_TAKE_COVER = P_TEMPERED + 14  # Panic!/Cat Balou on an enemy's Barrel or Mustang: + this
P_JAIL_AFTER_BANG = P_TEMPERED + 15  # Jail a target at this life or less only after the
#                                      BANG!s (scored below one) while holding one (0: never)
P_KIT_DENY = P_TEMPERED + 16  # Kit Carlson keeps an attack card (put back: + this) when the
#                               next player, who draws it, is an enemy
P_LEARNED = P_TEMPERED + 17  # k >= 1: plays are scored by learned table k - 1 (strategies.learned,
#                              `strong`); 0: by the scored policy alone. Set by the strategy
#                              that carries the tables, never searched
N_PARAMS = P_TEMPERED + 18

# What a learned table reads of a play (strategies.learned: seat_context, context), in order:
# each is a number of the seat's view, scaled to about 0..1.
CONTEXT = (
    "bias",  # 1
    "scored_plays",  # 1 when the scored policy would make this play (its score > 0)
    "scored",  # the scored policy's score / 100, -0.01 at least
    "life",  # own life / own maximum
    "last_life",  # 1 at one life
    "spare_cards",  # hand cards beyond life (discarded if the turn ended now) / 2
    "hand",  # hand size / 5
    "on_self",  # the play names no other player (or oneself)
    "on_leader",  # the target is the leader (not oneself)
    "hostility",  # the scored policy's enemy score of the target, clipped to -10..10, / 10
    "law_record",  # the target's public record (karma), clipped to -5..5, / 5
    "seen_by_me",  # what the seat alone saw of the target (its belief row), / 5
    "target_life",  # the target's life / 5
    "target_last_life",  # 1 when the target is at one life
    "target_hand",  # the target's hand size / 5
    "target_cover",  # a Barrel or Mustang in play in front of the target
    "takes_in_play",  # the play takes or discards one of the target's cards in play
    "taken_value",  # the seat's value of that card's effect / 10
    "alive",  # living players / players
    "leader_life",  # the leader's life / his maximum
    "outlaws_left",  # outlaws not revealed dead / outlaws in the role mix
    "renegade_left",  # 1 while a renegade is not revealed dead
    "bangs",  # cards playable as BANG! in hand / 3
    "missed",  # Missed! cards in hand / 2
    "fired",  # 1 once a BANG! was played this turn
    "hurt",  # own missing life / own maximum
    # the target's role by the seat's belief over the hidden roles' assignments
    # (view.role_marginals; 0 on oneself): how likely he is an outlaw, the renegade, a deputy
    "target_outlaw",
    "target_renegade",
    "target_deputy",
)
N_CTX = len(CONTEXT)
# learned tables the kernel holds (Tables.learn): one per canonical role at most
N_LEARNED = 4
LEARN_SLOTS = N_EFFECTS + 1  # a weight row per effect, then one for an ability's play
NO_LEARNED = np.zeros((0, LEARN_SLOTS, N_CTX), np.float64)

SCALARS = {
    "random": P_RANDOM,
    "heal_missing": P_HEAL_MISSING,
    "dynamite_min_life": P_DYNAMITE_MIN_LIFE,
    "enemy_min": P_ENEMY_MIN,
    "leader_shoots_unknown": P_LEADER_SHOOTS_UNKNOWN,
    "aoe_min_net": P_AOE_MIN_NET,
    "renegade_turn_alive": P_RENEGADE_TURN_ALIVE,
    "duel_min_bangs": P_DUEL_MIN_BANGS,
    "pedro_min_value": P_PEDRO_MIN_VALUE,
    "store_play": P_STORE_PLAY,
    "free_friend": P_FREE_FRIEND,
    "focus": P_FOCUS,
    "spare_leader": P_SPARE_LEADER,
    "keep_heal": P_KEEP_HEAL,
    "dynamite_law": P_DYNAMITE_LAW,
    "tempered": P_TEMPERED,
    "take_hits_above": P_TAKE_HITS_ABOVE,
    "answer_min_bangs": P_ANSWER_MIN_BANGS,
    "renegade_turn_outlaws": P_RENEGADE_TURN_OUTLAWS,
    "value_spare": P_VALUE_SPARE,
    "keep_bangs": P_KEEP_BANGS,
    "volcanic_bangs": P_VOLCANIC_BANGS,
    "renegade_lean": P_RENEGADE_LEAN,
    "guard_leader": P_GUARD_LEADER,
    "aoe_spare_leader": P_AOE_SPARE_LEADER,
    "take_value": P_TAKE_VALUE,
    "dynamite_away": P_DYNAMITE_AWAY,
    "hold_volcanic": P_HOLD_VOLCANIC,
    "value_dead": P_VALUE_DEAD,
    "take_cover": P_TAKE_COVER,
    "jail_after_bang": P_JAIL_AFTER_BANG,
    "kit_deny": P_KIT_DENY,
    "learned": P_LEARNED,
}


# keys whose values are tables: `value.<effect>`, `personal.<role>`
TABLES = {
    "value": (P_VALUE, EFFECTS),
    "personal": (P_PERSONAL, {r: i for i, r in enumerate(ROLES)}),
}


def param_index(name: str) -> int:
    """Index of a preset key: a scalar name, `value.<effect>` or `personal.<role>`."""
    if name in SCALARS:
        return SCALARS[name]
    table, _, key = name.partition(".")
    if table in TABLES and key in TABLES[table][1]:
        base, names = TABLES[table]
        return base + names[key]
    raise KeyError(name)


# --- every key's kind and ranges ------------------------------------------------------------
# kind: "switch" (0 or 1), "int" (whole numbers) or "real". low..high: the values a preset may
# set (outside: a one-line error); search_low..search_high: where `bangsim tune` looks (the
# values that make a difference at a table; `random` is not searched: it replaces the scored
# policy with uniform play, the floor).
SWITCH, INT, REAL = "switch", "int", "real"


class Key(NamedTuple):
    kind: str
    low: float
    high: float
    search_low: float
    search_high: float


def _key(kind: str, low: float, high: float, search: tuple[float, float] | None = None) -> Key:
    return Key(kind, low, high, *(search or (low, high)))


KEYS: dict[str, Key] = {
    "random": _key(SWITCH, 0, 1),
    "heal_missing": _key(INT, 0, 10, (1, 4)),
    "dynamite_min_life": _key(INT, 0, 99, (1, 7)),
    "enemy_min": _key(REAL, -5.0, 10.0, (-0.5, 2.0)),
    "leader_shoots_unknown": _key(SWITCH, 0, 1),
    "aoe_min_net": _key(INT, -10, 10, (-3, 4)),
    "renegade_turn_alive": _key(INT, 0, 7, (2, 7)),
    "duel_min_bangs": _key(INT, 0, 10, (0, 4)),
    "pedro_min_value": _key(REAL, -100.0, 100.0, (0.0, 12.0)),
    # play scores: 100 a draw card, 60 a Beer, 50 a Barrel, 25 and more a BANG!
    "store_play": _key(REAL, 0.0, 200.0, (0.0, 110.0)),
    "free_friend": _key(REAL, 0.0, 200.0, (0.0, 110.0)),
    "focus": _key(REAL, 0.0, 100.0, (0.0, 20.0)),
    "spare_leader": _key(INT, 0, 99, (0, 6)),
    "keep_heal": _key(INT, 0, 10, (0, 3)),
    "dynamite_law": _key(SWITCH, 0, 1),
    "tempered": _key(SWITCH, 0, 1),
    "take_hits_above": _key(INT, 0, 99, (0, 7)),  # 7: above every printed life, always cancel
    "answer_min_bangs": _key(INT, 0, 10, (0, 4)),
    "renegade_turn_outlaws": _key(INT, 0, 6, (0, 3)),  # 0: once every outlaw is revealed dead
    "value_spare": _key(REAL, 0.0, 20.0, (0.0, 6.0)),
    "keep_bangs": _key(INT, 0, 10, (0, 3)),
    "volcanic_bangs": _key(INT, 0, 10, (0, 4)),
    "renegade_lean": _key(REAL, -10.0, 10.0, (-3.0, 3.0)),
    "guard_leader": _key(INT, 0, 99, (0, 5)),  # 5: above every printed life but the leader's
    "aoe_spare_leader": _key(INT, 0, 99, (0, 4)),
    "take_value": _key(REAL, 0.0, 10.0, (0.0, 3.0)),
    "dynamite_away": _key(REAL, 0.0, 200.0, (0.0, 110.0)),
    "hold_volcanic": _key(INT, 0, 10, (0, 4)),
    "value_dead": _key(REAL, 0.0, 100.0, (0.0, 15.0)),
    "take_cover": _key(REAL, 0.0, 100.0, (0.0, 20.0)),
    "jail_after_bang": _key(INT, 0, 99, (0, 4)),
    "kit_deny": _key(REAL, 0.0, 100.0, (0.0, 15.0)),
    "learned": _key(INT, 0, 4),  # set by a learned strategy's file (strategies.learned_files)
    **{f"personal.{r}": _key(REAL, 0.0, 10.0, (0.0, 3.0)) for r in ROLES},
    **{f"value.{e}": _key(REAL, -100.0, 100.0, (0.0, 15.0)) for e in EFFECTS},
}
SEARCHED = tuple(k for k in KEYS if k not in ("random", "learned"))


def check_value(name: str, value: float) -> str | None:
    """Why `value` is not allowed for key `name` (None when it is)."""
    key = KEYS[name]
    if key.kind == SWITCH and value not in (0, 1):
        return "must be 0 or 1"
    if key.kind == INT and value != int(value):
        return f"must be a whole number ({key.low:g}..{key.high:g})"
    if not key.low <= value <= key.high:
        return f"must be between {key.low:g} and {key.high:g}"
    return None
