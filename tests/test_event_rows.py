"""Event files in the run folder (simcore.engine.event_rows): one row per game beside each seat
chunk, written atomically with it, resumed and checked like it."""

import json
import shutil

import numpy as np
import polars as pl
import pytest
from played import play_games
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine import vocab
from simcore.engine.event_rows import (
    ALL,
    EVENTS,
    event_columns,
    event_file,
    event_frame,
    event_sums,
    parse_used_column,
    sums_file,
    used_column,
)
from simcore.engine.events import event_names
from simcore.engine.theme import load_theme
from simcore.runs import runfolder
from simcore.runs.runfolder import MANIFEST, SEATS, RunFolderError, run_study

runner = CliRunner()
KW = dict(
    theme="classic",
    players=[4, 5],
    games=90,
    seed=3,
    strategy="smart",
    chunk_size=40,
    progress=False,
)


def test_event_frame_sums_each_roles_seats():
    theme = load_theme("classic")
    block = play_games(theme, 5, 200, seed=2, game0=1000, strategy="smart", events=True)
    frame = event_frame(block, theme, 5, 1000, "classic/5p/smart")
    assert frame.columns == event_columns(theme.card_names)
    assert frame.height == 200 and frame["game"].to_list() == list(range(1000, 1200))
    assert frame["config"].unique().to_list() == ["classic/5p/smart"]
    names = event_names()
    for k, name in enumerate(names):
        assert frame[name].to_numpy().tolist() == block.events[:, k].tolist()
    for r, role in enumerate(vocab.ROLES):
        for k, card in enumerate(theme.card_names):
            mask = block.role == r  # (games, seats)
            expected = (block.used[:, :, k] * mask).sum(axis=1)
            assert np.array_equal(frame[used_column(role, card)].to_numpy(), expected), card
    assert parse_used_column(used_column("outlaw", "Cat Balou")) == ("outlaw", "Cat Balou")
    assert parse_used_column("barrel_checks") is None
    assert event_file("seats/classic_5p_smart-00003.parquet") == (
        "events/classic_5p_smart-00003.parquet"
    )
    with pytest.raises(ValueError, match="events=True"):
        event_frame(play_games(theme, 5, 3, seed=2), theme, 5, 0, "x")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small real run: classic at 4 and 5 players, 90 games in chunks of 40, 40, 10."""
    return run_study(tmp_path_factory.mktemp("ev") / "run", **KW)


@pytest.fixture
def run(played, tmp_path):
    return shutil.copytree(played, tmp_path / "run")


def files(folder):
    return sorted(p.name for p in folder.glob("*.parquet"))


def test_every_chunk_has_its_event_file(played):
    manifest = json.loads((played / MANIFEST).read_text())
    assert files(played / EVENTS) == files(played / SEATS) and len(files(played / SEATS)) == 6
    for record in manifest["chunks_done"]:
        assert record["events"] == event_file(record["file"])
        events = pl.read_parquet(played / record["events"])
        seats = pl.read_parquet(played / record["file"])
        assert events.height == record["games"] == seats["game"].n_unique()
        assert events["game"].to_list() == seats["game"].unique().sort().to_list()
    # one game's event row agrees with the engine's block for that game
    theme = load_theme("classic")
    block = play_games(theme, 5, 1, seed=3, game0=85, strategy="smart", events=True)
    row = pl.read_parquet(played / EVENTS / "classic_5p_smart-00002.parquet").filter(
        pl.col("game") == 85
    )
    assert row.drop("config", "theme", "players", "game").row(0) == event_frame(
        block, theme, 5, 85, "x"
    ).drop("config", "theme", "players", "game").row(0)


def test_every_event_file_has_its_sums(played):
    """Each chunk's writer leaves its event file's sums beside it: a count's sum and sum of
    squares, each role's card uses, and the per-game totals damage_total and used:all:."""
    for path in sorted((played / EVENTS).glob("*.parquet")):
        sums = json.loads(sums_file(path).read_text())
        frame = pl.read_parquet(path)
        leaders = pl.read_parquet(played / SEATS / path.name).filter(pl.col("seat") == 0)
        assert sums == event_sums(frame, leaders)
        assert sum(sums["endings"].values()) == frame.height
        assert sums["endings"].get("leader", 0) == (leaders["winner"] == "leader").sum()
        by_outlaw = (frame["leader_killed_by_outlaw"] > 0) & (leaders["winner"] == "outlaw")
        assert sums["endings"].get("outlaw_by_outlaw", 0) == by_outlaw.sum()
        assert (sums["config"], sums["games"]) == (frame["config"][0], frame.height)
        bang = frame["damage_bang"].cast(pl.Float64)
        assert sums["sums"]["damage_bang"] == [bang.sum(), (bang * bang).sum()]
        damage = frame.select(pl.sum_horizontal(pl.col("^damage_.*$"))).to_series()
        assert sums["sums"]["damage_total"] == [damage.sum(), (damage * damage).sum()]
        uses = frame.select(pl.sum_horizontal(pl.col("^used:.*:BANG!$"))).to_series()
        assert sums["sums"][used_column(ALL, "BANG!")] == [uses.sum(), (uses * uses).sum()]
        assert uses.sum() > 0
    with pytest.raises(ValueError, match="2 configurations"):
        event_sums(pl.concat([pl.read_parquet(p) for p in (played / EVENTS).glob("*.parquet")]))


