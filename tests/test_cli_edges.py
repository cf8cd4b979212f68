"""The command line's rough edges, each as behaviour: help rewrapped (no mid-sentence breaks,
no <bool>), `run --help` naming tuned, --version and -h, --games as designers type it,
"did you mean" for --feature, and a reused folder naming every difference."""

import re

import pytest
import typer
from test_cli import assert_bad_input
from typer.testing import CliRunner

from simcore.cli import app
from simcore.cli.options import parse_games
from simcore.engine import limits
from strategies.params import POLICY_VERSION

runner = CliRunner()


def test_help_is_rewrapped_with_no_bool_placeholder():
    result = runner.invoke(app, ["run", "--help"], terminal_width=100)
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "<bool>" not in result.stdout
    # a docstring sentence that the source breaks between "whole" and "95%" reads on one
    # line once rewrapped
    assert any("whole 95% Wilson" in line for line in result.stdout.splitlines())
    assert "tuned (found by search" in text and "[default: tuned]" in text
    assert runner.invoke(app, ["run", "-h"]).stdout == result.stdout or "Usage" in (
        runner.invoke(app, ["run", "-h"]).stdout
    )


def test_version_prints_the_version_and_the_rules_and_policy_versions():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    versions = f"rules version {limits.RULES_VERSION}, policy version {POLICY_VERSION}"
    assert re.fullmatch(rf"bangsim \S+ \({versions}\)\n", result.stdout)
    assert runner.invoke(app, ["-h"]).stdout.startswith("Usage: bangsim")


@pytest.mark.parametrize(
    ("text", "games"),
    [("100000", 100_000), ("100,000", 100_000), ("100_000", 100_000), ("1e5", 100_000),
     ("2.5e3", 2_500), ("1,000,000", 1_000_000)],
)  # fmt: skip
def test_games_read_as_designers_type_them(text, games):
    assert parse_games(text) == games


@pytest.mark.parametrize("text", ["1e-3", "10,00", "1.5", "abc", "1e5x", "-1e5"])
def test_games_that_are_no_number_of_games_are_refused(text):
    with pytest.raises(typer.BadParameter, match="expected a whole number of games"):
        parse_games(text)


def test_feature_suggests_the_name_meant(tmp_path):
    result = runner.invoke(
        app, ["run", "--feature", "Willy The Kid", "--out", str(tmp_path / "x"), "--games", "10"]
    )
    assert_bad_input(result, "did you mean 'Willy the Kid'?")
    result = runner.invoke(
        app, ["run", "--feature", "Nobody At All", "--out", str(tmp_path / "x"), "--games", "10"]
    )
    assert_bad_input(result, "unknown character 'Nobody At All'")
    assert "did you mean" not in result.stderr


def test_a_reused_folder_names_every_difference(tmp_path):
    out = str(tmp_path / "run")
    args = ["run", "--out", out, "--no-progress", "--strategy", "basic"]
    assert runner.invoke(app, [*args, "--games", "20"]).exit_code == 0
    result = runner.invoke(app, [*args[:-1], "random", "--games", "30", "--seed", "2"])
    assert_bad_input(
        result, "games: 20 there, 30 asked", "seed: 1 there, 2 asked", 'strategies: ["basic"] there'
    )
