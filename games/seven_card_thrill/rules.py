"""7 Card Thrill's wagers (seven-card-thrill.txt), settled on each hand's best five of seven.

- Hands: games.poker.hands with the sheet's joker (an ace, or completing a straight, flush,
  straight flush or royal), five aces the best hand, and A-2-3-4-5 the second-highest straight.
- Poker bet: a hand ranking higher than the dealer's wins even money, but only half when the
  dealer's losing hand is "a King/Jack high card hand or lower" -- read as a high-card hand (no
  pair or better) whose two top cards are K-J or lower (K-J-x, K-10-x, Q-x-x ...); lower loses;
  a tie pushes.
- Pair of kings or better: even money, a pair of kings itself half. 3 of a kind or better: 4 to 1.
  Full house or better: 30 to 1. Special bet: five aces 20,000, royal flush 2,000, straight flush
  300 to 1. These pay "regardless of the outcome of the Poker Bet" (the sheet's asterisk).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games.cards import Card
from games.poker.hands import FULL_HOUSE, HIGH, PAIR, STRAIGHT_FLUSH, THRILL, TRIPS, Hand, best
from games.wagers import Pays, WagerResult

CARDS = 7
KING, JACK = 13, 11


class ThrillHandError(ValueError):
    """Not a 7 Card Thrill hand."""


EVEN, HALF = Pays(1), Pays(1, 2)


@dataclass(frozen=True)
class Paytable:
    """The sheet's pays."""

    poker: Pays = EVEN
    poker_half: Pays = HALF
    kings_or_better: Pays = EVEN
    kings_half: Pays = HALF
    trips_or_better: Pays = field(default_factory=lambda: Pays(4))
    full_house_or_better: Pays = field(default_factory=lambda: Pays(30))
    special: dict[str, Pays] = field(default_factory=lambda: {
        "five aces": Pays(20_000), "royal flush": Pays(2_000), "straight flush": Pays(300)})


def hand(cards: Sequence[Card]) -> Hand:
    if len(cards) != CARDS:
        raise ThrillHandError(f"a 7 Card Thrill hand is {CARDS} cards, not {len(cards)}")
    if sum(c.is_joker for c in cards) > 1:
        raise ThrillHandError("the deck holds one joker (52 and one joker)")
    return best(cards, THRILL)


def king_jack_or_lower(h: Hand) -> bool:
    """The dealer's hand is a high-card hand whose top two cards are K-J or lower."""
    return h.category == HIGH and tuple(h.key[1:3]) <= (KING, JACK)


def settle_seat(player: Sequence[Card], dealer: Sequence[Card], table: Paytable = Paytable()) -> list[WagerResult]:
    mine, theirs = hand(player), hand(dealer)
    out: list[WagerResult] = []
    if mine > theirs:
        if king_jack_or_lower(theirs):
            out.append(WagerResult("poker", "win", table.poker_half,
                                   f"{mine.name} beats the dealer's King/Jack high or lower: half pay"))
        else:
            out.append(WagerResult("poker", "win", table.poker, f"{mine.name} beats the dealer's {theirs.name}"))
    elif mine < theirs:
        out.append(WagerResult("poker", "lose", None, f"the dealer's {theirs.name} beats {mine.name}"))
    else:
        out.append(WagerResult("poker", "push", None, f"both {mine.name}: the hands push"))
    pair_of_kings = mine.category == PAIR and mine.key[1] == KING
    if pair_of_kings:
        out.append(WagerResult("kings_or_better", "win", table.kings_half, "a pair of kings: half pay"))
    elif mine.category > PAIR or (mine.category == PAIR and mine.key[1] > KING):
        out.append(WagerResult("kings_or_better", "win", table.kings_or_better, f"{mine.name}"))
    else:
        out.append(WagerResult("kings_or_better", "lose", None, f"{mine.name}: below a pair of kings"))
    out.append(_at_least("trips_or_better", mine, TRIPS, table.trips_or_better))
    out.append(_at_least("full_house_or_better", mine, FULL_HOUSE, table.full_house_or_better))
    special = table.special.get(mine.name) if mine.category >= STRAIGHT_FLUSH else None
    out.append(WagerResult("special", "win", special, mine.name) if special else
               WagerResult("special", "lose", None, f"{mine.name}: below a straight flush"))
    return out


def _at_least(name: str, h: Hand, category: int, pays: Pays) -> WagerResult:
    if h.category >= category:
        return WagerResult(name, "win", pays, h.name)
    return WagerResult(name, "lose", None, f"{h.name} is not enough")


def settle(hands: Mapping[int, Sequence[Card]], dealer: Sequence[Card], table: Paytable = Paytable()) -> dict:
    d = hand(dealer)
    return {"dealer": {"cards": [c.code for c in dealer], "hand": d.name},
            "seats": {str(seat): {"cards": [c.code for c in cards], "hand": hand(cards).name,
                                  "wagers": [w.to_dict() for w in settle_seat(cards, dealer, table)]}
                      for seat, cards in sorted(hands.items())}}
