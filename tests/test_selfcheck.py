"""bangsim selfcheck: the checks pass on this engine, and each one can fail."""

import numpy as np
from played import play_games
from scenario import variant
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.events import event_names
from simcore.engine.theme import load_theme
from simcore.engine.vocab import R_RENEGADE, W_RENEGADE
from simcore.studies import selfcheck


def test_every_check_passes_on_a_small_run():
    checks = selfcheck.run_selfcheck(games=3000, seed=2)
    assert len(checks) >= 4 * 3 + 3
    assert [c.name for c in checks if not c.passed] == []
    for c in checks:
        assert c.low <= c.high and c.n > 0
    names = " ".join(c.name for c in checks)
    for what in ("Barrel", "Jail", "Dynamite", "Black Jack", "A New Hope", "two players left"):
        assert what in names
    assert "walking_dead vs classic" in names


def test_a_renegade_win_with_others_alive_fails():
    theme = load_theme("classic")
    block = play_games(theme, 5, 200, seed=3, strategy="smart")
    (check,) = selfcheck.renegade_alone(theme, block)
    assert check.passed
    bad = block._replace(winner=np.full_like(block.winner, W_RENEGADE))
    bad.survived[:, :] = True
    assert (bad.role == R_RENEGADE).any()
    (check,) = selfcheck.renegade_alone(theme, bad)
    assert not check.passed and check.observed == 200


def test_a_beer_that_heals_with_two_left_fails():
    """The Beer witness covers the Beers played on a turn and those at a lethal hit
    (save_from_lethal): both pass on this engine, having been put to the test (n > 0), and
    each fails on its own count, or on a theme whose Beers work with two left."""
    theme = load_theme("classic")
    block = play_games(theme, 5, 500, seed=3, strategy="random", events=True)
    on_turn, at_lethal = selfcheck.beer_two_left(theme, block)
    assert on_turn.passed and on_turn.n > 0 and at_lethal.passed and at_lethal.n > 0
    for count, failing in (("beers_two_left_healed", 0), ("beers_two_left_at_lethal", 1)):
        bad = block.events.copy()
        bad[0, event_names().index(count)] = 1
        checks = list(selfcheck.beer_two_left(theme, block._replace(events=bad)))
        assert [c.passed for c in checks] == [failing != 0, failing != 1], count
    two = variant(beer_min_players=2)
    block = play_games(two, 5, 500, seed=3, strategy="random", events=True)
    assert not any(c.passed for c in selfcheck.beer_two_left(two, block))


def test_a_draw_rate_off_the_faces_fails():
    theme = load_theme("classic")
    block = play_games(theme, 5, 2000, seed=3, strategy="smart", events=True)
    assert all(c.passed for c in selfcheck.draw_rates(theme, block))
    i = event_names().index("barrel_revealed_passing")
    block.events[:, i] = block.events[:, i - 1]  # every revealed card "passing"
    barrel = next(c for c in selfcheck.draw_rates(theme, block) if "Barrel" in c.name)
    assert not barrel.passed and barrel.observed == 1.0


def test_different_games_fail_the_same_game_check():
    a = play_games("classic", 5, 3000, seed=4, strategy="smart")
    b = play_games("classic", 5, 3000, seed=5, strategy={"outlaw": "random"})
    assert not all(c.passed for c in selfcheck.same_game(a, b, "classic", "weak outlaws"))


def test_cli_prints_every_check_and_exits_1_on_a_failure(monkeypatch):
    result = CliRunner().invoke(app, ["selfcheck", "--games", "1000"])
    assert result.exit_code == 0, result.output
    assert "observed" in result.output and "expected" in result.output
    assert " 0 failed" in result.output
    failing = selfcheck.Check("made up", 1.0, 0.0, 0.9, 1.0, 10, False)
    monkeypatch.setattr(selfcheck, "run_selfcheck", lambda *a, **k: [failing])
    result = CliRunner().invoke(app, ["selfcheck", "--games", "1000"])
    assert result.exit_code == 1 and "FAIL made up" in result.output
