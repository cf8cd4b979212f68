"""Example games for the HTML report: a few games of the run replayed as play-by-play traces.

The first game won by each side in the report's first configuration, traced with
`simcore.studies.trace` (all in one subprocess, about a second in all) and shown as collapsible
text, so a reader can see how the bots play the games the numbers count.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
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
) -> Examples | None:
    """The first game won by each side in the first of the run's `configs` (report order),
    traced and told with `names`; None for a run without configurations. A run that cannot be replayed (no manifest, another rules
    version, a changed theme file) gives a note instead of games."""
    from simcore.studies.trace import TraceError, render_text, spec_from_run, trace_games

    if not configs:
        return None
    config = configs[0]
    firsts = (
        scan_seats(run)
        .filter((pl.col("config") == config) & (pl.col("seat") == 0))
        .filter(pl.col("winner").is_in(list(sides)))
        .group_by("winner")
        .agg(pl.col("game").min(), pl.col("theme").first())
        .collect(engine="streaming")
    )
    found = {row["winner"]: row for row in firsts.iter_rows(named=True)}
    picked = [found[side] for side in sides if side in found]
    if not picked:
        return Examples(config, note="no game of this configuration was won by a side")
    try:
        specs = [spec_from_run(run, int(row["game"]), config) for row in picked]
        traces = trace_games(specs, timeout=120)
    except (TraceError, RuntimeError, subprocess.TimeoutExpired) as e:
        return Examples(config, note=f"the games cannot be replayed: {e}")
    games = []
    for row, trace in zip(picked, traces, strict=True):
        result = trace["result"]
        side = names.side(row["winner"], row["theme"])
        summary = (
            f"Game {row['game']}: {side} win after {result['turns']} turns "
            f"({result['rounds']} rounds)"
        )
        games.append(Example(row["winner"], int(row["game"]), summary, render_text(trace)))
    return Examples(config, games)
