"""A scored bot's pick made while the plays are listed (kernel.legal_actions with `choose`)
is the pick policy.choose_action makes from the listed plays by score_action, and the list
is the same: at every living scored seat of real games paused at random turns."""

import numpy as np
import pytest
from played import paused_games

from simcore.engine.kernel import legal_actions
from simcore.engine.state import NOT_CHOSEN, S_CHOICE, S_ENEMY_FOR, S_N, S_OVER
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme
from strategies.decide import choose_action
from strategies.params import P_RANDOM

CASES = [
    ("classic", 5, "smart"),
    ("classic", 7, "tuned"),
    ("classic_dodge_city", 4, "aggressive"),
    ("star_wars", 6, "smart"),  # Encounters with Destiny at 2 life or less
    ("walking_dead", 5, "leader=cautious,outlaw=aggressive"),
]


@pytest.mark.parametrize("theme, players, strategy", CASES)
def test_pick_while_listing_is_the_pick_from_the_list(theme, players, strategy):
    games = np.arange(60)
    stops = np.random.default_rng(5).integers(1, 40, len(games))
    states = paused_games(theme, players, 9, games, stops, strategy=strategy)
    T = pack_tables(load_theme(theme).tables)[0]
    picks = plays = 0
    for G in states:
        if G.s[S_OVER]:
            continue
        for p in range(int(G.s[S_N])):
            if G.alive[p] == 0 or G.w[p, P_RANDOM] > 0.5:
                continue
            n = legal_actions(G, T, p, True)
            k = int(G.s[S_CHOICE])
            listed = (G.act_idx[:n].copy(), G.act_tgt[:n].copy(), G.act_opt[:n].copy())
            G.s[S_ENEMY_FOR] = 0  # the reference computes the enemy scores anew
            assert legal_actions(G, T, p, False) == n and G.s[S_CHOICE] == NOT_CHOSEN
            assert all(
                (a == b[:n]).all()
                for a, b in zip(listed, (G.act_idx, G.act_tgt, G.act_opt), strict=True)
            )
            assert choose_action(G, T, p, n) == k
            picks += k >= 0
            plays += n
    assert picks > 30 and plays > 150  # enough choices made to mean something
