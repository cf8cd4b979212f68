"""The HTML report, CSV/JSON export and comparison on tiny real runs, through the CLI, and
the pages opened in headless Chromium (skipped where /usr/bin/chromium is absent)."""

import base64
import json
import re
from pathlib import Path

import polars as pl
import pytest
from headless_chromium import chromium, open_page
from typer.testing import CliRunner

from reports.report import render_report
from simcore.cli import app
from simcore.runs.atomic import write_atomic
from simcore.runs.runfolder import run_study

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
TABLES = ("summary", "sides", "roles", "characters", "character_roles", "seats", "featured",
          "game_lengths", "turn_histogram", "win_rounds",
          "card_usage", "draw_checks", "game_events", "event_games", "endings")  # fmt: skip
runner = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two tiny real runs of the same study (seeds 3 and 4), and a folder mixing two
    strategies' labels at 4 players (as an experiment grid would): seat rows, no manifest."""
    root = tmp_path_factory.mktemp("runs")
    study = {"chunk_size": 150, "progress": False, "strategy": "basic"}
    a = run_study(root / "seed3", "classic", [4, 5], 300, 3, **study)
    b = run_study(root / "seed4", "classic", [4, 5], 300, 4, **study)
    mixed = root / "mixed"
    (mixed / "seats").mkdir(parents=True)
    for i, path in enumerate(sorted((a / "seats").glob("classic_4p_*.parquet"))):
        frame = pl.read_parquet(path)
        frame.write_parquet(mixed / "seats" / f"basic-{i}.parquet")
        relabeled = frame.with_columns(pl.lit("classic/4p/smart").alias("config"))
        relabeled.write_parquet(mixed / "seats" / f"smart-{i}.parquet")
    return {"a": a, "b": b, "mixed": mixed}


@pytest.fixture(scope="module")
def report_page(runs):
    """`bangsim report RUN` on the first run: its output and the page it wrote."""
    result = runner.invoke(app, ["report", str(runs["a"])])
    assert result.exit_code == 0, result.output
    return result, runs["a"] / "report" / "index.html"


@pytest.fixture(scope="module")
def mixed_page(runs):
    """The report of the folder holding two strategies at 4 players."""
    return render_report(runs["mixed"])


def images(html: str) -> list[str]:
    return re.findall(r'<img src="([^"]+)"', html)


def links(html: str) -> list[str]:
    return re.findall(r'<a href="([^"#]+)', html)


def sections(html: str) -> list[str]:
    return re.findall(r'<h2 id="([^"]+)"', html)


def test_report_is_a_folder_of_linked_pages(report_page):
    """An index, a page per configuration and the characters page, each with contents and
    collapsible sections; charts are the PNG files beside them, every link resolves inside
    the folder, nothing comes from elsewhere."""
    result, page = report_page
    folder = page.parent
    html = page.read_text()
    configs = ["classic/4p/basic", "classic/5p/basic"]
    pages = {folder / f"config-{c.replace('/', '_')}.html" for c in configs}
    assert set(folder.glob("*.html")) == {page, folder / "characters.html", *pages}
    assert len(html.encode()) < 2_000_000 and "data:image" not in html  # charts are linked
    assert set(links(html)) == {p.name for p in pages} | {"characters.html"}
    shown = set()
    for path in folder.glob("*.html"):
        text = path.read_text()
        assert '<nav class="contents">' in text or path.name == "characters.html"
        for src in images(text):
            assert (folder / src).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", (path, src)
            shown.add(src)
        assert all((folder / href).is_file() for href in links(text)), path
        assert not re.search(r'(src|href)="(https?:)?//', text)  # nothing from elsewhere
        assert text.count('<details class="section" open>') == len(sections(text))
    assert shown == {p.name for p in folder.glob("*.png")}  # every PNG is on a page
    assert not list(folder.glob(".*.tmp"))  # no temp files left behind
    # the index: the grid at a glance, the verdict (no effects without overrides), ...,
    # every section says how to read it
    assert sections(html)[:3] == ["glance", "verdict", "summary"] and sections(html)[-1] == "method"
    assert {"summary", "sides", "length", "pages"} <= set(sections(html))
    assert html.count('class="how"') >= len(sections(html)) - 1
    assert "Holm" in html and "Sheriff + Deputies" in html
    # a configuration's page: its own tables, characters, seats, example games
    one = (folder / "config-classic_4p_basic.html").read_text()
    assert sections(one) == [
        "sides",
        "characters",
        "seats",
        "length",
        "endings",
        "cards",
        "examples",
        "method",
    ]
    assert "Bart Cassidy" in one and "classic/5p/basic" not in one.split("<h1>", 1)[1]
    # the CLI printed the balance grid and where the index is
    assert "classic/basic" in result.stdout and "300 games per cell" in result.stdout
    assert f"report: {page}" in result.stdout


