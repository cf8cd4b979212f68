"""Adaptive precision (`--precision`, docs/precision.md): rounds of the same chunks a fixed run
plays, stopping at the first whole round where every interval is under the target; where it
stops is a pure function of the request (threads, interruption and resume cannot move it)."""

from __future__ import annotations

import json

import numba
import numpy as np
import polars as pl
import pytest
from test_runfolder import interrupt_at_chunk
from typer.testing import CliRunner

from reports.report import load_report, run_metadata, run_warnings
from simcore.cli import app
from simcore.runs import runfolder
from simcore.runs.cells import collect_cells, scan_seats, widest_intervals
from simcore.runs.experiment import run_experiment
from simcore.runs.precision import least_games
from simcore.runs.runfolder import MANIFEST, SEATS, read_manifest, run_study
from simcore.stats import wilson_interval

# 4 and 5 players in chunks of 50: about 400 games each reach ±0.05
RUN = dict(theme="classic", players=[4, 5], games=None, seed=1, chunk_size=50, progress=False,
           strategy="smart")  # fmt: skip
TARGET = 0.05


def rows(out):
    return pl.read_parquet(out / SEATS / "*.parquet").sort("config", "game", "seat")


def widest(out, games: int, characters: bool = False) -> dict[str, float]:
    """Per configuration, the widest half-width over its games 0 .. games - 1."""
    seats = scan_seats(out).filter(pl.col("game") < games)
    table = widest_intervals(collect_cells(seats), characters).collect()
    return dict(zip(table["config"], table["half_width"], strict=True))


@pytest.fixture(scope="module")
def precise(tmp_path_factory):
    """A run to ±0.05 on side win rates, and its manifest."""
    out = run_study(tmp_path_factory.mktemp("precise") / "run", precision=TARGET, **RUN)
    return out, read_manifest(out)


def test_stops_at_the_first_round_under_the_target(precise):
    out, manifest = precise
    entry = manifest["precision"]
    assert entry["finished"] and entry["reached"]
    assert manifest["request"]["precision"] == {"target": TARGET, "characters": False}
    assert manifest["request"]["games"] == 2_000_000  # the default cap
    for config in manifest["configs"]:
        label, games = config["label"], config["games"]
        assert games % 50 == 0 and config["chunks"] == games // 50
        assert entry["configs"][label]["games"] == games
        assert rows(out).filter(pl.col("config") == label)["game"].max() == games - 1
        # under the target on all its games; not yet one round (chunk) earlier
        assert widest(out, games)[label] < TARGET
        assert widest(out, games)[label] == entry["configs"][label]["half_width"]
        assert widest(out, games - 50)[label] >= TARGET
    assert entry["rounds"] == max(c["chunks"] for c in manifest["configs"])
    assert len(manifest["chunks_done"]) == sum(c["chunks"] for c in manifest["configs"])


def test_widest_side_interval_is_wilson(precise):
    """The stopping rule's side intervals are the Wilson intervals of the games' winners."""
    out, manifest = precise
    first = rows(out).filter(pl.col("seat") == 0, pl.col("config") == "classic/4p/smart")
    n = first.height
    halves = {}
    for side in ("leader", "outlaw", "renegade"):
        lo, hi = wilson_interval((first["winner"] == side).sum(), n)
        halves[side] = (hi - lo) / 2
    side = max(halves, key=halves.get)
    entry = manifest["precision"]["configs"]["classic/4p/smart"]
    assert entry["widest"] == f"{side} win rate"
    assert entry["half_width"] == pytest.approx(halves[side], rel=1e-12)


def test_same_games_as_a_fixed_run(precise, tmp_path):
    out, manifest = precise
    for config in manifest["configs"]:
        kw = {**RUN, "players": [config["players"]], "games": config["games"]}
        fixed = rows(run_study(tmp_path / str(config["players"]), **kw))
        assert rows(out).filter(pl.col("config") == config["label"]).equals(fixed)


