"""The kinds of decision a searching seat searches (`kinds=`, state.SK_*): what each kind's
options are (search.option_kinds against a spec written here again), that a search of one
kind changes only decisions of that kind, the per-kind counts, determinism across threads,
and the disagreement table (`exploit --method search --by-kind`)."""

import json

import numpy as np
import pytest
from played import paused_games, play_games
from scenario import PLAIN, Table
from test_search_seat import on_one_thread, paused
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine import kernel, state
from simcore.engine.kernel import NO_STOP
from simcore.engine.search import N_Q, Q_CHANGED, Q_DECISIONS, Q_KIND, searched_decision
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme
from simcore.engine.vocab import E_DUEL, E_GATLING, E_HEAL, E_INDIANS, ROLES
from simcore.studies.search_gain import BY_KIND, NOT_SEARCHED, TOGETHER
from strategies.presets import SEARCH_KINDS, Search, resolve_strategy

PLAY_KINDS = [k for k in SEARCH_KINDS if k not in ("play", "discard", "putback")]


def col(kind: str, changed: bool) -> int:
    """The column of search.Q_* counting a kind's decisions (or its changed ones)."""
    return Q_KIND + 2 * (SEARCH_KINDS[kind].bit_length() - 1) + changed


def test_the_kinds_are_the_engines_bits():
    """strategies.presets writes the bits again (state imports strategies): the same."""
    for name, bit in SEARCH_KINDS.items():
        assert getattr(state, f"SK_{name.upper()}") == bit
    assert len(SEARCH_KINDS) == state.N_SK and N_Q == Q_KIND + 2 * state.N_SK
    assert state.SK_PLAY_KINDS == sum(SEARCH_KINDS[k] for k in ["play", *PLAY_KINDS])


def test_kinds_parse_and_bad_names_are_one_line_errors():
    assert Search.parse("search@kinds=duel+take").kinds == ("duel", "take")
    s = resolve_strategy("outlaw=search@kinds=beer+area+discard:tuned", 5)
    assert s.search_config()[3] == state.SK_BEER | state.SK_AREA | state.SK_DISCARD
    for bad in ("answers", "put-back", "duel+", "Duel"):
        with pytest.raises(ValueError, match="unknown search kind") as e:
            Search.parse(f"search@kinds={bad}")
        assert "\n" not in str(e.value)


def spec_alternative(G, T, p: int, code: int, base: int, kind: str) -> bool:
    """docs/bands.md's definition of a kind's alternatives to BASE's play, written
    from the legal list (G.act_*) again."""

    def play(c):
        return None if c == 1 else (G.act_idx[c - 2], G.act_tgt[c - 2], G.act_opt[c - 2])

    def effect(x):
        return -1 if x is None or x[0] < 0 else T.card_effect[G.hand[p, x[0]]]

    a, b = play(code), play(base)
    both = {effect(a), effect(b)}
    same_card = a is not None and b is not None and a[0] == b[0]
    return {
        "play": True,
        "stop": a is None or b is None,
        "beer": E_HEAL in both,
        "duel": E_DUEL in both,
        "area": bool(both & {E_GATLING, E_INDIANS}),
        "target": same_card and a[1] != b[1],
        "take": same_card and a[1] == b[1] and a[2] != b[2],
    }[kind]


def decisions(strategy: str, players: int = 5, n: int = 12, each: int = 40):
    """Real decisions of every seat searching `strategy` (budget 0: no rollouts): n games
    from a mid-game turn, their next `each` decisions in each, BASE's choice taken at every
    one: (tables, state, the searched decision) per decision."""
    s = resolve_strategy(strategy, players)
    tables = pack_tables(load_theme("classic").tables)
    games = np.arange(n)
    states = paused_games("classic", players, 11, games, 2 + games % 5, strategy="tuned")
    for g, G in zip(games, states, strict=True):
        G.s[state.S_SEARCH] = (1 << players) - 1
        G.s[state.S_SEARCH_KINDS] = s.search_config()[3]
        for _ in range(each):
            with np.errstate(over="ignore"):
                kernel.play_on(G, tables[0], NO_STOP)
            if not G.s[state.S_PAUSED]:
                break
            d = searched_decision(tables, G, s, seed=11, game=int(g))
            yield tables, G, d
            G.s[state.S_PAUSED] = 0
            G.s[state.S_FORCE] = d.base


