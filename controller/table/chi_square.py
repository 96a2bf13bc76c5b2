"""Pearson's chi-square goodness of fit for a die, with its p-value, in pure Python.

scipy would give ``scipy.stats.chi2.sf``, but it is too heavy a dependency for the Pi for one
function of a whole number of degrees of freedom, which has a closed form (Abramowitz and
Stegun 26.4.4 and 26.4.5); tests/controller/test_chi_square.py checks it against scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with ``dof`` (a whole number from 1) degrees of freedom.

    Even ``dof``: ``exp(-x/2) * sum((x/2)**i / i!, i < dof/2)``. Odd ``dof``: ``erfc(sqrt(x/2))
    + sqrt(2x/pi) * exp(-x/2) * sum(x**(i-1) / (1*3*...*(2i-1)), 1 <= i <= (dof-1)/2)``. The terms
    are built one from the other, so nothing overflows; a huge ``x`` gives 0.0.
    """
    if isinstance(dof, bool) or not isinstance(dof, int) or dof < 1:
        raise ValueError(f"degrees of freedom are a whole number from 1, not {dof!r}")
    if not math.isfinite(x) and x > 0:
        return 0.0
    if not x >= 0:   # also NaN
        raise ValueError(f"a chi-square statistic is 0 or more, not {x!r}")
    if x == 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term = total = 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    tail = math.erfc(math.sqrt(half))
    if dof == 1:
        return tail
    term = total = 1.0          # i = 1: x**0 / 1
    for i in range(2, (dof - 1) // 2 + 1):
        term *= x / (2 * i - 1)
        total += term
    return min(1.0, tail + math.sqrt(2 * x / math.pi) * math.exp(-half) * total)


def goodness_of_fit(counts: Sequence[int]) -> tuple[float, float]:
    """Pearson's statistic of ``counts`` against equal chances for every category, and its
    p-value with ``len(counts) - 1`` degrees of freedom. No observations: (0.0, 1.0)."""
    if len(counts) < 2:
        raise ValueError("a goodness-of-fit test needs at least two categories")
    n = sum(counts)
    if n == 0:
        return 0.0, 1.0
    expected = n / len(counts)
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    return statistic, chi_square_sf(statistic, len(counts) - 1)
