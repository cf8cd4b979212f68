"""The verdict in words, with its reference: one line per configuration (the strategy
levels of one theme, player count, pool, feature and overrides together), read from the
strongest strategy level present, the weaker levels' rates beside it:

    classic, 5 players: under tuned play the Sheriff's side is favoured: 55.3% [54.9%,
    55.7%] against an even 33.3%; under smart 73.8%.

The strongest level is the one a designer should trust: bots that play better leave less
of the result to the bots' mistakes. The order is STRENGTH (strong, learned from a
searching player, above tuned, found by search, above the hand-written presets; a per-role
mix counts as its weakest role's preset; a preset of the designer's own file is ranked with
smart).

The reference is "even" (an equal share for each side at the table: 1 / sides, a third)
unless the designer gives targets (`--targets 40,40,20`: leader + deputies, outlaws,
renegade, in percent or as shares; or a balance file's [targets], `--targets
classic_5p`), which then replace the even share in the report's grid, summary and verdict.
Even is a neutral yardstick, not a design goal: the printed game gives the lone Renegade
far less than a third by design.

A side is *favoured* when it is the furthest above its reference and its 95% Wilson
interval lies above it; when no side's interval lies above its reference the verdict says
no side is clearly favoured. Where a band applies (reports.bands) the rate is followed by
its band in plain words, "55.3% [54.9%, 55.7%] (how the bots choose to play can move it
by 15.0 points: 49.0%–64.0%)", and a favoured side whose band's low end is not above the
reference is said to be so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from reports.html import pct
from reports.levels import shared_settings
from reports.names import Names
from simcore.engine.request import split_label
from simcore.errors import UserError
from simcore.runs.cells import SIDES
from strategies.presets import split_search

STRENGTH = {
    "random": 0, "basic": 1, "cautious": 2, "aggressive": 2, "smart": 2, "tuned": 3,
    "strong": 4,  # learned from a searching player's rollouts over tuned (docs/strong.md)
}  # fmt: skip
OWN_PRESET = 2  # a preset from the designer's own presets file (FILE.toml:NAME)


class TargetsError(UserError):
    """--targets that cannot be read; one line."""


@dataclass(frozen=True)
class Targets:
    """A designer's side targets: per player count (None: every count) side -> share."""

    by_players: dict[int | None, dict[str, float]]
    source: str  # "40,40,20" or the balance file's name

    def at(self, players: int) -> dict[str, float] | None:
        return self.by_players.get(players, self.by_players.get(None))


def strength(strategy: str | None) -> float:
    """A strategy label's rank in STRENGTH: a mix "leader=tuned,outlaw=smart,..." ranks as
    its weakest preset; "search:BASE" (with settings or not: "search@budget=32:BASE") half
    a step above BASE."""
    if not strategy:
        return -1
    searching, base = split_search(strategy)
    if searching is not None:
        return strength(base) + 0.5
    if "=" in strategy:
        return min(strength(part.partition("=")[2]) for part in strategy.split(","))
    return STRENGTH.get(strategy, OWN_PRESET)


