"""Every rule switch of a theme's [rules] at a value other than its default.

Every shipped theme uses the default of most switches, so the scenarios of the other rules
files never set them: a bug that ignores a switch (bang_limit read as 1 whatever the file
says) would make an experiment's override do nothing, silently. Each test here builds a
variant of a shipped theme with one switch changed (scenario.variant, through the real
loader), plays the rule it varies on a hand-set table and checks its effect, next to the
default's where the contrast is the point. Each docstring names the checklist IDs and
quotes the rulebook sentence the switch varies (classic or Star Wars; test_quotes_are_verbatim
checks them).

`SWITCHES` says which test sets each key of vocab.RULES away from its default, and
`UNSHIPPED` which test plays each effect and ability of the vocabulary that no shipped theme
uses; test_every_switch_and_unshipped_name_has_a_test fails when one is added without.
"""

import inspect

import numpy as np
from played import play_games
from scenario import BOOM, CLUB, DIAMOND, FIVE, FOUR, HEART, Table, table, targets, variant

from simcore.engine import kernel, vocab
from simcore.engine.play import CHECKED, NO_FEATURE
from simcore.engine.state import new_states
from simcore.engine.tables import pack_tables
from simcore.engine.theme import (
    compile_theme,
    load_theme,
    read_toml,
    shipped_theme_file,
    shipped_themes,
)
from strategies.presets import resolve_strategy

# --- [C-03] leader_extra_life ------------------------------------------------------------------


def dealt(theme, players: int = 5, seed: int = 3):
    """A game state as the kernel's setup deals it (no hand-set life)."""
    T = pack_tables(theme.tables)[0]
    s = resolve_strategy("basic")
    G = new_states(1)[0]
    pool = np.arange(len(theme.character_names), dtype=np.int64)
    kernel.setup_game(G, T, s.matrix, pool, s.role_preset, NO_FEATURE, players, seed, 0, CHECKED)
    return G


def test_leader_extra_life_sets_the_leaders_life_maximum_and_hand():
    """[C-03] [C-04] leader_extra_life = 2: the leader starts with his character's life + 2,
    which is also his maximum and his starting hand; nobody else gets more.

    Rulebook: "The Sheriff receives one extra bullet for all purposes."
    """
    for extra in (1, 2, 0):
        theme = variant(leader_extra_life=extra)
        G = dealt(theme)
        printed = theme.tables.char_life[G.char[:5]]
        assert G.life[0] == G.max_life[0] == G.hand_n[0] == printed[0] + extra
        assert (G.life[1:5] == printed[1:]).all() and (G.hand_n[1:5] == printed[1:]).all()


# --- [C-23] outlaw_reward, no_reward_effects ---------------------------------------------------


def shoot_last_life(theme, killer_cards=()):
    """The leader (seat 0) shoots the outlaw at seat 3 (1 life): the leader's hand after."""
    t = table(FOUR, theme=theme)
    t.set_life(3, 1)
    t.give(0, "BANG!@5C", *killer_cards)
    t.play(0, "BANG!", target=3)
    assert not t.alive(3)
    return t


def test_outlaw_reward_draws_that_many_cards():
    """[C-23] outlaw_reward = 1: eliminating an Outlaw draws one card, not three.

    Rulebook: "Any player eliminating an Outlaw (even if the eliminating player is himself an
    Outlaw!) must draw a reward of 3 cards from the deck"
    """
    assert len(shoot_last_life("classic").hand_names(0)) == 3
    assert len(shoot_last_life(variant(outlaw_reward=1)).hand_names(0)) == 1
    assert len(shoot_last_life(variant(outlaw_reward=0)).hand_names(0)) == 0


