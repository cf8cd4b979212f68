"""Learning the strong field (Expert Iteration): a fast apprentice trained on a slow
teacher's choices, the teacher then searching over the apprentice.

A round at (theme, players):
1. plays `games` games of the current field (round 0's field: `start`, the scored policy
   `tuned`), sampling its play-phase decisions (simcore.engine.labels);
2. labels each: every option played on `worlds` worlds by rollouts with the field at every
   seat from there (the teacher, as a `search:FIELD` seat weighs its options);
3. fits the learned tables (strategies.learned): per role and effect, a ridge regression of
   each play's value less ending the play phase's (in win rate), less the scored policy's
   prior, on the play's context (fit_tables);
4. checks each role's new table: that role's win rate when it plays it against the field
   it learned from, on the same deals (versus), with a 95% interval; a role whose new table
   does not gain keeps the field's (a conservative step: a round never makes a role play
   worse by its check's estimate). With `steps` (a step a of the tables is old + a (new -
   old)) each step is checked on the same deals and each role takes its best step; the
   field made is then checked again on fresh deals, the gains a round reports (the best
   of several checks on the same deals reads high);
5. writes the field it makes, `round-K.toml` (strategies.learned_files), with what it cost
   and the checks.

A round's files are its labels (`labels-K.npz`) and its field; a rerun skips the rounds
whose fields exist, so a learning run resumes where it stopped. The shipped `strong`
(strategies/strong/THEME_Np.toml) is a run's last field (`make learn`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.engine.labels import O_CAP, Labels, label_decisions
from simcore.engine.play import character_pool, check_players
from simcore.engine.theme import Theme
from simcore.engine.vocab import ROLES
from simcore.runs.atomic import write_atomic
from simcore.runs.backend import Backend, LocalBackend
from simcore.stats import paired_interval
from simcore.studies.batch import Work, play_all
from simcore.studies.search_loop import sub_seed
from simcore.studies.tune import roles_at
from strategies.learned import PRIOR
from strategies.learned_files import (
    Learned,
    find_learned,
    is_learned_spec,
    learned_toml,
    load_learned,
)
from strategies.params import LEARN_SLOTS, N_CTX
from strategies.presets import Search, Strategy, resolve_strategy

CHUNK = 32  # games labelled per call (progress, and a backend's work item)
MIN_ROWS = 40  # plays of one role and effect below which its row stays zero (the base's)
ALPHAS = (0.3, 3.0, 30.0, 300.0)  # the ridge penalties tried (leave-one-out)


@dataclass
class Round:
    """One round of learning: the field it made and what it cost."""

    number: int
    field: str  # the path of the field it made
    learned_from: str  # the field whose games and rollouts it learned from
    games: int
    decisions: int
    rollouts: int
    seconds: float
    gains: dict[str, tuple[float, float, float]]  # role -> (gain, low, high) over learned_from
    kept: tuple[str, ...] = ()  # roles whose new table did not gain: they keep learned_from's
    steps: dict[str, float] | None = None  # with several steps: the step each role took


def check_sklearn():
    try:
        from sklearn.linear_model import RidgeCV
    except ImportError:
        raise ValueError("bangsim learn needs scikit-learn: pip install 'bangsim[learn]'") from None
    return RidgeCV


def targets(labels: Labels) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per labelled play (every option but ending the play phase): (its seat's role, its
    table row, its context, the regression target: its value less ending's, in win rate,
    less the prior strategies.learned adds)."""
    m = labels.meta[:, 2]
    j = np.arange(O_CAP)[None, :]
    play = (j >= 1) & (j < m[:, None])
    adv = (labels.wins - labels.wins[:, :1]) / labels.worlds
    ctx = labels.ctx[play]
    prior = np.where(ctx[:, 1] > 0, PRIOR * (1.0 + ctx[:, 2]), -PRIOR)
    role = np.broadcast_to(labels.meta[:, 1:2], play.shape)[play]
    return role, labels.slot[play], ctx, adv[play] - prior


def fit_tables(labels: list[Labels]) -> np.ndarray:
    """float64[4, LEARN_SLOTS, N_CTX]: per role and table row, the ridge fit of the targets
    (penalty by leave-one-out among ALPHAS); rows with fewer than MIN_ROWS plays stay zero."""
    ridge = check_sklearn()
    parts = [targets(lab) for lab in labels]
    role, slot, ctx, y = (np.concatenate(a) for a in zip(*parts, strict=True))
    tables = np.zeros((len(ROLES), LEARN_SLOTS, N_CTX))
    for r in range(len(ROLES)):
        for s in range(LEARN_SLOTS):
            rows = (role == r) & (slot == s)
            if rows.sum() >= MIN_ROWS:
                fit = ridge(alphas=ALPHAS, fit_intercept=False).fit(ctx[rows], y[rows])
                tables[r, s] = fit.coef_
    return tables


