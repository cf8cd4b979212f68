"""What differs between two themes, in a designer's words (`bangsim themes diff A B`, and
`bangsim compare` when its runs' themes differ): cards added, removed or changed (effect,
copies and their faces, any other key), characters added, removed or changed (life,
ability), rules changed (every rule, defaults filled), and any other setting (title, role
names, draw! checks). Cards and characters are matched by name.

    theme_diff(load_theme("classic"), load_theme("my.toml"))  # -> list of lines, [] if same
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from simcore.engine.theme import Theme

NAMED = ("cards", "characters")


def theme_diff(a: Theme, b: Theme) -> list[str]:
    """One line per difference from `a` to `b`; [] when they play the same game."""
    lines = []
    for section in NAMED:
        lines += _named(section, _by_name(a.raw, section), _by_name(b.raw, section))
    for rule in sorted(set(a.rule_values) | set(b.rule_values)):
        old, new = a.rule_values.get(rule), b.rule_values.get(rule)
        if old != new:
            lines.append(f"rule changed: {rule} {_shown(old)} → {_shown(new)}")
    # [theme] (id, title, description, parent) names the two themes: no difference in play
    skip = {*NAMED, "rules", "theme"}
    for key in sorted((set(a.raw) | set(b.raw)) - skip):
        for path, old, new in _leaves(a.raw.get(key), b.raw.get(key), (key,)):
            lines.append(f"{'.'.join(path)} changed: {_shown(old)} → {_shown(new)}")
    return lines


def diff_text(a: Theme, b: Theme, a_name: str, b_name: str) -> str:
    """`theme_diff` under a heading naming both sides, or a line saying they are the same."""
    lines = theme_diff(a, b)
    head = f"{a_name} (id '{a.id}') → {b_name} (id '{b.id}')"
    if not lines:
        return f"{head}: the same cards, characters and rules"
    return "\n".join([f"{head}: {len(lines)} difference{'s' if len(lines) > 1 else ''}",
                      *(f"  {line}" for line in lines)])  # fmt: skip


def _by_name(raw: dict[str, Any], section: str) -> dict[str, dict[str, Any]]:
    entries = raw.get(section)
    return (
        {e["name"]: e for e in entries if isinstance(e, dict)} if isinstance(entries, list) else {}
    )


def _named(section: str, old: dict[str, dict], new: dict[str, dict]) -> list[str]:
    word = section[:-1]
    lines = [f"{word} added: {_entry(section, new[n])}" for n in new if n not in old]
    lines += [f"{word} removed: {_entry(section, old[n])}" for n in old if n not in new]
    for name in (n for n in old if n in new):
        changes = []
        for key in [*old[name], *(k for k in new[name] if k not in old[name])]:
            before, after = old[name].get(key), new[name].get(key)
            if before == after:
                continue
            if key == "copies" and isinstance(before, list) and isinstance(after, list):
                changes.append(_copies(before, after))
            else:
                changes.append(f"{key} {_shown(before)} → {_shown(after)}")
        if changes:
            lines.append(f"{word} changed: {name}: {'; '.join(changes)}")
    return lines


def _entry(section: str, entry: dict[str, Any]) -> str:
    if section == "cards":
        copies = entry.get("copies")
        n = len(copies) if isinstance(copies, list) else "?"
        return f"{entry.get('name')} ({entry.get('effect')}, {n} cop{'y' if n == 1 else 'ies'})"
    return f"{entry.get('name')} (life {entry.get('life')}, {entry.get('ability')})"


def _copies(before: list, after: list) -> str:
    """ "copies 12 → 16 (+2S, +3S, +4S, +5S)": the count and the faces gained or lost."""
    gained = Counter(map(str, after)) - Counter(map(str, before))
    lost = Counter(map(str, before)) - Counter(map(str, after))
    faces = [f"+{f}" for f in gained.elements()] + [f"−{f}" for f in lost.elements()]
    count = f"copies {len(before)} → {len(after)}"
    if not faces:
        return f"{count} (the same faces, reordered)"
    return f"{count} ({', '.join(faces)})"


def _leaves(old: Any, new: Any, path: tuple[str, ...]):
    """(path, old, new) for every value that differs in two nested tables."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            yield from _leaves(old.get(key), new.get(key), (*path, key))
    elif old != new:
        yield path, old, new


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)
