"""Rules scenarios for the classic game flow (checklist C-01 .. C-29) and for the pitfalls other
simulators fell into (shared/reference/peers.md).

Setup scenarios call kernel.setup_game / kernel.play_game directly; the others build a
hand-set table (tests/scenario.py): all 80 cards start in the draw pile, hands and cards in
play are given, the deck top is stacked, then the real kernel plays. Each docstring names the
checklist IDs it covers and quotes the rulebook (shared/rules/classic_bang.txt), the
rulings.md line or the peers.md pitfall it checks. Hands are given before the deck is
stacked, so a `give` never takes a stacked card.
"""

import numpy as np
import pytest
from scenario import (
    BOOM,
    CLUB,
    DIAMOND,
    FIVE,
    HEART,
    PLAIN,
    SEVEN,
    Table,
    disc,
    dist,
    table,
    targets,
)

from simcore.engine import kernel
from simcore.engine.board import fill_distances, next_alive, reach
from simcore.engine.play import CHECKED, NO_FEATURE
from simcore.engine.state import (
    S_CAPPED,
    S_CUR,
    S_DECK_N,
    S_DISC_N,
    S_ERR,
    S_OVER,
    S_TURN,
    new_states,
)
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme
from simcore.engine.view import revealed_dead
from simcore.engine.vocab import R_RENEGADE, ROLES, RU_TURN_CAP
from strategies.presets import resolve_strategy


def kernel_game(players, seed, chars=None, turn_cap=None, play=False):
    """A game state dealt by kernel.setup_game (or played by kernel.play_game up to
    `turn_cap` turns), in checked mode, with the `basic` strategy."""
    theme = load_theme("classic")
    T = pack_tables(theme.tables)[0]
    if turn_cap is not None:
        T.rules[RU_TURN_CAP] = turn_cap
    strat = resolve_strategy("basic")
    names = chars or theme.character_names
    pool = np.array([theme.character_names.index(c) for c in names], np.int64)
    G = new_states(1)[0]
    fn = kernel.play_game if play else kernel.setup_game
    with np.errstate(over="ignore"):
        fn(G, T, strat.matrix, pool, strat.role_preset, NO_FEATURE, players, seed, 0, CHECKED)
        kernel.verify(G, T)
    assert G.s[S_ERR] == 0
    return theme, G


# --- setup: C-01, C-03, C-04, C-05 ----------------------------------------------------------

ROLE_MIX = {
    4: ["leader", "renegade", "outlaw", "outlaw"],
    5: ["leader", "renegade", "outlaw", "outlaw", "deputy"],
    6: ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy"],
    7: ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"],
}


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_role_mix_by_player_count_and_the_sheriff_at_seat_zero(players):
    """[C-01] The role mix by player count, the Sheriff always at seat 0.

    Checklist C-01: "4 = Sheriff, Renegade, 2 Outlaws; 5 = + Deputy; 6 = 3 Outlaws, 1 Deputy;
    7 = 3 Outlaws, 2 Deputies." Rulebook: "The Sheriff starts."
    """
    for seed in range(6):
        _, G = kernel_game(players, seed)
        roles = [ROLES[r] for r in G.role[:players]]
        assert roles[0] == "leader"
        assert sorted(roles) == sorted(ROLE_MIX[players])


def test_printed_lives_el_gringo_and_paul_regret_have_three():
    """[C-03] Every character's printed life: El Gringo and Paul Regret 3, the others 4.

    peers.md: "Every character at 4 life (El Gringo and Paul Regret have 3)"
    """
    theme = load_theme("classic")
    lives = dict(zip(theme.character_names, theme.tables.char_life, strict=True))
    assert len(lives) == 16
    assert {name for name, life in lives.items() if life == 3} == {"El Gringo", "Paul Regret"}
    assert {int(life) for life in lives.values()} == {3, 4}


@pytest.mark.parametrize("seed", range(8))
def test_setup_life_sheriff_plus_one_and_hand_equals_life(seed):
    """[C-03] [C-04] Life is the character's, the Sheriff +1 (also his maximum); each player
    is dealt as many cards as life.

    Rulebook: "The Sheriff receives one extra bullet for all purposes. You may never rise
    above your starting life total." peers.md: "starting hands of 2 instead of life-many
    cards ... the Sheriff's +1 forgotten."
    """
    chars = ["El Gringo", "Paul Regret", "Bart Cassidy", "Black Jack"]
    theme, G = kernel_game(4, seed, chars=chars)
    printed = {"El Gringo": 3, "Paul Regret": 3, "Bart Cassidy": 4, "Black Jack": 4}
    seen = []
    for q in range(4):
        name = theme.character_names[G.char[q]]
        seen.append(name)
        want = printed[name] + (1 if q == 0 else 0)
        assert G.life[q] == want and G.max_life[q] == want
        assert G.hand_n[q] == want
    assert sorted(seen) == sorted(chars)
    assert G.s[S_DECK_N] == 80 - int(G.life[:4].sum())  # the rest stays in the draw pile
    assert G.s[S_DISC_N] == 0


