"""Balance at a glance: one grid of side win rates, series x player counts (HTML and text).

A row is a configuration label without its player count (its *series*: theme, strategy,
pool, feature, overrides, e.g. ``classic/smart/leader_extra_life=2``), a column a player
count, and a cell the three side win rates at that table (leader + deputies, outlaws,
renegade). So a run with several strategies, pools or overrides per theme has one row per
combination, and a plain run one row.

"Even" is an equal share for every side at the table: 1 / (sides present), a third at
every shipped player count (`reports.aggregate.side_win_rates`' even_share). A rate is
coloured by its distance from even, blue above and red below, full colour at
FULL_COLOUR_AT (15 percentage points) or more; it is marked (bold, or * in the terminal)
when it misses even by more than MARK_AT (5 points) with luck ruled out: its whole 95%
Wilson interval lies beyond even ± MARK_AT. With 50,000 games a cell's interval is under a
point wide and nearly every rate misses even beyond luck; the mark says which misses are
big enough for a designer to act on.

A configuration's characters are a heat table in the same colours: a row per character
(strongest on top), its strength (win rate minus the rate expected from its roles), then a
column per role, its win rate in that role minus the role's; blue above and red below, full
colour at the run's largest effect (heat_limit), so one colour is one effect on every page;
* where it is Holm-significant.

Headers use the canonical side names; each theme's own names are in the legend.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from reports.charts import SIDE_HEADINGS, with_series
from reports.html import pp
from reports.names import Names
from simcore.engine import vocab

SIDES = vocab.WINNERS
SIDE_SHORT = {"leader": "L+D", "outlaw": "Out", "renegade": "Ren"}  # terminal columns
FULL_COLOUR_AT = 0.15  # distance from even (a share) at which a cell takes its full colour
MARK_AT = 0.05  # a miss of even a designer acts on (a share): marked beyond it, beyond luck
ABOVE, BELOW = (47, 109, 181), (194, 69, 45)  # the report's blue and red (charts.UP, DOWN)
ANSI = {"blue": "\x1b[34m", "red": "\x1b[31m", "reset": "\x1b[0m"}  # typer.echo strips
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # them when the output is not a terminal


@dataclass(frozen=True)
class Rate:
    """One side's win rate in one cell."""

    side: str
    rate: float
    lower: float
    upper: float
    even: float
    config: str
    theme: str
    games: int
    band_low: float | None = None  # the side's band (reports.bands), where one applies
    band_high: float | None = None

    @property
    def band(self) -> str:
        """ "49.0–64.0" (points), or "" without a band."""
        if self.band_low is None:
            return ""
        return f"{100 * self.band_low:.1f}–{100 * self.band_high:.1f}"

    @property
    def vs_even(self) -> float:
        return self.rate - self.even

    @property
    def significant(self) -> bool:
        """The 95% interval misses even: the miss is beyond luck, however small."""
        return self.lower > self.even or self.upper < self.even

    @property
    def marked(self) -> bool:
        """The miss is large and beyond luck: the 95% interval lies wholly more than MARK_AT
        from even."""
        return self.lower > self.even + MARK_AT or self.upper < self.even - MARK_AT

    @property
    def background(self) -> str:
        """A CSS colour: white at even, towards blue (above) or red (below), full colour at
        FULL_COLOUR_AT from even."""
        return shade(self.vs_even / FULL_COLOUR_AT)

    @property
    def ink(self) -> str:
        """Text colour readable on `background`."""
        return ink_on(self.vs_even / FULL_COLOUR_AT)


def shade(t: float) -> str:
    """The report's colour for a signed distance `t` in units of full colour: near white at
    0, towards blue (t > 0) or red (t <= 0), full colour at |t| >= 1 (a CSS colour)."""
    alpha = 0.08 + 0.62 * min(abs(t), 1.0)
    base = ABOVE if t > 0 else BELOW
    mixed = [round(255 + (c - 255) * alpha) for c in base]
    return "#{:02x}{:02x}{:02x}".format(*mixed)


def ink_on(t: float) -> str:
    """Text colour readable on shade(t)."""
    return "#ffffff" if abs(t) > 0.7 else "#1d232b"


