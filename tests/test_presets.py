"""Presets: per-role and per-player-count tables, presets files by path, validation."""

from pathlib import Path

import numpy as np
import pytest
from played import play_games

from simcore.engine.vocab import E_NONE, R_OUTLAW, ROLES
from strategies.params import (
    KEYS,
    N_PARAMS,
    P_ENEMY_MIN,
    P_FOCUS,
    P_RANDOM,
    P_VALUE,
    param_index,
)
from strategies.presets import load_presets, preset_toml, resolve_strategy

ROOT = Path(__file__).resolve().parent.parent
FILE = """
[defaults]
focus = 7

[mine]
description = "a test preset"
enemy_min = 0.5

[mine.outlaw]
enemy_min = 1.5

[mine.p5]
focus = 9

[mine.p5.outlaw]
focus = 11
"""


@pytest.fixture
def presets_file(tmp_path):
    path = tmp_path / "my_presets.toml"
    path.write_text(FILE)
    return path


def test_every_key_has_a_kind_and_ranges():
    assert {param_index(k) for k in KEYS} == set(range(N_PARAMS)) - {P_VALUE + E_NONE}
    for name, key in KEYS.items():
        assert key.low <= key.search_low < key.search_high <= key.high, name
    shipped = load_presets()
    for name, preset in shipped.items():  # the shipped presets are in range
        for key in KEYS:
            assert KEYS[key].low <= preset.base[param_index(key)] <= KEYS[key].high, (name, key)


def test_role_and_count_tables_override_in_order(presets_file):
    spec = f"{presets_file}:mine"
    at5 = resolve_strategy(spec, 5).matrix
    at4 = resolve_strategy(spec, 4).matrix
    out, leader = ROLES.index("outlaw"), ROLES.index("leader")
    assert at5[leader, P_ENEMY_MIN] == 0.5 and at5[out, P_ENEMY_MIN] == 1.5
    assert at5[leader, P_FOCUS] == 9 and at5[out, P_FOCUS] == 11
    assert at4[leader, P_FOCUS] == 7 and at4[out, P_FOCUS] == 7  # the file's own default
    assert at4[out, P_RANDOM] == 0  # the shipped defaults under the file's


def test_role_tables_reach_the_right_seats(presets_file):
    """A per-role value plays only in that role's seats: outlaws of `mine` that play
    uniformly at random lose like random outlaws; the other seats play `mine` as usual."""
    path = presets_file
    path.write_text(
        FILE + "\n[mine.p5.outlaw.value]\nbang = 1\n[weak]\n[weak.outlaw]\nrandom = 1\n"
    )
    w = f"{path}:weak"
    weak = play_games("classic", 5, 3000, seed=1, strategy=w)
    others = f"leader={w},deputy={w},renegade={w}"
    floor = play_games("classic", 5, 3000, seed=1, strategy=f"outlaw=random,{others}")
    strong = play_games("classic", 5, 3000, seed=1, strategy=f"outlaw=smart,{others}")
    rate = lambda b: (b.winner == 1).mean()  # noqa: E731
    assert rate(weak) == rate(floor) < rate(strong)
    assert set(weak.preset_names) == {w}
    assert (weak.role == R_OUTLAW).any()


def test_a_strategy_object_is_reread_for_another_player_count(presets_file):
    s = resolve_strategy(f"{presets_file}:mine", 4)
    assert resolve_strategy(s, 5).matrix[0, P_FOCUS] == 9
    assert resolve_strategy(s) is s


@pytest.mark.parametrize(
    "text, message",
    [
        ("[x]\nfocs = 1", "unknown key 'focs'"),
        ("[x]\nrandom = 2", "random = 2: must be 0 or 1"),
        ("[x]\nduel_min_bangs = 1.5", "must be a whole number"),
        ("[x]\nenemy_min = 50", "must be between -5 and 10"),
        ("[x.p9]\nfocus = 1", "player count must be 4..7"),
        ("[x]\nfocus = 'high'", "focus must be a number"),
        ("[x\nfocus = 1", "not valid TOML"),
    ],
)
def test_bad_presets_files_are_one_line_errors(tmp_path, text, message):
    path = tmp_path / f"bad{abs(hash(text))}.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as err:
        resolve_strategy(f"{path}:x")
    assert "\n" not in str(err.value) and path.name in str(err.value)


