"""Experiments: a grid of configurations played into one run folder (docs/experiments.md).

    themes x override values x character pools x featured characters x strategies x player
    counts -> cells

An experiment file (TOML) names the grid; every cell is one configuration with its own
label (``classic/5p/smart/leader_extra_life=2``), played chunk by chunk into
``out/seats/<label>-<chunk>.parquet`` with the run-folder conventions of
`simcore.runs.runfolder` (manifest, atomic writes, resume, folder lock). Overrides edit the
parsed theme dict, which `compile_theme` then validates, so a bad override fails with the
theme loader's one-line message. The whole grid is validated before anything is written.

Every cell plays games 0 .. games-1 with the experiment's seed, so a cell's rows depend
only on (cell, seed, game index) and equal `simcore.simulate` of the same (overridden)
theme, players, strategy, pool and seed; cells that differ only in an override replay the
same deals (common random numbers), which sharpens the comparison.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import hashlib
import itertools
import json
import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.engine import limits
from simcore.engine.request import (
    check_characters,
    check_feature,
    check_games,
    config_label,
    games_versions,
    safe_name,
)
from simcore.engine.theme import (
    CONFIGS_DIR,
    Theme,
    compile_theme,
    load_theme,
    shipped_names,
    shipped_or_path,
    shipped_themes,
)
from simcore.errors import UserError
from simcore.runs.backend import Backend
from simcore.runs.precision import DEFAULT_CAP, Precision, check_precision
from simcore.runs.runfolder import (
    DEFAULT_CHUNK_SIZE,
    Cell,
    Chunk,
    _json_normal,
    check_folder,
    new_manifest,
    plan_chunks,
    theme_digest,
    write_chunks,
)
from strategies.presets import DEFAULT_PRESET, check_strategy, strategy_record

SECTIONS = ("experiment", "grid", "overrides")
EXPERIMENT_KEYS = (
    "title", "description", "games", "seed", "chunk_size", "checked", "precision",
    "precision_characters",
)  # fmt: skip

GRID_KEYS = ("themes", "players", "strategies", "characters", "feature")
LEVEL_KEYS = ("strategy", "games")  # a strategy level with its own games per cell
DEFAULT_GAMES = 10_000
ALL = "all"
EXTRA_COPIES = "extra_copies"  # virtual card field: add (or remove, < 0) copies of a card
NAMED_SECTIONS = ("cards", "characters")  # lists of tables addressed by name
VALUES_IN_LABEL = 3  # list values up to this length are spelled out in labels
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
EXPERIMENTS_DIR = CONFIGS_DIR / "experiments"  # configs/experiments/, package data if installed


class ExperimentError(UserError):
    """A bad experiment file, grid or override; the message is one line."""


@dataclass(frozen=True)
class Override:
    """One theme value set in a cell: `path` into the parsed theme dict and its value."""

    path: tuple[str, ...]
    value: Any

    @property
    def key(self) -> str:
        """The path as written in the file: ``cards."Missed!".copies``."""
        return path_text(self.path)

    @property
    def label(self) -> str:
        """The label part: ``leader_extra_life=2``, ``Missed!.extra_copies=4``."""
        short = self.path[1:] if self.path[0] in ("rules", *NAMED_SECTIONS) else self.path
        return f"{'.'.join(short)}={value_text(self.value)}"


@dataclass(frozen=True)
class Level:
    """One entry of grid.strategies: a canonical strategy label and the games per cell it
    plays, None for the experiment's (`{ strategy = "search:tuned", games = 2000 }`)."""

    strategy: str
    games: int | None = None


@dataclass(frozen=True)
class Experiment:
    """A validated experiment and its chunk plan; nothing on disk yet."""

    source: Path
    out: Path
    title: str
    description: str
    games: int  # per cell, but for a strategy level's own (Cell.games)
    seed: int
    chunk_size: int
    checked: bool
    themes: list[Theme]  # as loaded, before overrides
    cells: list[Cell]
    skipped: list[str]  # (theme, players) pairs the theme has no role table for
    request: dict[str, Any]
    chunks: list[Chunk]
    events: bool = True  # write each chunk's event file (simcore.engine.event_rows)
    precision: Precision | None = None  # adaptive: `games` is the cap (simcore.runs.precision)

    @property
    def total_games(self) -> int:
        return sum(cell.games for cell in self.cells)


# --- planning ------------------------------------------------------------------------------


def shipped_experiments() -> list[str]:
    """Names of the experiments shipped in configs/experiments/ (package data), sorted."""
    return shipped_names(EXPERIMENTS_DIR)


