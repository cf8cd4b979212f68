"""`bangsim abilities`: each character with and without its ability on the same deals."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from played import play_games
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.stats import newcombe_exprs
from simcore.studies.abilities import (
    NEGATIVE,
    NO_ABILITY_VERDICT,
    POSITIVE,
    UNCLEAR,
    ability_values,
    paired_stats,
    read_abilities,
    without_ability,
)

runner = CliRunner()


def test_without_ability_changes_only_that_ability():
    classic = load_theme("classic")
    bare = without_ability(classic, "Willy the Kid")
    i = classic.character_names.index("Willy the Kid")
    assert bare.character_abilities[i] == "none"
    assert bare.character_lives == classic.character_lives  # life as printed
    others = [a for j, a in enumerate(classic.character_abilities) if j != i]
    assert [a for j, a in enumerate(bare.character_abilities) if j != i] == others


def test_the_two_arms_deal_the_same_games():
    """Same seed and game indices: the same featured seat, roles and characters, game by
    game; only the results of games the ability touched differ."""
    classic = load_theme("classic")
    kw = dict(strategy="smart", feature="Slab the Killer")
    a = play_games(classic, 5, 400, 7, **kw)
    b = play_games(without_ability(classic, "Slab the Killer"), 5, 400, 7, **kw)
    assert (a.featured >= 0).all() and np.array_equal(a.featured, b.featured)
    assert np.array_equal(a.role, b.role) and np.array_equal(a.character, b.character)
    assert 0 < (a.won != b.won).any(axis=1).sum() < 400  # some games changed, not all


def test_paired_stats():
    with_ = np.array([1, 1, 0, 1, 0, 0, 1, 1], bool)
    without = np.array([1, 0, 0, 1, 0, 1, 0, 1], bool)
    s = paired_stats(with_, without)
    d = np.array([0, 1, 0, 0, 0, -1, 1, 0])
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(8)
    assert (s["wins_with"], s["wins_without"], s["changed"]) == (5, 4, 3)
    assert s["value"] == pytest.approx(1 / 8)
    assert (s["value_lower"], s["value_upper"]) == pytest.approx((1 / 8 - half, 1 / 8 + half))
    assert s["verdict"] == UNCLEAR
    n = 400
    worse = paired_stats(np.zeros(n, bool), np.arange(n) % 4 == 0)  # loses 1 game in 4
    assert worse["verdict"] == NEGATIVE and worse["value_upper"] < 0
    assert paired_stats(np.arange(n) % 4 == 0, np.zeros(n, bool))["verdict"] == POSITIVE
    same = paired_stats(with_, with_)
    assert (same["value"], same["value_lower"], same["value_upper"], same["p_value"]) == (
        0,
        0,
        0,
        1,
    )


@pytest.fixture(scope="module")
def values() -> pl.DataFrame:
    names = ["Bart Cassidy", "El Gringo", "Kit Carlson"]
    return ability_values("classic", 5, 1500, seed=3, strategy="smart", characters=names)


def test_a_clearly_useful_ability_is_worth_points(values):
    """Bart Cassidy (a card per life lost) and El Gringo (a card from whoever hurt him) are
    worth several points at 5 players: positive at 1,500 games, with a paired interval
    much narrower than two independent runs of that size would give."""
    rows = {r["character"]: r for r in values.iter_rows(named=True)}
    assert values["value"].to_list() == sorted(values["value"], reverse=True)
    for name in ("Bart Cassidy", "El Gringo"):
        r = rows[name]
        assert r["verdict"] == POSITIVE and r["value_lower"] > 0.02
        assert r["value"] == pytest.approx(r["rate_with"] - r["rate_without"])
        lower, upper = newcombe_exprs(
            pl.lit(r["wins_with"]), pl.lit(1500), pl.lit(r["wins_without"]), pl.lit(1500)
        )
        independent = pl.select(upper - lower).item()
        assert r["value_upper"] - r["value_lower"] < 0.75 * independent
    assert rows["Bart Cassidy"]["life"] == 4 and rows["El Gringo"]["life"] == 3
    assert set(values["role"]) == {"any"} and set(values["games"]) == {1500}


def test_a_character_without_an_ability_is_worth_nothing():
    bare = without_ability(load_theme("classic"), "Kit Carlson")
    table = ability_values(bare, 4, 200, characters=["Kit Carlson"], role="outlaw")
    row = table.row(0, named=True)
    assert (row["value"], row["changed"], row["verdict"]) == (0.0, 0, NO_ABILITY_VERDICT)
    assert (row["role"], row["ability"]) == ("outlaw", "none")


def cli(*args):
    return runner.invoke(app, ["abilities", "--no-progress", *map(str, args)])


def test_cli_prints_the_table_and_merges_files(tmp_path):
    out = tmp_path / "run"
    args = ["--games", "300", "--players", "4", "--out", out]
    result = cli(*args, "--characters", "Willy the Kid,Jourdonnais", "--role", "Outlaw")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("classic, 4 players, tuned, featured in the outlaw role: 300 games")
    assert "with ability" in lines[1] and "value in pp [95% interval]" in lines[1]
    assert {lines[2].split()[0], lines[3].split()[0]} == {"Willy", "Jourdonnais"}
    assert "mean ± 1.96 sd/√n" in lines[4] and "1,200 games" in lines[4]
    assert f"wrote {out / 'abilities.json'} and abilities.csv" in result.stdout
    result = cli(*args, "--characters", "Willy the Kid", "--seed", "2", "--role", "outlaw")
    assert result.exit_code == 0, result.output
    table = read_abilities(out)
    assert sorted(table["character"]) == ["Jourdonnais", "Willy the Kid"]  # merged, replaced
    assert table.filter(pl.col("character") == "Willy the Kid")["seed"].item() == 2
    assert pl.read_csv(out / "abilities.csv").height == 2


def test_report_shows_ability_values(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "--players", "4", "--games", "200", "--out", str(out),
                                 "--strategy", "smart", "--no-progress"])  # fmt: skip
    assert result.exit_code == 0, result.output
    result = cli("--games", "200", "--players", "4", "--characters", "Bart Cassidy", "--out", out)
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    html = (out / "report" / "index.html").read_text()
    assert 'id="abilities"' in html and "Bart Cassidy" in html
    assert (out / "report" / "abilities-classic_4p_tuned.png").is_file()  # abilities' default
    tables = tmp_path / "t"
    result = runner.invoke(app, ["report", str(out), "--format", "json", "--out", str(tables)])
    assert result.exit_code == 0, result.output
    rows = json.loads((tables / "abilities.json").read_text())
    assert rows[0]["character"] == "Bart Cassidy" and rows[0]["ability"] == "draw_on_damage"
    (out / "abilities.json").write_text("{}")
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 2 and "not an ability table" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--characters", "Bart Casidy"], "did you mean 'Bart Cassidy'?"),
        (["--role", "sheriffs"], "--role: unknown role 'sheriffs'"),
        (["--players", "9"], "players must be between 4 and 7, got 9"),
        (["--games", "0"], "games must be a positive integer, got 0"),
        (["--strategy", "nosuchbot"], "unknown strategy 'nosuchbot'"),
        (["--theme", "nosuchtheme"], "unknown theme 'nosuchtheme'"),
    ],
)
def test_cli_errors_are_one_line(args, message):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
