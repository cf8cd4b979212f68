"""Hypothesis strategies for the kernel fuzz tests (tests/test_fuzz.py): random VALID theme
files, and random ways to play them.

`theme_dicts()` builds a theme as the dict a theme TOML file parses to (docs/themes.md):
random role tables, rule flags with random valid values, characters with random lives and
abilities, the theme's own effects (`[[effects]]`: like a built-in one, aimed otherwise,
followed by draws), and a deck of random copies of cards from the whole effect vocabulary
and those (values, costs, Beer flags, Encounter with Destiny lists), with rank+suit faces, symbol faces or
both, and a random "draw!" predicate for every check the deck or the characters need. The
deck is as small as the rules allow (simcore.engine.theme.min_deck_size: the largest starting
hands and the leader's first draw, at every player count), a little larger, or any size up
to limits.MAX_CARDS. `shipped_variants()` perturbs a shipped theme instead (copies dropped or
added, characters dropped, rule flags changed). `to_toml()` writes either as TOML text, so
the tests load them through the real file loader.

`plays(theme)` draws what a run would ask: a player count the theme plays, a character
pool, a featured character (of a role, maybe), a preset for everyone or per role (dict or
"role=preset" string), event counts or not, seed and game range.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from typing import Any

from hypothesis import assume, settings
from hypothesis import strategies as st

from simcore.engine import limits, vocab
from simcore.engine.theme import (
    OWN_AIMS,
    RANKS,
    SUITS,
    THEMES_DIR,
    TURN_CAP_MAX,
    Theme,
    min_deck_size,
    shipped_themes,
    takes_value,
)
from strategies.presets import load_presets

# `make fuzz` sets HYPOTHESIS_PROFILE=fuzz (tests/conftest.py): the profile's large budget,
# not the small fixed one `make test` gives each fuzz test.
FUZZ = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"


def budget(max_examples: int) -> settings:
    """The `make test` budget of one fuzz test; under `make fuzz` the fuzz profile's."""
    return settings() if FUZZ else settings(max_examples=max_examples)


EFFECT_NAMES = tuple(vocab.EFFECTS)
ABILITY_NAMES = tuple(vocab.ABILITIES)
VALUED_EFFECTS = frozenset(n for n, c in vocab.EFFECTS.items() if c in vocab.EFFECT_DEFAULT_VALUE)
BLUE_EFFECTS = frozenset(n for n, c in vocab.EFFECTS.items() if c in vocab.BLUE_EFFECTS)
WEAPON_EFFECTS = frozenset({"weapon", "volcanic"})
HIT_EFFECTS = sorted(n for n, c in vocab.EFFECTS.items() if c in vocab.HIT_EFFECTS)
AIMED_ONE = (vocab.AIM_REACH, vocab.AIM_RANGE, vocab.AIM_ANY_OTHER)  # those `aim` may change
# destiny names allowed on each effect name ("" and "none": no extra effect)
DESTINY_ON: dict[str, list[str]] = {
    e: [d for d, code in vocab.DESTINIES.items() if code and c in vocab.DESTINY_EFFECTS[code]]
    for e, c in vocab.EFFECTS.items()
}
SUITED_FACES = tuple(r + s for r in RANKS for s in SUITS)
SYMBOLS = ("cover", "carbonite", "trash_compactor", "new_hope", "x", "s2", "a_b_c")
ROLE_CHOICES = ("deputy", "outlaw", "renegade")
CLASSIC_ROLE_TABLE = {
    4: ["leader", "renegade", "outlaw", "outlaw"],
    5: ["leader", "renegade", "outlaw", "outlaw", "deputy"],
    6: ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy"],
    7: ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"],
}
# which checks a theme must define: the effects whose `check` trait (vocab.EFFECT_TRAITS) and
# the abilities (simcore.engine.theme.ABILITY_CHECKS) that make that draw!, by name
CHECK_NEEDED = {
    "barrel": ({"barrel"}, {"builtin_barrel"}),
    "jail": ({"jail"}, set()),
    "dynamite": ({"dynamite"}, set()),
    "draw_extra": (set(), {"draw_extra_on_check"}),
    "new_hope": ({"new_hope"}, set()),
}
PRESETS = tuple(load_presets())
# free text: names, titles, card texts; no control characters (TOML basic strings need them
# escaped) and no lone surrogates (not UTF-8)
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=0, max_size=12)


