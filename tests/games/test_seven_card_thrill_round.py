"""7 Card Thrill's round machine (games/seven_card_thrill/machine.py) and its odds."""

from __future__ import annotations

import json

import pytest

from controller.shared.schemas import validate, validate_event
from games.cards import cards
from games.seven_card_thrill import SevenCardThrillRound, ThrillOptions
from games.seven_card_thrill import odds as thrill_odds

# two seats: the cards go round seat 1, seat 2, dealer, seven times
SEAT1 = "AS AD AH 7C 5S 3D 2H"
SEAT2 = "KS KD 9H 7D 5C 3H 2C"
DEALER = "QS QD 9C 7H 5D 3C 2S"


def dealt_in_order() -> list[str]:
    hands = [h.split() for h in (SEAT1, SEAT2, DEALER)]
    return [hands[h][i] for i in range(7) for h in range(3)]


class Run:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m = None
        self.m = SevenCardThrillRound(ThrillOptions(seats=2), self.emit)

    def emit(self, kind: str, data: dict) -> None:
        env = {"seq": len(self.events) + 1, "ts": 0.0, "table": "t", "round": None, "kind": kind, "data": data}
        validate_event(json.loads(json.dumps(env)), game="seven_card_thrill")
        self.events.append((kind, data))
        if self.m is not None:
            validate("state", {**json.loads(json.dumps(self.m.snapshot())), "table": "t", "seq": 1, "ts": 0.0})

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def to_dealing(self) -> None:
        self.m.open()
        self.m.deck_checked(self.m.spec.all_cards(), 0)
        self.m.shuffled(53)
        self.m.press("deal")
        assert self.m.state == "dealing"


def test_a_round_face_down_but_the_dealers_top_card_then_the_showdown():
    r = Run()
    r.to_dealing()
    for c in cards(" ".join(dealt_in_order())):
        r.m.card(c)
    shown = [d for k, d in r.events if k == "card" and d["face"] == "up"]
    assert shown == [{"hand": "dealer", "position": 1, "face": "up", "card": "QS"}], "only the dealer's top card"
    text = json.dumps(r.events) + json.dumps(r.m.snapshot())
    assert "AH" not in text and "9H" not in text, "no seat's card before the showdown"
    assert r.last("prompt")["expect"] == "press"
    r.m.press("deal")                                   # the discards are placed
    assert r.m.state == "result"
    reveals = [d for k, d in r.events if k == "reveal"]
    assert reveals[0] == {"hand": "seat", "seat": 1, "cards": SEAT1.split()}
    result = r.last("result")
    assert result["seats"]["1"]["hand"] == "three of a kind" and result["dealer"]["hand"] == "pair"


def test_an_eighth_card_is_an_alarm():
    r = Run()
    r.to_dealing()
    for c in cards(" ".join(dealt_in_order())):
        r.m.card(c)
    r.m.card(cards("10D")[0])
    alarm = r.last("alarm")
    assert alarm["code"] == "unexpected_card" and alarm["message"].startswith("10D drawn, but two discards")
    assert r.m.state == "fault"


@pytest.mark.parametrize("seats", [0, 7])
def test_seats_1_to_6(seats):
    with pytest.raises(ValueError, match="1 to 6 seats"):
        ThrillOptions(seats=seats)


def test_every_wager_has_odds_and_the_poker_bet_is_counted():
    table = thrill_odds.odds()
    assert [w.wager for w in table.wagers] == ["poker", "kings_or_better", "trips_or_better",
                                               "full_house_or_better", "special"]
    poker = table.wagers[0]
    assert poker.method == "exact" and poker.interval is None
    assert "8,250,459,031,214,400 deals" in poker.note
    with pytest.raises(ValueError, match="one deck of 52 and a joker"):
        thrill_odds.odds(decks=2)
