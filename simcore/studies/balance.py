"""Balance problems: the `bangsim balance` file format (docs/balance.md) and its variants.

A balance file names the theme(s), player counts and strategy to play, the win rates wanted
(**targets**: per side and player count, and/or every character's role-adjusted effect
within a band) and the theme settings the search may move (**knobs**: override paths of the
experiment format, `simcore.runs.experiment`, each with its allowed values). A **variant** is one
value per knob, written as a tuple of value indices; the printed theme is the variant whose
every index is its knob's `printed` one. Everything is validated before anything is played:
each knob value is applied alone to each theme and compiled, so an unknown path, name or
value fails here with the theme loader's one-line message.

The search (`simcore.studies.balance_search`) plays variants; this module only reads, applies and
describes them, and writes them as theme files.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import tomli_w

from simcore.engine.request import games_versions
from simcore.engine.theme import CONFIGS_DIR, Theme, read_toml, shipped_names, shipped_or_path
from simcore.engine.vocab import ROLES, SIDE_OF_ROLE, WINNERS
from simcore.errors import UserError
from simcore.runs.experiment import (
    EXTRA_COPIES,
    NAMED_SECTIONS,
    ExperimentError,
    Override,
    apply_overrides,
    check_override_path,
    grid_players,
    grid_themes,
    known_keys,
    path_text,
    set_value,
    text_key,
    value_text,
)
from simcore.runs.runfolder import theme_digest
from simcore.studies.tune import BEYOND_LUCK, KEEP
from strategies.presets import Strategy, check_strategy, resolve_strategy

SECTIONS = ("balance", "search", "targets", "knobs")
BALANCE_KEYS = ("title", "description", "themes", "players", "strategy", "seed")
CHARACTERS = "characters"  # targets.characters.within: the band of every character's effect
SUM_TOLERANCE = 0.005  # side targets of a table that name every side must sum to 1 within this
BALANCE_DIR = CONFIGS_DIR / "balance"  # configs/balance/, package data if installed
_RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*")


class BalanceError(UserError):
    """A bad balance file; the message is one line."""


@dataclass(frozen=True)
class Budget:
    """How much the search plays ([search] of the file)."""

    generations: int = 12  # rounds of candidates
    population: int = 0  # CMA-ES candidates per round; 0: its default for the knob count
    sigma0: float = 0.3  # CMA-ES's first step, in the unit cube of knob indices
    games_min: int = 500  # games per candidate and configuration in the first round
    games_max: int = 4_000  # ... rising geometrically to this in the last round
    final_games: int = 20_000  # fresh deals per front variant (and the printed theme)
    retune: str = "off"  # "inside": judge candidates at strategies re-tuned for them
    retune_light: int = 8  # with retune = "inside": candidates re-tuned lightly, the front aside
    band_epsilon: float = 0.0  # with retune = "inside", > 0: each front variant's band too
    retune_keep: str = BEYOND_LUCK  # which best responses a re-tune takes (tune.KEEP)
    # with retune = "inside" (and --retune): independent re-tunes of each final variant, each
    # with its own seed; its verdict is the worst one's (balance_retune.worst_replicate)
    retune_replicates: int = 5


SEARCH_KEYS = tuple(f.name for f in fields(Budget))
# the least each whole-number [search] key takes (32 for a key not named)
LEAST = {"generations": 1, "population": 0, "final_games": 100, "retune_light": 0,
         "retune_replicates": 1}  # fmt: skip
REALS = {
    "sigma0": ("(0, 1]", lambda v: 0 < v <= 1),
    "band_epsilon": ("[0, 1)", lambda v: 0 <= v < 1),
}
RETUNE_MODES = ("off", "inside")  # search.retune: the file's strategy only, or re-tuned inside
CHOICES = {"retune": RETUNE_MODES, "retune_keep": KEEP}  # the [search] keys that name a mode


@dataclass(frozen=True)
class Knob:
    """One theme setting the search may move, and the values it may take."""

    path: tuple[str, ...]
    values: tuple[Any, ...]  # the allowed values, the printed one included
    printed: int  # index of the printed theme's value in `values`

    @property
    def key(self) -> str:
        return path_text(self.path)

    @property
    def numeric(self) -> bool:
        return all(isinstance(v, int | float) and not isinstance(v, bool) for v in self.values)

    def far(self, index: int) -> float:
        """How far value `index` is from the printed one: |difference| / the span of the
        allowed values for numbers, 1 for any other change, 0 for none."""
        if index == self.printed:
            return 0.0
        if not self.numeric:
            return 1.0
        span = max(self.values) - min(self.values)
        return abs(self.values[index] - self.values[self.printed]) / span


@dataclass(frozen=True)
class Targets:
    """The win rates wanted: per player count, side -> rate; and/or every character's
    role-adjusted effect (its win rate minus what its roles give) within ±within."""

    sides: dict[int, dict[str, float]]
    within: float | None


@dataclass(frozen=True)
class Config:
    """One table the variants are measured at: a theme (as printed) and a player count,
    with the strategy resolved for them."""

    theme: Theme
    players: int
    strategy: Strategy

    @property
    def label(self) -> str:
        return f"{self.theme.id}/{self.players}p"


@dataclass(frozen=True)
class Problem:
    """A validated balance file; nothing played yet."""

    source: Path
    title: str
    description: str
    themes: list[Theme]
    players: list[int]
    strategy: str
    seed: int
    targets: Targets
    knobs: tuple[Knob, ...]
    budget: Budget
    configs: list[Config]
    spec: dict[str, Any]  # the parsed file, for the request digest

    @property
    def printed(self) -> tuple[int, ...]:
        return tuple(k.printed for k in self.knobs)

    def changes(self, variant: tuple[int, ...]) -> int:
        """Knobs moved from the printed theme."""
        return sum(i != k.printed for i, k in zip(variant, self.knobs, strict=True))

    def far(self, variant: tuple[int, ...]) -> float:
        """How far the moved knobs went (Knob.far summed)."""
        return sum(k.far(i) for i, k in zip(variant, self.knobs, strict=True))

    def overrides(self, variant: tuple[int, ...]) -> tuple[Override, ...]:
        """The overrides of a variant: its moved knobs only."""
        return tuple(
            Override(k.path, k.values[i])
            for i, k in zip(variant, self.knobs, strict=True)
            if i != k.printed
        )

    def themes_of(self, variant: tuple[int, ...]) -> dict[str, Theme] | None:
        """Each theme with the variant applied, by id; None when a combination of knob
        values does not compile (a deck too small: the search skips such variants)."""
        try:
            return {
                t.id: apply_overrides(t, self.overrides(variant), self.source.name)
                for t in self.themes
            }
        except ExperimentError:
            return None

    def words(self, variant: tuple[int, ...]) -> list[str]:
        """The variant's changes in words: "Missed! 12 → 16 copies", "Sheriff's extra life
        1 → 2" (the first theme's names)."""
        theme = self.themes[0]
        return [
            change_words(theme, k.path, k.values[k.printed], k.values[i])
            for i, k in zip(variant, self.knobs, strict=True)
            if i != k.printed
        ]

    def digest(self) -> str:
        """Names the request: the file's content, the themes' and the strategies' values, the
        seed and the rules and policy versions (a saved search of another request is not
        resumed)."""
        text = json.dumps(
            {
                "spec": self.spec,
                "seed": self.seed,
                "themes": [theme_digest(t) for t in self.themes],
                "strategies": [c.strategy.matrix.tolist() for c in self.configs],
                **games_versions(),
            },
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]


