"""`bangsim experiment`: grid expansion and labels, overrides, validation before writing,
resume, determinism against `simcore.simulate`, and a tiny experiment end to end."""

import json
from pathlib import Path

import polars as pl
import pytest
from test_cli import assert_bad_input
from test_learned import unshipped_theme
from typer.testing import CliRunner

import simcore
from simcore.cli import app
from simcore.engine.theme import THEMES_DIR, shipped_themes
from simcore.runs import runfolder
from simcore.runs.experiment import ExperimentError, plan_experiment, shipped_experiments
from simcore.runs.runfolder import MANIFEST, SEATS
from strategies.presets import strategy_label

runner = CliRunner()
SHIPPED = Path(__file__).resolve().parent.parent / "configs" / "experiments"


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cli(*args: str):
    return runner.invoke(app, ["experiment", *args])


# --- planning: no engine, nothing written --------------------------------------------------


def test_grid_expands_to_every_cell_with_labels(tmp_path):
    source = write(
        tmp_path,
        """
[experiment]
games = 100
[grid]
themes = ["classic", "walking_dead"]
players = "4-5"
strategies = ["smart", {leader = "random"}]
[overrides]
rules.leader_extra_life = [0, 2]
""",
    )
    out = tmp_path / "run"
    plan = plan_experiment(source, out)
    mixed = strategy_label({"leader": "random"})
    expected = {
        f"{theme}/{n}p/{strategy}/leader_extra_life={v}"
        for theme in ("classic", "walking_dead")
        for n in (4, 5)
        for strategy in ("smart", mixed)
        for v in (0, 2)
    }
    assert [c.label for c in plan.cells] == sorted(
        (c.label for c in plan.cells), key=[c.label for c in plan.cells].index
    )
    assert {c.label for c in plan.cells} == expected
    assert "classic/5p/smart/leader_extra_life=2" in expected
    assert len(plan.chunks) == 16 and plan.total_games == 1600
    assert len({c.file for c in plan.chunks}) == 16
    assert not out.exists()


def test_labels_of_pools_and_named_overrides(tmp_path):
    source = write(
        tmp_path,
        """
[grid]
players = [4]
characters = ["all", ["Bart Cassidy", "Jourdonnais", "Calamity Janet", "Kit Carlson"]]
[overrides]
characters."El Gringo".life = [3, 4]
cards."Missed!".extra_copies = [0, 4]
""",
    )
    labels = [c.label for c in plan_experiment(source, tmp_path / "run").cells]
    assert "classic/4p/tuned/El Gringo.life=4/Missed!.extra_copies=4" in labels  # the default level
    pooled = [label for label in labels if "/pool4-" in label]
    assert len(pooled) == 4 and len(labels) == 8


def test_overrides_change_the_compiled_theme(tmp_path):
    source = write(
        tmp_path,
        """
[grid]
players = [5]
[overrides]
rules.leader_extra_life = [2]
characters."El Gringo".life = [5]
cards."Missed!".extra_copies = [2]
cards."Dynamite".extra_copies = [-1]
""",
    )
    (cell,) = plan_experiment(source, tmp_path / "run").cells
    theme = cell.theme
    assert theme.rule_values["leader_extra_life"] == 2
    assert theme.character_lives[theme.character_names.index("El Gringo")] == 5
    missed = [
        f for f, d in zip(theme.card_faces, theme.card_display, strict=True) if d == "Missed!"
    ]
    assert missed[-2:] == missed[:2] and len(missed) == 14
    assert "Dynamite" not in theme.card_names  # its one copy removed: the card leaves the deck
    assert len(theme.card_faces) == 80 + 2 - 1
    base = simcore.engine.theme.load_theme("classic")
    assert base.rule_values["leader_extra_life"] == 1  # the shipped theme is untouched
    assert len(base.card_faces) == 80


