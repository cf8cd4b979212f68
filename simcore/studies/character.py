"""One answer to "is this character too strong or too weak?" (`bangsim character NAME`).

    answer = character_answer("Calamity Janet", "classic", players=5, games=40_000)

Three numbers, each measuring something else, in the order a designer reads them:

1. the headline, the report's figure: in a run of `games` games with every character in
   the pool, how much more often the character's players win than their roles do
   (reports: the character effect, role-adjusted; Wilson interval less the baseline);
2. the same per role: its win rate in each role against that role's;
3. what its ability is worth: the character featured in every game with and without its
   ability, on the same seeds (simcore.studies.abilities): how much the ability adds to
   this character, whatever its life; not a comparison with the other characters.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simcore.engine.request import check_characters, check_games, config_label, player_counts
from simcore.engine.theme import Theme, load_theme
from strategies.presets import DEFAULT_PRESET, StrategySpec, check_strategy, resolve_strategy


@dataclass(frozen=True)
class CharacterAnswer:
    """What `character_answer` measured; rows as reports.aggregate's effect tables and
    simcore.studies.abilities.SCHEMA."""

    theme: Theme
    players: int
    character: str
    strategy: str
    games: int
    seed: int
    overall: dict[str, Any]  # effects_overall's row: effect, effect_lower, effect_upper, ...
    roles: list[dict[str, Any]]  # effects_in_role's rows, canonical role order
    ability: dict[str, Any]  # ability_values' row


def character_answer(
    character: str,
    theme: str | Path | Theme = "classic",
    players: int = 5,
    games: int = 40_000,
    seed: int = 1,
    strategy: StrategySpec = DEFAULT_PRESET,
    ability_games: int | None = None,
) -> CharacterAnswer:
    """Measure `character` (see the module doc): a run of `games` games for its effect
    overall and per role, and `ability_games` (default games // 2) per arm for its
    ability. ValueError (one line) on bad input."""
    from simcore.engine.play import play_games
    from simcore.engine.rows import seat_frame
    from simcore.runs.cells import collect_cells, effects_in_role, effects_overall
    from simcore.studies.abilities import ability_values

    loaded = load_theme(theme)
    (players,) = player_counts(players, loaded)
    check_games(games)
    (name,) = check_characters([character], loaded)
    label = check_strategy(strategy, (players,), loaded.plays_as)
    block = play_games(
        loaded, players, games, seed, strategy=resolve_strategy(label, players, loaded.plays_as)
    )
    config = config_label(loaded.id, players, label, None, None)
    cells = collect_cells(seat_frame(block, loaded, players, 0, config).lazy())
    mine = pl.col("character") == name
    overall, roles = pl.collect_all(
        [effects_overall(cells).filter(mine), effects_in_role(cells).filter(mine)]
    )
    if overall.height == 0:
        raise ValueError(f"{name} was dealt in none of {games:,} games: give more --games")
    arm = ability_games or max(1, games // 2)
    ability = ability_values(loaded, players, arm, seed, label, [name]).row(0, named=True)
    return CharacterAnswer(
        loaded, players, name, label, games, seed, overall.row(0, named=True),
        roles.to_dicts(), ability,
    )  # fmt: skip


def _points(row: dict[str, Any], key: str) -> str:
    return (
        f"{100 * row[key]:+.1f} points [{100 * row[key + '_lower']:+.1f}, "
        f"{100 * row[key + '_upper']:+.1f}]"
    )


def verdict_word(lower: float, upper: float) -> str:
    """How an effect's 95% interval reads: stronger, weaker, or within luck."""
    if lower > 0:
        return "stronger than average"
    if upper < 0:
        return "weaker than average"
    return "within luck of average"


def character_lines(a: CharacterAnswer) -> list[str]:
    """The answer in plain sentences, headline first."""
    o, t = a.overall, a.theme
    head = (
        f"{a.character} ({t.title}, {a.players} players, {a.strategy} bots): "
        f"{verdict_word(o['effect_lower'], o['effect_upper'])}. Its players win "
        f"{100 * abs(o['effect']):.1f} points {'more' if o['effect'] >= 0 else 'less'} often "
        f"than their roles do (95% interval {100 * o['effect_lower']:+.1f} to "
        f"{100 * o['effect_upper']:+.1f}; {o['games']:,} seats in {a.games:,} games, seed "
        f"{a.seed})."
    )
    lines = [
        head,
        "  This is the report's character effect: the answer to 'too strong or too weak?'.",
        "By role, its win rate against the role's (fewer seats, a wider interval):",
    ]
    for r in a.roles:
        lines.append(
            f"  as {t.role_names[r['role']]:<12} {100 * r['rate']:5.1f}% against "
            f"{100 * r['baseline']:5.1f}%: {_points(r, 'effect')} ({r['games']:,} seats)"
        )
    b = a.ability
    if b["ability"] == "none":
        lines.append(f"{a.character} has no ability to take away.")
    else:
        lines.append(
            f"Its ability ({b['ability']}) is worth {100 * b['value']:+.1f} points "
            f"[{100 * b['value_lower']:+.1f}, {100 * b['value_upper']:+.1f}] to it: "
            f"featured with and without it on the same {b['games']:,} deals, life "
            f"{b['life']} kept. This is what the ability adds to this character, not how it "
            "compares with the others."
        )
    return lines
