"""`bangsim bench` with tiny budgets (no cold start): the table and the JSON with every key."""

import json

import numpy as np
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import shipped_themes
from simcore.studies.bench import TARGETS, bangsim_command
from strategies.learned_files import shipped_strong


def test_bench_writes_table_and_json(tmp_path):
    out = tmp_path / "sub" / "bench.json"
    args = ["bench", "--games", "64", "--target-games", "128", "--run-games", "500", "--no-cold"]
    args += ["--continuation-states", "4", "--search-games", "4", "--teacher-games", "3"]
    done = CliRunner().invoke(app, [*args, "--json", str(out)])
    assert done.exit_code == 0, done.output
    assert "efficiency" in done.output and "warm_start_seconds" in done.output
    result = json.loads(out.read_text())
    assert {"command", "date", "versions", "cores", "threads", "settings"} <= set(result)
    assert {"bangsim", "numba", "numpy", "polars", "python"} <= set(result["versions"])
    assert result["settings"]["cold"] is False and "cold_start_seconds" not in result
    rows = result["throughput"]
    assert {(r["theme"], r["players"], r["strategy"]) for r in rows} == {
        (t, p, s) for t in shipped_themes() for p in (4, 7) for s in ("smart", "tuned")
    }
    for row in [*rows, result["target"]]:
        assert row["games_per_s_1_thread"] > 0 and row["games_per_s_all_threads"] > 0
        assert 0 < row["efficiency"] and row["us_per_turn"] > 0 and row["mean_turns"] > 1
        assert row["cpu_games_per_s_1_thread"] > 0 and row["cpu_efficiency"] > 0
    assert result["target"]["games"] == 128
    assert result["run"]["games"] == 500 and 0 < result["run"]["peak_rss_gib"] < 4
    assert result["run"]["cpu_seconds"] > 0 and "load_average_before" in result
    assert 0 < result["warm_start_seconds"]
    assert 0 < result["ceiling_ratio"] and 0 < result["cpu_ceiling_ratio"]
    assert "ceiling ratio" in done.output and "continuations, classic 5p" in done.output
    c = result["continuations"]
    assert c["states"] == 4 and c["worlds"] == 100 and c["continuations_per_s"] > 0
    assert c["mean_turns_played_on"] > 0
    sr = result["search"]
    assert sr["games"] == 4 and sr["games_per_s"] > 0 and sr["decisions_per_s"] > 0
    assert "search seat, classic 5p" in done.output
    te = result["teacher"]
    assert te["games"] == 3 and te["worlds"] == 64 and te["decisions_per_s"] > 0
    assert "teacher, classic 5p" in done.output
    strong = {(r["theme"], r["players"], r["strategy"]) for r in result["strong"]}
    shipped = [s.rpartition("_") for s in shipped_strong()]
    assert strong == {(t, int(n[:-1]), s) for t, _, n in shipped for s in ("strong", "tuned")}
    measured = {t["name"] for t in result["targets"]}
    assert measured == set(TARGETS) - {"cold_start_seconds"}


def test_a_commands_peak_memory_is_its_own():
    """The peak RSS of a `bangsim` command is the command's own: on Linux a child's
    ru_maxrss keeps the size of the process that forked it (here half a GiB of ballast),
    which must not count as the command's."""
    ballast = np.ones(2**26)  # 0.5 GiB, touched
    _, cpu, rss = bangsim_command(["themes"])
    assert ballast.sum() == 2**26 and cpu > 0
    assert 0.01 < rss < 0.4
