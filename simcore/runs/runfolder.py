"""Run folders: a study played chunk by chunk into Parquet, resumable after a crash.

    out/manifest.json                  what was asked, versions, chunks done (rewritten atomically)
    out/seats/<config>-<chunk>.parquet one chunk of seat rows (simcore.engine.rows), written atomically
    out/events/<config>-<chunk>.parquet the same games' event counts and card uses, one row per
                                       game (simcore.engine.event_rows), written atomically just before
    out/events/<config>-<chunk>.sums.json their sums, what a report reads (event_rows.event_sums),
                                       written atomically just before the event file
    out/bands.json                     the band ends replayed on the run's deals for its reports
                                       (reports.bands.keep_bands), written atomically after the games

A chunk is `chunk_size` consecutive game indices of one configuration. Results depend only
on (seed, game index), so chunk boundaries never change rows, and a chunk can be played
anywhere (a thread pool today, a Ray task later) and written on its own. A file appears
under its final name only when complete (temp name + os.replace), and the manifest lists it
only after that, so a crash at any point leaves complete chunks and a manifest that may lag
behind them by at most one chunk; rerunning the same request plays only what is missing.
A chunk is done when the manifest lists it and its files exist: its seat file, and its
event file when its record names one (`"events"`; chunks written before event files
existed, or with --no-events, have none and are kept as they are). A missing file makes
the chunk play again. One process at a time writes a folder: `out/.bangsim.lock`
(simcore.runs.lock) names it while it does.

Before resuming, the folder is checked (`check_folder`): writable, a run folder, of this
rules and policy version and manifest format, the same request, and every chunk it lists as done
readable with the right row count, event files included (`check_chunk_files`, Parquet
footers only). Each
problem is a RunFolderError with one line naming it and what to do (docs/errors.md).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import platform
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import polars as pl

from simcore.engine import limits
from simcore.engine.event_rows import (
    EVENTS,
    event_file,
    event_frame,
    event_problem,
    event_sums,
    parquet_problem,
    sums_file,
)
from simcore.engine.event_rows import WRITE_OPTIONS as EVENT_WRITE_OPTIONS
from simcore.engine.request import (
    check_characters,
    check_feature,
    check_games,
    check_seed,
    config_label,
    games_versions,
    player_counts,
    safe_name,
    versions_words,
)
from simcore.engine.rows import SEAT_DEFAULTS, SEAT_SCHEMA, seat_frame
from simcore.engine.theme import Theme, load_theme
from simcore.errors import UserError
from simcore.progress import progress_bar
from simcore.runs.atomic import write_atomic
from simcore.runs.backend import Backend, LocalBackend
from simcore.runs.lock import LOCK_FILE, folder_lock
from simcore.runs.precision import DEFAULT_CAP, Precision, check_precision, precision_rounds
from strategies.params import POLICY_VERSION
from strategies.presets import (
    DEFAULT_PRESET,
    StrategySpec,
    check_strategy,
    resolve_strategy,
    strategy_record,
)

MANIFEST = "manifest.json"
SEATS = "seats"
MANIFEST_FORMAT = 1
DEFAULT_CHUNK_SIZE = 50_000
_TEMP = re.compile(r"^\..+\.tmp$")  # our temp files: ".<final name>.<pid>.tmp"


class RunFolderError(UserError):
    """The run folder cannot take this request (another run's folder, another version's, a
    damaged chunk, not writable, ...); one line naming it and what to do. (Another process
    writing it is simcore.runs.lock.FolderLockedError.)"""


@dataclass(frozen=True)
class Cell:
    """One configuration a run folder holds: a run's table at one player count, or one cell
    of an experiment's grid (a run is an experiment of one theme and strategy)."""

    label: str  # config label (simcore.engine.request.config_label, an experiment's overrides)
    theme: Theme  # an experiment's overrides applied and compiled
    players: int
    strategy: str  # canonical label (strategies.presets.strategy_label)
    characters: list[str] | None
    feature: str | None  # canonical "NAME" or "NAME=role" (simcore.api.check_feature)
    games: int  # games 0 .. games - 1 (the most, with a precision target)
    overrides: tuple[Any, ...] = ()  # an experiment's (simcore.runs.experiment.Override)
    stem: str = ""  # file-name stem of its chunks


