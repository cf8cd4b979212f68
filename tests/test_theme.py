"""Theme loading: the classic deck's printed facts, and one-line errors for bad theme files."""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from simcore.engine import limits, vocab
from simcore.engine.theme import THEMES_DIR, Theme, ThemeError, load_theme, shipped_themes

CLASSIC_PATH = THEMES_DIR / "classic.toml"
CLASSIC_TEXT = CLASSIC_PATH.read_text()


@pytest.fixture(scope="module")
def classic() -> Theme:
    return load_theme("classic")


def suits(theme: Theme) -> list[str]:
    return [face[-1] for face in theme.card_faces]


def passing(theme: Theme, check: int) -> int:
    return int(np.count_nonzero(theme.tables.card_check & check))


# --- loading -------------------------------------------------------------------------


def test_shipped_and_lookup(classic):
    """An id, a path string, a Path and a loaded Theme all load the same theme."""
    assert "classic" in shipped_themes()
    assert classic.id == "classic" and classic.title == "BANG!"
    assert load_theme(str(CLASSIC_PATH)).card_faces == classic.card_faces
    assert load_theme(CLASSIC_PATH).character_names == classic.character_names
    assert load_theme(classic) is classic
    assert classic.player_counts() == [4, 5, 6, 7]


def test_tables_dtypes_and_shapes(classic):
    """The compiled tables have exactly the dtypes and shapes simcore.engine.tables documents."""
    t = classic.tables
    n = len(classic.card_faces)
    expected = {
        "card_effect": (np.int8, (n,)),
        "card_value": (np.int8, (n,)),
        "card_cost": (np.int8, (n,)),
        "card_name": (np.int16, (n,)),
        "card_check": (np.int32, (n,)),
        "card_flags": (np.int32, (n,)),
        "card_destiny": (np.int8, (n,)),
        "char_life": (np.int8, (16,)),
        "char_ability": (np.int8, (16,)),
        "roles": (np.int8, (limits.MAX_PLAYERS + 1, limits.MAX_PLAYERS)),
        "rules": (np.int64, (vocab.N_RULES,)),
    }
    for name, (dtype, shape) in expected.items():
        arr = getattr(t, name)
        assert arr.dtype == dtype, name
        assert arr.shape == shape, name


# --- classic deck facts (decks.md) ---------------------------------------------------

CLASSIC_COUNTS = {
    "BANG!": 25,
    "Missed!": 12,
    "Beer": 6,
    "Panic!": 4,
    "Cat Balou": 4,
    "Duel": 3,
    "Stagecoach": 2,
    "General Store": 2,
    "Indians!": 2,
    "Gatling": 1,
    "Saloon": 1,
    "Wells Fargo": 1,
    "Barrel": 2,
    "Dynamite": 1,
    "Scope": 1,
    "Mustang": 2,
    "Jail": 3,
    "Schofield": 3,
    "Volcanic": 2,
    "Remington": 1,
    "Rev. Carabine": 1,
    "Winchester": 1,
}


def test_classic_has_80_cards_in_22_names(classic):
    """The base deck: 80 physical cards under 22 names, counts as printed; names index right."""
    assert len(classic.card_faces) == 80
    assert len(classic.card_display) == 80
    assert classic.card_names == list(CLASSIC_COUNTS)
    assert Counter(classic.card_display) == CLASSIC_COUNTS
    names = [classic.card_names[i] for i in classic.tables.card_name]
    assert names == classic.card_display


def test_classic_20_cards_per_suit(classic):
    """Every suit has exactly 20 cards."""
    assert Counter(suits(classic)) == {"C": 20, "D": 20, "H": 20, "S": 20}


def test_classic_25_bang_cards(classic):
    """[K-01] 25 BANG! cards, and they are the only cards with the bang effect."""
    is_bang = classic.tables.card_effect == vocab.E_BANG
    assert int(is_bang.sum()) == 25
    assert {classic.card_display[i] for i in np.flatnonzero(is_bang)} == {"BANG!"}


def test_classic_faces_sample(classic):
    """Faces are kept in file order, copies in listed order (first BANG!, the lone Dynamite)."""
    assert classic.card_faces[:3] == ["2C", "3C", "4C"]
    assert classic.card_faces[classic.card_display.index("Dynamite")] == "2H"
    assert [
        f for f, n in zip(classic.card_faces, classic.card_display, strict=True) if n == "Jail"
    ] == [
        "JS",
        "10S",
        "4H",
    ]


