"""Bet'Win as a person reads it (the registry's ``narrate``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import outcomes, seat_list


def result(data: Mapping[str, Any]) -> list[str]:
    """Waiting and Adjoining, the zone they make (rule 2), then each seat's card and wagers."""
    winners = [int(s) for s, seat in data["seats"].items() if seat["wagers"][0]["outcome"] == "win"]
    lines = [f"Waiting {data['waiting']}, Adjoining {data['adjoining']}: {data['zone']}  ->  "
             f"{seat_list(winners) + (' wins' if len(winners) == 1 else ' win') if winners else 'no seat wins'}"]
    for seat, s in data["seats"].items():
        changed = " (changed)" if s.get("changed") else ""
        lines.append(f"  seat {seat}: {s['card']}{changed}: {outcomes(s['wagers'])}")
    return lines


NARRATE = {"result": result}
LEGEND = {"Waiting": ("the dealer's first card; with the second, Adjoining, it marks the zone a seat's card "
                      "must fall in to win (rule 2).")}
