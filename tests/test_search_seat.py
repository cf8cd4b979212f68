"""A seat that searches by rollouts (`search:BASE`, simcore.engine.search): it beats its base
against a weak field, finds known-best plays, plays BASE's games with no budget, is
deterministic across threads and chunks, and its decisions ignore what it cannot see."""

import json
from dataclasses import replace

import numba
import numpy as np
import pytest
from played import paused_games, play_games
from scenario import FOUR, PLAIN, Table
from test_beliefs import permute_hidden
from test_search import CRIPPLED
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine import kernel
from simcore.engine.kernel import NO_STOP
from simcore.engine.labels import labelled_options
from simcore.engine.rng import rng_seed
from simcore.engine.search import (
    LOG_FULL,
    NO_MIX,
    decision_key,
    searched_decision,
    world_rows,
)
from simcore.engine.state import (
    PH_PLAY,
    S_CUR,
    S_DECISIONS,
    S_DECK_N,
    S_N,
    S_OPTIONS,
    S_OVER,
    S_PAUSED,
    S_PHASE,
    S_SEARCH,
    S_SEARCH_KINDS,
    SK_PLAY,
    new_states,
)
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme
from simcore.engine.vocab import ROLES
from simcore.studies.batch import SIDE_OF
from strategies.presets import Mixture, Search, Strategy, resolve_strategy

SMALL = "search@worlds=2@budget=24"
MID = "search@worlds=4@budget=64@z=0"


def with_search(role: str, base: str, head: str = SMALL) -> dict[str, str]:
    return {r: f"{head}:{base}" if r == role else base for r in ROLES}


@pytest.mark.parametrize(
    ("role", "least"), [("leader", 0.15), ("deputy", 0.15), ("outlaw", 0.15), ("renegade", 0.05)]
)
def test_a_search_seat_beats_a_random_base_in_every_role(role, least):
    """Against a `random` field, the role playing `search:random` wins far more often than
    the field's own play in it, on the same deals. (A random field's renegade wins 9%: its
    rollouts rarely win, so most of its options tie and it gains least.)"""
    games = 60
    base = play_games("classic", 5, games, 3, strategy="random")
    searched = play_games("classic", 5, games, 3, strategy=with_search(role, "random", MID))
    side = SIDE_OF[ROLES.index(role)]
    gain = np.mean(searched.winner == side) - np.mean(base.winner == side)
    assert gain > least, gain
    assert searched.searched[:, 0].sum() > games  # decisions were searched


def paused(t: Table, p: int, strategy) -> Table:
    """t with seat p, searching its plays, paused at its first play-phase decision."""
    G = t.G
    G.s[S_SEARCH] = 1 << p
    G.s[S_SEARCH_KINDS] = SK_PLAY
    G.s[S_PHASE] = PH_PLAY
    G.s[S_CUR] = p
    G.preset[:] = strategy.role_preset[G.role[: len(G.preset)]]
    for q in range(G.s[S_N]):
        G.w[q] = strategy.matrix[G.preset[q]]
    t.call(kernel.play_on, NO_STOP)
    assert G.s[S_PAUSED] == 1
    return t


def taken(t: Table, p: int, code: int):
    """The play a decision's code means at the paused t: (card, target), None for stop."""
    if code == 1:
        return None
    k = code - 2
    return t.theme.card_display[t.G.hand[p, t.G.act_idx[k]]], int(t.G.act_tgt[k])


def test_it_plays_a_lethal_bang_in_reach(tmp_path):
    """An outlaw next to a 1-life Sheriff with no card in hand: BANG! on him wins at once.
    Over a base whose outlaws never see an enemy (so never shoot: CRIPPLED), the searching
    outlaw plays it, and wins every world with it."""
    (tmp_path / "crippled.toml").write_text(CRIPPLED)
    base = f"{tmp_path / 'crippled.toml'}:crippled"
    strategy = resolve_strategy(with_search("outlaw", base, "search@worlds=8@budget=96"))
    t = Table(PLAIN, roles=["leader", "outlaw", "outlaw", "renegade"])
    t.set_life(0, 1).give(1, "BANG!", "Beer", "Jail").give(2, "Missed!").give(3, "Missed!")
    paused(t, 1, strategy)
    d = searched_decision(pack_tables(t.theme.tables), t.G, strategy)
    assert taken(t, 1, d.base) != ("BANG!", 0)
    assert taken(t, 1, d.code) == ("BANG!", 0)
    win = d.options[d.options[:, 0] == d.code][0]
    assert win[1] == win[2]  # it won every world


