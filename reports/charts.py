"""Report charts: matplotlib figures on the Agg canvas (no pyplot, no global state) -> PNG.

Each function takes collected report tables (`reports.aggregate`) and `Names`, and returns
a `Figure`; `png` renders one. Rates are drawn in percent, effects in percentage points,
with 95% intervals as error bars, and labels in the theme's own role and character names.
"""

from __future__ import annotations

import io
import math
import re
import textwrap
from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, MaxNLocator

from reports.names import Names
from simcore.engine import vocab

SIDE_HEADINGS = {"leader": "leader + deputies", "outlaw": "outlaws", "renegade": "renegade"}
SIDE_COLORS = {"leader": "#2f6db5", "outlaw": "#c2452d", "renegade": "#7b4fa0"}
ROLE_COLORS = {"leader": "#1f4e8c", "deputy": "#6fa3dc", "outlaw": "#c2452d", "renegade": "#7b4fa0"}
UP, DOWN, FLAT = "#2f6db5", "#c2452d", "#8a8a8a"  # significant +, significant -, not significant
SERIES_COLORS = (
    "#2f6db5",
    "#c2452d",
    "#3a9a5b",
    "#e09a2d",
    "#7b4fa0",
    "#4aa3b5",
    "#b5527f",
    "#6b6b6b",
)
DPI = 100
STYLE = {"font.size": 10, "axes.titlesize": 11, "axes.labelsize": 10}
RC = {"text.hinting": "none"}  # unhinted glyphs: as legible at 100 dpi, a fifth less drawing time
CHAR_EM = 0.6  # a character's mean width in ems (DejaVu Sans), for wrapping before drawing
LEGEND_SIZE = 9
MAX_WIDTH = 11.0  # inches: the widest figure (a page is about 11.2 inches of 100 dpi wide)


def wrap(text: str, width_in: float, size: float = 10) -> str:
    """`text` wrapped to lines that fit `width_in` inches at `size` points (each of its
    own lines wrapped alone; a long word is cut only where it must be)."""
    chars = max(8, int(width_in * 72 / (size * CHAR_EM)))
    # a configuration label breaks after a "/" rather than inside a name
    lines = (textwrap.fill(re.sub("/(?=\\S)", "/\0 ", line), chars) for line in text.split("\n"))
    return "\n".join(line.replace("\0 ", "").replace("\0", "") for line in lines)


