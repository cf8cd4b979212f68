"""The band of a verdict: how low and how high a side's win rate goes over strategy profiles
in which no role can gain more than epsilon by a best response against the rest.

Strategies that are about equally good for the role that plays them can move another
side's rate a lot (the tuned 5-player Renegade keeping his cover moves the Sheriff's side
by 8.6 points at a cost of 0.6 of his own); iterated best response lands on one of them by
the accident of its path. The band reports the range instead (the equilibrium-selection
problem that PSRO, alpha-Rank and JPSRO treat as a set, not a point).

The search, per end (low, high) of one side's rate, from a start profile (`tuned`) and from
each of the profiles `also` names (near-equilibria found another way: a PSRO mixture from
another seed or another start, `bangsim tune --method psro`), searched alike:
1. each role in turn pushes: a best response whose aim is that side's rate, down or up,
   while the role keeps its own win rate within epsilon of what its current parameters
   give (`simcore.studies.tune.Aim`); the push is kept if it moved the side the right way;
2. after each push that is kept, every other role re-responds (a best response for its own
   win rate, kept when it gains), so the profile stays near an equilibrium; a push that is
   not kept leaves the profile as it was, with nothing to respond to (the ends' checks in 3
   measure how near an equilibrium the profile is);
3. the end profile's side rates are measured on fresh deals, and its exploitability inside
   the parameter family per role (a best response each, or the largest gain of
   `check_seeds` searches with their own seeds: a search lands on one optimum, and its gain
   is a lower bound), so a reader sees how near an equilibrium each end is: an end whose
   role gains exceed epsilon is flagged;
4. the band runs from the lowest to the highest rate over the start profile (measured and
   checked the same way, on the same deals) and the other profiles (`also` and the searched
   ends) that are within epsilon:
   an end the search could not keep near an equilibrium, or one that moved the wrong way
   (the re-responses after its pushes can take the side back past the start), does not
   narrow or widen it. The bands of several sides of one table (`bangsim band --side
   all`) each span every side's profiles within epsilon (span_sides): they are measured
   on the same deals, and a near-equilibrium found by pushing one side bounds them all.

A best response is a function of its request: the role, its aim, the profile's values and
the budget name its folder under `shared` and its seed. So a request met twice is searched
once (`Band.reused`): a profile's check for a role whose last re-response was not kept is
that re-response (the profile has not changed since), an end no push moved is the start and
shares its checks, and the start's checks are every side's. A push is kept only when the
side's move clears zero (its 95% interval), so noise does not buy three re-responses; a
round that keeps no push ends the end's search (the next would ask the same searches).
Every best response keeps its state in its own folder, so a rerun resumes; the same seed
gives the same band; `backend` plays on Ray as the other searches do. `rounds` 0 pushes
nothing: the band is then over the start and the `also` profiles as they are, each measured
and checked. The end profiles are written as presets (out/SIDE_low.toml, out/SIDE_high.toml;
out/SIDE_alsoK_low.toml ... for the `also` profiles) that `--strategy PATH:NAME` replays.

A profile is pure (one parameter row per role) or mixed (strategies.presets.Mixture: per game
one profile drawn from a distribution, as PSRO's meta-strategies): a push or re-response
against a mixed profile replaces that role's row in every profile of it (the others still
draw theirs), and a mixed end is written as a mixture file (out/SIDE_low.json) that
`--strategy PATH.json` replays.

Beyond the family (`spot_check` deals, 0: off): the start and each profile within epsilon
are also played with one seat of each role searching by rollouts (`search:BASE`, BASE the
profile's own preset for the role, simcore.studies.search_gain) against the profile's own
play on the same deals, every profile on the same deals; each profile's answer is saved
under `shared`, named by its request, and not replayed. Against a mixed profile the seat's
worlds draw the others' rows from the mixture (simcore.engine.search.world_rows).

Shipped bands are data: strategies/bands/THEME.json lists a theme's bands (one row per
player count and side, rates in points) and names its end presets, which lie beside it
(THEME-Np-SIDE_END.toml; a mixed end as mixtures/THEME-Np-SIDE_END.json). `ship_band` adds
a computed band there; `shipped_bands` reads them, from the folder BANGSIM_BANDS names when
it is set (a designer's own bands, or a test's).
`replay` plays a band's end presets on a run's own deals, which is how reports show it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from simcore.engine.play import check_players
from simcore.engine.theme import Theme
from simcore.engine.vocab import ROLES, WINNERS
from simcore.errors import UserError, one_line
from simcore.runs.atomic import write_atomic
from simcore.runs.backend import Backend
from simcore.runs.runfolder import theme_digest
from simcore.stats import wilson_interval
from simcore.studies.batch import EngineTable, Tally, Work, play_all
from simcore.studies.search_gain import search_gain, settings
from simcore.studies.search_loop import sub_seed
from simcore.studies.tune import (
    GAIN,
    OWN,
    Settings,
    best_response,
    roles_at,
    takes,
)
from strategies.presets import (
    MIXTURE_SUFFIX,
    Mixture,
    Search,
    Strategy,
    mixture_text,
    preset_toml,
    resolve_strategy,
    strategy_values,
)

RESULT = "band.json"
ENDS = ("low", "high")
STAGES = ("push", "respond", "check", "final", "spot_check")  # Band.cost's keys
SHIPPED_DIR = files("strategies") / "bands"  # package data: THEME.json and its end presets
BANDS_ENV = "BANGSIM_BANDS"  # a folder of bands read instead of the shipped ones
REPLAY_GAMES = 20_000  # the most deals of a run a report replays each end preset on
MIXTURES = "mixtures"  # the shipped bands' subfolder of mixed end profiles

Profile = np.ndarray | Mixture  # pure: float64[4, N_PARAMS], row r what role r plays


@dataclass
class Move:
    """One best response of a band search: a push on the side, or a re-response."""

    end: str
    round: int
    role: str
    kind: str  # "push" or "respond"
    gain: float  # the role's own win rate, answer minus its parameters before (paired)
    side_move: float  # the side's rate, answer minus before (paired)
    kept: bool
    games: int  # the best response's games (0 when reused)
    reused: bool = False  # the same request was answered before (this table's bands): not again


@dataclass
class End:
    """One end of a band: its profile's rates on fresh deals and how exploitable it is."""

    end: str
    strategy: str  # a spec --strategy accepts
    rate: float  # the side's win rate
    lower: float
    upper: float
    rates: dict[str, float]  # every side's
    exploit: dict[str, dict[str, float]]  # role -> gain, gain_low, gain_high
    within: bool  # no role's best response gains more than epsilon (point estimate)
    # beyond the family (band's spot_check): deals, search settings, and per role the search
    # seat's field_rate, search_rate, gain, gain_low, gain_high; None: not spot-checked
    spot: dict[str, Any] | None = None


