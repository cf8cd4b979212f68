"""Best response by search: the parameter vector that maximises one role's win rate while
every other seat plays a fixed field.

The optimiser is CMA-ES with margin (`cmaes.CMAwM`, Hamano et al. 2022, asked and told by
simcore.studies.search_loop, which keeps its state and seeds): a well-kept,
numpy-only ask/tell implementation whose margin keeps integer and on/off parameters from
freezing, which plain CMA-ES does on a mixed space like ours (strategies.params.KEYS:
switches, whole numbers and reals). The search runs in the unit cube: each key's range
mapped to [0, 1], integer keys on a grid of their steps.

The objective is noisy. Every generation plays all its candidates, and the field's own
parameters for the role (the baseline), on the same deals (common random numbers: the same
game indices of one generation seed) in one parallel kernel call, so candidates are
compared on equal luck; each generation draws fresh deals; the games per candidate grow as
generations go on (geometrically from games_min to games_max), so the late generations,
whose candidates differ little, compare them on more deals. The answer is the distribution's mean
at the end, re-measured against the baseline on fresh deals no generation saw, with a
paired 95% interval: the reported gain is not the luckiest candidate's (no winner's curse).
The state is saved after every generation; a rerun with the same request resumes.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from simcore.engine.play import check_players
from simcore.engine.theme import Theme
from simcore.engine.vocab import ROLES, WINNERS
from simcore.runs.backend import Backend
from simcore.runs.runfolder import theme_digest
from simcore.stats import paired_interval
from simcore.studies.batch import SIDE_OF, EngineTable
from simcore.studies.search_loop import (
    Generation,
    cma_search,
    games_for,
    load_state,
    new_optimizer,
    save_state,
    sub_seed,
    write_text,
)
from strategies.params import KEYS, NO_LEARNED, REAL, SEARCHED, param_index
from strategies.presets import (
    Mixture,
    Strategy,
    mixture_text,
    preset_toml,
    resolve_strategy,
    strategy_values,
)

RESULT = "result.json"


@dataclass(frozen=True)
class Space:
    """The searched keys and their map to the unit cube."""

    names: tuple[str, ...]
    index: np.ndarray  # int64[d]: parameter index of each key
    low: np.ndarray
    high: np.ndarray
    steps: np.ndarray  # unit-cube step of integer/switch keys, 0 for reals

    @classmethod
    def full(cls) -> Space:
        """Every searched key (strategies.params.SEARCHED) over its search range."""
        keys = [KEYS[n] for n in SEARCHED]
        low = np.array([k.search_low for k in keys], float)
        high = np.array([k.search_high for k in keys], float)
        steps = np.array(
            [0.0 if k.kind == REAL else 1.0 / (k.search_high - k.search_low) for k in keys]
        )
        index = np.array([param_index(n) for n in SEARCHED], np.int64)
        return cls(SEARCHED, index, low, high, steps)

    def encode(self, vec: np.ndarray) -> np.ndarray:
        """A parameter vector's searched values in the unit cube (clipped to the ranges)."""
        return np.clip((vec[self.index] - self.low) / (self.high - self.low), 0.0, 1.0)

    def decode(self, x: np.ndarray, base: np.ndarray) -> np.ndarray:
        """`base` with the searched values set from unit-cube point x (integers rounded)."""
        v = self.low + np.clip(x, 0.0, 1.0) * (self.high - self.low)
        whole = self.steps > 0
        v[whole] = np.round(v[whole])
        out = base.copy()
        out[self.index] = v
        return out


OWN = "own"
PENALTY = 10.0  # an aim's price per point of the role's own rate given up beyond epsilon


