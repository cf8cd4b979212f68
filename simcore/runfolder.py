"""Run folders: a study played chunk by chunk into Parquet, resumable after a crash.

    out/manifest.json                  what was asked, versions, chunks done (rewritten atomically)
    out/seats/<config>-<chunk>.parquet one chunk of seat rows (simcore.rows), written atomically

A chunk is `chunk_size` consecutive game indices of one configuration. Results depend only
on (seed, game index), so chunk boundaries never change rows, and a chunk can be played
anywhere (a thread pool today, a Ray task later) and written on its own. A file appears
under its final name only when complete (temp name + os.replace), and the manifest lists it
only after that, so a crash at any point leaves complete chunks and a manifest that may lag
behind them by at most one chunk; rerunning the same request plays only what is missing.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import polars as pl
from tqdm.auto import tqdm

from simcore import limits
from simcore.api import (
    DEFAULT_STRATEGY,
    Strategy,
    check_characters,
    check_games,
    check_strategy,
    config_label,
    player_counts,
    safe_name,
)
from simcore.rows import seat_frame
from simcore.theme import Theme, load_theme

MANIFEST = "manifest.json"
SEATS = "seats"
MANIFEST_FORMAT = 1
DEFAULT_CHUNK_SIZE = 50_000
_TEMP = re.compile(r"^\..+\.tmp$")  # our temp files: ".<final name>.<pid>.tmp"


class RunFolderError(ValueError):
    """The run folder cannot take this request (another run's folder, locked, ...); one line."""


@dataclass(frozen=True)
class Chunk:
    """Games game0 .. game0 + games - 1 of one configuration, stored in `file`."""

    label: str  # config label (simcore.api.config_label)
    players: int
    index: int  # chunk number within the configuration
    game0: int
    games: int
    file: str  # path relative to the run folder


@dataclass(frozen=True)
class Study:
    """A validated request and its chunk plan; nothing on disk yet."""

    out: Path
    theme: Theme
    players: list[int]
    games: int
    seed: int
    strategy: str  # canonical label (simcore.api.strategy_label); the engine accepts it
    characters: list[str] | None
    chunk_size: int
    checked: bool
    request: dict[str, Any]  # JSON form of what was asked: identical request = resumable
    chunks: list[Chunk]

    @property
    def total_games(self) -> int:
        return self.games * len(self.players)


def run_study(
    out: Path,
    theme: str | Path | Theme,
    players: Sequence[int],
    games: int,
    seed: int,
    strategy: Strategy = DEFAULT_STRATEGY,
    characters: Sequence[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    checked: bool = False,
    progress: bool = True,
) -> Path:
    """Play `games` games for each player count into the run folder `out`; return `out`.

    Rerunning with an identical request resumes (skips chunks already written); a different
    request on an existing non-empty folder raises RunFolderError. All input is validated
    before anything is written: bad input raises ValueError (one line) and creates nothing.
    """
    study = plan_study(out, theme, players, games, seed, strategy, characters, chunk_size, checked)
    return execute_study(study, progress=progress)


def plan_study(
    out: Path,
    theme: str | Path | Theme,
    players: Sequence[int],
    games: int,
    seed: int,
    strategy: Strategy = DEFAULT_STRATEGY,
    characters: Sequence[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    checked: bool = False,
) -> Study:
    """Validate a request against the theme, the presets and `out`, and plan its chunks.

    Writes nothing and needs no engine. Raises ValueError (ThemeError, RunFolderError
    included) with a one-line message.
    """
    out = Path(out)
    loaded = load_theme(theme)
    counts = player_counts(players if isinstance(players, int) else list(players), loaded)
    check_games(games)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk size must be a positive integer, got {chunk_size!r}")
    label = check_strategy(strategy)
    pool = check_characters(characters, loaded, counts)
    request = _json_normal(
        {
            "themes": [loaded.id],
            "theme_digests": {loaded.id: theme_digest(loaded)},
            "players": counts,
            "games": games,
            "seed": seed,
            "strategies": [label],
            "characters": pool,
            "chunk_size": chunk_size,
            "checked": checked,
            "rules_version": limits.RULES_VERSION,
        }
    )
    check_folder(out, request)
    chunks = []
    for n in counts:
        config = config_label(loaded.id, n, label, pool)
        for i in range(math.ceil(games / chunk_size)):
            game0 = i * chunk_size
            count = min(chunk_size, games - game0)
            file = f"{SEATS}/{safe_name(config)}-{i:05d}.parquet"
            chunks.append(Chunk(config, n, i, game0, count, file))
    return Study(
        out, loaded, counts, games, seed, label, pool, chunk_size, checked, request, chunks
    )


def execute_study(study: Study, progress: bool = True) -> Path:
    """Play the chunks of `study` not yet in its folder, writing each as it completes."""
    return write_chunks(
        study.out,
        study.request,
        lambda: _new_manifest(study),
        study.chunks,
        f"{study.theme.id} {','.join(map(str, study.players))}p",
        lambda chunk: play_chunk(study, chunk),
        lambda chunk: f"{chunk.players}p chunk {chunk.index}",
        progress,
    )


def write_chunks(out, request, new_manifest, chunks, desc, play, postfix, progress) -> Path:
    """The engine shared by `bangsim run` and `bangsim experiment`: under the folder lock,
    play every chunk not yet written (`play(chunk)` -> seat rows), write each atomically and
    rewrite the manifest after each (`new_manifest()` starts one), with a progress bar
    (`desc`, `postfix(chunk)`). Chunks need `.file` and `.games`."""
    out.mkdir(parents=True, exist_ok=True)
    with _locked(out):
        manifest = check_folder(out, request)  # again, under the lock
        if manifest is None:
            manifest = new_manifest()
        manifest["sessions"].append({"started": _now(), "versions": versions()})
        _write_json_atomic(out / MANIFEST, manifest)
        (out / SEATS).mkdir(exist_ok=True)
        _remove_stale_temp_files(out)

        done = {c["file"]: c for c in manifest["chunks_done"] if (out / c["file"]).is_file()}
        manifest["chunks_done"] = list(done.values())
        todo = [c for c in chunks if c.file not in done]
        total = sum(c.games for c in chunks)
        with tqdm(
            total=total,
            initial=total - sum(c.games for c in todo),
            unit="games",
            unit_scale=True,
            disable=not progress,
            dynamic_ncols=True,
            desc=desc,
        ) as bar:
            for chunk in todo:
                bar.set_postfix_str(postfix(chunk), refresh=False)
                start = time.perf_counter()
                frame = play(chunk)
                write_parquet_atomic(frame, out / chunk.file)
                seconds = time.perf_counter() - start
                manifest["chunks_done"].append(_chunk_record(chunk, seconds))
                manifest["run_seconds"] = round(manifest["run_seconds"] + seconds, 3)
                manifest["updated"] = _now()
                _write_json_atomic(out / MANIFEST, manifest)
                bar.update(chunk.games)
        order = {c.file: i for i, c in enumerate(chunks)}
        manifest["chunks_done"].sort(key=lambda c: order.get(c["file"], len(order)))
        manifest["complete"] = True
        manifest["finished"] = manifest["finished"] or _now()
        _write_json_atomic(out / MANIFEST, manifest)
    return out


def pending_games(study: Study) -> int:
    """Games of `study` not yet written to its folder (all of them for a new folder)."""
    return pending_in(study.out, study.chunks)


def pending_in(out: Path, chunks) -> int:
    """Games of `chunks` not yet written to folder `out` (all of them for a new folder)."""
    manifest = read_manifest(out) if out.is_dir() else None
    listed = {c["file"] for c in manifest["chunks_done"]} if manifest else set()
    done = {f for f in listed if (out / f).is_file()}
    return sum(c.games for c in chunks if c.file not in done)


def play_chunk(study: Study, chunk: Chunk) -> pl.DataFrame:
    """The seat rows of one chunk (pure: same study and chunk -> same rows, anywhere)."""
    from simcore.engine import play_games

    block = play_games(
        study.theme, chunk.players, chunk.games, study.seed, game0=chunk.game0,
        strategy=study.strategy, characters=study.characters, checked=study.checked,
    )  # fmt: skip
    return seat_frame(block, study.theme, chunk.players, chunk.game0, chunk.label)


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The folder's manifest, or None if it has none."""
    path = Path(out) / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{path}: unreadable manifest ({e})") from None


def check_folder(out: Path, request: dict[str, Any]) -> dict[str, Any] | None:
    """The existing manifest if `out` holds this same request (resume), None if `out` is new.

    Raises RunFolderError when `out` is a file, a non-empty folder that is not a run folder,
    or a run folder for a different request (naming the first difference).
    """
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"{out} exists and is not a folder")
    if not out.exists() or not any(out.iterdir()):
        return None
    manifest = read_manifest(out)
    if manifest is None:
        raise RunFolderError(f"{out} is not empty and has no {MANIFEST}; choose another --out")
    old = manifest.get("request", {})
    if old != request:
        key = next(k for k in sorted(set(old) | set(request)) if old.get(k) != request.get(k))
        raise RunFolderError(
            f"{out} holds a different run ({key}: {_short(old.get(key))} there, "
            f"{_short(request.get(key))} asked); choose another --out or delete that folder"
        )
    return manifest


def theme_digest(theme: Theme) -> str:
    """sha256 of the theme's parsed content: a changed theme file is a different request."""
    text = json.dumps(theme.raw, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def versions() -> dict[str, Any]:
    """Versions stamped into the manifest: the package, the rules, the numeric stack."""
    found: dict[str, Any] = {"rules": limits.RULES_VERSION, "python": platform.python_version()}
    for package in ("bangsim", "numba", "numpy", "polars"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def write_parquet_atomic(frame: pl.DataFrame, path: Path) -> None:
    """Write `frame` to `path` so that `path` is either absent or complete."""
    _write_atomic(path, lambda f: frame.write_parquet(f))


# --- helpers -------------------------------------------------------------------------------


def _new_manifest(study: Study) -> dict[str, Any]:
    now = _now()
    return {
        "format": MANIFEST_FORMAT,
        "request": study.request,
        "configs": [
            {
                "label": config_label(study.theme.id, n, study.strategy, study.characters),
                "players": n,
                "games": study.games,
                "chunks": sum(1 for c in study.chunks if c.players == n),
            }
            for n in study.players
        ],
        "theme_files": {study.theme.id: str(study.theme.path) if study.theme.path else None},
        "versions": versions(),
        "created": now,
        "updated": now,
        "finished": None,
        "run_seconds": 0.0,
        "complete": False,
        "sessions": [],
        "chunks_done": [],
    }


def _chunk_record(chunk: Any, seconds: float) -> dict[str, Any]:
    """A chunk's manifest line: any chunk with file, label, players, index, game0, games."""
    return {
        "file": chunk.file,
        "config": chunk.label,
        "players": chunk.players,
        "chunk": chunk.index,
        "game0": chunk.game0,
        "games": chunk.games,
        "seconds": round(seconds, 3),
    }


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    _write_atomic(path, lambda f: f.write(_manifest_text(data).encode()))


def _manifest_text(data: dict[str, Any]) -> str:
    """Indented JSON, but one line per chunk record: thousands of chunks stay readable."""
    chunks = data.get("chunks_done", [])
    placeholder = "@chunks_done@"
    text = json.dumps({**data, "chunks_done": placeholder}, indent=2, ensure_ascii=False)
    lines = ",\n".join(f"    {json.dumps(c, ensure_ascii=False)}" for c in chunks)
    return text.replace(f'"{placeholder}"', f"[\n{lines}\n  ]" if chunks else "[]") + "\n"


def _write_atomic(path: Path, write: Any) -> None:
    """write(binary file) to a temp file beside `path`, fsync, then rename it over `path`."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not every filesystem syncs directories; the rename is still atomic
    finally:
        os.close(fd)


def _remove_stale_temp_files(out: Path) -> None:
    """Temp files a crashed run left behind (we hold the folder lock: none are live)."""
    for folder in (out, out / SEATS):
        for path in folder.iterdir():
            if path.is_file() and _TEMP.match(path.name):
                path.unlink(missing_ok=True)


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the folder: two processes never write one run folder."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    fd = os.open(out, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunFolderError(f"{out} is being written by another bangsim process") from None
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _json_normal(data: dict[str, Any]) -> dict[str, Any]:
    """`data` as it reads back from JSON (tuples -> lists), so requests compare equal."""
    return json.loads(json.dumps(data))


def _short(value: Any, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
