"""Which best responses a re-tune takes (simcore.studies.tune.iterate's `keep`): on a toy
table where one role is indifferent between styles that move another side, "gain" lets two
seeds land on different profiles, "beyond-luck" takes the same real adaptation in both and
leaves the indifferent role where it was."""

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from played import iterate

from simcore.engine.vocab import R_LEADER, R_OUTLAW, R_RENEGADE
from simcore.studies.tune import BEYOND_LUCK, GAIN, Space, unsettled
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


def test_a_settled_round_is_confirmed_by_more_searches_and_resumes_the_one_search_tune(out):
    """With searches=2 a round that settles (every gain within the threshold: here 10
    points, above the leader's ~5) faces one more best response per role on the field it
    settled on, each with its own seed and folder; up to there it is the one-search tune,
    resumed from its folders (the same steps, the same values), and a confirmation within
    the threshold changes nothing."""
    runs = {}
    for k in (1, 2):
        runs[k] = iterate(
            "classic", 4, "tuned", SEEDS[0], out / "confirmed", threshold=0.1, rounds=3,
            br=BUDGET, table=ToyTable(), searches=k,
        )  # fmt: skip
    (one, one_steps), (two, two_steps) = runs[1], runs[2]
    assert [(s.round, s.search) for s in two_steps] == [(1, 1)] * 3 + [(1, 2)] * 3
    timeless = [replace(s, seconds=0) for s in (*one_steps, *two_steps[:3])]
    assert timeless[3:] == timeless[:3] and one_steps[0].replaced  # the leader's adaptation
    assert not any(s.replaced for s in two_steps[3:]) and all(s.gain <= 0.1 for s in two_steps)
    assert {s.role for s in two_steps[3:]} == {"leader", "outlaw", "renegade"}
    assert (out / "confirmed" / "r0-leader-search2" / "search_state.pkl").is_file()
    np.testing.assert_array_equal(two, one)


def stand_in(monkeypatch, gains: dict) -> set:
    """Stand in for iterate's best responses: each answers with the gain `gains` sets for
    (round index, role, search) (0 where unset), taken when positive, its vector 10 r + k.
    Returns the set that collects each search's (k, sigma0)."""
    import simcore.studies.tune as tune
    from simcore.studies.search_loop import sub_seed

    seeds = {sub_seed(SEEDS[0], "search", k): k for k in (2, 3)}
    widths = set()

    def respond(theme_id, theme, players, r, role, seed, field_file, text, br, *rest):
        k = seeds.get(seed, 1)
        widths.add((k, (br or {}).get("sigma0")))
        gain = gains.get((r, role, k), 0.0)
        vector = np.full(START.shape[1], float(10 * r + k))
        res = SimpleNamespace(vector=vector, gain=gain, gain_low=gain - 0.005)
        return res, tune.Step(
            players, r + 1, role, gain, gain - 0.005, gain + 0.005, gain > 0, 1, 0.0
        )

    monkeypatch.setattr(tune, "_respond", respond)
    return widths


def test_a_confirmation_beyond_the_threshold_is_taken_and_the_tune_goes_on(monkeypatch, tmp_path):
    """A confirming search that finds a role gaining more than the threshold replaces that
    role's values with the largest such answer (of searches 2 and 3), and the next round
    faces them; a round whose confirmations find nothing ends the tune; they start twice as
    wide as the round's own searches (CMA-ES's sigma0). The searches are
    stood in for: each answers with a gain set by (round, role, search)."""
    gains = {(0, "outlaw", 2): 0.03, (0, "outlaw", 3): 0.05, (0, "leader", 3): 0.015}
    widths = stand_in(monkeypatch, gains)
    matrix, steps = iterate("classic", 4, "tuned", SEEDS[0], tmp_path, 0.02, 5, searches=3)
    assert [(s.round, s.search) for s in steps] == (
        [(1, 1)] * 3 + [(1, 2)] * 3 + [(1, 3)] * 3 + [(2, 1)] * 3 + [(2, 2)] * 3 + [(2, 3)] * 3
    )
    assert [(s.round, s.role, s.search) for s in steps if s.replaced] == [(1, "outlaw", 3)]
    np.testing.assert_array_equal(matrix[R_OUTLAW], np.full(START.shape[1], 3.0))
    np.testing.assert_array_equal(matrix[R_LEADER], START[R_LEADER])  # +1.5 is within 2
    assert widths == {(1, None), (2, 0.5), (3, 0.5)}  # confirmations start twice as wide


@pytest.mark.parametrize(
    ("gains", "rounds", "left"),
    [
        ({(0, "leader", 1): 0.05, (0, "outlaw", 1): 0.01}, 1, [(1, "leader", 1), (1, "outlaw", 1)]),
        ({(0, "outlaw", 2): 0.03}, 1, [(1, "outlaw", 2)]),
        ({(0, "outlaw", 2): 0.03}, 5, []),
        ({(0, "leader", 1): 0.05}, 5, []),
    ],
)
def test_a_tune_stopped_by_its_round_limit_says_what_it_left_open(
    monkeypatch, tmp_path, gains, rounds, left
):
    """unsettled: a tune that reaches --rounds with its last round unsettled (the leader +5
    points above a 2-point threshold, the outlaw's +1 taken with it), or settled but with a
    confirmation's answer taken, reports the answers a next round would face; one that
    settles and is confirmed reports none (Dodge City's 6 players cycled through 6 rounds
    and shipped one point of the cycle before this said so)."""
    stand_in(monkeypatch, gains)
    _, steps = iterate("classic", 4, "tuned", SEEDS[0], tmp_path, 0.02, rounds, searches=2)
    assert [(s.round, s.role, s.search) for s in unsettled(steps, 0.02)] == left
