"""Report tables against hand-computed expected tables on small synthetic seat frames.

The frame (`SMALL`): one 4-player configuration of four games and characters A-D, plus a
5-player configuration whose two games the leader's side wins (rates of exactly 0 and 1).

    game  winner   turns  seat 0 (leader)  seat 1         seat 2          seat 3
    0     leader   10     A                B outlaw       C outlaw        D renegade
    1     outlaw   20     B                A renegade     D outlaw        C outlaw
    2     outlaw   30     A                D outlaw       B renegade      C outlaw
    3     none     40 (capped) C           A outlaw       B outlaw        D renegade

Role baselines (share of seats won): leader 1/4, outlaw 4/8, renegade 0/4.
Wilson bounds, z = 1.959964 (see test_stats.py for the hand-checked formula):
    0/1: 0, .793451   0/2: 0, .657620   0/4: 0, .489891   1/2: .094531, .905469
    1/4: .045587, .699358   2/2: .342380, 1   2/3: .207660, .938508   2/4: .150039, .849961
p-values: the score test, p = erfc(|z| / sqrt 2), z = (rate - baseline) / sqrt(b (1 - b) / n),
computed below with math.erfc from the z values derived by hand.
"""

import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from reports.aggregate import balance_summary, game_lengths, turn_histogram
from simcore.engine.rows import SEAT_SCHEMA
from simcore.runs.cells import cells_of, effects_in_role, effects_overall, side_win_rates
from simcore.stats import newcombe_exprs, two_proportion_p_expr, with_holm

A4, B5 = "classic/4p/basic", "classic/5p/basic"
SIDE_OF = {"leader": "leader", "deputy": "leader", "outlaw": "outlaw", "renegade": "renegade"}
GAMES_4P = [
    ("leader", 10, False, [("leader", "A"), ("outlaw", "B"), ("outlaw", "C"), ("renegade", "D")]),
    ("outlaw", 20, False, [("leader", "B"), ("renegade", "A"), ("outlaw", "D"), ("outlaw", "C")]),
    ("outlaw", 30, False, [("leader", "A"), ("outlaw", "D"), ("renegade", "B"), ("outlaw", "C")]),
    ("none", 40, True, [("leader", "C"), ("outlaw", "A"), ("outlaw", "B"), ("renegade", "D")]),
]
SEATS_5P = [("leader", "A"), ("deputy", "B"), ("outlaw", "C"), ("outlaw", "D"), ("renegade", "E")]
GAMES_5P = [("leader", 12, False, SEATS_5P), ("leader", 14, False, SEATS_5P)]


