"""search.retune = "inside" (simcore.studies.balance_inside): candidates judged at strategies
re-tuned for them. A toy game whose best knob value changes once the players adapt: the
re-tuning search picks it, the fixed-strategy search does not; resume and determinism."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from played import play_games
from typer.testing import CliRunner

import simcore.studies.balance_inside as balance_inside
from reports.balance import write_balance_page
from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.engine.vocab import R_LEADER, R_OUTLAW, R_RENEGADE
from simcore.studies.balance import read_problem
from simcore.studies.balance_inside import INSIDE, Arena, measure_inside, search_inside
from simcore.studies.balance_search import RESULT, measure, search
from simcore.studies.batch import SIDE_OF, Outcomes, Tally, Work, play_work
from simcore.studies.search_loop import sub_seed
from simcore.studies.tune import Space
from strategies.presets import resolve_strategy

runner = CliRunner()
SPACE = Space.full()
START = float(SPACE.encode(resolve_strategy("smart", 4, "classic").matrix[R_OUTLAW])[
    SPACE.names.index("focus")])  # fmt: skip
SEATS = np.array([R_LEADER, R_RENEGADE, R_OUTLAW, R_OUTLAW], np.int8)


def focus(row: np.ndarray) -> float:
    """An outlaw row's `focus`, mapped from its search range to [0, 1]."""
    return float(SPACE.encode(row)[SPACE.names.index("focus")])


class Toy:
    """A 4-player game (leader, renegade, two outlaws) whose winner is drawn from the knob
    k = rules.leader_extra_life and the outlaws' `focus` y (in [0, 1] over its search range):
    the renegade wins 20% always, the leader's side L[k] + 0.6 (y - m_k)^2, the outlaws the
    rest. The file's strategy (smart) plays y0 = START, the outlaws' best reply at k = 0, 1;
    at k = 2 their best reply moves to m_2 = START + 0.5. Target: the leader's side at 50%.
    Under the file's strategy k = 2 looks best (L + 0.6 * 0.25 = 55%: 5 points off, against
    k = 0's 58%: 8 off); once the outlaws adapt, k = 2 falls to 40% (10 off) and k = 0 is
    the right answer. Deals are common random numbers per seed."""

    L = {0: 0.58, 1: 0.72, 2: 0.40}

    @staticmethod
    def mode(k: int) -> float:
        return START + 0.5 if k == 2 else START

    def leader(self, k: int, y: float) -> float:
        return self.L[k] + 0.6 * (y - self.mode(k)) ** 2

    def draw(self, seed: int, games: int, p: float) -> np.ndarray:
        u = np.random.default_rng(seed).random(games)
        return np.where(u < p, 0, np.where(u < 0.8, 1, 2)).astype(np.int8)

    def table(self, theme, players):
        """What the best responses play on, for the variant `theme`."""
        return ToyTable(self, theme.rule_values["leader_extra_life"])

    def map(self, fn, items):
        """A MapFn that plays each Work item in the toy game instead of the kernel."""
        return (self.play(w) for w in items)

    def play(self, w) -> Outcomes:
        k = w.theme.rule_values["leader_extra_life"]
        winner = self.draw(w.seed, w.games, self.leader(k, focus(w.strategy.matrix[R_OUTLAW])))
        role = np.tile(SEATS, (w.games, 1))
        side = np.array([SIDE_OF[r] for r in SEATS])
        return Outcomes(winner, role, np.zeros_like(role, np.int16), winner[:, None] == side)


class ToyTable:
    def __init__(self, toy: Toy, k: int):
        self.toy, self.k = toy, k

    def winners(self, seed, W, field_rows, role, candidates, games) -> np.ndarray:
        first = len(W) - candidates
        out = np.empty((candidates, games), np.int8)
        for c in range(candidates):
            rows = list(field_rows)
            rows[role] = first + c
            out[c] = self.toy.draw(seed, games, self.toy.leader(self.k, focus(W[rows[R_OUTLAW]])))
        return out


