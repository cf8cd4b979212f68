"""Statistics for win rates: Wilson score intervals, on numpy arrays and as polars expressions.

Wilson (1927): for k successes in n trials and z the normal quantile,
    centre = (k + z²/2) / (n + z²)
    half   = z / (n + z²) · sqrt(k (n - k) / n + z²/4)
It stays inside [0, 1] and is sensible at k = 0 and k = n, where the normal ("Wald")
interval collapses to a point. n = 0 gives NaN: no games, no estimate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

Z95 = 1.959963984540054  # two-sided 95%: the 0.975 quantile of the standard normal


def wilson_interval(k, n, z: float = Z95):
    """(lower, upper) Wilson score interval for k successes in n trials, elementwise.

    k and n are numbers or numpy arrays (broadcast together); the result has their
    broadcast shape, as floats (plain floats for scalar input). n = 0 gives NaN.

    >>> lo, hi = wilson_interval(5, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.2366, 0.7634)
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any((k < 0) | (k > n)):
        raise ValueError("wilson_interval: need 0 <= k <= n")
    z2 = z * z
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = n + z2
        centre = (k + z2 / 2) / denom
        half = z / denom * np.sqrt(k * (n - k) / n + z2 / 4)
        lower = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        upper = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    empty = n == 0
    lower = np.where(empty, np.nan, lower)
    upper = np.where(empty, np.nan, upper)
    if lower.ndim == 0:
        return float(lower), float(upper)
    return lower, upper


def newcombe_interval(k1, n1, k2, n2, z: float = Z95) -> tuple[float, float]:
    """(lower, upper) interval for k1/n1 - k2/n2 of independent proportions (numbers):
    the numpy twin of `newcombe_exprs`, same method."""
    l1, u1 = wilson_interval(k1, n1, z)
    l2, u2 = wilson_interval(k2, n2, z)
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    return d - ((p1 - l1) ** 2 + (u2 - p2) ** 2) ** 0.5, d + (
        (u1 - p1) ** 2 + (p2 - l2) ** 2
    ) ** 0.5


