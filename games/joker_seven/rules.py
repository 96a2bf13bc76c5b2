"""Joker Seven's wagers, settled from the seven cards (joker-seven.txt rule 14; N.J.A.C.
13:47-20.26(g)). Readings where the sheets are unclear: games.joker_seven.paytables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.cards import Card
from games.joker_seven.paytables import RANKS, Paytable
from games.wagers import WagerResult

CARDS = 7
COLOURS = {"black": ("C", "S"), "red": ("D", "H")}


class JokerSevenCardsError(ValueError):
    """Not seven cards of a Joker Seven deck (rules 2 and 3)."""


def colour_count(cards: Sequence[Card], colour: str) -> int:
    """Cards of ``colour``; a joker is neither red nor black (rule 4; NJ (g)(2))."""
    return sum(1 for c in cards if c.suit in COLOURS[colour])


def jokers(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c.is_joker)


def rank_counts(cards: Sequence[Card]) -> Counter[str]:
    return Counter(c.rank for c in cards if not c.is_joker)


def pairs(cards: Sequence[Card], table: Paytable) -> int:
    """Pairs for the no-pair and two-pairs wagers: four of a kind is two (rule 14), a prial one,
    two jokers one (NJ (g)(1), option ``two_jokers_pair``)."""
    count = sum(n // 2 for n in rank_counts(cards).values())
    return count + (1 if table.two_jokers_pair and jokers(cards) == 2 else 0)


def check(cards: Sequence[Card]) -> None:
    if len(cards) != CARDS:
        raise JokerSevenCardsError(f"Joker Seven settles exactly {CARDS} cards (rule 3), got {len(cards)}")
    bad = [c.code for c in cards if not c.is_joker and c.rank not in RANKS]
    if bad:
        raise JokerSevenCardsError(f"not cards of a Joker Seven deck (rule 2): {' '.join(bad)}")
    if jokers(cards) > 2 or any(n > 1 for c, n in Counter(c for c in cards if not c.is_joker).items()):
        raise JokerSevenCardsError("one deck holds each card once and two jokers (rule 2): "
                                   + " ".join(sorted(c.code for c in cards)))


def settle(cards: Sequence[Card], table: Paytable) -> list[WagerResult]:
    """Every wager on the layout, in the layout's order: colours, no pair, two pairs, three of a
    kind, one joker, two jokers, then each specific pair Ace to King."""
    check(cards)
    out: list[WagerResult] = []
    for colour in ("black", "red"):
        n = colour_count(cards, colour)
        why = f"{n} {colour} card{'s' if n != 1 else ''}"
        out.append(_bet(f"{colour}_4_or_more", n >= 4, table.four_or_more, why + " (4 or more wins)"))
        for k in (4, 5, 6, 7):
            out.append(_bet(f"{colour}_{k}", n == k, table.exactly[k], why + f" (exactly {k} wins)"))
    counts = rank_counts(cards)
    p, j = pairs(cards, table), jokers(cards)
    out.append(_bet("no_pair", p == 0, table.no_pair, "no pair" if p == 0 else _pairs_text(counts, j, table)))
    out.append(_bet("two_pairs", p >= 2, table.two_pairs, _pairs_text(counts, j, table)))
    prials = sorted((r for r, n in counts.items() if n >= 3), key=RANKS.index)
    out.append(_bet("three_of_a_kind", bool(prials), table.three_of_a_kind,
                    f"three or more {', '.join(prials)}" if prials else "no three of a kind"))
    one_ok = j == 1 or (j == 2 and not table.one_joker_loses_on_two)
    one_why = {0: "no joker", 1: "one joker", 2: "two jokers: the one-joker wager loses (NJ (g)(3))"}[j]
    out.append(_bet("one_joker", one_ok, table.one_joker, one_why))
    out.append(_bet("two_jokers", j == 2, table.two_jokers, f"{j} joker{'s' if j != 1 else ''}"))
    for rank in RANKS:
        n = counts.get(rank, 0)
        why = {0: f"no {rank}", 1: f"one {rank}", 2: f"a pair of {rank}",
               3: f"a pair within a prial of {rank} (NJ (g)2vi)", 4: f"four {rank}: a pair (NJ (g)3i)"}[n]
        out.append(_bet(f"pair_{rank}", n >= 2, table.specific_pair, why))
    return out


def _pairs_text(counts: Counter[str], jokers_: int, table: Paytable) -> str:
    parts = [f"{'four' if n == 4 else 'three' if n == 3 else 'two'} {r}" for r, n in
             sorted(counts.items(), key=lambda rn: RANKS.index(rn[0])) if n >= 2]
    if jokers_ == 2 and table.two_jokers_pair:
        parts.append("two jokers (one pair, NJ (g)(1))")
    return ", ".join(parts) if parts else "no pair"


def _bet(name: str, wins: bool, pays, why: str) -> WagerResult:
    return WagerResult(name, "win", pays, why) if wins else WagerResult(name, "lose", None, why)
