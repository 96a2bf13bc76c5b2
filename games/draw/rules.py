"""Draw Poker & Low-Ball's rules as the controller carries them out (california-card-room-games.txt,
"DRAW POKER & LOW-BALL", "BASICS OF DRAW POKER", "BASICS OF LO-BALL", "THE DEAL AND THE DRAW",
"BLINDS"), as pure functions over games.poker: who holds the button and the blinds this hand
(games.poker.positions), what the players post and the house collects (games.poker.economics),
and a showdown the pit enters by card codes (games.poker.showdown, with the seven-or-better rule
of games.poker.low).

- **Positions** (:func:`hand_positions`): rule 5, "The player who shows the 'high' card starts with
  a 2.00 blind and the second player - the 3.00 blind. The third player a 5.00 blind": the first
  hand from ``first_blind``; then "The dealer button moves one place to the left after each hand
  is completed". "Before the draw, the first player to act is the player to the left of the blind;
  after the draw, it is the player to the left of the dealer."
- **Stakes** (:func:`stakes`): "Antes of 1.00 are called by the dealer" from each player dealt in,
  and the blinds by seat; **the house's collection** (:func:`collection`): the posted "fee of 5.00
  is collected every 1/2 hr." (a time collection, nothing from the pot).
- **A hand shown** (:func:`parse_hand`): five cards ("Five cards constitute a playing hand") of the
  53-card deck ("A standard deck of 53 cards", one joker), none twice, none already entered for
  another seat or dead on the table.
- **The showdown** (:func:`evaluate`): Draw Poker, the best five high cards with the bug ("the
  Joker can only be used as an 'Ace' or to help you complete a flush or a straight"; five aces
  best); Low-Ball, the best low, aces low, the joker "the lowest card 'not actually' held", the
  wheel best (rules 4, 6, 7); "In case of tie the pot is split" (rule 9). Low-Ball's "THE SEVEN OR
  BETTER RULE": "A player holding a 7,6,5,4,3, or better hand must bet or they cannot win any
  action after the draw. They could still win the center pot, if they hold the best hand."

A refusal never quotes a code entered: it names the card's place ("card 2 of seat 3's hand").

Choices where the sheet is silent (each tested in tests/games/test_draw_rules.py):
1. **The blinds' seat lights**: the biggest blind lights ``big_blind``, the smaller ones
   ``small_blind`` (the table has one light per seat per group).
2. **Who antes**: every player dealt in, the blinds too.
3. **The seven-or-better rule at a showdown** is the pit's to apply with what it enters: a hand
   shown may say whether it bet after the draw (``bet_after_draw``). A winning seven or better
   that did not bet "wins the center pot only": the pot as it stood before the betting after the
   draw; the bets made after the draw go back to those who made them (the sheet says only that it
   "cannot win any action after the draw"). Not entered, the result says the rule applies and
   the pit rules.
4. **The showdown ranks only the hands entered**; a hand is entered once (a reveal is never taken
   back).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.cards import Card
from games.decks import DeckSpec
from games.poker import positions as pos
from games.poker.economics import Economics, hand_collection
from games.poker.entries import EntryError, card_of
from games.poker.low import LOWBALL, low, seven_or_better
from games.poker.showdown import GAMES as SHOWDOWNS
from games.poker.showdown import settle

HAND = 5
TITLES: dict[str, str] = {"draw": "Draw Poker", "lowball": "Low-Ball"}




def hand_positions(table: int, seated: Collection[int], previous: pos.Positions | None, *, first_blind: int,
                   blinds: int, rule: str, waiting: Mapping[int, str] | None = None
                   ) -> tuple[pos.Positions, frozenset[int]] | None:
    """This hand's button and ``blinds`` blinds, and who is dealt in, or None when fewer than two
    players can be dealt. The first hand puts the smallest blind on ``first_blind`` (or the first
    seat in to its left); then the button moves one place to the left after each hand completed."""
    seats = set(seated)
    if len(seats) < 2:
        return None
    if blinds == 0:
        return _antes_only(table, seats, previous, first_blind), frozenset(seats)
    if previous is None:
        start = first_blind if first_blind in seats else pos.left_of(first_blind, seats, table)[0]
        layout = pos.opening_positions(table, seats, first_blind=start, blinds=blinds)
    else:
        layout = pos.next_positions(table, seats, previous, rule=rule)  # type: ignore[arg-type]
    dealt, posted = pos.deal_in(table, seats, layout, waiting or {})
    if len(dealt) < 2:
        return None
    return pos.Positions(layout.button, layout.spots, posted, layout.dead_button), dealt


def _antes_only(table: int, seats: set[int], previous: pos.Positions | None, first: int) -> pos.Positions:
    """A game without blinds (choice 12): the button alone. The first hand's is ``first`` (rule 5's
    high card, or the first seat in to its left), then "The dealer button moves one place to the
    left after each hand is completed" (BLINDS), to the next seat in: with no blind there is no
    dead button to keep, and every player in is dealt (no "middle of the blinds" to wait out)."""
    if previous is None:
        button = first if first in seats else pos.left_of(first, seats, table)[0]
    else:
        button = pos.left_of(previous.button, seats, table)[0]
    return pos.Positions(button, (), (), False)


def moved_to(table: int, seated: Collection[int], button: int, blinds: int) -> pos.Positions:
    """The positions of a hand dealt from ``button`` ("If the pot has been opened, however, play
    continues and the next deal follows rotation from the new position"): the next hand moves on
    from them."""
    if blinds == 0:
        return pos.Positions(button, (), (), False)
    seats = set(seated) | {button}
    return pos.opening_positions(table, seats, button=button, blinds=blinds)


def stakes(positions: pos.Positions, players: Collection[int], ante: int, blinds: Sequence[int]) -> dict[str, Any]:
    """What the players post before the deal, in cents: each player's ante (choice 2) and each
    blind with the seat that posts it (None: not posted, a dead blind or short-handed)."""
    return {"ante": ante, "antes": ante * len(players),
            "blinds": [{"amount": amount, "seat": seat} for amount, seat in zip(blinds, positions.blinds, strict=True)]}


def collection(economics: Economics, players: int, schedule: str) -> dict[str, Any]:
    """The house's take of one hand, in cents, for the ``action_button`` and ``result`` events."""
    return {**hand_collection(economics, players), "schedule": schedule}


def parse_hand(codes: Any, seat: int, spec: DeckSpec, taken: Mapping[Card, str]) -> tuple[Card, ...]:
    """Seat ``seat``'s five cards, or :class:`EntryError`; ``taken``: card -> where it is already
    (another seat's hand, a dead card)."""
    what = f"seat {seat}'s hand"
    if not isinstance(codes, Sequence) or isinstance(codes, str):
        raise EntryError(f"{what} is a list of {HAND} card codes")
    if len(codes) != HAND:
        raise EntryError(f"{what} is {HAND} cards, not {len(codes)} (\"Five cards constitute a playing hand\")")
    out: list[Card] = []
    for i, code in enumerate(codes, start=1):
        c = card_of(code, f"card {i} of {what}", spec)
        if c in out:
            raise EntryError(f"cards {out.index(c) + 1} and {i} of {what} are the same card: the deck holds it once")
        if c in taken:
            raise EntryError(f"card {i} of {what} is already entered for {taken[c]}: the deck holds it once")
        out.append(c)
    return tuple(out)


def evaluate(variant: str, hands: Mapping[int, Sequence[Card]],
             bet_after_draw: Mapping[int, bool] | None = None) -> dict[str, Any]:
    """The showdown of the hands entered: each hand's best high (Draw Poker) or low (Low-Ball),
    who wins among them, and, in Low-Ball, the seven-or-better rule (choice 3)."""
    out = settle(SHOWDOWNS[variant], hands)
    out["seven_or_better"] = seven_or_better_rulings(hands, out["low"], bet_after_draw or {}) \
        if variant == "lowball" else []
    return out


def seven_or_better_rulings(hands: Mapping[int, Sequence[Card]], winners: Sequence[int],
                            bet_after_draw: Mapping[int, bool]) -> list[dict[str, Any]]:
    """For each Low-Ball hand shown that is 7-6-5-4-3 or better: whether it bet after the draw (None:
    not entered), and for a winner what it wins (choice 3)."""
    out = []
    for seat in sorted(hands):
        made = low(hands[seat], LOWBALL)
        if made is None or not seven_or_better(made):
            continue
        bet = bet_after_draw.get(seat)
        if seat not in winners:
            ruling = f"seat {seat} holds {made.name}, a seven or better, and does not win"
        elif bet is True:
            ruling = f"seat {seat} holds {made.name}, a seven or better, bet after the draw and wins the pot"
        elif bet is False:
            ruling = (f"seat {seat} holds {made.name}, a seven or better, and did not bet after the draw: it wins the "
                      "center pot only; the bets after the draw go back to those who made them (THE SEVEN OR "
                      "BETTER RULE)")
        else:
            ruling = (f"seat {seat} holds {made.name}, a seven or better: had it not bet after the draw, it wins the "
                      "center pot only (THE SEVEN OR BETTER RULE); the pit rules")
        out.append({"seat": seat, "hand": made.name, "bet_after_draw": bet, "wins": seat in winners,
                    "center_pot_only": seat in winners and bet is False, "ruling": ruling})
    return out


__all__ = ["HAND", "TITLES", "EntryError", "collection", "evaluate", "hand_positions", "moved_to",
           "parse_hand", "seven_or_better_rulings", "stakes"]
