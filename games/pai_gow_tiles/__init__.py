"""Pai Gow Tiles (california-card-room-games.txt, "Pai Gow Tiles"; The Palace Poker Casino): 32
tiles, no cards, a player-dealer and a dice cup of three dice.

- :mod:`games.pai_gow_tiles.tiles`: the tile vocabulary, the set of 32 and its 16 pairs.
- :mod:`games.pai_gow_tiles.hands`: a two-tile hand's rank (pairs, Wong, Gong, points, high nine),
  the comparison with the banker (copies and two zeros to the banker), the setting rules and the
  house way.
- :mod:`games.pai_gow_tiles.rules`: the shake's placement of the action button and the first
  tiles, a disputed hand as entered, each seat settled.
- :mod:`games.pai_gow_tiles.options`: eight positions, the first player-dealer, the Gee Joon
  reading, the fees.
- :mod:`games.pai_gow_tiles.machine`: the round (no deck: games.round.no_deck).

Readings where the sheet is silent or unclear (each documented where it is carried out):
- a Gee Joon tile outside the Supreme Pair counts 3 or 6 (option ``gee_joon_wild``, hands);
- only the higher tile of each hand breaks a tie of value (Scoring names no second tile), hands;
- the order of the matched pairs (the sheet's pictures are lost): the posted order, tiles;
- a low hand equal to the high hand is allowed; only a low hand that outranks it is refused, hands;
- the house way for a hand without a pair ("How to Arrange the Tiles" 4-7), hands.house_way;
- every position is counted by the dice, seated or not; "the first player to the right" of the
  banker is the next position counterclockwise, rules.placement;
- no device reads the tiles: a round's result names its hands only for a dispute the pit enters
  (``cmd/dispute``), machine.
"""

from pathlib import Path
from typing import Any

from games.decks import NO_CARDS
from games.pai_gow_tiles import lines as _lines
from games.pai_gow_tiles import odds as _odds
from games.pai_gow_tiles.machine import PaiGowTilesRound
from games.pai_gow_tiles.options import OPTIONS_SCHEMA, PaiGowTilesOptions
from games.pai_gow_tiles.rules import DICE, POSITIONS
from games.registry import GameEntry

_TILES = {"type": "array", "items": {"$ref": "#/$defs/tile"}}
HAND_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "object", "properties": {"high": {**_TILES, "minItems": 2, "maxItems": 2},
                                          "low": {**_TILES, "minItems": 2, "maxItems": 2}},
         "required": ["high", "low"], "additionalProperties": False},
        {"type": "object", "properties": {"tiles": {**_TILES, "minItems": 4, "maxItems": 4},
                                          "set": {"const": "house"}},
         "required": ["tiles", "set"], "additionalProperties": False},
    ],
    "x-why": "must be a hand set at the table, {\"high\": [two tiles], \"low\": [two tiles]}, or four tiles "
             "the house sets, {\"tiles\": [four tiles], \"set\": \"house\"}",
}
DISPUTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "reason": {"type": "string", "maxLength": 200},
        "player_dealer": {"$ref": "#/$defs/hand"},
        "seats": {"type": "object", "propertyNames": {"pattern": "^[1-8]$"},
                  "additionalProperties": {"$ref": "#/$defs/hand"}, "minProperties": 1, "maxProperties": 7},
    },
    "required": ["seats"],
    "additionalProperties": False,
    "$defs": {"tile": {"type": "string", "pattern": "^[1-6]-[1-6]$",
                       "x-why": "must be a tile: its two halves' spots, 1 to 6 each, as \"6-6\" or \"1-2\""},
              "hand": HAND_SCHEMA},
}
"""``cmd/dispute``: the player-dealer's hand (needed once a round) and each disputed seat's."""

GAME = GameEntry(
    name="pai_gow_tiles",
    title="Pai Gow Tiles",
    sheet="california-card-room-games.txt",
    machine=PaiGowTilesRound,
    options=PaiGowTilesOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: PaiGowTilesRound(options, emit, first_round=first_round),
    deck=lambda options: NO_CARDS,
    seats=(POSITIONS, POSITIONS),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": POSITIONS, "game": {}, "devices": {"cup": {"dice": DICE}}},
    commands={"dispute": DISPUTE_SCHEMA},
    summary=lambda data: _summary(data),
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
)


def _summary(data: dict) -> str:
    """``PD seat 1: dice 3 5 6 = 14 -> first tiles seat 3, action seat 3 | seat 4 push | seat 6 win``."""
    dice = " ".join(str(v) for v in data["values"])
    parts = [f"PD seat {data['player_dealer']}: dice {dice} = {data['total']} -> first tiles seat "
             f"{data['first_tiles_seat']}, action seat {data['action_seat']}"]
    parts += [f"seat {seat} {s['outcome']}" for seat, s in data["seats"].items()]
    return "  |  ".join(parts)


__all__ = ["GAME", "PaiGowTilesOptions", "PaiGowTilesRound"]