def test_deterministic_whatever_the_threads(precise, tmp_path):
    out, manifest = precise
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        again = run_study(tmp_path / "one", precision=TARGET, **RUN)
    finally:
        numba.set_num_threads(threads)
    assert rows(again).equals(rows(out))
    assert read_manifest(again)["precision"] == manifest["precision"]


@pytest.mark.parametrize("crash_at", [3, 4])  # the first round's first chunk, its second
def test_resume_after_interruption_stops_at_the_same_place(
    precise, tmp_path, monkeypatch, crash_at
):
    out, manifest = precise
    real = interrupt_at_chunk(monkeypatch, crash_at)
    with pytest.raises(KeyboardInterrupt):
        run_study(tmp_path / "r", precision=TARGET, **RUN)
    partial = read_manifest(tmp_path / "r")
    assert not partial["complete"] and len(partial["chunks_done"]) == crash_at - 1
    monkeypatch.setattr(runfolder, "play_chunk", real)
    resumed = run_study(tmp_path / "r", precision=TARGET, **RUN)
    assert rows(resumed).equals(rows(out))
    assert read_manifest(resumed)["precision"] == manifest["precision"]


def test_characters_in_role_too(tmp_path):
    """A pool of 4 at 4 players: each character holds each role about a quarter of the time."""
    kw = {**RUN, "players": [4], "characters": ["Bart Cassidy", "Black Jack", "Calamity Janet",
                                                "El Gringo"]}  # fmt: skip
    sides = read_manifest(run_study(tmp_path / "sides", precision=0.1, **kw))
    out = run_study(tmp_path / "chars", precision=0.1, precision_characters=True, **kw)
    chars = read_manifest(out)
    label = chars["configs"][0]["label"]
    entry = chars["precision"]["configs"][label]
    assert chars["precision"]["reached"] and " as " in entry["widest"]
    games = entry["games"]
    assert games > sides["precision"]["configs"][label]["games"]
    assert widest(out, games, characters=True)[label] < 0.1
    assert widest(out, games - 50, characters=True)[label] >= 0.1


