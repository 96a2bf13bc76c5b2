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


def test_a_round_faulted_by_a_lost_shoe_resumes_only_on_proof():
    """A shoe lost while dealing faults the round. Resume is refused until the shoe is back and
    its count shows every card it read arrived (a dropout used to lose a card and settle the
    round on the wrong cards, with no alarm); then the same card is due."""
    r = Run()
    r.to_betting()
    r.m.press("deal")
    for c in cards("2H 3D"):
        r.m.card(c)
    r.m.device_input("shoe", "device_offline", {"reason": "port closed"})
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 2})
    assert not r.m.snapshot()["fault"]["resumable"], "back, but the count has not been matched yet"
    r.m.device_input("shoe", "reads_accounted", {"count": 2})
    r.m.resume("pit")
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["hand"], prompt["position"]) == ("card", "player", 2)


def test_a_card_the_shoe_read_that_never_arrived_makes_the_round_void_only():
    r = Run()
    r.to_betting()
    r.m.press("deal")
    r.m.card(cards("2H")[0])
    r.m.device_input("shoe", "device_fault", {"code": "cards_lost", "detail": "1 card(s) the shoe read never arrived"})
    alarm = r.last("alarm")
    assert alarm["code"] == "shoe_cards_lost" and "a card the shoe read never arrived" in alarm["message"]
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]


def test_a_shoe_down_again_after_the_resume_holds_the_prompt():
    r = Run()
    r.to_betting()
    r.m.press("deal")
    r.m.device_input("shoe", "device_offline", {"reason": "port closed"})
    r.m.device_input("shoe", "reads_accounted", {"count": 0})
    r.m.resume("pit")                     # proved, though the port is still reported down
    assert r.m.state == "dealing" and r.last("prompt")["expect"] == "device"
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 0})
    assert r.last("prompt")["expect"] == "card"


def test_a_device_the_round_does_not_need_now_changes_no_prompt():
    """The shuffler going offline mid-round is a warning; the deal goes on."""
    r = Run()
    r.to_betting()
    r.m.device_input("shuffler", "device_offline", {"reason": "port closed"})
    assert r.last("alarm")["severity"] == "warning"
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted


def test_a_device_the_prompt_does_not_wait_for_publishes_no_prompt_again():
    """A prompt is a request: published twice, it asks twice. The shuffler went silent and came
    back (a heartbeat lost on a loaded machine) while the card drawn for a card prompt was still on
    the shoe's line; that prompt went out again and the simulated dealer drew one card more, an
    ``unexpected_card`` fault after the round's result. A prompt that waits for the device still
    changes, and goes out, both ways (the tests above)."""
    r = Run()
    r.to_betting()

    def prompts() -> int:
        return sum(1 for k, _ in r.events if k == "prompt")
    shown = prompts()
    r.m.device_input("shuffler", "device_offline", {"reason": "heartbeat_lost"})
    r.m.device_input("shuffler", "device_online", {"info": "SIMSHUF 1.0"})
    assert prompts() == shown, "the bets prompt again: the dealer would press deal twice"
    r.m.press("deal")
    r.m.card(cards("2H")[0])
    shown = prompts()
    assert r.last("prompt")["expect"] == "card"
    r.m.device_input("shuffler", "device_offline", {"reason": "heartbeat_lost"})
    r.m.device_input("shuffler", "device_online", {"info": "SIMSHUF 1.0"})
    assert prompts() == shown, "the card prompt again: the dealer would draw a second card"
    assert r.last("alarm")["code"] == "shuffler_heartbeat_lost" and r.m.state == "dealing"


def test_a_card_read_during_the_outage_is_dealt_on_resume_not_burned():
    """The shoe read the player's second card as its line dropped; the frame arrives after the link
    is back, while the round is still in fault: the card is on the layout, so the resumed round
    deals it where the rules put it (docs/protocols.md, "Reliability")."""
    r = Run()
    r.to_betting()
    r.m.press("deal")
    r.m.card(cards("2H")[0])
    r.m.device_input("shoe", "device_offline", {"reason": "heartbeat_lost"})
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 2})
    r.m.device_input("shoe", "card_drawn", {"card": cards("KD")[0], "read": 2})
    assert r.m.state == "fault" and "1 card(s) read while the line was down are dealt on resume" in \
        r.last("prompt")["text"]
    r.m.device_input("shoe", "reads_accounted", {"count": 2})
    r.m.resume("pit")
    assert r.last("resume")["burned"] == []
    card = r.last("card")
    assert (card["hand"], card["position"], card["card"]) == ("banker", 1, "KD")
    assert r.m.state == "dealing" and r.last("prompt")["hand"] == "player"


def _voided_on_a_dead_line(r: Run) -> None:
    """Round 1: one card dealt, then the shoe's line dies (the dealer drew the next card into it:
    the shoe keeps it until acknowledged) and the dealer voids the round, as the fault allows."""
    r.to_betting()
    r.m.press("deal")
    r.m.card(cards("2H")[0])
    r.m.device_input("shoe", "device_offline", {"reason": "heartbeat_lost"})
    assert r.m.press("void").accepted
    assert r.last("void")["cards_burned"] == 0 and r.m.state == "betting" and r.m.round == 2


