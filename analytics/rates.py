"""Rates as every statistic reports them: successes, sample size, the proportion, its 95%
Wilson score interval and a flag for samples too small to read without care. Kept apart
from the queries (:mod:`cascadia.analytics.stats`) so that what prints a rate need not
load DuckDB or pyarrow."""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054
"""The standard normal quantile of 97.5%: a two-sided 95% interval."""
SMALL_SAMPLE = 30
"""Samples smaller than this are flagged ``small``: read their rates with care."""


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``k`` successes in ``n`` trials (``None`` for n = 0)."""
    if n <= 0:
        return None
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: int, n: int) -> dict[str, Any]:
    """A proportion with its sample size, 95% Wilson interval and small-sample flag."""
    interval = wilson_interval(k, n)
    return {
        "k": k,
        "n": n,
        "rate": k / n if n else None,
        "low": interval[0] if interval else None,
        "high": interval[1] if interval else None,
        "small": n < SMALL_SAMPLE,
    }