def test_cap_stops_it_and_says_so(tmp_path):
    out = tmp_path / "capped"
    args = ["run", "--players", "4", "--precision", "0.02", "--games", "120", "--chunk-size",
            "50", "--strategy", "smart", "--out", str(out), "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "precision ±0.02 on side win rates NOT reached in 1 of 1 configuration(s): the cap " \
        "of 120 games stopped them; 120 games in all" in result.stdout  # fmt: skip
    assert "classic/4p/smart: 120 games, widest ±0." in result.stdout
    assert "played 120 games in" in result.stdout
    manifest = read_manifest(out)
    assert manifest["precision"]["finished"] and not manifest["precision"]["reached"]
    assert [c["games"] for c in manifest["configs"]] == [120]
    assert [c["games"] for c in manifest["chunks_done"]] == [50, 50, 20]  # a fixed run's chunks
    report = load_report(out)
    assert any(w.startswith("Precision ±0.02 on side win rates NOT reached") for w in
               run_warnings(report))  # fmt: skip
    assert ("Precision", "precision ±0.02 on side win rates NOT reached in 1 of 1 "
            "configuration(s): the cap of 120 games stopped them; 120 games in all") in \
        run_metadata(report)  # fmt: skip


def test_cli_run_prints_where_it_stopped_and_resumes(precise, tmp_path):
    out, manifest = precise
    args = ["run", "--players", "4-5", "--precision", str(TARGET), "--chunk-size", "50",
            "--strategy", "smart", "--out", str(tmp_path / "cli"), "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    games = sum(c["games"] for c in manifest["configs"])
    rounds = manifest["precision"]["rounds"]
    assert f"precision ±{TARGET} on side win rates reached after {rounds} round(s); " \
        f"{games:,} games in all" in result.stdout  # fmt: skip
    assert f"played {games:,} games in" in result.stdout
    assert rows(tmp_path / "cli").equals(rows(out))
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and f"all {games:,} games were already played" in again.stdout


def test_experiment_with_precision(tmp_path):
    spec = tmp_path / "tiny.toml"
    spec.write_text(
        "[experiment]\nseed = 3\nchunk_size = 40\n[grid]\nplayers = [4, 5]\n"
        "[overrides]\nrules.leader_extra_life = [1, 2]\n"
    )
    out = run_experiment(spec, tmp_path / "exp", progress=False, precision=0.06)
    manifest = read_manifest(out)
    configs = manifest["precision"]["configs"]
    assert manifest["precision"]["reached"] and len(configs) == 4
    games = {c["label"]: c["games"] for c in manifest["configs"]}
    assert len(set(games.values())) > 1  # each cell stops on its own
    for label, n in games.items():
        assert configs[label]["games"] == n and configs[label]["half_width"] < 0.06
        assert widest(out, n - 40)[label] >= 0.06
    # the report reads cells of different sizes as usual
    lengths = load_report(out).tables["game_lengths"]
    assert dict(zip(lengths["config"], lengths["games"], strict=True)) == games
    # the CLI resumes the same request, and a different target is another run
    cli = ["experiment", str(spec), "--out", str(out), "--no-progress", "--no-report"]
    result = CliRunner().invoke(app, [*cli, "--precision", "0.06"])
    assert result.exit_code == 0 and "reached after" in result.stdout
    assert "all " in result.stdout and "games were already played" in result.stdout
    result = CliRunner().invoke(app, [*cli, "--precision", "0.05"])
    assert result.exit_code == 2 and "holds a different run (precision:" in result.stderr


def test_experiment_file_sets_precision(tmp_path):
    """experiment.precision in the file asks what --precision asks (the file's games, when
    given, being the cap), and --precision replaces it."""
    grid = "[grid]\nplayers = [4, 5]\n"
    plain = tmp_path / "plain.toml"
    plain.write_text(f"[experiment]\nseed = 3\nchunk_size = 40\n{grid}")
    own = tmp_path / "own.toml"
    own.write_text(f"[experiment]\nseed = 3\nchunk_size = 40\nprecision = 0.08\n{grid}")
    by_api = run_experiment(plain, tmp_path / "api", progress=False, precision=0.08)
    by_file = run_experiment(own, tmp_path / "file", progress=False)
    assert read_manifest(by_file)["precision"] == read_manifest(by_api)["precision"]
    assert rows(by_file).equals(rows(by_api))
    replaced = run_experiment(own, tmp_path / "cli", progress=False, precision=0.06)
    assert read_manifest(replaced)["precision"]["target"] == 0.06


def test_least_games_is_the_narrowest_wilson_interval():
    for target in (0.3, 0.05, 0.005):
        n = least_games(target)
        lo, hi = wilson_interval(np.array([0, 0]), np.array([n - 1, n]))
        assert (hi[0] - lo[0]) / 2 >= target > (hi[1] - lo[1]) / 2
        # nothing narrower at any number of wins
        k = np.arange(n)
        lo, hi = wilson_interval(k, n - 1)
        assert ((hi - lo) / 2 >= target).all()


def test_manifest_is_json_and_records_the_request(precise):
    out, _ = precise
    manifest = json.loads((out / MANIFEST).read_text())
    assert set(manifest["precision"]) == {
        "target", "characters", "rounds", "finished", "reached", "configs"
    }  # fmt: skip


def test_cli_interrupted_then_resumed(precise, tmp_path, monkeypatch):
    out, manifest = precise
    args = ["run", "--players", "4-5", "--precision", str(TARGET), "--chunk-size", "50",
            "--strategy", "smart", "--out", str(tmp_path / "cli"), "--no-progress"]  # fmt: skip
    real = interrupt_at_chunk(monkeypatch, 3)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 130
    cap_chunks = 2 * 2_000_000 // 50
    assert result.stderr.startswith(f"interrupted: 2 of at most {cap_chunks} chunks kept in ")
    monkeypatch.setattr(runfolder, "play_chunk", real)
    result = CliRunner().invoke(app, args)
    games = sum(c["games"] for c in manifest["configs"])
    assert result.exit_code == 0 and f"played {games - 100:,} of {games:,} games" in result.stdout
    assert read_manifest(tmp_path / "cli")["precision"] == manifest["precision"]
