"""The Stud family's irregularities and the sheet's consequence of each (california-card-room-games.txt,
"7-CARD STUD" and "STUD POKER HOUSE RULES"), as pure functions: what the dealer (or the pit) reports
that went wrong at the table, checked against the hand as the controller knows it, and ruled.

No device sees a card dealt wrong, so the controller is told (``cmd/irregularity``), like Draw's
(games.draw.irregularities). The phase is the hand's: **deal** (3rd street dealt, its betting not
over), **streets** (4th to 7th street), **showdown**.

From the sheet:
- ``wrong_count`` {seat, cards, acted}: STUD POKER HOUSE RULES: "If a player does not have the
  correct number of cards on the deal and no action has been accepted, the hand is a misdeal. If
  there has been action before the mistake is noticed, players with the incorrect number of cards
  will receive their money back and are out of the hand." After the deal (a later street), the
  same second sentence; at the showdown, 7-CARD STUD: "A player must have seven cards in order to
  win. Any other number of cards constitutes a foul hand."
- ``burn_error`` {burns, down, traceable}: 7-CARD STUD: "If the dealer burns two cards or fails to
  burn a card, he should, if possible, move the cards to the right position to rectify the error.
  If it happens on a down card and there is no way to tell which card was received, then the
  player must accept the card."
- ``last_card_up`` {seat, card}: 7-CARD STUD: "If any player receives the last card face up, all
  other players will receive the last card face down. The player(s) whose down card was exposed
  has two options: (a) declaring himself all-in for the portion of the pot already played and any
  subsequent betting will be on the side, or (b) may, at that player's option continue to be
  active in any further action in the pot on the final round. The player who was high on 6th
  Street will initiate the action."
- ``off_table`` {seat, card (7th street)}: 7-CARD STUD: "A card accidentally dealt off the table must
  play. If it is the last card, it is to be treated an exposed river card."

Choices where the sheet is silent (docs/stud.md, tested in tests/games/test_stud_irregularities.py):
1. **"On the deal"** is 3rd street (two down, one up), until its betting round is over; a wrong
   count found later is "action before the mistake is noticed".
2. **A misdeal's redeal** keeps the hand's players and what they anted ("the hand is a misdeal":
   nothing was won): the antes stay in the pot and the next hand takes nothing again.
3. **A wrong count is a count**: ``cards`` must differ from what the seat should hold by now (3 on
   3rd street, one more each street), or the report is refused.
4. **The last card face up** is reported with its code (it lies face up) while 7th street is dealt
   or bet; the seat's all-in option is named on 7th street's betting prompt. Two or more seats may
   be reported ("The player(s)").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from games.cards import Card
from games.decks import DeckSpec
from games.poker.entries import EntryError, card_of

Phase = Literal["deal", "streets", "showdown"]

KINDS: tuple[str, ...] = ("wrong_count", "burn_error", "last_card_up", "off_table")
KEYS: dict[str, frozenset[str]] = {
    "wrong_count": frozenset({"seat", "cards", "acted"}),
    "burn_error": frozenset({"burns", "down", "traceable"}),
    "last_card_up": frozenset({"seat", "card"}),
    "off_table": frozenset({"seat", "street", "card"}),
}


class IrregularityError(ValueError):
    """A report that does not fit the hand: the reason names what is wrong, never a code entered."""


@dataclass(frozen=True)
class HandView:
    """What the ruling needs to know of the hand: its phase, the street last dealt (3 to 7; 0 before
    the deal), whether 3rd street's betting is over, the players and the seats out."""

    phase: Phase
    street: int
    players: frozenset[int]
    out: frozenset[int]
    spec: DeckSpec
    taken: Mapping[Card, str]
    dealing: int = 0
    """The street whose deal is due now (the dealer is dealing it), 0 when none is."""


@dataclass(frozen=True)
class Ruling:
    what: str
    consequence: Literal["misdeal", "out_refund", "foul", "play_on", "all_in_option"]
    message: str
    action: str
    seat: int | None = None
    card: Card | None = None


def rule(args: Mapping[str, Any], hand: HandView) -> Ruling:
    """The sheet's ruling on the report ``args`` (``what`` and its keys), or :class:`IrregularityError`."""
    what = args.get("what")
    if what not in KINDS:
        raise IrregularityError(f"what is one of {', '.join(KINDS)}")
    extra = set(args) - KEYS[what] - {"what", "id"}
    if extra:
        raise IrregularityError(f"{what} takes {', '.join(sorted(KEYS[what]))}: {len(extra)} key(s) it does not")
    if max(hand.street, hand.dealing) < 3:
        raise IrregularityError("no card is dealt yet: an irregularity is reported once 3rd street is dealt")
    if what == "wrong_count":
        return _wrong_count(args, hand)
    if what == "burn_error":
        return _burn_error(args, hand)
    return _last_card(args, hand, what)


def _seat(args: Mapping[str, Any], hand: HandView) -> int:
    seat = args.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IrregularityError("seat is a seat number")
    if seat not in hand.players:
        raise IrregularityError(f"seat {seat} is not in this hand: the players are "
                                f"{', '.join(map(str, sorted(hand.players)))}")
    if seat in hand.out:
        raise IrregularityError(f"seat {seat} is already out of the hand")
    return seat