def test_it_drinks_the_beer_that_saves_a_life():
    """The Sheriff at 1 life holds a Beer and a Missed!; an outlaw and the renegade at 1
    life are left, and every card he has not seen is a BANG!. Drinking now (2 life and the
    Missed!) outlives the hostiles' two shots; holding, he keeps one card of the two at the
    end of his turn and does not. Its random base would stop. (A Beer at a lethal hit is the
    base's answer, not searched: the decision searched is this play-phase Beer.)"""
    strategy = resolve_strategy(with_search("leader", "random", "search@worlds=16@budget=400"))
    t = Table(PLAIN, roles=FOUR)
    t.set_life(0, 1).give(0, "Beer", "Missed!").kill(3)
    t.set_life(1, 1).set_life(2, 1).give(1, "BANG!").give(2, "BANG!")
    seen = {"BANG!", "Beer", "Missed!"}
    rest = [n for n in t.theme.card_display if n not in seen]
    t.to_discard(*rest, *["Missed!"] * 11, *["Beer"] * 5)
    assert {t.theme.card_display[c] for c in t.G.deck[: t.G.s[S_DECK_N]]} == {"BANG!"}
    paused(t, 0, strategy)
    d = searched_decision(pack_tables(t.theme.tables), t.G, strategy)
    assert taken(t, 0, d.base) is None
    assert taken(t, 0, d.code) == ("Beer", 0)
    stop, beer = d.options[:, 1] / d.options[:, 2]
    assert beer > stop + 0.15


def test_with_no_budget_it_plays_the_base_games_exactly():
    """budget 0: every decision pauses and goes back to BASE's own choice."""
    base = play_games("classic", 5, 60, 7, strategy="tuned")
    zero = play_games("classic", 5, 60, 7, strategy="search@budget=0:tuned")
    for name in ("winner", "turns", "rounds", "role", "character", "survived", "won"):
        assert np.array_equal(getattr(base, name), getattr(zero, name)), name
    assert zero.searched[:, 0].sum() == 0
    moved = play_games("classic", 5, 60, 7, strategy="outlaw=search@budget=16:tuned")
    assert moved.searched[:, 2].sum() > 0  # with a budget it leaves BASE's choice


def on_one_thread(*args, **kwargs):
    """play_games(*args, **kwargs) with numba on one thread."""
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        return play_games(*args, **kwargs)
    finally:
        numba.set_num_threads(before)


def test_the_same_games_for_any_thread_count_and_chunk():
    spec = with_search("renegade", "tuned")
    one = on_one_thread("classic", 5, 24, 5, strategy=spec)
    two = play_games("classic", 5, 24, 5, strategy=spec)
    tail = play_games("classic", 5, 12, 5, game0=12, strategy=spec)
    assert np.array_equal(one.winner, two.winner) and np.array_equal(one.searched, two.searched)
    assert np.array_equal(one.turns, two.turns)
    assert np.array_equal(two.winner[12:], tail.winner)
    assert np.array_equal(two.searched[12:], tail.searched)


def test_a_game_s_decision_log_holds_each_searched_decision():
    """play_games(search_log=R): each game's log (search.log_decision, what a trace replays)
    lists every pause in order, the option taken among its options, and sums to the game's
    counts of the search; the games are those played without a log; a log too short for
    them all is marked full."""
    spec = with_search("outlaw", "tuned")
    plain = play_games("classic", 5, 6, 8, strategy=spec)
    logged = play_games("classic", 5, 6, 8, strategy=spec, search_log=1 << 13)
    assert np.array_equal(plain.winner, logged.winner) and np.array_equal(plain.turns, logged.turns)
    for g in range(6):
        log, r, number, counts = logged.decisions[g], 0, 0, np.zeros(2, np.int64)
        while log[r, 0] > 0:
            decision, taken, _, m, seat = log[r][:5]
            options = log[r + 1 : r + 1 + m]
            assert decision == number + 1 and ROLES[logged.role[g, seat]] == "outlaw"
            assert taken in options[:, 0] and np.all(options[:, 1] <= options[:, 2])
            played = options[:, 2].sum()
            counts += [played > 0, played]
            number, r = decision, r + 1 + m
        assert log[r:].max(initial=0) == 0  # nothing after the last decision
        assert counts.tolist() == logged.searched[g, :2].tolist(), g
    full = play_games("classic", 5, 1, 8, strategy=spec, search_log=4).decisions[0]
    assert full[-1, 0] == LOG_FULL