def parse_targets(text: str) -> Targets:
    """ "40,40,20" (percent) or "0.4,0.4,0.2" -> targets at every player count; otherwise a
    balance file's name or path (its [targets] side rates per player count)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == len(SIDES) and all(_number(p) for p in parts):
        values = [float(p) for p in parts]
        if sum(values) > 1.5:  # percent
            values = [v / 100 for v in values]
        if any(not 0 <= v <= 1 for v in values) or abs(sum(values) - 1) > 0.01:
            raise TargetsError(
                f"--targets {text}: the three side rates (leader + deputies, outlaws, renegade) "
                "must each lie in 0..100% and sum to 100%"
            )
        return Targets({None: dict(zip(SIDES, values, strict=True))}, text)
    if len(parts) > 1:
        raise TargetsError(
            f"--targets {text}: expected three side rates (leader + deputies, outlaws, "
            "renegade), e.g. 40,40,20, or a balance file's name or path"
        )
    from simcore.studies.balance import read_problem

    try:
        problem = read_problem(text)
    except ValueError as e:
        raise TargetsError(f"--targets: {e}") from None
    if not problem.targets.sides:
        raise TargetsError(f"--targets {text}: the balance file sets no side targets")
    return Targets(dict(problem.targets.sides), Path(text).name)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def with_targets(sides: pl.DataFrame, targets: Targets | None) -> pl.DataFrame:
    """The sides table (simcore.runs.cells.side_win_rates) with `even_share` and `vs_even`
    measured against the targets where they set a side at that player count (else even)."""
    if targets is None:
        return sides
    rows = [
        {"players": n, "side": s, "_target": v}
        for n in sides["players"].unique().to_list()
        for s, v in (targets.at(n) or {}).items()
    ]
    if not rows:
        return sides
    frame = pl.DataFrame(rows, schema={"players": sides.schema["players"], "side": pl.String,
                                       "_target": pl.Float64})  # fmt: skip
    return (
        sides.join(frame, on=["players", "side"], how="left")
        .with_columns(pl.coalesce("_target", "even_share").alias("even_share"))
        .with_columns((pl.col("rate") - pl.col("even_share")).alias("vs_even"))
        .drop("_target")
    )


def reference_text(shares: list[float], targets: Targets | None) -> str:
    """How a line names its reference: "an even 33.3%" or "your target 40.0%"."""
    word = "your target" if targets is not None else "an even"
    return f"{word} {' / '.join(dict.fromkeys(pct(s) for s in shares))}"


def side_phrase(side: str, theme: str, names: Names) -> str:
    """ "the Sheriff's side", "the Outlaws", "the Renegade" in the theme's words; a leader
    named like a person (two or more capitalised words, no possessive: "Darth Vader")
    takes no article ("Darth Vader's side", but "the Survivors' Leader's side")."""
    if side == "leader":
        leader = names.role("leader", theme)
        words = leader.split()
        person = len(words) > 1 and all(w[:1].isupper() for w in words) and "'" not in leader
        return f"{'' if person else 'the '}{leader}'s side"
    return f"the {names.side(side, theme)}"


def verdict_lines(
    configs: list[dict[str, Any]],
    sides: pl.DataFrame,
    names: Names,
    targets: Targets | None = None,
) -> list[str]:
    """One line per group of configurations that differ only in strategy (the sides
    table's, described by their manifest entries `configs` where given), from the strongest
    level, the others' rates of the same side after it. `sides` is measured against the
    reference already (`with_targets`)."""
    return [line for _, line in verdict_groups(configs, sides, names, targets)]


def verdict_groups(
    configs: list[dict[str, Any]],
    sides: pl.DataFrame,
    names: Names,
    targets: Targets | None = None,
) -> list[tuple[list[str], str]]:
    """verdict_lines with the configurations each line speaks for: (their labels, the
    strongest level first; the line), one per group."""
    known = {c.get("label"): c for c in configs}
    configs = [  # every configuration of the table; theme and strategy from it if unsaid
        {
            "theme": theme,
            "players": players,
            "strategy": split_label(label).strategy or None,
            **known.get(label, {}),
            "label": label,
        }
        for label, theme, players in sides.select("config", "theme", "players")
        .unique(maintain_order=True)
        .iter_rows()
    ]
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for config in configs:
        groups.setdefault(shared_settings(config), []).append(config)
    lines = []
    for members in groups.values():
        members = sorted(members, key=lambda c: -strength(c.get("strategy")))
        rows = {
            c["label"]: {
                r["side"]: r
                for r in sides.filter(pl.col("config") == c["label"]).iter_rows(named=True)
            }
            for c in members
        }
        top = members[0]
        top_rows = rows[top["label"]]
        if not top_rows:
            continue
        line = _line(top, top_rows, members[1:], rows, names, targets)
        lines.append(([c["label"] for c in members], line))
    return lines


def band_text(row: dict[str, Any]) -> str:
    """ " (how the bots choose to play can move it by 15.0 points: 49.0%–64.0%)" for a
    sides row with a band (reports.bands, the method's band of near-equilibria), else ""; "; a
    role gains more than 1 point against this play" added where the band's start, the
    configuration's own play, is not within its epsilon."""
    if row.get("band_low") is None:
        return ""
    beyond = ""
    if row.get("start_within") is False:
        beyond = (
            f"; a role gains more than {100 * row['band_epsilon']:g} point(s) against this play"
        )
    spread = 100 * (row["band_high"] - row["band_low"])
    return (
        f" (how the bots choose to play can move it by {spread:.1f} points: "
        f"{pct(row['band_low'])}–{pct(row['band_high'])}{beyond})"
    )


def _line(top, top_rows, weaker, rows, names: Names, targets: Targets | None) -> str:
    theme, players = top["theme"], top["players"]
    head = f"{names.titles.get(theme, theme)}, {players} players"
    extras = split_label(top["label"]).extras  # pool, feature, overrides as the label gives
    if extras:
        head += f" ({', '.join(extras)})"
    level = f"under {top['strategy']} play" if top.get("strategy") else "as played"
    best = max(top_rows.values(), key=lambda r: r["vs_even"])
    reference = reference_text([best["even_share"]], targets)
    band = band_text(best)
    if best["lower"] > best["even_share"]:
        text = (
            f"{head}: {level} {side_phrase(best['side'], theme, names)} "
            f"{'are' if best['side'] == 'outlaw' else 'is'} favoured: "
            f"{pct(best['rate'])} [{pct(best['lower'])}, {pct(best['upper'])}]{band} against "
            f"{reference}"
        )
        if band and best["band_low"] <= best["even_share"]:
            text += ", but not if the bots play the other way"
    else:
        text = (
            f"{head}: {level} no side is clearly favoured: "
            f"{side_phrase(best['side'], theme, names)} {pct(best['rate'])} "
            f"[{pct(best['lower'])}, {pct(best['upper'])}]{band} against {reference}"
        )
    others = [
        f"under {c['strategy']} {pct(rows[c['label']][best['side']]['rate'])}"
        for c in weaker
        if best["side"] in rows[c["label"]]
    ]
    return text + ("; " + ", ".join(others) if others else "") + "."
