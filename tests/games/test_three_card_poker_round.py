"""Three Card Poker's round machine, from a shoe and from a hand-forming shuffler
(california-card-room-games.txt, Three Card Poker: D = Dealing procedures, R = Round of Play)."""

from __future__ import annotations

import json

import pytest

from controller.shared.schemas import validate, validate_event
from games.cards import cards
from games.registry import get
from games.three_card_poker import ThreeCardPokerOptions

GAME = get("three_card_poker")


class Run:
    def __init__(self, **options) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m = None
        self.m = GAME.build(ThreeCardPokerOptions(**{"seats": 4, **options}), self.emit, 1)

    def emit(self, kind: str, data: dict) -> None:
        env = {"seq": len(self.events) + 1, "ts": 0.0, "table": "tcp", "round": None, "kind": kind, "data": data}
        validate_event(json.loads(json.dumps(env)), game="three_card_poker")
        self.events.append((kind, data))
        if self.m is not None:
            validate("state", {**json.loads(json.dumps(self.m.snapshot())), "table": "tcp", "seq": 1, "ts": 0.0})

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def all(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]

    def to_dealing(self) -> None:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        if m.state == "load_shoe":
            m.press("shuffle_ack")
        m.press("deal")
        assert m.state == "dealing"


# seat 1 holds the player-dealer position: the deal goes to seats 2, 3, 4, then seat 1 (D1a)
SHOE_DEAL = "5C 5D 7H  AS KS QS  2C 8D 9H  QC 3D 2H"


def test_a_round_from_the_shoe():
    r = Run()
    r.to_dealing()
    for c in cards(SHOE_DEAL):
        r.m.card(c)
    dealt = [(d["hand"], d["seat"], d["position"], d["face"], d.get("card")) for d in r.all("card")]
    assert dealt[:3] == [("seat", 2, 1, "down", None), ("seat", 2, 2, "down", None), ("seat", 2, 3, "down", None)]
    assert dealt[-1] == ("player_dealer", 1, 3, "up", "2H"), "D1a: the player-dealer's third card face up"
    assert all(d[4] is None for d in dealt[:-1])
    assert r.last("prompt")["seat"] == 2 and r.last("prompt")["choices"] == ["play", "fold"]
    assert r.m.press("play", 2).accepted and r.m.press("fold", 3).accepted and r.m.press("play", 4).accepted
    assert r.m.state == "result"
    reveals = r.all("reveal")
    assert reveals[0] == {"hand": "player_dealer", "seat": 1, "cards": ["QC", "3D", "2H"]}
    assert [x["seat"] for x in reveals[1:]] == [4, 2], "R6: from the player farthest to the dealer's right"
    assert r.last("action_button")["card"] == "3D"      # R8: the player-dealer's face-down second card
    result = r.last("result")
    assert result["dealer"] == {"cards": ["QC", "3D", "2H"], "hand": "high card", "qualifies": True}
    assert result["seats"]["3"] == {"played": False, "cards": None, "hand": None, "wagers": [
        {"wager": "ante", "outcome": "lose", "pays": None, "why": "folded: the ante is forfeited (R3)"},
        {"wager": "bonus", "outcome": "lose", "pays": None, "why": "folded: the bonus is forfeited with the ante (R3a)"}]}
    assert "AS" not in json.dumps(r.events) and "KS" not in json.dumps(r.m.snapshot()), "a fold is never revealed"


def test_the_player_dealer_neither_plays_nor_folds_and_seats_go_in_turn():
    r = Run()
    r.to_dealing()
    for c in cards(SHOE_DEAL):
        r.m.card(c)
    assert r.m.press("play", 1).reason == "seat 1 is the player-dealer: it neither plays nor folds (R3)"
    assert r.m.press("play", 3).reason == "seat 2 decides first"
    r.m.press("fold", 2)
    assert r.m.press("play", 2).reason == "seat 2 has already chosen to fold (R3)"


def test_a_card_to_a_folded_seat_or_during_decisions_is_an_alarm():
    r = Run()
    r.to_dealing()
    for c in cards(SHOE_DEAL):
        r.m.card(c)
    r.m.press("fold", 2)
    r.m.card(cards("9S")[0])
    assert r.last("alarm")["message"] == "9S drawn, but seat 3 has not decided (play or fold)"
    assert r.m.state == "fault"


def test_nobody_holds_the_player_dealer_position_three_hands_in_a_row():
    """R12: at most two consecutive hands, then the position moves clockwise. (Two decks: the same
    cards come out twice; the ledger would catch a copy too many from one.)"""
    r = Run(decks=2)
    for _ in range(2):
        r.to_dealing() if r.m.state == "closed" else r.m.press("deal")
        for c in cards(SHOE_DEAL):
            r.m.card(c)
        for seat in (2, 3, 4):
            r.m.press("fold", seat)
        r.m.press("deal")                                   # settle
        if r.m.state == "load_shoe":
            r.m.press("shuffle_ack")
    assert r.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert r.m.state == "ready" and r.m.lights()["seats"]["player_dealer"] == [2]


