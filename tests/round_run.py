"""A game's round machine driven as the controller drives it, for the round tests of the games
(No Bust, Hot Action Blackjack, the poker room's Hold'em and Stud): every event checked against
the game's schemas and every snapshot against the state schema as it is made."""

from __future__ import annotations

import json
from typing import Any

from controller.shared.schemas import validate, validate_event
from games.cards import cards
from games.registry import get


class RoundRun:
    """``game``'s machine built from its registry entry with ``options``; ``table`` names the table
    in the envelopes. ``events`` are (kind, data) as emitted, ``snapshots`` the JSON of the state
    after each event."""

    def __init__(self, game: str, options: Any, table: str) -> None:
        self.game = game
        self.table = table
        self.events: list[tuple[str, dict]] = []
        self.snapshots: list[str] = []
        self.m = None
        self.m = get(game).build(options, self.emit, 1)

    def emit(self, kind: str, data: dict) -> None:
        env = {"seq": len(self.events) + 1, "ts": 0.0, "table": self.table, "round": None, "kind": kind,
               "data": data}
        validate_event(json.loads(json.dumps(env)), game=self.game)
        self.events.append((kind, data))
        if self.m is not None:
            snap = json.loads(json.dumps(self.m.snapshot()))
            validate("state", {**snap, "table": self.table, "seq": 1, "ts": 0.0})
            self.snapshots.append(json.dumps(snap))

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def all(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]

    def to_dealing(self) -> None:
        """Open (deck check, shuffle, the shoe loaded) if closed, then ``deal``: no more bets."""
        m = self.m
        if m.state == "closed":
            m.open()
            m.deck_checked(m.spec.all_cards(), 0)
            m.shuffled(m.spec.size)
            m.press("shuffle_ack")
        m.press("deal")
        assert m.state == "dealing"

    def deal(self, codes: str) -> None:
        for c in cards(codes):
            self.m.card(c)

    def press(self, name: str, seat: int) -> str | None:
        """A seat button: None if accepted, else the reason."""
        return self.m.press(name, seat).reason
