"""Three Card Poker as a person reads it (the registry's ``narrate`` and ``legend``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import card_action_button, cards, outcomes, rotating_player_dealer


def result(data: Mapping[str, Any]) -> list[str]:
    """The player-dealer's hand and whether it qualifies, then a line per seat (R5)."""
    d = data["dealer"]
    qualifies = "qualifies" if d["qualifies"] else "does not qualify"
    lines = [f"player-dealer (seat {data['player_dealer']}): {cards(d['cards'])}, {d['hand']}, {qualifies}"]
    for seat, s in data["seats"].items():
        if not s["played"]:
            lines.append(f"  seat {seat}: folded ({outcomes(s['wagers'])})")
        else:
            lines.append(f"  seat {seat}: {cards(s['cards'])}, {s['hand']}: {outcomes(s['wagers'])}")
    return lines


def action_button(data: Mapping[str, Any]) -> list[str]:
    """R8: the player-dealer's face-down card places the button."""
    return card_action_button(data, "face-down card")


NARRATE = {"result": result, "action_button": action_button}
LEGEND = {
    "player-dealer": rotating_player_dealer('R8'),
    "action button": ("where settling starts when the player-dealer's wager does not cover the table: the "
                      "player-dealer's face-down card counts A 1, 2-10 as marked, J Q K 0, counted seat by "
                      "seat clockwise from the player-dealer, whose own seat is not counted (R8)."),
}
