"""Double-Hand Poker's odds: a seat's wager against the designated player, by a seeded simulation
(labelled so, with its 95 % interval).

The house does not play (P13): the figure is the seat's edge against the designated player, whose
advantage is the copies (reading 4, ``ties = "designated_player"``). Both hands are set the
controller's house way (games.double_hand.rules.house_way): the players' own settings are theirs
to choose, so no exact figure exists for "the game"; this is the figure for two house-way players.

Each sample is two hands of seven from one shuffled deck of 53 (the other five hands and the four
cards left do not change the two compared); both orders of the pair are counted (either hand may be
the designated player's), which halves the variance and, with ``ties = "push"``, makes the game
exactly even, as it is by symmetry.

Why simulated: each hand is set the house way, a search over its 21 ways to keep two of seven, and
the two hands share one deck; an exact figure would pair every two disjoint sevens of 53 (8 x 10^15
deals) by their settings, and 7 Card Thrill's way of counting by hand value does not carry over to
two hands compared high against high and low against low. The default reading (copies to the
designated player) is simulated offline, 200,000 deals to a 95 % interval under 0.1 percentage
point (tools/odds/simulate_bets.py), and printed from :data:`DATA` with its seed and run time;
``push`` is simulated at the command (its expected value is 0 by symmetry whatever the deals).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card
from games.double_hand import rules
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds, dice_totals, from_shipped, shipped

SAMPLES = 2_000
"""Deals simulated live (each counted in both orders): a few seconds in pure Python."""
DATA = Path(__file__).resolve().parent / "data" / "bet_simulation.json"
"""200,000 seeded deals of :func:`simulate` (ties to the designated player), run offline by
tools/odds/simulate_bets.py: a 95 % interval under 0.1 percentage point wide."""


NET = {"win": 1.0, "push": 0.0, "lose": -1.0}
NOTES = ("the seat's edge against the designated player, not the house's: the house does not play and collects a fee "
         "per betting square (Palace Card Club: $1 on $10-$100, $2 on $101-$200, the player/dealer $2)",)


def simulate(samples: int, seed: int, ties: str) -> tuple[Counter, float, float]:
    """``samples`` seeded deals of two hands of seven from one deck of 53, both set the house way,
    each counted in both orders: the outcomes (2 x samples), and the sum and the sum of squares of
    each deal's mean net over its two orders (the deals are independent, the orders not)."""
    poker = rules.rules_for("lowest")
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER]
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    total = squares = 0.0
    for _ in range(samples):
        fourteen = rng.sample(deck, 2 * rules.CARDS)
        a = rules.house_way(fourteen[:rules.CARDS], poker)
        b = rules.house_way(fourteen[rules.CARDS:], poker)
        both = [rules.settle(player, designated, ties)[2].outcome for player, designated in ((a, b), (b, a))]
        tally.update(both)
        x = sum(NET[o] for o in both) / 2
        total += x
        squares += x * x
    return tally, total, squares


def odds(paytable: str | None = None, decks: int | None = None, samples: int = SAMPLES, seed: int = 1) -> GameOdds:
    """``paytable`` names the ties reading (``designated_player``, the default, or ``push``): the
    game pays even money and has no other table."""
    ties = paytable or "designated_player"
    if ties not in rules.TIES:
        raise ValueError(f"--paytable: Double-Hand Poker pays even money; name the ties reading instead: "
                         f"{', '.join(rules.TIES)} (not {paytable!r})")
    if decks not in (None, 1):
        raise ValueError("--decks: Double-Hand Poker is one deck of 52 and a joker (D)")
    data = shipped(DATA) if (samples, seed) == (SAMPLES, 1) else None
    if data is not None and data["ties"] == ties:
        n = 2 * data["rounds"]
        outcomes = tuple(OutcomeOdds(name if name != "win" else "win 1 to 1", data["counts"].get(name, 0) / n, NET[name])
                         for name in ("win", "push", "lose"))
        wager = from_shipped(rules.WAGER, data, outcomes, "two hands of seven from one deck of 53 a deal, both set "
                             "the house way, each deal counted both ways", unit="deals")
        return GameOdds("double_hand", f"ties: {ties}", 1, (wager,), notes=NOTES)
    tally, total, squares = simulate(samples, seed, ties)
    n = 2 * samples
    outcomes = tuple(OutcomeOdds(name if name != "win" else "win 1 to 1", tally[name] / n, NET[name])
                     for name in ("win", "push", "lose"))
    mean = total / samples
    var = max(squares / samples - mean ** 2, 0.0) * samples / max(samples - 1, 1)
    half = 1.96 * math.sqrt(var / samples)
    wager = WagerOdds(rules.WAGER, outcomes, method="simulation", interval=(mean - half, mean + half),
                      note=f"{samples:,} seeded deals, each counted both ways; both hands set the house way")
    return GameOdds("double_hand", f"ties: {ties}", 1, (wager,), notes=NOTES)


def outcome_classes(options: object) -> OutcomeClasses:
    """What the table's outcome monitor counts (issue 25): the total of the round's throw of
    three dice (rules.DICE), exact (games.odds.dice_totals)."""
    return dice_totals(rules.DICE)
