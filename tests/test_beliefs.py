"""Belief rules of the `smart` bot, each a scripted scenario, and the information
rule: a bot's decision never changes when something it cannot see is permuted."""

import numpy as np
import pytest
from played import play_games
from scenario import FIVE, SEVEN, Table

from simcore.engine import kernel
from simcore.engine.play import CHECKED, NO_FEATURE
from simcore.engine.state import S_DECK_N, S_DISC_N, S_ENEMY_FOR, S_N, S_OVER, new_states
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme
from simcore.engine.vocab import R_OUTLAW, RU_TURN_CAP
from strategies.decide import (
    card_to_discard,
    choose_action,
    draw_source,
    put_back,
    takes_discard_top,
)
from strategies.params import P_ANSWER_MIN_BANGS, P_TAKE_HITS_ABOVE
from strategies.presets import resolve_strategy

# characters without play-phase abilities. Five players: 0 leader, 1 renegade, 2-3 outlaws,
# 4 deputy. Seven: 0 leader, 1 renegade, 2-4 outlaws, 5-6 deputies (enough unknowns that
# counting the role mix alone settles nobody's side).
CHARS = [
    "Black Jack",
    "Kit Carlson",
    "Jesse Jones",
    "Pedro Ramirez",
    "Lucky Duke",
    "Vulture Sam",
    "Paul Regret",
]


def decide(t: Table, p: int):
    """The play p's bot makes now: (card name, target), or None to end the turn."""
    n = t.call(kernel.legal_actions, p, False)
    k = t.call(choose_action, p, n)
    if k < 0:
        return None
    i = t.G.act_idx[k]
    return t.theme.card_display[t.G.hand[p, i]], int(t.G.act_tgt[k])


def volcanic_table(strategy="smart", roles=FIVE) -> Table:
    """A table where the players to act will hold a Winchester (everyone in reach)."""
    return Table(CHARS[: len(roles)], roles=roles, strategy=strategy)


def test_outlaw_who_shot_the_leader_is_the_deputys_target():
    """An Outlaw who shot the leader is then the Deputy's target."""
    t = volcanic_table(roles=SEVEN)
    t.equip(2, "Winchester").give(2, "BANG!")
    t.play(2, "BANG!", target=0)  # the leader takes the hit
    t.equip(5, "Winchester").give(5, "BANG!")
    t.new_turn(5)
    assert decide(t, 5) == ("BANG!", 2)


def test_leader_spares_a_player_who_acted_as_deputy():
    """The leader does not shoot a player who shot the one who shot him: the shooter's
    record is against him, and shooting a player with such a record is for him."""
    t = volcanic_table(roles=SEVEN)
    t.equip(2, "Winchester").give(2, "BANG!")
    t.play(2, "BANG!", target=0)
    assert t.G.karma[2] == -1.0
    t.equip(3, "Winchester").give(3, "BANG!")
    t.new_turn(3)
    t.play(3, "BANG!", target=2)  # seat 3 (an outlaw in disguise) shoots the shooter
    assert t.G.karma[3] == 0.5 and t.G.karma[2] == -1.0
    t.equip(0, "Winchester").give(0, "BANG!")
    t.new_turn(0)
    assert decide(t, 0) == ("BANG!", 2)


def test_outlaw_remembers_who_attacked_it_smart_only():
    """Private evidence: attacking a player with no public record tells only the victim.
    An outlaw shot by a deputy sees the deputy as law-side: the smart outlaw shoots back;
    the basic bot, reading the public record alone, sees no enemy in reach."""
    for strategy, expected in (("smart", ("BANG!", 5)), ("basic", None)):
        t = volcanic_table(strategy, roles=SEVEN)
        t.equip(5, "Winchester").give(5, "BANG!")
        t.play(5, "BANG!", target=4)
        assert t.G.karma[5] == 0.0  # nothing public was learned
        t.give(4, "BANG!")  # the Colt .45 reaches seats 3 and 5, not the leader
        t.new_turn(4)
        assert decide(t, 4) == expected, strategy


