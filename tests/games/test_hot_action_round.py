"""Hot Action Blackjack's round machine driven by dice, card codes and seat buttons as the controller
would (california-card-room-games.txt, "HOT ACTION BLACKJACK"; tags I, G, H as in
games/hot_action/rules.py). Every event is checked against the schemas and every snapshot against
the state schema as it is made; the hole card and the burned cards are looked for in everything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from round_run import RoundRun

from controller.table.config import load_config
from games.cards import card
from games.hot_action import HotActionOptions
from games.options import OptionError
from games.registry import get
from games.round import Refused

GAME = get("hot_action")
ROOT = Path(__file__).resolve().parents[2]


class Run(RoundRun):
    """A machine on a table of four positions (seat 1 the Banker, seats 2, 3, 4 players): every event
    and every snapshot taken as it is made, as the table publishes them."""

    def __init__(self, **options) -> None:
        super().__init__("hot_action", HotActionOptions(**{"seats": 4, **options}), "ha")

    def alarms(self) -> list[str]:
        return [d["code"] for d in self.all("alarm")]

    def shake(self, *values: int) -> None:
        self.m.device_input("cup", "cup_shaken", {})
        self.m.device_input("cup", "dice_read", {"values": values})

    def outcomes(self) -> dict[str, str]:
        return {s: v["wagers"][0]["outcome"] for s, v in self.last("result")["seats"].items()}


# The deal (G3, H21): seats 2, 3, 4, the Banker's up card, seats 2, 3, 4, its hole card.
# Seat 2 A-7 (soft 18), seat 3 5-6 (11), seat 4 10-8 (hard 18); the Banker 9C up, 7S down (16).
DEAL = "AS 5D 10H 9C 7H 6D 8H 7S"


def test_a_round_the_shake_the_deal_the_hits_the_bankers_draw_and_the_results() -> None:
    r = Run()
    r.to_dealing()
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["count"], prompt["seat"]) == ("dice", 3, 1), "H5: the Banker shakes"
    assert r.m.lights()["seats"]["turn"] == [1]
    r.shake(3, 4, 5)   # 12, counter-clockwise from seat 1 as 1: 1, 4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2
    assert r.last("dice") == {"values": [3, 4, 5], "total": 12, "seat": 1, "reaches": 2}
    assert r.last("action_button") == {"dice": [3, 4, 5], "total": 12, "banker": 1, "direction": "counterclockwise",
                                       "seat": 2, "first_payoff_seat": 2, "payoff_order": [2, 3, 4]}
    assert r.m.lights()["seats"]["action"] == [2]
    r.deal(DEAL)
    dealt = [(d["hand"], d.get("seat"), d["position"], d["face"], d.get("card")) for d in r.all("card")]
    assert dealt == [("seat", 2, 1, "up", "AS"), ("seat", 3, 1, "up", "5D"), ("seat", 4, 1, "up", "10H"),
                     ("banker", 1, 1, "up", "9C"), ("seat", 2, 2, "up", "7H"), ("seat", 3, 2, "up", "6D"),
                     ("seat", 4, 2, "up", "8H"), ("banker", 1, 2, "down", None)]
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["position"]) == ("card", 2, 3)
    assert prompt["text"] == "Card to seat 2, position 3: must hit soft 18 (G12; the dealer hits it, G13)."
    r.deal("4C")                      # seat 2: A-7-4 soft 22, stands (G10)
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["choices"]) == ("decision", 3, ["hit", "stand"])
    assert r.press("hit", 3) is None
    r.deal("9D")                      # seat 3: 20, stands (G9); seat 4's hard 18 stands
    assert r.last("reveal") == {"hand": "banker", "seat": 1, "position": 2, "card": "7S", "when": "in_turn",
                                "dead": False}
    assert r.last("prompt")["text"] == ("Card to the Banker (seat 1), position 3: the Banker draws to 18 on hard 16 "
                                        "(game.banker_below_18; I9).")
    r.deal("2C")                      # the Banker: 18, stands
    assert r.m.state == "result"
    result = r.last("result")
    assert result["bank"] == {"cards": ["9C", "7S", "2C"], "total": 18, "soft": False, "natural": False,
                              "two_card_22": False, "over": False, "ranked": True, "seat": 1, "checked": False,
                              "replaced": False}
    assert r.outcomes() == {"2": "win", "3": "win", "4": "lose"}   # soft 22 > 18, 20 > 18 (I5c), tie on 18 (I8)
    assert "I8" in result["seats"]["4"]["wagers"][0]["why"]
    assert result["bank_round"] == {"wins": 1, "losses": 2, "pushes": 0, "lost_money": None, "hand": 1}
    assert (result["player_dealer"], result["action_seat"], result["payoff_order"]) == (1, 2, [2, 3, 4])
    assert (result["dead"], result["burned"]) == ([], 0)


def test_the_hole_card_is_in_nothing_published_before_its_reveal() -> None:
    """DESIGN.md, "What must never leave the controller": the Banker's hole card goes out as a
    face-down card; its code is in no event, no snapshot (the retained state), no prompt, no alarm
    and no refusal until it is turned up, and the snapshot shows it as null."""
    r = Run()
    r.to_dealing()
    r.shake(1, 1, 2)
    r.deal("10C 5D 8H 9C 7H 6D 8S QH")   # the hole card QH
    r.press("stand", 3)                   # refused: seat 2 decides first
    r.press("hit", 1)                     # refused: the Banker plays last
    r.m.card(card("3S"))                  # a dead card (H17): its alarm must not give the hole away
    r.press("stand", 2)
    r.press("stand", 3)
    r.press("stand", 4)
    reveal = next(i for i, (k, _) in enumerate(r.events) if k == "reveal")
    before = json.dumps(r.events[:reveal]) + "".join(r.snapshots[:reveal])
    assert "QH" not in before
    assert all(json.loads(s)["bank"]["cards"][1:2] in ([], [None]) for s in r.snapshots[:reveal])
    assert json.loads(r.snapshots[-1])["bank"]["cards"][:2] == ["9C", "QH"]


def test_the_check_turns_up_a_two_card_22_at_once_and_every_hand_stands() -> None:
    """H14: the Banker's joker up card can make a two card 22; with K down it does: turned up after the
    deal, no hits (H16). A natural 22 beats it (I5a), a 21 loses (I5b), a two card 22 pushes
    (game.tie_22s)."""
    r = Run()
    r.to_dealing()
    r.shake(6, 6, 6)
    r.deal("AS 10C JK JK AD AC QC KH")   # seat 2 A-A, seat 3 10-A, seat 4 JK-Q; the Banker JK up, KH down
    assert r.m.state == "result"
    assert r.last("reveal")["when"] == "two_card_22"
    assert not [p for p in r.all("prompt") if p["expect"] == "decision"]
    assert r.outcomes() == {"2": "win", "3": "lose", "4": "push"}
    assert r.last("result")["bank"]["two_card_22"] and not r.last("result")["bank"]["checked"]


def test_without_the_check_the_two_card_22_waits_for_its_turn() -> None:
    """check_two_card_22 = false: the players play first (they all stand here: G10), then the hole
    card is turned up in turn; the results are the same."""
    r = Run(check_two_card_22=False)
    r.to_dealing()
    r.shake(6, 6, 6)
    r.deal("AS 10C JK JK AD AC QC KH")
    assert r.last("reveal")["when"] == "in_turn"
    assert r.outcomes() == {"2": "win", "3": "lose", "4": "push"}


def test_a_check_that_finds_no_two_card_22_is_public_and_play_goes_on() -> None:
    r = Run()
    r.to_dealing()
    r.shake(2, 2, 2)
    r.deal("10C 10D 10H 10S 8C 8D 8H 9S")   # the Banker 10 up: checked, 9 down
    assert r.m.snapshot()["checked_two_card_22"] is True
    assert r.last("reveal")["when"] == "in_turn"   # every player stands on hard 18
    assert r.last("result")["bank"]["checked"] is True
    assert r.outcomes() == {"2": "lose", "3": "lose", "4": "lose"}   # 19 against 18 (I5c)


# --- the drawing rules at the table: a missed mandatory hit, a hit on a hand that must stand -----------------


def test_a_missed_mandatory_hit_is_refused_and_named() -> None:
    """G12, G13, H15: seat 2's soft 18 is hit without a press; a stand from it, a press from another
    seat, or the dealer's deal while its card is due, are refused and the pit is told."""
    r = Run()
    r.to_dealing()
    r.shake(3, 4, 5)
    r.deal(DEAL)
    why = r.press("stand", 2)
    assert why == "seat 2 must be hit first: must hit soft 18 (G12; the dealer hits it, G13) (H15)"
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"]) == ("missed_mandatory_hit", "warning")
    assert alarm["message"] == ("seat 2 pressed stand while seat 2's mandatory hit is due (must hit soft 18 (G12; "
                                "the dealer hits it, G13)): the hit must not be missed (G12, G13; H15)")
    assert r.press("hit", 3).startswith("seat 2 must be hit first")
    assert r.alarms().count("missed_mandatory_hit") == 2
    assert r.press("hit", 2) == "seat 2's card is already due without a press: must hit soft 18 (G12; the dealer " \
                                "hits it, G13)"
    assert r.alarms().count("missed_mandatory_hit") == 2, "asking for the card that is due is no miss"
    assert r.m.press("deal").reason.startswith("a card is due: card -> seat 2 (must hit soft 18")
    assert r.alarms()[-1] == "missing_draw"
    r.deal("4C")
    assert r.last("prompt")["seat"] == 3


def test_a_press_on_a_hand_that_must_stand_is_refused_with_its_rule() -> None:
    r = Run()
    r.to_dealing()
    r.shake(3, 4, 5)
    r.deal(DEAL)
    r.deal("4C")
    assert r.press("hit", 4) == "seat 4 must stand on hard 18 (G9: hard 18 or more); a hit to it would be a dead " \
                                "card (H17)"
    assert r.press("stand", 2) == "seat 2 must stand on soft 22 (G10: soft 19, 20, 21 or 22); a hit to it would " \
                                  "be a dead card (H17)"
    assert r.press("hit", 3) is None
    r.deal("9D")
    assert r.press("hit", 3) == "the players are done: once the Banker's hole card is exposed in turn, all hands " \
                                "stand (H16)"


def test_presses_out_of_turn_and_out_of_place_are_refused_with_the_reason() -> None:
    r = Run()
    assert r.m.press("hit", 2).reason.startswith("no decision is due (state closed)")
    r.to_dealing()
    assert r.press("hit", 2) == ("the Banker shakes the dice cup first (H5): dice: a shake of 3 dice by seat 1, each "
                                 "1 to 6 (the Banker places the action button, H5)")
    r.shake(1, 2, 3)
    r.deal("10C 5D")
    assert r.press("hit", 2) == ("seat 2 may not hit before the deal is complete: two cards each, the Banker's hole "
                                 "card last (G3)")
    r.deal("8H 9C 7H 6D 8S QH")          # seat 2 17, seat 3 11, seat 4 16
    assert r.press("hit", 1) == ("seat 1 is the Banker: it plays after every player, once its hole card is turned up "
                                 "in turn (H16)")
    assert r.press("hit", 3) == "seat 2 decides first: play goes in turn from position one (H17, H18, H21)"
    assert r.press("stand", 2) is None
    assert r.press("hit", 2) == "seat 2 stood on hard 17"
    assert r.m.press("double", 3).reason == "double is not a seat button of hot_action: its seat buttons are hit, stand"
    assert r.m.press("hit", 9).reason == "seat 9 is not one of seats 1..4"
    assert r.m.press("hit").reason == "hit is a seat button: the press must name its seat"
    assert r.m.state == "dealing" and r.last("prompt")["seat"] == 3


