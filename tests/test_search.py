"""Strategy search: the optimiser on a toy problem, best responses on real games."""

import json

import numpy as np
import pytest
from played import best_response, exploitability, iterate
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.vocab import ROLES
from simcore.studies.search_loop import Generation, cma_search, games_for, new_optimizer
from simcore.studies.tune import Settings
from strategies.params import N_PARAMS
from strategies.presets import resolve_strategy

CRIPPLED = """
[crippled]
description = "smart, except outlaws who never see an enemy, so never shoot"
personal = { leader = 1, deputy = 0, outlaw = 1, renegade = 1 }
enemy_min = 0.75
aoe_min_net = 0
dynamite_law = 0
duel_min_bangs = 0
free_friend = 45
spare_leader = 2

[crippled.outlaw]
enemy_min = 10
"""


def test_the_optimiser_finds_a_toy_optimum_through_noise():
    """A noisy concave objective over two real and two whole-number dimensions."""
    target = np.array([0.3, 0.8, 0.5, 0.25])  # the discrete ones on their grids
    steps = np.array([0.0, 0.0, 0.25, 0.25])
    rng = np.random.default_rng(0)

    def score(points, g):
        x = np.array(points)
        value = -((x - target) ** 2).sum(axis=1) + rng.normal(0, 0.002, len(x))
        return value, Generation(100, 0.0, 0.0, 0.0, 0.0)

    state = {"opt": new_optimizer(np.full(4, 0.5), steps, 0.3, 1, 0), "trail": []}
    mean = cma_search(state, score, 60, seed=1)
    assert np.abs(mean[:2] - target[:2]).max() < 0.05
    assert np.abs(np.round(mean[2:] / 0.25) * 0.25 - target[2:]).max() < 1e-9


@pytest.fixture
def crippled(tmp_path):
    path = tmp_path / "crippled.toml"
    path.write_text(CRIPPLED)
    return f"{path}:crippled"


def small(field, **kw):
    args = dict(
        theme="classic",
        players=5,
        role="outlaw",
        field=field,
        seed=3,
        generations=6,
        games_min=128,
        games_max=256,
        final_games=3000,
    )
    return Settings(**{**args, **kw})


def test_a_tiny_tune_rescues_outlaws_who_never_shoot(crippled):
    result = best_response(small(crippled))
    assert result.baseline_rate < 0.12  # outlaws that never shoot rarely win (smart: 13%)
    assert result.gain_low > 0.02, result.summary()  # the search finds them a way to win
    assert result.values["enemy_min"] < 10


def test_tune_is_deterministic_and_resumes_after_being_killed(crippled, tmp_path):
    settings = small(crippled, generations=4, final_games=500)
    whole = best_response(settings, tmp_path / "a")

    class Killed(Exception):
        pass

    def kill_after_two(done, gen, best):
        if done == 2:
            raise Killed

    with pytest.raises(Killed):
        best_response(settings, tmp_path / "b", kill_after_two)
    resumed = best_response(settings, tmp_path / "b")
    assert resumed.vector == whole.vector and resumed.gain == whole.gain
    assert [g.games for g in resumed.trail] == [g.games for g in whole.trail]
    again = best_response(settings)
    assert again.vector == whole.vector


def test_another_request_in_the_same_folder_is_refused(crippled, tmp_path):
    best_response(small(crippled, generations=1, final_games=100), tmp_path)
    with pytest.raises(ValueError, match="holds another search"):
        best_response(small(crippled, generations=1, final_games=100, seed=4), tmp_path)


def test_games_per_candidate_rise_to_the_maximum():
    s = small("smart", generations=5, games_min=100, games_max=1600)
    games = [games_for(s, g) for g in range(5)]
    assert games == sorted(games) and games[0] == 128 and games[-1] == 1600


TINY = dict(generations=2, games_min=64, games_max=96, final_games=400)


