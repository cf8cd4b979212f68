"""An independent referee: the legal plays of a game state, written from the rulebook
(shared/rules/classic_bang.txt, the checklist IDs of shared/reference/rules-checklist.md),
not from the kernel. tests/test_referee.py compares it with `kernel.legal_actions` on
states of real games, both ways.

Plain Python over the state's arrays and the theme's tables; it shares no code with the
kernel or simcore.engine.board (only the vocabulary's codes and the state's field layout).
Cards are read by their effects' traits (vocab.EFFECT_TRAITS) and aims (Tables.card_aim).
A play is (kind, target, option): kind is the card's name index and, at 2 life or less,
its Encounter with Destiny ([S-06]: copies of one name play alike otherwise), or "ability";
option is -1 for a random card from the target's hand, a slot for a chosen card in play,
else 0.
"""

from __future__ import annotations

from simcore.engine.state import S_BANGS, S_N
from simcore.engine.vocab import (
    A_BANG_MISSED_SWAP,
    A_BUILTIN_MUSTANG,
    A_BUILTIN_SCOPE,
    A_DISCARD_TWO_HEAL,
    A_UNLIMITED_BANG,
    ABILITIES,
    AIM_ANY,
    AIM_EVERY_OTHER,
    AIM_NONE,
    AIM_RANGE,
    AIM_REACH,
    AIM_SELF,
    E_MUSTANG,
    E_SCOPE,
    E_VOLCANIC,
    EFFECT_TRAITS,
    PL_DISCARD,
    PL_IN_FRONT,
    PL_WEAPON,
    R_LEADER,
    ROLES,
    RU_BANG_LIMIT,
    RU_JAIL_ON_LEADER,
    RU_SELF_TARGET_EFFECTS,
)

ABILITY_NAMES = {code: name for name, code in ABILITIES.items()}


class Seat:
    """What the rules ask of one player: hand, cards in play, life, ability."""

    def __init__(self, G, T, q: int):
        self.q = q
        self.alive = bool(G.alive[q])
        self.hand = [int(c) for c in G.hand[q, : G.hand_n[q]]]
        self.play = [int(c) for c in G.table[q, : G.table_n[q]]]
        self.effects_in_play = [int(T.card_effect[c]) for c in self.play]
        self.names_in_play = {int(T.card_name[c]) for c in self.play}
        self.life = int(G.life[q])
        self.max_life = int(G.max_life[q])
        self.ability = int(G.ability[q])
        self.leader = int(G.role[q]) == R_LEADER


def legal_plays(G, T, p: int) -> set[tuple]:
    """Every play the rules allow p now, in the play phase of p's turn."""
    n = int(G.s[S_N])
    seats = [Seat(G, T, q) for q in range(n)]
    me = seats[p]
    living = [s for s in seats if s.alive]

    def around(a: int, b: int) -> int:
        """[C-14] "Distance is the minimum number of living seats between two players,
        counting around the circle. Eliminated players are ignored." """
        order = [s.q for s in living]
        i, j = order.index(a), order.index(b)
        steps = (j - i) % len(order)
        return min(steps, len(order) - steps)

    def distance(a: Seat, b: Seat) -> int:
        """[C-16] "A Scope reduces the distance you see by one, and a Mustang increases the
        distance others see to you by one. These modifiers combine." Never below 1; Paul
        Regret is a Mustang, Rose Doolan a Scope, each stacking with a real one ([A-09] [A-11])."""
        farther = b.effects_in_play.count(E_MUSTANG) + (b.ability == A_BUILTIN_MUSTANG)
        closer = a.effects_in_play.count(E_SCOPE) + (a.ability == A_BUILTIN_SCOPE)
        return max(1, around(a.q, b.q) + farther - closer)

    def reach(a: Seat) -> int:
        """[C-11] [C-15] "The Colt .45 printed on each board reaches distance 1. A weapon card
        replaces that maximum with the number shown in its sight"."""
        for c, e in zip(a.play, a.effects_in_play, strict=True):
            if EFFECT_TRAITS[e].place == PL_WEAPON:
                return int(T.card_value[c])
        return 1

    # [C-09] [K-18] [A-16] "one BANG! card per turn" (rules.bang_limit); Volcanic and Willy
    # the Kid: "any number of BANG! cards"
    bangs_left = (
        int(G.s[S_BANGS]) < int(T.rules[RU_BANG_LIMIT])
        or me.ability == A_UNLIMITED_BANG
        or E_VOLCANIC in me.effects_in_play
    )
    self_ok = int(T.rules[RU_SELF_TARGET_EFFECTS])
    plays: set[tuple] = set()
    for c in me.hand:
        e = int(T.card_effect[c])
        fx = EFFECT_TRAITS[e]
        aim = int(T.card_aim[c])  # its effect's aim, or the theme's own effect's
        cost = int(T.card_cost[c])
        if len(me.hand) - 1 < cost:  # [D-03] "Discard Springfield and one other card"
            continue
        fate = int(T.card_destiny[c]) if me.life <= 2 else 0
        kind = (int(T.card_name[c]), fate)
        if fx.bang_card or (fx.cancels and me.ability == A_BANG_MISSED_SWAP):
            if not bangs_left:
                continue
            if not fx.bang_card:
                aim = AIM_REACH  # [C-17] "Play a BANG! at a player within your weapon range"
        if aim == AIM_NONE:
            continue  # Missed! is never played on your own turn [C-13]
        if aim in (AIM_SELF, AIM_EVERY_OTHER):
            # [C-10] [C-11] one copy of each name in front of you; a new weapon (of another
            # name) replaces the old one
            if fx.place == PL_DISCARD or int(T.card_name[c]) not in me.names_in_play:
                plays.add((kind, p, 0))
            continue
        # one chosen player: [K-05] Panic!: "a player at distance 1, counting distance
        # modifiers"; [K-06] Cat Balou, [K-10] Duel, [D-03] Springfield: any other player, any
        # distance; [D-04] Tequila: "any player, you included"; each Panic! or Cat Balou takes
        # "a random hand card or a chosen card in play"
        for s in living:
            hand_left = len(s.hand)
            if s.q == p:
                if aim != AIM_ANY and not (self_ok >> e) & 1:  # [S-41] "(you may also choose
                    continue  # yourself)"
                hand_left -= 1 + cost  # this card and what it costs leave the hand first
            elif aim == AIM_REACH and distance(me, s) > reach(me):
                continue
            elif aim == AIM_RANGE and distance(me, s) > int(T.card_value[c]):
                continue
            if fx.place == PL_IN_FRONT:
                # [K-16] "Jail is played on another player." / "The Sheriff cannot be jailed."
                # (unless rules.jail_on_leader); [C-10] "one copy of each named card in play"
                if s.leader and not int(T.rules[RU_JAIL_ON_LEADER]):
                    continue
                if int(T.card_name[c]) in s.names_in_play:
                    continue
            if not fx.picks:
                plays.add((kind, s.q, 0))
                continue
            if hand_left > 0:
                plays.add((kind, s.q, -1))
            for slot in range(len(s.play)):
                plays.add((kind, s.q, slot))
    if me.ability == A_DISCARD_TWO_HEAL and len(me.hand) >= 2 and me.life < me.max_life:
        plays.add(("ability", p, 0))  # [A-12] "discard 2 cards to regain one life point"
    return plays