@pytest.mark.parametrize("values, shaken, code", [((3, 4), True, "dice_count"), ((3, 4, 7), True, "dice_value"),
                                                   ((3, 4, 5), False, "dice_before_shake")])
def test_a_throw_out_of_rule_is_shaken_again(values, shaken, code) -> None:
    r = Run()
    r.to_dealing()
    if shaken:
        r.m.device_input("cup", "cup_shaken", {})
    r.m.device_input("cup", "dice_read", {"values": values})
    assert r.alarms()[-1] == code and not r.all("dice") and r.m.action_seat is None
    assert r.last("prompt")["expect"] == "dice" and r.last("prompt")["text"].endswith("shake again. Seat 1 shakes "
                                                                                      "the dice cup: 3 dice (the "
                                                                                      "Banker places the action "
                                                                                      "button, H5).")
    r.shake(1, 1, 1)
    assert r.last("action_button")["seat"] == 3   # 3 counter-clockwise from seat 1: 1, 4, 3


# --- irregularities: H17, H19, H13 ---------------------------------------------------------------------------


def test_a_card_nobody_asked_for_is_a_dead_card_and_play_continues_in_turn() -> None:
    """H17: seat 2 has not asked (its decision is due) and seat 4 must stand: the card is dead, the
    hand keeps its turn, the results leave it out."""
    r = Run()
    r.to_dealing()
    r.shake(1, 2, 3)
    r.deal("10C 5D 10H 9C 5H 6D 9S 8C")   # seat 2 15, seat 3 11, seat 4 19; the Banker 9 up, 8 down
    prompts = len(r.all("prompt"))
    r.m.card(card("KD"))
    assert r.last("card") == {"hand": "dead", "position": 1, "face": "up", "card": "KD", "rule": "H17"}
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"], alarm["card"]) == ("dead_card", "warning", "KD")
    assert alarm["message"] == ("KD drawn, but seat 2 has not asked for a card (10C 5H: hard 15; G4) and seat 4 must "
                                "stand on hard 19 (G9: hard 18 or more): a card given to a hand that did not ask for "
                                "one or must stand is a dead card (H17)")
    assert len(r.all("prompt")) == prompts, "the same decision is still due: nothing new to ask"
    assert r.m.state == "dealing" and r.press("stand", 2) is None
    r.press("stand", 3)
    r.deal("AD")                     # the Banker's 9-8 draws to 18 (game.banker_below_18)
    assert r.m.state == "result"
    result = r.last("result")
    assert result["dead"] == ["KD"] and "KD" not in json.dumps(result["seats"]) + json.dumps(result["bank"])