def test_no_reward_effects_withholds_the_reward_for_those_effects_only():
    """[C-23] [S-04] no_reward_effects = ["bang"]: an Outlaw eliminated by a BANG! earns no
    reward; one eliminated in a Duel still earns it (the Star Wars file lists Jawas and the
    Trash Compactor).

    Rulebook: "If a Rebel player is eliminated because of" / "nobody receives a reward for
    it."
    """
    theme = variant(no_reward_effects=["bang"])
    assert shoot_last_life(theme).hand_names(0) == []
    t = table(FOUR, theme=theme)
    t.set_life(3, 1)
    t.give(0, "Duel")
    t.play(0, "Duel", target=3)  # seat 3 holds no BANG!: it loses its last life
    assert not t.alive(3) and len(t.hand_names(0)) == 3


# --- [C-24] leader_kills_deputy_penalty -------------------------------------------------------


def leader_kills_deputy(theme) -> Table:
    t = table(FIVE, theme=theme)
    t.set_life(4, 1)  # the deputy at seat 4 sits next to the leader
    t.give(0, "BANG!@5C", "Missed!", "Beer")
    t.equip(0, "Barrel")
    t.play(0, "BANG!", target=4)
    assert not t.alive(4)
    return t


def test_without_the_deputy_penalty_the_leader_keeps_his_cards():
    """[C-24] leader_kills_deputy_penalty = false: the Sheriff who eliminates a Deputy keeps
    his hand and his cards in play; with the default he discards them all.

    Rulebook: "If the Sheriff eliminates a Deputy , the Sheriff must discard all the cards he
    has in hand and in play"
    """
    t = leader_kills_deputy("classic")
    assert t.hand_names(0) == [] and t.in_play(0) == []
    t = leader_kills_deputy(variant(leader_kills_deputy_penalty=False))
    assert t.hand_names(0) == ["Beer", "Missed!"] and t.in_play(0) == ["Barrel"]


# --- [C-19] [C-20] beer_min_players ------------------------------------------------------------


def beers(theme, dead: list[int]) -> tuple[int, bool]:
    """Seat 1 at 2 life drinks a Beer on its turn, then, at 1 life holding a Beer, takes a
    lethal BANG!, with the seats `dead` eliminated: its life after the Beer, and whether it
    survived the hit."""
    t = table(theme=theme)
    for q in dead:
        t.kill(q)
    t.set_life(1, 2)
    t.give(1, "Beer")
    t.play(1, "Beer")
    healed = t.life(1)
    t.set_life(1, 1)
    t.give(1, HEART)
    t.give(0, "BANG!@5C")
    t.play(0, "BANG!", target=1)
    return healed, t.alive(1)


def test_beer_min_players_two_makes_a_beer_heal_with_two_left():
    """[K-03] [C-20] [C-19] beer_min_players = 2: with two players left a Beer heals, on the
    turn and at a lethal hit (where it saves).

    Rulebook: "Beer has no effect if there are only 2 players left in the game; in other
    words, if you play a Beer you do not gain any life point"
    """
    assert beers("classic", [2, 3]) == (2, False)
    assert beers(variant(beer_min_players=2), [2, 3]) == (3, True)


def test_beer_min_players_four_makes_a_beer_useless_with_three_left():
    """[K-03] [C-20] [C-19] beer_min_players = 4: with three players left a Beer neither heals
    on the turn nor saves from a lethal hit.

    Rulebook: "Beer has no effect when only two players remain."
    """
    assert beers("classic", [2]) == (3, True)
    assert beers(variant(beer_min_players=4), [2]) == (2, False)


# --- [K-17] dynamite_damage, damage_by_no_one ----------------------------------------------------


def test_dynamite_damage_is_the_switchs_value():
    """[K-17] dynamite_damage = 1: an exploding Dynamite costs one life, not three.

    Rulebook: "if you draw a card showing Spades and a number between 2 and 9, the Dynamite
    explodes! Discard it and lose 3 life points"
    """
    for theme, after in (
        ("classic", 1),
        (variant(dynamite_damage=1), 3),
        (variant(dynamite_damage=4), 0),
    ):
        t = table(theme=theme)
        t.equip(1, "Dynamite")
        t.stack(BOOM)
        t.start_of_turn(1)
        assert t.life(1) == after


