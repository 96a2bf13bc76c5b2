"""Mexican Stud (california-card-room-games.txt, "MEXICAN POKER (5-Card Stud--Mexico Style) (41 Card
Deck)", "Stud Loco"): five-card stud from a 41-card deck, one card always down, the joker wild.

- :mod:`games.mexican_stud.rules`: the button, the collection, the forced bet and who acts first,
  which card comes down, and a showdown entered by card codes.
- :mod:`games.mexican_stud.options`: the table's collection, the first button, the seats in.
- :mod:`games.mexican_stud.machine`: the hand, step by step as the dealer pitches it
  (docs/mexican_stud.md).

The evaluator (the Mexican ranking), the forced bet, the fees, the button and the deal plan are
games.poker's, shared with the other poker-room games.
"""

from pathlib import Path

from games.mexican_stud.machine import MexicanStudRound
from games.mexican_stud.options import MAX_SEATS, OPTIONS_SCHEMA, MexicanOptions
from games.odds import no_house_wager
from games.poker import lines as _lines
from games.registry import GameEntry

CODE: dict = {"type": "string", "maxLength": 8}
SEAT: dict = {"type": "integer", "minimum": 1, "maximum": 14}

SHOWDOWN: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "seat": SEAT,
        "cards": {"type": "array", "items": CODE, "minItems": 1, "maxItems": 8,
                  "x-why": "a list of card codes (a rank 2-10, J, Q, K or A and a suit C, D, H or S; JK the joker)"},
    },
    "additionalProperties": False,
}
"""``cmd/showdown``: a hand shown ({"seat", "cards"}: five codes). The codes are checked by the
machine, not here, so that no error message quotes one."""

UP_CARDS: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "street": {"type": "integer", "minimum": 2, "maximum": 5,
                   "x-why": "the card whose betting round is due: 2 (the first up card) to 5"},
        "cards": {"type": "object", "maxProperties": MAX_SEATS, "additionalProperties": CODE,
                  "x-why": "each seat still in and its card's code, or \"down\" where it was dealt face down, "
                           "as {\"<seat>\": \"<card code>\" or \"down\"}"},
    },
    "required": ["street", "cards"],
    "additionalProperties": False,
}
"""``cmd/up_cards``: one street's up cards, {"street": n, "cards": {seat: code or "down"}}."""

EXPOSE: dict = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "integer"]},
        "seat": SEAT,
        "card": CODE,
        "by": {"enum": ["player", "dealer"],
               "x-why": "player: he opened it (the default); dealer: the house dealer exposed it"},
    },
    "required": ["seat", "card"],
    "additionalProperties": False,
}
"""``cmd/expose``: a seat's down card is face up now, {"seat", "card", "by"}: its next card comes down."""

GAME = GameEntry(
    name="mexican_stud",
    title="Mexican Stud (Mexican Poker, Stud Loco)",
    sheet="california-card-room-games.txt",
    machine=MexicanStudRound,
    options=MexicanOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: MexicanStudRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, MAX_SEATS),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    # Six seats: deal and void (four pins) and two light groups (twelve) leave twelve pins for the
    # seat buttons. The sheet posts no collection: the demo's is $1.00 each and a $1.00 jackpot.
    demo={"seats": 6, "game": {"schedule": {"basis": "player", "fee_each": 100, "jackpot": 100}}},
    commands={"up_cards": UP_CARDS, "expose": EXPOSE, "showdown": SHOWDOWN},
    summary=lambda data: _summary(data),
    odds=no_house_wager("mexican_stud", "the house takes a fee and banks no wager (each player's collection and the jackpot drop): the players play each "
                        "other, so no wager has a house edge to price"),
    narrate=_lines.NARRATE,
)


def _summary(data: dict) -> str:
    """``button 3, 6 players, collection $6.00 jackpot $1.00 | showdown: seat 2 (five of a kind)``."""
    take = data["collection"]
    fee = (f"time ${take['time_fee_each'] / 100:.2f} per person" if take["basis"] == "time"
           else f"collection ${take['fee'] / 100:.2f} jackpot ${take['jackpot'] / 100:.2f}")
    text = f"button {data['button']}, {len(data['players'])} players, {fee}"
    show = data.get("showdown")
    if show and show["high"]:
        names = {h["seat"]: h["high"]["name"] for h in show["hands"]}
        text += "  |  showdown: " + ", ".join(f"seat {s} ({names[s]})" for s in show["high"])
    return text


__all__ = ["GAME", "MexicanOptions", "MexicanStudRound"]
