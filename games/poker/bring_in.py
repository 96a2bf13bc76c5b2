"""Who acts first on each street of the stud games (california-card-room-games.txt): the forced
bet on the first round by one up card, and on later rounds the best hand showing.

From the sheet:
- **7 Card Stud and Stud Hi-Lo**: "The low card by suit (Clubs are lowest, Diamonds, Hearts, then
  Spades) initiates betting action on the first round, with an Ace counting as a high card for
  this purpose. On subsequent rounds, the high hand initiates action. If there is a tie, the
  player to the left of the dealer acts first." (7-Card Stud High-Low Split); "In Stud, the low
  card initiates the action and the high hand is first in each subsequent round" ("RAZZ"). Stud
  Poker House Rules: "The ranking of suits is used only to determine the lowest or highest card
  for a forced bet ...; Suits are ranked as: Spades (highest), Hearts, Diamonds, Clubs."
  (:data:`games.cards.SUITS` is that order.) 7-Card Stud: "In the case of an exposed hole card,
  the hand cannot be forced low" (``exempt``); "The player who was high on 6th Street will
  initiate the action" on the last round, whose card is dealt down (so pass the 6th street cards).
- **Razz**: "in RAZZ, the high card has the forced opening and the low hand is first to act
  thereafter". Razz is ace-to-five (games.poker.low), so the ace is low and the king the highest
  card; suits break a tie of ranks for the forced bet, spades highest (House Rules above).
- **Mexican Stud**: "a betting round begins with the high card clockwise of the dealer button,
  making a forced opening bet"; "When the joker shows, that will be the high card superseding all
  others"; "The highest hand will start the action on all following round. Hands are considered
  to be of equal value whether or not one hand may include the Joker. The hand closest of such
  hands to the dealer acts first." The joker "is 'wild' in all cases whether facing up or down".

How partial hands (one to four cards showing) are ranked, and the choices where the sheet is
silent (each tested in tests/games/test_poker_bring_in.py):
1. Stud high: :func:`games.poker.hands.short` (groups then high cards: four, three of a kind, two
   pair, a pair, high cards; no straight or flush can show in four cards).
2. Razz low: here (:func:`low` ranks five cards only): the fewer pairs the better (no pair, pair,
   two pair, three, four), then the highest card lower is better, then the next, ace low:
   :func:`razz_showing`. Suits never count.
3. Mexican: the joker showing on a later street stands for whatever card makes the best short
   hand of the 41-card deck (:func:`games.poker.hands.short` under
   :data:`games.poker.mexican.MEXICAN`, tried with each rank): J-K is a pair of kings and ties a
   natural pair of kings, as the sheet says. On the first round a lone joker is above every card.
4. Mexican's forced bet between two up cards of one rank: the seat closest clockwise to the
   button, as the sheet breaks ties of hands (``tie="position"``); ``tie="suit"`` breaks it by the
   Stud House Rules' suits instead (spades highest).
5. Ties on a later street in the stud games go "to the left of the dealer": the house dealer sits
   before seat 1 (``dealer=0``), so the lowest seat; Mexican Stud counts from the button seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from games.cards import SUITS, Card
from games.poker.hands import STANDARD, VALUE, PokerHandError, short
from games.poker.low import LOW_VALUE
from games.poker.mexican import DECK_RANKS, MEXICAN

STUD_GAMES: tuple[str, ...] = ("stud", "stud_hi_lo", "razz", "mexican_stud")

_SUIT = {s: i for i, s in enumerate(SUITS)}   # clubs 0 < diamonds < hearts < spades 3
_RAZZ_PATTERNS = {(1,): 0, (2,): 1, (2, 2): 2, (3,): 3, (4,): 4}


def bring_in(game: str, up: Mapping[int, Card], *, exempt: Collection[int] = (), dealer: int = 0,
             tie: Literal["position", "suit"] = "position") -> int:
    """The seat that makes the forced bet on the first round, from each seat's up card.

    ``stud``/``stud_hi_lo``: the lowest card, ace high, suits C < D < H < S; ``razz``: the highest,
    king high, ace low, suits the same way; ``mexican_stud``: the highest, the joker above all,
    ties by position clockwise from ``dealer`` (the button) or by suit. ``exempt``: seats whose hole
    card was exposed ("the hand cannot be forced low")."""
    seats = {s: c for s, c in up.items() if s not in exempt}
    if not seats:
        raise ValueError("no up card to bring in")
    _check(game, [c for c in seats.values()])
    if game in ("stud", "stud_hi_lo"):
        return min(seats, key=lambda s: (VALUE[seats[s].rank], _SUIT[seats[s].suit]))
    if game == "razz":
        return max(seats, key=lambda s: (LOW_VALUE[seats[s].rank], _SUIT[seats[s].suit]))
    if tie not in ("position", "suit"):
        raise ValueError(f"tie: 'position' or 'suit', not {tie!r}")

    def high(s: int) -> tuple[int, ...]:
        c = seats[s]
        if c.is_joker:
            return (15, 0, 0)
        second = _SUIT[c.suit] if tie == "suit" else -_distance(s, dealer)
        return (VALUE[c.rank], second, 0)

    return max(seats, key=high)


def first_to_act(game: str, showing: Mapping[int, Sequence[Card]], *, dealer: int = 0) -> int:
    """The seat that acts first on a later street: the best hand showing (Razz: the best low),
    ties to the seat closest clockwise from ``dealer`` (0, the house dealer: the lowest seat;
    Mexican Stud: the button's seat)."""
    if not showing:
        raise ValueError("no hand showing")
    keys = {s: showing_key(game, cards) for s, cards in showing.items()}
    top = max(keys.values())
    return min((s for s, k in keys.items() if k == top), key=lambda s: _distance(s, dealer))


def showing_key(game: str, cards: Sequence[Card]) -> tuple:
    """A key for one to four cards showing: greater is the better showing hand for ``game``
    (for Razz, the better low)."""
    if not 1 <= len(cards) <= 4:
        raise PokerHandError(f"a hand showing is one to four cards, not {len(cards)}")
    _check(game, cards)
    if game in ("stud", "stud_hi_lo"):
        return short(cards, STANDARD).key
    if game == "razz":
        return razz_showing(cards)
    jokers = [c for c in cards if c.is_joker]
    if not jokers:
        return short(cards, MEXICAN).key
    rest = [c for c in cards if not c.is_joker]
    return max(short([*rest, Card(r, "S")], MEXICAN).key for r in DECK_RANKS)


def razz_showing(cards: Sequence[Card]) -> tuple[int, ...]:
    """Choice 2: the fewer and smaller groups the better, then the ranks from the top, ace low;
    greater is the better low (as :class:`games.poker.low.LowHand` compares)."""
    counts = Counter(LOW_VALUE[c.rank] for c in cards)
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    pattern = tuple(n for n in sorted(counts.values(), reverse=True) if n > 1) or (1,)
    return (-_RAZZ_PATTERNS[pattern], *(-v for v in order))


def _distance(seat: int, dealer: int) -> int:
    """How far clockwise ``seat`` is from the left of ``dealer``: its seat number counted from
    ``dealer`` (seats after it first, then the rest round the table)."""
    return (seat - dealer - 1) % 10_000


def _check(game: str, cards: Sequence[Card]) -> None:
    if game not in STUD_GAMES:
        raise ValueError(f"game: a stud game ({', '.join(STUD_GAMES)}), not {game!r}")
    for c in cards:
        if c.is_joker:
            if game != "mexican_stud":
                raise PokerHandError(f"{game} has no joker")
        elif c.rank not in VALUE:
            raise PokerHandError(f"{c} is not a card of a poker deck")
        elif game == "mexican_stud" and c.rank in MEXICAN.removed:
            raise PokerHandError(f"{c} is not in Mexican Stud's 41-card deck")
    if sum(c.is_joker for c in cards) > 1:
        raise PokerHandError("one joker at most")


__all__ = ["STUD_GAMES", "bring_in", "first_to_act", "razz_showing", "showing_key"]
