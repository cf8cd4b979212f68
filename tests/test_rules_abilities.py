"""Rules scenarios for the 16 classic character abilities (checklist A-01 .. A-16).

Every test builds a hand-set table (tests/scenario.py): all 80 cards start in the draw pile,
hands and cards in play are given, the deck top is stacked, then the real kernel plays.
Each docstring names the checklist IDs it covers and quotes the rulebook
(shared/rules/classic_bang.txt) or the rulings.md line (shared/reference/rulings.md) it
checks. Faces matter for draw! checks: a Heart ("Beer@6H") passes a Barrel or Jail check,
"Missed!@10C" (a Club) passes nothing, "Missed!@2S" (Spades 2) makes Dynamite explode.
"""

import pytest
from scenario import Table

from simcore.engine.board import distance

# a Heart, a Diamond, a Club and Spades 2-9 for draw! checks and Black Jack's second card
HEART = "Beer@6H"
HEART2 = "Beer@7H"
HEART3 = "Beer@8H"
DIAMOND = "BANG!@2D"
CLUB = "Missed!@10C"
CLUB2 = "Missed!@JC"
BOOM = "Missed!@2S"  # Spades 2: the Dynamite explodes
BOOM2 = "Missed!@3S"

FOUR = ["leader", "renegade", "outlaw", "outlaw"]
FIVE = ["leader", "renegade", "outlaw", "outlaw", "deputy"]


# --- A-01 Bart Cassidy ---------------------------------------------------------------------


