"""Cards a designer writes as data: Punch, Dodge and Rag Time, three Dodge City cards made of
existing effect traits in configs/examples/dodge_city_three_more.toml (`[[effects]]`), with
no effect code of their own.

Each scenario quotes the card's text from the project's deck notes
(shared/reference/decks.md, "Three more Dodge City cards"); test_quotes_are_verbatim checks
every quote against that file. tests/test_referee.py plays the example theme against the
independent referee.
"""

import re
from pathlib import Path

import pytest
from quotes import normal, quoted_passages
from scenario import FOUR, PLAIN, SEVEN, Table, dist, targets

from simcore.engine import vocab
from simcore.engine.theme import ThemeError, compile_theme, load_theme, read_toml

EXAMPLE = (
    Path(__file__).resolve().parent.parent / "configs" / "examples" / "dodge_city_three_more.toml"
)
DECK_NOTES = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "decks.md"


def three(roles=SEVEN, chars=None) -> Table:
    return Table(chars or (PLAIN * 2)[: len(roles)], roles=roles, theme=str(EXAMPLE))


def test_the_three_cards_are_existing_effects_with_their_own_traits():
    """The example deck is classic_dodge_city's card for card plus one copy of each new card,
    each an existing effect: Punch a BANG! effect at distance 1, Dodge a Missed! that draws,
    Rag Time a steal at any distance paid with a card.

    Deck notes: "They are examples of cards a designer writes as data from existing traits;
    they are not part of any shipped theme, and the shipped themes' games must not change
    because of them."
    """
    theme, base = load_theme(EXAMPLE), load_theme("classic_dodge_city")
    assert theme.card_display[:85] == base.card_display
    assert theme.card_display[85:] == ["Punch", "Dodge", "Rag Time"]
    t = theme.tables
    punch, dodge, rag = 85, 86, 87
    assert (t.card_effect[punch], t.card_aim[punch], t.card_value[punch]) == (
        vocab.E_BANG_ANY, vocab.AIM_RANGE, 1)  # fmt: skip
    assert (t.card_effect[dodge], t.card_aim[dodge], t.card_draws[dodge]) == (
        vocab.E_MISSED, vocab.AIM_NONE, 1)  # fmt: skip
    assert (t.card_effect[rag], t.card_aim[rag], t.card_cost[rag]) == (
        vocab.E_STEAL, vocab.AIM_ANY_OTHER, 1)  # fmt: skip
    assert theme.card_effects[-3:] == ["punch", "dodge", "rag_time"]
    # every card of the base deck keeps its built-in aim and draws nothing
    for c in range(85):
        assert t.card_aim[c] == vocab.EFFECT_TRAITS[int(t.card_effect[c])].aim
        assert t.card_draws[c] == 0


# --- Punch ------------------------------------------------------------------------------------


def test_punch_reaches_distance_one_whatever_the_weapon():
    """Punch aims at a player at distance 1, however far the player's weapon reaches.

    Deck notes: "a BANG! against one player at distance 1"
    """
    t = three()
    t.give(0, "Punch")
    assert targets(t, 0, "Punch") == [1, 6]
    t.give(0, "Winchester")
    t.play(0, "Winchester")
    assert targets(t, 0, "Punch") == [1, 6]  # the reach is not the Punch's distance
    t.equip(1, "Mustang")
    assert dist(t, 0, 1) == 2 and targets(t, 0, "Punch") == [6]
    t.play(0, "Punch", target=6)
    assert t.life(6) == 3 and t.discard_top() == "Punch"


def test_punch_is_not_a_bang_card():
    """Punch is a BANG! effect (a Missed! cancels it) but not a BANG! card: it does not use up
    the turn's BANG!, nor does a BANG! already played stop it.

    Deck notes: "it is not a BANG! card, so it does not count against the one-BANG!-per-turn
    limit"
    """
    t = three(FOUR)
    t.give(0, "BANG!", "Punch", "Punch@10S")
    t.play(0, "BANG!", target=1)
    assert t.bangs_played() == 1 and t.life(1) == 3
    assert targets(t, 0, "Punch") == [1, 3]  # still playable after the BANG! card
    t.give(1, "Missed!")
    t.play(0, "Punch", target=1)
    assert t.life(1) == 3 and t.hand_names(1) == []  # the Missed! cancelled it
    assert t.bangs_played() == 1


# --- Dodge ------------------------------------------------------------------------------------


