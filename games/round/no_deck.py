"""No deck: a part for games played without cards (Pai Gow Tiles: 32 tiles and a dice cup).

The lifecycle assumes a card game: a table opens through a deck check and a shuffle by its
``prepares_deck`` role (DESIGN.md, "Deck integrity"), and every card read is taken from the
spec's ledger. A game with no cards has nothing to check or shuffle -- its tiles or dice are not
read by any shuffler -- so with this part:

- ``open()`` goes ``closed -> ready`` (then betting, or the player-dealer offer) at once;
- a round ends back in ``ready`` (settled or voided): no shuffle is ever due;
- the spec is :data:`games.decks.NO_CARDS` (nothing in it), so the state topic's ``shoe`` says
  0 dealt, 0 remaining;
- a card, a deck check or a shuffle count that reaches the machine anyway (a card reader wired
  to the wrong table) is a warning that says this game plays no cards; nothing changes. It is
  not a fault: no card can be on a layout that has none.

It is a capability the lifecycle has or not (``RoundMachine.PLAYS_CARDS``), as shoe play is, not
a special case of one game: ``class MyGame(Steps, ..., NoDeck, RoundMachine)``. The neutral
deck-less dice game of ``tests/games/test_round_no_deck.py`` proves it without any real game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from games.cards import Card
from games.decks import NO_CARDS
from games.round.lifecycle import RoundMachine


class NoDeck(RoundMachine):
    """The no-deck part: ``class Game(..., NoDeck, RoundMachine)``; the spec defaults to
    :data:`~games.decks.NO_CARDS`."""

    PLAYS_CARDS: ClassVar[bool] = False
    SHUFFLE_EVERY_ROUND: ClassVar[bool] = False

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("spec", NO_CARDS)
        super().__init__(**kw)

    def _shuffle_due(self) -> bool:
        """Nothing goes back to a shuffler: every round ends in ``ready``."""
        return False

    def _no_card_text(self) -> str:
        return f"no card: {self.game} is played without cards"

    def card(self, card: Card) -> None:
        """A card read at a table without cards: a warning naming it, nothing else."""
        if self.state == "closed":
            return
        self._alarm("unexpected_card", "warning",
                    f"{card.code} read, but {self.game} is played without cards (state {self.state}): ignored",
                    card=card.code, expected=self._expected_text(),
                    action="take the card off the table; check which devices are wired to it")

    def deck_checked(self, cards: Sequence[Card], unreadable: int) -> None:
        self._unexpected_input(f"a deck check result arrived, but {self.game} has no deck to check: ignored")

    def shuffled(self, count: int) -> None:
        self._unexpected_input(f"a shuffle count arrived, but {self.game} has no cards to shuffle: ignored")
