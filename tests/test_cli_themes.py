"""`bangsim themes`, `bangsim themes show ID|PATH`, `bangsim themes export ID`, and theme files
given to `bangsim run`."""

import json

import pytest
from test_cli import assert_bad_input
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import THEMES_DIR, load_theme, shipped_themes
from simcore.engine.themeinfo import player_counts_text

runner = CliRunner()
CLASSIC_TEXT = (THEMES_DIR / "classic.toml").read_text()


def test_themes_lists_every_shipped_theme():
    result = runner.invoke(app, ["themes"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0].split() == ["id", "title", "cards", "characters", "players"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert sorted(rows) == shipped_themes()
    assert "BANG! The Walking Dead" in rows["walking_dead"]
    assert rows["classic_dodge_city"].split()[-3:] == ["85", "16", "4-7"]
    assert rows["classic"].split()[-3:] == ["80", "16", "4-7"]


def test_themes_show_walking_dead():
    result = runner.invoke(app, ["themes", "show", "walking_dead"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("walking_dead: BANG! The Walking Dead")
    for text in (
        "Survivors' Leader",
        "Hilltop Loner",
        "deck: 80 cards, 22 names",
        "Attack!",
        "Grenade",
        "characters: 16",
        "damage_by_no_one = [dynamite, gatling]",
        "beer_min_players = 3",
        "dynamite   suits S, ranks 2-9  (10 of 80 cards pass)",
    ):
        assert text in out, text
    rows = {line.split("  ")[1].strip(): line for line in out.splitlines() if line.startswith("  ")}
    assert rows["Attack!"].split()[1:4] == ["bang", "0", "25"]
    assert rows["Sniper Rifle"].split()[2:6] == ["weapon", "5", "0", "1"]
    assert rows["Tyreese"].split()[1:] == ["4", "double_missed"]
    assert rows["Dale"].split()[1:] == ["3", "builtin_mustang"]


def test_themes_show_dodge_city_costs_and_whisky():
    result = runner.invoke(app, ["themes", "show", "classic_dodge_city"])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line.strip()}
    assert lines["Whisky"][1:7] == ["heal", "2", "(not", "a", "Beer)", "1"]
    assert lines["Springfield"][1:5] == ["bang_any", "1", "1", "KS"]
    assert lines["Tequila"][1:6] == ["heal_any", "1", "1", "1", "9C"]


@pytest.mark.parametrize("theme_id", shipped_themes())
def test_themes_export_prints_the_file_verbatim(theme_id):
    result = runner.invoke(app, ["themes", "export", theme_id])
    assert result.exit_code == 0, result.output
    assert result.stdout == (THEMES_DIR / f"{theme_id}.toml").read_text()


def test_themes_export_out_writes_the_file_and_never_overwrites(tmp_path):
    out = tmp_path / "my_variant.toml"
    result = runner.invoke(app, ["themes", "export", "classic", "--out", str(out)])
    assert result.exit_code == 0, result.output
    # the shipped file with its comments, under the file's name as its id, its parent named
    # and its title marked with the id
    variant = CLASSIC_TEXT.replace(
        'id = "classic"\n',
        'id = "my_variant"\n# the shipped theme this variant comes from: it plays its `tuned` '
        'values\nparent = "classic"\n',
        1,
    ).replace('title = "BANG!"', 'title = "BANG! (my_variant)"', 1)
    assert out.read_text() == variant
    assert "id 'my_variant'" in result.stdout
    assert load_theme(out).id == "my_variant"
    out.write_text("# my edits\n")
    again = runner.invoke(app, ["themes", "export", "classic", "--out", str(out)])
    assert_bad_input(again, "my_variant.toml: already exists")
    assert out.read_text() == "# my edits\n"


@pytest.mark.parametrize("theme", ["nosuchtheme", "classic.toml", "configs/themes/classic"])
def test_themes_export_unknown(theme, tmp_path):
    out = tmp_path / "x.toml"
    result = runner.invoke(app, ["themes", "export", theme, "--out", str(out)])
    assert_bad_input(result, f"unknown theme '{theme}'", "walking_dead")
    assert not out.exists()


def test_themes_show_a_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(CLASSIC_TEXT.replace('id = "classic"', 'id = "mine"', 1))
    result = runner.invoke(app, ["themes", "show", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("mine: BANG!\nfile: ")
    assert "deck: 80 cards" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["nosuchtheme"], ["unknown theme 'nosuchtheme'", "walking_dead"]),
        (["missing/theme.toml"], ["theme file not found"]),
    ],
)
def test_themes_show_unknown(args, fragments):
    assert_bad_input(runner.invoke(app, ["themes", "show", *args]), *fragments)


def test_themes_show_bad_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(CLASSIC_TEXT.replace('effect = "bang"', 'effect = "bangg"', 1))
    result = runner.invoke(app, ["themes", "show", str(path)])
    assert_bad_input(result, "bad.toml: cards.\"BANG!\".effect: unknown effect 'bangg'")


BAD_FILES = [
    ('effect = "bang"', 'effect = "bangg"', "cards.\"BANG!\".effect: unknown effect 'bangg'"),
    ('"2C", "3C"', '"2X", "3C"', "cards.\"BANG!\".copies[0]: bad face '2X'"),
    (
        '"5" = ["leader", "renegade", "outlaw", "outlaw", "deputy"]',
        '"5" = ["leader", "renegade", "outlaw", "outlaw"]',
        "role_table.5: 4 roles listed for 5 players",
    ),
    ('name = "El Gringo"\nlife = 3', 'name = "El Gringo"\nlife = 0', 'characters."El Gringo".life'),
    ('name = "Scope"', 'name = "Barrel"', "duplicate card name 'Barrel'"),
    ('title = "BANG!"', 'title = "BANG!', "TOML syntax error"),
]


@pytest.mark.parametrize(("old", "new", "fragment"), BAD_FILES)
def test_run_with_a_bad_theme_file_exits_2_and_writes_nothing(tmp_path, old, new, fragment):
    """`bangsim run --theme bad.toml`: the loader's one line, exit code 2, no run folder."""
    path = tmp_path / "bad.toml"
    path.write_text(CLASSIC_TEXT.replace(old, new, 1))
    out = tmp_path / "runs" / "x"
    result = runner.invoke(app, ["run", "--theme", str(path), "--out", str(out), "--games", "10"])
    assert_bad_input(result, "bad.toml: ", fragment)
    assert not (tmp_path / "runs").exists()


def test_run_with_a_theme_path(tmp_path):
    """A designer's file runs like a shipped id; the manifest names its id and file."""
    path = tmp_path / "mine.toml"
    path.write_text(CLASSIC_TEXT.replace('id = "classic"', 'id = "mine"', 1))
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        ["run", "--theme", str(path), "--out", str(out), "--games", "200", "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    assert "mine/tuned" in result.stdout and "200 games per cell" in result.stdout  # run's default
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["request"]["themes"] == ["mine"]
    assert "mine.toml" in json.dumps(manifest)


def test_run_walking_dead_prints_its_role_names(tmp_path):
    out = tmp_path / "wd"
    result = runner.invoke(
        app,
        ["run", "--theme", "walking_dead", "--out", str(out), "--games", "200", "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    for name in ("Survivors' Leader", "Survivor", "Savior", "Hilltop Loner"):
        assert name in result.stdout


def test_player_counts_text():
    assert player_counts_text([4, 5, 6, 7]) == "4-7"
    assert player_counts_text([4, 6]) == "4,6"
    assert player_counts_text([5]) == "5"
    assert player_counts_text(load_theme("classic").player_counts()) == "4-7"
