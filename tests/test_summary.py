"""Role win rates from seat rows: counts, rates and Wilson intervals on synthetic frames."""

import numpy as np
import polars as pl
import pytest

from reports.summary import role_win_rates
from simcore.stats import wilson_interval


def synthetic_seats(games: int, leader_wins: int) -> pl.LazyFrame:
    """4-player games (leader, renegade, outlaw, outlaw): the leader wins the first
    `leader_wins` games, the outlaws the rest."""
    g = np.repeat(np.arange(games), 4)
    seat = np.tile(np.arange(4), games)
    role = np.tile(np.array(["leader", "renegade", "outlaw", "outlaw"]), games)
    leader_won = g < leader_wins
    won = np.where(role == "leader", leader_won, np.where(role == "outlaw", ~leader_won, False))
    return pl.LazyFrame(
        {
            "config": "classic/4p/basic",
            "theme": "classic",
            "players": pl.Series(np.full(4 * games, 4), dtype=pl.UInt8),
            "game": g.astype(np.uint64),
            "seat": seat.astype(np.uint8),
            "role": role,
            "won": won,
            "capped": False,
        }
    )


@pytest.mark.parametrize("games", [10, 100_000])
def test_role_win_rates(games):
    """Rates count games, not seats (two outlaws are one outcome); large runs don't overflow."""
    leader_wins = games * 3 // 10
    out = role_win_rates(synthetic_seats(games, leader_wins)).collect()
    assert out["role"].to_list() == ["leader", "outlaw", "renegade"]
    assert out["games"].to_list() == [games] * 3
    assert out["wins"].to_list() == pytest.approx([leader_wins, games - leader_wins, 0])
    assert out["rate"].to_list() == pytest.approx([0.3, 0.7, 0.0])
    lo, hi = wilson_interval(np.array([leader_wins, games - leader_wins, 0]), games)
    assert out["lower"].to_list() == pytest.approx(lo.tolist())
    assert out["upper"].to_list() == pytest.approx(hi.tolist())
