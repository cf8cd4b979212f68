"""The bots' reading of the table, tested directly: `kernel.record`, the public record
(State.karma, > 0 acted for the leader, < 0 against him) and each player's private beliefs
(State.belief[i, j]: what i alone saw j do to i), and the plays that call it.

The exact change for each kind of act: an attack or help, on the leader, on a player whose
record is positive, negative or zero, seen by an Outlaw, a Deputy or the Renegade; both kept
within [-3, 3]; nothing for an act on oneself. Freeing a player from his Jail or Dynamite
with Panic! or Cat Balou is help, not an attack.
"""

import pytest
from scenario import FIVE, Table

from simcore.engine import kernel

# five players: 0 leader, 1 renegade, 2-3 outlaws, 4 deputy (inert characters)
CHARS = ["Black Jack", "Kit Carlson", "Jesse Jones", "Pedro Ramirez", "Lucky Duke"]
LEADER, RENEGADE, OUTLAW, OTHER_OUTLAW, DEPUTY = range(5)


def fresh() -> Table:
    t = Table(CHARS, roles=FIVE)
    assert not t.G.karma.any() and not t.G.belief.any()
    return t


def changes(t: Table, actor: int, target: int, hostile: bool, karma: float = 0.0):
    """record(actor -> target) with the target's record set to `karma`: the change to the
    actor's record and to the target's belief about the actor; nothing else may change."""
    t.G.karma[target] = karma
    before_karma, before_belief = t.G.karma.copy(), t.G.belief.copy()
    t.call(kernel.record, actor, target, hostile)
    dk = t.G.karma - before_karma
    db = t.G.belief - before_belief
    d_karma, d_belief = float(dk[actor]), float(db[target, actor])
    dk[actor] = 0.0
    db[target, actor] = 0.0
    assert not dk.any() and not db.any(), "record changed something besides these two"
    return d_karma, d_belief


# (actor, target, hostile, target's record) -> (change of actor's record, of target's belief)
CASES = [
    # on the leader: one full step, whatever the leader's own record
    (OUTLAW, LEADER, True, 0.0, -1.0, -1.0),
    (DEPUTY, LEADER, False, 0.0, +1.0, +1.0),
    (RENEGADE, LEADER, True, 2.0, -1.0, -1.0),
    # on a player who acted for the leader (positive record): half a step, same sign as the act
    (OUTLAW, DEPUTY, True, 1.0, -0.5, -1.0),
    (RENEGADE, DEPUTY, False, 1.0, +0.5, +1.0),
    # on a player who acted against him (negative record): half a step, the other sign
    (DEPUTY, OUTLAW, True, -1.0, +0.5, +1.0),
    (OTHER_OUTLAW, OUTLAW, False, -1.0, -0.5, -1.0),
    (LEADER, RENEGADE, True, -0.5, +0.5, -1.0),
    # on a player with no record: nothing public; the target alone learns. An Outlaw attacked
    # (or a law player helped) sees the actor as law-side; a law player or the Renegade
    # attacked (or an Outlaw helped), as outlaw-side
    (DEPUTY, OUTLAW, True, 0.0, 0.0, +1.0),
    (DEPUTY, OUTLAW, False, 0.0, 0.0, -1.0),
    (OUTLAW, DEPUTY, True, 0.0, 0.0, -1.0),
    (OUTLAW, DEPUTY, False, 0.0, 0.0, +1.0),
    (OUTLAW, RENEGADE, True, 0.0, 0.0, -1.0),
    (DEPUTY, RENEGADE, False, 0.0, 0.0, +1.0),
]


@pytest.mark.parametrize(("actor", "target", "hostile", "karma", "d_karma", "d_belief"), CASES)
def test_record_changes_exactly(actor, target, hostile, karma, d_karma, d_belief):
    assert changes(fresh(), actor, target, hostile, karma) == (d_karma, d_belief)


def test_record_accumulates_and_stays_within_three():
    t = fresh()
    for _ in range(5):
        t.call(kernel.record, OUTLAW, LEADER, True)
    assert t.G.karma[OUTLAW] == -3.0 and t.G.belief[LEADER, OUTLAW] == -3.0
    t.call(kernel.record, OUTLAW, LEADER, False)
    assert t.G.karma[OUTLAW] == -2.0 and t.G.belief[LEADER, OUTLAW] == -2.0
    for _ in range(8):
        t.call(kernel.record, DEPUTY, OUTLAW, True)  # the Outlaw's record is -2: +0.5 each
    assert t.G.karma[DEPUTY] == 3.0 and t.G.belief[OUTLAW, DEPUTY] == 3.0


def test_an_act_on_oneself_records_nothing():
    t = fresh()
    assert changes(t, DEPUTY, DEPUTY, True, 1.0) == (0.0, 0.0)
    assert changes(t, LEADER, LEADER, False) == (0.0, 0.0)


# --- the plays that call it ----------------------------------------------------------------


def test_a_bang_on_the_leader_and_on_his_attacker():
    """A BANG! on the leader is an attack on him; a BANG! on the player who shot him, help."""
    t = fresh()
    t.equip(OUTLAW, "Winchester").give(OUTLAW, "BANG!")
    t.play(OUTLAW, "BANG!", target=LEADER)
    assert t.G.karma[OUTLAW] == -1.0
    t.equip(DEPUTY, "Winchester").give(DEPUTY, "BANG!")
    t.new_turn(DEPUTY)
    t.play(DEPUTY, "BANG!", target=OUTLAW)
    assert t.G.karma[DEPUTY] == 0.5 and t.G.belief[OUTLAW, DEPUTY] == 1.0


@pytest.mark.parametrize("card", ["Panic!", "Cat Balou"])
@pytest.mark.parametrize("freed", ["Dynamite", "Jail"])
def test_freeing_a_player_from_jail_or_dynamite_is_help(card, freed):
    """Freeing a player from his Jail or Dynamite with Panic! or Cat Balou counts as help,
    not as an attack (else the leader reads a Deputy who removed his Dynamite as an enemy);
    taking any other card of his is an attack."""
    t = fresh()
    holder = LEADER if freed == "Dynamite" else DEPUTY  # the leader cannot be jailed
    t.equip(holder, "Barrel", freed)
    t.G.karma[holder] = 1.0 if holder == DEPUTY else 0.0
    t.give(DEPUTY if holder == LEADER else LEADER, card)
    actor = DEPUTY if holder == LEADER else LEADER
    t.play(actor, card, target=holder, opt=1)  # slot 1: the Jail or Dynamite
    assert freed not in t.in_play(holder)
    step = 1.0 if holder == LEADER else 0.5
    assert t.G.karma[actor] == step and t.G.belief[holder, actor] == 1.0
    t.give(actor, card)
    t.play(actor, card, target=holder, opt=0)  # the Barrel: an attack
    assert t.G.karma[actor] == 0.0 and t.G.belief[holder, actor] == 0.0


def test_taking_a_hand_card_is_an_attack():
    t = fresh()
    t.give(LEADER, "Beer").give(DEPUTY, "Panic!")
    t.play(DEPUTY, "Panic!", target=LEADER, opt=-1)
    assert t.G.karma[DEPUTY] == -1.0 and t.hand_names(DEPUTY) == ["Beer"]
