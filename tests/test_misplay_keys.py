"""The keys for misplays the experts saw in `tuned` games, each in a hand-built state: at the
key's default the bot makes the misplay (as the hand-set presets do), at another value the
expert's move."""

import numpy as np
import pytest
from scenario import FIVE, Table
from test_beliefs import CHARS, decide

from simcore.engine import kernel
from strategies.decide import card_to_discard, choose_action, put_back
from strategies.params import (
    KEYS,
    P_AOE_MIN_NET,
    P_AOE_SPARE_LEADER,
    P_DYNAMITE_AWAY,
    P_GUARD_LEADER,
    P_HOLD_VOLCANIC,
    P_JAIL_AFTER_BANG,
    P_KIT_DENY,
    P_RENEGADE_TURN_ALIVE,
    P_TAKE_COVER,
    P_TAKE_VALUE,
    P_VALUE_DEAD,
    SEARCHED,
    param_index,
)

MISPLAY_KEYS = (  # every misplay key, each default 0
    "guard_leader",
    "aoe_spare_leader",
    "take_value",
    "dynamite_away",
    "hold_volcanic",
    "value_dead",
    "take_cover",
    "jail_after_bang",
    "kit_deny",
)


def smart_table(roles=FIVE) -> Table:
    """Five players (by default 0 leader, 1 renegade, 2-3 outlaws, 4 deputy) playing `smart`."""
    return Table(CHARS[:5], roles=roles, strategy="smart")


def decide_option(t: Table, p: int):
    """The play p's bot makes now with its option: (card name, target, option), or None."""
    n = t.call(kernel.legal_actions, p, False)
    k = t.call(choose_action, p, n)
    if k < 0:
        return None
    name = t.theme.card_display[t.G.hand[p, t.G.act_idx[k]]]
    return name, int(t.G.act_tgt[k]), int(t.G.act_opt[k])


def test_tune_searches_every_misplay_key():
    """`bangsim tune` searches the new keys, from their default (0) upward."""
    for key in MISPLAY_KEYS:
        assert key in SEARCHED
        assert KEYS[key].search_low == 0 < KEYS[key].search_high


@pytest.mark.parametrize(("guard", "expected"), [(0, ("BANG!", 4)), (2, ("BANG!", 2))])
def test_guard_leader_keeps_the_renegade_off_the_law_side(guard, expected):
    """Misplay: the Renegade shoots the law side while the Sheriff is at 2 life or less and
    Outlaws live. An outlaw shot the leader, the deputy shot him back (a law-side record);
    a turned renegade (`renegade_turn_alive` 5) spares the leader at 2 life (`spare_leader`)
    and by default shoots the deputy at 2 life (`focus`); with `guard_leader` 2 the law side
    are friends while the leader is that weak, and the outlaw is its target."""
    t = smart_table()
    t.G.w[1, P_RENEGADE_TURN_ALIVE] = 5
    t.G.w[1, P_GUARD_LEADER] = guard
    t.equip(2, "Winchester").give(2, "BANG!")
    t.play(2, "BANG!", target=0)
    t.equip(4, "Remington").give(4, "BANG!").new_turn(4)
    t.play(4, "BANG!", target=2)
    t.set_life(0, 2).set_life(4, 2)
    t.equip(1, "Winchester").give(1, "BANG!")
    t.new_turn(1)
    assert decide(t, 1) == expected


def test_guard_leader_ends_with_the_outlaws():
    """With every outlaw revealed dead the guard is off: the leader at 2 life is no longer
    in danger from them, and the turned renegade shoots the deputy again."""
    t = smart_table()
    t.G.w[1, P_RENEGADE_TURN_ALIVE] = 5
    t.G.w[1, P_GUARD_LEADER] = 2
    t.kill(2).kill(3).set_life(0, 2)
    t.equip(1, "Winchester").give(1, "BANG!")
    t.new_turn(1)
    assert decide(t, 1) == ("BANG!", 4)


