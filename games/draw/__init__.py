"""Draw Poker & Low-Ball (california-card-room-games.txt, "DRAW POKER & LOW-BALL" and the sections
after it: "BASICS OF DRAW POKER", "BASICS OF LO-BALL", "THE DEAL AND THE DRAW", "BLINDS", "BOXED
CARDS - EXPOSED CARDS", "IRREGULARITIES IN A DECK"), one package with a ``variant`` option:
``draw`` (high, the joker a bug) and ``lowball`` (ace to five, the joker the lowest card not held,
the seven-or-better rule).

- :mod:`games.draw.rules`: the hand's positions, stakes and collection, a showdown entered by card
  codes.
- :mod:`games.draw.stub`: the draw counted, and the sheet's procedure when the stub runs short.
- :mod:`games.draw.irregularities`: misdeals and the other irregularities, and the sheet's
  consequence of each.
- :mod:`games.draw.options`: the variant, the antes and blinds, the fee schedule, the first blind.
- :mod:`games.draw.machine`: the hand, step by step as the dealer pitches it (docs/draw.md).

The evaluators, the positions, the fees and the deal plan are games.poker's, shared with the other
poker-room games.
"""

from pathlib import Path

from games.draw.irregularities import KINDS
from games.draw.machine import DrawRound
from games.draw.options import MAX_SEATS, OPTIONS_SCHEMA, DrawOptions
from games.odds import no_house_wager
from games.poker import lines as _lines
from games.registry import GameEntry

REQUEST_ID = {"type": ["string", "integer"]}

SHOWDOWN: dict = {
    "type": "object",
    "properties": {
        "id": REQUEST_ID,
        "seat": {"type": "integer", "minimum": 1, "maximum": 14},
        "cards": {"items": {"maxLength": 8}, "maxItems": 8},
        "bet_after_draw": {"type": "boolean"},
    },
    "additionalProperties": False,
}
"""``cmd/showdown``: a hand shown, {"seat", "cards"} (five codes), and in Low-Ball whether it bet
after the draw. ``cards`` is checked by the machine, not here (no type here either: a schema error
quotes the value it got), so that no error message quotes a code."""

DRAW: dict = {
    "type": "object",
    "properties": {
        "id": REQUEST_ID,
        "draws": {"type": "object", "minProperties": 1, "maxProperties": MAX_SEATS,
                  "additionalProperties": {"type": "integer"},
                  "x-why": "each player still in and the cards he draws, such as {\"2\": 3, \"5\": 0}"},
    },
    "required": ["draws"],
    "additionalProperties": False,
}
"""``cmd/draw``: the draws declared, {"draws": {seat: cards}}; a seat not listed has folded."""

NO_OPEN: dict = {"type": "object", "properties": {"id": REQUEST_ID}, "additionalProperties": False}
"""``cmd/no_open``: nobody opened the pot (a game without blinds; OPENERS)."""

IRREGULARITY: dict = {
    "type": "object",
    "properties": {
        "id": REQUEST_ID,
        "what": {"enum": list(KINDS)},
        "seat": {"type": "integer"},
        "count": {"type": "integer"},
        "cards": {"type": "integer"},
        "acted": {"type": "integer"},
        "picked_up": {"type": "boolean"},
        "opened": {"type": "boolean"},
        "button": {"type": "integer"},
        "card": {"maxLength": 8},
    },
    "required": ["what"],
    "additionalProperties": False,
}
"""``cmd/irregularity``: what went wrong (games.draw.irregularities.KEYS says which keys each report
takes; the machine checks them and the card's code, so that no error message quotes one)."""

GAME = GameEntry(
    name="draw",
    title="Draw Poker & Low-Ball",
    sheet="california-card-room-games.txt",
    machine=DrawRound,
    options=DrawOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: DrawRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, MAX_SEATS),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    # Six seats: deal and void (four pins) and three light groups (eighteen) leave six pins for the
    # seat buttons; the rest are pressed as an I/O expander would report them.
    demo={"seats": 6, "game": {"variant": "lowball"}},
    commands={"draw": DRAW, "irregularity": IRREGULARITY, "showdown": SHOWDOWN, "no_open": NO_OPEN},
    summary=lambda data: _summary(data),
    odds=no_house_wager("draw", "the house takes a fee and banks no wager (its fee by the half hour, rules 1 & 2): the players play each "
                        "other, so no wager has a house edge to price"),
    narrate=_lines.NARRATE,
    variant_key="variant",
)


def _summary(data: dict) -> str:
    """``Low-Ball, button 3, big blind 6, 6 players, time $5.00 per person | showdown: seat 2``."""
    take = data["collection"]
    fee = (f"time ${take['time_fee_each'] / 100:.2f} per person" if take["basis"] == "time"
           else f"fee ${take['fee'] / 100:.2f} jackpot ${take['jackpot'] / 100:.2f}")
    blind = f"big blind {data['big_blind']}" if data["big_blind"] is not None else "antes only"
    text = (f"{'Low-Ball' if data['variant'] == 'lowball' else 'Draw Poker'}, button {data['button']}, {blind}, "
            f"{len(data['players'])} players, {fee}")
    if data.get("opened") is False:
        text += ", nobody opened: everyone antes again"
    if data.get("redeal_of"):
        text += f", redeals hand {data['redeal_of']}"
    if data.get("stub") and data["stub"]["reshuffles"]:
        text += ", the stub ran short"
    show = data.get("showdown")
    if show:
        won = show["low"] if data["variant"] == "lowball" else show["high"]
        text += f"  |  showdown: seat {', '.join(map(str, won))}"
    return text


__all__ = ["GAME", "DrawOptions", "DrawRound"]
