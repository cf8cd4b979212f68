"""Rules scenarios for BANG! Star Wars (configs/themes/star_wars.toml; checklist S-01 ..).

Star Wars is the classic game re-skinned with checks on symbols instead of suits, A New Hope
and the Tempered ability; the classic card and ability scenarios cover the rest card for
card. Each docstring names the checklist IDs it covers and quotes the rulebook
(shared/rules/star_wars.txt) verbatim; test_quotes_are_verbatim checks every quote.
Faces are check symbols: "BANG!@cover" passes a Cover (or Lucky) check, "BANG!@new_hope"
an A New Hope check, "Missed!@trash_compactor" sets off the Trash Compactor,
"Missed!@carbonite" frees a player from Carbonite.
Encounter with Destiny copies are named by their extra effect: "BANG!#take",
"Missed!#none" (scenario.Table.card_ids).
"""

from collections import Counter

import pytest
from scenario import Table, disc, dist, targets

from simcore.engine import kernel, vocab
from simcore.engine.state import S_BANGS, S_CUR, S_TEMPERED
from simcore.engine.theme import ThemeError, compile_theme, load_theme
from strategies.decide import choose_action

COVER = "BANG!@cover"
NEW_HOPE = "BANG!@new_hope"
CARBONITE = "Missed!@carbonite"
COMPACTOR = "Missed!@trash_compactor"

FOUR = ["leader", "renegade", "outlaw", "outlaw"]
FIVE = ["leader", "renegade", "outlaw", "outlaw", "deputy"]


def sw(chars=None, roles=FOUR, strategy="basic") -> Table:
    """A Star Wars table; Resilient acts only when hurt, so it is inert in most scenarios."""
    return Table(
        chars or ["Resilient"] * len(roles), roles=roles, theme="star_wars", strategy=strategy
    )


# --- S-01 .. S-05 the theme file -------------------------------------------------------------


def test_roles_abilities_and_energy():
    """[S-01] [S-02] Darth Vader, Imperial Stormtroopers, Rebels, the Bounty Hunter; 7
    abilities at 4 energy; Vader +1.

    Rulebook: "Darth Vader receives 1 additional energy token: for example, if an ability
    card allows taking 3 energy tokens, Darth Vader takes 4." / "for 5 players: Darth Vader,
    the Bounty Hunter, 1 Imperial Stormtrooper and 2 Rebels;"
    """
    theme = load_theme("star_wars")
    assert theme.role_names == {
        "leader": "Darth Vader",
        "deputy": "Imperial Stormtrooper",
        "outlaw": "Rebel",
        "renegade": "Bounty Hunter",
    }
    assert Counter(theme.tables.roles[5, :5].tolist()) == {0: 1, 1: 1, 2: 2, 3: 1}
    assert theme.character_lives == [4] * 7
    assert dict(zip(theme.character_names, theme.character_abilities, strict=True)) == {
        "Fearless": "builtin_scope",
        "Lucky": "builtin_barrel",
        "Resilient": "discard_two_heal",
        "Tempered": "tempered",
        "Thrifty": "draw_when_empty",
        "Inventive": "bang_missed_swap",
        "Accurate": "double_missed",
    }
    t = sw(["Tempered", "Lucky", "Thrifty", "Accurate"])
    assert [t.life(p) for p in range(4)] == [5, 4, 4, 4]


def test_deck_is_the_assumed_80_cards_with_four_symbols():
    """[S-28] [S-29] [S-30] [S-31] The assumed deck (decks.md) and its check symbols.

    Rulebook: "reveal the top card of the draw pile and see whether the symbol named in the
    check text appears in its lower left corner."
    """
    theme = load_theme("star_wars")
    counts = Counter(theme.card_display)
    assert len(theme.card_faces) == 80
    assert counts["BANG!"] == 25 and counts["Missed!"] == 12 and counts["Bacta Tank"] == 6
    assert counts["Carbonite"] == 3 and counts["A New Hope"] == 1
    assert Counter(theme.card_faces) == {
        "cover": 20,
        "carbonite": 20,
        "trash_compactor": 20,
        "new_hope": 20,
    }
    check = theme.tables.card_check
    for name, face in [
        ("barrel", "cover"),
        ("jail", "carbonite"),
        ("dynamite", "trash_compactor"),
        ("new_hope", "new_hope"),
    ]:
        passing = {theme.card_faces[i] for i in range(80) if check[i] & vocab.CHECKS[name]}
        assert passing == {face}, name


def test_symbol_check_validation():
    """Symbol predicates name symbols that some card carries, and stand alone."""
    raw = load_theme("star_wars").raw
    bad = dict(raw, checks=dict(raw["checks"], barrel={"symbols": ["covr"]}))
    with pytest.raises(ThemeError, match=r"checks.barrel.symbols: symbol 'covr' is on no card"):
        compile_theme(bad, "sw.toml")
    bad = dict(raw, checks=dict(raw["checks"], barrel={"symbols": ["cover"], "suits": ["H"]}))
    with pytest.raises(ThemeError, match="cannot be combined"):
        compile_theme(bad, "sw.toml")
    bad = dict(raw, checks=dict(raw["checks"], barrel={"suits": ["H"]}))
    assert not (compile_theme(bad).tables.card_check & vocab.CHK_BARREL).any()
    bad_face = [dict(raw["cards"][0], copies=["Cover!"])] + raw["cards"][1:]
    with pytest.raises(ThemeError, match=r"cards\.\"BANG!\"\.copies\[0\]: bad face 'Cover!'"):
        compile_theme(dict(raw, cards=bad_face), "sw.toml")


