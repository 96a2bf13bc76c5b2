"""Mexican Stud end to end: the simulator's shuffler proves the 41-card deck, the simulated dealer
follows the press prompts, a real broker carries, and the pit enters the second card's up cards
(the forced bet is named), a down card a player opens (his third card is then prompted face down),
the third card's up cards and a disputed showdown by card codes, and recomputes it
(california-card-room-games.txt, "MEXICAN POKER (5-Card Stud--Mexico Style)")."""

from __future__ import annotations

import json
import logging
import re

from games.cards import cards
from games.mexican_stud import rules
from games.mexican_stud.options import MexicanOptions
from games.poker.deal_plan import plan

CODE = re.compile(r"\b(?:JK|(?:10|[2-9AJQK])[CDHS])\b")
SCHEDULE = {"basis": "player", "fee_each": 100, "jackpot": 100}
SECOND = {"1": "KH", "2": "AD", "3": "JK", "4": "7C", "5": "2S", "6": "QD"}
OPENED = "AH"                                     # seat 2's first card, opened before the third
THIRD = {"1": "KD", "2": "down", "3": "3C"}       # seats 4 to 6 folded on the second card
HANDS = {1: ["KH", "KD", "KS", "QS", "2C"], 2: ["AD", "AH", "AC", "4D", "4H"], 3: ["JK", "3C", "3D", "5H", "6S"]}


