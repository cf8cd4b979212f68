"""Per-game event counts (State.ev, GameBlock.events, simcore.events): hand-set scenarios
count exactly what happened; played games count consistently."""

import numpy as np
import pytest
from scenario import HEART, Table, table

from simcore.engine import play_games
from simcore.events import event_names, fixed_event_names
from simcore.limits import MAX_CARD_NAMES
from simcore.state import EV_USED, N_EV
from simcore.theme import load_theme, shipped_themes


def counts(t: Table) -> dict[str, int]:
    names = event_names(t.theme.card_names)
    return {n: int(v) for n, v in zip(names, t.G.ev[: len(names)], strict=True) if v}


def test_names_cover_the_layout():
    names = event_names(load_theme("classic").card_names)
    assert len(fixed_event_names()) == EV_USED
    assert len(names) == len(set(names)) <= N_EV == EV_USED + MAX_CARD_NAMES
    assert "used:BANG!" in names and "barrel_checks" in names and "damage_dynamite" in names


def test_a_barrel_check_a_missed_and_a_bang_are_counted():
    t = table()
    t.give(0, "BANG!")
    t.equip(1, "Barrel")
    t.give(1, "Missed!")
    t.stack("BANG!@2D")  # not a Heart: the Barrel fails, the Missed! cancels
    t.play(0, "BANG!", target=1)
    c = counts(t)
    assert c["barrel_checks"] == 1 and c["barrel_revealed"] == 1
    assert "barrel_passed" not in c and "barrel_revealed_passing" not in c
    assert 0 < c["barrel_expected_passing_ppm"] < 1_000_000
    assert c["used:BANG!"] == 1 and c["used:Missed!"] == 1
    assert "damage_bang" not in c


def test_damage_steals_and_beers_at_a_lethal_hit_are_counted():
    t = table()
    t.set_life(1, 1)
    t.give(1, "Beer")
    t.give(0, "BANG!", "Panic!")
    t.play(0, "BANG!", target=1)
    c = counts(t)
    assert c["damage_bang"] == 1 and c["beers_at_lethal"] == 1 and c["beer_saves"] == 1
    assert c["used:Beer"] == 1 and t.life(1) == 1
    t.give(1, "Missed!")
    t.play(0, "Panic!", target=1, opt=-1)
    assert counts(t)["cards_stolen"] == 1 and counts(t)["used:Panic!"] == 1


def test_a_beer_with_two_players_left_is_counted_and_never_heals():
    t = table()
    t.set_life(0, 3)
    t.kill(2).kill(3)
    t.G.w[0, :] = 0.0
    t.give(0, HEART)
    t.play(0, "Beer")
    c = counts(t)
    assert c["beers_two_left"] == 1 and "beers_two_left_healed" not in c and t.life(0) == 3


@pytest.mark.parametrize("theme", shipped_themes())
def test_played_games_count_consistently(theme):
    loaded = load_theme(theme)
    block = play_games(loaded, 5, 300, seed=11, strategy="smart", checked=True)
    names = event_names(loaded.card_names)
    assert block.events.shape == (300, len(names))
    total = dict(zip(names, block.events.sum(axis=0, dtype=np.int64).tolist(), strict=True))
    for kind in ("barrel", "jail", "dynamite", "draw_extra", "new_hope"):
        assert total[f"{kind}_passed"] <= total[f"{kind}_checks"] <= total[f"{kind}_revealed"]
        assert total[f"{kind}_revealed_passing"] <= total[f"{kind}_revealed"]
        assert total[f"{kind}_expected_passing_ppm"] <= 1_000_000 * total[f"{kind}_revealed"]
    assert total["beer_saves"] <= total["beers_at_lethal"]
    assert total["beers_two_left_healed"] == 0
    damage = sum(v for n, v in total.items() if n.startswith("damage_"))
    assert damage > 0 and sum(v for n, v in total.items() if n.startswith("used:")) > 0
    # the counts are a pure function of (seed, game): a second run gives the same array
    again = play_games(loaded, 5, 300, seed=11, strategy="smart")
    assert np.array_equal(block.events, again.events)