def test_eliminating_a_rebel_draws_three():
    """[S-03] A Rebel eliminated by a BANG!: the attacker draws 3.

    Rulebook: "If any player eliminates a Rebel (even if that player is a Rebel themselves),
    that player must draw 3 cards from the draw pile as a reward."
    """
    t = sw()
    t.set_life(3, 1)
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=3)
    assert not t.alive(3)
    assert len(t.hand_names(0)) == 3


def test_no_reward_for_a_rebel_eliminated_by_jawas():
    """[S-04] [S-24] Jawas: no reward for the Rebel it eliminates.

    Rulebook: "If a Rebel player is eliminated because of "Jawas", nobody receives a reward
    for it."
    """
    t = sw()
    t.set_life(3, 1)
    t.give(0, "Jawas")
    t.give(2, "BANG!")
    t.play(0, "Jawas")
    assert not t.alive(3)
    assert t.hand_names(0) == []
    assert t.life(1) == 3 and t.life(2) == 4 and t.hand_names(2) == []


def test_no_reward_for_a_rebel_eliminated_by_the_trash_compactor():
    """[S-05] [S-30] The Trash Compactor: no reward for the Rebel it eliminates.

    Rulebook: "If a Rebel player is eliminated because of the "Trash Compactor", nobody
    receives a reward for it."
    """
    t = sw()
    assert set(load_theme("star_wars").rule_values["no_reward_effects"]) == {"indians", "dynamite"}
    t.set_life(2, 3)
    t.equip(2, "Trash Compactor")
    t.stack(COMPACTOR)
    assert not t.start_of_turn(2)
    assert not t.alive(2)
    assert all(t.hand_names(p) == [] for p in range(4))


# --- S-28 .. S-32 checks ---------------------------------------------------------------------


def test_cover_and_lucky_check_the_cover_symbol():
    """[S-28] [S-35] Cover cancels a hit on the Cover symbol; Lucky with Cover checks twice.

    Rulebook: "If you have "Cover", you may make a second check."
    """
    t = sw(["Resilient", "Lucky", "Resilient", "Resilient"])
    t.equip(1, "Cover")
    t.give(0, "BANG!")
    t.stack(CARBONITE, COVER)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert disc(t)[-2:] == [CARBONITE, COVER]
    t.new_turn(0)
    t.give(0, "BANG!")
    t.stack(CARBONITE, NEW_HOPE)
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3


def test_carbonite_never_on_darth_vader():
    """[S-29] Carbonite goes on any player but Darth Vader.

    Rulebook: ""Carbonite" cannot be played on Darth Vader!"
    """
    t = sw()
    t.give(1, "Carbonite")
    assert targets(t, 1, "Carbonite") == [2, 3]


@pytest.mark.parametrize(("face", "goes_on"), [(CARBONITE, True), (COVER, False)])
def test_carbonite_check(face, goes_on):
    """[S-29] Freed on the Carbonite symbol, else the turn is skipped; discarded either way.

    Rulebook: "if they reveal a card with the Carbonite symbol in its lower left corner,
    they are freed: they discard "Carbonite" and continue their turn;" / "if they reveal any
    other card, they also discard "Carbonite", but skip their entire turn."
    """
    t = sw()
    t.equip(2, "Carbonite")
    t.stack(face)
    assert t.start_of_turn(2) is goes_on
    assert t.in_play(2) == []
    assert disc(t)[0] == face and disc(t)[1].startswith("Carbonite@")


def test_trash_compactor_on_its_symbol():
    """[S-30] On its symbol: lose 3 energy and discard it.

    Rulebook: "if the lower left corner of the revealed card has the trash-compactor symbol,
    brace yourself for a dunking: lose 3 energy points and discard this card;"
    """
    t = sw()
    t.equip(1, "Trash Compactor")
    t.stack(COMPACTOR)
    assert t.start_of_turn(1)
    assert t.life(1) == 1 and t.in_play(1) == []
    assert disc(t)[-1].startswith("Trash Compactor@")


def test_trash_compactor_passes_left():
    """[S-30] Without its symbol it passes to the player on the left.

    Rulebook: "if the lower left corner of the revealed card does not have that symbol, pass
    the "Trash Compactor" to the player on your left"
    """
    t = sw()
    t.equip(1, "Trash Compactor")
    t.stack(COVER)
    assert t.start_of_turn(1)
    assert t.life(1) == 4 and t.in_play(1) == [] and t.in_play(2) == ["Trash Compactor"]


def test_a_new_hope_is_played_in_front_of_you():
    """[S-31] A New Hope is a blue card played in front of yourself.

    Rulebook: "You may play this card in front of you."
    """
    t = sw()
    t.give(1, "A New Hope")
    assert targets(t, 1, "A New Hope") == [1]
    t.play(1, "A New Hope")
    assert t.in_play(1) == ["A New Hope"]


@pytest.mark.parametrize(("life", "after"), [(1, 3), (3, 4)])
def test_a_new_hope_on_its_symbol(life, after):
    """[S-31] [S-19] On its symbol: two energy, never above the starting energy; discarded.

    Rulebook: "if the lower left corner of the revealed card has the A New Hope symbol, loyal
    friends come to your aid: you receive two energy tokens and discard this card;" / "You
    cannot receive more energy tokens than you had at the start of the game!"
    """
    t = sw()
    t.set_life(1, life)
    t.equip(1, "A New Hope")
    t.stack(NEW_HOPE)
    assert t.start_of_turn(1)
    assert t.life(1) == after and t.in_play(1) == []
    assert disc(t) == [NEW_HOPE, disc(t)[1]] and disc(t)[1].startswith("A New Hope@")


