"""Hot Action Blackjack end to end: the simulator deals from a reading shoe and the simulated Banker
shakes a simulated USB dice cup (read by the controller's pyusb driver), the simulated players press
the seat buttons the prompts offer, a real Mosquitto carries everything to a pit subscriber. The pit
rebuilds every round from what was published -- the dice, the cards, the hole card from its reveal
-- and recomputes the action button, the drawing rules and each result; the Banker's hole card is
in no message and no log line before its reveal, and a burned card never. The pit's
cmd/hole_exposed (H13) runs through the broker too. `tablectl demo --game hot_action` ends by itself."""

from __future__ import annotations

import json
import subprocess
import sys

from hole_card import assert_hole_card_kept

from controller.shared.schemas import validate_event
from games.cards import card
from games.dice import seat_for_total
from games.hot_action import rules

TABLECTL = [sys.executable, "-m", "controller.cli"]
SEATS = 4   # the demo's table (games.hot_action GAME.demo)


def replay(events: list[dict], rnd: int) -> dict:
    """Round ``rnd`` as the pit sees it: the dice, each seat's cards in the order dealt, the Banker's
    cards (the hole card from its reveal), the reveals, the dead cards, the burns."""
    seen: dict = {"dice": None, "seats": {}, "hits": {}, "bank": [], "reveals": [], "dead": [], "burned": 0,
                  "action": None, "banker": None}
    for e in events:
        if e["round"] != rnd:
            continue
        d = e["data"]
        if e["kind"] == "dice":
            seen["dice"], seen["banker"] = d, d["seat"]
        elif e["kind"] == "action_button":
            seen["action"] = d
        elif e["kind"] == "card" and d["hand"] == "seat":
            hand = seen["seats"].setdefault(d["seat"], [])
            assert d["position"] == len(hand) + 1, (rnd, d)
            hand.append(d["card"])
        elif e["kind"] == "card" and d["hand"] == "banker":
            bank = seen["bank"]
            assert d["position"] == len(bank) + 1, (rnd, d)
            bank.append(d.get("card"))
        elif e["kind"] == "card" and d["hand"] == "burn":
            assert "card" not in d
            seen["burned"] += 1
        elif e["kind"] == "card" and d["hand"] == "dead":
            seen["dead"].append(d["card"])
        elif e["kind"] == "reveal":
            seen["reveals"].append(d)
            assert seen["bank"][1] is None, "a reveal turns up a face-down card"
            if d["dead"]:
                seen["dead"].append(d["card"])
                seen["bank"] = seen["bank"][:1]
            else:
                seen["bank"][1] = d["card"]
    return seen


def recompute(seen: dict, data: dict) -> dict:
    """The result the sheet gives for the published cards (games.hot_action.rules, default readings)."""
    up = card(seen["bank"][0])
    whens = [r["when"] for r in seen["reveals"]]
    replaced = "exposed_by_dealer" in whens
    checked = rules.check_due(up) and "two_card_22" not in whens
    bank = [card(c) for c in seen["bank"]]
    out = rules.settle(bank, {s: [card(c) for c in cs] for s, cs in seen["seats"].items()},
                       not (checked and replaced))
    out["bank"].update(seat=seen["banker"], checked=checked, replaced=replaced)
    out["bank_round"]["hand"] = data["bank_round"]["hand"]
    out.update(player_dealer=seen["banker"], action_seat=seen["action"]["seat"],
               payoff_order=seen["action"]["payoff_order"], dead=seen["dead"], burned=seen["burned"])
    return out


def drawn_by_the_rules(seen: dict) -> None:
    """Every player's hit came while its hand could draw and its final hand does not stand on a
    mandatory hit; the Banker drew exactly as banker_must says (G9-G13, the default readings)."""
    all_stand = any(r["when"] == "two_card_22" for r in seen["reveals"])
    for seat, codes in seen["seats"].items():
        hand = [card(c) for c in codes]
        for n in range(2, len(hand)):
            assert rules.player_must(hand[:n])[0] != "stand", (seat, codes)
        assert all_stand or rules.player_must(hand)[0] != "hit", (seat, codes)
    bank = [card(c) for c in seen["bank"]]
    if all_stand:
        assert len(bank) == 2 and rules.total(bank).two_card_22
        return
    for n in range(2, len(bank)):
        assert rules.banker_must(bank[:n])[0] == "hit", seen["bank"]
    assert rules.banker_must(bank)[0] == "stand", seen["bank"]


