"""Draw Poker & Low-Ball's options: the variant, the antes and blinds, the fee schedule, the first
blind, the seats in (california-card-room-games.txt, "DRAW POKER & LOW-BALL", rules 1 & 2).

From the sheet: "The blinds are 2-3-5" and "Antes of 1.00 are called by the dealer" (rules 1 &
2), the defaults of ``blinds`` and ``ante``, in cents; a table at other stakes sets its own. "The
fee of 5.00 is collected every 1/2 hr." is the posted schedule ``draw_lowball`` (a time
collection: nothing from the pot), games.poker.economics.

Choices where the sheet is silent (tested in tests/games/test_draw_rules.py):
- **Eight seats at most**: "From five to eight players ordinarily participate" (THE SYSTEM).
- **The first hand's blinds**: rule 5 turns a card up to each player and "The player who shows
  the 'high' card starts with a 2.00 blind"; that happens at the table, and the table's config
  names the seat (``first_blind``, default seat 1, or the first seat in to its left).
- **One to three blinds, smallest first**: the sheet's three (2-3-5) by default; a table with
  fewer lists fewer. Short-handed, the bigger blinds are posted (games.poker.positions choice 2).
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
from games.poker.economics import ALLOWED, Economics
from games.poker.positions import BUTTON_RULES
from games.poker.table_options import check_seats_in, economics_for

VARIANTS: tuple[str, ...] = ("draw", "lowball")
"""High Draw Poker with the bug, and Low-Ball ace to five with the joker (rules 4, 6, 7)."""

MAX_SEATS = 8
MAX_BLINDS = 3
ANTE = 100
"""Rules 1 & 2: "Antes of 1.00 are called by the dealer"."""
BLINDS: tuple[int, ...] = (200, 300, 500)
"""Rules 1 & 2: "The blinds are 2-3-5"."""

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "variant": {"enum": list(VARIANTS)},
        "schedule": {"type": ["string", "object"],
                     "x-why": "the posted schedule's name (draw_lowball) or a table of the table's own"},
        "ante": {"type": "integer", "minimum": 0},
        "blinds": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 0,
                   "maxItems": MAX_BLINDS},
        "first_blind": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
        "button_rule": {"enum": list(BUTTON_RULES)},
        "seats_in": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
                     "uniqueItems": True},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class DrawOptions:
    """- ``variant``: ``draw`` (high, the bug) or ``lowball`` (ace to five, the joker).
    - ``ante``: each player's ante, in cents; ``blinds``: the blinds in cents, smallest first; none
      for a game played for antes only ("BASICS OF DRAW POKER": "'Antes' are called for by the
      dealer. Each active player is then dealt five cards"), where nobody may open: OPENERS.
    - ``schedule``: the fee schedule's name, or a mapping of the table's own (None: ``draw_lowball``).
    - ``first_blind``: the seat that posts the smallest blind in the first hand (rule 5's high card).
    - ``button_rule``: ``dead`` or ``moving``; ``seats_in``: the seats with a player when the
      table opens (None: every seat)."""

    seats: int = 8
    variant: str = "draw"
    ante: int = ANTE
    blinds: tuple[int, ...] = BLINDS
    schedule: Any = None
    first_blind: int = 1
    button_rule: str = "dead"
    seats_in: tuple[int, ...] | None = None
    spec: DeckSpec = field(default_factory=lambda: standard(1, jokers=1))
    economics: Economics = field(init=False, compare=False)
    plan: deal_plan.DealPlan = field(init=False, compare=False)

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= MAX_SEATS:
            raise OptionError("seats", f"a Draw table has 2 to {MAX_SEATS} seats (\"From five to eight players "
                                       f"ordinarily participate\"), not {self.seats}")
        if self.variant not in VARIANTS:
            raise OptionError("variant", f"must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        whole_number("ante", self.ante)
        if self.ante < 0:
            raise OptionError("ante", f"an amount in cents may not be negative, not {self.ante}")
        if not isinstance(self.blinds, tuple) or not 0 <= len(self.blinds) <= MAX_BLINDS:
            raise OptionError("blinds", f"none to {MAX_BLINDS} amounts in cents, smallest first "
                                        f"(the sheet's 2-3-5 is [200, 300, 500]; none: antes only), not "
                                        f"{self.blinds!r}")
        if not self.blinds and self.ante < 1:
            raise OptionError("ante", "a game without blinds is played for its antes (BASICS OF DRAW POKER): an "
                                      "ante of a cent at least")
        for amount in self.blinds:
            whole_number("blinds", amount)
            if amount < 1:
                raise OptionError("blinds", f"a blind is at least one cent, not {amount}")
        if list(self.blinds) != sorted(self.blinds):
            raise OptionError("blinds", f"smallest first (2-3-5), not {list(self.blinds)}")
        whole_number("first_blind", self.first_blind)
        if not 1 <= self.first_blind <= self.seats:
            raise OptionError("first_blind", f"must be a seat, 1 to {self.seats}, not {self.first_blind}")
        if self.button_rule not in BUTTON_RULES:
            raise OptionError("button_rule", f"must be one of {', '.join(BUTTON_RULES)}, not {self.button_rule!r}")
        check_seats_in(self.seats_in, self.seats)
        schedule = ALLOWED[self.variant][0] if self.schedule is None else self.schedule
        economics = economics_for(self.variant, schedule)
        object.__setattr__(self, "economics", economics)
        object.__setattr__(self, "plan", deal_plan.plan(self.variant))

    @property
    def schedule_name(self) -> str:
        """The posted schedule's name, or ``"table"`` for a schedule of the table's own."""
        if self.schedule is None:
            return ALLOWED[self.variant][0]
        return self.schedule if isinstance(self.schedule, str) else "table"

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> DrawOptions:
        values = dict(section)
        for key in ("seats_in", "blinds"):
            if key in values and isinstance(values[key], list):
                values[key] = tuple(values[key])
        return cls(seats=seats, **values)