def test_unknown_preset_in_a_file_and_missing_file(presets_file, tmp_path):
    with pytest.raises(
        ValueError, match=r"no preset 'nope' in .*my_presets.toml \(presets: mine\)"
    ):
        resolve_strategy(f"{presets_file}:nope")
    with pytest.raises(ValueError, match="not found"):
        resolve_strategy(f"{tmp_path / 'none.toml'}:x")


def test_shipped_presets_unchanged_by_the_new_format():
    smart = resolve_strategy("smart", 5)
    assert np.all(smart.matrix == load_presets()["smart"].base)
    assert smart.label() == "smart"


def test_a_written_preset_reads_back_bit_for_bit(tmp_path):
    """A profile saved by a search (a best response, a band's end) and read back is the same
    request as the one in memory: every real value exactly, not rounded."""
    matrix = resolve_strategy("tuned", 5).matrix.copy()
    rng = np.random.default_rng(3)
    for key, spec in KEYS.items():
        if spec.kind == "real":
            matrix[:, param_index(key)] = rng.uniform(spec.search_low, spec.search_high, 4)
    path = tmp_path / "best.toml"
    path.write_text(preset_toml("best", {5: matrix}, "a search's answer"))
    assert np.array_equal(resolve_strategy(f"{path}:best", 5).matrix, matrix)


def test_presets_shipped_for_a_theme_fall_back_to_classic(tmp_path, monkeypatch):
    """`tuned` lives in strategies/tuned/THEME.toml; a theme without one plays classic's."""
    from strategies import presets

    (tmp_path / "classic.toml").write_text("[tuned]\nfocus = 3\n")
    (tmp_path / "star_wars.toml").write_text("[tuned]\nfocus = 4\n[tuned.p5.outlaw]\nfocus = 6\n")
    monkeypatch.setattr(presets, "THEMED_DIR", tmp_path)
    at = {t: resolve_strategy("tuned", 5, t).matrix[:, P_FOCUS] for t in ("classic", "star_wars")}
    assert at["classic"].tolist() == [3, 3, 3, 3]
    assert at["star_wars"].tolist() == [4, 4, 6, 4]
    assert resolve_strategy("tuned", 5, "walking_dead").matrix[0, P_FOCUS] == 3
    block = play_games("star_wars", 5, 50, seed=1, strategy="tuned")
    assert set(block.preset_names) == {"tuned"}
    s = resolve_strategy("tuned", 5, "classic")
    assert resolve_strategy(s, theme="star_wars").matrix[2, P_FOCUS] == 6  # re-read per theme


def test_a_report_says_first_when_tuned_played_another_themes_values(tmp_path):
    """A theme file of a designer's own has no tuned values: its `tuned` seats play
    classic's, and the report's first lines (its warnings, above the grid) say so;
    classic's report does not."""
    from typer.testing import CliRunner

    from reports.report import load_report, run_warnings, write_report
    from simcore.cli import app

    mine = tmp_path / "mine.toml"
    mine.write_text((ROOT / "configs/themes/classic.toml").read_text().replace(
        'title = "BANG!"', 'title = "Mine"', 1))  # fmt: skip
    for theme, out in ((str(mine), "own"), ("classic", "classic")):
        args = ["run", "--theme", theme, "--players", "4", "--games", "60", "--strategy",
                "tuned", "--out", str(tmp_path / out)]  # fmt: skip
        assert CliRunner().invoke(app, args).exit_code == 0
    own = load_report(tmp_path / "own")
    (line,) = [w for w in run_warnings(own) if "tuned" in w]
    assert line.startswith("Mine (mine) has no tuned values of its own: its tuned seats played")
    assert "classic's (strategies/tuned/classic.toml)" in line
    assert not [w for w in run_warnings(load_report(tmp_path / "classic")) if "tuned" in w]
    page = write_report(own, tmp_path / "page").read_text()
    assert page.index("has no tuned values of its own") < page.index('id="glance"')


