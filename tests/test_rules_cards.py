"""Rules scenarios for every classic card (checklist K-01 .. K-22, with C-10 and C-11).

Every test builds a hand-set table (tests/scenario.py): all 80 cards start in the draw pile,
hands and cards in play are given, the deck top is stacked, then the real kernel plays.
Each docstring names the checklist IDs it covers and quotes the rulebook
(shared/rules/classic_bang.txt) or the rulings.md line (shared/reference/rulings.md) it
checks. Faces matter for draw! checks: a Heart ("Beer@6H") passes a Barrel or Jail check,
"Missed!@10C" (a Club) passes nothing, "Missed!@2S" (Spades 2) makes Dynamite explode.
Hands are given before the deck is stacked, so a `give` never takes a stacked card.
"""

import pytest
from scenario import (
    BOOM,
    CLUB,
    DIAMOND,
    FIVE,
    HEART,
    PLAIN,
    SEVEN,
    disc,
    dist,
    table,
    targets,
)

from simcore.engine.board import reach

# --- K-01 BANG! -----------------------------------------------------------------------------


def test_bang_needs_a_target_within_reach():
    """[K-01] [C-17] A BANG! goes only to a player within the weapon's reach.

    Rulebook: "If you want to play a BANG! card to hit one of the players, determine: a) what
    the distance to that player is; and b) if your weapon is capable of reaching that
    distance"
    """
    t = table(FIVE)
    t.give(0, "BANG!")
    assert targets(t, 0, "BANG!") == [1, 4]  # the Colt .45 reaches 1; seats 2 and 3 are at 2
    t.equip(0, "Schofield")
    assert targets(t, 0, "BANG!") == [1, 2, 3, 4]


def test_bang_takes_one_life_and_is_discarded():
    """[K-01] [C-17] [C-12] Without a Missed! the target loses one life; the BANG! is discarded.

    Rulebook: "The target may immediately play Missed! to cancel it; otherwise they lose one
    bullet."
    """
    t = table()
    t.give(0, "BANG!@5C")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3 and t.life(0) == 5
    assert t.hand_names(0) == [] and t.hand_names(1) == []
    assert disc(t) == ["BANG!@5C"]


def test_one_bang_card_per_turn():
    """[K-01] [C-09] A second BANG! card is not playable in the same turn.

    Rulebook: "The general limits are one BANG! card per turn"
    """
    t = table()
    t.give(0, "BANG!", "BANG!")
    t.play(0, "BANG!", target=1)
    assert t.bangs_played() == 1
    assert not t.can_play(0, "BANG!")
    assert t.hand_names(0) == ["BANG!"]
    t.new_turn(0)
    assert targets(t, 0, "BANG!") == [1, 3]


def test_cancelled_bang_is_still_discarded():
    """[K-01] [K-02] [C-17] A Missed! cancels the BANG!, and both cards are discarded.

    Rulebook: "A cancelled BANG! still goes to the discard pile." / Missed!: "The BANG! card
    is discarded, even when cancelled"
    """
    t = table()
    t.give(0, "BANG!@5C")
    t.give(1, "Missed!@KC")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert disc(t) == ["BANG!@5C", "Missed!@KC"]


# --- K-02 Missed! ---------------------------------------------------------------------------


def test_missed_cancels_only_a_shot_aimed_at_you():
    """[K-02] [C-13] Only the target can cancel; a Missed! is never played on your own turn.

    Rulebook: "You can only cancel shots aimed at you."
    """
    t = table()
    t.give(0, "BANG!", "Missed!")
    t.give(2, "Missed!@KC")
    assert t.legal(0) == [("BANG!", 1, 0), ("BANG!", 3, 0)]  # no Missed! play on one's turn
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3
    assert t.hand_names(2) == ["Missed!"]
    assert t.hand_names(0) == ["Missed!"]


# --- K-03 Beer ------------------------------------------------------------------------------


def test_beer_on_your_turn_heals_one():
    """[K-03] [C-18] Beer on your turn: +1 life, and the Beer is discarded.

    Rulebook: "This card lets you regain one life point – take a bullet from the pile."
    """
    t = table()
    t.set_life(1, 2).set_life(2, 2)
    t.give(1, "Beer@7H")
    assert targets(t, 1, "Beer") == [1]  # "The Beer cannot be used to help other players"
    t.play(1, "Beer")
    assert t.life(2) == 2
    assert t.life(1) == 3
    assert t.hand_names(1) == []
    assert disc(t) == ["Beer@7H"]


