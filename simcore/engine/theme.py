"""Theme files: load a theme TOML, validate it, compile it to the kernel's `Tables`.

A theme maps its own card and character names onto the kernel's vocabulary
(`simcore.engine.vocab`). Every validation error is a `ThemeError` with a one-line message that
names the file, the key and what is allowed, e.g.
``classic.toml: cards[3].effect: unknown effect 'bangg' (allowed: bang, missed, ...)``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from simcore.engine import limits, vocab
from simcore.engine.tables import Tables
from simcore.errors import UserError


def _configs_dir() -> Traversable:
    """configs/: the package simcore.configs, which pyproject.toml maps it to in an install
    (editable or not; a pathlib.Path unless installed in a zip), else, for a clone used
    without installing it (on PYTHONPATH), the folder beside simcore/."""
    try:
        return files("simcore.configs")
    except ModuleNotFoundError:
        clone = Path(__file__).resolve().parents[2] / "configs"  # simcore/engine/theme.py
        if not clone.is_dir():
            raise
        return clone


CONFIGS_DIR = _configs_dir()  # the shipped themes/ and experiments/
THEMES_DIR = CONFIGS_DIR / "themes"

SECTIONS = ("theme", "roles", "rules", "role_table", "checks", "effects", "cards", "characters")
THEME_KEYS = ("id", "title", "description", "parent")
CARD_KEYS = ("name", "effect", "value", "cost", "beer", "text", "copies", "destiny")
EFFECT_KEYS = ("name", "like", "aim", "draws", "text")
CHARACTER_KEYS = ("name", "life", "ability", "text")
CHECK_KEYS = ("suits", "ranks", "symbols")

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SYMBOL_RE = re.compile(r"[a-z][a-z0-9_]*")  # a symbol face: "cover", "trash_compactor"
BYTE_MAX = 127  # int8 fields: value, cost, life
RULE_INT_MAX = 2**31 - 1
TURN_CAP_MAX = 2**15 - 1  # engine.GameBlock.turns and .rounds are int16

# the draw! an ability makes (an effect's is its `check` trait, vocab.EFFECT_TRAITS)
ABILITY_CHECKS = {
    vocab.A_BUILTIN_BARREL: vocab.CHK_BARREL,
    vocab.A_DRAW_EXTRA_ON_CHECK: vocab.CHK_DRAW_EXTRA,
}
# the aims a theme's own effect may give an effect aimed at one other player
OWN_AIMS = ("reach", "range", "any_other")


class Effect(NamedTuple):
    """An effect a card names: a built-in one (vocab.EFFECTS) or the theme's own
    (`[[effects]]`): the built-in effect it is `like`, with its own aim and draws."""

    code: int  # vocab.E_*: what the kernel does with it
    aim: int  # vocab.AIM_*
    draws: int  # cards its player draws after using it


BUILTIN_EFFECTS = {
    name: Effect(code, vocab.EFFECT_TRAITS[code].aim, 0) for name, code in vocab.EFFECTS.items()
}


def takes_value(code: int, aim: int) -> bool:
    """Does a card of effect `code` aimed so carry a `value`: a range to aim by, or the
    count, reach or amount of its effect (a steal's is its range)?"""
    if aim == vocab.AIM_RANGE:
        return True
    return code in vocab.EFFECT_DEFAULT_VALUE and vocab.EFFECT_TRAITS[code].aim != vocab.AIM_RANGE


class ThemeError(UserError):
    """A theme file that cannot be loaded; the message is one line."""


@dataclass(frozen=True, eq=False)
class Theme:
    """A loaded, validated theme: names for reports and the compiled `Tables` for the kernel."""

    id: str
    title: str
    path: Path | Traversable | None  # a Traversable only for a theme shipped in a zip
    role_names: dict[str, str]  # canonical role -> display name
    card_names: list[str]  # distinct names; index = Tables.card_name
    card_faces: list[str]  # per physical card, in compiled order
    card_display: list[str]  # per physical card: its name
    card_effects: list[str]  # per distinct name: its effect as the theme file names it
    character_names: list[str]
    character_lives: list[int]
    character_abilities: list[str]  # ability names (vocab.ABILITIES keys)
    tables: Tables
    raw: dict[str, Any] = field(repr=False)
    rule_values: dict[str, Any] = field(default_factory=dict)  # every rule, defaults filled
    # the shipped theme whose id the file gives while playing something else (own_id), else None
    shipped_id: str | None = None
    # the shipped theme a variant was exported from ([theme] parent), else None
    parent: str | None = None

    @property
    def plays_as(self) -> str:
        """The theme id whose shipped strategy values (`tuned`) this theme plays: its own, or
        for a variant of a shipped theme the shipped id it came from (an edited copy that
        kept the shipped id, own_id; a file naming its [theme] parent), so that an edited
        Star Wars plays Star Wars' tuned values (strategies.presets.tuned_theme)."""
        return self.shipped_id or self.parent or self.id

    def player_counts(self) -> list[int]:
        """The player counts this theme has a role table for, ascending."""
        return [n for n in range(limits.MAX_PLAYERS + 1) if self.tables.roles[n, 0] >= 0]

    def __repr__(self) -> str:
        return (
            f"Theme(id={self.id!r}, cards={len(self.card_faces)}, "
            f"characters={len(self.character_names)}, players={self.player_counts()})"
        )


def shipped_themes() -> list[str]:
    """Ids of the themes shipped in configs/themes/ (package data when installed), sorted."""
    return shipped_names(THEMES_DIR)


def shipped_names(folder: Traversable) -> list[str]:
    """Names (file stems) of the TOML files shipped in a configs/ folder, sorted."""
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if _is_toml(p))