@dataclass
class Band:
    """A side's band: `low` and `high` are the lowest and highest of its rate over the start
    profile and the searched ends within epsilon (`profiles`: every profile measured, the
    start's and both searched ends', with its exploitability)."""

    theme: str
    players: int
    side: str
    epsilon: float
    start: str
    centre: float  # the side's rate under the start profile, on the same fresh deals
    final_seed: int  # the fresh deals: games 0 .. final_games-1 of this seed
    final_games: int
    low: End
    high: End
    profiles: dict[str, End] = field(default_factory=dict)  # "start", "low", "high"
    moves: list[Move] = field(default_factory=list)
    games: int = 0  # every game this band played (cost's sum)
    cost: dict[str, int] = field(default_factory=dict)  # games per stage (STAGES)
    reused: int = 0  # best responses answered by an earlier identical request
    also: list[str] = field(default_factory=list)  # the other profiles searched (profiles alsoK)

    def row(self) -> dict[str, Any]:
        """The shipped-band row: rates in points, strategies as specs, and the search seat's
        spot-check of the start and of each end when one was made."""
        row = {
            "theme": self.theme,
            "players": self.players,
            "side": self.side,
            "epsilon": 100 * self.epsilon,
            "low": 100 * self.low.rate,
            "high": 100 * self.high.rate,
            "low_strategy": self.low.strategy,
            "high_strategy": self.high.strategy,
        }
        ends = {"start": self.profiles.get("start"), "low": self.low, "high": self.high}
        if all(e is not None and e.spot for e in ends.values()):
            first = ends["start"].spot
            row["spot_check"] = {"deals": first["deals"], "search": first["search"]} | {
                name: {
                    role: {k: 100 * g[k] for k in ("gain", "gain_low", "gain_high")}
                    for role, g in e.spot["roles"].items()
                }
                for name, e in ends.items()
            }
        return row


