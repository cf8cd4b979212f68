"""Checked mode: invariants asserted after every action over thousands of games.

The kernel verifies after every play, every turn phase and at the end: every card in
exactly one place (80 stay 80), 0 < life <= max for the living, the dead at 0 life holding
nothing, and an ended game with exactly one winning side. A violation raises
CheckedModeError naming the game, so any failure here is reproducible from its seed.
"""

import numpy as np
import pytest
from played import play_games
from scenario import FIVE, dist, table

from simcore.engine import kernel
from simcore.engine.state import S_ERR
from simcore.engine.vocab import (
    E_BANG,
    E_HEAL,
    E_MISSED,
    E_MUSTANG,
    E_SCOPE,
    E_WEAPON,
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
    assert block.preset_names == ("basic", "tuned", "random", "tuned")  # by canonical role
    names = np.array(block.preset_names)[block.preset]
    assert (names[block.role == R_OUTLAW] == "random").all() and (names[:, 0] == "basic").all()
    assert not block.capped.any()


def test_checked_mode_catches_in_play_counters_out_of_date():
    """What the cards in play do to distances and reach, and which names and effects are in
    play, is kept per seat as cards go in and out of play (State.far, near, gun, named,
    kinds: distances, reach and the [C-10] one-copy test read them instead of walking the
    table); checked mode counts them again and names a counter left out of date."""
    t = table(FIVE)
    t.equip(2, "Mustang").equip(0, "Scope", "Schofield")
    assert dist(t, 0, 2) == 2 + 1 - 1
    assert (int(t.G.far[2]), int(t.G.near[0]), int(t.G.gun[0])) == (1, 1, 2)
    mustang = int(t.T.card_name[t.G.table[2, 0]])
    assert int(t.G.named[2]) == 1 << mustang and int(t.G.kinds[2]) == 1 << E_MUSTANG
    assert int(t.G.kinds[0]) == (1 << E_SCOPE) | (1 << E_WEAPON)
    kernel.discard(t.G, kernel.take_from_table(t.G, t.T, 2, 0))  # the Mustang out of play
    assert dist(t, 0, 2) == 2 - 1 and int(t.G.far[2]) == 0
    assert int(t.G.named[2]) == 0 and int(t.G.kinds[2]) == 0
    t.check()
    for field, seat in (("far", 2), ("near", 3), ("gun", 0), ("named", 1), ("kinds", 4)):
        t.G[field][seat] += 1
        with pytest.raises(AssertionError, match="cards-in-play counters out of date"):
            t.check()
        t.G[field][seat] -= 1
        t.G.s[S_ERR] = 0
    t.check()


def test_checked_mode_catches_in_hand_counters_out_of_date():
    """The cards of each effect in each hand are kept per seat as cards go in and out of
    hands (State.held: the bots' counts read it instead of walking the hand), through a
    play, an answer and a swap of hands; checked mode counts them again and names a count
    left out of date, or a card whose copied effect (State.effect_of) is not the theme's."""
    t = table(FIVE)
    t.give(0, "BANG!", "BANG!", "Beer").give(1, "Missed!")
    t.play(0, "BANG!", 1)  # the BANG! leaves 0's hand, the Missed! 1's
    held = {(q, e): int(t.G.held[q, e]) for q in (0, 1) for e in (E_BANG, E_MISSED, E_HEAL)}
    assert held == {
        (0, E_BANG): 1, (0, E_MISSED): 0, (0, E_HEAL): 1,
        (1, E_BANG): 0, (1, E_MISSED): 0, (1, E_HEAL): 0,
    }  # fmt: skip
    t.check()
    for seat, effect in ((0, E_BANG), (3, E_MISSED)):
        t.G.held[seat, effect] += 1
        with pytest.raises(AssertionError, match="cards-in-hand counters out of date"):
            t.check()
        t.G.held[seat, effect] -= 1
        t.G.s[S_ERR] = 0
    t.check()
    t.G.effect_of[0] += 1
    with pytest.raises(AssertionError, match="cards-in-hand counters out of date"):
        t.check()