def test_a_card_pulled_out_before_any_card_is_due_is_dead_and_five_are_burned_unseen() -> None:
    """H19: the dice are due, a card comes out: dead, then five cards burned face down (never
    published), then the shake and the round as usual."""
    r = Run()
    r.to_dealing()
    r.m.card(card("5H"))
    assert r.last("card") == {"hand": "dead", "position": 1, "face": "up", "card": "5H", "rule": "H19"}
    assert r.last("alarm")["code"] == "premature_card"
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["hand"], prompt["position"], prompt["face"]) == ("card", "burn", 1, "down")
    assert prompt["text"] == "Card to the burn, position 1 face down: five cards burned after 5H was pulled out " \
                             "prematurely (H19)."
    assert r.press("hit", 2) == "cards are being burned first: five cards burned after 5H was pulled out " \
                                "prematurely (H19)"
    burned = "2S 3S 4S 6S 7S"
    r.deal(burned)
    assert [d for d in r.all("card") if d["hand"] == "burn"] == [
        {"hand": "burn", "position": n, "face": "down"} for n in range(1, 6)]
    assert r.last("prompt")["expect"] == "dice"
    r.shake(2, 2, 2)
    r.deal("10C 10D 10H 10S 8C 8D 8H 9C")
    result = r.last("result")
    assert (result["dead"], result["burned"]) == (["5H"], 5)
    published = json.dumps(r.events) + "".join(r.snapshots)
    for code in burned.split():
        assert f'"{code}"' not in published, f"the burned {code} was published"


def test_two_cards_at_once_burn_five_more_except_on_the_deal() -> None:
    """H19: during the hits the shoe's double_card is two dead cards and five more burned; on the deal
    the two unread cards lie on the layout: the round can only be voided (the lifecycle's rule)."""
    r = Run()
    r.to_dealing()
    r.shake(1, 2, 3)
    r.deal("10C 5D 10H 9C 5H 6D 9S 8C")
    assert r.press("hit", 2) is None
    r.m.device_input("shoe", "device_fault", {"code": "double_card", "detail": ""})
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"], alarm["card"]) == ("two_cards_at_once", "warning", None)
    assert r.m.state == "dealing" and r.last("prompt")["hand"] == "burn"
    r.deal("2S 3S 4S 6S 7S")
    prompt = r.last("prompt")
    assert (prompt["hand"], prompt["seat"], prompt["position"]) == ("seat", 2, 3), "then seat 2's hit, as asked"

    r = Run()
    r.to_dealing()
    r.shake(1, 2, 3)
    r.deal("10C 5D")
    r.m.device_input("shoe", "device_fault", {"code": "double_card", "detail": ""})
    assert r.m.state == "fault" and r.alarms()[-1] == "shoe_double_card"
    with pytest.raises(Refused, match="cannot resume"):
        r.m.resume("pit")


