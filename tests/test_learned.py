"""The learned field (`strong`): its tables as files, how a learned seat plays them, the
teacher's labels and worlds, and the fit (strategies.learned, strategies.learned_files,
simcore.engine.labels, simcore.studies.learn)."""

from __future__ import annotations

import itertools
import math
import pickle
from pathlib import Path

import numpy as np
import pytest
from played import play_games
from scenario import PLAIN, Table
from test_beliefs import blind_decisions
from test_search import CRIPPLED
from test_search_seat import on_one_thread, paused, taken

from simcore.engine.labels import O_CAP, Labels, label_decisions, labelled_options
from simcore.engine.play import character_pool
from simcore.engine.rng import rng_seed
from simcore.engine.search import draw_assignment
from simcore.engine.state import S_N, new_states
from simcore.engine.tables import pack_tables
from simcore.engine.theme import load_theme, shipped_themes
from simcore.engine.view import HIDDEN_ROLES, role_marginals
from simcore.engine.vocab import EFFECTS, R_DEPUTY, R_OUTLAW, R_RENEGADE, ROLES
from simcore.runs.backend import LocalBackend
from simcore.studies.learn import fit_tables, label_round
from strategies.learned import PRIOR
from strategies.learned_files import Learned, learned_toml, load_learned, shipped_strong
from strategies.params import CONTEXT, LEARN_SLOTS, N_CTX
from strategies.presets import resolve_strategy

FIELD = {r: "tuned" for r in ROLES}


def learned_file(tmp_path, tables, name="field.toml"):
    path = tmp_path / name
    path.write_text(learned_toml(Learned("classic", 5, "tuned", tables)))
    return str(path)


def test_a_learned_file_reads_back_bit_for_bit(tmp_path):
    rng = np.random.default_rng(1)
    tables = np.zeros((4, LEARN_SLOTS, N_CTX))
    tables[2, EFFECTS["bang"]] = rng.normal(size=N_CTX) / 7
    tables[0, LEARN_SLOTS - 1] = rng.normal(size=N_CTX)
    back = load_learned(learned_file(tmp_path, tables))
    assert np.array_equal(back.tables, tables)
    assert (back.theme, back.players, back.base) == ("classic", 5, "tuned")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[learned]\ntheme = 'classic'\n", "columns are not this version's"),
        ("nonsense = [", "not a learned file"),
        (
            "[learned]\ntheme='classic'\nplayers=5\nbase='tuned'\ncolumns=COLS\n"
            "[learned.outlaw]\nbanjo = [0.0]\n",
            "unknown effect 'banjo'",
        ),
    ],
)
def test_a_bad_learned_file_is_one_line(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text.replace("COLS", "[" + ", ".join(f'"{c}"' for c in CONTEXT) + "]"))
    with pytest.raises(ValueError, match=message) as err:
        resolve_strategy(str(path), 5, "classic")
    assert "\n" not in str(err.value)


def test_strong_is_shipped_for_every_theme_at_every_player_count():
    """`strong` plays every shipped theme at each player count its role table has (4 to 7)."""
    missing = [
        f"{theme}_{n}p"
        for theme in shipped_themes()
        for n in load_theme(theme).player_counts()
        if f"{theme}_{n}p" not in shipped_strong()
    ]
    assert not missing, f"no strong field shipped for {missing}"


def test_strong_names_what_is_shipped_and_refuses_the_rest():
    with pytest.raises(ValueError, match="no strong field for classic at 8 players") as err:
        resolve_strategy("strong", 8, "classic")
    assert "bangsim learn --theme classic --players 8" in str(err.value)
    with pytest.raises(ValueError, match="needs a theme and a player count"):
        resolve_strategy("strong")