# --- reading --------------------------------------------------------------------------------


def shipped_balance() -> list[str]:
    """Names of the balance files shipped in configs/balance/ (package data), sorted."""
    return shipped_names(BALANCE_DIR)


def read_problem(source: str | Path, seed: int | None = None, retune: str | None = None) -> Problem:
    """Read and validate a balance file (a shipped name or a path); `seed` replaces its
    balance.seed, `retune` its search.retune (so the request's digest says it too).
    BalanceError (or the theme loader's error) with a one-line message."""
    source = shipped_or_path(source, BALANCE_DIR, "balance file", BalanceError)
    name = source.name
    if not source.is_file():
        raise BalanceError(f"{source}: balance file not found")
    spec = read_toml(source, BalanceError)
    if retune is not None and isinstance(spec.get("search", {}), dict):
        spec = {**spec, "search": {**spec.get("search", {}), "retune": retune}}
    for key, value in spec.items():
        if key not in SECTIONS:
            raise BalanceError(f"{name}: unknown section '{key}' (allowed: {', '.join(SECTIONS)})")
        if not isinstance(value, dict):
            raise BalanceError(f"{name}: {key} must be a table ([{key}])")
    head = spec.get("balance", {})
    known_keys(head, f"{name}: balance", BALANCE_KEYS, BalanceError)
    known_keys(spec.get("search", {}), f"{name}: search", SEARCH_KEYS, BalanceError)
    seed = head.get("seed", 1) if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BalanceError(f"{name}: seed must be an integer in 0..2**63-1, got {seed!r}")
    try:
        themes = grid_themes(head.get("themes", ["classic"]), source)
        players = grid_players(head.get("players", [5]), name)
    except ValueError as e:
        raise BalanceError(str(e).replace("grid.", "balance.")) from None
    try:
        strategy = check_strategy(head.get("strategy", "tuned"))
    except ValueError as e:
        raise BalanceError(f"{name}: balance.strategy: {e}") from None
    configs = []
    for theme in themes:
        for n in players:
            if n not in theme.player_counts():
                raise BalanceError(
                    f"{name}: balance.players: theme '{theme.id}' has no role table for {n} "
                    f"players (supported: {', '.join(map(str, theme.player_counts()))})"
                )
            try:
                configs.append(Config(theme, n, resolve_strategy(strategy, n, theme.plays_as)))
            except ValueError as e:
                raise BalanceError(f"{name}: balance.strategy: {e}") from None
    budget = read_budget(spec.get("search", {}), name)
    targets = read_targets(spec.get("targets", {}), configs, name)
    knobs = read_knobs(spec.get("knobs", {}), themes, name)
    return Problem(
        source,
        text_key(head, "title", f"{name}: balance", source.stem, BalanceError),
        text_key(head, "description", f"{name}: balance", "", BalanceError),
        themes, players, strategy, seed, targets, knobs, budget, configs, spec,
    )  # fmt: skip


