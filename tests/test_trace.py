"""Game traces (`bangsim trace`): a traced game is the game the compiled kernel played, and
its events obey the rules on their own.

The traces of every case are made in one subprocess (the kernel as plain Python), about a
third of a second a game; the compiled games they are compared with are played here.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from played import play_games
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine import kernel
from simcore.engine.rows import seat_frame
from simcore.engine.theme import load_theme, shipped_themes
from simcore.engine.vocab import CHECKS
from simcore.studies.trace import render_text, spec_from_options, trace_games

runner = CliRunner()
PRESETS = ["smart", "basic", "random", "leader=cautious,outlaw=aggressive", "aggressive"]
SEARCHING = "leader=smart,deputy=smart,renegade=smart,outlaw=search@budget=48:tuned"  # its game 26
# of seed 1 searches plays and discards


def make_cases() -> list[dict]:
    """Four games of every shipped theme at every player count, the presets in turn, seeds
    and game indices spread out; plus a featured character and a character pool."""
    cases = []
    i = 0
    for theme in shipped_themes():
        for players in load_theme(theme).player_counts():
            for _ in range(4):
                strategy = PRESETS[i % len(PRESETS)]
                cases.append(dict(theme=theme, players=players, seed=11 + i, game=97 * i + 5,
                                  strategy=strategy))  # fmt: skip
                i += 1
    cases.append(dict(theme="classic", players=5, seed=3, game=12, feature="Willy the Kid=outlaw"))
    pool = ["Bart Cassidy", "Jourdonnais", "Lucky Duke", "Sid Ketchum", "Vulture Sam", "Black Jack"]
    cases.append(dict(theme="classic", players=6, seed=4, game=40, characters=pool))
    cases.append(dict(theme="star_wars", players=5, seed=5, game=7, feature="Tempered"))
    cases.append(dict(theme="classic", players=5, seed=1, game=26, strategy=SEARCHING))
    return cases


CASES = make_cases()


@pytest.fixture(scope="module")
def traced() -> list[tuple[dict, dict]]:
    specs = [spec_from_options(**case) for case in CASES]
    return list(zip(CASES, trace_games(specs), strict=True))


def compiled_rows(case: dict) -> pl.DataFrame:
    """The seat rows of the case's game, played by the compiled kernel."""
    theme = load_theme(case["theme"])
    block = play_games(
        theme, case["players"], 1, case["seed"], game0=case["game"],
        strategy=case.get("strategy", "smart"), characters=case.get("characters"),
        feature=case.get("feature"),
    )  # fmt: skip
    return seat_frame(block, theme, case["players"], case["game"], "x")


def test_a_trace_replays_the_compiled_game(traced):
    for case, trace in traced:
        rows = compiled_rows(case)
        result = trace["result"]
        where = f"{case}: {result}"
        assert rows["winner"][0] == (result["winner"] or "none"), where
        assert rows["turns"][0] == result["turns"], where
        assert rows["rounds"][0] == result["rounds"], where
        assert rows["capped"][0] == result["capped"], where
        assert np.flatnonzero(rows["survived"].to_numpy()).tolist() == result["survivors"], where
        deal = trace["events"][0]
        assert deal["type"] == "deal"
        assert [s["character"] for s in deal["seats"]] == rows["character"].to_list(), where
        assert [s["role"] for s in deal["seats"]] == rows["role"].to_list(), where
        assert [s["featured"] for s in deal["seats"]] == rows["featured"].to_list(), where
        turns = [e for e in trace["events"] if e["type"] == "turn"]
        assert len(turns) == result["turns"], where
        assert sum(e["seat"] == 0 for e in turns) == result["rounds"], where


def test_an_unchecked_trace_is_the_checked_trace(traced):
    """The report's example games skip checked mode (TraceSpec.checked): the same events."""
    picked = [(case, trace) for case, trace in traced if case.get("strategy") != SEARCHING][::9]
    specs = [replace(spec_from_options(**case), checked=False) for case, _ in picked]
    assert [t for _, t in picked] == trace_games(specs)


