"""The tournament: each preset in each role against a field of the default preset."""

from typer.testing import CliRunner

from simcore.cli import app
from simcore.studies.tournament import tournament


def test_tournament_table_and_the_floor():
    """One row per (role, preset); the uniform-random floor loses to `smart` in every role
    (margins of tens of points, far outside the intervals even at 1,500 games)."""
    table = tournament("classic", 5, 1_500, 2, ["random", "smart"])
    assert table.columns == ["role", "preset", "games", "wins", "rate", "lower", "upper"]
    assert table.height == 8
    for role in ("leader", "deputy", "outlaw", "renegade"):
        rows = {r["preset"]: r for r in table.filter(table["role"] == role).iter_rows(named=True)}
        assert rows["random"]["upper"] < rows["smart"]["lower"], role
        assert rows["random"]["lower"] <= rows["random"]["rate"] <= rows["random"]["upper"]


def test_tournament_cli_bad_input_is_one_line():
    runner = CliRunner()
    for args, message in (
        (["--players", "9"], "not 9"),
        (["--presets", "smrt"], "unknown strategy 'smrt'"),
        (["--field", "nosuch"], "unknown strategy 'nosuch'"),
        (["--games", "0"], "at least 1"),
    ):
        result = runner.invoke(app, ["tournament", *args])
        assert result.exit_code == 2, args
        assert message in result.output, (args, result.output)