@dataclass(frozen=True)
class Chunk:
    """Games game0 .. game0 + games - 1 of one cell, stored in `file`."""

    cell: Cell
    index: int  # chunk number within the cell
    game0: int
    games: int
    file: str  # path relative to the run folder

    @property
    def label(self) -> str:
        return self.cell.label

    @property
    def players(self) -> int:
        return self.cell.players


@dataclass(frozen=True)
class Study:
    """A validated request and its chunk plan; nothing on disk yet."""

    out: Path
    theme: Theme
    players: list[int]
    games: int
    seed: int
    strategy: str  # canonical label (strategies.presets.strategy_label)
    characters: list[str] | None
    chunk_size: int
    checked: bool
    request: dict[str, Any]  # JSON form of what was asked: identical request = resumable
    cells: list[Cell]  # one per player count
    chunks: list[Chunk]
    feature: str | None = None  # canonical "NAME" or "NAME=role" (simcore.api.check_feature)
    events: bool = True  # write each chunk's event file (simcore.engine.event_rows)
    precision: Precision | None = None  # adaptive: `games` is the cap (simcore.runs.precision)

    @property
    def total_games(self) -> int:
        return self.games * len(self.players)


class Plan(Protocol):
    """What playing a run folder reads of its plan: a Study (`bangsim run`) or an Experiment
    (simcore.runs.experiment)."""

    out: Path
    request: dict[str, Any]
    chunks: list[Chunk]
    seed: int
    checked: bool
    events: bool
    precision: Precision | None


