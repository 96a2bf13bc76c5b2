"""Double-Hand Poker's options: the positions, the first designated player, and the readings a
table may choose where the sheet is silent (games.double_hand.rules says why each default)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, standard
from games.double_hand import rules
from games.options import OptionError, whole_number
from games.poker.hands import HighRules

CARDS_LEFT_WRONG: tuple[str, ...] = ("void", "flag")
"""What a wrong count of the cards left after the seven hands does: the round can only be voided
(a misdeal: the deck the hands came from does not prove complete), or an alarm flags it and the
round goes on (the hands themselves were each checked card by card)."""

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "first_designated_player": {"type": "integer", "minimum": 1, "maximum": rules.MAX_SEATS},
        "designated_turns": {"type": "integer", "minimum": 1, "maximum": 2,
                             "x-why": "rounds a seat may be the designated player in a row: 1 (each position "
                                      "takes a turn) or 2 (the California player-dealer limit)"},
        "ties": {"enum": list(rules.TIES)},
        "wheel": {"enum": list(rules.WHEELS)},
        "cards_left_wrong": {"enum": list(CARDS_LEFT_WRONG)},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class DoubleHandOptions:
    """- ``seats``: 2 to 7 player positions (P3: seven hands, one a position; with fewer the hands
      left over are dead).
    - ``first_designated_player``: the seat that is the designated player when the table opens.
    - ``designated_turns`` (T): 1 by default, "each position takes a turn as a designated player":
      after every settled round the position is offered to the next seat clockwise, which may
      accept or reject it; 2 is the sheet's general player-dealer limit ("Player-dealer and Deal").
      Either way, if every other seat rejects it the game is broken (Player-dealer and Deal).
    - ``ties`` (reading 4), ``wheel`` (reading 2): games.double_hand.rules.
    - ``cards_left_wrong``: ``"void"`` (default) or ``"flag"``, see :data:`CARDS_LEFT_WRONG`."""

    seats: int = 7
    first_designated_player: int = 1
    designated_turns: int = 1
    ties: str = "designated_player"
    wheel: str = "lowest"
    cards_left_wrong: str = "void"
    spec: DeckSpec = field(default_factory=lambda: standard(1, jokers=1))   # D: 52 cards and one joker
    poker: HighRules = field(init=False)
    """The ranking (R1-R11, D) with this table's wheel."""

    def __post_init__(self) -> None:
        for name in ("seats", "first_designated_player", "designated_turns"):
            whole_number(name, getattr(self, name))
        if not 2 <= self.seats <= rules.MAX_SEATS:
            raise OptionError("seats", f"Double-Hand Poker deals seven hands, one to each player position (P3): "
                                       f"2 to {rules.MAX_SEATS} seats, not {self.seats}")
        if not 1 <= self.first_designated_player <= self.seats:
            raise OptionError("first_designated_player", f"must be one of seats 1..{self.seats}, "
                                                         f"not {self.first_designated_player}")
        if self.designated_turns not in (1, 2):
            raise OptionError("designated_turns", f"1 (each position takes a turn, T) or 2 (Player-dealer and "
                                                  f"Deal), not {self.designated_turns}")
        if self.ties not in rules.TIES:
            raise OptionError("ties", f"must be one of {', '.join(rules.TIES)}, not {self.ties!r}")
        if self.wheel not in rules.WHEELS:
            raise OptionError("wheel", f"must be one of {', '.join(rules.WHEELS)}, not {self.wheel!r}")
        if self.cards_left_wrong not in CARDS_LEFT_WRONG:
            raise OptionError("cards_left_wrong", f"must be one of {', '.join(CARDS_LEFT_WRONG)}, "
                                                  f"not {self.cards_left_wrong!r}")
        if self.spec.size != rules.DECK:
            raise OptionError("spec", f"Double-Hand Poker is one deck of 52 and a joker (D), not {self.spec.name}")
        object.__setattr__(self, "poker", rules.rules_for(self.wheel))

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> DoubleHandOptions:
        return cls(seats=seats, **section)
