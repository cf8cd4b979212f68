"""Named presets (strategies/presets.toml, or any presets file by path), and a per-role
strategy spec resolved to the matrix the kernel reads.

A preset is a table of parameter values (strategies.params names the keys) over the file's
`[defaults]` (a file of one's own falls back to the shipped defaults under its own). It may
also set values for one role, one player count, or both, which win in this order:

    [NAME]            the preset's own values
    [NAME.outlaw]     for seats of that role (leader, deputy, outlaw, renegade)
    [NAME.p5]         at that many players
    [NAME.p5.outlaw]  for that role at that many players

A strategy spec names a preset for every role: "smart", "outlaw=aggressive,leader=smart"
(roles left out play DEFAULT_PRESET), or a dict; a preset from a file is
"path/to/presets.toml:NAME". Bad files, unknown keys and out-of-range values are one-line
ValueErrors naming the file and the key.

A mixed strategy (`bangsim tune --method psro` writes one) is "path/to/mixture.json": per
player count, parameter rows and profiles of them drawn per game with weights (Mixture).
Runs play it and exploit measures it; what needs one row per role refuses it in one line.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from simcore.engine.limits import MAX_PLAYERS, MIN_PLAYERS
from simcore.engine.vocab import ROLES
from strategies.learned_files import find_learned, is_learned_spec
from strategies.params import KEYS, N_PARAMS, NO_LEARNED, P_LEARNED, check_value, param_index

PRESETS_FILE = files("strategies") / "presets.toml"  # package data, found from any install
# presets made for one theme (`make tune` writes strategies/tuned/classic.toml): a theme
# without a file of its own plays classic's, the game it re-skins
THEMED_DIR = files("strategies") / "tuned"
FALLBACK_THEME = "classic"
DEFAULT_PRESET = "tuned"  # the reference level: what every seat plays unless told otherwise
LEARNED_BASE = "tuned"  # a learned field's base, where only its name is read (names_only)
_COUNT = re.compile(r"^p(\d+)$")
_ROLE_PAIR = re.compile(r"^\s*[\w-]+\s*=")  # "role=..." (a search's "search@budget=..." is not)


@dataclass(frozen=True)
class Preset:
    """One preset: its base vector and the values it sets per role and player count."""

    name: str
    base: np.ndarray  # float64[N_PARAMS], defaults filled in
    by_role: dict[str, dict[int, float]]  # role -> {param index: value}
    by_count: dict[int, dict[int, float]]  # players -> {param index: value}
    by_count_role: dict[tuple[int, str], dict[int, float]]

    def vector(self, role: str, players: int | None) -> np.ndarray:
        """The values a seat of `role` plays at `players` players (None: no count tables)."""
        vec = self.base.copy()
        for layer in (
            self.by_role.get(role),
            self.by_count.get(players) if players else None,
            self.by_count_role.get((players, role)) if players else None,
        ):
            for i, v in (layer or {}).items():
                vec[i] = v
        return vec


def load_presets(source: str | Path | None = None) -> dict[str, Preset]:
    """Every preset in a presets file (the shipped one by default), by name."""
    return _load(str(source) if source is not None else None)[1]


@cache
def _load(source: str | None) -> tuple[np.ndarray, dict[str, Preset]]:
    """(the file's defaults, its presets by name)."""
    shipped = source is None
    where = PRESETS_FILE.name if shipped else source
    try:
        text = PRESETS_FILE.read_text() if shipped else Path(source).read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except FileNotFoundError:
        raise ValueError(f"presets file {source} not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read presets file {source}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{where}: not valid TOML: {e}") from None
    defaults = np.zeros(N_PARAMS) if shipped else _load(None)[0].copy()
    _flat(raw.pop("defaults", {}), where, "defaults", defaults)
    out = {}
    for name, table in raw.items():
        if not isinstance(table, dict):
            raise ValueError(f"{where}: {name} must be a table [{name}]")
        out[name] = _preset(name, table, defaults, where)
    return _frozen(defaults), out


def _preset(name: str, table: dict, defaults: np.ndarray, where: str) -> Preset:
    base = defaults.copy()
    by_role: dict[str, dict[int, float]] = {}
    by_count: dict[int, dict[int, float]] = {}
    by_count_role: dict[tuple[int, str], dict[int, float]] = {}
    plain = {}
    for key, val in table.items():
        if key in ROLES:
            by_role[key] = _values(val, where, f"{name}.{key}")
        elif m := _COUNT.match(key):
            players = int(m.group(1))
            if not MIN_PLAYERS <= players <= MAX_PLAYERS:
                raise ValueError(
                    f"{where}: [{name}.{key}] player count must be {MIN_PLAYERS}..{MAX_PLAYERS}"
                )
            if not isinstance(val, dict):
                raise ValueError(f"{where}: {name}.{key} must be a table")
            roles = {r: val.pop(r) for r in list(val) if r in ROLES}
            by_count[players] = _values(val, where, f"{name}.{key}")
            for r, sub in roles.items():
                by_count_role[(players, r)] = _values(sub, where, f"{name}.{key}.{r}")
        else:
            plain[key] = val
    _flat(plain, where, name, base)
    return Preset(name, _frozen(base), by_role, by_count, by_count_role)


def _values(table: Any, where: str, at: str) -> dict[int, float]:
    if not isinstance(table, dict):
        raise ValueError(f"{where}: {at} must be a table")
    vec = np.full(N_PARAMS, np.nan)
    _flat(table, where, at, vec)
    return {int(i): float(vec[i]) for i in np.flatnonzero(~np.isnan(vec))}


def _flat(table: dict, where: str, at: str, vec: np.ndarray) -> None:
    """Set vec from a preset table: scalars, and `value`/`personal` sub-tables."""
    for key, val in table.items():
        if key == "description":
            continue
        if isinstance(val, dict):  # value.<effect>, personal.<role>
            for sub, v in val.items():
                _set(vec, f"{key}.{sub}", v, where, at)
        else:
            _set(vec, key, val, where, at)


def _set(vec: np.ndarray, key: str, val: Any, where: str, at: str) -> None:
    try:
        i = param_index(key)
    except KeyError:
        raise ValueError(f"{where}: [{at}] unknown key {key!r}") from None
    if isinstance(val, bool) or not isinstance(val, int | float):
        raise ValueError(f"{where}: [{at}] {key} must be a number, got {val!r}")
    problem = check_value(key, float(val)) if key in KEYS else None
    if problem:
        raise ValueError(f"{where}: [{at}] {key} = {val!r}: {problem}")
    vec[i] = float(val)


def _frozen(vec: np.ndarray) -> np.ndarray:
    vec.setflags(write=False)
    return vec


def tuned_theme(theme: str | None) -> str | None:
    """The theme whose shipped presets (strategies/tuned/THEME.toml) `theme` plays: its own,
    else classic's (None when neither ships)."""
    for name in (theme, FALLBACK_THEME):
        if name and (THEMED_DIR / f"{name}.toml").is_file():
            return name
    return None


def borrowed_counts(theme: str | None) -> tuple[int, ...]:
    """The player counts at which `theme`'s own shipped `tuned` (strategies/tuned/THEME.toml)
    plays classic's values exactly, every role: counts not yet re-tuned for that game, whose
    file holds a copy of classic's. () for classic, and for a theme without a file of its own
    (it plays classic's at every count: tuned_theme)."""
    if theme == FALLBACK_THEME or tuned_theme(theme) != theme:
        return ()
    own = themed_presets(theme).get("tuned")
    classic = themed_presets(FALLBACK_THEME).get("tuned")
    if own is None or classic is None:
        return ()
    return tuple(
        n
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        if all(np.array_equal(own.vector(r, n), classic.vector(r, n)) for r in ROLES)
    )


def themed_presets(theme: str | None) -> dict[str, Preset]:
    """The presets shipped for `theme` (strategies/tuned/THEME.toml), else for classic."""
    name = tuned_theme(theme)
    return load_presets(str(THEMED_DIR / f"{name}.toml")) if name else {}


def find_preset(spec: str, theme: str | None = None) -> Preset:
    """The preset a name or "path.toml:NAME" means: the shipped presets, then those shipped
    for the theme (or classic's); one-line ValueError when unknown."""
    path, sep, name = spec.rpartition(":")
    if sep and path.endswith(".toml"):
        presets = load_presets(path)
        if name not in presets:
            raise ValueError(f"no preset {name!r} in {path} (presets: {', '.join(presets)})")
        return presets[name]
    presets = {**themed_presets(theme), **load_presets()}
    if spec not in presets:
        known = ", ".join(presets)
        raise ValueError(
            f"unknown strategy {spec!r} (presets: {known}; or a file: path/to/presets.toml:NAME)"
        )
    return presets[spec]


SEARCH = "search"  # "search:BASE", "search@budget=256@worlds=8:BASE": a searching seat
# the decision kinds a seat searches: simcore.engine.state.SK_* (which imports this package,
# so the bits are written here again; tests/test_search_kinds.py holds them equal)
SEARCH_KINDS = {
    "play": 1,
    "discard": 2,
    "target": 4,
    "stop": 8,
    "beer": 16,
    "duel": 32,
    "area": 64,
    "take": 128,
    "putback": 256,
}


@dataclass(frozen=True)
class Search:
    """How a `search:BASE` seat searches (simcore.engine.search): `worlds` per option in the
    first round, at most `budget` rollouts per decision, the decision `kinds` that search
    (SEARCH_KINDS), `seats` "all" of its role or "one" (the first, clockwise from the
    leader), and `z`: an option replaces BASE's choice only if it wins more by z standard
    errors (a sign test over the worlds where the two differ); `beta` > 0 weights the
    worlds' hidden roles toward the public record and the seat's own observations."""

    worlds: int = 8
    budget: int = 256
    kinds: tuple[str, ...] = ("play", "discard")
    seats: str = "all"
    z: float = 1.0  # how many standard errors an option must beat BASE's by to be taken
    beta: float = 1.0  # how much the worlds' hidden roles follow the record (0: uniform)

    @classmethod
    def parse(cls, head: str) -> Search:
        """The settings of a spec's head: "search" or "search@KEY=VALUE@..."; one-line
        ValueError for a bad one."""
        values: dict[str, Any] = {}
        for part in head.split("@")[1:]:
            key, sep, val = (x.strip() for x in part.partition("="))
            if not sep or key not in ("worlds", "budget", "kinds", "seats", "z", "beta"):
                raise ValueError(
                    f"bad search setting {part!r} in {head!r} (settings: worlds=N, "
                    "budget=N, kinds=KIND+KIND, seats=all|one, z=X, beta=X)"
                )
            if key in ("worlds", "budget"):
                least = 1 if key == "worlds" else 0
                if not val.isdigit() or int(val) < least:
                    raise ValueError(f"search {key} must be a whole number >= {least}, got {val!r}")
                values[key] = int(val)
            elif key in ("z", "beta"):
                try:
                    values[key] = float(val)
                except ValueError:
                    values[key] = -1.0
                if not 0.0 <= values[key] <= 10.0:
                    raise ValueError(f"search {key} must be a number from 0 to 10, got {val!r}")
            elif key == "kinds":
                kinds = tuple(k.strip() for k in val.split("+"))
                bad = [k for k in kinds if k not in SEARCH_KINDS]
                if bad or not kinds:
                    raise ValueError(
                        f"unknown search kind {bad[0] if bad else val!r} "
                        f"(kinds: {', '.join(SEARCH_KINDS)}, joined by +)"
                    )
                values[key] = kinds
            else:
                if val not in ("all", "one"):
                    raise ValueError(f"search seats must be all or one, got {val!r}")
                values[key] = val
        return cls(**values)

    def config(self, roles: int) -> np.ndarray:
        """simcore.engine.search's settings array for the roles (bits) that search."""
        kinds = sum(SEARCH_KINDS[k] for k in set(self.kinds))
        one = self.seats == "one"
        z = round(100 * self.z)
        beta = round(100 * self.beta)
        return np.array([roles, self.worlds, self.budget, kinds, one, z, beta], np.int64)


def split_search(spec: str) -> tuple[Search | None, str]:
    """(the search settings, BASE) of "search...:BASE"; (None, spec) for any other spec."""
    head, sep, base = spec.partition(":")
    if head.strip() != SEARCH and not head.startswith(SEARCH + "@"):
        return None, spec
    if not sep or not base.strip():
        raise ValueError(f"search strategy {spec!r} names no base strategy (search:BASE)")
    if split_search(base)[0] is not None:
        raise ValueError(f"search strategy {spec!r}: its base cannot search too")
    return Search.parse(head.strip()), base.strip()


MIXTURE_SUFFIX = ".json"  # a strategy spec naming a mixture file


@dataclass(frozen=True)
class Mixture:
    """A mixed strategy (a meta-strategy, as PSRO's): per game one profile of `rows` drawn
    with `weights`, every seat of a role playing that profile's row for it. The profiles may
    be correlated (a joint distribution, as JPSRO's coarse correlated equilibria): a role's
    best response faces the others as the joint draws them. Game g's profile is a function
    of the seed and g alone, so games draw the same whatever the chunking."""

    rows: np.ndarray  # float64[M, N_PARAMS]: every member of every role's population
    profiles: np.ndarray  # int64[J, 4]: per profile, the row each canonical role plays
    weights: np.ndarray  # float64[J], summing to 1

    def draw(self, seed: int, games: int, game0: int = 0) -> np.ndarray:
        """Per game game0 .. game0+games-1, the row each role plays: int64[games, 4]."""
        key = int.from_bytes(hashlib.sha256(f"{seed}:mixture".encode()).digest()[:8], "little")
        z = np.arange(game0, game0 + games, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        with np.errstate(over="ignore"):  # splitmix64's finaliser, wrapping as it should
            z += np.uint64(key)
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z ^= z >> np.uint64(31)
        u = (z >> np.uint64(11)).astype(np.float64) / 2.0**53
        cum = np.cumsum(self.weights)
        return self.profiles[np.minimum(np.searchsorted(cum / cum[-1], u, "right"), len(cum) - 1)]

    def table(self) -> np.ndarray:
        """float64[J, 5]: per profile the row each role plays and its weight (what a seat
        that searches against this field draws its worlds' profiles from)."""
        return np.column_stack([self.profiles.astype(np.float64), self.weights])

    def fingerprint(self) -> np.ndarray:
        """Its content as one array (a best response's digest names its field by it); the
        rows without `learned`, which a mixture never sets (strategy_values)."""
        rows = strategy_values(self.rows)
        return np.concatenate([rows.ravel(), self.profiles.ravel(), self.weights])

    def marginal(self, role: int) -> dict[int, float]:
        """Role's rows with their total weight, heaviest first."""
        total: dict[int, float] = {}
        for row, w in zip(self.profiles[:, role].tolist(), self.weights, strict=True):
            total[row] = total.get(row, 0.0) + float(w)
        return dict(sorted(total.items(), key=lambda kv: -kv[1]))

    def as_dict(self) -> dict[str, Any]:
        return {
            "rows": [{k: float(r[param_index(k)]) for k in MIXED_KEYS} for r in self.rows],
            "profiles": [dict(zip(ROLES, p, strict=True)) for p in self.profiles.tolist()],
            "weights": self.weights.tolist(),
        }

    @classmethod
    def from_dict(cls, d: dict, where: str) -> Mixture:
        try:
            rows = np.array([_row(r, where) for r in d["rows"]], np.float64)
            profiles = np.array([[int(p[r]) for r in ROLES] for p in d["profiles"]], np.int64)
            weights = np.array(d["weights"], np.float64)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{where}: not a mixture ({type(e).__name__}: {e})") from None
        ok = len(profiles) == len(weights) > 0 and (weights >= 0).all() and weights.sum() > 0
        if not ok or profiles.min() < 0 or profiles.max() >= len(rows):
            raise ValueError(f"{where}: profiles must be rows of it, with weights of them")
        return cls(rows, profiles, weights / weights.sum())


def strategy_values(rows: np.ndarray) -> np.ndarray:
    """Parameter rows without `learned` (the last parameter), which only a learned file
    sets: what names a profile of the family (a band's request digests hash these bytes,
    the same as before the key existed)."""
    return np.delete(rows, P_LEARNED, axis=-1)


# a mixture's rows hold every key but `learned`: a mixture plays no learned tables
MIXED_KEYS = tuple(k for k in KEYS if k != "learned")


def _row(values: dict, where: str) -> np.ndarray:
    """A parameter vector from every key's value (as_dict's rows), over the defaults."""
    vec = _load(None)[0].copy()
    for key in MIXED_KEYS:
        _set(vec, key, values[key], where, "rows")
    return vec


def mixture_text(mixtures: dict[int, Mixture], made_by: str | None = None) -> str:
    """A mixture file's text, as load_mixture reads it: what made it, when given, and per
    player count its mixture."""
    doc: dict[str, Any] = {} if made_by is None else {"made_by": made_by}
    doc["players"] = {str(n): m.as_dict() for n, m in mixtures.items()}
    return json.dumps(doc, indent=1) + "\n"


def load_mixture(path: str, players: int | None) -> Mixture:
    """The mixture for `players` (None: the file's first) in a mixture file (the JSON that
    bangsim tune --method psro writes: {"players": {"5": Mixture.as_dict(), ...}})."""
    try:
        made = json.loads(Path(path).read_text())
        by_count = made["players"]
    except FileNotFoundError:
        raise ValueError(f"no mixture file {path!r}") from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not a mixture file ({type(e).__name__}: {e})") from None
    key = str(players) if players is not None else next(iter(by_count), None)
    if key not in by_count:
        raise ValueError(
            f"mixture file {path!r} has no {players}-player mixture "
            f"(it has: {', '.join(by_count) or 'none'})"
        )
    return Mixture.from_dict(by_count[key], f"{path} ({key} players)")


NO_SEARCH = np.zeros(7, np.int64)  # Strategy.search_config without a searching role


@dataclass(frozen=True)
class Strategy:
    """A strategy spec resolved for the kernel: one parameter row per role (a `search:BASE`
    role's row is BASE's, `search` how those roles search)."""

    by_role: tuple[str, ...]  # the preset spec each canonical role plays
    players: int | None  # the player count its per-count tables were read for
    theme: str | None  # the theme whose shipped presets (tuned) were read
    matrix: np.ndarray  # float64[4, N_PARAMS]: row r is what role r plays
    search: Search | None = None
    search_roles: int = 0  # bit r: role r searches
    # a mixed strategy: what its games play (matrix is then its heaviest profile's rows)
    mixture: Mixture | None = None
    # float64[k, LEARN_SLOTS, N_CTX]: the learned tables its rows with `learned` = j + 1
    # play (strategies.learned; `strong`), the kernel's Tables.learn
    learned: np.ndarray = field(default_factory=lambda: NO_LEARNED)

    def search_config(self) -> np.ndarray:
        """simcore.engine.search's settings array (all zero: no role searches)."""
        return self.search.config(self.search_roles) if self.search else NO_SEARCH

    @property
    def role_preset(self) -> np.ndarray:
        """int64[4]: the row of `matrix` each canonical role plays."""
        return np.arange(len(ROLES), dtype=np.int64)

    @property
    def names(self) -> tuple[str, ...]:
        """The preset each row plays (seat rows record it)."""
        return self.by_role

    @property
    def bases(self) -> tuple[str, ...]:
        """Per canonical role, its preset: a `search:BASE` role's BASE (a trace shows it)."""
        return tuple(split_search(s)[1] for s in self.by_role)

    def label(self) -> str:
        """'basic', or 'leader=smart,outlaw=basic,...' when roles differ."""
        if len(set(self.by_role)) == 1:
            return self.by_role[0]
        return ",".join(f"{r}={n}" for r, n in zip(ROLES, self.by_role, strict=True))


def resolve_strategy(
    spec: str | dict[str, str] | Strategy,
    players: int | None = None,
    theme: str | None = None,
    mixed: bool = False,
    names_only: bool = False,
) -> Strategy:
    """A preset for every role ("smart"), "role=preset,..." or a dict role -> preset (roles
    left out play DEFAULT_PRESET); per-count tables are read for `players`, and presets
    shipped for one theme (tuned) for `theme`, when given. A mixture file
    ("path/mixture.json", read for `players`) only where `mixed` says the caller plays its
    draws; elsewhere a one-line ValueError. names_only: only the names are checked for a
    learned field (`strong`, a learned file), whose rows are then its base's without its
    tables (strategy_label: the label, not a strategy to play)."""
    if isinstance(spec, str) and spec.strip().endswith(MIXTURE_SUFFIX):
        return _mixed_strategy(spec.strip(), players, theme, mixed)
    if isinstance(spec, Strategy) and spec.mixture is not None:
        if mixed and players in (None, spec.players):
            return spec  # as resolved, file and all: a Ray node need not hold the file
        return _mixed_strategy(spec.by_role[0], players or spec.players, theme, mixed)
    if isinstance(spec, Strategy):
        if (players is None or spec.players == players) and (theme is None or spec.theme == theme):
            return spec
        players = spec.players if players is None else players
        theme = spec.theme if theme is None else theme
        spec = dict(zip(ROLES, spec.by_role, strict=True))
    if isinstance(spec, str) and _ROLE_PAIR.match(spec):
        pairs = [part.split("=", 1) for part in spec.split(",") if part.strip()]
        spec = {k.strip(): v.strip() for k, v in pairs}
    if isinstance(spec, str):
        by_role = dict.fromkeys(ROLES, spec.strip())
    else:
        unknown = sorted(set(spec) - set(ROLES))
        if unknown:
            raise ValueError(f"unknown role {unknown[0]!r} in strategy (roles: {', '.join(ROLES)})")
        by_role = {r: spec.get(r, DEFAULT_PRESET) for r in ROLES}
    rows = []
    searches = set()
    roles = 0
    learned = np.zeros((len(ROLES), *NO_LEARNED.shape[1:]))
    for i, r in enumerate(ROLES):
        search, base = split_search(by_role[r])
        if search is not None:
            searches.add(search)
            roles |= 1 << i
        if is_learned_spec(base) and names_only:
            rows.append(find_preset(LEARNED_BASE, theme).vector(r, players))
        elif is_learned_spec(base):
            found = find_learned(base, theme, players)
            row = find_preset(found.base, theme).vector(r, players)
            row[P_LEARNED] = i + 1  # Tables.learn[i]: this role's table
            learned[i] = found.tables[i]
            rows.append(row)
        else:
            rows.append(find_preset(base, theme).vector(r, players))
    if len(searches) > 1:
        raise ValueError("the searching roles of one strategy must search with the same settings")
    search = searches.pop() if searches else None
    by = tuple(by_role[r] for r in ROLES)
    matrix = np.stack(rows)
    if not matrix[:, P_LEARNED].any():
        learned = NO_LEARNED
    return Strategy(by, players, theme, matrix, search, roles, learned=learned)


StrategySpec = str | Mapping[str, str] | Strategy  # what resolve_strategy reads


def strategy_label(strategy: StrategySpec) -> str:
    """The canonical name of a strategy: the preset name when every role plays the same one,
    else ``role=preset,...`` for all four roles in canonical order (roles not given play
    `tuned`, DEFAULT_PRESET); a mixture file's path. ValueError (one line) for an unknown
    preset or role, or a file that is not a mixture."""
    return resolve_strategy(strategy, mixed=True, names_only=True).label()


def values_source(strategy: StrategySpec, theme: str | None) -> str | None:
    """The theme whose shipped strategy values (strategies/tuned/THEME.toml, tuned_theme)
    the seats of `strategy` play on `theme` (a Theme.plays_as): its own, a parent's, or
    classic's; None when no seat plays a preset shipped per theme (smart, a mixture)."""
    if isinstance(strategy, str) and strategy.strip().endswith(MIXTURE_SUFFIX):
        return None
    themed = set(themed_presets(theme)) - set(load_presets())
    for spec in resolve_strategy(strategy, mixed=True, names_only=True).by_role:
        base = split_search(spec)[1]
        if is_learned_spec(base) or base in themed:
            return tuned_theme(theme)
    return None


def strategy_record(strategy: StrategySpec, theme: str | None) -> dict[str, Any]:
    """What a run folder's manifest records of a configuration's strategy on `theme` (a
    Theme.plays_as): the spec each role plays, roles left out filled (DEFAULT_PRESET), and
    the theme whose shipped values its seats play (values_source)."""
    by_role = resolve_strategy(strategy, mixed=True, names_only=True).by_role
    return {"roles": dict(zip(ROLES, by_role, strict=True)),
            "values": values_source(strategy, theme)}  # fmt: skip


def check_strategy(
    strategy: StrategySpec, counts: Sequence[int] = (), theme: str | None = None
) -> str:
    """The strategy's canonical label (see strategy_label), which resolve_strategy also
    reads; also read at each of `counts` (a mixture file may lack one; with `theme`, a
    learned field may lack one)."""
    if isinstance(strategy, str) and not strategy.strip():
        raise ValueError("strategy must be a preset name, got an empty string")
    if not isinstance(strategy, str | Mapping | Strategy):
        raise ValueError(
            f"strategy must be a preset name or a role -> preset dict, got {strategy!r}"
        )
    for n in counts:
        resolve_strategy(strategy, n, theme, mixed=True, names_only=theme is None)
    return strategy_label(strategy)


def _mixed_strategy(path: str, players: int | None, theme: str | None, mixed: bool) -> Strategy:
    if not mixed:
        raise ValueError(
            f"{path!r} is a mixed strategy (a mixture file): run, experiment, band and exploit "
            "play it; this needs one parameter row per role"
        )
    mixture = load_mixture(path, players)
    heaviest = mixture.profiles[int(np.argmax(mixture.weights))]
    return Strategy((path,) * len(ROLES), players, theme, mixture.rows[heaviest], mixture=mixture)


def preset_toml(name: str, tables: dict[int | None, np.ndarray], header: str = "") -> str:
    """A presets file holding `name`: for each player count (None: every count) a matrix
    float64[4, N_PARAMS] whose row r is what role r plays. Loads back to the same values, bit
    for bit (a real is written as Python's shortest repr that reads back exactly), so a
    profile reloaded from its file is the same search request as the one in memory."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [f"[{name}]", f'description = "{name}"', ""]
    for players, matrix in tables.items():
        for r, role in enumerate(ROLES):
            lines.append(f"[{name}.p{players}.{role}]" if players else f"[{name}.{role}]")
            for key in KEYS:
                v = float(matrix[r, param_index(key)])
                lines.append(f"{key} = {int(v) if KEYS[key].kind != 'real' else repr(v)}")
            lines.append("")
    return "\n".join(lines)