def measure(table: Any, profile: Profile, role_rows: np.ndarray, seed: int, games: int):
    """Per game, the winning side of `profile` (pure: one row per role, played as role_rows
    says; or mixed: each game its own draw, as play_games plays a mixture file)."""
    if isinstance(profile, Mixture):
        drawn = profile.draw(seed, games)
        return table.winners(seed, profile.rows, drawn, 0, 0, games, own=True)[0]
    W = np.vstack([profile, profile[0]])
    return table.winners(seed, W, role_rows, 0, 1, games)[0]


def _profile(strategy: Strategy) -> Profile:
    """A resolved strategy as a band's profile: its mixture, else a copy of its rows."""
    return strategy.mixture if strategy.mixture is not None else strategy.matrix.copy()


def _with_row(profile: Profile, role: int, vector: np.ndarray) -> Profile:
    """`profile` with `role` playing `vector` (in every profile of a mixture: a new row of
    it), as its file would load it back."""
    if not isinstance(profile, Mixture):
        out = profile.copy()
        out[role] = vector
        return out
    profiles = profile.profiles.copy()
    profiles[:, role] = len(profile.rows)
    mixed = Mixture(np.vstack([profile.rows, vector]), profiles, profile.weights)
    return Mixture.from_dict(json.loads(json.dumps(mixed.as_dict())), "a band's profile")


def _values(profile: Profile) -> np.ndarray:
    """What names a request about `profile` (_digest)."""
    return profile.fingerprint() if isinstance(profile, Mixture) else strategy_values(profile)


