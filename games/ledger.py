"""The shoe ledger: every card read is checked against what the shoe can hold.

After a verified deck and a shuffle, the shoe holds exactly the spec. Each
card the shoe reads is taken from what remains; a card that the spec never
held is *foreign*, one that the spec held but that has already been read as
often as the spec allows is *one copy too many*. Either is an alarm at once
(DESIGN.md, "Deck integrity").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from games.cards import Card
from games.decks import DeckSpec


@dataclass(frozen=True)
class LedgerFault:
    """Why a card cannot be in this shoe."""

    card: Card
    kind: str  # "foreign" | "too_many"
    message: str


@dataclass(frozen=True)
class DeckCheck:
    """The outcome of checking a full card list against a spec."""

    expected: int
    counted: int
    missing: tuple[Card, ...]
    extra: tuple[Card, ...]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra and self.expected == self.counted

    def summary(self) -> str:
        parts = [f"{self.counted} cards counted, {self.expected} expected"]
        if self.missing:
            parts.append("missing " + " ".join(c.code for c in self.missing))
        if self.extra:
            parts.append("extra " + " ".join(c.code for c in self.extra))
        return "; ".join(parts)


def check_deck(spec: DeckSpec, read: list[Card]) -> DeckCheck:
    """Compare a deck check's card list with the spec.

    Missing and extra cards are reported sorted by code, never in the order
    the shuffler read them: that order must not leave the controller.
    """
    got = Counter(read)
    missing = sorted((spec.counts - got).elements(), key=_order)
    extra = sorted((got - spec.counts).elements(), key=_order)
    return DeckCheck(spec.size, len(read), tuple(missing), tuple(extra))


def _order(c: Card) -> tuple[str, str]:
    return (c.suit or "~", c.rank)


class ShoeLedger:
    """What is left of the spec in the current shoe."""

    def __init__(self, spec: DeckSpec) -> None:
        self.spec = spec
        self._left: Counter = Counter()
        self.drawn = 0
        self.refill()

    def refill(self) -> None:
        """A fresh shuffle: the shoe holds the whole spec again."""
        self._left = Counter(self.spec.counts)
        self.drawn = 0

    @property
    def remaining(self) -> int:
        return self.spec.size - self.drawn

    def take(self, card: Card) -> LedgerFault | None:
        """Account for a card read; return the fault if it cannot be here."""
        left = self._left.get(card, 0)
        if left > 0:
            self._left[card] = left - 1
            self.drawn += 1
            return None
        copies = self.spec.copies(card)
        if copies == 0:
            return LedgerFault(card, "foreign", f"{card.code} is not part of a {self.spec.name} shoe")
        return LedgerFault(
            card, "too_many",
            f"{card.code} read once too often: the shoe holds {copies} and all were already dealt",
        )
