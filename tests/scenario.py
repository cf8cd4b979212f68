"""Hand-set game states for rules scenarios: stacked decks, given hands, cards in play.

A `Table` is one game state built by hand; its methods call the real kernel functions
(compiled, or plain Python under NUMBA_DISABLE_JIT) and check the invariants after each.

    t = Table(["Willy the Kid", "Bart Cassidy", "El Gringo", "Jourdonnais"],
              roles=["leader", "outlaw", "outlaw", "renegade"])
    t.give(0, "BANG!")
    t.give(1, "Missed!")
    t.play(0, "BANG!", target=1)
    assert t.life(1) == 4 and t.hand_names(1) == []

Cards are named by the theme's card name, optionally with a face: "Missed!" takes any copy,
"Barrel@QS" the Barrel with face QS, "BANG!#take" a copy with that Encounter with
Destiny ("#none": a copy without one). Every card stays somewhere: a Table starts with all
cards in the draw pile, and give/equip/stack/to_discard move them from wherever they are.
"""

from __future__ import annotations

import numpy as np

from simcore.engine import kernel
from simcore.engine.board import distance
from simcore.engine.play import CHECKED, NO_FEATURE
from simcore.engine.state import (
    ERRORS,
    S_BANGS,
    S_CHECKED,
    S_CUR,
    S_DECK_N,
    S_DISC_N,
    S_ERR,
    S_N,
    S_OVER,
    S_WINNER,
    new_states,
)
from simcore.engine.tables import pack_tables
from simcore.engine.theme import Theme, compile_theme, load_theme, read_toml, shipped_theme_file
from simcore.engine.vocab import DESTINIES, ROLES, WINNERS
from strategies.presets import resolve_strategy


def variant(theme: str = "classic", **rules) -> Theme:
    """A shipped theme with some [rules] keys set to other values, through the real loader."""
    raw = read_toml(shipped_theme_file(theme))
    raw["theme"]["id"] += "_variant"
    raw["rules"].update(rules)
    return compile_theme(raw)