def test_renegade_keeps_its_cover_then_turns():
    """The Renegade acts as a Deputy (never shoots the leader) while others remain, and
    turns on the leader when only the two of them are left."""
    t = volcanic_table()
    t.equip(1, "Winchester").give(1, "BANG!")
    t.new_turn(1)
    assert decide(t, 1) is None  # nobody has a record yet: no target, the leader spared
    t.kill(2).kill(4)  # an outlaw and the deputy are gone: 3 players left
    t.equip(3, "Winchester").give(3, "BANG!")
    t.play(3, "BANG!", target=0)  # the last outlaw shoots the leader
    t.new_turn(1)
    assert decide(t, 1) == ("BANG!", 3)  # still the leader's man while an outlaw lives
    t.kill(3)
    assert not t.over()  # the renegade and the leader remain
    t.new_turn(1)
    assert decide(t, 1) == ("BANG!", 0)


def test_renegade_spares_a_weak_leader_while_others_live():
    """Turned (every outlaw dead) with a deputy still alive, the smart renegade shoots the
    deputy, not a leader at 2 life."""
    t = volcanic_table()
    t.kill(2).kill(3)
    t.set_life(0, 2)
    t.equip(1, "Winchester").give(1, "BANG!")
    t.new_turn(1)
    assert decide(t, 1) == ("BANG!", 4)


# --- the information rule -----------------------------------------------------------------


def midgame_states(players: int, strategy: str, games: int, turns: int):
    """States of real games stopped after `turns` turns (a turn cap), still running."""
    theme = load_theme("classic")
    strat = resolve_strategy(strategy, players, "classic")
    tables = pack_tables(theme.tables, strat.learned)
    tables.rules[0, RU_TURN_CAP] = turns
    T = tables[0]
    pool = np.arange(len(theme.character_names), dtype=np.int64)
    out = []
    for g in range(games):
        G = new_states(1)[0]
        with np.errstate(over="ignore"):
            kernel.play_game(
                G, T, strat.matrix, pool, strat.role_preset, NO_FEATURE, players, 3, g, CHECKED
            )
        if not G.s[S_OVER]:  # still running
            out.append((G, T))
    return out


def decisions(G, T, p):
    """Everything p's bot would decide now, as plain values."""
    n = kernel.legal_actions(G, T, p, False)
    k = choose_action(G, T, p, n)
    play = None if k < 0 else (int(G.hand[p, G.act_idx[k]]), int(G.act_tgt[k]), int(G.act_opt[k]))
    worst = int(G.hand[p, card_to_discard(G, T, p, -1)]) if G.hand_n[p] else -1
    top = G.s[S_DISC_N] - 1  # the discard pile is public
    pedro = bool(takes_discard_top(G, T, p, G.disc[top])) if top >= 0 else None
    back = int(put_back(G, T, p, G.hand[p].copy(), G.hand_n[p])) if G.hand_n[p] else -1
    return play, worst, int(draw_source(G, p)), pedro, back


def permute_hidden(G, p, rng, signed=False):
    """Shuffle what p cannot see: other living players' hand cards together with the draw
    pile (sizes kept), and the roles of living players other than p and the leader. signed:
    each permuted seat's belief row signed for its new role, as kernel.record would have
    made it (an outlaw's is the public row negated)."""
    n = G.s[S_N]
    others = [q for q in range(n) if q != p and G.alive[q]]
    cards = [int(c) for q in others for c in G.hand[q, : G.hand_n[q]]]
    deck_n = G.s[S_DECK_N]
    cards += [int(c) for c in G.deck[:deck_n]]
    rng.shuffle(cards)
    i = 0
    for q in others:
        for j in range(G.hand_n[q]):
            G.hand[q, j] = cards[i]
            i += 1
        kernel.count_held(G, q)
    G.deck[:deck_n] = cards[i:]
    hidden = [q for q in others if q != 0]
    public = {q: G.belief[q] * (-1 if G.role[q] == R_OUTLAW else 1) for q in hidden}
    roles = [int(G.role[q]) for q in hidden]
    rng.shuffle(roles)
    for q, r in zip(hidden, roles, strict=True):
        G.role[q] = r
        if signed:
            G.belief[q] = public[q] * (-1 if r == R_OUTLAW else 1)
    G.s[S_ENEMY_FOR] = 0  # the bots' enemy scores computed anew, not kept from before


