"""bangsim balance (simcore.studies.balance, simcore.studies.balance_search, reports.balance): the search
finds a known answer, its variants are theme files that replay its numbers, it resumes and
repeats itself exactly. Bad files are one-line errors: tests/test_errors.py, rows balance-*.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from played import play_games
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.studies.balance import read_problem
from simcore.studies.balance_search import (
    EXHAUSTIVE_MAX,
    RESULT,
    measure,
    pooled,
    search,
    space_size,
    write_variants,
)
from simcore.studies.batch import Tally, play_work
from simcore.studies.search_loop import sub_seed

runner = CliRunner()

# With smart play at 5 players the Sheriff's side wins about 54% / 74% / 85% with an extra
# life of 0 / 1 (printed) / 2: a monotone knob. (smart, a hand-written preset, not tuned,
# whose values change whenever `make tune` is rerun.)
SMALL = """
[balance]
players = [5]
strategy = "smart"
seed = {seed}
[search]
generations = {generations}
games_min = 192
games_max = 384
final_games = 2000
[targets]
"5" = {{ leader = {leader} }}
[knobs]
rules.leader_extra_life = [0, 1, 2]
{more}
"""


def write_problem(tmp_path: Path, leader: float, more: str = "", seed: int = 1,
                  generations: int = 3) -> Path:  # fmt: skip
    path = tmp_path / f"b{leader}-{seed}-{generations}.toml"
    path.write_text(SMALL.format(leader=leader, more=more, seed=seed, generations=generations))
    return path


@pytest.mark.parametrize(("leader", "value"), [(0.50, 0), (0.84, 2)])
def test_finds_the_known_answer(tmp_path, leader, value):
    """A target between two values of a monotone knob: the search picks the nearer one,
    and the measured leader rate moves toward the target."""
    problem = read_problem(write_problem(tmp_path, leader))
    assert space_size(problem) <= EXHAUSTIVE_MAX  # every variant played every round
    answer = measure(problem, search(problem, None), None)
    chosen = answer.variants[answer.chosen]
    assert chosen.overrides == {"rules.leader_extra_life": value}
    assert chosen.words == [f"Sheriff's extra life 1 → {value}"]
    printed, side = answer.variants[0], chosen.sides[0]
    assert printed.changes == 0 and side.side == "leader" and side.target == leader
    assert abs(side.rate - leader) < abs(side.printed - leader)
    assert chosen.distance < printed.distance


def test_cma_search_with_an_idle_knob(tmp_path):
    """Larger spaces run CMA-ES. A knob that changes nothing (a turn cap never reached) may
    ride along into the front on the search's noisy pooled estimates, but on the final
    common deals it plays the very same games, so the chosen variant leaves it out."""
    more = "rules.turn_cap = [1000, 1001, 1002, 1003, 1004, 1005, 1006]"
    problem = read_problem(write_problem(tmp_path, 0.50, more))
    assert space_size(problem) > EXHAUSTIVE_MAX
    answer = measure(problem, search(problem, None), None)
    chosen = answer.variants[answer.chosen]
    assert chosen.overrides == {"rules.leader_extra_life": 0}
    for var in answer.variants[answer.chosen + 1 :]:
        assert var.overrides["rules.leader_extra_life"] == 0
        assert var.distance == chosen.distance  # the same games: the cap never binds


def test_variants_load_and_replay(tmp_path):
    """Each variant file loads as a theme, and its games on the final deals give exactly the
    win rates the answer reports; `bangsim run --theme` plays it."""
    source = write_problem(tmp_path, 0.50)
    out = tmp_path / "out"
    result = runner.invoke(app, ["balance", str(source), "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "chosen: 1-change: Sheriff's extra life 1 → 0" in result.stdout
    data = json.loads((out / RESULT).read_text())
    chosen = data["front"][1]
    file = out / "variants" / "1-change.toml"
    assert chosen["files"] == {"classic": str(file)}
    theme = load_theme(str(file))
    assert theme.id == "classic-1-change" and theme.rule_values["leader_extra_life"] == 0
    text, printed = file.read_text(), load_theme("classic").path.read_text()
    comments = [line.strip() for line in printed.splitlines() if line.strip().startswith("#")]
    assert comments and all(c in text for c in comments)  # the rulebook quotes stay
    (changed,) = [
        line for line in text.splitlines() if "bangsim balance:" in line and line[0] != "#"
    ]
    assert changed.startswith("leader_extra_life = 0") and "extra life 1 → 0" in changed
    problem = read_problem(source)
    block = play_games(theme, 5, data["final_games"], sub_seed(problem.seed, "final"),
                       strategy="smart")  # fmt: skip
    rates = {r["side"]: r["rate"] for r in chosen["sides"]}
    assert rates == {s: float(np.mean(block.winner == w)) for w, s in enumerate(rates)}
    page = (out / "report" / "index.html").read_text()
    assert "Sheriff&#39;s extra life 1 → 0" in page and (out / "report" / "front.png").exists()
    run = runner.invoke(app, ["run", "--theme", str(file), "--players", "5", "--games", "64",
                              "--out", str(tmp_path / "run"), "--strategy", "smart",
                              "--no-progress"])  # fmt: skip
    assert run.exit_code == 0, run.output


def test_resume_gives_the_uninterrupted_search(tmp_path):
    """Interrupted after a round, a rerun resumes from the saved state and ends where an
    uninterrupted search ends; the same seed gives the same search, another seed another."""
    more = "rules.turn_cap = [1000, 1001, 1002, 1003, 1004, 1005, 1006]"
    problem = read_problem(write_problem(tmp_path, 0.50, more, generations=4))
    whole = search(problem, tmp_path / "whole")
    calls = []

    def interrupted(fn, items):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return map(fn, items)

    with pytest.raises(KeyboardInterrupt):
        search(problem, tmp_path / "split", interrupted)
    resumed = search(problem, tmp_path / "split")
    assert len(calls) == 3 and len(resumed.trail) == len(whole.trail) == 4
    assert pooled(problem, resumed) == pooled(problem, whole)
    assert resumed.games == whole.games
    again = search(problem, None)
    assert pooled(problem, again) == pooled(problem, whole)
    other = read_problem(write_problem(tmp_path, 0.50, more, seed=2, generations=4))
    assert pooled(other, search(other, None)) != pooled(problem, whole)


def test_tally_effects_match_the_report(tmp_path):
    """A character's role-adjusted effect is the report's (reports.aggregate)."""
    import polars as pl

    from simcore.engine.rows import seat_frame
    from simcore.runs.cells import cells_of, effects_overall
    from simcore.studies.batch import Work
    from strategies.presets import resolve_strategy

    theme = load_theme("classic")
    outcomes = play_work(Work(theme, 5, resolve_strategy("smart", 5, "classic"), 3, 600))
    effect, seats = Tally.of(outcomes, len(theme.character_names)).effects()
    block = play_games(theme, 5, 600, 3, strategy="smart")
    table = effects_overall(cells_of(seat_frame(block, theme, 5, 0, "c").lazy())).collect()
    want = dict(zip(table["character"], table["effect"], strict=True))
    got = {c: e for c, e, n in zip(theme.character_names, effect, seats, strict=True) if n}
    assert got.keys() == want.keys()
    assert all(abs(got[c] - want[c]) < 1e-12 for c in got)
    assert pl.Series(list(got.values())).abs().max() > 0


def test_variant_files_edit_the_printed_file_in_place():
    """A variant is the printed file with each change edited where it stands: every comment
    kept, the changed lines marked, and it loads as the variant the search played; a theme
    without a file to edit falls back to its data written anew."""
    import tomllib

    from simcore.runs.experiment import Override, apply_overrides
    from simcore.studies.balance import theme_toml, variant_toml

    printed = load_theme("classic")
    overrides = (
        Override(("cards", "Missed!", "extra_copies"), 4),
        Override(("characters", "Paul Regret", "life"), 4),
        Override(("rules", "outlaw_reward"), 2),
    )
    variant = apply_overrides(printed, overrides, "test")
    text = variant_toml(printed, overrides, variant, "classic-v", "a variant\nof classic")
    assert text is not None and text.startswith("# a variant\n# of classic\n")
    source = printed.path.read_text()
    for line in source.splitlines():
        if line.strip().startswith("#"):
            assert line.strip() in text
    marked = [line for line in text.splitlines() if "bangsim balance:" in line and line[0] != "#"]
    assert len(marked) == 3 and any("Missed! 12 → 16 copies" in m for m in marked)
    assert tomllib.loads(text) == {
        **variant.raw,
        "theme": {**variant.raw["theme"], "id": "classic-v"},
    }
    # the same data but another file: nothing to edit in place
    stray = apply_overrides(printed, (Override(("rules", "bang_limit"), 2),), "test")
    assert variant_toml(printed, overrides, stray, "classic-v", "h") is None
    assert tomllib.loads(theme_toml(stray, "x", "h"))["rules"]["bang_limit"] == 2


def test_write_variants_for_several_themes(tmp_path):
    """With several themes, one file per theme and variant, each its own id."""
    path = tmp_path / "two.toml"
    path.write_text(
        SMALL.format(leader=0.5, more="", seed=1, generations=1).replace(
            "players = [5]", 'players = [5]\nthemes = ["classic", "walking_dead"]'
        )
    )
    problem = read_problem(path)
    state = search(problem, None)
    answer = measure(problem, state, None)
    write_variants(problem, answer, tmp_path)
    for var in answer.variants[1:]:
        for theme_id, file in var.files.items():
            assert Path(file).name == f"{var.name}-{theme_id}.toml"
            assert load_theme(file).id == f"{theme_id}-{var.name}"


def test_retune_keeps_a_clear_verdict(tmp_path, monkeypatch):
    """--retune re-tunes the strategies for the chosen variant (here a tiny budget) and
    re-measures it on the final deals: an extra life less for the Sheriff stays far closer
    to a 50% Sheriff's side than the printed game."""
    import simcore.studies.balance_retune as balance_retune

    tiny = {"generations": 1, "games_min": 64, "games_max": 64, "final_games": 200}
    monkeypatch.setattr(balance_retune, "RETUNE_BUDGET", tiny)
    problem = read_problem(write_problem(tmp_path, 0.50))
    state = search(problem, tmp_path / "out")
    answer = measure(problem, state, tmp_path / "out")
    write_variants(problem, answer, tmp_path / "out")
    (checked,) = balance_retune.retune(problem, state, answer, tmp_path / "out")
    assert checked.name == "1-change" and checked.holds
    assert checked.vs_printed_upper < 0 and [s.side for s in checked.sides][0] == "leader"
    preset = Path(checked.presets["classic/5p"])
    assert preset.is_file() and "[retuned.p5.leader]" in preset.read_text()