def test_a_zero_table_plays_the_scored_policys_games_and_a_table_changes_them(tmp_path):
    """The prior keeps the scored policy's order and sign: with zero weights the learned
    field plays `tuned`'s games exactly. A weight on BANG! toward low-life targets moves
    them (the test can fail)."""
    zero = learned_file(tmp_path, np.zeros((4, LEARN_SLOTS, N_CTX)), "zero.toml")
    base = play_games("classic", 5, 80, 11, strategy="tuned")
    same = play_games("classic", 5, 80, 11, strategy=zero)
    for name in ("winner", "turns", "survived"):
        assert np.array_equal(getattr(base, name), getattr(same, name)), name
    tables = np.zeros((4, LEARN_SLOTS, N_CTX))
    tables[:, EFFECTS["bang"], CONTEXT.index("target_last_life")] = -1.0  # never finish anyone
    moved = play_games("classic", 5, 80, 11, strategy=learned_file(tmp_path, tables))
    assert not np.array_equal(base.turns, moved.turns)


def test_a_strategy_names_a_learned_file_per_role(tmp_path):
    tables = np.zeros((4, LEARN_SLOTS, N_CTX))
    tables[2, EFFECTS["bang"], 0] = 0.5
    path = learned_file(tmp_path, tables)
    st = resolve_strategy({**FIELD, "outlaw": path}, 5, "classic")
    assert st.learned.shape == (4, LEARN_SLOTS, N_CTX)
    assert np.array_equal(st.learned[2], tables[2]) and not st.learned[[0, 1, 3]].any()
    assert list(st.matrix[:, -1]) == [0, 0, 3, 0]  # learned = 3: Tables.learn[2]
    assert resolve_strategy("tuned", 5, "classic").learned.shape[0] == 0


def hidden_state(karma):
    """A 5-player state seen from the deputy at seat 1: seats 2-4 hidden, holding two outlaws
    and the renegade, with that public record."""
    G = new_states(1)[0]
    G.s[S_N] = 5
    G.alive[:5] = 1
    G.role[:5] = [0, R_DEPUTY, R_OUTLAW, R_OUTLAW, R_RENEGADE]
    G.karma[:5] = karma
    return G


@pytest.mark.parametrize("beta", [0.0, 1.0])
def test_the_belief_over_role_assignments_matches_a_hand_computation(beta):
    """The deputy has seen seat 2 act for the Sheriff (karma +1) and nothing of seats 3 and 4.
    Three assignments hide the renegade at 2, 3 or 4; an outlaw's lawness is -1, the
    renegade's 0, so by hand their weights are exp(0), exp(-beta), exp(-beta): the renegade
    sits at seat 2 with probability 1 / (1 + 2 exp(-beta)) (1/3 with beta 0)."""
    G = hidden_state([0.0, 0.0, 1.0, 0.0, 0.0])
    seats = np.array([2, 3, 4], np.int64)
    draws = 6000
    where = np.zeros(5)
    with np.errstate(over="ignore"):
        for i in range(draws):
            rng_seed(G.rng, np.uint64(99), i)
            G.buf[:3] = seats
            G.buf[HIDDEN_ROLES : HIDDEN_ROLES + 3] = [R_OUTLAW, R_OUTLAW, R_RENEGADE]
            draw_assignment(G, 1, beta, 3)
            roles = G.buf[HIDDEN_ROLES : HIDDEN_ROLES + 3]
            assert sorted(roles) == [R_OUTLAW, R_OUTLAW, R_RENEGADE]
            where[seats[roles == R_RENEGADE][0]] += 1
    expected = 1.0 / (1.0 + 2.0 * math.exp(-beta))
    assert abs(where[2] / draws - expected) < 0.02
    assert abs(where[3] - where[4]) / draws < 0.04


