"""The kernel's legal plays agree with an independent referee (tests/referee.py), both ways:
everything the rules allow is offered, and nothing else is.

Two implementations compared state by state, as OpenSpiel tests a game: every state at
which a player chooses a play in real games (random and tuned bots, every shipped theme,
and random themes of the fuzzer, tests/fuzz_themes.py, whose rule switches vary) is checked.
The games run in one subprocess with the kernel as plain Python (NUMBA_DISABLE_JIT=1), so
the check sees every call of kernel.legal_actions; a difference is printed as the state and
the plays the two disagree on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fuzz_themes import deck_too_small, shipped_raw, shipped_variants, theme_dicts, to_toml
from hypothesis import HealthCheck, given, settings

from simcore.engine.theme import ThemeError, load_theme, read_toml, shipped_themes

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "configs" / "examples" / "dodge_city_three_more.toml"
# shipped themes with the switches the legal plays read set away from their defaults (the
# fuzzer's first derandomized examples keep most defaults)
VARIANTS = [
    ("classic", {"bang_limit": 2, "jail_on_leader": True}),
    ("classic_dodge_city", {"bang_limit": 3, "self_target_effects": ["steal", "discard_any"]}),
    (str(EXAMPLE), {"bang_limit": 2, "self_target_effects": ["steal"]}),
    ("walking_dead", {"bang_limit": 0, "jail_on_leader": True}),
    ("star_wars", {"bang_limit": 2, "jail_on_leader": True, "self_target_effects": ["steal"]}),
]


def fuzz_theme_files(folder: Path, strategy, count: int) -> list[str]:
    """Up to `count` themes the fuzzer's strategy draws (derandomized: the same each run),
    written as files the loader accepts."""
    found: list[str] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def collect(theme):
        path = folder / f"fuzz{len(found)}.toml"
        path.write_text(to_toml(theme))
        try:
            load_theme(path)
        except ThemeError as e:
            assert deck_too_small(str(e)), e
            return
        found.append(str(path))

    collect()
    return found


def cases(folder: Path) -> list[dict]:
    out = []
    i = 0
    for theme in shipped_themes():
        counts = load_theme(theme).player_counts()
        for strategy in ("random", "tuned"):
            for _ in range(2):
                players = counts[i % len(counts)]
                out.append(dict(theme=theme, players=players, games=1, seed=100 + i,
                                strategy=strategy))  # fmt: skip
                i += 1
    files = fuzz_theme_files(folder, theme_dicts(), 6) + fuzz_theme_files(
        folder, shipped_variants(), 6
    )
    files.append(str(EXAMPLE))  # a theme's own effects: Punch, Dodge, Rag Time
    for k, (theme, rules) in enumerate(VARIANTS):
        raw = read_toml(Path(theme)) if theme.endswith(".toml") else shipped_raw(theme)
        raw["theme"]["id"] += "_variant"
        raw["rules"].update(rules)
        files.append(str(folder / f"variant{k}.toml"))
        Path(files[-1]).write_text(to_toml(raw))
    for path in files:
        counts = load_theme(path).player_counts()
        for strategy in ("random", "smart"):
            players = counts[i % len(counts)]
            out.append(dict(theme=path, players=players, games=1, seed=200 + i, strategy=strategy))
            i += 1
    return out


def test_the_kernel_offers_exactly_the_plays_the_referee_allows(tmp_path):
    root = str(HERE.parent)  # the tree under test, before any installed copy
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=path)
    todo = cases(tmp_path)
    proc = subprocess.run(
        [sys.executable, str(HERE / "referee.py")],
        input=json.dumps(todo),
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout)
    print(f"{seen['states']} states, {seen['plays']} plays compared, "
          f"{len(seen['differences'])} differences")  # fmt: skip
    assert seen["differences"] == [], "\n\n".join(seen["differences"])
    assert seen["states"] > 2000