def shipped_or_path(
    source: str | Path, folder: Traversable, what: str, error: type[UserError]
) -> Path:
    """A shipped file's name ("default") -> its file in `folder`; a path (containing '/' or
    ending in .toml, or a Path) stays a path. `error` naming the shipped ones if unknown."""
    if not isinstance(source, str) or "/" in source or source.endswith(".toml"):
        return Path(source)
    path = folder / f"{source}.toml"
    if not path.is_file():
        raise error(
            f"unknown {what} '{source}' (shipped: {', '.join(shipped_names(folder)) or 'none'}"
            "; or give the path to a .toml file)"
        )
    return Path(str(path))


def shipped_theme_file(theme_id: str) -> Traversable:
    """The file of a shipped theme id; ThemeError naming the shipped ids if there is none."""
    path = THEMES_DIR / f"{theme_id}.toml"
    if "/" in theme_id or not path.is_file():
        raise ThemeError(
            f"unknown theme '{theme_id}' (shipped: {', '.join(shipped_themes()) or 'none'})"
        )
    return path


def _is_toml(path: Traversable) -> bool:
    return path.is_file() and path.name.endswith(".toml")


def load_theme(theme: str | Path | Theme) -> Theme:
    """A theme id ("classic"), a path to a theme TOML file, or an already loaded Theme."""
    if isinstance(theme, Theme):
        return theme
    if isinstance(theme, str) and "/" not in theme and not theme.endswith(".toml"):
        path = shipped_theme_file(theme)
    else:
        path = Path(theme)
        if not path.is_file():
            raise ThemeError(f"{path}: theme file not found")
        return own_id(compile_theme(read_toml(path), path), path)
    return compile_theme(read_toml(path), path)


def own_id(theme: Theme, path: Path) -> Theme:
    """A theme file whose id names a shipped theme but whose content differs from it (an
    edited `bangsim themes export`) plays under a label of its own, so runs, reports and
    comparisons never pass it off as the printed game: its file name (``my.toml`` ->
    ``my``), or, when that is no usable id (it names a shipped theme, or has characters an
    id cannot), the id marked with its content digest (``classic-3fa9c2e1``). Its
    `shipped_id` keeps the id it gave, and a title it kept is marked with the label
    (variant_title). The same file, or one with the same content, stays what it is."""
    shipped = shipped_themes()
    if theme.id not in shipped:
        return theme
    original = read_toml(THEMES_DIR / f"{theme.id}.toml")
    if original == theme.raw:
        return theme
    stem = path.stem
    if OWN_ID.fullmatch(stem) and stem not in shipped:
        label = stem
    else:
        text = json.dumps(theme.raw, sort_keys=True, default=str, ensure_ascii=False)
        label = f"{theme.id}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"
    title = theme.title
    if title == original.get("theme", {}).get("title"):
        title = variant_title(title, label)
    return dataclasses.replace(theme, id=label, title=title, shipped_id=theme.id)


