"""The Hold'em family's rules as the controller carries them out (california-card-room-games.txt,
"THE BASIC PLAY OF THE MOTHER GAME TEXAS HOLD'EM" and "The Variations"), as pure functions over
games.poker: who holds the button and the blinds this hand (games.poker.positions), what the house
collects (games.poker.economics), and a showdown the pit enters by card codes (games.poker.showdown).

The controller reads no card in this game: the dealer pitches by hand from a deck the shuffler
verified. So a showdown is only what the pit enters, and it is checked here before anything of
it is published:

- **How many cards a hand shows** (:func:`shown_cards`): two in Hold'em ("Each player is dealt two
  cards face down"), two in Pineapple once it has discarded ("the player discards one card from
  their hand using two cards to make a hand"), three in Crazy Pineapple ("the player keeps all
  three cards in their hand"), four in Omaha ("Each player receives four cards face down but may
  only use two cards from their hand"); the board is five (flop, turn, river).
- **One deck** ("There is no Joker"; a standard 52): a code that is no card, a joker, a card entered
  twice in one entry or already entered for another hand or the board is refused.
- **A seat not dealt into the hand** is refused, and so is a hand entered a second time.

A refusal never quotes a code entered: it names the card's place in the entry ("card 2"), as the
shoe's codec never echoes a code it could not read. What was entered and refused may be a card of a
hand still face down, or a card of the stub.

Choices where the sheet is silent (each tested in tests/games/test_holdem_rules.py):
1. A hand or the board, once entered, stands for the hand: a second entry for it is refused (the
   pit voids the round, or settles by hand, if an entry was wrong). So a reveal is never taken back.
2. The showdown ranks only the hands entered: "winners" are the best among those, the board and
   the hands the pit chose to enter (a hand mucked unshown is not in it).
3. Ties share (games.poker.showdown); with no qualifying low in a high-low game the high takes the
   whole pot ("if there is no low, the high hand wins the entire pot", the sheet's Stud High-Low
   rule, which the sheet's qualifier paragraph makes general).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.cards import Card
from games.decks import DeckSpec
from games.poker import positions as pos
from games.poker.economics import Economics, hand_collection
from games.poker.entries import EntryError, card_of
from games.poker.showdown import GAMES as SHOWDOWNS
from games.poker.showdown import settle

BOARD = 5
"""The flop (three), the turn and the river."""

TITLES: dict[str, str] = {
    "holdem": "Texas Hold'em", "holdem_hi_lo": "Hold'em Hi/Lo", "pineapple": "Pineapple",
    "pineapple_hi_lo": "Pineapple Hi/Lo", "crazy_pineapple": "Crazy Pineapple",
    "crazy_pineapple_hi_lo": "Crazy Pineapple Hi/Lo", "omaha": "Omaha", "omaha_hi_lo": "Omaha Hi/Lo",
}




def shown_cards(variant: str) -> int:
    """How many cards a hand still in shows at the showdown (see the module's docstring)."""
    if variant.startswith("omaha"):
        return 4
    if variant.startswith("crazy_pineapple"):
        return 3
    return 2


def hand_positions(table: int, seated: Collection[int], previous: pos.Positions | None, *, first_button: int,
                   rule: str, waiting: Mapping[int, str] | None = None
                   ) -> tuple[pos.Positions, frozenset[int]] | None:
    """This hand's button and blinds, and who is dealt in, or None when fewer than two players can
    be dealt. The first hand puts the button on ``first_button`` (or the first seat in to its
    left); after it the button moves one place to the left ("The dealer button moves one place to
    the left after each hand is completed", Draw & Low-Ball, BLINDS; Mexican Poker: "the dealer
    button rotates clockwise after each hand is complete")."""
    seats = set(seated)
    if len(seats) < 2:
        return None
    if previous is None:
        start = first_button if first_button in seats else pos.left_of(first_button, seats, table)[0]
        layout = pos.opening_positions(table, seats, button=start, blinds=2)
    else:
        layout = pos.next_positions(table, seats, previous, rule=rule)  # type: ignore[arg-type]
    dealt, blinds = pos.deal_in(table, seats, layout, waiting or {})
    if len(dealt) < 2:
        return None
    return pos.Positions(layout.button, layout.spots, blinds, layout.dead_button), dealt


def collection(economics: Economics, players: int, schedule: str) -> dict[str, Any]:
    """The house's take of one hand, in cents, for the ``action_button`` and ``result`` events."""
    return {**hand_collection(economics, players), "schedule": schedule}


def parse_entry(codes: Sequence[Any], want: int, what: str, spec: DeckSpec,
                taken: Mapping[Card, str]) -> tuple[Card, ...]:
    """The cards of one entry (``what``: "seat 3's hand", "the board"), or :class:`EntryError`:
    ``want`` cards, each a card of ``spec``, none twice, none already ``taken`` (card -> where)."""
    if len(codes) != want:
        raise EntryError(f"{what} is {want} cards, not {len(codes)}")
    out: list[Card] = []
    for i, code in enumerate(codes, start=1):
        c = card_of(code, f"card {i} of {what}", spec)
        if c in out:
            raise EntryError(f"cards {out.index(c) + 1} and {i} of {what} are the same card: one deck holds it once")
        if c in taken:
            raise EntryError(f"card {i} of {what} is already entered for {taken[c]}: one deck holds it once")
        out.append(c)
    return tuple(out)


def evaluate(variant: str, board: Sequence[Card], hands: Mapping[int, Sequence[Card]]) -> dict[str, Any]:
    """The showdown of the hands entered on ``board``: each hand's best high and low under the
    variant's rules, and who wins each half among them (choices 2 and 3)."""
    return {"board": [c.code for c in board], **settle(SHOWDOWNS[variant], hands, board)}


__all__ = ["BOARD", "TITLES", "EntryError", "collection", "evaluate", "hand_positions", "parse_entry",
           "shown_cards"]
