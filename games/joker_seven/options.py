"""Joker Seven's options: the paytable (generic or New Jersey) and the deck's back colours."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.cards import Card
from games.decks import DeckSpec, standard
from games.joker_seven import rules
from games.joker_seven.paytables import PAYTABLES, Paytable
from games.options import OptionError, whole_number
from games.wagers import WagerResult

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paytable": {"enum": list(PAYTABLES)},
        "backs": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 20},
                  "minItems": 2, "uniqueItems": True,
                  "x-why": "must list at least two different back colours, such as [\"red\", \"blue\"] (rule 11)"},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class JokerSevenOptions:
    """- ``paytable``: ``generic`` (joker-seven.txt rule 15) or ``nj`` (N.J.A.C. 13:47-20.26(g)).
    - ``backs``: the back colours decks come in; each deck change takes the next (rule 11: "of
      different colour to the previous deck").
    - ``seats``: the table's seats (the wagers are on the layout, not by seat)."""

    seats: int = 8
    paytable: str = "generic"
    backs: tuple[str, ...] = ("red", "blue")
    spec: DeckSpec = field(default_factory=lambda: standard(1, jokers=2))  # rule 2

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if self.paytable not in PAYTABLES:
            raise OptionError("paytable", f"must be one of {', '.join(PAYTABLES)}, not {self.paytable!r}")
        if len(self.backs) < 2 or len(set(self.backs)) != len(self.backs):
            raise OptionError("backs", "rule 11 needs at least two different back colours")

    @property
    def table(self) -> Paytable:
        return PAYTABLES[self.paytable]

    def settle(self, cards: Sequence[Card]) -> list[WagerResult]:
        return rules.settle(cards, self.table)

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> JokerSevenOptions:
        values = dict(section)
        if "backs" in values:
            values["backs"] = tuple(values["backs"])
        return cls(seats=seats, **values)