def test_beer_never_above_starting_life():
    """[K-03] [C-18] A Beer at full life gains nothing.

    Rulebook: "You cannot gain more life points than your starting amount!"
    """
    t = table()
    t.give(0, "Beer")
    t.play(0, "Beer")
    assert t.life(0) == 5  # the Sheriff's 4 + 1
    assert t.hand_names(0) == [] and t.discard_names() == ["Beer"]


def test_beer_does_nothing_with_two_players_left():
    """[K-03] [C-20] With two players left a Beer gives no life.

    Rulebook: "Beer has no effect if there are only 2 players left in the game; in other
    words, if you play a Beer you do not gain any life point"
    """
    t = table()
    t.kill(2).kill(3)
    assert not t.over()
    t.set_life(1, 2)
    t.give(1, "Beer")
    t.play(1, "Beer")
    assert t.life(1) == 2
    assert t.hand_names(1) == [] and t.discard_top() == "Beer"


# --- K-04 Saloon ----------------------------------------------------------------------------


def test_saloon_heals_every_living_player():
    """[K-04] [C-21] Saloon: every living player +1, never above the maximum.

    Rulebook: "The overall effect is that all players in play regain one life point"
    """
    t = table(FIVE)
    t.kill(3)
    t.set_life(0, 2).set_life(2, 1).set_life(4, 3)  # seat 1 stays at its maximum of 4
    t.give(2, "Saloon")
    t.play(2, "Saloon")
    assert [t.life(q) for q in range(5)] == [3, 4, 2, 0, 4]
    assert not t.alive(3)
    assert t.discard_names() == ["Saloon"]


def test_saloon_cannot_save_from_a_lethal_hit():
    """[K-04] [C-21] A Saloon in hand does not answer a lethal hit: the player is eliminated.

    Rulebook: "You cannot play a Saloon out of turn when you are losing your last life point:
    the Saloon is not a Beer !"
    """
    t = table()
    t.set_life(1, 1)
    t.give(0, "BANG!@5C")
    t.give(1, "Saloon")
    t.play(0, "BANG!", target=1)
    assert not t.alive(1) and t.life(1) == 0
    assert disc(t) == ["BANG!@5C", "Saloon@5H"]


def test_saloon_still_heals_with_two_players_left():
    """[K-04] [C-20] Only Beer loses its effect with two players left; a Saloon still heals.

    Rulebook: "Beer has no effect when only two players remain. Saloon heals all living
    players"
    """
    t = table()
    t.kill(2).kill(3)
    t.set_life(0, 3).set_life(1, 2)
    t.give(1, "Saloon")
    t.play(1, "Saloon")
    assert [t.life(q) for q in range(4)] == [4, 3, 0, 0]


# --- K-05 Panic! ----------------------------------------------------------------------------


def test_panic_reaches_distance_one_after_scope_and_mustang_whatever_the_weapon():
    """[K-05] [C-15] [C-16] Panic! reaches distance 1 counting Scope/Mustang; a weapon does
    not extend it.

    Rulebook: "Remember that this distance is not modified by weapons, but only by cards such
    as Mustang and/or Scope"
    """
    t = table(FIVE)
    for q in range(1, 5):
        t.give(q, "Missed!")
    t.give(0, "Panic!")
    t.equip(0, "Winchester")
    assert targets(t, 0, "Panic!") == [1, 4]
    t.equip(1, "Mustang")
    assert targets(t, 0, "Panic!") == [4]
    t.equip(0, "Scope")
    assert targets(t, 0, "Panic!") == [1, 2, 3, 4]


def test_panic_takes_a_card_from_the_hand():
    """[K-05] Panic! takes a (random) card from the target's hand into the player's hand.

    Rulebook: "The symbols state: “Draw a card” from “a player at distance 1”."
    """
    t = table()
    t.give(0, "Panic!")
    t.give(1, "Beer")
    t.play(0, "Panic!", target=1, opt=-1)
    assert t.hand_names(0) == ["Beer"] and t.hand_names(1) == []
    assert t.discard_names() == ["Panic!"]


