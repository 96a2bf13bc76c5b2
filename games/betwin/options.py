"""Bet'Win's options: seats, decks, the face order and the reading of "identical" (games.betwin.rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.betwin import rules
from games.cards import Card
from games.decks import DeckSpec, betwin
from games.options import OptionError, check_round_fits, whole_number
from games.wagers import WagerResult

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decks": {"type": "integer", "minimum": 1, "maximum": 8},
        "face_order": {"type": "array", "items": {"enum": list(rules.FACES)}, "minItems": 5, "maxItems": 5,
                       "uniqueItems": True, "x-why": "must list the five faces M V C D R once each, lowest first"},
        "identical": {"enum": ["rank", "rank_and_suit"]},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class BetWinOptions:
    """- ``seats``: 1 to 7 (1.2: "the layout is intended for 7 players").
    - ``decks``: six (1.1) unless the room says otherwise.
    - ``face_order``, ``identical``: games.betwin.rules."""

    seats: int = 7
    decks: int = 6
    face_order: tuple[str, ...] = rules.FACES
    identical: str = "rank"
    spec: DeckSpec = field(init=False)

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        whole_number("decks", self.decks)
        if not 1 <= self.seats <= 7:
            raise OptionError("seats", f"the Bet'Win layout is for 1 to 7 players (1.2), not {self.seats}")
        if not 1 <= self.decks <= 8:
            raise OptionError("decks", f"must be 1 to 8 (1.1: six), not {self.decks}")
        rules.Rules(tuple(self.face_order), self.identical)  # OptionError naming face_order or identical
        object.__setattr__(self, "spec", betwin(self.decks))
        check_round_fits("seats", 2 * self.seats + 2, self.spec.size,
                         f"a card and a changed card to each of {self.seats} seats, the Waiting and Adjoining cards")

    @property
    def rules(self) -> rules.Rules:
        return rules.Rules(tuple(self.face_order), self.identical)

    def settle(self, seat_cards: Mapping[int, Card], waiting: Card, adjoining: Card) -> dict[int, list[WagerResult]]:
        return rules.settle(seat_cards, waiting, adjoining, self.rules)

    def zone_text(self, waiting: Card, adjoining: Card) -> str:
        return rules.zone_text(waiting, adjoining, self.rules)

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> BetWinOptions:
        values = dict(section)
        if "face_order" in values:
            values["face_order"] = tuple(values["face_order"])
        return cls(seats=seats, **values)