@pytest.mark.parametrize("kind", PLAY_KINDS)
def test_a_kinds_options_are_bases_and_its_alternatives_of_that_kind(kind):
    """Searching one kind, a decision weighs BASE's choice and exactly the options the
    definition makes that kind's alternatives, each marked with the kind."""
    weighed = 0
    for tables, G, d in decisions(f"search@budget=0@kinds={kind}:tuned"):
        assert G.s[state.S_PHASE] == state.PH_PLAY
        T, p = tables[0], int(G.s[state.S_CUR])
        every = range(1, int(G.s[state.S_OPTIONS]) + 2)
        expected = {c for c in every if c == d.base or spec_alternative(G, T, p, c, d.base, kind)}
        assert set(d.options[:, 0]) == expected
        for code, kinds in d.options[:, [0, 5]]:
            assert (kinds & SEARCH_KINDS[kind] != 0) == (code != d.base)
        weighed += len(expected) > 1
    assert weighed >= 1  # some decision had an alternative of the kind


def test_searching_take_its_panic_takes_the_barrel_that_saves_the_sheriff():
    """The Sheriff at 1 life, his hand empty, a Scope and then a Barrel in play; every card
    the outlaw has not seen is a heart (a Barrel check always saves). smart's Panic! takes
    the Scope, and the BANG! after it is drawn off; searching only which card it takes, the
    outlaw takes the Barrel and his BANG! wins every world. (tuned's took the Scope too up to
    policy version 8; classic's tuned values since take the Barrel themselves.)"""
    spec = {r: "smart" for r in ROLES} | {"outlaw": "search@worlds=8@budget=96@kinds=take:smart"}
    strategy = resolve_strategy(spec, 4)
    t = Table(PLAIN, roles=["leader", "outlaw", "renegade", "outlaw"])
    t.set_life(0, 1).equip(0, "Scope", "Barrel").give(1, "Panic!", "BANG!")
    t.give(2, "Missed!").give(3, "Missed!")
    G = t.G
    pile = [int(c) for c in G.deck[: G.s[state.S_DECK_N]]]
    hearts = [c for c in pile if t.theme.card_faces[c].endswith("H")]
    G.deck[:] = -1
    G.deck[: len(hearts)] = hearts
    G.s[state.S_DECK_N] = len(hearts)
    for c in pile:
        if c not in hearts:
            kernel.discard(G, c)
    t.check()
    paused(t, 1, strategy)
    d = searched_decision(pack_tables(t.theme.tables), G, strategy)

    def took(code):
        k = code - 2
        card = t.theme.card_display[G.hand[1, G.act_idx[k]]]
        return card, int(G.act_tgt[k]), t.theme.card_display[G.table[0, G.act_opt[k]]]

    assert took(d.base) == ("Panic!", 0, "Scope")
    assert took(d.code) == ("Panic!", 0, "Barrel")
    assert len(d.options) == 2  # only which card the Panic! takes was searched
    barrel = d.options[d.options[:, 0] == d.code][0]
    assert barrel[1] == barrel[2] > d.options[d.options[:, 0] == d.base][0][1]


@pytest.mark.parametrize("kind", ["take", "duel", "putback"])
def test_a_kind_restricted_search_changes_only_decisions_of_its_kind(kind):
    """Every decision the search changes is of its kind (no change counted outside it: the
    discards, and for take and putback every other kind), and a game where it changed
    nothing is BASE's game exactly. (putback: Kit Carlson an outlaw in every game.)"""
    games = 48
    feature = "Kit Carlson=outlaw" if kind == "putback" else None
    spec = {r: "tuned" for r in ROLES} | {
        "outlaw": f"search@worlds=2@budget=32@z=0@kinds={kind}:tuned"
    }
    base = play_games("classic", 5, games, 4, strategy="tuned", feature=feature)
    played = play_games("classic", 5, games, 4, strategy=spec, feature=feature)
    q = played.searched
    assert q[:, Q_CHANGED].sum() > 0
    assert np.array_equal(q[:, col(kind, True)], q[:, Q_CHANGED])
    assert np.array_equal(q[:, col(kind, False)], q[:, Q_DECISIONS])
    alone = {"take": PLAY_KINDS, "putback": [*PLAY_KINDS, "play", "discard"]}
    outside = ["discard"] + [k for k in alone.get(kind, []) if k != kind]
    for other in outside:
        assert q[:, col(other, True)].sum() == 0, other
    same = q[:, Q_CHANGED] == 0
    assert same.sum() > 0
    for name in ("winner", "turns", "survived"):
        assert np.array_equal(getattr(base, name)[same], getattr(played, name)[same]), name


