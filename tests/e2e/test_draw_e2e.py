"""Draw Poker & Low-Ball end to end: the simulator's shuffler proves the 53-card deck, the simulated
dealer follows the press prompts, a real broker carries, and the pit reports a boxed card on the
deal, enters the draws (the stub runs short: the sheet's procedure is prompted), enters a disputed
Low-Ball showdown and recomputes it, then reports a misdeal that is redealt with the same button
(california-card-room-games.txt, "DRAW POKER & LOW-BALL")."""

from __future__ import annotations

import json
import logging
import re

from games.cards import cards
from games.draw import rules
from games.draw.options import DrawOptions
from games.poker.deal_plan import plan

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b")
HANDS = {2: ["JK", "AD", "2H", "3C", "4S"], 5: ["7S", "6D", "5H", "4C", "3S"]}
BETS = {2: True, 5: False}


def test_seeded_hands_a_short_stub_a_lowball_showdown_and_a_misdeal(table_factory, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    table = table_factory(game="draw", game_options={"variant": "lowball"}, seed=3)
    actions = [s.action for s in plan("lowball").steps]
    n = len(actions)
    at_deal = table.dealer.hold_at("press", actions.index("deal") + 1)
    at_burn = table.dealer.hold_at("press", actions.index("burn") + 1)
    at_showdown = table.dealer.hold_at("press", actions.index("showdown") + 1)
    at_second_deal = table.dealer.hold_at("press", n + actions.index("deal") + 1)
    base = f"{table.base}/cmd"
    table.start()

    assert at_deal.wait(30)
    table.wait_event("prompt", lambda d: d.get("step") == "deal")
    assert CODE.findall(json.dumps(table.received()[0])) == [], "no card is named before one is entered"
    table.pit.publish(f"{base}/irregularity", {"id": "bad", "what": "exposed", "seat": 3, "card": "ZZ"})
    bad = table.wait_event("command", lambda d: d["id"] == "bad")["data"]
    assert bad["ok"] is False and bad["error"] == ("refused: the exposed card is not a card code: a rank (2-10, J, Q, "
                                                   "K, A) then a suit (C, D, H, S); or the joker's code")
    table.pit.publish(f"{base}/irregularity", {"id": "boxed", "what": "boxed", "seat": 3})
    assert table.wait_event("command", lambda d: d["id"] == "boxed")["data"]["ok"]
    table.dealer.release()

    assert at_burn.wait(30)
    table.pit.publish(f"{base}/draw", {"id": "six", "draws": {"1": 6, "2": 1}})
    assert table.wait_event("command", lambda d: d["id"] == "six")["data"]["error"] == (
        "refused: seat 1 draws 0 to 5 cards (\"Players may draw up to five cards\")")
    table.pit.publish(f"{base}/draw", {"id": "draws", "draws": {str(s): 5 for s in range(1, 7)}})
    assert table.wait_event("command", lambda d: d["id"] == "draws")["data"]["ok"]
    short = table.wait_event("alarm", lambda d: d["code"] == "stub_short")["data"]
    # Six players and the boxed card's replacement: 53 - 30 - 1 - the burn = a stub of 21 for 30.
    assert short["message"] == "TOO FEW CARDS FOR THE DRAW: the stub holds 21 cards for 30 to deal"
    # Seats 1-4 take twenty, the last card is left: the new stub is it, the burn, twenty discards and
    # the boxed card (choice 1 of games.draw.stub); seats 5 and 6 draw from it.
    assert short["action"].endswith(
        "Deal seat 1 5, seat 2 5, seat 3 5 and seat 4 5. At the last card, combine it with all the discards (the "
        "burn, the folded hands, the dead cards and the discards of seats 1, 2, 3, 4), but not the discards of seats "
        "5, 6 (not yet completed their draws); shuffle this new stub (23 cards), cut, burn one card and complete the "
        "draw. Deal seat 5 5 and seat 6 5.")
    table.dealer.release()

    assert at_showdown.wait(30)
    table.wait_event("prompt", lambda d: d.get("step") == "showdown")
    for seat, codes in HANDS.items():
        table.pit.publish(f"{base}/showdown", {"id": f"seat{seat}", "seat": seat, "cards": codes,
                                               "bet_after_draw": BETS[seat]})
    for seat in HANDS:
        assert table.wait_event("command", lambda d, s=seat: d["id"] == f"seat{s}")["data"]["ok"]
    table.dealer.release()

    assert at_second_deal.wait(30)
    table.pit.publish(f"{base}/irregularity", {"id": "misdeal", "what": "first_card_exposed"})
    assert table.wait_event("command", lambda d: d["id"] == "misdeal")["data"]["ok"]
    table.dealer.release()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 3, what="3 hands")
    table.dealer.paused.set()
    messages, events = table.received()

    # The deck: proved by the deck check, and every shuffle's count (53) before each hand.
    checks = [e["data"] for e in events if e["kind"] == "deck_check"]
    assert checks and all(c["ok"] and c["counted"] == 53 for c in checks)
    results = [e for e in events if e["kind"] == "result"]
    options = DrawOptions(seats=6, variant="lowball")
    for res in results:
        rnd = res["round"]
        start = next(e["seq"] for e in events if e["kind"] == "round_start" and e["data"]["round"] == rnd)
        shuffles = [e for e in events if e["kind"] == "shuffle" and e["seq"] < start]
        assert shuffles and shuffles[-1]["data"] == {"ok": True, "count": 53, "expected": 53}
        seen = [e["data"]["step"] for e in events if e["kind"] == "prompt" and e["round"] == rnd
                and e["data"]["expect"] == "press"]
        assert seen == actions, "antes and blinds, five each, bet, burn, draw, bet, showdown"
        ab = next(e["data"] for e in events if e["kind"] == "action_button" and e["round"] == rnd)
        # "The fee of 5.00 is collected every 1/2 hr.": every player's as the first hand starts, then
        # none within the half hour this run lasts (games/poker/time_clock.py).
        due = ab["players"] if res is results[0] else []
        assert ab["collection"] == {**rules.collection(options.economics, len(ab["players"]), "draw_lowball"),
                                    "time_due": due, "fee": 500 * len(due),
                                    "time_left": ab["collection"]["time_left"]}
        assert sorted(map(int, ab["collection"]["time_left"])) == ab["players"]
        assert all(25 <= m <= 30 for m in ab["collection"]["time_left"].values()), "paid minutes left, a run of seconds"
        assert ab["collection"]["basis"] == "time" and ab["collection"]["time_fee_each"] == 500
        assert ab["stakes"]["antes"] == 600 and [b["amount"] for b in ab["stakes"]["blinds"]] == [200, 300, 500]
        assert res["data"]["collection"] == ab["collection"]

    # The misdeal: hand 2 voided and redealt as hand 3 with the same button; then the button moves.
    void = next(e for e in events if e["kind"] == "void")
    assert void["data"]["round"] == 2 and void["data"]["reason"].startswith("misdeal: the first card dealt was turned")
    assert [(r["round"], r["data"]["button"], r["data"]["redeal_of"]) for r in results[:3]] == [
        (1, 6, None), (3, 1, 2), (4, 2, None)]

    first = results[0]["data"]
    assert first["stub"] == {"stub": 21, "needed": 30, "reshuffles": 1, "complete": True}
    assert first["irregularities"][0]["what"] == "boxed" and first["draws"] == {str(s): 5 for s in range(1, 7)}
    shown = {r["seat"]: r["cards"] for r in (e["data"] for e in events if e["kind"] == "reveal")}
    assert shown == HANDS
    recomputed = rules.evaluate("lowball", {s: cards(" ".join(c)) for s, c in shown.items()}, BETS)
    assert first["showdown"] == json.loads(json.dumps(recomputed))
    assert (recomputed["low"], recomputed["pot"]) == ([2], "low"), "the wheel, the joker as the ace"
    assert recomputed["seven_or_better"][1]["seat"] == 5 and not recomputed["seven_or_better"][1]["wins"]
    assert all(r["data"]["showdown"] is None and r["data"]["draws"] is None for r in results[1:])

    # Secrecy: on every topic (events, state, replies, status) and in the logs, no card but those entered.
    entered = {c for codes in HANDS.values() for c in codes}
    assert set(CODE.findall(json.dumps(messages))) <= entered
    assert set(CODE.findall(caplog.text)) <= entered
    assert table.wait_message("/state")["game"] == "draw"