def test_the_sheriff_plays_the_first_turn():
    """[C-05] play_game: turn 1 is seat 0's (the Sheriff's), turn 2 the next seat's.

    Rulebook: "The Sheriff starts. Turns proceed clockwise" peers.md: "Seat 0 starts instead
    of the Sheriff"
    """
    _, G = kernel_game(5, 3, turn_cap=1, play=True)
    assert G.s[S_CAPPED] == 1 and G.s[S_TURN] == 1
    assert G.s[S_CUR] == 0 and ROLES[G.role[0]] == "leader"
    _, G = kernel_game(5, 3, turn_cap=2, play=True)
    assert G.s[S_TURN] == 2 and G.alive[1] == 1 and G.s[S_CUR] == 1


def test_turn_order_skips_eliminated_seats():
    """[C-05] [C-14] The next turn goes to the next living seat clockwise.

    Rulebook: "Eliminated players are ignored." Checklist C-05: "turns go clockwise over
    living players."
    """
    t = table(FIVE)
    t.kill(1).kill(3)
    assert [t.call(next_alive, p) for p in (0, 2, 4)] == [2, 4, 0]
    # a player eliminated on his own turn: the turn passes from his seat to the next living
    assert [t.call(next_alive, p) for p in (1, 3)] == [2, 4]


def test_play_game_turns_follow_living_seats():
    """[C-05] In kernel.play_game each turn goes to the next living seat: replaying a seeded
    game with turn caps 1, 2, 3, ... the seat of turn k+1 is the next living seat after the
    seat of turn k, and at least one eliminated seat gets skipped.

    Rulebook: "The Sheriff starts. Turns proceed clockwise"
    """
    for seed in range(40):
        skipped = False
        _, prev = kernel_game(5, seed, turn_cap=1, play=True)
        assert prev.s[S_CUR] == 0
        for cap in range(2, 120):
            if prev.s[S_OVER]:
                break
            _, G = kernel_game(5, seed, turn_cap=cap, play=True)
            q = prev.s[S_CUR]
            want = (q + 1) % 5
            while prev.alive[want] == 0:
                want = (want + 1) % 5
            assert G.s[S_CUR] == want
            skipped |= want != (q + 1) % 5
            prev = G
        if skipped:
            return
    pytest.fail("no seeded game skipped an eliminated seat")


# --- C-06, C-08, C-09 -----------------------------------------------------------------------


def test_empty_draw_pile_is_refilled_from_the_discard_pile():
    """[C-06] Drawing from an empty draw pile shuffles the discard pile into a new one.

    Rulebook: "As soon as the draw pile is empty, shuffle the discard pile to make a new deck
    and continue drawing."
    """
    t = table(chars=["Black Jack", "Slab the Killer", "Jesse Jones", "Pedro Ramirez"])
    t.empty_deck()
    assert t.deck_size() == 0 and len(t.discard_names()) == 80
    t.draw_phase(1)
    assert len(t.hand_names(1)) == 2
    assert t.deck_size() == 78 and t.discard_names() == []


def test_empty_draw_pile_is_refilled_for_a_draw_check():
    """[C-06] [C-28] A draw! on an empty draw pile refills it first; the draw! card is then
    discarded and its face decides.

    Ruling: "A "draw!" card always goes to the discard pile; an empty deck during a draw! or a
    draw is refilled from the shuffled discard pile at once."
    """
    t = table()
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.empty_deck()
    t.play(0, "BANG!", target=1)
    assert t.deck_size() == 78  # the 78 + the BANG! reshuffled, one drawn and discarded
    G = t.G
    c = G.disc[0]
    assert G.s[S_DISC_N] == 1
    assert t.life(1) == (4 if t.theme.card_faces[c].endswith("H") else 3)


