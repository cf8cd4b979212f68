"""Every chart of the report fits its figure: each text artist drawn (titles, labels, tick
labels, legend entries) lies inside the figure, and rendering raises no warning
(matplotlib's "constrained_layout not applied" among them); the heat tables of character
effects share one colour scale.
Checked on the default experiment at a few games per cell (32 configurations: four themes,
4 to 7 players, two strategies) and on an experiment with two overrides (four cells)."""

import sys
import warnings
from unittest.mock import patch

import polars as pl
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from reports import charts
from reports.grid import heat_limit, shade
from reports.report import DRAWN_APART_FROM, drawn, heat_tables, load_report, site_figures
from simcore.engine import vocab
from simcore.runs.experiment import execute_experiment, plan_experiment

TWO_OVERRIDES = """
[experiment]
title = "Paul Regret's life and the Missed! count"
games = 120
seed = 5

[grid]
themes = ["classic"]
players = [5]
strategies = ["smart"]

[overrides]
characters."Paul Regret".life = [3, 4]
cards."Missed!".extra_copies = [0, 4]
"""
SLACK = 1.0  # pixels: rounding of a text's extent


def misfits(fig: Figure) -> tuple[list[str], list[str]]:
    """Render `fig` as the report does (charts.png); the texts drawn outside the figure
    and the warnings raised."""
    outside = []
    draw = Text.draw

    def checked_draw(text: Text, renderer) -> None:
        draw(text, renderer)
        if not (text.get_visible() and text.get_text().strip()):
            return
        box, frame = text.get_window_extent(renderer), text.get_figure(root=True).bbox
        if (
            box.x0 < frame.x0 - SLACK
            or box.y0 < frame.y0 - SLACK
            or box.x1 > frame.x1 + SLACK
            or box.y1 > frame.y1 + SLACK
        ):
            where = f"{text.get_text()!r} at {box.bounds} in {frame.bounds}"
            if where not in outside:  # a figure may be drawn twice (layout, then pixels)
                outside.append(where)

    with patch.object(Text, "draw", checked_draw), warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        charts.png(fig)
    return outside, [str(w.message) for w in seen]


def check_every_chart(figures) -> int:
    """Every figure checked; how many."""
    problems, count = [], 0
    for name, _alt, draw in figures:
        outside, warned = misfits(draw())
        problems += [f"{name}: {text} outside the figure" for text in outside]
        problems += [f"{name}: warning {text}" for text in warned]
        count += 1
    assert problems == []
    return count


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("default") / "run"
    execute_experiment(plan_experiment("default", out, games=40), progress=False)
    return load_report(out)


@pytest.fixture(scope="module")
def overrides_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("overrides")
    (root / "two.toml").write_text(TWO_OVERRIDES)
    execute_experiment(plan_experiment(root / "two.toml", root / "run"), progress=False)
    return load_report(root / "run")


def test_every_chart_of_the_default_experiment_fits(default_run):
    assert len(default_run.configs) == 32
    # the index's four (sides, roles, compared, length), the strategy levels' and a
    # character dot plot per series of the stronger level (4: four themes under tuned), then
    # per configuration of that level (16: smart's pages link there) its seats and the
    # rounds each side wins in
    assert check_every_chart(site_figures(default_run)) == 4 + 1 + 4 + 2 * 16
    # the one-page form shows the same charts but for the seats of all 32 in one
    assert check_every_chart([whole_seats(default_run)]) == 1