@dataclass(frozen=True)
class Aim:
    """What a best response maximises. "own": the role's own win rate. "SIDE:low:EPS" or
    "SIDE:high:EPS" (SIDE a winning side, EPS a share, 0.01 = one point): that side's win
    rate pushed down or up while the role keeps its own rate within EPS of what its field
    parameters give on the same deals; each point of own rate given up beyond EPS costs
    PENALTY points of push. The band of near-equilibria (simcore.studies.band) is searched
    with such aims."""

    side: int | None  # vocab.W_* pushed, None: own
    sign: float  # +1 high, -1 low
    epsilon: float

    @classmethod
    def parse(cls, text: str) -> Aim:
        if text == OWN:
            return cls(None, 1.0, 0.0)
        parts = text.split(":")
        if len(parts) == 3 and parts[0] in WINNERS and parts[1] in ("low", "high"):
            try:
                epsilon = float(parts[2])
            except ValueError:
                epsilon = -1.0
            if 0 <= epsilon < 1:
                return cls(WINNERS.index(parts[0]), 1.0 if parts[1] == "high" else -1.0, epsilon)
        raise ValueError(
            f"aim must be {OWN!r} or SIDE:low|high:EPSILON (SIDE one of {', '.join(WINNERS)}, "
            f"EPSILON a share in [0, 1)), got {text!r}"
        )

    def values(self, winners: np.ndarray, role: int) -> np.ndarray:
        """Per row of winners (int8[rows, games], row 0 the baseline on the same deals): the
        aim's value, higher better."""
        own = (winners == SIDE_OF[role]).mean(axis=1)
        if self.side is None:
            return own
        pushed = self.sign * (winners == self.side).mean(axis=1)
        return pushed - PENALTY * np.maximum(0.0, own[0] - self.epsilon - own)


