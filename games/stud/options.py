"""The Stud family's options: the variant, the fee schedule, the seats in.

Choices where the sheet is silent (tested in tests/games/test_stud_rules.py):
- **The fee schedule's default** is the one the sheet posts for the variant
  (games.poker.economics.ALLOWED): "7 CARD STUD (with 1/2 kill) $4.00 - $8.00 LIMIT" for 7 Card
  Stud, "7 CARD STUD HI - LO $4.00 - $8.00 LIMIT" ("$6.00 PER 1/2 HOUR PER PERSON": a time
  collection, nothing from the pot) for Stud Hi-Lo, and for Razz the 7 Card Stud one (economics
  choice 4: "The rules for 7-Card Razz are exactly the same as 7-Card Stud"). A table may give its
  own schedule (``[game.schedule]``, games.poker.economics.schedule_from_mapping).
- **Eight seats at most**: the 7 Card Stud schedule's top row is "8-7-6 PLAYERS"; eight players
  who all stay to 7th street need the sheet's short-stub rule (games.poker.deal_plan.check_deck),
  which the 7th street prompt then names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, standard
from games.options import OptionError, whole_number
from games.poker import deal_plan
from games.poker.economics import ALLOWED, Economics
from games.poker.table_options import check_seats_in, economics_for

GAME_OF: dict[str, str] = {"seven_card_stud": "stud", "stud_hi_lo": "stud_hi_lo", "razz": "razz"}
"""The variant's name in games.poker (deal_plan, bring_in, economics, showdown)."""

VARIANTS: tuple[str, ...] = tuple(GAME_OF)
"""seven_card_stud, stud_hi_lo, razz ("STUD POKER AND VARIATIONS")."""

MAX_SEATS = 8

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "variant": {"enum": list(VARIANTS)},
        "schedule": {"type": ["string", "object"],
                     "x-why": "a posted schedule's name (stud_4_8, stud_hi_lo_4_8) or a table of the table's own"},
        "seats_in": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
                     "uniqueItems": True},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class StudOptions:
    """- ``variant``: which game of the family (:data:`VARIANTS`).
    - ``schedule``: the fee schedule's name, or a mapping of the table's own (None: the default).
    - ``seats_in``: the seats with a player when the table opens (None: every seat)."""

    seats: int = 8
    variant: str = "seven_card_stud"
    schedule: Any = None
    seats_in: tuple[int, ...] | None = None
    spec: DeckSpec = field(default_factory=lambda: standard(1))
    economics: Economics = field(init=False, compare=False)
    plan: deal_plan.DealPlan = field(init=False, compare=False)

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= MAX_SEATS:
            raise OptionError("seats", f"a Stud table has 2 to {MAX_SEATS} seats, not {self.seats}")
        if self.variant not in VARIANTS:
            raise OptionError("variant", f"must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        check_seats_in(self.seats_in, self.seats)
        schedule = ALLOWED[self.game][0] if self.schedule is None else self.schedule
        economics = economics_for(self.game, schedule)
        object.__setattr__(self, "economics", economics)
        object.__setattr__(self, "plan", deal_plan.plan(self.game))

    @property
    def game(self) -> str:
        """The variant's name in games.poker."""
        return GAME_OF[self.variant]

    @property
    def schedule_name(self) -> str:
        """The posted schedule's name, or ``"table"`` for a schedule of the table's own."""
        if self.schedule is None:
            return ALLOWED[self.game][0]
        return self.schedule if isinstance(self.schedule, str) else "table"

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> StudOptions:
        values = dict(section)
        if "seats_in" in values and isinstance(values["seats_in"], list):
            values["seats_in"] = tuple(values["seats_in"])
        return cls(seats=seats, **values)