def test_damage_by_no_one_makes_a_bang_hit_nobodys():
    """[K-17] [A-04] [C-23] damage_by_no_one = ["dynamite", "bang"]: a BANG! hit is caused by
    no one, as Dynamite damage is: El Gringo takes no card from the shooter, and the leader
    who shoots an Outlaw dead draws no reward.

    Rulebook: "If you are damaged (or even eliminated!) by a Dynamite , this damage is not
    considered to be caused by any player"
    """
    chars = ["Kit Carlson", "El Gringo", "Jesse Jones", "Pedro Ramirez"]
    for theme, taken in (("classic", 1), (variant(damage_by_no_one=["dynamite", "bang"]), 0)):
        t = Table(chars, roles=FOUR, theme=theme)
        t.give(0, "BANG!@5C", "Beer")
        t.play(0, "BANG!", target=1)
        assert t.life(1) == 2 and len(t.hand_names(1)) == taken
    assert shoot_last_life(variant(damage_by_no_one=["dynamite", "bang"])).hand_names(0) == []


# --- [C-09] bang_limit -------------------------------------------------------------------------


def test_bang_limit_two_allows_a_second_bang_not_a_third():
    """[K-01] [C-09] bang_limit = 2: a second BANG! card in the turn is playable, a third is
    not; the next turn starts again at zero.

    Rulebook: "The general limits are one BANG! card per turn"
    """
    t = table(theme=variant(bang_limit=2))
    t.give(0, "BANG!", "BANG!", "BANG!")
    t.play(0, "BANG!", target=1)
    t.play(0, "BANG!", target=3)
    assert t.bangs_played() == 2 and t.life(1) == 3 and t.life(3) == 3
    assert not t.can_play(0, "BANG!")
    t.new_turn(0)
    assert targets(t, 0, "BANG!") == [1, 3]


def test_bang_limit_zero_allows_no_bang_but_volcanic_still_does():
    """[K-01] [C-09] [K-18] bang_limit = 0: no BANG! card is playable, but the Volcanic (any
    number of BANG! cards) still lifts the limit.

    Rulebook: "Volcanic allows multiple BANG! cards in your turn, but only at distance 1."
    """
    t = table(theme=variant(bang_limit=0))
    t.give(0, "BANG!")
    assert not t.can_play(0, "BANG!")
    t.equip(0, "Volcanic")
    assert targets(t, 0, "BANG!") == [1, 3]


# --- [C-06] draw_count -------------------------------------------------------------------------


def test_draw_count_three_draws_three_cards():
    """[C-06] [A-07] draw_count = 3: phase 1 draws three cards; Kit Carlson looks at four and
    keeps three.

    Rulebook: "Draw two cards from the deck."
    """
    t = Table(["Paul Regret", "Kit Carlson", "Jesse Jones", "Pedro Ramirez"], roles=FOUR,
              theme=variant(draw_count=3))  # fmt: skip
    t.stack("BANG!", "Missed!", "Beer", "Saloon", "Stagecoach")
    t.draw_phase(0)
    assert t.hand_names(0) == ["BANG!", "Beer", "Missed!"]
    left = t.deck_size()
    t.draw_phase(1)  # sees four cards, keeps three, puts one back
    assert len(t.hand_names(1)) == 3 and t.deck_size() == left - 3


# --- [K-16] jail_on_leader ---------------------------------------------------------------------


def test_jail_on_leader_makes_the_leader_a_jail_target():
    """[K-16] jail_on_leader = true: Jail may be played on the leader; by default it may not.

    Rulebook: "Jail cannot be played on the Sheriff"
    """
    t = table()
    t.give(1, "Jail")
    assert targets(t, 1, "Jail") == [2, 3]
    t = table(theme=variant(jail_on_leader=True))
    t.give(1, "Jail")
    assert targets(t, 1, "Jail") == [0, 2, 3]
    t.play(1, "Jail", target=0)
    assert t.in_play(0) == ["Jail"]
    t.stack(CLUB)
    assert not t.start_of_turn(0)  # the jailed leader skips his turn


