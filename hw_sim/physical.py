"""The physical card model: cards are objects that exist in exactly one place.

A simulated read is always a card that physically exists: the shoe can only
report a card it holds, the shuffler can only count what is in it. Cards move
boxes -> shuffler -> shoe -> layout -> discards -> shuffler, and a test that
wants a foreign or missing card changes what is physically on the table.
Each :class:`PhysicalCard` has its own identity (``serial``), so two copies
of the ace of spades from different decks are different objects.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from games.cards import Card
from games.decks import DeckSpec

_serials = itertools.count(1)


@dataclass(eq=False)
class PhysicalCard:
    face: Card
    serial: int = field(default_factory=lambda: next(_serials))

    def __repr__(self) -> str:
        return f"<{self.face.code}#{self.serial}>"


Arrange = Callable[[list[PhysicalCard], random.Random, int], list[PhysicalCard]]
"""How a shuffle orders the stack: (the stack as it went in, the rng, how many of its cards are the
last deal, at its end) -> the new order (hw_sim.shuffles)."""

CUT_CARD = "CUT"
"""The plastic cut card sits in the shoe's stack as this marker, not a card."""


class Table:
    """Every card on the table, by place. Thread-safe: devices and the dealer
    run on their own threads and move cards under one lock."""

    def __init__(self, spec: DeckSpec, seed: int = 0) -> None:
        self.spec = spec
        self.rng = random.Random(seed)
        self.lock = threading.RLock()
        self.boxes: list[PhysicalCard] = [PhysicalCard(c) for c in spec.all_cards()]
        self.hopper: list[PhysicalCard] = []      # shuffler input
        self.shuffled: list[PhysicalCard] = []    # shuffler output, top card first
        self.shoe: list[PhysicalCard | str] = []  # top (next to draw) first; may hold CUT_CARD
        self.layout: list[PhysicalCard] = []
        self.discards: list[PhysicalCard] = []
        self.pocket: list[PhysicalCard] = []      # cards taken off the table (faults)
        self.retired: list[PhysicalCard] = []     # old decks, after a deck change
        self.last_deal = 0
        """How many cards the last deal took out of the shoe: the end of the hopper holds them, in the
        order they were dealt (a stacked shoe's slug is taken from them)."""

    # moves --------------------------------------------------------------
    def load_boxes_into_shuffler(self) -> None:
        with self.lock:
            self.hopper.extend(self.boxes)
            self.boxes.clear()

    def gather_into_shuffler(self) -> None:
        """Layout, discards, what is left in the shoe and the shuffled stack."""
        with self.lock:
            rest = [c for c in self.shoe if isinstance(c, PhysicalCard)]
            dealt = self.layout + self.discards
            if dealt:
                self.last_deal = len(dealt)
            self.hopper.extend(self.shuffled + rest + dealt)
            for pile in (self.shuffled, self.shoe, self.layout, self.discards):
                pile.clear()

    def shuffle_hopper(self, arrange: Arrange | None = None) -> int:
        """The shuffler's work: hopper -> shuffled stack, in a seeded random order (``arrange``:
        a shuffle that goes wrong, hw_sim.shuffles; the default is a fair one)."""
        with self.lock:
            stack = self.hopper + self.shuffled
            self.hopper.clear()
            if arrange is None:
                self.rng.shuffle(stack)
            else:
                stack = arrange(stack, self.rng, min(self.last_deal, len(stack)))
            self.shuffled = stack
            return len(stack)

    def load_shoe(self, cut_from_end: int | None) -> None:
        """Shuffled stack -> shoe, with the cut card ``cut_from_end`` cards from the back
        (None: no cut card, for a game that shuffles for every round)."""
        with self.lock:
            stack: list[PhysicalCard | str] = list(self.shuffled)
            self.shuffled.clear()
            if cut_from_end is not None:
                stack.insert(max(0, len(stack) - cut_from_end), CUT_CARD)
            self.shoe.extend(stack)

    def shuffled_waiting(self) -> bool:
        """The shuffler's output is out and the shoe is empty: a game without a shoe of many
        rounds deals from the stack the shuffler just made, so the dealer puts it in the shoe."""
        with self.lock:
            return bool(self.shuffled) and not any(isinstance(c, PhysicalCard) for c in self.shoe)

    def new_deck(self) -> None:
        """A deck change: every card of the old deck leaves the table (it is retired, not
        discarded) and new boxes of the same spec are opened."""
        with self.lock:
            for pile in (self.boxes, self.hopper, self.shuffled, self.layout, self.discards):
                self.retired.extend(pile)
                pile.clear()
            self.retired.extend(c for c in self.shoe if isinstance(c, PhysicalCard))
            self.shoe.clear()
            self.boxes = [PhysicalCard(c) for c in self.spec.all_cards()]

    def draw(self) -> PhysicalCard | str | None:
        """Take the top of the shoe to the layout: a card, the cut card, or None (empty)."""
        with self.lock:
            if not self.shoe:
                return None
            top = self.shoe.pop(0)
            if isinstance(top, PhysicalCard):
                self.layout.append(top)
            return top

    def clear_layout(self) -> None:
        with self.lock:
            self.discards.extend(self.layout)
            self.layout.clear()

    # faults -------------------------------------------------------------
    def remove_from_boxes(self, face: Card) -> PhysicalCard:
        """A missing card: take one copy of ``face`` off the table."""
        with self.lock:
            for i, c in enumerate(self.boxes):
                if c.face == face:
                    self.pocket.append(self.boxes.pop(i))
                    return self.pocket[-1]
        raise LookupError(f"no {face.code} in the boxes")

    def add_to_boxes(self, face: Card) -> PhysicalCard:
        """A foreign or extra card slipped into the new decks."""
        with self.lock:
            pc = PhysicalCard(face)
            self.boxes.insert(self.rng.randrange(len(self.boxes) + 1), pc)
            return pc

    def all_cards(self) -> list[PhysicalCard]:
        with self.lock:
            piles = (self.boxes, self.hopper, self.shuffled, self.shoe, self.layout, self.discards)
            return [c for p in piles for c in p if isinstance(c, PhysicalCard)]
