"""Rules scenarios for The Walking Dead's printed differences (checklist W-01 .. W-05).

The Walking Dead is the classic game under other names (configs/themes/walking_dead.toml),
so the classic card and ability scenarios cover it card for card; these tests cover what
the theme file itself must get right. Each docstring names the checklist IDs it covers and
quotes the rulebook (shared/rules/walking_dead.txt) verbatim; test_quotes_are_verbatim
checks every quote against the rulebook text. Faces: a Heart ("First Aid@6H") passes a Riot
Gear or Captured check, "Missed!@10C" (a Club) passes nothing, "Missed!@2S" starts the
Contagion.
"""

from collections import Counter

import pytest
from scenario import Table, dist, targets

from simcore.engine import vocab
from simcore.engine.theme import load_theme

HEART = "First Aid@6H"
CLUB = "Missed!@10C"
BOOM = "Missed!@2S"  # Spades 2: the Contagion begins

FOUR = ["leader", "renegade", "outlaw", "outlaw"]
FIVE = ["leader", "renegade", "outlaw", "outlaw", "deputy"]
SIX = ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy"]
# abilities that act only in their owner's draw phase: inert in play-phase scenarios
PLAIN = ["Abraham", "Eugene", "Negan", "Glenn", "Rick", "Dwight"]

# decks.md: the Walking Dead card and character for each classic one
CARD_MAP = {
    "BANG!": "Attack!",
    "Missed!": "Missed!",
    "Beer": "First Aid",
    "Saloon": "Medical Supplies",
    "Panic!": "Surprise Attack",
    "Cat Balou": "Walker",
    "Stagecoach": "Ammo Crate",
    "Wells Fargo": "Weapons Cache",
    "General Store": "Supplies",
    "Duel": "Duel",
    "Gatling": "Grenade",
    "Indians!": "Herd of Walkers",
    "Barrel": "Riot Gear",
    "Scope": "Scope",
    "Mustang": "RV",
    "Jail": "Captured",
    "Dynamite": "Contagion",
    "Volcanic": "Machine Gun",
    "Schofield": "Pistol",
    "Remington": "Rifle",
    "Rev. Carabine": "Assault Rifle",
    "Winchester": "Sniper Rifle",
}
CHARACTER_MAP = {
    "Black Jack": "Abraham",
    "Rose Doolan": "Andrea",
    "Willy the Kid": "Carl",
    "Paul Regret": "Dale",
    "Vulture Sam": "Dwight",
    "Kit Carlson": "Eugene",
    "Lucky Duke": "Ezekiel",
    "Pedro Ramirez": "Glenn",
    "Sid Ketchum": "Hershel",
    "El Gringo": "The Governor",
    "Jourdonnais": "Jesus",
    "Suzy Lafayette": "Maggie",
    "Calamity Janet": "Michonne",
    "Jesse Jones": "Negan",
    "Bart Cassidy": "Rick",
    "Slab the Killer": "Tyreese",
}


def wd(chars=None, roles=FOUR) -> Table:
    return Table(chars or PLAIN[: len(roles)], roles=roles, theme="walking_dead")


# --- W-01 names and the card-for-card mapping ------------------------------------------------


def test_role_names():
    """[W-01] The four roles under their Walking Dead names, the mix as printed.

    Rulebook: "5 PLAYERS: 2 Survivors (1 is the Leader), 2 Saviors and 1 Hilltop Loner"
    """
    theme = load_theme("walking_dead")
    assert theme.role_names == {
        "leader": "Survivors' Leader",
        "deputy": "Survivor",
        "outlaw": "Savior",
        "renegade": "Hilltop Loner",
    }
    classic = load_theme("classic")
    assert (theme.tables.roles == classic.tables.roles).all()
    five = Counter(theme.role_names[vocab.ROLES[r]] for r in theme.tables.roles[5, :5])
    assert five == {"Survivors' Leader": 1, "Survivor": 1, "Savior": 2, "Hilltop Loner": 1}


