"""Per-game event counts (State.ev, GameBlock.events, simcore.engine.events): hand-set scenarios
count exactly what happened; played games count consistently."""

import numpy as np
import pytest
from played import play_games
from scenario import HEART, Table, table

from simcore.engine import kernel
from simcore.engine.events import event_names
from simcore.engine.play import NO_FEATURE
from simcore.engine.state import N_EV, QUIET, new_states
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme, shipped_themes
from strategies.presets import resolve_strategy


def counts(t: Table) -> dict[str, int]:
    """The table's event counts, and the cards each seat used as used:SEAT:NAME."""
    out = {n: int(v) for n, v in zip(event_names(), t.G.ev, strict=True) if v}
    for p in range(t.G.s[0]):
        for k, name in enumerate(t.theme.card_names):
            if t.G.used[p, k]:
                out[f"used:{p}:{name}"] = int(t.G.used[p, k])
    return out


def test_names_cover_the_layout():
    names = event_names()
    assert len(names) == len(set(names)) == N_EV
    assert "barrel_checks" in names and "damage_dynamite" in names


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
    assert c["used:0:BANG!"] == 1 and c["used:1:Missed!"] == 1
    assert "damage_bang" not in c


def test_damage_steals_and_beers_at_a_lethal_hit_are_counted():
    t = table()
    t.set_life(1, 1)
    t.give(1, "Beer")
    t.give(0, "BANG!", "Panic!")
    t.play(0, "BANG!", target=1)
    c = counts(t)
    assert c["damage_bang"] == 1 and c["beers_at_lethal"] == 1 and c["beer_saves"] == 1
    assert c["used:1:Beer"] == 1 and t.life(1) == 1
    t.give(1, "Missed!")
    t.play(0, "Panic!", target=1, opt=-1)
    assert counts(t)["cards_stolen"] == 1 and counts(t)["used:0:Panic!"] == 1


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
    block = play_games(loaded, 5, 300, seed=11, strategy="smart", checked=True, events=True)
    assert block.events.shape == (300, N_EV)
    assert block.used.shape == (300, 5, len(loaded.card_names))
    total = dict(zip(event_names(), block.events.sum(axis=0, dtype=np.int64).tolist(), strict=True))
    for kind in ("barrel", "jail", "dynamite", "draw_extra", "new_hope"):
        assert total[f"{kind}_passed"] <= total[f"{kind}_checks"] <= total[f"{kind}_revealed"]
        assert total[f"{kind}_revealed_passing"] <= total[f"{kind}_revealed"]
        assert total[f"{kind}_expected_passing_ppm"] <= 1_000_000 * total[f"{kind}_revealed"]
    assert total["beer_saves"] <= total["beers_at_lethal"]
    assert total["beers_two_left_healed"] == 0
    assert sum(v for n, v in total.items() if n.startswith("damage_")) > 0
    assert block.used.sum() > 0
    # the counts are a pure function of (seed, game), and cost nothing to the games
    again = play_games(loaded, 5, 300, seed=11, strategy="smart", events=True)
    assert np.array_equal(block.events, again.events) and np.array_equal(block.used, again.used)
    plain = play_games(loaded, 5, 300, seed=11, strategy="smart")
    assert np.array_equal(plain.winner, block.winner) and plain.events.shape == (300, 0)


def test_without_event_counts_the_pile_shares_are_skipped_and_the_games_are_the_same():
    """play_games without events sets state.QUIET: the kernel skips the pile shares (which
    it still counts with events) and plays the same games."""
    theme = load_theme("classic")
    strat = resolve_strategy("smart")
    T = pack_tables(theme.tables)[0]
    pool = np.arange(len(theme.character_names), dtype=np.int64)
    shares = [i for i, n in enumerate(event_names()) if n.endswith("expected_passing_ppm")]
    checks = [i for i, n in enumerate(event_names()) if n.endswith("_checks")]
    totals = {}
    for flags in (0, QUIET):
        G = new_states(1)[0]
        made = shared = 0
        for g in range(20):
            with np.errstate(over="ignore"):
                kernel.play_game(
                    G, T, strat.matrix, pool, strat.role_preset, NO_FEATURE, 5, 4, g, flags
                )
            made += int(G.ev[checks].sum())
            shared += int(G.ev[shares].sum())
        totals[flags] = made, shared
    assert totals[0][0] == totals[QUIET][0] > 0
    assert totals[0][1] > 0 and totals[QUIET][1] == 0
    quiet = play_games("classic", 5, 300, 4, strategy="smart")
    loud = play_games("classic", 5, 300, 4, strategy="smart", events=True)
    for f in quiet._fields:
        if f not in ("events", "used"):
            assert np.array_equal(getattr(quiet, f), getattr(loud, f)), f


@pytest.mark.parametrize(("shooter", "by"), [(3, "outlaw"), (1, "renegade")])
def test_who_eliminated_the_leader_is_counted_by_role(shooter, by):
    """[C-22] "If you have no more bullets left, i.e. you lose your last life point, you are
    out of the game": who put the leader out, by role (reports.events.game_endings)."""
    t = table()
    t.set_life(0, 1)
    t.give(shooter, "BANG!")
    t.play(shooter, "BANG!", target=0)
    c = counts(t)
    assert c[f"leader_killed_by_{by}"] == 1
    assert sum(v for n, v in c.items() if n.startswith("leader_killed_by_")) == 1


def test_an_outlaw_eliminated_is_no_leader_ending():
    t = table()
    t.set_life(3, 1)
    t.give(0, "BANG!")
    t.play(0, "BANG!", target=3)
    assert t.life(3) == 0 and not any(n.startswith("leader_killed_by_") for n in counts(t))
