"""A table's integrity figures as the tables publish them (issue 25), for the pit's tests: a dice
topic (docs/schemas/dice.json) and an integrity topic (integrity.json, its shuffle key
integrity_shuffle.json), each checked against its schema here, so a test that feeds them to the pit
feeds what a table may really send.

The figures agree with themselves: the chi-squares and p-values are scipy's for the counts given
(scipy is a test dependency), the expected counts are the rounds times the exact probabilities of
Three Card Poker's hand classes (C(52,3) = 22,100 hands: straight flush 48, three of a kind 52,
straight 720, flush 1,096, pair 3,744, high card 16,440).
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

TCP_HANDS = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096, "pair": 3744,
             "high_card": 16440}
"""Three Card Poker's hand classes out of C(52,3) = 22,100."""
DEALT = {"straight_flush": 1, "three_of_a_kind": 2, "straight": 40, "flush": 30, "pair": 100, "high_card": 427}
"""600 player-dealer hands with straights coming twice as often as they should (40, 19.5 expected: chi-square 22.3 on 4 df, p 0.00018)."""
SINCE = 1_774_000_000.0


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


def wager(dealt: dict[str, int] = DEALT, p_bias: float = 0.001, rare_below: float = 0.01) -> dict[str, Any]:
    """Three Card Poker's player-dealer hand as the outcome monitor publishes it: classes expected
    fewer than 5 times pooled into one cell, a rare class's exact binomial upper tail."""
    rounds = sum(dealt.values())
    classes, cells, pooled = [], [], []
    pool_count, pool_expected = 0, 0.0
    for name, ways in TCP_HANDS.items():
        prob = ways / 22100
        c: dict[str, Any] = {"name": name, "count": dealt[name], "expected": rounds * prob, "probability": prob}
        if prob < rare_below:
            c["p"] = float(stats.binom.sf(dealt[name] - 1, rounds, prob))
        classes.append(c)
        if rounds * prob < 5:
            pooled.append(name)
            pool_count += dealt[name]
            pool_expected += rounds * prob
        else:
            cells.append((dealt[name], rounds * prob))
    cells.append((pool_count, pool_expected))
    chi, p = stats.chisquare([o for o, _ in cells], [e for _, e in cells])
    flagged = [max(classes, key=lambda c: (c["count"] - c["expected"]) ** 2 / c["expected"])["name"]] \
        if p < p_bias else []
    return {"since": SINCE, "rounds": rounds, "classes": classes, "chi_square": round(float(chi), 4),
            "df": len(cells) - 1, "p_value": float(p), "pooled": pooled, "flagged": flagged}


def shoe(number: int, observed: int, expected: float = 22.0, variance: float = 20.5,
         p_suspect: float = 0.001) -> dict[str, Any]:
    z = (observed - expected) / math.sqrt(variance)
    p = float(stats.norm.sf(z))
    return {"shoe": number, "rounds": [1 + 80 * (number - 1), 80 * number], "dealt": 416, "public": 398,
            "links": 2300, "pairs": 2300, "observed": observed, "expected": expected, "variance": variance,
            "z": round(z, 4), "p_value": p, "tested": True, "suspect": p < p_suspect}


def shuffle(kept: tuple[int, ...] = (20, 25, 61)) -> dict[str, Any]:
    """The shuffle monitor after a shoe whose shuffle kept 61 pairs together (22 expected)."""
    shoes = [shoe(i + 1, k) for i, k in enumerate(kept)]
    observed, expected, variance = sum(kept), 22.0 * len(kept), 20.5 * len(kept)
    p = float(stats.norm.sf((observed - expected) / math.sqrt(variance)))
    return {"window": 3, "p_suspect": 0.001, "min_expected_shoe": 20.0, "min_expected_run": 1.0,
            "run": {"since": SINCE, "shoes": len(kept), "observed": observed, "expected": expected,
                    "variance": variance, "p_value": p, "tested": True, "suspect": p < 0.001},
            "shoes": shoes}


def integrity(table: str, outcomes: dict[str, dict] | None = None, shuffle_figures: Any = "default") -> dict[str, Any]:
    body = {"table": table, "ts": SINCE + 3600, "p_bias": 0.001, "min_rounds": 500, "rare_below": 0.01,
            "outcomes": {"player_dealer_hand": wager()} if outcomes is None else outcomes,
            "shuffle": shuffle() if shuffle_figures == "default" else shuffle_figures}
    validate("integrity", body)
    return body