# --- the deck-size rule ---------------------------------------------------------------------


def min_deck(theme: dict[str, Any]) -> int:
    """The smallest deck the rules allow (simcore.engine.theme.min_deck_size at every player count:
    the largest starting hands, the leader's extra life, his first draw)."""
    rules = theme.get("rules", {})
    lives = [c["life"] for c in theme["characters"]]
    return max(
        min_deck_size(lives, int(n), rules.get("leader_extra_life", 1), rules.get("draw_count", 2))
        for n in theme["role_table"]
    )


def builtin(theme: dict[str, Any], effect: str) -> str:
    """The built-in effect a card's `effect` is: itself, or the one a theme's own is like."""
    return next((e["like"] for e in theme.get("effects", []) if e["name"] == effect), effect)


def table_bound(theme: dict[str, Any]) -> int:
    """Most cards one player can have in play: one per blue card name, one weapon."""
    effects = {c["name"]: builtin(theme, c["effect"]) for c in theme["cards"]}
    blue = {n for n, e in effects.items() if e in BLUE_EFFECTS - WEAPON_EFFECTS}
    return len(blue) + int(any(e in WEAPON_EFFECTS for e in effects.values()))


def deck_too_small(message: str) -> bool:
    """A loader error for a deck too small to deal the starting hands and the first draw (the
    one rejection the fuzz tests accept from a theme the strategies meant to be valid: they
    follow min_deck_size, but the loader owns the rule)."""
    return re.search(r"cards: \d+ cards are too few for \d players", message) is not None


# --- small pieces -------------------------------------------------------------------------


def small_or_any(lo: int, small_hi: int, hi: int) -> st.SearchStrategy[int]:
    """Mostly lo..small_hi, sometimes anything up to hi."""
    return st.one_of(st.integers(lo, small_hi), st.integers(lo, small_hi), st.integers(lo, hi))


@st.composite
def role_rows(draw, n: int) -> list[str]:
    if draw(st.booleans()):
        return list(CLASSIC_ROLE_TABLE[n])
    # at least one outlaw (the loader's rule), anywhere in seats 1..n-1
    rest = draw(st.lists(st.sampled_from(ROLE_CHOICES), min_size=n - 2, max_size=n - 2))
    rest.insert(draw(st.integers(0, n - 2)), "outlaw")
    return ["leader", *rest]


@st.composite
def rule_tables(draw) -> dict[str, Any]:
    """Any subset of the [rules] keys, each with a random valid value."""
    effects = st.lists(st.sampled_from(EFFECT_NAMES), unique=True, max_size=4)
    candidates = {
        "leader_extra_life": small_or_any(0, 2, 10),
        "outlaw_reward": small_or_any(0, 4, 200),
        "leader_kills_deputy_penalty": st.booleans(),
        "beer_min_players": small_or_any(0, 4, 9),
        "dynamite_damage": small_or_any(0, 4, 1000),
        "bang_limit": small_or_any(0, 3, 1000),
        "draw_count": small_or_any(0, 4, 40),
        "jail_on_leader": st.booleans(),
        "damage_by_no_one": effects,
        "no_reward_effects": effects,
        "new_hope_heal": small_or_any(0, 3, 1000),
        "self_target_effects": st.lists(
            st.sampled_from(["steal", "discard_any"]), unique=True, max_size=2
        ),
        "double_missed_effects": st.lists(st.sampled_from(HIT_EFFECTS), unique=True, max_size=3),
        # short games mostly; rarely the longest a game may record
        "turn_cap": st.one_of(
            st.integers(1, 60), st.integers(1, 400), st.just(1000), st.integers(1, TURN_CAP_MAX)
        ),
    }
    assert set(candidates) == set(vocab.RULES), "a rule the fuzzer does not know: add it here"
    keys = draw(st.lists(st.sampled_from(list(candidates)), unique=True))
    return {k: draw(candidates[k]) for k in keys}