def kernel_plays(G, T, p: int, n: int) -> set[tuple]:
    """The n plays kernel.legal_actions listed in G.act_*, in the referee's form."""
    out = set()
    low = int(G.life[p]) <= 2
    for k in range(n):
        i = int(G.act_idx[k])
        if i < 0:
            kind = "ability"
        else:
            c = int(G.hand[p, i])
            kind = (int(T.card_name[c]), int(T.card_destiny[c]) if low else 0)
        out.add((kind, int(G.act_tgt[k]), int(G.act_opt[k])))
    return out


def describe(G, T, names: list[str], p: int) -> str:
    """The state as a reader checks it: each seat's role, life, ability, hand and play."""
    lines = [f"player {p} to play, BANG! cards played this turn: {int(G.s[S_BANGS])}"]
    for q in range(int(G.s[S_N])):
        hand = [names[int(T.card_name[c])] for c in G.hand[q, : G.hand_n[q]]]
        play = [names[int(T.card_name[c])] for c in G.table[q, : G.table_n[q]]]
        lines.append(
            f"  seat {q}: {'alive' if G.alive[q] else 'out'} {ROLES[int(G.role[q])]} life "
            f"{int(G.life[q])}/{int(G.max_life[q])} ability {ABILITY_NAMES[int(G.ability[q])]} "
            f"hand {hand} in play {play}"
        )
    return "\n".join(lines)


def show(plays: set[tuple], names: list[str]) -> str:
    """Plays as text: card name (#destiny code) -> target seat (option)."""
    out = []
    for kind, target, opt in sorted(plays, key=str):
        card = kind if kind == "ability" else names[kind[0]] + (f"#{kind[1]}" if kind[1] else "")
        out.append(f"{card} -> {target}" + (f" (option {opt})" if opt else ""))
    return ", ".join(out) or "none"


def compare(cases: list[dict]) -> dict:
    """Play each case (play_games keywords: theme, players, games, seed, strategy) with
    every kernel.legal_actions call checked against the referee; needs the kernel as plain
    Python (NUMBA_DISABLE_JIT=1), whose functions look each other up in the module's
    globals. The states and plays compared, and the first differences as text."""
    from numba import config
    from played import play_games

    from simcore.engine import kernel
    from simcore.engine.theme import load_theme

    if not config.DISABLE_JIT:
        raise RuntimeError("compare needs NUMBA_DISABLE_JIT=1")
    seen = {"states": 0, "plays": 0, "differences": []}
    real = kernel.legal_actions
    names: list[str] = []

    def checked(G, T, p, choose=False):
        n = real(G, T, p, choose)
        listed, allowed = kernel_plays(G, T, p, n), legal_plays(G, T, p)
        seen["states"] += 1
        seen["plays"] += len(listed | allowed)
        if listed != allowed and len(seen["differences"]) < 10:
            seen["differences"].append(
                f"{describe(G, T, names, p)}\n"
                f"  offered, not allowed: {show(listed - allowed, names)}\n"
                f"  allowed, not offered: {show(allowed - listed, names)}"
            )
        return n

    kernel.legal_actions = checked
    try:
        for case in cases:
            theme = load_theme(case.pop("theme"))
            names[:] = theme.card_names
            play_games(theme, checked=True, **case)
    finally:
        kernel.legal_actions = real
    return seen


if __name__ == "__main__":  # python tests/referee.py < cases.json > result.json
    import json
    import sys

    json.dump(compare(json.load(sys.stdin)), sys.stdout)
