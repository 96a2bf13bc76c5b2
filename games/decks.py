"""Deck specifications: what a complete shoe holds, by composition.

A spec is a multiset of card faces. The controller checks a new deck card by
card against it, every shuffle's count against its size, and every card read
against what is left of it (see :mod:`games.ledger`). This module knows
compositions (standard decks with jokers, stripped decks, Bet'Win's 44),
not games: each game's package says which composition its rules call for
(``games.<game>`` ``deck``), from the number of decks its config sets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games.cards import BETWIN_RANKS, JOKER, STANDARD_RANKS, SUITS, Card


@dataclass(frozen=True)
class DeckSpec:
    """A named multiset of cards: ``decks`` copies of one deck."""

    name: str
    one_deck: tuple[Card, ...]
    decks: int = 1
    counts: Counter = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.decks < 1:
            raise ValueError(f"deck spec {self.name!r}: decks must be at least 1, not {self.decks}")
        base = Counter(self.one_deck)
        object.__setattr__(self, "counts", Counter({c: n * self.decks for c, n in base.items()}))

    @property
    def size(self) -> int:
        return len(self.one_deck) * self.decks

    def copies(self, card: Card) -> int:
        return self.counts.get(card, 0)

    def all_cards(self) -> list[Card]:
        """Every physical card of the spec in deck order: what new boxes hold."""
        return list(self.one_deck) * self.decks

    def times(self, decks: int) -> DeckSpec:
        return DeckSpec(self.name, self.one_deck, decks)


NO_CARDS = DeckSpec("no cards", ())
"""The spec of a game played without cards (Pai Gow Tiles): nothing to check, nothing to shuffle,
and any card read is out of place (games.round.no_deck)."""


def standard_deck(jokers: int = 0, without: tuple[str, ...] = ()) -> tuple[Card, ...]:
    """52 cards in suit-rank order, less ``without`` ranks, plus ``jokers``."""
    body = [Card(r, s) for s in SUITS for r in STANDARD_RANKS if r not in without]
    return tuple(body + [JOKER] * jokers)


def betwin_deck() -> tuple[Card, ...]:
    """betwin.txt 1.1: per suit 1-5 and five faces, plus four jokers: 44 cards."""
    return tuple([Card(r, s) for s in SUITS for r in BETWIN_RANKS] + [JOKER] * 4)


def standard(decks: int = 1, jokers: int = 0) -> DeckSpec:
    name = f"{decks}x52" + (f"+{jokers}JK" if jokers else "")
    return DeckSpec(name, standard_deck(jokers), decks)


def stripped(without: tuple[str, ...], *, jokers: int = 0, decks: int = 1, name: str = "") -> DeckSpec:
    """Standard decks less some ranks (Panguingue's 40 without 8, 9, 10; Mexican Stud's 41)."""
    one = standard_deck(jokers, without)
    return DeckSpec(name or f"{decks}x{len(one)} without {','.join(without)}", one, decks)


def betwin(decks: int = 6) -> DeckSpec:
    """betwin.txt 1.1: six decks of 44 unless a table says otherwise."""
    return DeckSpec(f"{decks}x44 betwin", betwin_deck(), decks)