def test_the_last_card_drawn_refills_the_draw_pile_at_once():
    """[C-06] [A-10] The draw that empties the draw pile shuffles the discard pile into a new
    one there and then: a Pedro Ramirez drawing next finds no discard pile to take from.

    Rulebook: "As soon as the draw pile is empty, shuffle the discard pile to make a new deck
    and continue drawing."
    """
    t = table(chars=["Black Jack", "Pedro Ramirez", "Jesse Jones", "Kit Carlson"])
    t.empty_deck()
    t.to_discard("Beer@9H")  # the discard pile's top
    t.stack("Missed!@10C", "Missed!@JC")
    t.draw_phase(0)  # a plain draw of the last two cards (Black Jack: the second is a club)
    assert t.hand_names(0) == ["Missed!", "Missed!"]
    assert t.deck_size() == 78 and t.discard_names() == []
    t.draw_phase(1)
    assert len(t.hand_names(1)) == 2 and t.deck_size() == 76 and t.discard_names() == []


def test_a_draw_check_of_the_last_card_lands_on_the_new_discard_pile():
    """[C-06] [C-28] A draw! that reveals the last card of the draw pile: the discard pile
    (the BANG! included) becomes the new draw pile first, then the draw! card is discarded.

    Rulebook: "As soon as the draw pile is empty, shuffle the discard pile to make a new deck
    and continue drawing."
    """
    t = table()
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.empty_deck()
    t.stack(HEART)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert disc(t) == ["Beer@6H"] and t.deck_size() == 78


def test_end_of_turn_discard_down_to_current_life():
    """[C-08] At the end of his own turn a player discards down to his current life (not his
    maximum); other players keep their hands.

    Rulebook: "3. Discard until your hand size is no greater than your current bullets."
    Ruling: "Hand limit = current life, checked only at the end of your own turn."
    """
    t = table(chars=["Black Jack", "Slab the Killer", "Jesse Jones", "Pedro Ramirez"])
    t.set_life(1, 2)
    t.give(1, *["Missed!"] * 5)
    t.give(2, *["BANG!"] * 5)
    t.stack("Missed!@8S", "Missed!@7S")
    t.turn(1)
    assert t.hand_names(1) == ["Missed!", "Missed!"]
    assert t.discard_names() == ["Missed!"] * 5
    assert t.hand_names(2) == ["BANG!"] * 5


def test_gatling_indians_and_duel_do_not_use_up_the_bang():
    """[C-09] [K-10] [K-11] [K-12] After a Gatling, an Indians! and a Duel, one BANG! card is
    still playable, and only one.

    Rulebook: "Other card effects that produce a BANG! symbol are not themselves BANG! cards
    and do not count against the one-card limit."
    """
    t = table()
    t.give(0, "Gatling", "Indians!", "Duel", "BANG!", "BANG!")
    t.play(0, "Gatling").play(0, "Indians!").play(0, "Duel", target=1)
    assert [t.life(q) for q in range(4)] == [5, 1, 2, 2]
    assert t.bangs_played() == 0
    t.play(0, "BANG!", target=3)
    assert t.life(3) == 1 and t.bangs_played() == 1
    assert not t.can_play(0, "BANG!")


# --- distance and reach: C-14, C-15, C-16, C-17 ---------------------------------------------


def test_distance_counts_living_seats_either_way_round():
    """[C-14] Distance is the fewer living seats either way round; eliminated seats are
    skipped, so neighbours of the dead come closer.

    Rulebook: "Distance is the minimum number of living seats between two players, counting
    around the circle. Eliminated players are ignored." peers.md: "No seating: distance
    always 1"
    """
    t = table(SEVEN)
    assert [dist(t, 0, q) for q in range(1, 7)] == [1, 2, 3, 3, 2, 1]
    assert [dist(t, 3, q) for q in (0, 1, 2, 4, 5, 6)] == [3, 2, 1, 1, 2, 3]
    t.give(0, "BANG!")
    assert targets(t, 0, "BANG!") == [1, 6]
    t.kill(1).kill(2)
    assert [dist(t, 0, q) for q in range(3, 7)] == [1, 2, 2, 1]
    assert targets(t, 0, "BANG!") == [3, 6]


