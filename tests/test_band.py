"""The band of near-equilibria (simcore.studies.band) on a toy table whose band is known;
bands shipped as data (`band --ship`, `band --shipped`, BANGSIM_BANDS) and reports showing
them (reports.bands)."""

import itertools
import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from played import band
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

import simcore
from reports.names import Names
from reports.verdict import band_text, verdict_lines
from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.engine.vocab import R_LEADER, R_OUTLAW, R_RENEGADE
from simcore.studies.band import (
    BANDS_ENV,
    ENDS,
    Band,
    End,
    band_ends,
    bands_dir,
    shipped_bands,
    span_sides,
)
from simcore.studies.tune import Aim, Space

SPACE = Space.full()


def unit(row: np.ndarray, key: str) -> float:
    """A parameter row's value of `key`, mapped from its search range to [0, 1]."""
    return float(SPACE.encode(row)[SPACE.names.index(key)])


class ToyTable:
    """4 players (leader, 2 outlaws, renegade) whose winner is drawn from three numbers:
    the leader's `focus` y_L, the outlaws' `focus` y_O and the renegade's `renegade_lean`
    x_R, each in [0, 1] over its search range. The renegade wins 20% whatever he does; the
    leader's side wins 0.4 + 0.2 (x_R - 0.5) - 0.3 (y_L - 0.6)^2 + 0.3 (y_O - 0.4)^2, the
    outlaws the rest. Best responses: y_L = 0.6, y_O = 0.4; the renegade is indifferent, and
    moves the leader's side from 30% (x_R = 0) to 50% (x_R = 1): the band of the leader's
    side is [30%, 50%] at every epsilon. Deals are common random numbers per seed."""

    def winners(self, seed, W, field_rows, role, candidates, games):
        u = np.random.default_rng(seed).random(games)
        out = np.empty((candidates, games), np.int8)
        first = len(W) - candidates
        for c in range(candidates):
            rows = list(field_rows)
            rows[role] = first + c
            y_l = unit(W[rows[R_LEADER]], "focus")
            y_o = unit(W[rows[R_OUTLAW]], "focus")
            x_r = unit(W[rows[R_RENEGADE]], "renegade_lean")
            leader = 0.4 + 0.2 * (x_r - 0.5) - 0.3 * (y_l - 0.6) ** 2 + 0.3 * (y_o - 0.4) ** 2
            out[c] = np.where(u < leader, 0, np.where(u < 0.8, 1, 2))
        return out


BUDGET = dict(generations=14, games_min=1000, games_max=3000, final_games=6000)


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    out = tmp_path_factory.mktemp("band")
    return band(
        "classic", 4, "leader", epsilon=0.01, seed=3, out=out, push=BUDGET, respond=BUDGET,
        check=BUDGET, final_games=20_000, table=ToyTable(),
    )  # fmt: skip


def test_band_finds_both_ends_of_a_known_band(toy):
    """The renegade is indifferent between styles that move the leader's side from 30% to
    50%: the band finds both ends, each near an equilibrium (no role gains beyond epsilon)."""
    assert toy.low.rate == pytest.approx(0.30, abs=0.02)
    assert toy.high.rate == pytest.approx(0.50, abs=0.02)
    assert toy.low.lower <= toy.low.rate <= toy.low.upper
    for end in (toy.low, toy.high):
        for role, e in end.exploit.items():
            assert e["gain_low"] <= 0.01, (end.end, role, e)
    pushes = [m for m in toy.moves if m.kind == "push" and m.role == "renegade"]
    assert all(m.kept for m in pushes) and {m.end for m in pushes} == {"low", "high"}
    assert toy.low.rate <= toy.centre <= toy.high.rate
    assert set(toy.profiles) == {"start", "low", "high"}
    # the others re-respond after a kept push only (the profile is unchanged by the rest;
    # a push not kept, and so nothing to respond to: the noise table's test below)
    kept = sum(m.kept for m in toy.moves if m.kind == "push")
    assert sum(m.kind == "respond" for m in toy.moves) == 2 * kept


