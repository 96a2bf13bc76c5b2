"""7 Card Thrill's options: the seats (the dealer's hand is not one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.cards import Card
from games.decks import DeckSpec, standard
from games.options import OptionError, whole_number
from games.seven_card_thrill import rules

OPTIONS_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}


@dataclass(frozen=True)
class ThrillOptions:
    """- ``seats``: 1 to 6 players: seven cards each and seven for the dealer come from 53 cards,
    so at most six hands besides the dealer's (7 x 7 = 49)."""

    seats: int = 6
    spec: DeckSpec = field(default_factory=lambda: standard(1, jokers=1))   # 52 and one joker

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 1 <= self.seats <= 6:
            raise OptionError("seats", f"7 Card Thrill deals 7 cards to each seat and the dealer from 53: "
                                       f"1 to 6 seats, not {self.seats}")

    def settle(self, hands: Mapping[int, Sequence[Card]], dealer: Sequence[Card]) -> dict:
        return rules.settle(hands, dealer)

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> ThrillOptions:
        return cls(seats=seats, **section)