def test_the_hole_card_exposed_by_the_dealer_is_dead_five_burn_and_a_new_one_cannot_make_a_two_card_22() -> None:
    """H13, H14: the Banker's JK up was checked (5C down: no two card 22). The dealer exposes the hole
    card: dead, five burned, QH the new hole card, face down. JK-Q is 22 but not a two card 22 now:
    seat 3's JK-K (a two card 22) wins, seat 4's 21 loses to the 22, seat 2's 15 loses (I9)."""
    r = Run()
    r.to_dealing()
    r.shake(1, 2, 3)
    r.deal("10C JK AD JK 5D KH 10S 5C")
    assert r.m.checked and r.last("prompt")["seat"] == 2
    reply = r.m.command("hole_exposed", {"by": "dealer"})
    assert reply == {"hole_card": "dead", "card": "5C", "burn": 5}
    assert r.last("reveal") == {"hand": "banker", "seat": 1, "position": 2, "card": "5C",
                                "when": "exposed_by_dealer", "dead": True}
    alarm = r.last("alarm")
    assert alarm["code"] == "hole_card_exposed" and "(H14)" in alarm["message"]
    assert r.last("prompt")["hand"] == "burn"
    assert r.press("stand", 2).startswith("cards are being burned first")
    r.deal("2C 3C 4C 6C 7C")
    prompt = r.last("prompt")
    assert (prompt["hand"], prompt["position"], prompt["face"]) == ("banker", 2, "down")
    assert prompt["text"] == ("Card to the Banker (seat 1), position 2 face down: the Banker's new hole card, the next "
                              "card off the deck (H13).")
    r.deal("QH")
    assert r.last("card") == {"hand": "banker", "position": 2, "face": "down", "seat": 1}
    assert r.last("prompt")["seat"] == 2, "play continues where it was"
    assert r.press("stand", 2) is None
    assert r.last("reveal") == {"hand": "banker", "seat": 1, "position": 2, "card": "QH", "when": "in_turn",
                                "dead": False}
    down = max(i for i, (k, d) in enumerate(r.events) if k == "card" and d["face"] == "down" and d["hand"] == "banker")
    shown = max(i for i, (k, _) in enumerate(r.events) if k == "reveal")
    assert "QH" not in json.dumps(r.events[down:shown]) + "".join(r.snapshots[down:shown])
    result = r.last("result")
    assert result["bank"]["cards"] == ["JK", "QH"] and result["bank"]["total"] == 22
    assert (result["bank"]["two_card_22"], result["bank"]["ranked"], result["bank"]["replaced"]) == (False, False, True)
    assert r.outcomes() == {"2": "lose", "3": "win", "4": "lose"}
    assert (result["dead"], result["burned"]) == (["5C"], 5)
    published = json.dumps(r.events) + "".join(r.snapshots)
    for code in ("2C", "3C", "4C", "6C", "7C"):
        assert f'"{code}"' not in published


def test_the_hole_card_exposed_by_the_banker_plays() -> None:
    r = Run()
    r.to_dealing()
    r.shake(1, 2, 3)
    r.deal("10C 5D 10H 9C 5H 6D 9S 8C")
    assert r.m.command("hole_exposed", {"by": "banker"}) == {"hole_card": "plays", "card": "8C", "burn": 0}
    assert r.last("reveal") == {"hand": "banker", "seat": 1, "position": 2, "card": "8C", "when": "exposed_by_banker",
                                "dead": False}
    assert r.m.snapshot()["bank"]["cards"] == ["9C", "8C"]
    r.press("stand", 2)
    r.press("stand", 3)
    assert len(r.all("reveal")) == 1, "turned up already: no second reveal in turn"
    assert r.last("prompt")["hand"] == "banker"   # 17: the Banker draws to 18
    r.deal("AC")
    assert r.m.state == "result" and r.last("result")["bank"]["total"] == 18