def test_a_check_a_re_response_already_made_is_not_searched_again(toy):
    """A best response is named by its request: an end's check for a role whose last
    re-response was not kept (the profile unchanged since) is that re-response, not a new
    search, and the band's cost counts it once."""
    unchanged = []  # (end, role) whose last re-response faced the end's final profile
    for end in ("low", "high"):
        moves = [m for m in toy.moves if m.end == end]
        unchanged += [
            (end, m.role)
            for i, m in enumerate(moves)
            if m.kind == "respond" and not any(x.kept for x in moves[i:])
        ]
    assert unchanged and toy.reused == len(unchanged)
    for end, role in unchanged:
        (last,) = [m for m in toy.moves if (m.end, m.role, m.kind) == (end, role, "respond")][-1:]
        assert toy.profiles[end].exploit[role]["gain"] == last.gain
    assert (
        toy.games
        == sum(toy.cost.values())
        == sum(m.games for m in toy.moves) + (toy.cost["check"] + toy.cost["final"])
    )
    each = max(m.games for m in toy.moves)  # one best response's games (one budget)
    assert toy.cost["check"] == (3 * 3 - toy.reused) * each


class NoiseTable:
    """A table where nothing a strategy does matters: each candidate's games are drawn
    afresh from its own parameters (the leader's side 40%, the outlaws 40%, the renegade
    20%), so every move a push finds is noise."""

    def winners(self, seed, W, field_rows, role, candidates, games):
        out = np.empty((candidates, games), np.int8)
        for c in range(candidates):
            own = np.frombuffer(W[len(W) - candidates + c].tobytes(), np.uint32)
            u = np.random.default_rng([seed % 2**32, *own.tolist()]).random(games)
            out[c] = np.where(u < 0.4, 0, np.where(u < 0.8, 1, 2))
        return out


def test_pushes_within_noise_are_not_kept_and_an_unmoved_end_is_the_start(tmp_path):
    """A push is kept only when the side's move clears its 95% interval: on a table where
    nothing matters no push is kept, so nothing is re-responded to, the second round is not
    searched (it would ask the same), and both ends are the start with its checks."""
    tiny = dict(generations=2, games_min=256, games_max=256, final_games=2000)
    b = band(
        "classic", 4, "leader", epsilon=0.05, seed=1, out=tmp_path, rounds=2, push=tiny,
        respond=tiny, check=tiny, final_games=2000, table=NoiseTable(),
    )  # fmt: skip
    pushes = [m for m in b.moves if m.kind == "push"]
    assert len(pushes) == len(b.moves) == 2 * 3 and not any(m.kept for m in pushes)
    # the old rule (the right sign, within epsilon) would have kept some of them
    assert any(m.gain >= -0.05 and (m.side_move > 0) == (m.end == "high") for m in pushes)
    assert b.reused == 2 * 3 and b.cost["respond"] == 0
    for end in ("low", "high"):
        assert b.profiles[end].exploit == b.profiles["start"].exploit
        assert b.profiles[end].rate == b.centre


def test_the_band_spans_the_start_and_the_ends_within_epsilon():
    """An end whose re-responses took the side back past the start, or which a role can
    still exploit beyond epsilon, neither narrows nor widens the band: it runs over the
    start and the ends within epsilon."""

    def end(name, rate, within=True):
        return End(name, f"{name}.toml:{name}", rate, rate, rate, {}, {}, within)

    start = end("start", 0.554)
    low, high = band_ends({"start": start, "low": end("low", 0.531), "high": end("high", 0.540)})
    assert (low.end, high.end) == ("low", "start")
    wide = {"start": start, "low": end("low", 0.40, within=False), "high": end("high", 0.70)}
    assert [e.end for e in band_ends(wide)] == ["start", "high"]


def side_end(name, leader, within=True, spec=None):
    """A profile giving the Sheriff's side `leader`, the outlaws the rest but 20%."""
    rates = {"leader": leader, "outlaw": 0.8 - leader, "renegade": 0.2}
    return End(name, spec or f"{name}.toml:{name}", 0, 0, 0, rates, {}, within)


def side_band(side, **profiles):
    """The band of `side` over `profiles` (side_end), as band() would answer it."""
    profiles = {
        k: replace(e, rate=e.rates[side], lower=e.rates[side], upper=e.rates[side])
        for k, e in profiles.items()
    }
    low, high = band_ends(profiles)
    return Band("classic", 4, side, 0.01, "tuned", 0.0, 9, 20_000, low, high, profiles)


START = side_end("start", 0.34, spec="tuned")
LEADER = side_band("leader", start=START, low=side_end("leader_low", 0.30),
                   high=side_end("leader_high", 0.36))  # fmt: skip
