"""High poker hands, parameterised by a game's rules: one evaluator for every game that ranks
five cards (7 Card Thrill, Double-Hand Poker, and the poker-room games of the California sheet:
Draw Poker, Mexican Stud, the Hold'em family and the Stud family).

:class:`HighRules` says what differs between games:
- ``joker``: ``"none"``; ``"bug"`` -- the joker counts as an ace, or completes a straight, a
  flush, a straight flush or a royal flush, and nothing else (7 Card Thrill; Double-Hand Poker;
  california-card-room-games.txt, Draw Poker & Low-Ball rule 4 and "Basics of Draw Poker": "the
  Joker can only be used as an 'Ace' or to help you complete a flush or a straight in your hand.
  There is no double Ace Flush"); or ``"wild"`` -- it stands for any card of the deck (Mexican
  Poker, "Stud-Loco Rules": "wild in all cases"), see :mod:`games.poker.mexican`;
- ``five_aces``: five of a kind (four and the joker) is the best hand; under the bug only five
  aces can be made ("Basics of Draw Poker": "Five Aces (four Aces and Joker) is the best possible
  hand"), under a wild joker five of any rank (Mexican Poker, Hand Ranking 1);
- ``wheel``: where A-2-3-4-5 ranks among straights: ``"lowest"`` (standard) or
  ``"second_highest"`` (7 Card Thrill: "A hand of Ace, 2, 3, 4 and 5, is the second highest
  straight");
- ``flush_over_full_house``: a flush beats a full house (Mexican Poker, Hand Ranking 5 and 6);
- ``removed``: ranks stripped from the deck (Mexican Poker: 8, 9 and 10). A card of such a rank is
  refused, the joker never stands for one, and straights run over the ranks left, so that
  4-5-6-7-J is a straight (Mexican Poker: the "non-contiguous progression" straights).

:func:`best` ranks the best five of any five or more cards directly from rank and suit counts
(no 21 subsets); a joker is tried as each card it may stand for, and kept only where the rules
let it. :func:`short` ranks a hand of fewer than five cards on the same scale (Double-Hand
Poker's two-card hand). A :class:`Hand` compares by its key: its place in the rules' order of
categories first, then the ranks that break ties; suits never break a tie (Stud Poker House
Rules: "Suits do not count in ranking of hands"). Keys compare only between hands ranked under
the same rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card

VALUE = {r: i for i, r in enumerate(STANDARD_RANKS[1:], start=2)} | {"A": 14}
NAME = {v: r for r, v in VALUE.items()}

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_ACES = range(10)
FIVE_OF_A_KIND = FIVE_ACES
"""One category: five of a kind, which the bug can only make of aces."""
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
              "four of a kind", "straight flush", "five aces")
WHEEL = (14, 5, 4, 3, 2)


@dataclass(frozen=True)
class HighRules:
    joker: Literal["none", "bug", "wild"] = "none"
    five_aces: bool = True
    wheel: Literal["lowest", "second_highest"] = "lowest"
    flush_over_full_house: bool = False
    removed: frozenset[str] = frozenset()


STANDARD = HighRules()
THRILL = HighRules(joker="bug", five_aces=True, wheel="second_highest")
DRAW = HighRules(joker="bug", five_aces=True)
"""High Draw Poker (Draw Poker & Low-Ball rules 3, 4 and 6; "Basics of Draw Poker": the ranking
1-10 with five aces first, the joker an ace or completing a straight or flush, no double-ace
flush). The wheel is the lowest straight: the sheet is silent, and "Ace, King, ... 3 and 2 (deuce
is low)" names no other place for it."""


class PokerHandError(ValueError):
    """Not a hand these rules can rank."""


@dataclass(frozen=True, order=True)
class Hand:
    key: tuple[float, ...]
    kind: int | None = field(default=None, compare=False)
    """The category, where the rules order categories otherwise than :data:`CATEGORIES` (Mexican
    Poker's flush above the full house): ``key[0]`` is then the category's place in their order."""

    @property
    def category(self) -> int:
        return int(self.key[0]) if self.kind is None else self.kind

    @property
    def name(self) -> str:
        if self.category == STRAIGHT_FLUSH and self.key[1] == 14:
            return "royal flush"
        if self.category == FIVE_OF_A_KIND and self.key[1] != 14:
            return "five of a kind"
        return CATEGORIES[self.category]


