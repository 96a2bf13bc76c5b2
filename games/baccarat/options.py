"""Commission-Free Baccarat's options: what a table's config may set, checked against the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.baccarat import rules
from games.baccarat.rules import ACTION_WRAPS, MAX_SEATS, MIN_SEATS, ActionWrap
from games.decks import DeckSpec, standard
from games.options import OptionError, whole_number

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action_wrap": {"enum": list(ACTION_WRAPS)},
        "first_player_dealer_seat": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
    },
    "additionalProperties": False,
}
"""The ``[game]`` section of a baccarat table's config (JSON Schema)."""


def _baccarat_spec() -> DeckSpec:
    return standard(8)  # rule 2: eight 52-card decks, no jokers


@dataclass(frozen=True)
class BaccaratOptions:
    """A Commission-Free Baccarat table's configuration.

    - ``seats``: seated positions including the player-dealer's: 2 to 8 (rule 3:
      "up to eight seated positions"; a player-dealer game needs a player-dealer
      and at least one player).
    - ``action_wrap``: how an action count past the last seat wraps (rule 21 is
      silent); see :func:`games.baccarat.rules.action_position`.
    - ``first_player_dealer_seat``: who holds the deal when the table first opens (1..seats).
    - ``spec``: the shoe (rule 2: eight 52-card decks, no jokers).

    A bad value raises :class:`~games.options.OptionError` naming the field;
    the controller reports it under the field's config key.
    """

    seats: int = 8
    action_wrap: ActionWrap = "around_table"
    first_player_dealer_seat: int = 1
    spec: DeckSpec = field(default_factory=_baccarat_spec)

    def __post_init__(self) -> None:
        for name in ("seats", "first_player_dealer_seat"):
            whole_number(name, getattr(self, name))
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise OptionError("seats", f"Commission-Free Baccarat has {MIN_SEATS} to {MAX_SEATS} seated positions "
                                       f"(rule 3), not {self.seats}")
        if not 1 <= self.first_player_dealer_seat <= self.seats:
            raise OptionError("first_player_dealer_seat", f"must be one of seats 1..{self.seats}, "
                                                          f"not {self.first_player_dealer_seat}")
        if self.action_wrap not in ACTION_WRAPS:
            raise OptionError("action_wrap", f"must be one of {', '.join(ACTION_WRAPS)} (rule 21 is silent past "
                                             f"the last seat), not {self.action_wrap!r}")
        try:
            for c in self.spec.counts:
                rules.point(c)  # rule 2: every card of the shoe must have a baccarat value
        except rules.BaccaratCardError as exc:
            raise OptionError("spec", str(exc)) from None

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> BaccaratOptions:
        """The options from a config's ``[game]`` section (already schema-checked) and ``table.seats``."""
        return cls(seats=seats, **section)