def test_hole_exposed_out_of_place_is_refused_with_the_reason() -> None:
    r = Run()
    with pytest.raises(Refused, match=r"no Banker's hole card is on the layout \(state closed\)"):
        r.m.command("hole_exposed", {"by": "dealer"})
    r.to_dealing()
    with pytest.raises(Refused, match="has not been dealt yet"):
        r.m.command("hole_exposed", {"by": "dealer"})
    r.shake(1, 2, 3)
    r.deal("10C 5D 10H 9C 5H 6D 9S 8C")
    with pytest.raises(Refused, match=r"^by: must be one of dealer, banker \(H13\)$"):
        r.m.command("hole_exposed", {"by": "floor"})
    r.m.command("hole_exposed", {"by": "dealer"})
    with pytest.raises(Refused, match="has not been dealt yet"):
        r.m.command("hole_exposed", {"by": "dealer"})
    r.deal("2C 3C 4C 6C 7C 8D")
    r.press("stand", 2)
    r.press("stand", 3)
    with pytest.raises(Refused, match=r"already face up \(in turn\)"):
        r.m.command("hole_exposed", {"by": "banker"})
    with pytest.raises(Refused, match=r"^hot_action has no such command: its commands are hole_exposed$"):
        r.m.command("peek", {})


# --- the Banker position: I3, G6 --------------------------------------------------------------------------------

ALL_STAND = "10C 10D 10H 10S 8C 8D 8H 9S"   # every player hard 18, the Banker 10-9: the Bank wins all (I5c)


def play_round(r: Run, deal: str = ALL_STAND) -> None:
    r.to_dealing()
    r.shake(2, 2, 2)
    r.deal(deal)
    assert r.m.state == "result"
    r.m.press("deal")


def test_no_third_consecutive_bank_and_the_game_breaks_when_nobody_takes_it() -> None:
    """I3: "the option to be a Banker for two consecutive hands": after two, the bank is offered
    clockwise; when every other seat declines, the game is broken -- seat 1 never banks a third."""
    r = Run()
    play_round(r)
    assert r.last("player_dealer") == {"seat": 1, "consecutive": 1, "change": "kept"}
    play_round(r)
    assert r.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert r.m.state == "ready" and r.last("prompt")["seat"] == 2
    assert r.m.press("pass").accepted
    assert r.m.press("pass").accepted
    assert r.last("prompt")["pass_breaks_game"] is True
    r.m.press("pass")
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"]) == ("game_broken", "critical")
    assert r.m.state == "closed"
    assert [d["player_dealer"] for d in r.all("round_start")] == [1, 1]


def test_the_bank_passes_and_the_new_banker_shakes() -> None:
    r = Run()
    play_round(r)
    play_round(r)
    r.m.press("deal")                               # seat 2 accepts, betting opens
    assert r.last("round_start")["player_dealer"] == 2
    r.m.press("deal")
    assert (r.last("prompt")["expect"], r.last("prompt")["seat"]) == ("dice", 2)
    r.shake(1, 1, 1)                                 # 3 counter-clockwise from seat 2: 2, 1, 4
    assert r.last("action_button")["seat"] == 4
    r.deal(ALL_STAND)                                # seats 1, 3, 4 and the Banker on seat 2
    assert set(r.last("result")["seats"]) == {"1", "3", "4"} and r.last("result")["player_dealer"] == 2


@pytest.mark.parametrize("deal, note", [
    (ALL_STAND, "Seat 1 banks its second consecutive hand (I3): its bank must match its first bank: it did not "
                "lose money on it (G6)."),
    ("10C 10D 10H 10S QC QD QH 8S", "Seat 1 banks its second consecutive hand (I3): it lost money on its first "
                                    "bank, so it need not match it (G6)."),
    ("10C 10D 10H 10S QC 8D 8H 9S", "Seat 1 banks its second consecutive hand (I3): its bank must match its first "
                                    "bank unless it lost money on it: the chips decide (G6)."),
])
def test_the_second_hands_bets_prompt_says_whether_the_bank_must_match_its_first(deal, note) -> None:
    """G6: "Bankers must match their first bank, unless they lost money": the first hand won every
    bet; lost every bet (20s against 18); won and lost (the chips decide)."""
    r = Run()
    play_round(r, deal)
    prompt = r.last("prompt")
    assert prompt["expect"] == "bets" and prompt["text"].endswith(note)
    assert r.last("result")["bank_round"]["hand"] == 1
    r.m.press("deal")
    r.shake(2, 2, 2)
    r.deal(ALL_STAND)
    assert r.last("result")["bank_round"]["hand"] == 2
    r.m.press("deal")
    assert "consecutive" not in r.last("prompt")["text"]


