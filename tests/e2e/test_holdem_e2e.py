"""Hold'em end to end: the simulator's shuffler proves the deck, the simulated dealer follows the
press prompts, a real broker carries, and the pit enters a disputed showdown by card codes and
recomputes it (california-card-room-games.txt, "THE BASIC PLAY OF THE MOTHER GAME TEXAS HOLD'EM")."""

from __future__ import annotations

import json
import logging
import re

from games.cards import cards
from games.holdem import rules
from games.holdem.options import HoldemOptions
from games.poker.deal_plan import plan

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
BOARD = ["AS", "4D", "7C", "KH", "KD"]
HANDS = {2: ["KC", "9S"], 5: ["2C", "3H"]}


def test_seeded_hands_sequenced_fees_published_and_a_showdown_recomputed(table_factory, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    table = table_factory(game="holdem", game_options={"variant": "holdem_hi_lo"}, seed=3)
    steps = plan("holdem_hi_lo").steps
    showdown_at = [s.action for s in steps].index("showdown") + 1
    reached = table.dealer.hold_at("press", showdown_at)   # the first hand's showdown prompt
    table.start()
    assert reached.wait(30)
    table.wait_event("prompt", lambda d: d.get("step") == "showdown")
    before = [(t, p) for t, p in table.received()[0]]
    assert CODE.findall(json.dumps(before)) == [], "no card is named before the pit enters one"
    # A bad entry first: refused with its reason, and the table keeps running.
    table.pit.publish(f"{table.base}/cmd/showdown", {"id": "bad", "seat": 2, "cards": ["KC", "KC"]})
    bad = table.wait_event("command", lambda d: d["id"] == "bad")["data"]
    assert bad["ok"] is False and bad["error"] == ("refused: cards 1 and 2 of seat 2's hand are the same card: "
                                                   "one deck holds it once")
    table.pit.publish(f"{table.base}/cmd/showdown", {"id": "board", "board": BOARD})
    for seat, codes in HANDS.items():
        table.pit.publish(f"{table.base}/cmd/showdown", {"id": f"seat{seat}", "seat": seat, "cards": codes})
    table.wait_event("command", lambda d: d["id"] == "seat5" and d["ok"])
    table.dealer.release()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 4, what="4 hands")
    table.dealer.paused.set()
    messages, events = table.received()

    # The deck: proved by the deck check, and every shuffle's count (52) before each hand.
    checks = [e["data"] for e in events if e["kind"] == "deck_check"]
    assert checks and all(c["ok"] and c["counted"] == 52 for c in checks)
    results = [e for e in events if e["kind"] == "result"]
    for res in results:
        rnd = res["round"]
        start = next(e["seq"] for e in events if e["kind"] == "round_start" and e["data"]["round"] == rnd)
        shuffles = [e for e in events if e["kind"] == "shuffle" and e["seq"] < start]
        assert shuffles and shuffles[-1]["data"] == {"ok": True, "count": 52, "expected": 52}
        # The deal in order: blinds, hole cards, bet, burn + flop, bet, burn + turn, bet, burn + river, bet, showdown.
        seen = [e["data"]["step"] for e in events if e["kind"] == "prompt" and e["round"] == rnd
                and e["data"]["expect"] == "press"]
        assert seen == [s.action for s in steps]
        # The fee and jackpot collection, published as the hand starts.
        ab = next(e["data"] for e in events if e["kind"] == "action_button" and e["round"] == rnd)
        options = HoldemOptions(seats=6, variant="holdem_hi_lo")
        assert ab["collection"] == rules.collection(options.economics, len(ab["players"]), "holdem_4_8")
        assert ab["collection"]["fee"] == 300 and ab["collection"]["jackpot"] == 100   # "6-5- PLAYERS $3.00"
        assert res["data"]["collection"] == ab["collection"]
    # The button moves one place to the left after each hand.
    assert [r["data"]["button"] for r in results][:4] == [1, 2, 3, 4]

    # The showdown equals a recomputation from what was revealed.
    reveals = [e["data"] for e in events if e["kind"] == "reveal"]
    board = next(r["cards"] for r in reveals if r["hand"] == "board")
    shown = {r["seat"]: r["cards"] for r in reveals if r["hand"] == "seat"}
    assert (board, shown) == (BOARD, HANDS)
    recomputed = rules.evaluate("holdem_hi_lo", cards(" ".join(board)),
                                {s: cards(" ".join(c)) for s, c in shown.items()})
    assert results[0]["data"]["showdown"] == json.loads(json.dumps(recomputed))
    assert (recomputed["high"], recomputed["low"], recomputed["pot"]) == ([2], [5], "split")
    assert all(r["data"]["showdown"] is None for r in results[1:])

    # Secrecy: on every topic (events, state, replies, status) and in the logs, no card but those entered.
    entered = set(BOARD) | {c for codes in HANDS.values() for c in codes}
    assert set(CODE.findall(json.dumps(messages))) <= entered
    assert set(CODE.findall(caplog.text)) <= entered
    state = table.wait_message("/state")
    assert state["game"] == "holdem"
