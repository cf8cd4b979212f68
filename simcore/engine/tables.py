"""The compiled form of a theme: fixed-dtype numpy arrays, the only thing the kernel sees."""

from typing import NamedTuple

import numpy as np

from simcore.engine.limits import MAX_CARDS, MAX_CHARACTERS, MAX_PLAYERS
from simcore.engine.state import records
from simcore.engine.vocab import N_RULES
from strategies.params import LEARN_SLOTS, N_CTX, N_LEARNED, NO_LEARNED


class Tables(NamedTuple):
    card_effect: np.ndarray  # int8[n_cards]: effect code (vocab.E_*) of each physical card
    card_value: np.ndarray  # int8[n_cards]: draw count / reach / heal amount / steal range
    card_cost: np.ndarray  # int8[n_cards]: other hand cards discarded to play it (Springfield: 1)
    card_name: (
        np.ndarray
    )  # int16[n_cards]: index of the card's distinct name (one copy per name in play)
    card_check: (
        np.ndarray
    )  # int32[n_cards]: bitmask of the "draw!" predicates (vocab.CHK_*) its face passes
    card_flags: np.ndarray  # int32[n_cards]: per-card rule flags (vocab.CF_*: CF_BEER)
    card_destiny: np.ndarray  # int8[n_cards]: Encounter with Destiny code (vocab.D_*), 0 none
    card_aim: np.ndarray  # int8[n_cards]: whom it aims at (vocab.AIM_*): its effect's `aim`
    card_draws: np.ndarray  # int8[n_cards]: cards its player draws after using it (`draws`)
    char_life: np.ndarray  # int8[n_characters]: printed life
    char_ability: np.ndarray  # int8[n_characters]: ability code (vocab.A_*)
    roles: (
        np.ndarray
    )  # int8[MAX_PLAYERS + 1, MAX_PLAYERS]: roles[n, :n] the role mix for n players, -1 pad
    rules: np.ndarray  # int64[N_RULES]: rule flags indexed by vocab.RU_*


# The kernel reads the tables as one record (passed by reference, fixed-size fields).
TABLES_DTYPE = np.dtype(
    [
        ("n_cards", np.int64),
        ("card_effect", np.int64, (MAX_CARDS,)),
        ("card_value", np.int64, (MAX_CARDS,)),
        ("card_cost", np.int64, (MAX_CARDS,)),
        ("card_name", np.int64, (MAX_CARDS,)),
        ("card_check", np.int64, (MAX_CARDS,)),
        ("card_flags", np.int64, (MAX_CARDS,)),
        ("card_destiny", np.int64, (MAX_CARDS,)),
        ("card_aim", np.int64, (MAX_CARDS,)),
        ("card_draws", np.int64, (MAX_CARDS,)),
        ("char_life", np.int64, (MAX_CHARACTERS,)),
        ("char_ability", np.int64, (MAX_CHARACTERS,)),
        ("roles", np.int64, (MAX_PLAYERS + 1, MAX_PLAYERS)),
        ("rules", np.int64, (N_RULES,)),
        # a strategy's learned tables (pack_tables' `learned`): learn[k, slot, j], the
        # weight of context column j for a play of effect `slot` by a seat with learned k+1
        ("learn", np.float64, (N_LEARNED, LEARN_SLOTS, N_CTX)),
    ],
    align=True,
)


def pack_tables(t: Tables, learned: np.ndarray = NO_LEARNED) -> np.recarray:
    """The kernel's record form of `t` as a one-row record array (fields padded to the limits),
    with a strategy's learned tables (float64[k <= N_LEARNED, LEARN_SLOTS, N_CTX]:
    Strategy.learned)."""
    rec = records(1, TABLES_DTYPE)
    rec.learn[0, : len(learned)] = learned
    n = len(t.card_effect)
    rec.n_cards[0] = n
    for field in (
        "card_effect",
        "card_value",
        "card_cost",
        "card_name",
        "card_check",
        "card_flags",
        "card_destiny",
        "card_aim",
        "card_draws",
    ):
        rec[field][0, :n] = getattr(t, field)
    m = len(t.char_life)
    rec.char_life[0, :m] = t.char_life
    rec.char_ability[0, :m] = t.char_ability
    rec.roles[0] = t.roles
    rec.rules[0] = t.rules
    return rec
