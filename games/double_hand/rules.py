"""Double-Hand Poker's rules as pure functions (california-card-room-games.txt, "DOUBLE-HANDED
POKER", lines 873-925, and the Palace Card Club's "Double Hand Poker" limits, lines 639-655).

The sheet numbers only its hand ranking. Its other passages are cited here by these tags, in the
sheet's order (line numbers of california-card-room-games.txt):

- **O** (877, "Object of the Game"): both hands must beat the designated player's to win; one
  hand higher and the other lower is a push.
- **R1-R11** (879-891): the ranking, "as traditional poker hands": 1 five aces, 2 royal flush,
  3 straight flush, 4 four of a kind, 5 full house, 6 flush, 7 straight, 8 three of a kind,
  9 two pair, 10 one pair, 11 high card (ace high).
- **D** (895, "The Deck"): 52 cards and one joker; the joker "can only be used as an Ace or to
  complete a flush or a straight"; aces high or low.
- **T** (897): each position takes a turn as the designated player, who may accept or reject it.
- **P1-P13** (899-925, "The basic playing of the game"), one per paragraph: P1 the center
  dealer shuffles and deals; P2 every player, the designated player too, wagers before the
  deal, the designated player against all the others; P3 seven hands of seven, face down, in a
  row from left to right; P4 the designated player puts the action button on a hand and shakes
  three dice; the total counts the player positions clockwise from the one to its immediate
  left, and the position reached receives that hand; P5 the other hands go "in sequence, moving
  right from the selected hand and then from the far left", clockwise to the players from the
  left of the one that received the selected hand; P6 each player arranges his seven cards into
  two hands; P7 face down, the two-card hand in front and the five-card hand behind: "The
  higher ranking hand must be the five card hand"; P8 the center dealer may help a player
  arrange them; P9 when every hand is placed, the designated player's hand is turned up; P10
  every hand is compared with it; P11 to win, the two-card and the five-card hand must each rank
  higher than the designated player's; P12 one higher and one lower is a push; P13 the house
  does not play and collects time charges.

Readings where the sheet is silent (the ``[game]`` option in brackets where two are plausible):

1. The joker (D) follows games.poker.hands' ``"bug"``: an ace, or the card that completes a
   straight, a flush or a straight flush (a straight flush is both); five aces rank first (R1).
   In the two-card hand there is nothing to complete, so it is an ace there (JK A is a pair of
   aces).
2. A-2-3-4-5 [``wheel``]: "aces can be used either high or low" and "traditional poker hands":
   the lowest straight (``"lowest"``); ``"second_highest"`` is the other reading of California
   card rooms (7 Card Thrill's sheet says it outright).
3. A two-card hand is ranked by its pair or its two cards (a straight or a flush takes five);
   with the same pair or the same two top cards, a five-card hand, which has more cards, ranks
   higher (games.poker.hands.short). So "must outrank" (P7) is strict and can always be met.
4. A tied hand ("a copy") [``ties``]: the sheet decides only win-win, lose-lose and win-lose (O,
   P11, P12). ``"designated_player"`` (default): a copy goes to the designated player, as the
   card rooms' banked pai gow games have it, so win + copy is a push and lose + copy or copy +
   copy loses. ``"push"``: the player wins only if both hands win and loses only if both lose;
   anything else pushes.
5. Every wager is even money (O: "both hands must beat"; the sheet prints no other pay); the
   controller sees no chips, so the result says win, push or lose per seat and the dealer pays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from games.cards import STANDARD_RANKS, Card
from games.dice import seat_for_total
from games.poker.hands import (
    FIVE_ACES,
    FLUSH,
    FULL_HOUSE,
    HIGH,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Hand,
    HighRules,
    best,
    short,
)
from games.wagers import Pays, WagerResult

HANDS = 7
"""P3: seven hands ..."""
CARDS = 7
"""... of seven cards each."""
DECK = 53
"""D: 52 cards and one joker."""
LEFT = DECK - HANDS * CARDS
"""What the shuffler still holds after the seven hands: exactly 4 (GAMES.md's check)."""
FIVE, TWO = 5, 2
"""P6-P7: the five-card hand behind, the two-card hand in front."""
DICE = 3
"""P4: a dice cup containing 3 dice."""
MAX_SEATS = HANDS
"""One hand per player position: at most seven positions."""

Ties = Literal["designated_player", "push"]
TIES: tuple[str, ...] = ("designated_player", "push")
WHEELS: tuple[str, ...] = ("lowest", "second_highest")
EVEN = Pays(1)
WAGER = "double_hand"
"""The one wager of a seat against the designated player (P2)."""
RANK_NAMES = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10", 13.5: "5 (A-2-3-4-5)"}


class SetError(ValueError):
    """A setting the rules refuse; the message says which rule and why."""


def rules_for(wheel: str = "lowest") -> HighRules:
    """Reading 1 and 2: the joker as an ace or to complete a straight or flush, five aces first."""
    if wheel not in WHEELS:
        raise ValueError(f"wheel must be one of {', '.join(WHEELS)}, not {wheel!r}")
    return HighRules(joker="bug", five_aces=True, wheel=wheel)  # type: ignore[arg-type]


def _rank(value: float) -> str:
    return RANK_NAMES.get(value, str(int(value)))


def describe(hand: Hand) -> str:
    """A hand as a dealer says it, ranks included, so that two hands of one category are told
    apart in a dispute (``pair of K``, ``high card A-Q``, ``full house 8 over 5``)."""
    k, c = hand.key, hand.category
    if c == FIVE_ACES:
        return "five aces"
    if c == STRAIGHT_FLUSH:
        return "royal flush" if k[1] == 14 else f"straight flush to {_rank(k[1])}"
    if c == QUADS:
        return f"four of a kind {_rank(k[1])}"
    if c == FULL_HOUSE:
        return f"full house {_rank(k[1])} over {_rank(k[2])}"
    if c == FLUSH:
        return "flush " + "-".join(_rank(v) for v in k[1:])
    if c == STRAIGHT:
        return f"straight to {_rank(k[1])}"
    if c == TRIPS:
        return f"three of a kind {_rank(k[1])}"
    if c == TWO_PAIR:
        return f"two pair {_rank(k[1])} and {_rank(k[2])}"
    if c == PAIR:
        return f"pair of {_rank(k[1])}"
    assert c == HIGH
    return "high card " + "-".join(_rank(v) for v in k[1:])


_BY_RANK = {r: i for i, r in enumerate(("JK", "A", *reversed(STANDARD_RANKS[1:])))}


def in_rank_order(cards: Sequence[Card]) -> list[str]:
    """Cards as they are published: by rank (the joker, ace, king ... two), then suit -- never in
    the order the shuffler formed the hand."""
    return [c.code for c in sorted(cards, key=lambda c: (_BY_RANK[c.rank], c.suit or ""))]


@dataclass(frozen=True)
class SetHand:
    """A player's seven cards arranged as P7 wants them: two in front, five behind."""

    two: tuple[Card, ...]
    five: tuple[Card, ...]
    two_rank: Hand
    five_rank: Hand

    def to_dict(self) -> dict:
        return {"two": {"cards": in_rank_order(self.two), "hand": describe(self.two_rank)},
                "five": {"cards": in_rank_order(self.five), "hand": describe(self.five_rank)}}


def arrange(two: Sequence[Card], five: Sequence[Card], rules: HighRules) -> SetHand:
    """Rank a setting and check it (P7: "The higher ranking hand must be the five card hand").

    Raises :class:`SetError` naming both hands when the five-card hand does not outrank the
    two-card hand, or when a hand has the wrong number of cards.
    """
    if len(two) != TWO or len(five) != FIVE:
        raise SetError(f"a setting is a two-card hand and a five-card hand (P7), not {len(two)} and {len(five)} "
                       "cards")
    two_rank, five_rank = short(two, rules), best(five, rules)
    if not five_rank > two_rank:
        raise SetError(f"the five-card hand ({describe(five_rank)}) does not outrank the two-card hand "
                       f"({describe(two_rank)}): the higher ranking hand must be the five-card hand (P7)")
    return SetHand(tuple(two), tuple(five), two_rank, five_rank)


def settings(seven: Sequence[Card], rules: HighRules) -> list[SetHand]:
    """Every legal way to set seven cards (of the 21 two-card hands, those the rest outranks)."""
    out = []
    for pick in combinations(range(len(seven)), TWO):
        two = [seven[i] for i in pick]
        five = [c for i, c in enumerate(seven) if i not in pick]
        two_rank, five_rank = short(two, rules), best(five, rules)
        if five_rank > two_rank:
            out.append(SetHand(tuple(two), tuple(five), two_rank, five_rank))
    return out


def house_way(seven: Sequence[Card], rules: HighRules) -> SetHand:
    """The controller's house way (P8: the center dealer helps a player who asks): of the legal
    settings, in this order of preference,

    1. a pair (or better) in front: two pair split, the lower pair in front; a full house split,
       its pair in front; three pair with the highest pair in front;
    2. the best kind of five-card hand behind: a straight, flush or better kept; one pair kept
       behind, never broken up for a higher card in front; three of a kind kept;
    3. the best two-card hand in front (no pair: the second and third best cards);
    4. the best five-card hand behind.

    Raises :class:`SetError` if no setting is legal (seven cards always have one; the error is
    for a hand that is not seven cards).
    """
    if len(seven) != CARDS:
        raise SetError(f"a Double-Hand Poker hand is {CARDS} cards (P3), not {len(seven)}")
    legal = settings(seven, rules)
    if not legal:
        raise SetError("no setting of these cards has a five-card hand that outranks its two-card hand (P7)")
    return max(legal, key=lambda s: (s.two_rank.category >= PAIR, s.five_rank.category, s.two_rank, s.five_rank))


def versus(mine: Hand, theirs: Hand) -> str:
    """One hand against the designated player's: ``win``, ``lose`` or ``tie`` (a copy)."""
    return "win" if mine > theirs else "lose" if mine < theirs else "tie"


def settle(player: SetHand, designated: SetHand, ties: str = "designated_player") -> tuple[str, str, WagerResult]:
    """A seat against the designated player (O, P10-P12, reading 4): each hand's comparison and
    the wager's fate."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}, not {ties!r}")
    two, five = versus(player.two_rank, designated.two_rank), versus(player.five_rank, designated.five_rank)
    said = (f"two-card {describe(player.two_rank)} {_verb(two)} {describe(designated.two_rank)}; "
            f"five-card {describe(player.five_rank)} {_verb(five)} {describe(designated.five_rank)}")
    if ties == "designated_player":
        won = [two == "win", five == "win"]
        if all(won):
            return two, five, WagerResult(WAGER, "win", EVEN, f"{said}: both hands win (P11)")
        if any(won):
            copy = " (a copy goes to the designated player)" if "tie" in (two, five) else ""
            return two, five, WagerResult(WAGER, "push", None, f"{said}: one hand wins and one loses{copy}: "
                                                                 "a push (P12)")
        copy = ": a copy goes to the designated player" if "tie" in (two, five) else ""
        return two, five, WagerResult(WAGER, "lose", None, f"{said}{copy}: neither hand wins (O)")
    if two == five == "win":
        return two, five, WagerResult(WAGER, "win", EVEN, f"{said}: both hands win (P11)")
    if two == five == "lose":
        return two, five, WagerResult(WAGER, "lose", None, f"{said}: both hands lose (O)")
    return two, five, WagerResult(WAGER, "push", None, f"{said}: not both won nor both lost, a copy pushes: "
                                                         "a push (P12, ties = push)")


def _verb(outcome: str) -> str:
    return {"win": "beats", "lose": "loses to", "tie": "ties"}[outcome]


# --- the deal ---------------------------------------------------------------------------------

def first_seat(total: int, designated: int, seats: int) -> int:
    """P4: the position the dice total reaches, counting clockwise from the position to the
    designated player's immediate left as 1 (every position at the table, the designated
    player's too, whether or not a player sits there)."""
    left = designated % seats + 1
    return seat_for_total(total, left, range(1, seats + 1), "clockwise")


def hands_out(selected: int, first: int, seats: int) -> dict[int, int]:
    """P4-P5: which row place's hand each seat receives. The selected hand goes to ``first``;
    the hands to its right, then from the far left, go clockwise to the next seats. With fewer
    than seven positions the hands left over are dead (never played, never shown)."""
    if not 1 <= selected <= HANDS:
        raise ValueError(f"the row holds hands 1..{HANDS}, not {selected}")
    if not 2 <= seats <= MAX_SEATS or not 1 <= first <= seats:
        raise ValueError(f"seat {first} of {seats}: seats are 2..{MAX_SEATS} positions")
    return {(first - 1 + i) % seats + 1: (selected - 1 + i) % HANDS + 1 for i in range(seats)}


def dead_hands(out: Mapping[int, int]) -> list[int]:
    """The row places no seat receives (fewer than seven positions)."""
    return sorted(set(range(1, HANDS + 1)) - set(out.values()))


def showdown_order(designated: int, seats: int) -> list[int]:
    """P9-P10: the designated player's hand is turned up first, then every other hand is
    compared with it, clockwise from the designated player's left."""
    return [(designated - 1 + i) % seats + 1 for i in range(seats)]


def outcome(designated: int, sets: Mapping[int, SetHand], ties: str) -> dict:
    """The ``result``'s ``designated`` and ``seats``: every seat's setting, each hand against the
    designated player's, and the wager (reading 5: even money)."""
    dp = sets[designated]
    seats: dict[str, dict] = {}
    for seat, mine in sorted(sets.items()):
        if seat == designated:
            continue
        two, five, wager = settle(mine, dp, ties)
        seats[str(seat)] = {**mine.to_dict(), "two_vs": two, "five_vs": five, "wagers": [wager.to_dict()]}
    return {"designated": {"seat": designated, **dp.to_dict()}, "seats": seats}
