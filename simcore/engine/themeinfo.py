"""Plain-text views of themes for the CLI: the shipped list and one theme in full.

print(theme_list_text())            # `bangsim themes`
print(theme_text(load_theme("walking_dead")))  # `bangsim themes show walking_dead`
"""

from __future__ import annotations

from collections import Counter

from simcore.engine import vocab
from simcore.engine.theme import Theme, load_theme, shipped_themes, takes_value


def plural(name: str) -> str:
    """English plural of a role name, for side labels: Deputy -> Deputies, Rebel -> Rebels."""
    if name.endswith("s"):
        return name
    if name.endswith("y") and name[-2:-1] not in tuple("aeiou"):
        return name[:-1] + "ies"
    return name + "s"


def player_counts_text(counts: list[int]) -> str:
    """[4, 5, 6, 7] -> '4-7'; [4, 6] -> '4,6'."""
    if counts and counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1:
        return f"{counts[0]}-{counts[-1]}"
    return ",".join(map(str, counts))


def theme_list_text(ids: list[str] | None = None) -> str:
    """One line per shipped theme: id, title, cards, characters, player counts."""
    themes = [load_theme(i) for i in (shipped_themes() if ids is None else ids)]
    rows = [("id", "title", "cards", "characters", "players")]
    for t in themes:
        rows.append(
            (
                t.id,
                t.title,
                str(len(t.card_faces)),
                str(len(t.character_names)),
                player_counts_text(t.player_counts()),
            )
        )
    return _columns(rows, right=(2, 3))


def effect_text(theme: Theme, i: int) -> str:
    """Physical card i's effect as written in a theme file: 'weapon 3', 'heal 2', 'bang'."""
    t = theme.tables
    name = theme.card_effects[int(t.card_name[i])]
    if takes_value(int(t.card_effect[i]), int(t.card_aim[i])):
        return f"{name} {int(t.card_value[i])}"
    return name


def theme_text(theme: Theme) -> str:
    """The whole theme: roles, deck (name, effect, cost, copies, faces), characters
    (name, life, ability), draw! checks and every rule flag (defaults filled in)."""
    t = theme.tables
    lines = [f"{theme.id}: {theme.title}"]
    if theme.path is not None:
        lines.append(f"file: {theme.path}")
    lines.append("")
    lines.append("roles:")
    for role in vocab.ROLES:
        lines.append(f"  {role:<9} {theme.role_names[role]}")
    lines.append("role table (seat 0 first):")
    for n in theme.player_counts():
        names = [theme.role_names[vocab.ROLES[r]] for r in t.roles[n, :n]]
        lines.append(f"  {n}: {', '.join(names)}")

    copies = Counter(theme.card_display)
    lines.append("")
    lines.append(f"deck: {len(theme.card_faces)} cards, {len(theme.card_names)} names")
    rows = [("name", "effect", "cost", "copies", "faces")]
    for name in theme.card_names:
        first = theme.card_display.index(name)
        effect = effect_text(theme, first)
        if t.card_effect[first] == vocab.E_HEAL and not t.card_flags[first] & vocab.CF_BEER:
            effect += " (not a Beer)"
        faces = [f for f, n in zip(theme.card_faces, theme.card_display, strict=True) if n == name]
        rows.append(
            (name, effect, str(int(t.card_cost[first])), str(copies[name]), " ".join(faces))
        )
    lines.append(_columns(rows, right=(2, 3), indent="  "))

    lines.append("")
    lines.append(f"characters: {len(theme.character_names)}")
    rows = [("name", "life", "ability")]
    for name, life, ability in zip(
        theme.character_names, theme.character_lives, theme.character_abilities, strict=True
    ):
        rows.append((name, str(life), ability))
    lines.append(_columns(rows, right=(1,), indent="  "))

    lines.append("")
    lines.append("checks (draw! predicates):")
    for name, pred in theme.raw.get("checks", {}).items():
        parts = [f"{k} {v if isinstance(v, str) else ' '.join(v)}" for k, v in pred.items()]
        passing = int(((t.card_check & vocab.CHECKS[name]) != 0).sum())
        lines.append(
            f"  {name:<10} {', '.join(parts) or 'any face'}  "
            f"({passing} of {len(theme.card_faces)} cards pass)"
        )

    lines.append("")
    lines.append("rules:")
    for name, value in theme.rule_values.items():
        if isinstance(value, bool):
            shown = "true" if value else "false"
        elif isinstance(value, list):
            shown = "[" + ", ".join(value) + "]"
        else:
            shown = str(value)
        lines.append(f"  {name} = {shown}")
    return "\n".join(lines)


def _columns(rows: list[tuple[str, ...]], right: tuple[int, ...] = (), indent: str = "") -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [
            cell.rjust(widths[k]) if k in right else cell.ljust(widths[k])
            for k, cell in enumerate(r)
        ]
        out.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(out)


def effect_traits_text() -> str:
    """The effect vocabulary as traits (vocab.EFFECT_TRAITS), one effect a row: where a card
    goes, whom it aims at, its hit, and the yes/no traits it has."""
    names = {
        "place": {v: k for k, v in vocab.PLACES.items()},
        "aim": {v: k for k, v in vocab.AIMS.items()},
        "hit": {vocab.HIT_NONE: "-", vocab.HIT_MISSED: "missed", vocab.HIT_BANG: "bang"},
        "check": {0: "-", **{v: k for k, v in vocab.CHECKS.items()}},
    }
    flags = ("bang_card", "cancels", "attack", "picks", "burden", "tempered")
    rows = [("effect", "goes", "aims at", "hit (cancelled by)", "draw!", "traits")]
    for name, code in vocab.EFFECTS.items():
        t = vocab.EFFECT_TRAITS[code]
        rows.append(
            (
                name,
                names["place"][t.place],
                names["aim"][t.aim],
                names["hit"][t.hit],
                names["check"][t.check],
                " ".join(f for f in flags if getattr(t, f)) or "-",
            )
        )
    return _columns(rows)
