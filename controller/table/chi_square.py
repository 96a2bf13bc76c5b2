"""Pearson's chi-square goodness of fit (a die's faces; a wager's outcome classes against given
probabilities, small classes pooled) and the exact binomial upper tail, in pure Python.

scipy would give ``scipy.stats.chi2.sf``, but it is too heavy a dependency for the Pi for one
function of a whole number of degrees of freedom (and :func:`binomial_sf`, a sum), which has a closed form (Abramowitz and
Stegun 26.4.4 and 26.4.5); tests/controller/test_chi_square.py checks it against scipy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


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


POOL_BELOW = 5.0
"""A class whose expected count is below this is pooled with others (the usual rule for Pearson's
statistic: its chi-square approximation is poor for small expected counts)."""


@dataclass(frozen=True)
class Fit:
    """Pearson's test of counts against given probabilities, after pooling (:func:`fit`)."""

    statistic: float
    df: int
    p_value: float
    pooled: tuple[int, ...]
    """The indices of the classes pooled into one cell (empty: none pooled)."""


def fit(counts: Sequence[int], probabilities: Sequence[float]) -> Fit:
    """Pearson's chi-square of ``counts`` against ``probabilities`` (which add up to 1), with
    ``cells - 1`` degrees of freedom. The classes whose expected count is below
    :data:`POOL_BELOW` are pooled into one cell, smallest first; if that cell's expected count is
    still below it, the next smallest class joins it, until it is not (or one other cell is left).
    Fewer than two cells (or no observations): statistic 0, df 0, p-value 1 -- no test."""
    if len(counts) != len(probabilities) or len(counts) < 2:
        raise ValueError("a goodness-of-fit test needs as many probabilities as counts, at least two")
    if any(p < 0 for p in probabilities) or abs(sum(probabilities) - 1) > 1e-9:
        raise ValueError("the probabilities must be 0 or more and add up to 1")
    n = sum(counts)
    if n == 0:
        return Fit(0.0, 0, 1.0, ())
    order = sorted(range(len(counts)), key=lambda i: (probabilities[i], i))
    pooled: list[int] = []
    pool_expected = 0.0
    for i in order:   # ascending: a class joins while it or the pool so far is too small
        if n * probabilities[i] >= POOL_BELOW and (not pooled or pool_expected >= POOL_BELOW):
            break
        pooled.append(i)
        pool_expected += n * probabilities[i]
    cells = [(counts[i], n * probabilities[i]) for i in order if i not in pooled]
    if pooled:
        cells.append((sum(counts[i] for i in pooled), pool_expected))
    cells = [c for c in cells if c[1] > 0]
    if len(cells) < 2:
        return Fit(0.0, 0, 1.0, tuple(sorted(pooled)))
    statistic = sum((obs - exp) ** 2 / exp for obs, exp in cells)
    df = len(cells) - 1
    return Fit(statistic, df, chi_square_sf(statistic, df), tuple(sorted(pooled)))


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X binomial with ``n`` trials of chance ``p``: the exact upper tail, summed
    term by term from k (each term from the one before), so a tiny tail keeps its precision."""
    if not 0 <= p <= 1 or n < 0:
        raise ValueError(f"a binomial needs n >= 0 and 0 <= p <= 1, not n={n!r}, p={p!r}")
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p == 0:
        return 0.0
    if p == 1:
        return 1.0
    if k <= n * p:
        # Below the mean the upper tail is near 1, and its first term may underflow to 0 (k = 5 of
        # 50,000 at 1.9 %): the complement of the lower tail, summed down from k - 1, instead.
        return max(0.0, 1.0 - binomial_cdf(k - 1, n, p))
    term = math.exp(_log_pmf(k, n, p))
    total = term
    ratio = p / (1 - p)
    for i in range(k, n):
        term *= (n - i) / (i + 1) * ratio
        total += term
        if term < total * 1e-17 and i > n * p:
            break
    return min(1.0, total)


def _log_pmf(k: int, n: int, p: float) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for 0 <= k < n p (0 < p < 1), summed term by term down from k (each from the one
    after), so a tiny lower tail keeps its precision."""
    if k < 0:
        return 0.0
    term = math.exp(_log_pmf(k, n, p))
    total = term
    ratio = (1 - p) / p
    for i in range(k, 0, -1):
        term *= i / (n - i + 1) * ratio
        total += term
        if term < total * 1e-17:
            break
    return min(1.0, total)