@st.composite
def characters(draw, n_players: int) -> list[dict[str, Any]]:
    count = draw(st.one_of(st.integers(n_players, 10), st.integers(n_players, 64)))
    # mostly printed-like lives; sometimes a tough table; rarely the int8 maximum
    life = st.one_of(st.integers(1, 5), st.integers(1, 12), st.just(127))
    lives = draw(st.lists(st.integers(1, 5), min_size=count, max_size=count))
    if draw(st.booleans()):
        i = draw(st.integers(0, count - 1))
        lives[i] = draw(life)
    out = []
    for i in range(count):
        char: dict[str, Any] = {
            "name": f"Char {i}|{draw(TEXT)}",
            "life": lives[i],
            "ability": draw(st.sampled_from(ABILITY_NAMES)),
        }
        if draw(st.integers(0, 3)) == 0:
            char["text"] = "x" + draw(TEXT)
        out.append(char)
    return out


def split(draw, total: int, parts: int) -> list[int]:
    """total cards as `parts` positive counts."""
    cuts = draw(
        st.lists(st.integers(1, total - 1), unique=True, min_size=parts - 1, max_size=parts - 1)
    )
    edges = [0, *sorted(cuts), total]
    return [b - a for a, b in zip(edges, edges[1:], strict=False)]


@st.composite
def own_effects(draw) -> list[dict[str, Any]]:
    """[[effects]] tables: a theme's own effects, each like a built-in one, maybe aimed
    otherwise (when that one aims at one other player) and followed by draws."""
    out = []
    for i in range(draw(st.integers(0, 3))):
        like = draw(st.sampled_from(EFFECT_NAMES))
        entry: dict[str, Any] = {"name": f"own {i}|{draw(TEXT)}", "like": like}
        if vocab.EFFECT_TRAITS[vocab.EFFECTS[like]].aim in AIMED_ONE and draw(st.booleans()):
            entry["aim"] = draw(st.sampled_from(OWN_AIMS))
        if draw(st.booleans()):
            entry["draws"] = draw(small_or_any(0, 2, 127))
        if draw(st.integers(0, 3)) == 0:
            entry["text"] = "e" + draw(TEXT)
        out.append(entry)
    return out


def valued(theme: dict[str, Any], effect: str) -> bool:
    """Does a card of `effect` (built-in or the theme's own) carry a value?"""
    own = next((e for e in theme.get("effects", []) if e["name"] == effect), None)
    if own is None:
        return effect in VALUED_EFFECTS
    code = vocab.EFFECTS[own["like"]]
    aim = vocab.AIMS[own["aim"]] if "aim" in own else vocab.EFFECT_TRAITS[code].aim
    return takes_value(code, aim)


@st.composite
def card_tables(draw, theme: dict[str, Any], total: int, faces: list[str], effects):
    """[[cards]] tables with `total` physical cards in all, of `effects` (built-in or the
    theme's own)."""
    most = min(total, limits.MAX_CARD_NAMES)
    n_names = draw(st.one_of(st.integers(1, min(most, 12)), st.integers(1, most)))
    counts = split(draw, total, n_names)
    cards = []
    for i, n in enumerate(counts):
        effect = draw(effects)
        card: dict[str, Any] = {"name": f"Card {i}|{draw(TEXT)}", "effect": effect}
        if valued(theme, effect) and draw(st.booleans()):
            card["value"] = draw(small_or_any(1, 3, 127))
        if draw(st.integers(0, 4)) == 0:
            card["cost"] = draw(small_or_any(0, 2, 127))
        base = builtin(theme, effect)
        if base == "heal" and draw(st.booleans()):
            card["beer"] = draw(st.booleans())
        if draw(st.integers(0, 3)) == 0:
            card["text"] = "t" + draw(TEXT)
        card["copies"] = draw(st.lists(st.sampled_from(faces), min_size=n, max_size=n))
        if DESTINY_ON[base] and draw(st.booleans()):
            names = st.sampled_from(["", "none", *DESTINY_ON[base]])
            card["destiny"] = draw(st.lists(names, min_size=n, max_size=n))
        cards.append(card)
    return cards


@st.composite
def predicate(draw, symbols_on_cards: list[str], suited: bool) -> dict[str, Any]:
    """A random "draw!" predicate: symbols (when the deck has symbol faces), else suits and/or
    ranks (a list or a 'LO-HI' range)."""
    if symbols_on_cards and (not suited or draw(st.booleans())):
        return {
            "symbols": draw(st.lists(st.sampled_from(symbols_on_cards), min_size=1, unique=True))
        }
    pred: dict[str, Any] = {}
    if draw(st.booleans()):
        pred["suits"] = draw(st.lists(st.sampled_from(SUITS), unique=True))
    if draw(st.booleans()):
        if draw(st.booleans()):
            lo = draw(st.integers(0, len(RANKS) - 1))
            hi = draw(st.integers(lo, len(RANKS) - 1))
            pred["ranks"] = f"{RANKS[lo]}-{RANKS[hi]}"
        else:
            pred["ranks"] = draw(st.lists(st.sampled_from(RANKS), unique=True))
    return pred