def band(
    theme_id: str,
    players: int,
    side: str,
    out: Path,
    epsilon: float = 0.01,
    seed: int = 1,
    start: str = "tuned",
    rounds: int = 1,
    push: dict[str, Any] | None = None,
    respond: dict[str, Any] | None = None,
    check: dict[str, Any] | None = None,
    final_games: int = 40_000,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
    table: Any = None,
    shared: Path | None = None,
    asked: dict[str, Any] | None = None,
    spot_check: int = 0,
    search: Search | None = None,
    also: tuple[str, ...] | list[str] = (),
    check_seeds: int = 1,
    *,
    theme: Theme,
) -> Band:
    """The band of `side`'s win rate at (theme, players), from the profile `start` and the
    profiles `also` (specs --strategy accepts, mixture files among them): see the module
    doc. push, respond, check: best-response budgets (Settings fields) of the pushes, the
    re-responses and the profiles' exploitability checks; shared: the folder of the best
    responses and spot-checks, each named by its request (default out/searches), which the
    bands of several sides of one table can share, as they can share `asked` (the answers
    to the requests met so far, by request: one met again is neither searched nor counted
    again); spot_check: deals per role of the search seat's check (`search`'s settings,
    default Search()) of the start and each profile within epsilon, 0: none;
    check_seeds: best responses per role of each profile's check, each with its own seed,
    the largest gain counting (one search is a lower bound of the role's gain). `theme` is
    theme_id loaded, the caller's; theme_id is what the searches record."""
    check_players(theme, players)
    if side not in WINNERS:
        raise ValueError(f"unknown side {side!r} (sides: {', '.join(WINNERS)})")
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must be a share in (0, 1), got {epsilon!r}")
    if spot_check < 0:
        raise ValueError(f"spot_check is a number of deals, at least 0, got {spot_check!r}")
    if check_seeds < 1:
        raise ValueError(f"check_seeds is a number of searches, at least 1, got {check_seeds!r}")
    if rounds < 0:
        raise ValueError(f"rounds is a number of rounds of pushes, at least 0, got {rounds!r}")
    table = table or EngineTable(theme, players, backend)
    origins = {"start": start} | {f"also{k}": spec for k, spec in enumerate(also, 1)}
    firsts = {
        name: resolve_strategy(spec, players, theme.plays_as, mixed=True)
        for name, spec in origins.items()
    }
    if any(len(f.learned) for f in firsts.values()):
        raise ValueError("a band is searched around parameter rows, not a learned field (strong)")
    role_rows = firsts["start"].role_preset
    roles = roles_at(theme, players)
    folder = Path(out)
    shared = Path(shared) if shared is not None else folder / "searches"
    asked = {} if asked is None else asked
    search = search or Search()
    cost = dict.fromkeys(STAGES, 0)
    reused = 0

    def searched(profile: Profile, role: str, aim: str, budget, stage: str, k: int = 0):
        """The best response of `role` with `aim` against `profile` (_respond; k > 0: the
        k-th other search of the same request, with its own seed), searched unless asked
        before; (it, the games it cost here, whether it was asked before)."""
        nonlocal reused
        request = (seed, role, aim, budget or {}) + ((k,) if k else ())
        key = _digest(theme, players, _values(profile), *request)
        again = key in asked
        if not again:
            asked[key] = _respond(theme_id, theme, players, profile, role, aim, budget,
                                  sub_seed(seed, "band", key), shared / f"{role}-{key}",
                                  backend, table)  # fmt: skip
        games = 0 if again else asked[key].games_used
        cost[stage] += games
        reused += again
        return asked[key], games, again

    moves: list[Move] = []
    ends = {}  # profile name ("low", "also1_high", ...) -> (the spec searched from, the profile)
    for origin, first in firsts.items():
        for end in ENDS if rounds else ():
            name = end if origin == "start" else f"{origin}_{end}"
            profile = _profile(first)
            sign = 1.0 if end == "high" else -1.0
            for r in range(rounds):
                pushed = False
                for role in roles:
                    if progress:
                        progress(
                            f"{side} {name}, round {r + 1}: the {role} pushes, the others respond"
                        )
                    aim = f"{side}:{end}:{epsilon}"
                    res, games, again = searched(profile, role, aim, push, "push")
                    # kept when it moved the side the right way beyond noise, at most epsilon's cost
                    beyond = res.side_move_low > 0 if end == "high" else res.side_move_high < 0
                    kept = bool(beyond and sign * res.side_move > 0 and res.gain >= -epsilon)
                    if kept:
                        profile = _with_row(profile, ROLES.index(role), res.vector)
                    moves.append(Move(name, r + 1, role, "push", res.gain, res.side_move, kept,
                                      games, again))  # fmt: skip
                    pushed |= kept
                    # a push not kept leaves the profile as it was: nothing to respond to
                    for other in (o for o in roles if o != role) if kept else ():
                        res, games, again = searched(profile, other, OWN, respond, "respond")
                        better = takes(GAIN, res)  # iterate's rule: a positive gain
                        if better:
                            profile = _with_row(profile, ROLES.index(other), res.vector)
                        moves.append(Move(name, r + 1, other, "respond", res.gain, 0.0, better,
                                          games, again))  # fmt: skip
                if not pushed:  # the profile is as the round found it: the next asks the same
                    break
            ends[name] = (origins[origin], profile)
    fresh = sub_seed(seed, "band", "final")

    def measured(name: str, spec: str, profile: Profile) -> End:
        """A profile's rates on the fresh deals, its exploitability per role and, when asked
        (the start, or a profile within epsilon), the search seat's spot-check."""
        won = measure(table, profile, role_rows, fresh, final_games)
        cost["final"] += final_games
        k = int(np.count_nonzero(won == WINNERS.index(side)))
        lo, hi = wilson_interval(k, final_games)
        if progress:
            progress(f"{side} {name}: the profile's exploitability")
        exploit = {}
        for role in roles:
            # each search is a lower bound of the role's gain: the largest of check_seeds
            found = [searched(profile, role, OWN, check, "check", i)[0] for i in range(check_seeds)]
            res = max(found, key=lambda f: f.gain)
            exploit[role] = {"gain": res.gain, "gain_low": res.gain_low, "gain_high": res.gain_high}
            if check_seeds > 1:
                exploit[role]["gains"] = [f.gain for f in found]
        within = all(e["gain"] <= epsilon for e in exploit.values())
        spot = None
        if spot_check and (within or name == "start"):
            if progress:
                progress(f"{side} {name}: a search seat in each role, {spot_check:,} deals")
            key = "spot-" + _digest(
                theme, players, _values(profile), seed, spot_check, settings(search)
            )
            if key not in asked:
                asked[key] = _spot_check(theme, players, spec, spot_check, search,
                                         sub_seed(seed, "band", "spot"), shared / f"{key}.json",
                                         backend)  # fmt: skip
                cost["spot_check"] += asked[key]["games"]
            spot = asked[key]
        return End(
            name, spec, k / final_games, lo, hi,
            {s: float(np.mean(won == i)) for i, s in enumerate(WINNERS)},
            exploit, within, spot,
        )  # fmt: skip

    profiles = {
        name: measured(name, origins[name], _profile(first)) for name, first in firsts.items()
    }
    for name, (origin, profile) in ends.items():
        label = f"{side}_{name}"
        spec = _save_preset(folder, label, players, profile, theme.id, side, name, epsilon, origin)
        profiles[name] = measured(name, spec, profile)
    answer = Band(
        theme.id, players, side, epsilon, start, profiles["start"].rate, fresh, final_games,
        *band_ends(profiles), profiles, moves, sum(cost.values()), cost, reused, list(also),
    )  # fmt: skip
    write_band(answer, folder)
    return answer


