"""Display names for reports: each theme's own role and side names, by theme id.

Seat rows carry canonical roles (`leader`, ...) and the theme id; character names are
already the theme's. A run may mix themes, so every lookup takes the theme id, and a label
that spans themes joins their names ("Sheriff / Darth Vader").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from simcore.engine import vocab
from simcore.engine.theme import load_theme
from simcore.engine.themeinfo import plural


@dataclass(frozen=True)
class Names:
    """Role display names per theme id: roles[theme][canonical role] -> name."""

    roles: Mapping[str, Mapping[str, str]]
    titles: Mapping[str, str] = field(default_factory=dict)  # theme id -> title

    def role(self, role: str, theme: str | None = None) -> str:
        """The theme's name for a canonical role; without a theme, every theme's, joined."""
        if theme is not None:
            return self.roles.get(theme, {}).get(role, role.capitalize())
        names = dict.fromkeys(self.role(role, t) for t in sorted(self.roles))
        return " / ".join(names) or role.capitalize()

    def side(self, side: str, theme: str | None = None) -> str:
        """A winning side's name: "Sheriff + Deputies", "Outlaws", "Renegade"."""
        if theme is None and self.roles:
            return " / ".join(dict.fromkeys(self.side(side, t) for t in sorted(self.roles)))
        if side == "leader":
            return f"{self.role('leader', theme)} + {plural(self.role('deputy', theme))}"
        if side == "outlaw":
            return plural(self.role(side, theme))
        return self.role(side, theme)


def load_names(themes: Iterable[str], theme_files: Mapping[str, str] | None = None) -> Names:
    """Names for these theme ids: from the theme file the run's manifest recorded, else the
    shipped theme of that id, else the canonical role names capitalised."""
    roles: dict[str, dict[str, str]] = {}
    titles: dict[str, str] = {}
    for theme in themes:
        sources: list[str | Path] = [theme]
        if theme_files and theme in theme_files:
            sources.insert(0, Path(theme_files[theme]))
        for source in sources:
            try:
                loaded = load_theme(source)
                roles[theme], titles[theme] = dict(loaded.role_names), loaded.title
                break
            except (ValueError, OSError):
                continue
        else:
            roles[theme] = {role: role.capitalize() for role in vocab.ROLES}
    return Names(roles, titles)