def face_warnings(theme: Theme) -> list[str]:
    """A line per face a variant puts on more cards than the shipped theme it comes from
    (Theme.plays_as; the printed decks repeat some faces, so only a rise is news): a "draw!"
    check and the deck's odds see every copy. [] for a shipped theme or an unrelated file."""
    if theme.plays_as not in shipped_themes() or theme.plays_as == theme.id:
        return []
    printed = Counter(load_theme(theme.plays_as).card_faces)
    lines = []
    for face, n in Counter(theme.card_faces).items():
        if n > 1 and n > printed[face]:
            cards = [
                d for d, f in zip(theme.card_display, theme.card_faces, strict=True) if f == face
            ]
            lines.append(
                f"face {face} is on {n} cards ({', '.join(cards)}), {printed[face]} in "
                f"{theme.plays_as}: a typo, or meant?"
            )
    return lines


def variant_title(title: str, label: str) -> str:
    """A variant's title when it keeps its parent's: the parent's, marked with its own
    label, so that no verdict line names the printed game for a variant."""
    return f"{title} ({label})"


OWN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a file name usable as a theme's label


def read_toml(path: Path | Traversable, error: type[UserError] = ThemeError) -> dict[str, Any]:
    """A TOML file (a theme, a balance file) parsed; `error` with a one-line message for a
    syntax error or a file that is not UTF-8 text."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path.name}: TOML syntax error: {_one_line(str(e))}") from None
    except UnicodeDecodeError as e:
        raise error(
            f"{path.name}: not UTF-8 text (byte {e.start}: {e.reason}); save it as UTF-8"
        ) from None


def compile_theme(raw: dict[str, Any], path: str | Path | Traversable | None = None) -> Theme:
    """Validate a parsed theme dict and compile it; `path` names the source in errors."""
    return _Compiler(raw, Path(path) if isinstance(path, str) else path).compile()


def min_deck_size(
    lives: Sequence[int], players: int, leader_extra_life: int = 1, draw_count: int = 2
) -> int:
    """The fewest cards a deck must hold for `players` players: the largest possible starting
    hands, plus the leader's first draw.

    A starting hand is one card per life point, the leader's with `leader_extra_life` more
    (rules.leader_extra_life); any character may be dealt, so the worst case is the
    `players` largest `lives` (characters' life) with the leader's bonus on top. Then the
    leader draws `draw_count` (rules.draw_count) in his first turn, before anything is
    discarded. A theme is refused (ThemeError naming the player count and these numbers)
    unless its deck holds at least this many cards at every player count of its role table:

        need = sum(sorted(lives, reverse=True)[:players]) + leader_extra_life + draw_count

    e.g. classic at 7 players: 7 characters of life 4, +1, +2 = 31 (its deck has 80).

    >>> min_deck_size([4, 4, 3, 3, 3], 4)
    17
    """
    if not 1 <= players <= len(lives):
        raise ValueError(f"{players} players need at least as many lives, got {len(lives)}")
    return sum(sorted(lives, reverse=True)[:players]) + leader_extra_life + draw_count


def parse_face(face: str) -> tuple[str, str]:
    """A suited face "10H" -> ("10", "H"); ValueError if it does not parse."""
    if not isinstance(face, str) or len(face) < 2:
        raise ValueError(face)
    rank, suit = face[:-1], face[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(face)
    return rank, suit


def is_symbol_face(face: Any) -> bool:
    """A symbol face (Star Wars: "cover", "carbonite", ...): a lowercase name."""
    return isinstance(face, str) and SYMBOL_RE.fullmatch(face) is not None


def entry_key(section: str, index: int, entry: Any) -> str:
    """How an error names a card or character table: by its name as an override path does
    (``cards."Missed!"``), by its position when it has none (``cards[3]``)."""
    name = entry.get("name") if isinstance(entry, dict) else None
    if isinstance(name, str) and name.strip():
        return f"{section}.{json.dumps(name, ensure_ascii=False)}"
    return f"{section}[{index}]"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _allowed(names: Any) -> str:
    return ", ".join(str(n) for n in names)


class _Compiler:
    def __init__(self, raw: dict[str, Any], path: Path | Traversable | None):
        self.raw = raw
        self.path = path
        self.file = path.name if path is not None else "<theme>"

    def fail(self, key: str, message: str) -> ThemeError:
        return ThemeError(_one_line(f"{self.file}: {key}: {message}"))

    # --- small typed readers ------------------------------------------------------------
    def table(self, value: Any, key: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table, got {type(value).__name__}")
        return value

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be a non-empty string, got {value!r}")
        return value

    def integer(self, value: Any, key: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer in {lo}..{hi}, got {value!r}")
        if not lo <= value <= hi:
            raise self.fail(key, f"{value} out of range (allowed: {lo}..{hi})")
        return value

    def keys(self, table: dict[str, Any], key: str, allowed: tuple[str, ...]) -> None:
        for k in table:
            if k not in allowed:
                where = f"{key}.{k}" if key else k
                raise self.fail(where, f"unknown key '{k}' (allowed: {_allowed(allowed)})")

    # --- sections -----------------------------------------------------------------------
    def compile(self) -> Theme:
        raw = self.table(self.raw, "file")
        self.keys(raw, "", SECTIONS)
        theme_id, title, parent = self.theme_section(raw.get("theme"))
        role_names = self.roles(raw.get("roles", {}))
        roles, counts = self.role_table(raw.get("role_table"))
        own_effects = self.effects(raw.get("effects", []))
        deck = self.cards(raw.get("cards"), own_effects)
        card_names, faces, display, effect, value, cost, flags, name_idx, destiny = deck[:9]
        card_effects, aim, draws = deck[9:]
        char_names, lives, abilities = self.characters(raw.get("characters"), max(counts))
        check = self.checks(raw.get("checks", {}), faces, effect, abilities)
        rules, rule_values = self.rules(raw.get("rules", {}))
        self.deck_size(len(faces), lives, counts, rule_values)
        tables = Tables(
            card_effect=np.array(effect, dtype=np.int8),
            card_value=np.array(value, dtype=np.int8),
            card_cost=np.array(cost, dtype=np.int8),
            card_name=np.array(name_idx, dtype=np.int16),
            card_check=np.array(check, dtype=np.int32),
            card_flags=np.array(flags, dtype=np.int32),
            card_destiny=np.array(destiny, dtype=np.int8),
            card_aim=np.array(aim, dtype=np.int8),
            card_draws=np.array(draws, dtype=np.int8),
            char_life=np.array(lives, dtype=np.int8),
            char_ability=np.array(abilities, dtype=np.int8),
            roles=roles,
            rules=rules,
        )
        ability_names = {code: name for name, code in vocab.ABILITIES.items()}
        return Theme(
            id=theme_id,
            title=title,
            path=self.path,
            role_names=role_names,
            card_names=card_names,
            card_faces=faces,
            card_display=display,
            card_effects=card_effects,
            character_names=char_names,
            character_lives=lives,
            character_abilities=[ability_names[a] for a in abilities],
            tables=tables,
            raw=self.raw,
            rule_values=rule_values,
            parent=parent,
        )

    def theme_section(self, section: Any) -> tuple[str, str, str | None]:
        if section is None:
            raise self.fail("theme", "missing [theme] section (needs id)")
        section = self.table(section, "theme")
        self.keys(section, "theme", THEME_KEYS)
        if "id" not in section:
            raise self.fail("theme.id", "missing (the id --theme accepts, e.g. 'classic')")
        theme_id = self.string(section["id"], "theme.id")
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", theme_id):
            raise self.fail(
                "theme.id",
                f"bad id {theme_id!r} (letters, digits, '_', '-', '.'; no spaces or '/')",
            )
        title = self.string(section.get("title", theme_id), "theme.title")
        parent = section.get("parent")
        if parent is not None:
            parent = self.string(parent, "theme.parent")
            shipped = shipped_themes()
            if parent not in shipped:
                raise self.fail(
                    "theme.parent",
                    f"unknown theme {parent!r} (the shipped theme this variant comes from: "
                    f"{', '.join(shipped)})",
                )
        return theme_id, title, parent

    def roles(self, section: Any) -> dict[str, str]:
        section = self.table(section, "roles")
        self.keys(section, "roles", vocab.ROLES)
        return {r: self.string(section.get(r, r), f"roles.{r}") for r in vocab.ROLES}

    def role_table(self, section: Any) -> tuple[np.ndarray, list[int]]:
        if section is None:
            raise self.fail("role_table", "missing [role_table] (player count -> roles)")
        section = self.table(section, "role_table")
        if not section:
            raise self.fail("role_table", "no player counts")
        roles = np.full((limits.MAX_PLAYERS + 1, limits.MAX_PLAYERS), -1, dtype=np.int8)
        counts = []
        allowed_counts = range(limits.MIN_PLAYERS, limits.MAX_PLAYERS + 1)
        for k, row in section.items():
            key = f"role_table.{k}"
            if not k.isdigit() or int(k) not in allowed_counts:
                raise self.fail(
                    key,
                    f"player count '{k}' not supported "
                    f"(allowed: {limits.MIN_PLAYERS}..{limits.MAX_PLAYERS})",
                )
            n = int(k)
            if not isinstance(row, list):
                raise self.fail(key, "must be a list of role names")
            if len(row) != n:
                raise self.fail(key, f"{len(row)} roles listed for {n} players (need {n})")
            codes = []
            for i, role in enumerate(row):
                if role not in vocab.ROLES:
                    raise self.fail(
                        f"{key}[{i}]", f"unknown role {role!r} (allowed: {_allowed(vocab.ROLES)})"
                    )
                codes.append(vocab.ROLES.index(role))
            leaders = codes.count(vocab.R_LEADER)
            if leaders != 1:
                raise self.fail(key, f"{leaders} leaders (need exactly one)")
            if codes[0] != vocab.R_LEADER:
                raise self.fail(key, "must start with 'leader' (seat 0 is the leader)")
            if vocab.R_OUTLAW not in codes:
                # "If the Sheriff is killed, the Outlaws win": without one, nobody could
                raise self.fail(key, "no outlaw (the leader's death must give someone the game)")
            roles[n, :n] = codes
            counts.append(n)
        return roles, sorted(counts)

    def effects(self, section: Any) -> dict[str, Effect]:
        """The theme's own effects (`[[effects]]`): each a built-in effect it is `like`, aimed
        otherwise (`aim`, for an effect aimed at one other player: reach, range or any_other)
        or followed by cards drawn (`draws`)."""
        if not isinstance(section, list):
            raise self.fail("effects", "must be a list of [[effects]] tables")
        own: dict[str, Effect] = {}
        for i, entry in enumerate(section):
            key = entry_key("effects", i, entry)
            entry = self.table(entry, key)
            self.keys(entry, key, EFFECT_KEYS)
            for required in ("name", "like"):
                if required not in entry:
                    raise self.fail(f"{key}.{required}", "missing")
            name = self.string(entry["name"], f"{key}.name")
            if name in BUILTIN_EFFECTS or name in own:
                raise self.fail(f"{key}.name", f"effect {name!r} is already defined")
            like = entry["like"]
            if like not in BUILTIN_EFFECTS:
                raise self.fail(
                    f"{key}.like", f"unknown effect {like!r} (allowed: {_allowed(vocab.EFFECTS)})"
                )
            base = BUILTIN_EFFECTS[like]
            aim = base.aim
            if "aim" in entry:
                if base.aim not in (vocab.AIM_REACH, vocab.AIM_RANGE, vocab.AIM_ANY_OTHER):
                    raise self.fail(
                        f"{key}.aim", f"effect {like!r} aims at no one other player it could change"
                    )
                if entry["aim"] not in OWN_AIMS:
                    raise self.fail(
                        f"{key}.aim",
                        f"unknown aim {entry['aim']!r} (allowed: {_allowed(OWN_AIMS)})",
                    )
                aim = vocab.AIMS[entry["aim"]]
            draws = self.integer(entry.get("draws", 0), f"{key}.draws", 0, BYTE_MAX)
            if "text" in entry:
                self.string(entry["text"], f"{key}.text")
            own[name] = Effect(base.code, aim, draws)
        return own

    def cards(self, section: Any, own_effects: dict[str, Effect]):
        if not isinstance(section, list) or not section:
            raise self.fail("cards", "missing or empty: need one [[cards]] table per card name")
        names: list[str] = []
        faces: list[str] = []
        display: list[str] = []
        effect: list[int] = []
        value: list[int] = []
        cost: list[int] = []
        flags: list[int] = []
        name_idx: list[int] = []
        destiny: list[int] = []
        effect_names: list[str] = []
        aims: list[int] = []
        draws: list[int] = []
        effects = {**BUILTIN_EFFECTS, **own_effects}
        for i, card in enumerate(section):
            key = entry_key("cards", i, card)
            card = self.table(card, key)
            self.keys(card, key, CARD_KEYS)
            for required in ("name", "effect", "copies"):
                if required not in card:
                    raise self.fail(f"{key}.{required}", "missing")
            name = self.string(card["name"], f"{key}.name")
            if name in names:
                raise self.fail(f"cards[{i}].name", f"duplicate card name {name!r}")
            eff = card["effect"]
            if eff not in effects:
                raise self.fail(
                    f"{key}.effect",
                    f"unknown effect {eff!r} (allowed: {_allowed(effects)})",
                )
            code, aim, drw = effects[eff]
            if takes_value(code, aim):  # a count, reach, range or amount: >= 1
                default = vocab.EFFECT_DEFAULT_VALUE.get(code, 1)
                val = self.integer(card.get("value", default), f"{key}.value", 1, BYTE_MAX)
            elif "value" in card:
                valued = [n for n, e in effects.items() if takes_value(e.code, e.aim)]
                raise self.fail(
                    f"{key}.value",
                    f"effect {eff!r} takes no value (allowed on: {_allowed(valued)})",
                )
            else:
                val = 0
            cst = self.integer(card.get("cost", 0), f"{key}.cost", 0, BYTE_MAX)
            flag = self.card_flags(card, key, code)
            if "text" in card:
                self.string(card["text"], f"{key}.text")
            copies = card["copies"]
            if not isinstance(copies, list) or not copies:
                raise self.fail(f"{key}.copies", "must list at least one face, e.g. ['10H']")
            for j, face in enumerate(copies):
                try:
                    if not is_symbol_face(face):
                        parse_face(face)
                except ValueError:
                    raise self.fail(
                        f"{key}.copies[{j}]",
                        f"bad face {face!r} (rank {_allowed(RANKS)} + suit {_allowed(SUITS)},"
                        " or a symbol name: lowercase letters, digits, '_')",
                    ) from None
                faces.append(face)
                display.append(name)
                effect.append(code)
                value.append(val)
                cost.append(cst)
                flags.append(flag)
                name_idx.append(len(names))
                aims.append(aim)
                draws.append(drw)
            destiny += self.card_destiny(card, key, code, len(copies))
            names.append(name)
            effect_names.append(eff)
        if len(faces) > limits.MAX_CARDS:
            raise self.fail("cards", f"{len(faces)} cards (allowed: at most {limits.MAX_CARDS})")
        if len(names) > limits.MAX_CARD_NAMES:
            raise self.fail(
                "cards",
                f"{len(names)} card names (allowed: at most {limits.MAX_CARD_NAMES})",
            )
        # in front of one player: one card per blue name, and one weapon (a new one replaces
        # the old); more than the kernel's table holds (limits.MAX_TABLE) would overflow it
        weapons = {vocab.E_WEAPON, vocab.E_VOLCANIC}
        blue = {name_idx[i] for i, e in enumerate(effect) if e in vocab.BLUE_EFFECTS - weapons}
        in_play = len(blue) + any(e in weapons for e in effect)
        if in_play > limits.MAX_TABLE:
            raise self.fail(
                "cards",
                f"{len(blue)} blue card names (and a weapon, if any) could all be in play in "
                f"front of one player, {in_play} cards (allowed: at most {limits.MAX_TABLE})",
            )
        deck = names, faces, display, effect, value, cost, flags, name_idx, destiny
        return *deck, effect_names, aims, draws

    def card_destiny(self, card: dict[str, Any], key: str, effect: int, n: int) -> list[int]:
        """vocab.D_* code of each copy: `destiny`, a list aligned with `copies` ("" or
        "none" for a copy without one); default none for every copy."""
        if "destiny" not in card:
            return [vocab.D_NONE] * n
        names = card["destiny"]
        if not isinstance(names, list) or len(names) != n:
            raise self.fail(f"{key}.destiny", f"must be a list as long as copies ({n} entries)")
        codes = []
        for j, name in enumerate(names):
            if name == "":
                name = "none"
            if not isinstance(name, str) or name not in vocab.DESTINIES:
                raise self.fail(
                    f"{key}.destiny[{j}]",
                    f"unknown destiny {name!r} (allowed: {_allowed(vocab.DESTINIES)})",
                )
            code = vocab.DESTINIES[name]
            if code != vocab.D_NONE and effect not in vocab.DESTINY_EFFECTS[code]:
                allowed = [e for e, c in vocab.EFFECTS.items() if c in vocab.DESTINY_EFFECTS[code]]
                raise self.fail(
                    f"{key}.destiny[{j}]",
                    f"destiny {name!r} only on effects {_allowed(allowed)}",
                )
            codes.append(code)
        return codes

    def card_flags(self, card: dict[str, Any], key: str, effect: int) -> int:
        """vocab.CF_* bits of one card: `beer` (heal cards only, default true)."""
        flags = 0
        if effect == vocab.E_HEAL:
            beer = card.get("beer", True)
            if not isinstance(beer, bool):
                raise self.fail(f"{key}.beer", f"must be true or false, got {beer!r}")
            if beer:
                flags |= vocab.CF_BEER
        elif "beer" in card:
            raise self.fail(f"{key}.beer", "allowed only on cards with effect 'heal'")
        return flags

    def characters(self, section: Any, max_players: int):
        if not isinstance(section, list):
            raise self.fail("characters", "missing: need [[characters]] tables")
        names: list[str] = []
        lives: list[int] = []
        abilities: list[int] = []
        for i, char in enumerate(section):
            key = entry_key("characters", i, char)
            char = self.table(char, key)
            self.keys(char, key, CHARACTER_KEYS)
            for required in ("name", "life", "ability"):
                if required not in char:
                    raise self.fail(f"{key}.{required}", "missing")
            name = self.string(char["name"], f"{key}.name")
            if name in names:
                raise self.fail(f"characters[{i}].name", f"duplicate character name {name!r}")
            life = self.integer(char["life"], f"{key}.life", 1, BYTE_MAX)
            ability = char["ability"]
            if ability not in vocab.ABILITIES:
                raise self.fail(
                    f"{key}.ability",
                    f"unknown ability {ability!r} (allowed: {_allowed(vocab.ABILITIES)})",
                )
            if "text" in char:
                self.string(char["text"], f"{key}.text")
            names.append(name)
            lives.append(life)
            abilities.append(vocab.ABILITIES[ability])
        if len(names) > limits.MAX_CHARACTERS:
            raise self.fail(
                "characters",
                f"{len(names)} characters (allowed: at most {limits.MAX_CHARACTERS})",
            )
        if len(names) < max_players:
            raise self.fail(
                "characters",
                f"{len(names)} characters for up to {max_players} players "
                f"(need at least {max_players})",
            )
        return names, lives, abilities

    def ranks(self, spec: Any, key: str) -> set[str]:
        if isinstance(spec, str):
            lo, sep, hi = spec.partition("-")
            if sep and lo in RANKS and hi in RANKS and RANKS.index(lo) <= RANKS.index(hi):
                return set(RANKS[RANKS.index(lo) : RANKS.index(hi) + 1])
            raise self.fail(
                key, f"bad rank range {spec!r} (e.g. '2-9' over {_allowed(RANKS)}, or a list)"
            )
        if isinstance(spec, list) and all(r in RANKS for r in spec):
            return set(spec)
        raise self.fail(key, f"bad ranks {spec!r} (a list of {_allowed(RANKS)}, or 'LO-HI')")

    def checks(self, section: Any, faces: list[str], effect: list[int], abilities: list[int]):
        section = self.table(section, "checks")
        mask = [0] * len(faces)
        for name, pred in section.items():
            key = f"checks.{name}"
            if name not in vocab.CHECKS:
                raise self.fail(key, f"unknown check '{name}' (allowed: {_allowed(vocab.CHECKS)})")
            pred = self.table(pred, key)
            self.keys(pred, key, CHECK_KEYS)
            bit = vocab.CHECKS[name]
            if "symbols" in pred:
                self.symbol_check(pred, key, faces, mask, bit)
                continue
            suits = set(SUITS)
            if "suits" in pred:
                s = pred["suits"]
                if not isinstance(s, list) or not all(x in SUITS for x in s):
                    raise self.fail(
                        f"{key}.suits", f"bad suits {s!r} (a list of {_allowed(SUITS)})"
                    )
                suits = set(s)
            ranks = self.ranks(pred["ranks"], f"{key}.ranks") if "ranks" in pred else set(RANKS)
            for i, face in enumerate(faces):
                if is_symbol_face(face):
                    continue  # a suit/rank predicate never passes a symbol face
                rank, suit = parse_face(face)
                if rank in ranks and suit in suits:
                    mask[i] |= bit
        # a check the theme's cards or characters rely on must be defined, never silently "never"
        needed = {vocab.EFFECT_TRAITS[e].check for e in effect}
        needed |= {ABILITY_CHECKS.get(a, 0) for a in abilities}
        for name, bit in vocab.CHECKS.items():
            if name not in section and bit in needed:
                raise self.fail(
                    f"checks.{name}", "missing: a card or character of this theme needs it"
                )
        return mask

    def symbol_check(
        self, pred: dict[str, Any], key: str, faces: list[str], mask: list[int], bit: int
    ) -> None:
        """`{ symbols = [...] }`: a face passes when it is one of the listed symbols."""
        if "suits" in pred or "ranks" in pred:
            raise self.fail(key, "'symbols' cannot be combined with 'suits' or 'ranks'")
        symbols = pred["symbols"]
        if not isinstance(symbols, list) or not symbols or not all(map(is_symbol_face, symbols)):
            raise self.fail(
                f"{key}.symbols",
                f"bad symbols {symbols!r} (a list of symbol names: lowercase letters, digits, '_')",
            )
        on_cards = {f for f in faces if is_symbol_face(f)}
        for sym in symbols:
            if sym not in on_cards:
                raise self.fail(
                    f"{key}.symbols",
                    f"symbol {sym!r} is on no card's face"
                    f" (faces: {_allowed(sorted(on_cards)) or 'no symbol faces'})",
                )
        for i, face in enumerate(faces):
            if face in symbols:
                mask[i] |= bit

    def deck_size(
        self, cards: int, lives: list[int], counts: list[int], rules: dict[str, Any]
    ) -> None:
        """The deck deals the starting hands and the first draw at every player count
        (min_deck_size)."""
        extra, draw = rules["leader_extra_life"], rules["draw_count"]
        for n in counts:
            need = min_deck_size(lives, n, extra, draw)
            if cards < need:
                hands = sorted(lives, reverse=True)[:n]
                raise self.fail(
                    "cards",
                    f"{cards} cards are too few for {n} players: starting hands take up to "
                    f"{sum(hands) + extra} ({'+'.join(map(str, hands))} life, +{extra} for "
                    f"the leader) and the first draw {draw}, {need} cards in all; add "
                    f"{need - cards} card{'s' if need - cards > 1 else ''} or remove "
                    f"role_table.{n}",
                )

    def rules(self, section: Any) -> tuple[np.ndarray, dict[str, Any]]:
        section = self.table(section, "rules")
        vec = np.zeros(vocab.N_RULES, dtype=np.int64)
        values: dict[str, Any] = {}
        for name in section:
            if name not in vocab.RULES:
                raise self.fail(
                    f"rules.{name}", f"unknown rule '{name}' (allowed: {_allowed(vocab.RULES)})"
                )
        for name, (index, default) in vocab.RULES.items():
            key = f"rules.{name}"
            v = section.get(name, default)
            if isinstance(default, bool):
                if not isinstance(v, bool):
                    raise self.fail(key, f"must be true or false, got {v!r}")
                vec[index] = int(v)
            elif isinstance(default, int):
                vec[index] = self.integer(v, key, 0, RULE_INT_MAX)
            else:  # a list of effect names -> bitmask over effect codes
                if not isinstance(v, list):
                    raise self.fail(key, f"must be a list of effect names, got {v!r}")
                bits = 0
                for e in v:
                    if e not in vocab.EFFECTS:
                        raise self.fail(
                            key, f"unknown effect {e!r} (allowed: {_allowed(vocab.EFFECTS)})"
                        )
                    bits |= 1 << vocab.EFFECTS[e]
                vec[index] = bits
            values[name] = v
        for rule, allowed_codes, why in (
            ("self_target_effects", vocab.SELF_TARGETABLE, "cannot target yourself"),
            ("double_missed_effects", vocab.HIT_EFFECTS, "is not a hit a Missed! cancels"),
        ):
            for e in values[rule]:
                if vocab.EFFECTS[e] not in allowed_codes:
                    allowed = ", ".join(n for n, c in vocab.EFFECTS.items() if c in allowed_codes)
                    raise self.fail(f"rules.{rule}", f"effect {e!r} {why} (allowed: {allowed})")
        if not 1 <= vec[vocab.RU_TURN_CAP] <= TURN_CAP_MAX:
            raise self.fail(
                "rules.turn_cap",
                f"{vec[vocab.RU_TURN_CAP]} out of range (allowed: 1..{TURN_CAP_MAX}; "
                "games record their turns as 16-bit numbers)",
            )
        return vec, values