@pytest.mark.parametrize(("spare", "expected"), [(0, ("Indians!", 4)), (1, None)])
def test_aoe_spare_leader_holds_the_deputys_indians(spare, expected):
    """Misplay: a Deputy's Indians! kills the 1-life Sheriff while others live. Both
    outlaws shot the leader (enemies), so with `aoe_min_net` -3 (tuned's) the deputy plays
    Indians! by default, which the leader at 1 life may not answer; with `aoe_spare_leader`
    1 it holds the card."""
    t = smart_table()
    t.G.w[4, P_AOE_MIN_NET] = -3
    t.G.w[4, P_AOE_SPARE_LEADER] = spare
    for outlaw, gun in ((2, "Winchester"), (3, "Remington")):
        t.equip(outlaw, gun).give(outlaw, "BANG!").new_turn(outlaw)
        t.play(outlaw, "BANG!", target=0)
    t.set_life(0, 1)
    t.give(4, "Indians!")
    t.new_turn(4)
    assert decide(t, 4) == expected


def test_aoe_spare_leader_lets_the_renegade_finish_him_alone():
    """With only the leader and the renegade left, the leader's death wins the renegade the
    game: `aoe_spare_leader` does not hold its Gatling."""
    t = smart_table()
    t.G.w[1, P_AOE_SPARE_LEADER] = 4
    t.kill(2).kill(3).kill(4).set_life(0, 1)
    t.give(1, "Gatling")
    t.new_turn(1)
    assert decide(t, 1) == ("Gatling", 1)


@pytest.mark.parametrize(
    ("key", "value", "slot"),
    [(P_TAKE_COVER, 0.0, 0), (P_TAKE_COVER, 5.0, 1), (P_TAKE_VALUE, 1.0, 1)],
)
def test_take_cover_and_take_value_take_the_enemys_barrel(key, value, slot):
    """Misplay: Panic! and Cat Balou take the oldest card in play, never the enemy's Barrel.
    The leader has a Volcanic (in play first) and a Barrel; an outlaw's Cat Balou takes the
    Volcanic by default; with `take_cover` 5 his cover, the Barrel, and with `take_value` 1
    the card it values most (smart's value.barrel 7 against value.volcanic 4), the Barrel."""
    t = smart_table()
    t.G.w[2, key] = value
    t.equip(0, "Volcanic", "Barrel")
    t.give(2, "Cat Balou")
    t.new_turn(2)
    assert decide_option(t, 2) == ("Cat Balou", 0, slot)


@pytest.mark.parametrize(("away", "expected"), [(0.0, None), (50.0, ("Cat Balou", 1, 0))])
def test_dynamite_away_removes_the_dynamite_coming_next(away, expected):
    """Misplay: an enemy's Dynamite heading your way is never removed. The renegade (no
    record: no enemy to the outlaw) has a Dynamite in front of him that passes to the
    outlaw at his left next; by default the outlaw's Cat Balou leaves it there, with
    `dynamite_away` it discards it."""
    t = smart_table()
    t.G.w[2, P_DYNAMITE_AWAY] = away
    t.equip(1, "Dynamite")
    t.give(2, "Cat Balou")
    t.new_turn(2)
    assert decide_option(t, 2) == expected


def test_dynamite_away_only_for_the_next_in_line():
    """The outlaw at seat 3 is not next after the renegade: the Dynamite stays."""
    t = smart_table()
    t.G.w[3, P_DYNAMITE_AWAY] = 50.0
    t.equip(1, "Dynamite")
    t.give(3, "Cat Balou")
    t.new_turn(3)
    assert decide_option(t, 3) is None


@pytest.mark.parametrize("hold", [0, 3])
def test_hold_volcanic_fires_the_bangs_first(hold):
    """Misplay: a longer gun replaces a Volcanic while 3 BANG!s and an adjacent enemy are in
    hand. An outlaw beside the leader with a Volcanic in play, a Schofield and three BANG!s
    equips the Schofield by default (and may then shoot once); with `hold_volcanic` 3 it
    fires its BANG!s with the Volcanic first, then equips the Schofield."""
    t = smart_table(roles=["leader", "outlaw", "renegade", "outlaw", "deputy"])
    t.G.w[1, P_HOLD_VOLCANIC] = hold
    t.equip(1, "Volcanic").give(1, "Schofield", "BANG!", "BANG!", "BANG!")
    t.set_life(0, 5)
    t.new_turn(1)
    if hold == 0:
        assert decide(t, 1) == ("Schofield", 1)
        return
    for _ in range(3):
        assert decide(t, 1) == ("BANG!", 0)
        t.play(1, "BANG!", target=0)
        t.set_life(0, 5)  # the leader takes every hit and lives on
    assert decide(t, 1) == ("Schofield", 1)


