"""The report's card-usage, draw! and event tables against hand-computed values, the grid at
the top of the page and in the terminal, and chart tick labels that tell ticks apart."""

import math
import re
import shutil

import polars as pl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from typer.testing import CliRunner

from reports import charts
from reports.events import collect_event_cells, event_tables
from reports.grid import FULL_COLOUR_AT, grid_text, side_grid
from reports.names import load_names
from reports.report import load_report, render_report
from simcore.cli import app
from simcore.engine.event_rows import KEYS, used_column
from simcore.engine.events import event_names
from simcore.engine.rows import SEAT_SCHEMA
from simcore.runs.cells import cells_of
from simcore.runs.runfolder import run_study
from simcore.stats import Z95, wilson_interval

runner = CliRunner()
CONFIG = "classic/4p/basic"
ROLES = ("leader", "renegade", "outlaw", "outlaw")
# two games; per game: the uses of each (role, card) summed over the role's seats
USED = {
    ("leader", "BANG!"): [2, 0],
    ("outlaw", "BANG!"): [1, 3],
    ("renegade", "BANG!"): [0, 0],
    ("leader", "Beer"): [1, 1],
}
COUNTS = {
    "barrel_checks": [3, 1],
    "barrel_passed": [1, 1],
    "barrel_revealed": [4, 1],
    "barrel_revealed_passing": [1, 1],
    "barrel_expected_passing_ppm": [1_000_000, 250_000],
    "dynamite_passed": [0, 1],
    "dynamite_checks": [2, 1],
    "dynamite_revealed": [2, 1],
    "damage_bang": [2, 4],
    "damage_duel": [1, 0],
    "beer_saves": [1, 0],
}


def synthetic_run(folder):
    """A run folder by hand: two 4-player games (leader, renegade, two outlaws) whose leader
    wins the first; seat rows and one event file with the counts above."""
    rows = []
    for g, winner in enumerate(("leader", "outlaw")):
        for seat, role in enumerate(ROLES):
            won = role == winner
            rows.append((CONFIG, "classic", 4, g, seat, role, f"C{seat}", "basic", won, won,
                         winner, 30, 8, False, False))  # fmt: skip
    (folder / "seats").mkdir(parents=True)
    (folder / "events").mkdir()
    pl.DataFrame(rows, schema=SEAT_SCHEMA, orient="row").write_parquet(
        folder / "seats" / "c-00000.parquet"
    )
    events = {"config": [CONFIG] * 2, "theme": ["classic"] * 2, "players": [4, 4], "game": [0, 1]}
    events |= {name: COUNTS.get(name, [0, 0]) for name in event_names()}
    for role in ("leader", "deputy", "outlaw", "renegade"):
        for card in ("BANG!", "Beer"):
            events[used_column(role, card)] = USED.get((role, card), [0, 0])
    frame = pl.DataFrame(events).with_columns(
        *(pl.col(k).cast(t) for k, t in KEYS.items()),
        pl.exclude(*KEYS).cast(pl.UInt32),
    )
    frame.write_parquet(folder / "events" / "c-00000.parquet")
    return folder


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    run = synthetic_run(tmp_path_factory.mktemp("synthetic") / "run")
    cells = cells_of(pl.scan_parquet(run / "seats" / "*.parquet"))
    return event_tables(collect_event_cells(run), cells.seats, cells.games)


