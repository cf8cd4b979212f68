"""PSRO (simcore.studies.tune.psro): on a toy table where the leader and the renegade
answer each other in a cycle, iterated best response keeps gaining round after round and
PSRO's mixture settles; the meta-solver and the mixed field are checked on their own."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from played import best_response, iterate, play_games, psro
from typer.testing import CliRunner

import strategies
from simcore.cli import app
from simcore.engine.vocab import R_LEADER, R_OUTLAW, R_RENEGADE, ROLES
from simcore.studies.search_loop import sub_seed
from simcore.studies.tune import (
    Mixture,
    Settings,
    Space,
    regret_matching,
)
from strategies.presets import MIXED_KEYS, resolve_strategy

SPACE = Space.full()
START = resolve_strategy("tuned", 4, "classic").matrix


def unit(W: np.ndarray, key: str) -> np.ndarray:
    """Each row's value of `key`, mapped from its search range to [0, 1]."""
    return np.array([SPACE.encode(row)[SPACE.names.index(key)] for row in W])


# the start's phase: the leader gains ~14 points by matching, the renegade ~26 by opposing
SHIFT = unit(START[[R_LEADER]], "focus")[0] - unit(START[[R_RENEGADE]], "renegade_lean")[0] - 0.2


def leader_side(x_l: np.ndarray, x_r: np.ndarray) -> np.ndarray:
    """0.4 + 0.2 cos(2 pi (x_L - x_R - SHIFT)): the leader wants his `focus` to match the
    renegade's `renegade_lean` (shifted), the renegade wants them half a turn apart. The
    renegade wins 0.8 minus that, the outlaws 0.2: a zero-sum cycle between the two, with
    no pure equilibrium and a mixed one (two antipodal points each) worth 0.4."""
    return 0.4 + 0.2 * np.cos(2 * np.pi * (x_l - x_r - SHIFT))


class CycleTable:
    """4 players. Per deal a uniform u (common random numbers per seed): the leader's side
    wins when u < leader_side, the renegade when u < 0.8, the outlaws else."""

    def _play(self, seed, W, rows):
        u = np.random.default_rng(seed).random(rows.shape[-2])
        side = leader_side(
            unit(W, "focus")[rows[..., R_LEADER]], unit(W, "renegade_lean")[rows[..., R_RENEGADE]]
        )
        return np.where(u < side, 0, np.where(u < 0.8, 2, 1)).astype(np.int8)

    def winners(self, seed, W, field_rows, role, candidates, games, own=False):
        field = np.broadcast_to(np.asarray(field_rows).reshape(-1, 4), (games, 4))
        rows = np.tile(field, (own + candidates, 1, 1))
        rows[own:, :, role] = (len(W) - candidates + np.arange(candidates))[:, None]
        return self._play(seed, W, rows)

    def profiles(self, seed, W, profiles, games):
        rows = np.repeat(np.asarray(profiles)[:, None, :], games, axis=1)
        return self._play(seed, W, rows)


BUDGET = dict(generations=8, games_min=1000, games_max=3000, final_games=6000)
ROUNDS = 6


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("psro")
    _, cycling = iterate(
        "classic", 4, "tuned", 1, out / "ibr", -1.0, ROUNDS, BUDGET, table=CycleTable()
    )
    mixture, steps, metas = psro(
        "classic",
        4,
        "tuned",
        1,
        out / "psro",
        0.02,
        ROUNDS,
        BUDGET,
        table=CycleTable(),
        meta_games=1000,
    )
    return cycling, steps, mixture, metas


def gains(steps, role):
    return [100 * s.gain for s in steps if s.role == role]


def test_iterated_best_response_cycles(runs):
    """Each answer is answered: the leader and the renegade gain over 10 points in every
    round, to the last."""
    cycling = runs[0]
    assert len(gains(cycling, "leader")) == ROUNDS
    for role in ("leader", "renegade"):
        assert min(gains(cycling, role)) > 10


def test_psro_settles_on_the_mixed_equilibrium(runs):
    """PSRO's mixture takes in both sides of the cycle: a round comes where no role gains
    more than the threshold (2 points) against it, before the rounds run out, and the
    leader's side wins what the mixed equilibrium gives, 40%."""
    _, steps, mixture, metas = runs
    last = [s for s in steps if s.round == steps[-1].round]
    assert steps[-1].round < ROUNDS
    assert max(s.gain for s in last) <= 0.02
    assert gains(steps, "leader")[0] > 10 and gains(steps, "renegade")[0] > 10
    x_l = unit(mixture.rows, "focus")[mixture.profiles[:, R_LEADER]]
    x_r = unit(mixture.rows, "renegade_lean")[mixture.profiles[:, R_RENEGADE]]
    assert abs(mixture.weights @ leader_side(x_l, x_r) - 0.4) < 0.02
    assert len(set(mixture.profiles[:, R_LEADER].tolist())) > 1  # mixed, not one answer
    assert len(set(mixture.profiles[:, R_OUTLAW].tolist())) == 1  # nothing to gain: unchanged
    # one meta-game a round, every profile of the populations on 1,000 deals
    assert [m.round for m in metas] == sorted({s.round for s in steps})
    assert metas[0].profiles == 1 and all(m.games == 1000 * m.profiles for m in metas)
    assert metas[-1].support == len(mixture.weights)