def experiment_file(source: str | Path) -> Path:
    """A shipped experiment's name ("default") -> its file; a path (containing '/' or ending
    in .toml, or a Path) stays a path. ExperimentError naming the shipped ones if unknown."""
    return shipped_or_path(source, EXPERIMENTS_DIR, "experiment", ExperimentError)


def plan_experiment(
    source: str | Path,
    out: str | Path | None = None,
    games: int | None = None,
    seed: int | None = None,
    feature: str | None = None,
    *,
    events: bool = True,
    precision: float | None = None,
    precision_characters: bool = False,
) -> Experiment:
    """Read and validate an experiment file, expand its grid and plan its chunks.
    `events=False` writes no event files (`--no-events`). `precision` (e.g. 0.005): play
    each cell chunk by chunk until its intervals are that narrow (`simcore.runs.runfolder.run_study`
    says which); `games` is then the most per cell (None: simcore.runs.precision.DEFAULT_CAP,
    not the file's experiment.games). Without it, the file's experiment.precision (and
    experiment.precision_characters) ask the same, experiment.games being the cap.

    source is a shipped experiment's name ("default", see `shipped_experiments`) or a path.
    out defaults to runs/<file stem>; games and seed replace the file's (a strategy level's
    own games stay), feature (one
    featured character, "NAME" or "NAME=ROLE") replaces its grid.feature. Writes nothing and
    needs no engine. Raises ValueError (ExperimentError, ThemeError, RunFolderError) with a
    one-line message.
    """
    source = experiment_file(source)
    spec = read_spec(source)
    name = source.name
    head = spec.get("experiment", {})
    grid = spec.get("grid", {})
    target, characters = file_precision(head, name)
    if precision is None and target is not None:  # the file's own target
        precision, precision_characters = target, precision_characters or characters
        games = head.get("games", DEFAULT_CAP) if games is None else games
    if precision is not None and games is None:
        games = DEFAULT_CAP
    games = head.get("games", DEFAULT_GAMES) if games is None else games
    seed = head.get("seed", 1) if seed is None else seed
    chunk_size = head.get("chunk_size", DEFAULT_CHUNK_SIZE)
    checked = head.get("checked", False)
    try:
        check_games(games)
    except ValueError as e:
        raise ExperimentError(f"{name}: experiment.{e}") from None
    adaptive = check_precision(precision, precision_characters, games)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ExperimentError(f"{name}: seed must be an integer in 0..2**63-1, got {seed!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ExperimentError(
            f"{name}: experiment.chunk_size must be a positive integer, got {chunk_size!r}"
        )
    if not isinstance(checked, bool):
        raise ExperimentError(f"{name}: experiment.checked must be true or false")
    title = text_key(head, "title", f"{name}: experiment", source.stem, ExperimentError)
    description = text_key(head, "description", f"{name}: experiment", "", ExperimentError)

    themes = grid_themes(grid.get("themes", ["classic"]), source)
    counts = grid_players(grid.get("players", [5]), name)
    strategies = grid_strategies(grid.get("strategies", [DEFAULT_PRESET]), name, counts)
    pools = grid_pools(grid.get("characters", [ALL]), name)
    features = grid_features(grid.get("feature") if feature is None else feature, name)
    axes = override_axes(spec.get("overrides", {}), name)

    cells: list[Cell] = []
    skipped: list[str] = []
    for theme in themes:
        supported = theme.player_counts()
        playable = [n for n in counts if n in supported]
        skipped += [f"{theme.id}/{n}p" for n in counts if n not in supported]
        for level in strategies:  # at this theme's tables: a learned field may lack one
            try:
                check_strategy(level.strategy, playable, theme.plays_as)
            except ValueError as e:
                raise ExperimentError(f"{name}: grid.strategies: {e}") from None
        for combo in itertools.product(*axes):
            overrides = tuple(combo)
            variant = apply_overrides(theme, overrides, name)
            for pool in pools:
                try:
                    checked_pool = check_characters(pool, variant, playable)
                except ValueError as e:
                    raise ExperimentError(f"{name}: grid.characters: {e}") from None
                for featured in features:
                    try:
                        featured = check_feature(featured, variant, playable)
                    except ValueError as e:
                        raise ExperimentError(f"{name}: grid.feature: {e}") from None
                    for level in strategies:
                        for n in playable:
                            label = "/".join(
                                [config_label(variant.id, n, level.strategy, checked_pool,
                                              featured)]
                                + [o.label for o in overrides]
                            )  # fmt: skip
                            cells.append(
                                Cell(label, variant, n, level.strategy, checked_pool, featured,
                                     level.games or games, overrides)
                            )  # fmt: skip
    if not cells:
        raise ExperimentError(
            f"{name}: no cell to play: no theme has a role table for players "
            f"{', '.join(map(str, counts))}"
        )
    cells = _with_stems(cells, name)

    request = _json_normal(
        {
            "themes": [t.id for t in themes],
            "theme_digests": {t.id: theme_digest(t) for t in themes},
            "players": counts,
            "games": games,
            "seed": seed,
            "strategies": [level.strategy for level in strategies],
            # older requests lack the key
            **(
                {"strategy_games": {lv.strategy: lv.games for lv in strategies if lv.games}}
                if any(lv.games for lv in strategies)
                else {}
            ),
            "characters": None if pools == [None] else [p or ALL for p in pools],
            # older requests lack the key
            **(
                {"feature": list(dict.fromkeys(c.feature for c in cells))}
                if features != [None]
                else {}
            ),
            **(
                {"overrides": {path_text(a[0].path): [o.value for o in a] for a in axes}}
                if axes
                else {}
            ),
            **({"skipped": skipped} if skipped else {}),
            "chunk_size": chunk_size,
            "checked": checked,
            **games_versions(),
            **({} if events else {"events": False}),  # older requests lack it
            **({"precision": adaptive.request()} if adaptive else {}),  # older requests lack it
        }
    )
    out = Path(out) if out is not None else Path("runs") / source.stem
    check_folder(out, request, themes)
    return Experiment(
        source, out, title, description, games, seed, chunk_size, checked, themes, cells,
        skipped, request, plan_chunks(cells, chunk_size), bool(events), adaptive,
    )  # fmt: skip


