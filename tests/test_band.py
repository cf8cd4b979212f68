"""The band of near-equilibria (simcore.studies.band) on a toy table whose band is known."""

import numpy as np
import pytest

from simcore.engine.vocab import R_LEADER, R_OUTLAW, R_RENEGADE
from simcore.studies.band import band
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


def test_band_command_ends_replay_as_presets(tmp_path):
    """`bangsim band` on the real engine (tiny budgets): the end profiles are presets that
    `simulate` replays to exactly the reported rates on the band's fresh deals."""
    import json

    from typer.testing import CliRunner

    import simcore
    from simcore.cli import app

    tiny = ["--generations", "1", "--games-min", "32", "--games-max", "32", "--final-games", "300"]
    args = ["band", "--players", "4", "--side", "renegade", "--out", str(tmp_path), *tiny]
    result = CliRunner().invoke(app, [*args, "--format", "json", "--no-progress"])
    assert result.exit_code == 0, result.output
    (b,) = json.loads(result.output)
    for end in ("low", "high"):
        seats = simcore.simulate(
            "classic", 4, b["final_games"], b["final_seed"], b[end]["strategy"]
        ).filter(seat=0)
        assert (seats["winner"] == "renegade").mean() == pytest.approx(b[end]["rate"], abs=1e-12)
    assert b["row"]["low_strategy"] == b["low"]["strategy"]
    again = CliRunner().invoke(app, [*args, "--no-progress"])  # resumes: the same band
    assert f"band {100 * b['low']['rate']:.1f}%-{100 * b['high']['rate']:.1f}%" in again.output