@dataclass(frozen=True)
class HeatCell:
    """One character's effect (a share), overall or in one role, coloured on the run's
    scale."""

    effect: float
    lower: float
    upper: float
    significant: bool  # Holm, over the characters compared
    games: int
    limit: float  # the scale's end (a share): full colour

    @property
    def text(self) -> str:
        """ "+1.2*": points, * when Holm-significant."""
        return pp(self.effect).removesuffix(" pp") + ("*" if self.significant else "")

    @property
    def background(self) -> str:
        return shade(self.effect / self.limit)

    @property
    def ink(self) -> str:
        return ink_on(self.effect / self.limit)


@dataclass(frozen=True)
class HeatRow:
    character: str
    overall: HeatCell  # its strength: win rate minus the rate expected from its roles
    cells: list[HeatCell | None]  # its effect in each role, None where never dealt it


@dataclass(frozen=True)
class HeatTable:
    """A configuration's characters, strongest first: each one's strength and its effect in
    each of `roles`."""

    theme: str
    roles: list[str]
    rows: list[HeatRow]
    limit: float


def _cell(row: dict, limit: float) -> HeatCell:
    return HeatCell(
        row["effect"], row["effect_lower"], row["effect_upper"], row["significant"],
        row["games"], limit,
    )  # fmt: skip


def heat_limit(character_roles: pl.DataFrame, characters: pl.DataFrame) -> float:
    """The colour scale's end (a share) shared by every configuration's heat table: the
    largest effect of any character, overall or in any role, at least a point."""
    largest = [f["effect"].abs().fill_nan(None).max() for f in (character_roles, characters)]
    return max(0.01, *(float(x) for x in largest if x is not None))


def heat_table(
    character_roles: pl.DataFrame, characters: pl.DataFrame, config: str, limit: float
) -> HeatTable:
    """Configuration `config`'s heat table, full colour at `limit` (heat_limit)."""
    cells = character_roles.filter(pl.col("config") == config)
    present = set(cells["role"])
    roles = [r for r in vocab.ROLES if r in present]
    found = {(r["character"], r["role"]): _cell(r, limit) for r in cells.iter_rows(named=True)}
    strength = characters.filter(pl.col("config") == config).sort("effect", descending=True)
    rows = [
        HeatRow(r["character"], _cell(r, limit), [found.get((r["character"], x)) for x in roles])
        for r in strength.iter_rows(named=True)
    ]
    return HeatTable(cells["theme"][0] if cells.height else "", roles, rows, limit)


@dataclass(frozen=True)
class Grid:
    """rows: series labels; columns: player counts; cells[(series, players)]: the Rates of
    the sides at that table, in SIDES order."""

    rows: list[str]
    columns: list[int]
    cells: dict[tuple[str, int], list[Rate]]
    themes: list[str]  # theme ids, in row order

    def cell(self, row: str, players: int) -> list[Rate]:
        return self.cells.get((row, players), [])

    @property
    def evens(self) -> list[float]:
        return sorted({r.even for rates in self.cells.values() for r in rates})

    @property
    def games(self) -> list[int]:
        return sorted({r.games for rates in self.cells.values() for r in rates})


def side_grid(sides: pl.DataFrame) -> Grid:
    """The grid of a `side_win_rates` table (collected)."""
    frame = with_series(sides)
    rows = sorted(frame["series"].unique().to_list())
    columns = sorted(frame["players"].unique().to_list())
    order = {s: i for i, s in enumerate(SIDES)}
    cells: dict[tuple[str, int], list[Rate]] = {}
    for r in frame.iter_rows(named=True):
        rate = Rate(
            r["side"], r["rate"], r["lower"], r["upper"], r["even_share"], r["config"],
            r["theme"], r["games"], r.get("band_low"), r.get("band_high"),
        )  # fmt: skip
        cells.setdefault((r["series"], r["players"]), []).append(rate)
    for rates in cells.values():
        rates.sort(key=lambda x: order[x.side])
    themes = []
    for row in rows:
        for n in columns:
            for rate in cells.get((row, n), []):
                if rate.theme not in themes:
                    themes.append(rate.theme)
    return Grid(rows, columns, cells, themes)


def legend(grid: Grid, names: Names) -> list[tuple[str, str, str]]:
    """(theme id, title, its side names "Sheriff + Deputies · Outlaws · Renegade") per
    theme of the grid."""
    return [
        (t, names.titles.get(t, t), " · ".join(names.side(s, t) for s in SIDES))
        for t in grid.themes
    ]


