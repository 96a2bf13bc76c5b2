"""Mexican Stud's rules as the controller carries them out (california-card-room-games.txt,
"MEXICAN POKER (5-Card Stud--Mexico Style) (41 Card Deck)" and its "Stud-Loce Rules"), as pure
functions over games.poker: the button (games.poker.positions), the collection
(games.poker.economics), the forced bet and who acts first (games.poker.bring_in), which card
comes face down, and a showdown the pit enters by card codes (games.poker.showdown, with the
Mexican ranking of games.poker.mexican).

No device reads a card: the dealer pitches by hand from a deck the shuffler verified (41 cards).
The cards are numbered as dealt to each player: the first (down) and the second (up) before the
first betting round, then the third, fourth and fifth, each after a burn and followed by a
betting round. So the betting rounds are those of the **second** to the **fifth** card
(:data:`STREETS`).

From the sheet:
- **The deal**: "The cards are dealt clockwise, beginning to the left of the dealer button. the
  dealer button rotates clockwise after each hand is complete" (:func:`hand_button`,
  :func:`deal_order`).
- **The forced bet**: "After the first two cards are dealt (1 up and 1 down), a betting round
  begins with the high card clockwise of the dealer button, making a forced opening bet"; "When
  the joker shows, that will be the high card superseding all others" (:func:`who_acts`, street 2).
- **Later rounds**: "The highest hand will start the action on all following round. Hands are
  considered to be of equal value whether or not one hand may include the Joker. The hand closest
  of such hands to the dealer acts first." (streets 3 to 5).
- **One card down**: "Each Player receives a total of 5 cards, of which 1 card must be face down";
  "the players may expose, if they wish, their down card. This action must be complete prior to
  the deal of the third card which may be delivered up or down depending on whether or not
  previously dealt down cards have been opened"; "If any down card is exposed by the house
  dealer, that player will receive his next card down and will be permitted to declare 'all-in'";
  "If a player exposes a card, it is not considered an exposed card and will be required to play
  it." So a seat whose down card is open gets its next card down, every other seat gets it up
  (:func:`next_faces`).
- **The showdown**: "The player with the ranking hand wins the pot", five cards, the Mexican
  Hand Ranking (five of a kind first, the flush above the full house, the skip straights, the
  joker wild): games.poker.showdown.GAMES["mexican_stud"].
- **The jackpot**: "No hand involved in a jackpot may include the Joker ... 5 of a Kind is exempt
  from this rule": each hand shown says whether it may be (``jackpot_eligible``).

Every entry is checked here before anything of it is published; a refusal never quotes a code
entered (what was entered and refused may be a card still face down): it names the card's place
("seat 3's third card", "card 2 of seat 3's hand").

Choices where the sheet is silent (each tested in tests/games/test_mexican_stud_rules.py):
1. **Up cards are entered once per street**, for the seats still in: a seat not entered has
   folded (or was not entered) and is not ranked. A seat whose card on that street came down is
   entered as ``"down"``; a code for it, or ``"down"`` for a card dealt up, is refused.
2. **The forced bet is by the second card**, the one dealt up: a first card the house dealer
   exposed before the first betting round changes the seat's next card, not the forced bet.
3. **The showing hand** on the third to fifth card is every card of the seat face up: its up cards
   and the down cards it opened. If a card of it dealt up was not entered, first to act is unknown
   (the prompt says so) rather than guessed from a part of the showing.
4. **When an exposure counts**: a player opens his down card while the exposing step is due
   ("after the betting is complete ... prior to the deal"); the house dealer's exposure is entered
   whenever no card is being dealt, up to the last exposing step, and makes the seat's next card
   come down. After the fifth card there is no next card: an exposure then is not entered (the
   card is seen at the showdown).
5. **Ties for first to act and the forced bet** count clockwise from the button's left: the button
   seat is last ("closest ... to the dealer" read as the dealer button, games.poker.bring_in
   choice 5).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

from games.cards import Card, try_card
from games.decks import DeckSpec
from games.poker import positions
from games.poker.bring_in import bring_in, first_to_act
from games.poker.economics import Economics, hand_collection
from games.poker.entries import EntryError, card_of, seat_key
from games.poker.hands import FIVE_OF_A_KIND, best
from games.poker.mexican import MEXICAN
from games.poker.showdown import GAMES as SHOWDOWNS
from games.poker.showdown import settle

GAME = "mexican_stud"
HAND = 5
"""Cards of a hand at the showdown ("Each Player receives a total of 5 cards")."""
STREETS: tuple[int, ...] = (2, 3, 4, 5)
"""The cards after which a betting round comes: the second (the first up card) to the fifth."""
DOWN = "down"
"""What the pit enters for a seat whose card on a street was dealt face down."""
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}




def street_of(name: str) -> int:
    """The deal plan's step names to the card's number: ``"first two cards"`` and ``"second
    card"`` -> 2, ``"fourth card"`` -> 4."""
    word = name.split()[0]
    return 2 if word in ("first", "second") else {v: k for k, v in ORDINAL.items()}[word]


