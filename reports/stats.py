"""Statistics for win rates: Wilson score intervals, on numpy arrays and as polars expressions.

Wilson (1927): for k successes in n trials and z the normal quantile,
    centre = (k + z²/2) / (n + z²)
    half   = z / (n + z²) · sqrt(k (n - k) / n + z²/4)
It stays inside [0, 1] and is sensible at k = 0 and k = n, where the normal ("Wald")
interval collapses to a point. n = 0 gives NaN: no games, no estimate.
"""

from __future__ import annotations

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
