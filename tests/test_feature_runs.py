"""--feature through the API, `bangsim run`, experiments and the report: the `featured` seat
column, labels, the manifest, resume, and the featured-character table."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import simcore
from reports.aggregate import featured_effects
from simcore.cli import app
from simcore.engine.rows import SEAT_SCHEMA
from simcore.runs.cells import cells_of, scan_seats
from simcore.runs.experiment import plan_experiment, run_experiment
from simcore.runs.runfolder import MANIFEST, SEATS, check_chunk_files, read_manifest
from simcore.stats import newcombe_exprs, two_proportion_p_expr

runner = CliRunner()
WILLY = "Willy the Kid"


def one_featured_seat_per_game(rows: pl.DataFrame, character: str) -> pl.DataFrame:
    """The featured rows, after checking: one per game, always `character`, nobody else."""
    per_game = rows.group_by("config", "game").agg(pl.col("featured").sum())
    assert (per_game["featured"] == 1).all()
    featured = rows.filter(pl.col("featured"))
    assert set(featured["character"]) == {character}
    assert rows.filter(pl.col("character") == character)["featured"].all()
    return featured


def test_api_feature_rows_and_label():
    rows = simcore.simulate("classic", players=[4, 5], games=300, seed=2, feature=WILLY)
    assert set(rows["config"]) == {f"classic/{n}p/tuned/feature={WILLY}" for n in (4, 5)}
    featured = one_featured_seat_per_game(rows, WILLY)
    assert featured["seat"].n_unique() == 5 and featured["role"].n_unique() == 4
    plain = simcore.simulate("classic", players=5, games=50, seed=2)
    assert not plain["featured"].any() and plain["config"][0] == "classic/5p/tuned"


def test_api_feature_role_is_canonical_in_the_label():
    rows = simcore.simulate("classic", players=6, games=200, seed=3, feature=f"{WILLY} = Outlaw")
    assert rows["config"][0] == f"classic/6p/tuned/feature={WILLY}=outlaw"
    featured = one_featured_seat_per_game(rows, WILLY)
    assert set(featured["role"]) == {"outlaw"} and featured["seat"].n_unique() > 1


def test_api_bad_feature_is_one_line():
    with pytest.raises(ValueError, match="unknown character 'Willy'") as err:
        simcore.simulate("classic", players=5, games=10, feature="Willy")
    assert "\n" not in str(err.value) and "Bart Cassidy" in str(err.value)


def run(*args) -> object:
    return runner.invoke(app, ["run", "--no-progress", *map(str, args)])


def test_run_records_the_feature_and_resumes_with_it(tmp_path):
    out = tmp_path / "r"
    args = ["--players", "5", "--games", "30", "--chunk-size", "10", "--out", out]
    result = run(*args, "--feature", f"{WILLY}=renegade")
    assert result.exit_code == 0, result.output
    assert f"featured {WILLY}, always Renegade" in result.stdout
    manifest = read_manifest(out)
    assert manifest["request"]["feature"] == f"{WILLY}=renegade"
    assert manifest["configs"][0]["feature"] == f"{WILLY}=renegade"
    label = f"classic/5p/tuned/feature={WILLY}=renegade"  # run's default strategy
    assert manifest["configs"][0]["label"] == label
    rows = pl.read_parquet(out / SEATS / "*.parquet").sort("game", "seat")
    featured = one_featured_seat_per_game(rows, WILLY)
    assert set(featured["role"]) == {"renegade"} and set(rows["config"]) == {label}
    # lose the last chunk: the same command plays it again, with the feature
    last = out / manifest["chunks_done"][-1]["file"]
    last.unlink()
    result = run(*args, "--feature", f"{WILLY}=Renegade")  # the theme's name: same request
    assert result.exit_code == 0, result.output
    assert "played 10 of 30 games" in result.stdout
    assert pl.read_parquet(out / SEATS / "*.parquet").sort("game", "seat").equals(rows)
    # another feature (or none) is another run
    for other in (["--feature", WILLY], []):
        result = run(*args, *other)
        assert result.exit_code == 2 and "holds a different run (feature:" in result.stderr


def test_run_without_feature_keeps_the_old_request(tmp_path):
    result = run("--players", "4", "--games", "5", "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    assert "feature" not in read_manifest(tmp_path / "r")["request"]  # old folders resume


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text("[experiment]\ngames = 40\nchunk_size = 25\n" + text, encoding="utf-8")
    return path


def test_experiment_feature_axis(tmp_path):
    source = write(tmp_path, f'[grid]\nplayers = [5]\nfeature = ["{WILLY}", "Jourdonnais=outlaw"]')
    plan = plan_experiment(source, tmp_path / "e")
    labels = [cell.label for cell in plan.cells]
    assert labels == [
        f"classic/5p/tuned/feature={WILLY}",
        "classic/5p/tuned/feature=Jourdonnais=outlaw",
    ]
    assert plan.request["feature"] == [WILLY, "Jourdonnais=outlaw"]
    run_experiment(source, tmp_path / "e", progress=False)
    rows = pl.read_parquet(tmp_path / "e" / SEATS / "*.parquet")
    manifest = json.loads((tmp_path / "e" / MANIFEST).read_text())
    assert [c["feature"] for c in manifest["configs"]] == [WILLY, "Jourdonnais=outlaw"]
    one_featured_seat_per_game(rows.filter(pl.col("config") == labels[0]), WILLY)
    jourdonnais = one_featured_seat_per_game(
        rows.filter(pl.col("config") == labels[1]), "Jourdonnais"
    )
    assert set(jourdonnais["role"]) == {"outlaw"}
    # a cell's rows are simulate's for the same feature
    api = simcore.simulate("classic", 5, 40, seed=1, feature=WILLY)
    cell = rows.filter(pl.col("config") == labels[0]).sort("game", "seat")
    assert cell.equals(api)


def test_experiment_feature_override_and_bad_values(tmp_path):
    source = write(tmp_path, "[grid]\nplayers = [4, 5]")
    plan = plan_experiment(source, tmp_path / "e", feature="El Gringo")
    assert [c.label for c in plan.cells] == [
        "classic/4p/tuned/feature=El Gringo", "classic/5p/tuned/feature=El Gringo"
    ]  # fmt: skip
    assert "feature" not in plan_experiment(source, tmp_path / "f").request
    for text, message in [
        ("feature = 3", "grid.feature: expected character names"),
        ('feature = ["El Gringo", "El Gringo"]', "listed twice"),
        ('feature = "El Gringo=deputy"', "grid.feature: no deputy at 4 players"),
    ]:
        with pytest.raises(ValueError, match=message):
            plan_experiment(write(tmp_path, f"[grid]\nplayers = [4, 5]\n{text}"), tmp_path / "g")
    result = runner.invoke(app, ["experiment", str(source), "--feature", "El Gringo",
                                 "--out", str(tmp_path / "h"), "--no-progress", "--no-report"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "feature=El Gringo" in read_manifest(tmp_path / "h")["configs"][0]["label"]


# --- the report's featured table --------------------------------------------------------------

SEATS_5P = ("leader", "renegade", "outlaw", "outlaw", "deputy")
SIDE = {"leader": "leader", "deputy": "leader", "outlaw": "outlaw", "renegade": "renegade"}


def seat_rows(games: list[tuple[int, str]], config="classic/5p/smart/feature=F") -> pl.DataFrame:
    """5-player games, each (featured seat, winning side); the featured seat plays 'F'."""
    rows = []
    for g, (featured, winner) in enumerate(games):
        for seat, role in enumerate(SEATS_5P):
            won = SIDE[role] == winner
            rows.append({
                "config": config, "theme": "classic", "players": 5, "game": g, "seat": seat,
                "role": role, "character": "F" if seat == featured else f"C{seat}",
                "strategy": "smart", "won": won, "survived": won, "winner": winner,
                "turns": 20, "rounds": 4, "capped": False, "featured": seat == featured,
            })  # fmt: skip
    return pl.DataFrame(rows, schema=SEAT_SCHEMA)


def test_featured_table_compares_with_the_other_games_of_the_role():
    # F is an outlaw in games 0-3 (outlaws win 0, 1, 2), the leader in 4-5 (wins 4), the
    # renegade in 6 (loses); the outlaws also win 5 and 6
    games = [(2, "outlaw"), (3, "outlaw"), (2, "outlaw"), (3, "leader"),
             (0, "leader"), (0, "outlaw"), (1, "outlaw")]  # fmt: skip
    seats = seat_rows(games).lazy()
    table = featured_effects(cells_of(seats)).collect()
    assert table["role"].to_list() == ["leader", "outlaw", "renegade"]  # roles it was dealt
    outlaw = table.row(1, named=True)
    assert (outlaw["character"], outlaw["games"], outlaw["wins"]) == ("F", 4, 3)
    # other games: 4, 5, 6, outlaws won 5 and 6 (teammates in games 0-3 are left out)
    assert (outlaw["other_games"], outlaw["other_wins"]) == (3, 2)
    assert outlaw["difference"] == pytest.approx(3 / 4 - 2 / 3)
    lower, upper = newcombe_exprs(pl.lit(3), pl.lit(4), pl.lit(2), pl.lit(3))
    p_value = two_proportion_p_expr(pl.lit(3), pl.lit(4), pl.lit(2), pl.lit(3))
    expected = pl.select(lower.alias("l"), upper.alias("u"), p_value.alias("p")).row(0)
    got = (outlaw["diff_lower"], outlaw["diff_upper"], outlaw["p_value"])
    assert got == pytest.approx(expected)
    leader = table.row(0, named=True)
    assert (leader["games"], leader["wins"], leader["other_games"], leader["other_wins"]) == (
        2, 1, 5, 1,
    )  # fmt: skip
    p = sorted(table["p_value"].to_list())
    assert max(table["p_adjusted"]) == pytest.approx(
        max(min(1, (3 - i) * q) for i, q in enumerate(p))
    )
    plain = seat_rows(games).with_columns(featured=False).lazy()
    assert featured_effects(cells_of(plain)).collect().height == 0


def test_fixed_role_has_no_other_games():
    seats = seat_rows([(2, "outlaw"), (3, "leader")]).lazy()
    row = featured_effects(cells_of(seats)).collect().row(0, named=True)
    assert (row["role"], row["games"], row["other_games"]) == ("outlaw", 2, 0)
    assert math.isnan(row["difference"]) and math.isnan(row["p_value"])


def test_old_run_folders_without_the_column_still_report(tmp_path):
    """Chunks written before `featured` existed read as no feature, even beside new ones."""
    out = tmp_path / "old"
    result = run("--players", "4", "--games", "20", "--chunk-size", "10", "--out", out)
    assert result.exit_code == 0, result.output
    files = sorted((out / SEATS).glob("*.parquet"))
    pl.read_parquet(files[0]).drop("featured").write_parquet(files[0])
    check_chunk_files(out, read_manifest(out), listed_only=False)  # not damaged
    seats = scan_seats(out).collect()
    assert seats.height == 80 and seats["featured"].dtype == pl.Boolean
    assert not seats["featured"].any()
    for f in files[1:]:
        pl.read_parquet(f).drop("featured").write_parquet(f)
    assert not scan_seats(out).collect()["featured"].any()
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert not any('id="featured"' in p.read_text() for p in (out / "report").glob("*.html"))


def test_report_shows_the_featured_character(tmp_path):
    out = tmp_path / "r"
    result = run("--players", "5", "--games", "400", "--out", out, "--feature", WILLY)
    assert result.exit_code == 0, result.output
    assert f"featured {WILLY} vs the rest of its role: Sheriff" in result.stdout
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert f"featured {WILLY} vs the rest of its role" in result.stdout
    [page] = (out / "report").glob("config-*.html")  # on the configuration's page
    html = page.read_text()
    assert 'id="featured"' in html and "role's win rate there" in html
    result = runner.invoke(
        app, ["report", str(out), "--format", "csv", "--out", str(tmp_path / "t")]
    )
    featured = pl.read_csv(tmp_path / "t" / "featured.csv")
    assert featured["role"].to_list() == ["leader", "deputy", "outlaw", "renegade"]
    assert (featured["games"] + featured["other_games"] == 400).all()
