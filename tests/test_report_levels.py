"""The report's strategy levels: configurations that differ only in the bots' strategy."""

import polars as pl
from typer.testing import CliRunner

from reports.levels import strategy_levels
from simcore.cli import app

EXPERIMENT = """
[experiment]
title = "levels"
games = 3000
seed = 1

[grid]
themes = ["classic"]
players = "5"
strategies = ["random", "smart", "tuned"]
"""


def test_levels_side_by_side_with_their_flags(tmp_path):
    path = tmp_path / "levels.toml"
    path.write_text(EXPERIMENT)
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["experiment", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = (out / "report" / "index.html").read_text()
    assert 'id="levels"' in page and "classic, 5 players" in page
    # random bots hand the game to the outlaws, smart and tuned to the leader's side
    assert "the leading side changes with the level" in page
    # the configuration charts are drawn for the strongest level; the others link there
    report = out / "report"
    assert {p.name for p in report.glob("seats-*.png")} == {"seats-classic_5p_tuned.png"}
    smart = (report / "config-classic_5p_smart.html").read_text()
    assert "seats-classic" not in smart and 'href="config-classic_5p_tuned.html"' in smart
    assert "Example games are traced for the strongest" in smart and "Game 0:" not in smart
    tuned = (report / "config-classic_5p_tuned.html").read_text()
    assert "seats-classic_5p_tuned.png" in tuned and "drawn for the strongest" not in tuned
    # the heat table of characters is no chart: every level's page has its own
    assert smart.count('class="grid heat"') == tuned.count('class="grid heat"') == 1
    assert "Example games" in tuned and "traced for the strongest" not in tuned


def side_rows(config: str, rates: dict[str, tuple[float, float, float]]) -> list[dict]:
    return [
        {"config": config, "side": s, "rate": r, "lower": lo, "upper": hi, "even_share": 1 / 3}
        for s, (r, lo, hi) in rates.items()
    ]


def test_flags_only_what_changes():
    configs = [
        {"label": "a/5p/x", "theme": "a", "players": 5, "strategy": "x"},
        {"label": "a/5p/y", "theme": "a", "players": 5, "strategy": "y"},
        {"label": "a/4p/x", "theme": "a", "players": 4, "strategy": "x"},  # alone: no group
    ]
    sides = pl.DataFrame(
        side_rows("a/5p/x", {"leader": (0.6, 0.55, 0.65), "outlaw": (0.3, 0.25, 0.35)})
        + side_rows("a/5p/y", {"leader": (0.5, 0.45, 0.55), "outlaw": (0.36, 0.31, 0.41)})
    )
    chars = pl.DataFrame(
        {
            "config": ["a/5p/x", "a/5p/x", "a/5p/y", "a/5p/y"],
            "character": ["P", "Q", "P", "Q"],
            "effect": [0.05, -0.05, 0.02, -0.01],
            "significant": [True, False, True, False],
        }
    )
    (group,) = strategy_levels(configs, sides, chars)
    assert [lv["strategy"] for lv in group.levels] == ["x", "y"]
    # the leader's side leads and is above even at both levels, the outlaws within luck at
    # both, P strongest (and stronger beyond luck) at both, Q within luck at both
    assert group.flags == []
    sides = pl.DataFrame(
        side_rows("a/5p/x", {"leader": (0.6, 0.55, 0.65), "outlaw": (0.3, 0.25, 0.35)})
        + side_rows("a/5p/y", {"leader": (0.2, 0.15, 0.25), "outlaw": (0.4, 0.35, 0.45)})
    )
    chars = chars.with_columns(significant=pl.Series([True, False, False, False]))
    (group,) = strategy_levels(configs, sides, chars)
    assert any("leading side changes" in f for f in group.flags)
    assert "the leader side is above even with x and below even with y" in group.flags
    assert "the outlaw side is within luck with x and above even with y" in group.flags
    assert "1 character verdict changes with the level: P (x stronger, y within luck)" in (
        group.flags
    )
