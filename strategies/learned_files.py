"""Learned tables as files: `strong` for a theme and player count is
strategies/strong/THEME_Np.toml, and any learned file is a strategy spec by its path
("path/to/round-3.toml").

A file names the scored policy whose plays it corrects (`base`, a preset: its parameter
rows play the seat's other decisions) and holds, per role, a row of weights per effect
(params.CONTEXT's columns, in `columns`); a row left out is zeros, the base's plays:

    [learned]
    theme = "classic"
    players = 5
    base = "tuned"
    columns = ["bias", "scored_plays", ...]

    [learned.outlaw]
    bang = [0.012, -0.004, ...]
    ability = [...]            # the play of a character's ability

strategies.learned says how a seat plays it; simcore.studies.learn makes it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import numpy as np

from simcore.engine.vocab import EFFECTS, ROLES
from strategies.params import CONTEXT, LEARN_SLOTS, N_CTX

STRONG = "strong"  # the shipped learned field's preset name
STRONG_DIR = files("strategies") / "strong"
# bangsim learn's defaults, with which the shipped files are learned (make learn)
ROUNDS, GAMES, WORLDS, RATE, CHECK_GAMES = 3, 10_000, 64, 0.03, 4000
LEARNED_SUFFIX = ".toml"  # a spec that is a path ending so, with no ":NAME", is a learned file
SLOT_NAMES = {**{name: code for name, code in EFFECTS.items()}, "ability": LEARN_SLOTS - 1}


@dataclass(frozen=True)
class Learned:
    """A learned file's contents: what it was learned for and its tables."""

    theme: str
    players: int
    base: str  # the preset whose parameters play the rest of the seat's decisions
    tables: np.ndarray  # float64[4, LEARN_SLOTS, N_CTX]: per canonical role


def strong_path(theme: str, players: int) -> Path:
    return Path(str(STRONG_DIR / f"{theme}_{players}p.toml"))


def shipped_strong() -> list[str]:
    """The shipped `strong` files' stems (THEME_Np)."""
    return sorted(p.stem for p in Path(str(STRONG_DIR)).glob(f"*{LEARNED_SUFFIX}"))


def is_learned_spec(spec: str) -> bool:
    """Does a preset spec name a learned field (`strong`, or a learned file's path)?"""
    return spec == STRONG or (spec.endswith(LEARNED_SUFFIX) and ":" not in Path(spec).name)


def find_learned(spec: str, theme: str | None, players: int | None) -> Learned:
    """The learned field a spec names, for `theme` at `players`; one-line ValueError when
    there is none or it was learned for another game."""
    if spec == STRONG:
        if theme is None or players is None:
            raise ValueError("strategy 'strong' needs a theme and a player count")
        path = strong_path(theme, players)
        if not path.is_file():
            from simcore.engine.theme import shipped_themes  # not at the top: an import cycle

            # a theme of one's own is learned from its file
            given = theme if theme in shipped_themes() else "THEME_FILE.toml"
            raise ValueError(
                f"no strong field for {theme} at {players} players (shipped: "
                f"{', '.join(shipped_strong()) or 'none'}); make one with "
                f"`bangsim learn --theme {given} --players {players}`"
            )
    else:
        path = Path(spec)
    learned = load_learned(path)
    if players is not None and learned.players != players:
        raise ValueError(f"{path} was learned at {learned.players} players, not {players}")
    if theme is not None and learned.theme != theme:
        raise ValueError(f"{path} was learned for {learned.theme!r}, not {theme!r}")
    return learned


def load_learned(path: str | Path) -> Learned:
    """Read a learned file; a one-line ValueError naming the file for anything amiss."""
    try:
        doc = tomllib.loads(Path(path).read_text())["learned"]
    except FileNotFoundError:
        raise ValueError(f"no learned file {path}") from None
    except (tomllib.TOMLDecodeError, KeyError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a learned file ({exc})") from None
    if tuple(doc.get("columns", ())) != CONTEXT:
        raise ValueError(
            f"{path}: its columns are not this version's ({', '.join(CONTEXT)}); learn it again"
        )
    tables = np.zeros((len(ROLES), LEARN_SLOTS, N_CTX), np.float64)
    for r, role in enumerate(ROLES):
        for slot, row in doc.get(role, {}).items():
            if slot not in SLOT_NAMES:
                raise ValueError(f"{path}: unknown effect {slot!r} in [learned.{role}]")
            if len(row) != N_CTX:
                raise ValueError(f"{path}: [learned.{role}] {slot} has {len(row)} weights")
            tables[r, SLOT_NAMES[slot]] = row
    try:
        return Learned(str(doc["theme"]), int(doc["players"]), str(doc["base"]), tables)
    except KeyError as exc:
        raise ValueError(f"{path}: no {exc.args[0]!r} in [learned]") from None


def learned_toml(learned: Learned, header: str = "") -> str:
    """The file of `learned` (loads back bit for bit: reals as their shortest repr)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [
        "[learned]",
        f'theme = "{learned.theme}"',
        f"players = {learned.players}",
        f'base = "{learned.base}"',
        "columns = [" + ", ".join(f'"{c}"' for c in CONTEXT) + "]",
    ]
    names = {code: name for name, code in SLOT_NAMES.items()}
    for r, role in enumerate(ROLES):
        lines += ["", f"[learned.{role}]"]
        for slot in range(LEARN_SLOTS):
            row = learned.tables[r, slot]
            if row.any():
                lines.append(f"{names[slot]} = [" + ", ".join(repr(float(v)) for v in row) + "]")
    return "\n".join(lines) + "\n"