def test_a_new_hope_passes_left():
    """[S-31] Without its symbol it passes to the player on the left.

    Rulebook: "if the lower left corner of the revealed card does not have that symbol, pass
    "A New Hope" to the player on your left: at the start of their turn they will make the
    same check."
    """
    t = sw()
    t.set_life(3, 2)
    t.equip(3, "A New Hope")
    t.stack(COMPACTOR)
    assert t.start_of_turn(3)
    assert t.life(3) == 2 and t.in_play(3) == [] and t.in_play(0) == ["A New Hope"]


def test_carbonite_is_checked_last():
    """[S-32] Trash Compactor and A New Hope first (either order), Carbonite last.

    Rulebook: "If you have several cards in play that require a check at the start of your
    turn, always draw for "Carbonite" last. The checks for "A New Hope" and "Trash
    Compactor" may be made in any order."
    """
    t = sw()
    t.set_life(2, 2)
    t.equip(2, "Carbonite", "A New Hope", "Trash Compactor")
    t.stack(COVER, NEW_HOPE, "Bacta Tank@cover")
    assert not t.start_of_turn(2)  # no Carbonite symbol: the turn is skipped
    names = [d.split("@")[0] for d in disc(t)]
    assert names == ["BANG!", "BANG!", "A New Hope", "Bacta Tank", "Carbonite"]
    assert t.life(2) == 4  # A New Hope was checked before Carbonite skipped the turn
    assert t.in_play(3) == ["Trash Compactor"]


# --- S-37 Tempered ----------------------------------------------------------------------------


def test_tempered_repeats_a_bang():
    """[S-37] Tempered discards a BANG! to repeat a BANG! effect; the repeat is not a BANG!
    card played.

    Rulebook: "once per turn, you may discard a "BANG!" card to replay the effect of the card
    with a red border that you have just played. This may be a "BANG!" effect."
    """
    t = sw(["Resilient", "Resilient", "Resilient", "Tempered"])
    t.give(3, "BANG!@cover", "BANG!@carbonite")
    t.play(3, "BANG!", target=0)
    assert t.life(0) == 3
    assert t.hand_names(3) == [] and t.bangs_played() == 1
    assert sorted(disc(t)) == ["BANG!@carbonite", "BANG!@cover"]


def test_tempered_once_per_turn():
    """[S-37] Once per turn: a second card that turn is not repeated; the next turn may.

    Rulebook: "Tempered (4): once per turn, you may discard a "BANG!" card"
    """
    t = sw(["Resilient", "Resilient", "Resilient", "Tempered"])
    t.give(3, "Repair", "Repair", "BANG!", "BANG!")
    t.play(3, "Repair")  # draws 2, then 2 more for a BANG!
    assert len(t.hand_names(3)) == 6
    t.play(3, "Repair")
    assert len(t.hand_names(3)) == 7
    assert t.hand_names(3).count("BANG!") >= 1
    t.G.s[S_TEMPERED] = 0  # a new turn of the Tempered player
    n = len(t.hand_names(3))
    t.give(3, "Repair")
    t.play(3, "Repair")
    assert len(t.hand_names(3)) == n + 2 + 2 - 1


def test_tempered_repeats_a_deception():
    """[S-37] [S-21] A repeated Deception takes a second card from the same player.

    Rulebook: "Take into your hand a card from a player at distance 1 from you (either a
    random card from their hand or a card of your choice from their play area)."
    """
    t = sw(["Resilient", "Resilient", "Resilient", "Tempered"])
    t.give(0, "Missed!", "Bacta Tank")
    t.give(3, "Deception", "BANG!")
    t.play(3, "Deception", target=0, opt=-1)
    assert t.hand_names(0) == [] and t.hand_names(3) == ["Bacta Tank", "Missed!"]


def test_tempered_repeats_only_red_cards():
    """[S-37] A blue card is not repeated.

    Rulebook: "the card with a red border that you have just played."
    """
    t = sw(["Resilient", "Resilient", "Resilient", "Tempered"])
    t.give(3, "Cover", "BANG!")
    t.play(3, "Cover")
    assert t.hand_names(3) == ["BANG!"] and t.in_play(3) == ["Cover"]


def test_tempered_bot_repeats_only_what_helps():
    """[S-37] The bot does not spend a BANG! to heal at full energy (strategies: tempered)."""
    t = sw(["Resilient", "Resilient", "Resilient", "Tempered"])
    t.set_life(3, 3)
    t.give(3, "Bacta Tank", "BANG!")
    t.play(3, "Bacta Tank")
    assert t.life(3) == 4 and t.hand_names(3) == ["BANG!"]
    t.set_life(3, 2)
    t.give(3, "Bacta Tank")
    t.play(3, "Bacta Tank")  # still hurt after the first: repeated
    assert t.life(3) == 4 and t.hand_names(3) == []


# --- S-06 .. S-16 Encounter with Destiny ------------------------------------------------------


def test_destiny_only_at_two_energy_or_less():
    """[S-06] [S-08] The extra effect applies only at 2 energy or less, with the card.

    Rulebook: "If your character has 2 energy points or fewer, you may apply the additional
    effects of Encounter with Destiny." / "draw a card from the draw pile;"
    """
    t = sw()
    t.set_life(3, 3)
    t.give(3, "BANG!#draw")
    t.play(3, "BANG!", target=0)
    assert t.life(0) == 4 and t.hand_names(3) == []
    t.G.s[S_BANGS] = 0  # a new turn
    t.set_life(3, 2)
    t.give(3, "BANG!#draw")
    t.play(3, "BANG!", target=0)
    assert t.life(0) == 3 and len(t.hand_names(3)) == 1


