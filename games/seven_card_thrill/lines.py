"""7 Card Thrill as a person reads it (the registry's ``narrate``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import cards, outcomes


def result(data: Mapping[str, Any]) -> list[str]:
    """The dealer's seven cards and hand, then each seat's cards, hand and the wagers that win."""
    d = data["dealer"]
    lines = [f"dealer: {cards(d['cards'])}, {d['hand']}"]
    for seat, s in data["seats"].items():
        won = [w for w in s["wagers"] if w["outcome"] != "lose" or w["wager"] == "poker"]
        lines.append(f"  seat {seat}: {cards(s['cards'])}, {s['hand']}: {outcomes(won)}")
    return lines


NARRATE = {"result": result}
LEGEND: dict[str, str] = {}