def test_theme_paths_are_relative_to_the_experiment_file(tmp_path):
    text = (THEMES_DIR / "classic.toml").read_text()
    text = text.replace('id = "classic"', 'id = "four_to_six"').replace(
        '"7" = ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"]', ""
    )
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "four_to_six.toml").write_text(text)
    source = write(
        tmp_path,
        '[grid]\nthemes = ["classic", "themes/four_to_six.toml"]\nplayers = [6, 7]\n',
    )
    plan = plan_experiment(source, tmp_path / "run")
    assert [c.label for c in plan.cells] == [
        "classic/6p/tuned",
        "classic/7p/tuned",
        "four_to_six/6p/tuned",
    ]
    assert plan.skipped == ["four_to_six/7p"]


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("[overrides]\nrules.leader_extra_lif = [1]", ["unknown rule 'leader_extra_lif'"]),
        ("[overrides]\nrule.leader_extra_life = [1]", ["unknown key 'rule'"]),
        ("[overrides]\nrules.leader_extra_life = [-1]", ["leader_extra_life", "out of range"]),
        (
            '[overrides]\ncharacters."El Gringo".life = [3, "x"]',
            ["El Gringo", "life", "must be an integer"],
        ),
        ('[overrides]\ncards."Mised!".copies = [["2S"]]', ["did you mean 'Missed!'"]),
        ('[overrides]\ncards."Missed!".copies = [["ZZ"]]', ["bad face 'ZZ'"]),
        (
            '[overrides]\ncards."Missed!" = [1]',
            ['expected cards."NAME".FIELD', 'cards."Missed!".copies'],
        ),
        ('[overrides]\ncards."Missed!".extra_copies = [-13]', ["removes more copies"]),
        ("[overrides]\nrules.leader_extra_life = 1", ["must be a list of values"]),
        ("[overrides]\nrules.leader_extra_life = [1, 1]", ["listed twice"]),
        ('[overrides]\ntheme.id = ["x"]', ["theme id cannot be overridden"]),
        ("[grid]\nplayers = [9]", ["between 4 and 7, got 9"]),
        ('[grid]\nthemes = ["nosuchtheme"]', ["unknown theme 'nosuchtheme'"]),
        ('[grid]\nstrategies = ["smrt"]', ["unknown strategy 'smrt'"]),
        ('[grid]\ncharacters = ["Bart Cassidy"]', ["grid.characters", "a list of names"]),
        ('[grid]\ncharacters = [["Bart Casidy"]]', ["did you mean 'Bart Cassidy'"]),
        ("[grid]\nplayer = [5]", ["grid.player", "unknown key"]),
        ("[grid]\nstrategies = [{ games = 5 }]", ["grid.strategies", "names no strategy"]),
        (
            '[grid]\nstrategies = [{ strategy = "tuned", games = 0 }]',
            ["grid.strategies: tuned: games must be a positive integer, got 0"],
        ),
        (
            '[grid]\nstrategies = [{ strategy = "tuned", gmes = 5 }]',
            ["grid.strategies.gmes: unknown key (allowed: strategy, games)"],
        ),
        (
            '[grid]\nstrategies = ["tuned", { strategy = "tuned", games = 5 }]',
            ["listed twice"],
        ),
        ("[experiment]\ngames = 0", ["games must be a positive integer"]),
        ("[results]\nx = 1", ["unknown section 'results'"]),
        ("[grid\n", ["TOML syntax error"]),
    ],
)
def test_bad_experiment_exits_2_with_one_line_and_writes_nothing(tmp_path, text, fragments):
    source = write(tmp_path, text)
    out = tmp_path / "runs" / "x"
    assert_bad_input(cli(str(source), "--out", str(out), "--no-progress"), *fragments)
    assert not (tmp_path / "runs").exists()


def test_a_bad_cell_anywhere_in_the_grid_stops_everything(tmp_path):
    # walking_dead has no character named El Gringo: the grid fails before classic is played
    source = write(
        tmp_path,
        '[grid]\nthemes = ["classic", "walking_dead"]\n'
        '[overrides]\ncharacters."El Gringo".life = [4]\n',
    )
    out = tmp_path / "runs" / "x"
    assert_bad_input(cli(str(source), "--out", str(out)), "walking_dead", "El Gringo")
    assert not out.exists()


def test_a_learned_field_a_table_lacks_stops_the_grid_before_anything_is_played(tmp_path):
    # `strong` ships for classic, not for the parentless theme file house.toml: the grid is
    # refused at planning, where a missing field once surfaced only when its cell was played
    house = unshipped_theme(tmp_path)
    source = write(
        tmp_path,
        f'[grid]\nthemes = ["classic", "{house.name}"]\nstrategies = ["tuned", "strong"]\n',
    )
    out = tmp_path / "runs" / "x"
    assert_bad_input(
        cli(str(source), "--out", str(out), "--no-progress"),
        "grid.strategies: no strong field for house at 5 players",
    )
    assert not out.exists()