SMART_TURNING = """personal = { leader = 1, deputy = 0, outlaw = 1, renegade = 1 }
enemy_min = 0.75
renegade_turn_alive = 4
"""
# smart with every strong-play key away from its default (each default plays as `smart` does)
KNOBS = f"""[knobs]
{SMART_TURNING}renegade_turn_outlaws = 1
value_spare = 1.5
keep_bangs = 1
volcanic_bangs = 1
renegade_lean = -1.5
"""
# smart with every misplay key (misplays experts saw) away from its default
GROWN = f"""[grown]
{SMART_TURNING}guard_leader = 3
aoe_spare_leader = 2
take_value = 1.5
dynamite_away = 60
hold_volcanic = 2
value_dead = 6
take_cover = 8
jail_after_bang = 2
kit_deny = 4
"""


@pytest.mark.parametrize("strategy", ["basic", "smart", "aggressive", "cautious", "knobs", "grown"])
def test_decisions_ignore_what_the_bot_cannot_see(strategy, tmp_path):
    """For many mid-game states, each living player's decisions are unchanged when other
    hands, hidden roles and the deck order are permuted."""
    if strategy in ("knobs", "grown"):
        (tmp_path / f"{strategy}.toml").write_text(KNOBS if strategy == "knobs" else GROWN)
        strategy = f"{tmp_path / strategy}.toml:{strategy}"
    assert blind_decisions(6, strategy, 40, (4, 9, 15)) > 300


def blind_decisions(players: int, strategy: str, games: int, turns: tuple[int, ...]) -> int:
    """Check that each living seat's decisions at the mid-game states of `games` games
    stopped after each of `turns` turns are unchanged when what it cannot see is permuted
    (three times); returns how many seats were checked."""
    rng = np.random.default_rng(0)
    checked = 0
    for stop in turns:
        for G, T in midgame_states(players, strategy, games, stop):
            for p in range(G.s[S_N]):
                if not G.alive[p]:
                    continue
                before = decisions(G, T, p)
                for _ in range(3):
                    permute_hidden(G, p, rng)
                    assert decisions(G, T, p) == before
                checked += 1
    return checked


def test_tuned_is_the_default_and_seats_record_their_preset():
    """Strategies per role: the seat rows name the preset each seat played; roles a spec
    leaves out play the reference level, tuned."""
    block = play_games("classic", 5, 200, 1, strategy={"outlaw": "aggressive"})
    names = np.array(block.preset_names)[block.preset]
    assert set(names[block.role == 2]) == {"aggressive"}
    assert set(names[block.role != 2]) == {"tuned"}


def test_answers_read_the_parameter_vector():
    """Out-of-turn answers are parameters too: `answer_min_bangs` (answer a Duel with a
    BANG! only holding that many, always at 1 life) and `take_hits_above` (keep Missed!
    and take a hit above that life)."""
    t = volcanic_table()
    t.G.w[:, P_ANSWER_MIN_BANGS] = 2
    t.G.w[:, P_TAKE_HITS_ABOVE] = 3
    t.give(2, "Duel", "Duel").give(0, "BANG!")
    t.play(2, "Duel", target=0)  # one BANG! in hand: the leader lets the Duel go
    assert (t.life(0), t.hand_names(0)) == (4, ["BANG!"])
    t.set_life(0, 1)
    t.play(2, "Duel", target=0)  # at 1 life he answers; the outlaw holds no BANG!
    assert (t.life(0), t.life(2), t.hand_names(0)) == (1, 3, [])
    t.give(3, "BANG!", "BANG!").give(1, "Missed!").equip(3, "Winchester")
    t.play(3, "BANG!", target=1)  # 4 life > 3: the renegade keeps its Missed!
    assert (t.life(1), t.hand_names(1)) == (3, ["Missed!"])
    t.new_turn(3).play(3, "BANG!", target=1)  # at 3 life it cancels
    assert (t.life(1), t.hand_names(1)) == (3, [])