def test_the_last_bank_outlives_a_restart() -> None:
    r = Run()
    play_round(r)
    saved = json.loads(json.dumps(r.m.save()))
    assert saved["last_bank"] == {"seat": 1, "lost_money": False}
    again = Run()
    again.m.restore(saved, "betting")
    assert again.m.last_bank == {"seat": 1, "lost_money": False}
    for bad in ({"seat": 9, "lost_money": True}, {"seat": 1, "lost_money": 1}, "x", None):
        other = Run()
        other.m.restore({**saved, "last_bank": bad}, "betting")
        assert other.m.last_bank is None


# --- the readings ------------------------------------------------------------------------------------------------


def test_a_banker_who_chooses_below_18() -> None:
    """banker_below_18 = choice: the Banker's 15 is its decision on its seat buttons; it stands, and
    the hands are compared by closeness to 22 (rules.compare)."""
    r = Run(banker_below_18="choice")
    r.to_dealing()
    r.shake(2, 2, 2)
    r.deal("10C 10D 5H 10S 7C 4D 8H 5S")   # seat 2 17, seat 3 14, seat 4 13; the Banker 10-5
    for seat in (2, 3, 4):
        assert r.press("stand", seat) is None
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["choices"]) == ("decision", 1, ["hit", "stand"])
    assert r.press("stand", 2) == "the players are done: once the Banker's hole card is exposed in turn, all hands " \
                                  "stand (H16)"
    assert r.press("stand", 1) is None
    assert r.outcomes() == {"2": "win", "3": "lose", "4": "lose"}


def test_a_banker_who_hits_hard_18() -> None:
    r = Run(banker_hard_18="hit")
    r.to_dealing()
    r.shake(2, 2, 2)
    r.deal("10C 10D 10H 10S 8C 8D 8H 8S")
    assert r.last("prompt")["text"].endswith("the Banker hits hard 18 (I10; game.banker_hard_18).")
    assert r.press("stand", 1) == "the Banker must be hit first: the Banker hits hard 18 (I10; game.banker_hard_18) (H15)"
    assert r.alarms()[-1] == "missed_mandatory_hit"
    r.deal("2H")
    assert r.last("result")["bank"]["total"] == 20


# --- config -------------------------------------------------------------------------------------------------------


def test_the_example_config_loads_and_options_name_their_key() -> None:
    cfg = load_config(ROOT / "config" / "hot-action.toml")
    assert cfg.table.game == "hot_action" and cfg.options.decks == 8 and cfg.devices["cup"].kind == "dice_cup"
    with pytest.raises(OptionError) as caught:
        GAME.load_options({"decks": 9}, 7)
    assert caught.value.field == "game.decks"
    with pytest.raises(OptionError) as caught:
        GAME.load_options({}, 9)
    assert caught.value.field == "table.seats"


def test_a_card_the_shoe_cannot_hold_faults_the_round_before_any_rule() -> None:
    """The ledger first (the lifecycle): a second AS in a one-deck shoe, a Bet'Win card; resuming
    burns the card and the same card is due again."""
    r = Run(decks=1)
    r.to_dealing()
    r.shake(1, 2, 3)
    r.deal("AS")
    r.m.card(card("AS"))
    assert r.alarms()[-1] == "card_too_many" and r.m.state == "fault"
    r.m.resume("pit")
    assert r.m.state == "dealing" and r.last("resume")["burned"] == ["AS"]
    r.m.card(card("MS"))
    assert r.alarms()[-1] == "foreign_card" and r.m.state == "fault"
    r.m.resume("pit")
    prompt = r.last("prompt")
    assert (prompt["hand"], prompt["seat"], prompt["position"]) == ("seat", 3, 1)