def side_bands(
    theme_id: str, players: int, sides: list[str], folder: Path, epsilon: float, seed: int,
    start: str, rounds: int, budget: dict[str, Any], ship: bool = False, *, theme: Theme,
    **options: Any,
) -> list[Band]:  # fmt: skip
    """`bangsim band`: the band of each of `sides` at (theme, players), in folder/SIDE, every
    best response searched with `budget` and kept in folder/searches, which the sides share
    with their answers; with several sides each spans every side's profiles within epsilon
    (span_sides), and `ship` adds them to the shipped bands. theme: theme_id loaded;
    options: band's progress, backend, spot_check, search, also and check_seeds."""
    asked: dict = {}  # the sides' bands share their searches (the start's checks at least)
    results = [
        band(theme_id, players, s, folder / s, epsilon, seed, start, rounds, push=budget,
             respond=budget, check=budget, final_games=budget["final_games"],
             shared=folder / "searches", asked=asked, theme=theme, **options)
        for s in sides
    ]  # fmt: skip
    if len(results) > 1:  # each side's band spans every side's profiles within epsilon
        results = span_sides(results)
        for b in results:
            write_band(b, folder / b.side)
    for b in results if ship else []:
        ship_band(b)
    return results


def write_band(answer: Band, folder: Path) -> None:
    """The band as folder/band.json (RESULT)."""
    write_atomic(Path(folder) / RESULT, (json.dumps(asdict(answer), indent=1) + "\n").encode())


def span_sides(bands: list[Band]) -> list[Band]:
    """The bands of several sides of one table, each spanning every side's profiles within
    epsilon. A profile found by pushing one side's rate is a near-equilibrium whichever
    rate is read from it, and every side's profiles are measured on the same fresh deals
    (End.rates), so each side's band runs over all of them: the outlaws' pushed end can
    be the Sheriff's side's lowest. Another side's profile joins a band as SIDE_NAME
    (outlaw_low, ...) unless the band has a profile of the same spec (the start and the
    `also` profiles are every side's)."""
    first = bands[0]
    same = ("theme", "players", "epsilon", "start", "final_seed", "final_games", "also")
    for b in bands[1:]:
        if any(getattr(b, k) != getattr(first, k) for k in same):
            raise ValueError(
                f"the {b.side} side's band is of another table, start or deals than the "
                f"{first.side} side's: they cannot span each other's profiles"
            )
    spanned = []
    for b in bands:
        profiles = dict(b.profiles)
        specs = {e.strategy for e in profiles.values()}
        for other in bands:
            for name, e in other.profiles.items() if other is not b else ():
                if not e.within or e.strategy in specs:
                    continue
                k = round(e.rates[b.side] * b.final_games)
                lo, hi = wilson_interval(k, b.final_games)
                label = f"{other.side}_{name}"
                profiles[label] = replace(e, end=label, rate=k / b.final_games, lower=lo, upper=hi)
                specs.add(e.strategy)
        low, high = band_ends(profiles)
        spanned.append(replace(b, profiles=profiles, low=low, high=high))
    return spanned