@pytest.mark.parametrize(("dead", "discarded"), [(0.0, "Missed!"), (5.0, "Beer")])
def test_value_dead_discards_the_beer_with_two_left(dead, discarded):
    """Misplay: Beers kept with two players left (a Beer heals no one then). The renegade
    alone with the leader holds a Beer (smart's value 9) and a Missed! (8): by default it
    discards the Missed!, with `value_dead` 5 the Beer."""
    t = smart_table()
    t.G.w[1, P_VALUE_DEAD] = dead
    t.kill(2).kill(3).kill(4)
    t.give(1, "Beer", "Missed!")
    i = t.call(card_to_discard, 1, -1)
    assert t.theme.card_display[t.G.hand[1, i]] == discarded


@pytest.mark.parametrize(("dead", "discarded"), [(0.0, "Missed!"), (5.0, "Jail")])
def test_value_dead_discards_the_jail_no_one_can_take(dead, discarded):
    """Misplay: a Missed! discarded to keep a Jail that cannot be played. The renegade alone
    with the leader (never jailed, [K-16]) values a Jail at 10 here, above a Missed! (8):
    by default it keeps the Jail, with `value_dead` 5 it discards it."""
    t = smart_table()
    t.G.w[1, param_index("value.jail")] = 10.0
    t.G.w[1, P_VALUE_DEAD] = dead
    t.kill(2).kill(3).kill(4)
    t.give(1, "Jail", "Missed!")
    i = t.call(card_to_discard, 1, -1)
    assert t.theme.card_display[t.G.hand[1, i]] == discarded


@pytest.mark.parametrize(("after", "expected"), [(0, ("Jail", 2)), (1, ("BANG!", 2))])
def test_jail_after_bang_shoots_the_dying_first(after, expected):
    """Misplay: a target is jailed and then shot dead in the same turn. The outlaw who shot
    the leader is at 1 life in the leader's reach; by default the leader jails him first
    (a Jail scores above a BANG!), with `jail_after_bang` 1 he shoots first and keeps the
    Jail if the shot kills."""
    t = smart_table()
    t.G.w[0, P_JAIL_AFTER_BANG] = after
    t.equip(2, "Winchester").give(2, "BANG!")
    t.play(2, "BANG!", target=0)
    t.set_life(2, 1)
    t.equip(0, "Schofield").give(0, "Jail", "BANG!")
    t.new_turn(0)
    assert decide(t, 0) == expected


@pytest.mark.parametrize(
    ("shot", "deny", "back"),
    [(True, 0.0, "BANG!"), (True, 5.0, "Missed!"), (False, 5.0, "BANG!")],
)
def test_kit_deny_keeps_the_bang_from_the_next_enemy(shot, deny, back):
    """Misplay: Kit Carlson puts back a BANG!, Panic! or Indians! that the next player, an
    enemy, then draws and plays on him. Kit Carlson (seat 1, the renegade, covering as a
    deputy) draws BANG!, Missed!, Beer: by default he puts back the BANG! (smart's least
    valued); with `kit_deny` 5, when the outlaw at his left shot the leader (an enemy), the
    Missed!; when the outlaw has no record, still the BANG!."""
    t = smart_table()
    t.G.w[1, P_KIT_DENY] = deny
    if shot:
        t.equip(2, "Winchester").give(2, "BANG!")
        t.play(2, "BANG!", target=0)
    cards = np.array([t.card_ids(n)[0] for n in ("BANG!", "Missed!", "Beer")], t.G.buf.dtype)
    i = t.call(put_back, 1, cards, 3)
    assert t.theme.card_display[cards[i]] == back
