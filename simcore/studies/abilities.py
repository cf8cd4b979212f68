"""What an ability is worth: each character with and without its ability, on the same seeds.

    table = ability_values("classic", players=5, games=20_000, seed=1, strategy="smart")

For each character c, two arms of `games` games each, both with c featured in every game
(`play_games(feature=c)`: a uniformly random seat, of one role when `role` is given):
the theme as it is, and a copy with c's ability set to `none` (the experiments' override
`characters."c".ability = "none"`, compiled by the theme loader; life totals stay as
printed). Both arms play game indices 0 .. games-1 with the same seed, so game g deals the
same roles, characters and cards in both (checked) and the games part only where the
ability changes something: common random numbers. Per game, d = won with the ability -
won without it, at the featured seat (-1, 0 or 1); the ability's value is the mean of d, in
win-rate points, with the normal-approximation 95% interval mean +- 1.96 sd(d) / sqrt(n)
on these paired differences. Games the ability does not change give d = 0 and no noise,
so the interval is far narrower than that of two independent runs of the same size.

A value whose interval lies below zero is flagged: the bots misuse the ability, or the
rules implement it wrong. `write_abilities` stores a table as DIR/abilities.json (+ .csv);
`bangsim report` shows the one in a run folder.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simcore.engine.request import check_characters, check_games, check_seed, player_counts
from simcore.engine.theme import Theme, load_theme
from simcore.engine.vocab import ROLES
from simcore.runs.atomic import write_atomic
from simcore.runs.backend import Backend
from simcore.studies.batch import Work, play_all
from strategies.presets import DEFAULT_PRESET, StrategySpec, check_strategy

ABILITIES_FILE = "abilities.json"
ABILITIES_CSV = "abilities.csv"
NO_ABILITY = "none"
ANY_ROLE = "any"
NEGATIVE = "negative: the bots misuse it or the rules are wrong"
UNCLEAR = "not distinguishable from 0"
POSITIVE = "positive"
NO_ABILITY_VERDICT = "no ability to take away"
# what identifies one measurement in a file: a new one replaces an old one with these equal
KEY = ("theme", "players", "strategy", "role", "character")

SCHEMA: dict[str, pl.DataType] = {
    "theme": pl.String(),
    "players": pl.Int64(),
    "strategy": pl.String(),
    "role": pl.String(),  # the role it was featured in, or "any"
    "character": pl.String(),
    "life": pl.Int64(),
    "ability": pl.String(),
    "games": pl.Int64(),  # per arm: the same game indices in both
    "seed": pl.Int64(),
    "wins_with": pl.Int64(),
    "rate_with": pl.Float64(),
    "lower_with": pl.Float64(),
    "upper_with": pl.Float64(),
    "wins_without": pl.Int64(),
    "rate_without": pl.Float64(),
    "lower_without": pl.Float64(),
    "upper_without": pl.Float64(),
    "value": pl.Float64(),  # mean paired difference: rate_with - rate_without
    "value_lower": pl.Float64(),
    "value_upper": pl.Float64(),
    "p_value": pl.Float64(),  # paired z test of "value = 0"
    "changed": pl.Int64(),  # games whose result the ability changed (d != 0)
    "verdict": pl.String(),  # POSITIVE, UNCLEAR, NEGATIVE or NO_ABILITY_VERDICT
}


class PairingError(AssertionError):
    """The two arms of a character did not deal the same games (a bug)."""


def check_role(role: str | None, theme: Theme, players: int) -> str | None:
    """A role (canonical, or the theme's name for it, any case) as its canonical name; None
    stays None. ValueError (one line) if unknown or not at a `players` table."""
    if role is None:
        return None
    names = {r: r for r in ROLES} | {theme.role_names[r].lower(): r for r in ROLES}
    canonical = names.get(role.strip().lower())
    if canonical is None:
        shown = ", ".join(f"{r} ({theme.role_names[r]})" for r in ROLES)
        raise ValueError(f"--role: unknown role {role!r} (roles: {shown})")
    if ROLES.index(canonical) not in theme.tables.roles[players, :players]:
        raise ValueError(f"--role: no {canonical} at {players} players in theme {theme.id!r}")
    return canonical


def without_ability(theme: Theme, character: str) -> Theme:
    """A copy of `theme` with `character`'s ability replaced by `none` (life as printed)."""
    from simcore.runs.experiment import Override, apply_overrides

    override = Override(("characters", character, "ability"), NO_ABILITY)
    return apply_overrides(theme, (override,), "abilities")


def ability_values(
    theme: str | Path | Theme = "classic",
    players: int = 5,
    games: int = 20_000,
    seed: int = 1,
    strategy: StrategySpec = DEFAULT_PRESET,
    characters: Sequence[str] | None = None,
    role: str | None = None,
    progress: Callable[[Iterable[str]], Iterable[str]] | None = None,
    backend: Backend | None = None,
) -> pl.DataFrame:
    """The value of each character's ability (see the module doc), one row per character,
    columns as SCHEMA, sorted by value (largest first). characters: a subset of the theme's
    names (default all); role: feature them in that role only; progress: wraps the
    iteration over characters (e.g. tqdm); backend (simcore.runs.backend, default local): plays
    each arm, with the same results. ValueError (one line) on bad input."""
    loaded = load_theme(theme)
    (players,) = player_counts(players, loaded)
    check_games(games)
    check_seed(seed)
    label = check_strategy(strategy)
    names = check_characters(characters, loaded) or list(loaded.character_names)
    role = check_role(role, loaded, players)
    todo = []  # each arm to play: with, then without the ability
    for name in names:
        feature = name if role is None else f"{name}={role}"
        todo.append(Work(loaded, players, label, seed, games, feature))
        if loaded.character_abilities[loaded.character_names.index(name)] != NO_ABILITY:
            todo.append(Work(without_ability(loaded, name), players, label, seed, games, feature))
    played = play_all(todo, backend)
    rows = []
    for name in progress(names) if progress else names:
        index = loaded.character_names.index(name)
        ability = loaded.character_abilities[index]
        arms = [next(played)]
        # nothing to take away: the same games
        arms.append(next(played) if ability != NO_ABILITY else arms[0])
        won = [outcomes.featured_won() for outcomes in arms]
        _check_paired(*arms, name)
        rows.append(
            {
                "theme": loaded.id,
                "players": players,
                "strategy": label,
                "role": role or ANY_ROLE,
                "character": name,
                "life": loaded.character_lives[index],
                "ability": ability,
                "games": games,
                "seed": seed,
                **paired_stats(won[0], won[1]),
            }
        )
        if ability == NO_ABILITY:
            rows[-1]["verdict"] = NO_ABILITY_VERDICT
    return pl.DataFrame(rows, schema=SCHEMA).sort("value", "character", descending=[True, False])


def paired_stats(with_: np.ndarray, without: np.ndarray) -> dict[str, Any]:
    """Win counts, rates with Wilson intervals, and the paired difference of two boolean
    arrays of the same games: mean, normal-approximation 95% interval, p-value, verdict."""
    from simcore.stats import paired_interval, wilson_interval

    n = len(with_)
    d = with_.astype(np.int64) - without.astype(np.int64)
    mean, sd, half = paired_interval(d)
    if sd > 0:
        p = math.erfc(abs(mean) / (sd / math.sqrt(n)) / math.sqrt(2))
    else:  # every game gave the same difference: no spread to test against
        p = 1.0 if mean == 0 else 0.0
    lower, upper = mean - half, mean + half
    verdict = NEGATIVE if upper < 0 else UNCLEAR if lower <= 0 else POSITIVE
    stats: dict[str, Any] = {}
    for arm, won in (("with", with_), ("without", without)):
        k = int(won.sum())
        lo, hi = wilson_interval(k, n)
        stats |= {f"wins_{arm}": k, f"rate_{arm}": k / n, f"lower_{arm}": lo, f"upper_{arm}": hi}
    return stats | {
        "value": mean,
        "value_lower": lower,
        "value_upper": upper,
        "p_value": p,
        "changed": int(np.count_nonzero(d)),
        "verdict": verdict,
    }


def _check_paired(a: Any, b: Any, name: str) -> None:
    """The arms must deal the same games: featured seat, roles and characters, game by game."""
    same = (
        np.array_equal(a.featured, b.featured)
        and np.array_equal(a.role, b.role)
        and np.array_equal(a.character, b.character)
    )
    if not same or (a.featured < 0).any():
        raise PairingError(f"{name}: the games with and without the ability are not paired")


# --- files --------------------------------------------------------------------------------


def write_abilities(table: pl.DataFrame, out: Path) -> list[Path]:
    """Merge `table` into out/abilities.json (rows with the same KEY replaced, others kept)
    and write out/abilities.csv beside it; both atomically. Returns the two paths."""
    out = Path(out)
    old = read_abilities(out)
    if old is not None:
        keys = table.select(KEY)
        table = pl.concat([old.join(keys, on=list(KEY), how="anti"), table])
    table = table.sort("theme", "players", "strategy", "role", "value", descending=[
        False, False, False, False, True
    ])  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    rows = table.with_columns(pl.selectors.float().fill_nan(None)).to_dicts()
    text = json.dumps({"format": 1, "rows": rows}, ensure_ascii=False, indent=1) + "\n"
    paths = [out / ABILITIES_FILE, out / ABILITIES_CSV]
    write_atomic(paths[0], text.encode())
    write_atomic(paths[1], table.write_csv().encode())
    return paths


def read_abilities(folder: Path) -> pl.DataFrame | None:
    """The ability values stored in folder/abilities.json, or None if there is none.
    ValueError (one line) for a file that is not such a table."""
    path = Path(folder) / ABILITIES_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        rows = data["rows"]
        return pl.DataFrame(rows, schema=SCHEMA)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
        detail = " ".join(str(e).split())[:120]
        raise ValueError(
            f"{path}: not an ability table ({detail}); delete it or write it again with "
            "`bangsim abilities --out`"
        ) from None
    except pl.exceptions.PolarsError as e:
        detail = " ".join(str(e).split())[:120]
        raise ValueError(f"{path}: not an ability table ({detail}); delete it") from None


def ability_lines(table: pl.DataFrame) -> list[str]:
    """The table as aligned text lines, one per character, largest value first."""
    if table.height == 0:
        return []
    width = max(len(c) for c in table["character"]) + 1
    awidth = max(len(a) for a in table["ability"]) + 1
    lines = [
        f"{'character':<{width}} life {'ability':<{awidth}} {'with ability':<21} "
        f"{'without':<21} value in pp [95% interval]"
    ]
    for r in table.iter_rows(named=True):
        note = f"  ⚠ {NEGATIVE}" if r["verdict"] == NEGATIVE else f"  ({r['verdict']})"
        note = "" if r["verdict"] == POSITIVE else note
        lines.append(
            f"{r['character']:<{width}} {r['life']:>4} {r['ability']:<{awidth}} "
            f"{_rate(r, 'with'):<21} {_rate(r, 'without'):<21} "
            f"{_pp(r['value']):>8} [{_pp(r['value_lower'])}, {_pp(r['value_upper'])}]{note}"
        )
    return lines


def _rate(r: dict[str, Any], arm: str) -> str:
    return (
        f"{100 * r[f'rate_{arm}']:5.1f}% "
        f"[{100 * r[f'lower_{arm}']:.1f}, {100 * r[f'upper_{arm}']:.1f}]"
    )


def _pp(x: float) -> str:
    text = f"{100 * x:+.1f}"
    return "0.0" if float(text) == 0 else text
