"""The benchmark behind `bangsim bench` (and `make bench`): how fast, how big, how soon.

- Kernel throughput: games/s of every shipped theme at 4 and 7 players with `smart` and
  `tuned` bots, on one thread and on all, the parallel efficiency (games/s on all threads /
  threads x games/s on one) and microseconds per turn (one thread, wall clock). Both thread
  counts must give identical games.
- The targets' configuration (classic, 5 players, `smart`), with more games (`target_games`).
- A run folder: `bangsim run` of `run_games` games (Parquet included) in a subprocess, its
  wall time and peak memory (RSS).
- Start: the seconds from a fresh process to the end of a one-game `bangsim run`, with a
  warm numba cache and (`cold`) with an empty one (the whole kernel compiles).
- The ceiling ratio: the targets' games/s on one thread over the 85,000 games/s per core
  of a stripped kernel (BANG!, Missed!, Beer and weapons only; DESIGN.md "Speed").
- Continuations (simcore.engine.continuation): classic 5p `smart` games paused at uniformly
  random turns, each played on in `continuation_worlds` worlds redealt from the seat to
  move's view, on one thread: continuations per second.
- A seat that searches (simcore.engine.search): classic 5p `tuned` games with one outlaw
  playing `search:tuned` (the default settings, as `exploit --method search` plays it),
  on all threads: games and searched decisions per second (`search_games`).
- The learned field: every shipped `strong` (strategies/strong/THEME_Np.toml) beside
  `tuned` at its table, one thread and all, and their ratio (by CPU time).
- The teacher (simcore.engine.labels): classic 5p `tuned` games with 3% of the play-phase
  decisions labelled, every option on 64 worlds (`bangsim learn`'s defaults), on all
  threads: labelled decisions and rollouts per second (`teacher_games`).
- Optionally (`event_pairs`) what the event counts and files cost (bench_events).

Everything is printed as it is measured, then as one table against the targets; `--json`
also writes it all, with the versions, the machine's core count, the command and the date,
so runs can be compared over time. The figures are wall clock on a machine others may
share: compare runs made on a quiet machine, or alternate old and new code.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numba
import numpy as np

from strategies.presets import resolve_strategy

THEME = "classic"  # the targets' configuration and the event-cost timings
PLAYERS = 5
STRATEGY = "smart"
BENCH_PLAYERS = (4, 7)
BENCH_STRATEGIES = ("smart", "tuned")
WARMUP_GAMES = 2_000
GIB = 2**30
OTHER_ROLES = ("leader", "deputy", "renegade")  # the search bench's tuned seats
CEILING_GAMES_PER_S = 85_000  # the stripped kernel's games/s per core (DESIGN.md "Speed")

# the speed targets (docs/speed.md) on a 2-core machine, warm cache, classic 5 players smart
TARGETS = {
    "games_per_s_per_core": (">=", 25_000),
    "efficiency": (">=", 0.90),
    "run_1m_seconds": ("<", 25.0),
    "warm_start_seconds": ("<", 2.0),
    "cold_start_seconds": ("<", 120.0),
    "run_peak_rss_gib": ("<", 1.5),
}


@dataclass(frozen=True)
class Settings:
    games: int = 20_000  # per timing of each theme/players/strategy
    target_games: int = 200_000  # per timing of classic 5p smart
    run_games: int = 1_000_000  # games of the `bangsim run` timing; 0 skips it
    cold: bool = True  # time a start with an empty numba cache (the kernel compiles)
    event_pairs: int = 0  # alternating off/on pairs of the event-cost timing; 0 skips it
    continuation_states: int = 200  # paused games of the continuation timing
    continuation_worlds: int = 100  # worlds played on from each
    search_games: int = 256  # games with one search seat; 0 skips it
    teacher_games: int = 200  # games the teacher labels; 0 skips it
    seed: int = 1


QUICK = Settings(
    games=2_000,
    target_games=20_000,
    run_games=100_000,
    cold=False,
    continuation_states=20,
    continuation_worlds=50,
    search_games=32,
    teacher_games=16,
)


def time_games(theme, players: int, games: int, seed: int, threads: int, strategy: str):
    """(wall seconds, CPU seconds of every thread, block) for `games` games on `threads`
    numba threads."""
    from simcore.engine.play import play_games

    resolved = resolve_strategy(strategy, players, theme.plays_as)
    numba.set_num_threads(threads)
    wall, cpu = time.perf_counter(), time.process_time()
    block = play_games(theme, players, games, seed, strategy=resolved)
    return time.perf_counter() - wall, time.process_time() - cpu, block


def throughput(theme, players: int, strategy: str, games: int, seed: int) -> dict[str, Any]:
    """One configuration on 1 thread and on all threads (numba's default count)."""
    cores = numba.config.NUMBA_NUM_THREADS
    time_games(theme, players, WARMUP_GAMES, seed, cores, strategy)  # load or compile
    one_s, one_cpu, one = time_games(theme, players, games, seed, 1, strategy)
    all_s, all_cpu, every = time_games(theme, players, games, seed, cores, strategy)
    numba.set_num_threads(cores)
    if not all(np.array_equal(getattr(one, f), getattr(every, f)) for f in one._fields):
        raise RuntimeError(f"{theme.id} {players}p {strategy}: 1 and {cores} threads differ")
    turns = int(one.turns.astype(np.int64).sum())
    return {
        "theme": theme.id,
        "players": players,
        "strategy": strategy,
        "games": games,
        "threads": cores,
        "games_per_s_1_thread": games / one_s,
        "games_per_s_all_threads": games / all_s,
        "efficiency": one_s / (cores * all_s),
        # by CPU time, which other processes on the machine disturb less: games per
        # CPU-second on one thread, and its ratio to all threads' (1: no parallel overhead;
        # OpenMP threads waiting for work spin, so imbalance counts too)
        "cpu_games_per_s_1_thread": games / one_cpu,
        "cpu_efficiency": one_cpu / all_cpu,
        "us_per_turn": 1e6 * one_s / turns,
        "mean_turns": turns / games,
        "capped": int(np.count_nonzero(every.capped)),
    }


def continuation_rate(states: int, worlds: int, seed: int) -> dict[str, Any]:
    """Continuations per second (wall and CPU) on one thread: `states` classic 5p `smart`
    games paused at a uniformly random turn before their end, each played on in `worlds`
    worlds seen from the seat to move (continue_worlds)."""
    from simcore.engine.continuation import continue_worlds, paused_games
    from simcore.engine.play import play_games
    from simcore.engine.state import S_CUR, S_TURN
    from simcore.engine.theme import load_theme

    theme = load_theme(THEME)
    smart = resolve_strategy(STRATEGY, PLAYERS, theme.plays_as)
    turns = play_games(theme, PLAYERS, states, seed, strategy=smart).turns.astype(np.int64)
    stops = np.random.default_rng(seed).integers(0, turns)
    paused = paused_games(theme, PLAYERS, seed, np.arange(states), stops, strategy=smart)
    cores = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(1)
    continue_worlds(theme, paused[0], int(paused[0].s[S_CUR]), 10, seed, strategy=smart)
    wall, cpu, played = time.perf_counter(), time.process_time(), 0
    for G in paused:
        out = continue_worlds(theme, G, int(G.s[S_CUR]), worlds, seed, strategy=smart)
        played += int(out.turns.sum() - worlds * G.s[S_TURN])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    numba.set_num_threads(cores)
    n = states * worlds
    return {
        "states": states,
        "worlds": worlds,
        "continuations_per_s": n / wall,
        "cpu_continuations_per_s": n / cpu,
        "mean_paused_turn": float(stops.mean()),
        "mean_turns_played_on": played / n,
    }


def continuation_line(c: dict[str, Any]) -> str:
    rate = f"{c['continuations_per_s']:,.0f}/s ({c['cpu_continuations_per_s']:,.0f} per CPU-s)"
    where = f"{c['states']} states paused at turn {c['mean_paused_turn']:.1f} on average"
    on = f"{c['worlds']} worlds each, {c['mean_turns_played_on']:.1f} turns played on"
    return f"continuations, {THEME} {PLAYERS}p {STRATEGY}, 1 thread: {rate}, {where}, {on}"


def search_rate(games: int, seed: int) -> dict[str, Any]:
    """Games, searched decisions and rollouts per second (wall, all threads) of classic 5p
    `tuned` with one outlaw searching (search_spec of the default Search over tuned)."""
    from simcore.engine.play import play_games
    from simcore.studies.search_gain import search_spec
    from strategies.presets import Search

    spec = {"outlaw": search_spec(Search(), "tuned"), **{r: "tuned" for r in OTHER_ROLES}}
    strategy = resolve_strategy(spec, PLAYERS, THEME)
    play_games(THEME, PLAYERS, 2, seed, strategy=strategy)  # load or compile
    wall = time.perf_counter()
    block = play_games(THEME, PLAYERS, games, seed, strategy=strategy)
    wall = time.perf_counter() - wall
    decisions, rollouts, changed = (int(x) for x in block.searched[:, :3].sum(axis=0))
    return {
        "games": games,
        "threads": numba.config.NUMBA_NUM_THREADS,
        "search": asdict(Search(seats="one")),  # as search_spec plays it
        "games_per_s": games / wall,
        "decisions_per_s": decisions / wall,
        "rollouts_per_s": rollouts / wall,
        "decisions_per_game": decisions / games,
        "changed_share": changed / decisions if decisions else 0.0,
    }


def search_line(r: dict[str, Any]) -> str:
    s = r["search"]
    return (
        f"search seat, {THEME} {PLAYERS}p tuned, one outlaw search:tuned (worlds {s['worlds']}, "
        f"budget {s['budget']}), {r['threads']} threads: {r['games_per_s']:.1f} games/s, "
        f"{r['decisions_per_s']:,.0f} decisions/s, {r['rollouts_per_s']:,.0f} rollouts/s, "
        f"{r['decisions_per_game']:.1f} decisions a game, {100 * r['changed_share']:.0f}% "
        "leave tuned's choice"
    )


def strong_rows(games: int, seed: int, say) -> list[dict[str, Any]]:
    """throughput of each shipped `strong` and of `tuned` at its table, `say`ing each pair
    with strong's games per CPU-second over tuned's."""
    from simcore.engine.theme import load_theme
    from strategies.learned_files import shipped_strong

    rows = []
    for stem in shipped_strong():
        theme_id, _, count = stem.rpartition("_")
        theme, players = load_theme(theme_id), int(count.removesuffix("p"))
        pair = [throughput(theme, players, s, games, seed) for s in ("strong", "tuned")]
        for row in pair:
            say(row_line(row))
        ratio = pair[0]["cpu_games_per_s_1_thread"] / pair[1]["cpu_games_per_s_1_thread"]
        pair[0]["cpu_ratio_to_tuned"] = ratio
        say(f"  strong / tuned, games per CPU-second on one thread: {ratio:.2f}")
        rows += pair
    return rows


def teacher_rate(games: int, seed: int) -> dict[str, Any]:
    """Labelled decisions and rollouts per second (wall, all threads) of the teacher over
    classic 5p `tuned` with `bangsim learn`'s defaults."""
    from simcore.engine.labels import label_decisions
    from simcore.engine.play import character_pool
    from simcore.engine.theme import load_theme
    from strategies.learned_files import RATE, WORLDS
    from strategies.presets import Search

    rate, worlds, beta = RATE, WORLDS, Search.beta
    theme = load_theme(THEME)
    tuned = resolve_strategy("tuned", PLAYERS, theme.plays_as)
    pool = character_pool(theme, None, PLAYERS)
    label_decisions(theme, PLAYERS, seed, 1, tuned, pool, rate, 1, beta)  # load or compile
    wall = time.perf_counter()
    labels = label_decisions(theme, PLAYERS, seed, games, tuned, pool, rate, worlds, beta)
    wall = time.perf_counter() - wall
    rollouts = int(labels.meta[:, 2].sum()) * worlds
    return {
        "games": games,
        "threads": numba.config.NUMBA_NUM_THREADS,
        "rate": rate,
        "worlds": worlds,
        "decisions_per_s": len(labels.meta) / wall,
        "rollouts_per_s": rollouts / wall,
        "options_per_decision": float(labels.meta[:, 2].mean()) if len(labels.meta) else 0.0,
    }


def teacher_line(r: dict[str, Any]) -> str:
    return (
        f"teacher, {THEME} {PLAYERS}p tuned ({100 * r['rate']:.0f}% of decisions labelled, "
        f"{r['worlds']} worlds an option), {r['threads']} threads: "
        f"{r['decisions_per_s']:,.0f} labelled decisions/s, {r['rollouts_per_s']:,.0f} "
        f"rollouts/s, {r['options_per_decision']:.1f} options a decision"
    )


# `python -c` of bangsim_command's child: `python -m simcore ARGS` that writes its own peak
# RSS (VmHWM, which a process's exec starts afresh) to the file named by its first argument.
# A child's ru_maxrss (wait4) is no use on Linux: it keeps the high-water mark across exec,
# so it is at least the size of the process that forked it, here the bench's own.
_CHILD = """
import atexit, runpy, sys
path = sys.argv.pop(1)

def peak():
    with open("/proc/self/status") as status, open(path, "w") as out:
        out.write(next((line for line in status if line.startswith("VmHWM:")), ""))

atexit.register(peak)
runpy.run_module("simcore", run_name="__main__", alter_sys=True)
"""


def bangsim_command(args: list[str], cache_dir: str | None = None) -> tuple[float, float, float]:
    """Run `bangsim ARGS` (`python -m simcore`) in a fresh process, optionally with
    NUMBA_CACHE_DIR=cache_dir; (wall seconds, CPU seconds, peak RSS in GiB) of it: its own
    peak where /proc tells it (Linux), else wait4's ru_maxrss, which counts this process."""
    env = dict(os.environ, **({"NUMBA_CACHE_DIR": cache_dir} if cache_dir else {}))
    with tempfile.TemporaryDirectory(prefix="bangsim-peak-") as tmp:
        peak_file = Path(tmp) / "peak"
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(peak_file), *args],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise RuntimeError(f"bangsim {' '.join(args)} exited with {proc.returncode}")
        peak = peak_file.read_text().split() if peak_file.exists() else []
    # VmHWM: "VmHWM:  123456 kB"; ru_maxrss in KiB on Linux
    kib = int(peak[1]) if len(peak) == 3 and peak[2] == "kB" else usage.ru_maxrss
    return seconds, usage.ru_utime + usage.ru_stime, kib * 1024 / GIB


