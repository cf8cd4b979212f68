"""HTML pages from jinja2 templates (reports/templates/), charts saved beside them, files atomic.

A folder of pages (`write_pages`) links its charts as the PNG files beside them: the folder
is self-contained and opens from disk. One page alone (`write_page`) embeds every chart as
a base64 PNG data URI as well, so a designer can mail the file. Every file is written under
a temporary name and moved into place (os.replace), PNGs first and index.html last, so a
reader never sees a half-written file and index.html appears only once its PNGs and the
pages it links to exist. If a write fails (a full disk), the files this call had created
are removed again.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2

from reports import charts
from simcore.runs.atomic import write_atomic
from simcore.stats import agreeing_digits

PAGE = "index.html"


@dataclass(frozen=True)
class Chart:
    """One rendered chart: `name` is its file stem, `alt` a one-line description."""

    name: str
    alt: str
    png: bytes
    embed: bool = True  # the page holds the PNG itself (a data URI), else links its file

    @property
    def file(self) -> str:
        return f"{self.name}.png"

    @property
    def src(self) -> str:
        return self.data_uri if self.embed else self.file

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def chart(name: str, alt: str, fig) -> Chart:
    """Render a matplotlib figure into a Chart."""
    return Chart(name, alt, charts.png(fig))


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write each file atomically, in order. If one fails, the files (and folders) this call
    created are removed before the error propagates: a failed report leaves no new partial
    set of files behind (files it replaced stay replaced, each complete)."""
    created: list[Path] = []
    try:
        for path in files:
            for folder in reversed([path.parent, *path.parent.parents]):
                if not folder.exists():
                    folder.mkdir()
                    created.append(folder)
            existed = path.exists()
            write_atomic(path, files[path])
            if not existed:
                created.append(path)
    except BaseException:
        for path in reversed(created):
            try:
                if path.is_dir():
                    path.rmdir()
                else:
                    path.unlink(missing_ok=True)
            except OSError:
                pass
        raise
    return list(files)


def write_page(out: Path, template: str, figures: list[Chart], **context: Any) -> Path:
    """Render `template` with `charts` (by name, embedded) and `context` into out/index.html
    and the charts' PNGs beside it; returns the page's path."""
    return write_pages(out, figures, [(PAGE, template, context)], embed=True)


def write_pages(
    out: Path,
    figures: list[Chart],
    pages: list[tuple[str, str, dict[str, Any]]],
    embed: bool = False,
) -> Path:
    """Render each (file name, template, context) of `pages` into `out`, every template
    seeing `charts` (by name; linked to their PNG files, or embedded), and write the PNGs
    first and the pages in order (index.html last, the others before it); returns the
    last page's path."""
    env = environment()
    rendered = datetime.now(UTC).isoformat(timespec="seconds")
    shown = {c.name: replace(c, embed=embed) for c in figures}
    out = Path(out)
    files = {out / c.file: c.png for c in figures}
    for name, template, context in pages:
        html = env.get_template(template).render(charts=shown, rendered=rendered, **context)
        files[out / name] = html.encode("utf-8")
    write_files(files)
    return out / pages[-1][0]


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("reports", "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(pct=pct, pp=pp, interval=interval, pvalue=pvalue, count=count)
    return env


# --- number formats (None and NaN print as an en dash) ---------------------------------


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x: float | None, digits: int = 1) -> str:
    """0.6087 -> '60.9%'."""
    return "–" if _missing(x) else f"{100 * x:.{digits}f}%"


def pp(x: float | None, digits: int = 1) -> str:
    """0.0231 -> '+2.3 pp' (percentage points, signed; minus is U+2212)."""
    if _missing(x):
        return "–"
    text = f"{100 * x:+.{digits}f}"
    if float(text) == 0:  # no "-0.0": a rounded zero has no sign
        text = text[1:]
    return f"{text} pp".replace("-", "−")


def pp_interval(lo: float | None, hi: float | None) -> str:
    """'[−1.4 pp, −0.04 pp]': both bounds as `pp`, with the decimals agreeing_digits gives."""
    if _missing(lo) or _missing(hi):
        return "[–]"
    digits = agreeing_digits(lo, hi)
    return f"[{pp(lo, digits)}, {pp(hi, digits)}]"


def interval(lo: float | None, hi: float | None, digits: int = 1, signed: bool = False) -> str:
    """(0.602, 0.615) -> '60.2 – 61.5'; signed for effects: '−1.2 – +3.4' (more decimals
    where a bound of an interval that excludes 0 would print as 0.0: agreeing_digits)."""
    if _missing(lo) or _missing(hi):
        return "–"
    if signed:
        digits = agreeing_digits(lo, hi, digits)
    fmt = f"{{:{'+' if signed else ''}.{digits}f}}"
    return f"{fmt.format(100 * lo)} – {fmt.format(100 * hi)}".replace("-", "−")


def pvalue(p: float | None) -> str:
    """0.012345 -> '0.0123' (3 significant digits); tiny -> '<0.0001'."""
    if _missing(p):
        return "–"
    return "<0.0001" if p < 1e-4 else f"{p:.3g}"


def count(n: int | float | None) -> str:
    """20000 -> '20,000'."""
    return "–" if _missing(n) else f"{n:,.0f}"
