"""Commission-Free Baccarat: the pure evaluator (california-card-room-games.txt).

Everything here is a function of the cards on the layout, so the round
machine (:mod:`games.baccarat`), the simulator and a dispute desk all get the
same answer. Rule numbers refer to the sheet's section "Commission-Free
Baccarat", rules 1-22, and its section "Player-dealer and Deal".

The sheet's "player-dealer hand" and "dealer hand" are the *banker* hand of
classic baccarat (rule 10: the community hand that belongs to the banker
betting circle); this module calls the two hands ``"player"`` and
``"banker"`` as the layout's betting circles do (rule 8).

The order of play, as the controller sequences it:

1. Rule 11: player, banker, player, banker, one card at a time; the
   banker's second card is dealt face down (rule 10).
2. Rule 18: if either hand's first two cards total 8 or 9 (a *natural*),
   neither hand draws.
3. Rule 13: otherwise the player hand draws on 0-5 and stands on 6-9
   (it can only be 6 or 7 here: 8 and 9 are naturals).
4. Rule 16: then the banker hand draws by the rule-16 chart: 16a when the
   player stood, 16b/16c (the chart) on the value of the player's third
   card when the player drew.
5. Rule 19: the hand closer to nine wins; see :func:`outcome` for the pays.
6. Rule 21: the banker's second card places the action button; see
   :func:`action_button`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from games.cards import Card

Hand = Literal["player", "banker"]
Winner = Literal["player", "banker", "tie"]
ActionWrap = Literal["around_table", "skip_player_dealer"]

ACTION_WRAPS: tuple[str, ...] = ("around_table", "skip_player_dealer")

DEAL_ORDER: tuple[Hand, ...] = ("player", "banker", "player", "banker")
"""Rule 11: the first four cards, one at a time in rotation."""

HOLE_POSITION = 2
"""Rule 10: the banker's second card is dealt face down."""

MAX_SEATS = 8
"""Rule 3: "a standard baccarat table which accommodates up to eight seated positions"."""

MIN_SEATS = 2
"""A player-dealer game needs the player-dealer and at least one other seated player."""

_POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
           "10": 0, "J": 0, "Q": 0, "K": 0}

_ACTION_COUNTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                  "10": 10, "J": 11, "Q": 12, "K": 13}

# Rule 16c, the chart as printed on the sheet: banker's two-card score (rows)
# against the value of the player's third card (columns 0-9). "H" hits,
# "S" stands. Rows 8 and 9 never get here: they are naturals (rule 18).
_CHART: dict[int, str] = {
    7: "SSSSSSSSSS",
    6: "SSSSSSHHSS",
    5: "SSSSHHHHSS",
    4: "SSHHHHHHSS",
    3: "HHHHHHHHSH",
    2: "HHHHHHHHHH",
    1: "HHHHHHHHHH",
    0: "HHHHHHHHHH",
}


class BaccaratCardError(ValueError):
    """A card that has no place in a Commission-Free Baccarat shoe (rule 2)."""


def point(card: Card) -> int:
    """The baccarat value of one card.

    Rule 4: 2-9 count their face value; rule 5: tens and picture cards
    count 0; rule 6: aces count 1. Rule 2: eight standard decks and no
    jokers, so a joker (or a Bet'Win card) raises :class:`BaccaratCardError`.
    """
    if card.is_joker:
        raise BaccaratCardError("a joker has no value: Commission-Free Baccarat uses no jokers (rule 2)")
    try:
        return _POINTS[card.rank]
    except KeyError:
        raise BaccaratCardError(f"{card.code} is not a card of a standard 52-card deck (rule 2)") from None


def total(hand: Sequence[Card]) -> int:
    """The value of a hand: the last digit of the sum of its cards (rules 12 and 17)."""
    return sum(point(c) for c in hand) % 10


def is_natural(hand: Sequence[Card]) -> bool:
    """Rule 18: a hand's *first two* cards total 8 or 9.

    Only the first two cards count: a hand that reaches 8 or 9 with its
    third card is not a natural.
    """
    return len(hand) >= 2 and total(hand[:2]) in (8, 9)