def test_barrel_and_jail_pass_on_20_hearts(classic):
    """[C-28] [K-13] [K-16] draw! on real faces: Barrel and Jail succeed on the 20 Hearts."""
    hearts = np.array([s == "H" for s in suits(classic)])
    for check in (vocab.CHK_BARREL, vocab.CHK_JAIL):
        assert passing(classic, check) == 20
        assert np.array_equal((classic.tables.card_check & check) > 0, hearts)


def test_dynamite_explodes_on_10_spades_2_to_9(classic):
    """[C-28] [K-17] Dynamite explodes on Spades 2-9: 10 of 80 cards (12.5%)."""
    assert passing(classic, vocab.CHK_DYNAMITE) == 10
    exploding = {
        classic.card_faces[i]
        for i in np.flatnonzero(classic.tables.card_check & vocab.CHK_DYNAMITE)
    }
    assert exploding == {"2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"}  # 9S twice
    assert "10S" not in exploding and "AS" not in exploding


def test_black_jack_extra_card_on_40_red(classic):
    """[C-28] [A-02] Black Jack's extra card: Hearts or Diamonds, 40 of 80 cards."""
    assert passing(classic, vocab.CHK_DRAW_EXTRA) == 40


def test_card_values(classic):
    """[K-03] [K-05] [K-07] [K-08] [K-18] [K-19] [K-20] [K-21] [K-22] values as printed."""
    value = {
        n: int(classic.tables.card_value[classic.card_display.index(n)]) for n in CLASSIC_COUNTS
    }
    assert value["Beer"] == 1
    assert value["Panic!"] == 1
    assert value["Stagecoach"] == 2
    assert value["Wells Fargo"] == 3
    assert value["Volcanic"] == 1
    assert value["Schofield"] == 2
    assert value["Remington"] == 3
    assert value["Rev. Carabine"] == 4
    assert value["Winchester"] == 5
    assert not classic.tables.card_cost.any()


def test_classic_characters(classic):
    """[C-03] [A-04] [A-09] 16 characters; El Gringo and Paul Regret have 3 life, others 4."""
    assert len(classic.character_names) == 16
    lives = dict(zip(classic.character_names, classic.character_lives, strict=True))
    assert {n for n, life in lives.items() if life == 3} == {"El Gringo", "Paul Regret"}
    assert all(life == 4 for n, life in lives.items() if n not in ("El Gringo", "Paul Regret"))
    assert list(classic.tables.char_life) == classic.character_lives
    classic_abilities = set(vocab.ABILITIES) - {"none", "tempered"}  # Tempered: Star Wars only
    assert sorted(classic.character_abilities) == sorted(classic_abilities)
    codes = [vocab.ABILITIES[a] for a in classic.character_abilities]
    assert list(classic.tables.char_ability) == codes


def test_classic_role_tables(classic):
    """[C-01] 4 = Sheriff, Renegade, 2 Outlaws; 5 = +Deputy; 6 = 3 Outlaws 1 Deputy; 7 = 3+2."""
    roles = classic.tables.roles
    for n, want in {
        4: {"leader": 1, "renegade": 1, "outlaw": 2},
        5: {"leader": 1, "renegade": 1, "outlaw": 2, "deputy": 1},
        6: {"leader": 1, "renegade": 1, "outlaw": 3, "deputy": 1},
        7: {"leader": 1, "renegade": 1, "outlaw": 3, "deputy": 2},
    }.items():
        assert roles[n, 0] == vocab.R_LEADER
        assert Counter(vocab.ROLES[r] for r in roles[n, :n]) == want
        assert (roles[n, n:] == -1).all()
    assert (roles[: limits.MIN_PLAYERS] == -1).all()
    assert classic.role_names == {
        "leader": "Sheriff",
        "deputy": "Deputy",
        "outlaw": "Outlaw",
        "renegade": "Renegade",
    }


def test_classic_rules_are_the_printed_defaults(classic):
    """[C-03] [C-06] [C-09] [C-20] [C-23] [C-24] [K-16] [K-17] rule flags as printed."""
    raw_rules = classic.raw["rules"]
    assert set(raw_rules) == set(vocab.RULES)  # every rule written out, none left implicit
    r = classic.tables.rules
    assert r[vocab.RU_LEADER_EXTRA_LIFE] == 1
    assert r[vocab.RU_DRAW_COUNT] == 2
    assert r[vocab.RU_BANG_LIMIT] == 1
    assert r[vocab.RU_BEER_MIN_PLAYERS] == 3
    assert r[vocab.RU_OUTLAW_REWARD] == 3
    assert r[vocab.RU_LEADER_KILLS_DEPUTY_PENALTY] == 1
    assert r[vocab.RU_JAIL_ON_LEADER] == 0
    assert r[vocab.RU_DYNAMITE_DAMAGE] == 3
    assert r[vocab.RU_NO_ONE_EFFECTS] == 1 << vocab.E_DYNAMITE
    assert r[vocab.RU_NO_REWARD_EFFECTS] == 0
    assert r[vocab.RU_TURN_CAP] == 1000
    for name, (index, default) in vocab.RULES.items():
        if isinstance(default, list):
            assert r[index] == sum(1 << vocab.EFFECTS[e] for e in default), name
        else:
            assert r[index] == int(default), name


