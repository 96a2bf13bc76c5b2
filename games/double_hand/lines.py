"""Double-Hand Poker as a person reads it (the registry's ``narrate`` and ``legend``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import cards, outcomes


def _hands(h: Mapping[str, Any]) -> str:
    return (f"{cards(h['two']['cards'])} ({h['two']['hand']}) / {cards(h['five']['cards'])} "
            f"({h['five']['hand']})")


def result(data: Mapping[str, Any]) -> list[str]:
    """The designated player's two hands, then each seat's against them."""
    d = data["designated"]
    way = " (set the house way)" if d.get("set_by") == "house_way" else ""
    lines = [f"designated player (seat {d['seat']}): {_hands(d)}{way}"]
    for seat, s in data["seats"].items():
        lines.append(f"  seat {seat}: {_hands(s)}: {outcomes(s['wagers'])}")
    return lines


def action_button(data: Mapping[str, Any]) -> list[str]:
    """The designated player's button and dice: which seat gets the selected hand."""
    dead = ", ".join(str(h) for h in data.get("dead_hands") or [])
    return [f"action button on hand {data['hand']}: the dice total {data['total']}, counted clockwise from "
            f"seat {data['counted_from']}, gives it to seat {data['seat']}" + (f"; dead hand {dead}" if dead else "")]


NARRATE = {"result": result, "action_button": action_button}
LEGEND = {
    "player-dealer": ("the designated player: a seated player who wagers against all the others, in turn; "
                      "the house dealer deals and banks no wager."),
    "action button": ("the designated player puts it on one of the seven hands dealt; the total of three dice, "
                      "counted clockwise from the seat on the designated player's left, says which seat "
                      "receives that hand first."),
}