def test_deck_is_the_classic_deck_card_for_card():
    """[W-01] Every Walking Dead card is its classic card renamed: same effect, numbers,
    count and faces (the faces and counts are our assumption, decks.md).

    Rulebook: "7 role cards, 16 character cards, 80 action cards, 7 summary cards"
    """
    theme, classic = load_theme("walking_dead"), load_theme("classic")
    assert len(theme.card_faces) == 80
    assert [CARD_MAP[n] for n in classic.card_display] == theme.card_display
    assert theme.card_faces == classic.card_faces
    t, c = theme.tables, classic.tables
    for field in ("card_effect", "card_value", "card_cost", "card_check", "card_flags"):
        assert (getattr(t, field) == getattr(c, field)).all(), field
    assert [CARD_MAP[n] for n in classic.card_names] == theme.card_names


def test_characters_are_the_classic_abilities():
    """[W-01] The 16 characters map onto the classic abilities and lives (decks.md).

    Rulebook: "Dale (3 life points): it is as if you always had an RV in play"
    """
    theme, classic = load_theme("walking_dead"), load_theme("classic")
    ours = {
        name: (life, ability)
        for name, life, ability in zip(
            theme.character_names, theme.character_lives, theme.character_abilities, strict=True
        )
    }
    for name, life, ability in zip(
        classic.character_names, classic.character_lives, classic.character_abilities, strict=True
    ):
        assert ours[CHARACTER_MAP[name]] == (life, ability), name
    assert sorted(ours) == sorted(CHARACTER_MAP.values())
    assert {n for n, (life, _) in ours.items() if life == 3} == {"Dale", "The Governor"}


def test_rules_differ_from_the_classic_only_where_printed():
    """[W-01] [W-02] [W-03] The rule flags are the classic's, but for Grenade damage.

    Rulebook: "Remember that damage from a Grenade is not considered to have been caused by
    any player."
    """
    theme, classic = load_theme("walking_dead"), load_theme("classic")
    diff = {k for k, v in theme.rule_values.items() if classic.rule_values[k] != v}
    assert diff == {"damage_by_no_one"}
    assert sorted(theme.rule_values["damage_by_no_one"]) == ["dynamite", "gatling"]


# --- W-02 Grenade damage is caused by no one -------------------------------------------------


def test_grenade_feeds_no_governor_steal():
    """[W-02] The Governor hit by a Grenade draws nothing from the thrower; hit by an
    Attack! he does.

    Rulebook: "every time you lose a life point because of a card played by another player,
    you draw a random card from that player's hand (one for each life point lost)." /
    "Remember that damage from a Grenade is not considered to have been caused by any
    player."
    """
    t = wd(["Abraham", "The Governor", "Eugene", "Negan"])
    t.give(0, "Grenade", "Ammo Crate", "Supplies")
    t.give(2, "Missed!")
    t.give(3, "Missed!")
    t.play(0, "Grenade")
    assert t.life(1) == 2
    assert t.hand_names(1) == []
    assert t.hand_names(0) == ["Ammo Crate", "Supplies"]
    t.give(0, "Attack!")
    t.play(0, "Attack!", target=1)
    assert t.life(1) == 1
    assert len(t.hand_names(1)) == 1 and len(t.hand_names(0)) == 1


@pytest.mark.parametrize(("theme", "grenade", "reward"), [
    ("walking_dead", "Grenade", 0), ("classic", "Gatling", 3),
])  # fmt: skip
def test_grenade_elimination_earns_no_reward(theme, grenade, reward):
    """[W-02] A Savior eliminated by a Grenade earns the thrower no reward (a classic
    Gatling does: only the Walking Dead prints the exception).

    Rulebook: "Whoever eliminates one of the Saviors (even if they are a Savior!) is
    entitled to immediately draw a reward of 3 cards from the deck."
    """
    chars = PLAIN[:4] if theme == "walking_dead" else ["Black Jack", "Kit Carlson"] * 2
    t = Table(chars, roles=FOUR, theme=theme)
    t.give(0, grenade)
    t.give(1, "Missed!")
    t.give(3, "Missed!")
    t.set_life(2, 1)
    t.play(0, grenade)
    assert not t.alive(2)
    assert len(t.hand_names(0)) == reward


