"""Joker Seven as a person reads it (the registry's ``narrate``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import cards


def result(data: Mapping[str, Any]) -> list[str]:
    """The seven cards and every wager that wins, with what it pays (the paytable's words)."""
    wins = [f"{str(w['wager']).replace('_', ' ')} pays {w['pays']}" for w in data["wagers"] if w["outcome"] == "win"]
    return [f"{cards(data['cards'])}  ->  {', '.join(wins) or 'every wager loses'}"]


NARRATE = {"result": result}
LEGEND: dict[str, str] = {}