def test_bart_cassidy_draws_one_per_bang_hit():
    """[A-01] [C-17] Bart Cassidy draws a card when a BANG! takes a life.

    Rulebook: "Each time he loses a life point, he immediately draws a card from the deck"
    """
    t = Table(["Willy the Kid", "Bart Cassidy", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.stack(HEART, CLUB)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3
    assert t.hand_names(1) == ["Beer"]  # exactly one card: the deck top
    assert t.deck_top() == ["Missed!"]
    assert t.discard_names() == ["BANG!"]


def test_bart_cassidy_draws_three_for_dynamite():
    """[A-01] [K-17] Dynamite costs Bart three lives, so he draws three cards.

    rulings.md: "Bart Cassidy draws one card per life lost (three for a Dynamite), only if he
    survives."
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Bart Cassidy", "Jesse Jones"], roles=FOUR)
    t.equip(2, "Dynamite")
    t.stack(BOOM, HEART, HEART2, CLUB, CLUB2)
    assert t.start_of_turn(2) is True
    assert t.life(2) == 1
    assert t.hand_names(2) == ["Beer", "Beer", "Missed!"]
    assert t.deck_top() == ["Missed!"]  # the fourth card after the check is still there
    assert t.discard_names() == ["Missed!", "Dynamite"]
    assert t.in_play(2) == [] and t.in_play(3) == []


def test_bart_cassidy_draws_nothing_when_eliminated():
    """[A-01] [C-22] A lethal hit that Bart does not survive draws him nothing.

    rulings.md: "Bart Cassidy draws one card per life lost (three for a Dynamite), only if he
    survives."
    """
    t = Table(["Willy the Kid", "Bart Cassidy", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.give(1, "Stagecoach")
    t.stack(HEART, CLUB)
    size = t.deck_size()
    t.play(0, "BANG!", target=1)
    assert not t.alive(1)
    assert t.deck_size() == size  # the Renegade's death: no reward, and Bart drew nothing
    assert t.deck_top(2) == ["Beer", "Missed!"]
    assert sorted(t.discard_names()) == ["BANG!", "Stagecoach"]
    assert not t.over()


def test_bart_cassidy_saved_by_beer_still_draws():
    """[A-01] [C-19] Bart survives a lethal hit with a Beer: he lost a life, so he draws one.

    Rulebook: "Each time he loses a life point, he immediately draws a card from the deck"
    """
    t = Table(["Willy the Kid", "Bart Cassidy", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.give(1, "Beer@9H")
    t.stack(CLUB, HEART)
    t.play(0, "BANG!", target=1)
    assert t.alive(1) and t.life(1) == 1
    assert t.hand_names(1) == ["Missed!"]
    assert t.deck_top() == ["Beer"]
    assert t.discard_names() == ["BANG!", "Beer"]


def test_bart_cassidy_draws_when_losing_a_duel():
    """[A-01] [K-10] Any lost life counts, a Duel's too.

    Rulebook: "Each time he loses a life point, he immediately draws a card from the deck"
    """
    t = Table(["Willy the Kid", "Bart Cassidy", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "Duel", "BANG!")
    t.stack(CLUB)
    t.play(0, "Duel", target=1)
    assert t.life(1) == 3
    assert t.hand_names(1) == ["Missed!"]
    assert t.hand_names(0) == ["BANG!"]


# --- A-02 Black Jack -----------------------------------------------------------------------


@pytest.mark.parametrize("second", [HEART, DIAMOND])
def test_black_jack_red_second_card_draws_one_more(second):
    """[A-02] [C-06] A Heart or Diamond as Black Jack's second draw gives him a third card.

    Rulebook: "During phase 1 of his turn, he must show the second card he draws: if it’s
    Heart or Diamonds (just like a “draw!”), he draws one additional card (without revealing
    it)"
    """
    t = Table(["Willy the Kid", "Black Jack", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.stack("Cat Balou@KH", second, CLUB, CLUB2)
    t.draw_phase(1)
    second_name = second.split("@")[0]
    assert t.hand_names(1) == sorted(["Cat Balou", second_name, "Missed!"])
    assert t.deck_top() == ["Missed!"]  # the fourth card stays
    assert t.deck_size() == 80 - 3


def test_black_jack_black_second_card_draws_two():
    """[A-02] Only the second card is shown: a red first card and a black second give two.

    Rulebook: "During phase 1 of his turn, he must show the second card he draws: if it’s
    Heart or Diamonds (just like a “draw!”), he draws one additional card (without revealing
    it)"
    """
    t = Table(["Willy the Kid", "Black Jack", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.stack(HEART, CLUB, HEART2)
    t.draw_phase(1)
    assert t.hand_names(1) == ["Beer", "Missed!"]
    assert t.deck_top() == ["Beer"]
    assert t.deck_size() == 80 - 2


def test_black_jack_stagecoach_is_not_phase_one():
    """[A-02] [K-07] Drawing with a Stagecoach is not phase 1: a red second card draws
    nothing more.

    Rulebook: "During phase 1 of his turn, he must show the second card he draws"
    """
    t = Table(["Willy the Kid", "Black Jack", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(1, "Stagecoach")
    t.stack(CLUB, HEART, HEART2)
    t.play(1, "Stagecoach")
    assert t.hand_names(1) == ["Beer", "Missed!"]
    assert t.deck_top() == ["Beer"]


# --- A-03 Calamity Janet -------------------------------------------------------------------


def test_calamity_janet_bang_as_missed():
    """[A-03] [C-17] Calamity Janet cancels a BANG! by discarding a BANG!.

    Rulebook: "She can use BANG! cards as Missed! cards and vice versa."
    """
    t = Table(["Willy the Kid", "Calamity Janet", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!@2C")
    t.give(1, "BANG!@3C")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert t.discard_names() == ["BANG!", "BANG!"]


def test_calamity_janet_missed_as_bang_is_her_one_bang():
    """[A-03] [C-09] Janet shoots a Missed! as a BANG!; it is her BANG! for the turn.

    Rulebook: "If she plays a Missed! as a BANG! , she cannot play another BANG! card that
    turn (unless she has a Volcanic in play)"
    """
    t = Table(["Willy the Kid", "Calamity Janet", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.new_turn(1)
    t.give(1, "Missed!", "BANG!")
    t.play(1, "Missed!", target=0)
    assert t.life(0) == 4  # the Sheriff: 4 + 1, one lost
    assert t.bangs_played() == 1
    assert t.discard_names() == ["Missed!"]
    assert not t.can_play(1, "BANG!")
    assert t.hand_names(1) == ["BANG!"]


def test_calamity_janet_bang_then_no_missed_as_bang():
    """[A-03] [C-09] After her BANG! card, a Missed! is no second BANG!.

    rulings.md: "Calamity Janet's Missed! played as a BANG! is her one BANG! for the turn
    (unless she has a Volcanic)."
    """
    t = Table(["Willy the Kid", "Calamity Janet", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.new_turn(1)
    t.give(1, "Missed!", "BANG!")
    t.play(1, "BANG!", target=2)
    assert t.life(2) == 3
    assert not t.can_play(1, "Missed!")
    assert t.legal(1) == []


def test_calamity_janet_missed_as_bang_with_volcanic():
    """[A-03] [K-18] With a Volcanic in play her Missed! BANG!s are unlimited, at reach 1.

    rulings.md: "Calamity Janet's Missed! played as a BANG! is her one BANG! for the turn
    (unless she has a Volcanic)."
    """
    t = Table(["Willy the Kid", "Calamity Janet", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.new_turn(1)
    t.equip(1, "Volcanic")
    t.give(1, "Missed!@2S", "Missed!@3S", "BANG!")
    t.play(1, "Missed!", target=0)
    t.play(1, "Missed!", target=2)
    t.play(1, "BANG!", target=0)
    assert t.bangs_played() == 3
    assert t.life(0) == 3 and t.life(2) == 3
    assert t.hand_names(1) == []
    assert t.discard_names() == ["Missed!", "Missed!", "BANG!"]


def test_calamity_janet_missed_as_bang_in_a_duel():
    """[A-03] [K-10] In a Duel Janet discards a Missed! as a BANG!.

    rulings.md: "Calamity Janet may use Missed! as BANG! in a Duel and against Indians!."
    """
    t = Table(["Willy the Kid", "Calamity Janet", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "Duel")
    t.give(1, "Missed!")
    t.play(0, "Duel", target=1)
    assert t.life(1) == 4
    assert t.life(0) == 4  # the challenger had no BANG! to answer with
    assert t.hand_names(1) == []
    assert t.discard_names() == ["Duel", "Missed!"]


def test_calamity_janet_missed_as_bang_against_indians():
    """[A-03] [K-12] Against Indians! Janet discards a Missed! as a BANG!.

    rulings.md: "Calamity Janet may use Missed! as BANG! in a Duel and against Indians!."
    """
    t = Table(["Willy the Kid", "Calamity Janet", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "Indians!")
    t.give(1, "Missed!")
    t.give(2, "Missed!")
    t.play(0, "Indians!")
    assert t.life(1) == 4 and t.hand_names(1) == []
    assert t.life(2) == 3 and t.hand_names(2) == ["Missed!"]  # not Janet: Missed! is useless
    assert t.life(3) == 3
    assert t.discard_names() == ["Indians!", "Missed!"]


# --- A-04 El Gringo ------------------------------------------------------------------------


def test_el_gringo_takes_a_card_from_the_shooter():
    """[A-04] [C-03] El Gringo (3 life) hit by a BANG! takes a random card from the shooter's
    hand: the shooter's only card here.

    Rulebook: "Each time he loses a life point due to a card played by another player, he
    draws a random card from the hands of that player (one card for each life point)."
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    assert t.life(1) == 3
    t.give(0, "BANG!", "Beer")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2
    assert t.hand_names(1) == ["Beer"]
    assert t.hand_names(0) == []
    assert t.discard_names() == ["BANG!"]


def test_el_gringo_takes_one_random_card_per_life():
    """[A-04] One life lost, one card: a random one of the shooter's three.

    Rulebook: "he draws a random card from the hands of that player (one card for each life
    point)."
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!", "Beer", "Panic!", "Cat Balou")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2
    taken = t.hand_names(1)
    assert len(taken) == 1
    assert sorted(taken + t.hand_names(0)) == ["Beer", "Cat Balou", "Panic!"]


def test_el_gringo_saved_by_beer_still_takes_a_card():
    """[A-04] [C-19] A lethal BANG!, a Beer: El Gringo survives, lost a life, and takes a
    card from the shooter.

    rulings.md: "El Gringo draws one random card from the hand of the player whose card hurt
    him, per life lost"
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.set_life(1, 1)
    t.give(0, "BANG!", "Panic!")
    t.give(1, "Beer")
    t.play(0, "BANG!", target=1)
    assert t.alive(1) and t.life(1) == 1
    assert t.hand_names(1) == ["Panic!"]
    assert t.hand_names(0) == []
    assert t.discard_names() == ["BANG!", "Beer"]


def test_el_gringo_nothing_from_an_empty_hand():
    """[A-04] The shooter's BANG! was his last card: El Gringo gets nothing.

    Rulebook: "If that player has no more cards, too bad!, he does not draw."
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    size = t.deck_size()
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2
    assert t.hand_names(1) == []
    assert t.deck_size() == size


def test_el_gringo_nothing_for_dynamite():
    """[A-04] [K-17] Dynamite damage is caused by no one: El Gringo takes nothing.

    Rulebook: "Note that Dynamite damages are not caused by any player"
    """
    t = Table(["El Gringo", "Willy the Kid", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    assert t.life(0) == 4  # El Gringo as Sheriff: 3 + 1
    t.equip(0, "Dynamite")
    for q in (1, 2, 3):
        t.give(q, "Beer")
    t.stack(BOOM)
    assert t.start_of_turn(0) is True
    assert t.life(0) == 1
    assert t.hand_names(0) == []
    for q in (1, 2, 3):
        assert t.hand_names(q) == ["Beer"]
    assert t.discard_names() == ["Missed!", "Dynamite"]


def test_el_gringo_nothing_for_a_duel_he_started_and_lost():
    """[A-04] [K-10] El Gringo challenges and loses: his own card hurt him, no card taken.

    rulings.md: "El Gringo draws one random card from the hand of the player whose card hurt
    him, per life lost; not for damage he caused himself (a Duel he started and lost), not for
    Dynamite."
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.new_turn(1)
    t.give(1, "Duel")
    t.give(2, "BANG!", "Beer")
    t.play(1, "Duel", target=2)
    assert t.life(1) == 2
    assert t.hand_names(1) == []
    assert t.hand_names(2) == ["Beer"]
    assert t.discard_names() == ["Duel", "BANG!"]


def test_el_gringo_takes_from_the_challenger_of_a_duel():
    """[A-04] [K-10] Another player's Duel costs El Gringo a life: he takes from that player.

    rulings.md: "El Gringo draws one random card from the hand of the player whose card hurt
    him, per life lost"
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.new_turn(2)
    t.give(2, "Duel", "Beer")
    t.play(2, "Duel", target=1)
    assert t.life(1) == 2
    assert t.hand_names(1) == ["Beer"]
    assert t.hand_names(2) == []


def test_el_gringo_takes_from_the_indians_player():
    """[A-04] [K-12] Indians! is a card played by another player too.

    Rulebook: "Each time he loses a life point due to a card played by another player, he
    draws a random card from the hands of that player (one card for each life point)."
    """
    t = Table(["Willy the Kid", "El Gringo", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "Indians!", "Wells Fargo")
    t.give(2, "BANG!")
    t.give(3, "BANG!")
    t.play(0, "Indians!")
    assert t.life(1) == 2
    assert t.hand_names(1) == ["Wells Fargo"]
    assert t.hand_names(0) == []
    assert t.life(2) == 4 and t.life(3) == 4


# --- A-05 Jesse Jones ----------------------------------------------------------------------


def test_jesse_jones_first_card_from_a_players_hand():
    """[A-05] Jesse Jones (an Outlaw) takes his first card from the Sheriff's hand, the
    second from the deck.

    Rulebook: "During phase 1 of his turn, he may choose to draw the first card from the
    deck, or randomly from the hand of any other player. Then he draws the second card from
    the deck"
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Jesse Jones", "Black Jack"], roles=FOUR)
    t.give(0, "Beer")
    t.stack(CLUB, HEART)
    t.draw_phase(2)
    assert t.hand_names(2) == ["Beer", "Missed!"]
    assert t.hand_names(0) == []
    assert t.deck_top() == ["Beer"]  # only one card came from the deck
    assert t.deck_size() == 80 - 2


def test_jesse_jones_takes_at_random():
    """[A-05] The card taken from the other player's hand is a random one.

    rulings.md: "Jesse Jones may take the first card at random from any other player who has
    cards in hand"
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Jesse Jones", "Black Jack"], roles=FOUR)
    t.give(0, "Beer", "Panic!", "Cat Balou")
    t.stack(CLUB)
    t.draw_phase(2)
    mine = t.hand_names(2)
    assert len(mine) == 2 and "Missed!" in mine
    mine.remove("Missed!")
    assert sorted(mine + t.hand_names(0)) == ["Beer", "Cat Balou", "Panic!"]
    assert len(t.hand_names(0)) == 2


def test_jesse_jones_draws_from_the_deck_when_no_hand_has_cards():
    """[A-05] [C-06] With every other hand empty he draws both cards from the deck.

    rulings.md: "Jesse Jones may take the first card at random from any other player who has
    cards in hand"
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Jesse Jones", "Black Jack"], roles=FOUR)
    t.stack(CLUB, HEART, HEART2)
    t.draw_phase(2)
    assert t.hand_names(2) == ["Beer", "Missed!"]
    assert t.deck_top() == ["Beer"]
    assert t.deck_size() == 80 - 2


# --- A-06 Jourdonnais ----------------------------------------------------------------------


def test_jourdonnais_builtin_barrel_before_missed():
    """[A-06] [K-13] Jourdonnais draws! first: a Heart cancels the BANG! and he keeps his
    Missed!.

    Rulebook: "He is considered to have a Barrel in play at all times; he can “draw!” when he
    is the target of a BANG! , and on a Heart he is missed."
    """
    t = Table(["Willy the Kid", "Jourdonnais", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.give(1, "Missed!@JC")
    t.stack(HEART, CLUB)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == ["Missed!"]
    assert t.discard_names() == ["BANG!", "Beer"]
    assert t.deck_top() == ["Missed!"]


def test_jourdonnais_builtin_barrel_fails_then_missed():
    """[A-06] [K-02] One try only without a real Barrel: a Club, then his Missed!.

    Rulebook: "He is considered to have a Barrel in play at all times; he can “draw!” when he
    is the target of a BANG! , and on a Heart he is missed."
    """
    t = Table(["Willy the Kid", "Jourdonnais", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.give(1, "Missed!@JC")
    t.stack(CLUB, HEART)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert t.discard_names() == ["BANG!", "Missed!", "Missed!"]
    assert t.deck_top() == ["Beer"]  # no second draw!


def test_jourdonnais_with_a_real_barrel_two_tries():
    """[A-06] [K-13] With a real Barrel he draws! twice: a Club, then a Heart cancels.

    Rulebook: "If he has another real Barrel card in play, he can count both of them, giving
    him two chances to cancel the BANG! before playing a Missed!"
    """
    t = Table(["Willy the Kid", "Jourdonnais", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.give(1, "Missed!@JC")
    t.stack(CLUB, HEART, HEART2)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == ["Missed!"]
    assert t.in_play(1) == ["Barrel"]
    assert t.discard_names() == ["BANG!", "Missed!", "Beer"]
    assert t.deck_top() == ["Beer"]


def test_jourdonnais_both_tries_fail():
    """[A-06] Two failed draw!s and no Missed!: he is hit.

    Rulebook: "giving him two chances to cancel the BANG! before playing a Missed!"
    """
    t = Table(["Willy the Kid", "Jourdonnais", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.stack(CLUB, CLUB2, HEART)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3
    assert t.discard_names() == ["BANG!", "Missed!", "Missed!"]
    assert t.deck_top() == ["Beer"]


# --- A-07 Kit Carlson ----------------------------------------------------------------------


def test_kit_carlson_keeps_two_of_three_and_returns_one_on_top():
    """[A-07] Kit Carlson looks at three, keeps two, and the third goes back on top.

    Rulebook: "During phase 1 of his turn, he looks at the top three cards of the deck: he
    chooses 2 to draw, and puts the other one back on the top of the deck, face down"
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Black Jack", "Jesse Jones"], roles=FOUR)
    t.stack(HEART, "Dynamite", CLUB, "Wells Fargo")
    t.draw_phase(1)
    assert t.hand_names(1) == ["Beer", "Missed!"]  # the bot returns the Dynamite
    assert t.deck_top(2) == ["Dynamite", "Wells Fargo"]
    assert t.deck_size() == 80 - 2
    assert t.discard_names() == []


def test_kit_carlson_returned_card_is_the_next_draw():
    """[A-07] [C-06] The returned card is the next card anyone draws.

    rulings.md: "Kit Carlson puts the card he does not keep back on top of the deck."
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Bart Cassidy", "Jesse Jones"], roles=FOUR)
    t.stack("Dynamite", HEART, CLUB, "Wells Fargo", "Stagecoach")
    t.draw_phase(1)
    t.draw_phase(2)
    assert t.hand_names(1) == ["Beer", "Missed!"]
    assert t.hand_names(2) == ["Dynamite", "Wells Fargo"]


# --- A-08 Lucky Duke -----------------------------------------------------------------------


def test_lucky_duke_barrel_flips_two():
    """[A-08] [K-13] Lucky Duke's Barrel flips two: a Club and a Heart cancel the BANG!, and
    both cards are discarded.

    Rulebook: "Each time he is required to “draw!”, he flips the top two cards from the deck,
    and chooses the result he prefers. Discard both cards afterwards"
    """
    t = Table(["Willy the Kid", "Lucky Duke", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.give(1, "Missed!@JC")
    t.stack(CLUB, HEART, HEART2)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == ["Missed!"]
    assert t.discard_names() == ["BANG!", "Missed!", "Beer"]
    assert t.deck_top() == ["Beer"]


def test_lucky_duke_barrel_two_failures():
    """[A-08] [K-13] Neither card a Heart: the Barrel fails and he plays his Missed!.

    Rulebook: "Each time he is required to “draw!”, he flips the top two cards from the deck,
    and chooses the result he prefers. Discard both cards afterwards"
    """
    t = Table(["Willy the Kid", "Lucky Duke", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.give(1, "Missed!@QC")
    t.stack(CLUB, CLUB2, HEART)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert t.discard_names() == ["BANG!", "Missed!", "Missed!", "Missed!"]
    assert t.deck_top() == ["Beer"]


def test_lucky_duke_jail_flips_two():
    """[A-08] [K-16] In Jail, a Club and a Heart: he escapes; Jail and both cards discarded.

    rulings.md: "Lucky Duke draws two for every draw! (Barrel, Jail, Dynamite) and picks the
    result; both cards are discarded."
    """
    t = Table(["Willy the Kid", "Lucky Duke", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.equip(1, "Jail")
    t.stack(CLUB, HEART, HEART2)
    assert t.start_of_turn(1) is True
    assert t.in_play(1) == []
    assert t.discard_names() == ["Missed!", "Beer", "Jail"]
    assert t.deck_top() == ["Beer"]
    # the same two cards keep any other character in Jail
    u = Table(["Willy the Kid", "Kit Carlson", "Lucky Duke", "Jesse Jones"], roles=FOUR)
    u.equip(1, "Jail")
    u.stack(CLUB, HEART)
    assert u.start_of_turn(1) is False
    assert u.discard_names() == ["Missed!", "Jail"]


def test_lucky_duke_dynamite_picks_the_safe_card():
    """[A-08] [K-17] Dynamite: Spades 2 and a Club; he picks the Club, so it passes left.

    rulings.md: "Lucky Duke draws two for every draw! (Barrel, Jail, Dynamite) and picks the
    result; both cards are discarded."
    """
    t = Table(["Willy the Kid", "Lucky Duke", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.equip(1, "Dynamite")
    t.stack(BOOM, CLUB, HEART)
    assert t.start_of_turn(1) is True
    assert t.life(1) == 4
    assert t.in_play(1) == []
    assert t.in_play(2) == ["Dynamite"]
    assert t.discard_names() == ["Missed!", "Missed!"]
    assert t.deck_top() == ["Beer"]


def test_lucky_duke_dynamite_explodes_only_on_two_bad_cards():
    """[A-08] [K-17] Both cards Spades 2-9: the Dynamite explodes.

    rulings.md: "Lucky Duke draws two for every draw! (Barrel, Jail, Dynamite) and picks the
    result; both cards are discarded."
    """
    t = Table(["Willy the Kid", "Lucky Duke", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.equip(1, "Dynamite")
    t.stack(BOOM, BOOM2, HEART)
    assert t.start_of_turn(1) is True
    assert t.life(1) == 1
    assert t.in_play(1) == [] and t.in_play(2) == []
    assert t.discard_names() == ["Missed!", "Missed!", "Dynamite"]
    assert t.deck_top() == ["Beer"]


# --- A-09 Paul Regret ----------------------------------------------------------------------


def test_paul_regret_builtin_mustang():
    """[A-09] [C-03] [C-16] Paul Regret (3 life) is one farther for everyone: the Colt .45
    cannot reach him at seat distance 1; a Schofield can. He sees the others normally.

    Rulebook: "He is considered to have a Mustang in play at all times; all other players
    must add 1 to the distance to him."
    """
    t = Table(["Willy the Kid", "Paul Regret", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    assert t.life(1) == 3
    t.give(0, "BANG!", "Panic!")
    assert t.call(distance, 0, 1) == 2
    assert t.call(distance, 1, 0) == 1
    assert not t.can_play(0, "BANG!", target=1)
    assert not t.can_play(0, "Panic!", target=1)
    assert t.can_play(0, "BANG!", target=3)
    t.equip(0, "Schofield")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2
    t.new_turn(1)
    t.give(1, "BANG!")
    assert t.can_play(1, "BANG!", target=0)


def test_paul_regret_stacks_with_a_real_mustang():
    """[A-09] [C-16] With a real Mustang he is two farther: Schofield (2) no, Remington (3)
    yes.

    Rulebook: "If he has another real Mustang in play, he can count both of them, increasing
    all distances to him by a total of 2"
    """
    t = Table(["Willy the Kid", "Paul Regret", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.equip(1, "Mustang")
    t.give(0, "BANG!")
    t.equip(0, "Schofield@JC")
    assert t.call(distance, 0, 1) == 3
    assert not t.can_play(0, "BANG!", target=1)
    t.to_discard("Schofield@JC")
    t.equip(0, "Remington")
    assert t.can_play(0, "BANG!", target=1)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 2


# --- A-10 Pedro Ramirez --------------------------------------------------------------------


def test_pedro_ramirez_first_card_from_the_discard_pile():
    """[A-10] Pedro Ramirez takes the discard pile's top card, then one from the deck.

    Rulebook: "During phase 1 of his turn, he may choose to draw the first card from the top
    of the discard pile or from the deck. Then, he draws the second card from the deck"
    """
    t = Table(["Willy the Kid", "Pedro Ramirez", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.to_discard(CLUB2, "Beer@9H")
    t.stack(CLUB, HEART)
    t.draw_phase(1)
    assert t.hand_names(1) == ["Beer", "Missed!"]
    assert t.discard_names() == ["Missed!"]  # the Beer on top was taken; the card below stays
    assert t.deck_top() == ["Beer"]
    assert t.deck_size() == 80 - 2 - 1


def test_pedro_ramirez_empty_discard_pile_draws_two():
    """[A-10] [C-06] With no discard pile he draws both cards from the deck.

    rulings.md: "Pedro Ramirez may take the top of the discard pile if there is one."
    """
    t = Table(["Willy the Kid", "Pedro Ramirez", "Kit Carlson", "Jesse Jones"], roles=FOUR)
    t.stack(CLUB, HEART, HEART2)
    t.draw_phase(1)
    assert t.hand_names(1) == ["Beer", "Missed!"]
    assert t.deck_top() == ["Beer"]
    assert t.discard_names() == []


# --- draw-phase abilities fire only in their owner's phase 1 ------------------------------


def test_draw_phase_abilities_do_not_fire_on_other_turns():
    """[A-02] [A-05] [A-07] [A-10] [C-06] The Sheriff's whole turn: he draws two plain cards
    (the second a Heart); Jesse Jones, Kit Carlson, Pedro Ramirez and Black Jack do nothing.

    peers.md: "Draw-phase abilities (Jesse Jones, Black Jack, Kit Carlson, Pedro Ramirez)
    firing on other players' turns"
    """
    chars = ["Willy the Kid", "Jesse Jones", "Kit Carlson", "Pedro Ramirez", "Black Jack"]
    t = Table(chars, roles=FIVE)
    for q, beer in zip((1, 2, 3, 4), ("Beer@JH", "Beer@10H", "Beer@9H", "Beer@7H"), strict=True):
        t.give(q, beer)
    t.to_discard("Beer@8H")
    t.stack(CLUB, HEART, "Wells Fargo")
    t.turn(0)
    assert t.hand_names(0) == ["Beer", "Missed!"]  # full life: the bot keeps the Beer
    for q in (1, 2, 3, 4):
        assert t.hand_names(q) == ["Beer"]
    assert t.discard_names() == ["Beer"]
    assert t.deck_top() == ["Wells Fargo"]
    assert t.deck_size() == 80 - 4 - 1 - 2


@pytest.mark.parametrize("who", ["Jesse Jones", "Kit Carlson", "Pedro Ramirez", "Black Jack"])
def test_stagecoach_is_not_a_draw_phase(who):
    """[A-02] [A-05] [A-07] [A-10] [K-07] A Stagecoach draws the top two cards of the deck,
    whoever plays it: no hand, no discard pile, no look at three, no extra card.

    Rulebook: "Stagecoach draws two cards"
    """
    t = Table(["Willy the Kid", "Bart Cassidy", who, "Sid Ketchum"], roles=FOUR)
    t.give(0, "Beer@JH")
    t.to_discard("Beer@9H")
    t.new_turn(2)
    t.give(2, "Stagecoach")
    t.stack(CLUB, HEART, "Wells Fargo")
    t.play(2, "Stagecoach")
    assert t.hand_names(2) == ["Beer", "Missed!"]
    assert t.hand_names(0) == ["Beer"]
    assert t.discard_names() == ["Beer", "Stagecoach"]
    assert t.deck_top() == ["Wells Fargo"]


# --- A-11 Rose Doolan ----------------------------------------------------------------------

SIX = ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy"]
SIX_CHARS = [
    "Rose Doolan",
    "Kit Carlson",
    "Jesse Jones",
    "Bart Cassidy",
    "Black Jack",
    "Sid Ketchum",
]


def test_rose_doolan_builtin_scope():
    """[A-11] [C-16] Rose Doolan sees seat distance 2 as 1: her Colt .45 reaches it, and so
    does a Panic!; the others still see her at the normal distance.

    Rulebook: "She is considered to have a Scope in play at all times; she sees the other
    players at a distance decreased by 1."
    """
    t = Table(SIX_CHARS, roles=SIX)
    assert [t.call(distance, 0, q) for q in range(1, 6)] == [1, 1, 2, 1, 1]
    assert t.call(distance, 2, 0) == 2
    t.give(0, "BANG!", "Panic!")
    t.give(2, "Stagecoach")
    assert not t.can_play(0, "BANG!", target=3)
    t.play(0, "Panic!", target=2, opt=-1)
    assert t.hand_names(0) == ["BANG!", "Stagecoach"]
    assert t.hand_names(2) == []
    t.play(0, "BANG!", target=4)
    assert t.life(4) == 3


def test_rose_doolan_stacks_with_a_real_scope_never_below_one():
    """[A-11] [C-16] With a real Scope she sees seat distance 3 as 1; distance never falls
    below 1.

    Rulebook: "If she has another real Scope in play, she can count both of them, reducing
    her distance to all other players by a total of 2"
    """
    t = Table(SIX_CHARS, roles=SIX)
    t.equip(0, "Scope")
    assert [t.call(distance, 0, q) for q in range(1, 6)] == [1, 1, 1, 1, 1]
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=3)
    assert t.life(3) == 3
    assert t.call(distance, 3, 0) == 3  # the others still see her at the normal distance


# --- A-12 Sid Ketchum ----------------------------------------------------------------------

SID = ["Willy the Kid", "Sid Ketchum", "Kit Carlson", "Jesse Jones"]
FOUR_PLAIN = ["Stagecoach", "Wells Fargo", "Cat Balou", "General Store"]


def test_sid_ketchum_discards_two_for_one_life_repeatedly():
    """[A-12] On his turn Sid discards two cards for a life, twice, back to his maximum.

    Rulebook: "At any time, he may discard 2 cards from his hand to regain one life point. If
    he is willing and able, he can use this ability more than once at a time."
    """
    t = Table(SID, roles=FOUR)
    t.set_life(1, 2)
    t.new_turn(1)
    t.give(1, *FOUR_PLAIN)
    t.play(1, "ability")
    assert t.life(1) == 3 and len(t.hand_names(1)) == 2
    t.play(1, "ability")
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert sorted(t.discard_names()) == sorted(FOUR_PLAIN)
    assert not t.can_play(1, "ability")


def test_sid_ketchum_never_above_his_maximum():
    """[A-12] [C-18] At full life the ability is not playable.

    Rulebook: "But remember: you cannot have more life points than your starting amount!"
    """
    t = Table(SID, roles=FOUR)
    t.set_life(1, 3)
    t.new_turn(1)
    t.give(1, *FOUR_PLAIN)
    t.play(1, "ability")
    assert t.life(1) == 4
    assert len(t.hand_names(1)) == 2
    assert not t.can_play(1, "ability")
    # not with fewer than two cards either
    u = Table(SID, roles=FOUR)
    u.set_life(1, 3)
    u.give(1, "Stagecoach")
    assert not u.can_play(1, "ability")


def test_sid_ketchum_survives_a_lethal_bang():
    """[A-12] [C-19] At his last life a BANG! would kill him: he discards two cards instead,
    once: back to 1 life, two cards left.

    rulings.md: "A hit that takes the last life can be answered with as many Beers as needed
    (each +1, never above max), or Sid Ketchum's ability"
    """
    t = Table(SID, roles=FOUR)
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.give(1, *FOUR_PLAIN)
    t.play(0, "BANG!", target=1)
    assert t.alive(1) and t.life(1) == 1
    assert len(t.hand_names(1)) == 2
    assert sorted(t.hand_names(1) + t.discard_names()) == sorted(["BANG!", *FOUR_PLAIN])


def test_sid_ketchum_survives_dynamite_discarding_four():
    """[A-12] [K-17] Dynamite at 2 life: −1; he uses the ability twice to stay alive at 1.

    Rulebook: "If he is willing and able, he can use this ability more than once at a time."
    """
    t = Table(SID, roles=FOUR)
    t.set_life(1, 2)
    t.equip(1, "Dynamite")
    t.give(1, *FOUR_PLAIN)
    t.stack(BOOM)
    assert t.start_of_turn(1) is True
    assert t.alive(1) and t.life(1) == 1
    assert t.hand_names(1) == []
    assert sorted(t.discard_names()) == sorted(["Missed!", "Dynamite", *FOUR_PLAIN])


def test_sid_ketchum_with_two_players_left():
    """[A-12] [C-20] With two players left Beer gives nothing, but Sid's ability still works.

    Rulebook: "Beer has no effect if there are only 2 players left in the game"
    """
    t = Table(SID, roles=FOUR)
    t.kill(2).kill(3)
    assert not t.over()
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.give(1, "Beer@JH", "Stagecoach")
    t.play(0, "BANG!", target=1)
    assert t.alive(1) and t.life(1) == 1
    assert t.hand_names(1) == []
    assert t.discard_names()[-3:] in (
        ["BANG!", "Beer", "Stagecoach"],
        ["BANG!", "Stagecoach", "Beer"],
    )


def test_sid_ketchum_one_card_is_not_enough():
    """[A-12] [C-22] One card in hand at a lethal hit: he cannot use the ability and dies.

    Rulebook: "At any time, he may discard 2 cards from his hand to regain one life point."
    """
    t = Table(SID, roles=FOUR)
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.give(1, "Stagecoach")
    t.play(0, "BANG!", target=1)
    assert not t.alive(1)
    assert t.discard_names() == ["BANG!", "Stagecoach"]


# --- A-13 Slab the Killer ------------------------------------------------------------------

SLAB = ["Slab the Killer", "Kit Carlson", "Jesse Jones", "Bart Cassidy"]


def test_slab_the_killer_one_missed_is_not_enough():
    """[A-13] One Missed! cannot cancel Slab's BANG!: the target is hit and keeps it.

    Rulebook: "Players trying to cancel his BANG! cards need to play 2 Missed! ."
    """
    t = Table(SLAB, roles=FOUR)
    t.give(0, "BANG!")
    t.give(1, "Missed!")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3
    assert t.hand_names(1) == ["Missed!"]
    assert t.discard_names() == ["BANG!"]


def test_slab_the_killer_two_missed_cancel():
    """[A-13] Two Missed! cancel his BANG!.

    Rulebook: "Players trying to cancel his BANG! cards need to play 2 Missed! ."
    """
    t = Table(SLAB, roles=FOUR)
    t.give(0, "BANG!")
    t.give(1, "Missed!", "Missed!")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert t.discard_names() == ["BANG!", "Missed!", "Missed!"]


def test_slab_the_killer_barrel_counts_as_one():
    """[A-13] [K-13] A Barrel Heart counts as one Missed!: one more Missed! cancels.

    Rulebook: "The Barrel effect, if successfully used, only counts as one Missed!"
    """
    t = Table(SLAB, roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.give(1, "Missed!@AC")
    t.stack(HEART, CLUB)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert t.discard_names() == ["BANG!", "Beer", "Missed!"]


def test_slab_the_killer_barrel_alone_is_not_enough():
    """[A-13] [K-13] A Barrel Heart and no Missed!: still hit.

    Rulebook: "The Barrel effect, if successfully used, only counts as one Missed!"
    """
    t = Table(SLAB, roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.stack(HEART, CLUB)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3
    assert t.discard_names() == ["BANG!", "Beer"]
    assert t.deck_top() == ["Missed!"]


def test_slab_the_killer_against_jourdonnais_with_a_barrel():
    """[A-13] [A-06] Jourdonnais with a real Barrel: two Hearts are two cancels.

    rulings.md: "Slab the Killer's BANG! needs two cancels; a successful Barrel counts as
    one."
    """
    t = Table(["Slab the Killer", "Jourdonnais", "Jesse Jones", "Bart Cassidy"], roles=FOUR)
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.give(1, "Missed!@AC")
    t.stack(HEART, HEART2, CLUB)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == ["Missed!"]
    assert t.discard_names() == ["BANG!", "Beer", "Beer"]


def test_slab_the_killer_against_calamity_janet():
    """[A-13] [A-03] Calamity Janet cancels Slab's BANG! with a BANG! and a Missed!.

    rulings.md: "Slab the Killer's BANG! needs two cancels"
    """
    t = Table(["Slab the Killer", "Calamity Janet", "Jesse Jones", "Bart Cassidy"], roles=FOUR)
    t.give(0, "BANG!@2C")
    t.give(1, "BANG!@3C", "Missed!")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == []
    assert sorted(t.discard_names()) == ["BANG!", "BANG!", "Missed!"]


def test_slab_the_killer_gatling_needs_one_missed():
    """[A-13] [K-11] Slab's Gatling is no BANG! card: one Missed! cancels it.

    rulings.md: "His ability concerns BANG! cards only, not Gatling, Duel or Indians!."
    """
    t = Table(SLAB, roles=FOUR)
    t.give(0, "Gatling")
    for q in (1, 2, 3):
        t.give(q, "Missed!")
    t.play(0, "Gatling")
    for q in (1, 2, 3):
        assert t.life(q) == 4 and t.hand_names(q) == []
    assert t.discard_names() == ["Gatling", "Missed!", "Missed!", "Missed!"]


def test_slab_the_killer_duel_and_indians_need_one_bang():
    """[A-13] [K-10] [K-12] Against Slab's Duel and Indians! one BANG! answers as usual.

    rulings.md: "His ability concerns BANG! cards only, not Gatling, Duel or Indians!."
    """
    t = Table(SLAB, roles=FOUR)
    t.give(0, "Duel", "Indians!")
    t.give(1, "BANG!@2C", "BANG!@3C")
    t.play(0, "Duel", target=1)
    assert t.life(0) == 4  # Slab had no BANG! to answer with
    assert t.life(1) == 4 and t.hand_names(1) == ["BANG!"]
    t.play(0, "Indians!")
    assert t.life(1) == 4 and t.hand_names(1) == []
    assert t.life(2) == 3 and t.life(3) == 3


# --- A-14 Suzy Lafayette -------------------------------------------------------------------

SUZY = ["Willy the Kid", "Suzy Lafayette", "Kit Carlson", "Jesse Jones"]


def test_suzy_lafayette_draws_after_playing_her_last_card():
    """[A-14] Suzy plays her only card, a BANG!, and draws at once.

    Rulebook: "As soon as she has no cards in her hand, she draws a card from the draw pile"
    """
    t = Table(SUZY, roles=FOUR)
    t.new_turn(1)
    t.give(1, "BANG!")
    t.stack(HEART, CLUB)
    t.play(1, "BANG!", target=0)
    assert t.life(0) == 4
    assert t.hand_names(1) == ["Beer"]
    assert t.deck_top() == ["Missed!"]


def test_suzy_lafayette_draws_after_a_missed():
    """[A-14] [K-02] On another player's turn her last card, a Missed!, empties her hand.

    rulings.md: "Suzy Lafayette draws the moment her hand becomes empty, on anyone's turn
    (after a Missed!, in a Duel, after a Panic! against her)."
    """
    t = Table(SUZY, roles=FOUR)
    t.give(0, "BANG!")
    t.give(1, "Missed!")
    t.stack(HEART, CLUB)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == ["Beer"]
    assert t.discard_names() == ["BANG!", "Missed!"]


def test_suzy_lafayette_does_not_draw_while_holding_cards():
    """[A-14] Two Missed!, one played: her hand is not empty, so no draw.

    Rulebook: "As soon as she has no cards in her hand, she draws a card from the draw pile"
    """
    t = Table(SUZY, roles=FOUR)
    t.give(0, "BANG!")
    t.give(1, "Missed!", "Missed!")
    t.stack(HEART)
    t.play(0, "BANG!", target=1)
    assert t.hand_names(1) == ["Missed!"]
    assert t.deck_top() == ["Beer"]


def test_suzy_lafayette_draws_in_a_duel():
    """[A-14] [K-10] She discards her only BANG! to a Duel, draws a Beer, and then loses.

    rulings.md: "Suzy Lafayette draws the moment her hand becomes empty, on anyone's turn
    (after a Missed!, in a Duel, after a Panic! against her)."
    """
    t = Table(SUZY, roles=FOUR)
    t.give(0, "Duel", "BANG!@2C")
    t.give(1, "BANG!@3C")
    t.stack(HEART, CLUB)
    t.play(0, "Duel", target=1)
    assert t.life(1) == 3
    assert t.hand_names(1) == ["Beer"]
    assert t.hand_names(0) == []
    assert t.discard_names() == ["Duel", "BANG!", "BANG!"]


def test_suzy_lafayette_draws_after_a_panic_against_her():
    """[A-14] [K-05] A Panic! takes her only card: she draws at once.

    rulings.md: "Suzy Lafayette draws the moment her hand becomes empty, on anyone's turn
    (after a Missed!, in a Duel, after a Panic! against her)."
    """
    t = Table(SUZY, roles=FOUR)
    t.give(0, "Panic!")
    t.give(1, "Missed!")
    t.stack(HEART, CLUB)
    t.play(0, "Panic!", target=1, opt=-1)
    assert t.hand_names(0) == ["Missed!"]
    assert t.hand_names(1) == ["Beer"]
    assert t.discard_names() == ["Panic!"]


def test_suzy_lafayette_draws_after_el_gringo_takes_her_last_card():
    """[A-14] [A-04] Her BANG! leaves her one card; El Gringo takes it; she draws.

    Rulebook: "As soon as she has no cards in her hand, she draws a card from the draw pile"
    """
    t = Table(["Willy the Kid", "Suzy Lafayette", "El Gringo", "Jesse Jones"], roles=FOUR)
    t.new_turn(1)
    t.give(1, "BANG!", "Cat Balou")
    t.stack(HEART, CLUB)
    t.play(1, "BANG!", target=2)
    assert t.life(2) == 2
    assert t.hand_names(2) == ["Cat Balou"]
    assert t.hand_names(1) == ["Beer"]


# --- A-15 Vulture Sam ----------------------------------------------------------------------

SAM = ["Willy the Kid", "Kit Carlson", "Vulture Sam", "Jesse Jones", "Black Jack"]
SAM_ROLES = ["leader", "outlaw", "renegade", "outlaw", "deputy"]


def test_vulture_sam_takes_hand_and_play_and_killer_draws_reward():
    """[A-15] [C-23] The Sheriff kills an Outlaw: Vulture Sam takes the hand and the cards in
    play; the Sheriff draws the 3-card reward from the deck.

    rulings.md: "Vulture Sam takes the dead player's cards (hand and in play) instead of the
    discard pile; the reward is drawn separately."
    """
    t = Table(SAM, roles=SAM_ROLES)
    t.set_life(1, 1)
    t.give(1, "Panic!", "Stagecoach")
    t.equip(1, "Mustang", "Volcanic")
    t.equip(0, "Schofield")
    t.give(0, "BANG!")
    t.stack(HEART, HEART2, HEART3, CLUB)
    t.play(0, "BANG!", target=1)
    assert not t.alive(1)
    assert t.hand_names(2) == ["Mustang", "Panic!", "Stagecoach", "Volcanic"]
    assert t.in_play(2) == []
    assert t.hand_names(0) == ["Beer", "Beer", "Beer"]
    assert t.discard_names() == ["BANG!"]
    assert t.deck_top() == ["Missed!"]
    assert not t.over()


def test_vulture_sam_kills_an_outlaw_himself():
    """[A-15] [C-23] Sam kills an Outlaw: he takes the cards and the 3-card reward.

    Rulebook: "Whenever a character is eliminated from the game, Sam takes all the cards
    that player had in his hand and in play, and adds them to his hand"
    """
    t = Table(SAM, roles=SAM_ROLES)
    t.new_turn(2)
    t.set_life(3, 1)
    t.give(3, "Cat Balou")
    t.equip(3, "Scope", "Jail")
    t.give(2, "BANG!")
    t.stack(HEART, HEART2, HEART3, CLUB)
    t.play(2, "BANG!", target=3)
    assert not t.alive(3)
    assert t.hand_names(2) == ["Beer", "Beer", "Beer", "Cat Balou", "Jail", "Scope"]
    assert t.discard_names() == ["BANG!"]
    assert t.deck_top() == ["Missed!"]


def test_vulture_sam_takes_from_each_eliminated_player():
    """[A-15] [K-11] [C-23] One Gatling kills two Outlaws: Sam takes both players' cards,
    Dynamite included; the Sheriff draws two rewards.

    Rulebook: "Whenever a character is eliminated from the game, Sam takes all the cards
    that player had in his hand and in play, and adds them to his hand"
    """
    chars = [
        "Willy the Kid",
        "Vulture Sam",
        "Kit Carlson",
        "Jesse Jones",
        "Black Jack",
        "Sid Ketchum",
    ]
    t = Table(chars, roles=SIX)
    t.give(0, "Gatling")
    t.give(1, "Missed!@AC")
    t.set_life(2, 1).set_life(3, 1)
    t.give(2, "Stagecoach")
    t.equip(2, "Barrel")
    t.give(3, "Panic!@JH")
    t.equip(3, "Dynamite")
    t.give(4, "Missed!@KC")
    t.give(5, "Missed!@QC")
    # the Barrel's draw!, then two rewards of three
    t.stack(CLUB, "Beer@JH", "Beer@10H", "Beer@9H", HEART, HEART2, HEART3, "Wells Fargo")
    t.play(0, "Gatling")
    assert not t.alive(2) and not t.alive(3)
    assert t.alive(1) and t.life(1) == 4
    assert t.hand_names(1) == ["Barrel", "Dynamite", "Panic!", "Stagecoach"]
    assert t.hand_names(0) == ["Beer"] * 6
    assert t.deck_top() == ["Wells Fargo"]
    assert sorted(t.discard_names()) == ["Gatling", "Missed!", "Missed!", "Missed!", "Missed!"]
    assert not t.over()


# --- A-16 Willy the Kid --------------------------------------------------------------------


def test_willy_the_kid_any_number_of_bangs():
    """[A-16] [C-09] Willy plays three BANG!s in one turn; another character only one.

    Rulebook: "He can play any number of BANG! cards during his turn"
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Jesse Jones", "Bart Cassidy"], roles=FOUR)
    t.new_turn(0)
    t.give(0, "BANG!", "BANG!", "BANG!")
    t.play(0, "BANG!", target=1)
    t.play(0, "BANG!", target=3)
    t.play(0, "BANG!", target=1)
    assert t.bangs_played() == 3
    assert t.life(1) == 2 and t.life(3) == 3
    assert t.hand_names(0) == []
    assert t.discard_names() == ["BANG!"] * 3
    u = Table(["Kit Carlson", "Willy the Kid", "Jesse Jones", "Bart Cassidy"], roles=FOUR)
    u.new_turn(0)
    u.give(0, "BANG!", "BANG!")
    u.play(0, "BANG!", target=1)
    assert not u.can_play(0, "BANG!")


def test_willy_the_kid_only_at_his_weapons_reach():
    """[A-16] [C-15] [K-18] Willy's BANG!s reach as far as his weapon: the Colt .45 not
    distance 2, a Schofield yes; a Volcanic reaches 1 only.

    rulings.md: "Willy the Kid plays any number of BANG! cards at his weapon's reach; Volcanic
    allows any number but its reach is 1."
    """
    t = Table(["Willy the Kid", "Kit Carlson", "Jesse Jones", "Bart Cassidy"], roles=FOUR)
    t.new_turn(0)
    t.give(0, "BANG!", "BANG!", "BANG!", "Schofield@JC", "Volcanic")
    assert {tgt for name, tgt, _ in t.legal(0) if name == "BANG!"} == {1, 3}
    t.play(0, "Schofield")
    assert {tgt for name, tgt, _ in t.legal(0) if name == "BANG!"} == {1, 2, 3}
    t.play(0, "BANG!", target=2)
    t.play(0, "BANG!", target=2)
    assert t.life(2) == 2
    t.play(0, "Volcanic")
    assert t.in_play(0) == ["Volcanic"]
    assert {tgt for name, tgt, _ in t.legal(0) if name == "BANG!"} == {1, 3}