def read_budget(table: dict[str, Any], name: str) -> Budget:
    """The [search] table: positive whole numbers (sigma0 a number in (0, 1], band_epsilon
    in [0, 1), retune and retune_keep one of their CHOICES)."""
    values = {}
    for key, value in table.items():
        if key in CHOICES:
            if value not in CHOICES[key]:
                raise BalanceError(
                    f"{name}: search.{key} must be {' or '.join(map(repr, CHOICES[key]))}, got "
                    f"{value!r}"
                )
        elif key in REALS:
            span, inside = REALS[key]
            if not (
                isinstance(value, int | float) and not isinstance(value, bool) and inside(value)
            ):
                raise BalanceError(
                    f"{name}: search.{key} must be a number in {span}, got {value!r}"
                )
        else:
            least = LEAST.get(key, 32)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise BalanceError(
                    f"{name}: search.{key} must be a whole number of at least {least}, got "
                    f"{value!r}"
                )
        values[key] = value
    budget = Budget(**values)
    if budget.games_max < budget.games_min:
        raise BalanceError(
            f"{name}: search.games_max ({budget.games_max}) is less than search.games_min "
            f"({budget.games_min})"
        )
    return budget


def read_targets(table: dict[str, Any], configs: list[Config], name: str) -> Targets:
    """[targets]: "5" = { leader = 0.45, ... } per player count, characters = { within = .. }."""
    played = sorted({c.players for c in configs})
    sides: dict[int, dict[str, float]] = {}
    within = None
    for key, value in table.items():
        where = f"{name}: targets.{key}"
        if key == CHARACTERS:
            if not isinstance(value, dict) or set(value) != {"within"}:
                raise BalanceError(
                    f"{where}: expected {{ within = 0.03 }} (every character's effect within "
                    "±3 points)"
                )
            within = value["within"]
            if not _number(within) or not 0 < within < 1:
                raise BalanceError(
                    f"{where}.within: unreachable band {within!r}: give a number between 0 and "
                    "1 (0.03 is ±3 points)"
                )
            continue
        if not key.isdigit() or int(key) not in played:
            raise BalanceError(
                f"{where}: targets are keyed by a player count the file plays "
                f"({', '.join(map(str, played))}) or '{CHARACTERS}'"
            )
        n = int(key)
        at = sorted(
            {SIDE_OF_ROLE[ROLES[r]] for c in configs if c.players == n
             for r in c.theme.tables.roles[n, :n]},
            key=WINNERS.index,
        )  # fmt: skip
        if not isinstance(value, dict) or not value:
            raise BalanceError(f"{where}: expected a table of side rates, e.g. {{ leader = 0.45 }}")
        for side, rate in value.items():
            if side not in at:
                raise BalanceError(
                    f"{where}.{side}: unknown side (sides at {n} players: {', '.join(at)})"
                )
            if not _number(rate) or not 0 < rate < 1:
                raise BalanceError(
                    f"{where}.{side}: unreachable target {rate!r}: a win rate strictly "
                    "between 0 and 1"
                )
        total, every = sum(value.values()), set(value) == set(at)
        if total > 1 + SUM_TOLERANCE or (every and abs(total - 1) > SUM_TOLERANCE):
            must = "they must sum to 1" if every else "at most 1"
            raise BalanceError(
                f"{where}: contradictory targets: the side rates sum to {total:.3f}, but exactly "
                f"one side wins each game ({must})"
            )
        sides[n] = {s: float(value[s]) for s in WINNERS if s in value}
    if not sides and within is None:
        raise BalanceError(
            f'{name}: no targets: give [targets] side rates per player count ("5" = '
            "{ leader = 0.45, outlaw = 0.40, renegade = 0.15 }) and/or characters = "
            "{ within = 0.03 }"
        )
    return Targets(sides, within)