def test_seeded_rounds_recomputed_and_the_hole_card_kept(table_factory, caplog) -> None:
    caplog.set_level("DEBUG")  # every log line of the controller, drivers and simulator in this process
    # One deck (56 cards): a code other than JK is one physical card until the next shuffle.
    table = table_factory(game="hot_action", seed=8, game_options={"decks": 1}).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 10, what="10 results",
                   timeout=120)
    table.dealer.paused.set()
    messages, events = table.received()
    decisions = [e for e in events if e["kind"] == "button" and e["data"].get("seat") and e["data"]["accepted"]]
    assert len(decisions) >= 5, decisions
    results = [e for e in events if e["kind"] == "result"]
    bankers = set()
    for result in results:
        rnd, data = result["round"], result["data"]
        seen = replay(events, rnd)
        dice = seen["dice"]
        assert seen["action"]["seat"] == seat_for_total(dice["total"], seen["banker"], range(1, SEATS + 1),
                                                        "counterclockwise") == dice["reaches"]
        drawn_by_the_rules(seen)
        assert recompute(seen, data) == data, f"round {rnd}"
        bankers.add(data["player_dealer"])
    assert len(bankers) >= 2, "the bank moved on after two consecutive hands (I3)"

    # Secrecy on every topic (events, the retained state, status) and in the logs: from the hole
    # card's face-down event to its reveal its code appears nowhere (where the same code is also face
    # up in that window -- a joker -- the window proves nothing and is skipped).
    assert_hole_card_kept(messages, caplog.records, lambda state: state["bank"]["cards"], hand="banker",
                          skip_if_shown=True)


def test_the_pit_rules_the_hole_card_exposed_by_the_dealer(table_factory, caplog) -> None:
    """H13 through the broker: at a player's decision the pit sends cmd/hole_exposed by the dealer;
    the hole card is turned up dead, five cards are burned face down (never published), a new hole
    card follows face down, and the round's result is the sheet's for what was published (H14)."""
    caplog.set_level("DEBUG")
    table = table_factory(game="hot_action", seed=3, game_options={"decks": 1})
    reached = table.dealer.hold_at("decision")
    table.start()
    assert reached.wait(60), "no decision prompt"
    rnd = table.wait_event("prompt", lambda d: d["expect"] == "decision")["round"]
    table.pit.client.publish(f"{table.base}/cmd/hole_exposed", json.dumps({"id": "h13", "by": "dealer"}), qos=1)
    table.wait_for(lambda _e: any(t.endswith("/cmd/hole_exposed/reply") for t, _m in table.messages), what="reply")
    with table.cond:
        reply = next(m for t, m in table.messages if t.endswith("/cmd/hole_exposed/reply"))
    assert reply["ok"] and reply["id"] == "h13" and reply["data"]["hole_card"] == "dead", reply
    table.dealer.release()
    result = table.wait_event("result", lambda d: True, after=0, timeout=60)
    while result["round"] != rnd:
        result = table.wait_event("result", after=result["seq"], timeout=60)
    table.dealer.paused.set()
    with table.cond:
        messages = list(table.messages)
    events = [m for t, m in messages if "/event/" in t]
    for env in events:
        validate_event(env, game="hot_action")
    seen = replay(events, rnd)
    assert seen["reveals"][0]["when"] == "exposed_by_dealer" and seen["burned"] == 5
    assert result["data"]["bank"]["replaced"] and result["data"]["burned"] == 5
    assert recompute(seen, result["data"]) == result["data"]
    # The burned cards are what the shoe read at the places of the burn's card events (every card
    # event is one read, in order): the simulator knows them; the pit never sees them.
    cards_published = [e["data"] for e in events if e["kind"] == "card"]
    reads = table.rig.devices["shoe"].read
    burned = [reads[i].code for i, d in enumerate(cards_published) if d["hand"] == "burn"]
    assert len(burned) == 5
    shown = {d.get("card") for d in cards_published} | {e["data"]["card"] for e in events if e["kind"] == "reveal"}
    published = json.dumps([m for _t, m in messages])
    for code in burned:
        if code not in shown:   # (one deck: only a joker can be both burned and shown)
            assert f'"{code}"' not in published, f"the burned {code} was published"


def test_demo_deals_ten_rounds_and_exits_0() -> None:
    proc = subprocess.run([*TABLECTL, "demo", "--game", "hot_action", "--rounds", "10", "--seed", "2"],
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[-1].startswith("10 rounds in ") and lines[-1].endswith("0 missing, 0 duplicates")
    assert sum(" Bank (seat " in line for line in lines) == 10


def test_odds_command() -> None:
    proc = subprocess.run([*TABLECTL, "odds", "hot_action"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "house edge 1.719 %  (exact)" in proc.stdout and "simulated" not in proc.stdout
    assert "the Banker's hand dealt alone from a full shoe, exactly" in proc.stdout