def test_characters_page_has_a_row_per_character_and_series(report_page):
    html = (report_page[1].parent / "characters.html").read_text()
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    assert body.count("<tr>") == 16  # classic's characters, one series (classic/basic)
    # a cell per measure (overall and four roles) and player count (4, 5), sortable
    assert body.count('<td class="m ') == 16 * 5 * 2 and 'class="sortable chars"' in html
    for measure in ("all", "leader", "deputy", "outlaw", "renegade"):
        assert f'value="{measure}"' in html and f".m-{measure} {{ display: table-cell; }}" in html
    assert "Bart Cassidy" in body and "as Sheriff" in html


def test_single_file_is_one_self_contained_page(runs, tmp_path):
    out = tmp_path / "single"
    result = runner.invoke(app, ["report", str(runs["a"]), "--single-file", "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out / "index.html"
    html = page.read_text()
    assert [p.name for p in out.glob("*.html")] == ["index.html"]
    pngs = sorted(out.glob("*.png"))
    sources = images(html)
    assert len(sources) == len(pngs) >= 5  # sides, roles, dots, length, seats
    for src in sources:  # every chart embedded, byte for byte the PNG saved beside the page
        assert src.startswith("data:image/png;base64,")
        data = base64.b64decode(src.split(",", 1)[1])
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert data in {p.read_bytes() for p in pngs}
    assert not re.search(r'(src|href)="(https?:)?//', html) and links(html) == []
    # the grid at a glance, the verdict in words, then the balance summary (no effects
    # without overrides) and its words; every section says how to read it
    assert sections(html)[:3] == ["glance", "verdict", "summary"] and sections(html)[-1] == "method"
    assert html.count('class="how"') >= len(sections(html)) - 1
    assert "The same in words" in html
    assert "Holm" in html and "Sheriff + Deputies" in html and "Bart Cassidy" in html


def test_report_metadata_comes_from_the_manifest(report_page):
    html = report_page[1].read_text()
    for text in ("Seed", "Players", "4, 5", "600 (300 per configuration)", "Versions", "numba"):
        assert text in html


def test_report_of_several_configurations_compares_them(mixed_page):
    page = mixed_page
    html = page.read_text()
    assert (page.parent / "compare-sides.png").is_file()  # one bar colour per strategy
    for config in ("classic/4p/basic", "classic/4p/smart"):
        key = config.replace("/", "_")
        assert f'href="config-{key}.html"' in html
        assert f'id="characters-{key}"' in (page.parent / f"config-{key}.html").read_text()
    assert "settings unknown" in html  # no manifest: said, not guessed


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_report_tables_as_files(runs, tmp_path, fmt):
    out = tmp_path / fmt
    result = runner.invoke(app, ["report", str(runs["a"]), "--format", fmt, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t}.{fmt}" for t in TABLES)
    if fmt == "csv":
        sides = pl.read_csv(out / "sides.csv")
        assert sides.columns[:4] == ["config", "theme", "players", "side"]
        assert sides.height == 6
    else:
        rows = json.loads((out / "characters.json").read_text())  # strict JSON: NaN is null
        assert {"character", "effect", "effect_lower", "p_adjusted", "significant"} <= set(rows[0])


def test_compare_runs(runs, tmp_path):
    out = tmp_path / "cmp"
    result = runner.invoke(app, ["compare", str(runs["a"]), str(runs["b"]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text()
    assert "seed4 vs seed3, classic/4p/basic: largest side change" in result.stdout
    found = re.search(r"(\d+) character (effects?) changed significantly", result.stdout)
    assert found and (found[2] == "effect") == (found[1] == "1"), result.stdout
    assert len(images(html)) == len(list(out.glob("*.png"))) == 2
    assert "paired by label" in html and "Newcombe" in html


def assert_bad_input(result, *fragments):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_bad_input_exits_2_with_one_line(runs, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_bad_input(runner.invoke(app, ["report", str(tmp_path / "nope")]), "no such run folder")
    assert_bad_input(runner.invoke(app, ["report", str(empty)]), "no seat rows")
    assert_bad_input(
        runner.invoke(app, ["report", str(runs["a"]), "--format", "xml"]), "html, csv, json"
    )
    assert_bad_input(
        runner.invoke(app, ["compare", str(runs["a"]), "--out", str(tmp_path / "c")]),
        "at least two",
    )
    assert_bad_input(
        runner.invoke(
            app, ["compare", str(runs["a"]), str(runs["mixed"]), "--out", str(tmp_path / "c")]
        ),
        "cannot pair",
    )
    assert list(empty.iterdir()) == [] and not (tmp_path / "c").exists()


def test_write_atomic_keeps_the_old_file_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "index.html"
    write_atomic(path, b"old")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr("simcore.runs.atomic.os.replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]


@pytest.mark.skipif(
    chromium() is None,
    reason="headless Chromium not found at /usr/bin/chromium (apt-get install -y chromium); "
    "the report browser test is skipped",
)
@pytest.mark.parametrize("which", ["report", "config", "characters", "compare"])
def test_pages_load_in_chromium(runs, mixed_page, tmp_path, which):
    """Every image decodes (naturalWidth > 0) and the console stays clean; a screenshot of
    the page is kept in test-artifacts/."""
    if which == "report":
        page = mixed_page
    elif which == "config":
        page = mixed_page.parent / "config-classic_4p_smart.html"
    elif which == "characters":
        page = mixed_page.parent / "characters.html"
    else:
        result = runner.invoke(
            app, ["compare", str(runs["a"]), str(runs["b"]), "--out", str(tmp_path / "cmp")]
        )
        assert result.exit_code == 0, result.output
        page = tmp_path / "cmp" / "index.html"
    shot = ARTIFACTS / f"{which}.png"
    seen = open_page(page, shot)
    assert seen.errors == []
    assert len(seen.images) == len(images(page.read_text())) >= (which != "characters")
    broken = [i["alt"] for i in seen.images if not (i["complete"] and i["width"] > 0)]
    assert broken == []
    assert shot.stat().st_size > 10_000


CHARACTERS_SCRIPT = """(function () {
  var table = document.getElementById("chars"), rows = table.tBodies[0].rows;
  var shown = function (cls) { return getComputedStyle(table.querySelector("td." + cls)).display; };
  var before = [shown("m-all"), shown("m-outlaw")];
  document.querySelector('input[value="outlaw"]').click();
  var after = [shown("m-all"), shown("m-outlaw")];
  var th = table.querySelector("th.m-outlaw");
  th.click();
  var column = Array.prototype.indexOf.call(th.parentNode.children, th);
  var values = Array.prototype.map.call(rows, function (r) { return r.cells[column].dataset.v; });
  var filter = document.getElementById("filter");
  filter.value = "bart";
  filter.dispatchEvent(new Event("input"));
  var visible = Array.prototype.filter.call(rows, function (r) { return !r.hidden; });
  return JSON.stringify({before: before, after: after, values: values,
                         visible: visible.map(function (r) { return r.cells[2].textContent; })});
})()"""


@pytest.mark.skipif(chromium() is None, reason="headless Chromium not found at /usr/bin/chromium")
def test_characters_page_switches_sorts_and_filters_in_chromium(mixed_page):
    """The characters page's plain JS: a measure's columns replace the others, a click on a
    heading sorts by it, the filter keeps the rows that match."""
    seen = open_page(mixed_page.parent / "characters.html", script=CHARACTERS_SCRIPT)
    assert seen.errors == []
    state = json.loads(seen.value)
    assert state["before"] == ["table-cell", "none"] and state["after"] == ["none", "table-cell"]
    values = [float(v) for v in state["values"] if v != ""]
    assert len(values) > 10 and values == sorted(values)
    assert state["visible"] == ["classic/basic", "classic/smart"]  # Bart Cassidy, two series


OVERFLOW_SCRIPT = """(function () {
  var cut = [], width = document.documentElement.clientWidth;
  document.querySelectorAll("table").forEach(function (t) {
    var box = t.parentElement, head = t.querySelector("th") || t;
    if (t.getBoundingClientRect().right > width + 1 || box.scrollWidth > box.clientWidth + 1)
      cut.push("table: " + head.textContent.trim().slice(0, 40));
  });
  document.querySelectorAll("img, pre, p, h1, h2, ul").forEach(function (e) {
    if (e.getBoundingClientRect().right > width + 1 && !e.closest("details:not([open])"))
      cut.push(e.tagName + ": " + (e.alt || e.textContent).trim().slice(0, 40));
  });
  return JSON.stringify(cut);
})()"""


@pytest.mark.skipif(chromium() is None, reason="headless Chromium not found at /usr/bin/chromium")
@pytest.mark.parametrize("which", ["report", "config", "characters", "compare"])
def test_no_table_or_chart_is_cut_at_1400_px(runs, mixed_page, tmp_path, which):
    """At a 1400 px window no table needs scrolling sideways and no chart or text runs past
    the page's right edge."""
    if which == "report":
        page = mixed_page
    elif which == "config":
        page = mixed_page.parent / "config-classic_4p_smart.html"
    elif which == "characters":
        page = mixed_page.parent / "characters.html"
    else:
        out = tmp_path / "cmp"
        result = runner.invoke(app, ["compare", str(runs["a"]), str(runs["b"]), "--out", str(out)])
        assert result.exit_code == 0, result.output
        page = out / "index.html"
    seen = open_page(page, ARTIFACTS / f"{which}-1400.png", script=OVERFLOW_SCRIPT, width=1400)
    assert json.loads(seen.value) == []


def test_characters_page_lists_the_strongest_first(runs):
    from reports.report import character_matrix, load_report

    matrix = character_matrix(load_report(runs["a"]))
    for series in {r["series"] for r in matrix["rows"]}:
        rows = [r for r in matrix["rows"] if r["series"] == series]
        means = [
            sum(c["v"] for (m, _), c in r["cells"].items() if m == "all")
            / sum(1 for (m, _) in r["cells"] if m == "all")
            for r in rows
        ]
        assert len(rows) == 16 and means == sorted(means, reverse=True)
