"""Checked mode: invariants asserted after every action over thousands of games.

The kernel verifies after every play, every turn phase and at the end: every card in
exactly one place (80 stay 80), 0 < life <= max for the living, the dead at 0 life holding
nothing, and an ended game with exactly one winning side. A violation raises
CheckedModeError naming the game, so any failure here is reproducible from its seed.
"""

import numpy as np
import pytest

from simcore.engine.play import play_games
from simcore.engine.vocab import (
    R_LEADER,
    R_OUTLAW,
    R_RENEGADE,
    W_LEADER,
    W_NONE,
    W_OUTLAW,
    W_RENEGADE,
)

GAMES = 5_000


@pytest.mark.parametrize("strategy", ["basic", "random"])
@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_invariants_hold_in_checked_mode(players, strategy):
    """[C-22] [C-25] [C-26] Thousands of games per player count, invariants checked after
    every action; every game ends with one winning side or as capped."""
    block = play_games("classic", players, GAMES, seed=11, strategy=strategy, checked=True)
    assert set(np.unique(block.winner)) <= {W_LEADER, W_OUTLAW, W_RENEGADE, W_NONE}
    assert (block.winner == W_NONE).sum() == block.capped.sum()
    assert block.capped.mean() < 0.001
    # exactly one side won: the won flags agree with the winner for every seat
    ended = ~block.capped
    assert block.won[ended].any(axis=1).all()
    assert not block.won[block.capped].any()
    # the renegade wins only alone
    ren = block.winner == W_RENEGADE
    assert (block.survived[ren].sum(axis=1) == 1).all()
    seat = np.argmax(block.role == R_RENEGADE, axis=1)
    assert block.survived[ren, seat[ren]].all()
    # the leader's side wins only with the leader alive; the leader's death ends the game
    assert block.survived[block.winner == W_LEADER, 0].all()
    assert not block.survived[block.winner == W_OUTLAW, 0].any()
    assert (block.role[:, 0] == R_LEADER).all()
    # rounds begun (the leader's turns): at least one turn and at most `players` turns each
    assert (block.rounds >= 1).all()
    assert (block.rounds <= block.turns).all()
    assert (block.turns <= block.rounds.astype(int) * players).all()


def test_mixed_strategies_checked():
    """Seats playing different presets share one game; invariants still hold."""
    block = play_games(
        "classic", 7, 1_000, seed=5, strategy={"outlaw": "random", "leader": "basic"}, checked=True
    )
    assert block.preset_names == ("basic", "smart", "random", "smart")  # by canonical role
    names = np.array(block.preset_names)[block.preset]
    assert (names[block.role == R_OUTLAW] == "random").all() and (names[:, 0] == "basic").all()
    assert not block.capped.any()
