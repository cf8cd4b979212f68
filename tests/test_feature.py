"""--feature: one character in every game, at a uniformly random seat (of a given role)."""

import numpy as np
import pytest
from played import play_games

from simcore.engine.theme import load_theme
from simcore.engine.vocab import R_LEADER, R_OUTLAW, ROLES


def test_the_featured_character_sits_in_every_game_at_a_random_seat():
    theme = load_theme("classic")
    willy = theme.character_names.index("Willy the Kid")
    block = play_games(theme, 5, 4000, seed=1, strategy="smart", feature="Willy the Kid")
    seats = block.featured.astype(int)
    assert (seats >= 0).all()
    assert (block.character[np.arange(4000), seats] == willy).all()
    assert ((block.character == willy).sum(axis=1) == 1).all()  # nobody else deals him
    share = np.bincount(seats, minlength=5) / 4000
    assert np.all(np.abs(share - 0.2) < 0.03)  # uniform over the 5 seats (sd ~0.006)


def test_a_featured_role_fixes_the_seat_role():
    theme = load_theme("classic")
    block = play_games(theme, 6, 2000, seed=2, strategy="smart", feature="Bart Cassidy=outlaw")
    rows = np.arange(2000)
    assert (block.role[rows, block.featured.astype(int)] == R_OUTLAW).all()
    assert len(np.unique(block.featured)) == 5  # the three outlaw seats vary from deal to deal
    leader = play_games(theme, 5, 100, seed=2, feature="Bart Cassidy=Sheriff")  # theme's name
    assert (leader.featured == 0).all() and (leader.role[:, 0] == R_LEADER).all()


def test_no_feature_is_the_same_games_and_no_featured_seat():
    a = play_games("classic", 5, 500, seed=3, strategy="smart")
    assert (a.featured == -1).all()
    b = play_games("classic", 5, 500, seed=3, strategy="smart", characters=None, feature=None)
    assert np.array_equal(a.character, b.character) and np.array_equal(a.winner, b.winner)


@pytest.mark.parametrize(
    "feature, message",
    [
        ("Willy the Kidd", "unknown character 'Willy the Kidd'"),
        ("Willy the Kid=sheriffs", "unknown role 'sheriffs'"),
        ("Willy the Kid=deputy", "no deputy at 4 players"),
    ],
)
def test_bad_features_are_one_line_errors(feature, message):
    with pytest.raises(ValueError, match=message) as err:
        play_games("classic", 4, 10, seed=1, feature=feature)
    assert "\n" not in str(err.value)
    if "character" in message:
        assert "Bart Cassidy" in str(err.value)  # lists the theme's characters


def test_the_featured_character_leaves_the_pool():
    pool = ["Willy the Kid", "Bart Cassidy", "El Gringo", "Jourdonnais", "Paul Regret"]
    block = play_games("classic", 5, 200, seed=4, characters=pool, feature="Willy the Kid")
    assert set(np.unique(block.character)) == set(range(16)) & {
        load_theme("classic").character_names.index(n) for n in pool
    }
    assert ROLES  # roles are dealt as usual