def test_iterated_best_response_replaces_roles_and_keeps_a_trail(crippled, tmp_path):
    matrix, steps = iterate("classic", 5, crippled, 5, tmp_path, 0.0, 2, TINY)
    assert [s.role for s in steps[:4]] == ["leader", "deputy", "outlaw", "renegade"]
    assert all(s.games > 0 and s.seconds >= 0 for s in steps)
    start = resolve_strategy(crippled, 5).matrix
    outlaw = ROLES.index("outlaw")
    changed = [s.role for s in steps if s.replaced]
    assert (matrix[outlaw] != start[outlaw]).any() == ("outlaw" in changed)
    again, steps2 = iterate("classic", 5, crippled, 5, tmp_path, 0.0, 2, TINY)
    assert np.array_equal(again, matrix)  # resumed from the folder: the same searches
    assert [(s.role, s.gain, s.games) for s in steps2] == [(s.role, s.gain, s.games) for s in steps]


def test_exploitability_of_crippled_outlaws_is_in_the_outlaws(crippled):
    result = exploitability(crippled, "classic", 4, 2, None, TINY | {"final_games": 3000})
    gains = {r.settings.role: r for r in result.roles}
    assert set(gains) == {"leader", "outlaw", "renegade"}  # no deputy at 4 players
    assert gains["outlaw"].gain_low > 0
    assert result.total == pytest.approx(sum(r.gain for r in result.roles))
    assert result.total_low < result.total < result.total_high
    assert result.as_dict()["roles"]["outlaw"]["gain"] == gains["outlaw"].gain


def test_several_searches_a_role_count_the_largest_gain(crippled, tmp_path):
    """exploitability(searches=K): K best responses a role, each with its own seed; the
    first is the one-search answer (its folder and seed), and the largest gain counts."""
    br = TINY | {"final_games": 1000}
    one = exploitability(crippled, "classic", 4, 2, tmp_path, br, roles=["outlaw"])
    two = exploitability(crippled, "classic", 4, 2, tmp_path, br, roles=["outlaw"],
                                searches=2)  # fmt: skip
    first, second = two.gains["outlaw"]
    assert first == one.roles[0].gain and first != second
    assert two.roles[0].gain == max(first, second) == two.as_dict()["roles"]["outlaw"]["gain"]
    assert two.as_dict()["roles"]["outlaw"]["gains"] == [first, second]
    assert "gains" not in one.as_dict()["roles"]["outlaw"]
    assert (tmp_path / "outlaw-1").is_dir()


def test_tune_and_exploit_commands(crippled, tmp_path):
    runner = CliRunner()
    tiny = ["--generations", "2", "--games-min", "64", "--games-max", "96", "--final-games", "300"]
    res = runner.invoke(
        app,
        [
            "tune",
            "--players",
            "4",
            "--field",
            crippled,
            "--rounds",
            "1",
            "--out",
            str(tmp_path / "t"),
            *tiny,
        ],
    )
    assert res.exit_code == 0, res.output
    tuned = f"{tmp_path / 't' / 'tuned.toml'}:tuned"
    assert resolve_strategy(tuned, 4).matrix.shape == (4, N_PARAMS)
    res = runner.invoke(
        app, ["tune", "--role", "outlaw", "--field", crippled, "--out", str(tmp_path / "b"), *tiny]
    )
    assert res.exit_code == 0 and (tmp_path / "b" / "best.toml").is_file(), res.output
    res = runner.invoke(
        app, ["exploit", "--strategy", tuned, "--players", "4", "--format", "json", *tiny]
    )
    assert res.exit_code == 0, res.output
    assert set(json.loads(res.stdout)["roles"]) == {"leader", "outlaw", "renegade"}
    assert "searching the outlaw's best response" in res.stderr
    quiet = ["--players", "4", "--format", "json", "--no-progress", *tiny]
    res = runner.invoke(app, ["exploit", "--strategy", tuned, *quiet])
    assert res.exit_code == 0 and res.stderr == "", res.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["tune", "--role", "sheriff"], "unknown role 'sheriff'"),
        (["tune", "--role", "outlaw", "--players", "4-5"], "one player count"),
        (["tune", "--generations", "0"], "--generations must be at least 1"),
        (["tune", "--field", "smrt"], "unknown strategy 'smrt'"),
        (["exploit", "--format", "xml"], "--format must be text or json"),
        (["exploit", "--players", "9"], "plays 4, 5, 6, 7 players, not 9"),
    ],
)
def test_search_commands_bad_input_is_one_line(args, message):
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and message in res.stderr and res.stderr.count("\n") == 1
