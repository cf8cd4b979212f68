"""`bangsim` CLI: bad input gives one line on stderr, exit code 2, and writes nothing."""

import json

import pytest
from typer.testing import CliRunner

from simcore.cli import app
from simcore.cli.options import parse_characters, parse_players
from simcore.runs.runfolder import MANIFEST, plan_study

runner = CliRunner()


def run_cli(*args):
    return runner.invoke(app, ["run", *args])


def assert_bad_input(result, *fragments):
    """One line on stderr, `error: ...` naming every fragment, exit 2, nothing on stdout."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--theme", "nosuchtheme"], ["unknown theme 'nosuchtheme'", "classic"]),
        (["--theme", "missing/dir/theme.toml"], ["theme file not found"]),
        (["--players", "9"], ["between 4 and 7, got 9"]),
        (["--players", "3-5"], ["between 4 and 7, got 3"]),
        (["--players", "4-x"], ["--players"]),
        (["--players", "6-4"], ["empty range"]),
        (["--players", ""], ["--players"]),
        (
            ["--characters", "Bart Casidy,Jourdonnais"],
            ["Bart Casidy", "did you mean 'Bart Cassidy'"],
        ),
        (["--characters", " , "], ["--characters"]),
        (["--characters", "Jourdonnais,Jourdonnais"], ["more than once"]),
        (["--games", "0"], ["games must be a positive integer"]),
        (["--games", "-5"], ["games must be a positive integer"]),
        (["--chunk-size", "0"], ["chunk size"]),
        (["--seed", "-1"], ["seed"]),
        (["--threads", "0"], ["--threads"]),
        (["--threads", "100000"], ["--threads"]),
    ],
)
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, args, fragments):
    out = tmp_path / "runs" / "x"
    result = run_cli("--out", str(out), *args)
    assert_bad_input(result, *fragments)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(
    ("strategy", "fragment"),
    [("nosuchbot", "unknown strategy 'nosuchbot'"), ("sheriff=basic", "unknown role 'sheriff'")],
)
def test_unknown_strategy_exits_2_and_writes_nothing(tmp_path, strategy, fragment):
    out = tmp_path / "x"
    result = run_cli("--out", str(out), "--strategy", strategy, "--games", "10")
    assert_bad_input(result, fragment)
    assert not out.exists()


def test_pool_smaller_than_table_exits_2(tmp_path):
    result = run_cli(
        "--out",
        str(tmp_path / "x"),
        "--players",
        "4-5",
        "--characters",
        "Jourdonnais,Black Jack,El Gringo,Jesse Jones",
    )
    assert_bad_input(result, "too small for 5 players")
    assert not (tmp_path / "x").exists()


def test_non_run_folder_is_refused_untouched(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = run_cli("--out", str(tmp_path), "--games", "10")
    assert_bad_input(result, "no manifest.json")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_different_request_on_existing_run_is_refused_untouched(tmp_path):
    # a run folder as `bangsim run --games 10` leaves it (manifest only; no engine needed)
    study = plan_study(tmp_path / "run", "classic", [5], 10, 1)
    study.out.mkdir()
    manifest = {"format": 1, "request": study.request, "chunks_done": []}
    (study.out / MANIFEST).write_text(json.dumps(manifest))
    before = (study.out / MANIFEST).read_text()
    result = run_cli("--out", str(study.out), "--games", "10", "--seed", "2")
    assert_bad_input(result, "different run", "seed: 1 there, 2 asked")
    result = run_cli("--out", str(study.out), "--games", "5")  # fewer games: no growth
    assert_bad_input(result, "different run", "games: 10 there, 5 asked")
    assert (study.out / MANIFEST).read_text() == before
    assert [p.name for p in study.out.iterdir()] == [MANIFEST]


def test_help_teaches():
    result = runner.invoke(app, ["run", "--help"])
    assert result.exit_code == 0
    for text in (
        "--players",
        "4-7",
        "--characters",
        "--chunk-size",
        "--no-progress",
        "bangsim run",
    ):
        assert text in result.output
    top = runner.invoke(app, ["--help"])
    assert top.exit_code == 0 and "run" in top.output


@pytest.mark.parametrize(
    ("text", "counts"),
    [("5", [5]), ("4-7", [4, 5, 6, 7]), ("4,6", [4, 6]), (" 4 - 5 , 7 ", [4, 5, 7]), ("5,5", [5])],
)
def test_parse_players(text, counts):
    assert parse_players(text) == counts


def test_parse_characters():
    assert parse_characters(None) is None
    assert parse_characters(" Bart Cassidy , Jourdonnais,") == ["Bart Cassidy", "Jourdonnais"]