@pytest.mark.parametrize("slot, taken", [(0, "Barrel"), (1, "Jail"), (2, "Dynamite")])
def test_panic_takes_a_chosen_card_in_play(slot, taken):
    """[K-05] Panic! may take a chosen card in play, Jail and Dynamite included.

    Ruling: "Panic! and Cat Balou take either a random card from the hand or a chosen card in
    play (Jail and Dynamite in play included)."
    """
    t = table()
    t.give(0, "Panic!")
    t.give(1, "Missed!")
    t.equip(1, "Barrel", "Jail", "Dynamite")
    assert {o for name, q, o in t.legal(0) if name == "Panic!" and q == 1} == {-1, 0, 1, 2}
    t.play(0, "Panic!", target=1, opt=slot)
    assert t.hand_names(0) == [taken]
    assert t.in_play(1) == sorted({"Barrel", "Jail", "Dynamite"} - {taken})
    assert t.hand_names(1) == ["Missed!"]
    assert t.discard_names() == ["Panic!"]


# --- K-06 Cat Balou -------------------------------------------------------------------------


def test_cat_balou_reaches_any_distance_and_discards_from_the_hand():
    """[K-06] Cat Balou: any player at any distance discards a card.

    Rulebook: "Force “any one player” to “discard a card”, regardless of the distance"
    """
    t = table(SEVEN)
    t.give(0, "Cat Balou@KH")
    t.give(3, "Beer@8H")
    assert dist(t, 0, 3) == 3
    assert targets(t, 0, "Cat Balou") == [3]  # the only player with a card
    t.play(0, "Cat Balou", target=3, opt=-1)
    assert t.hand_names(3) == [] and t.hand_names(0) == []
    assert disc(t) == ["Cat Balou@KH", "Beer@8H"]


@pytest.mark.parametrize("slot, gone", [(0, "Barrel"), (1, "Jail"), (2, "Dynamite")])
def test_cat_balou_discards_a_chosen_card_in_play(slot, gone):
    """[K-06] Cat Balou may discard a chosen card in play, Jail and Dynamite included.

    Ruling: "Panic! and Cat Balou take either a random card from the hand or a chosen card in
    play (Jail and Dynamite in play included)."
    """
    t = table(SEVEN)
    t.give(0, "Cat Balou")
    t.equip(3, "Barrel", "Jail", "Dynamite")
    t.play(0, "Cat Balou", target=3, opt=slot)
    assert t.in_play(3) == sorted({"Barrel", "Jail", "Dynamite"} - {gone})
    assert t.discard_names() == ["Cat Balou", gone]
    assert t.hand_names(0) == []


# --- K-07 Stagecoach, K-08 Wells Fargo ------------------------------------------------------


def test_stagecoach_draws_two():
    """[K-07] Stagecoach draws the top two cards of the deck.

    Rulebook: "Draw two cards from the top of the deck"
    """
    t = table()
    t.give(0, "Stagecoach")
    t.stack("Beer", "Missed!", "Panic!")
    t.play(0, "Stagecoach")
    assert t.hand_names(0) == ["Beer", "Missed!"]
    assert t.deck_top() == ["Panic!"]
    assert t.discard_names() == ["Stagecoach"]


def test_wells_fargo_draws_three():
    """[K-08] Wells Fargo draws the top three cards of the deck.

    Rulebook: "Draw three cards from the top of the deck"
    """
    t = table()
    t.give(0, "Wells Fargo")
    t.stack("Beer", "Missed!", "Panic!", "Duel")
    t.play(0, "Wells Fargo")
    assert t.hand_names(0) == ["Beer", "Missed!", "Panic!"]
    assert t.deck_top() == ["Duel"]
    assert t.discard_names() == ["Wells Fargo"]


# --- K-09 General Store ---------------------------------------------------------------------


def test_general_store_one_card_per_living_player_picked_clockwise():
    """[K-09] One card per living player is revealed; the player picks first, then clockwise
    over the living. (The bot takes the most valuable: Beer > Missed! > BANG! > Dynamite.)

    Rulebook: "When you play this card, turn as many cards from the deck face up as the
    players still playing. Starting with you and proceeding clockwise, each player chooses
    one of those cards and puts it in his hands"
    """
    t = table(FIVE)
    t.kill(3)
    t.give(2, "General Store")
    t.stack("Dynamite", "BANG!", "Missed!", "Beer", "Stagecoach")
    t.play(2, "General Store")
    assert t.hand_names(2) == ["Beer"]
    assert t.hand_names(4) == ["Missed!"]
    assert t.hand_names(0) == ["BANG!"]
    assert t.hand_names(1) == ["Dynamite"]
    assert t.hand_names(3) == []
    assert t.deck_top() == ["Stagecoach"]  # four living players: four cards revealed
    assert t.discard_names() == ["General Store"]


