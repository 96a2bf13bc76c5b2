"""Deck specifications: what a complete shoe of each game holds.

A spec is a multiset of card faces. The controller checks a new deck card by
card against it, every shuffle's count against its size, and every card read
against what is left of it (see :mod:`games.ledger`). One spec per game of
GAMES.md lives here so that the sizes are tested in one place.
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


# One spec per game of GAMES.md, at the decks the sheets name. Games whose
# sheets allow a range take the number of decks from the table's config.
SPECS: dict[str, DeckSpec] = {
    "baccarat": standard(8),                     # Commission-Free Baccarat, rule 2
    "three_card_poker": standard(1),             # 1-8 decks, "Number of Decks"
    "joker_seven": standard(1, jokers=2),        # joker-seven.txt
    "betwin": DeckSpec("6x44 betwin", betwin_deck(), 6),   # betwin.txt 1.1
    "seven_card_thrill": standard(1, jokers=1),
    "no_bust_blackjack": standard(6, jokers=1),  # N x (52 + jokers), configurable
    "hot_action_blackjack": standard(8, jokers=4),  # 8 x 56
    "double_hand_poker": standard(1, jokers=1),
    "panguingue": DeckSpec("8x40 panguingue", standard_deck(without=("8", "9", "10")), 8),
    "draw_poker": standard(1, jokers=1),
    "mexican_poker": DeckSpec("41 mexican", standard_deck(jokers=1, without=("8", "9", "10")), 1),
    "holdem": standard(1),
    "seven_card_stud": standard(1),
}