def test_a_card_read_for_a_round_voided_while_the_line_was_down_is_burned_not_dealt_into_the_next():
    """Issue 19: the shoe's pending card arrived after the void and was dealt as the first card of
    the next round, every later card one place off. It belongs to the voided round: burned, shown
    to the pit as such (never named: that round never turned it up), and the next round asks for
    no card until the shoe's count shows nothing more of the voided round is on the way."""
    r = Run()
    _voided_on_a_dead_line(r)
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["device"]) == ("device", "shoe")
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0"})      # a heartbeat before the hello
    assert r.last("prompt")["text"].startswith(
        "Waiting for the shoe: it has not yet shown that every card it read for voided round 1 arrived.")
    refused = r.m.press("deal")
    assert not refused.accepted and "no card can be read" in refused.reason
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 2})
    dealt = r.m.ledger.drawn
    r.m.device_input("shoe", "card_drawn", {"card": cards("KD")[0], "read": 2})
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"], alarm["card"]) == ("voided_round_card", "warning", None)
    assert "round 1" in alarm["message"] and "KD" not in str(alarm)
    assert r.m.ledger.drawn == dealt + 1, "the card left the shoe: the ledger counts it"
    assert r.m.state == "betting" and not [d for k, d in r.events if k == "card" and d.get("card") == "KD"]
    r.m.device_input("shoe", "reads_accounted", {"count": 2})
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted
    r.m.card(cards("9C")[0])
    card = r.last("card")
    assert (card["hand"], card["position"], card["card"]) == ("player", 1, "9C")


def test_a_card_held_while_the_line_was_down_is_burned_with_its_voided_round():
    """The line came back inside the fault: the card read into it is held for the resume; the pit
    voids instead. The void counts it burned, and the next round starts on the next card."""
    r = Run()
    r.to_betting()
    r.m.press("deal")
    r.m.card(cards("2H")[0])
    r.m.device_input("shoe", "device_offline", {"reason": "heartbeat_lost"})
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 2})
    r.m.device_input("shoe", "card_drawn", {"card": cards("KD")[0], "read": 2})
    r.m.device_input("shoe", "reads_accounted", {"count": 2})
    r.m.void("the pit voids", "pit")
    assert r.last("void")["cards_burned"] == 1
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted
    r.m.card(cards("9C")[0])
    assert (r.last("card")["position"], r.last("card")["card"]) == (1, "9C")


def test_a_void_on_a_dead_line_with_nothing_drawn_into_it_waits_only_for_the_count():
    r = Run()
    _voided_on_a_dead_line(r)
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 1})
    r.m.device_input("shoe", "reads_accounted", {"count": 1})
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted


def test_a_shoe_that_restarted_after_the_void_never_holds_the_table():
    """A shoe that lost power forgets what it read: its hello's count is lower (``cards_lost``),
    the voided round's card will never come, and the table must not wait for it for ever."""
    r = Run()
    _voided_on_a_dead_line(r)
    r.m.device_input("shoe", "device_online", {"info": "SIMSHOE 1.0", "reads": 0})
    r.m.device_input("shoe", "device_fault", {"code": "cards_lost", "detail": "the shoe restarted"})
    assert r.last("alarm")["code"] == "shoe_cards_lost" and r.last("alarm")["severity"] == "warning"
    assert r.last("prompt")["expect"] == "bets" and r.m.press("deal").accepted


def test_a_void_and_a_resume_name_the_pit_user_who_sent_them():
    """Issue 22: a void sent from the board by a supervisor is recorded as hers (``pit:<user>``),
    not as the pit's; anything else in ``by`` is refused with what it may be."""
    import pytest

    from games.round import Refused

    r = Run()
    r.to_betting()
    r.m.press("deal")
    r.m.device_input("shoe", "device_fault", {"code": "misread", "detail": ""})
    with pytest.raises(Refused, match=r"by: must be one of dealer, pit, controller, or pit:<user>"):
        r.m.void("misread", "pit:Ann")            # a user name is lower case
    r.m.void("misread", "pit:ann.lee")
    assert r.last("void")["by"] == "pit:ann.lee"


def test_a_card_between_rounds_asks_for_what_will_work():
    """Issue 27: a card read in ``ready`` raised unexpected_card saying "void the round", and the
    void was then refused ("no round in progress"). Its action says the pit resumes to burn it."""
    import pytest

    from games.round import Refused

    r = Run()
    r.to_betting()
    r.m.press("deal")
    for c in cards("2H 3D 4C 5S"):
        r.m.card(c)
    r.m.press("deal")                       # settled; a player-dealer offer may hold the table in ready
    while r.m.state == "ready":
        r.m.press("pass")
    r.m.close()
    r.m.open()
    r.m.deck_checked(r.m.spec.all_cards(), 0)
    r.m.shuffled(r.m.spec.size)
    assert r.m.state == "load_shoe"
    r.m.card(cards("9H")[0])
    alarm = r.last("alarm")
    assert alarm["action"] == "hold the card for the pit: it resumes to burn it (no round is in progress to void)"
    with pytest.raises(Refused):
        r.m.void("extra card", "pit")
    r.m.resume("pit")
    assert r.last("resume")["burned"] == ["9H"] and r.m.state == "load_shoe"