# --- K-10 Duel ------------------------------------------------------------------------------


def test_duel_reaches_any_player():
    """[K-10] A Duel may challenge any other player, at any distance.

    Rulebook: "With this card you can challenge any other player (staring him in the eyes!),
    regardless of the distance."
    """
    t = table(SEVEN)
    t.give(0, "Duel")
    assert targets(t, 0, "Duel") == [1, 2, 3, 4, 5, 6]


def test_duel_target_discards_first():
    """[K-10] The challenged player answers first: with no BANG! they lose at once, and the
    challenger keeps his BANG!.

    Ruling: "A Duel: the target discards a BANG! first or takes the hit; then the challenger;
    and so on."
    """
    t = table()
    t.give(0, "Duel@QD", "BANG!")
    t.play(0, "Duel", target=1)
    assert t.life(1) == 3 and t.life(0) == 5
    assert t.hand_names(0) == ["BANG!"]
    assert disc(t) == ["Duel@QD"]


def test_duel_alternates_until_one_cannot_discard():
    """[K-10] Target, challenger, target, ...: the first who cannot discard a BANG! loses 1.

    Rulebook: "The challenged player may discard a BANG! card (even though it is not his
    turn!). If he does, you may discard a BANG! card, and so on: the first player failing to
    discard a BANG! card loses one life point , and the duel is over."
    """
    t = table()
    t.give(0, "Duel@QD", "BANG!@2C")
    t.give(1, "BANG!@3C", "BANG!@4C")
    t.play(0, "Duel", target=1)
    assert t.life(0) == 4 and t.life(1) == 4
    assert t.hand_names(0) == [] and t.hand_names(1) == []
    assert disc(t) == ["Duel@QD", "BANG!@3C", "BANG!@2C", "BANG!@4C"]


def test_bang_still_playable_after_a_duel():
    """[K-10] [C-09] BANG!s discarded in a Duel are not played: a BANG! may follow the Duel.

    Rulebook: "The Duel is not a BANG! card. BANG! cards discarded during a Duel are not
    accounted towards the “one BANG! card” limitation"
    """
    t = table()
    t.give(0, "Duel@QD", "BANG!@2C", "BANG!@5C")
    t.give(1, "BANG!@3C")
    t.play(0, "Duel", target=1)
    assert t.life(1) == 3
    assert t.bangs_played() == 0
    assert t.hand_names(0) == ["BANG!"]
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2


def test_missed_and_barrel_are_useless_in_a_duel():
    """[K-10] [K-13] No Missed! and no Barrel draw! against a Duel.

    Rulebook: "You cannot play Missed! or use the Barrel during a duel."
    """
    t = table()
    t.give(0, "Duel")
    t.give(1, "Missed!")
    t.equip(1, "Barrel")
    t.stack(HEART)
    deck = t.deck_size()
    t.play(0, "Duel", target=1)
    assert t.life(1) == 3
    assert t.hand_names(1) == ["Missed!"]
    assert t.deck_size() == deck and t.deck_top() == ["Beer"]
    assert t.discard_names() == ["Duel"]


# --- K-11 Gatling ---------------------------------------------------------------------------


def test_gatling_hits_everyone_at_any_distance_and_is_not_a_bang_card():
    """[K-11] [C-09] Gatling: a BANG! on every other player regardless of distance; it is not
    a BANG! card, so a BANG! may still follow.

    Rulebook: "Even though the Gatling shoots a BANG! to all the other players, it is not
    considered a BANG! card . During your turn you can play any number of Gatling , but only
    one BANG! card"
    """
    t = table(SEVEN)
    t.give(0, "Gatling", "BANG!")
    t.play(0, "Gatling")
    assert [t.life(q) for q in range(7)] == [5, 3, 3, 3, 3, 3, 3]
    assert t.bangs_played() == 0
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2