def test_missing_experiment_file(tmp_path):
    assert_bad_input(cli(str(tmp_path / "nope.toml"), "--out", str(tmp_path / "x")), "not found")


def test_unknown_experiment_name_lists_the_shipped_ones(tmp_path):
    names = sorted(p.stem for p in SHIPPED.glob("*.toml"))
    assert shipped_experiments() == names
    result = cli("defualt", "--out", str(tmp_path / "x"))
    assert_bad_input(result, f"unknown experiment 'defualt' (shipped: {', '.join(names)}")
    assert not (tmp_path / "x").exists()


def test_a_shipped_experiment_by_name_is_its_file(tmp_path, monkeypatch):
    by_name = plan_experiment("more_missed", tmp_path / "a")
    by_path = plan_experiment(SHIPPED / "more_missed.toml", tmp_path / "b")
    assert by_name.source.samefile(by_path.source)
    assert [c.label for c in by_name.cells] == [c.label for c in by_path.cells]
    assert by_name.request == by_path.request
    # the default folder is named after the experiment; a relative path stays a path
    monkeypatch.chdir(tmp_path)
    assert plan_experiment("more_missed").out == Path("runs") / "more_missed"
    with pytest.raises(ExperimentError, match="experiment file not found"):
        plan_experiment("more_missed.toml")


@pytest.mark.parametrize(
    "name",
    [
        "default.toml",
        "leader_extra_life.toml",
        "more_missed.toml",
        "search_level.toml",
        "strong_level.toml",
    ],
)
def test_shipped_experiments_are_valid(tmp_path, name):
    plan = plan_experiment(SHIPPED / name, tmp_path / "run")
    assert plan.cells and not (tmp_path / "run").exists()


def test_default_experiment_covers_every_shipped_theme_at_4_to_7(tmp_path):
    plan = plan_experiment(SHIPPED / "default.toml", tmp_path / "run")
    played = {(c.theme.id, c.players) for c in plan.cells}
    skipped = {tuple(s.split("/")) for s in plan.skipped}
    for theme in shipped_themes():
        for n in range(4, 8):
            assert (theme, n) in played or (theme, f"{n}p") in skipped


# --- playing -------------------------------------------------------------------------------

TINY = """
[experiment]
games = 120
seed = 7
chunk_size = 50
[grid]
players = [4, 5]
[overrides]
rules.leader_extra_life = [0, 2]
"""


def test_cell_rows_equal_simulate_with_the_same_theme_and_seed(tmp_path):
    source = write(tmp_path, TINY)
    out = tmp_path / "run"
    assert cli(str(source), "--out", str(out), "--no-progress", "--no-report").exit_code == 0
    plan = plan_experiment(source, out)
    for cell in plan.cells:
        got = pl.read_parquet(out / SEATS / f"{cell.stem}-*.parquet").sort("game", "seat")
        assert got["config"].unique().to_list() == [cell.label]
        want = simcore.simulate(cell.theme, cell.players, 120, seed=7, strategy=cell.strategy)
        assert got.drop("config").equals(want.drop("config"))
    zero = next(c for c in plan.cells if c.label == "classic/4p/tuned/leader_extra_life=0")
    two = next(c for c in plan.cells if c.label == "classic/4p/tuned/leader_extra_life=2")
    assert zero.theme.rule_values["leader_extra_life"] == 0
    assert two.theme.rule_values["leader_extra_life"] == 2


def test_resume_plays_only_missing_chunks(tmp_path, monkeypatch):
    source = write(tmp_path, TINY)
    out = tmp_path / "run"
    args = (str(source), "--out", str(out), "--no-progress", "--no-report")
    assert cli(*args).exit_code == 0
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["complete"] and len(manifest["chunks_done"]) == 4 * 3
    assert len(manifest["configs"]) == 4

    played = []
    real = runfolder.play_chunk
    monkeypatch.setattr(runfolder, "play_chunk", lambda e, c: played.append(c.file) or real(e, c))
    result = cli(*args)
    assert result.exit_code == 0 and "already played" in result.stdout and played == []

    lost = out / manifest["chunks_done"][5]["file"]
    before = pl.read_parquet(lost)
    lost.unlink()
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert played == [manifest["chunks_done"][5]["file"]]
    assert pl.read_parquet(lost).equals(before)

    # a different request on the same folder is refused, naming the difference
    assert_bad_input(cli(*args, "--games", "60"), "holds a different run", "games")