class Table:
    def __init__(
        self,
        characters: list[str],
        roles: list[str] | None = None,
        theme: str | Theme = "classic",
        strategy: str | dict = "basic",
        seed: int = 0,
    ):
        self.theme = load_theme(theme)
        self.T = pack_tables(self.theme.tables)[0]
        self.strategy = resolve_strategy(strategy)
        n = len(characters)
        if roles is None:
            roles = [ROLES[r] for r in self.theme.tables.roles[n, :n]]
        self.G = new_states(1)[0]
        G = self.G
        pool = np.array([self.theme.character_names.index(c) for c in characters], np.int64)
        with np.errstate(over="ignore"):
            kernel.setup_game(
                G,
                self.T,
                self.strategy.matrix,
                pool,
                self.strategy.role_preset,
                NO_FEATURE,
                n,
                seed,
                0,
                CHECKED,
            )
        # exact seating, roles and characters as given; life = printed (+ the leader's extra)
        for q, (name, role) in enumerate(zip(characters, roles, strict=True)):
            ch = self.theme.character_names.index(name)
            G.char[q] = ch
            G.ability[q] = self.theme.tables.char_ability[ch]
            G.role[q] = ROLES.index(role)
            life = self.theme.tables.char_life[ch]
            if role == "leader":
                life += self.theme.tables.rules[0]
            G.life[q] = G.max_life[q] = life
            G.preset[q] = self.strategy.role_preset[G.role[q]]
            G.w[q, :] = self.strategy.matrix[G.preset[q]]
        # every card back into the draw pile, in id order (top = highest id)
        nc = self.T.n_cards
        G.hand[:, :] = -1
        G.hand_n[:] = 0
        G.held[:, :] = 0
        G.table[:, :] = -1
        G.table_n[:] = 0
        G.disc[:] = -1
        G.s[S_DISC_N] = 0
        G.deck[:nc] = np.arange(nc)
        G.s[S_DECK_N] = nc
        self.check()

    # --- building the state -----------------------------------------------------------

    def card_ids(self, spec: str) -> list[int]:
        spec, _, fate = spec.partition("#")
        name, _, face = spec.partition("@")
        code = DESTINIES[fate] if fate else None
        ids = [
            i
            for i, (n, f) in enumerate(
                zip(self.theme.card_display, self.theme.card_faces, strict=True)
            )
            if n == name
            and (not face or f == face)
            and (code is None or self.theme.tables.card_destiny[i] == code)
        ]
        if not ids:
            raise KeyError(f"no card {spec!r} in theme {self.theme.id!r}")
        return ids

    def _take(self, spec: str) -> int:
        """Remove a card matching spec from the deck (preferred), discard pile, hands or play."""
        G = self.G
        ids = set(self.card_ids(spec))
        for i in range(G.s[S_DECK_N] - 1, -1, -1):
            if G.deck[i] in ids:
                c = int(G.deck[i])
                n = G.s[S_DECK_N]
                G.deck[i : n - 1] = G.deck[i + 1 : n].copy()
                G.deck[n - 1] = -1
                G.s[S_DECK_N] = n - 1
                return c
        for i in range(G.s[S_DISC_N]):
            if G.disc[i] in ids:
                c = int(G.disc[i])
                n = G.s[S_DISC_N]
                G.disc[i : n - 1] = G.disc[i + 1 : n].copy()
                G.disc[n - 1] = -1
                G.s[S_DISC_N] = n - 1
                return c
        for p in range(G.s[S_N]):
            for i in range(G.hand_n[p]):
                if G.hand[p, i] in ids:
                    return int(kernel.take_from_hand(G, p, i))
            for i in range(G.table_n[p]):
                if G.table[p, i] in ids:
                    return int(kernel.take_from_table(G, self.T, p, i))
        raise KeyError(f"every {spec!r} is already placed")

    def give(self, p: int, *specs: str) -> Table:
        for spec in specs:
            kernel.to_hand(self.G, p, self._take(spec))
        self.check()
        return self

    def equip(self, p: int, *specs: str) -> Table:
        for spec in specs:
            kernel.put_in_play(self.G, self.T, p, self._take(spec))
        self.check()
        return self

    def stack(self, *specs: str) -> Table:
        """Put cards on top of the draw pile: the first named is drawn first."""
        G = self.G
        cards = [
            self._take(spec) for spec in specs
        ]  # all taken first: "Missed!" twice = two copies
        for c in reversed(cards):
            G.deck[G.s[S_DECK_N]] = c
            G.s[S_DECK_N] += 1
        self.check()
        return self

    def to_discard(self, *specs: str) -> Table:
        """Put cards on the discard pile: the last named ends on top."""
        for spec in specs:
            kernel.discard(self.G, self._take(spec))
        self.check()
        return self

    def empty_deck(self) -> Table:
        """Move the whole draw pile to the discard pile (so the next draw reshuffles)."""
        G = self.G
        while G.s[S_DECK_N] > 0:  # not draw_card: the last card drawn refills the pile
            n = G.s[S_DECK_N] - 1
            kernel.discard(G, G.deck[n])
            G.deck[n] = -1
            G.s[S_DECK_N] = n
        self.check()
        return self

    def set_life(self, p: int, life: int) -> Table:
        self.G.life[p] = life
        self.check()
        return self

    def kill(self, p: int) -> Table:
        """Eliminate p by no one's hand (for seating and end-of-game scenarios)."""
        kernel.eliminate(self.G, self.T, p, -1, 0)
        self.check()
        return self

    # --- acting -----------------------------------------------------------------------

    def legal(self, p: int) -> list[tuple[str, int, int]]:
        """Every legal play of p now: (card name or 'ability', target, option)."""
        G = self.G
        n = kernel.legal_actions(G, self.T, p, False)  # as the kernel calls it
        out = []
        for k in range(n):
            i = G.act_idx[k]
            name = "ability" if i < 0 else self.theme.card_display[G.hand[p, i]]
            out.append((name, int(G.act_tgt[k]), int(G.act_opt[k])))
        return out

    def can_play(
        self, p: int, card: str, target: int | None = None, opt: int | None = None
    ) -> bool:
        return self._find(p, card, target, opt) >= 0

    def _find(self, p, card, target, opt) -> int:
        G = self.G
        ids = set(self.card_ids(card)) if card != "ability" else set()
        n = kernel.legal_actions(G, self.T, p, False)  # as the kernel calls it
        for k in range(n):
            i = G.act_idx[k]
            if card == "ability":
                if i >= 0:
                    continue
            elif i < 0 or G.hand[p, i] not in ids:
                continue
            if target is not None and G.act_tgt[k] != target:
                continue
            if opt is not None and G.act_opt[k] != opt:
                continue
            return k
        return -1

    def play(self, p: int, card: str, target: int | None = None, opt: int | None = None) -> Table:
        """Play a card (or 'ability') as p, on target, with option opt; it must be legal."""
        G = self.G
        G.s[S_CUR] = p
        k = self._find(p, card, target, opt)
        if k < 0:
            raise AssertionError(f"{card} -> {target} (opt {opt}) is not legal: {self.legal(p)}")
        with np.errstate(over="ignore"):
            kernel.resolve(G, self.T, p, k)
        self.check()
        return self

    def call(self, fn, *args):
        """Run a kernel or policy function fn(G, T, *args) (or fn(G, *args))."""
        import inspect

        names = list(inspect.signature(getattr(fn, "py_func", fn)).parameters)
        lead = [self.G, self.T][: sum(1 for n in names[:2] if n in ("G", "T"))]
        with np.errstate(over="ignore"):
            out = fn(*lead, *args)
        self.check()
        return out

    def turn(self, p: int) -> Table:
        """Play p's whole turn with the table's strategy."""
        self.G.s[S_CUR] = p
        return self._run(kernel.take_turn, p)

    def _run(self, fn, *args) -> Table:
        with np.errstate(over="ignore"):
            fn(self.G, self.T, *args)
        self.check()
        return self

    def start_of_turn(self, p: int) -> bool:
        self.G.s[S_CUR] = p
        with np.errstate(over="ignore"):
            go_on = kernel.start_of_turn(self.G, self.T, p)
        self.check()
        return bool(go_on)

    def draw_phase(self, p: int) -> Table:
        return self._run(kernel.draw_phase, p)

    def damage(self, p: int, amount: int, killer: int, source: int, effect: int) -> Table:
        return self._run(kernel.damage, p, amount, killer, source, effect)

    def new_turn(self, p: int) -> Table:
        """Reset the per-turn counters as the start of p's turn does."""
        self.G.s[S_BANGS] = 0
        self.G.s[S_CUR] = p
        return self

    # --- reading ----------------------------------------------------------------------

    def check(self) -> None:
        G = self.G
        G.s[S_CHECKED] = 1
        kernel.verify(G, self.T)
        if G.s[S_ERR]:
            raise AssertionError(f"invariant broken: {ERRORS[int(G.s[S_ERR])]}")

    def life(self, p: int) -> int:
        return int(self.G.life[p])

    def alive(self, p: int) -> bool:
        return bool(self.G.alive[p])

    def hand_names(self, p: int) -> list[str]:
        G = self.G
        return sorted(self.theme.card_display[c] for c in G.hand[p, : G.hand_n[p]])

    def in_play(self, p: int) -> list[str]:
        G = self.G
        return sorted(self.theme.card_display[c] for c in G.table[p, : G.table_n[p]])

    def discard_top(self) -> str | None:
        n = self.G.s[S_DISC_N]
        return self.theme.card_display[self.G.disc[n - 1]] if n else None

    def discard_names(self) -> list[str]:
        G = self.G
        return [self.theme.card_display[c] for c in G.disc[: G.s[S_DISC_N]]]

    def deck_top(self, k: int = 1) -> list[str]:
        G = self.G
        n = G.s[S_DECK_N]
        return [self.theme.card_display[G.deck[n - 1 - i]] for i in range(min(k, n))]

    def deck_size(self) -> int:
        return int(self.G.s[S_DECK_N])

    def over(self) -> bool:
        return bool(self.G.s[S_OVER])

    def winner(self) -> str:
        w = int(self.G.s[S_WINNER])
        return "none" if w < 0 else WINNERS[w]

    def bangs_played(self) -> int:
        return int(self.G.s[S_BANGS])


