"""Bet'Win's rules (betwin.txt): card values, the win zone, and each seat's result.

Readings where the sheet is unclear (each a documented choice; the first two are options):
- Face order (1.1 lists the faces King, Lady, Rider, Jack, Beggar, highest first): numbers 1-5
  rank below every face; ``face_order`` gives the faces lowest first, ``M V C D R`` by default.
- "Identical" dealer cards (3.5): the same rank, suits playing no part in Bet'Win; ``identical =
  "rank_and_suit"`` reads "exactly this same card" as rank and suit instead. Either way only a
  seat holding that card wins.
- The joker's value (3.5): "associated with the dealer's second card": below 1 when that card is
  a number, above the King when it is a face. When the second card is itself the joker, the value
  is taken from the other dealer card (the only card it can be associated with). A joker in a
  seat's hand takes the same value.
- Two dealer jokers: every seat wins (rule 2; 3.5). A seat's joker with one dealer joker: its
  value by the rule above, and the zone compares values as for any card.
- Payout (3.5): 1 to 1 on the initial bet and on the re-bet; nothing pushes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.cards import BETWIN_RANKS, Card
from games.options import OptionError
from games.wagers import Pays, WagerResult

NUMBERS: tuple[str, ...] = ("1", "2", "3", "4", "5")
FACES: tuple[str, ...] = ("M", "V", "C", "D", "R")
FACE_NAMES = {"M": "Beggar", "V": "Jack", "C": "Rider", "D": "Lady", "R": "King"}
LOW_JOKER, HIGH_JOKER = 0, 11
EVEN = Pays(1)


class BetWinCardError(ValueError):
    """A card that is not of a Bet'Win deck (1.1)."""


@dataclass(frozen=True)
class Rules:
    face_order: tuple[str, ...] = FACES
    identical: str = "rank"

    def __post_init__(self) -> None:
        if sorted(self.face_order) != sorted(FACES):
            raise OptionError("face_order", f"must order the five faces {' '.join(FACES)}, "
                                            f"not {' '.join(self.face_order)}")
        if self.identical not in ("rank", "rank_and_suit"):
            raise OptionError("identical", f"must be rank or rank_and_suit, not {self.identical!r}")

    def value(self, card: Card, joker: int) -> int:
        """1-5 for numbers, 6-10 for faces in ``face_order``, ``joker`` for a joker (rule 3.5)."""
        check(card)
        if card.is_joker:
            return joker
        if card.rank in NUMBERS:
            return int(card.rank)
        return 6 + self.face_order.index(card.rank)


def check(card: Card) -> None:
    if not card.is_joker and (card.suit is None or card.rank not in BETWIN_RANKS):
        raise BetWinCardError(f"{card.code} is not a Bet'Win card (1.1: 1-5, M, V, C, D, R of each suit, jokers)")


def joker_value(waiting: Card, adjoining: Card) -> int:
    """Rule 3.5: below 1 when the dealer's second card is a number, above the King when a face;
    the other dealer card decides when the second card is the joker itself."""
    decider = adjoining if not adjoining.is_joker else waiting
    if decider.is_joker:
        return LOW_JOKER  # two jokers: every seat wins anyway
    return LOW_JOKER if decider.rank in NUMBERS else HIGH_JOKER


def zone(waiting: Card, adjoining: Card, rules: Rules = Rules()) -> tuple[int, int]:
    """(lowest, highest) dealer values: a seat wins with lowest <= value < highest (rule 2)."""
    j = joker_value(waiting, adjoining)
    a, b = rules.value(waiting, j), rules.value(adjoining, j)
    return min(a, b), max(a, b)


def zone_text(waiting: Card, adjoining: Card, rules: Rules = Rules()) -> str:
    if waiting.is_joker and adjoining.is_joker:
        return "two jokers: every seat wins (rule 2)"
    if _identical(waiting, adjoining, rules):
        return f"identical dealer cards: only {_same(waiting, rules)} wins (3.5)"
    lo, hi = zone(waiting, adjoining, rules)
    return f"wins from {_name(lo, rules)} up to, not including, {_name(hi, rules)} (rule 2)"


def wins(card: Card, waiting: Card, adjoining: Card, rules: Rules = Rules()) -> tuple[bool, str]:
    """Whether a seat's card wins, and why (rule 2; 3.5)."""
    check(card)
    if waiting.is_joker and adjoining.is_joker:
        return True, "the dealer has two jokers: every seat wins (rule 2)"
    if _identical(waiting, adjoining, rules):
        same = card.rank == waiting.rank and (rules.identical == "rank" or card.suit == waiting.suit)
        return same, (f"{card.code} is {_same(waiting, rules)}" if same else
                      f"identical dealer cards: only {_same(waiting, rules)} wins (3.5)")
    lo, hi = zone(waiting, adjoining, rules)
    v = rules.value(card, joker_value(waiting, adjoining))
    inside = lo <= v < hi
    where = "in" if inside else "outside"
    return inside, f"{card.code} ({_name(v, rules)}) is {where} the zone from {_name(lo, rules)} to below {_name(hi, rules)}"


def settle(seat_cards: Mapping[int, Card], waiting: Card, adjoining: Card,
           rules: Rules = Rules()) -> dict[int, list[WagerResult]]:
    """Each seat's initial bet and re-bet: both win or both lose, at 1 to 1 (3.5)."""
    check(waiting)
    check(adjoining)
    out = {}
    for seat, card in sorted(seat_cards.items()):
        ok, why = wins(card, waiting, adjoining, rules)
        out[seat] = [WagerResult(w, "win", EVEN, why) if ok else WagerResult(w, "lose", None, why)
                     for w in ("bet", "rebet")]
    return out


def _identical(a: Card, b: Card, rules: Rules) -> bool:
    if a.is_joker or b.is_joker:
        return False
    return a.rank == b.rank and (rules.identical == "rank" or a.suit == b.suit)


def _same(card: Card, rules: Rules) -> str:
    return f"a {_rank_name(card.rank)}" if rules.identical == "rank" else card.code


def _rank_name(rank: str) -> str:
    return FACE_NAMES.get(rank, rank)


def _name(value: int, rules: Rules) -> str:
    if value == LOW_JOKER:
        return "the joker (below 1)"
    if value == HIGH_JOKER:
        return "the joker (above the King)"
    return str(value) if value <= 5 else f"the {FACE_NAMES[rules.face_order[value - 6]]}"