def seat_frame(config: str, players: int, games) -> pl.DataFrame:
    rows = []
    for g, (winner, turns, capped, seats) in enumerate(games):
        for seat, (role, character) in enumerate(seats):
            won = SIDE_OF[role] == winner
            rounds = -(-turns // players)  # a round per `players` turns, no one eliminated
            rows.append((config, "classic", players, g, seat, role, character, "basic", won,
                         won, winner, turns, rounds, capped, False))  # fmt: skip
    return pl.DataFrame(rows, schema=SEAT_SCHEMA, orient="row")


SMALL = pl.concat([seat_frame(A4, 4, GAMES_4P), seat_frame(B5, 5, GAMES_5P)]).lazy()
CELLS = cells_of(SMALL)
CELLS_4P = cells_of(SMALL.filter(pl.col("config") == A4))


def p_score(rate: float, base: float, n: int) -> float:
    if base in (0.0, 1.0):
        return 1.0 if rate == base else 0.0
    return math.erfc(abs(rate - base) / math.sqrt(base * (1 - base) / n) / math.sqrt(2))


def holm(ps: list[float]) -> list[float]:
    """Holm-adjusted p-values by the textbook loop (independent of the polars version)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [0.0] * len(ps), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - j) * ps[i]))
        out[i] = running
    return out


def frame(columns: dict, schema: dict) -> pl.DataFrame:
    return pl.DataFrame(columns, schema=schema)


def assert_table(got: pl.LazyFrame, expected: pl.DataFrame) -> None:
    assert_frame_equal(got.collect(), expected, check_exact=False, abs_tol=1e-6)


KEYS = {"config": pl.String, "theme": pl.String, "players": pl.UInt8}
EFFECT_SCHEMA = {
    "baseline": pl.Float64, "games": pl.Int64, "wins": pl.Int64, "rate": pl.Float64,
    "lower": pl.Float64, "upper": pl.Float64, "effect": pl.Float64,
    "effect_lower": pl.Float64, "effect_upper": pl.Float64, "p_value": pl.Float64,
    "p_adjusted": pl.Float64, "significant": pl.Boolean,
}  # fmt: skip


def test_side_win_rates_with_wilson_at_0_and_1():
    third = 1 / 3
    expected = frame(
        {
            "config": [A4] * 3 + [B5] * 3,
            "theme": ["classic"] * 6,
            "players": [4, 4, 4, 5, 5, 5],
            "side": ["leader", "outlaw", "renegade"] * 2,
            "games": [4, 4, 4, 2, 2, 2],
            "wins": [1, 2, 0, 2, 0, 0],  # game 3 was capped: no side won it
            "rate": [0.25, 0.5, 0.0, 1.0, 0.0, 0.0],
            "lower": [0.045587, 0.150039, 0.0, 0.342380, 0.0, 0.0],
            "upper": [0.699358, 0.849961, 0.489891, 1.0, 0.657620, 0.657620],
            "even_share": [third] * 6,
            "vs_even": [0.25 - third, 0.5 - third, -third, 1 - third, -third, -third],
        },
        KEYS | {"side": pl.String, "games": pl.Int64, "wins": pl.Int64}
        | dict.fromkeys(["rate", "lower", "upper", "even_share", "vs_even"], pl.Float64),
    )  # fmt: skip
    assert_table(side_win_rates(CELLS), expected)


def test_character_effects_within_role():
    # cells by hand from the table in the docstring; ordered by role, then effect, then name
    cells = [  # role, character, baseline, games, wins, lower, upper
        ("leader", "A", 0.25, 2, 1, 0.094531, 0.905469),
        ("leader", "B", 0.25, 1, 0, 0.0, 0.793451),
        ("leader", "C", 0.25, 1, 0, 0.0, 0.793451),
        ("outlaw", "D", 0.5, 2, 2, 0.342380, 1.0),
        ("outlaw", "C", 0.5, 3, 2, 0.207660, 0.938508),
        ("outlaw", "A", 0.5, 1, 0, 0.0, 0.793451),
        ("outlaw", "B", 0.5, 2, 0, 0.0, 0.657620),
        ("renegade", "A", 0.0, 1, 0, 0.0, 0.793451),
        ("renegade", "B", 0.0, 1, 0, 0.0, 0.793451),
        ("renegade", "D", 0.0, 2, 0, 0.0, 0.657620),
    ]
    rate = [w / n for _, _, _, n, w, _, _ in cells]
    p = [p_score(r, c[2], c[3]) for r, c in zip(rate, cells, strict=True)]
    # Holm within each role: leader 3 tests, outlaw 4 (it has a cummax step), renegade 3
    adjusted = holm(p[:3]) + holm(p[3:7]) + holm(p[7:])
    assert adjusted[3:7] == pytest.approx([0.629196, 0.634622, 0.634622, 0.629196], abs=1e-6)
    expected = frame(
        {
            "config": [A4] * 10, "theme": ["classic"] * 10, "players": [4] * 10,
            "role": [c[0] for c in cells], "character": [c[1] for c in cells],
            "baseline": [c[2] for c in cells], "games": [c[3] for c in cells],
            "wins": [c[4] for c in cells], "rate": rate,
            "lower": [c[5] for c in cells], "upper": [c[6] for c in cells],
            "effect": [r - c[2] for r, c in zip(rate, cells, strict=True)],
            "effect_lower": [c[5] - c[2] for c in cells],
            "effect_upper": [c[6] - c[2] for c in cells],
            "p_value": p, "p_adjusted": adjusted, "significant": [False] * 10,
        },
        KEYS | {"role": pl.String, "character": pl.String} | EFFECT_SCHEMA,
    )  # fmt: skip
    got = effects_in_role(CELLS_4P, "character")
    assert_table(got, expected)


def test_character_effects_overall_control_for_roles():
    # expected rate = sum over roles of games x baseline / games, e.g. B: (1 x 1/4 + 2 x 1/2
    # + 1 x 0) / 4 = 0.3125
    cells = [  # character, expected, wins of 4 games, lower, upper
        ("D", 0.25, 2, 0.150039, 0.849961),
        ("C", 0.4375, 2, 0.150039, 0.849961),
        ("A", 0.25, 1, 0.045587, 0.699358),
        ("B", 0.3125, 0, 0.0, 0.489891),
    ]
    rate = [c[2] / 4 for c in cells]
    p = [p_score(r, c[1], 4) for r, c in zip(rate, cells, strict=True)]
    expected = frame(
        {
            "config": [A4] * 4, "theme": ["classic"] * 4, "players": [4] * 4,
            "character": [c[0] for c in cells], "baseline": [c[1] for c in cells],
            "games": [4] * 4, "wins": [c[2] for c in cells], "rate": rate,
            "lower": [c[3] for c in cells], "upper": [c[4] for c in cells],
            "effect": [0.25, 0.0625, 0.0, -0.3125],
            "effect_lower": [c[3] - c[1] for c in cells],
            "effect_upper": [c[4] - c[1] for c in cells],
            "p_value": p, "p_adjusted": holm(p), "significant": [False] * 4,
        },
        KEYS | {"character": pl.String} | EFFECT_SCHEMA,
    )  # fmt: skip
    assert_table(effects_overall(CELLS_4P, "character"), expected)


def test_character_effects_overall_the_same_bits_whatever_the_row_order():
    # 300 random 5-player games, their seat rows shuffled 40 ways: each character's baseline
    # (a games-weighted sum of role rates such as 0.45 and 0.3) is summed in the same order
    # every time, so a report's numbers do not differ in their last digits between renderings
    # (summed in the group's row order, the 40 shufflings gave 20 to 25 different tables)
    rng = np.random.default_rng(1)
    roles = ["leader", "deputy", "outlaw", "outlaw", "renegade"]
    games = [
        (rng.choice(["leader", "leader", "outlaw", "renegade"]), 20, False,
         list(zip(roles, rng.choice(list("ABCDEFGH"), 5, replace=False), strict=True)))
        for _ in range(300)
    ]  # fmt: skip
    rows = seat_frame(B5, 5, games)
    seen = {
        tuple(
            effects_overall(cells_of(rows.sample(fraction=1.0, shuffle=True, seed=k).lazy()))
            .collect()["baseline"]
            .to_list()
        )
        for k in range(40)
    }
    assert len(seen) == 1


def test_seat_effects_within_role():
    got = effects_in_role(CELLS_4P, "seat").collect()
    outlaws = got.filter(pl.col("role") == "outlaw").select("seat", "games", "wins", "effect")
    # outlaw seats: seat 1 won 1 of 3 (games 0, 2, 3), seat 2 won 1 of 3 (games 0, 1, 3),
    # seat 3 won 2 of 2 (games 1, 2); equal effects are ordered by seat
    expected = pl.DataFrame(
        {"seat": [3, 1, 2], "games": [2, 3, 3], "wins": [2, 1, 1],
         "effect": [0.5, 1 / 3 - 0.5, 1 / 3 - 0.5]},
        schema={"seat": pl.UInt8, "games": pl.Int64, "wins": pl.Int64, "effect": pl.Float64},
    )  # fmt: skip
    assert_frame_equal(outlaws, expected)
    assert got.filter(pl.col("role") == "leader")["seat"].to_list() == [0]


def test_game_lengths_and_histogram():
    histogram = turn_histogram(CELLS)
    expected_histogram = frame(
        {
            "config": [A4] * 4 + [B5] * 2, "theme": ["classic"] * 6,
            "players": [4] * 4 + [5] * 2, "turns": [10, 20, 30, 40, 12, 14],
            "games": [1] * 6, "capped": [0, 0, 0, 1, 0, 0], "rounds": [3, 5, 8, 10, 3, 3],
        },
        KEYS | {"turns": pl.UInt16, "games": pl.Int64, "capped": pl.Int64, "rounds": pl.Int64},
    )  # fmt: skip
    assert_table(histogram, expected_histogram)
    # quantile q: the least length with at least q of games at or below it
    expected = frame(
        {
            "config": [A4, B5], "theme": ["classic"] * 2, "players": [4, 5],
            "games": [4, 2], "capped": [1, 0], "capped_share": [0.25, 0.0],
            "mean_turns": [25.0, 13.0], "p10": [10, 12], "median": [20, 12], "p90": [40, 14],
            "max_turns": [40, 14], "mean_rounds": [6.5, 3.0],
        },
        KEYS | {"games": pl.Int64, "capped": pl.Int64, "capped_share": pl.Float64,
                "mean_turns": pl.Float64, "p10": pl.Int64, "median": pl.Int64,
                "p90": pl.Int64, "max_turns": pl.Int64, "mean_rounds": pl.Float64},
    )  # fmt: skip
    assert_table(game_lengths(histogram), expected)


def test_balance_summary():
    summary = balance_summary(
        side_win_rates(CELLS_4P), effects_overall(CELLS_4P), game_lengths(turn_histogram(CELLS_4P))
    )
    # effects 0.25, 0.0625, 0, -0.3125: mean 0, sample sd sqrt(0.1640625 / 3);
    # noise: sqrt(mean of e (1 - e) / 4) over expected rates 0.25, 0.4375, 0.25, 0.3125
    noise = math.sqrt(sum(e * (1 - e) / 4 for e in (0.25, 0.4375, 0.25, 0.3125)) / 4)
    expected = pl.DataFrame(
        {
            "config": [A4], "theme": ["classic"], "players": [4], "games": [4],
            "capped_share": [0.25], "leader_rate": [0.25], "outlaw_rate": [0.5],
            "renegade_rate": [0.0], "side_gap": [1 / 3], "favoured_side": ["outlaw"],
            "strongest": ["D"], "strongest_effect": [0.25], "strongest_significant": [False],
            "weakest": ["B"], "weakest_effect": [-0.3125], "weakest_significant": [False],
            "effect_sd": [math.sqrt(0.1640625 / 3)], "noise_sd": [noise],
            "significant": [0], "characters": [4],
        },
        schema_overrides=KEYS,
    )  # fmt: skip
    assert_table(summary, expected)


# --- statistics added for the report ---------------------------------------------------


def test_holm_steps_down_within_families():
    p = pl.LazyFrame({"f": ["a"] * 4 + ["b"] * 2, "p": [0.01, 0.04, 0.03, 0.5, 0.02, float("nan")]})
    got = with_holm(p, "p", ["f"]).collect()
    # a: 4 x .01 = .04; 3 x .03 = .09; 2 x .04 = .08 -> .09 (monotone); 1 x .5. b: m = 1.
    expected = pl.DataFrame(
        {
            "f": ["a", "a", "a", "a", "b", "b"],
            "p": [0.01, 0.03, 0.04, 0.5, 0.02, float("nan")],
            "p_adjusted": [0.04, 0.09, 0.09, 0.5, 0.02, float("nan")],
        }
    )
    assert_frame_equal(got, expected)


def test_newcombe_interval_matches_the_paper():
    # Newcombe (1998), Stat Med 17:873, table II example (c): 56/70 - 48/80, method 10
    lower, upper = newcombe_exprs(pl.lit(56), pl.lit(70), pl.lit(48), pl.lit(80))
    got = pl.select(lower.alias("lower"), upper.alias("upper")).row(0)
    assert got == pytest.approx((0.0524, 0.3339), abs=5e-5)


def test_two_proportion_test():
    # pooled p = 104/150; z = 0.2 / sqrt(p (1 - p) (1/70 + 1/80))
    pooled = 104 / 150
    z = 0.2 / math.sqrt(pooled * (1 - pooled) * (1 / 70 + 1 / 80))
    got = pl.select(two_proportion_p_expr(pl.lit(56), pl.lit(70), pl.lit(48), pl.lit(80))).item()
    assert got == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-9)
    # no spread at all (both 0%): no evidence of a difference
    same = pl.select(two_proportion_p_expr(pl.lit(0), pl.lit(5), pl.lit(0), pl.lit(9))).item()
    assert same == 1.0


def test_role_win_rates_count_games_not_seats():
    """Per configuration and role: games, wins, rate and Wilson bounds (the docstring's), the
    sample being games: two outlaws winning together are one win."""
    from reports.aggregate import role_win_rates

    got = role_win_rates(CELLS).collect()
    assert got.select("config", "role", "games", "wins").rows() == [
        (A4, "leader", 4, 1), (A4, "outlaw", 4, 2), (A4, "renegade", 4, 0),
        (B5, "leader", 2, 2), (B5, "deputy", 2, 2), (B5, "outlaw", 2, 0), (B5, "renegade", 2, 0),
    ]  # fmt: skip
    assert got["rate"].to_list() == pytest.approx([0.25, 0.5, 0, 1, 1, 0, 0])
    assert got["lower"].to_list() == pytest.approx([0.045587, 0.150039, 0, 0.342380, 0.342380, 0, 0], abs=1e-6)  # fmt: skip
    assert got["upper"].to_list() == pytest.approx([0.699358, 0.849961, 0.489891, 1, 1, 0.657620, 0.657620], abs=1e-6)  # fmt: skip


def test_role_win_rates_do_not_overflow_on_large_runs():
    """100,000 games of 4 seats: counts past 65,536 stay exact (no u32 product overflows)."""
    from reports.aggregate import role_win_rates

    games, leader_wins = 100_000, 30_000
    g = np.repeat(np.arange(games), 4)
    role = np.tile(np.array(["leader", "renegade", "outlaw", "outlaw"]), games)
    leader_won = g < leader_wins
    won = np.where(role == "leader", leader_won, np.where(role == "outlaw", ~leader_won, False))
    seats = pl.DataFrame(
        {
            "config": A4,
            "theme": "classic",
            "players": 4,
            "game": g,
            "seat": np.tile(np.arange(4), games),
            "role": role,
            "character": np.tile(np.array(list("ABCD")), games),
            "strategy": "basic",
            "won": won,
            "survived": won,
            "winner": np.where(leader_won, "leader", "outlaw"),
            "turns": 10,
            "rounds": 3,
            "capped": False,
            "featured": False,
        }  # fmt: skip
    ).cast(SEAT_SCHEMA)
    got = role_win_rates(cells_of(seats.lazy())).collect()
    assert got.select("role", "games", "wins").rows() == [
        ("leader", games, leader_wins), ("outlaw", games, games - leader_wins), ("renegade", games, 0)
    ]  # fmt: skip


def test_tables_read_seat_rows_once_through_the_cells(tmp_path):
    """Two queries read the Parquet files (the cells); every table is a LazyFrame over them."""
    from reports.aggregate import collect_tables, report_tables
    from simcore.runs.cells import collect_cells, scan_seats

    (tmp_path / "seats").mkdir()
    SMALL.collect().write_parquet(tmp_path / "seats" / "x-00000.parquet")
    cells = collect_cells(scan_seats(tmp_path))
    assert_frame_equal(cells.seats.collect(), CELLS.seats.collect(), check_row_order=False)
    tables = report_tables(cells)
    assert all(isinstance(t, pl.LazyFrame) for t in tables.values())
    collected = collect_tables(tables)
    assert list(collected) == [
        "summary", "sides", "roles", "characters", "character_roles", "seats", "featured",
        "game_lengths", "turn_histogram", "win_rounds",
    ]  # fmt: skip
    assert_frame_equal(collected["sides"], side_win_rates(CELLS).collect())
