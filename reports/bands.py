"""Verdicts as bands: where bands ship for a configuration's theme and player count
(simcore.studies.band: strategies/bands, or BANGSIM_BANDS), the report shows each banded
side's rate with the range its band's end profiles give, e.g. "55.3% (49.0–64.0%)".

The ends are replayed on the run's own deals, once: `bangsim run` and `experiment` replay
them after the games and keep them in the run folder (BANDS_FILE), where its reports read
them; a report replays (and keeps) what the folder does not hold for these bands, deals and
version. Each end preset, and the run's own strategy, play deals
0 .. min(games, REPLAY_GAMES)-1 of the run's seed, so centre and ends differ by the
strategies alone (common random numbers). Each end reads the run's rate plus
its paired difference from the centre on those deals, so a band whose end is the run's own
play holds the run's rate. The characters' effects are measured at every end too.
A band applies to a configuration that plays the printed game (no overrides, the whole
character pool, no featured character) under the strategy the band was searched from
(`tuned`): its ends are near-equilibria of that game, not of another.

A character's verdict is *robust* when its effect has the same sign under the
configuration's own play and at every end of every band at that table; otherwise the
report flags it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simcore.engine.request import split_label
from simcore.engine.theme import ThemeError, load_theme
from simcore.runs.atomic import write_atomic
from simcore.runs.runfolder import theme_digest, versions
from simcore.studies import band
from simcore.studies.band import ENDS, Replayed, replay, table_bands
from simcore.studies.batch import Tally

BANDS_FILE = "bands.json"  # in a run folder: its band ends replayed (keep_bands), by config


def config_bands(
    manifest: dict[str, Any] | None, summary: pl.DataFrame, run: Path | None = None
) -> dict[str, Replayed]:
    """Per configuration of the run that a shipped band applies to, its bands replayed on
    the run's deals (the manifest's seed); empty without a manifest or a band. With the run
    folder `run`, read from its BANDS_FILE where it keeps them (keep_bands), and kept there
    when replayed here."""
    cells = summary.select("config", "theme", "players", "games").iter_rows()
    return _bands(manifest, cells, run)[0]


def keep_bands(
    run: Path, manifest: dict[str, Any] | None, cells: Iterable[tuple[str, str, int, int]]
) -> int:
    """Replay the bands of `cells` (config, theme id, players, games played) on the run's
    deals, those the run folder does not keep yet, and keep them in its BANDS_FILE for its
    reports; the games played (0: every one was kept, or no band applies)."""
    fresh = _bands(manifest, cells, run)[1]
    return sum(
        found.games * len({id(t) for t in [*found.ends.values(), found.centre] if t})
        for found in fresh.values()
    )  # each distinct profile (an end, the centre) plays once


def _bands(
    manifest: dict[str, Any] | None,
    cells: Iterable[tuple[str, str, int, int]],
    run: Path | None,
) -> tuple[dict[str, Replayed], dict[str, Replayed]]:
    """(every cell's bands, those replayed here): read from the run folder's BANDS_FILE
    where it holds these bands replayed on these deals by this version, else played and
    kept there (a folder that cannot be written is left as it is)."""
    seed = ((manifest or {}).get("request") or {}).get("seed")
    if seed is None:
        return {}, {}
    files = (manifest or {}).get("theme_files") or {}
    kept = _read_kept(run)
    out, fresh, entries, themes = {}, {}, {}, {}
    for config, theme_id, players, games in cells:
        parts = split_label(config)
        if parts.extras:  # a pool, a featured character or overrides: another game
            continue
        if theme_id not in themes:
            try:
                themes[theme_id] = load_theme(files.get(theme_id, theme_id))
            except ThemeError:
                themes[theme_id] = None
        if (theme := themes[theme_id]) is None:
            continue
        bands = table_bands(theme, players, parts.strategy)
        if not bands:
            continue
        key = _key(theme, players, seed, games, parts.strategy, bands)
        entry = kept.get(config)
        if isinstance(entry, dict) and entry.get("key") == key:
            out[config] = _replayed(entry, bands)
            continue
        found = replay(theme, players, seed, games, start=parts.strategy)
        if found is not None:
            out[config] = fresh[config] = found
            entries[config] = _entry(found, key)
    if entries and run is not None:
        try:
            write_atomic(run / BANDS_FILE, json.dumps(kept | entries).encode())
        except OSError:
            pass  # kept only to spare the next report the replay
    return out, fresh


def _key(theme, players: int, seed: int, games: int, start: str | None, bands) -> str:
    """What a replay is a function of: the deals, the theme, the bands (an end profile's file
    by its content, wherever the bands folder lies) and the versions."""
    ends = [asdict(b) | {f"{e}_strategy": _content(b.strategy(e)) for e in ENDS} for b in bands]
    what = [
        theme_digest(theme), players, seed, min(games, band.REPLAY_GAMES), start, ends,
        {k: v for k, v in versions().items() if k != "python"},
    ]  # fmt: skip
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()


def _content(spec: str) -> str:
    """A strategy spec as a key: the sha256 of the file it names (FILE or FILE:NAME, then
    with its :NAME), else the spec."""
    path, name = spec, ""
    if not Path(path).is_file() and ":" in spec:
        path, name = spec.rsplit(":", 1)
    if not Path(path).is_file():
        return spec
    return hashlib.sha256(Path(path).read_bytes()).hexdigest() + (f":{name}" if name else "")


def _tally_json(t: Tally) -> dict[str, Any]:
    return {"games": t.games, "sides": t.sides.tolist(), "seats": t.seats.tolist(),
            "wins": t.wins.tolist()}  # fmt: skip


def _tally(d: dict[str, Any]) -> Tally:
    return Tally(d["games"], np.array(d["sides"]), np.array(d["seats"]), np.array(d["wins"]))


def _entry(found: Replayed, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "games": found.games,
        "characters": list(found.characters),
        "ends": [[side, end, _tally_json(t)] for (side, end), t in found.ends.items()],
        "centre": None if found.centre is None else _tally_json(found.centre),
    }


def _replayed(entry: dict[str, Any], bands) -> Replayed:
    centre = entry["centre"]
    return Replayed(
        bands,
        {(side, end): _tally(t) for side, end, t in entry["ends"]},
        entry["games"],
        tuple(entry["characters"]),
        None if centre is None else _tally(centre),
    )


def _read_kept(run: Path | None) -> dict[str, Any]:
    """The run folder's kept replays by config; empty when it has none (or none readable)."""
    if run is None:
        return {}
    try:
        kept = json.loads((run / BANDS_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def band_table(bands: dict[str, Replayed], sides: pl.DataFrame) -> pl.DataFrame:
    """One row per configuration and banded side: its band's ends replayed on the run's
    deals and read against the run's own rate of the side in `sides` (Replayed.side_band;
    rates as shares), and the end presets."""
    rate = {(c, s): r for c, s, r in sides.select("config", "side", "rate").iter_rows()}
    rows = []
    for config, found in bands.items():
        for b in found.bands:
            low, high = found.side_band(b.side, rate.get((config, b.side)))
            rows.append(
                {
                    "config": config, "side": b.side, "epsilon": b.epsilon / 100,
                    "band_low": low, "band_high": high, "band_games": found.games,
                    "shipped_low": b.low / 100, "shipped_high": b.high / 100,
                    "low_strategy": b.low_strategy, "high_strategy": b.high_strategy,
                    "start_within": b.start_within,
                }
            )  # fmt: skip
    schema = {
        "config": pl.String, "side": pl.String, "epsilon": pl.Float64, "band_low": pl.Float64,
        "band_high": pl.Float64, "band_games": pl.Int64, "shipped_low": pl.Float64,
        "shipped_high": pl.Float64, "low_strategy": pl.String, "high_strategy": pl.String,
        "start_within": pl.Boolean,
    }  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def with_bands(sides: pl.DataFrame, bands: pl.DataFrame) -> pl.DataFrame:
    """The sides table with `band_low`, `band_high`, `band_epsilon` and `start_within` (is
    the configuration's own play within epsilon of every best response?), null where no
    band applies or, for start_within, where its row does not say."""
    ends = bands.select(
        "config", "side", "band_low", "band_high", pl.col("epsilon").alias("band_epsilon"),
        "start_within",
    )  # fmt: skip
    return sides.join(ends, on=["config", "side"], how="left")


def robust_characters(characters: pl.DataFrame, bands: dict[str, Replayed]) -> pl.DataFrame:
    """The characters table with `robust`: the effect's sign the same under the
    configuration's play and at every band end (null where no band applies)."""
    rows = []
    for config, found in bands.items():
        ends = [found.ends[(b.side, e)].effects()[0] for b in found.bands for e in ENDS]
        for i, name in enumerate(found.characters):
            signs = sorted({float(np.sign(e[i])) for e in ends if np.isfinite(e[i])})
            rows.append({"config": config, "character": name, "_signs": signs})
    schema = {"config": pl.String, "character": pl.String, "_signs": pl.List(pl.Float64)}
    own = pl.col("effect").sign().cast(pl.Float64)
    robust = (pl.col("_signs").list.len() == 1) & (pl.col("_signs").list.first() == own)
    return (
        characters.join(pl.DataFrame(rows, schema=schema), on=["config", "character"], how="left")
        .with_columns(
            pl.when(pl.col("_signs").is_null()).then(None).otherwise(robust).alias("robust")
        )
        .drop("_signs")
    )
