"""Report charts: matplotlib figures on the Agg canvas (no pyplot, no global state) -> PNG.

Each function takes collected report tables (`reports.aggregate`) and `Names`, and returns
a `Figure`; `png` renders one. Rates are drawn in percent, effects in percentage points,
with 95% intervals as error bars, and labels in the theme's own role and character names.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, MaxNLocator

from reports.names import Names
from simcore.engine import vocab

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


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (Agg canvas)."""
    FigureCanvasAgg(fig)
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


def _figure(panels: int, ncols: int, panel_w: float, panel_h: float) -> tuple[Figure, list]:
    ncols = max(1, min(ncols, panels))
    nrows = math.ceil(panels / ncols)
    width = max(panel_w * ncols, 7.0)  # room for the title above even a single panel
    fig = Figure(figsize=(width, panel_h * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel().tolist()
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
        self.ticks: list[float] = []

    def set_locs(self, locs) -> None:  # the axis passes its tick positions before labelling
        self.ticks = list(locs)

    def _places(self) -> int:
        locs = np.asarray(self.ticks, dtype=float)
        if locs.size < 2:
            return self.decimals
        step = float(np.min(np.diff(np.sort(locs))))
        for places in range(self.decimals, self.MAX_DECIMALS + 1):
            if np.all(np.abs(np.round(locs, places) - locs) <= 1e-6 * max(step, 1e-12)):
                return places
        return self.MAX_DECIMALS

    def __call__(self, x: float, pos: int | None = None) -> str:
        text = f"{x:.{self._places()}f}"
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
        fig.legend(handles, series, loc="outside lower center", ncols=min(4, len(series)))


def rates_by_players(
    frame: pl.DataFrame, by: str, order: Sequence[str], label, title: str
) -> Figure:
    """One panel per `by` value (side or role), x = players, one line per series, with
    intervals; a dashed line at the even share when the frame has `even_share`."""
    frame = with_series(frame)
    groups = [g for g in order if g in set(frame[by])]
    series = frame["series"].unique(maintain_order=True).to_list()
    fig, axes = _figure(len(groups), 4, 3.0, 2.9)
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
        ax.set_title(label(group).replace(" / ", "\n"))  # one line per theme
        ax.set_xlabel("players at the table")
        counts = sorted(part["players"].unique().to_list())
        ax.set_xticks(counts)
        ax.set_xlim(counts[0] - 0.5, counts[-1] + 0.5)
        _percent_axis(ax, decimals=0)
    axes[0].set_ylabel("win rate")
    fig.suptitle(title)
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
    fig, axes = _figure(len(panels), 4, max(3.4, 0.3 * len(bars) * groups_most + 1.2), 3.0)
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
        ax.set_title(str(value))
        _percent_axis(ax, decimals=0)
    axes[0].set_ylabel("win rate")
    fig.suptitle(title)
    fig.legend(
        *axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=min(4, len(bars))
    )
    return fig


def series_bars_chart(sides: pl.DataFrame, names: Names) -> Figure:
    """Side win rates side by side per theme / strategy / override, one panel per player count."""
    frame = with_series(sides).with_columns(
        (pl.col("players").cast(pl.String) + " players").alias("table")
    )
    return grouped_bars(
        frame.sort("players"),
        "table",
        "side",
        vocab.WINNERS,
        names.side,
        "Side win rates by configuration (95% intervals)",
    )


def effect_heatmap(
    character_roles: pl.DataFrame, characters: pl.DataFrame, names: Names, config: str
) -> Figure:
    """Character x role effects (percentage points) for one configuration; * = Holm-significant.
    Rows ordered by the overall effect, strongest on top."""
    cells = character_roles.filter(pl.col("config") == config)
    theme = cells["theme"][0]
    rows = characters.filter(pl.col("config") == config).sort("effect", descending=True)
    chars = rows["character"].to_list()
    roles = [r for r in vocab.ROLES if r in set(cells["role"])]
    values = np.full((len(chars), len(roles)), np.nan)
    flags = np.zeros_like(values, dtype=bool)
    index = {c: i for i, c in enumerate(chars)}
    for row in cells.iter_rows(named=True):
        i, j = index[row["character"]], roles.index(row["role"])
        values[i, j] = 100 * row["effect"]
        flags[i, j] = row["significant"]
    limit = max(1.0, float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else 1.0)
    fig = Figure(figsize=(1.5 * len(roles) + 3.4, 0.34 * len(chars) + 1.6), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(values, cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            color = "white" if abs(v) > 0.6 * limit else "#222222"
            ax.text(
                j,
                i,
                f"{v:+.1f}{'*' if flags[i, j] else ''}",
                ha="center",
                va="center",
                fontsize=8.5,
                color=color,
            )
    ax.set_xticks(range(len(roles)), [names.role(r, theme) for r in roles])
    ax.set_yticks(range(len(chars)), chars)
    ax.tick_params(length=0)
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label("win rate minus the role's (percentage points)")
    ax.set_title(f"{config}: character effect within each role (* Holm-significant)")
    return fig


def forest(frame: pl.DataFrame, label: str, title: str, xlabel: str, ax=None) -> Figure | None:
    """Horizontal effects with 95% intervals, one row per `label`, largest on top, coloured
    by the Holm flag; draws into `ax` when given."""
    frame = frame.sort("effect")
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
    ax.set_xlabel(xlabel)
    ax.grid(True, axis="x", color="#dddddd", linewidth=0.7)
    ax.set_axisbelow(True)
    ax.set_title(title)
    return fig if own else None


def effect_forest(characters: pl.DataFrame, config: str) -> Figure:
    """Each character's role-adjusted effect in one configuration, with 95% intervals."""
    return forest(
        characters.filter(pl.col("config") == config),
        "character",
        f"{config}: character strength (blue/red: Holm-significant)",
        "win rate minus the rate expected from its roles (percentage points)",
    )


def seat_chart(seats: pl.DataFrame, names: Names) -> Figure:
    """Win rate by seat (clockwise from the leader) per role, one panel per configuration."""
    configs = seats["config"].unique(maintain_order=True).to_list()
    fig, axes = _figure(len(configs), 4, 3.2, 2.9)
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
        ax.set_title(config)
        ax.set_xlabel(f"seats clockwise from the {names.role('leader', theme)}")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        _percent_axis(ax, decimals=0)
    axes[0].set_ylabel("win rate")
    roles = [r for r in vocab.ROLES if r in set(seats["role"])]
    handles = [axes[0].plot([], [], "o-", color=ROLE_COLORS[r])[0] for r in roles]
    fig.legend(
        handles, [names.role(r) for r in roles], loc="outside lower center", ncols=len(roles)
    )
    fig.suptitle("Win rate by seat and role (95% intervals)")
    return fig


def length_chart(histogram: pl.DataFrame, lengths: pl.DataFrame) -> Figure:
    """Distribution of game length in turns, one line per configuration."""
    fig = Figure(figsize=(9.0, 3.8), layout="constrained")
    ax = fig.subplots()
    top = int(histogram["turns"].max() or 1)
    width = max(1, math.ceil(top / 80))
    stats = {r["config"]: r for r in lengths.iter_rows(named=True)}
    configs = histogram["config"].unique(maintain_order=True).to_list()
    right = width
    for i, config in enumerate(configs):
        rows = histogram.filter(pl.col("config") == config)
        counts = np.bincount(
            rows["turns"].to_numpy() // width,
            weights=rows["games"].to_numpy(),
            minlength=top // width + 1,
        )
        share = 100 * counts / counts.sum() / width
        # show up to where 99.5% of every configuration's games have ended
        right = max(right, (np.searchsorted(np.cumsum(counts) / counts.sum(), 0.995) + 2) * width)
        s = stats[config]
        note = f"median {s['median']}" + (f", {s['capped']:,} capped" if s["capped"] else "")
        ax.step(
            np.arange(len(share)) * width,
            share,
            where="post",
            linewidth=1.4,
            color=SERIES_COLORS[i % len(SERIES_COLORS)],
            label=f"{config} ({note})",
        )
    ax.set_xlabel("game length (turns, all players' turns counted)")
    ax.set_ylabel("share of games per turn")
    _percent_axis(ax, decimals=1)
    ax.set_xlim(0, right)
    ax.legend(fontsize=8)
    ax.set_title("Game length")
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
