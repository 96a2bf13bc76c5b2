"""Three Card Poker's settlement (california-card-room-games.txt, Three Card Poker: "Round of Play"
R1-R12, the Action Button Card Chart (R8) and the Bonus Bet B1-B8).

Choices where the sheet is silent:
- A fold forfeits the ante and the bonus (R3a); it has no play wager, so none is reported.
- The bonus (B3-B5) pays on the player's three cards whatever the player-dealer holds, unless
  the seat folded (R3a); the table is an option (``bonus``), the sheet's B8 by default.
- The action button (R8): the face-down card's value (A 1, 2-10 face, J Q K 0) counts the seats
  clockwise from the casino dealer's left, the player-dealer's seat not counted; a count past
  the last player wraps around; a count of 0 puts the button on the player-dealer's position,
  and first action goes to the player on the player-dealer's left (the order R9 settles in).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games.cards import Card
from games.three_card_poker.hands import key, name, qualifies
from games.wagers import Pays, WagerResult

BONUS: dict[str, Pays] = {"royal flush": Pays(200), "straight flush": Pays(40), "three of a kind": Pays(30),
                          "straight": Pays(6), "flush": Pays(3), "pair": Pays(1)}
"""B8: the Bonus Bet payout table."""


@dataclass(frozen=True)
class Paytable:
    bonus: dict[str, Pays] = field(default_factory=lambda: dict(BONUS))


def action_value(card: Card) -> int:
    """R8's chart: Ace 1, 2-10 their face value, Jack, Queen and King 0."""
    if card.rank == "A":
        return 1
    if card.rank in ("J", "Q", "K") or card.is_joker:
        return 0
    return int(card.rank)


def action_button(card: Card, player_dealer: int, seats: int) -> dict:
    """Where the button goes and who acts first (R8), as the ``action_button`` event's data."""
    players = [s for s in range(1, seats + 1) if s != player_dealer]
    count = action_value(card)
    if count == 0:
        left_of_pd = (player_dealer % seats) + 1
        return {"card": card.code, "count": 0, "position": 0, "seat": player_dealer, "first_action_seat": left_of_pd}
    position = (count - 1) % len(players) + 1
    seat = players[position - 1]
    return {"card": card.code, "count": count, "position": position, "seat": seat, "first_action_seat": seat}


def settle_seat(player: Sequence[Card], played: bool, dealer: Sequence[Card],
                table: Paytable = Paytable(), suited_pair: str = "flush") -> list[WagerResult]:
    """Ante, play (when played) and bonus of one seat against the player-dealer's hand (a pair in
    one suit ranked as ``suited_pair`` says: games.three_card_poker.hands)."""
    pk, dk = key(player, suited_pair), key(dealer, suited_pair)
    hand, dhand = name(pk), name(dk)
    out: list[WagerResult] = []
    if not played:
        out.append(WagerResult("ante", "lose", None, "folded: the ante is forfeited (R3)"))
        out.append(WagerResult("bonus", "lose", None, "folded: the bonus is forfeited with the ante (R3a)"))
        return out
    if not qualifies(dk):
        out.append(WagerResult("ante", "win", Pays(1), f"the player-dealer's {dhand} does not qualify: "
                                                        "antes are paid even money (R5a)"))
        out.append(WagerResult("play", "push", None, "the player-dealer does not qualify: the play bet is "
                                                     "returned (R5a)"))
    elif pk > dk:
        why = f"{hand} beats the player-dealer's {dhand} (R5b-i)"
        out += [WagerResult("ante", "win", Pays(1), why), WagerResult("play", "win", Pays(1), why)]
    elif pk < dk:
        why = f"the player-dealer's {dhand} beats {hand} (R5b-ii)"
        out += [WagerResult("ante", "lose", None, why), WagerResult("play", "lose", None, why)]
    else:
        why = f"identical hands ({hand}): a push (R5b-iii)"
        out += [WagerResult("ante", "push", None, why), WagerResult("play", "push", None, why)]
    pays = table.bonus.get(hand)
    out.append(WagerResult("bonus", "win", pays, f"{hand} (B8)") if pays is not None else
               WagerResult("bonus", "lose", None, f"{hand} pays no bonus (B5)"))
    return out


def settle(dealer: Sequence[Card], seats: Mapping[int, tuple[Sequence[Card], bool]],
           table: Paytable = Paytable(), suited_pair: str = "flush") -> dict:
    """The ``result`` data: the player-dealer's hand and each seat's wagers."""
    dk = key(dealer, suited_pair)
    return {
        "dealer": {"cards": [c.code for c in dealer], "hand": name(dk), "qualifies": qualifies(dk)},
        "seats": {str(seat): {"played": played, "cards": [c.code for c in cards] if played else None,
                              "hand": name(key(cards, suited_pair)) if played else None,
                              "wagers": [w.to_dict() for w in settle_seat(cards, played, dealer, table,
                                                                          suited_pair)]}
                  for seat, (cards, played) in sorted(seats.items())},
    }