def test_destiny_theme_lists():
    """[S-06] decks.md's assumed destiny copies; other themes have none; validation."""
    theme = load_theme("star_wars")
    fates = Counter(
        (n, vocab.DESTINIES_BY_CODE[int(d)])
        for n, d in zip(theme.card_display, theme.tables.card_destiny, strict=True)
        if d
    )
    assert fates == {
        ("BANG!", "draw"): 4,
        ("BANG!", "take"): 3,
        ("BANG!", "others_discard"): 2,
        ("BANG!", "hit_all"): 1,
        ("Missed!", "draw"): 2,
        ("Missed!", "attacker_loses"): 2,
        ("Missed!", "swap_hands"): 1,
        ("Bacta Tank", "draw"): 2,
        ("Bacta Tank", "other_gains"): 1,
        ("Repair", "draw"): 1,
    }
    assert not load_theme("classic").tables.card_destiny.any()
    raw = load_theme("star_wars").raw
    for destiny, msg in (
        (["draw"], r"cards\.\"BANG!\"\.destiny: must be a list as long as copies \(25 entries\)"),
        (["drew"] * 25, r"cards\.\"BANG!\"\.destiny\[0\]: unknown destiny 'drew'"),
        (["swap_hands"] * 25, r"cards\.\"BANG!\"\.destiny\[0\]: destiny 'swap_hands' only on"),
    ):
        cards = [dict(raw["cards"][0], destiny=destiny)] + raw["cards"][1:]
        with pytest.raises(ThemeError, match=msg):
            compile_theme(dict(raw, cards=cards), "sw.toml")


def test_bang_destiny_takes_a_card_then_shoots():
    """[S-09] [S-06] Take a card from the attacked player, then the hit (the order the
    player picks: here the Missed! is taken first).

    Rulebook: "take a card for yourself from the attacked player (from their hand or from
    play);"
    """
    t = sw()
    t.set_life(0, 2).set_life(3, 2)
    t.give(0, "Missed!#none")
    t.give(3, "BANG!#take")
    t.play(3, "BANG!", target=0)
    assert t.hand_names(3) == ["Missed!"] and t.hand_names(0) == []
    assert t.life(0) == 1


def test_bang_destiny_each_other_player_discards():
    """[S-10] Each other player discards a card, then the hit.

    Rulebook: "discard a card from each other player: a random card from hand or a card of
    your choice from play;"
    """
    t = sw()
    t.set_life(0, 2).set_life(3, 2)
    t.give(0, "Missed!#none")
    t.give(1, "Bacta Tank#none")
    t.give(2, "Duel")
    t.give(3, "BANG!#others_discard", "Repair#none")
    t.play(3, "BANG!", target=0)
    assert [t.hand_names(q) for q in range(3)] == [[], [], []]
    assert t.life(0) == 1 and t.hand_names(3) == ["Repair"]


def test_bang_destiny_hits_every_other_player_instead():
    """[S-11] Instead of the basic effect, every other player takes a hit (Missed! answers);
    still the turn's one BANG! card.

    Rulebook: "instead of the basic effect: each player other than you receives one hit"
    """
    t = sw()
    t.set_life(1, 2).set_life(3, 2)
    t.give(1, "Missed!#none")
    t.give(3, "BANG!#hit_all")
    t.play(3, "BANG!", target=0)
    assert [t.life(q) for q in range(4)] == [4, 2, 3, 2]
    assert t.hand_names(1) == [] and t.bangs_played() == 1


def test_others_discard_picks_from_play_or_a_random_hand_card():
    """[S-10] The player picks, for each other player, a card in play or a random hand card:
    an enemy loses its best card in play, a friend is freed from Carbonite, a player with
    only cards in play loses one of them.

    Rulebook: "discard a card from each other player: a random card from hand or a card of
    your choice from play;"
    """
    t = sw(roles=FIVE)  # seat 3 (an outlaw) shoots the deputy; seat 2 is the other outlaw
    t.set_life(3, 2)
    t.give(0, "Missed!#none")
    t.equip(0, "Cover")  # the leader: an enemy of an outlaw
    t.equip(1, "Speeder Bike")  # the renegade: only a card in play
    t.equip(2, "Carbonite")  # the other outlaw, in Carbonite, has shot at the leader
    t.give(2, "Duel")
    t.call(kernel.record, 2, 0, True)
    t.give(4, "Repair#none")  # the deputy: only a hand card
    t.give(3, "BANG!#others_discard")
    t.play(3, "BANG!", target=4)
    assert t.in_play(0) == [] and t.hand_names(0) == ["Missed!"]
    assert t.in_play(1) == [] and t.in_play(2) == [] and t.hand_names(2) == ["Duel"]
    assert t.hand_names(4) == [] and t.life(4) == 3


def test_thrifty_draws_only_after_both_effects():
    """[S-06] [S-38] Thrifty at 2 energy plays her last card, a BANG! whose destiny draws a
    card: she holds that one card, and her ability does not draw between the effects.

    Rulebook: "Effects of other cards and character abilities apply only after both effects
    of the played card have been resolved, not between them."
    """
    t = sw(["Resilient", "Thrifty", "Resilient", "Resilient"])
    t.set_life(1, 2)
    t.give(1, "BANG!#draw")
    t.stack("Repair#none", "Duel")
    t.play(1, "BANG!", target=0)
    assert t.hand_names(1) == ["Repair"] and t.deck_top() == ["Duel"]
    assert t.life(0) == 4


