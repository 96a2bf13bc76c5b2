"""High poker hands, parameterised by a game's rules: one evaluator for every game that ranks
five cards (7 Card Thrill; the poker-room games of the California sheet build on it).

:class:`HighRules` says what differs between games:
- ``joker``: ``"none"``, or ``"bug"`` -- the joker counts as an ace, or completes a straight, a
  flush, a straight flush or a royal flush, and nothing else (7 Card Thrill; Draw Poker's bug);
- ``five_aces``: five aces (four and the joker as an ace) is the best hand;
- ``wheel``: where A-2-3-4-5 ranks among straights: ``"lowest"`` (standard) or
  ``"second_highest"`` (7 Card Thrill: "A hand of Ace, 2, 3, 4 and 5, is the second highest
  straight").

:func:`best` ranks the best five of any five or more cards directly from rank and suit counts
(no 21 subsets); a joker is tried as each card it may stand for, and kept only where the rules
let it. :func:`short` ranks a hand of fewer than five cards on the same scale (Double-Hand
Poker's two-card hand). A :class:`Hand` compares by its key: category first, then the ranks
that break ties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card

VALUE = {r: i for i, r in enumerate(STANDARD_RANKS[1:], start=2)} | {"A": 14}
NAME = {v: r for r, v in VALUE.items()}

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_ACES = range(10)
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush", "five aces")
WHEEL = (14, 5, 4, 3, 2)


@dataclass(frozen=True)
class HighRules:
    joker: Literal["none", "bug"] = "none"
    five_aces: bool = True
    wheel: Literal["lowest", "second_highest"] = "lowest"


STANDARD = HighRules()
THRILL = HighRules(joker="bug", five_aces=True, wheel="second_highest")


class PokerHandError(ValueError):
    """Not a hand these rules can rank."""


@dataclass(frozen=True, order=True)
class Hand:
    key: tuple[float, ...]

    @property
    def category(self) -> int:
        return int(self.key[0])

    @property
    def name(self) -> str:
        if self.category == STRAIGHT_FLUSH and self.key[1] == 14:
            return "royal flush"
        return CATEGORIES[self.category]


def best(cards: Sequence[Card], rules: HighRules = STANDARD) -> Hand:
    """The best five of ``cards`` (five or more) under ``rules``."""
    if len(cards) < 5:
        raise PokerHandError(f"a poker hand needs five cards, not {len(cards)}")
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers and rules.joker == "none":
        raise PokerHandError("these rules have no joker")
    if jokers > 1:
        raise PokerHandError(f"one joker at most, not {jokers}")
    plain = [(VALUE[c.rank], c.suit) for c in cards if not c.is_joker]
    if not jokers:
        return Hand(_key(plain, rules))
    options = [_key(plain, rules)] if len(plain) >= 5 else []
    for suit in SUITS:  # the joker as an ace: any hand it makes counts
        options.append(_key([*plain, (14, suit)], rules))
    held = set(plain)
    suited = Counter(s for _, s in plain)
    # A suit matters only where the joker can complete a flush (four of it held); elsewhere one
    # suit stands for all (a straight is the same in any suit).
    suits = [s for s in SUITS if suited[s] >= 4] + [next(s for s in SUITS if suited[s] < 4)]
    for value in range(2, 14):  # the joker as another card: only when it completes a straight or flush
        for suit in suits:
            if (value, suit) in held:
                continue
            k = _key([*plain, (value, suit)], rules)
            if k[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
                options.append(k)
    return Hand(max(options))


def short(cards: Sequence[Card], rules: HighRules = STANDARD) -> Hand:
    """A hand of one to four cards, on the same scale as :func:`best`, so that the two compare
    (Double-Hand Poker's two-card hand against its five-card hand and against another two-card hand).

    A straight or a flush takes five cards, so a short hand is ranked by its groups alone: four or
    three of a kind, two pair, a pair, high cards; its key holds only the cards it has, so with the
    same group a five-card hand, whose key goes on with its kickers, ranks higher (A-K-Q-J-9 above
    A-K). Under ``"bug"`` rules the joker can only be an ace here: there is no straight or flush
    for it to complete.
    """
    if not 1 <= len(cards) <= 4:
        raise PokerHandError(f"a short hand is one to four cards, not {len(cards)}")
    jokers = sum(1 for c in cards if c.is_joker)
    if jokers and rules.joker == "none":
        raise PokerHandError("these rules have no joker")
    if jokers > 1:
        raise PokerHandError(f"one joker at most, not {jokers}")
    counts = Counter(14 if c.is_joker else VALUE[c.rank] for c in cards)
    groups = sorted(((n, v) for v, n in counts.items()), reverse=True)
    singles = sorted((v for v, n in counts.items() if n == 1), reverse=True)
    most, top = groups[0]
    if most == 4:
        return Hand((QUADS, top))
    if most == 3:
        return Hand((TRIPS, top, *singles))
    pairs = [v for n, v in groups if n == 2]
    if len(pairs) == 2:
        return Hand((TWO_PAIR, *pairs))
    if pairs:
        return Hand((PAIR, top, *singles))
    return Hand((HIGH, *singles))


def _straight_high(values: set[int], rules: HighRules) -> float | None:
    for high in range(14, 5, -1):
        if all(v in values for v in range(high - 4, high + 1)):
            if rules.wheel == "second_highest" and high < 14 and all(v in values for v in WHEEL):
                return 13.5  # A-2-3-4-5 above every straight but the ace-high one
            return float(high)
    if all(v in values for v in WHEEL):
        return 13.5 if rules.wheel == "second_highest" else 5.0
    return None


def _key(cards: list[tuple[int, str | None]], rules: HighRules) -> tuple[float, ...]:
    counts = Counter(v for v, _ in cards)
    if rules.five_aces and counts[14] >= 5:
        return (FIVE_ACES, 14)
    by_suit: dict[str | None, set[int]] = {}
    for v, s in cards:
        by_suit.setdefault(s, set()).add(v)
    flushes = [vs for vs in by_suit.values() if len(vs) >= 5]
    sf = [h for vs in flushes if (h := _straight_high(vs, rules)) is not None]
    if sf:
        return (STRAIGHT_FLUSH, max(sf))
    groups = sorted(((n, v) for v, n in counts.items()), reverse=True)
    if groups[0][0] >= 4:
        kicker = max(v for v in counts if v != groups[0][1])
        return (QUADS, groups[0][1], kicker)
    trips = [v for n, v in groups if n == 3]
    pairs = [v for n, v in groups if n == 2]
    if trips and (len(trips) > 1 or pairs):
        top = trips[0]
        rest = max([*trips[1:], *pairs])
        return (FULL_HOUSE, top, rest)
    if flushes:
        return (FLUSH, *sorted(max(flushes, key=lambda vs: sorted(vs, reverse=True)[:5]), reverse=True)[:5])
    high = _straight_high(set(counts), rules)
    if high is not None:
        return (STRAIGHT, high)
    singles = sorted((v for v, n in counts.items() if n == 1), reverse=True)
    if trips:
        return (TRIPS, trips[0], *singles[:2])
    if len(pairs) >= 2:
        top, second = pairs[0], pairs[1]
        kicker = max(v for v in counts if v not in (top, second))
        return (TWO_PAIR, top, second, kicker)
    if pairs:
        return (PAIR, pairs[0], *singles[:3])
    return (HIGH, *singles[:5])




__all__ = ["CATEGORIES", "JOKER", "STANDARD", "THRILL", "Hand", "HighRules", "PokerHandError", "best", "short"]
