"""Pai Gow Tiles' options: the positions, the first player-dealer, the Gee Joon reading, the fees.

Every option is checked here, where it is read, and a refusal names its field
(games.options.OptionError): the config loader reports it under ``table.seats`` or
``game.<field>``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.options import OptionError, whole_number
from games.pai_gow_tiles.rules import POSITIONS

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "first_player_dealer_seat": {"type": "integer", "minimum": 1, "maximum": POSITIONS},
        "gee_joon_wild": {"type": "boolean",
                          "x-why": "true: a Gee Joon tile outside the Supreme Pair counts 3 or 6, whichever is "
                                   "better; false: its spots as they are"},
        "fee_per_square": {"type": "number", "minimum": 0, "maximum": 100,
                           "x-why": "must be the posted collection fee per betting square in dollars, 0 to 100"},
        "player_dealer_fee": {"type": "number", "minimum": 0, "maximum": 100,
                              "x-why": "must be the posted player-dealer fee per hand in dollars, 0 to 100"},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class PaiGowTilesOptions:
    """- ``seats``: 8 -- "a standard Pai Gow poker table with a total of 8 seated positions", and
      the count makes the banker 1, 9 and 17 only with eight (Rules of Play).
    - ``first_player_dealer_seat``: 1 -- "determined by starting at seat #1" (Rules of Play).
    - ``gee_joon_wild``: true -- a Gee Joon tile outside the Supreme Pair counts 3 or 6 (Scoring is
      silent; every Pai Gow room plays it so: games.pai_gow_tiles.hands).
    - ``fee_per_square``, ``player_dealer_fee``: schedule option 1, $1.00 and $2.00 (Collection
      Fees); the dealer collects them before the dice cup is opened -- the betting prompt says so
      (the controller sees no chips)."""

    seats: int = POSITIONS
    first_player_dealer_seat: int = 1
    gee_joon_wild: bool = True
    fee_per_square: float = 1.0
    player_dealer_fee: float = 2.0

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        whole_number("first_player_dealer_seat", self.first_player_dealer_seat)
        if self.seats != POSITIONS:
            raise OptionError("seats", f"Pai Gow Tiles is played at {POSITIONS} seated positions, counted whether "
                                       f"or not a player sits there (Rules of Play: the banker is 1, 9 and 17), "
                                       f"not {self.seats}")
        if not 1 <= self.first_player_dealer_seat <= self.seats:
            raise OptionError("first_player_dealer_seat", f"must be one of seats 1..{self.seats}, "
                                                          f"not {self.first_player_dealer_seat}")
        if not isinstance(self.gee_joon_wild, bool):
            raise OptionError("gee_joon_wild", f"must be true or false, not {self.gee_joon_wild!r}")
        for name in ("fee_per_square", "player_dealer_fee"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                    or not 0 <= value <= 100:
                raise OptionError(name, f"must be a fee in dollars, 0 to 100 (Collection Fees), not {value!r}")

    @property
    def fees_text(self) -> str:
        return (f"collect the fees before the dice cup is opened: ${self.fee_per_square:.2f} a betting square, "
                f"${self.player_dealer_fee:.2f} from the player-dealer (Collection Fees)")

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> PaiGowTilesOptions:
        return cls(seats=seats, **section)