# --- turn_cap ----------------------------------------------------------------------------------


def test_turn_cap_ends_long_games_capped():
    """turn_cap = 6 (not in the rulebook: a simulator guard): no game runs past six turns;
    the games still running then end `capped`, with no winner."""
    block = play_games(variant(turn_cap=6), 5, 200, seed=4, strategy="smart")
    assert (block.turns <= 6).all()
    assert block.capped.any() and (block.winner[block.capped] == vocab.W_NONE).all()
    assert not play_games("classic", 5, 200, seed=4, strategy="smart").capped.any()


# --- [S-31] new_hope_heal ----------------------------------------------------------------------


def test_new_hope_heal_is_the_switchs_value():
    """[S-31] new_hope_heal = 1: A New Hope's check gives one energy, not two.

    Rulebook: "if the lower left corner of the revealed card has the A New Hope symbol, loyal
    friends come to your aid: you receive two energy tokens and discard this card;"
    """
    for theme, after in (("star_wars", 3), (variant("star_wars", new_hope_heal=1), 2)):
        t = Table(["Resilient"] * 4, roles=FOUR, theme=theme)
        t.set_life(1, 1)
        t.equip(1, "A New Hope")
        t.stack("BANG!@new_hope")
        assert t.start_of_turn(1)
        assert t.life(1) == after and t.in_play(1) == []


# --- [S-41] self_target_effects ----------------------------------------------------------------


def test_self_target_effects_lets_panic_take_your_own_card():
    """[S-41] [K-05] self_target_effects = ["steal"]: a Panic! may take a card of your own in
    play (the classic default: only other players).

    Rulebook: "(you may also choose yourself)"
    """
    t = table()
    t.give(0, "Panic!")
    t.equip(0, "Barrel")
    assert 0 not in targets(t, 0, "Panic!")
    t = table(theme=variant(self_target_effects=["steal"]))
    t.give(0, "Panic!")
    t.equip(0, "Barrel")
    assert 0 in targets(t, 0, "Panic!")
    assert not t.can_play(0, "Panic!", target=0, opt=-1)  # the Panic! itself leaves the hand
    t.play(0, "Panic!", target=0, opt=0)
    assert t.hand_names(0) == ["Barrel"] and t.in_play(0) == []


# --- [A-13] [S-40] double_missed_effects -------------------------------------------------------


def test_double_missed_effects_decides_which_hits_need_two_missed():
    """[A-13] [S-40] double_missed_effects = ["gatling"]: Slab the Killer's Gatling needs two
    Missed! and his BANG! one (the classic default is the other way round).

    Rulebook: "Slab the Killer makes a shot require two Missed! cards;"
    """
    slab = ["Slab the Killer", "Kit Carlson", "Jesse Jones", "Bart Cassidy"]
    theme = variant(double_missed_effects=["gatling"])
    t = Table(slab, roles=FOUR, theme=theme)
    t.give(0, "BANG!", "Gatling")
    t.give(1, "Missed!")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4 and t.hand_names(1) == []  # one Missed! cancels his BANG!
    t.give(1, "Missed!")
    t.play(0, "Gatling")
    assert t.life(1) == 3 and t.hand_names(1) == ["Missed!"]  # one is not enough for his Gatling


# --- an ability no shipped theme uses ---------------------------------------------------------


