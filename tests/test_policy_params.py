"""The strong-play keys (renegade_turn_outlaws, renegade_lean, value_spare, keep_bangs,
volcanic_bangs), each in a scripted scenario: at its default a bot decides as the hand-set
presets do, at another value it decides otherwise."""

import pytest
from scenario import FIVE, Table
from test_beliefs import CHARS, decide
from test_misplay_keys import MISPLAY_KEYS

from simcore.engine.state import S_DISC_N
from strategies.decide import card_to_discard, takes_discard_top
from strategies.params import (
    P_KEEP_BANGS,
    P_RENEGADE_LEAN,
    P_RENEGADE_TURN_ALIVE,
    P_RENEGADE_TURN_OUTLAWS,
    P_VALUE_SPARE,
    P_VOLCANIC_BANGS,
    param_index,
)
from strategies.presets import load_presets


def smart_table(chars=CHARS[:5]) -> Table:
    """Five players (0 leader, 1 renegade, 2-3 outlaws, 4 deputy) playing `smart`."""
    return Table(chars, roles=FIVE, strategy="smart")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("renegade_turn_outlaws", 0),
        ("renegade_lean", 0),
        ("value_spare", 0),
        ("keep_bangs", 0),
        ("volcanic_bangs", 2),
        *((key, 0) for key in MISPLAY_KEYS),  # the misplay keys: tests/test_misplay_keys.py
    ],
)
def test_defaults_are_the_old_behaviour(key, value):
    """Every shipped preset leaves the new keys at the values that play as before."""
    for name, preset in load_presets().items():
        assert preset.base[param_index(key)] == value, name


@pytest.mark.parametrize(("turn_outlaws", "expected"), [(0, None), (1, ("BANG!", 4))])
def test_renegade_turns_when_few_outlaws_are_left(turn_outlaws, expected):
    """`renegade_turn_outlaws`: with one outlaw of two revealed dead, the renegade keeps its
    cover (nobody with a record: no target) unless it turns at one outlaw left; turned, it
    shoots the deputy (the weakest: `focus`) and spares the leader at 2 life
    (`spare_leader`)."""
    t = smart_table()
    t.G.w[1, P_RENEGADE_TURN_OUTLAWS] = turn_outlaws
    t.kill(2).set_life(0, 2).set_life(4, 2)
    t.equip(1, "Winchester").give(1, "BANG!")
    t.new_turn(1)
    assert decide(t, 1) == expected


@pytest.mark.parametrize(("lean", "expected"), [(0.0, ("BANG!", 4)), (-2.0, ("BANG!", 2))])
def test_renegade_lean_picks_a_side_to_hit(lean, expected):
    """`renegade_lean`: a turned renegade (at 5 players or fewer) scores every player but the
    leader alike (+5, the deputy at 2 life first by `focus`) unless it leans: at -2, the
    outlaw who shot the leader (a record of -1) scores 5 + 2 and is shot first."""
    t = smart_table()
    t.G.w[1, P_RENEGADE_TURN_ALIVE] = 5
    t.G.w[1, P_RENEGADE_LEAN] = lean
    t.set_life(4, 2)
    t.equip(2, "Winchester").give(2, "BANG!")
    t.play(2, "BANG!", target=0)
    t.equip(1, "Winchester").give(1, "BANG!")
    t.new_turn(1)
    assert decide(t, 1) == expected


@pytest.mark.parametrize(("spare", "kept"), [(0.0, "Missed!"), (2.0, "BANG!")])
def test_value_spare_discards_a_third_copy_first(spare, kept):
    """`value_spare`: holding three Missed! and a BANG!, a bot valuing Missed! above BANG!
    discards the BANG! first; when each other copy takes 2 off a card's worth, a Missed!."""
    t = smart_table()
    t.G.w[2, P_VALUE_SPARE] = spare
    t.give(2, "Missed!", "Missed!", "Missed!", "BANG!")
    worst = t.call(card_to_discard, 2, -1)
    assert t.theme.card_display[t.G.hand[2, worst]] != kept


@pytest.mark.parametrize(("spare", "takes"), [(0.0, True), (2.0, False)])
def test_value_spare_moves_pedro_ramirez(spare, takes):
    """`value_spare` and Pedro Ramirez: a Missed! on the discard pile is worth taking (8
    against `pedro_min_value` 6) unless he holds two already and each copy held costs 2."""
    t = smart_table()  # Pedro Ramirez at seat 3
    t.G.w[3, P_VALUE_SPARE] = spare
    t.give(3, "Missed!", "Missed!").to_discard("Missed!")
    assert t.call(takes_discard_top, 3, t.G.disc[t.G.s[S_DISC_N] - 1]) == takes


@pytest.mark.parametrize(("keep", "second"), [(0, ("BANG!", 0)), (1, None)])
def test_keep_bangs_holds_back_after_the_first(keep, second):
    """`keep_bangs`: Willy the Kid (any number of BANG!s) shoots the leader once, then again
    while holding more than `keep_bangs` BANG!s."""
    t = smart_table(["Black Jack", "Kit Carlson", "Willy the Kid", "Pedro Ramirez", "Lucky Duke"])
    t.G.w[2, P_KEEP_BANGS] = keep
    t.equip(2, "Winchester").give(2, "BANG!", "BANG!")
    t.new_turn(2)
    assert decide(t, 2) == ("BANG!", 0)
    t.play(2, "BANG!", target=0)
    assert decide(t, 2) == second


@pytest.mark.parametrize(("bangs", "plays"), [(2, None), (1, ("Volcanic", 2))])
def test_volcanic_bangs(bangs, plays):
    """`volcanic_bangs`: an outlaw at reach 1 with one BANG! (nobody in reach to shoot)
    equips a Volcanic only when one BANG! is enough."""
    t = smart_table()
    t.G.w[2, P_VOLCANIC_BANGS] = bangs
    t.give(2, "Volcanic", "BANG!")
    t.new_turn(2)
    assert decide(t, 2) == plays
