"""Joker Seven (joker-seven.txt; N.J.A.C. 13:47-20.26): seven cards face up, wagers on the layout.

- :mod:`games.joker_seven.paytables`: both paytables, and the readings where the sheets are unclear.
- :mod:`games.joker_seven.rules`: every wager settled from the seven cards.
- :mod:`games.joker_seven.options`: the paytable and the back colours, from the config.
- :mod:`games.joker_seven.machine`: the round (seven cards, rule 12's count, the deck change).
- :mod:`games.joker_seven.odds`: each wager's exact odds.
"""

from pathlib import Path

from games.joker_seven import lines as _lines
from games.joker_seven import odds as _odds
from games.joker_seven.machine import JokerSevenRound
from games.joker_seven.options import OPTIONS_SCHEMA, JokerSevenOptions
from games.registry import GameEntry

GAME = GameEntry(
    name="joker_seven",
    title="Joker Seven",
    sheet="joker-seven.txt, joker-seven-nj.txt",
    machine=JokerSevenRound,
    options=JokerSevenOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: JokerSevenRound(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(1, 14),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 6, "game": {"paytable": "generic"}},
    commands={"change_deck": {"type": "object", "properties": {
        "id": {"type": ["string", "integer"]},
        "reason": {"type": "string", "maxLength": 200}}, "additionalProperties": False}},
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    variant_key="paytable",
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _summary(data: dict) -> str:
    """``AS AC 3S 3C 5H 6D JK -> two_pairs 3 to 1, one_joker 3 to 1, ...``: what wins."""
    wins = [f"{w['wager']} {w['pays']}" for w in data["wagers"] if w["outcome"] == "win"]
    return f"{' '.join(data['cards'])}  ->  {', '.join(wins) or 'every wager loses'}"

__all__ = ["GAME", "JokerSevenOptions", "JokerSevenRound"]
