"""Seat rows: one engine `GameBlock` -> the run folder's seat table (DESIGN.md, "Run folder").

One row per seat per game, ordered by game then seat. Strings are plain Utf8: they
dictionary-encode in Parquet anyway, and frames from different themes concatenate cleanly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from simcore.engine import vocab

if TYPE_CHECKING:
    from simcore.engine.theme import Theme

# the seat table: column -> dtype, in order (names fixed by DESIGN.md)
SEAT_SCHEMA: dict[str, pl.DataType] = {
    "config": pl.String(),
    "theme": pl.String(),
    "players": pl.UInt8(),
    "game": pl.UInt64(),
    "seat": pl.UInt8(),
    "role": pl.String(),
    "character": pl.String(),
    "strategy": pl.String(),
    "won": pl.Boolean(),
    "survived": pl.Boolean(),
    "winner": pl.String(),
    "turns": pl.UInt16(),
    "rounds": pl.UInt16(),
    "capped": pl.Boolean(),
    "featured": pl.Boolean(),  # the seat of the featured character (--feature), else False
}

# columns added to SEAT_SCHEMA after run folders were first written, with the value rows
# written without them read as (simcore.runs.cells.scan_seats fills them in; a chunk without
# them is not damaged)
SEAT_DEFAULTS: dict[str, Any] = {"featured": False}

# winner code + 1 -> name: W_NONE (-1) is "none"
WINNER_NAMES = ("none", *vocab.WINNERS)


def seat_frame(block: Any, theme: Theme, players: int, game0: int, config: str) -> pl.DataFrame:
    """The seat rows of `block` (games game0, game0+1, ...), columns and dtypes as SEAT_SCHEMA.

    Raises ValueError when the block's shapes or codes are inconsistent (an engine bug,
    never silently written to disk).
    """
    n = len(block.winner)
    _check_block(block, n, players)
    game = np.repeat(np.arange(game0, game0 + n, dtype=np.uint64), players)
    seat = np.tile(np.arange(players, dtype=np.uint8), n)

    def per_seat(per_game: np.ndarray) -> np.ndarray:  # a per-game value on each of its seats
        return np.repeat(per_game, players)

    frame = pl.DataFrame(
        {
            "game": game,
            "seat": seat,
            "role": _names(block.role.reshape(-1), vocab.ROLES, "role"),
            "character": _names(block.character.reshape(-1), theme.character_names, "character"),
            "strategy": _names(block.preset.reshape(-1), block.preset_names, "preset"),
            "won": block.won.reshape(-1).astype(np.bool_),
            "survived": block.survived.reshape(-1).astype(np.bool_),
            "winner": _names(per_seat(block.winner), WINNER_NAMES, "winner", offset=1),
            "turns": per_seat(block.turns.astype(np.uint16)),
            "rounds": per_seat(block.rounds.astype(np.uint16)),
            "capped": per_seat(block.capped.astype(np.bool_)),
            "featured": _featured(block, n, players),
        }
    )
    return frame.select(
        pl.lit(config, dtype=pl.String).alias("config"),
        pl.lit(theme.id, dtype=pl.String).alias("theme"),
        pl.lit(players, dtype=pl.UInt8).alias("players"),
        *[
            pl.col(c).cast(t)
            for c, t in SEAT_SCHEMA.items()
            if c not in ("config", "theme", "players")
        ],
    )


def empty_seat_frame() -> pl.DataFrame:
    """A seat table with no rows (the schema, for concatenation and tests)."""
    return pl.DataFrame(schema=SEAT_SCHEMA)


def _featured(block: Any, n: int, players: int) -> np.ndarray:
    """True on each game's featured seat (GameBlock.featured, -1 = none): one per game with a
    feature, none without."""
    featured = getattr(block, "featured", None)
    if featured is None:
        return np.zeros(n * players, np.bool_)
    featured = np.asarray(featured).astype(np.int64)
    if featured.shape != (n,):
        raise ValueError(f"engine block: featured has shape {featured.shape}, expected {(n,)}")
    if n and (featured.min() < -1 or featured.max() >= players):
        bad = int(featured[(featured < -1) | (featured >= players)][0])
        raise ValueError(f"engine block: featured seat {bad}, outside -1..{players - 1}")
    return (np.arange(players)[None, :] == featured[:, None]).reshape(-1)


def _names(codes: np.ndarray, names: Any, what: str, offset: int = 0) -> pl.Series:
    """names[code + offset] for each code; a code out of range is an engine bug and raises."""
    idx = np.asarray(codes).astype(np.int64) + offset
    if idx.size and (idx.min() < 0 or idx.max() >= len(names)):
        bad = idx[(idx < 0) | (idx >= len(names))][0] - offset
        lo, hi = -offset, len(names) - 1 - offset
        raise ValueError(f"engine returned {what} code {bad}, outside {lo}..{hi}")
    return pl.Series(list(names), dtype=pl.String).gather(idx.astype(np.uint32))


def _check_block(block: Any, n: int, players: int) -> None:
    expected = {
        "turns": (n,),
        "rounds": (n,),
        "capped": (n,),
        "role": (n, players),
        "character": (n, players),
        "survived": (n, players),
        "won": (n, players),
        "preset": (n, players),
    }
    for name, shape in expected.items():
        got = np.shape(getattr(block, name))
        if got != shape:
            raise ValueError(f"engine block: {name} has shape {got}, expected {shape}")
    if n and block.turns.min() < 0:
        raise ValueError(f"engine block: negative turns {int(block.turns.min())}")
