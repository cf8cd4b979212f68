"""What one traced game is: the request `simcore.engine.tracer` replays, built by
`simcore.studies.trace` in a process that never loads numba."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simcore.engine.theme import Theme, compile_theme


@dataclass(frozen=True)
class TraceSpec:
    """One game to replay: a theme (its parsed file, overrides applied), a table, a seed and
    a game index; JSON-able, so it crosses to the tracing subprocess."""

    theme_raw: dict[str, Any]
    theme_path: str | None
    players: int
    seed: int
    game: int
    strategy: str = "smart"
    characters: list[str] | None = None
    feature: str | None = None
    config: str | None = None  # the run's config label, when traced from a run folder
    overrides: dict[str, Any] = field(default_factory=dict)  # shown in the header only
    # a searching seat's decisions as the compiled game took them (tracer.decision_log)
    decisions: list[list[int]] | None = None
    # checked mode (the invariants asserted after every action, about half a trace's time);
    # the same game either way
    checked: bool = True

    def theme(self) -> Theme:
        return compile_theme(self.theme_raw, self.theme_path)