@pytest.mark.parametrize(("theme", "grenade", "penalty"), [
    ("walking_dead", "Grenade", False), ("classic", "Gatling", True),
])  # fmt: skip
def test_grenade_killing_a_survivor_costs_the_leader_nothing(theme, grenade, penalty):
    """[W-02] The Leader whose Grenade eliminates a Survivor keeps his cards: the damage is
    no one's (a classic Sheriff's Gatling costs him everything).

    Rulebook: "If the Leader personally eliminates another Survivor, the Leader must discard
    all the cards they have in hand and those in play in front of them."
    """
    chars = PLAIN[:5] if theme == "walking_dead" else ["Black Jack", "Kit Carlson"] * 3
    t = Table(chars[:5], roles=FIVE, theme=theme)
    t.give(0, grenade, "Duel")
    t.equip(0, "Scope")
    for q in (1, 2, 3):
        t.give(q, "Missed!")
    t.set_life(4, 1)
    t.play(0, grenade)
    assert not t.alive(4)
    if penalty:
        assert t.hand_names(0) == [] and t.in_play(0) == []
    else:
        assert t.hand_names(0) == ["Duel"] and t.in_play(0) == ["Scope"]


# --- W-03 Contagion damage is caused by no one -----------------------------------------------


def test_contagion_feeds_no_governor_steal():
    """[W-03] The Governor losing 3 to Contagion takes no card from anyone.

    Rulebook: "If you lose life points (or leave the game) because of Contagion, this damage
    is not considered to have been caused by any player."
    """
    t = wd(["The Governor", "Abraham", "Eugene", "Negan"])  # the Leader: 3 + 1 life
    for q in (1, 2, 3):
        t.give(q, "Duel")
    t.equip(0, "Contagion")
    t.stack(BOOM)
    assert t.start_of_turn(0)
    assert t.life(0) == 1
    assert t.hand_names(0) == []
    assert [t.hand_names(q) for q in (1, 2, 3)] == [["Duel"]] * 3
    assert "Contagion" in t.discard_names()


def test_contagion_elimination_earns_no_reward():
    """[W-03] A Savior eliminated by Contagion earns no one a reward.

    Rulebook: "If you lose life points (or leave the game) because of Contagion, this damage
    is not considered to have been caused by any player."
    """
    t = wd()
    t.set_life(2, 3)
    t.equip(2, "Contagion")
    t.stack(BOOM)
    before = [len(t.hand_names(q)) for q in range(4)]
    assert not t.start_of_turn(2)
    assert not t.alive(2)
    assert [len(t.hand_names(q)) for q in range(4)] == before


def test_contagion_is_checked_before_captured():
    """[W-03] Contagion first, then Captured: a Spades 2 starts it, then a Heart escapes.

    Rulebook: "If Contagion is in play together with Captured, Contagion must be checked
    first."
    """
    t = wd()
    t.equip(2, "Captured", "Contagion")
    t.stack(BOOM, HEART)
    assert t.start_of_turn(2)
    assert t.life(2) == 1
    assert t.in_play(2) == []


# --- W-04 Tyreese ----------------------------------------------------------------------------


def tyreese_shoots(target_gear=(), target_hand=(), stack=()) -> Table:
    t = wd(["Tyreese", "Abraham", "Eugene", "Negan"])
    t.give(0, "Attack!@5C")
    if target_hand:
        t.give(1, *target_hand)
    if target_gear:
        t.equip(1, *target_gear)
    if stack:
        t.stack(*stack)
    t.play(0, "Attack!", target=1)
    return t