@pytest.mark.parametrize("beta", [0.0, 1.0])
def test_a_learned_seat_s_role_marginals_match_the_hand_computation(beta):
    """The same case, as the marginals a learned seat reads (view.role_marginals): exactly
    the hand computation's, and what the deputy knows is certain."""
    G = hidden_state([0.0, 0.0, 1.0, 0.0, 0.0])
    role_marginals(G, 1, beta)
    out = G.marg
    at_two = 1.0 / (1.0 + 2.0 * math.exp(-beta))
    assert out[2, R_RENEGADE] == pytest.approx(at_two)
    assert out[3, R_RENEGADE] == pytest.approx((1.0 - at_two) / 2)
    assert out[2, R_OUTLAW] == pytest.approx(1.0 - at_two)
    assert out[[2, 3, 4], R_DEPUTY].sum() == 0.0 and out[0, 0] == out[1, R_DEPUTY] == 1.0
    assert np.allclose(out[:5].sum(axis=1), 1.0)


@pytest.mark.parametrize("scale", [1.0, 150.0])
def test_role_marginals_match_the_weights_of_every_assignment(scale):
    """At 7 players an outlaw (seat 3) sees four hidden seats holding two deputies, one
    outlaw and the renegade, each with its own record (karma) and what the outlaw alone saw
    (belief): the marginals are those of every ordering weighted by assignment_weight's
    formula, exp(min(beta * sum of lawness x (karma + belief), 700)), summed by brute force;
    also with records so long (scale 150) that one seat's factor alone would overflow."""
    G = new_states(1)[0]
    G.s[S_N] = 7
    G.alive[:7] = 1
    G.role[:7] = [0, R_DEPUTY, R_OUTLAW, R_OUTLAW, R_DEPUTY, R_OUTLAW, R_RENEGADE]
    G.karma[:7] = np.array([0.0, 1.5, -2.0, 0.0, 0.5, -0.5, 1.0]) * scale
    G.belief[3, :7] = np.array([0.0, 0.5, 0.0, 0.0, -1.0, 0.25, 0.0]) * scale
    G.alive[5] = 0  # a dead outlaw: revealed, so not hidden
    beta = 0.7
    role_marginals(G, 3, beta)
    hidden = [1, 2, 4, 6]
    law = {R_DEPUTY: 1.0, R_OUTLAW: -1.0, R_RENEGADE: 0.0}
    want = np.zeros((7, 4))
    for order in set(itertools.permutations([R_DEPUTY, R_DEPUTY, R_OUTLAW, R_RENEGADE])):
        x = sum(law[r] * (G.karma[q] + G.belief[3, q]) for q, r in zip(hidden, order, strict=True))
        for q, r in zip(hidden, order, strict=True):
            want[q, r] += math.exp(min(beta * x, 700.0))
    want[hidden] /= want[hidden].sum(axis=1, keepdims=True)
    assert np.allclose(G.marg[hidden], want[hidden], rtol=1e-12, atol=1e-300)
    assert G.marg[5, R_OUTLAW] == G.marg[3, R_OUTLAW] == G.marg[0, 0] == 1.0


def toy_labels(n: int, seed: int) -> Labels:
    """Decisions of an outlaw with a BANG! on two targets: the one at one life is worth 30
    points over ending the play phase, the other 10 points less than ending, whatever the
    rest of the context says (a rule the apprentice must find)."""
    rng = np.random.default_rng(seed)
    worlds = 100
    meta = np.zeros((n, 6), np.int64)
    meta[:, 1] = R_OUTLAW
    meta[:, 2] = 3
    wins = np.zeros((n, O_CAP), np.int64)
    slot = np.zeros((n, O_CAP), np.int64)
    ctx = np.zeros((n, O_CAP, N_CTX))
    slot[:, 0] = -1
    slot[:, 1:3] = EFFECTS["bang"]
    last = CONTEXT.index("target_last_life")
    for d in range(n):
        ctx[d, 1:3] = rng.random((2, N_CTX))
        ctx[d, 1:3, 0] = 1.0
        ctx[d, 1:3, 1] = 1.0  # the scored policy would shoot either
        ctx[d, 1:3, last] = 0.0
        ctx[d, 1 + rng.integers(2), last] = 1.0
        wins[d, 0] = 40 + rng.integers(-5, 6)
        for j in (1, 2):
            wins[d, j] = wins[d, 0] + (30 if ctx[d, j, last] else -10) + rng.integers(-4, 5)
    return Labels(meta, wins, slot, ctx, worlds, n, 0)


