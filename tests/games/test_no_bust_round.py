"""No Bust 21st Century Blackjack's round machine driven by card codes and seat buttons as the
controller would (california-card-room-games.txt, "No Bust 21st Century Blackjack"; tags as in
games/no_bust/rules.py). Every event is checked against the schemas and every snapshot against the
state schema as it is made; the hole card is looked for in everything before its reveal."""

from __future__ import annotations

import json
from pathlib import Path

from round_run import RoundRun

from controller.table.config import load_config
from games.cards import card
from games.no_bust import NoBustOptions
from games.registry import get

GAME = get("no_bust")
ROOT = Path(__file__).resolve().parents[2]


class Run(RoundRun):
    """A machine on a table of four seats (seat 1 the player-dealer): every event and every
    snapshot taken as it is made, as the table publishes them."""

    def __init__(self, **options) -> None:
        super().__init__("no_bust", NoBustOptions(**{"seats": 4, **options}), "nb")


# The initial deal (HP8): seats 2, 3, 4, the player-dealer's up card, seats 2, 3, 4, its hole card.
INITIAL = "9C 5D 8H 10S  9S 6D 8S 7H"   # seat 2 9-9 (18), seat 3 5-6 (11), seat 4 8-8, PD 10S up, 7H down


def test_a_round_decisions_split_double_and_the_hole_card_turned_up_last():
    r = Run()
    r.to_dealing()
    r.deal(INITIAL)
    dealt = [(d["hand"], d["seat"], d["position"], d["face"], d.get("card")) for d in r.all("card")]
    assert dealt == [("seat", 2, 1, "up", "9C"), ("seat", 3, 1, "up", "5D"), ("seat", 4, 1, "up", "8H"),
                     ("player_dealer", 1, 1, "up", "10S"), ("seat", 2, 2, "up", "9S"), ("seat", 3, 2, "up", "6D"),
                     ("seat", 4, 2, "up", "8S"), ("player_dealer", 1, 2, "down", None)]
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["choices"]) == (
        "decision", 2, ["hit", "stand", "double", "split", "surrender"])
    assert r.press("stand", 2) is None
    assert r.last("prompt")["choices"] == ["hit", "double", "surrender"], "RFP: 11 must draw: no stand"
    assert r.press("stand", 3) == ("seat 3 may not stand on hand 1 (5D 6D): must hit on 11: players must hit on 11 "
                                   "or less (RFP)")
    assert r.press("double", 3) is None
    r.deal("9D")                                                    # seat 3: 20, its one draw card (DS1)
    assert r.press("split", 4) is None                              # 8-8 (DS3)
    assert r.last("prompt")["text"] == "Card to seat 4 hand 1, position 2: a split hand's second card (DS3)."
    r.deal("3C")                                                    # hand 1: 8H 3C = 11
    assert r.last("prompt")["choices"] == ["hit", "double"], "DS4: double after split; no surrender after one"
    assert r.press("double", 4) is None
    r.deal("KD")                                                    # hand 1: 21
    r.deal("2D")                                                    # hand 2: 8S 2D = 10
    assert r.press("hit", 4) is None
    r.deal("5C")                                                    # hand 2: 15
    assert "reveal" not in [k for k, _ in r.events]
    assert r.press("stand", 4) is None
    kinds = [k for k, _ in r.events]
    assert kinds.index("reveal") > max(i for i, (k, d) in enumerate(r.events) if k == "button")
    assert r.last("reveal") == {"hand": "player_dealer", "seat": 1, "position": 2, "card": "7H"}
    assert r.m.state == "result", "the player-dealer stays on hard 17 (RPD)"
    seat_cards = [(d["seat"], d["seat_hand"], d["position"], d["card"]) for d in r.all("card") if d["hand"] == "seat"]
    assert seat_cards[-4:] == [(4, 1, 2, "3C"), (4, 1, 3, "KD"), (4, 2, 2, "2D"), (4, 2, 3, "5C")]
    result = r.last("result")
    assert result["dealer"]["cards"] == ["10S", "7H"] and result["dealer"]["total"] == 17
    out = {s: [[(w["wager"], w["outcome"]) for w in h["wagers"]] for h in v["hands"]] for s, v in result["seats"].items()}
    assert out == {"2": [[("bet", "win")]], "3": [[("bet", "win"), ("double", "win")]],
                   "4": [[("bet", "win"), ("double", "win")], [("split", "lose")]]}
    assert result["player_dealer"] == 1
    assert r.last("action_button")["card"] == "7H" and r.m.lights()["seats"]["action"] == [r.last("action_button")["seat"]]