def band_ends(profiles: dict[str, End]) -> tuple[End, End]:
    """The profiles at the band's low and high ends: the lowest and highest rate over the
    start and the other profiles (searched ends, `also`) within epsilon (the start whatever
    its check says: it is the verdict the band is of)."""
    inside = [profiles["start"]] + [e for k, e in profiles.items() if k != "start" and e.within]
    return min(inside, key=lambda e: e.rate), max(inside, key=lambda e: e.rate)


def _digest(theme: Theme, players: int, values: np.ndarray, *request: Any) -> str:
    """Names a request about the profile whose `values` (_values) are given at (theme,
    players): its folder, its seed."""
    values = hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()
    text = json.dumps([theme_digest(theme), players, values, *request], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _respond(theme_id, theme, players, profile, role, aim, budget, seed, where, backend, table):
    """A best response of `role` with `aim` against `profile`, in `where` (theme: theme_id
    loaded); the field is read back from the file the request names."""
    field_spec = _field_file(where, players, profile)
    settings = Settings(
        theme_id, players, role, field_spec, seed, **(budget or {}), aim=aim,
    )  # fmt: skip
    field = resolve_strategy(field_spec, players, theme.plays_as, mixed=True)
    return best_response(settings, where, backend=backend, table=table, theme=theme, field=field)


def _spot_check(theme, players, spec, deals, search, seed, path, backend) -> dict[str, Any]:
    """The search seat's gain in each role over the profile `spec` (search_gain) on `deals`
    deals, saved in `path`, and read from there when it was made before (not replayed)."""
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    field = resolve_strategy(spec, players, theme.plays_as, mixed=True)
    gain = search_gain(theme, players, field, seed, deals, search, backend=backend)
    keys = ("field_rate", "search_rate", "gain", "gain_low", "gain_high", "seconds", "rollouts")
    doc = {
        "deals": deals,
        "search": settings(search),
        "games": sum(2 * r.games for r in gain.roles),  # both arms, rollouts aside
        "roles": {r.role: {k: getattr(r, k) for k in keys} for r in gain.roles},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(doc, indent=1) + "\n").encode())
    return doc


def _field_file(where: Path, players: int, profile: Profile) -> str:
    """The profile as a file a best response reads its field from (_write)."""
    return _write(where, "field", players, profile, "the profile this best response faced")


def _save_preset(folder, name, players, profile, theme_id, side, end, epsilon, start) -> str:
    """Write the end profile as a preset file (a mixture file when mixed); its spec."""
    header = (
        f"the {end} end of the {side} side's band at {players} players ({theme_id}), "
        f"epsilon {100 * epsilon:g} point(s), from {start}"
    )
    return _write(folder, name, players, profile, header)


def _write(folder: Path, name: str, players: int, profile: Profile, header: str) -> str:
    """`profile` at `players` as folder/NAME.toml (a preset NAME) or, mixed, as the mixture
    file folder/NAME.json; the --strategy spec that plays it."""
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(profile, Mixture):
        path = folder / f"{name}{MIXTURE_SUFFIX}"
        write_atomic(path, mixture_text({players: profile}, header).encode())
        return str(path)
    path = folder / f"{name}.toml"
    write_atomic(path, preset_toml(name, {players: profile}, header).encode())
    return f"{path}:{name}"


class BandsError(UserError):
    """A bands file that cannot be read; one line."""