def test_trace_events_obey_the_rules(traced):
    """Read from the events alone: each BANG! within reach; no more BANG! cards a turn than
    the limit unless the player may (an unlimited ability, or a Volcanic-like card it
    played); Jail never on the leader; each draw!'s result the predicate of the faces it
    revealed; life as the damage and healing say, never above the start, a death at 0."""
    seen = defaultdict(int)
    for case, trace in traced:
        theme = load_theme(trace["theme"])
        limit = theme.rule_values["bang_limit"]
        jail_on_leader = theme.rule_values["jail_on_leader"]
        deal, events = trace["events"][0], trace["events"]
        roles = [s["role"] for s in deal["seats"]]
        life = {s["seat"]: s["life"] for s in deal["seats"]}
        top = dict(life)
        alive = set(life)
        bangs: dict[int, int] = defaultdict(int)
        volcanic: set[int] = set()
        for ev in events:
            t, s = ev["type"], ev.get("seat")
            where = f"{case}: {ev}"
            for card in ev.get("cards", []) + [ev[k] for k in ("card",) if ev.get(k)]:
                assert theme.card_display[card["id"]] == card["card"], where
                assert theme.card_faces[card["id"]] == card["face"], where
            if t == "turn":
                assert s in alive, where
            if t == "play" and ev.get("card") is not None:
                assert s in alive, where
                if ev["effect"] == "volcanic":
                    volcanic.add(s)
                if ev["effect"] == "bang" or ev.get("as_bang"):
                    seen["bang"] += 1
                    assert ev["target"] in alive and ev["target"] != s, where
                    assert ev["distance"] <= ev["reach"], where
                    bangs[ev["turn"]] += 1
                    if bangs[ev["turn"]] > limit:
                        seen["extra bang"] += 1
                        ability = trace["abilities"][deal["seats"][s]["character"]]
                        assert ev["unlimited"], where
                        assert ability == "unlimited_bang" or s in volcanic, where
                if ev["effect"] == "jail":
                    seen["jail"] += 1
                    assert roles[ev["target"]] != "leader" or jail_on_leader, where
            if t == "check":
                seen[f"check {ev['kind']}"] += 1
                passes = [bool(theme.tables.card_check[c["id"]] & CHECKS[ev["kind"]])
                          for c in ev["cards"]]  # fmt: skip
                assert passes == ev["passes"], where
                if len(passes) == 2:  # Lucky Duke keeps the result he prefers
                    assert ev["lucky"], where
                    assert ev["success"] == (any(passes) if ev["wants"] else all(passes)), where
                else:
                    assert ev["success"] == any(passes), where
            if t == "damage":
                life[s] -= ev["amount"]
                assert ev["life"] == life[s], where
            if t in ("heal", "ability"):
                life[s] += ev["amount"]
                assert ev["life"] == life[s] <= top[s], where
            if t == "death":
                seen["death"] += 1
                assert life[s] <= 0 and s in alive, where
                assert ev["role"] == roles[s], where
                alive.discard(s)
        assert sorted(alive) == trace["result"]["survivors"], case
    # the cases reach the rules they check
    assert seen["bang"] > 200 and seen["jail"] > 5 and seen["death"] > 40, dict(seen)
    assert seen["extra bang"] > 0 and seen["check barrel"] > 20 and seen["check jail"] > 5
    assert seen["check dynamite"] > 0, dict(seen)


def test_the_text_has_a_line_per_event_in_the_theme_words(traced):
    for case, trace in traced:
        text = render_text(trace)
        lines = text.splitlines()
        assert not [line for line in lines if line.lstrip().startswith("{")], case
        assert sum(line.startswith("Turn ") for line in lines) == trace["result"]["turns"]
        assert lines[-1].startswith("Game over after ")
        theme = load_theme(case["theme"])
        assert theme.role_names["leader"] in text
    wd = next(t for c, t in traced if c["theme"] == "walking_dead")
    header, body = render_text(wd).split("\n", 1)
    assert "Survivors' Leader" in body and "BANG!" not in body  # its BANG! is "Attack!"


