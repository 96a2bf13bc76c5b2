"""Commission-Free Baccarat (california-card-room-games.txt): rules, options, round machine.

- :mod:`games.baccarat.rules`: card points, naturals, the rule-16 chart, payouts, the action button.
- :mod:`games.baccarat.options`: what a table's config may set.
- :mod:`games.baccarat.machine`: the round, as the controller sequences it.
- :mod:`games.baccarat.roads`: the scoreboard roads (bead plate, big road and the derived roads).
- ``schemas/``: the JSON Schemas of its ``card``, ``reveal``, ``result`` and ``action_button`` events.
"""

from pathlib import Path

from games.baccarat import lines as _lines
from games.baccarat import odds as _odds
from games.baccarat import roads as _roads
from games.baccarat.machine import BaccaratRound
from games.baccarat.options import OPTIONS_SCHEMA, BaccaratOptions
from games.baccarat.rules import MAX_SEATS, MIN_SEATS
from games.odds import GameOdds
from games.registry import GameEntry

GAME = GameEntry(
    name="baccarat",
    title="Commission-Free Baccarat",
    sheet="california-card-room-games.txt",
    machine=BaccaratRound,
    options=BaccaratOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: BaccaratRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(MIN_SEATS, MAX_SEATS),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 8, "game": {"action_wrap": "around_table", "first_player_dealer_seat": 1}},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    scoreboard=_roads.scoreboard,
    outcome_classes=_odds.outcome_classes,
    odds=lambda paytable, decks: _odds.odds(8 if decks is None else decks) if paytable is None else _one_paytable(),
)


def _summary(data: dict) -> str:
    """``P 2H 5C = 7  |  B KD 6S = 6  ->  PLAYER`` (rule 19), the banker's 6 noted (rule 8b)."""
    p, b = data["player"], data["banker"]
    six = " (banker wins with 6: pays 1:2)" if data.get("banker_six") else ""
    return (f"P {' '.join(p['cards'])} = {p['total']}  |  B {' '.join(b['cards'])} = {b['total']}  ->  "
            f"{str(data['winner']).upper()}{six}")


def _one_paytable() -> GameOdds:
    raise ValueError("--paytable: Commission-Free Baccarat has one paytable (rule 8: 1 to 1, banker's 6 "
                     "pays 1 to 2, tie 8 to 1)")

__all__ = ["GAME", "BaccaratOptions", "BaccaratRound"]
