"""Speed work must not change a single game: the kernel's outputs for many configurations
(every shipped theme, 4-7 players, four presets and every shipped `strong` field, events, a
featured character, checked mode) hash to the digests recorded in tests/game_digests.json.

These digests pin whatever the code does, a bug as much as a fix, so re-recording them
cannot hide a change: a change that is meant to alter games bumps limits.RULES_VERSION (the
rules kernel) or strategies.params.POLICY_VERSION (the bots), adds an entry for the new
versions to docs/changelog.md saying why, and records new digests with
`PYTHONPATH=tests NUMBA_CACHE_DIR=.numba_cache .venv/bin/python -m tests.test_same_games`, which refuses to
write other digests under the recorded versions and prints the digests' fingerprint the
entry names. test_digests_match_the_versions_and_the_changelog checks the versions recorded
against the code's and the fingerprint against the entry."""

import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from played import play_games

from simcore.engine.limits import RULES_VERSION
from simcore.engine.theme import load_theme
from strategies.learned_files import shipped_strong
from strategies.params import POLICY_VERSION

DIGESTS = Path(__file__).with_name("game_digests.json")
CHANGELOG = Path(__file__).resolve().parent.parent / "docs" / "changelog.md"
ENTRY = re.compile(r"^## rules (\d+), policy (\d+) \(digests ([0-9a-f]{12})\)", re.M)
GAMES = 400
SEED = 12
THEMES = ("classic", "classic_dodge_city", "walking_dead", "star_wars")
STRATEGIES = ("smart", "tuned", "basic", "random")


def configurations() -> list[dict]:
    """Keyword arguments of play_games, one dict per configuration."""
    out = []
    for theme in THEMES:
        for players in load_theme(theme).player_counts():
            for strategy in STRATEGIES:
                out.append(dict(theme=theme, players=players, strategy=strategy, events=True))
            if f"{theme}_{players}p" in shipped_strong():
                out.append(dict(theme=theme, players=players, strategy="strong", events=True))
            out.append(dict(theme=theme, players=players, strategy="smart", checked=True))
    out.append(dict(theme="classic", players=5, strategy="smart", feature="Willy the Kid=outlaw"))
    out.append(dict(theme="classic", players=7, strategy="basic", feature="Paul Regret"))
    return out


def label(kw: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in kw.items())


def digest(kw: dict) -> str:
    """sha256 of every output array of the games (seat rows, events, cards used)."""
    block = play_games(games=GAMES, seed=SEED, **kw)
    h = hashlib.sha256()
    for name in block._fields:
        value = getattr(block, name)
        if isinstance(value, np.ndarray):
            h.update(name.encode())
            h.update(np.ascontiguousarray(value).tobytes())
    return h.hexdigest()[:20]


def recorded() -> dict:
    return json.loads(DIGESTS.read_text())


def fingerprint(digests: dict[str, str]) -> str:
    """One short hash of every digest: the changelog entry of their versions names it."""
    text = "\n".join(f"{k}={v}" for k, v in sorted(digests.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def changelog() -> dict[tuple[int, int], str]:
    """(rules version, policy version) -> the fingerprint its docs/changelog.md entry names."""
    entries = ENTRY.findall(CHANGELOG.read_text())
    versions = [(int(r), int(p)) for r, p, _ in entries]
    assert len(set(versions)) == len(versions), "two changelog entries for the same versions"
    return {(int(r), int(p)): fp for r, p, fp in entries}


def test_digests_cover_every_configuration():
    assert set(recorded()["digests"]) == {label(kw) for kw in configurations()}


def test_digests_match_the_versions_and_the_changelog():
    """The digests were recorded by this code's versions, and the changelog has an entry for
    them naming these very digests: new digests under old versions fail here."""
    rec = recorded()
    assert (rec["rules_version"], rec["policy_version"]) == (RULES_VERSION, POLICY_VERSION)
    entry = changelog().get((RULES_VERSION, POLICY_VERSION))
    assert entry is not None, (
        f"{CHANGELOG.name}: no entry for rules {RULES_VERSION}, policy {POLICY_VERSION}"
    )
    assert entry == fingerprint(rec["digests"]), (
        "digests re-recorded without a version bump: bump RULES_VERSION or POLICY_VERSION "
        "and add a changelog entry saying why"
    )


@pytest.mark.parametrize("kw", configurations(), ids=label)
def test_same_games(kw):
    assert digest(kw) == recorded()["digests"][label(kw)]


if __name__ == "__main__":
    digests = {label(kw): digest(kw) for kw in configurations()}
    old = recorded()
    versions = {"rules_version": RULES_VERSION, "policy_version": POLICY_VERSION}
    if all(old.get(k) == v for k, v in versions.items()) and digests != old["digests"]:
        sys.exit(
            "the games changed under the recorded versions: bump limits.RULES_VERSION (the "
            "rules) or strategies.params.POLICY_VERSION (the bots), and add an entry to "
            "docs/changelog.md saying why"
        )
    DIGESTS.write_text(json.dumps({**versions, "digests": digests}, indent=1) + "\n")
    print(f"{len(digests)} digests written to {DIGESTS}; the entry in docs/changelog.md:")
    print(f"## rules {RULES_VERSION}, policy {POLICY_VERSION} (digests {fingerprint(digests)})")
