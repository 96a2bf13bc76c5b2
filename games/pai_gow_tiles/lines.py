"""Pai Gow Tiles as a person reads it (the registry's ``narrate`` and ``legend``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def result(data: Mapping[str, Any]) -> list[str]:
    """The dice, the seat that gets the first tiles and the action, then each seat's outcome (the
    controller reads no tile: hands are set and compared at the table)."""
    dice = "-".join(str(v) for v in data["values"])
    lines = [f"dice {dice} = {data['total']}: first tiles to seat {data['first_tiles_seat']}, action at seat "
             f"{data['action_seat']}"]
    lines += [f"  seat {seat}: {s['outcome'] if isinstance(s, Mapping) else s}" for seat, s in data["seats"].items()]
    return lines


def action_button(data: Mapping[str, Any]) -> list[str]:
    return [f"action button: seat {data['seat']} (dice {data['count']}, counted counterclockwise from the "
            f"player/dealer at seat {data['banker_seat']})"]


NARRATE = {"result": result, "action_button": action_button}
LEGEND = {
    "player-dealer": ("the player/dealer: a seated player who banks the round, offered counterclockwise every "
                      "two hands from seat 1; the house dealer deals and banks no wager."),
    "action button": ("the dice total counted counterclockwise from the player/dealer (9 and 17 land on the "
                      "player/dealer, who then takes the first tiles and the button goes to the next seat)."),
}