@dataclass
class Settings:
    """What a search is asked; its digest names the saved state a rerun resumes."""

    theme: str
    players: int
    role: str
    field: str
    seed: int
    generations: int = 40
    population: int = 0  # 0: CMA-ES's default for the dimension
    sigma0: float = 0.25
    games_min: int = 1_000  # per candidate, first generation
    games_max: int = 8_000  # per candidate, once the search has narrowed
    final_games: int = 40_000  # fresh deals for the answer and the baseline
    aim: str = OWN  # what the role maximises (see Aim)

    def digest(self, theme: Theme, field: np.ndarray) -> str:
        """Names the request: the settings, the theme's content and the field's values (a
        presets file edited between two runs is another request)."""
        asked = asdict(self)
        if asked["aim"] == OWN:  # as before aims existed: their saved searches still resume
            del asked["aim"]
        text = json.dumps(
            {
                **asked,
                "theme": theme_digest(theme),
                "field": hashlib.sha256(np.ascontiguousarray(field).tobytes()).hexdigest(),
            },
            sort_keys=True,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class BestResponse:
    settings: Settings
    names: tuple[str, ...]
    values: dict[str, float]  # the answer's searched values
    vector: list[float]  # the answer's full parameter vector
    baseline_rate: float  # on the final fresh deals
    answer_rate: float
    gain: float  # answer - baseline, paired over the final deals
    gain_low: float
    gain_high: float
    final_games: int
    games_used: int  # every game played, the final check included
    seconds: float
    trail: list[Generation] = field(default_factory=list)
    # an aim's side (Settings.aim other than own): its rate with the field's parameters and
    # with the answer's, and the answer's move of it, paired over the final deals
    side_rate: float | None = None
    side_answer_rate: float | None = None
    side_move: float | None = None
    side_move_low: float | None = None
    side_move_high: float | None = None

    def summary(self) -> str:
        s = self.settings
        return (
            f"best response of the {s.role} ({s.theme}, {s.players} players, field {s.field}): "
            f"{100 * self.answer_rate:.1f}% vs {100 * self.baseline_rate:.1f}% with the field's "
            f"own parameters: gain {100 * self.gain:+.1f} points "
            f"[{100 * self.gain_low:+.1f}, {100 * self.gain_high:+.1f}] over "
            f"{self.final_games:,} fresh deals; {self.games_used:,} games, {self.seconds:.0f} s"
        )


def best_response(
    settings: Settings,
    out: Path | None = None,
    progress: Callable[[int, Generation, float], None] | None = None,
    backend: Backend | None = None,
    table: Any = None,
    *,
    theme: Theme,
    field: Strategy | Mixture,
) -> BestResponse:
    """Search `settings.role`'s best response to the field (or what its aim asks); resume
    from `out` if it holds the same request's saved state. `theme` and `field` are
    settings.theme loaded and settings.field resolved for settings.players (mixed allowed),
    or a Mixture: a mixed field's baseline is the role playing its own draws, the search
    starting from its heaviest row. progress(generations done, the last, best gain so
    far); `backend` (simcore.runs.backend, default local) plays the games, with the same
    results; `table` (default EngineTable of the theme) is what plays them."""
    aim = Aim.parse(settings.aim)
    check_players(theme, settings.players)
    if settings.role not in ROLES:
        raise ValueError(f"unknown role {settings.role!r} (roles: {', '.join(ROLES)})")
    role = ROLES.index(settings.role)
    if role not in theme.tables.roles[settings.players, : settings.players]:
        raise ValueError(f"no {settings.role} at {settings.players} players in {theme.id!r}")
    learned = NO_LEARNED if isinstance(field, Mixture) else field.learned
    table = table or EngineTable(theme, settings.players, backend, learned)
    mixture = field if isinstance(field, Mixture) else field.mixture
    if mixture is None:
        if field.search:
            raise ValueError(
                "a parameter search cannot face a field that searches (search:...): "
                "its candidates play in one kernel call without it"
            )
        # against a learned field the candidates keep the role's table (its `learned`)
        # and vary the parameters under it
        base = field.matrix[role].copy()
        values = strategy_values(field.matrix)
        if len(learned):
            values = np.concatenate([values.ravel(), learned.ravel()])
        digest = settings.digest(theme, values)

        def winners(vectors: list[np.ndarray], seed: int, games: int) -> np.ndarray:
            """Per game, the winning side, for the baseline and each vector."""
            W = np.vstack([field.matrix, base, *vectors])
            return table.winners(seed, W, field.role_preset, role, len(vectors) + 1, games)

    else:
        base = mixture.rows[next(iter(mixture.marginal(role)))].copy()
        digest = settings.digest(theme, mixture.fingerprint())

        def winners(vectors: list[np.ndarray], seed: int, games: int) -> np.ndarray:
            W = np.vstack([mixture.rows, *vectors])
            drawn = mixture.draw(seed, games)
            return table.winners(seed, W, drawn, role, len(vectors), games, own=True)

    space = Space.full()
    state = load_state(out, digest)
    if state is None:
        opt = new_optimizer(
            space.encode(base),
            space.steps,
            settings.sigma0,
            sub_seed(settings.seed, "cma"),
            settings.population,
        )
        state = {"digest": digest, "opt": opt, "trail": [], "games": 0, "seconds": 0.0}

    def score(points: list[np.ndarray], g: int) -> tuple[np.ndarray, Generation]:
        t0 = time.perf_counter()
        games = games_for(settings, g)
        won = winners(
            [space.decode(x, base) for x in points], sub_seed(settings.seed, "gen", g), games
        )
        value = aim.values(won, role)
        own = (won == SIDE_OF[role]).mean(axis=1)
        state["games"] += won.size
        gen = Generation(
            games=games,
            best_gain=float(value[1:].max() - value[0]),
            mean_rate=float(own[1:].mean()),
            baseline_rate=float(own[0]),
            seconds=time.perf_counter() - t0,
        )
        state["seconds"] += gen.seconds
        return value[1:], gen

    mean = cma_search(
        state, score, settings.generations, settings.seed, lambda st: save_state(out, st), progress
    )
    t0 = time.perf_counter()
    answer = space.decode(mean, base)
    n = settings.final_games
    ended = winners([answer], sub_seed(settings.seed, "final"), n)
    final = (ended == SIDE_OF[role]).astype(np.float64)
    gain, _, half = paired_interval(final[1] - final[0])
    side = {}
    if aim.side is not None:
        pushed = (ended == aim.side).astype(np.float64)
        move, _, move_half = paired_interval(pushed[1] - pushed[0])
        side = dict(
            side_rate=float(pushed[0].mean()), side_answer_rate=float(pushed[1].mean()),
            side_move=move, side_move_low=move - move_half, side_move_high=move + move_half,
        )  # fmt: skip
    result = BestResponse(
        settings=settings,
        names=space.names,
        values={k: float(answer[i]) for k, i in zip(space.names, space.index, strict=True)},
        vector=answer.tolist(),
        baseline_rate=float(final[0].mean()),
        answer_rate=float(final[1].mean()),
        gain=gain,
        gain_low=gain - half,
        gain_high=gain + half,
        final_games=n,
        games_used=state["games"] + final.size,
        seconds=state["seconds"] + time.perf_counter() - t0,
        trail=state["trail"],
        **side,
    )
    if out is not None:
        write_text(out / RESULT, json.dumps(asdict(result), indent=1) + "\n")
    return result


# --- iterated best response and exploitability ------------------------------------------------


@dataclass
class Step:
    """One best response of an iteration: the role's gain against the field of the moment."""

    players: int
    round: int
    role: str
    gain: float
    gain_low: float
    gain_high: float
    replaced: bool  # the role's parameters became the answer (its gain passed `keep`)
    games: int
    seconds: float
    search: int = 1  # 1: the round's own search; 2..: a settled round's confirmation (iterate)


def roles_at(theme: Theme, players: int) -> list[str]:
    """The canonical roles dealt at this player count, in ROLES order."""
    present = set(theme.tables.roles[players, :players].tolist())
    return [r for i, r in enumerate(ROLES) if i in present]


GAIN = "gain"
BEYOND_LUCK = "beyond-luck"
KEEP = (GAIN, BEYOND_LUCK)  # iterate's rules for taking a best response


def check_keep(keep: str, name: str = "keep") -> None:
    if keep not in KEEP:
        raise ValueError(f"{name} must be {' or '.join(map(repr, KEEP))}, got {keep!r}")


def takes(keep: str, res: BestResponse) -> bool:
    """Whether a best response replaces the role's parameters: under "gain" when its paired
    gain on the fresh deals is positive, under "beyond-luck" only when the lower end of its
    95% interval is (a gain the check can show, not a near-equal answer that luck put
    ahead)."""
    return bool((res.gain_low if keep == BEYOND_LUCK else res.gain) > 0)


def iterate(
    theme_id: str,
    players: int,
    start: Strategy,
    seed: int,
    out: Path,
    threshold: float = 0.01,
    rounds: int = 3,
    br: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
    table: Any = None,
    keep: str = GAIN,
    searches: int = 1,
    *,
    theme: Theme,
) -> tuple[np.ndarray, list[Step]]:
    """Iterated best response: cycle over the roles, replacing each role's parameters by its
    best response to the current field when `keep` takes it (see takes), until no role
    gains more than `threshold` in a round (under "beyond-luck", or no answer was taken:
    the next round would face the same field) or `rounds` are done. Every best response keeps
    its state in its own folder under `out`, so a rerun resumes (on either `backend`).
    Returns the final matrix (one row per role) and the trail. `table`: as best_response's.
    `theme` is theme_id loaded, `start` resolved at `players` (the caller's, parsed once);
    theme_id is what the searches' settings record.

    One search finds one optimum, so a round that settles has shown a lower bound of each
    role's gain. With `searches` K > 1 a settled round is confirmed: K - 1 more best
    responses per role, each with its own seed, face the field it settled on (_confirm); a
    role one of them finds gaining more than `threshold` takes the largest such answer, and
    the iteration goes on. The confirming searches start WIDER times as wide as the round's
    (see WIDER). Up to the first settled round the search is the same whatever K, so a
    rerun with a larger K resumes the one-search tune.

    Among strategies about equally good for a role, "gain" lands on whichever the search's
    path and luck put ahead, and such strategies can move another side's rate by points
    (the band, simcore.studies.band); "beyond-luck" keeps the current parameters unless the
    answer is better beyond luck, so two seeds from the same start leave the near-equal
    answers out and differ only in the real adaptations their searches find. Where roles
    answer each other in a cycle (each round's gains stay up), psro is the method."""
    check_keep(keep)
    check_players(theme, players)
    matrix = start.matrix.copy()
    steps: list[Step] = []
    roles = roles_at(theme, players)
    for r in range(rounds):
        taken = False
        for role in roles:
            field_file = out / f"r{r}-{role}" / "field.toml"
            text = preset_toml("field", {players: matrix}, "the field this best response faced")
            res, step = _respond(
                theme_id, theme, players, r, role, seed, field_file, text, br, progress, backend,
                table, keep,
            )  # fmt: skip
            if step.replaced:
                matrix[ROLES.index(role)] = res.vector
            steps.append(step)
            taken = taken or step.replaced
        if not _settled(steps, r, threshold, keep, taken):
            continue
        found = _confirm(
            theme_id, theme, players, r, roles, seed, out, matrix, searches, threshold, keep, br,
            progress, backend, table,
        )  # fmt: skip
        steps += [step for _, step in found]
        answers = [(res, step) for res, step in found if step.replaced]
        if not answers:
            break
        for res, step in answers:
            matrix[ROLES.index(step.role)] = res.vector
    return matrix, steps


# A settled round's confirming searches start this many times as wide as its own (sigma0).
# At classic's 7 players, against the field its tune settled on, renegade searches found
# his answer worth +5.3 to +8.6 points (his renegade_lean turned over) in 1 of 7 tries at
# the default width (0.25), 2 of 4 at twice it and 0 of 1 at three times it.
WIDER = 2.0


def _confirm(
    theme_id, theme, players, r, roles, seed, out, matrix, searches, threshold, keep, br,
    progress, backend, table,
) -> list[tuple[BestResponse, Step]]:  # fmt: skip
    """Round r settled on `matrix`: searches 2..`searches` per role against it, each search
    k with its own seed and a start WIDER times as wide (CMA-ES's sigma0: a search that
    starts as the round's did tends to land where it did), in OUT/rR-ROLE-searchK. A role's
    answer is taken (its Step `replaced`) when it is the role's largest gain, above
    `threshold`, and `keep` takes it; every search is returned for the trail."""
    text = preset_toml("field", {players: matrix}, "the field a settled round is confirmed on")
    found = []
    wider = (br or {}) | {"sigma0": WIDER * (br or {}).get("sigma0", Settings.sigma0)}
    for k in range(2, searches + 1):
        for role in roles:
            field_file = out / f"r{r}-{role}-search{k}" / "field.toml"
            res, step = _respond(
                theme_id, theme, players, r, role, sub_seed(seed, "search", k), field_file, text,
                wider, progress, backend, table, keep,
            )  # fmt: skip
            found.append((res, replace(step, search=k, replaced=False)))
    chosen = set()
    for role in roles:
        gains = {i: s.gain for i, (res, s) in enumerate(found) if s.role == role}
        taken = [i for i, gain in gains.items() if gain > threshold and takes(keep, found[i][0])]
        if taken:
            chosen.add(max(taken, key=gains.get))
    return [(res, replace(step, replaced=i in chosen)) for i, (res, step) in enumerate(found)]


def _respond(
    theme_id,
    theme,
    players,
    r,
    role,
    seed,
    field_file,
    text,
    br,
    progress,
    backend,
    table,
    keep,
    mixture=None,
) -> tuple[BestResponse, Step]:
    """Round r's best response of `role` to the field `text` describes (written to
    field_file, as the request names it; its folder keeps the search's state), and its Step.
    theme: theme_id loaded; mixture: the mixed field `text` holds, else the field is read
    back from the file (the request, to the bit)."""
    field_file.parent.mkdir(parents=True, exist_ok=True)
    write_text(field_file, text)
    label = f"{field_file}:field" if mixture is None else str(field_file)
    settings = Settings(
        theme_id, players, role, label, sub_seed(seed, players, r, role), **(br or {})
    )
    if progress:
        progress(f"{players}p round {r + 1}: {role}")
    field = mixture or resolve_strategy(label, players, theme.plays_as)
    res = best_response(
        settings, field_file.parent, backend=backend, table=table, theme=theme, field=field
    )
    step = Step(
        players, r + 1, role, res.gain, res.gain_low, res.gain_high, takes(keep, res),
        res.games_used, res.seconds,
    )  # fmt: skip
    return res, step


def _settled(steps: list[Step], r: int, threshold: float, keep: str, taken: bool) -> bool:
    """Whether round r's gains end an iteration: none above threshold, or (under
    "beyond-luck") no answer taken, so the next round would face the same field."""
    best = max(s.gain for s in steps if s.round == r + 1)
    return best <= threshold or (keep == BEYOND_LUCK and not taken)


def unsettled(steps: list[Step], threshold: float, keep: str = GAIN) -> list[Step]:
    """What an iteration left open where it stopped (its round limit): the answers its last
    round took, which a next round would face, when that round did not settle, or the
    answers its confirmation took when it did. Empty when the last round settled (and its
    confirmation took nothing)."""
    if not steps:
        return []
    last = max(s.round for s in steps)
    own = [s for s in steps if s.round == last and s.search == 1]
    if not _settled(own, last - 1, threshold, keep, any(s.replaced for s in own)):
        return [s for s in own if s.replaced]
    return [s for s in steps if s.round == last and s.search > 1 and s.replaced]


@dataclass
class MetaGame:
    """One round's meta-game of psro: how many profiles played, on how many games in all,
    and how many profiles the solved mixture kept."""

    players: int
    round: int
    profiles: int
    games: int
    seconds: float
    support: int


META_GAMES = 2_000  # deals per profile of a PSRO meta-game
META_ITERATIONS = 10_000  # regret-matching steps of its solver
META_FLOOR = 1e-3  # profiles of the solved joint play below this weight are left out


def psro(
    theme_id: str,
    players: int,
    start: Strategy,
    seed: int,
    out: Path,
    threshold: float = 0.01,
    rounds: int = 3,
    br: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
    table: Any = None,
    keep: str = GAIN,
    meta_games: int = META_GAMES,
    *,
    theme: Theme,
) -> tuple[Mixture, list[Step], list[MetaGame]]:
    """Policy-space response oracles (PSRO, Lanctot et al. 2017) with a coarse correlated
    equilibrium as meta-solver (as JPSRO, Marris et al. 2021). Each role keeps a population
    of parameter rows, at first its row of `start`. Each round:
    - plays the meta-game: every profile of the populations on the same `meta_games` deals;
    - solves it by regret matching (Hart & Mas-Colell 2000): the joint play averaged over
      the steps, a coarse correlated equilibrium of the meta-game, is the round's mixture;
    - searches every role's best response to that mixture. Its gain over following the
      mixture, paired on the same deals, is the mixture's exploitability for the role.
    The answers `keep` takes join their populations; the iteration ends once no role gains
    more than `threshold` (or, under "beyond-luck", none is taken) or after `rounds`.

    Where iterated best response cycles (the leader and the renegade answering each other
    round after round), the mixture takes in both sides of the cycle. Every search and
    meta-game keeps its state under `out`, so a rerun resumes. Returns the last mixture
    measured (the last round's gains are its exploitability), the trail and the
    meta-games. `theme`, `start`: as iterate's."""
    check_keep(keep)
    if rounds < 1:
        raise ValueError(f"psro needs at least 1 round, got {rounds}")
    check_players(theme, players)
    if len(start.learned):
        raise ValueError("psro starts from parameter rows, not a learned field (strong)")
    matrix = start.matrix
    table = table or EngineTable(theme, players, backend)
    populations = [[row] for row in matrix]
    steps: list[Step] = []
    metas: list[MetaGame] = []
    for r in range(rounds):
        folder = out / f"r{r}"
        mixture, won, seconds = solve_meta(
            table, populations, roles_at(theme, players), sub_seed(seed, players, r, "meta"),
            meta_games, folder,
        )  # fmt: skip
        metas.append(MetaGame(players, r + 1, len(won), won.size, seconds, len(mixture.weights)))
        text = mixture_text({players: mixture})
        answers = []
        for role in roles_at(theme, players):
            res, step = _respond(
                theme_id, theme, players, r, role, seed, folder / role / "mixture.json", text, br,
                progress, backend, table, keep, mixture,
            )  # fmt: skip
            steps.append(step)
            if step.replaced:
                answers.append((ROLES.index(role), np.asarray(res.vector)))
        if _settled(steps, r, threshold, keep, bool(answers)):
            break
        for i, vec in answers:
            populations[i].append(vec)
    return mixture, steps, metas


def solve_meta(
    table: Any,
    populations: list[list[np.ndarray]],
    roles: list[str],
    seed: int,
    games: int,
    out: Path | None = None,
) -> tuple[Mixture, np.ndarray, float]:
    """The meta-game of the populations (one list of rows per canonical role) solved: each
    profile of the `roles` at the table (the others play their first row) on the same
    `games` deals, each role's payoff its side's win rate; the joint play of regret
    matching over it is the Mixture. Returns it, the profiles' winners (int8[profiles,
    games]) and the seconds they took to play. Resumes the games from out/meta.pkl."""
    rows = np.vstack([row for pop in populations for row in pop])
    first = np.cumsum([0] + [len(pop) for pop in populations])[:-1]
    present = [ROLES.index(r) for r in roles]
    shape = tuple(len(populations[i]) for i in present)
    profiles = np.tile(first, (math.prod(shape), 1))
    for col, idx in zip(present, np.indices(shape).reshape(len(shape), -1), strict=True):
        profiles[:, col] += idx
    digest = hashlib.sha256(
        np.concatenate([rows.ravel(), profiles.ravel(), [seed, games]]).tobytes()
    ).hexdigest()[:16]
    state = load_state(out, digest, "meta.pkl", "population")
    if state is None:
        t0 = time.perf_counter()
        won = table.profiles(seed, rows, profiles, games)
        state = {"digest": digest, "won": won, "seconds": time.perf_counter() - t0}
        save_state(out, state, "meta.pkl")
    payoffs = [(state["won"] == SIDE_OF[i]).mean(axis=1).reshape(shape) for i in present]
    joint = regret_matching(payoffs).ravel()
    kept = joint >= META_FLOOR
    mixture = Mixture(rows, profiles[kept], joint[kept] / joint[kept].sum())
    return mixture, state["won"], state.get("seconds", 0.0)


def regret_matching(payoffs: list[np.ndarray], iterations: int = META_ITERATIONS) -> np.ndarray:
    """Regret matching (Hart & Mas-Colell 2000) in a normal-form game: payoffs[i] is player
    i's payoff tensor (one axis per player). Each step every player plays its positive
    regrets' shares (uniform when none) and adds each action's regret against the others'
    play. The joint play averaged over the steps approaches the coarse correlated
    equilibria; returned with the tensors' shape."""
    shape = payoffs[0].shape
    regret = [np.zeros(k) for k in shape]
    joint = np.zeros(shape)
    for _ in range(iterations):
        play = [_shares(np.maximum(q, 0.0)) for q in regret]
        step = play[0]
        for q in play[1:]:
            step = np.multiply.outer(step, q)
        joint += step
        for i, u in enumerate(payoffs):
            for j in reversed(range(len(shape))):
                if j != i:
                    u = np.tensordot(u, play[j], axes=([j], [0]))
            regret[i] += u - play[i] @ u
    return joint / joint.sum()


def _shares(q: np.ndarray) -> np.ndarray:
    return q / q.sum() if q.sum() > 0 else np.full(len(q), 1 / len(q))


@dataclass
class Exploit:
    """A strategy's exploitability at one table: per role, what a best response gains."""

    strategy: str
    theme: str
    players: int
    roles: list[BestResponse]
    total: float  # the gains summed over the roles
    total_low: float
    total_high: float
    # with several searches a role (exploitability's `searches`): every search's gain, by role
    gains: dict[str, list[float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "theme": self.theme,
            "players": self.players,
            "roles": {
                r.settings.role: {
                    "field_rate": r.baseline_rate,
                    "best_response_rate": r.answer_rate,
                    "gain": r.gain,
                    "gain_low": r.gain_low,
                    "gain_high": r.gain_high,
                    "games": r.games_used,
                    "seconds": r.seconds,
                }
                | ({"gains": self.gains[r.settings.role]} if r.settings.role in self.gains else {})
                for r in self.roles
            },
            "total": self.total,
            "total_low": self.total_low,
            "total_high": self.total_high,
        }


def exploitability(
    strategy: str,
    theme_id: str,
    players: int,
    seed: int,
    out: Path | None = None,
    br: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
    table: Any = None,
    roles: list[str] | None = None,
    searches: int = 1,
    *,
    theme: Theme,
    field: Strategy | Mixture,
) -> Exploit:
    """Per role (those at the table, or `roles`), a best response to `strategy` (every
    other seat plays it); the total sums the gains, its interval from the roles'
    (independent deals) half-widths in quadrature. `backend`, `table`: as best_response's.
    searches: best responses a role, each with its own seed (the first is the one-search
    answer), the largest gain counting: a search lands on one optimum, and its gain is a
    lower bound of what the role can gain. `theme` is theme_id loaded and `field` the
    strategy resolved at `players` (mixed allowed), the caller's; the strings are what the
    searches' settings record."""
    if searches < 1:
        raise ValueError(f"searches is a number of best responses, at least 1, got {searches!r}")
    check_players(theme, players)
    results = []
    gains = {}
    for role in roles or roles_at(theme, players):
        if progress:
            progress(role)
        found = []
        for k in range(searches):
            where = (out / (role if k == 0 else f"{role}-{k}")) if out else None
            role_seed = sub_seed(seed, role) if k == 0 else sub_seed(seed, role, k)
            settings = Settings(theme_id, players, role, strategy, role_seed, **(br or {}))
            res = best_response(settings, where, backend=backend, table=table, theme=theme,
                                field=field)  # fmt: skip
            found.append(res)
        results.append(max(found, key=lambda r: r.gain))
        if searches > 1:
            gains[role] = [r.gain for r in found]
    total = sum(r.gain for r in results)
    half = math.sqrt(sum(((r.gain_high - r.gain_low) / 2) ** 2 for r in results))
    return Exploit(strategy, theme.id, players, results, total, total - half, total + half, gains)