def test_thrifty_victim_draws_after_both_effects():
    """[S-06] [S-09] [S-38] A BANG! whose destiny takes Thrifty's last card: she draws only
    after the hit, so the card drawn cannot be the Missed! that cancels it.

    Rulebook: "Effects of other cards and character abilities apply only after both effects
    of the played card have been resolved, not between them."
    """
    t = sw(["Resilient", "Thrifty", "Resilient", "Resilient"])
    t.set_life(0, 2)
    t.give(1, "Repair#none")
    t.stack("Missed!#none")
    t.give(0, "BANG!#take")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 3 and t.hand_names(1) == ["Missed!"]
    assert t.hand_names(0) == ["Repair"]


def test_accurate_at_at_attack_needs_two_missed():
    """[S-40] Every hit of Accurate needs two Missed! cards, the AT-AT Attack too (and only
    Accurate's: the same hit by another character needs one).

    Rulebook: "Accurate (4): to cancel your hit (including Encounter with Destiny effects), 2
    "Missed!" cards are needed."
    """
    for shooter, cancels in (("Accurate", 2), ("Resilient", 1)):
        t = sw(["Resilient", "Resilient", "Resilient", shooter])
        t.give(1, "Missed!#none")
        t.give(2, "Missed!#none", "Missed!#none")
        t.give(3, "AT-AT Attack")
        t.play(3, "AT-AT Attack")
        assert [t.life(q) for q in range(3)] == [4, 3 if cancels == 2 else 4, 4]
        assert len(t.hand_names(2)) == 2 - cancels


def test_copies_with_different_destinies_are_different_plays():
    """[S-06] At 2 energy or less each copy of a card with its own Encounter with Destiny is
    a play of its own; above 2 energy the copies are one play. A scored bot takes the copy
    whose destiny helps most (here: take a card from the target).

    Rulebook: "If your character has 2 energy points or fewer, you may apply the additional
    effects of Encounter with Destiny."
    """
    t = sw(strategy="smart")
    t.give(3, "BANG!#draw", "BANG!#take")
    t.give(0, "Missed!#none")
    assert len([a for a in t.legal(3) if a[0] == "BANG!" and a[1] == 0]) == 1
    t.set_life(3, 2)
    assert len([a for a in t.legal(3) if a[0] == "BANG!" and a[1] == 0]) == 2
    G = t.G
    k = t.call(choose_action, 3, kernel.legal_actions(G, t.T, 3, False))
    assert t.theme.tables.card_destiny[G.hand[3, G.act_idx[k]]] == vocab.DESTINIES["take"]


def test_accurate_destiny_hits_need_two_missed():
    """[S-40] [S-11] An Accurate player's destiny hits need 2 Missed! cards too."""
    t = sw(["Resilient", "Resilient", "Resilient", "Accurate"])
    t.set_life(1, 2).set_life(2, 2).set_life(3, 2)
    t.give(1, "Missed!#none")
    t.give(2, "Missed!#none", "Missed!#none")
    t.give(3, "BANG!#hit_all")
    t.play(3, "BANG!", target=0)
    assert [t.life(q) for q in range(4)] == [4, 1, 2, 2]
    assert t.hand_names(1) == ["Missed!"] and t.hand_names(2) == []


def test_missed_destiny_draws_a_card():
    """[S-12] A Missed! with the draw effect, played at 2 energy or less.

    Rulebook: "draw a card from the draw pile;"
    """
    t = sw()
    t.set_life(0, 2)
    t.give(0, "Missed!#draw")
    t.give(3, "BANG!#none")
    t.play(3, "BANG!", target=0)
    assert t.life(0) == 2 and len(t.hand_names(0)) == 1


def test_missed_destiny_attacker_loses_one():
    """[S-13] The attacker loses 1 energy; not a BANG! card.

    Rulebook: "the attacking player loses one energy point."
    """
    t = sw()
    t.set_life(0, 2)
    t.give(0, "Missed!#attacker_loses")
    t.give(3, "BANG!#none")
    t.play(3, "BANG!", target=0)
    assert t.life(0) == 2 and t.life(3) == 3 and t.bangs_played() == 1


def test_missed_destiny_swaps_hands_with_the_attacker():
    """[S-14] Swap hands with the attacker.

    Rulebook: "exchange all cards in your hand for all cards in the hand of the attacking
    player."
    """
    t = sw()
    t.set_life(0, 2)
    t.give(0, "Missed!#swap_hands", "Bacta Tank#none")
    t.give(3, "BANG!#none", "Repair#none", "Duel")
    t.play(3, "BANG!", target=0)
    assert sorted(t.hand_names(0)) == ["Duel", "Repair"] and t.hand_names(3) == ["Bacta Tank"]
    assert t.life(0) == 2


def test_bacta_tank_destiny_draws_before_healing():
    """[S-15] [S-06] The extra effect before the heal, which would lift the player to 3.

    Rulebook: "you can no longer apply the Encounter with Destiny effect, because it does
    not work at 3 energy points for your character."
    """
    t = sw()
    t.set_life(3, 2)
    t.give(3, "Bacta Tank#draw")
    t.play(3, "Bacta Tank")
    assert t.life(3) == 3 and len(t.hand_names(3)) == 1


def test_bacta_tank_destiny_another_player_gains():
    """[S-16] Another player of the player's choice (a friend) gains one energy.

    Rulebook: "to another player: any other player of your choice gains one energy point."
    """
    t = sw(roles=FIVE)
    t.set_life(0, 3).set_life(4, 2)
    t.give(4, "Bacta Tank#other_gains")
    t.play(4, "Bacta Tank")
    assert t.life(4) == 3 and t.life(0) == 4