def test_heat_tables_show_each_effect_in_one_colour_on_every_page(default_run):
    """A row per character, strongest on top: its strength, then a cell per role dealt, each
    effect as the characters and character x role tables have it; one scale for the run,
    full colour at its largest effect."""
    t = default_run.tables
    tables = heat_tables(default_run)
    limit = heat_limit(t["character_roles"], t["characters"])
    assert set(tables) == set(default_run.configs)
    assert all(h.limit == limit for h in tables.values())
    shown = [c for h in tables.values() for row in h.rows for c in [row.overall, *row.cells] if c]
    assert len(shown) == t["character_roles"].height + t["characters"].height
    assert max(abs(c.effect) for c in shown) == pytest.approx(limit)
    full = [c for c in shown if abs(c.effect) == limit]
    assert full and all(c.background in (shade(1.0), shade(-1.0)) for c in full)
    for config, h in tables.items():
        roles = t["character_roles"].filter(pl.col("config") == config)
        strength = (
            t["characters"].filter(pl.col("config") == config).sort("effect", descending=True)
        )
        assert [r for r in vocab.ROLES if r in set(roles["role"])] == h.roles
        assert [row.character for row in h.rows] == strength["character"].to_list()
        rows = {row.character: row for row in h.rows}
        for r in strength.iter_rows(named=True):
            assert (rows[r["character"]].overall.effect, rows[r["character"]].overall.significant) == (
                r["effect"], r["significant"])  # fmt: skip
        for r in roles.iter_rows(named=True):
            cell = rows[r["character"]].cells[h.roles.index(r["role"])]
            assert (cell.effect, cell.significant) == (r["effect"], r["significant"])
            assert cell.background == shade(r["effect"] / limit)
            assert cell.text.endswith("*") == r["significant"]


def test_every_chart_of_a_two_override_experiment_fits(overrides_run):
    configs = overrides_run.configs
    assert len(configs) == 4 and all("Paul Regret" in c and "Missed!" in c for c in configs)
    assert check_every_chart(site_figures(overrides_run)) == 4 + 4 + 2 * 4  # 4 series
    assert check_every_chart([whole_seats(overrides_run)]) == 1


def test_charts_drawn_in_worker_processes_are_the_charts_drawn_here(overrides_run):
    """A report of DRAWN_APART_FROM charts or more draws them in spawned worker processes:
    the same PNG bytes, in the same order, as drawn one by one here."""
    apart = drawn(site_figures(overrides_run), workers=2)
    here = drawn(site_figures(overrides_run), workers=1)
    assert len(apart) >= DRAWN_APART_FROM
    assert [(c.name, c.png) for c in apart] == [(c.name, c.png) for c in here]


def test_charts_a_worker_cannot_draw_are_drawn_here(overrides_run, monkeypatch):
    """Workers that cannot start (here: an interpreter that exits at once) leave every
    chart to this process: the same charts, no error."""
    here = drawn(site_figures(overrides_run), workers=1)
    monkeypatch.setattr(sys, "executable", "/bin/false")
    assert [c.png for c in drawn(site_figures(overrides_run), workers=2)] == [c.png for c in here]


def whole_seats(report):
    """The one page's only chart the pages do not have: the seats of every configuration
    as small multiples (reports.report.single_page_figures)."""
    return "seats", "", lambda: charts.seat_chart(report.tables["seats"], report.names)


def test_the_check_catches_a_clipped_label_and_a_layout_warning():
    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.subplots()
    ax.set_title("a title far too long to fit a figure three inches wide, cut at both ends")
    outside, warned = misfits(fig)
    assert len(outside) == 1 and "far too long" in outside[0] and warned == []
    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.subplots()
    ax.plot([0, 1], label="x")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", fontsize=90)
    assert any("constrained_layout not applied" in w for w in misfits(fig)[1])


def test_the_balance_front_draws_intervals_that_do_not_hold_their_point():
    """A bootstrap interval of a distance need not hold the point (a variant at 0.0 points
    from its targets had [0.4, 9.8] on 100 deals): the front chart draws each interval from
    its own ends instead of failing on negative error bars."""
    from types import SimpleNamespace

    from matplotlib.collections import LineCollection

    from reports.balance import front_chart

    variants = [
        SimpleNamespace(
            name="printed", changes=0, distance=0.08, distance_lower=0.006, distance_upper=0.192
        ),
        SimpleNamespace(
            name="1-change", changes=1, distance=0.0, distance_lower=0.004, distance_upper=0.098
        ),
    ]
    fig = front_chart(SimpleNamespace(variants=variants, chosen=0))
    (bars,) = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
    ends = [end for seg in bars.get_segments() for end in (seg[0][1], seg[1][1])]
    assert ends == pytest.approx([0.6, 19.2, 0.4, 9.8])
