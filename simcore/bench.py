"""Throughput benchmark: `python -m simcore.bench [--games N]`.

Classic theme, 5 players, `basic` and then `smart` bots. Compiles first (a small warm-up
block), then times the same games on 1 thread and on all threads and prints games/s,
games/s per core and the speed-up. Both runs must give identical games (results never
depend on thread count). Ends with smart's speed relative to basic's.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

THEME = "classic"
PLAYERS = 5
STRATEGIES = ("basic", "smart")
WARMUP_GAMES = 2_000


def time_games(theme, games: int, seed: int, threads: int, strategy: str):
    """(seconds, block) for `games` games on `threads` numba threads."""
    from simcore.engine import play_games

    numba.set_num_threads(threads)
    start = time.perf_counter()
    block = play_games(theme, PLAYERS, games, seed, strategy=strategy)
    return time.perf_counter() - start, block


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m simcore.bench",
        description="Games per second of the kernel (classic, 5 players, basic and smart bots), "
        "on 1 thread and on all threads.",
    )
    parser.add_argument(
        "--games", type=int, default=200_000, help="games per timing (default 200000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be positive")

    from simcore.theme import load_theme

    theme = load_theme(THEME)
    cores = numba.config.NUMBA_NUM_THREADS
    start = time.perf_counter()
    for strategy in STRATEGIES:
        time_games(theme, WARMUP_GAMES, args.seed, cores, strategy)
    print(
        f"warm-up (compile or load cache + {WARMUP_GAMES:,} games each): "
        f"{time.perf_counter() - start:.1f} s"
    )
    rates = {strategy: bench_one(theme, args, cores, strategy) for strategy in STRATEGIES}
    print(f"smart runs at {rates['smart'] / rates['basic']:.2f}x basic's speed (1 thread)")


def bench_one(theme, args, cores: int, strategy: str) -> float:
    """Time one strategy on 1 and on all threads; print; return the 1-thread games/s."""
    one_s, one = time_games(theme, args.games, args.seed, 1, strategy)
    all_s, every = time_games(theme, args.games, args.seed, cores, strategy)
    one_rate, all_rate = args.games / one_s, args.games / all_s
    print(f"{THEME}, {PLAYERS} players, {strategy} bots, {args.games:,} games")
    print(f"  1 thread : {one_rate:12,.0f} games/s  ({one_s:.2f} s)")
    print(
        f"  {cores} threads: {all_rate:12,.0f} games/s  ({all_s:.2f} s), "
        f"{all_rate / cores:,.0f} games/s per core, speed-up {all_rate / one_rate:.2f}x"
    )
    capped = int(np.count_nonzero(every.capped))
    print(f"  mean turns {every.turns.mean():.1f}, capped {capped:,}")
    same = all(np.array_equal(getattr(one, f), getattr(every, f)) for f in one._fields)
    print(f"  1 thread and {cores} threads give identical games: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)
    return one_rate


if __name__ == "__main__":
    main()
