"""No Bust 21 as a person reads it (the registry's ``narrate`` and ``legend``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import card_action_button, cards, outcomes, rotating_player_dealer


def _total(h: Mapping[str, Any]) -> str:
    if h.get("natural"):
        return "Natural" + (" (two jokers)" if h.get("joker") else "")
    if h.get("joker"):
        return "21 (joker)"
    return ("soft " if h.get("soft") else "") + str(h["total"])


def result(data: Mapping[str, Any]) -> list[str]:
    """The player-dealer's hand, then each hand of each seat with its wager (GR1)."""
    d = data["dealer"]
    frozen = "; the joker is up: every hand is frozen" if data.get("frozen") else ""
    lines = [f"player-dealer (seat {data['player_dealer']}): {cards(d['cards'])} = {_total(d)}{frozen}"]
    for seat, s in data["seats"].items():
        for h in s["hands"]:
            tags = [t for t, on in (("doubled", h.get("doubled")), ("surrendered", h.get("surrendered"))) if on]
            tag = f" ({', '.join(tags)})" if tags else ""
            lines.append(f"  seat {seat}: {cards(h['cards'])} = {_total(h)}{tag}: {outcomes(h['wagers'])}")
    return lines


def action_button(data: Mapping[str, Any]) -> list[str]:
    return card_action_button(data, "second card")


NARRATE = {"result": result, "action_button": action_button}
LEGEND = {
    "player-dealer": rotating_player_dealer(None),
    "action button": ("where settling starts: the player-dealer's second card counted clockwise from the "
                      "player-dealer's position as 0, by the table's chart (game.action_chart: A 1, 2-10 as "
                      "marked, J Q K 11 12 13, or 0 on the face-value chart; a joker 0)."),
}
