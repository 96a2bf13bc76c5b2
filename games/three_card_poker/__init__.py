"""Three Card Poker (california-card-room-games.txt): antes, play or fold, the player-dealer.

- :mod:`games.three_card_poker.hands`: the three-card ranking.
- :mod:`games.three_card_poker.rules`: qualifying, ante, play and bonus, the action button.
- :mod:`games.three_card_poker.options`: seats, decks, shoe or hand-forming shuffler, bonus table.
- :mod:`games.three_card_poker.machine`: the round, in either mode.
- :mod:`games.three_card_poker.odds`: every wager's odds.
"""

from pathlib import Path

from games.registry import GameEntry
from games.three_card_poker import lines as _lines
from games.three_card_poker import odds as _odds
from games.three_card_poker.machine import ThreeCardPoker, ThreeCardPokerHands, ThreeCardPokerShoe
from games.three_card_poker.options import OPTIONS_SCHEMA, ThreeCardPokerOptions


def _machine(options: ThreeCardPokerOptions) -> type[ThreeCardPoker]:
    return ThreeCardPokerHands if options.deal_from == "hand_shuffler" else ThreeCardPokerShoe


GAME = GameEntry(
    name="three_card_poker",
    title="Three Card Poker",
    sheet="california-card-room-games.txt",
    machine=ThreeCardPoker,
    options=ThreeCardPokerOptions.from_config,
    options_schema=OPTIONS_SCHEMA,
    build=lambda options, emit, first_round: _machine(options)(options, emit, first_round=first_round),
    deck=lambda options: options.spec,
    seats=(2, 14),
    schemas=Path(__file__).resolve().parent / "schemas",
    option_keys={"seats": "table.seats"},
    demo={"seats": 4, "game": {"deal_from": "hand_shuffler", "decks": 1}},
    roles_for=lambda options: _machine(options).ROLES,
    summary=lambda data: _summary(data),
    narrate=_lines.NARRATE,
    legend=_lines.LEGEND,
    variant_key="deal_from",
    odds=_odds.odds,
    outcome_classes=_odds.outcome_classes,
)


def _summary(data: dict) -> str:
    """``PD seat 1: pair (qualifies) | seat 2 ante win, play win | seat 3 folded``."""
    d = data["dealer"]
    parts = [f"PD seat {data['player_dealer']}: {' '.join(d['cards'])} {d['hand']}"
             f" ({'qualifies' if d['qualifies'] else 'does not qualify'})"]
    for seat, s in data["seats"].items():
        if not s["played"]:
            parts.append(f"seat {seat} folded")
            continue
        outcomes = ", ".join(f"{w['wager']} {w['outcome']}" for w in s["wagers"])
        parts.append(f"seat {seat} {s['hand']}: {outcomes}")
    return "  |  ".join(parts)


__all__ = ["GAME", "ThreeCardPokerOptions"]