def run_args(out: Path, games: int, seed: int) -> list[str]:
    return ["run", "--out", str(out), "--games", str(games), "--seed", str(seed)] + [
        "--players", str(PLAYERS), "--strategy", STRATEGY, "--no-progress",
    ]  # fmt: skip


def start_seconds(cold: bool, seed: int) -> float:
    """Seconds from a fresh process to the end of `bangsim run --games 1`: with this
    process's numba cache (warm: the throughput timings filled it), or an empty one."""
    with tempfile.TemporaryDirectory(prefix="bangsim-bench-") as tmp:
        cache = os.path.join(tmp, "numba_cache") if cold else None
        seconds, _, _ = bangsim_command(run_args(Path(tmp) / "run", 1, seed), cache)
    return seconds


def run_folder(games: int, seed: int) -> dict[str, Any]:
    """`bangsim run` of `games` games into a temporary folder: wall time, peak RSS."""
    with tempfile.TemporaryDirectory(prefix="bangsim-bench-") as tmp:
        seconds, cpu, rss = bangsim_command(run_args(Path(tmp) / "run", games, seed))
    return {
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "cpu_seconds": cpu,
        "peak_rss_gib": rss,
    }


def bench(settings: Settings, say=print) -> dict[str, Any]:
    """Every measurement of the module docstring, `say`ing each as it is made; the results
    as a dict (what --json writes)."""
    from simcore.engine.theme import load_theme, shipped_themes
    from simcore.runs.runfolder import versions

    cores = numba.config.NUMBA_NUM_THREADS
    started = time.perf_counter()
    result: dict[str, Any] = {
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "versions": versions(),
        "cores": os.cpu_count(),
        "threads": cores,
        "settings": asdict(settings),
        "load_average_before": os.getloadavg()[0],  # > 0 when others share the machine
    }
    rows = []
    for theme_id in shipped_themes():
        theme = load_theme(theme_id)
        for players in BENCH_PLAYERS:
            for strategy in BENCH_STRATEGIES:
                rows.append(throughput(theme, players, strategy, settings.games, settings.seed))
                say(row_line(rows[-1]))
    result["throughput"] = rows
    result["strong"] = strong_rows(settings.games, settings.seed, say)
    target = throughput(load_theme(THEME), PLAYERS, STRATEGY, settings.target_games, settings.seed)
    say(row_line(target))
    result["target"] = target
    result["ceiling_ratio"] = target["games_per_s_1_thread"] / CEILING_GAMES_PER_S
    result["cpu_ceiling_ratio"] = target["cpu_games_per_s_1_thread"] / CEILING_GAMES_PER_S
    say(ceiling_line(result))
    if settings.continuation_states > 0:
        result["continuations"] = continuation_rate(
            settings.continuation_states, settings.continuation_worlds, settings.seed
        )
        say(continuation_line(result["continuations"]))
    if settings.search_games > 0:
        result["search"] = search_rate(settings.search_games, settings.seed)
        say(search_line(result["search"]))
    if settings.teacher_games > 0:
        result["teacher"] = teacher_rate(settings.teacher_games, settings.seed)
        say(teacher_line(result["teacher"]))
    result["peak_rss_gib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / GIB
    if settings.run_games > 0:
        result["run"] = run_folder(settings.run_games, settings.seed)
        say(run_line(result["run"]))
    start_seconds(False, settings.seed)  # fills the cache of what the timings did not run
    result["warm_start_seconds"] = start_seconds(False, settings.seed)
    say(f"warm start to the first game: {result['warm_start_seconds']:.2f} s")
    if settings.cold:
        result["cold_start_seconds"] = start_seconds(True, settings.seed)
        say(
            f"cold start (empty numba cache) to the first game: {result['cold_start_seconds']:.1f} s"
        )
    if settings.event_pairs > 0:
        result["event_cost"] = bench_events(
            load_theme(THEME), 100_000, settings.event_pairs, settings.seed, cores
        )
    result["load_average_after"] = os.getloadavg()[0]
    result["targets"] = target_rows(result)
    result["seconds"] = time.perf_counter() - started
    return result


def row_line(row: dict[str, Any]) -> str:
    return (
        f"{row['theme']:<19} {row['players']}p {row['strategy']:<6} "
        f"1 thread {row['games_per_s_1_thread']:>8,.0f} games/s  "
        f"{row['threads']} threads {row['games_per_s_all_threads']:>8,.0f} games/s  "
        f"efficiency {100 * row['efficiency']:5.1f}% (by CPU time {100 * row['cpu_efficiency']:.1f}%)  "
        f"{row['us_per_turn']:.3f} us/turn  "
        f"{row['mean_turns']:.1f} turns/game  ({row['games']:,} games)"
    )


def ceiling_line(result: dict[str, Any]) -> str:
    return (
        f"ceiling ratio ({THEME} {PLAYERS}p {STRATEGY}, 1 thread / the stripped kernel's "
        f"{CEILING_GAMES_PER_S:,} games/s per core): {result['ceiling_ratio']:.2f} "
        f"(by CPU time {result['cpu_ceiling_ratio']:.2f})"
    )


def run_line(run: dict[str, Any]) -> str:
    return (
        f"bangsim run, {THEME} {PLAYERS}p {STRATEGY}, {run['games']:,} games (Parquet "
        f"included): {run['seconds']:.1f} s, {run['games_per_s']:,.0f} games/s, "
        f"peak RSS {run['peak_rss_gib']:.2f} GiB; {run['cpu_seconds']:.1f} CPU-seconds"
    )


def target_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target of TARGETS the results measure: (name, measured, target, met)."""
    target = result["target"]
    measured: dict[str, float] = {
        "games_per_s_per_core": target["games_per_s_1_thread"],
        "efficiency": target["efficiency"],
        "warm_start_seconds": result["warm_start_seconds"],
    }
    if "cold_start_seconds" in result:
        measured["cold_start_seconds"] = result["cold_start_seconds"]
    run = result.get("run")
    if run:
        measured["run_1m_seconds"] = run["seconds"] * 1_000_000 / run["games"]
        measured["run_peak_rss_gib"] = run["peak_rss_gib"]
    rows = []
    for name, value in measured.items():
        op, goal = TARGETS[name]
        met = value >= goal if op == ">=" else value < goal
        rows.append({"name": name, "measured": value, "target": f"{op} {goal}", "met": met})
    return rows


def table(result: dict[str, Any]) -> str:
    """The throughput table, then the targets, as plain text."""
    threads = result["threads"]
    head = (
        f"{'theme':<19} {'players':>7} {'strategy':<8} {'games/s 1 thr':>13} "
        f"{f'games/s {threads} thr':>13} {'efficiency':>10} {'(by CPU)':>8} {'us/turn':>8} "
        f"{'turns':>6}"
    )
    lines = [head, "-" * len(head)]
    for row in [*result["throughput"], result["target"]]:
        lines.append(
            f"{row['theme']:<19} {row['players']:>7} {row['strategy']:<8} "
            f"{row['games_per_s_1_thread']:>13,.0f} {row['games_per_s_all_threads']:>13,.0f} "
            f"{100 * row['efficiency']:>9.1f}% {100 * row['cpu_efficiency']:>7.1f}% "
            f"{row['us_per_turn']:>8.3f} "
            f"{row['mean_turns']:>6.1f}"
        )
    lines.append("")
    lines.append(f"targets ({THEME}, {PLAYERS} players, {STRATEGY}; {result['cores']} cores):")
    for t in result["targets"]:
        value = f"{t['measured']:,.0f}" if t["measured"] >= 1000 else f"{t['measured']:.2f}"
        lines.append(
            f"  {t['name']:<22} {value:>10}  target {t['target']:<10} "
            f"{'met' if t['met'] else 'MISSED'}"
        )
    run = result.get("run")
    if run and run["games"] != 1_000_000:
        lines.append(f"  (run_1m_seconds scaled from {run['games']:,} games)")
    if run:
        per_thread = run["cpu_seconds"] / threads * 1_000_000 / run["games"]
        lines.append(
            f"  (run_1m_seconds on {threads} idle cores, from its CPU time: {per_thread:.1f})"
        )
    load = result["load_average_before"]
    busy = load > 0.5 * result["cores"]  # half the cores' worth of other work
    shared = " (others were using the machine: wall-clock figures are low)" if busy else ""
    lines.append(f"load average before the bench {load:.1f}{shared}")
    lines.append(ceiling_line(result))
    if "continuations" in result:
        lines.append(continuation_line(result["continuations"]))
    if "search" in result:
        lines.append(search_line(result["search"]))
    lines.append(f"bench process peak RSS {result['peak_rss_gib']:.2f} GiB")
    return "\n".join(lines)


def write_json(result: dict[str, Any], path: Path) -> None:
    from simcore.runs.atomic import write_atomic

    write_atomic(Path(path), (json.dumps(result, indent=1) + "\n").encode())


# --- what the event counts and files cost ------------------------------------------------


def time_chunks(theme, games: int, seed: int, events: bool, folder: Path) -> tuple[float, float]:
    """(wall, CPU) seconds to play and write `games` games as run-folder chunks of the
    default size, seat files only or seat and event files (what `bangsim run` does per
    chunk). CPU time is the process's, every thread (numba's and polars') included."""
    from simcore.engine.event_rows import WRITE_OPTIONS, event_frame
    from simcore.engine.play import play_games
    from simcore.engine.rows import seat_frame
    from simcore.runs.runfolder import DEFAULT_CHUNK_SIZE, write_parquet_atomic

    strategy = resolve_strategy(STRATEGY, PLAYERS, theme.plays_as)
    wall, cpu = time.perf_counter(), time.process_time()
    for i, game0 in enumerate(range(0, games, DEFAULT_CHUNK_SIZE)):
        n = min(DEFAULT_CHUNK_SIZE, games - game0)
        block = play_games(theme, PLAYERS, n, seed, game0=game0, strategy=strategy, events=events)
        label = f"{THEME}/{PLAYERS}p/{STRATEGY}"
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
        f"run-folder chunks (play + seat rows + Parquet), {STRATEGY} bots, {threads} "
        f"thread(s), {pairs} alternating off/on pairs of {games:,} games"
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