def test_tiny_experiment_end_to_end_writes_a_report(tmp_path):
    source = write(tmp_path, TINY.replace("games = 120", "games = 200"))
    out = tmp_path / "run"
    result = cli(str(source), "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    page = out / "report" / "index.html"
    assert page.is_file()
    html = page.read_text()
    assert "classic/5p/tuned/leader_extra_life=2" in html
    assert (out / "report" / "compare-sides.png").is_file()  # the cells side by side
    assert "classic/tuned/leader_extra_life=0" in result.stdout  # a row of the grid
    assert "200 games per cell" in result.stdout
    assert f"report: {page}" in result.stdout
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["request"]["overrides"] == {"rules.leader_extra_life": [0, 2]}
    assert manifest["experiment"]["cells"] == 4


LEVELS = """
[experiment]
games = 40
seed = 3
chunk_size = 30
[grid]
players = [5]
strategies = ["tuned", { strategy = "search@budget=6:tuned", games = 8 }]
"""
SEARCH_LEVEL = "classic/5p/search@budget=6:tuned"


def test_a_strategy_level_plays_its_own_games(tmp_path):
    """A level's own game count plans, plays and records its cells with that many games
    (the others the experiment's); its rows are simulate's; a rerun plays nothing, and
    another count for the level is another request; the report shows each level's games
    and intervals, the searching level's wider, and reads the verdict from it."""
    source = write(tmp_path, LEVELS)
    out = tmp_path / "run"
    plan = plan_experiment(source, out)
    assert {c.label: c.games for c in plan.cells} == {"classic/5p/tuned": 40, SEARCH_LEVEL: 8}
    assert plan.total_games == 48
    assert [(c.label, c.games) for c in plan.chunks] == [
        ("classic/5p/tuned", 30), ("classic/5p/tuned", 10), (SEARCH_LEVEL, 8)
    ]  # fmt: skip
    assert plan.request["strategy_games"] == {"search@budget=6:tuned": 8}
    assert "strategy_games" not in plan_experiment(write(tmp_path, TINY, "t.toml")).request
    result = cli(str(source), "--out", str(out), "--no-progress")
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / MANIFEST).read_text())
    assert {c["label"]: (c["games"], c["chunks"]) for c in manifest["configs"]} == {
        "classic/5p/tuned": (40, 2), SEARCH_LEVEL: (8, 1)
    }  # fmt: skip
    rows = pl.read_parquet(out / SEATS / "*.parquet").filter(pl.col("config") == SEARCH_LEVEL)
    want = simcore.simulate("classic", 5, 8, seed=3, strategy="search@budget=6:tuned")
    assert rows.sort("game", "seat").drop("config").equals(want.drop("config"))
    again = cli(str(source), "--out", str(out), "--no-progress", "--no-report")
    assert again.exit_code == 0 and "already played" in again.stdout
    more = write(tmp_path, LEVELS.replace("games = 8", "games = 9"))
    assert_bad_input(cli(str(more), "--out", str(out), "--no-progress"), "holds a different run")

    from reports.report import load_report, page_context

    (group,) = page_context(load_report(out), {})["levels"]
    by = {lv["strategy"]: lv for lv in group.levels}
    assert by["tuned"]["games"] == 40 and by["search@budget=6:tuned"]["games"] == 8
    for side in ("leader", "outlaw", "renegade"):
        wide = by["search@budget=6:tuned"]["sides"][side]
        narrow = by["tuned"]["sides"][side]
        assert wide["upper"] - wide["lower"] > narrow["upper"] - narrow["lower"]
    page = (out / "report" / "index.html").read_text()
    assert 'id="levels"' in page and "search@budget=6:tuned" in page
    assert "under search@budget=6:tuned play" in result.stdout  # the strongest level
    assert simcore.report_tables(out)["sides"].height == 6


def test_experiment_error_is_a_value_error():
    assert issubclass(ExperimentError, ValueError)