def test_the_hole_card_is_in_nothing_published_before_its_reveal():
    """DESIGN.md, "What must never leave the controller": the player-dealer's hole card goes out as a
    face-down card; its code is in no event, no snapshot (the retained state) and no prompt or alarm
    until the reveal, and the snapshot shows the hole as null."""
    r = Run()
    r.to_dealing()
    r.deal("9C 5D 8H 10S 9S 6D 8S QH")
    r.press("stand", 2)
    r.press("hit", 2)                       # refused: its words must not give the hole away either
    r.press("surrender", 3)
    r.press("stand", 4)
    reveal = next(i for i, (k, _) in enumerate(r.events) if k == "reveal")
    before = json.dumps(r.events[:reveal]) + "".join(r.snapshots[:reveal])
    assert "QH" not in before
    assert all(json.loads(s).get("player_dealer_cards", [None, None])[1:2] in ([], [None])
               for s in r.snapshots[:reveal])
    assert json.loads(r.snapshots[-1])["player_dealer_cards"] == ["10S", "QH"]


def test_the_player_dealers_joker_up_card_freezes_every_hand():
    """AR2, GR7: no surrender, split, double or draw; the hole card is turned up at once and the
    player-dealer, a hard 21, does not draw. Hands below 21 lose, a 21 pushes (GR5, GR6)."""
    r = Run()
    r.to_dealing()
    r.deal("9C AD 8H JK 9S 10D 8S 7H")
    assert r.m.state == "result"
    assert not r.all("prompt") or all(p["expect"] != "decision" for p in r.all("prompt"))
    assert r.last("reveal")["card"] == "7H"
    result = r.last("result")
    assert result["frozen"] and result["dealer"]["joker"] and result["dealer"]["total"] == 21
    assert {s: v["hands"][0]["wagers"][0]["outcome"] for s, v in result["seats"].items()} == {
        "2": "lose", "3": "push", "4": "lose"}
    r.deal("2C")
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["message"]) == (
        "unexpected_card", "2C drawn, but no card: round 1 is complete (the player-dealer's up card is a joker: "
                           "there is no draw (GR7))")


def test_with_the_joker_up_presses_are_refused_with_the_rule():
    """After the draws (``after_draws``), the player-dealer's second card is due face up at once:
    a seat that presses meanwhile is told why (AR2)."""
    r = Run(player_dealer_second_card="after_draws")
    r.to_dealing()
    r.deal("9C AD 8H JK 9S 10D 8S")
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["hand"], prompt["position"], prompt["face"]) == ("card", "player_dealer", 2, "up")
    assert r.press("hit", 2) == ("seat 2 may not draw: the player-dealer's up card is a joker: all hands are frozen; "
                                 "players may not surrender, split, double down or draw (AR2, GR7)")
    r.deal("7H")
    assert r.m.state == "result" and not r.all("reveal")


def test_a_joker_hand_is_frozen_and_a_draw_on_it_refused():
    """AR1, HP2: seat 2's JK 9S is a hard 21: no decision is asked of it, and its hit is refused
    with the rule; a joker drawn on a hit freezes seat 3's hand at once."""
    r = Run()
    r.to_dealing()
    r.deal("JK 5D 8H 10S 9S 6D 10C 7H")
    assert r.last("prompt")["seat"] == 3, "seat 2 is frozen: the decisions start at seat 3"
    assert r.press("hit", 2) == ("seat 2 may not draw: its hand JK 9S: the hand holds a joker: a hard 21, frozen, "
                                 "it cannot receive any further action (AR1, AR3, HP2; DS2: no split, double down or "
                                 "surrender)")
    assert r.press("hit", 3) is None
    r.deal("JK")
    assert r.last("prompt")["seat"] == 4, "seat 3's 5D 6D JK is a frozen hard 21"
    assert r.press("hit", 3).startswith("seat 3 may not draw: its hand 5D 6D JK: the hand holds a joker")


def test_a_card_while_a_decision_is_due_is_an_alarm():
    """A draw nobody asked for: the dealer drew while seat 2 had not decided."""
    r = Run()
    r.to_dealing()
    r.deal(INITIAL)
    r.deal("4C")
    alarm = r.last("alarm")
    assert alarm["code"] == "unexpected_card"
    assert alarm["message"] == "4C drawn, but seat 2 has not decided (hit or stand or double or split or surrender)"
    assert r.m.state == "fault"