def test_seeded_hands_deck_streets_fees_an_opened_card_and_a_showdown_recomputed(table_factory, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    table = table_factory(game="mexican_stud", seed=5)
    actions = [s.action for s in plan("mexican_stud").steps]
    bets = [i + 1 for i, a in enumerate(actions) if a == "bet"]    # the first hand's press prompts, counted
    at_second = table.dealer.hold_at("press", bets[0])
    at_expose = table.dealer.hold_at("press", actions.index("expose") + 1)
    at_third = table.dealer.hold_at("press", bets[1])
    at_showdown = table.dealer.hold_at("press", actions.index("showdown") + 1)
    table.start()

    assert at_second.wait(30)
    table.wait_event("prompt", lambda d: d.get("street") == "second card")
    assert CODE.findall(json.dumps(table.received()[0])) == [], "no card is named before the pit enters one"
    # Bad entries first: refused with their reasons, naming places, never codes; the table goes on.
    table.pit.publish(f"{table.base}/cmd/up_cards", {"id": "bad", "street": 2, "cards": {"1": "9C"}})
    bad = table.wait_event("command", lambda d: d["id"] == "bad")["data"]
    assert bad["ok"] is False and bad["error"] == ("refused: seat 1's second card is not a card of the deck (41 "
                                                   "cards: 52 and a joker, no 8, 9 or 10)")
    table.pit.publish(f"{table.base}/cmd/expose", {"id": "early", "seat": 2, "card": OPENED})
    early = table.wait_event("command", lambda d: d["id"] == "early")["data"]
    assert early["ok"] is False and OPENED not in early["error"]
    table.pit.publish(f"{table.base}/cmd/expose", {"id": "malformed", "seat": 2})
    malformed = table.wait_event("command", lambda d: d["id"] == "malformed")["data"]
    assert malformed["ok"] is False and malformed["error"] == "bad expose command: card: is required"
    table.pit.publish(f"{table.base}/cmd/up_cards", {"id": "up2", "street": 2, "cards": SECOND})
    table.wait_event("command", lambda d: d["id"] == "up2" and d["ok"])
    named = table.wait_event("action_button", lambda d: d.get("street") == 2)["data"]
    assert (named["seat"], named["by"]) == (3, "high_card"), "the joker supersedes the ace"
    table.dealer.release()

    assert at_expose.wait(30)
    table.pit.publish(f"{table.base}/cmd/expose", {"id": "open", "seat": 2, "card": OPENED})
    table.wait_event("command", lambda d: d["id"] == "open" and d["ok"])
    table.dealer.release()

    assert at_third.wait(30)
    deal = table.wait_event("prompt", lambda d: d.get("step") == "deal" and d.get("street") == "third card")["data"]
    assert deal["down"] == [2] and "face down to seat 2" in deal["text"]
    table.pit.publish(f"{table.base}/cmd/up_cards", {"id": "up3", "street": 3, "cards": THIRD})
    table.wait_event("command", lambda d: d["id"] == "up3" and d["ok"])
    assert table.wait_event("action_button", lambda d: d.get("street") == 3)["data"]["seat"] == 2, "A-A showing"
    table.dealer.release()

    assert at_showdown.wait(30)
    for seat, codes in HANDS.items():
        table.pit.publish(f"{table.base}/cmd/showdown", {"id": f"seat{seat}", "seat": seat, "cards": codes})
    for seat in HANDS:
        assert table.wait_event("command", lambda d, s=seat: d["id"] == f"seat{s}")["data"]["ok"]
    table.dealer.release()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 3, what="3 hands")
    table.dealer.paused.set()
    messages, events = table.received()

    # The deck: proved by the deck check, and every shuffle's count (41) before each hand.
    checks = [e["data"] for e in events if e["kind"] == "deck_check"]
    assert checks and all(c["ok"] and c["counted"] == 41 for c in checks)
    results = [e for e in events if e["kind"] == "result"]
    options = MexicanOptions(seats=6, schedule=SCHEDULE)
    for res in results:
        rnd = res["round"]
        start = next(e["seq"] for e in events if e["kind"] == "round_start" and e["data"]["round"] == rnd)
        shuffles = [e for e in events if e["kind"] == "shuffle" and e["seq"] < start]
        assert shuffles and shuffles[-1]["data"] == {"ok": True, "count": 41, "expected": 41}
        # The streets in order: one down one up, the forced bet, then (expose, burn, card, bet) three times.
        seen = [e["data"]["step"] for e in events if e["kind"] == "prompt" and e["round"] == rnd
                and e["data"]["expect"] == "press"]
        assert seen == actions
        # The collection, published as the hand starts.
        ab = next(e["data"] for e in events if e["kind"] == "action_button" and e["round"] == rnd)
        assert ab["collection"] == rules.collection(options.economics, len(ab["players"]))
        assert ab["collection"]["fee"] == 600 and ab["collection"]["jackpot"] == 100   # $1.00 each, 6 players
        assert res["data"]["collection"] == ab["collection"]
    # The button moves one seat clockwise after each hand.
    assert [r["data"]["button"] for r in results][:3] == [1, 2, 3]

    first = results[0]["data"]
    assert first["up_cards"] == {"2": SECOND, "3": THIRD}
    assert first["exposed"] == {"2": [{"street": 1, "card": OPENED, "by": "player"}]}
    reveals = [e["data"] for e in events if e["kind"] == "reveal"]
    shown = {r["seat"]: r["cards"] for r in reveals if r["hand"] == "seat"}
    assert shown == HANDS
    recomputed = rules.evaluate({s: cards(" ".join(c)) for s, c in shown.items()})
    assert first["showdown"] == json.loads(json.dumps(recomputed))
    assert recomputed["high"] == [2] and recomputed["hands"][1]["high"]["name"] == "full house"
    assert [h["jackpot_eligible"] for h in recomputed["hands"]] == [True, True, False], "a joker hand: no jackpot"
    assert all(r["data"]["showdown"] is None for r in results[1:])

    # Secrecy: on every topic the controller publishes (events, state, replies, status) and in the
    # logs, no card but those entered (the pit's own requests, the refused 9C among them, aside).
    entered = {c for c in (*SECOND.values(), *THIRD.values(), OPENED) if c != "down"} | \
        {c for codes in HANDS.values() for c in codes}
    published = [(t, p) for t, p in messages if "/cmd/" not in t or t.endswith("/reply")]
    assert any(t.endswith("/cmd/up_cards/reply") for t, _ in published)
    assert set(CODE.findall(json.dumps(published))) <= entered
    assert set(CODE.findall(caplog.text)) <= entered
    assert table.wait_message("/state")["game"] == "mexican_stud"
