"""The poker-room games as a person reads them (Hold'em, Stud, Draw, Mexican Stud): the house banks
no wager and reads no card until the dealer enters a showdown, so a hand reads as who was in, what
the house collected and who won when it was entered (the registry's ``narrate``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.words import collection, money, seat_list, showdown

TITLES = {"holdem": "Texas Hold'em", "holdem_hi_lo": "Hold'em Hi/Lo", "pineapple": "Pineapple",
          "pineapple_hi_lo": "Pineapple Hi/Lo", "crazy_pineapple": "Crazy Pineapple",
          "crazy_pineapple_hi_lo": "Crazy Pineapple Hi/Lo", "omaha": "Omaha", "omaha_hi_lo": "Omaha Hi/Lo",
          "seven_card_stud": "7 Card Stud", "stud_hi_lo": "Stud Hi-Lo", "razz": "Razz", "draw": "Draw Poker",
          "lowball": "Low-Ball"}


def title(variant: str | None) -> str:
    return TITLES.get(str(variant), str(variant or "").replace("_", " "))


def positions(data: Mapping[str, Any]) -> str:
    """``button seat 1, small blind seat 2, big blind seat 3``: seats named as seats."""
    parts = []
    if data.get("seat") is not None:
        parts.append(f"button seat {data['seat']}" + (" (dead button)" if data.get("dead_button") else ""))
    if data.get("small_blind"):
        parts.append(f"small blind seat {data['small_blind']}")
    if data.get("big_blind"):
        parts.append(f"big blind seat {data['big_blind']}")
    return ", ".join(parts)


def hand_start(data: Mapping[str, Any]) -> list[str]:
    """The ``action_button`` event that starts a hand: the variant, positions, players and the take;
    at Mexican Stud it also names who acts first on a street."""
    if "street" in data:
        return [f"{data['street']}: seat {data['seat']} acts first ({data.get('why') or data.get('by')})"]
    head = ", ".join(p for p in (title(data.get("variant")) if data.get("variant") else "", positions(data)) if p)
    take = data.get("collection")
    stakes = data.get("stakes") or {}
    blinds = ", ".join(f"seat {b['seat']} {money(b['amount'])}" for b in stakes.get("blinds", []))
    posted = (f"; ante {money(stakes['ante'])} each" if stakes.get("ante") else "") + \
             (f"; blinds {blinds}" if blinds else "")
    return [f"{head + ': ' if head else ''}{len(data.get('players') or [])} players ("
            f"{seat_list(data.get('players') or [])}){posted}" + (f"; {collection(take)}" if take else "")]


def hand_end(data: Mapping[str, Any]) -> list[str]:
    """The ``result``: who won at the showdown the dealer entered, or that none was entered."""
    extra = ""
    if data.get("redeal_of"):
        extra = f" (a redeal of hand {data['redeal_of']})"
    return [f"hand over{extra}: {showdown(data.get('showdown'))}"]


NARRATE: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {"action_button": hand_start, "result": hand_end}
