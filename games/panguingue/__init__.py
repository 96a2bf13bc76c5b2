"""Panguingue, "Pan" (california-card-room-games.txt, "PANGUINGUE (also called PAN)" and "PAN
RULES"): eight or ten decks of 40, ten cards each in two rounds of five to the right from the
previous winner, declarations, dead-hand counts, the fee and the ante by condition.

- :mod:`games.panguingue.rules`: the sheet's rulings (a count, a declaration, the winner, the Tops).
- :mod:`games.panguingue.options`: the condition, the decks, the first seat, the seats in.
- :mod:`games.panguingue.machine`: the hand, step by step as the dealer pitches it (docs/panguingue.md).

The deal to the right, the draw rotation, the fees and the deal plan are games.poker's, shared
with the other poker-room games.
"""

from pathlib import Path

from games.odds import no_house_wager
from games.panguingue import lines as _lines
from games.panguingue.machine import PanRound
from games.panguingue.options import MAX_SEATS, OPTIONS_SCHEMA, PanOptions
from games.panguingue.rules import MAX_COUNT
from games.registry import GameEntry

SEAT: dict = {"type": "integer", "minimum": 1, "maximum": 14}

COUNT: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "seat": SEAT,
        "cards": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT,
                  "x-why": f"the number of cards the seat holds, 0 to {MAX_COUNT}"},
        "touched_deck": {"type": "boolean"},
        "before_second_five": {"type": "boolean"},
    },
    "required": ["seat", "cards"],
    "additionalProperties": False,
}
"""``cmd/count``: a seat's cards as counted by the dealer or the pit, and whether the player had
touched the deck (FOUL HANDS AND CARDS 7 and 3)."""

WINNER: dict = {
    "type": "object",
    "properties": {"id": {"type": ["string", "integer"]}, "seat": SEAT},
    "required": ["seat"],
    "additionalProperties": False,
}
"""``cmd/winner``: the seat that went out."""

GAME = GameEntry(
    name="panguingue",
    title="Panguingue (Pan)",
    sheet="california-card-room-games.txt",
    machine=PanRound,
    options=PanOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: PanRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, MAX_SEATS),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    # Six seats: deal and void (four pins) and two light groups (twelve) leave twelve pins for the
    # seat buttons; the rest are pressed as an I/O expander would report them.
    demo={"seats": 6, "game": {"condition": 500}},
    commands={"count": COUNT, "winner": WINNER},
    summary=lambda data: _summary(data),
    odds=no_house_wager("panguingue", "the house takes a fee and banks no wager (the fee by the condition, rule 1; the players pay each other for their melds): the players play each "
                        "other, so no wager has a house edge to price"),
    narrate=_lines.NARRATE,
)


def _summary(data: dict) -> str:
    """``first seat 3, 5 players, fee $15.00, Tops $25.00 | winner seat 2 (entered)``."""
    take = data["collection"]
    dead = [h["seat"] for h in data["hands"] if h["status"] in ("dead", "foul")]
    text = (f"first seat {data['first_seat']}, {len(data['players'])} players, fee ${take['fee'] / 100:.2f}, "
            f"Tops ${data['tops'] / 100:.2f}")
    if dead:
        text += f", dead or foul: seat {', '.join(map(str, dead))}"
    winner = f"winner seat {data['winner']} ({data['how'].replace('_', ' ')})" if data["winner"] is not None \
        else f"no winner ({data['how'].replace('_', ' ')})"
    return f"{text}  |  {winner}"


__all__ = ["GAME", "PanOptions", "PanRound"]