def test_gatling_answered_by_barrel_and_missed_clockwise_from_the_player():
    """[K-11] [K-13] Missed! and Barrel answer a Gatling; players answer clockwise starting
    after the shooter (seat 2: seats 3, 0, 1 in that order, so seat 3 draws! first).

    Ruling: "Gatling and Indians! resolve player by player clockwise from the player who
    played it; each death is resolved (rewards, Vulture Sam) before the next player answers."
    """
    t = table()
    t.give(2, "Gatling@10H")
    t.give(0, "Missed!@AC")
    t.equip(3, "Barrel@QS")
    t.equip(1, "Barrel@KS")
    t.stack(HEART, CLUB)
    t.play(2, "Gatling")
    assert [t.life(q) for q in range(4)] == [5, 3, 4, 4]
    assert t.hand_names(0) == []
    assert disc(t) == ["Gatling@10H", "Beer@6H", "Missed!@AC", "Missed!@10C"]


def test_gatling_resolves_each_death_before_the_next_player():
    """[K-11] [C-23] An Outlaw killed by the Gatling pays the 3-card reward before the next
    player's Barrel draws!: the Barrel draws the fourth card.

    Ruling: "each death is resolved (rewards, Vulture Sam) before the next player answers."
    """
    t = table(["leader", "outlaw", "outlaw", "renegade"])
    t.give(0, "Gatling")
    t.set_life(1, 1)
    t.equip(2, "Barrel")
    t.stack("Missed!@3S", "Missed!@4S", "Missed!@5S", HEART)
    t.play(0, "Gatling")
    assert not t.alive(1)
    assert t.hand_names(0) == ["Missed!", "Missed!", "Missed!"]  # the reward
    assert t.life(2) == 4  # the Heart: missed
    assert t.life(3) == 3
    assert t.discard_names() == ["Gatling", "Beer"]


# --- K-12 Indians! --------------------------------------------------------------------------


def test_indians_discard_a_bang_or_lose_one_missed_and_barrel_useless():
    """[K-12] [C-09] Indians!: each other player discards a BANG! or loses 1; Missed! and
    Barrel do nothing; it is not a BANG! card.

    Rulebook: "Each player, excluding the one who played this card, may discard a BANG!
    card, or lose one life point. Neither Missed! nor Barrel have effect in this case"
    """
    t = table()
    t.give(0, "Indians!@KD", "BANG!@5C")
    t.give(1, "BANG!@3C")
    t.give(2, "Missed!")
    t.equip(2, "Barrel")
    t.stack(HEART)
    deck = t.deck_size()
    t.play(0, "Indians!")
    assert [t.life(q) for q in range(4)] == [5, 4, 3, 3]
    assert t.hand_names(1) == [] and t.hand_names(2) == ["Missed!"]
    assert t.deck_size() == deck  # no Barrel draw!
    assert disc(t) == ["Indians!@KD", "BANG!@3C"]
    assert t.bangs_played() == 0
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3


# --- K-13 Barrel ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "face, missed",
    [(HEART, True), ("Panic!@QH", True), (DIAMOND, False), (CLUB, False), (BOOM, False)],
)
def test_barrel_draw_cancels_on_a_heart(face, missed):
    """[K-13] [C-28] The Barrel draws! the top card, which is discarded: a Heart cancels.

    Rulebook: "The Barrel allows you to “draw!” when you are the target of a BANG!: - if you
    draw a Heart card, you are Missed! (just like if you played a Missed! card); - otherwise
    nothing happens"
    """
    t = table()
    t.give(0, "BANG!@5C")
    t.equip(1, "Barrel")
    t.stack(face)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == (4 if missed else 3)
    assert disc(t) == ["BANG!@5C", face]
    assert t.in_play(1) == ["Barrel"]


@pytest.mark.parametrize("face", [HEART, CLUB])
def test_barrel_is_tried_before_missed(face):
    """[K-13] [K-02] The Barrel draws! first; the Missed! is played only if it fails.

    Ruling: "Barrel (and Jourdonnais) are tried before any Missed! is played: the check is
    free."
    """
    t = table()
    t.give(0, "BANG!@5C")
    t.give(1, "Missed!@KC")
    t.equip(1, "Barrel")
    t.stack(face)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    if face == HEART:
        assert t.hand_names(1) == ["Missed!"]
        assert disc(t) == ["BANG!@5C", HEART]
    else:
        assert t.hand_names(1) == []
        assert disc(t) == ["BANG!@5C", CLUB, "Missed!@KC"]


# --- K-14 Scope, K-15 Mustang ---------------------------------------------------------------