def test_hand_forming_shuffler_delivers_whole_hands():
    r = Run(deal_from="hand_shuffler")
    r.to_dealing()
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["count"]) == ("hand", 2, 3)
    for seat_hand in ("5C 5D 7H", "AS KS QS", "2C 8D 9H", "QC 3D 2H"):
        r.m.device_input("shuffler", "hand_delivered", {"cards": tuple(cards(seat_hand))})
    assert len(r.all("card")) == 12 and r.last("prompt")["expect"] == "decision"
    assert [p["expect"] for p in r.all("prompt")].count("hand") == 4, "one prompt per hand, not per card"


@pytest.mark.parametrize("size", [2, 4])
def test_a_hand_of_the_wrong_size_is_an_alarm_and_void_only(size):
    r = Run(deal_from="hand_shuffler")
    r.to_dealing()
    r.m.device_input("shuffler", "hand_delivered", {"cards": tuple(cards("5C 5D 7H 8S")[:size])})
    alarm = r.last("alarm")
    assert alarm["code"] == "hand_size"
    assert alarm["message"] == (f"the shuffler delivered {size} card(s) for seat 2's hand: a Three Card Poker "
                                f"hand is 3 (D1a)")
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]
    assert "5C" not in json.dumps(r.events), "the hand's cards are face down: no event names them"


# --- the shoe: never a round the cards left cannot complete (issue 23.5) -----------------------

def _round(r: Run, codes: list[str]) -> None:
    """Deal one round of these cards from the shoe; every seat plays; settle."""
    for c in cards(" ".join(codes)):
        r.m.card(c)
    for seat in r.m._players():
        assert r.m.press("play", seat).accepted
    assert r.m.state == "result"


def test_one_deck_six_seats_cut_card_and_the_shoe_end_by_the_most_a_round_takes():
    """Issue 23.5, D1a: six seats take 3 cards each, 18 a round. From one deck (52) the load_shoe
    prompt asks for the cut card 18 cards from the back; two rounds take 36, 16 are left: fewer
    than the next round may take, so the second round is the shoe's last (shoe event "short") and
    the shuffle follows it -- before, the third round began with 16 cards and was voided."""
    r = Run(seats=6, decks=1)
    m = r.m
    m.open()
    m.deck_checked(m.spec.all_cards(), 0)
    m.shuffled(52)
    load = r.last("prompt")
    assert (load["expect"], load["cut_from_end"]) == ("load_shoe", 18)
    assert load["text"].startswith("Load the shuffled cards into the shoe, place the cut card 18 cards from the back")
    m.press("shuffle_ack")
    deck = [c.code for c in m.spec.all_cards()]
    m.press("deal")
    _round(r, deck[:18])
    assert not r.all("shoe") and m.snapshot()["shoe"]["remaining"] == 34
    m.press("deal")                          # settled: the next round
    m.press("deal")
    _round(r, deck[18:36])
    assert r.last("shoe") == {"event": "short", "last_round": True, "remaining": 16, "needed": 18}
    assert r.last("prompt")["text"].endswith("press deal for the shuffle.")
    m.press("deal")
    assert m.state == "shuffle" and not r.all("void")


def test_a_cut_card_placed_too_deep_does_not_start_a_round_it_cannot_finish():
    """Whatever the dealer did with the cut card: after a round the shoe cannot complete another
    (8 seats, 24 a round: 52 - 24 = 28 left, then 4), the shoe ends then."""
    r = Run(seats=8, decks=1)
    r.to_dealing()
    deck = [c.code for c in r.m.spec.all_cards()]
    _round(r, deck[:24])
    assert not r.all("shoe")
    r.m.press("deal")
    r.m.press("deal")
    _round(r, deck[24:48])
    assert r.last("shoe") == {"event": "short", "last_round": True, "remaining": 4, "needed": 24}
    r.m.press("deal")
    assert r.m.state == "shuffle"


def test_a_full_table_that_no_deck_can_deal_is_refused():
    """The same rule for a config: a round of every seat must fit the deck (games.options)."""
    from games.options import OptionError, check_round_fits
    check_round_fits("seats", 42, 52, "3 cards to each of 14 seats")   # the largest Three Card Poker table fits
    with pytest.raises(OptionError, match=r"seats: a full table's round can take 54 cards \(3 cards to each of 18 "
                                          r"seats\), more than the 52 cards of the deck"):
        check_round_fits("seats", 54, 52, "3 cards to each of 18 seats")
