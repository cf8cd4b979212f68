"""Wilson intervals against hand-computed values, edge cases, and numpy == polars."""

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcore.stats import Z95, wilson_exprs, wilson_interval

# Computed by hand as the roots p of (k/n - p)² = z² p (1 - p) / n, a quadratic (not
# with the centre/half-width formula under test), z = 1.959963984540054, z² = 3.841459:
#   5/10:  centre 0.5, half 1.959964 / 13.841459 * sqrt(2.5 + 0.960365) = 0.263407
#   0/10:  upper z² / (n + z²) = 3.841459 / 13.841459 = 0.277533
#   10/10: lower n / (n + z²) = 10 / 13.841459 = 0.722467
CASES = [
    (5, 10, 0.236593, 0.763407),
    (0, 10, 0.0, 0.277533),
    (10, 10, 0.722467, 1.0),
    (1, 4, 0.045587, 0.699358),
    (50, 100, 0.403832, 0.596168),
    (412, 1000, 0.381887, 0.442786),
]


@pytest.mark.parametrize(("k", "n", "lo", "hi"), CASES)
def test_hand_computed(k, n, lo, hi):
    got_lo, got_hi = wilson_interval(k, n)
    assert got_lo == pytest.approx(lo, abs=1e-6)
    assert got_hi == pytest.approx(hi, abs=1e-6)


def test_scalars_give_floats_arrays_give_arrays():
    lo, hi = wilson_interval(5, 10)
    assert isinstance(lo, float) and isinstance(hi, float)
    k = np.array([c[0] for c in CASES])
    n = np.array([c[1] for c in CASES])
    lo, hi = wilson_interval(k, n)
    assert lo.shape == hi.shape == (len(CASES),)
    np.testing.assert_allclose(lo, [c[2] for c in CASES], atol=1e-6)
    np.testing.assert_allclose(hi, [c[3] for c in CASES], atol=1e-6)


def test_exact_bounds_at_zero_and_all():
    lo, hi = wilson_interval(np.array([0, 7]), np.array([7, 7]))
    assert lo[0] == 0.0 and hi[1] == 1.0


def test_n_zero_is_nan():
    lo, hi = wilson_interval(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    lo, hi = wilson_interval(np.array([0, 1]), np.array([0, 2]))
    assert math.isnan(lo[0]) and math.isnan(hi[0]) and not math.isnan(lo[1])


def test_bad_counts_raise():
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


def test_other_z():
    # z = 1: 5/10 -> centre 0.5, half 1/11 * sqrt(2.5 + 0.25) = 0.150756
    lo, hi = wilson_interval(5, 10, z=1.0)
    assert (lo, hi) == pytest.approx((0.349244, 0.650756), abs=1e-6)


def test_polars_matches_numpy():
    k = [c[0] for c in CASES] + [0, 3]
    n = [c[1] for c in CASES] + [0, 3]
    lo_e, hi_e = wilson_exprs("k", "n")
    df = pl.DataFrame({"k": k, "n": n}).with_columns(lo_e.alias("lo"), hi_e.alias("hi"))
    lo, hi = wilson_interval(np.array(k), np.array(n))
    np.testing.assert_allclose(df["lo"].to_numpy(), lo, atol=1e-12, equal_nan=True)
    np.testing.assert_allclose(df["hi"].to_numpy(), hi, atol=1e-12, equal_nan=True)
    assert df["lo"][-1] < 1.0 and df["hi"][-1] == 1.0
    lo_x, _ = wilson_exprs(pl.col("k") * 1, pl.col("n"))  # expressions work as well as names
    assert pl.DataFrame({"k": [5], "n": [10]}).select(lo_x).item() == pytest.approx(
        0.236593, abs=1e-6
    )


@given(st.integers(0, 10**9).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_contains_estimate_and_is_symmetric(kn):
    k, n = kn
    lo, hi = wilson_interval(k, n)
    if n == 0:
        assert math.isnan(lo) and math.isnan(hi)
        return
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo2, hi2 = wilson_interval(n - k, n)
    assert lo == pytest.approx(1 - hi2, abs=1e-9)
    assert hi == pytest.approx(1 - lo2, abs=1e-9)


def test_z95_is_the_normal_quantile():
    # Phi(z) = 0.975  <=>  erfc(-z / sqrt 2) / 2 = 0.975
    assert math.erfc(-Z95 / math.sqrt(2)) / 2 == pytest.approx(0.975, abs=1e-15)