def even_text(grid: Grid) -> str:
    """'a third each (33.3%)' or the shares found; a designer's targets (the report's
    --targets, reports.verdict.with_targets) as "your targets: L+D 40.0%, ..."."""
    evens = grid.evens
    targeted = [
        r for rates in grid.cells.values() for r in rates if abs(r.even - 1 / len(rates)) > 1e-9
    ]
    if targeted:
        shares = {}
        for rates in grid.cells.values():
            for r in rates:
                shares.setdefault(r.side, {}).setdefault(f"{100 * r.even:.1f}%", None)
        return "your targets: " + ", ".join(
            f"{SIDE_SHORT[side]} {' or '.join(v)}"
            for side, v in sorted(shares.items(), key=lambda kv: SIDES.index(kv[0]))
        )
    if len(evens) == 1 and abs(evens[0] - 1 / 3) < 1e-9:
        return "a third each (33.3%)"
    return " or ".join(f"{100 * e:.1f}%" for e in evens) + " each"


def grid_text(sides: pl.DataFrame, names: Names, style: bool = True) -> str:
    """The grid for the terminal: one line per series, three rates per player count
    (leader + deputies, outlaws, renegade, in %), * where the rate misses even by more
    than MARK_AT beyond luck (Rate.marked; coloured blue above, red below when `style` and
    the terminal shows colour), then the legend of each theme's side names and the games
    per cell."""
    grid = side_grid(sides)
    width = max([len("configuration"), *map(len, grid.rows)])
    cell_width = 3 * 6 + 2  # three rates of 6 characters, a space between

    def fmt(rate: Rate) -> str:
        text = f"{100 * rate.rate:5.1f}{'*' if rate.marked else ' '}"
        if style and rate.marked:
            return f"{ANSI['blue' if rate.vs_even > 0 else 'red']}{text}{ANSI['reset']}"
        return text

    sub = " ".join(f"{SIDE_SHORT[s]:>5} " for s in SIDES)
    reference = even_text(grid)
    targeted = reference.startswith("your targets")
    lines = [
        f"Side win rates (% of games), {'against ' if targeted else 'even = '}{reference}; "
        + ", ".join(f"{SIDE_SHORT[s]} {SIDE_HEADINGS[s]}" for s in SIDES),
        f"* more than {100 * MARK_AT:.0f} points from {'the target' if targeted else 'even'}, "
        "beyond luck (its 95% interval too)"
        + (" (blue above, red below)" if style else "")
        + ("" if targeted else "; even is a yardstick, not a goal: --targets sets your own"),
        f"{'':<{width}}"
        + "".join(f"  {f'{n} players':^{cell_width}}" for n in grid.columns).rstrip(),
        f"{'configuration':<{width}}" + "".join(f"  {sub}" for _ in grid.columns).rstrip(),
    ]
    for row in grid.rows:
        parts = []
        for n in grid.columns:
            rates = grid.cell(row, n)
            text = " ".join(fmt(r) for r in rates)
            pad = cell_width - len(_ANSI.sub("", text))
            parts.append("  " + text + " " * max(pad, 0))
        lines.append(f"{row:<{width}}" + "".join(parts).rstrip())
    for row in grid.rows:
        for n in grid.columns:
            rates = [r for r in grid.cell(row, n) if r.band]
            if rates:
                lines.append(
                    f"  {row}, {n} players, where the bots' choice of play can move it: "
                    + ", ".join(f"{SIDE_SHORT[r.side]} {r.band}" for r in rates)
                )
    themes = legend(grid, names)
    if len(themes) == 1:
        lines.append(f"sides: {themes[0][0]}: {themes[0][2]}")
    else:
        lines += ["sides by theme:", *(f"  {theme}: {text}" for theme, _, text in themes)]
    games = grid.games
    lines.append(
        f"{games[0]:,} games per cell"
        if len(games) == 1
        else f"{games[0]:,} to {games[-1]:,} games per cell"
    )
    return "\n".join(lines)


def terminal_summary(tables: dict[str, pl.DataFrame], names: Names) -> str:
    """What `run`, `experiment` and `report` print: the grid (`grid_text` of the sides
    table), then one line per configuration whose games hit the turn cap (game_lengths)."""
    lines = [grid_text(tables["sides"], names)]
    for r in tables["game_lengths"].filter(pl.col("capped") > 0).iter_rows(named=True):
        lines.append(
            f"{r['config']}: {r['capped']:,} of {r['games']:,} games hit the turn cap "
            "(won by no side)"
        )
    return "\n".join(lines)
