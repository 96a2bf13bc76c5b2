"""How much of the previous deal's order a shoe carried over: the shuffle monitor's statistic.

A shuffle that works leaves no trace of the order the cards came out in before: the cards are
gathered from the discard rack much in the order they were dealt, and a shuffler that riffles too
few times, only cuts, or a shoe with a slug of the last deal planted in it (a false shuffle) brings
runs of that order out again. The statistic counts them.

**Links.** In the previous deal, every two cards dealt at most :data:`WINDOW` cards apart (both
public: see below) make a *link*, the unordered pair of their faces (``{AS, 7D}``). A multi-deck
shoe has copies of a face, so a link names faces, not physical cards, and the same pair of faces may
be linked several times: ``w[{x, y}]`` is how many times.

**Repeats.** In this deal, every two public cards at most :data:`WINDOW` apart make a *pair*; the
statistic ``T`` adds up ``w`` of each pair's faces: how many (link, pair) matches there are. A
pickup that reverses a round's cards still matches (the pairs are unordered), and so does a riffle
that slips a card or two between neighbours (the window).

**The null.** Under a fair shuffle the new order is a uniformly random permutation of the shoe's
physical cards (the whole composition, the cards behind the cut card included), whatever the
previous order was. Conditioned on the previous deal (so on ``w``) and on which positions of this
deal are public, ``T``'s mean and variance are exact (:func:`null_moments`): each pair of
positions holds two distinct physical cards drawn without replacement from the composition, so
with ``A[u, v] = w[{face u, face v}]`` over the physical cards ``u != v``,

- ``E[T] = |C| S / (N)_2`` with ``S`` the sum of ``A``;
- ``E[T^2] = |C| D / (N)_2 + s1 (Q - D) / (N)_3 + s0 (S^2 - 4Q + 2D) / (N)_4``, where ``D`` sums
  ``A^2``, ``Q`` the squared row sums, ``(N)_r`` is the falling factorial, ``C`` the pairs of
  positions, ``s1`` the ordered pairs of pairs sharing one position and ``s0`` those sharing none
  (the ``-4Q + 2D`` is inclusion-exclusion over four positions that must hold four distinct cards).

The sums over physical cards fold into sums over faces with the composition's copies ``c``
(:func:`null_moments`); tests/controller/test_shuffle_stats.py checks them against every
permutation of a tiny shoe. The tail is taken from a gamma distribution of that mean and variance
(:func:`upper_p`): ``T`` is a sum of many rare, mostly independent matches, skewed to the right
like a Poisson count when its mean is small, and the gamma follows that skew where a normal would
not. How well: docs/operations.md, "Shuffle integrity", measured over seeded fair shuffles.

Only public cards count: a position whose card never became public (a folded hand collected
unseen, a misread) is a gap that no link or pair crosses into; the gaps are part of the
conditioning, and the statistic says nothing about those cards. The undealt cards are part of the
composition only.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WINDOW = 2
"""Cards at most this many positions apart make a link (previous deal) or a pair (this deal)."""

Face = str
Order = Sequence[Face | None]
"""A deal: the faces in the order they left the shoe, None where a card never became public."""


def _key(x: Face, y: Face) -> tuple[Face, Face]:
    return (x, y) if x <= y else (y, x)


def links(order: Order, window: int = WINDOW) -> Counter[tuple[Face, Face]]:
    """The previous deal's links: each unordered pair of faces of two public cards at most
    ``window`` positions apart, counted as often as it occurs."""
    _check_window(window)
    out: Counter[tuple[Face, Face]] = Counter()
    for i, x in enumerate(order):
        if x is None:
            continue
        for y in order[i + 1:i + 1 + window]:
            if y is not None:
                out[_key(x, y)] += 1
    return out


def repeats(weights: Mapping[tuple[Face, Face], int], order: Order, window: int = WINDOW) -> int:
    """``T``: over this deal's pairs (public cards at most ``window`` apart), the links of the
    previous deal each pair's faces match."""
    _check_window(window)
    total = 0
    for i, x in enumerate(order):
        if x is None:
            continue
        for y in order[i + 1:i + 1 + window]:
            if y is not None:
                total += weights.get(_key(x, y), 0)
    return total


def position_pairs(order: Order, window: int = WINDOW) -> tuple[int, int]:
    """This deal's pairs of positions: how many (``|C|``), and how many ordered pairs of two of
    them share one position (``s1``; two different pairs share at most one)."""
    _check_window(window)
    degree = [0] * len(order)
    pairs = 0
    for i, x in enumerate(order):
        if x is None:
            continue
        for j in range(i + 1, min(len(order), i + 1 + window)):
            if order[j] is not None:
                pairs += 1
                degree[i] += 1
                degree[j] += 1
    return pairs, sum(d * (d - 1) for d in degree)


