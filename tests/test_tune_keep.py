"""Which best responses a re-tune takes (simcore.studies.tune.iterate's `keep`): on a toy
table where one role is indifferent between styles that move another side, "gain" lets two
seeds land on different profiles, "beyond-luck" takes the same real adaptation in both and
leaves the indifferent role where it was."""

import numpy as np
import pytest

from simcore.engine.vocab import R_LEADER, R_OUTLAW, R_RENEGADE
from simcore.studies.tune import BEYOND_LUCK, GAIN, Space, iterate
from strategies.presets import resolve_strategy

SPACE = Space.full()
START = resolve_strategy("tuned", 4, "classic").matrix


def unit(row: np.ndarray, key: str) -> float:
    """A parameter row's value of `key`, mapped from its search range to [0, 1]."""
    return float(SPACE.encode(row)[SPACE.names.index(key)])


LEADER_BEST = unit(START[R_LEADER], "focus") + 0.4  # far from the start: a real adaptation
OUTLAW_BEST = unit(START[R_OUTLAW], "focus")  # the start: nothing to gain


def leader_side(W: np.ndarray, rows: list[int]) -> float:
    """The leader's side's win rate: 0.4 + 0.4 (x_R - 0.5) - 0.3 (y_L - LEADER_BEST)^2
    + 0.3 (y_O - OUTLAW_BEST)^2 (x_R the renegade's `renegade_lean`, y the `focus` of the
    leader and the outlaws, each in [0, 1] over its search range)."""
    y_l, y_o = unit(W[rows[R_LEADER]], "focus"), unit(W[rows[R_OUTLAW]], "focus")
    x_r = unit(W[rows[R_RENEGADE]], "renegade_lean")
    return 0.4 + 0.4 * (x_r - 0.5) - 0.3 * (y_l - LEADER_BEST) ** 2 + 0.3 * (y_o - OUTLAW_BEST) ** 2


class ToyTable:
    """4 players (leader, renegade, 2 outlaws). Per deal two uniforms u, v: the renegade
    wins when (v + x_R) mod 1 < 0.2, so 20% whatever he plays, but different deals for
    different x_R (his best responses gain within luck of 0, either sign); otherwise the
    leader's side when u < leader_side / 0.8, the outlaws else. The leader gains ~5 points
    by moving his focus to LEADER_BEST; the outlaws are at their best reply; the renegade is
    indifferent and moves the leader's side by 0.4 points per 0.01 of his lean. Deals are
    common random numbers per seed."""

    def winners(self, seed, W, field_rows, role, candidates, games):
        u, v = np.random.default_rng(seed).random((2, games))
        out = np.empty((candidates, games), np.int8)
        first = len(W) - candidates
        for c in range(candidates):
            rows = list(field_rows)
            rows[role] = first + c
            renegade = (v + unit(W[rows[R_RENEGADE]], "renegade_lean")) % 1.0 < 0.2
            leader = u < leader_side(W, rows) / 0.8
            out[c] = np.where(renegade, 2, np.where(leader, 0, 1))
        return out


BUDGET = dict(generations=6, games_min=1000, games_max=3000, final_games=6000)
SEEDS = (3, 4)  # two seeds whose "gain" re-tunes differ (1, 2, 6: the renegade lost either way)


def retune(keep: str, seed: int, out):
    matrix, steps = iterate(
        "classic", 4, "tuned", seed, out / f"{keep}-{seed}", rounds=1, br=BUDGET,
        table=ToyTable(), keep=keep,
    )  # fmt: skip
    return leader_side(matrix, [0, 1, 2, 3]), matrix, {s.role: s for s in steps}


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return tmp_path_factory.mktemp("keep")


@pytest.fixture(scope="module")
def retunes(out):
    return {(keep, seed): retune(keep, seed, out) for keep in (GAIN, BEYOND_LUCK) for seed in SEEDS}


def test_beyond_luck_retunes_from_two_seeds_agree(retunes):
    """Both seeds take the leader's real adaptation and keep the renegade's start values:
    the leader's side lands at the same rate (within a point), about 5 points above the
    start's."""
    start = leader_side(START, [0, 1, 2, 3])
    rates = []
    for seed in SEEDS:
        rate, matrix, steps = retunes[BEYOND_LUCK, seed]
        assert steps["leader"].replaced and steps["leader"].gain_low > 0
        assert not steps["renegade"].replaced
        np.testing.assert_array_equal(matrix[R_RENEGADE], START[R_RENEGADE])
        rates.append(rate)
    assert abs(rates[0] - rates[1]) < 0.01
    assert min(rates) > start + 0.03


def test_gain_retunes_from_two_seeds_differ(retunes):
    """Under "gain" a within-luck answer of the renegade is taken when luck puts it ahead:
    the two seeds' leader's sides differ by several points, with the same real adaptation."""
    (a, _, steps_a), (b, _, steps_b) = (retunes[GAIN, seed] for seed in SEEDS)
    assert steps_a["leader"].replaced and steps_b["leader"].replaced
    assert any(s["renegade"].replaced and s["renegade"].gain_low <= 0 for s in (steps_a, steps_b))
    assert abs(a - b) > 0.02


def test_keep_is_checked():
    with pytest.raises(ValueError, match="keep must be 'gain' or 'beyond-luck', got 'always'"):
        iterate("classic", 4, "tuned", 1, None, keep="always")


def test_beyond_luck_stops_once_a_round_takes_nothing(retunes, out):
    """Under "beyond-luck" a round that takes no answer ends the iteration (the next would
    face the same field), whatever the threshold; "gain" goes on to the rounds asked (the
    first round resumes from the retunes' folders)."""
    runs = {}
    for keep in (GAIN, BEYOND_LUCK):
        _, runs[keep] = iterate(
            "classic", 4, "tuned", SEEDS[0], out / f"{keep}-{SEEDS[0]}", threshold=-1.0,
            rounds=3, br=BUDGET, table=ToyTable(), keep=keep,
        )  # fmt: skip
    steps = runs[BEYOND_LUCK]
    assert [s.round for s in steps] == [1, 1, 1, 2, 2, 2]
    assert steps[0].replaced and not any(s.replaced for s in steps[3:])
    assert [s.round for s in runs[GAIN]] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