def test_splits_and_doubles_where_the_sheet_forbids_them():
    r = Run()
    r.to_dealing()
    r.deal("9C 5D 8H 10S 7D 6D 8S 7H")                           # seat 2: 9C 7D
    assert r.press("split", 2) == ("seat 2 may not split on hand 1 (9C 7D): 9C 7D is neither a pair nor two cards "
                                   "of 10-point value (DS3)")
    r.press("hit", 2)
    r.deal("AC")                                                  # 9C 7D AC: 17, three cards
    assert r.press("double", 2) == ("seat 2 may not double down on hand 1 (9C 7D AC): a double down is on two cards "
                                    "(DS1); this hand has 3: 9C 7D AC")
    assert r.press("surrender", 2).endswith("surrender is on the first two cards only; this hand has 3 (DS; reading)")
    assert r.press("stand", 3) == "seat 2 decides first"
    assert r.press("hit", 1) == ("seat 1 is the player-dealer: its hand is played by the player-dealer's chart "
                                 "(RPD), not by seat buttons")


def test_up_to_three_splits_a_seat():
    """DS5: seat 2 splits its eights three times (four hands); the fourth pair of eights may not."""
    r = Run()
    r.to_dealing()
    r.deal("8C 10D 10H 10S 8D 10C QH 7H")                          # seat 2: 8-8
    for n in range(3):
        assert r.press("split", 2) is None
        r.deal(["8H", "8S", "8C"][n])                              # hand 1 receives another eight
    prompt = r.last("prompt")
    assert (prompt["seat"], prompt["seat_hand"], prompt["choices"]) == (2, 1, ["hit", "stand", "double"])
    assert r.press("split", 2) == ("seat 2 may not split on hand 1 (8C 8C): the seat has split 3 time(s): splitting "
                                   "is permitted up to 3 times (DS5)")
    assert len(r.m.hands[2]) == 4 and [h.wager for h in r.m.hands[2]] == ["bet", "split", "split", "split"]


def test_split_aces_receive_one_card_each():
    """DS3a: no decision is asked of a split ace; nor is it split again."""
    r = Run()
    r.to_dealing()
    r.deal("AC 10D 10H 10S AD 10C QH 7H")
    assert r.press("split", 2) is None
    r.deal("AH")                                                  # hand 1: AC AH: not split again
    r.deal("9D")                                                  # hand 2: AD 9D = 20
    assert r.last("prompt")["seat"] == 3
    assert [[c.code for c in h.cards] for h in r.m.hands[2]] == [["AC", "AH"], ["AD", "9D"]]
    assert r.press("split", 2).startswith("seat 2 may not split: its hand AC AH: a split ace receives one draw card")


def test_a_hand_that_must_draw_gets_its_card_without_a_press_and_20_stands():
    """RFP: 11 or less must hit (no other choice on three cards: the card is asked for at once);
    20 or more must stand (passed)."""
    r = Run()
    r.to_dealing()
    r.deal("5C 10D 10H 10S 4D KC QH 7H")                          # seat 2: 9; seats 3, 4: 20
    r.press("hit", 2)
    r.deal("2H")                                                  # 11 in three cards
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["text"]) == (
        "card", 2, "Card to seat 2, position 4: must hit on 11 (RFP: 11 or less).")
    r.deal("9S")                                                  # 20: stands
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["choices"]) == ("decision", 3, ["stand", "split", "surrender"])


def test_the_player_dealer_draws_by_its_chart_after_the_reveal():
    """RPD: 10S 6H is hard 16: the player-dealer hits; with the 5C it has 21 and stays."""
    r = Run()
    r.to_dealing()
    r.deal("9C 9D 9H 10S 10C 10D 10H 6H")
    for seat in (2, 3, 4):
        r.press("stand", seat)
    assert r.last("prompt")["text"] == ("Card to the player-dealer (seat 1), position 3: the player-dealer must hit "
                                        "hard 16 (RPD: must hit 17 or less, must stay hard 17 or more).")
    r.deal("5C")
    assert r.m.state == "result" and r.last("result")["dealer"]["total"] == 21


def test_nobody_holds_the_player_dealer_position_three_hands_in_a_row():
    """The sheet's "Player-dealer and Deal": at most two consecutive hands, then the deal is offered clockwise."""
    r = Run()
    for _ in range(2):
        r.to_dealing()
        r.deal("9C 9D 9H 10S 10C 10D 10H 7H")
        for seat in (2, 3, 4):
            r.press("stand", seat)
        r.m.press("deal")                                         # settle
    assert r.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert r.m.state == "ready" and r.m.lights()["seats"]["player_dealer"] == [2]
    r.m.press("deal")                                             # seat 2 accepts: the deal starts at seat 3
    r.m.press("deal")
    r.deal("9C")
    assert r.last("card")["seat"] == 3


def test_a_natural_and_a_table_that_pays_it_more():
    r = Run(natural_pays="2 to 1")
    r.to_dealing()
    r.deal("JK 9D 9H 10S JK 10D 10H 7H")
    r.press("stand", 3)
    r.press("stand", 4)
    hand = r.last("result")["seats"]["2"]["hands"][0]
    assert hand["natural"] and hand["wagers"][0]["pays"] == "2 to 1"