def should_hold(street: int) -> int:
    """Cards a player holds once ``street`` is dealt: 3 on 3rd street, one more each street to 7."""
    return street


def _wrong_count(args: Mapping[str, Any], hand: HandView) -> Ruling:
    seat = _seat(args, hand)
    cards = args.get("cards")
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 10:
        raise IrregularityError("cards is how many cards the seat holds, 0 to 10")
    due = should_hold(hand.street or hand.dealing)
    if cards == due:
        raise IrregularityError(f"seat {seat} should hold {due} cards now: {cards} is the right number (choice 3)")
    acted = args.get("acted", False)
    if not isinstance(acted, bool):
        raise IrregularityError("acted is true or false: whether any action was accepted before it was noticed")
    held = f"seat {seat} holds {cards} cards, not {due}"
    if hand.phase == "showdown":
        return Ruling("wrong_count", "foul", f"{held}: \"A player must have seven cards in order to win. Any other "
                      "number of cards constitutes a foul hand\"", f"seat {seat}'s hand is foul: it cannot win the "
                      "pot", seat=seat)
    if hand.phase == "deal" and not acted:
        return Ruling("wrong_count", "misdeal", f"misdeal: {held}, on the deal, and no action has been accepted (STUD "
                      "POKER HOUSE RULES)", "all hands are dead: gather every card; the hand is redealt to the same "
                      "players, whose antes stay in the pot", seat=seat)
    return Ruling("wrong_count", "out_refund", f"{held}, and there has been action before the mistake was noticed: "
                  "\"players with the incorrect number of cards will receive their money back and are out of the "
                  "hand\" (STUD POKER HOUSE RULES)", f"give seat {seat} back what it put in the pot; its hand is out",
                  seat=seat)


def _burn_error(args: Mapping[str, Any], hand: HandView) -> Ruling:
    burns = args.get("burns")
    if burns not in (0, 2) or isinstance(burns, bool):
        raise IrregularityError("burns is 0 (no card burned) or 2 (two cards burned)")
    if hand.street < 4:
        raise IrregularityError("no card is burned before 4th street: a burn error is reported from 4th street on")
    down = args.get("down", False)
    traceable = args.get("traceable", True)
    if not isinstance(down, bool) or not isinstance(traceable, bool):
        raise IrregularityError("down and traceable are true or false")
    did = "burned two cards" if burns == 2 else "did not burn a card"
    if down and not traceable:
        return Ruling("burn_error", "play_on", f"the dealer {did} on a down card and there is no way to tell which "
                      "card was received: \"the player must accept the card\" (7-CARD STUD)",
                      "play on: each player keeps the down card he received")
    return Ruling("burn_error", "play_on", f"the dealer {did}: \"he should, if possible, move the cards to the right "
                  "position to rectify the error\" (7-CARD STUD)",
                  "move the cards to the right positions (the burn where it belongs), then play on")


def _last_card(args: Mapping[str, Any], hand: HandView, what: str) -> Ruling:
    seat = _seat(args, hand)
    street = 7 if what == "last_card_up" else args.get("street")
    if isinstance(street, bool) or not isinstance(street, int) or not 3 <= street <= 7:
        raise IrregularityError("street is the street of the card dealt off the table, 3 to 7")
    if street > max(hand.street, hand.dealing):
        raise IrregularityError(f"{_ordinal(street)} is not dealt yet")
    if what == "off_table" and street < 7:
        return Ruling("off_table", "play_on", f"a card dealt off the table to seat {seat} on {_ordinal(street)}: "
                      "\"A card accidentally dealt off the table must play\" (7-CARD STUD)",
                      f"the card plays in seat {seat}'s hand", seat=seat)
    if 7 not in (hand.street, hand.dealing) or hand.phase == "showdown":
        raise IrregularityError("the last card is reported while 7th street is dealt or bet")
    card = None
    if "card" in args:
        try:
            card = card_of(args["card"], f"seat {seat}'s last card", hand.spec)
        except EntryError as exc:
            raise IrregularityError(str(exc)) from None
        if card in hand.taken:
            raise IrregularityError(f"seat {seat}'s last card is already entered for {hand.taken[card]}: the deck "
                                    "holds it once")
    how = ("dealt off the table: \"If it is the last card, it is to be treated an exposed river card\""
           if what == "off_table" else "dealt face up")
    return Ruling(what, "all_in_option", f"seat {seat}'s last card was {how} (7-CARD STUD): \"all other players will "
                  f"receive the last card face down\"; seat {seat} may declare himself all-in for the pot already "
                  "played (further betting on the side) or stay active; the player high on 6th Street acts first",
                  "deal the other players their last card face down; ask the player whether he is all-in",
                  seat=seat, card=card)


def _ordinal(street: int) -> str:
    return f"{street}{'rd' if street == 3 else 'th'} street"


def players_out(rulings: Collection[Ruling]) -> frozenset[int]:
    """The seats a list of rulings put out of the hand (refunded, or foul)."""
    return frozenset(r.seat for r in rulings if r.consequence in ("out_refund", "foul") and r.seat is not None)


__all__ = ["KEYS", "KINDS", "HandView", "IrregularityError", "Ruling", "players_out", "rule", "should_hold"]