def read_knobs(section: dict[str, Any], themes: list[Theme], name: str) -> tuple[Knob, ...]:
    """[knobs]: override paths (TOML dotted keys nest) with a list of values or an integer
    range "A..B"; each value applied alone to each theme must compile."""
    knobs: list[Knob] = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            if not node:
                raise BalanceError(f"{name}: knobs.{path_text(path)}: empty table")
            for key, child in node.items():
                walk(child, (*path, key))
            return
        knobs.append(read_knob(path, node, themes, name))

    for key, child in section.items():
        walk(child, (key,))
    if not knobs:
        raise BalanceError(
            f"{name}: no knobs: give [knobs] theme settings the search may move, e.g. "
            'rules.leader_extra_life = [0, 1, 2] or cards."Missed!".extra_copies = "-4..4"'
        )
    return tuple(knobs)


def read_knob(path: tuple[str, ...], value: Any, themes: list[Theme], name: str) -> Knob:
    where = f"{name}: knobs.{path_text(path)}"
    if isinstance(value, str):
        m = _RANGE.fullmatch(value)
        if not m or int(m.group(2)) <= int(m.group(1)):
            raise BalanceError(
                f'{where}: bad range {value!r}: write "LOW..HIGH" with whole numbers, LOW < HIGH '
                '(e.g. "-4..4"), or a list of values'
            )
        values = list(range(int(m.group(1)), int(m.group(2)) + 1))
    elif isinstance(value, list) and value:
        values = list(value)
    else:
        raise BalanceError(
            f'{where}: expected a list of values ([0, 1, 2]) or a whole-number range ("-4..4"), '
            f"got {value!r}"
        )
    try:
        check_override_path(path, where)
    except ExperimentError as e:
        raise BalanceError(str(e)) from None
    texts = [value_text(v) for v in values]
    if len(set(texts)) < len(texts):
        raise BalanceError(f"{where}: a value is listed twice")
    printed = {t.id: printed_value(t, path) for t in themes}
    first = next(iter(printed.values()))
    if any(v != first for v in printed.values()):
        shown = ", ".join(f"{t} {json.dumps(v)}" for t, v in printed.items())
        raise BalanceError(
            f"{where}: the themes print different values ({shown}); balance them in separate "
            "files, or move a relative setting (extra_copies)"
        )
    if first not in values:
        values.insert(0, first)
    if len(values) < 2:
        raise BalanceError(f"{where}: only the printed value {json.dumps(first)}: nothing to move")
    for v in values:
        if v != first:
            for theme in themes:
                apply_overrides(theme, (Override(path, v),), f"{name}: knobs")
    return Knob(path, tuple(values), values.index(first))