@dataclass(frozen=True)
class _Table:
    """What :func:`best` works out once per rules: the ranks of the deck, the straights best first
    (high card, ranks), and each category's place in the order."""

    values: tuple[int, ...]
    straights: tuple[tuple[float, frozenset[int]], ...]
    place: tuple[int, ...]


@cache
def _table(rules: HighRules) -> _Table:
    unknown = rules.removed - set(VALUE)
    if unknown:
        raise PokerHandError(f"no rank {sorted(unknown)} to remove: ranks are A 2-10 J Q K")
    removed = {VALUE[r] for r in rules.removed}
    values = tuple(v for v in range(2, 15) if v not in removed)
    ladder = (14, *values) if 14 in values else values   # the ace plays low as well as high
    straights: list[tuple[float, frozenset[int]]] = []
    for i in range(len(ladder) - 4):
        run = ladder[i:i + 5]
        high = float(run[-1])
        if run[0] == 14:   # A-2-3-4-5
            high = 13.5 if rules.wheel == "second_highest" else 5.0
        straights.append((high, frozenset(run)))
    straights.sort(key=lambda s: s[0], reverse=True)
    place = list(range(len(CATEGORIES)))
    if rules.flush_over_full_house:
        place[FLUSH], place[FULL_HOUSE] = FULL_HOUSE, FLUSH
    return _Table(values, tuple(straights), tuple(place))


def best(cards: Sequence[Card], rules: HighRules = STANDARD) -> Hand:
    """The best five of ``cards`` (five or more) under ``rules``."""
    if len(cards) < 5:
        raise PokerHandError(f"a poker hand needs five cards, not {len(cards)}")
    table = _table(rules)
    jokers = _check(cards, rules)
    plain = [(VALUE[c.rank], c.suit) for c in cards if not c.is_joker]
    if not jokers:
        return _hand(_key(plain, rules, table), rules, table)
    options = [_key(plain, rules, table)] if len(plain) >= 5 else []
    held = set(plain)
    if rules.joker == "wild":
        # Any card of the deck the hand does not hold (so, as under the bug, no double-ace flush),
        # or the fifth card of a rank held four times: five of a kind.
        for value in table.values:
            for suit in SUITS:
                if (value, suit) not in held:
                    options.append(_key([*plain, (value, suit)], rules, table))
        for value, n in Counter(v for v, _ in plain).items():
            if n == 4:
                options.append(_key([*plain, (value, None)], rules, table))
        return _hand(max(options), rules, table)
    for suit in SUITS:  # the bug as an ace: any hand it makes counts
        options.append(_key([*plain, (14, suit)], rules, table))
    suited = Counter(s for _, s in plain)
    # A suit matters only where the joker can complete a flush (four of it held); elsewhere one
    # suit stands for all (a straight is the same in any suit).
    suits = [s for s in SUITS if suited[s] >= 4] + [next(s for s in SUITS if suited[s] < 4)]
    for value in table.values:  # the bug as another card: only to complete a straight or flush
        if value == 14:
            continue
        for suit in suits:
            if (value, suit) in held:
                continue
            k = _key([*plain, (value, suit)], rules, table)
            if _category(k, table) in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
                options.append(k)
    return _hand(max(options), rules, table)