@dataclass(frozen=True)
class Moments:
    """``T``'s mean and variance under a fair shuffle."""

    mean: float
    variance: float


def _falling(n: int, r: int) -> int:
    out = 1
    for i in range(r):
        out *= n - i
    return out


def null_moments(weights: Mapping[tuple[Face, Face], int], copies: Mapping[Face, int], pairs: int,
                 shared: int) -> Moments:
    """``T``'s exact mean and variance for a uniformly random order of the composition ``copies``
    (face -> copies in the shoe), given the previous deal's links ``weights`` and this deal's
    ``pairs`` and ``shared`` (:func:`position_pairs`). See the module's docstring."""
    n = sum(copies.values())
    if pairs < 0 or shared < 0:
        raise ValueError(f"pairs and shared pairs are counts, not {pairs} and {shared}")
    for (x, y), w in weights.items():
        need = 2 if x == y else 1
        if copies.get(x, 0) < need or copies.get(y, 0) < 1:
            raise ValueError(f"the link {x}-{y} names cards the composition has not got")
        if w < 0:
            raise ValueError(f"the link {x}-{y} is counted {w} times")
    if pairs == 0 or not weights:
        return Moments(0.0, 0.0)
    if n < 4:
        raise ValueError(f"a shoe of {n} cards is too small for the test (4 at least)")
    s = d = 0
    row: dict[Face, int] = {}
    for (x, y), w in weights.items():
        if x == y:
            s += w * copies[x] * (copies[x] - 1)
            d += w * w * copies[x] * (copies[x] - 1)
            row[x] = row.get(x, 0) + w * (copies[x] - 1)
        else:
            s += 2 * w * copies[x] * copies[y]
            d += 2 * w * w * copies[x] * copies[y]
            row[x] = row.get(x, 0) + w * copies[y]
            row[y] = row.get(y, 0) + w * copies[x]
    q = sum(copies[x] * r * r for x, r in row.items())
    disjoint = pairs * pairs - pairs - shared
    mean = pairs * s / _falling(n, 2)
    square = pairs * d / _falling(n, 2) + shared * (q - d) / _falling(n, 3) \
        + disjoint * (s * s - 4 * q + 2 * d) / _falling(n, 4)
    return Moments(mean, max(0.0, square - mean * mean))


def upper_p(observed: float, mean: float, variance: float) -> float:
    """P(T >= observed) from a gamma distribution with ``T``'s mean and variance (with a half
    for continuity: ``T`` is a whole number). No variance (nothing to match): 1."""
    if mean <= 0 or variance <= 0:
        return 1.0
    shape, scale = mean * mean / variance, variance / mean
    x = max(0.0, observed - 0.5) / scale
    return gamma_q(shape, x)


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (Numerical Recipes 6.2: the series
    below a + 1, the continued fraction above), in pure Python: scipy is a test dependency only
    (tests check it against ``scipy.special.gammaincc``)."""
    if a <= 0:
        raise ValueError(f"the gamma shape must be more than 0, not {a!r}")
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    dd = 1 / b
    h = dd
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        dd = an * dd + b
        dd = tiny if abs(dd) < tiny else dd
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        dd = 1 / dd
        delta = dd * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


@dataclass(frozen=True)
class Comparison:
    """One deal compared with the one before it."""

    links: int
    """The previous deal's links (both cards public, at most :data:`WINDOW` apart)."""
    pairs: int
    """This deal's pairs of positions."""
    observed: int
    mean: float
    variance: float

    @property
    def z(self) -> float:
        return (self.observed - self.mean) / math.sqrt(self.variance) if self.variance > 0 else 0.0

    @property
    def p_value(self) -> float:
        return upper_p(self.observed, self.mean, self.variance)


def compare(previous: Order, current: Order, copies: Mapping[Face, int], window: int = WINDOW) -> Comparison:
    """``T`` of ``current`` against ``previous``, with its null mean and variance."""
    weights = links(previous, window)
    pairs, shared = position_pairs(current, window)
    moments = null_moments(weights, copies, pairs, shared)
    return Comparison(sum(weights.values()), pairs, repeats(weights, current, window), moments.mean,
                      moments.variance)


def _check_window(window: int) -> None:
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"the window is a whole number of positions from 1, not {window!r}")