def paired_interval(d: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, sd, half-width) of paired differences d (one per deal played both ways): the
    normal-approximation interval mean ± z sd / sqrt(n), sd with n - 1 (0 for one pair)."""
    n = len(d)
    mean = float(np.mean(d))
    sd = float(np.std(d, ddof=1)) if n > 1 else 0.0
    return mean, sd, z * sd / np.sqrt(n)


def wilson_exprs(
    k_col: str | pl.Expr, n_col: str | pl.Expr, z: float = Z95
) -> tuple[pl.Expr, pl.Expr]:
    """(lower, upper) Wilson interval as polars expressions over count columns.

    Alias them yourself: ``lo, hi = wilson_exprs("wins", "games")``,
    ``df.with_columns(lo.alias("lower"), hi.alias("upper"))``. n = 0 gives NaN.
    """
    k = (pl.col(k_col) if isinstance(k_col, str) else k_col).cast(pl.Float64)
    n = (pl.col(n_col) if isinstance(n_col, str) else n_col).cast(pl.Float64)
    z2 = z * z
    denom = n + z2
    centre = (k + z2 / 2) / denom
    half = z / denom * (k * (n - k) / n + z2 / 4).sqrt()
    nan = pl.lit(float("nan"), dtype=pl.Float64)
    lower = (
        pl.when(n == 0).then(nan).when(k == 0).then(0.0).otherwise((centre - half).clip(0.0, 1.0))
    )
    upper = (
        pl.when(n == 0).then(nan).when(k == n).then(1.0).otherwise((centre + half).clip(0.0, 1.0))
    )
    return lower, upper


# --- tests and multiple comparisons ---------------------------------------------------
#
# The report's significance flags come from score tests, the test the Wilson interval
# inverts: a rate's 95% Wilson interval excludes p0 exactly when the score test of
# "rate = p0" has p < 0.05. So an effect shown as "Wilson interval of the rate minus its
# baseline" and its unadjusted flag never disagree. Flags shown are Holm-adjusted.

ALPHA = 0.05  # family-wise error rate of the significance flags


def _expr(col: str | pl.Expr) -> pl.Expr:
    return (pl.col(col) if isinstance(col, str) else col).cast(pl.Float64)


def two_sided_p_expr(z: str | pl.Expr) -> pl.Expr:
    """Two-sided normal p-value of a z statistic: erfc(|z| / sqrt 2). NaN z gives NaN."""
    return (_expr(z).abs() / np.sqrt(2.0)).erfc()


def score_test_p_expr(k_col: str | pl.Expr, n_col: str | pl.Expr, p0: str | pl.Expr) -> pl.Expr:
    """p-value of the score test of "k successes in n trials have rate p0" (two-sided).

    z = (k/n - p0) / sqrt(p0 (1 - p0) / n). At p0 = 0 or 1 the test is exact: p = 1 when
    the observed rate equals p0, else 0. n = 0 gives NaN.
    """
    k, n, p0 = _expr(k_col), _expr(n_col), _expr(p0)
    rate = k / n
    z = (rate - p0) / (p0 * (1 - p0) / n).sqrt()
    degenerate = (p0 <= 0) | (p0 >= 1)
    nan = pl.lit(float("nan"), dtype=pl.Float64)
    return (
        pl.when(n == 0)
        .then(nan)
        .when(degenerate)
        .then(pl.when(rate == p0).then(1.0).otherwise(0.0))
        .otherwise(two_sided_p_expr(z))
    )


def two_proportion_p_expr(
    k1: str | pl.Expr, n1: str | pl.Expr, k2: str | pl.Expr, n2: str | pl.Expr,
    shift: str | pl.Expr | float = 0.0,
) -> pl.Expr:  # fmt: skip
    """p-value of the pooled two-proportion z test of "k1/n1 - k2/n2 = shift" (two-sided).

    z = (k1/n1 - k2/n2 - shift) / sqrt(p (1 - p) (1/n1 + 1/n2)), p = (k1 + k2) / (n1 + n2).
    `shift` compares a difference of differences (a character's effect in two runs, each
    relative to its own baseline). When the pooled rate is 0 or 1 there is no spread: p = 1
    when the difference equals `shift`, else 0.
    """
    k1, n1, k2, n2 = _expr(k1), _expr(n1), _expr(k2), _expr(n2)
    shift = _expr(shift) if not isinstance(shift, float | int) else pl.lit(float(shift))
    diff = k1 / n1 - k2 / n2 - shift
    pooled = (k1 + k2) / (n1 + n2)
    z = diff / (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).sqrt()
    nan = pl.lit(float("nan"), dtype=pl.Float64)
    return (
        pl.when((n1 == 0) | (n2 == 0))
        .then(nan)
        .when((pooled <= 0) | (pooled >= 1))
        .then(pl.when(diff.abs() < 1e-12).then(1.0).otherwise(0.0))
        .otherwise(two_sided_p_expr(z))
    )


def newcombe_exprs(
    k1: str | pl.Expr, n1: str | pl.Expr, k2: str | pl.Expr, n2: str | pl.Expr, z: float = Z95
) -> tuple[pl.Expr, pl.Expr]:
    """(lower, upper) interval for the difference k1/n1 - k2/n2 of independent proportions.

    Newcombe (1998) method 10, the "hybrid score" interval: the two Wilson intervals
    (l1, u1), (l2, u2) combined as d - sqrt((p1 - l1)² + (u2 - p2)²) .. d + sqrt((u1 - p1)²
    + (p2 - l2)²). Like Wilson, it behaves at 0 and 1. Either n = 0 gives NaN.
    """
    l1, u1 = wilson_exprs(k1, n1, z)
    l2, u2 = wilson_exprs(k2, n2, z)
    p1 = _expr(k1) / _expr(n1)
    p2 = _expr(k2) / _expr(n2)
    d = p1 - p2
    lower = d - ((p1 - l1) ** 2 + (u2 - p2) ** 2).sqrt()
    upper = d + ((u1 - p1) ** 2 + (p2 - l2) ** 2).sqrt()
    return lower, upper


def with_holm(
    frame: pl.LazyFrame, p_col: str, family: Sequence[str], alias: str = "p_adjusted"
) -> pl.LazyFrame:
    """`frame` plus Holm-adjusted p-values of `p_col` within each `family` (column names).

    Holm (1979), step-down: with the family's m p-values sorted p(1) <= ... <= p(m),
    adjusted p(i) = max over j <= i of min(1, (m - j + 1) p(j)). Rejecting adjusted p < alpha
    keeps the chance of any false flag in a family below alpha, like Bonferroni, while
    flagging at least as much. NaN p-values (no games) are left out of m. Row order changes
    (sorted by family, then p); sort afterwards for display.
    """
    family = list(family)
    p = pl.col(p_col)
    valid = p.is_not_nan() & p.is_not_null()
    m = valid.sum().over(family)
    rank = pl.when(valid).then(p).rank("ordinal").over(family)
    step = ((m - rank + 1).cast(pl.Float64) * p).clip(upper_bound=1.0)
    return (
        frame.sort(*family, p_col, nulls_last=True)
        .with_columns(pl.when(valid).then(step).alias("_holm"))
        .with_columns(
            pl.when(valid)
            .then(pl.col("_holm").cum_max().over(family))
            .otherwise(float("nan"))
            .alias(alias)
        )
        .drop("_holm")
    )


def agreeing_digits(lo: float, hi: float, digits: int = 1) -> int:
    """Decimals (of points) that print an interval excluding 0 with no bound as 0.0, so its
    printed bounds agree with its "beyond luck" mark: (-0.0142, -0.0004) needs 2."""
    while digits < 3 and lo * hi > 0 and min(abs(lo), abs(hi)) * 100 < 0.5 * 10**-digits:
        digits += 1
    return digits