def test_the_report_reads_the_sums_files(run, tmp_path):
    """The event tables and the endings come from the sums files, the same as counting the
    event and seat files' rows; a sums file that describes other games than its event file,
    or is no sums file, is not read."""
    from reports.events import collect_event_cells, game_endings

    def card_usage(folder):
        from reports.report import load_report

        return load_report(folder).tables["card_usage"]

    summed = shutil.copytree(run, tmp_path / "summed")
    for path in (summed / EVENTS).glob("*.sums.json"):
        path.unlink()
    assert card_usage(run).equals(card_usage(summed))
    assert game_endings(run).equals(game_endings(summed))
    kept = sums_file(run / EVENTS / "classic_5p_smart-00000.parquet")
    sums = json.loads(kept.read_text())
    sums["sums"][used_column("leader", "BANG!")][0] += 40  # one more use a game
    kept.write_text(json.dumps(sums))
    leader = (pl.col("card") == "BANG!") & (pl.col("role") == "leader")
    changed = card_usage(run).filter(leader & (pl.col("config") == "classic/5p/smart"))
    before = card_usage(summed).filter(leader & (pl.col("config") == "classic/5p/smart"))
    assert changed["uses"].item() == before["uses"].item() + 40
    sums["endings"]["capped"] = sums["endings"].get("capped", 0) + 3
    kept.write_text(json.dumps(sums))
    capped = (pl.col("config") == "classic/5p/smart") & (pl.col("ending") == "capped")
    assert (
        game_endings(run).filter(capped)["games"].sum()
        == 3 + game_endings(summed).filter(capped)["games"].sum()
    )
    for other in (dict(sums, games=sums["games"] + 1), [1, 2], {"games": 40}):
        kept.write_text(json.dumps(other))
        assert card_usage(run).equals(card_usage(summed))
        assert game_endings(run).equals(game_endings(summed))
    kept.write_text('{"games": 4')  # not JSON
    assert card_usage(run).equals(card_usage(summed))
    assert len(collect_event_cells(run)) == 6


def test_a_missing_event_file_replays_its_chunk(run):
    lost = run / EVENTS / "classic_4p_smart-00001.parquet"
    before = lost.read_bytes()
    seats_before = {
        p.name: p.stat().st_mtime_ns
        for p in (run / SEATS).iterdir()
        if "4p_smart-00001" not in p.name
    }
    lost.unlink()
    assert runfolder.pending_in(run, runfolder.plan_study(run, "classic", [4, 5], 90, 3, "smart",
                                                          chunk_size=40).chunks) == 40  # fmt: skip
    run_study(run, **KW)
    assert lost.read_bytes() == before  # the same games, the same bytes
    for name, mtime in seats_before.items():  # no other chunk was played again
        assert (run / SEATS / name).stat().st_mtime_ns == mtime