def searching_states(n: int, strategy_of):
    """Real mid-game decisions of a searching seat: each of games 0 .. n-1 (classic, 6
    players, `basic`, seed 3) paused at a seat's next decision, that seat searching with
    strategy_of(its role); yields (game, the paused state, the strategy)."""
    tables = pack_tables(load_theme("classic").tables)
    games = np.arange(n)
    states = paused_games("classic", 6, 3, games, 4 + games % 12, strategy="basic")
    for g, G in zip(games, states, strict=True):
        if G.s[S_OVER]:
            continue
        p = int(G.s[S_CUR])
        strategy = strategy_of(int(G.role[p]))
        G.s[S_SEARCH] = 1 << p
        G.s[S_SEARCH_KINDS] = strategy.search_config()[3]
        with np.errstate(over="ignore"):
            kernel.play_on(G, tables[0], NO_STOP)
        if G.s[S_PAUSED]:
            yield int(g), G, strategy


def test_its_decisions_ignore_what_it_cannot_see():
    """At real mid-game decisions of a searching seat, permuting other hands, the draw pile
    and the hidden roles changes neither the option taken nor any option's rollout wins."""
    searching = resolve_strategy("search@worlds=2@budget=12:basic")
    tables = pack_tables(load_theme("classic").tables)
    rng = np.random.default_rng(0)
    checked = 0
    for g, G, strategy in searching_states(16, lambda role: searching):
        before = searched_decision(tables, G, strategy, seed=3, game=g)
        for _ in range(2):
            permute_hidden(G, int(G.s[S_CUR]), rng, signed=True)
            after = searched_decision(tables, G, strategy, seed=3, game=g)
            assert after.code == before.code
            assert np.array_equal(after.options, before.options)
        checked += 1
    assert checked >= 8


def test_every_option_is_played_on_the_worlds_the_teacher_deals():
    """At real mid-game play-phase decisions, with a budget of one round (every option on the
    same `worlds` worlds, none halved away), each option's rollout wins are the teacher's
    labels of it on the decision's worlds (simcore.engine.labels, option by option): each
    world is dealt once and every option played from that same deal, whatever the order."""
    tables = pack_tables(load_theme("classic").tables)
    basic = resolve_strategy("basic", 6)
    plays = resolve_strategy("search@kinds=play:basic", 6)
    checked = 0
    for g, G, _ in searching_states(16, lambda role: plays):
        m = int(G.s[S_OPTIONS]) + 1
        one_round = resolve_strategy(f"search@worlds=3@budget={3 * m}@kinds=play:basic", 6)
        d = searched_decision(tables, G, one_round, seed=3, game=g)
        key = decision_key(3, g, int(G.s[S_DECISIONS]))
        wins, _, _ = labelled_options(tables, G, basic, 3, beta=Search.beta, key=int(key))
        assert len(d.options) == m
        assert d.options[:, 2].tolist() == [3] * m
        assert d.options[:, 1].tolist() == [wins[code - 1] for code in d.options[:, 0]]
        checked += 1
    assert checked >= 6


def test_search_specs():
    """The settings read from a spec; bad ones are one-line errors."""
    s = resolve_strategy("renegade=search@worlds=8@budget=256@kinds=play@seats=one:tuned", 5)
    assert s.search == Search(worlds=8, budget=256, kinds=("play",), seats="one")
    assert s.search_roles == 1 << ROLES.index("renegade")
    assert np.array_equal(s.matrix[3], resolve_strategy("tuned", 5).matrix[3])
    assert s.label() == "leader=tuned,deputy=tuned,outlaw=tuned,renegade=" + (
        "search@worlds=8@budget=256@kinds=play@seats=one:tuned"
    )
    for bad, words in [
        ("search", "names no base"),
        ("search@depth=3:tuned", "bad search setting"),
        ("search@budget=x:tuned", "whole number"),
        ("search@kinds=answers:tuned", "unknown search kind"),
        ("search:search:tuned", "cannot search too"),
        ("outlaw=search:tuned,leader=search@budget=8:tuned", "same settings"),
        ("search:nosuch", "unknown strategy"),
    ]:
        with pytest.raises(ValueError, match=words):
            resolve_strategy(bad)


