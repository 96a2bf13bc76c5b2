"""No Bust 21st Century Blackjack's options: seats, the shoe (decks and jokers per deck), the first
player-dealer, and every reading of the sheet a table may choose (games.no_bust says why each
default is what a card room would expect)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, standard
from games.no_bust import rules
from games.options import OptionError, whole_number
from games.wagers import Pays

SECOND_CARD = ("hole", "after_draws")
"""When the player-dealer's second card is dealt: face down in the initial deal (a hole card,
turned up when the players have drawn), or face up once the players have drawn."""

PAYS = re.compile(r"^\s*(\d{1,4})\s*(?:to|:)\s*(\d{1,4})\s*$")

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decks": {"type": "integer", "minimum": 1, "maximum": 8},
        "jokers_per_deck": {"type": "integer", "minimum": 1, "maximum": 4},
        "first_player_dealer_seat": {"type": "integer", "minimum": 1, "maximum": 8},
        "highest_total": {"enum": [21, 22],
                          "x-why": "the highest total that is not 'more than a natural' (Game Rules 1-6)"},
        "player_dealer_second_card": {"enum": list(SECOND_CARD)},
        "double_on_stand_totals": {"type": "boolean"},
        "surrender": {"type": "boolean"},
        "surrender_on_must_hit": {"type": "boolean"},
        "max_splits": {"type": "integer", "minimum": 0, "maximum": 3},
        "resplit_aces": {"type": "boolean"},
        "natural_pays": {"type": "string", "pattern": PAYS.pattern,
                         "x-why": "odds as '<to> to <per>' (e.g. '2 to 1')"},
        "action_chart": {"enum": list(rules.ACTION_CHARTS)},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class NoBustOptions:
    """- ``seats``: 2 to 8 including the player-dealer (a blackjack table's places; the sheet is
      silent: Three Card Poker's "standard blackjack table having eight places ... for the players
      and the player/dealer").
    - ``decks``: 1 to 8 (default 6) and ``jokers_per_deck`` 1 to 4 (default 1): GAMES.md "N x (52 +
      jokers), configurable"; the sheet names jokers but not how many.
    - ``first_player_dealer_seat``: who holds the position when the table opens.
    - the readings (games.no_bust.rules.Rules): ``highest_total``, ``double_on_stand_totals``,
      ``surrender``, ``surrender_on_must_hit``, ``max_splits``, ``resplit_aces``, ``natural_pays``; and
      ``player_dealer_second_card``, ``action_chart``."""

    seats: int = 7
    decks: int = 6
    jokers_per_deck: int = 1
    first_player_dealer_seat: int = 1
    highest_total: int = 21
    player_dealer_second_card: str = "hole"
    double_on_stand_totals: bool = False
    surrender: bool = True
    surrender_on_must_hit: bool = True
    max_splits: int = 3
    resplit_aces: bool = False
    natural_pays: str = "1 to 1"
    action_chart: str = "rank_order"
    spec: DeckSpec = field(init=False)
    readings: rules.Rules = field(init=False)
    """The rules' readings this table chose (games.no_bust.rules.Rules)."""

    def __post_init__(self) -> None:
        for name in ("seats", "decks", "jokers_per_deck", "first_player_dealer_seat", "highest_total", "max_splits"):
            whole_number(name, getattr(self, name))
        for name in ("double_on_stand_totals", "surrender", "surrender_on_must_hit", "resplit_aces"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(name, f"must be true or false, not {getattr(self, name)!r}")
        if not 2 <= self.seats <= 8:
            raise OptionError("seats", f"No Bust 21st Century Blackjack seats 2 to 8 players including the "
                                       f"player-dealer (a blackjack table's places), not {self.seats}")
        if not 1 <= self.decks <= 8:
            raise OptionError("decks", f"one to eight decks, not {self.decks}")
        if not 1 <= self.jokers_per_deck <= 4:
            raise OptionError("jokers_per_deck", f"1 to 4 jokers a deck (the game is played with jokers: How to "
                                                 f"Play 2), not {self.jokers_per_deck}")
        if not 1 <= self.first_player_dealer_seat <= self.seats:
            raise OptionError("first_player_dealer_seat", f"must be one of seats 1..{self.seats}, "
                                                          f"not {self.first_player_dealer_seat}")
        if self.highest_total not in (21, 22):
            raise OptionError("highest_total", f"must be 21 (a drawn 22 is more than a natural) or 22, "
                                               f"not {self.highest_total}")
        if self.player_dealer_second_card not in SECOND_CARD:
            raise OptionError("player_dealer_second_card", f"must be one of {', '.join(SECOND_CARD)}, "
                                                           f"not {self.player_dealer_second_card!r}")
        if not 0 <= self.max_splits <= 3:
            raise OptionError("max_splits", f"0 to 3: multiple splitting is permitted up to 3 times (Double-Down "
                                            f"Split & Surrender 5), not {self.max_splits}")
        if self.action_chart not in rules.ACTION_CHARTS:
            raise OptionError("action_chart", f"must be one of {', '.join(rules.ACTION_CHARTS)}, "
                                              f"not {self.action_chart!r}")
        match = PAYS.match(self.natural_pays) if isinstance(self.natural_pays, str) else None
        if match is None or int(match.group(2)) < 1:
            raise OptionError("natural_pays", f"odds as '<to> to <per>' such as '2 to 1', not {self.natural_pays!r}")
        pays = Pays(int(match.group(1)), int(match.group(2)))
        object.__setattr__(self, "spec", standard(self.decks, self.jokers_per_deck))
        object.__setattr__(self, "readings", rules.Rules(
            highest_total=self.highest_total, double_on_stand_totals=self.double_on_stand_totals,
            surrender=self.surrender, surrender_on_must_hit=self.surrender_on_must_hit,
            max_splits=self.max_splits, resplit_aces=self.resplit_aces,
            natural_pays=pays))

    @property
    def hole_card(self) -> bool:
        return self.player_dealer_second_card == "hole"

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> NoBustOptions:
        return cls(seats=seats, **section)