@dataclass(frozen=True)
class LabelChunk:
    """A backend's work item of a round's labelling: games game0 .. game0 + n - 1 of seed,
    played by `strategy` (resolved) and labelled (simcore.engine.labels.label_decisions)."""

    theme: Theme
    players: int
    strategy: Strategy
    seed: int
    game0: int
    n: int
    rate: float
    worlds: int
    beta: float


def label_chunk(job: LabelChunk) -> Labels:
    """The labels of one chunk (module level: backends pickle it by reference)."""
    pool = character_pool(job.theme, None, job.players)
    return label_decisions(job.theme, job.players, job.seed, job.n, job.strategy, pool,
                           job.rate, job.worlds, job.beta, game0=job.game0)  # fmt: skip


def label_round(
    theme: Theme, players: int, field: str, seed: int, games: int, rate: float, worlds: int,
    beta: float, progress: Callable[[int], None] | None = None, backend: Backend | None = None,
) -> Labels:  # fmt: skip
    """The labels of `games` games of `field` (a spec) of seed, CHUNK games a work item on
    `backend` (default local: the same labels either way), the worlds' hidden roles
    following the record by `beta` (search.draw_assignment)."""
    strategy = resolve_strategy(field, players, theme.plays_as)
    jobs = [
        LabelChunk(theme, players, strategy, seed, g0, min(CHUNK, games - g0), rate, worlds, beta)
        for g0 in range(0, games, CHUNK)
    ]
    parts = []
    for job, part in zip(jobs, (backend or LocalBackend()).map(label_chunk, jobs), strict=True):
        parts.append(part)
        if progress:
            progress(job.n)
    return Labels(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in ("meta", "wins", "slot", "ctx")),
        worlds, games, sum(p.skipped for p in parts),
    )  # fmt: skip


def versus(
    theme: Theme, players: int, field: str, challenger: str, seed: int, games: int, backend=None
) -> dict[str, tuple[float, float, float]]:
    """Per role at the table: (gain, low, high) of that role's win rate when its seats play
    `challenger` and the others `field`, against all playing `field`, on the same deals."""
    chunks = [min(256, games - k) for k in range(0, games, 256)]
    seeds = [sub_seed(seed, "versus", k) for k in range(len(chunks))]

    def play(spec) -> tuple[np.ndarray, np.ndarray]:
        works = [Work(theme, players, spec, s, n) for s, n in zip(seeds, chunks, strict=True)]
        done = list(play_all(works, backend))
        return np.concatenate([o.won for o in done]), np.concatenate([o.role for o in done])

    base, role_of = play(field)
    idx = np.arange(len(base))
    out = {}
    for name in roles_at(theme, players):
        arm, _ = play({**dict.fromkeys(ROLES, field), name: challenger})
        seat = np.argmax(role_of == ROLES.index(name), axis=1)
        gain, _, half = paired_interval(arm[idx, seat].astype(float) - base[idx, seat])
        out[name] = (gain, gain - half, gain + half)
    return out


def round_header(theme: Theme, players: int, rnd: Round, command: str) -> str:
    """What a round's field file says of itself (and how to make it again)."""
    gains = ", ".join(
        f"{r} {100 * g:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
        for r, (g, lo, hi) in rnd.gains.items()
    )
    # field K > 1 learns from field K - 1; the first from the run's start (tuned)
    source = f"field {rnd.number - 1}" if rnd.number > 1 else Path(rnd.learned_from).name
    return (
        f"The learned field of {theme.id} at {players} players: field {rnd.number} of the\n"
        f"learning run below, learned from {source}'s games and rollouts.\n"
        f"Cost: {rnd.games:,} games, {rnd.decisions:,} decisions labelled, "
        f"{rnd.rollouts:,} rollouts, {rnd.seconds:,.0f} s.\n"
        f"Against the field it learned from, each role playing its new table gains (points, "
        f"95%): {gains}.\n"
        + (
            f"Kept the last field's tables for: {', '.join(rnd.kept)} (no gain).\n"
            if rnd.kept
            else ""
        )
        + (
            "Steps taken toward the new tables (the best of each role's checks on other "
            f"deals): {', '.join(f'{r} {a:g}' for r, a in rnd.steps.items())}.\n"
            if rnd.steps
            else ""
        )
        + f"Remake: {command}"
    )