TOY = """
[balance]
players = [4]
strategy = "smart"
seed = {seed}
[search]
retune = "inside"
generations = 2
games_min = 2000
games_max = 4000
final_games = 20000
{more}
[targets]
"4" = {{ leader = 0.5 }}
[knobs]
rules.leader_extra_life = [0, 1, 2]
"""


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch):
    monkeypatch.setattr(balance_inside, "LIGHT_BUDGET",
                        {"generations": 3, "games_min": 1000, "games_max": 1000,
                         "final_games": 2000})  # fmt: skip
    monkeypatch.setattr(balance_inside, "FULL_BUDGET",
                        {"generations": 8, "games_min": 1000, "games_max": 2000,
                         "final_games": 4000})  # fmt: skip


def toy_problem(tmp_path: Path, seed: int = 1, more: str = ""):
    path = tmp_path / f"toy{seed}.toml"
    path.write_text(TOY.format(seed=seed, more=more))
    return read_problem(path)


def toy_search(problem, out: Path, map_fn=None):
    toy = Toy()
    state = search(problem, out, toy.map)
    inside = search_inside(problem, state, out, Arena(map_fn or toy.map, table_of=toy.table))
    return state, inside, measure_inside(problem, state, inside, out, toy.map)


def test_retuning_inside_finds_the_value_that_survives_adaptation(tmp_path):
    """The fixed-strategy search picks k = 2, which adapted outlaws take apart; the
    re-tuning search picks k = 0, and reports the three distances for every front variant.
    Only the outlaws move the leader's side here, by a push that costs them at most
    epsilon: the band holds the own play (its start) and reaches at most that push beyond
    it, so its worst end is the own play's distance or a little worse."""
    problem = toy_problem(tmp_path, seed=3, more="band_epsilon = 0.01")
    toy = Toy()
    fixed = measure(problem, search(problem, None, toy.map), None, toy.map)
    assert fixed.variants[fixed.chosen].overrides == {"rules.leader_extra_life": 2}
    state, inside, answer = toy_search(problem, tmp_path / "out")
    chosen = answer.variants[answer.chosen]
    assert chosen.overrides == {"rules.leader_extra_life": 0}
    assert [s.name for s in inside.stages] == ["light", "full", "final"]
    assert chosen.distance == chosen.distance_own_play == pytest.approx(0.08, abs=0.01)
    assert chosen.distance_printed_play == pytest.approx(0.08, abs=0.01)
    printed = answer.variants[0]
    assert printed.distance_own_play == pytest.approx(0.22, abs=0.01)
    pushed = []  # per variant: whether its band kept the outlaws' push
    for var in answer.variants:
        own = var.distance_own_play
        assert own - 1e-9 <= var.distance_band_worst <= own + 0.01
        found = json.loads((tmp_path / "out" / "inside" / "band" / balance_inside.key_of(
            var.choice) / "classic-4p" / "leader" / "band.json").read_text())  # fmt: skip
        pushed.append(any(m["kept"] and m["kind"] == "push" and m["role"] == "outlaw"
                          for m in found["moves"]))  # fmt: skip
    # a push is kept when its move clears noise on the light budget's 2,000 fresh deals:
    # some variant's outlaws push the side that far (others move it by 0.15 points only).
    # Whether one does depends on the search's path, which follows OpenBLAS's kernel (the
    # one simcore pins, tests/conftest.py, unless OPENBLAS_CORETYPE is set). Seed 3's does
    # under each of the Haswell, Zen, SkylakeX and Sandybridge kernels; seed 2's, chosen
    # when pytest ran under the CPU's own pick, only under Zen (an AMD EPYC's), and 1's,
    # 4's, 5's, 6's not under Haswell
    assert any(pushed)
    page = write_balance_page(problem, state, answer, tmp_path / "out", None,
                              [s.record() for s in inside.stages]).read_text()  # fmt: skip
    assert "worst band end" in page and "own re-tuned play" in page
    assert "each answer taken only when its gain is beyond luck" in page  # retune_keep's default
    # k = 2 at its own play, lightly re-tuned: the outlaws found their reply
    light = inside.stages[0]
    assert light.distances[(2,)] > light.distances[(0,)] > 0.07
    adapted = resolve_strategy(light.strategies[(2,)]["classic/4p"], 4).matrix[R_OUTLAW]
    assert focus(adapted) > START + 0.3
    # own_strategy: a presets file --strategy reads
    spec = chosen.own_strategy["classic"]
    assert Path(spec.split(":")[0]).is_file()
    assert resolve_strategy(spec, 4, "classic").matrix.shape[0] == 4


