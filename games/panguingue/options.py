"""Panguingue's options: the condition, the decks, the first hand's first seat, the seats in, and the
sheet's silences (games.panguingue.rules choices).

- ``condition`` (required, cents): "Conditions playable are 2.00 - 5.00 -10.00" (rule 2): 200, 500
  or 1000. It sets the fee and the ante (rule 1: 2.00 / 2.00, 3.00 / 5.00, 4.00 / 5.00;
  games.poker.economics). No default: a table that plays a $10 condition must not collect a $2
  fee because a line was left out of its config.
- ``pan_decks``: 8 ("a set of 8 decks from which all 8s, 9s, 10s, and Jokers have been removed
  ... A total of 320 cards", THE DECK) or 10 ("There are ten decks of cards", rule 3); default 8.
- ``first_seat``: where the first hand's deal starts (there is no previous winner yet); default
  seat 1, or the first seat in to its right.
- ``nine_cards``: rules choice 1 (``corrected`` or ``dead``).
- ``schedule``: the posted Panguingue schedule (default) or the table's own, ``{"basis":
  "condition", "conditions": [{"condition", "fee", "ante"}, ...]}`` in cents.
- ``seats_in``: the seats with a player when the table opens (None: every seat).

Ten seats at most (choice): "Best for 6, 7, or 8 players" (NUMBER OF PLAYERS), and "Two to
Several"; ten hands of ten leave 220 of 320 cards to draw from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, stripped
from games.options import OptionError, whole_number
from games.panguingue.rules import NINE_CARDS
from games.poker import deal_plan
from games.poker.deal_plan import Step as PlanStep
from games.poker.economics import ALLOWED, Economics
from games.poker.table_options import check_seats_in, economics_for

MAX_SEATS = 10
PAN_DECKS: tuple[int, ...] = (8, 10)
STRIPPED: tuple[str, ...] = ("8", "9", "10")
"""Rule 3: "The Eights/Nines/Tens are removed"; rule 4: "There are no Jokers in the deck"."""

PLAY = PlanStep("draw", "the play", rule="THE DRAW: 'the draw is begun by the winner of the previous hand'; "
                                         "OBJECT OF THE GAME: 'The first player to play all ten cards plus the "
                                         "eleventh or draw card wins the hand'")
"""After the declarations (the deal plan's last step): the draw and the melds, until a player goes
out. The controller sees none of it; the dealer closes it with ``deal``."""

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "condition": {"type": "integer", "minimum": 0,
                      "x-why": "the condition in cents: 200, 500 or 1000 (rule 2)"},
        "pan_decks": {"enum": list(PAN_DECKS)},
        "first_seat": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
        "nine_cards": {"enum": list(NINE_CARDS)},
        "schedule": {"type": ["string", "object"],
                     "x-why": "the posted schedule's name (panguingue) or a table of the table's own"},
        "seats_in": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
                     "uniqueItems": True},
    },
    "additionalProperties": False,
}


def pan_spec(decks: int) -> DeckSpec:
    """``decks`` decks of 40: no 8s, 9s, 10s, no jokers (rules 3, 4; THE DECK)."""
    return stripped(STRIPPED, decks=decks, name=f"{decks}x40 pan (no 8, 9, 10, no jokers)")


@dataclass(frozen=True)
class PanOptions:
    """A Panguingue table's options (see the module's docstring)."""

    seats: int = 8
    condition: int | None = None
    pan_decks: int = 8
    first_seat: int = 1
    nine_cards: str = "corrected"
    schedule: Any = None
    seats_in: tuple[int, ...] | None = None
    spec: DeckSpec = field(init=False, compare=False)
    economics: Economics = field(init=False, compare=False)
    steps: tuple[PlanStep, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= MAX_SEATS:
            raise OptionError("seats", f"a Panguingue table has 2 to {MAX_SEATS} seats, not {self.seats}")
        if self.condition is None:
            raise OptionError("condition", "give the table's condition in cents: 200, 500 or 1000 (rule 2: "
                                           "'Conditions playable are 2.00 - 5.00 -10.00')")
        if isinstance(self.pan_decks, bool) or self.pan_decks not in PAN_DECKS:
            raise OptionError("pan_decks", f"8 (THE DECK: 'a set of 8 decks') or 10 (rule 3: 'ten decks'), "
                                           f"not {self.pan_decks!r}")
        whole_number("first_seat", self.first_seat)
        if not 1 <= self.first_seat <= self.seats:
            raise OptionError("first_seat", f"must be a seat, 1 to {self.seats}, not {self.first_seat}")
        if self.nine_cards not in NINE_CARDS:
            raise OptionError("nine_cards", f"must be one of {', '.join(NINE_CARDS)}, not {self.nine_cards!r}")
        check_seats_in(self.seats_in, self.seats)
        schedule = ALLOWED["panguingue"][0] if self.schedule is None else self.schedule
        economics = economics_for("panguingue", schedule, condition=self.condition)
        plan = deal_plan.plan("panguingue", pan_decks=self.pan_decks)
        deal_plan.check_deck("panguingue", self.seats, pan_decks=self.pan_decks)   # ten seats leave plenty
        object.__setattr__(self, "spec", pan_spec(self.pan_decks))
        object.__setattr__(self, "economics", economics)
        object.__setattr__(self, "steps", (*plan.steps, PLAY))

    @property
    def schedule_name(self) -> str:
        """The posted schedule's name, or ``"table"`` for a schedule of the table's own."""
        if self.schedule is None:
            return ALLOWED["panguingue"][0]
        return self.schedule if isinstance(self.schedule, str) else "table"

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> PanOptions:
        values = dict(section)
        if "seats_in" in values and isinstance(values["seats_in"], list):
            values["seats_in"] = tuple(values["seats_in"])
        return cls(seats=seats, **values)
