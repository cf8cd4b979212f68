"""The continuation entry (simcore.engine.continuation): a paused game copied and played on
is the same game; a redealt world conserves the cards and keeps what the seat sees; the
worlds are a pure function of (state, seat, seed, world)."""

import numba
import numpy as np
import pytest
from played import continue_worlds, paused_games, play_games, sample_worlds

from simcore.engine.state import S_CUR, S_DECK_N, S_DISC_N, S_N, S_NC, S_OVER, S_TURN
from simcore.engine.vocab import R_LEADER

SEED = 11
GAMES = np.arange(12)


@pytest.fixture(scope="module")
def paused():
    """Classic 5p smart games 0..11 (checked mode) paused at a turn before their end, with
    the full games."""
    full = play_games("classic", 5, len(GAMES), SEED, strategy="smart", checked=True)
    stops = (full.turns.astype(np.int64) * np.linspace(0.1, 0.9, len(GAMES))).astype(np.int64)
    states = paused_games("classic", 5, SEED, GAMES, stops, strategy="smart", checked=True)
    return full, stops, states


def test_pause_stops_at_the_turn(paused):
    full, stops, states = paused
    for g in range(len(GAMES)):
        assert states[g].s[S_TURN] == stops[g] and states[g].s[S_OVER] == 0


def test_copy_with_its_own_stream_is_the_same_game(paused):
    """Seed -1 and seat -1: the paused game goes on as it would have."""
    full, _, states = paused
    for g in range(len(GAMES)):
        before = states[g].copy()
        out = continue_worlds("classic", states[g], -1, 2, -1, strategy="smart")
        assert (out.winner == full.winner[g]).all()
        assert (out.turns == full.turns[g]).all()
        assert (out.alive == full.survived[g]).all()
        assert before.tobytes() == states[g].tobytes()  # the paused state is untouched


def piles(G):
    """Every card in the state, once each if the cards are conserved."""
    n = G.s[S_N]
    parts = [G.deck[: G.s[S_DECK_N]], G.disc[: G.s[S_DISC_N]]]
    parts += [G.hand[q, : G.hand_n[q]] for q in range(n)]
    parts += [G.table[q, : G.table_n[q]] for q in range(n)]
    return np.concatenate(parts)


def test_a_world_conserves_cards_and_keeps_what_the_seat_sees(paused):
    _, _, states = paused
    hands_moved = roles_moved = 0
    for g in range(len(GAMES)):
        G = states[g]
        n = int(G.s[S_N])
        seat = int(G.s[S_CUR])
        worlds = sample_worlds("classic", G, seat, 5, range(8), "smart")
        hidden = sorted(
            [*G.deck[: G.s[S_DECK_N]]]
            + [c for q in range(n) if q != seat for c in G.hand[q, : G.hand_n[q]]]
        )
        for W in worlds:
            assert sorted(piles(W)) == list(range(G.s[S_NC]))
            assert (W.buf == -1).all()
            for f in ("table", "table_n", "disc", "life", "max_life", "alive", "char", "karma"):
                assert (W[f] == G[f]).all(), f
            assert (W.hand_n == G.hand_n).all() and W.s[S_DECK_N] == G.s[S_DECK_N]
            assert (W.hand[seat] == G.hand[seat]).all()
            assert W.role[seat] == G.role[seat]
            for q in range(n):
                if not G.alive[q] or G.role[q] == R_LEADER:
                    assert W.role[q] == G.role[q]
            assert sorted(W.role[:n]) == sorted(G.role[:n])
            again = sorted(
                [*W.deck[: W.s[S_DECK_N]]]
                + [c for q in range(n) if q != seat for c in W.hand[q, : W.hand_n[q]]]
            )
            assert again == hidden
            hands_moved += any(
                (W.hand[q] != G.hand[q]).any() for q in range(n) if q != seat and G.hand_n[q]
            )
            roles_moved += (W.role != G.role).any()
        # played on, checked mode: no invariant breaks (CheckedModeError otherwise)
        out = continue_worlds("classic", G, seat, 8, 5, strategy="smart")
        assert ((out.winner >= 0) | out.capped).all() and (out.turns > G.s[S_TURN]).all()
    assert hands_moved > 0 and roles_moved > 0


def test_worlds_are_a_function_of_the_seed(paused):
    _, _, states = paused
    G = states[3]
    seat = int(G.s[S_CUR])
    threads = numba.get_num_threads()
    a = continue_worlds("classic", G, seat, 64, 7, strategy="smart")
    numba.set_num_threads(1)
    try:
        b = continue_worlds("classic", G, seat, 64, 7, strategy="smart")
    finally:
        numba.set_num_threads(threads)
    c = continue_worlds("classic", G, seat, 64, 8, strategy="smart")
    tail = continue_worlds("classic", G, seat, 32, 7, world0=32, strategy="smart")
    for f in a._fields:
        assert np.array_equal(getattr(a, f), getattr(b, f))
        assert np.array_equal(getattr(a, f)[32:], getattr(tail, f))
    assert not all(np.array_equal(getattr(a, f), getattr(c, f)) for f in a._fields)
    s1 = sample_worlds("classic", G, seat, 7, range(4))
    s2 = sample_worlds("classic", G, seat, 7, [2, 3])
    assert s1[2:].tobytes() == s2.tobytes() and s1[0].tobytes() != s1[1].tobytes()


def test_refuses_an_ended_game_and_a_bad_seat(paused):
    full, _, _ = paused
    over = paused_games("classic", 5, SEED, GAMES[:1], full.turns[:1] + 5)
    with pytest.raises(ValueError, match="over"):
        continue_worlds("classic", over[0], 0, 1, 1)
    _, _, states = paused
    with pytest.raises(ValueError, match="seat 5"):
        continue_worlds("classic", states[0], 5, 1, 1)
