"""Skill depth per role (simcore.studies.skill, `bangsim skill`): each role's win rate at
each strategy level against one field, on the same deals."""

import polars as pl
import pytest
from test_learned import unshipped_theme
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.studies.skill import LEVELS, skill_depth, skill_levels, skill_line
from simcore.studies.tournament import tournament

runner = CliRunner()


def test_a_level_against_itself_gains_exactly_nothing():
    """The toy with a known answer: the same level twice plays the same games."""
    table = skill_depth("classic", 4, 200, 5, "basic", levels=["smart", "smart"])
    second = table.filter(pl.col("rank") == 1)
    assert (second["gain"] == 0).all() and (second["gain_lower"] == 0).all()
    assert (second["gain_upper"] == 0).all()
    first = table.filter(pl.col("rank") == 0)
    assert first["gain"].is_nan().all() and (first["over_base"] == 0).all()


def test_rates_are_the_tournaments_on_the_same_deals():
    table = skill_depth("classic", 4, 150, 7, "basic", levels=["random", "smart"])
    other = tournament("classic", 4, 150, 7, ["random", "smart"], "basic")
    joined = table.join(other, left_on=["role", "level"], right_on=["role", "preset"])
    assert joined.height == 6  # leader, outlaw, renegade at 4 players, two levels each
    assert joined["rate"].to_list() == joined["rate_right"].to_list()
    for r in table.filter(pl.col("rank") == 1).iter_rows(named=True):
        below = table.filter((pl.col("role") == r["role"]) & (pl.col("rank") == 0))["rate"].item()
        assert r["gain"] == pytest.approx(r["rate"] - below)
        assert r["gain_lower"] <= r["gain"] <= r["gain_upper"]


def test_levels_and_the_line_name_the_steepest_role(tmp_path):
    classic = load_theme("classic")
    assert skill_levels(classic, 5)[-1] == "strong"  # shipped for classic at 5 players
    house = load_theme(unshipped_theme(tmp_path))
    assert skill_levels(house, 5, search=True) == [*LEVELS, "search:tuned"]
    table = skill_depth(classic, 4, 120, 3, "basic", levels=["smart", "tuned"])
    top = table.filter(pl.col("rank") == 1).sort("over_base", descending=True).row(0, named=True)
    line = skill_line(table, classic.role_names)
    assert line.startswith(
        f"at 4 players skill is worth most as the {classic.role_names[top['role']]}"
    )
    assert "from smart to tuned" in line


def test_skill_cli_prints_the_table_and_writes_the_chart(tmp_path):
    args = ["skill", "--players", "4", "--games", "60", "--field", "basic", "--out", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "skill is worth most as the" in result.stdout
    assert (tmp_path / "skill-classic_4p.json").is_file()
    assert (tmp_path / "skill-classic_4p.png").read_bytes()[:4] == b"\x89PNG"
    result = runner.invoke(app, ["skill", "--field", "leader=smart", "--games", "10"])
    assert result.exit_code == 2 and "--field" in result.stderr


def test_the_report_shows_skill_depth_written_into_its_run(tmp_path):
    run = tmp_path / "run"
    args = ["--players", "4", "--strategy", "basic", "--no-progress", "--out", str(run)]
    assert runner.invoke(app, ["run", "--games", "60", *args]).exit_code == 0
    skill = ["skill", "--players", "4", "--games", "40", "--field", "basic", "--out", str(run)]
    assert runner.invoke(app, skill).exit_code == 0
    result = runner.invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    html = (run / "report" / "index.html").read_text()
    assert 'id="skill"' in html and (run / "report" / "skill-classic_4p.png").is_file()
    verdict = html[html.index('id="verdict"') : html.index('id="summary"')]
    assert "at 4 players skill is worth most as the" in verdict
