"""The balance search's page: the Pareto front as a chart, and per variant its changes in
words and its win rates against the targets and against the printed theme (docs/balance.md).

One self-contained HTML file, OUT/report/index.html (reports.html.write_page), from the
measured answer of `simcore.studies.balance_search`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from reports.charts import FLAT, UP
from reports.html import Chart, chart, write_page
from simcore.studies.balance import Problem
from simcore.studies.balance_inside import LIGHT_BUDGET
from simcore.studies.balance_retune import RETUNE_BUDGET, Retuned
from simcore.studies.balance_search import Answer, State

PRINTED = "#1d232b"


def front_chart(answer: Answer) -> Figure:
    """Distance to the targets against the number of changes, with 95% intervals; the
    printed theme at 0 changes, the chosen variant highlighted. Each interval is drawn from
    its own ends, not as errors about the point: a bootstrap interval of a distance need not
    hold the point (near a target every resampled distance can lie above it)."""
    fig = Figure(figsize=(7.0, 3.6), layout="constrained")
    ax = fig.subplots()
    variants = answer.variants
    x = np.array([v.changes for v in variants])
    y = np.array([100 * v.distance for v in variants])
    low = np.array([100 * v.distance_lower for v in variants])
    high = np.array([100 * v.distance_upper for v in variants])
    colors = [UP if j == answer.chosen else (PRINTED if j == 0 else FLAT) for j in range(len(x))]
    ax.plot(x, y, color="#bbbbbb", linewidth=1, zorder=1)
    ax.vlines(x, low, high, color="#666666", linewidth=1, zorder=2)
    ax.scatter(np.r_[x, x], np.r_[low, high], marker="_", color="#666666", s=50, zorder=2)
    ax.scatter(x, y, c=colors, s=40, zorder=3)
    for v, xi, yi in zip(variants, x, y, strict=True):
        ax.annotate(v.name, (xi, yi), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.set_xticks(x)
    ax.margins(x=0.12)
    ax.set_xlabel("knobs changed from the printed theme")
    ax.set_ylabel("distance to the targets (points)")
    ax.set_ylim(bottom=0)
    ax.grid(True, color="#dddddd", linewidth=0.7)
    ax.set_axisbelow(True)
    ax.set_title("Pareto front: fewer changes (left) against closeness to the targets (down)")
    return fig


def write_balance_page(
    problem: Problem,
    state: State,
    answer: Answer,
    out: Path,
    retuned: list[Retuned] | None = None,
    stages: list[dict] | None = None,
) -> Path:
    """Render OUT/report/index.html (and its PNG); returns the page's path. `retuned`: the
    --retune checks (None: not asked); `stages`: with search.retune = "inside", the stages'
    records (simcore.studies.balance_inside.Stage.record)."""
    figures: list[Chart] = [
        chart(
            "front",
            "The Pareto front: each variant's distance to the targets (95% interval) against "
            "the number of knobs it changes; blue is the chosen variant, black the printed theme",
            front_chart(answer),
        )
    ]
    return write_page(
        out / "report",
        "balance.html",
        figures,
        title=f"Balance search: {problem.title}",
        problem=problem,
        answer=answer,
        rounds=state.trail,
        search_games=state.games,
        within=problem.targets.within,
        retuned=retuned,
        retune_budget=RETUNE_BUDGET,
        stages=stages or [],
        light_budget=LIGHT_BUDGET,
        replicates_text=replicates_text,
    )


def replicates_text(distances: list[float] | None) -> str:
    """ "the worst of 5 re-tunes, from 2.1" for a verdict taken over several re-tunes
    (search.retune_replicates), "" for one."""
    if not distances or len(distances) < 2:
        return ""
    return f"the worst of {len(distances)} re-tunes, from {100 * min(distances):.1f}"


def answer_lines(problem: Problem, answer: Answer, retuned: list[Retuned] = ()) -> list[str]:
    """The terminal summary: the front, then the chosen variant's side rates against the
    targets and the printed theme, and the re-tuned checks."""
    lines = [
        f"front: distance to the targets in points [95% interval], measured on "
        f"{answer.final_games:,} fresh deals per table"
    ]
    inside = answer.variants[0].distance_own_play is not None
    if inside:
        lines[0] += (
            f", at each variant's own re-tuned play (under {problem.strategy}: the file's "
            "strategy on the same deals)"
        )
    for j, v in enumerate(answer.variants):
        what = "; ".join(v.words) or "the printed theme"
        also = f" (under {problem.strategy} {100 * v.distance_printed_play:.1f}" if inside else ""
        spread = replicates_text(v.distance_own_replicates)
        also += f"; {spread}" if spread else ""
        if v.distance_band_worst is not None:
            also += f"; worst band end {100 * v.distance_band_worst:.1f}"
        also += ")" if inside else ""
        lines.append(
            f"  {v.name:<11} {100 * v.distance:5.1f} [{100 * v.distance_lower:.1f}, "
            f"{100 * v.distance_upper:.1f}]{also}{'  (chosen)' if j == answer.chosen else ''}"
            f"  {what}"
        )
    chosen = answer.variants[answer.chosen]
    lines.append(f"chosen: {chosen.name}: {'; '.join(chosen.words) or 'no change'}")
    for theme_id, spec in chosen.own_strategy.items():
        lines.append(f"  its own strategy ({theme_id}): --strategy {spec}")
    for r in chosen.sides:
        target = "no target" if r.target is None else f"target {100 * r.target:.1f}%"
        lines.append(
            f"  {r.config} {r.side:<8} {100 * r.rate:5.1f}% [{100 * r.lower:.1f}, "
            f"{100 * r.upper:.1f}] ({target}; printed {100 * r.printed:.1f}%, "
            f"{100 * r.vs_printed:+.1f} pts [{100 * r.vs_printed_lower:+.1f}, "
            f"{100 * r.vs_printed_upper:+.1f}])"
        )
    if problem.targets.within is not None:
        for v in (answer.variants[0], chosen):
            beyond = [c.character for c in v.characters if c.outside(problem.targets.within)]
            lines.append(
                f"  {v.name}: {len(beyond)} characters beyond ±"
                f"{100 * problem.targets.within:.1f} points beyond luck"
                + (f" ({', '.join(beyond)})" if beyond else "")
            )
    for r in retuned:
        verdict = "holds" if r.holds else "does not hold (not closer than printed beyond luck)"
        spread = replicates_text(r.replicates)
        lines.append(
            f"re-tuned for {r.name}: distance {100 * r.distance:.1f} [{100 * r.distance_lower:.1f}"
            f", {100 * r.distance_upper:.1f}]"
            + (f" ({spread})" if spread else "")
            + f", vs the printed game {100 * r.vs_printed_lower:+.1f}"
            f" to {100 * r.vs_printed_upper:+.1f}: the verdict {verdict}"
        )
    return lines