def test_inside_resumes_after_a_stage(tmp_path):
    """Killed during the full stage's plays, a rerun resumes from the saved light stage and
    the best responses' own saved states, and ends where an uninterrupted search ends."""
    problem = toy_problem(tmp_path)
    _, _, whole = toy_search(problem, tmp_path / "whole")
    toy, calls = Toy(), []

    def interrupted(fn, items):
        calls.append(1)
        if len(calls) == 2:  # the light stage's plays went through; the full stage's fail
            raise KeyboardInterrupt
        return toy.map(fn, items)

    with pytest.raises(KeyboardInterrupt):
        toy_search(problem, tmp_path / "split", interrupted)
    assert (tmp_path / "split" / INSIDE).is_file()
    _, inside, resumed = toy_search(problem, tmp_path / "split")
    assert len(calls) == 2 and len(inside.stages) == 3
    assert [v.distance for v in resumed.variants] == [v.distance for v in whole.variants]
    assert [v.distance_printed_play for v in resumed.variants] == [
        v.distance_printed_play for v in whole.variants
    ]
    assert resumed.games == whole.games


def test_the_worst_replicate_is_the_farthest_and_the_first_of_ties():
    from simcore.studies.balance_retune import worst_replicate

    assert worst_replicate([0.03, 0.01, 0.02]) == 0
    assert worst_replicate([0.01, 0.04, 0.03, 0.02]) == 1
    assert worst_replicate([0.02, 0.05, 0.05, 0.01]) == 1  # ties: the first
    assert worst_replicate([0.07]) == 0


def test_the_final_verdict_is_the_worst_of_independent_re_tunes(tmp_path):
    """search.retune_replicates = 3: each final variant is re-tuned three times with seeds
    of its own, played on the same final deals, and its verdict (distance_own_play, its
    strategy, its sides) is the worst re-tune's, whose own strategy replays it exactly;
    the first re-tune is the one a single-replicate search makes (its seed and folder), so
    retune_replicates = 1 is the search before replicates existed."""

    def problem(name: str, more: str):  # k = 2 on target at its adapted play: the outlaws
        path = tmp_path / f"{name}.toml"  # re-tune there, each replicate its own way
        path.write_text(TOY.format(seed=1, more=more).replace("leader = 0.5", "leader = 0.4"))
        return read_problem(path)

    three = problem("three", "retune_replicates = 3")
    one = problem("one", "retune_replicates = 1")
    toy = Toy()
    _, inside, answer = toy_search(three, tmp_path / "three")
    _, inside1, answer1 = toy_search(one, tmp_path / "one" / "out")
    final, final1 = inside.stages[-1], inside1.stages[-1]
    for v, every in final.replicates.items():
        assert len(every) == 3
        assert final.distances[v] == max(every)
        assert every[0] == final1.replicates[v][0] == final1.distances[v]  # the same first
    assert len(set(final.replicates[(2,)])) > 1  # they differ: the worst is not the first
    # independent re-tunes: each replicate's outlaw searched from its own seed, in its folder
    folder = tmp_path / "three" / "inside" / "final" / balance_inside.key_of((2,))
    found = [json.loads((folder / r / "classic-4p" / "r0-outlaw" / "result.json").read_text())
             ["values"] for r in ("", "r1", "r2")]  # fmt: skip
    assert found[0] != found[1] != found[2] != found[0]
    for var in answer.variants:
        assert var.distance_own_play == max(var.distance_own_replicates)
        # its own strategy is the worst re-tune's: replayed on the final deals, the same
        matrix = resolve_strategy(var.own_strategy["classic"], 4, "classic").matrix
        played = toy.play(Work(three.themes_of(var.choice)["classic"], 4,
                               resolve_strategy(var.own_strategy["classic"], 4, "classic"),
                               sub_seed(three.seed, "final"), three.budget.final_games))  # fmt: skip
        assert focus(matrix[R_OUTLAW]) == focus(
            resolve_strategy(final.strategies[var.choice]["classic/4p"], 4).matrix[R_OUTLAW]
        )
        assert played.winner.tolist() == final.outcomes[var.choice][0].winner.tolist()
    assert all(v.distance_own_replicates == [v.distance_own_play] for v in answer1.variants)


