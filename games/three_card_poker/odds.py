"""Three Card Poker's odds: the bonus exact for any number of decks; ante and play exact for one
deck, with the player playing Q-6-4 or better (the well-known strategy; the sheet leaves the
choice to the player), and for more decks a seeded simulation, labelled so, with its 95 % interval.

One deck, exactly: for each of the 22,100 player hands, the player-dealer's 18,424 possible hands
are counted by strength without enumerating them: the counts among all 22,100 hands, less those
holding one of the player's cards, plus those holding two (inclusion-exclusion), each a binary
search in a sorted list.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from fractions import Fraction
from functools import cache
from math import comb

from games.cards import STANDARD_RANKS, SUITS, Card
from games.odds import GameOdds, OutcomeOdds, WagerOdds
from games.three_card_poker.hands import QUEEN_HIGH, VALUE, key, name
from games.three_card_poker.rules import BONUS, Paytable

PLAY_FROM = (0, VALUE["Q"], 6, 4)
"""Play with Q-6-4 or better, fold below."""

SIMULATED_ROUNDS = 200_000


def bonus_counts(decks: int) -> dict[str, int]:
    """Three-card hands of ``decks`` standard decks by bonus class (B8), counted by physical card."""
    n = decks
    per_rank = 4 * n
    suited = 4 * n ** 3                        # three given ranks, one suit, any copy of each
    sequences = 12                             # A23 ... QKA
    distinct = comb(13, 3)
    return {
        "royal flush": suited,
        "straight flush": (sequences - 1) * suited,
        "three of a kind": 13 * comb(per_rank, 3),
        "straight": sequences * (per_rank ** 3 - suited),
        "flush": (distinct - sequences) * suited,
        "pair": 13 * comb(per_rank, 2) * 12 * per_rank,
        "high card": (distinct - sequences) * (per_rank ** 3 - suited),
    }


def _bonus(decks: int, table: Paytable) -> WagerOdds:
    counts = bonus_counts(decks)
    total = comb(52 * decks, 3)
    assert sum(counts.values()) == total
    lose = sum(c for hand, c in counts.items() if hand not in table.bonus)
    outcomes = [OutcomeOdds(f"{hand} pays {table.bonus[hand]}", Fraction(c, total), table.bonus[hand].ratio)
                for hand, c in counts.items() if hand in table.bonus]
    outcomes.append(OutcomeOdds("lose", Fraction(lose, total), Fraction(-1)))
    return WagerOdds("bonus", tuple(outcomes), note="on the player's three cards alone (B3)")


@cache
def _one_deck() -> dict[str, int]:
    """Counts over (player hand, player-dealer hand) pairs of one deck, by ante+play outcome."""
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS]
    keys = {h: key([deck[i] for i in h]) for h in itertools.combinations(range(52), 3)}
    every = sorted(keys.values())
    with_card: dict[int, list] = {c: [] for c in range(52)}
    with_pair: dict[tuple[int, int], list] = {}
    for h, k in keys.items():
        for c in h:
            with_card[c].append(k)
        for p in itertools.combinations(h, 2):
            with_pair.setdefault(p, []).append(k)
    for lst in (*with_card.values(), *with_pair.values()):
        lst.sort()

    def count(h: tuple[int, int, int], x: tuple, strict: bool) -> int:
        """Player-dealer hands disjoint from ``h`` with key < x (strict) or <= x."""
        side = bisect.bisect_left if strict else bisect.bisect_right
        n = side(every, x) - sum(side(with_card[c], x) for c in h)
        n += sum(side(with_pair[p], x) for p in itertools.combinations(h, 2))
        own = keys[h]
        return n - (1 if (own < x if strict else own <= x) else 0)

    tally = {"fold": 0, "not qualified": 0, "win": 0, "tie": 0, "lose": 0}
    disjoint = comb(49, 3)
    for h, pk in keys.items():
        if pk < PLAY_FROM:
            tally["fold"] += disjoint
            continue
        nq = count(h, QUEEN_HIGH, True)
        below = count(h, pk, True)
        at_or_below = count(h, pk, False)
        tally["not qualified"] += nq
        tally["win"] += below - nq
        tally["tie"] += at_or_below - below
        tally["lose"] += disjoint - at_or_below
    return tally


def _ante_play_exact() -> WagerOdds:
    tally = _one_deck()
    total = sum(tally.values())
    nets = {"fold": -1, "not qualified": 1, "win": 2, "tie": 0, "lose": -2}
    names = {"fold": "fold (ante lost)", "not qualified": "dealer does not qualify (ante paid, play returned)",
             "win": "win ante and play", "tie": "push", "lose": "lose ante and play"}
    return WagerOdds("ante and play", tuple(OutcomeOdds(names[o], Fraction(n, total), Fraction(nets[o]))
                                            for o, n in tally.items()),
                     note="per unit of ante; play with Q-6-4 or better")


def _ante_play_simulated(decks: int, rounds: int = SIMULATED_ROUNDS, seed: int = 1) -> WagerOdds:
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] * decks
    rng = random.Random(seed)
    tally = {"fold": 0, "not qualified": 0, "win": 0, "tie": 0, "lose": 0}
    total = 0.0
    sq = 0.0
    nets = {"fold": -1, "not qualified": 1, "win": 2, "tie": 0, "lose": -2}
    for _ in range(rounds):
        six = rng.sample(deck, 6)
        pk, dk = key(six[:3]), key(six[3:])
        if pk < PLAY_FROM:
            o = "fold"
        elif dk < QUEEN_HIGH:
            o = "not qualified"
        else:
            o = "win" if pk > dk else "lose" if pk < dk else "tie"
        tally[o] += 1
        total += nets[o]
        sq += nets[o] ** 2
    mean = total / rounds
    half = 1.96 * math.sqrt(max(sq / rounds - mean * mean, 0.0) / rounds)
    names = {"fold": "fold (ante lost)", "not qualified": "dealer does not qualify (ante paid, play returned)",
             "win": "win ante and play", "tie": "push", "lose": "lose ante and play"}
    return WagerOdds("ante and play", tuple(OutcomeOdds(names[o], n / rounds, float(nets[o]))
                                            for o, n in tally.items()),
                     method="simulation", interval=(mean - half, mean + half),
                     note=f"per unit of ante; play with Q-6-4 or better; {rounds:,} seeded rounds")


def odds(paytable: str | None = None, decks: int | None = None) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: Three Card Poker's bonus table is the sheet's (B8) or a table's own "
                         "[game] bonus; name 'sheet' or leave it out")
    n = 1 if decks is None else decks
    if not 1 <= n <= 8:
        raise ValueError(f"--decks: one to eight decks (Type of card deck used, 3), not {n}")
    table = Paytable(dict(BONUS))
    ante = _ante_play_exact() if n == 1 else _ante_play_simulated(n)
    return GameOdds("three_card_poker", "sheet (B8)", n, (ante, _bonus(n, table)),
                    notes=("bonus exact for any decks; ante and play exact for one deck, simulated for more",))


def hand_name(cards: list[Card]) -> str:
    return name(key(cards))
