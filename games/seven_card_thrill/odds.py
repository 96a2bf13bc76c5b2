"""7 Card Thrill's odds: the best-five class of a seven-card hand from 53 cards, the side bets
that pay on it alone, and the poker bet against the dealer -- by seeded simulation, labelled so,
each with its 95 % interval. (Counting the classes exactly, with a joker that may be an ace or
complete a straight or flush, is not done yet: see the issue note.)"""

from __future__ import annotations

import math
import random
from collections import Counter

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card
from games.odds import GameOdds, OutcomeOdds, WagerOdds
from games.seven_card_thrill.rules import Paytable, settle_seat

ROUNDS = 20_000
WAGERS = ("poker", "kings_or_better", "trips_or_better", "full_house_or_better", "special")


def odds(paytable: str | None = None, decks: int | None = None, rounds: int = ROUNDS, seed: int = 1) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: 7 Card Thrill has the sheet's pays; name 'sheet' or leave it out")
    if decks not in (None, 1):
        raise ValueError("--decks: 7 Card Thrill is one deck of 52 and a joker")
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER]
    rng = random.Random(seed)
    table = Paytable()
    tally: dict[str, Counter] = {w: Counter() for w in WAGERS}
    for _ in range(rounds):
        fourteen = rng.sample(deck, 14)
        for result in settle_seat(fourteen[:7], fourteen[7:], table):
            net = result.net
            tally[result.wager][(result.outcome, str(result.pays), net)] += 1
    wagers = []
    for name in WAGERS:
        outcomes = tuple(OutcomeOdds(f"{o} {p}" if o == "win" else o, n / rounds, net)
                         for (o, p, net), n in sorted(tally[name].items(), key=lambda kv: -kv[0][2]))
        mean = sum(o.probability * o.net for o in outcomes)
        var = sum(o.probability * o.net ** 2 for o in outcomes) - mean ** 2
        half = 1.96 * math.sqrt(max(var, 0.0) / rounds)
        wagers.append(WagerOdds(name, outcomes, method="simulation", interval=(mean - half, mean + half),
                                note=f"{rounds:,} seeded hands against a dealer's hand"))
    return GameOdds("seven_card_thrill", "sheet", 1, tuple(wagers),
                    notes=("simulated: best five of seven from 52 and a joker (an ace, or completing a "
                           "straight or flush); the special bet's rare hands need far more hands than this",))