@pytest.mark.parametrize("how", ["truncated", "empty", "garbage"])
def test_a_damaged_event_file_is_named_on_resume_and_report(run, how):
    path = run / EVENTS / "classic_5p_smart-00000.parquet"
    data = path.read_bytes()
    path.write_bytes({"truncated": data[: len(data) // 2], "empty": b"", "garbage": b"x" * 99}[how])
    result = runner.invoke(app, ["run", "--out", str(run), "--players", "4-5", "--games", "90",
                                 "--seed", "3", "--chunk-size", "40", "--strategy", "smart",
                                 "--no-progress"])  # fmt: skip
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {path}: damaged chunk file (not a readable Parquet file")
    assert line.endswith("delete it and rerun the same command to play that chunk again")
    result = runner.invoke(app, ["report", str(run)])
    assert result.exit_code == 2 and f"{path}: damaged chunk file" in result.stderr
    assert not (run / "report").exists()
    path.unlink()  # what the line says to do
    run_study(run, **KW)
    assert path.read_bytes() == data


def test_an_event_file_with_other_rows_is_damaged(run):
    shutil.copy(run / EVENTS / "classic_4p_smart-00002.parquet",
                run / EVENTS / "classic_4p_smart-00000.parquet")  # fmt: skip
    with pytest.raises(RunFolderError, match=r"00000.parquet: damaged chunk file \(10 rows, "
                       r"the manifest says 40\)"):  # fmt: skip
        run_study(run, **KW)


def test_an_event_file_without_its_columns_is_damaged(run):
    path = run / EVENTS / "classic_4p_smart-00000.parquet"
    pl.read_parquet(path).drop("barrel_checks").write_parquet(path)
    with pytest.raises(RunFolderError, match="damaged chunk file \\(no barrel_checks column\\)"):
        run_study(run, **KW)


def test_chunks_written_without_event_files_are_kept(tmp_path, monkeypatch):
    """A chunk record without "events" (a run folder from before event files, or a stand-in
    engine) is complete with its seat file alone: resuming plays nothing again."""
    real = runfolder.play_chunk

    def seats_only(study, chunk):
        return real(study, chunk).seats

    monkeypatch.setattr(runfolder, "play_chunk", seats_only)
    out = run_study(tmp_path / "r", **KW)
    assert "events" not in json.loads((out / MANIFEST).read_text())["chunks_done"][0]
    assert files(out / EVENTS) == []

    def must_not_play(study, chunk):
        raise AssertionError(f"replayed {chunk.file}")

    monkeypatch.setattr(runfolder, "play_chunk", must_not_play)
    run_study(out, **KW)


def test_an_event_file_without_its_seat_chunk_is_not_reported(run):
    """A crash between the two writes leaves an event file whose seat file is missing: the
    report reads only event files beside seat files, and a rerun plays the chunk again."""
    from reports.report import load_report

    (run / SEATS / "classic_4p_smart-00002.parquet").unlink()
    tables = load_report(run).tables
    games = dict(tables["event_games"].select("config", "games").iter_rows())
    assert games == {"classic/4p/smart": 80, "classic/5p/smart": 90}
    run_study(run, **KW)
    assert dict(load_report(run).tables["event_games"].select("config", "games").iter_rows()) == {
        "classic/4p/smart": 90,
        "classic/5p/smart": 90,
    }


def test_stale_event_temp_files_are_removed(run):
    stale = run / EVENTS / ".classic_4p_smart-00000.parquet.999.tmp"
    stale.write_bytes(b"PAR1 half")
    run_study(run, **KW)
    assert not stale.exists()


def test_experiment_cells_write_event_files(tmp_path):
    source = tmp_path / "e.toml"
    source.write_text(
        '[experiment]\ngames = 30\nchunk_size = 20\n[grid]\nthemes = ["classic", "star_wars"]\n'
        "players = 5\n"
    )
    result = runner.invoke(app, ["experiment", str(source), "--out", str(tmp_path / "x"),
                                 "--no-progress", "--no-report"])  # fmt: skip
    assert result.exit_code == 0, result.output
    events = sorted((tmp_path / "x" / EVENTS).glob("*.parquet"))
    assert [p.name for p in events] == files(tmp_path / "x" / SEATS) and len(events) == 4
    star_wars = pl.read_parquet([p for p in events if "star_wars" in p.name])
    theme = load_theme("star_wars")
    assert star_wars.columns == event_columns(theme.card_names) and star_wars.height == 30
    assert set(star_wars["config"]) == {"star_wars/5p/tuned"}
    result = runner.invoke(app, ["experiment", str(source), "--out", str(tmp_path / "y"),
                                 "--no-progress", "--no-report", "--no-events"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert files(tmp_path / "y" / EVENTS) == [] and len(files(tmp_path / "y" / SEATS)) == 4


def test_bench_measures_the_event_cost(capsys):
    import numba

    from simcore.studies.bench import bench_events

    threads = numba.get_num_threads()
    try:
        cost = bench_events(load_theme("classic"), 1_000, 1, seed=1, threads=1)
    finally:
        numba.set_num_threads(threads)  # leave later tests all cores
    assert set(cost) == {"wall", "cpu"} and all(-1 < c < 1 for c in cost.values())
    assert "event counts and files cost" in capsys.readouterr().out


def test_no_events_writes_seat_files_only(tmp_path):
    out = tmp_path / "r"
    args = ["run", "--out", str(out), "--players", "5", "--games", "30", "--chunk-size", "20",
            "--strategy", "smart", "--no-progress"]  # fmt: skip
    result = runner.invoke(app, [*args, "--no-events"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["request"]["events"] is False
    assert all("events" not in c for c in manifest["chunks_done"])
    assert files(out / SEATS) and files(out / EVENTS) == []
    again = runner.invoke(app, args)  # with events it is another request
    assert again.exit_code == 2 and "holds a different run (events: false there" in again.stderr
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert 'id="cards"' not in (out / "report" / "index.html").read_text()
    # the default request has no "events" key: run folders of before resume as they were
    default = runfolder.plan_study(tmp_path / "d", "classic", [5], 30, 1)
    assert "events" not in default.request and default.events
