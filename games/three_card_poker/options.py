"""Three Card Poker's options: seats, decks, how the cards come, the first player-dealer, the bonus table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.cards import Card
from games.decks import DeckSpec, standard
from games.options import OptionError, check_round_fits, whole_number
from games.three_card_poker import rules
from games.three_card_poker.hands import SUITED_PAIRS
from games.wagers import Pays

MODES = ("shoe", "hand_shuffler")

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decks": {"type": "integer", "minimum": 1, "maximum": 8},
        "deal_from": {"enum": list(MODES)},
        "first_player_dealer_seat": {"type": "integer", "minimum": 1, "maximum": 14},
        "bonus": {"type": "object", "propertyNames": {"enum": list(rules.BONUS)},
                  "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 10000},
                  "x-why": "maps hands (royal flush, straight flush, three of a kind, straight, flush, pair) "
                           "to what they pay to 1"},
        "suited_pair": {"enum": list(SUITED_PAIRS)},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class ThreeCardPokerOptions:
    """- ``seats``: 2 to 14 including the player-dealer (Number of players: eight, ten or fourteen).
    - ``decks``: 1 to 8 (Type of card deck used, 3).
    - ``deal_from``: ``shoe`` or ``hand_shuffler`` (Type of card deck used, 1).
    - ``first_player_dealer_seat``: who holds the position when the table opens.
    - ``bonus``: the bonus table's pays (B8 by default; a hand left out pays nothing).
    - ``suited_pair``: with two decks or more, a pair in one suit ranks as the ``flush`` it also is
      ("All standard poker rankings will be used", the default) or as a ``pair``
      (games.three_card_poker.hands)."""

    seats: int = 8
    decks: int = 1
    deal_from: str = "shoe"
    first_player_dealer_seat: int = 1
    bonus: Mapping[str, int] = field(default_factory=lambda: {k: p.to for k, p in rules.BONUS.items()})
    suited_pair: str = "flush"
    spec: DeckSpec = field(init=False)

    def __post_init__(self) -> None:
        for name in ("seats", "decks", "first_player_dealer_seat"):
            whole_number(name, getattr(self, name))
        if not 2 <= self.seats <= 14:
            raise OptionError("seats", f"Three Card Poker seats 2 to 14 players including the player-dealer, "
                                       f"not {self.seats}")
        if not 1 <= self.decks <= 8:
            raise OptionError("decks", f"one to eight decks (Type of card deck used, 3), not {self.decks}")
        if self.deal_from not in MODES:
            raise OptionError("deal_from", f"must be one of {', '.join(MODES)}, not {self.deal_from!r}")
        if not 1 <= self.first_player_dealer_seat <= self.seats:
            raise OptionError("first_player_dealer_seat", f"must be one of seats 1..{self.seats}, "
                                                          f"not {self.first_player_dealer_seat}")
        if self.suited_pair not in SUITED_PAIRS:
            raise OptionError("suited_pair", f"must be one of {', '.join(SUITED_PAIRS)}, not {self.suited_pair!r}")
        object.__setattr__(self, "spec", standard(self.decks))
        if self.deal_from == "shoe":
            check_round_fits("seats", 3 * self.seats, self.spec.size, f"3 cards to each of {self.seats} seats, D1a")

    @property
    def paytable(self) -> rules.Paytable:
        return rules.Paytable({hand: Pays(to) for hand, to in self.bonus.items()})

    def settle(self, dealer: Sequence[Card], seats: Mapping[int, tuple[Sequence[Card], bool]]) -> dict:
        return rules.settle(dealer, seats, self.paytable, self.suited_pair)

    def action_button(self, card: Card, player_dealer: int, seats: int) -> dict:
        return rules.action_button(card, player_dealer, seats)

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> ThreeCardPokerOptions:
        return cls(seats=seats, **section)
