"""A variant plays its parent's bots and says so; a run grows and names what changed.

`themes export --id` records the shipped theme a variant comes from ([theme] parent), whose
`tuned` values its tuned seats play (Theme.plays_as); `compare` names the values each side
played when they differ; a per-role spec fills the roles it leaves out with the reference
level; a larger --games adds games to a run folder; a changed theme file is named by what
changed; a progress bar on a non-terminal writes lines."""

import io
import json

import numpy as np
import polars as pl
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.progress import LogLines, progress_bar
from simcore.runs.runfolder import MANIFEST, RunFolderError, plan_study
from strategies.presets import DEFAULT_PRESET, resolve_strategy, values_source

runner = CliRunner()


def export(tmp_path, theme: str, new_id: str):
    path = tmp_path / f"{new_id}.toml"
    result = runner.invoke(app, ["themes", "export", theme, "--id", new_id, "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_an_exported_variant_plays_its_parents_tuned_values(tmp_path):
    path = export(tmp_path, "walking_dead", "wd_house")
    variant = load_theme(path)
    assert variant.parent == "walking_dead" and variant.plays_as == "walking_dead"
    assert variant.title == "BANG! The Walking Dead (wd_house)"  # its verdict line's name
    assert values_source("tuned", variant.plays_as) == "walking_dead"
    mine = resolve_strategy("tuned", 5, variant.plays_as).matrix
    assert np.array_equal(mine, resolve_strategy("tuned", 5, "walking_dead").matrix)
    assert not np.array_equal(mine, resolve_strategy("tuned", 5, "classic").matrix)
    # without the parent line it has no values of its own: classic's, as before
    orphan = tmp_path / "orphan.toml"
    orphan.write_text(path.read_text().replace('parent = "walking_dead"\n', ""))
    assert values_source("tuned", load_theme(orphan).plays_as) == "classic"
    assert values_source("smart", variant.plays_as) is None  # smart is the same everywhere


def test_a_parent_must_be_a_shipped_theme(tmp_path):
    path = export(tmp_path, "classic", "mine")
    path.write_text(path.read_text().replace('parent = "classic"', 'parent = "clasic"'))
    result = runner.invoke(app, ["themes", "show", str(path)])
    assert result.exit_code == 2 and "theme.parent" in result.stderr and "clasic" in result.stderr


def test_a_per_role_spec_fills_the_other_roles_with_the_reference_level():
    assert DEFAULT_PRESET == "tuned"
    strategy = resolve_strategy("renegade=search:tuned", 5, "classic", names_only=True)
    assert strategy.by_role == ("tuned", "tuned", "tuned", "search:tuned")


def test_compare_names_the_values_each_side_played(tmp_path):
    path = export(tmp_path, "walking_dead", "wd_house")
    orphan = tmp_path / "orphan.toml"
    orphan.write_text(path.read_text().replace('parent = "walking_dead"\n', ""))
    for name, theme in (("wd", "walking_dead"), ("house", str(path)), ("orphan", str(orphan))):
        args = ["run", "--theme", theme, "--players", "5", "--games", "40", "--no-progress"]
        result = runner.invoke(app, [*args, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        assert ("no tuned values of its own" in result.stdout) == (name != "wd")
        played = json.loads((tmp_path / name / MANIFEST).read_text())["configs"][0]["played"]
        assert played["roles"] == dict.fromkeys(("leader", "deputy", "outlaw", "renegade"), "tuned")
        assert played["values"] == ("classic" if name == "orphan" else "walking_dead")
    runs = [str(tmp_path / n) for n in ("wd", "house", "orphan")]
    result = runner.invoke(app, ["compare", *runs, "--out", str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    differ = [line for line in result.stdout.splitlines() if "the bots differ" in line]
    assert len(differ) == 1 and differ[0].startswith("orphan vs wd"), result.stdout
    assert "walking_dead's tuned values" in differ[0] and "classic's tuned values" in differ[0]
    assert "The bots differ" in (tmp_path / "cmp" / "index.html").read_text()


def test_more_games_grow_a_run_into_the_run_made_at_once(tmp_path):
    def run(out, games):
        args = ["run", "--players", "4,5", "--strategy", "basic", "--chunk-size", "30"]
        result = runner.invoke(app, [*args, "--games", str(games), "--out", str(out), "--no-progress"])  # fmt: skip
        assert result.exit_code == 0, result.output
        return result.stdout

    run(tmp_path / "grown", 75)
    assert "adding games" in run(tmp_path / "grown", 130)
    run(tmp_path / "once", 130)

    def rows(out, kind):
        return pl.read_parquet(out / kind / "*.parquet").sort(pl.all())

    for kind in ("seats", "events"):
        assert rows(tmp_path / "grown", kind).equals(rows(tmp_path / "once", kind))
    manifest = json.loads((tmp_path / "grown" / MANIFEST).read_text())
    assert manifest["request"]["games"] == 130 and {c["games"] for c in manifest["configs"]} == {
        130
    }
    assert sorted(c["games"] for c in manifest["chunks_done"]) == [10, 10] + [30] * 8
    result = runner.invoke(app, ["run", "--players", "4,5", "--strategy", "basic", "--chunk-size", "30", "--games", "100", "--out", str(tmp_path / "grown")])  # fmt: skip
    assert result.exit_code == 2 and "games: 130 there, 100 asked" in result.stderr


def test_a_changed_theme_is_named_by_what_changed(tmp_path):
    path = export(tmp_path, "classic", "mine")
    plan_study(tmp_path / "run", path, [4], 20, 1, "basic")
    result = runner.invoke(app, ["run", "--theme", str(path), "--players", "4", "--games", "20", "--strategy", "basic", "--out", str(tmp_path / "run"), "--no-progress"])  # fmt: skip
    assert result.exit_code == 0, result.output
    path.write_text(path.read_text().replace('name = "Paul Regret"\nlife = 3', 'name = "Paul Regret"\nlife = 4'))  # fmt: skip
    try:
        plan_study(tmp_path / "run", path, [4], 20, 1, "basic")
    except RunFolderError as e:
        message = str(e)
    else:
        raise AssertionError("a changed theme resumed a run")
    assert "mine.toml changed since this run: character changed: Paul Regret: life 3 → 4" in message
    assert "theme_digests" not in message


def test_progress_on_a_non_terminal_writes_lines(monkeypatch):
    stream = io.StringIO()
    lines = LogLines(stream)
    lines.write("\r  0%|      | 0/100")  # within the first seconds: nothing
    assert stream.getvalue() == ""
    monkeypatch.setattr("simcore.progress.LOG_INTERVAL", 0.0)
    lines.write("\r  1%|      | 1/100")
    lines.write("\r")
    lines.write("\r 50%|###   | 50/100\n")
    assert stream.getvalue() == "1%|      | 1/100\n50%|###   | 50/100\n"
    assert progress_bar(total=3, disable=True).disable  # quiet stays quiet


def test_a_face_a_variant_repeats_beyond_its_parent_warns(tmp_path):
    from simcore.engine.theme import face_warnings

    path = export(tmp_path, "classic", "mine")
    assert face_warnings(load_theme(path)) == []  # the printed deck repeats faces already
    assert face_warnings(load_theme("classic")) == []
    text = path.read_text().replace('copies = ["9C", "QS"]', 'copies = ["9C", "9C"]')
    path.write_text(text)
    [line] = face_warnings(load_theme(path))
    assert line.startswith("face 9C is on 3 cards") and "2 in classic" in line
    result = runner.invoke(app, ["themes", "show", str(path)])
    assert result.exit_code == 0 and "warning: face 9C" in result.stderr