def test_dodge_cancels_a_bang_then_draws_a_card():
    """Dodge cancels a BANG! like a Missed!, and its player then draws one card.

    Deck notes: "cancels a BANG! effect as a Missed! does; then its player draws one card"
    """
    t = three(FOUR)
    t.give(0, "BANG!")
    t.give(1, "Dodge")
    t.stack("Beer@6H")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4
    assert t.hand_names(1) == ["Beer"]  # the Dodge discarded, the top card drawn
    assert t.discard_names() == ["BANG!", "Dodge"]


def test_dodge_is_not_played_on_its_own():
    """Like a Missed!, a Dodge is only an answer: it is never a play of its player's turn.

    Deck notes: "cancels a BANG! effect as a Missed! does"
    """
    t = three(FOUR)
    t.give(0, "Dodge", "Missed!")
    assert t.legal(0) == []


def test_dodge_and_missed_answer_slab_the_killer_together():
    """[A-13] Two cancels against Slab the Killer's BANG!: a Dodge counts as a Missed!, and
    still draws its card.

    Deck notes: "cancels a BANG! effect as a Missed! does"
    """
    t = Table(["Slab the Killer", "Kit Carlson", "Jesse Jones", "Bart Cassidy"], roles=FOUR,
              theme=str(EXAMPLE))  # fmt: skip
    t.give(0, "BANG!")
    t.give(1, "Dodge", "Missed!")
    t.stack("Beer@6H")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4 and t.hand_names(1) == ["Beer"]


# --- Rag Time ---------------------------------------------------------------------------------


def test_rag_time_takes_from_anyone_at_any_distance_for_a_card():
    """Rag Time costs one other card and takes a card from any one player, however far.

    Deck notes: "discard one other card from your hand: take one card (from hand at random,
    or in play) from any one player, at any distance"
    """
    t = three()
    t.give(0, "Rag Time")
    assert targets(t, 0, "Rag Time") == []  # nothing to pay with
    t.give(0, "Duel")
    t.equip(3, "Barrel")
    t.give(4, "Beer")
    assert targets(t, 0, "Rag Time") == [3, 4]  # only players holding a card
    assert set(t.legal(0)) >= {("Rag Time", 3, 0), ("Rag Time", 4, -1)}
    t.play(0, "Rag Time", target=3, opt=0)
    assert t.hand_names(0) == ["Barrel"] and t.in_play(3) == []
    assert sorted(t.discard_names()) == ["Duel", "Rag Time"]


# --- the traits a designer may change, and what they may not --------------------------------


def raw_with(effects: list[dict]) -> dict:
    raw = read_toml(EXAMPLE)
    raw["effects"] = effects
    return raw


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ({"name": "punch", "like": "gatling", "aim": "range"}, "aims at no one other player"),
        ({"name": "punch", "like": "bang_any", "aim": "everyone"}, "unknown aim 'everyone'"),
        ({"name": "punch", "like": "bangg"}, "unknown effect 'bangg'"),
        ({"name": "bang", "like": "bang"}, "effect 'bang' is already defined"),
        ({"name": "punch", "like": "bang_any", "reach": 1}, "unknown key 'reach'"),
        ({"like": "bang_any"}, "effects[0].name: missing"),
    ],
)
def test_a_theme_effect_is_checked_with_a_one_line_error(effect, message):
    raw = raw_with([effect])
    raw["cards"] = [c for c in raw["cards"] if c["name"] not in ("Dodge", "Rag Time")]
    with pytest.raises(ThemeError, match=re.escape(message)):
        compile_theme(raw)


def test_a_range_needs_a_value_and_only_aims_take_one():
    """A card of an effect aimed by range carries its distance as `value` (default 1); an
    effect that aims at any distance takes none."""
    raw = read_toml(EXAMPLE)
    for card in raw["cards"]:
        if card["name"] == "Punch":
            del card["value"]
    assert compile_theme(raw).tables.card_value[85] == 1
    for card in raw["cards"]:
        if card["name"] == "Rag Time":
            card["value"] = 2
    with pytest.raises(ThemeError, match=r"effect 'rag_time' takes no value"):
        compile_theme(raw)


def test_quotes_are_verbatim():
    """Every quoted 'Deck notes:' passage in this file occurs in shared/reference/decks.md."""
    if not DECK_NOTES.is_file():
        pytest.skip(f"{DECK_NOTES} not present")
    text = normal(DECK_NOTES.read_text(encoding="utf-8"))
    checked = 0
    for name, fn in list(globals().items()):
        if name.startswith("test_") and fn.__doc__ and "Deck notes:" in fn.__doc__:
            for passage in quoted_passages(fn.__doc__.replace("Deck notes:", "Rulebook:")):
                assert normal(passage) in text, f"{name}: not in decks.md: {passage!r}"
                checked += 1
    assert checked >= 7