@dataclass(frozen=True)
class ShippedBand:
    """One shipped band: a side's win rate at one table, from low to high over the
    near-equilibria, and the end profiles that reach them (specs --strategy accepts)."""

    theme: str
    players: int
    side: str
    epsilon: float  # points
    centre: float  # points: the side's rate under `start`, on the band's fresh deals
    low: float  # points
    high: float  # points
    low_strategy: str
    high_strategy: str
    start: str  # the profile the band was searched from: reports show it for that strategy
    final_seed: int  # the band's fresh deals, games 0 .. final_games-1 of this seed
    final_games: int
    # the search seat's gains (points) over the start and each end, as Band.row() gives
    # them; None for a band shipped without a spot-check (rows written before it existed)
    spot_check: dict[str, Any] | None = None
    # is the start itself within epsilon (no role's best response gains more)? It stays in
    # the band either way, as the verdict the band is of; None for rows shipped before
    start_within: bool | None = None

    def row(self) -> dict[str, Any]:
        """What `bangsim band --shipped --format json` lists (spot_check where made)."""
        keys = ("theme", "players", "side", "epsilon", "low", "high")
        row = {k: getattr(self, k) for k in keys}
        row |= {"low_strategy": self.low_strategy, "high_strategy": self.high_strategy}
        if self.spot_check is not None:
            row["spot_check"] = self.spot_check
        return row

    def strategy(self, end: str) -> str:
        return self.low_strategy if end == "low" else self.high_strategy


def bands_dir() -> Path:
    """The folder bands are read from and shipped to: BANGSIM_BANDS, else strategies/bands."""
    return Path(os.environ.get(BANDS_ENV) or str(SHIPPED_DIR))


def shipped_bands(theme: str | None = None, folder: Path | None = None) -> list[ShippedBand]:
    """Every band in `folder` (default bands_dir()), or only `theme`'s; by theme, players
    and side. The end presets' paths are made absolute, so the specs work from anywhere."""
    folder = Path(folder) if folder is not None else bands_dir()
    if not folder.is_dir():
        return []
    paths = [folder / f"{theme}.json"] if theme else sorted(folder.glob("*.json"))
    out = []
    for path in paths:
        if path.is_file():
            out += [_shipped(row, path) for row in _read_bands(path)]
    return sorted(out, key=lambda b: (b.theme, b.players, WINNERS.index(b.side)))


def _read_bands(path: Path) -> list[dict[str, Any]]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        rows = raw["bands"]
        if not isinstance(rows, list):
            raise TypeError
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise BandsError(
            f'{path}: not a bands file (a JSON object with a list "bands", as bangsim band '
            "--ship writes it); remove it or write it again"
        ) from None
    return rows


def _shipped(row: dict[str, Any], path: Path) -> ShippedBand:
    try:
        optional = {"spot_check", "start_within"}
        fields = ShippedBand.__dataclass_fields__
        band = ShippedBand(**{k: row[k] for k in fields if k in row or k not in optional})
    except (KeyError, TypeError) as e:
        raise BandsError(
            f"{path}: a band row lacks or misnames a field ({one_line(str(e))}); remove it or "
            "write it again with bangsim band --ship"
        ) from None
    specs = {}
    for end in ENDS:
        spec = band.strategy(end)
        file, _, name = spec.rpartition(":")
        if file.endswith(".toml"):  # else a preset's name (the start profile)
            specs[f"{end}_strategy"] = f"{(path.parent / file).resolve()}:{name}"
        elif spec.endswith(MIXTURE_SUFFIX):
            specs[f"{end}_strategy"] = str((path.parent / spec).resolve())
    return replace(band, **specs)


