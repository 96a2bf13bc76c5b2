"""Commission-Free Baccarat's odds, exact: every deal of the shoe by card points, weighted by
how many ordered card sequences give it.

A card's only property that matters is its point (rule 4: A=1, 2-9 face, 10 and faces 0), so a
shoe of N decks is 16N zeros and 4N of each of 1..9. The deal is player, banker, player, banker
(rule 11), then the third cards by rules 13-18; the count of sequences for a deal of k cards is
the product of the remaining counts, and its probability that count over the shoe's k-card
falling factorial. Summing exact integers per deal length keeps every figure a Fraction.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from games.baccarat.rules import (
    BANKER_ODDS,
    BANKER_SIX_ODDS,
    PLAYER_ODDS,
    TIE_ODDS,
    banker_draws,
    player_draws,
    point,
)
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds

OUTCOMES = ("player", "banker", "banker_six", "tie")


def _deals(counts: list[int]) -> Iterator[tuple[str, int, int]]:
    """(outcome, sequences, cards dealt) for every deal by points, from ``counts`` (mutated, restored)."""
    def take(p: int) -> int:
        n = counts[p]
        counts[p] -= 1
        return n

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            if not counts[b1]:
                continue
            w2 = w1 * take(b1)
            for p2 in range(10):
                if not counts[p2]:
                    continue
                w3 = w2 * take(p2)
                for b2 in range(10):
                    if not counts[b2]:
                        continue
                    w4 = w3 * take(b2)
                    yield from _draws(counts, (p1 + p2) % 10, (b1 + b2) % 10, w4)
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1


def _draws(counts: list[int], pt: int, bt: int, w: int) -> Iterator[tuple[str, int, int]]:
    if pt >= 8 or bt >= 8:  # rule 18: a natural; both stand
        yield _decide(pt, bt), w, 4
        return
    if not player_draws(pt):  # rule 13a: player stands on 6-7; banker by rule 15 (player_third None)
        if banker_draws(bt, None):
            for b3 in range(10):
                if counts[b3]:
                    yield _decide(pt, (bt + b3) % 10), w * counts[b3], 5
        else:
            yield _decide(pt, bt), w, 4
        return
    for p3 in range(10):
        if not counts[p3]:
            continue
        wp = w * counts[p3]
        counts[p3] -= 1
        npt = (pt + p3) % 10
        if banker_draws(bt, p3):  # rule 16's chart
            for b3 in range(10):
                if counts[b3]:
                    yield _decide(npt, (bt + b3) % 10), wp * counts[b3], 6
        else:
            yield _decide(npt, bt), wp, 5
        counts[p3] += 1


def _decide(pt: int, bt: int) -> str:
    if pt > bt:
        return "player"
    if bt > pt:
        return "banker_six" if bt == 6 else "banker"
    return "tie"


def outcome_probabilities(decks: int = 8) -> dict[str, Fraction]:
    """P(player), P(banker with a total other than 6), P(banker with 6), P(tie), exactly."""
    if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= 8:
        raise ValueError(f"decks: Commission-Free Baccarat is dealt from 1 to 8 decks (rule 2 says 8), not {decks}")
    return probabilities_of((16 * decks,) + (4 * decks,) * 9)


@cache
def probabilities_of(points: tuple[int, ...]) -> dict[str, Fraction]:
    """The outcomes' probabilities for a shoe holding ``points[p]`` cards of point ``p``."""
    counts = list(points)
    size = sum(points)
    by_len: dict[int, dict[str, int]] = {k: dict.fromkeys(OUTCOMES, 0) for k in (4, 5, 6)}
    for outcome, ways, dealt in _deals(counts):
        by_len[dealt][outcome] += ways
    falling = {k: _falling(size, k) for k in (4, 5, 6)}
    return {o: sum((Fraction(by_len[k][o], falling[k]) for k in by_len), Fraction(0)) for o in OUTCOMES}


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def odds(decks: int = 8) -> GameOdds:
    """Every wager of rule 8 with rule 19's outcomes."""
    p = outcome_probabilities(decks)
    pay = lambda odds: Fraction(*odds)  # noqa: E731
    banker_win = p["banker"] + p["banker_six"]
    wagers = (
        WagerOdds("player", (OutcomeOdds("win 1 to 1", p["player"], pay(PLAYER_ODDS)),
                             OutcomeOdds("lose", banker_win, Fraction(-1)),
                             OutcomeOdds("push (tie)", p["tie"], Fraction(0)))),
        WagerOdds("banker", (OutcomeOdds("win 1 to 1", p["banker"], pay(BANKER_ODDS)),
                             OutcomeOdds("win on 6, 1 to 2", p["banker_six"], pay(BANKER_SIX_ODDS)),
                             OutcomeOdds("lose", p["player"], Fraction(-1)),
                             OutcomeOdds("push (tie)", p["tie"], Fraction(0)))),
        WagerOdds("tie", (OutcomeOdds("win 8 to 1", p["tie"], pay(TIE_ODDS)),
                          OutcomeOdds("lose", p["player"] + banker_win, Fraction(-1)))),
    )
    return GameOdds("baccarat", "rule 8 (commission-free)", decks, wagers,
                    notes=("exact: every deal of the shoe by card points (rules 4, 11, 13-19)",))


WINNER = "winner"
NATURALS = "naturals"
NATURAL_CLASSES = ("none", "player", "banker", "both")


@cache
def natural_probabilities(points: tuple[int, ...]) -> dict[str, Fraction]:
    """Which hands are naturals (rule 18: 8 or 9 on the first two cards), exactly, for a shoe
    holding ``points[p]`` cards of point ``p``: the four first cards by points (P, B, P, B, rule 11),
    each sequence weighted by the copies left."""
    counts = list(points)
    ways = dict.fromkeys(NATURAL_CLASSES, 0)
    for p1 in range(10):
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in range(10):
            w2 = w1 * counts[b1]
            if not w2:
                continue
            counts[b1] -= 1
            for p2 in range(10):
                w3 = w2 * counts[p2]
                if not w3:
                    continue
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if w4:
                        player, banker = (p1 + p2) % 10 >= 8, (b1 + b2) % 10 >= 8
                        ways[("none", "banker", "player", "both")[2 * player + banker]] += w4
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    total = _falling(sum(points), 4)
    return {k: Fraction(n, total) for k, n in ways.items()}


def outcome_classes(options: Any) -> OutcomeClasses:
    """The round's winner (player, banker with a total other than 6, banker with 6, tie: rule 19
    and 8b) and which hands were naturals (rule 18), exact for the table's shoe
    (:func:`probabilities_of`, :func:`natural_probabilities`). The shoe is dealt without
    replacement over many rounds, so consecutive rounds are not quite independent; the figures
    are those of a round from a full shoe, which by exchangeability is every round's."""
    spec = options.spec
    points = [0] * 10
    for c in spec.all_cards():
        points[point(c)] += 1
    shoe = tuple(points)
    winner = probabilities_of(shoe)

    def classify(result: Mapping[str, Any]) -> dict[str, str]:
        won = str(result["winner"])
        won = "banker_six" if won == "banker" and result.get("banker_six") else won
        natural = ("none", "banker", "player", "both")[2 * bool(result["player"]["natural"])
                                                       + bool(result["banker"]["natural"])]
        return {WINNER: won, NATURALS: natural}

    return OutcomeClasses({WINNER: winner, NATURALS: natural_probabilities(shoe)}, classify)
