"""The Stud family (california-card-room-games.txt, "STUD POKER AND VARIATIONS"): 7 Card Stud,
7-Card Stud High-Low Split and Razz, one package with a ``variant`` option.

- :mod:`games.stud.rules`: the collection, the up cards and who acts first, a showdown entered by
  card codes.
- :mod:`games.stud.options`: the variant, the fee schedule, the seats in.
- :mod:`games.stud.machine`: the hand, step by step as the dealer pitches it (docs/stud.md).

The evaluators, the bring-in, the fees and the deal plans are games.poker's, shared with the other
poker-room games.
"""

from pathlib import Path

from games.odds import no_house_wager
from games.poker import lines as _lines
from games.registry import GameEntry
from games.stud.irregularities import KINDS
from games.stud.machine import StudRound
from games.stud.options import MAX_SEATS, OPTIONS_SCHEMA, StudOptions

CODES: dict = {"type": "array", "items": {"type": "string", "maxLength": 8}, "minItems": 1, "maxItems": 8,
               "x-why": "a list of card codes (a rank 2-10, J, Q, K or A and a suit C, D, H or S)"}

SHOWDOWN: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "seat": {"type": "integer", "minimum": 1, "maximum": 14},
        "cards": CODES,
        "board": CODES,
    },
    "additionalProperties": False,
}
"""``cmd/showdown``: a hand shown ({"seat", "cards"}: seven codes, or six when the stub ran short
and a community card was turned up), or that community card ({"board": [code]}). The codes are
checked by the machine, not here, so that no error message quotes one."""

UP_CARDS: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "street": {"type": "integer", "minimum": 3, "maximum": 7},
        "cards": {"type": "object", "maxProperties": MAX_SEATS,
                  "additionalProperties": {"type": "string", "maxLength": 8},
                  "x-why": "each seat still in and its up card's code, as {\"<seat>\": \"<card code>\"}"},
    },
    "required": ["street", "cards"],
    "additionalProperties": False,
}
"""``cmd/up_cards``: one street's up cards, {"street": n, "cards": {seat: code}}."""

IRREGULARITY: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "what": {"enum": list(KINDS)},
        "seat": {"type": "integer"},
        "cards": {"type": "integer"},
        "acted": {"type": "boolean"},
        "burns": {"type": "integer"},
        "down": {"type": "boolean"},
        "traceable": {"type": "boolean"},
        "street": {"type": "integer"},
        "card": {"maxLength": 8},
    },
    "required": ["what"],
    "additionalProperties": False,
}
"""``cmd/irregularity``: what went wrong (games.stud.irregularities.KEYS says which keys each report
takes; the machine checks them and the card's code, so that no error message quotes one)."""

GAME = GameEntry(
    name="stud",
    title="Stud (7 Card Stud, Stud Hi-Lo, Razz)",
    sheet="california-card-room-games.txt",
    machine=StudRound,
    options=StudOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: StudRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, MAX_SEATS),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 6, "game": {"variant": "seven_card_stud"}},
    commands={"up_cards": UP_CARDS, "showdown": SHOWDOWN, "irregularity": IRREGULARITY},
    summary=lambda data: _summary(data),
    odds=no_house_wager("stud", "the house takes a fee and banks no wager (its fee by the number of players, or by the half hour for Stud Hi-Lo): the players play each "
                        "other, so no wager has a house edge to price"),
    narrate=_lines.NARRATE,
    variant_key="variant",
)


def _summary(data: dict) -> str:
    """``7 Card Stud, 6 players, fee $4.00 | showdown: high seat 2``."""
    take = data["collection"]
    fee = (f"time ${take['time_fee_each'] / 100:.2f} per person" if take["basis"] == "time"
           else f"fee ${take['fee'] / 100:.2f}")
    text = f"{data['variant']}, {len(data['players'])} players, {fee}"
    show = data.get("showdown")
    if show:
        parts = []
        if show["high"]:
            parts.append(f"high seat {', '.join(map(str, show['high']))}")
        if show["low"]:
            parts.append(f"low seat {', '.join(map(str, show['low']))}")
        text += f"  |  showdown: {', '.join(parts)}"
    return text


__all__ = ["GAME", "StudOptions", "StudRound"]