OUTLAW = side_band("outlaw", start=START, low=side_end("outlaw_low", 0.37, within=False),
                   high=side_end("outlaw_high", 0.207))  # fmt: skip


def test_every_side_s_band_spans_every_side_s_profiles_within_epsilon():
    """`band --side all`: a profile found by pushing the outlaws' rate is a near-equilibrium
    for the Sheriff's side's rate too, measured on the same deals, so the leader's band
    spans it (the shipped 4-player leader band missed the outlaws' end at 20.7%); a profile
    a role exploits beyond epsilon, or one the band holds already, does not join; bands of
    other deals refuse to span each other."""
    assert LEADER.low.rate == 0.30 and OUTLAW.low.rate == pytest.approx(0.46)
    spanned_leader, spanned_outlaw = span_sides([LEADER, OUTLAW])
    assert spanned_leader.low.end == "outlaw_high"
    assert spanned_leader.low.rate == pytest.approx(0.207)
    assert spanned_leader.low.lower < 0.207 < spanned_leader.low.upper
    assert spanned_leader.high.end == "leader_high"
    assert set(spanned_leader.profiles) == {"start", "low", "high", "outlaw_high"}
    assert spanned_outlaw.low.end == "leader_high"
    assert spanned_outlaw.low.rate == pytest.approx(0.8 - 0.36)
    assert spanned_outlaw.high.rate == pytest.approx(0.8 - 0.207)
    with pytest.raises(ValueError, match="cannot span"):
        span_sides([LEADER, replace(OUTLAW, final_seed=10)])


def test_band_command_spans_the_sides_it_searched(tmp_path, monkeypatch):
    """`bangsim band --side all` prints and saves (SIDE/band.json) each side's band spanned
    over every side's profiles within epsilon; one side alone is left as searched."""
    searched = {"leader": LEADER, "outlaw": OUTLAW, "renegade": side_band("renegade", start=START)}
    monkeypatch.setattr("simcore.studies.band.band", lambda _t, _p, side, *a, **k: searched[side])
    out = tmp_path / "b"
    args = ["band", "--players", "4", "--out", str(out), "--no-progress", "--format", "json"]
    rows = {b["side"]: b for b in json.loads(invoke([*args, "--side", "all"], tmp_path).output)}
    assert rows["leader"]["low"]["end"] == "outlaw_high"
    assert rows["leader"]["row"]["low"] == pytest.approx(20.7)
    assert rows["outlaw"]["row"]["low"] == pytest.approx(44.0)
    assert set(rows["renegade"]["profiles"]) == {
        "start",
        "leader_low",
        "leader_high",
        "outlaw_high",
    }
    for side, b in rows.items():
        assert json.loads((out / side / "band.json").read_text())["low"] == b["low"]
    (alone,) = json.loads(invoke([*args, "--side", "leader"], tmp_path).output)
    assert alone["row"]["low"] == pytest.approx(30.0)


def test_band_rows_and_presets_replay(toy):
    """The ends are presets a --strategy spec names; their rows are in points."""
    row = toy.row()
    assert row["low"] < row["high"] and row["epsilon"] == pytest.approx(1.0)
    for end in (toy.low, toy.high):
        path, name = end.strategy.rsplit(":", 1)
        assert name in open(path).read()


def test_aims_parse_and_refuse():
    assert Aim.parse("own").side is None
    aim = Aim.parse("outlaw:low:0.02")
    assert (aim.side, aim.sign, aim.epsilon) == (1, -1.0, 0.02)
    winners = np.array([[1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]], np.int8)
    # role outlaw: row 1 gives up all of its own rate (a penalty), row 2 raises the outlaws
    values = aim.values(winners, R_OUTLAW)
    assert values[0] == pytest.approx(-0.5) and values[1] < -4 and values[2] == -1.0
    for bad in ("leader", "leader:down:0.01", "sheriff:low:0.01", "leader:low:2"):
        with pytest.raises(ValueError, match="aim must be"):
            Aim.parse(bad)


TINY = ["--generations", "1", "--games-min", "32", "--games-max", "32", "--final-games", "300"]
SPOT = ["--spot-check", "12", "--spot-worlds", "2", "--spot-budget", "8"]


