"""The Stud family's rules as the controller carries them out (california-card-room-games.txt,
"STUD POKER AND VARIATIONS": 7-CARD STUD, 7-CARD STUD HIGH-LOW SPLIT, "RAZZ", and the STUD POKER
HOUSE RULES), as pure functions over games.poker: what the house collects
(games.poker.economics), who brings it in and who acts first from the up cards the pit enters
(games.poker.bring_in), and a showdown the pit enters by card codes (games.poker.showdown).

No device reads a card in this game: the dealer pitches by hand from a deck the shuffler verified.
So the up cards are only what the pit (or the dealer) enters, street by street, and a showdown
only the hands entered. Each entry is checked here before anything of it is published:

- **Up cards** (:func:`parse_up`): one card per seat on 3rd, 4th, 5th and 6th street ("two down
  cards and one up card, then a betting round, then three more up cards"); 7th street is dealt
  down and has none. Each seat a player of the hand; each card of the deck; no card twice.
- **A hand shown** (:func:`parse_hand`): seven cards ("A player must have seven cards in order to
  win. Any other number of cards constitutes a foul hand"), holding the seat's up cards as they
  were entered.
- **One deck** ("There is no Joker in this game"): a code that is no card, a joker, a card entered
  twice, or already entered for another seat, is refused.

A refusal never quotes a code entered: it names the card's place ("seat 3's up card", "card 2 of
seat 3's hand"). What was entered and refused may be a down card.

Who acts first (games.poker.bring_in, which cites the sheet):
- 3rd street: the bring-in, the lowest up card with suits C < D < H < S and the ace high
  ("The low card by suit (Clubs are lowest, Diamonds, Hearts, then Spades) initiates betting
  action on the first round, with an Ace counting as a high card"); Razz: the highest ("in RAZZ,
  the high card has the forced opening"), the king highest and the ace low.
- 4th to 6th street: the best hand showing ("the high hand initiates action"; Razz: "the low
  hand is first to act thereafter"); "If there is a tie, the player to the left of the dealer
  acts first" (the house dealer sits before seat 1: the lowest seat).
- 7th street: "The player who was high on 6th Street will initiate the action".

Choices where the sheet is silent (each tested in tests/games/test_stud_rules.py):
1. The up cards of a street are entered once (a reveal is never taken back), for the seats still
   in: a seat not entered has folded, or was not entered; it is not ranked.
2. On 4th to 6th street the showing hand is every up card entered for the seat so far; if a seat
   entered now lacks an earlier street's up card, first to act is unknown (the prompt says so)
   rather than guessed from a part of its showing.
3. Who acts first on 7th street is the seat first on 6th street when that street was entered, as
   the seats still in may have changed in 6th street's betting ("if still in").
4. The showdown ranks only the hands entered; ties share; with no qualifying low in Stud Hi-Lo the
   high takes the whole pot ("if there is no low, the high hand wins the entire pot").
5. An exposed hole card ("the hand cannot be forced low") is not entered: the pit enters that
   street without the seat if it is exempt from the bring-in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import Card
from games.decks import DeckSpec
from games.poker.bring_in import bring_in, first_to_act
from games.poker.economics import Economics, hand_collection
from games.poker.entries import EntryError, card_of, seat_key
from games.poker.showdown import GAMES as SHOWDOWNS
from games.poker.showdown import settle

HAND = 7
"""Cards of a hand at the showdown."""

UP_STREETS: tuple[int, ...] = (3, 4, 5, 6)
"""The streets with an up card; 7th street is dealt down."""

TITLES: dict[str, str] = {"seven_card_stud": "7 Card Stud", "stud_hi_lo": "Stud Hi-Lo", "razz": "Razz"}




def street_of(name: str) -> int:
    """``"4th street"`` -> 4 (the deal plan's street names)."""
    return int(name.split()[0][:-2])


def ordinal(street: int) -> str:
    return f"{street}{'rd' if street == 3 else 'th'} street"


def collection(economics: Economics, players: int, schedule: str) -> dict[str, Any]:
    """The house's take of one hand, in cents, for the ``action_button`` and ``result`` events."""
    return {**hand_collection(economics, players), "schedule": schedule}


def parse_up(raw: Any, street: int, players: Sequence[int], spec: DeckSpec,
             taken: Mapping[Card, str]) -> dict[int, Card]:
    """One street's up cards ``{seat: code}``, or :class:`EntryError` (see the module's docstring);
    ``taken``: card -> where it was entered before in this hand."""
    name = ordinal(street)
    if street not in UP_STREETS:
        raise EntryError(f"{name} has no up card: up cards are dealt on 3rd to 6th street, 7th street is "
                         "dealt down")
    if not isinstance(raw, Mapping) or not raw:
        raise EntryError(f"no up card entered: give {{seat: card code}} for the seats still in on {name}")
    out: dict[int, Card] = {}
    for key, code in raw.items():
        seat = seat_key(key)
        if seat is None:
            raise EntryError("a seat of the entry is not a seat number")
        if seat in out:
            raise EntryError(f"seat {seat} is entered twice")
        if seat not in players:
            raise EntryError(f"seat {seat} is not in this hand: the players are {', '.join(map(str, sorted(players)))}")
        c = card_of(code, f"seat {seat}'s up card", spec)
        same = next((s for s, o in out.items() if o == c), None)
        if same is not None:
            raise EntryError(f"the up cards of seats {same} and {seat} are the same card: one deck holds it once")
        if c in taken:
            raise EntryError(f"seat {seat}'s up card is already entered for {taken[c]}: one deck holds it once")
        out[seat] = c
    return dict(sorted(out.items()))


def who_acts(variant: str, game: str, street: int, up: Mapping[int, Mapping[int, Card]]) -> dict[str, Any]:
    """Who acts first on ``street`` from the up cards entered so far (``up``: street -> seat ->
    card): ``{"seat": n or None, "by": ..., "why": text}``."""
    low_first = variant == "razz"
    if street == 3:
        cards = up.get(3)
        if not cards:
            return {"seat": None, "by": "bring_in", "why": "3rd street's up cards were not entered"}
        seat = bring_in(game, cards)
        what = "the highest up card (Razz: king high, ace low)" if low_first else \
            "the lowest up card (ace high; suits clubs, diamonds, hearts, spades)"
        return {"seat": seat, "by": "bring_in", "why": f"seat {seat} brings in: {what}"}
    by = "low_showing" if low_first else "high_showing"
    best = "best low hand showing" if low_first else "high hand showing"
    source = min(street, 6)
    cards = up.get(source)
    if not cards:
        return {"seat": None, "by": by, "why": f"{ordinal(source)}'s up cards were not entered"}
    showing: dict[int, list[Card]] = {}
    for seat in cards:
        have = [up.get(s, {}).get(seat) for s in range(3, source + 1)]
        if any(c is None for c in have):
            missing = next(s for s, c in zip(range(3, source + 1), have, strict=True) if c is None)
            return {"seat": None, "by": by, "why": f"seat {seat}'s up card of {ordinal(missing)} was not entered"}
        showing[seat] = [c for c in have if c is not None]
    seat = first_to_act(game, showing)
    if street == 7:
        return {"seat": seat, "by": by, "why": f"seat {seat} was first on 6th street ({best}), if still in; "
                                               "else the next best showing on 6th street"}
    return {"seat": seat, "by": by, "why": f"seat {seat} acts first: the {best} (ties: the left of the dealer)"}


def parse_hand(codes: Any, seat: int, spec: DeckSpec, taken: Mapping[Card, str],
               up: Sequence[tuple[int, Card]], *, community: bool = False) -> tuple[Card, ...]:
    """Seat ``seat``'s seven cards (six beside a ``community`` card: "The card plays in everyone's
    hand"), or :class:`EntryError`; ``up``: its up cards entered, as (street, card), which the hand
    must hold."""
    what = f"seat {seat}'s hand"
    size = HAND - 1 if community else HAND
    if not isinstance(codes, Sequence) or isinstance(codes, str):
        raise EntryError(f"{what} is a list of {size} card codes")
    if len(codes) != size:
        beside = " beside the community card" if community else ""
        raise EntryError(f"{what} is {size} cards{beside}, not {len(codes)} (\"A player must have seven cards "
                         "in order to win\")")
    out: list[Card] = []
    for i, code in enumerate(codes, start=1):
        c = card_of(code, f"card {i} of {what}", spec)
        if c in out:
            raise EntryError(f"cards {out.index(c) + 1} and {i} of {what} are the same card: one deck holds it once")
        if c in taken:
            raise EntryError(f"card {i} of {what} is already entered for {taken[c]}: one deck holds it once")
        out.append(c)
    for street, c in up:
        if c not in out:
            raise EntryError(f"{what} does not hold its up card of {ordinal(street)} as entered")
    return tuple(out)


def parse_community(codes: Any, spec: DeckSpec, taken: Mapping[Card, str]) -> Card:
    """The one community card turned up when the stub ran short (7-CARD STUD: "a community card
    will be used. The dealer will then burn a card and turn a card up in the center of the
    table"), or :class:`EntryError`."""
    if not isinstance(codes, Sequence) or isinstance(codes, str) or len(codes) != 1:
        raise EntryError("the community card is one card code: stud turns up one card in the centre")
    c = card_of(codes[0], "the community card", spec)
    if c in taken:
        raise EntryError(f"the community card is already entered for {taken[c]}: one deck holds it once")
    return c


def evaluate(game: str, hands: Mapping[int, Sequence[Card]]) -> dict[str, Any]:
    """The showdown of the hands entered: each hand's best high and low (the best five of seven)
    under the variant's rules, and who wins each half among them (choice 4)."""
    return settle(SHOWDOWNS[game], hands)


__all__ = ["HAND", "TITLES", "UP_STREETS", "EntryError", "collection", "evaluate", "ordinal",
           "parse_community", "parse_hand", "parse_up", "street_of", "who_acts"]
