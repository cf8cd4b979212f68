"""Counter-based random numbers: SplitMix64 over a counter, keyed by (seed, game index).

Draw k of game g is mix64(key(seed, g) + k * GOLDEN): a pure function of (seed, g, k), so a
game's randomness never depends on thread count, chunking or backend. Under
NUMBA_DISABLE_JIT the wrapping uint64 arithmetic runs inside np.errstate(over="ignore").
"""

import numpy as np

from simcore.engine.jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
TAG_GAME = np.uint64(0x6A09E667F3BCC909)  # separates the game-key hash from the draw stream


@njit(cache=True)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_seed(rng, seed, game):
    """Key the stream of one game: rng[0] = key, rng[1] = counter."""
    k = mix64(np.uint64(seed) ^ TAG_GAME)
    rng[0] = mix64(k + np.uint64(game) * GOLDEN)
    rng[1] = np.uint64(0)


@njit(cache=True)
def rng_next(rng):
    rng[1] = rng[1] + np.uint64(1)
    return mix64(rng[0] + rng[1] * GOLDEN)


@njit(cache=True)
def rng_below(rng, n):
    """Uniform integer in [0, n) for 0 < n < 2**31 (multiply-shift on 31 random bits)."""
    r = rng_next(rng) >> np.uint64(33)
    return np.int64((r * np.uint64(n)) >> np.uint64(31))


@njit(cache=True)
def rng_coin(rng):
    return (rng_next(rng) >> np.uint64(63)) == np.uint64(1)