SMALL = """
[balance]
players = [5]
strategy = "smart"
seed = 1
[search]
generations = 1
games_min = 192
games_max = 192
final_games = 400
retune_light = 1
[targets]
"5" = { leader = 0.5 }
characters = { within = 0.05 }
[knobs]
rules.leader_extra_life = [0, 1, 2]
"""


def test_inside_on_the_kernel_repeats_on_any_thread_count(tmp_path, monkeypatch):
    """`bangsim balance --retune-inside` on the kernel (tiny budgets): result.json carries
    the three ways of judging each front variant and its own strategy, which replays the
    reported rates on the final deals; the page shows them; 1 and 2 threads give the same
    result.json."""
    tiny = {"generations": 1, "games_min": 64, "games_max": 64, "final_games": 128}
    monkeypatch.setattr(balance_inside, "LIGHT_BUDGET", tiny)
    monkeypatch.setattr(balance_inside, "FULL_BUDGET", tiny)
    source = tmp_path / "small.toml"
    source.write_text(SMALL)
    data = []
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        result = runner.invoke(app, ["balance", str(source), "--out", str(out), "--no-progress",
                                     "--retune-inside", "--threads", str(threads)])  # fmt: skip
        assert result.exit_code == 0, result.output
        text = (out / RESULT).read_text().replace(str(out), "OUT")
        data.append(drop_seconds(json.loads(text)))
    assert data[0] == data[1]
    front = data[0]["front"]
    assert [s["name"] for s in data[0]["stages"]] == ["light", "full", "final"]
    for var in front:
        assert {"distance_printed_play", "distance_own_play", "own_strategy"} <= var.keys()
        assert var["distance"] == var["distance_own_play"]
    for var in front:  # its own strategy replays its rates and effects on the final deals
        spec = var["own_strategy"]["classic"].replace("OUT", str(tmp_path / "t1"))
        file = var["files"].get("classic", "classic").replace("OUT", str(tmp_path / "t1"))
        theme = load_theme(file)
        block = play_games(theme, 5, 400, sub_seed(1, "final"), strategy=spec)
        rates = {r["side"]: r["rate"] for r in var["sides"]}
        assert rates == {s: float(np.mean(block.winner == w)) for w, s in enumerate(rates)}
        own = play_work(Work(theme, 5, resolve_strategy(spec, 5), sub_seed(1, "final"), 400))
        effect, _ = Tally.of(own, len(theme.character_names)).effects()
        by_name = dict(zip(theme.character_names, effect, strict=True))
        assert [c["effect"] for c in var["characters"]] == [
            by_name[c["character"]] for c in var["characters"]
        ]
    page = (tmp_path / "t1" / "report" / "index.html").read_text()
    assert "own re-tuned play" in page and "under smart" in page


def drop_seconds(data):
    if isinstance(data, dict):
        return {k: drop_seconds(v) for k, v in data.items() if k != "seconds"}
    if isinstance(data, list):
        return [drop_seconds(v) for v in data]
    return data
