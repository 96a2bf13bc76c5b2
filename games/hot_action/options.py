"""Hot Action Blackjack's options: seats, decks, the first Banker, how the dice count, and every
reading of the sheet a table may choose (games.hot_action says why each default is the one a card
room would expect)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, standard
from games.hot_action import rules
from games.options import OptionError, whole_number

JOKERS_PER_DECK = 4
"""G1: 8 decks of 56 cards, 4 added jokers a deck."""

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decks": {"type": "integer", "minimum": 1, "maximum": 8,
                  "x-why": "G1: the sheet's shoe is 8 decks of 56; fewer for a short shoe"},
        "first_player_dealer_seat": {"type": "integer", "minimum": 1, "maximum": 8},
        "dice_direction": {"enum": list(rules.DIRECTIONS),
                           "x-why": "which way the dice total counts round the table from the Banker (H5)"},
        "check_two_card_22": {"type": "boolean"},
        "banker_below_18": {"enum": list(rules.BELOW_18)},
        "banker_hard_18": {"enum": list(rules.HARD_18)},
        "tie_19_22": {"enum": list(rules.WINNERS)},
        "tie_over_22": {"enum": list(rules.WINNERS)},
        "tie_22s": {"enum": list(rules.WINNERS)},
        "low_vs_over": {"enum": list(rules.WINNERS)},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class HotActionOptions:
    """- ``seats``: 2 to 8 positions including the Banker's (a blackjack table's places; the sheet
      is silent). Every position is dealt and counted by the dice.
    - ``decks``: 1 to 8 decks of 56 (G1: 8; fewer for a short shoe or a test), 4 jokers each.
    - ``first_player_dealer_seat``: the Banker when the table opens (G5 has no "last hand" then).
    - ``dice_direction``: ``counterclockwise`` (default) or ``clockwise`` (H5 does not say).
    - the readings (games.hot_action.rules.Rules): ``check_two_card_22``, ``banker_below_18``,
      ``banker_hard_18``, ``tie_19_22``, ``tie_over_22``, ``tie_22s``, ``low_vs_over``."""

    seats: int = 7
    decks: int = 8
    first_player_dealer_seat: int = 1
    dice_direction: str = "counterclockwise"
    check_two_card_22: bool = True
    banker_below_18: str = "hit"
    banker_hard_18: str = "stand"
    tie_19_22: str = "push"
    tie_over_22: str = "push"
    tie_22s: str = "push"
    low_vs_over: str = "push"
    spec: DeckSpec = field(init=False)
    readings: rules.Rules = field(init=False)
    """The rules' readings this table chose."""

    def __post_init__(self) -> None:
        for name in ("seats", "decks", "first_player_dealer_seat"):
            whole_number(name, getattr(self, name))
        if not isinstance(self.check_two_card_22, bool):
            raise OptionError("check_two_card_22", f"must be true or false, not {self.check_two_card_22!r}")
        if not 2 <= self.seats <= 8:
            raise OptionError("seats", f"Hot Action Blackjack seats 2 to 8 positions including the Banker's "
                                       f"(a blackjack table's places), not {self.seats}")
        if not 1 <= self.decks <= 8:
            raise OptionError("decks", f"one to eight decks of 56 (G1: the shoe holds 8), not {self.decks}")
        if not 1 <= self.first_player_dealer_seat <= self.seats:
            raise OptionError("first_player_dealer_seat", f"must be one of seats 1..{self.seats}, "
                                                          f"not {self.first_player_dealer_seat}")
        if self.dice_direction not in rules.DIRECTIONS:
            raise OptionError("dice_direction", f"must be one of {', '.join(rules.DIRECTIONS)}, "
                                                f"not {self.dice_direction!r}")
        for name, allowed in (("banker_below_18", rules.BELOW_18), ("banker_hard_18", rules.HARD_18),
                              ("tie_19_22", rules.WINNERS), ("tie_over_22", rules.WINNERS),
                              ("tie_22s", rules.WINNERS), ("low_vs_over", rules.WINNERS)):
            if getattr(self, name) not in allowed:
                raise OptionError(name, f"must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        object.__setattr__(self, "spec", standard(self.decks, JOKERS_PER_DECK))
        object.__setattr__(self, "readings", rules.Rules(
            banker_below_18=self.banker_below_18, banker_hard_18=self.banker_hard_18,
            check_two_card_22=self.check_two_card_22, tie_19_22=self.tie_19_22, tie_over_22=self.tie_over_22,
            tie_22s=self.tie_22s, low_vs_over=self.low_vs_over))

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> HotActionOptions:
        return cls(seats=seats, **section)