def test_tyreese_needs_two_missed():
    """[W-04] One Missed! does not cancel Tyreese's Attack!; two do.

    Rulebook: "Tyreese (4 life points): 2 Missed! cards are needed to cancel your Attack!
    cards."
    """
    t = tyreese_shoots(target_hand=["Missed!"])
    assert t.life(1) == 3 and t.hand_names(1) == ["Missed!"]
    t = tyreese_shoots(target_hand=["Missed!", "Missed!"])
    assert t.life(1) == 4 and t.hand_names(1) == []


def test_tyreese_riot_gear_success_counts_one_missed():
    """[W-04] A Riot Gear success is one of the two Missed! Tyreese's Attack! needs
    (our reading of "First Aid" in his text as Riot Gear: decks.md).

    Rulebook: "The effect of a First Aid, if used successfully against one of his Attack!
    cards, only counts as 1 Missed!." / "if a Heart comes up, you are Missed! (as if you had
    played a Missed!);"
    """
    t = tyreese_shoots(target_gear=["Riot Gear"], target_hand=["Missed!"], stack=[HEART])
    assert t.life(1) == 4 and t.hand_names(1) == [] and t.in_play(1) == ["Riot Gear"]
    t = tyreese_shoots(target_gear=["Riot Gear"], stack=[HEART])
    assert t.life(1) == 3
    t = tyreese_shoots(target_gear=["Riot Gear"], target_hand=["Missed!"], stack=[CLUB])
    assert t.life(1) == 3 and t.hand_names(1) == ["Missed!"]


def test_tyreese_against_jesus_with_riot_gear():
    """[W-04] Jesus with Riot Gear tries twice: two Hearts cancel Tyreese's Attack! alone.

    Rulebook: "If you have actual Riot Gear in play too, it adds to your natural ability,
    letting you try twice to cancel the hit."
    """
    t = wd(["Tyreese", "Jesus", "Eugene", "Negan"])
    t.give(0, "Attack!")
    t.equip(1, "Riot Gear")
    t.stack(HEART, "First Aid@7H")
    t.play(0, "Attack!", target=1)
    assert t.life(1) == 4


def test_first_aid_in_hand_cancels_nothing():
    """[W-04] A First Aid in hand never cancels a hit (the reason we read Riot Gear): it is
    played only at a fatal hit.

    Rulebook: "out of turn, but only if you have just received a fatal hit, i.e. a hit that
    would take away your last life point (and not simply if you've been hit)."
    """
    t = tyreese_shoots(target_hand=["First Aid", "Missed!"])
    assert t.life(1) == 3 and t.hand_names(1) == ["First Aid", "Missed!"]


# --- W-05 the rulebook's distance examples (6 players: A..F = seats 0..5) -------------------

A, B, C, D, E, F = range(6)


def six() -> Table:
    return wd(PLAIN, roles=SIX)


def test_distance_figure():
    """[W-05] Seating distance with six players, either way round.

    Rulebook: "The distance between two players is the smallest number of seats between
    them, counting clockwise or counter-clockwise, as in Figure A."
    """
    t = six()
    assert [dist(t, A, q) for q in (B, C, D, E, F)] == [1, 2, 3, 2, 1]


def test_example_1_reaching_c():
    """[W-05] A reaches C at distance 2 with a Pistol or better, not the Hatchet; with a Scope
    C is at 1; with C's RV too, 2 again.

    Rulebook: "Normally player C is at distance 2, so player A needs a better weapon to
    reach that distance: a Pistol, a Rifle, an Assault Rifle or a Sniper Rifle would work,
    but not the old and faithful Hatchet. If instead player A had a Scope in play, they would
    see player C at distance 1 and could attack them with any weapon. If in turn player C
    had an RV in play, they would be seen by player A at distance 2 anyway."
    """
    t = six()
    t.give(A, "Attack!")
    assert dist(t, A, C) == 2
    assert C not in targets(t, A, "Attack!")  # the Hatchet reaches 1
    for gun in ("Pistol", "Rifle", "Assault Rifle", "Sniper Rifle"):
        armed = six().give(A, "Attack!").equip(A, gun)
        assert targets(armed, A, "Attack!") == (
            [B, C, E, F] if gun == "Pistol" else [B, C, D, E, F]
        )
    t.equip(A, "Scope")
    assert dist(t, A, C) == 1
    assert C in targets(t, A, "Attack!")  # with the Hatchet
    t.equip(C, "RV")
    assert dist(t, A, C) == 2
    assert C not in targets(t, A, "Attack!")


