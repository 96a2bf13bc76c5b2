"""Stud end to end: the simulator's shuffler proves the deck, the simulated dealer follows the
press prompts, a real broker carries, the pit enters 3rd street's up cards (the bring-in is
named) and a disputed Stud Hi-Lo showdown by card codes, and recomputes it
(california-card-room-games.txt, "STUD POKER AND VARIATIONS")."""

from __future__ import annotations

import json
import logging
import re

from games.cards import cards
from games.poker.deal_plan import plan
from games.stud import rules
from games.stud.options import StudOptions

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
UP = {"1": "AS", "2": "2D", "3": "2C", "4": "KH"}
HANDS = {1: ["AS", "KS", "QS", "JS", "9S", "2H", "3D"], 3: ["2C", "4D", "5D", "6H", "7H", "KC", "KD"]}


def test_seeded_hands_up_cards_fees_and_a_hi_lo_showdown_recomputed(table_factory, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    table = table_factory(game="stud", game_options={"variant": "stud_hi_lo"}, seed=3)
    steps = plan("stud_hi_lo").steps
    actions = [s.action for s in steps]
    third = actions.index("bet") + 1                   # the first hand's 3rd street betting prompt
    showdown_at = actions.index("showdown") + 1
    at_third = table.dealer.hold_at("press", third)
    at_showdown = table.dealer.hold_at("press", showdown_at)
    table.start()
    assert at_third.wait(30)
    table.wait_event("prompt", lambda d: d.get("step") == "bet")
    assert CODE.findall(json.dumps(table.received()[0])) == [], "no card is named before the pit enters one"
    # A bad entry first: refused with its reason, naming the seat, never the code.
    table.pit.publish(f"{table.base}/cmd/up_cards", {"id": "bad", "street": 3, "cards": {"1": "QS", "2": "QS"}})
    bad = table.wait_event("command", lambda d: d["id"] == "bad")["data"]
    assert bad["ok"] is False and bad["error"] == ("refused: the up cards of seats 1 and 2 are the same card: "
                                                   "one deck holds it once")
    table.pit.publish(f"{table.base}/cmd/up_cards", {"id": "up", "street": 3, "cards": UP})
    table.wait_event("command", lambda d: d["id"] == "up" and d["ok"])
    named = table.wait_event("action_button", lambda d: d.get("street") == 3)["data"]
    assert named["seat"] == 3 and named["by"] == "bring_in", "2C: the lowest card, clubs lowest"
    table.dealer.release()
    assert at_showdown.wait(30)
    table.wait_event("prompt", lambda d: d.get("step") == "showdown")
    for seat, codes in HANDS.items():
        table.pit.publish(f"{table.base}/cmd/showdown", {"id": f"seat{seat}", "seat": seat, "cards": codes})
    for seat in HANDS:
        assert table.wait_event("command", lambda d, s=seat: d["id"] == f"seat{s}")["data"]["ok"]
    table.dealer.release()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 3, what="3 hands")
    table.dealer.paused.set()
    messages, events = table.received()

    checks = [e["data"] for e in events if e["kind"] == "deck_check"]
    assert checks and all(c["ok"] and c["counted"] == 52 for c in checks)
    results = [e for e in events if e["kind"] == "result"]
    options = StudOptions(seats=6, variant="stud_hi_lo")
    for res in results:
        rnd = res["round"]
        start = next(e["seq"] for e in events if e["kind"] == "round_start" and e["data"]["round"] == rnd)
        shuffles = [e for e in events if e["kind"] == "shuffle" and e["seq"] < start]
        assert shuffles and shuffles[-1]["data"] == {"ok": True, "count": 52, "expected": 52}
        seen = [e["data"]["step"] for e in events if e["kind"] == "prompt" and e["round"] == rnd
                and e["data"]["expect"] == "press"]
        assert seen == actions, "antes, 3rd street, bet, then burn + street + bet four times, showdown"
        ab = next(e["data"] for e in events if e["kind"] == "action_button" and e["round"] == rnd)
        # "$6.00 PER 1/2 HOUR PER PERSON": every player's time as the first hand starts, then none
        # within the half hour this run lasts (games/poker/time_clock.py).
        due = ab["players"] if res is results[0] else []
        assert ab["collection"] == {**rules.collection(options.economics, len(ab["players"]), "stud_hi_lo_4_8"),
                                    "time_due": due, "fee": 600 * len(due),
                                    "time_left": ab["collection"]["time_left"]}
        assert sorted(map(int, ab["collection"]["time_left"])) == ab["players"]
        assert all(25 <= m <= 30 for m in ab["collection"]["time_left"].values()), "paid minutes left, a run of seconds"
        assert ab["collection"]["basis"] == "time"
        assert res["data"]["collection"] == ab["collection"]

    first = results[0]["data"]
    assert first["up_cards"] == {"3": UP}
    reveals = [e["data"] for e in events if e["kind"] == "reveal"]
    shown = {r["seat"]: r["cards"] for r in reveals if r["hand"] == "seat"}
    assert shown == HANDS
    recomputed = rules.evaluate("stud_hi_lo", {s: cards(" ".join(c)) for s, c in shown.items()})
    assert first["showdown"] == json.loads(json.dumps(recomputed))
    assert (recomputed["high"], recomputed["low"], recomputed["pot"]) == ([1], [3], "split")
    assert all(r["data"]["showdown"] is None and r["data"]["up_cards"] == {} for r in results[1:])

    entered = set(UP.values()) | {c for codes in HANDS.values() for c in codes}
    assert set(CODE.findall(json.dumps(messages))) <= entered
    assert set(CODE.findall(caplog.text)) <= entered
    assert table.wait_message("/state")["game"] == "stud"
