"""A study's table kept in a run folder, for the report to show beside the run's own:
`bangsim skill --out RUN` and `bangsim cards --out RUN` write PREFIX-THEME_Np.json (its rows)
and PREFIX-THEME_Np.png (its chart); `bangsim report RUN` reads every such table back."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from simcore.runs.atomic import write_atomic

FORMAT = 1


def write_table(
    out: Path, prefix: str, theme: str, players: int, table: pl.DataFrame, chart: bytes
) -> Path:
    """Write out/PREFIX-THEME_Np.json (the rows, NaN as null) and its .png chart, each
    atomically; returns the JSON file's path."""
    stem = out / f"{prefix}-{theme}_{players}p"
    out.mkdir(parents=True, exist_ok=True)
    rows = table.with_columns(pl.selectors.float().fill_nan(None)).to_dicts()
    text = json.dumps({"format": FORMAT, "rows": rows}, ensure_ascii=False, indent=1) + "\n"
    write_atomic(stem.with_suffix(".json"), text.encode())
    write_atomic(stem.with_suffix(".png"), chart)
    return stem.with_suffix(".json")


def read_tables(
    folder: Path, prefix: str, schema: dict[str, pl.DataType], what: str
) -> pl.DataFrame | None:
    """Every PREFIX-*.json table in `folder` as one table (columns `schema`, null floats as
    NaN); None when there is none. ValueError (one line) for a file that is not `what`."""
    paths = sorted(Path(folder).glob(f"{prefix}-*.json"))
    if not paths:
        return None
    frames = []
    for path in paths:
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
            frame = pl.DataFrame(rows, schema=schema)
            frames.append(frame.with_columns(pl.selectors.float().fill_null(float("nan"))))
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            detail = " ".join(str(e).split())[:120]
            raise ValueError(f"{path}: not {what} ({detail}); delete it") from None
    return pl.concat(frames)