def invoke(args: list[str], bands: Path):
    """`bangsim ARGS` with BANGSIM_BANDS pointing at `bands`."""
    result = CliRunner().invoke(app, args, env={BANDS_ENV: str(bands)})
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """A tiny real band (classic, 4 players, the renegade side), spot-checked by a search
    seat on a few deals and shipped into a bands folder of its own: (the search folder, the
    bands folder, the band as JSON)."""
    root = tmp_path_factory.mktemp("shipped")
    args = ["band", "--players", "4", "--side", "renegade", "--out", str(root / "search"), *TINY,
            *SPOT]  # fmt: skip
    result = invoke([*args, "--format", "json", "--no-progress", "--ship"], root / "bands")
    (b,) = json.loads(result.output)
    return root / "search", root / "bands", b


def renegade_rate(strategy: str, games: int, seed: int) -> float:
    seats = simcore.simulate("classic", 4, games, seed, strategy).filter(seat=0)
    return float((seats["winner"] == "renegade").mean())


def test_band_command_ends_replay_as_presets(shipped, monkeypatch):
    """`bangsim band` on the real engine (tiny budgets): the end profiles are presets that
    `simulate` replays to exactly the reported rates on the band's fresh deals; a rerun
    resumes to the same band, its spot-checks read back, not played again."""
    search, bands, b = shipped
    for end in ("low", "high"):
        rate = renegade_rate(b[end]["strategy"], b["final_games"], b["final_seed"])
        assert rate == pytest.approx(b[end]["rate"], abs=1e-12)
    assert b["row"]["low_strategy"] == b["low"]["strategy"]

    def replayed(*args, **kwargs):
        raise AssertionError("a finished spot-check was played again")

    monkeypatch.setattr("simcore.studies.band.search_gain", replayed)
    args = ["band", "--players", "4", "--side", "renegade", "--out", str(search), *TINY, *SPOT]
    again = invoke([*args, "--no-progress"], bands)  # resumes: the same band
    assert f"band {100 * b['low']['rate']:.1f}%-{100 * b['high']['rate']:.1f}%" in again.output
    spot = b["profiles"]["start"]["spot"]["roles"]["renegade"]
    assert f"renegade {100 * spot['gain']:+5.1f} pts" in again.output
    (resumed,) = json.loads(invoke([*args, "--no-progress", "--format", "json"], bands).output)
    assert resumed["profiles"] == b["profiles"] and resumed["row"] == b["row"]


def test_band_spot_checks_each_profile_with_a_search_seat(shipped):
    """--spot-check N: the start and each end within epsilon carry, per role, the gain of
    one search seat over the profile's own play on the same N deals, in the JSON and in the
    shipped row (and `band --shipped` lists it); an end out of the band carries none."""
    _, bands, b = shipped
    spotted = []
    for name, end in b["profiles"].items():
        if name != "start" and not end["within"]:
            assert end["spot"] is None
            continue
        spot = end["spot"]
        spotted.append(json.dumps(spot, sort_keys=True))
        assert spot["deals"] == 12 and spot["search"]["worlds"] == 2 and spot["games"] == 72
        assert set(spot["roles"]) == {"leader", "outlaw", "renegade"}
        for g in spot["roles"].values():
            assert g["gain_low"] <= g["gain"] <= g["gain_high"] and g["rollouts"] > 0
            assert g["gain"] == pytest.approx(g["search_rate"] - g["field_rate"])
    # a profile met twice (an end no push moved is the start) is spot-checked once
    assert b["cost"]["spot_check"] == 72 * len(set(spotted))
    row = b["row"]["spot_check"]
    assert row["deals"] == 12 and set(row) == {"deals", "search", "start", "low", "high"}
    for end in ("start", "low", "high"):
        which = "start" if end == "start" else b[end]["end"]
        assert row[end] == {
            r: {k: 100 * g[k] for k in ("gain", "gain_low", "gain_high")}
            for r, g in b["profiles"][which]["spot"]["roles"].items()
        }
    (listed,) = json.loads(invoke(["band", "--shipped", "--format", "json"], bands).output)
    assert listed["spot_check"] == row