def learn(
    theme: Theme,
    players: int,
    out: Path,
    rounds: int,
    games: int,
    worlds: int,
    rate: float,
    seed: int,
    start: str = "tuned",
    beta: float = Search.beta,
    check_games: int = 4000,
    command: str = "",
    progress: Callable[[str, int, int], None] | None = None,
    backend: Backend | None = None,
    steps: tuple[float, ...] = (1.0,),
) -> list[Round]:
    """Run learning rounds into folder `out` (see the module docstring); a round whose field
    exists there is read, not made again. Returns every round."""
    check_players(theme, players)
    check_sklearn()
    if rounds < 1 or games < 1 or worlds < 1 or not 0.0 < rate <= 1.0:
        raise ValueError("rounds, games and worlds must be at least 1, rate in (0, 1]")
    if not steps or not all(0.0 < a <= 1.0 for a in steps):
        raise ValueError("steps must be in (0, 1]")
    resolve_strategy(start, players, theme.plays_as)
    out.mkdir(parents=True, exist_ok=True)
    field = start
    done = []
    for k in range(1, rounds + 1):
        path = out / f"round-{k}.toml"
        if path.is_file():
            load_learned(path)
            done.append(read_round(path, k, field))
            field = str(path)
            continue
        t0 = time.perf_counter()
        tick = (lambda n, k=k: progress("label", k, n)) if progress else None
        labels = label_round(theme, players, field, sub_seed(seed, "learn", k), games, rate,
                             worlds, beta, tick, backend)  # fmt: skip
        np.savez_compressed(out / f"labels-{k}.npz", **labels._asdict())
        base, old = field_parts(field, players, theme)
        fit = fit_tables([labels])
        if progress:
            progress("check", k, 0)
        new = old.copy()
        gains: dict[str, tuple[float, float, float]] = {}
        taken: dict[str, float] = {}
        trial = out / f".round-{k}.toml"
        for a in steps:  # each step checked on the same deals; each role takes its best
            step = fit if a == 1.0 else old + a * (fit - old)
            write_atomic(trial, learned_toml(Learned(theme.plays_as, players, base, step)).encode())
            checked = versus(theme, players, where(field), where(str(trial)),
                             sub_seed(seed, "check", k), check_games, backend)  # fmt: skip
            for r, g in checked.items():
                if r not in gains or g[0] > gains[r][0]:
                    gains[r], taken[r] = g, a
                    new[ROLES.index(r)] = step[ROLES.index(r)]
        kept = tuple(r for r, (g, _, _) in gains.items() if g <= 0.0)
        for r in kept:  # a role whose new table did not gain keeps the field's
            new[ROLES.index(r)] = old[ROLES.index(r)]
            del taken[r]
        if len(steps) > 1:  # the best of several checks reads high: measured again
            write_atomic(trial, learned_toml(Learned(theme.plays_as, players, base, new)).encode())
            gains = versus(theme, players, where(field), where(str(trial)),
                           sub_seed(seed, "recheck", k), check_games, backend)  # fmt: skip
        trial.unlink()
        m = labels.meta[:, 2]
        rnd = Round(k, str(path), field, games, len(labels.meta), int(m.sum()) * worlds,
                    time.perf_counter() - t0, gains, kept,
                    taken if len(steps) > 1 else None)  # fmt: skip
        learned = Learned(theme.plays_as, players, base, new)
        write_atomic(
            path, learned_toml(learned, round_header(theme, players, rnd, command)).encode()
        )
        done.append(rnd)
        field = str(path)
    return done


def where(field: str) -> str:
    """A field's spec as any process may read it: a learned file's path made absolute (a Ray
    worker's folder is not this one's)."""
    return str(Path(field).resolve()) if field.endswith(".toml") else field


def field_parts(field: str, players: int, theme: Theme) -> tuple[str, np.ndarray]:
    """(the scored policy a field's tables correct, its tables): a learned field's base and
    tables, or a preset and zero tables (its own plays)."""
    if is_learned_spec(field):
        found = find_learned(field, theme.plays_as, players)
        return found.base, found.tables
    return field, np.zeros((len(ROLES), LEARN_SLOTS, N_CTX))


def read_round(path: Path, k: int, learned_from: str) -> Round:
    """A finished round, as its file's header tells (the numbers are not read back)."""
    return Round(k, str(path), learned_from, 0, 0, 0, 0.0, {})