def test_example_2_rv_on_d():
    """[W-05] D with an RV is at distance 4 from A: a Rifle (3) does not reach, an Assault
    Rifle (4) does.

    Rulebook: "If player D had an RV in play, they would be seen by player A at distance 4:
    only a weapon capable of reaching at least distance 4 would allow player A to attack
    them."
    """
    t = six()
    t.equip(D, "RV")
    t.give(A, "Attack!")
    assert dist(t, A, D) == 4
    t.equip(A, "Rifle")
    assert D not in targets(t, A, "Attack!")
    t.to_discard("Rifle")
    t.equip(A, "Assault Rifle")
    assert D in targets(t, A, "Attack!")


def test_rv_example():
    """[W-05] A's RV: B and F see A at 2, C and E at 3, D at 4; A sees them as before.

    Rulebook: "Example. In the distance diagram (page 5), if player A had an RV in play,
    player B and player F would see them at distance 2. Player C and player E at distance 3,
    player D at distance 4, while player A would continue to see the others at the normal
    distance."
    """
    t = six()
    t.equip(A, "RV")
    assert [dist(t, q, A) for q in (B, F, C, E, D)] == [2, 2, 3, 3, 4]
    assert [dist(t, A, q) for q in (B, C, D, E, F)] == [1, 2, 3, 2, 1]


def test_scope_example():
    """[W-05] A's Scope: A sees B, F, C and E at 1 and D at 2; the others see A as before.

    Rulebook: "Example. In the distance diagram (page 5), if player A had a Scope in play,
    they would see player B and player F at distance 1, player C and player E at distance 1,
    player D at distance 2, while player A would continue to be seen by the others at the
    normal distance."
    """
    t = six()
    t.equip(A, "Scope")
    assert [dist(t, A, q) for q in (B, F, C, E, D)] == [1, 1, 1, 1, 2]
    assert [dist(t, q, A) for q in (B, C, D, E, F)] == [1, 2, 3, 2, 1]


def test_scope_minimum_one_and_andrea_dale_stack():
    """[W-05] Distances below 1 count as 1; Andrea's and Dale's built-ins add to real cards.

    Rulebook: "Distances below 1 are treated as 1." / "If you have an actual Scope in play
    too, it adds to your natural ability, decreasing the distance at which you see others by
    2." / "If you have an actual RV in play too, it adds to your natural ability, increasing
    the distance at which you are seen by 2."
    """
    t = wd(["Andrea", "Eugene", "Negan", "Dale", "Rick", "Dwight"], roles=SIX)
    t.equip(A, "Scope")
    assert [dist(t, A, q) for q in (B, C, E, F)] == [1, 1, 1, 1]
    assert dist(t, A, D) == 3 + 1 - 2  # Dale's built-in RV, less the Scope and Andrea's
    t.equip(D, "RV")
    assert dist(t, A, D) == 3
    assert dist(t, C, D) == 1 + 2  # seen by the others 2 farther


# --- the quotes above are the rulebook's words -----------------------------------------------


def test_quotes_are_verbatim():
    """Every quoted 'Rulebook:' passage in this file occurs in walking_dead.txt."""
    from quotes import assert_quotes_verbatim

    assert_quotes_verbatim(__name__, "walking_dead.txt")