def test_the_apprentice_learns_a_toy_rule():
    """Fitted on toy labels, the outlaw's table shoots the one-life target and would rather
    end the play phase than shoot the other, on fresh decisions."""
    tables = fit_tables([toy_labels(400, 1)])
    row = tables[R_OUTLAW, EFFECTS["bang"]]
    test = toy_labels(200, 2)
    last = CONTEXT.index("target_last_life")
    for d in range(200):
        c = test.ctx[d, 1:3]
        score = PRIOR * (1.0 + c[:, 2]) + c @ row
        assert np.argmax(score) == np.argmax(c[:, last])
        assert score[c[:, last] == 0][0] < 0 < score[c[:, last] == 1][0]
    assert not tables[[0, 1, 3]].any()  # no labels for the other roles: their base plays


def test_the_teacher_values_a_lethal_bang_above_all_else(tmp_path):
    """An outlaw next to a 1-life Sheriff with no card in hand: every world is won by the
    BANG! on him at once, and the label of that play says so; over a field whose outlaws
    never shoot (CRIPPLED), ending the play phase instead loses worlds."""
    (tmp_path / "crippled.toml").write_text(CRIPPLED)
    strategy = resolve_strategy(f"{tmp_path / 'crippled.toml'}:crippled", 4, "classic")
    t = Table(PLAIN, roles=["leader", "outlaw", "outlaw", "renegade"])
    t.set_life(0, 1).give(1, "BANG!", "Beer", "Jail").give(2, "Missed!").give(3, "Missed!")
    paused(t, 1, strategy)
    wins, slot, ctx = labelled_options(pack_tables(t.theme.tables), t.G, strategy, 16)
    lethal = [j for j in range(1, len(wins)) if taken(t, 1, j + 1) == ("BANG!", 0)]
    assert len(lethal) == 1 and wins[lethal[0]] == 16
    assert wins[0] < 16  # ending the play phase leaves the Sheriff alive a while
    assert slot[lethal[0]] == EFFECTS["bang"] and ctx[lethal[0], CONTEXT.index("on_leader")] == 1


def test_labels_are_the_same_whatever_the_chunks():
    theme = load_theme("classic")
    strategy = resolve_strategy("tuned", 5, "classic")
    pool = character_pool(theme, None, 5)
    whole = label_decisions(theme, 5, 4, 6, strategy, pool, 0.2, 2, 1.0)
    head = label_decisions(theme, 5, 4, 3, strategy, pool, 0.2, 2, 1.0)
    tail = label_decisions(theme, 5, 4, 3, strategy, pool, 0.2, 2, 1.0, game0=3)
    assert len(whole.meta) > 4
    for f in ("meta", "wins", "slot", "ctx"):
        assert np.array_equal(
            getattr(whole, f), np.concatenate([getattr(head, f), getattr(tail, f)])
        )


class ShippedAway(LocalBackend):
    """A backend that sends every work item and its function through pickle, as Ray does,
    and plays the items last to first."""

    def map(self, fn, items):
        items = list(items)
        done = [pickle.loads(pickle.dumps(fn))(pickle.loads(pickle.dumps(i))) for i in items[::-1]]
        return iter(done[::-1])


def test_a_round_labels_the_same_on_any_backend():
    """A round's labelling is CHUNK-game work items (learn.label_chunk): sent away as Ray
    sends them, played in any order, their labels are those of one call over every game."""
    theme = load_theme("classic")
    away = label_round(theme, 5, "strong", 4, 70, 0.1, 2, 1.0, backend=ShippedAway())
    strategy = resolve_strategy("strong", 5, "classic")
    here = label_decisions(theme, 5, 4, 70, strategy, character_pool(theme, None, 5), 0.1, 2, 1.0)
    assert len(here.meta) > 10
    for f in ("meta", "wins", "slot", "ctx"):
        assert np.array_equal(getattr(away, f), getattr(here, f)), f