def card_name(street: int) -> str:
    return f"the {ORDINAL[street]} card"


# --- the button and the collection -----------------------------------------------------------

def hand_button(table: int, seated: Collection[int], last: int | None, *, first: int) -> int | None:
    """This hand's button, or None with fewer than two players. The first hand's is ``first`` (or
    the first seat in to its left); after it, the next seat in to the left of the last hand's
    ("the dealer button rotates clockwise after each hand is complete"). With no blinds, there is
    nobody a dead button would protect: the button always sits with a player."""
    seats = set(seated)
    if len(seats) < 2:
        return None
    start = first if last is None else last
    if last is None and start in seats:
        return start
    return positions.left_of(start, seats, table)[0]


def deal_order(table: int, button: int, players: Collection[int]) -> list[int]:
    """"The cards are dealt clockwise, beginning to the left of the dealer button": the button's
    seat last."""
    return positions.left_of(button, players, table)


def collection(economics: Economics, players: int) -> dict[str, Any]:
    """The house's take of one hand, in cents, for the ``action_button`` and ``result`` events."""
    return {**hand_collection(economics, players), "schedule": "table"}


# --- which card comes down ---------------------------------------------------------------------

def next_faces(players: Collection[int], opened: Collection[int]) -> dict[str, list[int]]:
    """The faces of the next card: ``{"down": seats whose down card is open, "up": the rest}``."""
    down = sorted(set(players) & set(opened))
    return {"down": down, "up": sorted(set(players) - set(down))}


# --- entries -------------------------------------------------------------------------------------

def parse_up(raw: Any, street: int, players: Sequence[int], spec: DeckSpec, taken: Mapping[Card, str],
             dealt_down: Collection[int] = ()) -> dict[int, Card | None]:
    """One street's up cards ``{seat: code or "down"}`` -> ``{seat: card or None}``, or
    :class:`EntryError` (choice 1). ``taken``: card -> where it was entered before in this hand;
    ``dealt_down``: the seats whose card on this street came face down."""
    if street not in STREETS:
        raise EntryError(f"up cards are entered for the second to the fifth card, not for card {street}")
    name = card_name(street)
    if not isinstance(raw, Mapping) or not raw:
        raise EntryError(f"no up card entered: give {{seat: card code}} for the seats still in on {name}")
    out: dict[int, Card | None] = {}
    for key, code in raw.items():
        seat = seat_key(key)
        if seat is None:
            raise EntryError("a seat of the entry is not a seat number")
        if seat in out:
            raise EntryError(f"seat {seat} is entered twice")
        if seat not in players:
            raise EntryError(f"seat {seat} is not in this hand: the players are {', '.join(map(str, sorted(players)))}")
        what = f"seat {seat}'s {ORDINAL[street]} card"
        if seat in dealt_down:
            if code != DOWN:
                raise EntryError(f"{what} was dealt face down (seat {seat} had opened its down card): enter "
                                 f"\"{DOWN}\" for it, not a card")
            out[seat] = None
            continue
        if code == DOWN:
            raise EntryError(f"{what} was dealt face up: enter its code")
        c = card_of(code, what, spec)
        same = next((s for s, o in out.items() if o == c), None)
        if same is not None:
            raise EntryError(f"the {ORDINAL[street]} cards of seats {same} and {seat} are the same card: the deck "
                             "holds it once")
        if c in taken:
            raise EntryError(f"{what} is already entered for {taken[c]}: the deck holds it once")
        out[seat] = c
    return dict(sorted(out.items()))


