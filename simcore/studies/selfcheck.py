"""`bangsim selfcheck`: facts any correct engine must show, measured on simulated games.

Each check plays games of the shipped themes, reads the kernel's event counts (simcore.engine.events)
or the games' outcomes, and compares what it observed with what the rules imply:

- draw! rates: every card a "draw!" reveals (Barrel, Jail, Dynamite, A New Hope) and Black
  Jack's second card pass their check as often as the faces of the draw pile say. The deck's
  share of passing faces (classic: Hearts 25%, Spades 2-9 12.5%) is the reference a reader
  knows; the expected value tested is the average, over the checks made, of the passing
  share of the draw pile the card came from (`State.ev` keeps that sum), because players
  hold some faces longer than others (Beers are Hearts). The observed rate must lie within
  its 99.9% Wilson interval of that expectation (a correct engine fails one check in 1,000);
- a Beer played with two players left never heals (random bots play them), and none is
  drunk at a lethal hit with two players left (save_from_lethal);
- the Renegade never wins while anyone else is alive;
- The Walking Dead and classic are one game re-skinned: each side's win rate agrees within
  the 95% interval of the difference (independent seeds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from simcore.engine.events import CHECK_FIELDS, CHECK_KINDS, event_names
from simcore.engine.state import EV_CHECK
from simcore.engine.theme import Theme, load_theme, shipped_themes
from simcore.engine.vocab import CHECKS, R_RENEGADE, W_LEADER, W_OUTLAW, W_RENEGADE, WINNERS
from simcore.stats import newcombe_interval, wilson_interval
from simcore.studies.batch import Outcomes, Work, play_all

Z999 = 3.2905267314919255  # two-sided 99.9%
CHECK_LABELS = {
    "barrel": "Barrel draw!",
    "jail": "Jail draw!",
    "dynamite": "Dynamite draw! (explodes)",
    "draw_extra": "Black Jack's second card (red)",
    "new_hope": "A New Hope draw!",
}


@dataclass(frozen=True)
class Check:
    name: str  # what was checked
    observed: float
    expected: float
    low: float  # the interval the observed value (or difference) must contain
    high: float
    n: int  # trials behind the observed value
    passed: bool
    note: str = ""

    @classmethod
    def never(cls, name: str, seen: int, witnesses: int, passed: bool, note: str) -> Check:
        """A check that something never happens: seen times, expected 0, over `witnesses`
        occasions where it could have (`passed` may also ask for some witnesses)."""
        return cls(name, seen, 0, 0, 0, witnesses, passed, note)

    def line(self) -> str:
        mark = "ok  " if self.passed else "FAIL"
        return (
            f"{mark} {self.name}: observed {fmt(self.observed)}, expected {fmt(self.expected)}, "
            f"interval [{fmt(self.low)}, {fmt(self.high)}], n={self.n:,}"
            + (f" ({self.note})" if self.note else "")
        )


def fmt(x: float) -> str:
    return f"{x:.4f}" if abs(x) < 1 else f"{x:g}"


def face_share(theme: Theme, kind: str) -> float:
    """Share of the deck's cards whose face passes check `kind`."""
    return float(np.mean((theme.tables.card_check & CHECKS[kind]) != 0))


def draw_rates(theme: Theme, block: Outcomes) -> Iterator[Check]:
    total = block.events.sum(axis=0, dtype=np.int64)
    for k, kind in enumerate(CHECK_KINDS):
        base = EV_CHECK + len(CHECK_FIELDS) * k
        revealed = int(total[base + 2])
        if revealed == 0:
            continue
        passing = int(total[base + 3])
        expected = float(total[base + 4]) / 1e6 / revealed
        lo, hi = wilson_interval(passing, revealed, Z999)
        yield Check(
            f"{theme.id}: {CHECK_LABELS[kind]} passes as the draw pile's faces say",
            passing / revealed,
            expected,
            lo,
            hi,
            revealed,
            bool(lo <= expected <= hi),
            f"the deck's faces: {face_share(theme, kind):.4f}",
        )


def renegade_alone(theme: Theme, block: Outcomes, bots: str = "smart") -> Iterator[Check]:
    ren_won = block.winner == W_RENEGADE
    others_alive = (block.survived & (block.role != R_RENEGADE)).any(axis=1)
    bad = int((ren_won & others_alive).sum())
    yield Check.never(
        f"{theme.id}: the Renegade never wins with anyone else alive ({bots} bots)",
        bad, int(ren_won.sum()), bad == 0, "games the Renegade won with another player alive",
    )  # fmt: skip


def beer_two_left(theme: Theme, block: Outcomes) -> Iterator[Check]:
    names = event_names()
    played = int(block.events[:, names.index("beers_two_left")].sum())
    healed = int(block.events[:, names.index("beers_two_left_healed")].sum())
    yield Check.never(
        f"{theme.id}: a Beer with two players left never heals", healed, played,
        healed == 0 and played > 0,
        "Beers that healed, of those played with two left" if played else "none played",
    )  # fmt: skip
    held = int(block.events[:, names.index("lethal_two_left_beer_held")].sum())
    drunk = int(block.events[:, names.index("beers_two_left_at_lethal")].sum())
    yield Check.never(
        f"{theme.id}: a Beer never saves from a lethal hit with two players left",
        drunk,
        held,
        drunk == 0 and held > 0,
        "Beers drunk, at lethal hits taken holding one" if held else "no such hit",
    )


def same_game(a: Outcomes, b: Outcomes, ida: str, idb: str) -> Iterator[Check]:
    for w in (W_LEADER, W_OUTLAW, W_RENEGADE):
        k1, n1 = int((a.winner == w).sum()), len(a.winner)
        k2, n2 = int((b.winner == w).sum()), len(b.winner)
        p1, p2 = k1 / n1, k2 / n2
        d = p1 - p2
        lo, hi = newcombe_interval(k1, n1, k2, n2)
        yield Check(
            f"{idb} vs {ida}: {WINNERS[w]} side win rate difference",
            d,
            0.0,
            lo,
            hi,
            n1 + n2,
            bool(lo <= 0.0 <= hi),
            f"{ida} {p1:.4f}, {idb} {p2:.4f}",
        )


def run_selfcheck(
    games: int = 20_000,
    seed: int = 1,
    players: int = 5,
    progress: Callable[[str], None] | None = None,
) -> list[Check]:
    """Play the checks' games and return every check's result."""
    checks: list[Check] = []
    blocks = {}
    for theme_id in shipped_themes():
        theme = load_theme(theme_id)
        if progress:
            progress(theme_id)
        smart, rand = play_all(
            Work(theme, players, bots, seed, games, events=True) for bots in ("smart", "random")
        )
        blocks[theme_id] = smart
        for block in (smart,):
            checks += draw_rates(theme, block)
        checks += renegade_alone(theme, smart)
        checks += renegade_alone(theme, rand, "random")
        checks += beer_two_left(theme, rand)
    if "classic" in blocks and "walking_dead" in blocks:
        (wd,) = play_all([Work(load_theme("walking_dead"), players, "smart", seed + 1, games)])
        checks += same_game(blocks["classic"], wd, "classic", "walking_dead")
    return checks