def test_psro_resumes(runs, tmp_path_factory):
    """A rerun on the same folder plays no meta-game and no search generation again (only
    each best response's final check, as iterate's resume does): the same trail and
    mixture."""
    _, steps, mixture, metas = runs
    out = tmp_path_factory.getbasetemp() / "psro0" / "psro"
    again, again_steps, again_metas = psro(
        "classic", 4, "tuned", 1, out, 0.02, ROUNDS, BUDGET, table=FinalChecksOnly(),
        meta_games=1000,
    )  # fmt: skip
    assert [replace(s, seconds=0) for s in again_steps] == [replace(s, seconds=0) for s in steps]
    np.testing.assert_array_equal(again.weights, mixture.weights)
    assert again_metas == metas  # the meta-games' cost as first played, read back


class FinalChecksOnly(CycleTable):
    """CycleTable that refuses the meta-game and every search generation's games."""

    def winners(self, seed, W, field_rows, role, candidates, games, own=False):
        assert games == BUDGET["final_games"], "replayed a search generation"
        return super().winners(seed, W, field_rows, role, candidates, games, own)

    def profiles(self, *args):
        raise AssertionError("replayed a meta-game")


def test_regret_matching_finds_the_correlated_equilibria():
    """Rock-paper-scissors: each player's share of the joint play is a third each; the
    prisoner's dilemma: all on defect. In both, no player gains by a fixed deviation from
    the joint play (a coarse correlated equilibrium), within 0.01."""
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
    dilemma = np.array([[3, 0], [5, 1]], float)
    for a in (rps, dilemma):
        payoffs = [a, -a.T if a is rps else a.T]
        joint = regret_matching(payoffs)
        for i, u in enumerate(payoffs):
            follow = (joint * u).sum()
            other = joint.sum(axis=i)
            deviate = (u if i == 0 else u.T) @ other
            assert deviate.max() - follow < 0.01
    np.testing.assert_allclose(regret_matching([rps, -rps.T]).sum(axis=1), 1 / 3, atol=0.01)
    assert regret_matching([dilemma, dilemma.T])[1, 1] > 0.99


def test_a_mixture_draws_its_weights_from_its_seed():
    rows = np.zeros((3, START.shape[1]))
    mix = Mixture(rows, np.array([[0, 0, 1, 0], [0, 0, 2, 0]]), np.array([0.25, 0.75]))
    drawn = mix.draw(5, 20_000)
    np.testing.assert_array_equal(drawn, mix.draw(5, 20_000))
    assert abs((drawn[:, R_OUTLAW] == 2).mean() - 0.75) < 0.01
    assert not np.array_equal(drawn, mix.draw(6, 20_000))
    assert mix.marginal(R_OUTLAW) == {2: 0.75, 1: 0.25}


def test_a_one_profile_mixture_plays_the_pure_fields_games():
    """On the kernel: a mixture of one profile is the pure field. Its best response (the
    baseline the role's own draws, own=True) follows the same search to the same answer
    and gain as the pure field's, on the same games."""
    settings = Settings("classic", 4, "renegade", "tuned", 3, 2, 0, 0.25, 64, 64, 256)
    pure = best_response(settings)
    mixture = Mixture(START, np.arange(4)[None, :], np.ones(1))
    mixed = best_response(settings, field=mixture)
    assert mixed.vector == pure.vector
    assert (mixed.gain, mixed.baseline_rate, mixed.games_used) == (
        pure.gain, pure.baseline_rate, pure.games_used,
    )  # fmt: skip


def test_tune_method_psro_writes_the_mixture(tmp_path):
    """`bangsim tune --method psro`: OUT/mixture.json holds, per player count, the mixture
    the last round measured (every row with every key, profiles of those rows, weights
    summing to 1) and the command that made it; the trail has each round's gains."""
    tiny = ["--generations", "1", "--games-min", "32", "--games-max", "32", "--final-games", "200"]
    args = ["tune", "--method", "psro", "--players", "4", "--field", "tuned", "--rounds", "2"]
    res = CliRunner().invoke(
        app, [*args, "--meta-games", "100", "--out", str(tmp_path), "--no-progress", *tiny]
    )
    assert res.exit_code == 0, res.output
    made = json.loads((tmp_path / "mixture.json").read_text())
    assert "--method psro --meta-games 100" in made["made_by"]
    mixture = made["players"]["4"]
    assert sum(mixture["weights"]) == pytest.approx(1.0)
    assert all(set(row) == set(MIXED_KEYS) for row in mixture["rows"])
    used = {i for p in mixture["profiles"] for i in p.values()}
    assert used <= set(range(len(mixture["rows"])))
    trail = json.loads((tmp_path / "trail.json").read_text())
    assert {s["role"] for s in trail} == {"leader", "outlaw", "renegade"}
    assert "4p round 1 leader" in res.output
    metas = json.loads((tmp_path / "meta.json").read_text())
    assert [m["round"] for m in metas] == [1, 2] and metas[0]["games"] == 100
    searched = sum(s["games"] for s in trail)
    assert f"{searched + sum(m['games'] for m in metas):,} games" in made["made_by"]