def test_exploit_by_search_pairs_a_search_seat_with_the_field():
    """exploit --method search: per role, the search seat's gain with its interval (JSON);
    --method both prints it beside the parameter search's, inside the family and beyond."""
    tiny = ["--games", "24", "--worlds", "2", "--budget", "8", "--players", "4"]
    done = CliRunner().invoke(
        app, ["exploit", "--strategy", "tuned", "--method", "search", "--role", "renegade",
              *tiny, "--format", "json"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["method"] == "search" and list(result["roles"]) == ["renegade"]
    r = result["roles"]["renegade"]
    assert r["gain_low"] <= r["gain"] <= r["gain_high"] and r["games"] == 24
    assert r["gain"] == pytest.approx(r["search_rate"] - r["field_rate"])
    assert r["decisions"] > 0 and r["rollouts"] > 0 and r["decisions_per_second"] > 0
    budget = ["--generations", "1", "--games-min", "32", "--games-max", "32"]
    done = CliRunner().invoke(
        app, ["exploit", "--strategy", "tuned", "--method", "both", "--role", "outlaw", *tiny,
              *budget, "--final-games", "100", "--no-progress"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "beyond it" in done.stdout and "inside the family" in done.stdout


def basic_and_smart(own: int, weights=(0.5, 0.5)) -> Mixture:
    """A mixed field: every role `basic`, or every role but `own` `smart` (own `basic`)."""
    rows = np.vstack([resolve_strategy(s, 6).matrix for s in ("basic", "smart")])
    other = np.array([4, 5, 6, 7])
    other[own] = own
    return Mixture(rows, np.array([[0, 1, 2, 3], other]), np.array(weights, np.float64))


def test_against_a_mixed_field_its_worlds_draw_the_profiles_given_its_own_row():
    """A world draws a profile of the mixed field among those in which the seat's role plays
    its own row, by weight (the draw's law given what the seat knows of it): the seat's own
    row is never replaced, and the others' come out in the weights' proportions."""
    S = new_states(1)[0]
    own = ROLES.index("outlaw")
    mixed = basic_and_smart(own, (0.25, 0.75))
    mix = np.vstack([mixed.table(), [0.0, 1.0, 9.0, 3.0, 5.0]])  # another own row: never drawn
    drawn = []
    for world in range(4000):
        rng_seed(S.rng, np.uint64(7), world)
        drawn.append(tuple(world_rows(S, np.array([0, 1, 2, 3]), mix, own)))
    counts = {rows: drawn.count(rows) for rows in set(drawn)}
    assert set(counts) == {(0, 1, 2, 3), (4, 5, 2, 7)}
    assert counts[(4, 5, 2, 7)] / len(drawn) == pytest.approx(0.75, abs=0.03)
    assert world_rows(S, np.array([0, 1, 2, 3]), NO_MIX, own).tolist() == [0, 1, 2, 3]


def test_against_a_mixed_field_its_decisions_ignore_the_others_draw():
    """Against a mixed field the seat cannot see which profile the game drew for the others:
    its decisions are the same whichever it was (the worlds draw the others' rows from the
    mixture, given its own row), and differ from those against the pure field it drew."""

    def mixed_search(own: int) -> Strategy:
        mixed = basic_and_smart(own)
        field = Strategy(("x.json",) * 4, 6, None, mixed.rows[:4], mixture=mixed)
        return replace(field, search=Search(2, 12), search_roles=1 << own)

    tables = pack_tables(load_theme("classic").tables)
    checked = differs = 0
    for g, G, strategy in searching_states(14, mixed_search):
        profiles = strategy.mixture.profiles
        a, b = (searched_decision(tables, G, strategy, 3, g, rows) for rows in profiles)
        assert a.code == b.code and np.array_equal(a.options, b.options)
        pure = replace(strategy, mixture=None)
        differs += not np.array_equal(searched_decision(tables, G, pure, 3, g).options, a.options)
        checked += 1
    assert checked >= 6 and differs >= 1
