"""Double-Hand Poker (california-card-room-games.txt, "DOUBLE-HANDED POKER"; the Palace Card Club's
"Double Hand Poker" limits): seven hands of seven, a designated player, two hands against two.

- :mod:`games.double_hand.rules`: the ranking (games.poker.hands with the sheet's joker), the
  setting (the five-card hand must outrank the two-card hand), the house way, the comparison
  with the designated player, the seat the dice reach and where each hand goes. Its docstring
  tags the sheet's passages (O, R1-R11, D, T, P1-P13) and lists the readings where it is silent.
- :mod:`games.double_hand.options`: the positions, the first designated player, the readings.
- :mod:`games.double_hand.machine`: the round (hands, count, action button, dice, settings).
- :mod:`games.double_hand.odds`: the seat's edge against the designated player, simulated.
"""

from pathlib import Path

from games.double_hand import lines as _lines
from games.double_hand import odds as _odds
from games.double_hand.machine import DoubleHandRound
from games.double_hand.options import OPTIONS_SCHEMA, DoubleHandOptions
from games.registry import GameEntry

SET_HAND: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "seat": {"type": "integer", "minimum": 1, "maximum": 7},
        "two": {"type": "array", "items": {"type": "string", "maxLength": 8}, "minItems": 2, "maxItems": 2,
                "x-why": "the two-card hand: two card codes (a rank 2-10, J, Q, K or A and a suit C, D, H or S; JK the joker)"},
        "five": {"type": "array", "items": {"type": "string", "maxLength": 8}, "minItems": 5, "maxItems": 5,
                 "x-why": "the five-card hand: five card codes"},
    },
    "required": ["seat", "two", "five"],
    "additionalProperties": False,
}
"""``cmd/set_hand``: how the hand being turned up was set (P7), by card codes."""

GAME = GameEntry(
    name="double_hand",
    title="Double-Hand Poker",
    sheet="california-card-room-games.txt",
    machine=DoubleHandRound,
    options=DoubleHandOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: DoubleHandRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, 7),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    # Six positions: eleven buttons (deal, void, pass, house_way, hand_1..hand_7) and their lights
    # take 22 of the simulated table's 28 pins, the designated player's seat lights the other six.
    demo={"seats": 6, "game": {}, "devices": {"cup": {"dice": 3}}},
    commands={"set_hand": SET_HAND},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _summary(data: dict) -> str:
    """``DP seat 2: KD KS / A-high ... | seat 3 push | seat 4 win``."""
    d = data["designated"]
    parts = [f"dice {'-'.join(map(str, data['dice']))} -> hand {data['selected_hand']} to seat {data['first_seat']}",
             f"DP seat {d['seat']}: {d['two']['hand']} / {d['five']['hand']}"]
    for seat, s in data["seats"].items():
        parts.append(f"seat {seat} {s['two']['hand']} / {s['five']['hand']}: {s['wagers'][0]['outcome']}")
    return "  |  ".join(parts)


__all__ = ["GAME", "DoubleHandOptions", "DoubleHandRound"]
