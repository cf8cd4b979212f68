"""Rules scenarios for the five Dodge City cards of the classic rules (checklist D-01 .. D-05).

They ship as their own theme, configs/themes/classic_dodge_city.toml: the 80-card base deck
plus Binocular, Hideout, Springfield, Tequila and Whisky (85 cards). Each docstring names
the checklist IDs it covers and quotes the classic rulebook (shared/rules/classic_bang.txt)
verbatim; test_quotes_are_verbatim checks every quote against the rulebook text.
"""

from collections import Counter

from scenario import FIVE, FOUR, PLAIN, SEVEN, Table, dist, targets

from simcore.engine import vocab
from simcore.engine.theme import load_theme

HEART = "Beer@6H"
CLUB = "Missed!@10C"


def dc(roles=FOUR, chars=None) -> Table:
    return Table(chars or (PLAIN * 2)[: len(roles)], roles=roles, theme="classic_dodge_city")


def test_deck_is_the_base_deck_plus_five():
    """[D-01] [D-02] [D-03] [D-04] [D-05] 85 cards: the base deck card for card, then the five
    with their printed faces and costs.

    Rulebook: "Discard Whisky and one other card from your hand to regain two life points."
    """
    theme, classic = load_theme("classic_dodge_city"), load_theme("classic")
    assert len(theme.card_faces) == 85
    assert theme.card_display[:80] == classic.card_display
    assert theme.card_faces[:80] == classic.card_faces
    extra = dict(zip(theme.card_display[80:], theme.card_faces[80:], strict=True))
    assert extra == {
        "Binocular": "10D",
        "Hideout": "KD",
        "Springfield": "KS",
        "Tequila": "9C",
        "Whisky": "QH",
    }
    t = theme.tables
    effect = {n: vocab.EFFECTS[e] for n, e in [("Binocular", "scope"), ("Hideout", "mustang"),
              ("Springfield", "bang_any"), ("Tequila", "heal_any"), ("Whisky", "heal")]}  # fmt: skip
    for i, name in enumerate(theme.card_display[80:], start=80):
        assert t.card_effect[i] == effect[name], name
        assert t.card_cost[i] == (1 if name in ("Springfield", "Tequila", "Whisky") else 0)
    whisky = theme.card_display.index("Whisky")
    beer = theme.card_display.index("Beer")
    assert t.card_value[whisky] == 2 and not t.card_flags[whisky] & vocab.CF_BEER
    assert t.card_flags[beer] & vocab.CF_BEER
    assert Counter(f[-1] for f in theme.card_faces) == {"C": 21, "D": 22, "H": 21, "S": 21}


# --- D-01 Binocular, D-02 Hideout -------------------------------------------------------------


def test_binocular_stacks_with_scope():
    """[D-01] [C-10] [C-16] Binocular: one closer, and another name than Scope, so both can be
    in play and they add up; the others still see you as before.

    Rulebook: "When you use a Binocular, you see every other player at distance one less;
    they still see you at the normal distance." / "one copy of each named card in play"
    """
    t = dc(SEVEN)
    assert dist(t, 0, 3) == 3
    t.give(0, "Binocular", "Scope")
    t.play(0, "Binocular")
    assert dist(t, 0, 3) == 2 and dist(t, 3, 0) == 3
    assert targets(t, 0, "Scope") == [0]  # a Scope is still playable beside the Binocular
    t.play(0, "Scope")
    assert t.in_play(0) == ["Binocular", "Scope"]
    assert dist(t, 0, 3) == 1 and dist(t, 0, 1) == 1 and dist(t, 3, 0) == 3


def test_hideout_stacks_with_mustang():
    """[D-02] [C-10] [C-16] Hideout: one farther for the others, stacking with a Mustang; you
    still see them as before.

    Rulebook: "While Hideout is in play, other players count their distance to you as one
    higher; you still see them at the normal distance."
    """
    t = dc(SEVEN)
    t.give(0, "Hideout", "Mustang")
    t.play(0, "Hideout")
    assert [dist(t, q, 0) for q in (1, 2, 3)] == [2, 3, 4]
    assert targets(t, 0, "Mustang") == [0]
    t.play(0, "Mustang")
    assert t.in_play(0) == ["Hideout", "Mustang"]
    assert [dist(t, q, 0) for q in (1, 2, 3)] == [3, 4, 5]
    assert [dist(t, 0, q) for q in (1, 2, 3)] == [1, 2, 3]


# --- D-03 Springfield -------------------------------------------------------------------------