def check_tables(draw, theme: dict[str, Any]) -> dict[str, Any]:
    """Every check the deck or the characters need, and maybe some they do not."""
    faces = [f for c in theme["cards"] for f in c["copies"]]
    symbols = sorted({f for f in faces if f in SYMBOLS})
    suited = any(f not in SYMBOLS for f in faces)
    effects = {builtin(theme, c["effect"]) for c in theme["cards"]}
    abilities = {c["ability"] for c in theme["characters"]}
    checks = {}
    for name, (effs, abls) in CHECK_NEEDED.items():
        if effs & effects or abls & abilities or draw(st.integers(0, 3)) == 0:
            checks[name] = draw(predicate(symbols, suited))
    return checks


# --- whole themes -----------------------------------------------------------------------------


@st.composite
def theme_dicts(draw, effects: st.SearchStrategy[str] | None = None) -> dict[str, Any]:
    """A random valid theme, as the dict its TOML file parses to. `effects`: the effects the
    deck draws from (default: the whole vocabulary)."""
    counts = draw(
        st.lists(st.integers(limits.MIN_PLAYERS, limits.MAX_PLAYERS), min_size=1, unique=True)
    )
    theme: dict[str, Any] = {
        "theme": {"id": draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,12}", fullmatch=True))}
    }
    if draw(st.booleans()):
        theme["theme"]["title"] = "T" + draw(TEXT)
    if draw(st.integers(0, 3)) == 0:
        theme["theme"]["description"] = "D" + draw(TEXT)
    names = draw(st.lists(st.sampled_from(vocab.ROLES), unique=True))
    if names:
        theme["roles"] = {r: f"{r.title()} {draw(TEXT)}" for r in names}
    theme["role_table"] = {str(n): draw(role_rows(n)) for n in sorted(counts)}
    rules = draw(rule_tables())
    if rules:
        theme["rules"] = rules
    theme["characters"] = draw(characters(max(counts)))
    lo = min_deck(theme)
    assume(lo <= limits.MAX_CARDS)
    total = draw(
        st.one_of(
            st.just(lo),
            st.integers(lo, min(lo + 3, limits.MAX_CARDS)),
            st.integers(lo, limits.MAX_CARDS),
        )
    )
    style = draw(st.sampled_from(["suited", "symbol", "mixed"]))
    symbols = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4, unique=True))
    faces = {"suited": list(SUITED_FACES), "symbol": symbols, "mixed": [*SUITED_FACES, *symbols]}
    if effects is None:
        own = draw(own_effects())
        if own:
            theme["effects"] = own
        effects = st.sampled_from([*EFFECT_NAMES, *(e["name"] for e in own)])
    theme["cards"] = draw(card_tables(theme, total, faces[style], effects))
    checks = check_tables(draw, theme)
    if checks:
        theme["checks"] = checks
    # a theme some player could not lay out in front of him would overflow the kernel's table
    # (simcore.engine.theme rejects it); keep the strategies' themes valid
    assume(table_bound(theme) <= limits.MAX_TABLE)
    return theme


def shipped_raw(theme_id: str) -> dict[str, Any]:
    return tomllib.loads((THEMES_DIR / f"{theme_id}.toml").read_text())


