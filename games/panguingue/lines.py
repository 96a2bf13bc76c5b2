"""Panguingue as a person reads it (the registry's ``narrate``): the house banks no wager and reads
no card; a hand reads as its order of play, the condition, the take and the winner entered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.words import collection, money, seat_list


def hand_start(data: Mapping[str, Any]) -> list[str]:
    order = ", ".join(str(s) for s in data.get("order") or [])
    take = data.get("collection") or {}
    return [f"first seat {data['seat']} ({data.get('why')}); play order seats {order}; condition "
            f"{money(data.get('condition'))}; {collection(take)}"]


def hand_end(data: Mapping[str, Any]) -> list[str]:
    dead = [h["seat"] for h in data.get("hands", []) if h.get("status") in ("dead", "foul")]
    winner = (f"seat {data['winner']} wins ({str(data['how']).replace('_', ' ')})" if data.get("winner") is not None
              else str(data.get("why") or "no winner entered"))
    extra = f"; dead or foul: {seat_list(dead)}" if dead else ""
    return [f"hand over: {winner}; Tops {money(data.get('tops'))}{extra}"]


NARRATE = {"action_button": hand_start, "result": hand_end}