def parse_exposed(code: Any, seat: int, spec: DeckSpec, taken: Mapping[Card, str]) -> Card:
    """The down card seat ``seat`` opened, or :class:`EntryError`."""
    what = f"seat {seat}'s opened card"
    c = card_of(code, what, spec)
    if c in taken:
        raise EntryError(f"{what} is already entered for {taken[c]}: the deck holds it once")
    return c


def parse_hand(codes: Any, seat: int, spec: DeckSpec, taken: Mapping[Card, str],
               held: Sequence[tuple[str, Card]]) -> tuple[Card, ...]:
    """Seat ``seat``'s five cards, or :class:`EntryError`; ``held``: its cards entered face up, as
    (where, card), which the hand must hold."""
    what = f"seat {seat}'s hand"
    if not isinstance(codes, Sequence) or isinstance(codes, str):
        raise EntryError(f"{what} is a list of {HAND} card codes")
    if len(codes) != HAND:
        raise EntryError(f"{what} is {HAND} cards, not {len(codes)} (\"Each Player receives a total of 5 cards\")")
    out: list[Card] = []
    for i, code in enumerate(codes, start=1):
        c = card_of(code, f"card {i} of {what}", spec)
        if c in out:
            raise EntryError(f"cards {out.index(c) + 1} and {i} of {what} are the same card: the deck holds it once")
        if c in taken:
            raise EntryError(f"card {i} of {what} is already entered for {taken[c]}: the deck holds it once")
        out.append(c)
    for where, c in held:
        if c not in out:
            raise EntryError(f"{what} does not hold {where} as entered")
    return tuple(out)


# --- who acts first ------------------------------------------------------------------------------

def showing(seat: int, street: int, up: Mapping[int, Mapping[int, Card | None]],
            exposed: Sequence[Card]) -> list[Card] | str:
    """Seat ``seat``'s cards face up on ``street``: its up cards of the second card to this one and
    the down cards it opened (choice 3); or why it is not known."""
    cards: list[Card] = []
    for t in range(2, street + 1):
        entered = up.get(t)
        if entered is None or seat not in entered:
            return f"seat {seat}'s {ORDINAL[t]} card was not entered"
        c = entered[seat]
        if c is not None:
            cards.append(c)
    return [*cards, *exposed]


def who_acts(street: int, up: Mapping[int, Mapping[int, Card | None]], exposed: Mapping[int, Sequence[Card]],
             button: int, *, tie: Literal["position", "suit"] = "position") -> dict[str, Any]:
    """Who acts first after ``street``'s card, from the cards entered so far (``up``: street -> seat
    -> card, None for a card dealt down; ``exposed``: seat -> the down cards it opened):
    ``{"seat": n or None, "by": "high_card" or "high_showing", "why": text}``."""
    cards = up.get(street)
    if street == 2:
        if not cards:
            return {"seat": None, "by": "high_card", "why": "the second card's up cards were not entered"}
        dealt_up = {s: c for s, c in cards.items() if c is not None}
        seat = bring_in(GAME, dealt_up, dealer=button, tie=tie)
        ties = "suits, spades highest" if tie == "suit" else "the seat closest clockwise of the button"
        return {"seat": seat, "by": "high_card",
                "why": f"seat {seat} makes the forced opening bet: the high card showing, the joker highest "
                       f"(ties: {ties})"}
    if not cards:
        return {"seat": None, "by": "high_showing", "why": f"{card_name(street)}'s up cards were not entered"}
    shown: dict[int, list[Card]] = {}
    for seat in cards:
        found = showing(seat, street, up, exposed.get(seat, ()))
        if isinstance(found, str):
            return {"seat": None, "by": "high_showing", "why": found}
        shown[seat] = found
    seat = first_to_act(GAME, shown, dealer=button)
    return {"seat": seat, "by": "high_showing",
            "why": f"seat {seat} acts first: the highest hand showing, the joker wild (equal hands, with the joker "
                   "or not: the one closest clockwise of the button)"}