def short(cards: Sequence[Card], rules: HighRules = STANDARD) -> Hand:
    """A hand of one to four cards, on the same scale as :func:`best`, so that the two compare
    (Double-Hand Poker's two-card hand against its five-card hand and against another two-card hand).

    A straight or a flush takes five cards, so a short hand is ranked by its groups alone: four or
    three of a kind, two pair, a pair, high cards; its key holds only the cards it has, so with the
    same group a five-card hand, whose key goes on with its kickers, ranks higher (A-K-Q-J-9 above
    A-K). Under ``"bug"`` rules the joker can only be an ace here: there is no straight or flush
    for it to complete. A wild joker is not ranked in a short hand yet (Mexican Poker's showing
    hands are the round's to rank).
    """
    if not 1 <= len(cards) <= 4:
        raise PokerHandError(f"a short hand is one to four cards, not {len(cards)}")
    jokers = _check(cards, rules)
    if jokers and rules.joker == "wild":
        raise PokerHandError("a short hand with a wild joker is not ranked")
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


def _check(cards: Sequence[Card], rules: HighRules) -> int:
    """The number of jokers, after refusing what the rules' deck does not hold."""
    jokers = 0
    for c in cards:
        if c.is_joker:
            jokers += 1
        elif c.rank not in VALUE:
            raise PokerHandError(f"{c} is not a card of a poker deck")
        elif c.rank in rules.removed:
            raise PokerHandError(f"{c} is not in this deck: its {', '.join(sorted(rules.removed))} are removed")
    if jokers and rules.joker == "none":
        raise PokerHandError("these rules have no joker")
    if jokers > 1:
        raise PokerHandError(f"one joker at most, not {jokers}")
    return jokers


def _category(key: tuple[float, ...], table: _Table) -> int:
    return table.place.index(int(key[0]))


def _hand(key: tuple[float, ...], rules: HighRules, table: _Table) -> Hand:
    if not rules.flush_over_full_house:
        return Hand(key)
    return Hand(key, _category(key, table))


def _straight_high(values: set[int], table: _Table) -> float | None:
    for high, run in table.straights:
        if run <= values:
            return high
    return None


def _key(cards: list[tuple[int, str | None]], rules: HighRules, table: _Table) -> tuple[float, ...]:
    """The key of the best five of ``cards``; its first item is the category's place in the order."""
    place = table.place
    counts = Counter(v for v, _ in cards)
    if rules.five_aces:
        fives = [v for v, n in counts.items() if n >= 5]
        if fives:
            return (place[FIVE_OF_A_KIND], max(fives))
    by_suit: dict[str | None, set[int]] = {}
    for v, s in cards:
        by_suit.setdefault(s, set()).add(v)
    flushes = [vs for s, vs in by_suit.items() if s is not None and len(vs) >= 5]
    sf = [h for vs in flushes if (h := _straight_high(vs, table)) is not None]
    if sf:
        return (place[STRAIGHT_FLUSH], max(sf))
    groups = sorted(((n, v) for v, n in counts.items()), reverse=True)
    if groups[0][0] >= 4:
        kicker = max((v for v in counts if v != groups[0][1]), default=groups[0][1])
        return (place[QUADS], groups[0][1], kicker)
    flush = (place[FLUSH], *sorted(max(flushes, key=lambda vs: sorted(vs, reverse=True)[:5]),
                                   reverse=True)[:5]) if flushes else None
    if flush and rules.flush_over_full_house:
        return flush
    trips = [v for n, v in groups if n == 3]
    pairs = [v for n, v in groups if n == 2]
    if trips and (len(trips) > 1 or pairs):
        top = trips[0]
        rest = max([*trips[1:], *pairs])
        return (place[FULL_HOUSE], top, rest)
    if flush:
        return flush
    high = _straight_high(set(counts), table)
    if high is not None:
        return (place[STRAIGHT], high)
    singles = sorted((v for v, n in counts.items() if n == 1), reverse=True)
    if trips:
        return (place[TRIPS], trips[0], *singles[:2])
    if len(pairs) >= 2:
        top, second = pairs[0], pairs[1]
        kicker = max(v for v in counts if v not in (top, second))
        return (place[TWO_PAIR], top, second, kicker)
    if pairs:
        return (place[PAIR], pairs[0], *singles[:3])
    return (place[HIGH], *singles[:5])


__all__ = ["CATEGORIES", "DRAW", "FIVE_OF_A_KIND", "JOKER", "STANDARD", "THRILL", "Hand", "HighRules",
           "PokerHandError", "best", "short"]
