"""Named presets from strategies/presets.toml, and a per-role strategy spec resolved to the
matrix the kernel reads (one parameter row per preset used)."""

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import numpy as np

from simcore.vocab import ROLES
from strategies.params import N_PARAMS, param_index

PRESETS_FILE = files("strategies") / "presets.toml"  # package data, found from any install
DEFAULT_PRESET = "smart"  # what every seat plays unless told otherwise


@cache
def load_presets() -> dict[str, np.ndarray]:
    """Every preset in the presets file as a float64[N_PARAMS] vector, defaults filled in."""
    raw = tomllib.loads(PRESETS_FILE.read_text())
    defaults = np.zeros(N_PARAMS)
    _apply(defaults, raw.pop("defaults"), "defaults")
    out = {}
    for name, table in raw.items():
        vec = defaults.copy()
        _apply(vec, table, name)
        vec.setflags(write=False)
        out[name] = vec
    return out


def _apply(vec: np.ndarray, table: dict, where: str) -> None:
    for key, val in table.items():
        if key == "description":
            continue
        if isinstance(val, dict):  # value.<effect>, personal.<role>
            for sub, v in val.items():
                _set(vec, f"{key}.{sub}", v, where)
        else:
            _set(vec, key, val, where)


def _set(vec: np.ndarray, key: str, val, where: str) -> None:
    try:
        vec[param_index(key)] = float(val)
    except KeyError:
        raise ValueError(f"{PRESETS_FILE.name}: [{where}] unknown key {key!r}") from None


@dataclass(frozen=True)
class Strategy:
    """A strategy spec resolved for the kernel."""

    names: tuple[str, ...]  # preset names; row i of `matrix` is names[i]
    matrix: np.ndarray  # float64[len(names), N_PARAMS]
    role_preset: np.ndarray  # int64[4]: row of `matrix` each canonical role plays

    def label(self) -> str:
        """'basic', or 'leader=smart,outlaw=basic,...' when roles differ."""
        if len(self.names) == 1:
            return self.names[0]
        return ",".join(
            f"{r}={self.names[i]}" for r, i in zip(ROLES, self.role_preset, strict=True)
        )


def resolve_strategy(spec: "str | dict[str, str] | Strategy") -> Strategy:
    """A preset name for every role ("smart"), "role=preset,..." or a dict role -> preset
    (roles left out play DEFAULT_PRESET)."""
    if isinstance(spec, Strategy):
        return spec
    presets = load_presets()
    if isinstance(spec, str) and "=" in spec:
        pairs = [part.split("=", 1) for part in spec.split(",") if part.strip()]
        spec = {k.strip(): v.strip() for k, v in pairs}
    if isinstance(spec, str):
        by_role = dict.fromkeys(ROLES, spec)
    else:
        unknown = sorted(set(spec) - set(ROLES))
        if unknown:
            raise ValueError(f"unknown role {unknown[0]!r} in strategy (roles: {', '.join(ROLES)})")
        by_role = {r: spec.get(r, DEFAULT_PRESET) for r in ROLES}
    for name in by_role.values():
        if name not in presets:
            raise ValueError(f"unknown strategy {name!r} (presets: {', '.join(presets)})")
    names = tuple(dict.fromkeys(by_role.values()))
    matrix = np.stack([presets[n] for n in names])
    role_preset = np.array([names.index(by_role[r]) for r in ROLES], dtype=np.int64)
    return Strategy(names, matrix, role_preset)