# --- the showdown --------------------------------------------------------------------------------

def jackpot_eligible(cards: Sequence[Card]) -> bool:
    """"No hand involved in a jackpot may include the Joker ... 5 of a Kind is exempt from this
    rule due to there not being an equivalent 'natural' hand". Five of a kind is asked of the
    hand's category, not its name: the shared evaluator names five of a kind of aces "five aces"
    (Draw Poker's name for it), and A-A-A-A-JK is Hand Ranking 1 as much as 7-7-7-7-JK is."""
    if not any(c.is_joker for c in cards):
        return True
    return len(cards) >= 5 and best(cards, MEXICAN).category == FIVE_OF_A_KIND


JACKPOT_HANDS: tuple[str, ...] = ("five of a kind", "royal flush", "straight flush", "four of a kind", "flush",
                                  "full house", "straight", "three of a kind", "two pair", "pair", "high card")
"""The Hand Ranking's names (1 to 11), as a table's jackpot posting names them; "five aces" is five
of a kind."""


def hand_name(cards: Sequence[Card]) -> str:
    """The Hand Ranking's name of five cards (five aces are "five of a kind", Hand Ranking 1)."""
    hand = best(cards, MEXICAN)
    return "five of a kind" if hand.category == FIVE_OF_A_KIND else hand.name


def jackpot_payout(shown: Mapping[int, Sequence[Card]], posted: Mapping[str, Mapping[str, int]],
                   pool: int) -> dict[str, Any] | None:
    """What the table's posted jackpot pays at this showdown, from ``pool`` (cents), or None when
    no hand shown qualifies (choices 6 and 7 of docs/mexican_stud.md).

    ``posted``: hand name -> ``{"amount": cents}`` or ``{"share": percent of the pool}``, as the
    table posts it. The best hand shown that is posted and may be involved in a jackpot ("No hand
    involved in a jackpot may include the Joker ... 5 of a Kind is exempt") takes it; hands equal
    to it share it, each the same whole cents (what does not divide stays in the pool). An amount
    is paid up to what the pool holds."""
    if not posted:
        return None
    ranked = [(best(cards, MEXICAN), seat) for seat, cards in shown.items()
              if jackpot_eligible(cards) and hand_name(cards) in posted]
    if not ranked:
        return None
    top = max(h for h, _ in ranked)
    seats = sorted(s for h, s in ranked if h == top)
    name = hand_name(shown[seats[0]])
    rule = posted[name]
    due = min(rule["amount"], pool) if "amount" in rule else pool * rule["share"] // 100
    each = due // len(seats)
    posting = (f"{rule['amount'] / 100:.2f} posted" if "amount" in rule else f"{rule['share']}% of the jackpot")
    return {"hand": name, "seats": seats, "posted": dict(rule), "pool": pool, "each": each,
            "paid": each * len(seats), "left": pool - each * len(seats),
            "why": f"{name} ({posting}) is the best jackpot hand shown: seat{'s' if len(seats) > 1 else ''} "
                   f"{', '.join(map(str, seats))}" + (" share it" if len(seats) > 1 else "")}


def evaluate(hands: Mapping[int, Sequence[Card]]) -> dict[str, Any]:
    """The showdown of the hands entered: each hand's rank under the Mexican ranking, who wins
    (ties share: "Hands are considered to be of equal value whether or not one hand may include
    the Joker"), and whether each hand may be involved in a jackpot."""
    out = settle(SHOWDOWNS[GAME], hands)
    for hand in out["hands"]:
        held = [c for c in (try_card(code) for code in hand["cards"]) if c is not None]
        hand["jackpot_eligible"] = jackpot_eligible(held)
    return out


__all__ = ["DOWN", "HAND", "JACKPOT_HANDS", "ORDINAL", "STREETS", "EntryError", "card_name", "collection",
           "deal_order", "evaluate", "hand_button", "hand_name", "jackpot_eligible", "jackpot_payout", "next_faces", "parse_exposed", "parse_hand", "parse_up", "showing",
           "street_of", "who_acts"]