def test_a_natural_is_published_as_the_natural_not_a_total_of_22():
    """Issue 23.6, Naturals a and the HRC: two jokers are the Natural, which "beats all other hands"
    and has no hand value in the chart; it was published as total 22, joker false (a drawn 22 reads
    that way, and is more than a natural). Seat 2: JK JK; the player-dealer 10D 7H, 17."""
    r = Run()
    r.to_dealing()
    r.deal("JK 9D 9H 10S JK 10D 10H 7H")
    r.press("stand", 3)
    r.press("stand", 4)
    result = r.last("result")
    hand = result["seats"]["2"]["hands"][0]
    assert (hand["cards"], hand["total"], hand["joker"], hand["natural"], hand["soft"], hand["over"]) == (
        ["JK", "JK"], None, True, True, False, False)
    assert hand["wagers"][0]["outcome"] == "win"
    assert result["dealer"]["total"] == 17 and not result["dealer"]["natural"]
    assert json.loads(r.snapshots[-1])["hands"]["2"][0]["total"] is None


def test_the_example_config_loads_and_deals_this_game():
    cfg = load_config(ROOT / "config" / "no-bust.toml")
    assert cfg.table.game == "no_bust" and cfg.options.spec.size == 6 * 53
    assert cfg.dealer.remote_buttons and not cfg.gpio.seat_buttons, "30 seat buttons: from the seats' keypads"
    assert {g: sorted(m) for g, m in cfg.gpio.seat_lights.items()} == {
        g: list(range(1, 7)) for g in GAME.light_groups}, "every light group at every seat"
    assert cfg.options.readings.highest_total == 21 and cfg.options.hole_card


def test_prompts_and_buttons_light_only_what_the_rules_allow():
    r = Run()
    r.to_dealing()
    r.deal(INITIAL)
    lights = r.m.lights()
    assert lights["seat_buttons_lit"] == {b: [2] for b in ("hit", "stand", "double", "split", "surrender")}
    assert lights["seats"]["turn"] == [2]
    r.press("stand", 2)
    assert r.m.lights()["seat_buttons_lit"] == {"hit": [3], "double": [3], "surrender": [3]}
    assert card("5D") in r.m.hands[3][0].cards


def test_buttons_out_of_place():
    """A seat button before the initial deal is complete (HP8), the dealer's deal while a card is
    due (a missing draw), and a card after the player-dealer stays (the round is complete)."""
    r = Run()
    r.to_dealing()
    r.deal("9C 5D 8H")
    assert r.press("hit", 2) == ("seat 2 may not draw before the initial deal is complete (HP8): card -> the "
                                 "player-dealer (seat 1) (the player-dealer's up card (HP8))")
    verdict = r.m.press("deal")
    assert not verdict.accepted and verdict.reason.startswith("a card is due: card -> the player-dealer (seat 1)")
    assert r.last("alarm")["code"] == "missing_draw"
    r.deal("10S 9S 6D 8S 8D")                                     # the player-dealer: 10S 8D, 18
    for seat, choice in ((2, "stand"), (3, "surrender"), (4, "stand")):
        assert r.press(choice, seat) is None
    assert r.m.state == "result"
    r.deal("2C")
    assert r.last("alarm")["message"] == ("2C drawn, but no card: round 1 is complete (the player-dealer stays on "
                                          "hard 18 (RPD: must stay hard 17 or more))")
    assert r.m.state == "fault"


def test_after_draws_the_player_dealers_second_card_comes_face_up():
    """player_dealer_second_card = "after_draws": no hole card, nothing to reveal; the second card,
    dealt once the players are done, places the action button."""
    r = Run(player_dealer_second_card="after_draws", action_chart="face_value")
    r.to_dealing()
    r.deal("9C 5D 8H 10S 9S 6D 8S")
    assert r.last("prompt")["seat"] == 2
    for seat in (2, 3, 4):
        r.press("stand" if seat != 3 else "hit", seat)
        if seat == 3:
            r.deal("7C")
            r.press("stand", 3)
    prompt = r.last("prompt")
    assert (prompt["hand"], prompt["position"], prompt["face"]) == ("player_dealer", 2, "up")
    r.deal("KH")
    assert r.m.state == "result" and not r.all("reveal")
    assert all(d["face"] == "up" for d in r.all("card"))
    assert r.last("action_button") == {"card": "KH", "count": 0, "position": 0, "seat": 1, "first_action_seat": 2}
    assert r.last("result")["seats"]["3"]["hands"][0]["total"] == 18