def file_precision(head: dict[str, Any], name: str) -> tuple[float | None, bool]:
    """The file's own adaptive target, checked: experiment.precision (None: none) and
    experiment.precision_characters; --precision replaces them."""
    target, characters = head.get("precision"), head.get("precision_characters", False)
    if target is None:
        if "precision_characters" in head:
            raise ExperimentError(
                f"{name}: experiment.precision_characters needs experiment.precision (the "
                "target half-width)"
            )
        return None, False
    if isinstance(target, bool) or not isinstance(target, int | float) or not 0 < target < 0.5:
        raise ExperimentError(
            f"{name}: experiment.precision must be a number between 0 and 0.5, the 95% "
            f"interval half-width to reach (0.005 = ±0.5 points), got {target!r}"
        )
    if not isinstance(characters, bool):
        raise ExperimentError(f"{name}: experiment.precision_characters must be true or false")
    return float(target), characters


def read_spec(source: Path) -> dict[str, Any]:
    """The parsed experiment file, its sections and keys checked."""
    if not source.is_file():
        raise ExperimentError(f"{source}: experiment file not found")
    try:
        with source.open("rb") as f:
            spec = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{source.name}: TOML syntax error: {_one_line(str(e))}") from None
    except UnicodeDecodeError as e:
        raise ExperimentError(
            f"{source.name}: not UTF-8 text (byte {e.start}: {e.reason}); save it as UTF-8"
        ) from None
    for key, value in spec.items():
        if key not in SECTIONS:
            raise ExperimentError(
                f"{source.name}: unknown section '{key}' (allowed: {', '.join(SECTIONS)})"
            )
        if not isinstance(value, dict):
            raise ExperimentError(f"{source.name}: {key} must be a table ([{key}])")
    for section, allowed in (("experiment", EXPERIMENT_KEYS), ("grid", GRID_KEYS)):
        known_keys(spec.get(section, {}), f"{source.name}: {section}", allowed, ExperimentError)
    return spec


def known_keys(
    table: dict[str, Any], where: str, allowed: tuple[str, ...], error: type[UserError]
) -> None:
    """`error` "{where}.{key}: unknown key (allowed: ...)" for the first key of `table` not in
    `allowed` (where: "exp.toml: grid", a balance file's "...: search")."""
    for key in table:
        if key not in allowed:
            raise error(f"{where}.{key}: unknown key (allowed: {', '.join(allowed)})")