def test_one_walk_distances_equal_pairwise_distance():
    """[C-14] [C-16] fill_distances (the row legal_actions reads) equals distance() seat by
    seat, over random deaths, Scopes, Mustangs and the built-in ones of Rose Doolan and Paul
    Regret."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        chars = list(rng.permutation(PLAIN + ["Rose Doolan", "Paul Regret", "Bart Cassidy"]))
        t = table(SEVEN, chars=chars)
        for q in rng.choice(7, size=rng.integers(0, 5), replace=False):
            t.kill(int(q))
        for q in range(7):
            if t.alive(q):
                t.equip(q, *[c for c in ("Scope", "Mustang") if rng.random() < 0.3])
        for p in range(7):
            if not t.alive(p):
                continue
            t.call(fill_distances, p)
            want = [dist(t, p, q) if q != p and t.alive(q) else 0 for q in range(7)]
            assert t.G.dist[:7].tolist() == want


def test_weapons_set_reach_never_distance():
    """[C-15] [K-21] A weapon changes reach only: distances and Panic! stay the same.

    Rulebook: "A weapon card replaces that maximum with the number shown in its sight; it
    does not change seating distance."
    """
    t = table(SEVEN)
    for q in range(1, 7):
        t.give(q, "Missed!")
    t.give(0, "Panic!", "BANG!")
    before = [dist(t, 0, q) for q in range(1, 7)]
    t.equip(0, "Rev. Carabine")
    assert [dist(t, 0, q) for q in range(1, 7)] == before == [1, 2, 3, 3, 2, 1]
    assert [dist(t, q, 0) for q in range(1, 7)] == before
    assert t.call(reach, 0) == 4
    assert targets(t, 0, "Panic!") == [1, 6]
    assert targets(t, 0, "BANG!") == [1, 2, 3, 4, 5, 6]


def test_scope_and_mustang_combine_and_scope_is_not_reach():
    """[C-16] [K-14] [K-15] Scope and Mustang combine; Scope lowers distance only, never
    below 1, and adds no reach.

    Rulebook: "A Scope reduces the distance you see by one, and a Mustang increases the
    distance others see to you by one. These modifiers combine." peers.md: "Scope counted
    twice (as −1 distance and +1 range)"
    """
    t = table(SEVEN)
    t.give(0, "BANG!")
    t.equip(0, "Scope")
    t.equip(2, "Mustang@8H")
    t.equip(1, "Mustang@9H")
    assert [dist(t, 0, q) for q in range(1, 7)] == [1, 2, 2, 2, 1, 1]
    assert t.call(reach, 0) == 1
    assert targets(t, 0, "BANG!") == [1, 5, 6]


def test_bang_within_reach_missed_or_lose_one_discarded_either_way():
    """[C-17] [K-01] [K-02] A BANG! needs the target within reach; a Missed! cancels it,
    otherwise the target loses one; the BANG! is discarded either way.

    Rulebook: "Play a BANG! at a player within your current weapon range. The target may
    immediately play Missed! to cancel it; otherwise they lose one bullet. A cancelled BANG!
    still goes to the discard pile."
    """
    t = table(FIVE)
    t.give(0, "BANG!@5C", "BANG!@6C")
    t.give(1, "Missed!@KC")
    assert targets(t, 0, "BANG!") == [1, 4]
    t.play(0, "BANG!@5C", target=1)
    assert t.life(1) == 4 and disc(t) == ["BANG!@5C", "Missed!@KC"]
    t.new_turn(0)
    t.play(0, "BANG!@6C", target=1)
    assert t.life(1) == 3 and disc(t) == ["BANG!@5C", "Missed!@KC", "BANG!@6C"]


# --- Beer and Saloon at a lethal hit: C-19, C-20, C-21 -------------------------------------


def test_several_beers_at_a_lethal_hit():
    """[C-19] [K-17] At a lethal hit the player drinks as many Beers as needed, no more:
    Dynamite takes 2 life to -1, two Beers bring it back to 1, the third stays in hand.

    Rulebook: "If a hit would remove your last bullet, you may immediately play one or more
    Beer cards to survive."
    """
    t = table()
    t.set_life(2, 2)
    t.give(2, "Beer@7H", "Beer@8H", "Beer@9H")
    t.equip(2, "Dynamite")
    t.stack(BOOM)
    assert t.start_of_turn(2)
    assert t.alive(2) and t.life(2) == 1
    assert t.hand_names(2) == ["Beer"]
    assert t.discard_names() == ["Missed!", "Dynamite", "Beer", "Beer"]


def test_one_beer_at_a_lethal_bang():
    """[C-19] [K-03] A BANG! at 1 life: one Beer saves, the other stays in hand.

    Rulebook (Beer): "out of turn, but only if you have just received a hit that is lethal"
    """
    t = table()
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.give(1, "Beer", "Beer")
    t.play(0, "BANG!", target=1)
    assert t.alive(1) and t.life(1) == 1 and t.hand_names(1) == ["Beer"]


def test_beer_cannot_save_with_two_players_left():
    """[C-20] [K-03] With two players left a Beer does not save from a lethal hit; with
    three it does.

    Ruling: "A hit that takes the last life can be answered with as many Beers as needed ...
    with two players left Beer gives nothing."
    """
    t = table()
    t.kill(3)
    t.set_life(1, 1)
    t.give(0, "BANG!", "BANG!")
    t.give(1, "Beer@7H", "Beer@8H")
    t.play(0, "BANG!", target=1)  # three alive: the Beer saves
    assert t.alive(1) and t.life(1) == 1 and t.hand_names(1) == ["Beer"]
    t.kill(2)
    t.new_turn(0)
    t.play(0, "BANG!", target=1)  # two alive: no Beer helps
    assert not t.alive(1)
    assert t.over() and t.winner() == "leader"


def test_saloon_is_no_answer_to_a_lethal_hit():
    """[C-21] [C-19] [K-04] At a lethal hit only Beer heals: with one Beer and a Saloon
    against Dynamite's -3 from 2 life, the Beer is drunk and the player still dies.

    Rulebook: "Saloon heals all living players, but cannot save you from a lethal hit outside
    your turn."
    """
    t = table()
    t.set_life(2, 2)
    t.give(2, "Beer@7H", "Saloon")
    t.equip(2, "Dynamite")
    t.stack(BOOM)
    assert not t.start_of_turn(2)
    assert not t.alive(2)
    assert disc(t) == [BOOM, "Dynamite@2H", "Beer@7H", "Saloon@5H"]


# --- elimination: C-22, C-23, C-24 ----------------------------------------------------------


def test_elimination_reveals_the_role_and_discards_hand_and_play():
    """[C-22] [C-02] The eliminated player's role becomes public and every card in hand and
    in play goes to the discard pile.

    Checklist C-22: "Elimination: the role is revealed; hand and cards in play are
    discarded." peers.md: "dead players' cards never discarded"
    """
    t = table()
    t.set_life(1, 1)
    t.give(0, "BANG!@5C")
    t.give(1, "Panic!", "Stagecoach")
    t.equip(1, "Barrel@QS", "Schofield@JC")
    t.stack(CLUB)
    assert t.call(revealed_dead, R_RENEGADE) == 0
    t.play(0, "BANG!", target=1)
    assert not t.alive(1) and t.life(1) == 0
    assert t.hand_names(1) == [] and t.in_play(1) == []
    assert disc(t)[:2] == ["BANG!@5C", CLUB]
    assert sorted(t.discard_names()[2:]) == ["Barrel", "Panic!", "Schofield", "Stagecoach"]
    assert t.call(revealed_dead, R_RENEGADE) == 1


REWARD = ["Missed!@3S", "Missed!@4S", "Missed!@5S"]


@pytest.mark.parametrize("killer", [0, 1, 3, 4], ids=["sheriff", "renegade", "outlaw", "deputy"])
def test_outlaw_reward_whoever_kills(killer):
    """[C-23] Whoever eliminates an Outlaw draws 3 cards, an Outlaw included.

    Rulebook: "Any player eliminating an Outlaw (even if the eliminating player is himself an
    Outlaw!) must draw a reward of 3 cards from the deck" peers.md: "no 3-card reward for
    killing an Outlaw"
    """
    t = table(FIVE)
    t.set_life(2, 1)
    t.give(killer, "BANG!")
    t.equip(killer, "Schofield")
    t.stack(*REWARD, "Beer@9H")
    t.play(killer, "BANG!", target=2)
    assert not t.alive(2) and not t.over()
    assert t.hand_names(killer) == ["Missed!"] * 3
    assert t.deck_top() == ["Beer"]
    assert sum(len(t.hand_names(q)) for q in range(5)) == 3


def test_outlaw_reward_for_winning_a_duel_he_started():
    """[C-23] [K-10] An Outlaw who challenges the Sheriff and loses the Duel is eliminated
    by the Sheriff, who draws the reward.

    Ruling: "The 3-card reward goes to the player who eliminated an Outlaw (with their
    BANG!, Gatling or Indians!, or by winning a Duel, whoever started it)"
    """
    t = table()
    t.set_life(3, 1)
    t.give(3, "Duel")
    t.give(0, "BANG!")
    t.stack(*REWARD)
    t.play(3, "Duel", target=0)
    assert not t.alive(3)
    assert t.hand_names(0) == ["Missed!"] * 3


def test_outlaw_reward_for_an_outlaw_killed_by_indians():
    """[C-23] [K-12] An Outlaw's Indians! that kills the other Outlaw earns him the reward.

    Ruling: "The 3-card reward goes to the player who eliminated an Outlaw (with their BANG!,
    Gatling or Indians!, or by winning a Duel, whoever started it), whatever that player's
    role."
    """
    t = table()
    t.set_life(3, 1)
    t.give(2, "Indians!")
    t.stack(*REWARD)
    t.play(2, "Indians!")
    assert not t.alive(3)
    assert t.hand_names(2) == ["Missed!"] * 3
    assert t.life(0) == 4 and t.life(1) == 3


def test_sheriff_killing_a_deputy_discards_hand_and_play():
    """[C-24] The Sheriff who eliminates a Deputy discards every card in hand and in play;
    an Outlaw who does keeps his.

    Rulebook: "If the Sheriff eliminates a Deputy , the Sheriff must discard all the cards
    he has in hand and in play" peers.md: "no penalty for the Sheriff killing a Deputy"
    """
    t = table(FIVE)
    t.set_life(4, 1)
    t.give(0, "BANG!", "Missed!", "Beer")
    t.equip(0, "Barrel", "Schofield")
    t.play(0, "BANG!", target=4)
    assert not t.alive(4)
    assert t.hand_names(0) == [] and t.in_play(0) == []
    assert sorted(t.discard_names()) == ["BANG!", "Barrel", "Beer", "Missed!", "Schofield"]

    t = table(FIVE)
    t.set_life(4, 1)
    t.give(3, "BANG!", "Missed!", "Beer")
    t.equip(3, "Barrel", "Schofield")
    t.play(3, "BANG!", target=4)
    assert not t.alive(4)
    assert t.hand_names(3) == ["Beer", "Missed!"] and t.in_play(3) == ["Barrel", "Schofield"]


# --- the end of the game: C-25, C-26, C-27 --------------------------------------------------


def test_renegade_wins_as_sole_survivor():
    """[C-25] The Sheriff dies with only the Renegade left alive: the Renegade wins.

    Ruling: "the Sheriff's death ends it (the Renegade wins only if they are the only player
    left alive, otherwise the Outlaws — dead Outlaws included)"
    """
    t = table()
    t.kill(2).kill(3)
    assert not t.over()
    t.set_life(0, 1)
    t.give(1, "BANG!")
    t.play(1, "BANG!", target=0)
    assert t.over() and t.winner() == "renegade"


def test_renegade_kills_the_sheriff_with_an_outlaw_alive():
    """[C-25] The Renegade kills the Sheriff while an Outlaw lives: the Outlaws win.

    Rulebook: "his goal is to be the last character in play"
    """
    t = table()
    t.kill(3)
    t.set_life(0, 1)
    t.give(1, "BANG!")
    t.play(1, "BANG!", target=0)
    assert t.over() and t.winner() == "outlaw"


def test_outlaws_win_when_the_sheriff_dies_with_renegade_and_deputy_alive():
    """[C-25] All Outlaws dead, the Renegade kills the Sheriff with a Deputy still alive:
    the (dead) Outlaws win, not the Renegade.

    peers.md: "the Renegade "winning" with Deputies alive; games that cannot end when the
    Sheriff dies with no Outlaw or Renegade left."
    """
    t = table(FIVE)
    t.kill(2).kill(3)
    t.set_life(0, 1)
    t.give(1, "BANG!")
    t.play(1, "BANG!", target=0)
    assert t.alive(1) and t.alive(4)
    assert t.over() and t.winner() == "outlaw"


@pytest.mark.parametrize("deputy_alive, winner", [(False, "renegade"), (True, "outlaw")])
def test_sheriff_killed_by_dynamite(deputy_alive, winner):
    """[C-25] [C-27] [K-17] Dynamite kills the Sheriff: the game ends at once; the Renegade
    wins only if he is the only player left.

    Ruling: "the Sheriff's death ends it (the Renegade wins only if they are the only player
    left alive, otherwise the Outlaws — dead Outlaws included)"
    """
    t = table(FIVE)
    t.kill(2).kill(3)
    if not deputy_alive:
        t.kill(4)
    t.set_life(0, 3)
    t.equip(0, "Dynamite")
    t.stack(BOOM)
    assert not t.start_of_turn(0)
    assert not t.alive(0)
    assert t.over() and t.winner() == winner


def test_sheriff_side_wins_with_dead_deputies():
    """[C-26] Once the Outlaws and the Renegade are dead the Sheriff's side wins, dead
    Deputies included.

    Ruling: "the death of the last Outlaw/Renegade ends it for the Sheriff and all Deputies,
    dead ones included."
    """
    t = table(FIVE)
    t.kill(4).kill(2).kill(3)
    assert not t.over()
    t.set_life(1, 1)
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=1)
    assert t.over() and t.winner() == "leader"
    assert not t.alive(4)


def test_game_ends_mid_gatling():
    """[C-27] [K-11] A Gatling that kills the last Outlaw ends the game at once: the players
    after him are not shot.

    Ruling: "The game ends the moment its end condition holds, even mid-turn"
    """
    t = table(FIVE)
    t.kill(1).kill(2)
    t.set_life(3, 1).set_life(4, 1)
    t.give(0, "Gatling")
    t.give(4, "Beer")
    t.play(0, "Gatling")
    assert not t.alive(3)
    assert t.over() and t.winner() == "leader"
    assert t.alive(4) and t.life(4) == 1 and t.hand_names(4) == ["Beer"]


def test_game_ends_mid_turn_no_more_plays():
    """[C-27] The turn stops the moment the game is over: no further plays, no end-of-turn
    discard.

    peers.md: "Winners checked only at the end of a round"
    """
    chars = ["Bart Cassidy", "Kit Carlson", "Jesse Jones", "Pedro Ramirez", "Kit Carlson"]
    t = table(FIVE, chars=chars)
    t.kill(1).kill(2)
    t.set_life(0, 1).set_life(3, 1)
    t.G.karma[3] = -1.0  # publicly hostile: the Sheriff's bot shoots him
    t.give(0, "BANG!", "Missed!", "Missed!")
    t.stack("Missed!@QC", "Missed!@JC")
    t.turn(0)
    assert not t.alive(3)
    assert t.over() and t.winner() == "leader"
    assert t.hand_names(0) == ["Missed!"] * 4  # more cards than life: no discard was made


# --- draw! checks and the start of a turn: C-28, C-29 ---------------------------------------


@pytest.mark.parametrize(
    "face, escapes",
    [(HEART, True), ("Mustang@9H", True), (DIAMOND, False), (CLUB, False), (BOOM, False)],
)
def test_draw_check_uses_the_real_face_and_is_discarded(face, escapes):
    """[C-28] [K-16] draw!: the top card is revealed and discarded; its suit decides (a
    Heart escapes the Jail).

    Ruling: "A "draw!" card always goes to the discard pile" peers.md: "draw! checks as coin
    flips or on random suits instead of the real faces of the drawn card."
    """
    t = table()
    t.equip(2, "Jail@JS")
    t.stack(face, "Beer@9H")
    assert t.start_of_turn(2) == escapes
    assert disc(t) == [face, "Jail@JS"]
    assert t.deck_top() == ["Beer"]


def test_start_of_turn_dynamite_then_jail_then_draw():
    """[C-29] [K-16] [K-17] Dynamite draws! first (Spades 2: -3), then Jail (a Heart:
    escaped), then the two-card draw; at 1 life the hand is cut to one card at the end.

    Ruling: "Start of turn, in order: Dynamite check, then Jail check, then draw."
    """
    t = table(chars=["Black Jack", "Kit Carlson", "Slab the Killer", "Jesse Jones"])
    t.equip(2, "Jail@JS", "Dynamite")
    t.stack(BOOM, HEART, "Missed!@KC", "Missed!@QC")
    t.turn(2)
    assert t.life(2) == 1
    assert t.in_play(2) == [] and t.in_play(3) == []
    assert t.hand_names(2) == ["Missed!"]
    assert disc(t)[:4] == [BOOM, "Dynamite@2H", HEART, "Jail@JS"]
    assert disc(t)[4] in ("Missed!@KC", "Missed!@QC")


# --- peers.md pitfalls not covered above -----------------------------------------------------


def test_removed_equipment_stops_working():
    """[K-06] [K-13] [K-15] A Mustang or Barrel discarded by Cat Balou no longer counts.

    peers.md: "Equipment discarded yet still working"
    """
    t = table(FIVE)
    t.equip(1, "Mustang", "Barrel")
    t.give(0, "Cat Balou", "Cat Balou", "BANG!")
    assert targets(t, 0, "BANG!") == [4]
    t.play(0, "Cat Balou", target=1, opt=0)  # the Mustang
    assert t.in_play(1) == ["Barrel"]
    assert targets(t, 0, "BANG!") == [1, 4]
    t.play(0, "Cat Balou", target=1, opt=0)  # the Barrel
    assert t.in_play(1) == []
    t.stack(HEART)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3 and t.deck_top() == ["Beer"]  # no draw! was made


def test_draw_phase_abilities_only_on_their_owners_turn():
    """[C-06] [K-09] On the Sheriff's turn the others' draw abilities (Kit Carlson, Jesse
    Jones, Pedro Ramirez, Black Jack) do nothing: the Sheriff draws two, and the General
    Store gives each player exactly one card.

    peers.md: "Draw-phase abilities (Jesse Jones, Black Jack, Kit Carlson, Pedro Ramirez)
    firing on other players' turns"
    """
    chars = ["Vulture Sam", "Kit Carlson", "Jesse Jones", "Pedro Ramirez", "Black Jack"]
    t = table(FIVE, chars=chars)
    t.give(0, "General Store")
    for q in range(1, 5):
        t.give(q, "Panic!")
    t.to_discard("Beer@10H")  # what Pedro Ramirez would take
    t.stack("Missed!@KC", "Missed!@QC", "Beer", "Missed!@JC", "BANG!@3C", "Mustang", "Dynamite")
    deck = t.deck_size()
    t.draw_phase(0)
    assert t.hand_names(0) == ["General Store", "Missed!", "Missed!"]
    assert [t.hand_names(q) for q in range(1, 5)] == [["Panic!"]] * 4
    t.play(0, "General Store")
    assert t.deck_size() == deck - 7
    assert t.hand_names(0) == ["Beer", "Missed!", "Missed!"]
    assert t.hand_names(1) == ["Missed!", "Panic!"]
    assert t.hand_names(2) == ["BANG!", "Panic!"]
    assert t.hand_names(3) == ["Mustang", "Panic!"]
    assert t.hand_names(4) == ["Dynamite", "Panic!"]
    assert t.discard_names() == ["Beer", "General Store"]


@pytest.mark.parametrize("karma, hit", [(-1.0, True), (0.0, False)])
def test_bots_read_public_facts_not_hidden_roles(karma, hit):
    """[C-02] The Sheriff's bot decides from public facts: with the same public record, the
    same play whether seat 1 is secretly the Renegade or a Deputy (five players, so the
    public role mix does not tell).

    Rulebook: "The Sheriff is the only player who reveals their role at the beginning."
    peers.md: "Bots that see true roles"
    """
    outcomes = []
    for roles in (FIVE, ["leader", "deputy", "outlaw", "outlaw", "renegade"]):
        chars = ["Vulture Sam", "Kit Carlson", "Jesse Jones", "Pedro Ramirez", "Black Jack"]
        t = table(roles, chars=chars)
        t.G.karma[1] = karma
        t.give(0, "BANG!")
        t.stack("Missed!@KC", "Missed!@QC")
        t.turn(0)
        outcomes.append(([t.life(q) for q in range(5)], t.hand_names(0), t.discard_names()))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == [5, 3 if hit else 4, 4, 4, 4]


def test_deputy_bot_never_shoots_the_sheriff():
    """[C-02] A Deputy's bot with the Sheriff and a publicly hostile player in reach shoots
    the hostile player, never the Sheriff; with no known enemy it holds fire (seven players:
    the other unknown seats are not all hostile).

    peers.md: "Deputies shooting at random (the Sheriff included)."
    """
    roles = ["leader", "renegade", "outlaw", "outlaw", "deputy", "outlaw", "deputy"]
    chars = PLAIN + ["Black Jack", "Kit Carlson", "Vulture Sam"]
    for karma, lives in ((-1.0, [5, 4, 4, 4, 4, 3, 4]), (0.0, [5, 4, 4, 4, 4, 4, 4])):
        t = table(roles, chars=chars)
        t.G.karma[5] = karma
        t.give(6, "BANG!")
        t.stack("Missed!@KC", "Missed!@QC")
        assert targets(t, 6, "BANG!") == [0, 5]
        t.turn(6)
        assert [t.life(q) for q in range(7)] == lives


def test_play_any_number_of_cards_one_at_a_time():
    """[C-07] "2. Play any number of legal cards, one at a time." A whole turn: the bot
    draws two, then plays a Stagecoach, a Barrel, a Mustang and a Schofield in turn."""
    t = Table(["Bart Cassidy", "Black Jack", "El Gringo", "Jesse Jones"])
    t.give(0, "Stagecoach", "Barrel", "Mustang", "Schofield")
    t.stack("Missed!", "Missed!", "Beer", "Beer")  # the draw phase, then the Stagecoach
    t.turn(0)
    assert t.in_play(0) == ["Barrel", "Mustang", "Schofield"]
    assert t.hand_names(0) == ["Beer", "Beer", "Missed!", "Missed!"]
    assert t.discard_names() == ["Stagecoach"]