def test_a_searching_seat_shows_its_options_with_their_rollout_win_rates(traced):
    """At each searched decision: the options (distinct, BASE's and the one taken among
    them) with wins of rollouts within the budget, and the play or discard that follows is
    the option taken; the text gives a line per option with its wins, rollouts and rate."""
    case, trace = next((c, t) for c, t in traced if c.get("strategy") == SEARCHING)
    roles = [s["role"] for s in trace["seats"]]
    events = trace["events"]
    searches = [i for i, ev in enumerate(events) if ev["type"] == "search"]
    assert {events[i]["kind"] for i in searches} == {"play", "discard"}
    assert any(events[i]["taken"] != events[i]["base"] for i in searches)
    for i in searches:
        ev, after = events[i], events[i + 1]
        assert roles[ev["seat"]] == "outlaw" and ev["base_strategy"] == "tuned", ev
        codes = [o["code"] for o in ev["options"]]
        assert len(set(codes)) == len(codes) >= 2 and {ev["taken"], ev["base"]} <= set(codes)
        assert 0 < ev["rollouts"] == sum(o["rollouts"] for o in ev["options"]) <= 48, ev
        assert all(0 <= o["wins"] <= o["rollouts"] for o in ev["options"]), ev
        taken = next(o for o in ev["options"] if o["code"] == ev["taken"])
        if "play" in taken:
            assert after["type"] == "play" and after["seat"] == ev["seat"], (ev, after)
            assert after["card"] == taken["play"]["card"], (ev, after)
            assert after.get("target") == taken["play"].get("target"), (ev, after)
        elif "discard" in taken:
            assert after["type"] == "discard" and after["card"] == taken["discard"], (ev, after)
        else:
            assert not (after["type"] == "play" and after["turn"] == ev["turn"]), (ev, after)
    lines = render_text(trace).splitlines()
    heads = [j for j, line in enumerate(lines) if " searches what to " in line]
    assert len(heads) == len(searches)
    option = re.compile(r"^ {4}(plays|uses|stops|discards) .+  +\d+/\d+ +won \(\d+%\)")
    for j, i in zip(heads, searches, strict=True):
        n = len(events[i]["options"])
        assert lines[j].lstrip().startswith(trace["seats"][events[i]["seat"]]["character"])
        assert f": {n} options, {events[i]['rollouts']} rollouts" in lines[j]
        shown = lines[j + 1 : j + 1 + n]
        assert all(option.match(line) for line in shown), shown
        assert sum("← taken" in line for line in shown) == 1
        assert sum("tuned's choice" in line for line in shown) == 1


def test_tracing_leaves_the_compiled_kernel_alone(traced):
    """The trace ran in a subprocess: this process never imported the observers, and the
    kernel's functions here are still the compiled dispatchers (unless this whole test run
    is plain Python)."""
    assert "simcore.engine.tracer" not in sys.modules
    from numba import config

    if not config.DISABLE_JIT:
        assert hasattr(kernel.resolve, "py_func") and hasattr(kernel.choose_action, "py_func")


# --- the command ----------------------------------------------------------------------------


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("trace") / "run"
    result = cli("run", "--players", "4-5", "--games", "30", "--chunk-size", "20", "--seed", "2",
                 "--strategy", "smart", "--out", out, "--no-progress")  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def test_trace_of_a_run_folder_game_matches_its_seat_rows(run_folder):
    result = cli("trace", run_folder, "--game", 23, "--config", "classic/5p/smart",
                 "--format", "json")  # fmt: skip
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)
    rows = (
        pl.read_parquet(run_folder / "seats" / "*.parquet")
        .filter((pl.col("config") == "classic/5p/smart") & (pl.col("game") == 23))
        .sort("seat")
    )
    assert trace["config"] == "classic/5p/smart" and trace["seed"] == 2 and trace["game"] == 23
    assert rows["winner"][0] == trace["result"]["winner"]
    assert rows["turns"][0] == trace["result"]["turns"]
    assert np.flatnonzero(rows["survived"].to_numpy()).tolist() == trace["result"]["survivors"]
    text = cli("trace", run_folder, "--game", 23, "--config", "classic/5p/smart")
    assert text.exit_code == 0 and text.stdout.startswith("classic/5p/smart · BANG! (classic)")


def test_a_searching_seat_s_game_traced_from_its_run_is_the_run_s_game(tmp_path):
    """`bangsim trace RUN` of a run with a searching seat replays the run's game (its seat
    rows: checked by the command, and here) and shows the searched decisions."""
    out = tmp_path / "run"
    result = cli("run", "--players", "5", "--games", "5", "--seed", "4", "--strategy",
                 SEARCHING, "--out", out, "--no-progress")  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(out / "seats" / "*.parquet").filter(pl.col("game") == 4).sort("seat")
    result = cli("trace", out, "--game", 4, "--format", "json")
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)
    assert rows["winner"][0] == trace["result"]["winner"]
    assert rows["turns"][0] == trace["result"]["turns"]
    assert np.flatnonzero(rows["survived"].to_numpy()).tolist() == trace["result"]["survivors"]
    outlaws = rows.filter(pl.col("role") == "outlaw")["strategy"].unique().to_list()
    assert outlaws == ["search@budget=48:tuned"]
    assert any(ev["type"] == "search" for ev in trace["events"])