def test_bacta_tank_destiny_not_with_two_players_left():
    """[S-16] No energy for anyone with two players left.

    Rulebook: "This effect does not work when only two players remain in the game."
    """
    t = sw()
    t.kill(1).kill(2)
    t.set_life(0, 3).set_life(3, 2)
    t.give(3, "Bacta Tank#other_gains")
    t.play(3, "Bacta Tank")
    assert t.life(0) == 3 and t.life(3) == 2


def test_repair_destiny_draws_one_more():
    """[S-06] [S-18] Repair with the extra effect draws 3.

    Rulebook: "Encounter with Destiny effect: draw a card from the draw pile."
    """
    t = sw()
    t.set_life(3, 2)
    t.give(3, "Repair#draw")
    t.play(3, "Repair")
    assert len(t.hand_names(3)) == 3


def test_no_destiny_when_discarded_in_a_duel():
    """[S-07] A BANG! discarded to a Duel is not played: no extra effect.

    Rulebook: "If you discard a card instead of playing it, the Encounter with Destiny
    effect does not apply."
    """
    t = sw()
    t.set_life(3, 1)
    t.give(3, "BANG!#draw")
    t.give(0, "Duel")
    t.play(0, "Duel", target=3)
    assert t.hand_names(3) == [] and t.life(0) == 4 and t.life(3) == 1


def test_no_destiny_on_inventive_swaps_or_tempered_repeats():
    """[S-07] [S-39] [S-37] No extra effect for a Missed! played as a BANG! (or a BANG! as
    a Missed!) through Inventive, nor on a Tempered repeat."""
    t = sw(["Inventive", "Resilient", "Resilient", "Inventive"])
    t.set_life(0, 2).set_life(3, 2)
    t.give(0, "BANG!#draw")
    t.give(3, "Missed!#draw")
    t.play(3, "Missed!", target=0)
    assert t.hand_names(0) == [] and t.hand_names(3) == [] and t.life(0) == 2
    t = sw(["Resilient", "Resilient", "Resilient", "Tempered"])
    t.set_life(3, 2)
    t.give(3, "BANG!#draw", "BANG!#none")
    t.play(3, "BANG!#draw", target=0)
    assert t.life(0) == 3 and len(t.hand_names(3)) == 1


# --- S-17 .. S-27, S-33, S-41, S-42 the re-skinned cards ---------------------------------------


def test_bacta_tanks_at_a_lethal_hit_never_above_one():
    """[S-17] At a lethal hit several Bacta Tanks may be played, up to 1 energy; a third stays
    in hand.

    Rulebook: "immediately after your character has lost its last energy token (only a fatal
    hit allows playing "Bacta Tank" on another player's turn). In this way several "Bacta
    Tank" cards can be played, but they cannot raise energy above 1."
    """
    t = sw()
    t.set_life(2, 2)
    t.equip(2, "Trash Compactor")
    t.give(2, "Bacta Tank#none", "Bacta Tank#none", "Bacta Tank#none")
    t.stack(COMPACTOR)
    t.start_of_turn(2)
    assert t.alive(2) and t.life(2) == 1 and t.hand_names(2) == ["Bacta Tank"]


def test_bacta_tank_on_your_own_turn_not_above_the_start():
    """[S-17] On your own turn a Bacta Tank is an ordinary card; never above the start.

    Rulebook: "on your own turn, as an ordinary single-use card;" / "You cannot receive more
    energy tokens than you had at the start of the game!"
    """
    t = sw()
    t.set_life(1, 3)
    t.give(1, "Bacta Tank#none", "Bacta Tank#none")
    t.play(1, "Bacta Tank")
    assert t.life(1) == 4
    t.play(1, "Bacta Tank")  # legal, and does nothing more
    assert t.life(1) == 4 and t.hand_names(1) == []


def test_repair_draws_two():
    """[S-18] Repair without the extra effect draws 2 (with it, 3: see the destiny tests).

    Rulebook: "Draw 2 cards from the draw pile."
    """
    t = sw()
    t.give(1, "Repair#none")
    t.play(1, "Repair")
    assert len(t.hand_names(1)) == 2 and t.discard_names() == ["Repair"]


def test_unexpected_encounter_one_card_each_from_you_clockwise():
    """[S-20] As many cards as players still in the game; each takes one, from you, clockwise.

    Rulebook: "Reveal from the draw pile as many cards as there are players still in the
    game. Starting with you and continuing clockwise, each player takes one of the revealed
    cards into their hand."
    """
    t = sw()
    t.kill(2)
    t.give(1, "Unexpected Encounter")
    t.stack("Missed!#none", "Bacta Tank#none", "Repair#none")
    before = t.deck_size()
    t.play(1, "Unexpected Encounter")
    assert t.deck_size() == before - 3
    hands = [t.hand_names(q) for q in range(4)]
    assert [len(h) for h in hands] == [1, 1, 0, 1]
    assert sorted(sum(hands, [])) == ["Bacta Tank", "Missed!", "Repair"]