def test_a_put_back_searched_with_no_budget_plays_bases_games():
    """Kit Carlson's put-back pauses with the cards drawn held in his hand; resumed with
    BASE's choice (budget 0) the games are BASE's exactly. The options are the distinct
    cards drawn."""
    spec = {r: "search@budget=0@kinds=putback:tuned" for r in ROLES}
    for players in (4, 6):
        base = play_games("classic", players, 40, 8, strategy="tuned", feature="Kit Carlson")
        zero = play_games("classic", players, 40, 8, strategy=spec, feature="Kit Carlson")
        for name in ("winner", "turns", "survived", "character"):
            assert np.array_equal(getattr(base, name), getattr(zero, name)), name
    seen = 0
    for tables, G, d in decisions("search@budget=0@kinds=putback:tuned"):
        T, p, m = tables[0], int(G.s[state.S_CUR]), int(G.s[state.S_OPTIONS])
        assert G.s[state.S_PHASE] == state.PH_PUTBACK and m == 3
        drawn = [G.hand[p, G.hand_n[p] - m + j] for j in range(m)]
        face = [(T.card_name[c], T.card_destiny[c]) for c in drawn]
        assert set(d.options[:, 0]) == {j + 2 for j in range(m) if face[j] not in face[:j]}
        assert face[d.base - 2] == face[int(G.s[state.S_BASE]) - 2]
        for code, kinds in d.options[:, [0, 5]]:
            assert (kinds == state.SK_PUTBACK) == (code != d.base)
        seen += 1
    assert seen >= 3

    spec = "renegade=search@worlds=2@budget=24@kinds=duel+take+discard:tuned"
    one = on_one_thread("classic", 5, 24, 6, strategy=spec)
    two = play_games("classic", 5, 24, 6, strategy=spec)
    assert np.array_equal(one.searched, two.searched) and np.array_equal(one.winner, two.winner)
    assert one.searched[:, Q_DECISIONS].sum() > 0


def test_the_disagreement_table():
    """exploit --method search --by-kind: per role a row per kind (each alone, then all
    together), its disagreement and gain; the kinds no seat can search, said so."""
    tiny = ["--games", "16", "--worlds", "2", "--budget", "8", "--players", "4"]
    args = ["exploit", "--strategy", "tuned", "--method", "search", "--by-kind"]
    done = CliRunner().invoke(app, [*args, "--role", "renegade", *tiny, "--format", "json"])
    assert done.exit_code == 0, done.output
    table = json.loads(done.stdout)
    assert (
        table["by_kind"]
        and table["players"] == 4
        and set(table["not_searched"]) == set(NOT_SEARCHED)
    )
    rows = table["roles"]["renegade"]
    assert list(rows) == [*BY_KIND, "+".join(TOGETHER)]
    for name, row in rows.items():
        assert row["kinds"] == name.split("+") and row["games"] == 16
        assert row["gain_low"] <= row["gain"] <= row["gain_high"]
        assert row["disagree_per_game"] == pytest.approx(row["changed"] / 16)
        assert row["decisions_per_game"] == pytest.approx(row["decisions"] / 16)
        if row["decisions"]:
            assert row["disagree_per_100"] == pytest.approx(100 * row["changed"] / row["decisions"])
        assert set(row["by_kind"]) == set(SEARCH_KINDS)
    assert rows["play+discard"]["decisions"] > 0
    field = {row["field_rate"] for row in rows.values()}
    assert len(field) == 1  # the same deals for every row
    done = CliRunner().invoke(app, [*args, "--role", "outlaw", *tiny, "--kinds", "duel+take"])
    assert done.exit_code == 0, done.output
    assert "outlaw   duel" in done.stdout and "outlaw   take" in done.stdout
    assert "not searched: BASE decides deep" in done.stdout