def player_draws(player_total: int) -> bool:
    """Rule 13: the player hand hits on 0-5 (13b) and stands on 6-9 (13a).

    This is the rule for a two-card player hand with no natural on the
    table; rule 18 (naturals) is applied by :func:`next_draw`.
    """
    _check_total(player_total)
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether a two-card banker hand draws (rule 16).

    ``player_third`` is the *value* (0-9, rules 4-6) of the player's third
    card, or None when the player stood.

    - 16a, the player stood: the banker hits on 0-5 and stands on 6 or more.
    - 16b/16c, the player drew: the chart (16c), which 16b spells out:
      3 draws unless the player's third card was an 8 (16b-i); 4 draws
      unless it was 0, 1, 8 or 9 (16b-ii); 5 draws on 4-7 (16b-iii);
      6 draws on 6 or 7 (16b-iv); 0-2 always draw; 7 always stands.
    - 8 and 9 are naturals (rule 18) and never draw.
    """
    _check_total(banker_total)
    if banker_total >= 8:
        return False
    if player_third is None:
        return banker_total <= 5
    _check_total(player_third)
    return _CHART[banker_total][player_third] == "H"


def next_draw(player: Sequence[Card], banker: Sequence[Card]) -> Hand | None:
    """Which hand the rules give the next card to, once the first four are out.

    ``player`` and ``banker`` are the hands as dealt so far (the initial
    P, B, P, B of rule 11 and any third cards). Returns ``"player"``,
    ``"banker"`` or None when both hands are complete.

    Rule 18 first (a natural on either side stops all draws), then rule 13
    for the player, then rule 16 for the banker (16a if the player stood,
    the chart on the player's third card otherwise). Each hand takes at most
    one third card.
    """
    _check_hands(player, banker)
    if is_natural(player) or is_natural(banker):
        return None
    if len(player) == 2 and len(banker) == 2 and player_draws(total(player)):
        return "player"
    if len(banker) == 3:
        return None
    third = point(player[2]) if len(player) == 3 else None
    return "banker" if banker_draws(total(banker), third) else None


def next_card(player: Sequence[Card], banker: Sequence[Card]) -> tuple[Hand, int] | None:
    """The next card of the whole round as ``(hand, position)``, or None when complete.

    Positions count from 1 within a hand. The first four follow rule 11
    (player, banker, player, banker); after them :func:`next_draw` decides.
    """
    dealt = len(player) + len(banker)
    if dealt < len(DEAL_ORDER):
        expect_player = sum(1 for h in DEAL_ORDER[:dealt] if h == "player")
        if len(player) != expect_player:
            raise ValueError(f"hands of {len(player)} and {len(banker)} cards are not a rule-11 deal")
        hand = DEAL_ORDER[dealt]
        return hand, (len(player) if hand == "player" else len(banker)) + 1
    hand_next = next_draw(player, banker)
    if hand_next is None:
        return None
    return hand_next, 3


def player_complete(player: Sequence[Card], banker: Sequence[Card]) -> bool:
    """Whether the player hand will take no more cards.

    The banker's face-down second card is turned when this becomes true
    (rule 10 with rules 13-15: the player's hand is settled, then "the
    dealer will deal the player-dealer's final card", rule 15).
    """
    if len(player) + len(banker) < len(DEAL_ORDER):
        return False
    return len(player) == 3 or next_draw(player, banker) != "player"


def draw_reason(player: Sequence[Card], banker: Sequence[Card]) -> str:
    """Why the card that :func:`next_card` names is due: for prompts and alarms.

    While the banker's second card is face down this text says nothing of
    the banker hand (DESIGN.md, "What must never leave the controller").
    """
    nxt = next_card(player, banker)
    if nxt is None:
        return stand_reason(player, banker)
    hand, position = nxt
    if position <= 2:
        return f"{hand} card {position} (rule 11)"
    if hand == "player":
        return f"player has {total(player)}: draws (rule 13b)"
    if len(player) == 2:
        return f"player stood on {total(player)}: banker has {total(banker)}, draws (rule 16a)"
    return (f"banker has {total(banker)}, player's third card {point(player[2])}: "
            f"draws ({_rule16_clause(total(banker))})")


def stand_reason(player: Sequence[Card], banker: Sequence[Card]) -> str:
    """Why no card is due: ``"no card: player stands on 7, banker stands on 6"``.

    Only meaningful once both hands are complete (the banker's card face up).
    """
    _check_hands(player, banker)
    if is_natural(player) or is_natural(banker):
        naturals = [f"{name} natural {total(h[:2])}" for name, h in (("player", player), ("banker", banker))
                    if is_natural(h)]
        return f"no card: {' and '.join(naturals)}, neither hand draws (rule 18)"
    p = f"player drew to {total(player)}" if len(player) == 3 else f"player stands on {total(player)}"
    b = f"banker drew to {total(banker)}" if len(banker) == 3 else f"banker stands on {total(banker)}"
    return f"no card: {p}, {b}"


def _rule16_clause(banker_total: int) -> str:
    return {3: "rule 16b-i", 4: "rule 16b-ii", 5: "rule 16b-iii", 6: "rule 16b-iv"}.get(
        banker_total, "rule 16c")


@dataclass(frozen=True)
class Payout:
    """How one betting circle fares: ``outcome`` and, for a win, ``odds`` as (pays, per)."""

    outcome: Literal["win", "lose", "push"]
    odds: tuple[int, int] | None = None

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, "odds": list(self.odds) if self.odds else None}


PLAYER_ODDS = (1, 1)        # rule 8a
BANKER_ODDS = (1, 1)        # rule 8b
BANKER_SIX_ODDS = (1, 2)    # rules 8b and 19b: "half-pay (1 to 2)"
TIE_ODDS = (8, 1)           # rules 8c and 19c


@dataclass(frozen=True)
class Outcome:
    """The result of a complete round (rule 19)."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    player_natural: bool
    banker_natural: bool
    winner: Winner
    banker_six: bool
    payouts: dict[str, Payout]

    def to_dict(self) -> dict:
        """The ``result`` event's data (docs/internals.md)."""
        return {
            "player": {"cards": [c.code for c in self.player], "total": self.player_total,
                       "natural": self.player_natural},
            "banker": {"cards": [c.code for c in self.banker], "total": self.banker_total,
                       "natural": self.banker_natural},
            "winner": self.winner,
            "banker_six": self.banker_six,
            "payouts": {k: v.to_dict() for k, v in self.payouts.items()},
        }


def outcome(player: Sequence[Card], banker: Sequence[Card]) -> Outcome:
    """Decide a complete round and price every betting circle.

    - Rule 19a: the player hand closer to nine wins; player bets pay 1:1 (8a).
    - Rule 19b: the banker hand closer to nine wins; banker bets pay 1:1,
      but a banker win *with a total of 6* pays half, 1:2 (rule 8b). The
      6 may be reached with two or three cards: the sheet says "wins with a
      total of 6" without regard to how.
    - Rule 19c: a tie pays tie bets 8:1 (8c); rule 19d: player and banker
      bets push on a tie.
    - Tie bets lose when either hand wins.

    Raises ValueError when the hands are not complete (a card is still due).
    """
    if next_card(player, banker) is not None:
        raise ValueError("the round is not complete: " + draw_reason(player, banker))
    pt, bt = total(player), total(banker)
    if pt > bt:
        winner: Winner = "player"
        payouts = {"player": Payout("win", PLAYER_ODDS), "banker": Payout("lose"), "tie": Payout("lose")}
    elif bt > pt:
        winner = "banker"
        odds = BANKER_SIX_ODDS if bt == 6 else BANKER_ODDS
        payouts = {"player": Payout("lose"), "banker": Payout("win", odds), "tie": Payout("lose")}
    else:
        winner = "tie"
        payouts = {"player": Payout("push"), "banker": Payout("push"), "tie": Payout("win", TIE_ODDS)}
    return Outcome(tuple(player), tuple(banker), pt, bt, is_natural(player), is_natural(banker),
                   winner, winner == "banker" and bt == 6, payouts)


# --- Rule 21: the action button ------------------------------------------------------------


@dataclass(frozen=True)
class ActionButton:
    """Where the action button goes.

    ``position`` counts seats clockwise from the player-dealer, who is
    always position 0 (rule 21); ``seat`` is the physical seat (1..N,
    numbered clockwise) at that position. ``first_action_seat`` is who
    receives first action: the seat at the button, except that a button on
    the player-dealer's own position (0) gives first action to the player to
    the player-dealer's left, the order rule 21 uses when the player-dealer
    covers all action.
    """

    card: Card
    count: int
    position: int
    seat: int
    first_action_seat: int

    def to_dict(self) -> dict:
        """The ``action_button`` event's data (docs/internals.md)."""
        return {"card": self.card.code, "count": self.count, "position": self.position, "seat": self.seat,
                "first_action_seat": self.first_action_seat}


def action_count(card: Card) -> int:
    """Rule 21's action button card chart: A=1, 2 through 10 face value, J=11, Q=12, K=13.

    Note this differs from the baccarat point value (a 10 counts 10 here, 0
    in a hand; rule 5).
    """
    if card.is_joker or card.rank not in _ACTION_COUNTS:
        raise BaccaratCardError(f"{card.code} has no action-button value (rule 21 chart)")
    return _ACTION_COUNTS[card.rank]


def action_position(count: int, seats: int, wrap: ActionWrap = "around_table") -> int:
    """The position (0 = the player-dealer) a count reaches on a table of ``seats`` seats.

    Rule 21 numbers the player-dealer 0 and the other seats 1, 2, ...
    clockwise from the player to the player-dealer's left, but a count runs
    to 13 and a table has at most eight seats (rule 3), and the sheet does
    not say what happens past the last seat. Two readings, chosen by the
    table's config (GAMES.md: "make it a config option where two readings
    are plausible"):

    - ``"around_table"`` (default): keep counting round the table through
      the player-dealer's own position: ``position = count mod seats``.
      Position 0 then means first action goes to the player to the
      player-dealer's left, the same order rule 21 uses when the
      player-dealer covers all action.
    - ``"skip_player_dealer"``: count only the other seats, so the button
      never lands on the player-dealer:
      ``position = ((count - 1) mod (seats - 1)) + 1``.
    """
    if seats < 2:
        raise ValueError(f"a table needs at least 2 seats, not {seats}")
    if count < 1:
        raise ValueError(f"an action count is at least 1, not {count}")
    if wrap == "around_table":
        return count % seats
    if wrap == "skip_player_dealer":
        return (count - 1) % (seats - 1) + 1
    raise ValueError(f"unknown action_wrap {wrap!r}: choose one of {', '.join(ACTION_WRAPS)}")


def seat_at(position: int, player_dealer_seat: int, seats: int) -> int:
    """The physical seat ``position`` places clockwise from the player-dealer.

    Seats are numbered 1..N clockwise, so position p from seat s is
    ``((s - 1 + p) mod N) + 1``.
    """
    if not 1 <= player_dealer_seat <= seats:
        raise ValueError(f"player-dealer seat {player_dealer_seat} is not one of seats 1..{seats}")
    return (player_dealer_seat - 1 + position) % seats + 1


def action_button(card: Card, player_dealer_seat: int, seats: int,
                  wrap: ActionWrap = "around_table") -> ActionButton:
    """Rule 21: the banker's second card places the action button.

    ``card`` is the second card dealt to the banker (the player-dealer's)
    hand, i.e. the one dealt face down (rule 10).
    """
    count = action_count(card)
    position = action_position(count, seats, wrap)
    seat = seat_at(position, player_dealer_seat, seats)
    first = seat if position else seat_at(1, player_dealer_seat, seats)
    return ActionButton(card, count, position, seat, first)


def _check_total(value: int) -> None:
    if not 0 <= value <= 9:
        raise ValueError(f"a baccarat total or card value is 0-9, not {value}")


def _check_hands(player: Sequence[Card], banker: Sequence[Card]) -> None:
    if not (2 <= len(player) <= 3 and 2 <= len(banker) <= 3):
        raise ValueError(
            f"hands of {len(player)} and {len(banker)} cards: each hand has 2 or 3 cards after the deal")
