"""What a play request may ask, checked, and the label of the configuration it names:
player counts, game counts, character pools, featured characters. `simulate`,
`bangsim run` and every study check their requests here, so all say the same one line
(a strategy spec is checked and labelled where it is resolved: strategies.presets).
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from simcore.engine import limits
from simcore.engine.theme import Theme
from strategies.params import POLICY_VERSION

POOL_NAMES_IN_LABEL = 3  # pools up to this size are spelled out in config labels


def games_versions() -> dict[str, int]:
    """What a seed's games depend on besides the request: the rules kernel's version
    (limits.RULES_VERSION) and the bots' (strategies.params.POLICY_VERSION). Run folders,
    Ray tasks and traces record and check both."""
    return {"rules_version": limits.RULES_VERSION, "policy_version": POLICY_VERSION}


def versions_words(rules: object, policy: object = None) -> str:
    """'rules version 4, policy version 1' (records made before policy versions: the rules
    version alone)."""
    return f"rules version {rules}" + ("" if policy is None else f", policy version {policy}")


def config_label(
    theme_id: str, players: int, strategy: str,
    characters: Sequence[str] | None = None, feature: str | None = None,
) -> str:  # fmt: skip
    """The label of one configuration: ``{theme}/{players}p/{strategy}[/{pool}][/feature=F]``.

    strategy is the strategy's canonical label (strategies.presets.strategy_label): the
    preset name, or ``role=preset,...`` for all four roles in canonical order when they
    differ. The pool part appears only when a character pool was given:
    ``pool:Name+Name`` for up to 3 names, else ``pool{count}-{6 hex of its hash}``.

    >>> config_label("classic", 5, "basic")
    'classic/5p/basic'
    >>> config_label("classic", 4, "leader=random,deputy=smart,outlaw=smart,renegade=smart",
    ...              ["Jourdonnais"])
    'classic/4p/leader=random,deputy=smart,outlaw=smart,renegade=smart/pool:Jourdonnais'
    """
    parts = [theme_id, f"{players}p", strategy]
    if characters is not None:
        names = list(characters)
        if len(names) <= POOL_NAMES_IN_LABEL:
            parts.append("pool:" + "+".join(names))
        else:
            digest = hashlib.sha1("\n".join(names).encode()).hexdigest()[:6]
            parts.append(f"pool{len(names)}-{digest}")
    if feature is not None:
        parts.append(f"feature={feature}")
    return "/".join(parts)


class LabelParts(NamedTuple):
    """A configuration label read back (split_label)."""

    theme: str
    players: str  # "5p"
    strategy: str  # a --strategy spec
    extras: list[str]  # the pool, the featured character, an experiment's overrides


def split_label(label: str) -> LabelParts:
    """A configuration label's parts. The strategy may name a presets file by its path, whose
    "/"s belong to it: it runs to the last part that names one (``.toml:NAME``, or a
    mixture file's ``.json``).

    >>> split_label("classic/5p/basic/pool:Jourdonnais")
    LabelParts(theme='classic', players='5p', strategy='basic', extras=['pool:Jourdonnais'])
    >>> split_label("classic/5p//runs/band/leader_low.toml:leader_low").strategy
    '/runs/band/leader_low.toml:leader_low'
    >>> split_label("classic/5p/runs/tune/psro/mixture.json/pool:Jourdonnais").strategy
    'runs/tune/psro/mixture.json'
    """
    parts = label.split("/")
    names = [j for j in range(2, len(parts)) if ".toml:" in parts[j] or parts[j].endswith(".json")]
    end = max([2, *names])
    return LabelParts(parts[0], parts[1] if len(parts) > 1 else "", "/".join(parts[2 : end + 1]),
                      parts[end + 1 :])  # fmt: skip


def safe_name(label: str) -> str:
    """A config label as a file name: runs of anything but letters, digits, '.', '=', '-' -> '_'.

    >>> safe_name("classic/5p/basic")
    'classic_5p_basic'
    """
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", label).strip("_")


def player_counts(players: int | Iterable[int], theme: Theme) -> list[int]:
    """Player counts as a sorted, de-duplicated list; ValueError if the theme has no table."""
    counts = [players] if isinstance(players, int) else list(players)
    if not counts:
        raise ValueError("no player count given")
    supported = theme.player_counts()
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, int):
            raise ValueError(f"player count must be an integer, got {n!r}")
        if n not in supported:
            lo, hi = limits.MIN_PLAYERS, limits.MAX_PLAYERS
            if lo <= n <= hi:
                raise ValueError(
                    f"theme '{theme.id}' has no role table for {n} players "
                    f"(supported: {', '.join(map(str, supported))})"
                )
            raise ValueError(f"players must be between {lo} and {hi}, got {n}")
    return sorted(set(counts))


def check_seed(seed: int) -> int:
    """`seed` if it is an integer in 0..2**63-1; else a one-line ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
    return seed


def check_games(games: int) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    return games


def check_characters(
    characters: Sequence[str] | None, theme: Theme, players: Iterable[int] = ()
) -> list[str] | None:
    """The pool as a list of the theme's names, enough for every table in `players`;
    ValueError naming the first unknown name."""
    if characters is None:
        return None
    if isinstance(characters, str):
        raise ValueError("characters must be a list of names, not one string")
    pool = list(characters)
    if not pool:
        raise ValueError("the character pool is empty")
    known = set(theme.character_names)
    for name in pool:
        if name not in known:
            close = difflib.get_close_matches(str(name), theme.character_names, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ValueError(
                f"unknown character '{name}' in theme '{theme.id}'{hint}; "
                f"known: {', '.join(theme.character_names)}"
            )
    dupes = sorted({c for c in pool if pool.count(c) > 1})
    if dupes:
        raise ValueError(f"character pool lists {', '.join(dupes)} more than once")
    most = max(players, default=0)
    if len(pool) < most:
        raise ValueError(f"character pool of {len(pool)} is too small for {most} players")
    return pool


def check_feature(feature: str | None, theme: Theme, players: Iterable[int] = ()) -> str | None:
    """A featured character, "NAME" or "NAME=ROLE", in its canonical form ("Willy the Kid",
    "Willy the Kid=outlaw": the theme's character name, the canonical role); None stays None.
    ValueError (one line, listing the theme's characters) for an unknown name, an unknown
    role, or a role missing at one of `players` (see simcore.engine.play.parse_feature)."""
    if feature is None:
        return None
    if not isinstance(feature, str) or not feature.strip():
        raise ValueError(
            f"feature must be a character name or NAME=ROLE, got {feature!r} "
            f"(characters of theme '{theme.id}': {', '.join(theme.character_names)})"
        )
    from simcore.engine.play import parse_feature
    from simcore.engine.vocab import ROLES

    for n in list(players) or theme.player_counts()[-1:]:  # default: the largest table
        index, role = parse_feature(theme, feature, n)
    name = theme.character_names[int(index)]
    return name if role < 0 else f"{name}={ROLES[int(role)]}"
