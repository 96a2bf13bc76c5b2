"""The Hold'em family's options: the variant, the fee schedule, the first button, the seats in.

Choices where the sheet is silent (tested in tests/games/test_holdem_rules.py):
- **The fee schedule's default** is the first schedule the sheet posts for the variant
  (games.poker.economics.ALLOWED): "TEXAS HOLD-EM $4.00 - $8.00 LIMIT" for Hold'em, Hold'em Hi/Lo,
  Pineapple and Crazy Pineapple (the sheet posts two Hold'em limits; a $3-$6 table names
  ``holdem_3_6``), "OMAHA HI-LO SPLIT $4.00 - $8.00 LIMIT" for Omaha. A table may name another
  posted schedule or give its own (``[game.schedule]``, games.poker.economics.schedule_from_mapping).
- **The first hand's button** is ``button`` (default seat 1, or the first seat in to its left):
  the high-card draw for the button happens at the table, not in the controller.
- **Empty seats**: the dead button (games.poker.positions choice 1) unless ``button_rule =
  "moving"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, standard
from games.options import OptionError, whole_number
from games.poker import deal_plan
from games.poker.deal_plan import HOLDEM_FAMILY
from games.poker.economics import ALLOWED, Economics
from games.poker.positions import BUTTON_RULES
from games.poker.table_options import check_seats_in, economics_for

VARIANTS: tuple[str, ...] = tuple(HOLDEM_FAMILY)
"""holdem, holdem_hi_lo, pineapple, pineapple_hi_lo, crazy_pineapple, crazy_pineapple_hi_lo, omaha,
omaha_hi_lo ("The Variations")."""

MAX_SEATS = 10
"""The fee schedules' top row is "9-8-7 PLAYERS" and on (economics choice 2); ten seats is the
largest Hold'em table, and a deck deals ten Omaha hands and the board (check_deck)."""

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "variant": {"enum": list(VARIANTS)},
        "schedule": {"type": ["string", "object"],
                     "x-why": "a posted schedule's name (holdem_4_8, holdem_3_6, omaha_hi_lo_4_8) or a table of "
                              "the table's own"},
        "button": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
        "button_rule": {"enum": list(BUTTON_RULES)},
        "seats_in": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
                     "uniqueItems": True},
        "pineapple_discard": {"enum": ["after_flop_betting", "after_flop"]},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class HoldemOptions:
    """- ``variant``: which game of the family (:data:`VARIANTS`).
    - ``schedule``: the fee schedule's name, or a mapping of the table's own (None: the default).
    - ``button``: the first hand's button seat; ``button_rule``: ``dead`` or ``moving``.
    - ``seats_in``: the seats with a player when the table opens (None: every seat).
    - ``pineapple_discard``: when Pineapple's discard comes (games.poker.deal_plan choice 1)."""

    seats: int = 9
    variant: str = "holdem"
    schedule: Any = None
    button: int = 1
    button_rule: str = "dead"
    seats_in: tuple[int, ...] | None = None
    pineapple_discard: str = "after_flop_betting"
    spec: DeckSpec = field(default_factory=lambda: standard(1))
    economics: Economics = field(init=False, compare=False)
    plan: deal_plan.DealPlan = field(init=False, compare=False)

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= MAX_SEATS:
            raise OptionError("seats", f"a Hold'em table has 2 to {MAX_SEATS} seats, not {self.seats}")
        if self.variant not in VARIANTS:
            raise OptionError("variant", f"must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        whole_number("button", self.button)
        if not 1 <= self.button <= self.seats:
            raise OptionError("button", f"must be a seat, 1 to {self.seats}, not {self.button}")
        if self.button_rule not in BUTTON_RULES:
            raise OptionError("button_rule", f"must be one of {', '.join(BUTTON_RULES)}, not {self.button_rule!r}")
        check_seats_in(self.seats_in, self.seats)
        try:
            plan = deal_plan.plan(self.variant, pineapple_discard=self.pineapple_discard)  # type: ignore[arg-type]
        except ValueError as exc:
            raise OptionError("pineapple_discard", str(exc).split(": ", 1)[-1]) from None
        try:
            deal_plan.check_deck(self.variant, self.seats)
        except ValueError as exc:
            raise OptionError("seats", str(exc).split(": ", 1)[-1]) from None
        schedule = ALLOWED[self.variant][0] if self.schedule is None else self.schedule
        economics = economics_for(self.variant, schedule)
        object.__setattr__(self, "economics", economics)
        object.__setattr__(self, "plan", plan)

    @property
    def schedule_name(self) -> str:
        """The posted schedule's name, or ``"table"`` for a schedule of the table's own."""
        if self.schedule is None:
            return ALLOWED[self.variant][0]
        return self.schedule if isinstance(self.schedule, str) else "table"

    @property
    def hole(self) -> int:
        """Hole cards dealt to each player."""
        return HOLDEM_FAMILY[self.variant]

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> HoldemOptions:
        values = dict(section)
        if "seats_in" in values and isinstance(values["seats_in"], list):
            values["seats_in"] = tuple(values["seats_in"])
        return cls(seats=seats, **values)
