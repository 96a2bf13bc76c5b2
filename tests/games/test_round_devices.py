"""No prompt asks for what a device that is down must do: the table waits, and says for what.

A cable pulled while bets are open used to leave ``deal`` lit: the dealer closed the bets,
the prompt asked for a card no shoe could read, and the card dealt was lost (a defect found by
pulling cables). The device's role decides what waits: a card reader holds the deal, a
deck-preparing device holds the deck check and the shuffle.
"""

from __future__ import annotations

from games.baccarat import BaccaratOptions, BaccaratRound
from games.cards import cards


class Run:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m = BaccaratRound(BaccaratOptions(), lambda k, d: self.events.append((k, d)))

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def to_betting(self) -> None:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        m.button("shuffle_ack")
        assert m.state == "betting"


def test_a_shoe_offline_while_bets_are_open_holds_the_deal():
    r = Run()
    r.to_betting()
    r.m.device_input("shoe", "device_offline", {"reason": "port closed"})
    prompt = r.last("prompt")
    # pass stays lit: handing on the player-dealer position needs no shoe
    assert (prompt["expect"], prompt["device"], prompt["buttons"]) == ("device", "shoe", ["pass"])
    assert prompt["text"] == ("Waiting for the shoe: it is offline. Check its cable and power; the table goes on "
                              "when it is back.")
    verdict = r.m.press("deal")
    assert (verdict.accepted, verdict.reason) == (False, "the shoe is offline: no card can be read until it is back")
    assert r.m.state == "betting" and r.m.lights()["buttons_lit"] == ["pass"]
    assert r.last("alarm")["code"] == "shoe_offline"
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0"})
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted
    assert r.m.state == "dealing" and r.last("prompt")["expect"] == "card"


def test_a_silent_shoe_holds_the_deal_too():
    r = Run()
    r.to_betting()
    r.m.device_input("shoe", "device_offline", {"reason": "heartbeat_lost"})
    assert r.last("prompt")["text"].startswith("Waiting for the shoe: it went silent (heartbeat lost).")
    assert r.last("alarm")["code"] == "shoe_heartbeat_lost"


def test_a_shuffler_offline_holds_the_deck_check():
    r = Run()
    r.m.open()
    r.m.device_input("shuffler", "device_offline", {"reason": "port closed"})
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["device"]) == ("device", "shuffler")
    r.m.device_input("shuffler", "device_online", {"info": "SIMSHUF 1.0"})
    assert r.last("prompt")["expect"] == "deck_check"


def test_resumed_while_the_shoe_is_still_down_the_prompt_waits_for_it():
    """A shoe lost while dealing faults the round (resumable: the link loses nothing); resumed
    before the shoe is back, the round waits for it instead of asking for the card."""
    r = Run()
    r.to_betting()
    r.m.press("deal")
    for c in cards("2H 3D"):
        r.m.card(c)
    r.m.device_input("shoe", "device_offline", {"reason": "port closed"})
    assert r.m.state == "fault" and r.m.snapshot()["fault"]["resumable"]
    r.m.resume("pit")
    assert r.m.state == "dealing" and r.last("prompt")["expect"] == "device"
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0"})
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["hand"], prompt["position"]) == ("card", "player", 2)


def test_a_device_the_round_does_not_need_now_changes_no_prompt():
    """The shuffler going offline mid-round is a warning; the deal goes on."""
    r = Run()
    r.to_betting()
    r.m.device_input("shuffler", "device_offline", {"reason": "port closed"})
    assert r.last("alarm")["severity"] == "warning"
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted
