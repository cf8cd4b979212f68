"""What a designer reads first: the effects of an experiment's overrides on the same deals
(reports.effects), the verdict in words from the strongest strategy level (reports.verdict),
their own targets instead of "even", and every report table from Python (simcore.report_tables,
the README's notebook lines)."""

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import simcore
from reports.effects import override_effects
from reports.names import Names
from reports.report import load_report, write_report
from reports.verdict import (
    TargetsError,
    parse_targets,
    side_phrase,
    strength,
    verdict_lines,
    with_targets,
)
from simcore.cli import app
from simcore.engine.request import config_label, split_label
from simcore.runs.experiment import run_experiment
from simcore.runs.runfolder import MANIFEST
from strategies.presets import strategy_label

ROOT = Path(__file__).resolve().parent.parent
GAMES = 150
TWO_FACTORS = f"""
[experiment]
games = {GAMES}
seed = 3

[grid]
themes = ["classic"]
players = [5]
strategies = ["smart"]

[overrides]
rules.leader_extra_life = [2, 1]
characters."Paul Regret".life = [3, 5]
"""


@pytest.fixture(scope="module")
def two_factor_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("effects")
    source = folder / "two.toml"
    source.write_text(TWO_FACTORS)
    return run_experiment(source, folder / "run", progress=False)


def winners(run: Path, label: str) -> np.ndarray:
    rows = pl.read_parquet(run / "seats" / "*.parquet").filter(
        pl.col("config") == label, pl.col("seat") == 0
    )
    return rows.sort("game")["winner"].to_numpy()


def test_effects_pair_each_level_with_the_printed_base_on_the_same_games(two_factor_run):
    manifest = json.loads((two_factor_run / MANIFEST).read_text())
    tables = override_effects(two_factor_run, manifest)
    effects = tables["effects"]
    # the printed leader_extra_life (1) is the base though 2 is listed first; Paul
    # Regret's printed life (3) is the first level
    life = effects.filter(pl.col("factor") == "rules.leader_extra_life")
    assert set(life["base"]) == {"1"} and set(life["level"]) == {"2"}
    assert set(life["others"]) == {
        'characters."Paul Regret".life = 3',
        'characters."Paul Regret".life = 5',
    }
    # the leader side's change at the base of the other factor, recomputed by hand
    label = "classic/5p/smart/leader_extra_life={}/Paul Regret.life=3"
    d = (winners(two_factor_run, label.format(2)) == "leader").astype(float) - (
        winners(two_factor_run, label.format(1)) == "leader"
    ).astype(float)
    row = life.filter(
        pl.col("others") == 'characters."Paul Regret".life = 3', pl.col("subject") == "leader"
    ).row(0, named=True)
    assert row["games"] == GAMES
    assert row["change"] == pytest.approx(d.mean())
    half = 1.959964 * d.std(ddof=1) / np.sqrt(GAMES)
    assert row["lower"] == pytest.approx(d.mean() - half, abs=1e-4)
    assert row["change"] == pytest.approx(row["rate"] - row["base_rate"])
    # a character override is also measured on the character it touches
    regret = effects.filter(pl.col("factor") == 'characters."Paul Regret".life')
    assert set(regret["subject"]) == {"leader", "outlaw", "renegade", "Paul Regret"}
    assert set(life["subject"]) == {"leader", "outlaw", "renegade"}
    # the interaction is the four cells' difference of differences, game by game
    inter = tables["interactions"].filter(pl.col("subject") == "outlaw").row(0, named=True)
    cell = {
        (x, y): (winners(two_factor_run, f"classic/5p/smart/leader_extra_life={x}/Paul Regret.life={y}") == "outlaw").astype(float)
        for x in (1, 2)
        for y in (3, 5)
    }  # fmt: skip
    i = cell[2, 5] - cell[2, 3] - cell[1, 5] + cell[1, 3]
    assert inter["interaction"] == pytest.approx(i.mean())
    assert inter["levels"] == 'rules.leader_extra_life = 2, characters."Paul Regret".life = 5'


def test_the_report_opens_with_effects_and_the_verdict(two_factor_run, tmp_path):
    report = load_report(two_factor_run)
    assert {"effects", "interactions"} <= set(report.tables)
    html = write_report(report, tmp_path / "page").read_text()
    assert html.index('id="verdict"') < html.index('id="effects"') < html.index('id="summary"')
    assert "Do the effects add up?" in html
    result = CliRunner().invoke(app, ["report", str(two_factor_run), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "Effects of the changes" in result.stdout
    assert 'interaction rules.leader_extra_life × characters."Paul Regret".life' in result.stdout


def test_a_run_without_overrides_has_no_effects(tmp_path):
    out = tmp_path / "plain"
    result = CliRunner().invoke(
        app, ["run", "--games", "60", "--out", str(out), "--no-progress", "--strategy", "basic"]
    )
    assert result.exit_code == 0, result.output
    assert override_effects(out, json.loads((out / MANIFEST).read_text())) == {}
    assert "effects" not in load_report(out).tables
    # run says how to get its report, and gives the verdict
    assert f"report: bangsim report {out}" in result.stdout
    assert re.search(r"BANG!, 5 players: under basic play ", result.stdout)


# --- the verdict --------------------------------------------------------------------------


def sides(rows: list[tuple[str, str, float, float, float]]) -> pl.DataFrame:
    """Side rows (config, side, rate, lower, upper) at 5 players of classic."""
    frame = pl.DataFrame(
        rows, schema=["config", "side", "rate", "lower", "upper"], orient="row"
    ).with_columns(
        pl.lit("classic").alias("theme"), pl.lit(5, dtype=pl.UInt8).alias("players"),
        pl.lit(1 / 3).alias("even_share"),
    )  # fmt: skip
    return frame.with_columns((pl.col("rate") - pl.col("even_share")).alias("vs_even"))


NAMES = Names({"classic": {"leader": "Sheriff", "deputy": "Deputy", "outlaw": "Outlaw",
                           "renegade": "Renegade"}}, {"classic": "BANG!"})  # fmt: skip
LEVELS = sides(
    [
        ("classic/5p/smart", "leader", 0.738, 0.734, 0.742),
        ("classic/5p/smart", "outlaw", 0.15, 0.146, 0.154),
        ("classic/5p/smart", "renegade", 0.11, 0.107, 0.113),
        ("classic/5p/tuned", "leader", 0.553, 0.549, 0.557),
        ("classic/5p/tuned", "outlaw", 0.30, 0.296, 0.304),
        ("classic/5p/tuned", "renegade", 0.147, 0.144, 0.150),
    ]
)


def test_the_verdict_reads_from_the_strongest_level_present():
    configs = [
        {"label": "classic/5p/smart", "theme": "classic", "players": 5, "strategy": "smart"},
        {"label": "classic/5p/tuned", "theme": "classic", "players": 5, "strategy": "tuned"},
    ]
    (line,) = verdict_lines(configs, LEVELS, NAMES)
    assert line == (
        "BANG!, 5 players: under tuned play the Sheriff's side is favoured: 55.3% [54.9%, 55.7%] "
        "against an even 33.3%; under smart 73.8%."
    )
    # without a manifest, the labels say the level
    assert verdict_lines([], LEVELS, NAMES) == [line]
    star_wars = Names({"star_wars": {"leader": "Darth Vader"}}, {})
    assert side_phrase("leader", "star_wars", star_wars) == "Darth Vader's side"
    walking = Names({"walking_dead": {"leader": "Survivors' Leader"}}, {})
    assert side_phrase("leader", "walking_dead", walking) == "the Survivors' Leader's side"
    assert side_phrase("outlaw", "classic", NAMES) == "the Outlaws"
    assert strength("tuned") > strength("smart") > strength("basic") > strength("random")
    assert strength("search:strong") > strength("strong") > strength("search:tuned")
    assert strength("leader=tuned,deputy=tuned,outlaw=random,renegade=tuned") == 0
    # a searching seat ranks above its base, with or without settings on its spec
    assert strength("search:tuned") == strength("search@budget=32@z=2:tuned") == 3.5
    assert strength("leader=tuned,deputy=tuned,outlaw=tuned,renegade=search@budget=8:smart") == 2.5


def test_no_side_is_favoured_within_noise_and_targets_replace_even():
    close = sides(
        [
            ("classic/5p/tuned", "leader", 0.40, 0.30, 0.50),
            ("classic/5p/tuned", "outlaw", 0.40, 0.30, 0.50),
            ("classic/5p/tuned", "renegade", 0.20, 0.12, 0.28),
        ]
    )
    (line,) = verdict_lines([], close, NAMES)
    assert "no side is clearly favoured" in line and "against an even 33.3%" in line
    targets = parse_targets("40,40,20")
    assert targets.at(5) == {"leader": 0.4, "outlaw": 0.4, "renegade": 0.2}
    assert parse_targets("0.4,0.4,0.2").at(7) == targets.at(5)
    measured = with_targets(LEVELS, targets)
    assert measured.filter(pl.col("side") == "renegade")["even_share"].to_list() == [0.2, 0.2]
    (line,) = verdict_lines([], measured, NAMES, targets)
    assert "against your target 40.0%" in line
    # a balance file's targets, per player count
    shipped = parse_targets("classic_5p")
    assert shipped.at(5) == {"leader": 0.425, "outlaw": 0.425, "renegade": 0.15}
    assert shipped.at(4) is None
    for bad in ("40,40", "50,50,50", "x,y,z"):
        with pytest.raises(TargetsError):
            parse_targets(bad)


def test_report_targets_colour_the_grid_against_them(two_factor_run, tmp_path):
    result = CliRunner().invoke(
        app, ["report", str(two_factor_run), "--out", str(tmp_path / "r"), "--targets", "40,40,20"]
    )
    assert result.exit_code == 0, result.output
    assert "your targets: L+D 40.0%, Out 40.0%, Ren 20.0%" in result.stdout
    assert "against your target" in result.stdout
    # the summary's largest gap is measured from the targets too
    plain = load_report(two_factor_run).tables["summary"]
    targeted = load_report(two_factor_run, parse_targets("40,40,20")).tables["summary"]
    sides = load_report(two_factor_run).tables["sides"].filter(pl.col("side") == "renegade")
    gap = (sides["rate"] - 0.2).abs().max()
    assert targeted["side_gap"].max() >= gap - 1e-12
    assert not plain["side_gap"].equals(targeted["side_gap"])
    html = (tmp_path / "r" / "index.html").read_text()
    assert "The reference is your targets (40,40,20)" in html
    glance = html[html.index('id="glance"') : html.index('id="verdict"')]
    assert "The reference is your targets: L+D 40.0%" in glance and "Even is" not in glance
    page = next((tmp_path / "r").glob("config-*.html")).read_text()
    assert "against your targets, 40,40,20" in page and "against your target 40.0%" in page


# --- in a notebook --------------------------------------------------------------------------


def test_the_readme_notebook_lines_give_every_table(two_factor_run, monkeypatch):
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- notebook:.*?-->\n```python\n(.*?)```", readme, re.S).group(1)
    assert len(block.strip().splitlines()) <= 6  # five lines of code and a blank
    folder = two_factor_run.parent / "runs"
    folder.mkdir(exist_ok=True)
    if not (folder / "default").exists():
        (folder / "default").symlink_to(two_factor_run)
    monkeypatch.chdir(two_factor_run.parent)
    scope: dict = {}
    exec(block, scope)
    tables = scope["tables"]
    assert {"summary", "sides", "characters", "effects", "interactions", "verdict"} <= set(tables)
    assert all(isinstance(t, pl.DataFrame) for t in tables.values())
    assert tables["sides"].height == 4 * 3  # four cells, three sides
    assert simcore.report_tables(two_factor_run)["effects"].equals(tables["effects"])


def test_a_strategy_named_by_its_file_path_stays_one_part_of_the_label():
    """A --strategy spec that names a presets file by its path (a band's end preset) keeps
    its "/"s in the configuration label; the verdict line reads it back as the strategy,
    not as a pool or overrides."""
    spec = f"{Path(simcore.__file__).parent.parent}/strategies/tuned/classic.toml:tuned"
    label = config_label("classic", 5, strategy_label(f"renegade={spec}"), ["Jourdonnais"])
    parts = split_label(label)
    assert (parts.theme, parts.players, parts.extras) == ("classic", "5p", ["pool:Jourdonnais"])
    assert f"renegade={spec}" in parts.strategy and parts.strategy.startswith("leader=")
    assert split_label("classic/5p/tuned") == ("classic", "5p", "tuned", [])
    plain = LEVELS.filter(pl.col("config") == "classic/5p/tuned")
    (line,) = verdict_lines(
        [], plain.with_columns(pl.lit(f"classic/5p/{spec}").alias("config")), NAMES
    )
    assert line.startswith(f"BANG!, 5 players: under {spec} play the Sheriff's side")