def test_a_report_says_first_where_a_themes_file_holds_classics_values(tmp_path, monkeypatch):
    """A shipped theme's file whose values at some count are a copy of classic's (not yet
    re-tuned there: strategies.presets.borrowed_counts) is flagged in the report's first
    lines at that count, and not at a count it has values of its own for."""
    from typer.testing import CliRunner

    from reports.report import load_report, run_warnings
    from simcore.cli import app
    from strategies import presets

    (tmp_path / "classic.toml").write_text("[tuned]\nfocus = 3\n[tuned.p4.outlaw]\nfocus = 5\n")
    (tmp_path / "star_wars.toml").write_text(
        "[tuned]\nfocus = 3\n[tuned.p4.outlaw]\nfocus = 5\n[tuned.p5.renegade]\nfocus = 6\n"
    )
    monkeypatch.setattr(presets, "THEMED_DIR", tmp_path)
    assert presets.borrowed_counts("star_wars") == (4, 6, 7)
    assert presets.borrowed_counts("classic") == ()
    assert presets.borrowed_counts("walking_dead") == ()  # no file: the fallback line's case
    warned = {}
    for players in (4, 5):
        args = ["run", "--theme", "star_wars", "--players", str(players), "--games", "40",
                "--strategy", "tuned", "--out", str(tmp_path / f"p{players}")]  # fmt: skip
        assert CliRunner().invoke(app, args).exit_code == 0
        report = load_report(tmp_path / f"p{players}")
        warned[players] = [w for w in run_warnings(report) if "tuned" in w]
    (line,) = warned[4]
    assert line.startswith("BANG! Star Wars (star_wars): at 4 players strategies/tuned/"
                           "star_wars.toml holds classic's values, not yet re-tuned")  # fmt: skip
    assert warned[5] == []


def test_an_edited_shipped_theme_plays_that_themes_tuned_values(tmp_path):
    """An edited copy of star_wars (a designer's what-if, or a balance variant file) plays
    under a label of its own (own_id) but star_wars' tuned values, not classic's, and its
    report names them."""
    from typer.testing import CliRunner

    from reports.report import load_report, run_warnings
    from simcore.cli import app
    from simcore.engine.theme import load_theme

    edited = tmp_path / "what_if.toml"
    edited.write_text((ROOT / "configs/themes/star_wars.toml").read_text().replace(
        'title = "BANG! Star Wars"', 'title = "What if"', 1))  # fmt: skip
    theme = load_theme(str(edited))
    assert (theme.id, theme.plays_as) == ("what_if", "star_wars")
    own = resolve_strategy("tuned", 5, theme.plays_as).matrix
    assert np.array_equal(own, resolve_strategy("tuned", 5, "star_wars").matrix)
    assert not np.array_equal(own, resolve_strategy("tuned", 5, "classic").matrix)
    block = play_games(theme, 5, 30, seed=2, strategy="tuned")
    same = play_games("star_wars", 5, 30, seed=2, strategy="tuned")
    assert np.array_equal(block.winner, same.winner)  # same rules, same values: same games
    args = ["run", "--theme", str(edited), "--players", "5", "--games", "40", "--strategy",
            "tuned", "--out", str(tmp_path / "run")]  # fmt: skip
    assert CliRunner().invoke(app, args).exit_code == 0
    (line,) = [w for w in run_warnings(load_report(tmp_path / "run")) if "tuned" in w]
    assert "star_wars's (strategies/tuned/star_wars.toml)" in line


def test_walking_dead_is_not_classic_renamed():
    """Whether walking_dead needs tuned values of its own: under the same seed and the same
    (classic's) tuned values it deals the same roles but plays other games than classic
    (its characters are listed in another order, and its Grenade damage is caused by no
    one), so it does (strategies/tuned/walking_dead.toml, docs/tuning.md)."""
    spec = f"{ROOT / 'strategies/tuned/classic.toml'}:tuned"
    a = play_games("classic", 5, 200, seed=12, strategy=spec)
    b = play_games("walking_dead", 5, 200, seed=12, strategy=spec)
    assert a.role.tolist() == b.role.tolist()
    assert a.winner.tolist() != b.winner.tolist()