def run_study(
    out: Path,
    theme: str | Path | Theme,
    players: Sequence[int],
    games: int | None,
    seed: int,
    strategy: StrategySpec = DEFAULT_PRESET,
    characters: Sequence[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    checked: bool = False,
    progress: bool = True,
    feature: str | None = None,
    *,
    events: bool = True,
    precision: float | None = None,
    precision_characters: bool = False,
) -> Path:
    """Play `games` games for each player count into the run folder `out`; return `out`.
    With `precision` (e.g. 0.005), play chunk by chunk until every 95% interval half-width
    is under it (side win rates; with `precision_characters`, character-in-role effects
    too), `games` (None: simcore.runs.precision.DEFAULT_CAP) being the most per player count;
    the manifest's "precision" entry says where it stopped (docs/precision.md).

    Rerunning with an identical request resumes (skips chunks already written); a different
    request on an existing non-empty folder raises RunFolderError, a folder another process
    is writing simcore.runs.lock.FolderLockedError. All input is validated
    before anything is written: bad input raises ValueError (one line) and creates nothing.
    """
    study = plan_study(
        out, theme, players, games, seed, strategy, characters, chunk_size, checked, feature,
        events=events, precision=precision, precision_characters=precision_characters,
    )  # fmt: skip
    return execute_study(study, progress=progress)


def plan_study(
    out: Path,
    theme: str | Path | Theme,
    players: Sequence[int],
    games: int | None,
    seed: int,
    strategy: StrategySpec = DEFAULT_PRESET,
    characters: Sequence[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    checked: bool = False,
    feature: str | None = None,
    *,
    events: bool = True,
    precision: float | None = None,
    precision_characters: bool = False,
) -> Study:
    """Validate a request against the theme, the presets and `out`, and plan its chunks.
    `feature` ("NAME" or "NAME=ROLE") puts that character in every game (simulate's).
    `events=False` writes no event files (`bangsim run --no-events`: about 5% faster).
    `precision`: adaptive (see run_study); the chunks planned are those of `games` (the
    cap), played round by round until precise.

    Writes nothing and needs no engine. Raises ValueError (ThemeError, RunFolderError
    included) with a one-line message.
    """
    out = Path(out)
    loaded = load_theme(theme)
    counts = player_counts(players if isinstance(players, int) else list(players), loaded)
    if precision is not None and games is None:
        games = DEFAULT_CAP
    check_games(games)
    adaptive = check_precision(precision, precision_characters, games)
    check_seed(seed)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk size must be a positive integer, got {chunk_size!r}")
    label = check_strategy(strategy, counts, loaded.plays_as)
    pool = check_characters(characters, loaded, counts)
    feature = check_feature(feature, loaded, counts)
    request = _json_normal(
        {
            "themes": [loaded.id],
            "theme_digests": {loaded.id: theme_digest(loaded)},
            "players": counts,
            "games": games,
            "seed": seed,
            "strategies": [label],
            "characters": pool,
            **({"feature": feature} if feature is not None else {}),  # older requests lack it
            "chunk_size": chunk_size,
            "checked": checked,
            **games_versions(),
            **({} if events else {"events": False}),  # older requests lack it
            **({"precision": adaptive.request()} if adaptive else {}),  # older requests lack it
        }
    )
    check_folder(out, request, [loaded])
    cells = []
    for n in counts:
        config = config_label(loaded.id, n, label, pool, feature)
        cells.append(Cell(config, loaded, n, label, pool, feature, games, stem=safe_name(config)))
    return Study(
        out, loaded, counts, games, seed, label, pool, chunk_size, checked, request, cells,
        plan_chunks(cells, chunk_size), feature, bool(events), adaptive,
    )  # fmt: skip


def plan_chunks(cells: list[Cell], chunk_size: int) -> list[Chunk]:
    """Each cell's games in chunks of `chunk_size`, filed under its stem."""
    return [
        Chunk(cell, i, game0, min(chunk_size, cell.games - game0),
              f"{SEATS}/{cell.stem}-{i:05d}.parquet")
        for cell in cells
        for i, game0 in enumerate(range(0, cell.games, chunk_size))
    ]  # fmt: skip


def execute_study(study: Study, progress: bool = True, backend: Backend | None = None) -> Path:
    """Play the chunks of `study` not yet in its folder, writing each as it completes;
    `backend` (simcore.runs.backend, default local) plays them."""
    configs = [
        {"label": c.label, "players": c.players, "feature": c.feature, "games": c.games,
         "chunks": math.ceil(c.games / study.chunk_size),
         "played": strategy_record(c.strategy, c.theme.plays_as)}
        for c in study.cells
    ]  # fmt: skip
    return write_chunks(
        study,
        lambda: new_manifest(study.request, configs, [study.theme]),
        f"{study.theme.id} {','.join(map(str, study.players))}p",
        lambda chunk: f"{chunk.players}p chunk {chunk.index}",
        progress,
        backend,
    )


def write_chunks(
    plan: Plan, first_manifest: Callable[[], dict[str, Any]], desc: str,
    postfix: Callable[[Chunk], str], progress: bool, backend: Backend | None = None,
) -> Path:  # fmt: skip
    """One way to play a run folder, `bangsim run`'s (a Study) and `bangsim experiment`'s
    (an Experiment): under the folder lock (simcore.runs.lock), play every chunk of
    `plan.chunks` not yet written (play_chunk), write each atomically (the event file first,
    the seat file, then the manifest) and rewrite the manifest after each (`first_manifest()`
    starts one), with a progress bar (`desc`, `postfix(chunk)`).

    With `plan.precision`, the chunks are played round by round, each round written before
    the next is asked for (adaptive precision, `simcore.runs.precision.precision_rounds`);
    without it, one round of them all.

    `backend` (simcore.runs.backend, default local) plays a round's chunks, play_chunk and the
    chunks travelling by pickle; they arrive, and are written, in order."""
    out, chunks, play = plan.out, plan.chunks, partial(play_chunk, plan)
    backend = backend or LocalBackend()
    with folder_lock(out):
        manifest = check_folder(out, plan.request)  # again, under the lock
        if manifest is None:
            manifest = first_manifest()
        manifest.setdefault("sessions", []).append({"started": _now(), "versions": versions()})
        _write_json_atomic(out / MANIFEST, manifest)
        (out / SEATS).mkdir(exist_ok=True)
        (out / EVENTS).mkdir(exist_ok=True)
        _remove_stale_temp_files(out)

        if manifest["request"] != plan.request:  # a grown run (check_folder): its new size
            manifest.update(request=plan.request, configs=first_manifest()["configs"])
        done = done_in(out, manifest["chunks_done"], chunks)
        manifest["chunks_done"] = [c for c in manifest["chunks_done"] if c["file"] in done]
        with progress_bar(
            initial=sum(c.games for c in chunks if c.file in done),
            unit="games",
            unit_scale=True,
            disable=not progress,
            dynamic_ncols=True,
            desc=desc,
        ) as bar:
            rounds = (
                [chunks] if plan.precision is None
                else precision_rounds(out, chunks, plan.precision, manifest)
            )  # fmt: skip
            for batch in rounds:
                todo = [c for c in batch if c.file not in done]
                bar.total = bar.n + sum(c.games for c in todo)
                start = time.perf_counter()
                for chunk, rows in zip(todo, backend.map(play, todo), strict=True):
                    bar.set_postfix_str(postfix(chunk), refresh=False)
                    seats, events = rows if isinstance(rows, ChunkRows) else (rows, None)
                    if events is not None:
                        path = out / event_file(chunk.file)
                        sums = event_sums(events, seats.filter(pl.col("seat") == 0))
                        write_atomic(sums_file(path), json.dumps(sums).encode())
                        write_parquet_atomic(events, path, EVENT_WRITE_OPTIONS)
                    write_parquet_atomic(seats, out / chunk.file)
                    # wall time since the previous chunk was written (a backend may play
                    # several at once): the chunks' seconds add up to the run's
                    now = time.perf_counter()
                    seconds, start = now - start, now
                    record = _chunk_record(chunk, seconds)
                    if events is not None:
                        record["events"] = event_file(chunk.file)
                    manifest["chunks_done"].append(record)
                    manifest["run_seconds"] = round(manifest.get("run_seconds", 0) + seconds, 3)
                    manifest["updated"] = _now()
                    _write_json_atomic(out / MANIFEST, manifest)
                    bar.update(chunk.games)
        order = {c.file: i for i, c in enumerate(chunks)}
        manifest["chunks_done"].sort(key=lambda c: order.get(c["file"], len(order)))
        manifest["complete"] = True
        manifest["finished"] = manifest.get("finished") or _now()
        _write_json_atomic(out / MANIFEST, manifest)
    return out


def pending_games(plan: Plan) -> int:
    """Games of `plan` (a Study or an Experiment) not yet written to its folder (all of them
    for a new folder)."""
    return pending_in(plan.out, plan.chunks)


def pending_in(out: Path, chunks) -> int:
    """Games of `chunks` not yet written to folder `out` (all of them for a new folder)."""
    done = done_files(out, chunks)
    return sum(c.games for c in chunks if c.file not in done)


def done_files(out: Path, chunks) -> set[str]:
    """Files (relative to `out`) of `chunks` that the manifest lists as done and that exist."""
    manifest = read_manifest(out) if out.is_dir() else None
    return done_in(out, manifest["chunks_done"] if manifest else [], chunks)


def done_in(out: Path, listed: list[dict[str, Any]], chunks) -> set[str]:
    """Files of `chunks` whose records in `listed` hold the same games and whose files
    exist; a chunk a grown run plans larger than it was played is not done."""
    planned = {c.file: (c.game0, c.games) for c in chunks}
    return {
        c["file"] for c in listed
        if planned.get(c["file"]) == (c["game0"], c["games"]) and _chunk_complete(out, c)
    }  # fmt: skip


def _chunk_complete(out: Path, record: dict[str, Any]) -> bool:
    """A listed chunk's files exist: its seat file, and its event file if it has one."""
    events = record.get("events")
    return (out / record["file"]).is_file() and (
        not isinstance(events, str) or (out / events).is_file()
    )


def chunks_kept(out: Path, chunks) -> int:
    """How many of `chunks` are done in `out` (what an interrupted run keeps)."""
    try:
        done = done_files(out, chunks)
    except RunFolderError:
        return 0
    return sum(1 for c in chunks if c.file in done)


class ChunkRows(NamedTuple):
    """What playing one chunk gives: its seat rows and its event rows (simcore.engine.event_rows)."""

    seats: pl.DataFrame
    events: pl.DataFrame


def play_chunk(plan: Plan, chunk: Chunk) -> ChunkRows | pl.DataFrame:
    """The seat and event rows of one chunk of `plan` (a Study or an Experiment: its seed,
    checked mode and events), pure: same cell, seed and games -> same rows, anywhere; the
    seat rows alone when the plan keeps no events. The cell's strategy is resolved here,
    where its table is known."""
    from simcore.engine.play import play_games

    cell = chunk.cell
    block = play_games(
        cell.theme, cell.players, chunk.games, plan.seed, game0=chunk.game0,
        strategy=resolve_strategy(cell.strategy, cell.players, cell.theme.plays_as, mixed=True),
        characters=cell.characters, feature=cell.feature, checked=plan.checked,
        events=plan.events,
    )  # fmt: skip
    seats = seat_frame(block, cell.theme, cell.players, chunk.game0, cell.label)
    if not plan.events:
        return seats
    return ChunkRows(seats, event_frame(block, cell.theme, cell.players, chunk.game0, cell.label))


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The folder's manifest, or None if it has none."""
    path = Path(out) / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        problem = _manifest_problem(data)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        problem = str(e)
    if problem:
        raise RunFolderError(
            f"{path}: unreadable manifest ({problem}); this is not a run folder bangsim can use: "
            "choose another folder (or delete that one and play it again)"
        )
    return data


def _manifest_problem(data: Any) -> str | None:
    """What is wrong with the shape of a parsed manifest, or None. A manifest of another
    format is left to `check_version` (it may be shaped otherwise)."""
    if not isinstance(data, dict):
        return f"expected a JSON object, got {type(data).__name__}"
    if data.get("format") != MANIFEST_FORMAT:
        return None
    if not isinstance(data.get("request"), dict):
        return "no request"
    chunks = data.get("chunks_done")
    if not isinstance(chunks, list) or not all(
        isinstance(c, dict) and isinstance(c.get("file"), str) for c in chunks
    ):
        return "chunks_done is not a list of chunk records"
    for key in ("configs", "sessions"):
        if not isinstance(data.get(key, []), list):
            return f"{key} is not a list"
    return None


def written_by(manifest: dict[str, Any]) -> str:
    """'bangsim 0.1.0 (rules version 4, policy version 1, manifest format 1)': what wrote a
    manifest."""
    versions_ = manifest.get("versions") if isinstance(manifest.get("versions"), dict) else {}
    request = manifest.get("request") if isinstance(manifest.get("request"), dict) else {}
    rules = request.get("rules_version", versions_.get("rules", "?"))
    words = versions_words(rules, request.get("policy_version"))
    return (
        f"bangsim {versions_.get('bangsim') or '?'} ({words}, "
        f"manifest format {manifest.get('format', '?')})"
    )


def this_version() -> str:
    """The same words for this bangsim."""
    return written_by(
        {
            "format": MANIFEST_FORMAT,
            "versions": versions(),
            "request": games_versions(),
        }
    )


def check_version(out: Path, manifest: dict[str, Any], resume: bool = True) -> None:
    """RunFolderError when the manifest is of another format, or (resume=True) when its games
    were played by another rules or policy version (a request of before policy versions has
    none: its bots were not this policy's): the same request would give other rows, so such
    a run cannot be resumed. A report reads any version of this manifest format."""
    request = manifest.get("request") if isinstance(manifest.get("request"), dict) else {}
    other_format = manifest.get("format") != MANIFEST_FORMAT
    played = {key: request.get(key) for key in games_versions()}
    if other_format or (resume and played != games_versions()):
        what = "resumed" if resume else "read"
        versions_ = manifest.get("versions") if isinstance(manifest.get("versions"), dict) else {}
        then = (
            "choose another --out or delete that folder"
            if resume
            else f"report it with bangsim {versions_.get('bangsim') or 'of that version'}"
        )
        raise RunFolderError(
            f"{out} was written by {written_by(manifest)} and cannot be {what} by this "
            f"{this_version()}; {then}"
        )


def check_folder(
    out: Path, request: dict[str, Any], themes: Sequence[Theme] = ()
) -> dict[str, Any] | None:
    """The existing manifest if `out` holds this same request (resume) or the same run with
    fewer games (grown_from: the new chunks are added), None if `out` is new.

    Raises RunFolderError when `out` cannot be written (a file on its path, no permission),
    is a non-empty folder that is not a run folder, a run folder of another version, a run
    folder for a different request (naming every difference; a changed theme of `themes`
    by what changed, theme_changes), or one whose finished chunks are damaged (see
    check_chunk_files).
    """
    check_writable(out)
    if not out.exists() or all(p.name == LOCK_FILE for p in out.iterdir()):
        return None
    manifest = read_manifest(out)
    if manifest is None:
        raise RunFolderError(f"{out} is not empty and has no {MANIFEST}; choose another --out")
    check_version(out, manifest)
    old = manifest.get("request", {})
    if old != request and grown_from(old, request) is None:
        keys = [k for k in sorted(set(old) | set(request)) if old.get(k) != request.get(k)]
        changed = theme_changes(manifest, themes) if "theme_digests" in keys else []
        if changed:
            keys.remove("theme_digests")
        differences = "; ".join(
            [*changed, *(f"{k}: {_short(old.get(k))} there, {_short(request.get(k))} asked"
                         for k in keys)]
        )  # fmt: skip
        raise RunFolderError(
            f"{out} holds a different run ({differences}); choose another --out or delete "
            "that folder"
        )
    check_chunk_files(out, manifest, listed_only=True)
    return manifest


def grown_from(old: dict[str, Any], request: dict[str, Any]) -> int | None:
    """The games per configuration of `old` when `request` asks the same fixed-size run with
    more (its chunks are a prefix of the new plan's, the games a function of seed and
    index), else None."""
    games, asked = old.get("games"), request.get("games")
    same = {**old, "games": asked} == request
    if (
        same
        and "precision" not in request
        and isinstance(games, int)
        and isinstance(asked, int)
        and asked > games
    ):
        return games
    return None


def theme_changes(manifest: dict[str, Any], themes: Sequence[Theme]) -> list[str]:
    """What changed in each of `themes` since the run in `manifest` was made, as `bangsim
    themes diff` lines ("wd_house.toml changed since this run: card changed: Missed!:
    copies 12 → 11"), for the themes whose content the manifest keeps."""
    from simcore.engine.theme import compile_theme
    from simcore.engine.themediff import theme_diff

    kept = manifest.get("theme_contents") or {}
    digests = (manifest.get("request") or {}).get("theme_digests") or {}
    lines = []
    for theme in themes:
        if theme.id not in kept or digests.get(theme.id) == theme_digest(theme):
            continue
        was = compile_theme(kept[theme.id], theme.path)
        name = Path(str(theme.path)).name if theme.path else theme.id
        lines.append(f"{name} changed since this run: " + ", ".join(theme_diff(was, theme)))
    return lines


def check_writable(out: Path, option: str = "--out") -> None:
    """RunFolderError unless folder `out` exists and is writable, or can be created: its
    nearest existing ancestor must be a folder we may write in."""
    out = Path(out)
    probe = out
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        what = "it" if probe == out else str(probe)
        raise RunFolderError(
            f"cannot write {out}: {what} is a file, not a folder; choose another {option}"
        )
    if probe.exists() and not os.access(probe, os.W_OK | os.X_OK):
        raise RunFolderError(
            f"cannot write {out}: no permission to write in {probe}; choose another {option} "
            "or change that folder's permissions"
        )


def check_chunk_files(
    out: Path, manifest: dict[str, Any] | None, listed_only: bool, hint: str | None = None
) -> None:
    """RunFolderError naming the first damaged chunk file of the run folder `out`: one whose
    Parquet footer cannot be read (truncated, empty, not Parquet), that lacks a seat column
    (an event column, for an event file), or whose row count differs from its manifest
    record (games x players seat rows; games event rows). Reads footers only (under a
    millisecond per file). listed_only: only the files the manifest lists as done (what a
    resume trusts); else every seats/*.parquet and events/*.parquet (what a report reads)."""
    listed = {c["file"]: c for c in (manifest or {}).get("chunks_done", [])}
    if listed_only:
        files = [out / f for f in listed if (out / f).is_file()]
        events = [
            (out / c["events"], c)
            for c in listed.values()
            if isinstance(c.get("events"), str) and (out / c["events"]).is_file()
        ]
    else:
        files = sorted((out / SEATS).glob("*.parquet"))
        events = [
            (path, listed.get(f"{SEATS}/{path.name}", {}))
            for path in sorted((out / EVENTS).glob("*.parquet"))
        ]
    problems = [
        (path, chunk_problem(path, _seat_rows(listed.get(f"{SEATS}/{path.name}", {}))))
        for path in files
    ]
    problems += [(path, event_problem(path, _int(c.get("games")))) for path, c in events]
    for path, problem in problems:
        if problem:
            todo = hint or "delete it and rerun the same command to play that chunk again"
            raise RunFolderError(f"{path}: damaged chunk file ({problem}); {todo}")


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat_rows(record: dict[str, Any]) -> int | None:
    """Seat rows a chunk record promises (games x players), None if it does not say."""
    games, players = _int(record.get("games")), _int(record.get("players"))
    return games * players if games is not None and players is not None else None


def chunk_problem(path: Path, rows: int | None = None) -> str | None:
    """Why `path` is not a complete chunk of seat rows (`rows` of them, if given), or None."""
    return parquet_problem(path, [c for c in SEAT_SCHEMA if c not in SEAT_DEFAULTS], rows)


def theme_digest(theme: Theme) -> str:
    """sha256 of the theme's parsed content: a changed theme file is a different request."""
    text = json.dumps(theme.raw, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def versions() -> dict[str, Any]:
    """Versions stamped into the manifest: the package, the rules, the numeric stack."""
    found: dict[str, Any] = {
        "rules": limits.RULES_VERSION,
        "policy": POLICY_VERSION,
        "python": platform.python_version(),
    }
    for package in ("bangsim", "numba", "numpy", "polars"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def write_parquet_atomic(
    frame: pl.DataFrame, path: Path, options: dict[str, Any] | None = None
) -> None:
    """Write `frame` to `path` so that `path` is either absent or complete (`options`: of
    polars' write_parquet).

    The Parquet bytes are made in memory first, so a failing disk raises the OSError itself
    (ENOSPC, EIO, ...), not a polars error wrapping it."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, **(options or {}))
    data = buffer.getbuffer()
    write_atomic(path, data)


# --- helpers -------------------------------------------------------------------------------


def new_manifest(
    request: dict[str, Any], configs: list[dict[str, Any]], themes: Sequence[Theme],
    experiment: dict[str, Any] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A new folder's manifest: the request, an experiment's own entry, its configurations
    and the files of its themes; no chunk played yet."""
    now = _now()
    return {
        "format": MANIFEST_FORMAT,
        "request": request,
        **({} if experiment is None else {"experiment": experiment}),
        "configs": configs,
        "theme_files": {t.id: str(t.path) if t.path else None for t in themes},
        "theme_contents": {t.id: t.raw for t in themes},  # what check_folder names a change by
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
    write_atomic(path, _manifest_text(data).encode())


def _manifest_text(data: dict[str, Any]) -> str:
    """Indented JSON, but one line per chunk record: thousands of chunks stay readable."""
    chunks = data.get("chunks_done", [])
    placeholder = "@chunks_done@"
    text = json.dumps({**data, "chunks_done": placeholder}, indent=2, ensure_ascii=False)
    lines = ",\n".join(f"    {json.dumps(c, ensure_ascii=False)}" for c in chunks)
    return text.replace(f'"{placeholder}"', f"[\n{lines}\n  ]" if chunks else "[]") + "\n"


def _remove_stale_temp_files(out: Path) -> None:
    """Temp files a crashed run left behind (we hold the folder lock: none are live)."""
    for folder in (out, out / SEATS, out / EVENTS):
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            if path.is_file() and _TEMP.match(path.name):
                path.unlink(missing_ok=True)


def _json_normal(data: dict[str, Any]) -> dict[str, Any]:
    """`data` as it reads back from JSON (tuples -> lists), so requests compare equal."""
    return json.loads(json.dumps(data))


def _short(value: Any, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