def ship_band(answer: Band, folder: Path | None = None) -> ShippedBand:
    """Add a computed band to the bands of its theme in `folder` (default bands_dir()): its
    end presets copied beside THEME.json, its row replacing any of the same table and side."""
    folder = Path(folder) if folder is not None else bands_dir()
    specs = {}
    for end, profile in zip(ENDS, (answer.low, answer.high), strict=True):
        file, _, name = profile.strategy.rpartition(":")
        if profile.strategy.endswith(MIXTURE_SUFFIX):  # a mixed profile: its file
            target = f"{MIXTURES}/{answer.theme}-{answer.players}p-{answer.side}_{profile.end}"
            target += MIXTURE_SUFFIX
            (folder / MIXTURES).mkdir(parents=True, exist_ok=True)
            write_atomic(folder / target, Path(profile.strategy).read_bytes())
            specs[f"{end}_strategy"] = target
            continue
        if not file.endswith(".toml"):  # the start profile, a preset: ships as its name
            specs[f"{end}_strategy"] = profile.strategy
            continue
        target = f"{answer.theme}-{answer.players}p-{name}.toml"
        write_atomic(folder / target, Path(file).read_bytes())
        specs[f"{end}_strategy"] = f"{target}:{name}"
    row = (
        answer.row()
        | specs
        | {
            "centre": 100 * answer.centre,
            "start": answer.start,
            "start_within": answer.profiles["start"].within,
            "final_seed": answer.final_seed,
            "final_games": answer.final_games,
        }
    )
    path = folder / f"{answer.theme}.json"
    rows = _read_bands(path) if path.is_file() else []
    rows = [r for r in rows if (r.get("players"), r.get("side")) != (row["players"], row["side"])]
    rows = sorted([*rows, row], key=lambda r: (r["players"], WINNERS.index(r["side"])))
    text = json.dumps({"theme": answer.theme, "bands": rows}, indent=1) + "\n"
    write_atomic(path, text.encode())
    return _shipped(row, path)


@dataclass(frozen=True)
class Replayed:
    """A table's bands replayed on a run's deals: each end profile's tally, by (side, end),
    and the run's own play's tally on the same deals (`centre`; None without a start)."""

    bands: list[ShippedBand]
    ends: dict[tuple[str, str], Tally]
    games: int  # deals each end played
    characters: tuple[str, ...]  # the theme's character names, the tallies' order
    centre: Tally | None = None

    def side_band(self, side: str, rate: float | None = None) -> tuple[float, float] | None:
        """(low, high) of `side`'s rate at its band's two ends; None unbanded. With the run's
        own rate of the side over all its deals (`rate`) and a centre, each end reads that
        rate plus the end's paired difference from the centre on the replayed deals (the
        regression estimate of its rate on all of the run's deals): an end that plays as
        the run does reads the run's own rate, so the band holds a centre that is one of
        its ends. Without them, the ends' rates on the replayed deals."""
        if (side, "low") not in self.ends:
            return None
        w = WINNERS.index(side)
        shift = 0.0
        if rate is not None and self.centre is not None:
            shift = rate - self.centre.sides[w] / self.games
        rates = [self.ends[(side, e)].sides[w] / self.games + shift for e in ENDS]
        return min(rates), max(rates)


def table_bands(theme: Theme, players: int, start: str | None = None) -> list[ShippedBand]:
    """The bands shipped for (theme, players), searched from `start` when given."""
    return [
        b
        for b in shipped_bands(theme.id)
        if b.players == players and (start is None or b.start == start)
    ]


def replay(
    theme: Theme,
    players: int,
    seed: int,
    games: int,
    start: str | None = None,
    backend: Backend | None = None,
) -> Replayed | None:
    """The bands shipped for (theme, players) (searched from `start`, when given) with their
    end presets played on deals 0 .. min(games, REPLAY_GAMES)-1 of `seed` (a run's own
    deals), and `start` itself on them as the centre; None without a band."""
    bands = table_bands(theme, players, start)
    if not bands:
        return None
    n = min(games, REPLAY_GAMES)
    ends = {(b.side, end): b.strategy(end) for b in bands for end in ENDS}
    # a profile that ends several sides, or is the centre, plays once
    specs = list(dict.fromkeys([*ends.values(), *([start] if start is not None else [])]))
    works = [
        Work(theme, players, resolve_strategy(s, players, theme.plays_as, mixed=True), seed, n)
        for s in specs
    ]
    chars = len(theme.character_names)
    tallies = dict(zip(specs, (Tally.of(o, chars) for o in play_all(works, backend)), strict=True))
    return Replayed(
        bands,
        {k: tallies[s] for k, s in ends.items()},
        n,
        tuple(theme.character_names),
        tallies.get(start),
    )
