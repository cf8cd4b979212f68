"""Throughput benchmark: `python -m simcore.bench [--games N]`.

Classic theme, 5 players, `basic` and then `smart` bots. Compiles first (a small warm-up
block), then times the same games on 1 thread and on all threads and prints games/s,
games/s per core and the speed-up. Both runs must give identical games (results never
depend on thread count). Then smart's speed relative to basic's.

Last, what the event files cost (`--event-pairs`, 0 skips it): run-folder chunks as `bangsim
run` writes them (play, seat rows, Parquet written atomically to a temporary folder), on
all threads (`--event-threads`), with and without the event counts and their file
(simcore.event_rows), timed in alternating pairs (off-on, then on-off, ...) so that the
machine's drift hits both alike; prints the median games/s of each and the cost, by wall
clock and by CPU time (less disturbed by other load on the machine).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

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
    parser.add_argument(
        "--event-pairs",
        type=int,
        default=3,
        help="event-file cost: off/on timing pairs of --event-games games (default 3; 0 skips)",
    )
    parser.add_argument(
        "--event-threads",
        type=int,
        default=None,
        help="threads for the event-cost timings (default: all, as bangsim run plays)",
    )
    parser.add_argument(
        "--event-games",
        type=int,
        default=100_000,
        help="games per event-cost timing, in chunks of 50000 (default 100000)",
    )
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
    if args.event_pairs > 0:
        threads = args.event_threads or cores
        bench_events(theme, args.event_games, args.event_pairs, args.seed, threads)


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


def time_chunks(theme, games: int, seed: int, events: bool, folder: Path) -> tuple[float, float]:
    """(wall, CPU) seconds to play and write `games` games as run-folder chunks of the
    default size, seat files only or seat and event files (what `bangsim run` does per
    chunk). CPU time is the process's, every thread (numba's and polars') included."""
    from simcore.engine import play_games
    from simcore.event_rows import WRITE_OPTIONS, event_frame
    from simcore.rows import seat_frame
    from simcore.runfolder import DEFAULT_CHUNK_SIZE, write_parquet_atomic

    wall, cpu = time.perf_counter(), time.process_time()
    for i, game0 in enumerate(range(0, games, DEFAULT_CHUNK_SIZE)):
        n = min(DEFAULT_CHUNK_SIZE, games - game0)
        block = play_games(theme, PLAYERS, n, seed, game0=game0, strategy="smart", events=events)
        label = f"{THEME}/{PLAYERS}p/smart"
        write_parquet_atomic(seat_frame(block, theme, PLAYERS, game0, label), folder / f"s{i}")
        if events:
            rows = event_frame(block, theme, PLAYERS, game0, label)
            write_parquet_atomic(rows, folder / f"e{i}", WRITE_OPTIONS)
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_events(theme, games: int, pairs: int, seed: int, threads: int) -> dict[str, float]:
    """Print and return the cost of the event counts and files: 1 - (games/s with) / (games/s
    without), the median over alternating pairs, by wall-clock and by CPU time."""
    numba.set_num_threads(threads)
    ratios: dict[str, list[float]] = {"wall": [], "cpu": []}
    rates: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        time_chunks(theme, 2_000, seed, True, Path(tmp))  # compile the event code
        for pair in range(pairs):
            seconds = {}
            for events in (False, True) if pair % 2 == 0 else (True, False):
                seconds[events] = time_chunks(theme, games, seed, events, Path(tmp))
                rates[events].append(games / seconds[events][0])
            for i, clock in enumerate(ratios):
                ratios[clock].append(seconds[False][i] / seconds[True][i])
    cost = {clock: 1 - statistics.median(r) for clock, r in ratios.items()}
    print(
        f"run-folder chunks (play + seat rows + Parquet), smart bots, {threads} thread(s), "
        f"{pairs} alternating off/on pairs of {games:,} games"
    )
    for events in (False, True):
        each = ", ".join(f"{r:,.0f}" for r in rates[events])
        label = "on " if events else "off"
        print(f"  events {label}: {statistics.median(rates[events]):10,.0f} games/s  ({each})")
    print(
        f"  event counts and files cost {100 * cost['wall']:.1f}% of games/s (wall clock), "
        f"{100 * cost['cpu']:.1f}% by CPU time (medians of the pairs' ratios)"
    )
    return cost


if __name__ == "__main__":
    main()