def grid_themes(value: Any, source: Path) -> list[Theme]:
    """Theme ids, paths (relative to the experiment file) or "all" (every shipped theme)."""
    name = source.name
    entries = _as_list(value, f"{name}: grid.themes", "theme ids or paths")
    themes: list[Theme] = []
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip():
            raise ExperimentError(
                f"{name}: grid.themes: expected theme ids or paths, got {entry!r}"
            )
        if entry == ALL:
            themes += [load_theme(t) for t in shipped_themes()]
            continue
        is_path = "/" in entry or entry.endswith(".toml")
        try:
            themes.append(load_theme(str(source.parent / entry) if is_path else entry))
        except ValueError as e:
            raise ExperimentError(f"{name}: grid.themes: {e}") from None
    seen: set[str] = set()
    unique = []
    for theme in themes:
        if theme.id in seen:
            if theme.path is not None and any(t.path == theme.path for t in unique):
                continue  # "all" plus a shipped id: the same theme twice
            raise ExperimentError(
                f"{name}: grid.themes: two themes with id '{theme.id}' (labels would collide)"
            )
        seen.add(theme.id)
        unique.append(theme)
    return unique


def grid_players(value: Any, name: str) -> list[int]:
    """Player counts: 5, [4, 6], "4-7" or "4,6"."""
    if isinstance(value, str):
        counts = []
        for part in value.split(","):
            m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
            if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
                raise ExperimentError(
                    f'{name}: grid.players: expected 5, [4, 6], "4-7" or "4,6", got {value!r}'
                )
            counts += range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1)
    else:
        counts = _as_list(value, f"{name}: grid.players", "player counts")
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, int):
            raise ExperimentError(f"{name}: grid.players: expected integers, got {n!r}")
        if not limits.MIN_PLAYERS <= n <= limits.MAX_PLAYERS:
            raise ExperimentError(
                f"{name}: grid.players: players must be between {limits.MIN_PLAYERS} and "
                f"{limits.MAX_PLAYERS}, got {n}"
            )
    return sorted(set(counts))


def grid_strategies(value: Any, name: str, counts: Sequence[int] = ()) -> list[Level]:
    """The strategy levels: preset names, "role=preset,..." or role -> preset tables, each
    with the experiment's games, or a table { strategy = ..., games = N } of one with its
    own games per cell; each read at the player `counts` (a mixture file may lack one)."""
    entries = value if isinstance(value, list) else [value]
    if not entries:
        raise ExperimentError(f"{name}: grid.strategies: empty list")
    levels = []
    for entry in entries:
        games = None
        if isinstance(entry, dict) and set(entry) & set(LEVEL_KEYS):
            where = f"{name}: grid.strategies"
            known_keys(entry, where, LEVEL_KEYS, ExperimentError)
            if "strategy" not in entry:
                raise ExperimentError(
                    f"{where}: a level {{ games = ... }} names no strategy "
                    '(write { strategy = "search:tuned", games = 2000 })'
                )
            entry, games = entry["strategy"], entry.get("games")
            try:
                games = None if games is None else check_games(games)
            except ValueError as e:
                raise ExperimentError(f"{where}: {entry}: {e}") from None
        try:
            levels.append(Level(check_strategy(entry, counts), games))
        except ValueError as e:
            raise ExperimentError(f"{name}: grid.strategies: {e}") from None
    labels = [level.strategy for level in levels]
    if len(set(labels)) < len(labels):
        raise ExperimentError(f"{name}: grid.strategies: a strategy is listed twice")
    return levels


def grid_features(value: Any, name: str) -> list[str | None]:
    """Featured characters: none (None: no feature), a name ("NAME" or "NAME=ROLE"), or a
    list of them, one cell each. The theme checks the names (check_feature)."""
    if value is None:
        return [None]
    entries = _as_list(value, f"{name}: grid.feature", "character names")
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip():
            raise ExperimentError(
                f'{name}: grid.feature: expected character names ("NAME" or "NAME=ROLE"), '
                f"got {entry!r}"
            )
    if len(set(entries)) < len(entries):
        raise ExperimentError(f"{name}: grid.feature: a character is listed twice")
    return list(entries)


def grid_pools(value: Any, name: str) -> list[list[str] | None]:
    """Character pools: each "all" (None: the theme's full list) or a list of names."""
    entries = _as_list(value, f"{name}: grid.characters", "pools")
    pools: list[list[str] | None] = []
    for entry in entries:
        if entry == ALL:
            pools.append(None)
        elif isinstance(entry, list) and all(isinstance(c, str) for c in entry):
            pools.append(list(entry))
        else:
            raise ExperimentError(
                f'{name}: grid.characters: each entry is "all" or a list of names (a pool), '
                f'got {entry!r}; one pool is written characters = [["A", "B", ...]]'
            )
    return pools