def test_missing_rules_take_vocab_defaults(tmp_path):
    """A theme that omits [rules] gets every default from vocab.RULES."""
    start = CLASSIC_TEXT.index("[rules]")
    end = CLASSIC_TEXT.index('# "draw!" checks')
    path = tmp_path / "norules.toml"
    path.write_text(CLASSIC_TEXT[:start] + CLASSIC_TEXT[end:])
    assert np.array_equal(load_theme(path).tables.rules, load_theme("classic").tables.rules)


# --- validation: one edit to the classic file, one one-line error naming the key -------


def write_edit(tmp_path: Path, old: str, new: str) -> Path:
    assert old in CLASSIC_TEXT, old
    path = tmp_path / "bad.toml"
    path.write_text(CLASSIC_TEXT.replace(old, new, 1))
    return path


def assert_theme_error(path: Path, *fragments: str) -> str:
    with pytest.raises(ThemeError) as info:
        load_theme(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path.name}: ")
    for fragment in fragments:
        assert fragment in message, message
    return message


BAD_EDITS = [
    # (id, old text, new text, fragments the message must contain)
    ("unknown-section", "[theme]\n", "[extras]\nx = 1\n\n[theme]\n", ["extras", "allowed"]),
    ("missing-theme-id", 'id = "classic"\n', "", ["theme.id", "missing"]),
    ("unknown-theme-key", 'title = "BANG!"', 'title = "BANG!"\nversion = 2', ["theme.version"]),
    (
        "unknown-effect",
        'effect = "bang"',
        'effect = "bangg"',
        ['cards."BANG!".effect', "unknown effect 'bangg'", "allowed: bang, missed"],
    ),
    (
        "unknown-ability",
        'ability = "double_check"',
        'ability = "triple_check"',
        ['characters."Lucky Duke".ability', "'triple_check'", "allowed:"],
    ),
    ("bad-rank", '"2C", "3C"', '"1C", "3C"', ['cards."BANG!".copies[0]', "'1C'"]),
    ("bad-suit", '"2C", "3C"', '"2C", "3X"', ['cards."BANG!".copies[1]', "'3X'"]),
    ("face-not-string", '"2C", "3C"', '2, "3C"', ['cards."BANG!".copies[0]']),
    (
        "duplicate-card-name",
        'name = "Scope"',
        'name = "Barrel"',
        ["cards[14].name", "duplicate card name 'Barrel'"],
    ),
    (
        "duplicate-character-name",
        'name = "Willy the Kid"',
        'name = "Bart Cassidy"',
        ["characters[15].name", "duplicate character name"],
    ),
    (
        "life-zero",
        'name = "El Gringo"\nlife = 3',
        'name = "El Gringo"\nlife = 0',
        ['characters."El Gringo".life', "1..127"],
    ),
    ("empty-copies", 'copies = ["3H"]', "copies = []", ['cards."Wells Fargo".copies']),
    (
        "too-many-cards",
        'copies = ["5H"]',
        "copies = [" + ", ".join(['"5H"'] * 100) + "]",
        ["cards:", f"at most {limits.MAX_CARDS}"],
    ),
    (
        "role-count-mismatch",
        '"5" = ["leader", "renegade", "outlaw", "outlaw", "deputy"]',
        '"5" = ["leader", "renegade", "outlaw", "outlaw"]',
        ["role_table.5", "need 5"],
    ),
    (
        "too-few-players",
        '"4" = [',
        '"3" = ["leader", "renegade", "outlaw"]\n"4" = [',
        ["role_table.3", "allowed: 4..7"],
    ),
    (
        "too-many-players",
        '"4" = [',
        '"8" = ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy", "deputy"]'
        '\n"4" = [',
        ["role_table.8", "allowed: 4..7"],
    ),
    (
        "two-leaders",
        '"4" = ["leader", "renegade", "outlaw", "outlaw"]',
        '"4" = ["leader", "leader", "outlaw", "outlaw"]',
        ["role_table.4", "exactly one"],
    ),
    (
        "no-leader",
        '"4" = ["leader", "renegade", "outlaw", "outlaw"]',
        '"4" = ["deputy", "renegade", "outlaw", "outlaw"]',
        ["role_table.4", "exactly one"],
    ),
    (
        "unknown-role",
        '"4" = ["leader", "renegade", "outlaw", "outlaw"]',
        '"4" = ["leader", "renegade", "bandit", "outlaw"]',
        ["role_table.4[2]", "unknown role 'bandit'", "allowed: leader"],
    ),
    ("unknown-role-display", 'leader = "Sheriff"', 'sheriff = "Sheriff"', ["roles.sheriff"]),
    (
        "unknown-rule",
        "turn_cap = 1000",
        "turn_kap = 1000",
        ["rules.turn_kap", "unknown rule", "allowed:"],
    ),
    ("rule-bool-type", "jail_on_leader = false", "jail_on_leader = 0", ["rules.jail_on_leader"]),
    ("rule-int-type", "outlaw_reward = 3", "outlaw_reward = true", ["rules.outlaw_reward"]),
    (
        "rule-unknown-effect",
        'damage_by_no_one = ["dynamite"]',
        'damage_by_no_one = ["dynamit"]',
        ["rules.damage_by_no_one", "'dynamit'"],
    ),
    ("rule-negative", "draw_count = 2", "draw_count = -1", ["rules.draw_count"]),
    (
        "unknown-check",
        "draw_extra = {",
        "draw_xtra = {",
        ["checks.draw_xtra", "unknown check", "allowed:"],
    ),
    (
        "check-bad-suit",
        'barrel = { suits = ["H"] }',
        'barrel = { suits = ["R"] }',
        ["checks.barrel"],
    ),
    ("check-bad-range", 'ranks = "2-9"', 'ranks = "9-2"', ["checks.dynamite.ranks"]),
    ("check-bad-key", 'jail = { suits = ["H"] }', 'jail = { suit = ["H"] }', ["checks.jail.suit"]),
    ("check-missing", 'barrel = { suits = ["H"] }', "", ["checks.barrel", "missing"]),
    ("value-too-big", "value = 5", "value = 128", ['cards."Winchester".value', "1..127"]),
    (
        "value-negative",
        'value = 2\ntext = "Draw',
        'value = -1\ntext = "Draw',
        ['cards."Stagecoach".value'],
    ),
    (
        "cost-negative",
        'name = "Duel"',
        'name = "Duel"\ncost = -1',
        ['cards."Duel".cost', "0..127"],
    ),
    (
        "unknown-card-key",
        'name = "Gatling"',
        'name = "Gatling"\nvaule = 3',
        ['cards."Gatling".vaule'],
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "fragments"), [b[1:] for b in BAD_EDITS], ids=[b[0] for b in BAD_EDITS]
)
def test_bad_theme_edit(tmp_path, old, new, fragments):
    """Each broken theme file fails with one line naming the file, the key and what is allowed."""
    assert_theme_error(write_edit(tmp_path, old, new), *fragments)