def test_a_character_without_an_ability_plays_the_plain_rules():
    """[C-06] [A-12] ability = "none": a character with no ability draws two cards, is
    offered no ability play, and takes a hit without drawing or stealing."""
    raw = read_toml(shipped_theme_file("classic"))
    raw["theme"]["id"] = "classic_plain"
    for ch in raw["characters"]:
        if ch["name"] in ("Sid Ketchum", "Bart Cassidy"):
            ch["ability"] = "none"
    theme = compile_theme(raw)
    assert vocab.A_NONE in theme.tables.char_ability
    t = Table(["Sid Ketchum", "Bart Cassidy", "Kit Carlson", "Jesse Jones"], roles=FOUR,
              theme=theme)  # fmt: skip
    t.set_life(0, 2)
    t.give(0, "Missed!", "Missed!", DIAMOND)
    assert [name for name, _, _ in t.legal(0)] == ["BANG!", "BANG!"]  # no Sid Ketchum heal
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3 and t.hand_names(1) == []  # no Bart Cassidy draw
    t.stack("Beer", "Saloon", "Stagecoach")
    t.draw_phase(0)
    assert t.hand_names(0) == ["Beer", "Missed!", "Missed!", "Saloon"]


# --- the registry ------------------------------------------------------------------------------

SWITCHES = {
    "leader_extra_life": test_leader_extra_life_sets_the_leaders_life_maximum_and_hand,
    "outlaw_reward": test_outlaw_reward_draws_that_many_cards,
    "leader_kills_deputy_penalty": test_without_the_deputy_penalty_the_leader_keeps_his_cards,
    "beer_min_players": test_beer_min_players_two_makes_a_beer_heal_with_two_left,
    "dynamite_damage": test_dynamite_damage_is_the_switchs_value,
    "bang_limit": test_bang_limit_two_allows_a_second_bang_not_a_third,
    "draw_count": test_draw_count_three_draws_three_cards,
    "jail_on_leader": test_jail_on_leader_makes_the_leader_a_jail_target,
    "damage_by_no_one": test_damage_by_no_one_makes_a_bang_hit_nobodys,
    "no_reward_effects": test_no_reward_effects_withholds_the_reward_for_those_effects_only,
    "turn_cap": test_turn_cap_ends_long_games_capped,
    "new_hope_heal": test_new_hope_heal_is_the_switchs_value,
    "self_target_effects": test_self_target_effects_lets_panic_take_your_own_card,
    "double_missed_effects": test_double_missed_effects_decides_which_hits_need_two_missed,
}
UNSHIPPED = {
    "ability none": test_a_character_without_an_ability_plays_the_plain_rules,
}


def unshipped_names() -> set[str]:
    """The effects and abilities of vocab that no shipped theme uses."""
    effects, abilities = set(), set()
    for theme_id in shipped_themes():
        tables = load_theme(theme_id).tables
        effects |= set(tables.card_effect.tolist())
        abilities |= set(tables.char_ability.tolist())
    return {f"effect {n}" for n, c in vocab.EFFECTS.items() if c not in effects} | {
        f"ability {n}" for n, c in vocab.ABILITIES.items() if c not in abilities
    }


def test_every_switch_and_unshipped_name_has_a_test():
    """Each key of vocab.RULES has a test here that sets it away from its default (the test's
    code names the key and a value that is not the default); each effect and ability no
    shipped theme uses has one that plays it."""
    assert set(SWITCHES) == set(vocab.RULES), "a rule switch without its test (SWITCHES)"
    for key, test in SWITCHES.items():
        source = inspect.getsource(test)
        default = vocab.RULES[key][1]
        assert f"{key}=" in source, f"{test.__name__} does not set {key}"
        assert f"{key}={default!r}" not in source.replace(" ", ""), key
    assert unshipped_names() <= set(UNSHIPPED), "an unshipped effect or ability without a test"
    for name, test in UNSHIPPED.items():
        assert f'"{name.split()[1]}"' in inspect.getsource(test), name


def test_quotes_are_verbatim():
    from quotes import assert_quotes_verbatim

    assert_quotes_verbatim(__name__, "classic_bang.txt", "star_wars.txt")