# --- overrides -----------------------------------------------------------------------------


def override_axes(section: Any, name: str) -> list[list[Override]]:
    """The [overrides] table as axes: one list of Overrides (one per value) per path.

    TOML dotted keys nest, so ``rules.leader_extra_life = [0, 1, 2]`` arrives as
    {"rules": {"leader_extra_life": [0, 1, 2]}}: walk the tables down to the lists.
    """
    axes: list[list[Override]] = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            if not node:
                raise ExperimentError(f"{name}: overrides.{path_text(path)}: empty table")
            for key, child in node.items():
                walk(child, (*path, key))
            return
        where = f"{name}: overrides.{path_text(path)}"
        if not isinstance(node, list) or not node:
            raise ExperimentError(
                f"{where}: must be a list of values, one per cell, e.g. [0, 1, 2] "
                f"(one fixed value: [{json.dumps(node)}])"
            )
        check_override_path(path, where)
        texts = [value_text(v) for v in node]
        if len(set(texts)) < len(texts):
            raise ExperimentError(f"{where}: a value is listed twice")
        axes.append([Override(path, v) for v in node])

    if not isinstance(section, dict):
        raise ExperimentError(f"{name}: overrides must be a table")
    for key, child in section.items():
        walk(child, (key,))
    return axes


def check_override_path(path: tuple[str, ...], where: str) -> None:
    """Shape checks that do not need the theme; the theme compiler checks the rest."""
    if path[:2] == ("theme", "id"):
        raise ExperimentError(f"{where}: the theme id cannot be overridden (it names the cells)")
    if path[0] in NAMED_SECTIONS and len(path) != 3:
        example = "copies" if path[0] == "cards" else "life"
        raise ExperimentError(
            f'{where}: expected {path[0]}."NAME".FIELD, e.g. '
            f'{path[0]}."{path[1] if len(path) > 1 else "NAME"}".{example}'
        )
    if path[-1] == EXTRA_COPIES and path[0] != "cards":
        raise ExperimentError(f"{where}: {EXTRA_COPIES} applies to cards only")


def apply_overrides(theme: Theme, overrides: tuple[Override, ...], name: str) -> Theme:
    """`theme` with the overrides applied to a copy of its parsed dict, compiled again."""
    if not overrides:
        return theme
    raw = copy.deepcopy(theme.raw)
    for o in overrides:
        set_value(raw, o, f"{name}: overrides.{o.key}", theme.id)
    try:  # a theme file playing under a label of its own (own_id) keeps it
        compiled = compile_theme(raw, theme.path)
        return dataclasses.replace(compiled, id=theme.id, shipped_id=theme.shipped_id)
    except ValueError as e:
        settings = ", ".join(f"{o.key} = {json.dumps(o.value)}" for o in overrides)
        raise ExperimentError(f"{name}: overrides {settings}: {e}") from None