def test_ambush_any_player_regardless_of_distance():
    """[S-22] Ambush reaches any player; a random card from hand or a chosen card in play.

    Rulebook: "Force any player, regardless of distance, to discard a card. You decide
    whether it is a random card from their hand or a card of your choice from their play
    area."
    """
    t = sw(["Resilient"] * 7, roles=FIVE + ["outlaw", "deputy"])
    t.equip(4, "Speeder Bike", "Cover")
    t.give(4, "Missed!")
    t.give(0, "Ambush", "BANG!")
    assert dist(t, 0, 4) == 4
    assert {(q, o) for n, q, o in t.legal(0) if n == "Ambush" and q == 4} == {
        (4, -1),
        (4, 0),
        (4, 1),
    }
    t.play(0, "Ambush", target=4, opt=0)  # slot 0: the Speeder Bike, equipped first
    assert t.in_play(4) == ["Cover"] and t.hand_names(4) == ["Missed!"]
    assert t.discard_names() == ["Ambush", "Speeder Bike"]


def test_at_at_attack_hits_everyone_else_and_is_not_a_bang():
    """[S-23] Every other player takes a hit unless they play a Missed!; not the turn's
    BANG! card.

    Rulebook: "Each other player, regardless of distance, receives one hit (unless they play
    a "Missed!" card). Despite the BANG! symbol, the "AT-AT Attack" is not a "BANG!" card,
    so it is not caught by the ban on playing more than one "BANG!" card per turn."
    """
    t = sw()
    t.give(2, "Missed!#none")
    t.give(0, "BANG!#none", "AT-AT Attack")
    t.play(0, "BANG!", target=1)
    assert t.bangs_played() == 1 and targets(t, 0, "AT-AT Attack") == [0]
    t.play(0, "AT-AT Attack")
    assert [t.life(q) for q in range(4)] == [5, 2, 4, 3]
    assert t.hand_names(2) == [] and t.bangs_played() == 1


def test_duel_any_distance_bangs_discarded_not_played():
    """[S-25] A Duel at any distance: BANG!s are discarded in turn, the first who cannot
    loses an energy; Missed! does not help; the discarded BANG!s are not played.

    Rulebook: "Challenge any player to a duel (regardless of distance). The challenged
    player may discard a "BANG!" card, even though it is not their turn." / "As soon as one
    of you cannot or does not want to discard a "BANG!", the duel ends in defeat for that
    player, and they lose an energy token." / "cards discarded during a duel are not counted
    as played"
    """
    t = sw()
    t.give(2, "BANG!#none", "Missed!#none")
    t.give(0, "Duel", "BANG!#none", "BANG!#none")
    assert dist(t, 0, 2) == 2 and 2 in targets(t, 0, "Duel")
    t.play(0, "Duel", target=2)
    assert t.life(2) == 3 and t.hand_names(2) == ["Missed!"]
    assert t.hand_names(0) == ["BANG!"] and t.bangs_played() == 0
    assert t.can_play(0, "BANG!", target=3)


def test_speeder_bike_others_see_you_farther():
    """[S-26] Speeder Bike: +1 to the distance others see you at; you see them as before.

    Rulebook: "While this card is in play, the distance to you increases by 1 for all other
    players. However, you see other players at the usual distance."
    """
    t = sw()
    t.equip(0, "Speeder Bike")
    assert [dist(t, q, 0) for q in (1, 2, 3)] == [2, 3, 2]
    assert [dist(t, 0, q) for q in (1, 2, 3)] == [1, 2, 1]


def test_droid_you_see_others_closer_never_below_one():
    """[S-27] Droid: others are 1 closer for you, never below 1; they see you as before.

    Rulebook: "While this card is in play, for you the distance to all other players
    decreases by 1. Other players see you at the usual distance. The "Droid" cannot reduce
    the distance to zero: distance 1 remains the minimum."
    """
    t = sw()
    t.equip(0, "Droid")
    assert [dist(t, 0, q) for q in (1, 2, 3)] == [1, 1, 1]
    assert [dist(t, q, 0) for q in (1, 2, 3)] == [1, 2, 1]


def test_e11_reaches_one_and_the_lightsaber_shoots_without_limit():
    """[S-33] The E-11 reaches distance 1; the Lightsaber (reach 1) lifts the one-BANG! limit.

    Rulebook: "at the start of the game your only weapon is the E-11 rifle (drawn on your
    player board) with the range symbol 1, so you can reach a target, player or card, only
    at distance 1." / "The "Lightsaber" allows you to play as many "BANG!" cards as you like
    in one turn against one or several targets at distance 1."
    """
    t = sw()
    t.give(0, "BANG!#none", "BANG!#none", "BANG!#none", "Lightsaber")
    assert targets(t, 0, "BANG!") == [1, 3]
    t.play(0, "BANG!", target=1)
    assert not t.can_play(0, "BANG!")
    t.play(0, "Lightsaber")
    assert targets(t, 0, "BANG!") == [1, 3]
    t.play(0, "BANG!", target=1).play(0, "BANG!", target=3)
    assert [t.life(q) for q in range(4)] == [5, 2, 4, 3] and t.bangs_played() == 3


def test_fearless_sees_everyone_one_closer_and_more_with_a_droid():
    """[S-34] Fearless sees others 1 closer, with a Droid 1 more, never below 1.

    Rulebook: "Fearless (4): all other players are at distance 1 closer to you than usual.
    If you have a "Droid", the distance to players is reduced by a further 1 (to a minimum
    of 1)."
    """
    t = sw(["Fearless"] + ["Resilient"] * 6, roles=FIVE + ["outlaw", "deputy"])
    assert [dist(t, 0, q) for q in range(1, 7)] == [1, 1, 2, 2, 1, 1]
    assert [dist(t, q, 0) for q in range(1, 7)] == [1, 2, 3, 3, 2, 1]
    t.equip(0, "Droid")
    assert [dist(t, 0, q) for q in range(1, 7)] == [1, 1, 1, 1, 1, 1]


