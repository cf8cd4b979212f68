"""Adaptive precision: play a run in rounds of chunks until its intervals are narrow enough
(`bangsim run --precision`, `bangsim experiment --precision`; docs/precision.md).

The chunks are those of a fixed-size run of `cap` games per configuration (chunk i holds
games i * chunk_size ..), so the rows are the same games a fixed run would play. Round r
plays chunk r of every configuration still open; after the round, each open configuration
is measured on its chunks 0..r alone (`reports.aggregate.widest_intervals`): when its widest
95% interval half-width (side win rates; with `characters`, character-in-role effects too)
is under the target it closes, else it stays open until its chunks run out at the cap.
Checks happen only there, at whole rounds, on data that depends only on (seed, game index),
so where a run stops is a pure function of the request: threads, backend, Ctrl-C and resume
cannot move it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from typing import Any

from simcore.errors import UserError
from simcore.stats import Z95, wilson_interval

DEFAULT_CAP = 2_000_000  # games per configuration when --precision is given without --games
ABOVE = ", above the target"  # ends the line of a configuration the cap stopped


@dataclass(frozen=True)
class Precision:
    """The target: every 95% interval half-width under `target` (a share: 0.005 = ±0.5
    points); side win rates always, character-in-role effects with `characters`."""

    target: float
    characters: bool = False

    def request(self) -> dict[str, Any]:
        """Its part of a run folder's request (manifest.json)."""
        return {"target": self.target, "characters": self.characters}


def check_precision(target: Any, characters: bool, cap: int) -> Precision | None:
    """The Precision asked for (None without a target), or UserError (one line): a target
    that is not a number strictly between 0 and 0.5, characters without a target, or a cap
    (games per configuration) too small to reach the target however the games go."""
    if target is None:
        if characters:
            raise UserError("--precision-characters needs --precision (the target half-width)")
        return None
    if isinstance(target, bool) or not isinstance(target, Real) or not 0 < target < 0.5:
        raise UserError(
            f"--precision must be a number between 0 and 0.5, the 95% interval half-width "
            f"to reach (0.005 = ±0.5 points), got {target!r}"
        )
    least = least_games(float(target))
    if cap < least:
        lower, upper = wilson_interval(0, cap)
        raise UserError(
            f"--games {cap} cannot reach --precision {target}: at {cap} games no 95% interval "
            f"is narrower than ±{(upper - lower) / 2:.4f}; give --games at least {least} (or "
            f"leave it out: the cap is then {DEFAULT_CAP:,})"
        )
    return Precision(float(target), bool(characters))


def least_games(target: float) -> int:
    """The fewest games with any 95% Wilson interval half-width under `target`: the
    narrowest interval is at 0 (or all) wins, z² / (2 (n + z²)) wide on each side."""
    z2 = Z95 * Z95
    return max(1, math.floor(z2 / (2 * target) - z2) + 1)


def precision_rounds(
    out: Path, chunks: Sequence[Any], precision: Precision, manifest: dict[str, Any]
) -> Iterator[list[Any]]:
    """The chunks to play, round by round (`simcore.runs.runfolder.write_chunks`, which plays and
    writes each round before asking for the next): round r is chunk r of every open
    configuration. After each round the open configurations are measured and the result
    recorded in `manifest` (see `_record`). Chunks need .label, .index, .games and .file."""
    from simcore.runs.cells import add_cells, collect_cells, scan_seats, widest_intervals

    plan: dict[str, list[Any]] = {}
    for chunk in sorted(chunks, key=lambda c: c.index):
        plan.setdefault(chunk.label, []).append(chunk)
    state = {label: {"games": 0, "chunks": 0, "half_width": None, "widest": None,
                     "precise": False} for label in plan}  # fmt: skip
    cells: dict[str, Any] = {}  # label -> the cells of its chunks so far
    for r in range(max(len(c) for c in plan.values())):
        batch = [plan[label][r] for label, s in state.items() if open_at(s, plan[label], r)]
        if not batch:
            return
        yield batch
        for chunk in batch:
            new = collect_cells(scan_seats(out, [chunk.file]))
            cells[chunk.label] = add_cells([cells[chunk.label], new]) if r else new
            state[chunk.label]["games"] += chunk.games
            state[chunk.label]["chunks"] += 1
        measured = widest_intervals(
            add_cells([cells[c.label] for c in batch]), precision.characters
        ).collect()
        for row in measured.iter_rows(named=True):
            s = state[row["config"]]
            s.update(half_width=row["half_width"], widest=row["widest"])
            s["precise"] = row["half_width"] < precision.target  # NaN: not precise
        finished = not any(open_at(s, plan[label], r + 1) for label, s in state.items())
        _record(manifest, precision, state, r + 1, finished)


def open_at(state: dict[str, Any], chunks: list[Any], r: int) -> bool:
    """A configuration plays round r: not yet precise, and its chunk r is within the cap."""
    return not state["precise"] and r < len(chunks)


def _record(
    manifest: dict[str, Any],
    precision: Precision,
    state: dict[str, dict[str, Any]],
    rounds: int,
    finished: bool,
) -> None:
    """The manifest's "precision" entry (target, rounds played, finished, reached, and per
    configuration: games, chunks, widest half-width and what it belongs to, precise) and
    each config's games and chunks so far."""
    manifest["precision"] = {
        **precision.request(),
        "rounds": rounds,
        "finished": finished,
        "reached": finished and all(s["precise"] for s in state.values()),
        "configs": {label: dict(s) for label, s in state.items()},
    }
    for config in manifest.get("configs", []):
        if config.get("label") in state:
            config["games"] = state[config["label"]]["games"]
            config["chunks"] = state[config["label"]]["chunks"]


def precision_lines(manifest: dict[str, Any]) -> list[str]:
    """What an adaptive run says at its end: a headline (reached, or stopped by the cap in
    how many configurations), then per configuration its games and widest interval."""
    entry = manifest.get("precision") or {}
    target, configs = entry.get("target"), entry.get("configs") or {}
    what = "side win rates" + (" and character-in-role effects" if entry.get("characters") else "")
    games = sum(c["games"] for c in configs.values())
    short = sum(not c["precise"] for c in configs.values())
    if not entry.get("finished"):
        head = f"precision ±{target} on {what}: not finished (the run is incomplete)"
    elif entry.get("reached"):
        head = f"precision ±{target} on {what} reached after {entry.get('rounds', 0)} round(s)"
    else:
        head = (
            f"precision ±{target} on {what} NOT reached in {short} of {len(configs)} "
            f"configuration(s): the cap of {manifest['request']['games']:,} games stopped them"
        )
    lines = [f"{head}; {games:,} games in all"]
    for label, c in configs.items():
        width = "?" if c["half_width"] is None else f"±{c['half_width']:.4g}"
        lines.append(
            f"  {label}: {c['games']:,} games, widest {width} ({c['widest']})"
            + ("" if c["precise"] else ABOVE)
        )
    return lines