def set_value(raw: dict[str, Any], o: Override, where: str, theme_id: str) -> None:
    """Set one override in a parsed theme dict (cards and characters are found by name)."""
    path, value = o.path, o.value
    if path[0] in NAMED_SECTIONS:
        section, entry_name, key = path
        entries = raw.get(section)
        entries = entries if isinstance(entries, list) else []
        names = [e.get("name") for e in entries if isinstance(e, dict)]
        matches = [e for e in entries if isinstance(e, dict) and e.get("name") == entry_name]
        if not matches:
            close = difflib.get_close_matches(entry_name, [str(n) for n in names], n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ExperimentError(
                f"{where}: theme '{theme_id}' has no {section[:-1]} named '{entry_name}'{hint}"
            )
        entry = matches[0]
        if key == EXTRA_COPIES:
            _extra_copies(raw, entry, value, where)
        else:
            entry[key] = copy.deepcopy(value)
        return
    node = raw
    for i, key in enumerate(path[:-1]):
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ExperimentError(
                f"{where}: {path_text(path[: i + 1])} is not a table in theme '{theme_id}'"
            )
        node = child
    node[path[-1]] = copy.deepcopy(value)


def _extra_copies(raw: dict[str, Any], card: dict[str, Any], extra: Any, where: str) -> None:
    """n > 0: n more copies repeating the card's faces in order; n < 0: drop the last -n
    (all of them: the card leaves the deck)."""
    faces = card.get("copies")
    if isinstance(extra, bool) or not isinstance(extra, int):
        raise ExperimentError(f"{where}: must be a whole number of copies, got {extra!r}")
    if not isinstance(faces, list) or not faces:
        raise ExperimentError(f"{where}: the card lists no copies to repeat")
    if extra < -len(faces):
        raise ExperimentError(
            f"{where}: {extra} removes more copies than the card has ({len(faces)})"
        )
    if extra == -len(faces):
        raw["cards"] = [c for c in raw["cards"] if c is not card]
    elif extra < 0:
        card["copies"] = faces[:extra]
    else:
        card["copies"] = faces + list(itertools.islice(itertools.cycle(faces), extra))


def path_text(path: tuple[str, ...]) -> str:
    """An override path as a TOML dotted key: rules.leader_extra_life, cards."Missed!".copies."""
    return ".".join(
        p if _BARE_KEY.fullmatch(p) else json.dumps(p, ensure_ascii=False) for p in path
    )


def value_text(value: Any) -> str:
    """An override value in a label: 2, true, 2S+3S; longer lists as their length and hash."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if len(value) <= VALUES_IN_LABEL:
            return "+".join(value_text(v) for v in value) or "none"
        digest = hashlib.sha1(json.dumps(value, sort_keys=True).encode()).hexdigest()[:6]
        return f"{len(value)}items-{digest}"
    if isinstance(value, dict):
        return ",".join(f"{k}:{value_text(v)}" for k, v in value.items())
    return str(value)


# --- running -------------------------------------------------------------------------------


def execute_experiment(
    exp: Experiment, progress: bool = True, backend: Backend | None = None
) -> Path:
    """Play the chunks of `exp` not yet in its folder, writing each as it completes;
    `backend` (simcore.runs.backend, default local) plays them."""
    experiment = {
        "file": str(exp.source),
        "title": exp.title,
        "description": exp.description,
        "cells": len(exp.cells),
        "skipped": exp.skipped,
    }
    configs = [
        {
            "label": cell.label,
            "theme": cell.theme.id,
            "players": cell.players,
            "strategy": cell.strategy,
            "played": strategy_record(cell.strategy, cell.theme.plays_as),
            "characters": cell.characters,
            "feature": cell.feature,
            "overrides": {o.key: o.value for o in cell.overrides},
            "games": cell.games,
            "chunks": math.ceil(cell.games / exp.chunk_size),
        }
        for cell in exp.cells
    ]
    return write_chunks(
        exp,
        lambda: new_manifest(exp.request, configs, exp.themes, experiment),
        f"{exp.title} ({len(exp.cells)} cells)",
        lambda chunk: chunk.label,
        progress,
        backend,
    )


def run_experiment(
    source: str | Path, out: str | Path | None = None, games: int | None = None,
    seed: int | None = None, progress: bool = True, feature: str | None = None,
    events: bool = True, precision: float | None = None, precision_characters: bool = False,
) -> Path:  # fmt: skip
    """Plan and play an experiment into its run folder; return the folder."""
    plan = plan_experiment(
        source, out, games, seed, feature, events=events, precision=precision,
        precision_characters=precision_characters,
    )  # fmt: skip
    return execute_experiment(plan, progress=progress)


# --- helpers -------------------------------------------------------------------------------


def _with_stems(cells: list[Cell], name: str) -> list[Cell]:
    """Cells with their chunk file stems: safe_name(label), plus a hash where two collide."""
    labels = [c.label for c in cells]
    if len(set(labels)) < len(labels):
        dupe = next(label for label in labels if labels.count(label) > 1)
        raise ExperimentError(f"{name}: two cells have the label {dupe!r}")
    stems = [safe_name(label) for label in labels]
    result = []
    for cell, stem in zip(cells, stems, strict=True):
        if stems.count(stem) > 1:
            stem += "-" + hashlib.sha1(cell.label.encode()).hexdigest()[:6]
        result.append(dataclasses.replace(cell, stem=stem))
    return result


def _as_list(value: Any, where: str, what: str) -> list[Any]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ExperimentError(f"{where}: empty list (give one or more {what})")
    return items


def text_key(
    table: dict[str, Any], key: str, where: str, default: str, error: type[UserError]
) -> str:
    """table[key] (default if absent), which must be text; `error` "{where}.{key} must be a
    string" otherwise (where: "exp.toml: experiment", a balance file's "...: balance")."""
    value = table.get(key, default)
    if not isinstance(value, str):
        raise error(f"{where}.{key} must be a string, got {value!r}")
    return value


def _one_line(text: str) -> str:
    return " ".join(text.split())