def test_springfield_any_distance_costs_one_card():
    """[D-03] Springfield: a BANG! on any player at any distance, paid with one other card.

    Rulebook: "Discard Springfield and one other card from your hand to play a BANG! against
    any one player, regardless of distance."
    """
    t = dc(SEVEN)
    t.give(0, "Springfield")
    assert targets(t, 0, "Springfield") == []  # no other card to pay with
    t.give(0, "Duel")
    assert targets(t, 0, "Springfield") == [1, 2, 3, 4, 5, 6]
    t.play(0, "Springfield", target=3)
    assert t.life(3) == 3
    assert t.hand_names(0) == []
    assert sorted(t.discard_names()) == ["Duel", "Springfield"]


def test_springfield_is_not_a_bang_card():
    """[D-03] [C-09] Springfield is a BANG! effect, not a BANG! card: the BANG! card of the
    turn is still free, and Missed! or a Barrel answer it.

    Rulebook: "Other card effects that produce a BANG! symbol are not themselves BANG! cards
    and do not count against the one-card limit."
    """
    t = dc()
    t.give(0, "Springfield", "Duel")
    t.give(2, "Missed!")
    t.play(0, "Springfield", target=2)
    assert t.life(2) == 4 and t.hand_names(2) == []
    assert t.bangs_played() == 0
    t.give(0, "BANG!")
    assert targets(t, 0, "BANG!") == [1, 3]
    t = dc()
    t.give(0, "Springfield", "Duel")
    t.equip(3, "Barrel")
    t.stack(HEART)
    t.play(0, "Springfield", target=3)
    assert t.life(3) == 4 and t.discard_top() == "Beer"


# --- D-04 Tequila -----------------------------------------------------------------------------


def test_tequila_heals_anyone_including_you():
    """[D-04] Tequila: any one player, you included, regains one life; one other card
    is discarded to pay for it.

    Rulebook: "Discard Tequila and one other card from your hand so one player of your
    choice, including you, regains one life point."
    """
    t = dc()
    t.give(1, "Tequila")
    assert targets(t, 1, "Tequila") == []
    t.give(1, "Duel")
    assert targets(t, 1, "Tequila") == [0, 1, 2, 3]
    t.set_life(2, 2)
    t.play(1, "Tequila", target=2)
    assert t.life(2) == 3 and t.hand_names(1) == []
    t.set_life(1, 3).give(1, "Tequila", "Duel")
    t.play(1, "Tequila", target=1)
    assert t.life(1) == 4
    t.give(1, "Tequila", "Duel")
    t.play(1, "Tequila", target=1)
    assert t.life(1) == 4  # never above the starting life


def test_tequila_is_not_played_at_a_lethal_hit():
    """[D-04] [C-19] Tequila is no Beer: a lethal hit is not survived with it.

    Rulebook: "If a hit would remove your last bullet, you may immediately play one or more
    Beer cards to survive."
    """
    t = dc()
    t.set_life(1, 1)
    t.give(1, "Tequila", "Duel")
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=1)
    assert not t.alive(1)


# --- D-05 Whisky ------------------------------------------------------------------------------


def test_whisky_heals_two_for_one_card():
    """[D-05] Whisky: +2 life for Whisky and one other card, never above the starting life.

    Rulebook: "Discard Whisky and one other card from your hand to regain two life points.
    You cannot exceed your starting life total."
    """
    t = dc()
    t.give(1, "Whisky")
    assert targets(t, 1, "Whisky") == []
    t.give(1, "Duel")
    assert targets(t, 1, "Whisky") == [1]
    t.set_life(1, 1)
    t.play(1, "Whisky")
    assert t.life(1) == 3 and t.hand_names(1) == []
    assert sorted(t.discard_names()) == ["Duel", "Whisky"]
    t.give(1, "Whisky", "Duel")
    t.play(1, "Whisky")
    assert t.life(1) == 4


def test_whisky_is_not_a_beer():
    """[D-05] [C-20] [C-19] The two-players rule is Beer's: Whisky still heals with two
    players left, where a Beer does nothing; and Whisky is not played at a lethal hit.

    Rulebook: "Beer has no effect when only two players remain."
    """
    t = dc(FIVE)
    t.kill(2).kill(3).kill(4)
    t.set_life(1, 1)
    t.give(1, "Beer", "Whisky", "Duel")
    t.play(1, "Beer")
    assert t.life(1) == 1
    t.play(1, "Whisky")
    assert t.life(1) == 3
    # at a lethal hit only a Beer saves (three alive, so the Beer works)
    t = dc()
    t.set_life(1, 1)
    t.give(1, "Whisky", "Duel")
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=1)
    assert not t.alive(1)
    t = dc()
    t.set_life(1, 1)
    t.give(1, "Beer")
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=1)
    assert t.alive(1) and t.life(1) == 1


# --- the quotes above are the rulebook's words -----------------------------------------------


def test_quotes_are_verbatim():
    """Every quoted 'Rulebook:' passage in this file occurs in classic_bang.txt."""
    from quotes import assert_quotes_verbatim

    assert_quotes_verbatim(__name__, "classic_bang.txt")