def mean_ci(values):
    """Mean and 95% normal interval of per-game values (sample sd)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)


def row(frame, **keys):
    [found] = frame.filter(**keys).iter_rows(named=True)
    return found


def test_card_usage_per_game_and_per_seat_of_each_role(tables):
    usage = tables["card_usage"]
    # BANG! first (6 uses), then Beer (2); all seats first, then the roles at the table
    assert usage.select("card", "role").rows() == [
        ("BANG!", "all"), ("BANG!", "leader"), ("BANG!", "outlaw"), ("BANG!", "renegade"),
        ("Beer", "all"), ("Beer", "leader"), ("Beer", "outlaw"), ("Beer", "renegade"),
    ]  # fmt: skip
    every = row(usage, card="BANG!", role="all")
    assert (every["seats"], every["games"], every["uses"]) == (4, 2, 6)
    assert (every["per_game"], every["per_game_lower"], every["per_game_upper"]) == (3, 3, 3)
    assert every["per_seat"] == pytest.approx(0.75)
    leader = row(usage, card="BANG!", role="leader")
    assert [leader[c] for c in ("per_game", "per_game_lower", "per_game_upper")] == pytest.approx(
        mean_ci([2, 0])
    )
    outlaws = row(usage, card="BANG!", role="outlaw")
    assert outlaws["seats"] == 2 and outlaws["uses"] == 4
    mean, lo, hi = mean_ci([1, 3])  # per game, both outlaws together; per seat: halved
    assert [outlaws[c] for c in ("per_game", "per_game_lower", "per_game_upper")] == pytest.approx(
        [mean, lo, hi]
    )
    assert [outlaws[c] for c in ("per_seat", "per_seat_lower", "per_seat_upper")] == pytest.approx(
        [mean / 2, lo / 2, hi / 2]
    )
    assert "deputy" not in set(usage["role"])  # no deputy at 4 players


def test_draw_checks_rates_have_wilson_intervals(tables):
    checks = tables["draw_checks"]
    assert checks["kind"].to_list() == ["barrel", "dynamite"]  # kinds never checked: left out
    barrel = row(checks, kind="barrel")
    assert (barrel["checks"], barrel["passed"], barrel["revealed"]) == (4, 2, 5)
    assert [barrel[c] for c in ("per_game", "per_game_lower", "per_game_upper")] == pytest.approx(
        mean_ci([3, 1])
    )
    assert barrel["pass_rate"] == 0.5
    assert (barrel["pass_lower"], barrel["pass_upper"]) == pytest.approx(wilson_interval(2, 4))
    assert barrel["card_rate"] == pytest.approx(2 / 5)
    assert (barrel["card_lower"], barrel["card_upper"]) == pytest.approx(wilson_interval(2, 5))
    assert barrel["expected_card_rate"] == pytest.approx(1.25 / 5)  # the piles' shares
    dynamite = row(checks, kind="dynamite")
    assert (dynamite["checks"], dynamite["passed"], dynamite["pass_rate"]) == (3, 1, 1 / 3)


def test_game_events_per_game(tables):
    events = tables["game_events"]
    total = row(events, event="damage_total")  # per game 3 and 4: summed before squaring
    assert total["total"] == 7
    assert [total[c] for c in ("per_game", "per_game_lower", "per_game_upper")] == pytest.approx(
        mean_ci([3, 4])
    )
    assert row(events, event="dynamite_explosions")["per_game"] == 0.5
    assert row(events, event="beer_saves")["total"] == 1
    assert events["event"].to_list()[:7] == [
        "damage_bang", "damage_duel", "damage_gatling", "damage_indians", "damage_dynamite",
        "damage_other", "damage_total",
    ]  # fmt: skip
    assert tables["event_games"].rows() == [(CONFIG, "classic", 4, 2)]


def sides(rates, config="classic/5p/smart", theme="classic", players=5, games=10_000):
    """A side_win_rates table for one configuration from its three rates."""
    frame = pl.DataFrame(
        {
            "config": config,
            "theme": theme,
            "players": players,
            "side": ["leader", "outlaw", "renegade"],
            "games": games,
            "wins": [round(r * games) for r in rates],
        }  # fmt: skip
    )
    lo, hi = wilson_interval(frame["wins"].to_numpy(), games)
    return frame.with_columns(
        rate=pl.col("wins") / games, lower=pl.Series(lo), upper=pl.Series(hi),
        even_share=pl.lit(1 / 3), vs_even=pl.col("wins") / games - 1 / 3,
    )  # fmt: skip


def test_grid_rows_are_series_and_columns_player_counts():
    table = pl.concat(
        [
            sides([0.34, 0.33, 0.33], "classic/4p/smart", players=4),
            sides([0.60, 0.30, 0.10], "classic/5p/smart"),
            sides([0.40, 0.45, 0.15], "walking_dead/5p/smart", "walking_dead"),
            sides([0.40, 0.45, 0.15], "classic/5p/basic"),
        ]
    )
    grid = side_grid(table)
    assert grid.rows == ["classic/basic", "classic/smart", "walking_dead/smart"]
    assert grid.columns == [4, 5] and grid.cell("walking_dead/smart", 4) == []
    even = grid.cell("classic/smart", 4)[0]
    high, _, low = grid.cell("classic/smart", 5)
    assert not even.significant and high.significant and low.significant
    assert not even.marked and high.marked and low.marked  # 27 and 23 points off
    near = side_grid(sides([0.36, 0.33, 0.31], games=100_000)).cell("classic/smart", 5)[0]
    assert near.significant and not near.marked  # 2.7 points off: beyond luck, not marked
    assert high.background.startswith("#") and high.background != low.background
    tint = bytes.fromhex(even.background[1:])
    assert min(tint) > 0xE0 and even.ink != "#ffffff"  # barely tinted near even
    far = sides([0.33 + FULL_COLOUR_AT, 0.33, 0.34 - FULL_COLOUR_AT])
    assert side_grid(far).cell("classic/smart", 5)[0].ink == "#ffffff"  # full colour: white ink

    names = load_names(["classic", "walking_dead"])
    text = grid_text(table, names, style=False)
    lines = text.splitlines()
    assert "even = a third each (33.3%)" in lines[0] and "L+D leader + deputies" in lines[0]
    assert lines[1].startswith("* more than 5 points from even, beyond luck")
    assert "4 players" in lines[2] and "5 players" in lines[2]
    smart = next(line for line in lines if line.startswith("classic/smart"))
    assert smart.split() == ["classic/smart", "34.0", "33.0", "33.0", "60.0*", "30.0", "10.0*"]
    assert "Survivors' Leader + Survivors · Saviors · Hilltop Loner" in text
    assert lines[-1] == "10,000 games per cell"
    assert "\x1b[34m" in grid_text(table, names)  # styled: blue above even


def test_role_chart_ticks_of_a_narrow_interval_are_distinct():
    roles = pl.DataFrame(
        {
            "config": "classic/5p/smart",
            "theme": "classic",
            "players": 5,
            "role": ["leader", "deputy"],
            "rate": [0.739, 0.738],
            "lower": [0.7362, 0.7352],
            "upper": [0.7418, 0.7408],
        }  # fmt: skip
    )
    fig = charts.role_rates_chart(roles, load_names(["classic"]))
    FigureCanvasAgg(fig).draw()
    first, *others = fig.axes  # one shared y scale: the first panel carries the labels
    labels = [t.get_text() for t in first.get_yticklabels() if t.get_text()]
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
    assert all(re.fullmatch(r"\d+(\.\d+)?%", label) for label in labels)
    values = [float(label[:-1]) for label in labels]
    assert values == sorted(values)
    assert others and all(ax.get_ylim() == first.get_ylim() for ax in others)
    wide = charts.side_rates_chart(
        pl.concat([sides([0.6, 0.3, 0.1]), sides([0.2, 0.5, 0.3], players=6)]),
        load_names(["classic"]),
    )
    FigureCanvasAgg(wide).draw()
    labels = [t.get_text() for t in wide.axes[0].get_yticklabels() if t.get_text()]
    assert all(re.fullmatch(r"\d+%", label) for label in labels), labels  # whole points


@pytest.fixture(scope="module")
def two_themes(tmp_path_factory):
    """A folder holding tiny classic and walking_dead runs (seat and event files)."""
    root = tmp_path_factory.mktemp("themes")
    both = root / "both"
    for theme in ("classic", "walking_dead"):
        run = run_study(root / theme, theme, [4, 5], 60, 2, "smart", chunk_size=60, progress=False)
        for sub in ("seats", "events"):
            shutil.copytree(run / sub, both / sub, dirs_exist_ok=True)
    return both


def test_page_opens_with_the_grid_and_canonical_headers(two_themes):
    page = render_report(two_themes)
    html = page.read_text()
    sections = re.findall(r'<h2 id="([^"]+)"', html)
    assert sections[:3] == ["glance", "verdict", "summary"] and "cards" in sections
    glance = html[html.index('id="glance"') : html.index('id="verdict"')]
    assert glance.count('class="rate') == 2 * 2 * 3  # 2 themes x 2 player counts x 3 sides
    for heading in ("leader + deputies", "outlaws", "renegade", "4 players", "5 players"):
        assert heading in glance
    assert "classic/smart" in glance and "walking_dead/smart" in glance
    assert "Sheriff + Deputies · Outlaws · Renegade" in glance  # the legend
    assert "Survivors&#39; Leader + Survivors · Saviors · Hilltop Loner" in glance
    summary = html[html.index('id="summary"') : html.index('id="sides"')]
    head = summary[summary.index("<thead>") : summary.index("</thead>")]
    assert " / " not in head and "leader + deputies" in head
    # the verdict (reports.verdict), a line per configuration, each linked to its page
    verdict = html[html.index('id="verdict"') : html.index('id="summary"')]
    assert verdict.count("<li>") == 4 and verdict.count("against an even 33.3%") == 4
    assert 'href="config-walking_dead_5p_smart.html"' in verdict
    cards = html[html.index('id="cards"') :]
    assert "BANG! (classic)" in cards and "Barrel" in cards and "Card uses by role" not in cards
    one = (page.parent / "config-walking_dead_5p_smart.html").read_text()
    assert one.count('class="verdict"') == 1 and "The Walking Dead, 5 players: " in one
    cards = one[one.index('id="cards"') :]
    assert "Card uses by role" in cards and "BANG! (classic)" not in cards


def test_terminal_grid_of_report(two_themes, tmp_path):
    result = runner.invoke(app, ["report", str(two_themes), "--format", "csv",
                                 "--out", str(tmp_path / "t")])  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Side win rates (% of games)")
    rows = [line for line in lines if line.startswith(("classic/", "walking_dead/"))]
    assert [r.split()[0] for r in rows] == ["classic/smart", "walking_dead/smart"]
    assert all(len(r.split()) == 1 + 2 * 3 for r in rows)
    usage = pl.read_csv(tmp_path / "t" / "card_usage.csv")
    assert {"card", "role", "per_game", "per_game_lower", "per_seat_upper"} <= set(usage.columns)
    assert set(usage["theme"]) == {"classic", "walking_dead"}
    assert (tmp_path / "t" / "draw_checks.csv").is_file()
    assert (tmp_path / "t" / "game_events.csv").is_file()


def test_event_tables_agree_with_the_seat_rows(two_themes):
    report = load_report(two_themes)
    games = dict(report.tables["event_games"].select("config", "games").iter_rows())
    assert games == dict(report.tables["summary"].select("config", "games").iter_rows())
    usage = report.tables["card_usage"]
    # every seat's uses: the roles' per-game sums add up to the all-seats figure
    for (config, card), part in usage.group_by("config", "card"):
        every = part.filter(pl.col("role") == "all")["uses"].item()
        assert part.filter(pl.col("role") != "all")["uses"].sum() == every, (config, card)
    assert report.tables["draw_checks"].filter(pl.col("pass_rate") > 1).height == 0
