"""Bet'Win (betwin.txt): one card a seat, the dealer's Waiting and Adjoining cards, the win zone.

- :mod:`games.betwin.rules`: card values, the zone, each seat's result, and the readings where the sheet is unclear.
- :mod:`games.betwin.options`: seats, decks, face order, the reading of identical dealer cards.
- :mod:`games.betwin.machine`: the round (deal, change phase, re-bet, Adjoining card).
- :mod:`games.betwin.odds`: exact odds of the bet, alone and played well.
"""

from pathlib import Path

from games.betwin import lines as _lines
from games.betwin import odds as _odds
from games.betwin.machine import BetWinRound
from games.betwin.options import OPTIONS_SCHEMA, BetWinOptions
from games.registry import GameEntry

GAME = GameEntry(
    name="betwin",
    title="Bet'Win",
    sheet="betwin.txt",
    machine=BetWinRound,
    options=BetWinOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: BetWinRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(1, 7),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 5, "game": {}},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _summary(data: dict) -> str:
    """``W 2S  A RH: wins from 2 up to, not including, the King -> seats 1, 3 win``."""
    winners = [s for s, seat in data["seats"].items() if seat["wagers"][0]["outcome"] == "win"]
    who = (f"seat {winners[0]} wins" if len(winners) == 1 else f"seats {', '.join(winners)} win" if winners
           else "no seat wins")
    return f"W {data['waiting']}  A {data['adjoining']}: {data['zone']}  ->  {who}"


__all__ = ["GAME", "BetWinOptions", "BetWinRound"]