def printed_value(theme: Theme, path: tuple[str, ...]) -> Any:
    """The printed theme's value at an override path (rules with their defaults filled; 0 for
    extra_copies; None where the theme leaves it out)."""
    if path[0] == "rules" and len(path) == 2 and path[1] in theme.rule_values:
        return theme.rule_values[path[1]]
    if path[0] in NAMED_SECTIONS and len(path) == 3:
        if path[2] == EXTRA_COPIES:
            return 0
        entries = [e for e in theme.raw.get(path[0], []) if e.get("name") == path[1]]
        return entries[0].get(path[2]) if entries else None
    node: Any = theme.raw
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


# --- describing and writing variants --------------------------------------------------------


def change_words(theme: Theme, path: tuple[str, ...], old: Any, new: Any) -> str:
    """One change in a designer's words: "Missed! 12 → 16 copies", "Sheriff's extra life
    1 → 2", "Paul Regret's life 3 → 4", "rule outlaw reward 3 → 2"."""
    if path[0] in NAMED_SECTIONS and len(path) == 3:
        entry, field = path[1], path[2]
        if field == EXTRA_COPIES:
            entries = [e for e in theme.raw.get("cards", []) if e.get("name") == entry]
            have = len(entries[0].get("copies", [])) if entries else 0
            return f"{entry} {have} → {have + new} copies"
        return f"{entry}'s {field} {_shown(old)} → {_shown(new)}"
    if path == ("rules", "leader_extra_life"):
        return f"{theme.role_names['leader']}'s extra life {_shown(old)} → {_shown(new)}"
    what = "rule " + path[1].replace("_", " ") if path[0] == "rules" else path_text(path)
    return f"{what} {_shown(old)} → {_shown(new)}"


def theme_toml(theme: Theme, theme_id: str, header: str) -> str:
    """A theme as a ready theme file under a new id (so it can be told from the printed one
    in reports and experiments), `header` as its opening comment; written anew from its
    data, without the comments of the file it came from."""
    raw = {**theme.raw, "theme": {**theme.raw["theme"], "id": theme_id}}
    return _comment(header) + "\n\n" + tomli_w.dumps(raw)


def variant_toml(
    printed: Theme, overrides: tuple[Override, ...], variant: Theme, theme_id: str, header: str
) -> str | None:
    """The printed theme's own file with the overrides edited in where their values stand
    (tomlkit keeps every comment: the rulebook quotes and assumptions), each changed line's
    comment saying what it was, under a new id and `header`. None when the printed theme
    has no file to edit, or its file is not what the variant was made from (a theme given
    already changed): the caller then writes the data anew (theme_toml)."""
    import tomllib

    import tomlkit

    if printed.path is None:
        return None
    doc = tomlkit.parse(printed.path.read_text())
    for o in overrides:
        set_value(doc, o, "variant", printed.id)
        item, words = (
            _edited(doc, o.path),
            change_words(printed, o.path, _printed(printed, o.path), o.value),
        )
        quote = item.trivia.comment.lstrip("#").strip()
        item.comment(f"{quote}; bangsim balance: {words}" if quote else f"bangsim balance: {words}")
        item.trivia.comment_ws = "  "
    doc["theme"]["id"] = theme_id
    text = _comment(header) + "\n\n" + tomlkit.dumps(doc)
    want = {**variant.raw, "theme": {**variant.raw["theme"], "id": theme_id}}
    return text if tomllib.loads(text) == want else None


def _edited(doc: Any, path: tuple[str, ...]) -> Any:
    """The tomlkit item an override of `path` changed (a card's copies for extra copies)."""
    if path[0] in NAMED_SECTIONS:
        section, name, key = path
        entry = next(e for e in doc[section] if e.get("name") == name)
        return entry["copies" if key == EXTRA_COPIES else key]
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node[path[-1]]


def _printed(theme: Theme, path: tuple[str, ...]) -> Any:
    """The printed value at an override's path (None where the file leaves it unset)."""
    if path[0] in NAMED_SECTIONS:
        section, name, key = path
        entries = [e for e in theme.raw.get(section, []) if e.get("name") == name]
        return entries[0].get(key) if entries else None
    node: Any = theme.raw
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _comment(header: str) -> str:
    return "\n".join(f"# {line}" if line else "#" for line in header.splitlines())


# --- helpers --------------------------------------------------------------------------------


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _shown(value: Any) -> str:
    return "none" if value is None else value_text(value)
