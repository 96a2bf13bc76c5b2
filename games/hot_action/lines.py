"""Hot Action Blackjack as a person reads it (the registry's ``narrate`` and ``legend``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import cards, outcomes


def _total(h: Mapping[str, Any]) -> str:
    if h.get("natural"):
        return "natural 22"
    if h.get("two_card_22"):
        return "two-card 22"
    return ("soft " if h.get("soft") else "") + str(h["total"])


def result(data: Mapping[str, Any]) -> list[str]:
    """The Bank's hand, then each seat's hand in pay-off order (H12)."""
    b = data["bank"]
    lines = [f"Bank (seat {data['player_dealer']}): {cards(b['cards'])} = {_total(b)}"]
    order = [str(s) for s in data.get("payoff_order") or []]
    seats = data["seats"]
    for seat in [s for s in order if s in seats] + [s for s in seats if s not in order]:
        s = seats[seat]
        lines.append(f"  seat {seat}: {cards(s['cards'])} = {_total(s)}: {outcomes(s['wagers'])}")
    return lines


def action_button(data: Mapping[str, Any]) -> list[str]:
    """H5: the Banker's dice place the button; H12: pay-off begins there."""
    dice = "-".join(str(v) for v in data["dice"])
    order = ", ".join(str(s) for s in data["payoff_order"])
    return [f"action button: seat {data['seat']} (the Banker's dice {dice} = {data['total']}, counted "
            f"{data['direction']} from the Banker); pay-off order: seats {order}"]


NARRATE = {"result": result, "action_button": action_button}
LEGEND = {
    "player-dealer": "the Banker: a seated player who banks the round in turn; the house dealer deals and banks no wager.",
    "action button": ("where pay-off begins, not where cards are dealt (H12): the Banker shakes the dice cup "
                      "and the total is counted round the table from the Banker's position as 1 (H5)."),
}