def test_fewer_characters_than_players(tmp_path):
    """Seven seats need at least seven characters."""
    parts = CLASSIC_TEXT.split("[[characters]]")
    path = tmp_path / "few.toml"
    path.write_text("[[characters]]".join(parts[:7]))  # 6 characters
    assert_theme_error(path, "characters:", "6 characters", "need at least 7")


def test_more_characters_than_the_kernel_holds(tmp_path):
    """The kernel's tables hold limits.MAX_CHARACTERS characters; more is a load error."""
    extra = "".join(
        f'\n[[characters]]\nname = "Extra {i}"\nlife = 4\nability = "none"\n' for i in range(60)
    )
    path = tmp_path / "many.toml"
    path.write_text(CLASSIC_TEXT + extra)
    assert_theme_error(path, "characters:", "76 characters", "at most 64")


def test_toml_syntax_error_is_one_line(tmp_path):
    """A TOML syntax error becomes a one-line ThemeError naming the file."""
    path = write_edit(tmp_path, 'title = "BANG!"', 'title = "BANG!')
    assert_theme_error(path, "TOML syntax error")


def test_unknown_theme_id_and_missing_file(tmp_path):
    """An unknown id lists the shipped themes; a missing path says so."""
    with pytest.raises(ThemeError, match="unknown theme 'nope'.*classic"):
        load_theme("nope")
    with pytest.raises(ThemeError, match="not found"):
        load_theme(tmp_path / "absent.toml")


def test_theme_error_is_value_error():
    """Callers that catch ValueError catch theme errors too."""
    assert issubclass(ThemeError, ValueError)
