"""Names of the per-game event counts the kernel keeps (State.ev; GameBlock.events).

Each game counts, in the order of simcore.engine.state's EV_* layout: every "draw!" check by kind
(made, passed, cards revealed, revealed cards passing, and how many of those the faces of
the piles they came from predicted, in millionths), life lost by what hurt, Beers at a
lethal hit and the lives they saved, Beers played with two players left (and whether one
healed: a correct engine never does), lethal hits taken with two players left while
holding a Beer (and Beers drunk at one: a correct engine never drinks one), cards taken from
or discarded by another player, and (in GameBlock.used, per seat) every card used, by the
theme's card name: played in the play phase, or used to answer (a Missed!, a Beer at a
lethal hit, a BANG! answering a Duel or Indians!); and who eliminated the leader, by role
(leader_killed_by_deputy, _outlaw, _renegade; _no_one for a Dynamite's).
"""

from simcore.engine.state import (
    EV_BEER_SAVES,
    EV_BEERS_AT_LETHAL,
    EV_BEERS_TWO_LEFT,
    EV_BEERS_TWO_LEFT_AT_LETHAL,
    EV_BEERS_TWO_LEFT_HEALED,
    EV_CHECK,
    EV_DISCARDED_BY_OTHERS,
    EV_DMG,
    EV_LEADER_KILLED,
    EV_LETHAL_TWO_LEFT_BEER,
    EV_STOLEN,
    N_CHECK_KINDS,
    N_EV,
)
from simcore.engine.vocab import (
    CHECKS,
    DMG_BANG,
    DMG_DUEL,
    DMG_DYNAMITE,
    DMG_GATLING,
    DMG_INDIANS,
    DMG_OTHER,
    ROLES,
)

# the check kinds in the bit order of vocab.CHK_* (kind k counts at EV_CHECK + 5 k)
CHECK_KINDS = tuple(sorted(CHECKS, key=CHECKS.__getitem__))
assert len(CHECK_KINDS) == N_CHECK_KINDS
CHECK_FIELDS = ("checks", "passed", "revealed", "revealed_passing", "expected_passing_ppm")
DAMAGE_KINDS = {
    DMG_BANG: "bang",
    DMG_DUEL: "duel",
    DMG_GATLING: "gatling",
    DMG_INDIANS: "indians",
    DMG_DYNAMITE: "dynamite",
    DMG_OTHER: "other",
}


def event_names() -> list[str]:
    """Names of the per-game counts, GameBlock.events' columns (index = EV_* constant)."""
    names = [""] * N_EV
    for k, kind in enumerate(CHECK_KINDS):
        for j, field in enumerate(CHECK_FIELDS):
            names[EV_CHECK + len(CHECK_FIELDS) * k + j] = f"{kind}_{field}"
    for code, kind in DAMAGE_KINDS.items():
        names[EV_DMG + code] = f"damage_{kind}"
    names[EV_BEERS_AT_LETHAL] = "beers_at_lethal"
    names[EV_BEER_SAVES] = "beer_saves"
    names[EV_BEERS_TWO_LEFT] = "beers_two_left"
    names[EV_BEERS_TWO_LEFT_HEALED] = "beers_two_left_healed"
    names[EV_STOLEN] = "cards_stolen"
    names[EV_DISCARDED_BY_OTHERS] = "cards_discarded_by_others"
    names[EV_LETHAL_TWO_LEFT_BEER] = "lethal_two_left_beer_held"
    names[EV_BEERS_TWO_LEFT_AT_LETHAL] = "beers_two_left_at_lethal"
    for role, by in zip(ROLES, ("no_one", *ROLES[1:]), strict=True):
        names[EV_LEADER_KILLED + ROLES.index(role)] = f"leader_killed_by_{by}"
    assert all(names), "every event count has a name"
    return names