# --- shared scenario vocabulary -------------------------------------------------------------

HEART = "Beer@6H"
DIAMOND = "BANG!@2D"
CLUB = "Missed!@10C"
BOOM = "Missed!@2S"  # Spades 2: the Dynamite explodes

FOUR = ["leader", "renegade", "outlaw", "outlaw"]
FIVE = ["leader", "renegade", "outlaw", "outlaw", "deputy"]
SEVEN = ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"]
# abilities that act only in their owner's draw phase: inert in play-phase scenarios
PLAIN = ["Black Jack", "Kit Carlson", "Jesse Jones", "Pedro Ramirez"]


def table(roles=FOUR, chars=None, theme="classic"):
    """A table of draw-phase-only characters (inert in play-phase scenarios)."""
    return Table(chars or (PLAIN * 2)[: len(roles)], roles=roles, theme=theme)


def targets(t, p, card):
    """Seats p may play `card` on now."""
    return sorted({q for name, q, _ in t.legal(p) if name == card})


def disc(t):
    """The discard pile bottom to top, each card as name@face."""
    G = t.G
    return [f"{t.theme.card_display[c]}@{t.theme.card_faces[c]}" for c in G.disc[: G.s[S_DISC_N]]]


def dist(t, a, b):
    """The distance seat a sees seat b at."""
    return int(t.call(distance, a, b))