def test_scope_you_see_others_one_closer_never_below_one():
    """[K-14] [C-16] Scope: its holder sees everyone 1 closer (minimum 1); others see him as
    before; his reach does not change.

    Rulebook: "When you have a Scope in play, you see all the other players at a distance
    decreased by 1. However, other players still see you at the normal distance. Distances
    less than 1 are considered to be 1"
    """
    t = table(FIVE)
    t.give(0, "Scope", "BANG!")
    assert targets(t, 0, "BANG!") == [1, 4]
    t.play(0, "Scope", target=0)
    assert t.in_play(0) == ["Scope"] and t.hand_names(0) == ["BANG!"]
    assert [dist(t, 0, q) for q in range(1, 5)] == [1, 1, 1, 1]
    assert [dist(t, q, 0) for q in range(1, 5)] == [1, 2, 2, 1]
    assert t.call(reach, 0) == 1
    assert targets(t, 0, "BANG!") == [1, 2, 3, 4]


def test_mustang_others_see_you_one_farther():
    """[K-15] [C-16] Mustang: others see its holder 1 farther; he sees them as before.

    Rulebook: "When you have a Mustang horse in play the distance between other players and
    you is increased by 1. However, you still see the other players at the normal distance"
    """
    t = table()
    t.give(1, "Mustang")
    t.give(0, "BANG!")
    assert targets(t, 0, "BANG!") == [1, 3]
    t.play(1, "Mustang", target=1)
    assert t.in_play(1) == ["Mustang"]
    assert dist(t, 0, 1) == 2 and dist(t, 2, 1) == 2 and dist(t, 3, 1) == 3
    assert dist(t, 1, 0) == 1 and dist(t, 1, 2) == 1 and dist(t, 1, 3) == 2
    assert targets(t, 0, "BANG!") == [3]


# --- K-16 Jail ------------------------------------------------------------------------------


def test_jail_never_on_the_sheriff():
    """[K-16] [C-12] Jail goes in front of another player, never the Sheriff.

    Rulebook: "Play this card in front of any player regardless of the distance: you put him
    in jail! ... Jail cannot be played on the Sheriff"
    """
    t = table(SEVEN)
    t.give(2, "Jail")
    assert targets(t, 2, "Jail") == [1, 3, 4, 5, 6]
    t.give(0, "Jail")
    assert targets(t, 0, "Jail") == [1, 2, 3, 4, 5, 6]
    t.play(2, "Jail", target=4)
    assert t.in_play(4) == ["Jail"] and t.in_play(2) == [] and t.hand_names(2) == []


def test_jail_heart_escapes_and_the_turn_goes_on():
    """[K-16] [C-28] A Heart: the Jail is discarded and the turn is played as normal.

    Rulebook: "if you draw a Heart card, you escape from jail: discard the Jail , and
    continue your turn as normal"
    """
    t = table(chars=["Black Jack", "Kit Carlson", "Slab the Killer", "Jesse Jones"])
    t.give(2, "Stagecoach")
    t.equip(2, "Jail")
    t.stack(HEART, "Missed!@KC", "Missed!@QC", "Missed!@JC", "Missed!@10C")
    t.turn(2)
    assert t.hand_names(2) == ["Missed!"] * 4  # drew two, played Stagecoach for two more
    assert t.in_play(2) == []
    assert t.discard_names() == ["Beer", "Jail", "Stagecoach"]


def test_jail_without_a_heart_skips_the_whole_turn():
    """[K-16] A failed draw!: the Jail is discarded and the turn is skipped, draw included.

    Rulebook: "otherwise discard the Jail and skip your turn."
    """
    t = table(chars=["Black Jack", "Kit Carlson", "Slab the Killer", "Jesse Jones"])
    t.give(2, "Stagecoach")
    t.equip(2, "Jail@JS")
    t.stack(CLUB, "Missed!@KC", "Missed!@QC")
    t.turn(2)
    assert t.hand_names(2) == ["Stagecoach"]
    assert t.in_play(2) == []
    assert t.deck_top(2) == ["Missed!", "Missed!"]
    assert disc(t) == [CLUB, "Jail@JS"]


def test_jailed_player_can_be_shot_and_answer():
    """[K-16] [C-19] In Jail a player is still a target and still plays Missed! and Beer.

    Rulebook: "If you are in Jail you remain a possible target for BANG! cards and can still
    play response cards (e.g. Missed! and Beer ) out of your turn, if necessary."
    """
    t = table()
    t.equip(2, "Jail")
    t.give(2, "Missed!", "Beer")
    t.give(3, "BANG!", "BANG!")
    t.play(3, "BANG!", target=2)
    assert t.life(2) == 4 and t.hand_names(2) == ["Beer"]
    t.set_life(2, 1)
    t.new_turn(3)
    t.play(3, "BANG!", target=2)
    assert t.alive(2) and t.life(2) == 1 and t.hand_names(2) == []
    assert t.in_play(2) == ["Jail"]