def unshipped_theme(tmp_path: Path) -> Path:
    """A theme file no strong field is shipped for: classic's rules under the id "house",
    with no parent (a variant plays its parent's fields)."""
    from test_variants import export

    path = export(tmp_path, "classic", "house")
    path.write_text(path.read_text().replace('parent = "classic"\n', ""))
    assert "parent" not in path.read_text()
    return path


def random_tables(seed: int) -> np.ndarray:
    """Weights on every column of every effect's row (row 0, no effect, is never played)."""
    tables = np.random.default_rng(seed).normal(0.0, 0.05, (4, LEARN_SLOTS, N_CTX))
    tables[:, 0] = 0.0
    return tables


def test_a_learned_seat_decides_the_same_whatever_it_cannot_see(tmp_path):
    """The information rule for the apprentice: with a table that reads every column, each
    living seat's decisions are unchanged when other hands, hidden roles and the deck order
    are permuted."""
    path = learned_file(tmp_path, random_tables(5))
    assert blind_decisions(5, path, 30, (5, 12)) > 100


def test_a_learned_field_plays_the_same_games_on_one_or_two_threads(tmp_path):
    path = learned_file(tmp_path, random_tables(6))
    one = on_one_thread("classic", 5, 64, 9, strategy=path)
    two = play_games("classic", 5, 64, 9, strategy=path)
    base = play_games("classic", 5, 64, 9, strategy="tuned")
    assert np.array_equal(one.winner, two.winner) and np.array_equal(one.turns, two.turns)
    assert not np.array_equal(one.turns, base.turns)


def test_learning_rounds_resume_and_a_role_that_does_not_gain_keeps_its_table(
    tmp_path, monkeypatch
):
    """Two tiny rounds write their labels and fields; run again, nothing is made anew. A
    role whose new table loses in its check keeps the last field's (here tuned's: zeros)."""
    from simcore.studies import learn as study

    calls = []

    def check(theme, players, field, challenger, seed, games, backend=None):
        calls.append(field)
        return {r: (-0.01 if r == "outlaw" else 0.02, -0.03, 0.04) for r in ROLES}

    monkeypatch.setattr(study, "versus", check)
    monkeypatch.setattr(study, "MIN_ROWS", 2)
    theme = load_theme("classic")
    rounds = study.learn(theme, 5, tmp_path, 2, 4, 2, 0.5, 3, check_games=10)
    assert [r.number for r in rounds] == [1, 2] and rounds[0].kept == ("outlaw",)
    assert calls == ["tuned", str(tmp_path / "round-1.toml")]
    first = load_learned(tmp_path / "round-1.toml")
    assert first.base == "tuned" and not first.tables[R_OUTLAW].any()
    assert first.tables[[0, 1, 3]].any()  # the others took their new tables
    assert "Remake:" in (tmp_path / "round-2.toml").read_text()
    stamp = (tmp_path / "labels-1.npz").stat().st_mtime_ns
    again = study.learn(theme, 5, tmp_path, 2, 4, 2, 0.5, 3, check_games=10)
    assert len(again) == 2 and len(calls) == 2  # read back, not made again
    assert (tmp_path / "labels-1.npz").stat().st_mtime_ns == stamp


