"""When and how each side wins: the rounds each side wins in (reports.aggregate.win_rounds)
and how games end (reports.events.game_endings), from the seat and event rows."""

import polars as pl
from test_cli import assert_bad_input
from typer.testing import CliRunner

from reports.report import load_report, write_report
from simcore.cli import app

runner = CliRunner()


def test_win_rounds_and_endings_count_every_game(tmp_path):
    run = tmp_path / "run"
    args = ["run", "--players", "4,5", "--games", "150", "--strategy", "basic", "--no-progress"]
    result = runner.invoke(app, [*args, "--out", str(run)])
    assert result.exit_code == 0, result.output
    report = load_report(run)
    rounds, endings = report.tables["win_rounds"], report.tables["endings"]
    lengths = report.tables["game_lengths"]
    for row in lengths.iter_rows(named=True):
        mine = rounds.filter(pl.col("config") == row["config"])
        assert mine["games"].sum() == row["games"] - row["capped"]  # capped: no side won
        for (side,), group in mine.group_by("side"):
            assert abs(group["share"].sum() - 1) < 1e-9, side
        ended = endings.filter(pl.col("config") == row["config"])
        assert ended["games"].sum() == row["games"]
        assert abs(ended["share"].sum() - 1) < 1e-9
        # the outlaws' wins are split by who eliminated the leader (the event files say)
        assert "outlaw" not in set(ended["ending"])
        sides = report.tables["sides"].filter(pl.col("config") == row["config"])
        outlaws = sides.filter(pl.col("side") == "outlaw")["wins"].item()
        split = ended.filter(pl.col("ending").str.starts_with("outlaw_by_"))["games"].sum()
        assert split == outlaws
    page = write_report(report).parent / "config-classic_5p_basic.html"
    text = page.read_text()
    assert "How each side wins" in text and "win-rounds-classic_5p_basic.png" in text
    assert "the Sheriff eliminated by an Outlaw" in text


def test_trace_picks_the_first_game_a_side_won(tmp_path):
    run = tmp_path / "run"
    args = ["run", "--players", "5", "--games", "120", "--strategy", "basic", "--no-progress"]
    assert runner.invoke(app, [*args, "--out", str(run)]).exit_code == 0
    seats = pl.read_parquet(run / "seats" / "*.parquet").filter(pl.col("seat") == 0)
    first = seats.filter(pl.col("winner") == "renegade")["game"].min()
    result = runner.invoke(app, ["trace", str(run), "--winner", "Renegade", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert f'"game": {first}' in result.stdout
    assert_bad_input(runner.invoke(app, ["trace", str(run), "--winner", "sheriffs"]), "--winner")
    assert_bad_input(runner.invoke(app, ["trace", str(run)]), "--game or --winner")
