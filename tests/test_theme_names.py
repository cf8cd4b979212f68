"""Themes keep their own names: an edited copy of a shipped theme never runs as the printed
game (simcore.engine.theme.own_id), `bangsim themes diff` lists what changed
(simcore.engine.themediff), `themes export` gives the copy an id of its own, `compare`
lists the themes' differences, and theme errors name cards and characters, not positions."""

import json
import re
from pathlib import Path

import pytest
from test_cli import assert_bad_input
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import THEMES_DIR, ThemeError, load_theme, shipped_themes
from simcore.engine.themediff import theme_diff
from simcore.runs.experiment import plan_experiment
from simcore.runs.runfolder import MANIFEST, plan_study, theme_digest

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def edited_copy(path: Path) -> Path:
    """classic's file, verbatim (id "classic" kept), with Paul Regret at 4 life, two more
    Missed! and the leader's extra life at 2."""
    text = (THEMES_DIR / "classic.toml").read_text(encoding="utf-8")
    text = text.replace('name = "Paul Regret"\nlife = 3', 'name = "Paul Regret"\nlife = 4')
    text = re.sub(r"^leader_extra_life = 1", "leader_extra_life = 2", text, count=1, flags=re.M)
    start = text.index('name = "Missed!"')
    end = text.index("]", text.index("copies", start))
    text = text[:end] + ', "2H", "3H"' + text[end:]
    path.write_text(text, encoding="utf-8")
    return path


def test_an_edited_copy_runs_under_its_file_name_and_records_its_digest(tmp_path):
    mine = load_theme(edited_copy(tmp_path / "my_variant.toml"))
    assert mine.id == "my_variant" and mine.shipped_id == "classic"
    same = tmp_path / "copy.toml"
    same.write_text((THEMES_DIR / "classic.toml").read_text(encoding="utf-8"))
    assert load_theme(same).id == "classic"  # the same content is the same theme
    # a file name that cannot be its own label: the id marked with the content digest
    named = load_theme(edited_copy(tmp_path / "classic.toml"))
    assert re.fullmatch(r"classic-[0-9a-f]{8}", named.id)
    study = plan_study(tmp_path / "run", tmp_path / "my_variant.toml", [5], 100, 1, "smart")
    assert study.request["themes"] == ["my_variant"]
    assert study.request["theme_digests"] == {"my_variant": theme_digest(mine)}
    # beside the printed theme in one experiment: two labels, no clash
    exp = tmp_path / "exp.toml"
    exp.write_text('[grid]\nthemes = ["classic", "my_variant.toml"]\nplayers = [5]\n')
    labels = [c.label for c in plan_experiment(exp, tmp_path / "out").cells]
    assert labels == ["classic/5p/tuned", "my_variant/5p/tuned"]


def test_an_override_cell_of_a_copy_keeps_the_copy_label(tmp_path):
    edited_copy(tmp_path / "mine.toml")
    exp = tmp_path / "exp.toml"
    exp.write_text(
        '[grid]\nthemes = ["mine.toml"]\nplayers = [5]\n[overrides]\nrules.outlaw_reward = [2, 3]\n'
    )
    cells = plan_experiment(exp, tmp_path / "out").cells
    assert {c.theme.id for c in cells} == {"mine"}
    assert cells[0].label.startswith("mine/5p/tuned/")


def test_themes_diff_lists_cards_characters_and_rules(tmp_path):
    path = edited_copy(tmp_path / "my_variant.toml")
    lines = theme_diff(load_theme("classic"), load_theme(path))
    assert lines == [
        "card changed: Missed!: copies 12 → 14 (+2H, +3H)",
        "character changed: Paul Regret: life 3 → 4",
        "rule changed: leader_extra_life 1 → 2",
    ]
    assert theme_diff(load_theme("classic"), load_theme("classic")) == []
    dodge = theme_diff(load_theme("classic"), load_theme("classic_dodge_city"))
    assert "card added: Binocular (scope, 1 copy)" in dodge
    result = runner.invoke(app, ["themes", "diff", "classic", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith("(id 'my_variant'): 3 differences")
    assert_bad_input(runner.invoke(app, ["themes", "diff", "classic", "nope"]), "unknown theme")


def test_export_gives_the_copy_its_own_id_or_says_how(tmp_path):
    out = tmp_path / "my_wd.toml"
    result = runner.invoke(app, ["themes", "export", "walking_dead", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert load_theme(out).id == "my_wd" and "id 'my_wd'" in result.stdout
    result = runner.invoke(app, ["themes", "export", "classic", "--id", "mine"])
    assert result.exit_code == 0 and re.search(r'^id = "mine"$', result.stdout, re.M)
    result = runner.invoke(app, ["themes", "export", "classic"])
    assert result.stdout == (THEMES_DIR / "classic.toml").read_text(encoding="utf-8")
    assert "give it its own with --id NAME" in result.stderr
    assert_bad_input(
        runner.invoke(app, ["themes", "export", "classic", "--id", "walking_dead"]),
        "names a shipped theme",
    )


def test_exported_headers_cite_no_file_the_package_lacks():
    for theme in shipped_themes():
        text = (THEMES_DIR / f"{theme}.toml").read_text(encoding="utf-8")
        cited = re.findall(r"[\w./-]+\.(?:md|txt|pdf)\b", text)
        assert cited == [], f"{theme}.toml cites {cited}"


def test_readme_names_every_shipped_theme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shipped = readme[readme.index("Shipped: ") :].split("\n\n")[0]
    for theme in shipped_themes():
        assert f"`{theme}`" in shipped, theme


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('effect = "bang"', 'effect = "bangg"', 'cards."BANG!".effect'),
        ('name = "El Gringo"\nlife = 3', 'name = "El Gringo"\nlife = 0', 'characters."El Gringo".life'),
    ],
)  # fmt: skip
def test_theme_errors_name_the_card_or_character(tmp_path, old, new, key):
    text = (THEMES_DIR / "classic.toml").read_text(encoding="utf-8").replace(old, new, 1)
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(ThemeError, match=re.escape(f"bad.toml: {key}:")):
        load_theme(tmp_path / "bad.toml")


def test_compare_lists_the_themes_differences_and_writes_csv(tmp_path):
    edited_copy(tmp_path / "my_variant.toml")
    for name, theme in (("base", "classic"), ("mine", str(tmp_path / "my_variant.toml"))):
        args = ["run", "--theme", theme, "--games", "60", "--strategy", "basic"]
        result = runner.invoke(app, [*args, "--out", str(tmp_path / name), "--no-progress"])
        assert result.exit_code == 0, result.output
        assert ("my_variant/basic" if name == "mine" else "classic/basic") in result.stdout
        assert ("plays as 'my_variant'" in result.stdout) == (name == "mine")
    runs = [str(tmp_path / "base"), str(tmp_path / "mine")]
    result = runner.invoke(app, ["compare", *runs, "--out", str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    assert "card changed: Missed!: copies 12 → 14 (+2H, +3H)" in result.stdout
    page = (tmp_path / "cmp" / "index.html").read_text()
    assert "The themes differ" in page and "Paul Regret: life 3 → 4" in page
    result = runner.invoke(
        app, ["compare", *runs, "--out", str(tmp_path / "csv"), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "csv" / "sides.csv").is_file()
    assert json.loads((tmp_path / "mine" / MANIFEST).read_text())["request"]["themes"] == [
        "my_variant"
    ]