@st.composite
def shipped_variants(draw) -> dict[str, Any]:
    """A shipped theme with random copies dropped or duplicated, characters dropped, player
    counts dropped and rule flags changed."""
    theme = shipped_raw(draw(st.sampled_from(shipped_themes())))
    theme["theme"]["id"] = theme["theme"]["id"] + "_variant"
    counts = sorted(int(k) for k in theme["role_table"])
    keep = draw(st.lists(st.sampled_from(counts), min_size=1, unique=True))
    theme["role_table"] = {str(n): theme["role_table"][str(n)] for n in sorted(keep)}
    theme.setdefault("rules", {}).update(draw(rule_tables()))
    chars = theme["characters"]
    n_chars = draw(st.integers(max(keep), len(chars)))
    theme["characters"] = draw(st.permutations(chars))[:n_chars]
    lo = min_deck(theme)
    assume(lo <= limits.MAX_CARDS)
    cards = []
    for card in theme["cards"]:
        n = len(card["copies"])
        m = draw(st.one_of(st.just(n), st.integers(0, n), st.integers(0, 2 * n)))
        if m == 0:
            continue
        idx = [draw(st.integers(0, n - 1)) for _ in range(m)] if m != n else list(range(n))
        card = dict(card, copies=[card["copies"][i] for i in idx])
        if "destiny" in card:
            card["destiny"] = [card["destiny"][i] for i in idx]
        cards.append(card)
    assume(cards and lo <= sum(len(c["copies"]) for c in cards) <= limits.MAX_CARDS)
    theme["cards"] = cards
    # a check whose symbols left the deck with its cards must go (an unknown symbol is an error)
    faces = {f for c in cards for f in c["copies"]}
    for name, pred in list(theme.get("checks", {}).items()):
        if "symbols" in pred:
            left = [s for s in pred["symbols"] if s in faces]
            if left:
                pred["symbols"] = left
            else:
                del theme["checks"][name]
    effects = {builtin(theme, c["effect"]) for c in cards}
    abilities = {c["ability"] for c in theme["characters"]}
    for name, (effs, abls) in CHECK_NEEDED.items():
        assume(name in theme.get("checks", {}) or not (effs & effects or abls & abilities))
    return theme


# --- how to play it ------------------------------------------------------------------------

STRATEGY_SPECS = st.one_of(
    st.sampled_from(PRESETS),
    st.dictionaries(st.sampled_from(vocab.ROLES), st.sampled_from(PRESETS)),
    st.dictionaries(st.sampled_from(vocab.ROLES), st.sampled_from(PRESETS), min_size=1).map(
        lambda d: ",".join(f"{r}={p}" for r, p in d.items())
    ),
)


@st.composite
def plays(draw, theme: Theme) -> dict[str, Any]:
    """Keyword arguments of simcore.engine.play.play_games for `theme`, bar the theme."""
    players = draw(st.sampled_from(theme.player_counts()))
    pool = None
    if draw(st.booleans()):
        names = theme.character_names
        pool = draw(st.lists(st.sampled_from(names), min_size=players, unique=True))
    feature = None
    if draw(st.integers(0, 2)) == 0:
        # a name with '=' or outer blanks cannot be written as --feature NAME[=ROLE]
        names = [c for c in theme.character_names if "=" not in c and c == c.strip()]
        if names:
            feature = draw(st.sampled_from(names))
            roles = sorted({vocab.ROLES[r] for r in theme.tables.roles[players, :players]})
            if draw(st.booleans()):
                role = draw(st.sampled_from(roles))
                shown = theme.role_names[role]  # its display name, when it can be written
                spellings = [role, shown] if "=" not in shown and shown == shown.strip() else [role]
                feature += "=" + draw(st.sampled_from(spellings))
            if pool is not None and feature.split("=")[0] in pool and draw(st.booleans()):
                pool.remove(feature.split("=")[0])
    return {
        "players": players,
        "feature": feature,
        "events": draw(st.booleans()),
        "games": draw(st.integers(1, 4)),
        "seed": draw(st.one_of(st.integers(0, 1000), st.integers(0, 2**63 - 1))),
        "game0": draw(st.one_of(st.just(0), st.integers(0, 2**32))),
        "strategy": draw(STRATEGY_SPECS),
        "characters": pool,
    }


# --- TOML -------------------------------------------------------------------------------------


def to_toml(theme: dict[str, Any]) -> str:
    """`theme` as TOML text (tables, then arrays of tables): tomllib.loads gives it back."""
    lines: list[str] = []
    for section in ("theme", "roles", "role_table", "rules", "checks"):
        if section in theme:
            lines.append(f"[{section}]")
            lines += [f"{_key(k)} = {_value(v)}" for k, v in theme[section].items()]
            lines.append("")
    for section in ("effects", "cards", "characters"):
        for table in theme.get(section, []):
            lines.append(f"[[{section}]]")
            lines += [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
            lines.append("")
    return "\n".join(lines)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)


def _string(s: str) -> str:
    # JSON's escapes (\" \\ \n \uXXXX ...) are TOML's; no control characters reach here
    return json.dumps(s, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {v!r}")