def test_shipped_bands_list_without_searching_and_replay(shipped, tmp_path):
    """`band --shipped` lists the shipped rows (rates in points, ends as specs that work
    from any folder), and each end replays its shipped rate; no band: none listed."""
    _, bands, b = shipped
    (row,) = json.loads(invoke(["band", "--shipped", "--format", "json"], bands).output)
    assert set(row) == {"theme", "players", "side", "epsilon", "low", "high", "low_strategy",
                        "high_strategy", "spot_check"}  # fmt: skip
    assert {k: row[k] for k in ("theme", "players", "side", "epsilon", "low", "high")} == {
        k: b["row"][k] for k in ("theme", "players", "side", "epsilon", "low", "high")
    }
    for end in ("low", "high"):
        if b[end]["end"] == "start":  # the start profile is an end: it ships as its name
            assert row[f"{end}_strategy"] == "tuned"
        else:
            path = Path(row[f"{end}_strategy"].rpartition(":")[0])
            assert path.is_absolute() and path.parent == bands.resolve()
        rate = renegade_rate(row[f"{end}_strategy"], b["final_games"], b["final_seed"])
        assert 100 * rate == pytest.approx(row[end], abs=1e-9)
    text = invoke(["band", "--shipped"], bands).output
    assert f"{row['low']:.1f}%-{row['high']:.1f}%" in text
    assert invoke(["band", "--shipped", "--format", "json"], tmp_path).output.strip() == "[]"
    assert "no bands ship yet" in invoke(["band", "--shipped"], tmp_path).output
    (tmp_path / "classic.json").write_text("{}")
    bad = CliRunner().invoke(app, ["band", "--shipped"], env={BANDS_ENV: str(tmp_path)})
    assert bad.exit_code == 2 and "not a bands file" in bad.output


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    """classic at 4 players (the band's table) and 5 (none) under tuned, 400 games."""
    out = tmp_path_factory.mktemp("run") / "run"
    args = ["run", "--players", "4,5", "--games", "400", "--strategy", "tuned", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def test_reports_show_bands_where_they_exist(shipped, run_folder, tmp_path, monkeypatch):
    """The grid, the balance summary and the HTML show the band's ends (replayed on the
    run's own deals) for the banded side at the band's table; every other configuration,
    and a report with no bands, reads as before."""
    from reports.grid import grid_text
    from reports.report import load_report, summary_lines, write_report

    _, bands, b = shipped
    monkeypatch.setenv(BANDS_ENV, str(tmp_path))  # no bands
    plain = load_report(run_folder)
    monkeypatch.setenv(BANDS_ENV, str(bands))
    banded = load_report(run_folder)
    assert "bands" not in plain.tables and "band_low" not in plain.tables["sides"].columns
    assert "robust" not in plain.tables["characters"].columns
    (row,) = banded.tables["bands"].iter_rows(named=True)
    assert (row["config"], row["side"], row["band_games"]) == ("classic/4p/tuned", "renegade", 400)
    ends = [renegade_rate(b[e]["strategy"], 400, 1) for e in ("low", "high")]
    assert (row["band_low"], row["band_high"]) == pytest.approx((min(ends), max(ends)))
    assert row["start_within"] == b["profiles"]["start"]["within"]
    span = f"{100 * row['band_low']:.1f}%–{100 * row['band_high']:.1f}%"
    (side,) = banded.tables["sides"].filter(config="classic/4p/tuned", side="renegade").to_dicts()
    band = band_text(side).strip()
    moved = 100 * (row["band_high"] - row["band_low"])
    assert band.startswith(
        f"(how the bots choose to play can move it by {moved:.1f} points: {span}"
    ) and (("a role gains more than 1 point(s) against this play" in band) != row["start_within"])
    lines = dict(zip(plain.configs, summary_lines(plain), strict=True))
    for config, line in zip(banded.configs, summary_lines(banded), strict=True):
        if config == "classic/4p/tuned":
            assert (
                band in line
                and line.replace(f" {band}", "").split(". Strongest")[0]
                == (lines[config].split(". Strongest")[0])
            )
            assert "over the band" in line
        else:
            assert line == lines[config]
    robust = banded.tables["characters"].filter(pl.col("robust").is_not_null())
    assert set(robust["config"]) == {"classic/4p/tuned"} and robust.height == 16
    text = grid_text(banded.tables["sides"], banded.names, style=False)
    assert (
        f"classic/tuned, 4 players, where the bots' choice of play can move it: Ren {span}".replace(
            "%", ""
        )
        in text.replace("%", "")
    )
    assert "5 players, band" not in text
    assert text.replace(text.splitlines()[5] + "\n", "") == grid_text(
        plain.tables["sides"], plain.names, style=False
    )
    page = write_report(banded, tmp_path / "report").read_text()
    assert 'class="band"' in page and band in page
    assert 'class="band"' not in write_report(plain, tmp_path / "plain").read_text()


def test_a_band_whose_end_is_the_run_s_play_holds_the_run_s_rate(run_folder, monkeypatch):
    """Where a run has more deals than a report replays, each end reads the run's own rate
    plus the end's paired difference from the run's play on the replayed deals: the end
    that plays as the run does (classic's 4-player `tuned`) reads the run's rate exactly,
    so the centre lies in its band, and the other end is shifted by as much."""
    from reports.report import load_report

    monkeypatch.delenv(BANDS_ENV, raising=False)
    monkeypatch.setattr("simcore.studies.band.REPLAY_GAMES", 100)
    report = load_report(run_folder)  # 400 deals of seed 1; the ends replay the first 100
    sides = report.tables["sides"].filter(config="classic/4p/tuned")
    rate = dict(zip(sides["side"], sides["rate"], strict=True))
    rows = report.tables["bands"].filter(config="classic/4p/tuned").iter_rows(named=True)
    seen, moved = set(), set()
    for row in rows:
        assert row["band_games"] == 100
        side, ends = row["side"], (row["low_strategy"], row["high_strategy"])
        won = {}
        for spec in {*ends, "tuned"}:
            seats = simcore.simulate("classic", 4, 100, 1, spec).filter(seat=0)
            won[spec] = float((seats["winner"] == side).mean())
        assert "tuned" in ends
        read = [rate[side] + won[spec] - won["tuned"] for spec in ends]
        assert (row["band_low"], row["band_high"]) == pytest.approx((min(read), max(read)))
        assert rate[side] in (row["band_low"], row["band_high"])
        seen.add(side)
        if rate[side] != won["tuned"]:  # the first 100 deals alone would read otherwise
            moved.add(side)
    assert seen == {"leader", "outlaw", "renegade"} and moved


def test_a_run_keeps_its_band_replays_for_its_reports(run_folder, monkeypatch, tmp_path):
    """`bangsim run` replays the band ends on the run's deals and keeps them in the run
    folder: a report reads them there, replaying nothing, and shows what a fresh replay
    shows, wherever the bands folder lies; a report of other deals (or other bands, theme,
    version) replays them anew."""
    from reports.bands import BANDS_FILE
    from reports.report import load_report

    monkeypatch.delenv(BANDS_ENV, raising=False)
    kept = run_folder / BANDS_FILE
    assert kept.is_file()  # written by the run (the fixture)
    kept.unlink()
    fresh = load_report(run_folder)  # replays, and keeps them again
    assert kept.is_file() and "classic/4p/tuned" in json.loads(kept.read_text())

    def replay(*args, **kwargs):
        raise AssertionError("replayed")

    monkeypatch.setattr("reports.bands.replay", replay)
    read = load_report(run_folder)
    for table in ("bands", "sides", "characters"):
        assert_frame_equal(read.tables[table], fresh.tables[table])
    shutil.copytree(bands_dir(), tmp_path / "bands")  # the same bands, elsewhere
    monkeypatch.setenv(BANDS_ENV, str(tmp_path / "bands"))
    load_report(run_folder)
    monkeypatch.setattr("simcore.studies.band.REPLAY_GAMES", 100)  # other deals
    with pytest.raises(AssertionError, match="replayed"):
        load_report(run_folder)


def test_verdict_line_carries_the_band():
    """A banded favoured side's verdict shows its band, and says so when the band's low
    end is not above the reference; without band columns the line is as before."""
    sides = pl.DataFrame(
        {
            "config": ["classic/5p/tuned"] * 3, "theme": ["classic"] * 3, "players": [5] * 3,
            "side": ["leader", "outlaw", "renegade"], "rate": [0.55, 0.30, 0.15],
            "lower": [0.54, 0.29, 0.14], "upper": [0.56, 0.31, 0.16],
            "even_share": [1 / 3] * 3, "vs_even": [0.55 - 1 / 3, 0.30 - 1 / 3, 0.15 - 1 / 3],
        }
    )  # fmt: skip
    names = Names({"classic": {"leader": "Sheriff"}}, {"classic": "BANG!"})
    (plain,) = verdict_lines([], sides, names)
    bands = sides.with_columns(
        pl.Series("band_low", [0.49, None, None]), pl.Series("band_high", [0.64, None, None])
    )
    (line,) = verdict_lines([], bands, names)
    moved = "(how the bots choose to play can move it by 15.0 points: "
    assert line == plain.replace("56.0%]", f"56.0%] {moved}49.0%–64.0%)")
    low = bands.with_columns(pl.Series("band_low", [0.30, None, None]))
    (line,) = verdict_lines([], low, names)
    assert (
        "by 34.0 points: 30.0%–64.0%)" in line and "but not if the bots play the other way" in line
    )
    # the configuration's own play (the band's start) within epsilon of every best response,
    # or not: the band says so
    for within, said in (
        (True, ""),
        (None, ""),
        (False, "; a role gains more than 1 point(s) against this play"),
    ):
        flagged = bands.with_columns(
            pl.Series("band_epsilon", [0.01, None, None]),
            pl.Series("start_within", [within, None, None], pl.Boolean),
        )
        (line,) = verdict_lines([], flagged, names)
        assert f"{moved}49.0%–64.0%{said})" in line


def test_every_shipped_band_replays_its_rates(monkeypatch):
    """Every band that ships (classic at 4 to 7 players, every other theme at 5) names end
    presets that load and replay exactly its rates on its fresh deals; each end profile of a
    table plays once, every side's rate read off the same games."""
    monkeypatch.delenv(BANDS_ENV, raising=False)
    bands = shipped_bands()
    others = {(t, 5) for t in ("star_wars", "classic_dodge_city", "walking_dead")}
    assert {(b.theme, b.players) for b in bands} >= {("classic", n) for n in (4, 5, 6, 7)} | others
    # shipped before spot-checks existed: the row has none, and loads and lists without one
    (b5,) = [b for b in bands if (b.theme, b.players, b.side) == ("classic", 5, "leader")]
    assert b5.spot_check is None and "spot_check" not in b5.row()
    winners = {}
    for b in bands:
        assert b.low <= b.centre <= b.high and b.start == "tuned"
        for end, rate in (("low", b.low), ("high", b.high)):
            deals = (b.theme, b.players, b.final_games, b.final_seed, b.strategy(end))
            if deals not in winners:
                winners[deals] = simcore.simulate(*deals).filter(seat=0)["winner"]
            won = 100 * float((winners[deals] == b.side).mean())
            assert won == pytest.approx(rate, abs=1e-9), (b.players, b.side, end)


def test_a_profile_that_ends_several_sides_is_replayed_once(monkeypatch):
    """A report replays each distinct end profile of a table once (`tuned` ends all three
    sides' bands at 4 players), and each side reads its ends off those games."""
    import simcore.studies.band as band_module

    monkeypatch.delenv(BANDS_ENV, raising=False)
    played = []
    play_all = band_module.play_all
    monkeypatch.setattr(
        band_module,
        "play_all",
        lambda works, backend: played.extend(works) or play_all(works, backend),
    )
    found = band_module.replay(load_theme("classic"), 4, 7, 300)
    ends = {(b.side, end): b.strategy(end) for b in found.bands for end in ENDS}
    assert len(played) == len(set(ends.values())) < len(ends)
    for (k1, s1), (k2, s2) in itertools.combinations(ends.items(), 2):
        assert (found.ends[k1] is found.ends[k2]) == (s1 == s2), (k1, k2)


@pytest.fixture(scope="module")
def mixture_file(tmp_path_factory):
    """A mixed strategy at 4 players: half the games `tuned`, half `smart`."""
    from strategies.presets import Mixture, resolve_strategy

    rows = [resolve_strategy(s, 4, "classic").matrix for s in ("tuned", "smart")]
    mixed = Mixture(np.vstack(rows), np.array([[0, 1, 2, 3], [4, 5, 6, 7]]), np.array([0.5, 0.5]))
    path = tmp_path_factory.mktemp("mixture") / "mixture.json"
    path.write_text(json.dumps({"players": {"4": mixed.as_dict()}}))
    return path


def test_a_band_spans_the_profiles_found_another_way(mixture_file, tmp_path):
    """--also PROFILE (a PSRO mixture from another seed, say) is measured, checked and
    spot-checked on the band's fresh deals like the start; with --rounds 0 nothing is pushed
    and the band runs over the two; a mixed end ships as a mixture file that replays its
    rate exactly."""
    args = ["band", "--players", "4", "--side", "renegade", "--epsilon", "99", "--rounds", "0",
            "--also", str(mixture_file), "--out", str(tmp_path / "search"), *TINY, *SPOT]  # fmt: skip
    out = invoke([*args, "--format", "json", "--no-progress", "--ship"], tmp_path / "bands")
    (b,) = json.loads(out.output)
    assert set(b["profiles"]) == {"start", "also1"} and b["also"] == [str(mixture_file)]
    assert not [m for m in b["moves"] if m["kind"] == "push"]
    also = b["profiles"]["also1"]
    assert also["within"] and also["strategy"] == str(mixture_file)
    # a search seat faces the mixed profile too: its worlds draw the others' rows from it
    assert set(also["spot"]["roles"]) == {"leader", "outlaw", "renegade"}
    assert also["spot"] != b["profiles"]["start"]["spot"]
    assert also["rate"] == renegade_rate(str(mixture_file), b["final_games"], b["final_seed"])
    rates = sorted(p["rate"] for p in b["profiles"].values())
    assert (b["low"]["rate"], b["high"]["rate"]) == (rates[0], rates[-1]) and rates[0] < rates[1]
    (row,) = json.loads(
        invoke(["band", "--shipped", "--format", "json"], tmp_path / "bands").output
    )
    mixed = [row[f"{e}_strategy"] for e in ENDS if row[f"{e}_strategy"] != "tuned"]
    assert mixed == [str((tmp_path / "bands/mixtures/classic-4p-renegade_also1.json").resolve())]
    for end in ENDS:
        rate = renegade_rate(row[f"{end}_strategy"], b["final_games"], b["final_seed"])
        assert 100 * rate == pytest.approx(row[end], abs=1e-9)


def test_pushes_against_a_mixed_profile_replace_its_rows(mixture_file, tmp_path):
    """From a mixed profile a push replaces its role's row in every profile of the mixture
    (the others still draw theirs); the end is a mixture file that replays its rate."""
    from simcore.studies.band import _with_row
    from strategies.presets import load_mixture

    mixed = load_mixture(str(mixture_file), 4)
    new = _with_row(mixed, R_RENEGADE, mixed.rows[4])
    assert (new.profiles[:, R_RENEGADE] == 8).all() and np.array_equal(new.weights, mixed.weights)
    assert np.array_equal(
        np.delete(new.profiles, R_RENEGADE, 1), np.delete(mixed.profiles, R_RENEGADE, 1)
    )
    assert np.array_equal(new.rows[:8], mixed.rows) and np.array_equal(new.rows[8], mixed.rows[4])
    tiny = dict(generations=1, games_min=32, games_max=32, final_games=300)
    b = band(
        "classic", 4, "renegade", out=tmp_path, epsilon=0.05, seed=2, push=tiny, respond=tiny,
        check=tiny, final_games=300, also=[str(mixture_file)],
    )  # fmt: skip
    assert {"also1_low", "also1_high"} <= set(b.profiles)
    pushed = [m for m in b.moves if m.end.startswith("also1") and m.kind == "push"]
    assert len(pushed) == 2 * 3
    for name in ("also1_low", "also1_high"):
        end = b.profiles[name]
        assert end.strategy == str(tmp_path / f"renegade_{name}.json")
        kept = any(m.kept for m in b.moves if m.end == name)
        assert (len(load_mixture(end.strategy, 4).rows) > 8) == kept
        assert end.rate == renegade_rate(end.strategy, 300, b.final_seed)


def test_check_seeds_take_the_largest_gain_of_several_searches(tmp_path):
    """--check-seeds K: each role's check is K best responses with their own seeds, and the
    largest gain counts (one search is a lower bound); the first is the one-seed check."""
    asked: dict = {}
    kw = dict(epsilon=0.01, seed=3, rounds=0, check=BUDGET, final_games=4000, table=ToyTable(),
              shared=tmp_path / "searches", asked=asked)  # fmt: skip
    one = band("classic", 4, "leader", out=tmp_path / "one", **kw)
    two = band("classic", 4, "leader", out=tmp_path / "two", check_seeds=2, **kw)
    assert set(two.profiles) == {"start"} and two.reused == 3  # the first searches: one's
    assert two.cost["check"] == one.cost["check"]  # the second searches only
    differ = 0  # (the renegade wins 20% whatever he does: his gains are 0 both times)
    for role, e in two.profiles["start"].exploit.items():
        first, second = e["gains"]
        assert first == one.profiles["start"].exploit[role]["gain"]
        assert e["gain"] == max(first, second)
        differ += first != second
    assert differ >= 1
