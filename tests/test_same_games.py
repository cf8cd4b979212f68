"""Speed work must not change a single game: the kernel's outputs for many configurations
(every shipped theme, 4-7 players, four presets, events, a featured character, checked mode)
hash to the digests recorded in tests/game_digests.json.

A change that is meant to alter games bumps limits.RULES_VERSION and records new digests:
`NUMBA_CACHE_DIR=.numba_cache .venv/bin/python -m tests.test_same_games`."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from simcore.engine.limits import RULES_VERSION
from simcore.engine.play import play_games
from simcore.engine.theme import load_theme

DIGESTS = Path(__file__).with_name("game_digests.json")
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


def test_digests_cover_every_configuration():
    assert recorded()["rules_version"] == RULES_VERSION
    assert set(recorded()["digests"]) == {label(kw) for kw in configurations()}


@pytest.mark.parametrize("kw", configurations(), ids=label)
def test_same_games(kw):
    assert digest(kw) == recorded()["digests"][label(kw)]


if __name__ == "__main__":
    digests = {label(kw): digest(kw) for kw in configurations()}
    DIGESTS.write_text(
        json.dumps({"rules_version": RULES_VERSION, "digests": digests}, indent=1) + "\n"
    )
    print(f"{len(digests)} digests written to {DIGESTS}")