# --- K-17 Dynamite --------------------------------------------------------------------------


def test_dynamite_is_played_in_front_of_yourself():
    """[K-17] [C-12] Dynamite stays in play in front of the player who plays it.

    Rulebook: "Play this card in front of you: the Dynamite will stay there for a whole
    turn."
    """
    t = table()
    t.give(1, "Dynamite")
    assert targets(t, 1, "Dynamite") == [1]
    t.play(1, "Dynamite", target=1)
    assert t.in_play(1) == ["Dynamite"] and t.hand_names(1) == []


@pytest.mark.parametrize(
    "face, boom",
    [
        ("Missed!@2S", True),
        ("Missed!@5S", True),
        ("Stagecoach@9S", True),
        ("Winchester@8S", True),
        ("Volcanic@10S", False),
        ("Jail@JS", False),
        ("BANG!@AS", False),
        ("Saloon@5H", False),
        ("BANG!@5C", False),
        ("BANG!@9D", False),
    ],
)
def test_dynamite_explodes_on_spades_two_to_nine_else_passes(face, boom):
    """[K-17] [C-28] Spades 2-9: the Dynamite explodes for 3 and is discarded; any other face:
    it passes to the next player. The draw! card is discarded.

    Rulebook: "if you draw a card showing Spades and a number between 2 and 9, the Dynamite
    explodes! Discard it and lose 3 life points; - otherwise, pass the Dynamite to the player
    on your left"
    """
    t = table()
    t.equip(1, "Dynamite")
    t.stack(face)
    assert t.start_of_turn(1)
    if boom:
        assert t.life(1) == 1
        assert disc(t) == [face, "Dynamite@2H"]
        assert t.in_play(2) == []
    else:
        assert t.life(1) == 4
        assert disc(t) == [face]
        assert t.in_play(2) == ["Dynamite"]
    assert t.in_play(1) == []


def test_dynamite_passes_to_the_next_living_player():
    """[K-17] An unexploded Dynamite skips eliminated seats; from the last seat it wraps to
    seat 0.

    Ruling: "Dynamite that does not explode passes to the next living player on the left"
    """
    t = table(FIVE)
    t.kill(3)
    t.equip(2, "Dynamite")
    t.stack(CLUB)
    t.start_of_turn(2)
    assert t.in_play(2) == [] and t.in_play(3) == [] and t.in_play(4) == ["Dynamite"]
    t.stack("Missed!@JC")
    t.start_of_turn(4)
    assert t.in_play(4) == [] and t.in_play(0) == ["Dynamite"]


def test_dynamite_kill_is_caused_by_no_one():
    """[K-17] [C-23] An Outlaw killed by Dynamite pays no reward to anyone.

    Rulebook: "If you are damaged (or even eliminated!) by a Dynamite , this damage is not
    considered to be caused by any player"
    """
    t = table()
    t.set_life(2, 3)
    t.equip(2, "Dynamite")
    t.stack(BOOM)
    deck = t.deck_size()
    assert not t.start_of_turn(2)
    assert not t.alive(2)
    assert not t.over()
    assert [t.hand_names(q) for q in (0, 1, 3)] == [[], [], []]
    assert t.deck_size() == deck - 1  # only the draw! card left the deck


def test_dynamite_is_checked_before_jail():
    """[K-16] [K-17] [C-29] With Dynamite and Jail in play, the Dynamite draws! first: here
    the Heart saves from the Dynamite, and the Spades 2 then fails the Jail.

    Rulebook: "If you have both the Dynamite and a Jail in play, check the Dynamite first."
    """
    t = table()
    t.equip(2, "Jail@JS", "Dynamite")
    t.stack(HEART, BOOM)
    assert not t.start_of_turn(2)
    assert t.life(2) == 4
    assert t.in_play(2) == [] and t.in_play(3) == ["Dynamite"]
    assert disc(t) == [HEART, BOOM, "Jail@JS"]


# --- K-18 .. K-22 weapons, C-10, C-11 -------------------------------------------------------


