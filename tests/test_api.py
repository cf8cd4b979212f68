"""Config labels and the API's input checks (no engine needed)."""

import pytest

from simcore.engine.request import check_characters, config_label, player_counts, safe_name
from simcore.engine.theme import load_theme
from strategies.presets import check_strategy, strategy_label


@pytest.fixture(scope="module")
def theme():
    return load_theme("classic")


def test_config_label():
    assert config_label("classic", 7, "random") == "classic/7p/random"
    # roles a spec leaves out play the reference level, tuned
    assert config_label("classic", 5, strategy_label({"leader": "tuned"})) == "classic/5p/tuned"
    assert (
        config_label("classic", 4, strategy_label({"outlaw": "random"}), ["Jourdonnais"])
        == "classic/4p/leader=tuned,deputy=tuned,outlaw=random,renegade=tuned/pool:Jourdonnais"
    )
    pool = ["Bart Cassidy", "Black Jack", "Calamity Janet", "El Gringo", "Jesse Jones"]
    label = config_label("classic", 5, "basic", pool)
    assert label.startswith("classic/5p/basic/pool5-") and len(label.split("-")[-1]) == 6
    assert label != config_label("classic", 5, "basic", pool[::-1])  # deal order is part of it


def test_strategy_label_is_canonical():
    assert strategy_label("random") == "random"
    assert (
        strategy_label(dict.fromkeys(("leader", "deputy", "outlaw", "renegade"), "random"))
        == "random"
    )
    expected = "leader=random,deputy=tuned,outlaw=tuned,renegade=random"
    assert strategy_label({"renegade": "random", "leader": "random"}) == expected
    assert strategy_label("renegade=random,leader=random") == expected


def test_safe_name():
    assert safe_name("classic/5p/basic") == "classic_5p_basic"
    assert safe_name("classic/4p/leader=smart,outlaw=basic/pool:Bart Cassidy+Jourdonnais") == (
        "classic_4p_leader=smart_outlaw=basic_pool_Bart_Cassidy_Jourdonnais"
    )


def test_player_counts(theme):
    assert player_counts(5, theme) == [5]
    assert player_counts([7, 4, 4], theme) == [4, 7]
    for bad in (3, 8, 9):
        with pytest.raises(ValueError, match="between 4 and 7"):
            player_counts(bad, theme)
    with pytest.raises(ValueError):
        player_counts([], theme)


def test_check_characters(theme):
    assert check_characters(None, theme) is None
    assert check_characters(("Jourdonnais",), theme) == ["Jourdonnais"]
    with pytest.raises(ValueError, match="did you mean 'Jourdonnais'"):
        check_characters(["Jourdonais"], theme)
    with pytest.raises(ValueError, match="list of names"):
        check_characters("Jourdonnais", theme)
    with pytest.raises(ValueError, match="too small for 5 players"):
        check_characters(["Jourdonnais", "Black Jack"], theme, [4, 5])


def test_check_strategy():
    assert check_strategy("basic") == "basic"
    assert check_strategy({"leader": "tuned"}) == "tuned"
    assert (
        check_strategy({"leader": "smart"})
        == "leader=smart,deputy=tuned,outlaw=tuned,renegade=tuned"
    )
    with pytest.raises(ValueError, match="unknown role 'sheriff'"):
        check_strategy({"sheriff": "basic"})
    with pytest.raises(ValueError, match="unknown strategy 'nosuch'"):
        check_strategy("nosuch")
    for bad in ("", 3, None):
        with pytest.raises(ValueError):
            check_strategy(bad)