def test_a_run_with_several_configs_needs_one_named(run_folder):
    result = cli("trace", run_folder, "--game", 1)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {run_folder} has 2 configs; choose one with --config: "
        "classic/4p/smart, classic/5p/smart"
    ]


def test_an_experiment_cell_is_traced_with_its_overrides(tmp_path):
    spec = tmp_path / "exp.toml"
    spec.write_text(
        '[experiment]\ngames = 12\nseed = 9\n[grid]\nthemes = ["walking_dead"]\nplayers = [4]\n'
        '[overrides]\nrules.leader_extra_life = [0, 3]\ncards."Missed!".extra_copies = [2]\n'
    )
    out = tmp_path / "exp"
    assert cli("experiment", spec, "--out", out, "--no-progress", "--no-report").exit_code == 0
    label = "walking_dead/4p/tuned/leader_extra_life=3/Missed!.extra_copies=2"
    result = cli("trace", out, "--game", 11, "--config", label, "--format", "json")
    assert result.exit_code == 0, result.output
    trace = json.loads(result.stdout)
    leader = trace["events"][0]["seats"][0]
    theme = load_theme("walking_dead")
    printed = theme.character_lives[theme.character_names.index(leader["character"])]
    assert leader["life"] == printed + 3  # the override is in the replayed theme
    assert trace["overrides"] == {"rules.leader_extra_life": 3, 'cards."Missed!".extra_copies': 2}


@pytest.mark.parametrize(
    ("option", "value"),
    [("--characters", "Tempered,Accurate,Fearles,Inventive"), ("--feature", "Fearles")],
)
def test_an_unknown_character_is_one_line_listing_the_theme_characters(option, value):
    result = cli("trace", "--theme", "star_wars", "--players", "4", "--game", 0, option, value)
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: unknown character 'Fearles'")
    assert all(name in line for name in load_theme("star_wars").character_names)


def test_the_report_shows_a_traced_game_won_by_each_side(run_folder, tmp_path):
    from reports.report import load_report, write_report

    index = write_report(load_report(run_folder), tmp_path / "report")
    page = (index.parent / "config-classic_4p_smart.html").read_text()
    rows = pl.read_parquet(run_folder / "seats" / "*.parquet").filter(
        (pl.col("config") == "classic/4p/smart") & (pl.col("seat") == 0)
    )
    sides = rows["winner"].unique().to_list()
    assert 'id="examples"' in page and page.count('<details class="trace">') == len(sides)
    for side in sides:
        first = rows.filter(pl.col("winner") == side)["game"].min()
        assert f"<summary>Game {first}: " in page
    assert page.count("Game over after ") == len(sides)


def test_a_searched_put_back_names_the_cards_drawn():
    """Kit Carlson searching his put-back (`kinds=putback`): the trace shows each searched
    put-back with the cards he may put back as its options, one of them taken."""
    args = ["trace", "--game", "0", "--players", "4", "--seed", "3", "--strategy",
            "search@budget=24@kinds=putback:tuned", "--characters",
            "Kit Carlson,Bart Cassidy,Black Jack,Jesse Jones,El Gringo,Paul Regret",
            "--feature", "Kit Carlson"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    heads = [i for i, line in enumerate(lines) if "searches what to put back" in line]
    assert heads, result.output
    for i in heads:
        m = int(re.search(r"(\d+) options", lines[i]).group(1))
        options = lines[i + 1 : i + 1 + m]
        assert all(o.strip().startswith("puts back ") for o in options)
        assert sum("← taken" in o for o in options) == 1


def test_plain_python_records_are_views_of_their_fields(monkeypatch):
    """Run as plain Python, the kernel reads a state's fields as a namespace of the
    record's arrays (state.PlainRecords): a write through it lands in the record."""
    from numba import config

    from simcore.engine.state import S_TURN, STATE_DTYPE, records

    monkeypatch.setattr(config, "DISABLE_JIT", True)
    states = records(2, STATE_DTYPE)
    G = states[1]
    assert not isinstance(G, np.record)
    G.s[S_TURN] = 7
    G.life[2] = 3
    assert states.s[1, S_TURN] == 7 and states.life[1, 2] == 3 and states.s[0, S_TURN] == 0
    assert isinstance(states[0:1], np.recarray)  # a slice stays a record array