def legend_below(fig: Figure, handles: Sequence, labels: Sequence[str]) -> None:
    """The figure's legend under its panels (outside every plot area), labels wrapped and
    as many columns as fit the figure's width."""
    if not labels:
        return
    width_pt = fig.get_figwidth() * 72 * 0.95
    longest = min(max(len(label) for label in labels), 48)
    per_column = (longest * CHAR_EM + 3.5) * LEGEND_SIZE  # text, handle and gap
    ncols = int(max(1, min(len(labels), width_pt // per_column, 6)))
    text_in = width_pt / ncols / 72 - 3.5 * LEGEND_SIZE / 72
    fig.legend(
        handles,
        [wrap(label, text_in, LEGEND_SIZE) for label in labels],
        loc="outside lower center",
        ncols=ncols,
        fontsize=LEGEND_SIZE,
        frameon=False,
    )


def _title(fig: Figure, text: str) -> None:
    fig.suptitle(wrap(text, fig.get_figwidth() * 0.95, STYLE["axes.titlesize"] + 1))


def _panel_width(ax) -> float:
    """About the inches a panel's title may take: its share of the figure's width."""
    return ax.figure.get_figwidth() / ax.get_gridspec().ncols * 0.85


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (Agg canvas, RC). Its layout is made once, here, at the PNG's
    dpi: savefig would first draw the whole figure without output to make it (the same
    bytes, one pass more)."""
    with rc_context(RC):
        FigureCanvasAgg(fig)
        fig.set_dpi(DPI)
        if (engine := fig.get_layout_engine()) is not None:
            engine.execute(fig)
            fig.set_layout_engine("none")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def with_series(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` plus `series`: its config label without the player count ("classic/basic"),
    so one line or bar colour follows one theme/strategy/override across player counts."""
    series = pl.col("config").str.replace_all(r"(^|/)\d+p(/|$)", "$1").str.strip_chars("/")
    return frame.with_columns(
        pl.when(series == "").then(pl.col("config")).otherwise(series).alias("series")
    )


def _figure(
    panels: int, ncols: int, panel_w: float, panel_h: float, **shared
) -> tuple[Figure, list]:
    """A grid of `panels` small multiples, at most `ncols` across and MAX_WIDTH wide."""
    ncols = max(1, min(ncols, panels, int(MAX_WIDTH // panel_w) or 1))
    nrows = math.ceil(panels / ncols)
    width = min(max(panel_w * ncols, 7.0), MAX_WIDTH)  # room for the title above one panel
    fig = Figure(figsize=(width, panel_h * nrows + 0.9), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **shared).ravel().tolist()
    for ax in axes[panels:]:
        ax.set_visible(False)
    return fig, axes[:panels]


class TickPercent(Formatter):
    """Percent tick labels (data in percent) with the fewest decimals, at least `decimals`,
    that write every tick exactly, so ticks 0.5 apart read 73.5% 74.0% 74.5%, never
    74% 74% 74% (a narrow interval's axis)."""

    MAX_DECIMALS = 4

    def __init__(self, decimals: int = 0) -> None:
        self.decimals = decimals
        self.places = decimals

    def set_locs(self, locs) -> None:  # the axis passes its tick positions before labelling
        self.places = self._places(np.asarray(locs, dtype=float))

    def _places(self, locs: np.ndarray) -> int:
        if locs.size < 2:
            return self.decimals
        step = float(np.min(np.diff(np.sort(locs))))
        for places in range(self.decimals, self.MAX_DECIMALS + 1):
            if np.all(np.abs(np.round(locs, places) - locs) <= 1e-6 * max(step, 1e-12)):
                return places
        return self.MAX_DECIMALS

    def __call__(self, x: float, pos: int | None = None) -> str:
        text = f"{x:.{self.places}f}"
        if float(text) == 0:
            text = text.lstrip("-")  # no "-0%"
        return f"{text}%"


def _percent_axis(ax, axis: str = "y", decimals: int = 0) -> None:
    fmt = TickPercent(decimals)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)
    ax.grid(True, axis=axis, color="#dddddd", linewidth=0.7)
    ax.set_axisbelow(True)


def _err(frame: pl.DataFrame) -> np.ndarray:
    rate = frame["rate"].to_numpy()
    return 100 * np.vstack([rate - frame["lower"].to_numpy(), frame["upper"].to_numpy() - rate])


def _series_legend(fig: Figure, series: Sequence[str]) -> None:
    if len(series) > 1:
        handles = [
            fig.axes[0].plot([], [], "o-", color=SERIES_COLORS[i % len(SERIES_COLORS)])[0]
            for i in range(len(series))
        ]
        legend_below(fig, handles, series)


def rates_by_players(
    frame: pl.DataFrame, by: str, order: Sequence[str], label, title: str
) -> Figure:
    """One panel per `by` value (side or role), x = players, one line per series, with
    intervals, every panel on one y scale; a dashed line at the even share when the frame
    has `even_share`."""
    frame = with_series(frame)
    groups = [g for g in order if g in set(frame[by])]
    series = frame["series"].unique(maintain_order=True).to_list()
    # one y scale for every panel: a small difference never looks as large as a big one
    fig, axes = _figure(len(groups), 4, 2.7, 2.9, sharey=True)
    for ax, group in zip(axes, groups, strict=True):
        part = frame.filter(pl.col(by) == group)
        for i, name in enumerate(series):
            rows = part.filter(pl.col("series") == name).sort("players")
            if rows.height == 0:
                continue
            color = SERIES_COLORS[i % len(SERIES_COLORS)] if len(series) > 1 else None
            color = color or (SIDE_COLORS | ROLE_COLORS).get(group, UP)
            x = rows["players"].to_numpy() + (i - (len(series) - 1) / 2) * 0.06
            ax.errorbar(
                x,
                100 * rows["rate"].to_numpy(),
                yerr=_err(rows),
                fmt="o-",
                color=color,
                capsize=3,
                markersize=4,
                linewidth=1.5,
            )
        if "even_share" in part.columns:
            for even in part["even_share"].unique().to_list():
                ax.axhline(100 * even, color="#999999", linestyle="--", linewidth=1)
        ax.set_title(  # one line per theme
            wrap(label(group).replace(" / ", "\n"), _panel_width(ax), STYLE["axes.titlesize"])
        )
        ax.set_xlabel("players at the table")
        counts = sorted(part["players"].unique().to_list())
        ax.set_xticks(counts)
        ax.set_xlim(counts[0] - 0.5, counts[-1] + 0.5)
        _percent_axis(ax, decimals=0)
    axes[0].set_ylabel("win rate")
    _title(fig, title)
    _series_legend(fig, series)
    return fig


def side_rates_chart(sides: pl.DataFrame, names: Names) -> Figure:
    """Win rate of each side by player count; dashed: an even share (1 / sides)."""
    return rates_by_players(
        sides,
        "side",
        vocab.WINNERS,
        names.side,
        "Win rate by side and player count (95% intervals; dashed: an even share)",
    )


def role_rates_chart(roles: pl.DataFrame, names: Names) -> Figure:
    """Win rate of each role by player count."""
    return rates_by_players(
        roles, "role", vocab.ROLES, names.role, "Win rate by role and player count (95% intervals)"
    )


def grouped_bars(
    frame: pl.DataFrame,
    panel: str,
    group: str,
    order: Sequence[str],
    label,
    title: str,
    bar: str = "series",
) -> Figure:
    """Side-by-side bars: one panel per `panel` value, groups of bars per `group` value,
    one bar (colour) per `bar` value, with intervals."""
    panels = frame[panel].unique(maintain_order=True).to_list()
    bars = frame[bar].unique(maintain_order=True).to_list()
    groups_most = max(frame.filter(pl.col(panel) == p)[group].n_unique() for p in panels)
    panel_w = min(MAX_WIDTH, max(3.4, 0.3 * len(bars) * groups_most + 1.2))
    fig, axes = _figure(len(panels), 4, panel_w, 3.0, sharey=True)  # one scale, as above
    width = 0.8 / max(1, len(bars))
    for ax, value in zip(axes, panels, strict=True):
        part = frame.filter(pl.col(panel) == value)
        groups = [g for g in order if g in set(part[group])]
        for i, name in enumerate(bars):
            rows = part.filter(pl.col(bar) == name)
            xs, ys, errs = [], [], []
            for j, g in enumerate(groups):
                row = rows.filter(pl.col(group) == g)
                if row.height:
                    xs.append(j + (i - (len(bars) - 1) / 2) * width)
                    ys.append(100 * row["rate"][0])
                    errs.append(_err(row)[:, 0])
            if xs:
                ax.bar(
                    xs,
                    ys,
                    width * 0.95,
                    yerr=np.array(errs).T,
                    capsize=2,
                    color=SERIES_COLORS[i % len(SERIES_COLORS)],
                    label=name,
                )
        ax.set_xticks(
            range(len(groups)),
            [label(g).replace(" / ", "\n") for g in groups],
            rotation=20,
            ha="right",
        )
        ax.set_title(wrap(str(value), panel_w * 0.85, STYLE["axes.titlesize"]))
        _percent_axis(ax, decimals=0)
    axes[0].set_ylabel("win rate")
    _title(fig, title)
    legend_below(fig, *axes[0].get_legend_handles_labels())
    return fig


def series_bars_chart(sides: pl.DataFrame, names: Names) -> Figure:
    """Side win rates side by side per series (theme / strategy / override): small
    multiples, one row of panels per player count and one column per side, a bar per
    series named on its axis (no legend), on one shared percent scale."""
    frame = with_series(sides).sort("players")
    series = sorted(frame["series"].unique().to_list())
    counts = frame["players"].unique().sort().to_list()
    sides_shown = [s for s in vocab.WINNERS if s in set(frame["side"])]
    fig, axes = _figure(
        len(counts) * len(sides_shown),
        len(sides_shown),
        MAX_WIDTH / len(sides_shown),  # the series' names take the first column's share
        0.22 * len(series) + 0.9,
        sharex=True,
        sharey=True,
    )
    y = np.arange(len(series))
    for k, ax in enumerate(axes):
        players, side = counts[k // len(sides_shown)], sides_shown[k % len(sides_shown)]
        part = frame.filter((pl.col("players") == players) & (pl.col("side") == side))
        index = {name: i for i, name in enumerate(series)}
        rows = part.filter(pl.col("series").is_in(series))
        ys = [index[name] for name in rows["series"].to_list()]
        ax.barh(
            ys,
            100 * rows["rate"].to_numpy(),
            0.75,
            xerr=_err(rows),
            capsize=2,
            color=[SERIES_COLORS[i % len(SERIES_COLORS)] for i in ys],
        )
        for even in part["even_share"].unique().to_list():
            ax.axvline(100 * even, color="#999999", linestyle="--", linewidth=1)
        ax.set_yticks(y, series)
        if k == 0:  # shared: top to bottom in the order of the grid at a glance
            ax.invert_yaxis()
        heading = names.side(side) if len(names.roles) == 1 else SIDE_HEADINGS[side]
        ax.set_title(wrap(f"{players} players: {heading}", _panel_width(ax), 9.5), fontsize=9.5)
        _percent_axis(ax, axis="x", decimals=0)
    _title(fig, "Side win rates by configuration (95% intervals; dashed: an even share)")
    return fig


def forest(
    frame: pl.DataFrame, label: str, title: str, xlabel: str, ax=None, ordered: bool = False
) -> Figure | None:
    """Horizontal effects with 95% intervals, one row per `label`, largest on top (ordered:
    the frame's first row on top), coloured by the Holm flag; draws into `ax` when given."""
    frame = frame.reverse() if ordered else frame.sort("effect")
    own = ax is None
    if own:
        fig = Figure(figsize=(7.5, 0.3 * frame.height + 1.4), layout="constrained")
        ax = fig.subplots()
    y = np.arange(frame.height)
    effect = 100 * frame["effect"].to_numpy()
    colors = [
        (UP if e > 0 else DOWN) if s else FLAT
        for e, s in zip(effect, frame["significant"].to_list(), strict=True)
    ]
    ax.axvline(0, color="#444444", linewidth=1)
    ax.hlines(
        y,
        100 * frame["effect_lower"].to_numpy(),
        100 * frame["effect_upper"].to_numpy(),
        colors=colors,
        linewidth=1.6,
    )
    ax.scatter(effect, y, c=colors, s=22, zorder=3)
    ax.set_yticks(y, frame[label].cast(pl.String).to_list())
    width = ax.figure.get_figwidth() * 0.85 if own else _panel_width(ax)
    ax.set_xlabel(wrap(xlabel, width))
    ax.grid(True, axis="x", color="#dddddd", linewidth=0.7)
    ax.set_axisbelow(True)
    ax.set_title(wrap(title, width, STYLE["axes.titlesize"]))
    return fig if own else None


def levels_chart(groups: Sequence, names: Names) -> Figure:
    """Strategy levels in one chart (reports.levels.LevelGroup): a row of panels per theme
    (with its pool, feature or overrides), a panel per side, x = players at the table, a
    line per strategy level with 95% intervals, every panel on one y scale."""
    from simcore.engine.request import split_label

    rows = []
    for g in groups:
        for lv in g.levels:
            parts = split_label(lv["config"])
            series = "/".join([parts.theme, *parts.extras])
            for side, r in lv["sides"].items():
                rows.append((series, parts.theme, int(parts.players[:-1]), lv["strategy"], side,
                             r["rate"], r["lower"], r["upper"]))  # fmt: skip
    frame = pl.DataFrame(
        rows,
        schema=["series", "theme", "players", "strategy", "side", "rate", "lower", "upper"],
        orient="row",
    )
    series = frame["series"].unique(maintain_order=True).to_list()
    levels = frame["strategy"].unique(maintain_order=True).to_list()
    sides = [s for s in vocab.WINNERS if s in set(frame["side"])]
    fig, axes = _figure(len(series) * len(sides), len(sides), 3.4, 2.3, sharey=True)
    for k, (name, side) in enumerate((n, s) for n in series for s in sides):
        ax = axes[k]
        part = frame.filter((pl.col("series") == name) & (pl.col("side") == side))
        for i, level in enumerate(levels):
            r = part.filter(pl.col("strategy") == level).sort("players")
            if r.height:
                ax.errorbar(
                    r["players"].to_numpy() + (i - (len(levels) - 1) / 2) * 0.08,
                    100 * r["rate"].to_numpy(), yerr=_err(r), fmt="o-", markersize=3,
                    capsize=2, color=SERIES_COLORS[i % len(SERIES_COLORS)], linewidth=1.2,
                )  # fmt: skip
        theme = part["theme"][0] if part.height else None
        ax.set_title(wrap(f"{name}: {names.side(side, theme)}", _panel_width(ax),
                          STYLE["axes.titlesize"]))  # fmt: skip
        ax.set_xticks(sorted(part["players"].unique().to_list()))
        _percent_axis(ax, decimals=0)
    handles = [axes[0].plot([], [], "o-", color=SERIES_COLORS[i % len(SERIES_COLORS)])[0]
               for i in range(len(levels))]  # fmt: skip
    legend_below(fig, handles, levels)
    _title(fig, "Side win rates by strategy level and players at the table (95% intervals)")
    return fig


def character_dots(characters: pl.DataFrame, series: str) -> Figure:
    """Every character of one series (theme / strategy / variant) at a glance: its
    role-adjusted effect at each player count, a dot per count (filled where
    Holm-significant), characters strongest first (mean over the counts)."""
    part = with_series(characters).filter(pl.col("series") == series)
    order = (
        part.group_by("character").agg(pl.col("effect").mean()).sort("effect")["character"]
    ).to_list()
    counts = part["players"].unique().sort().to_list()
    fig, axes = _figure(1, 1, 6.5, 0.24 * len(order) + 1.2)
    ax = axes[0]
    y = {c: i for i, c in enumerate(order)}
    handles = []
    for k, n in enumerate(counts):
        rows = part.filter(pl.col("players") == n)
        color = SERIES_COLORS[k % len(SERIES_COLORS)]
        ys = [y[c] + (k - (len(counts) - 1) / 2) * 0.12 for c in rows["character"]]
        sig = rows["significant"].to_numpy()
        x = 100 * rows["effect"].to_numpy()
        ax.scatter(x[sig], np.asarray(ys)[sig], color=color, s=18, zorder=3)
        ax.scatter(x[~sig], np.asarray(ys)[~sig], facecolors="none", edgecolors=color, s=18, zorder=3)  # fmt: skip
        handles.append(ax.scatter([], [], color=color, s=18))
    ax.axvline(0, color="#999999", linewidth=1)
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("win rate minus the rate expected from its roles (points)")
    legend_below(fig, handles, [f"{n} players" for n in counts])
    _title(fig, wrap(f"{series}: character strength by player count (filled: beyond luck)",
                     80, STYLE["axes.titlesize"]))  # fmt: skip
    return fig


def win_round_chart(rounds: pl.DataFrame, names: Names, config: str) -> Figure:
    """When each side wins, in one configuration: the share of that side's wins won in each
    round, one line per side on one shared scale (the legend gives each side's wins)."""
    part = rounds.filter(pl.col("config") == config)
    theme = part["theme"][0] if part.height else None
    fig, axes = _figure(1, 1, 5.5, 3.0)
    ax = axes[0]
    handles, labels = [], []
    for side in vocab.WINNERS:
        rows = part.filter(pl.col("side") == side).sort("rounds")
        if rows.height == 0:
            continue
        (line,) = ax.step(
            rows["rounds"].to_numpy(), 100 * rows["share"].to_numpy(), where="mid",
            color=SIDE_COLORS[side], linewidth=1.4,
        )  # fmt: skip
        handles.append(line)
        labels.append(f"{names.side(side, theme)} ({int(rows['games'].sum()):,} wins)")
    ax.set_xlabel("round the game was won in")
    ax.set_ylabel("share of the side's wins")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _percent_axis(ax, decimals=0)
    legend_below(fig, handles, labels)
    _title(fig, wrap(f"{config}: the round each side wins in", 70, STYLE["axes.titlesize"]))
    return fig


def skill_chart(table: pl.DataFrame, role_names: dict[str, str], title: str) -> Figure:
    """Skill depth (simcore.studies.skill): each role's win rate at each strategy level,
    weakest first, one line per role with 95% intervals, on one scale."""
    levels = table.sort("rank")["level"].unique(maintain_order=True).to_list()
    fig, axes = _figure(1, 1, 5.5, 3.2)
    ax = axes[0]
    handles, labels = [], []
    for role in vocab.ROLES:
        rows = table.filter(pl.col("role") == role).sort("rank")
        if rows.height == 0:
            continue
        line = ax.errorbar(
            rows["rank"].to_numpy(), 100 * rows["rate"].to_numpy(), yerr=_err(rows),
            fmt="o-", color=ROLE_COLORS[role], capsize=3, markersize=4,
        )  # fmt: skip
        handles.append(line.lines[0])
        labels.append(role_names[role])
    ax.set_xticks(range(len(levels)), levels)
    ax.set_xlabel("strategy level of the role's seats (the others: the field)")
    ax.set_ylabel("win rate")
    _percent_axis(ax, decimals=0)
    legend_below(fig, handles, labels)
    _title(fig, wrap(title, 70, STYLE["axes.titlesize"]))
    return fig


def knockout_chart(table: pl.DataFrame, side_name, title: str) -> Figure:
    """Which card tips the balance (simcore.studies.cards): a panel per side, a row per card
    in the table's order (largest effect first, the same in every panel), its knock-out
    effect with the paired 95% interval on one shared scale; blue or red where the interval
    excludes 0. side_name names a side (Names.side of the theme)."""
    sides = list(dict.fromkeys(table["side"]))
    cards = table["card"].n_unique()
    fig, axes = _figure(len(sides), 3, 3.6, 0.24 * cards + 1.2, sharex=True, sharey=True)
    for ax, side in zip(axes, sides, strict=True):
        rows = table.filter(pl.col("side") == side).with_columns(
            ((pl.col("effect_lower") > 0) | (pl.col("effect_upper") < 0)).alias("significant")
        )
        forest(rows, "card", side_name(side), "points without the card", ax=ax, ordered=True)
    _title(fig, title)
    return fig


def seat_chart(seats: pl.DataFrame, names: Names) -> Figure:
    """Win rate by seat (clockwise from the leader) per role, one panel per configuration,
    on one shared percent scale."""
    configs = seats["config"].unique(maintain_order=True).to_list()
    fig, axes = _figure(len(configs), 4, 2.75, 2.9, sharey=True)
    themes = seats["theme"].unique().to_list()
    for ax, config in zip(axes, configs, strict=True):
        part = seats.filter(pl.col("config") == config)
        theme = part["theme"][0]
        for role in vocab.ROLES:
            rows = part.filter(pl.col("role") == role).sort("seat")
            if rows.height:
                ax.errorbar(
                    rows["seat"].to_numpy(),
                    100 * rows["rate"].to_numpy(),
                    yerr=_err(rows),
                    fmt="o-",
                    color=ROLE_COLORS[role],
                    capsize=3,
                    markersize=4,
                )
        ax.set_title(wrap(config, _panel_width(ax), STYLE["axes.titlesize"]))
        ax.set_xlabel(wrap(f"seats clockwise from the {names.role('leader', theme)}",
                           _panel_width(ax)))  # fmt: skip
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        _percent_axis(ax, decimals=0)
    axes[0].set_ylabel("win rate")
    roles = [r for r in vocab.ROLES if r in set(seats["role"])]
    handles = [axes[0].plot([], [], "o-", color=ROLE_COLORS[r])[0] for r in roles]
    theme = themes[0] if len(themes) == 1 else None
    legend_below(fig, handles, [names.role(r, theme) for r in roles])
    _title(fig, "Win rate by seat and role (95% intervals)")
    return fig


def length_chart(histogram: pl.DataFrame, lengths: pl.DataFrame) -> Figure:
    """Distribution of game length in turns: small multiples, one panel per series (theme /
    strategy / overrides), one line per player count, on shared axes."""
    histogram = with_series(histogram)
    top = int(histogram["turns"].max() or 1)
    width = max(1, math.ceil(top / 80))
    stats = {r["config"]: r for r in lengths.iter_rows(named=True)}
    series = sorted(histogram["series"].unique().to_list())
    counts = histogram["players"].unique().sort().to_list()
    fig, axes = _figure(len(series), 4, 2.75, 2.6, sharex=True, sharey=True)
    right = width
    for ax, name in zip(axes, series, strict=True):
        part = histogram.filter(pl.col("series") == name)
        for i, players in enumerate(counts):
            rows = part.filter(pl.col("players") == players)
            if rows.height == 0:
                continue
            bins = np.bincount(
                rows["turns"].to_numpy() // width,
                weights=rows["games"].to_numpy(),
                minlength=top // width + 1,
            )
            share = 100 * bins / bins.sum() / width
            # show up to where 99.5% of every configuration's games have ended
            right = max(right, (np.searchsorted(np.cumsum(bins) / bins.sum(), 0.995) + 2) * width)
            ax.step(
                np.arange(len(share)) * width,
                share,
                where="post",
                linewidth=1.3,
                color=SERIES_COLORS[i % len(SERIES_COLORS)],
            )
        capped = sum(stats[c]["capped"] for c in part["config"].unique().to_list())
        note = f"\n({capped:,} games capped)" if capped else ""
        ax.set_title(wrap(name, _panel_width(ax), STYLE["axes.titlesize"]) + note)
        ax.set_xlabel("turns (every player's)")
        _percent_axis(ax, decimals=1)
    axes[0].set_xlim(0, right)
    axes[0].set_ylabel("share of games per turn")
    handles = [
        axes[0].plot([], [], "-", color=SERIES_COLORS[i % len(SERIES_COLORS)])[0]
        for i in range(len(counts))
    ]
    legend_below(fig, handles, [f"{n} players" for n in counts])
    _title(fig, "Game length")
    return fig


def difference_chart(frame: pl.DataFrame, label: str, title: str) -> Figure:
    """Differences (run minus baseline) with 95% intervals, one panel per `panel` value."""
    panels = frame["panel"].unique(maintain_order=True).to_list()
    height = max(frame.filter(pl.col("panel") == p).height for p in panels)
    fig, axes = _figure(len(panels), 3, 4.2, 0.3 * height + 1.3)
    for ax, value in zip(axes, panels, strict=True):
        forest(
            frame.filter(pl.col("panel") == value),
            label,
            str(value),
            "difference (percentage points)",
            ax=ax,
        )
    fig.suptitle(title)
    return fig
