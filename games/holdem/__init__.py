"""The Hold'em family (california-card-room-games.txt, "THE BASIC PLAY OF THE MOTHER GAME TEXAS
HOLD'EM" and "The Variations"): Texas Hold'em, Hold'em Hi/Lo, Pineapple, Crazy Pineapple and Omaha
(high, and high-low), one package with a ``variant`` option.

- :mod:`games.holdem.rules`: the hand's positions and collection, a showdown entered by card codes.
- :mod:`games.holdem.options`: the variant, the fee schedule, the first button, the seats in.
- :mod:`games.holdem.machine`: the hand, step by step as the dealer pitches it (docs/holdem.md).

The evaluators, the positions, the fees and the deal plans are games.poker's, shared with the
other poker-room games.
"""

from pathlib import Path

from games.holdem.machine import HoldemRound
from games.holdem.options import OPTIONS_SCHEMA, HoldemOptions
from games.odds import no_house_wager
from games.poker import lines as _lines
from games.registry import GameEntry

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
"""``cmd/showdown``: a hand shown ({"seat", "cards"}) or the board ({"board"}), by card codes. The
codes are checked by the machine, not here, so that no error message quotes one."""

GAME = GameEntry(
    name="holdem",
    title="Hold'em (Texas Hold'em, Hold'em Hi/Lo, Pineapple, Crazy Pineapple, Omaha)",
    sheet="california-card-room-games.txt",
    machine=HoldemRound,
    options=HoldemOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: HoldemRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, 10),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    # Six seats: deal and void (four pins) and three light groups (eighteen) leave six pins for the
    # seat buttons; the rest are pressed as an I/O expander would report them.
    demo={"seats": 6, "game": {"variant": "holdem"}},
    commands={"showdown": SHOWDOWN},
    summary=lambda data: _summary(data),
    odds=no_house_wager("holdem", "the house takes a fee and banks no wager (its fee by the number of players and a jackpot drop from five): the players play each "
                        "other, so no wager has a house edge to price"),
    narrate=_lines.NARRATE,
    variant_key="variant",
)


def _summary(data: dict) -> str:
    """``button 3, blinds 4/5, 6 players, fee $3.00 jackpot $1.00 | showdown: seat 2 high``."""
    take = data["collection"]
    text = (f"button {data['button']}, blinds {data['small_blind'] or '-'}/{data['big_blind']}, "
            f"{len(data['players'])} players, fee ${take['fee'] / 100:.2f} jackpot ${take['jackpot'] / 100:.2f}")
    show = data.get("showdown")
    if show:
        low = f", low seat {', '.join(map(str, show['low']))}" if show["low"] else ""
        text += f"  |  showdown: high seat {', '.join(map(str, show['high']))}{low}"
    return text


__all__ = ["GAME", "HoldemOptions", "HoldemRound"]