def test_resilient_discards_two_for_one_energy():
    """[S-36] Resilient: any number of times, 2 cards for 1 energy, never above the start;
    also at a lethal hit.

    Rulebook: "Resilient (4): at any moment you may discard 2 cards from hand to restore one
    energy point. This ability may be used several times in a row, but you cannot have more
    energy than at the start of the game."
    """
    t = sw()
    t.set_life(1, 2)
    t.give(1, "Missed!#none", "Missed!#none", "Duel", "Repair#none", "Jawas")
    t.play(1, "ability").play(1, "ability")
    assert t.life(1) == 4 and len(t.hand_names(1)) == 1
    t.give(1, "Duel")
    assert not t.can_play(1, "ability")  # at the start's 4 energy
    t.set_life(3, 1)
    t.give(3, "Repair#none", "Jawas")
    t.damage(3, 1, 0, 0, vocab.E_BANG)  # a lethal hit, off the Resilient player's turn
    assert t.alive(3) and t.life(3) == 1 and t.hand_names(3) == []


def test_thrifty_draws_when_the_hand_empties():
    """[S-38] Thrifty draws a card when the last card leaves the hand.

    Rulebook: "Thrifty (4): as soon as you have no cards left in hand, draw a card from the
    draw pile."
    """
    t = sw(["Resilient", "Thrifty", "Resilient", "Resilient"])
    t.give(1, "BANG!#none")
    t.stack("Repair#none")
    t.play(1, "BANG!", target=0)
    assert t.hand_names(1) == ["Repair"]
    t.give(0, "Ambush")
    t.play(0, "Ambush", target=1, opt=-1)  # off your turn too
    assert len(t.hand_names(1)) == 1 and t.hand_names(1) != ["Repair"]


def test_any_player_cards_may_target_yourself():
    """[S-41] [S-22] An Ambush may discard one of your own cards, from hand or from play;
    never the Ambush itself; Deception and the Duel stay aimed at others; not in the classic.

    Rulebook: "Any player: the effect may be directed at any other player regardless of
    distance between you (you may also choose yourself)."
    """
    t = sw()
    t.give(1, "Ambush", "Deception", "Duel", "Missed!#none")
    t.equip(1, "Trash Compactor")
    t.give(0, "Repair#none").give(2, "Jawas")
    assert targets(t, 1, "Ambush") == [0, 1, 2]  # seat 3 has no card to discard
    assert {o for n, q, o in t.legal(1) if n == "Ambush" and q == 1} == {-1, 0}
    assert 1 not in targets(t, 1, "Deception") and 1 not in targets(t, 1, "Duel")
    t.play(1, "Ambush", target=1, opt=0)
    assert t.in_play(1) == [] and t.discard_names()[-1] == "Trash Compactor"
    t = sw()
    t.give(2, "Ambush")
    assert 2 not in targets(t, 2, "Ambush")  # no other card of your own to discard
    t.give(2, "Missed!#none")
    t.play(2, "Ambush", target=2, opt=-1)
    assert t.hand_names(2) == [] and t.discard_names() == ["Ambush", "Missed!"]
    classic = Table(["Black Jack", "Kit Carlson", "Jesse Jones", "Pedro Ramirez"], roles=FOUR)
    classic.give(1, "Cat Balou", "Missed!")
    assert 1 not in targets(classic, 1, "Cat Balou")


@pytest.mark.parametrize("preset", ["basic", "smart", "aggressive", "cautious"])
def test_bots_never_target_themselves(preset):
    """[S-41] The scored bots never aim an Ambush at themselves, even at a Trash Compactor
    they just played (the free-a-friend rule is for others)."""
    t = Table(["Resilient"] * 4, roles=FOUR, theme="star_wars", strategy=preset)
    t.give(1, "Ambush")
    t.equip(1, "Trash Compactor")
    t.give(1, "Missed!#none")
    t.G.s[S_CUR] = 1
    n = t.call(kernel.legal_actions, 1, False)
    assert any(t.G.act_tgt[k] == 1 for k in range(n))
    k = t.call(choose_action, 1, n)
    assert k < 0 or t.G.act_tgt[k] != 1


def test_self_target_effects_validation():
    """[S-41] Only card-taking effects may be made self-targetable."""
    raw = load_theme("star_wars").raw
    bad = dict(raw, rules=dict(raw["rules"], self_target_effects=["duel"]))
    with pytest.raises(ThemeError, match=r"rules.self_target_effects: effect 'duel' cannot"):
        compile_theme(bad, "sw.toml")
    assert load_theme("star_wars").rule_values["self_target_effects"] == ["discard_any"]


def test_no_bare_discard_in_the_play_phase():
    """[S-42] A card with no use now (a Missed!, a second Cover) cannot be discarded in the
    play phase: it stays in hand through the turn while within the hand limit.

    Rulebook: "Important: during this phase you cannot simply discard a card from your hand
    without applying its effect. You may discard cards only in the discard phase and only if
    you exceed your hand limit."
    """
    t = sw()
    t.equip(1, "Cover")
    t.give(1, "Missed!#none", "Cover")
    assert t.legal(1) == []
    t.stack("Missed!#none", "Missed!#none")
    t.turn(1)
    assert t.hand_names(1) == ["Cover", "Missed!", "Missed!", "Missed!"]
    assert [n.split("@")[0] for n in disc(t)] == []


def test_quotes_are_verbatim():
    """Every quoted 'Rulebook:' passage in this file occurs in star_wars.txt."""
    from quotes import assert_quotes_verbatim

    assert_quotes_verbatim(__name__, "star_wars.txt")