@pytest.fixture(scope="module")
def two_profiles(tmp_path_factory):
    """A mixture file at 5 players: every role `smart` (weight 1/4) or every role `basic`."""
    smart, basic = (resolve_strategy(s, 5, "classic").matrix for s in ("smart", "basic"))
    mixture = Mixture(
        np.vstack([smart, basic]), np.array([[0, 1, 2, 3], [4, 5, 6, 7]]), np.array([0.25, 0.75])
    )
    path = tmp_path_factory.mktemp("mixture") / "mixture.json"
    path.write_text(json.dumps({"players": {"5": mixture.as_dict()}}))
    return str(path), mixture


def test_a_mixture_plays_each_game_as_its_drawn_profile(two_profiles):
    """Game g of a mixed strategy is game g of the profile drawn for it, whatever the
    chunk it is played in: the same games as `smart` where smart was drawn, as `basic`
    elsewhere; a quarter of the games are smart's."""
    path, mixture = two_profiles
    mixed = play_games("classic", 5, 400, 9, strategy=path)
    smart = play_games("classic", 5, 400, 9, strategy="smart")
    basic = play_games("classic", 5, 400, 9, strategy="basic")
    is_smart = mixture.draw(9, 400)[:, 0] == 0
    assert 0.18 < is_smart.mean() < 0.32
    for f in ("winner", "turns", "character", "role"):
        got, a, b = (getattr(x, f) for x in (mixed, smart, basic))
        np.testing.assert_array_equal(got[is_smart], a[is_smart])
        np.testing.assert_array_equal(got[~is_smart], b[~is_smart])
    late = play_games("classic", 5, 150, 9, strategy=path, game0=250)
    np.testing.assert_array_equal(late.winner, mixed.winner[250:])
    # resolved once, it plays without its file (a Ray node may not hold it)
    resolved = resolve_strategy(path, 5, "classic", mixed=True)
    moved = Path(path).rename(Path(path).with_suffix(".moved"))
    try:
        again = play_games("classic", 5, 150, 9, strategy=resolved, game0=250)
    finally:
        moved.rename(path)
    np.testing.assert_array_equal(again.winner, late.winner)


def test_a_mixture_is_refused_where_one_row_per_role_is_needed(two_profiles):
    """Searches that start from one row per role refuse a mixture in one line; exploit's
    best responses face it (the field's draws, own=True)."""
    path, _ = two_profiles
    with pytest.raises(ValueError, match="is a mixed strategy"):
        resolve_strategy(path, 5)  # as bangsim tune resolves its --field
    with pytest.raises(ValueError, match="has no 4-player mixture .it has: 5."):
        resolve_strategy(path, 4, mixed=True)
    settings = Settings("classic", 5, "renegade", path, 3, 1, 0, 0.25, 64, 64, 256)
    res = best_response(settings)
    assert res.settings.field == path and res.final_games == 256


SHIPPED_MIXTURE = Path(strategies.__file__).parent / "mixtures" / "classic-5p.json"


def test_the_shipped_mixture_replays_its_reported_rate():
    """strategies/mixtures/classic-5p.json (seven PSRO rounds at 5 players) loads and, on
    4,000 of the 200,000 games its README reports (seed 1), the Sheriff's side wins within
    3 points (4 standard errors) of the 65.2% reported."""
    block = play_games("classic", 5, 4000, 1, strategy=str(SHIPPED_MIXTURE))
    assert abs((block.winner == 0).mean() - 0.652) < 0.03
    mixture = resolve_strategy(str(SHIPPED_MIXTURE), 5, mixed=True).mixture
    assert mixture.weights.sum() == pytest.approx(1.0) and len(mixture.profiles) == 4


def test_a_search_seat_faces_a_mixture(two_profiles):
    """exploit --method search against a mixture file: the seat is paired with the mixture's
    own play on the same deals (each game the profile it drew), and searches."""
    path, _ = two_profiles
    args = ["exploit", "--method", "search", "--strategy", path, "--players", "5", "--role",
            "renegade", "--games", "24", "--worlds", "2", "--budget", "8", "--seed", "5",
            "--format", "json", "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["roles"]["renegade"]
    block = play_games("classic", 5, 24, sub_seed(5, "search", "renegade", 0), strategy=path)
    seat = np.argmax(block.role == ROLES.index("renegade"), axis=1)
    assert row["field_rate"] == block.won[np.arange(24), seat].mean()
    assert row["decisions"] > 0 and row["rollouts"] > 0