def test_with_steps_each_role_takes_its_best_step_and_the_field_is_checked_again(
    tmp_path, monkeypatch
):
    """--steps 1,0.5,0.25: each step toward the new tables (old + a (new - old); the old
    being tuned's zeros here) is checked on the same deals; each role takes the step its
    check liked best, a role that gains at no step keeps its table, and the gains reported
    are those of the field made, checked again on fresh deals."""
    from simcore.studies import learn as study
    from simcore.studies.search_loop import sub_seed

    liked = {"leader": 0.5, "deputy": 1.0, "renegade": 0.25}  # the outlaw gains at none
    seeds, steps = [], (1.0, 0.5, 0.25)

    def check(theme, players, field, challenger, seed, games, backend=None):
        seeds.append(seed)
        if seed == sub_seed(3, "recheck", 1):
            return {r: (0.005, -0.01, 0.02) for r in ROLES}
        a = steps[len(seeds) - 1]
        return {r: (0.03 if liked.get(r) == a else -0.01, -0.05, 0.05) for r in ROLES}

    monkeypatch.setattr(study, "versus", check)
    monkeypatch.setattr(study, "MIN_ROWS", 2)
    (rnd,) = study.learn(load_theme("classic"), 5, tmp_path, 1, 4, 2, 0.5, 3, steps=steps)
    assert seeds == [sub_seed(3, "check", 1)] * 3 + [sub_seed(3, "recheck", 1)]
    assert rnd.kept == ("outlaw",) and rnd.steps == liked
    assert rnd.gains == {r: (0.005, -0.01, 0.02) for r in ROLES}
    z = np.load(tmp_path / "labels-1.npz")
    fit = study.fit_tables([Labels(**{k: z[k] if z[k].shape else z[k].item() for k in z})])
    made = load_learned(tmp_path / "round-1.toml")
    for role, a in liked.items():
        r = ROLES.index(role)
        assert fit[r].any() and np.array_equal(made.tables[r], fit[r] if a == 1.0 else a * fit[r])
    assert not made.tables[R_OUTLAW].any()
    assert "leader 0.5, deputy 1, renegade 0.25" in (tmp_path / "round-1.toml").read_text()


def test_learn_command_bad_input_is_one_line(tmp_path):
    from typer.testing import CliRunner

    from simcore.cli import app

    for args, word in (
        (["--players", "9"], "players"),
        (["--steps", "1,2"], "steps"),
        (["--steps", "half"], "steps"),
    ):
        result = CliRunner().invoke(app, ["learn", *args, "--out", str(tmp_path / "x")])
        assert result.exit_code == 2
        assert word in result.output and len(result.output.strip().splitlines()) == 1


def test_a_parameter_search_against_a_learned_field_plays_its_tables(tmp_path):
    """A strategy search's games (EngineTable, what `exploit --method params` and `tune`
    play) carry the field's learned tables: its rows play them, not `tuned`'s plays."""
    from simcore.studies.batch import EngineTable

    path = learned_file(tmp_path, random_tables(7))
    field = resolve_strategy(path, 5, "classic")
    theme = load_theme("classic")
    W = np.vstack([field.matrix, field.matrix[R_OUTLAW]])
    args = (3, W, field.role_preset, R_OUTLAW, 1, 120)
    played = EngineTable(theme, 5, None, field.learned).winners(*args)[0]
    assert np.array_equal(played, play_games("classic", 5, 120, 3, strategy=path).winner)
    blind = EngineTable(theme, 5).winners(*args)[0]  # no tables: the rows play tuned's plays
    assert np.array_equal(blind, play_games("classic", 5, 120, 3, strategy="tuned").winner)


def test_run_plays_strong_where_shipped_and_refuses_elsewhere_writing_nothing(tmp_path):
    from typer.testing import CliRunner

    from simcore.cli import app

    runner = CliRunner()
    out = tmp_path / "five"
    done = runner.invoke(app, ["run", "--players", "5", "--games", "200", "--strategy",
                               "strong", "--out", str(out), "--no-progress"])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "under strong play" in done.output
    house = unshipped_theme(tmp_path)
    missing = tmp_path / "missing"
    refused = runner.invoke(app, ["run", "--theme", str(house), "--players", "5", "--games", "200",
                                  "--strategy", "strong", "--out", str(missing), "--no-progress"])  # fmt: skip
    assert refused.exit_code == 2
    assert "no strong field for house at 5 players" in refused.output
    assert "bangsim learn --theme THEME_FILE.toml --players 5" in refused.output
    assert not missing.exists()
