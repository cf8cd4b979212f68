"""Seat rows from a hand-built engine block: columns, dtypes, order, values, Parquet."""

from typing import NamedTuple

import numpy as np
import polars as pl
import pytest

from simcore.engine import vocab
from simcore.engine.rows import SEAT_SCHEMA, empty_seat_frame, seat_frame
from simcore.engine.theme import load_theme

LE, OU, RE = vocab.R_LEADER, vocab.R_OUTLAW, vocab.R_RENEGADE


class FakeBlock(NamedTuple):  # the fields of simcore.engine.play.GameBlock, by contract
    winner: np.ndarray
    turns: np.ndarray
    rounds: np.ndarray
    capped: np.ndarray
    role: np.ndarray
    character: np.ndarray
    survived: np.ndarray
    won: np.ndarray
    preset: np.ndarray
    preset_names: tuple[str, ...]


def make_block() -> FakeBlock:
    """Three 4-player games: the leader side wins, the outlaws win, capped."""
    return FakeBlock(
        winner=np.array([vocab.W_LEADER, vocab.W_OUTLAW, vocab.W_NONE], dtype=np.int8),
        turns=np.array([31, 12, 1000], dtype=np.int16),
        rounds=np.array([8, 3, 250], dtype=np.int16),
        capped=np.array([False, False, True]),
        role=np.array([[LE, OU, RE, OU], [LE, RE, OU, OU], [LE, OU, OU, RE]], dtype=np.int8),
        character=np.array([[0, 1, 2, 3], [15, 14, 13, 12], [5, 6, 7, 8]], dtype=np.int16),
        survived=np.array([[1, 0, 0, 0], [0, 1, 1, 0], [1, 1, 0, 1]], dtype=bool),
        won=np.array([[1, 0, 0, 0], [0, 0, 1, 1], [0, 0, 0, 0]], dtype=bool),
        preset=np.array([[0, 0, 1, 0], [0] * 4, [1] * 4], dtype=np.int8),
        preset_names=("basic", "smart"),
    )


@pytest.fixture(scope="module")
def theme():
    return load_theme("classic")


def test_schema_is_exactly_the_design_table(theme):
    df = seat_frame(make_block(), theme, 4, 0, "classic/4p/basic")
    assert df.schema == pl.Schema(SEAT_SCHEMA)
    assert df.columns == [
        "config", "theme", "players", "game", "seat", "role", "character", "strategy",
        "won", "survived", "winner", "turns", "rounds", "capped", "featured",
    ]  # fmt: skip
    assert dict(df.schema) == {
        "config": pl.String, "theme": pl.String, "players": pl.UInt8, "game": pl.UInt64,
        "seat": pl.UInt8, "role": pl.String, "character": pl.String, "strategy": pl.String,
        "won": pl.Boolean, "survived": pl.Boolean, "winner": pl.String, "turns": pl.UInt16,
        "rounds": pl.UInt16, "capped": pl.Boolean, "featured": pl.Boolean,
    }  # fmt: skip
    assert empty_seat_frame().schema == df.schema


def test_rows_are_ordered_by_game_then_seat_from_game0(theme):
    df = seat_frame(make_block(), theme, 4, 1_000_000, "c")
    assert df.height == 12
    assert df["game"].to_list() == [1_000_000] * 4 + [1_000_001] * 4 + [1_000_002] * 4
    assert df["seat"].to_list() == [0, 1, 2, 3] * 3


def test_values(theme):
    block = make_block()
    df = seat_frame(block, theme, 4, 0, "classic/4p/basic")
    assert set(df["config"]) == {"classic/4p/basic"}
    assert set(df["theme"]) == {"classic"}
    assert set(df["players"]) == {4}
    assert df["role"].to_list()[:8] == [
        "leader", "outlaw", "renegade", "outlaw", "leader", "renegade", "outlaw", "outlaw",
    ]  # fmt: skip
    names = theme.character_names
    assert df["character"].to_list()[:4] == names[:4]
    assert df["character"][4] == names[15]
    assert (
        df["strategy"].to_list()
        == ["basic", "basic", "smart", "basic"] + ["basic"] * 4 + ["smart"] * 4
    )
    assert df["winner"].to_list() == ["leader"] * 4 + ["outlaw"] * 4 + ["none"] * 4
    assert df["turns"].to_list() == [31] * 4 + [12] * 4 + [1000] * 4
    assert df["rounds"].to_list() == [8] * 4 + [3] * 4 + [250] * 4
    assert df["capped"].to_list() == [False] * 8 + [True] * 4
    assert df["won"].to_list() == block.won.reshape(-1).tolist()
    assert df["survived"].to_list() == block.survived.reshape(-1).tolist()


def test_parquet_round_trip(theme, tmp_path):
    df = seat_frame(make_block(), theme, 4, 7, "classic/4p/basic")
    df.write_parquet(tmp_path / "x.parquet")
    back = pl.read_parquet(tmp_path / "x.parquet")
    assert back.schema == df.schema
    assert back.equals(df)
    lazy = pl.scan_parquet(tmp_path / "*.parquet").collect()
    assert lazy.equals(df)


def test_empty_block(theme):
    b = make_block()
    empty = FakeBlock(*(x[:0] for x in b[:-1]), b.preset_names)
    df = seat_frame(empty, theme, 4, 0, "c")
    assert df.height == 0 and df.schema == empty_seat_frame().schema


def test_bad_codes_raise(theme):
    b = make_block()
    role = b.role.copy()
    role[1, 2] = 9
    with pytest.raises(ValueError, match="role code 9"):
        seat_frame(b._replace(role=role), theme, 4, 0, "c")
    character = b.character.copy()
    character[0, 0] = len(theme.character_names)
    with pytest.raises(ValueError, match="character code"):
        seat_frame(b._replace(character=character), theme, 4, 0, "c")
    winner = b.winner.copy()
    winner[0] = -2
    with pytest.raises(ValueError, match="winner code -2"):
        seat_frame(b._replace(winner=winner), theme, 4, 0, "c")
    with pytest.raises(ValueError, match="preset code"):
        seat_frame(b._replace(preset_names=("basic",)), theme, 4, 0, "c")


def test_wrong_player_count_raises(theme):
    with pytest.raises(ValueError, match="shape"):
        seat_frame(make_block(), theme, 5, 0, "c")
