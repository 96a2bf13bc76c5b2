"""A table's integrity figures as the tables publish them (issue 25), for the pit's tests: a dice
topic (docs/schemas/dice.json) and an integrity topic (integrity.json, its shuffle key
integrity_shuffle.json), each checked against its schema here, so a test that feeds them to the pit
feeds what a table may really send.

The figures agree with themselves and with the monitors' own rules (controller/table/dice_stats.py;
the outcome and shuffle monitors of the integrity-outcome and integrity-shuffle lines): the
chi-squares and p-values are scipy's for the counts given (scipy is a test dependency); the
outcome classes are Three Card Poker's player-dealer hands out of C(52,3) = 22,100 (royal flush 4,
straight flush 44, three of a kind 52, straight 720, flush 1,096, pair 3,744, high card 16,440),
pooled as the monitor pools them (the classes expected fewer than 5 times, smallest first, and the
next smallest while the pool is still below 5), the flagged cell the one furthest off in standard
units (the pooled cell: its class least likely by itself, by its exact binomial tail); a shoe is tested alone once 50 pairs are expected,
its p-value a gamma tail of the same mean and variance.
"""

from __future__ import annotations

import math
from typing import Any

from scipy import stats

from controller.shared.schemas import validate

LOADED = [86, 90, 93, 92, 96, 143]
"""A die loaded to six, 600 throws: chi-square 22.74 on 5 df, p 0.00038 (below 0.001: flagged)."""
FAIR = [101, 99, 98, 103, 100, 99]
"""A fair die's 600 throws: chi-square 0.16, p 0.9995."""

TCP_HANDS = {"royal flush": 4, "straight flush": 44, "three of a kind": 52, "straight": 720, "flush": 1096,
             "pair": 3744, "high card": 16440}
"""Three Card Poker's player-dealer hand classes out of C(52,3) = 22,100."""
DEALT = {"royal flush": 0, "straight flush": 1, "three of a kind": 2, "straight": 42, "flush": 30, "pair": 100,
         "high card": 425}
"""600 player-dealer hands with straights coming twice as often as they should (42, 19.5 expected).
The three rarest classes are expected 2.7 times together, so straight joins their pool: the
pooled cell holds 45 against 22.26 expected, 4.8 standard units off; chi-square 24.27 on 3 df,
p 0.000022: flagged (below 0.0001), the pooled cell named."""
SINCE = 1_774_000_000.0
P_BIAS, MIN_ROUNDS, RARE_BELOW = 1e-4, 200, 0.02
"""The outcome monitor's threshold, minimum rounds and rare-class bound."""


def die(number: int, counts: list[int], p_bias: float = 0.001) -> dict[str, Any]:
    shakes = sum(counts)
    chi, p = stats.chisquare(counts)
    face = max(range(6), key=lambda i: abs(counts[i] - shakes / 6))
    return {"die": number, "shakes": shakes, "counts": counts, "chi_square": round(float(chi), 4),
            "p_value": float(p), "biased": bool(p < p_bias),
            "most_off": {"face": face + 1, "count": counts[face], "expected": shakes / 6}}


def dice(table: str, dice_counts: tuple[list[int], ...] = (FAIR, LOADED)) -> dict[str, Any]:
    body = {"table": table, "ts": SINCE + 3600, "p_bias": 0.001, "min_shakes": 600,
            "cups": {"dice_cup": {"serial": "CUP-0042", "since": SINCE, "shakes": 600,
                                  "dice": [die(i + 1, c) for i, c in enumerate(dice_counts)]}}}
    validate("dice", body)
    return body


def wager(dealt: dict[str, int] = DEALT, ways: dict[str, int] = TCP_HANDS) -> dict[str, Any]:
    """A wager as the outcome monitor publishes it (its rules: the module's docstring)."""
    rounds, total = sum(dealt.values()), sum(ways.values())
    names = list(ways)
    prob = {k: ways[k] / total for k in names}
    pooled: list[str] = []
    pool = 0.0
    for k in sorted(names, key=lambda k: (prob[k], names.index(k))):
        if rounds * prob[k] >= 5 and (not pooled or pool >= 5):
            break
        pooled.append(k)
        pool += rounds * prob[k]
    pooled.sort(key=names.index)
    cells = [(k, dealt[k], rounds * prob[k]) for k in names if k not in pooled]
    if pooled:
        cells.append((" + ".join(pooled), sum(dealt[k] for k in pooled), pool))
    chi, p = stats.chisquare([o for _, o, _ in cells], [e for _, _, e in cells])
    most_off = max(cells, key=lambda c: abs(c[1] - c[2]) / math.sqrt(c[2]))[0]
    if pooled and most_off == cells[-1][0]:   # the pool is off: its class least likely by itself is named
        def tail(k: str) -> float:
            n, q = rounds, prob[k]
            return float(stats.binom.sf(dealt[k] - 1, n, q) if dealt[k] >= n * q else stats.binom.cdf(dealt[k], n, q))
        most_off = min(pooled, key=lambda k: (tail(k), pooled.index(k)))
    classes = []
    for k in names:
        c: dict[str, Any] = {"name": k, "count": dealt[k], "expected": round(rounds * prob[k], 4),
                             "probability": prob[k]}
        if prob[k] < RARE_BELOW:
            c["p"] = float(stats.binom.sf(dealt[k] - 1, rounds, prob[k]))
        classes.append(c)
    return {"since": SINCE, "rounds": rounds, "classes": classes, "chi_square": round(float(chi), 4),
            "df": len(cells) - 1, "p_value": float(p), "pooled": pooled,
            "flagged": [most_off] if rounds >= MIN_ROUNDS and p < P_BIAS else []}


def gamma_p(observed: int, mean: float, variance: float) -> float:
    return float(stats.gamma.sf(observed, mean * mean / variance, scale=variance / mean))


def shoe(number: int, observed: int, expected: float = 64.0, variance: float = 60.0) -> dict[str, Any]:
    p = gamma_p(observed, expected, variance)
    return {"shoe": number, "rounds": [1 + 80 * (number - 1), 80 * number], "dealt": 416, "public": 398,
            "links": 2300, "pairs": 2300, "observed": observed, "expected": expected, "variance": variance,
            "z": round((observed - expected) / math.sqrt(variance), 3), "p_value": p, "tested": expected >= 50,
            "suspect": expected >= 50 and p < 0.001}


def shuffle(kept: tuple[int, ...] = (60, 70, 130)) -> dict[str, Any]:
    """The shuffle monitor after a shoe whose shuffle kept 130 pairs together (64 expected)."""
    shoes = [shoe(i + 1, k) for i, k in enumerate(kept)]
    observed, expected, variance = sum(kept), 64.0 * len(kept), 60.0 * len(kept)
    p = gamma_p(observed, expected, variance)
    return {"window": 2, "p_suspect": 0.001, "min_expected_shoe": 50.0, "min_expected_run": 1.0,
            "run": {"since": SINCE, "shoes": len(kept), "observed": observed, "expected": expected,
                    "variance": variance, "p_value": p, "tested": True, "suspect": p < 0.001},
            "shoes": shoes}


def integrity(table: str, outcomes: dict[str, dict] | None = None, shuffle_figures: Any = "default") -> dict[str, Any]:
    body = {"table": table, "ts": SINCE + 3600, "p_bias": P_BIAS, "min_rounds": MIN_ROUNDS, "rare_below": RARE_BELOW,
            "outcomes": {"player_dealer_hand": wager()} if outcomes is None else outcomes,
            "shuffle": shuffle() if shuffle_figures == "default" else shuffle_figures}
    validate("integrity", body)
    return body
