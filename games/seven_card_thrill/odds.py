"""7 Card Thrill's odds, every one exact. The best-five class of a seven-card hand from 53 cards is
counted by pattern (games.seven_card_thrill.classes), and so are the wagers that pay on a hand
alone: pair of kings or better, 3 of a kind or better, full house or better and the special bet.
The poker bet against the dealer's hand is counted over every deal of both hands
(games.seven_card_thrill.showdown): the ties, the half-paid wins, and as many wins as losses."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb
from typing import Any

from games.cards import STANDARD_RANKS, card
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds
from games.poker.hands import NAME
from games.seven_card_thrill.classes import COUNTS
from games.seven_card_thrill.rules import Paytable, hand
from games.seven_card_thrill.showdown import SHEET, Showdown

WAGERS = ("poker", "kings_or_better", "trips_or_better", "full_house_or_better", "special")
HANDS = comb(53, 7)
ORDER = ("high card", *(f"pair of {r}" for r in STANDARD_RANKS), "two pair", "three of a kind", "straight",
         "flush", "full house", "four of a kind", "straight flush", "royal flush", "five aces")
TRIPS_UP = ORDER[ORDER.index("three of a kind"):]
BOAT_UP = ORDER[ORDER.index("full house"):]


def classes() -> WagerOdds:
    """Each class's exact probability (not a wager: what the side bets stand on)."""
    return WagerOdds("best five of seven (the hand's class)",
                     tuple(OutcomeOdds(name, Fraction(COUNTS.get(name, 0), HANDS), Fraction(0)) for name in ORDER),
                     note="exact: every hand of 7 from 53 counted by pattern")


def poker(table: Paytable, counts: Showdown = SHEET) -> WagerOdds:
    """The poker bet over every deal of the player's seven and the dealer's seven from 53 cards."""
    d = counts.deals
    return WagerOdds("poker", (
        OutcomeOdds(f"win {table.poker}", Fraction(counts.wins - counts.half, d), table.poker.ratio),
        OutcomeOdds(f"win {table.poker_half} (the dealer's K/J high or lower)", Fraction(counts.half, d),
                    table.poker_half.ratio),
        OutcomeOdds("push", Fraction(counts.ties, d), Fraction(0)),
        OutcomeOdds("lose", Fraction(counts.losses, d), Fraction(-1))),
        note=f"the player's seven against the dealer's: all {d:,} deals counted by hand value")


def _on_the_hand(table: Paytable) -> list[WagerOdds]:
    p = {name: Fraction(COUNTS.get(name, 0), HANDS) for name in ORDER}
    kings, better = p["pair of K"], sum((p[n] for n in ("pair of A", *ORDER[ORDER.index("two pair"):])), Fraction(0))
    special = [(n, table.special[n]) for n in ("five aces", "royal flush", "straight flush")]
    return [
        WagerOdds("kings_or_better", (OutcomeOdds(f"win {table.kings_or_better}", better, table.kings_or_better.ratio),
                                      OutcomeOdds(f"win {table.kings_half} (a pair of kings)", kings,
                                                  table.kings_half.ratio),
                                      OutcomeOdds("lose", 1 - better - kings, Fraction(-1)))),
        _at_least("trips_or_better", sum((p[n] for n in TRIPS_UP), Fraction(0)), table.trips_or_better),
        _at_least("full_house_or_better", sum((p[n] for n in BOAT_UP), Fraction(0)), table.full_house_or_better),
        WagerOdds("special", (*(OutcomeOdds(f"{n} {pays}", p[n], pays.ratio) for n, pays in special),
                              OutcomeOdds("lose", 1 - sum((p[n] for n, _ in special), Fraction(0)), Fraction(-1)))),
    ]


def _at_least(name: str, win: Fraction, pays) -> WagerOdds:
    return WagerOdds(name, (OutcomeOdds(f"win {pays}", win, pays.ratio), OutcomeOdds("lose", 1 - win, Fraction(-1))))


def odds(paytable: str | None = None, decks: int | None = None) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: 7 Card Thrill has the sheet's pays; name 'sheet' or leave it out")
    if decks not in (None, 1):
        raise ValueError("--decks: 7 Card Thrill is one deck of 52 and a joker")
    table = Paytable()
    shares = ", ".join(f"{o.name} {float(o.probability):.6f}" for o in classes().outcomes)
    return GameOdds("seven_card_thrill", "sheet", 1, (poker(table), *_on_the_hand(table)),
                    notes=("every figure exact: the poker bet over every deal of both hands, the other "
                           "wagers over every hand", f"best five of seven, exactly: {shares}"))


DEALER_HAND = "dealer_hand"


def outcome_classes(options: object) -> OutcomeClasses:
    """What the table's outcome monitor counts (issue 25): the dealer's best five of seven by
    class, exact (:data:`games.seven_card_thrill.classes.COUNTS`), read from the result's
    ``dealer.hand``. The dealer's seven are shown every round whatever the players did, and the
    dealer's is one hand a round (the seats' hands come from the same 53 cards). Read from the
    dealer's seven cards: a pair is named by its rank, as :data:`ORDER` has it."""
    probabilities = {DEALER_HAND: {name: Fraction(COUNTS[name], HANDS) for name in ORDER if COUNTS.get(name)}}

    def classify(result: Mapping[str, Any]) -> dict[str, str]:
        cards = [card(c) for c in result["dealer"]["cards"]]
        if len(cards) != 7:
            raise ValueError(f"the dealer holds 7 cards, not {len(cards)}")
        best = hand(cards)
        if best.name == "pair":   # the classes split the pairs by rank (kings_or_better pays on them)
            return {DEALER_HAND: f"pair of {NAME[best.key[1]]}"}
        return {DEALER_HAND: best.name}

    return OutcomeClasses(probabilities, classify)