def test_volcanic_any_number_of_bangs_at_reach_one():
    """[K-18] [C-11] Volcanic: several BANG!s in a turn, at distance 1 only; it replaces the
    weapon in play.

    Rulebook: "with this card in play you may play any number of BANG! cards during your
    turn. These BANG! cards can be aimed at the same or different targets, but are limited
    to a distance of 1"
    """
    t = table()
    t.equip(0, "Remington")
    t.give(0, "Volcanic", "BANG!", "BANG!", "BANG!")
    assert targets(t, 0, "BANG!") == [1, 2, 3]
    t.play(0, "Volcanic", target=0)
    assert t.in_play(0) == ["Volcanic"] and t.discard_names() == ["Remington"]
    assert targets(t, 0, "BANG!") == [1, 3]
    t.play(0, "BANG!", target=1).play(0, "BANG!", target=1).play(0, "BANG!", target=3)
    assert t.bangs_played() == 3
    assert [t.life(q) for q in range(4)] == [5, 2, 4, 3]


@pytest.mark.parametrize(
    "weapon, value, seats",
    [
        (None, 1, [1, 6]),
        ("Schofield", 2, [1, 2, 6]),
        ("Remington", 3, [1, 2, 3, 6]),
        ("Rev. Carabine", 4, [1, 2, 3, 5, 6]),
        ("Winchester", 5, [1, 2, 3, 4, 5, 6]),
    ],
)
def test_weapon_reach(weapon, value, seats):
    """[K-19] [K-20] [K-21] [K-22] [C-11] [C-15] Each weapon reaches its printed distance
    (the Colt .45 reaches 1); distances are 1, 2, 3 and, with Mustangs, 4 and 5.

    Rulebook: "The Colt .45 printed on each board reaches distance 1. A weapon card replaces
    that maximum with the number shown in its sight; it does not change seating distance."
    """
    chars = PLAIN + ["Paul Regret", "Paul Regret", "Black Jack"]
    t = table(SEVEN, chars=chars)
    t.equip(4, "Mustang@8H")  # 3 + Paul Regret + Mustang
    t.equip(5, "Mustang@9H")  # 2 + Paul Regret + Mustang
    assert [dist(t, 0, q) for q in range(1, 7)] == [1, 2, 3, 5, 4, 1]
    t.give(0, "BANG!")
    if weapon:
        t.give(0, weapon)
        t.play(0, weapon, target=0)
        assert t.in_play(0) == [weapon]
    assert t.call(reach, 0) == value
    assert [dist(t, 0, q) for q in range(1, 7)] == [1, 2, 3, 5, 4, 1]
    assert targets(t, 0, "BANG!") == seats


def test_a_new_weapon_replaces_the_old_one():
    """[C-11] [K-19] [K-20] One weapon in play: the new one replaces the old, which is
    discarded and no longer counts, even when the new one reaches less.

    Rulebook: "You may have only one weapon in play." / "A new weapon replaces the old one."
    """
    t = table(FIVE)
    t.give(0, "Schofield@JC", "Remington@KC", "Schofield@QC")
    t.play(0, "Schofield@JC", target=0)
    assert t.in_play(0) == ["Schofield"]
    assert t.call(reach, 0) == 2
    t.play(0, "Remington", target=0)
    assert t.in_play(0) == ["Remington"] and t.hand_names(0) == ["Schofield"]
    assert disc(t) == ["Schofield@JC"]
    assert t.call(reach, 0) == 3
    t.play(0, "Schofield", target=0)
    assert t.in_play(0) == ["Schofield"] and t.hand_names(0) == []
    assert disc(t) == ["Schofield@JC", "Remington@KC"]
    assert t.call(reach, 0) == 2


def test_one_copy_of_each_name_in_play():
    """[C-10] A second Barrel, Mustang or Schofield is not playable while one is in play; a
    different weapon is; a player already in Jail cannot be jailed again.

    Rulebook: "The general limits are one BANG! card per turn, one copy of each named card in
    play, and one weapon in play."
    """
    t = table()
    t.equip(1, "Barrel@QS", "Mustang@8H", "Schofield@JC")
    t.give(1, "Barrel@KS", "Mustang@9H", "Schofield@QC", "Remington")
    assert sorted(name for name, _, _ in t.legal(1)) == ["Remington"]
    t.equip(2, "Jail@JS")
    t.give(0, "Jail@10S")
    assert targets(t, 0, "Jail") == [1, 3]
