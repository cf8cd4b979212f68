"""Example games for the HTML report: a few games of the run replayed as play-by-play traces.

The first game won by each side in each configuration asked for (the one-page report: its
first; the pages: every one), traced with `simcore.studies.trace` (all in one subprocess)
and shown as collapsible text, so a reader can see how the bots play the games the numbers
count.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from reports.names import Names
from simcore.runs.cells import SIDES, scan_seats


@dataclass(frozen=True)
class Example:
    side: str  # canonical winning side
    game: int
    summary: str  # one line: who won, how long
    text: str  # the trace, one line per event


@dataclass(frozen=True)
class Examples:
    config: str
    games: list[Example] = field(default_factory=list)
    note: str | None = None  # why there are none, when there are none


def example_games(
    run: Path, configs: list[str], names: Names, sides: tuple[str, ...] = SIDES
) -> dict[str, Examples]:
    """For each of `configs`, the first game won by each side, traced (all in one
    subprocess) and told with `names`. A run that cannot be replayed (no manifest, another
    rules version, a changed theme file) gives each configuration a note instead of games."""
    from simcore.studies.trace import TraceError, render_text, spec_from_run, trace_games

    if not configs:
        return {}
    firsts = (
        scan_seats(run)
        .filter(pl.col("config").is_in(configs) & (pl.col("seat") == 0))
        .filter(pl.col("winner").is_in(list(sides)))
        .group_by("config", "winner")
        .agg(pl.col("game").min(), pl.col("theme").first())
        .collect(engine="streaming")
    )
    found = {(row["config"], row["winner"]): row for row in firsts.iter_rows(named=True)}
    picked = {c: [found[c, side] for side in sides if (c, side) in found] for c in configs}
    out = {c: Examples(c, note="no game of this configuration was won by a side") for c in configs}
    wanted = [(c, row) for c in configs for row in picked[c]]
    try:
        # a configuration's theme read once; unchecked: the same games in less time (the
        # checked tests assert the invariants)
        first = {
            c: spec_from_run(run, int(rows[0]["game"]), c) for c, rows in picked.items() if rows
        }
        specs = [replace(first[c], game=int(row["game"]), checked=False) for c, row in wanted]
        traces = trace_games(specs, timeout=120 + 5 * len(specs)) if specs else []
    except (TraceError, RuntimeError, subprocess.TimeoutExpired) as e:
        return {c: Examples(c, note=f"the games cannot be replayed: {e}") for c in configs}
    games: dict[str, list[Example]] = {}
    for (config, row), trace in zip(wanted, traces, strict=True):
        result = trace["result"]
        side = names.side(row["winner"], row["theme"])
        summary = (
            f"Game {row['game']}: {side} win after {result['turns']} turns "
            f"({result['rounds']} rounds)"
        )
        games.setdefault(config, []).append(
            Example(row["winner"], int(row["game"]), summary, render_text(trace))
        )
    return out | {config: Examples(config, found_games) for config, found_games in games.items()}
