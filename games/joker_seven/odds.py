"""Joker Seven's odds, exact, for either paytable: every wager by counting seven-card hands
from the 54 of rule 2 (C(54,7) = 177,100,560) by pattern, not one by one.

A hand is j jokers (0-2) and n = 7 - j of the 52 other cards. Colour wagers need only how many
of the n are black; rank wagers only the hand's rank profile (how many ranks appear once, twice,
three or four times), whose count is the number of ways to give those multiplicities to the 13
ranks times the suits each rank's cards can take.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import cache
from math import comb, factorial, prod
from typing import Any

from games.cards import card
from games.joker_seven.paytables import PAYTABLES, Paytable
from games.joker_seven.rules import colour_count
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds
from games.wagers import Pays

HANDS = comb(54, 7)


def _profiles(n: int, largest: int = 4) -> Iterator[tuple[int, ...]]:
    """Multiplicity profiles of n cards over ranks: non-increasing parts of at most 4."""
    if n == 0:
        yield ()
        return
    for part in range(min(n, largest), 0, -1):
        for rest in _profiles(n - part, part):
            yield (part, *rest)


def _ways(profile: tuple[int, ...]) -> int:
    """Hands of 52 cards with this profile: ranks chosen for each multiplicity, suits for each."""
    groups = [profile.count(m) for m in (1, 2, 3, 4)]
    ranks = factorial(13) // (prod(factorial(g) for g in groups) * factorial(13 - len(profile)))
    return ranks * prod(comb(4, m) for m in profile)


@cache
def _rank_hands() -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """(jokers, profile, hands) over all seven-card hands."""
    out = []
    for j in (0, 1, 2):
        for profile in _profiles(7 - j):
            if len(profile) <= 13:
                out.append((j, profile, comb(2, j) * _ways(profile)))
    assert sum(w for *_, w in out) == HANDS
    return tuple(out)


def _p(count: int) -> Fraction:
    return Fraction(count, HANDS)


def _win_lose(name: str, wins: int, pays: Pays, note: str = "") -> WagerOdds:
    p = _p(wins)
    return WagerOdds(name, (OutcomeOdds(f"win {pays}", p, pays.ratio), OutcomeOdds("lose", 1 - p, Fraction(-1))),
                     note=note)


def odds(paytable: str | None = None, decks: int | None = None) -> GameOdds:
    name = paytable or "generic"
    if name not in PAYTABLES:
        raise ValueError(f"--paytable: Joker Seven's paytables are {', '.join(PAYTABLES)}, not {name!r}")
    if decks not in (None, 1):
        raise ValueError("--decks: Joker Seven is played with one deck and two jokers (rule 2)")
    table = PAYTABLES[name]
    wagers = [*_colour_wagers(table), *_rank_wagers(table)]
    return GameOdds("joker_seven", f"{table.name} ({table.source})", 1, tuple(wagers),
                    notes=("exact: every hand of 7 from 54 counted by pattern",
                           "readings where the sheets are unclear: games/joker_seven/paytables.py"))


def _colour_wagers(table: Paytable) -> list[WagerOdds]:
    # exactly k black (the same for red): the rest of the hand is red cards and jokers
    exactly = {k: sum(comb(26, k) * comb(26, 7 - j - k) * comb(2, j) for j in (0, 1, 2) if 7 - j - k >= 0)
               for k in range(8)}
    out = []
    for colour in ("black", "red"):
        out.append(_win_lose(f"{colour}_4_or_more", sum(exactly[k] for k in range(4, 8)), table.four_or_more))
        out += [_win_lose(f"{colour}_{k}", exactly[k], table.exactly[k]) for k in (4, 5, 6, 7)]
    return out


def _rank_wagers(table: Paytable) -> list[WagerOdds]:
    no_pair = two_pairs = prial = 0
    for j, profile, hands in _rank_hands():
        pairs = sum(m // 2 for m in profile) + (1 if table.two_jokers_pair and j == 2 else 0)
        no_pair += hands if pairs == 0 else 0
        two_pairs += hands if pairs >= 2 else 0
        prial += hands if any(m >= 3 for m in profile) else 0
    one = comb(2, 1) * comb(52, 6) + (0 if table.one_joker_loses_on_two else comb(52, 5))
    # a specific rank: at least two of its four among the hand's standard cards
    specific = sum(comb(2, j) * comb(4, m) * comb(48, 7 - j - m) for j in (0, 1, 2) for m in (2, 3, 4)
                   if 7 - j - m >= 0)
    return [
        _win_lose("no_pair", no_pair, table.no_pair),
        _win_lose("two_pairs", two_pairs, table.two_pairs),
        _win_lose("three_of_a_kind", prial, table.three_of_a_kind),
        _win_lose("one_joker", one, table.one_joker),
        _win_lose("two_jokers", comb(52, 5), table.two_jokers),
        _win_lose("pair_<rank>", specific, table.specific_pair, "each of Ace to King alike"),
    ]


def outcome_classes(options: Any) -> OutcomeClasses:
    """Every pattern the layout's seven cards settle wagers by, each a partition of the C(54, 7)
    hands of rule 2, exact:

    - ``black_cards`` and ``red_cards``: how many cards of the colour (0 to 7; a joker has none,
      rule 4), the colour wagers' classes; seven of a colour is the rare one;
    - ``jokers``: none, one or two (the one- and two-joker wagers);
    - ``pairs``: the rank pattern as the rank wagers read it with the table's paytable: ``three
      of a kind`` (any rank three or four times: a prial), else ``two pairs`` (two or more pairs,
      two jokers counting as a pair where the paytable says so), ``one pair``, ``no pair``.
    """
    table = PAYTABLES[options.paytable]
    colour = {str(k): Fraction(sum(comb(26, k) * comb(26, 7 - j - k) * comb(2, j) for j in (0, 1, 2)
                                   if 7 - j - k >= 0), HANDS) for k in range(8)}
    jokers = {str(j): Fraction(comb(2, j) * comb(52, 7 - j), HANDS) for j in (0, 1, 2)}
    pairs = dict.fromkeys(PAIR_CLASSES, 0)
    for j, profile, hands in _rank_hands():
        pairs[_pair_class(profile, j, table.two_jokers_pair)] += hands
    probabilities = {"black_cards": colour, "red_cards": dict(colour), "jokers": jokers,
                     "pairs": {k: _p(n) for k, n in pairs.items()}}

    def classify(result: Mapping[str, Any]) -> dict[str, str]:
        cards = [card(c) for c in result["cards"]]
        if len(cards) != 7:
            raise ValueError(f"a Joker Seven layout has 7 cards (rule 3), not {len(cards)}")
        j = sum(1 for c in cards if c.is_joker)
        ranks = Counter(c.rank for c in cards if not c.is_joker)
        profile = tuple(sorted(ranks.values(), reverse=True))
        return {"black_cards": str(colour_count(cards, "black")), "red_cards": str(colour_count(cards, "red")),
                "jokers": str(j), "pairs": _pair_class(profile, j, table.two_jokers_pair)}

    return OutcomeClasses(probabilities, classify)


PAIR_CLASSES = ("no pair", "one pair", "two pairs", "three of a kind")


def _pair_class(profile: tuple[int, ...], jokers: int, two_jokers_pair: bool) -> str:
    if any(m >= 3 for m in profile):
        return "three of a kind"
    pairs = sum(1 for m in profile if m == 2) + (1 if two_jokers_pair and jokers == 2 else 0)
    return PAIR_CLASSES[min(pairs, 2)]
