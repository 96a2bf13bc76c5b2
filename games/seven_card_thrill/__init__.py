"""7 Card Thrill (seven-card-thrill.txt): seven cards each, the best five against the dealer's.

- :mod:`games.seven_card_thrill.rules`: every wager on the best five (games.poker.hands, the sheet's joker).
- :mod:`games.seven_card_thrill.options`: the seats.
- :mod:`games.seven_card_thrill.machine`: the round (the deal, the discards, the showdown).
- :mod:`games.seven_card_thrill.odds`: each wager's odds, exact (:mod:`games.seven_card_thrill.classes`
  counts one hand's class, :mod:`games.seven_card_thrill.showdown` the poker bet's deals).
"""

from pathlib import Path

from games.registry import GameEntry
from games.seven_card_thrill import lines as _lines
from games.seven_card_thrill import odds as _odds
from games.seven_card_thrill.machine import SevenCardThrillRound
from games.seven_card_thrill.options import OPTIONS_SCHEMA, ThrillOptions

GAME = GameEntry(
    name="seven_card_thrill",
    title="7 Card Thrill",
    sheet="seven-card-thrill.txt",
    machine=SevenCardThrillRound,
    options=ThrillOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: SevenCardThrillRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(1, 6),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 4, "game": {}},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _summary(data: dict) -> str:
    """``dealer two pair | seat 1 flush: poker win | seat 2 pair: poker lose``."""
    parts = [f"dealer {data['dealer']['hand']}"]
    for seat, s in data["seats"].items():
        poker = next(w for w in s["wagers"] if w["wager"] == "poker")
        parts.append(f"seat {seat} {s['hand']}: poker {poker['outcome']}")
    return "  |  ".join(parts)


__all__ = ["GAME", "SevenCardThrillRound", "ThrillOptions"]
