"""Panguingue end to end: the simulator's shuffler proves the eight decks of 40, the simulated
dealer follows the prompts (the players' declarations are its seat presses), a real broker carries,
the pit counts two hands and enters the winner, and every published result is recomputed from what
the pit received (california-card-room-games.txt, "PANGUINGUE" and "PAN RULES")."""

from __future__ import annotations

import json
import logging
import re
from itertools import pairwise

from games.panguingue import rules
from games.panguingue.options import PanOptions

CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
RULINGS = ("alive", "corrected", "dead", "foul")


def recompute(events: list[dict], rnd: int, options: PanOptions) -> dict:
    """The hand's outcome from its published events alone: the first seat and order
    (action_button), the counts (hand_status), the declarations (accepted seat presses), the
    winner (hand_status ``winner``), by the sheet's rules (games.panguingue.rules)."""
    mine = [e for e in events if e["round"] == rnd]
    ab = next(e["data"] for e in mine if e["kind"] == "action_button")
    statuses: dict[int, str] = {}
    counts: dict[int, int] = {}
    declared: dict[int, str] = {}
    winner = None
    for e in mine:
        d = e["data"]
        if e["kind"] == "hand_status" and d["status"] in RULINGS:
            statuses[d["seat"]], counts[d["seat"]] = d["status"], d["cards"]
        elif e["kind"] == "hand_status" and d["status"] == "winner":
            winner = d["seat"]
        elif e["kind"] == "button" and d["accepted"] and d["button"] in ("play", "throw_in"):
            declared[d["seat"]] = d["button"]
    out = {s for s, st in statuses.items() if st in ("dead", "foul")}
    won = [e["data"] for e in mine if e["kind"] == "hand_status" and e["data"]["status"] == "winner"]
    if won and won[-1]["rule"] == "DECLARING":
        how = "last_seat"       # every other seat threw in or is dead: the last seat's without play
        assert rules.playing(ab["order"], declared, out) == [winner]
    elif winner is not None:
        how = "entered"
        assert rules.winner_refusal(winner, ab["players"], declared, statuses) is None
    else:
        played = any(e["kind"] == "prompt" and e["data"].get("step") == "draw" for e in mine)
        how = "not_entered" if played else "none_playing"
    take = rules.collection(options.economics, len(ab["players"]), "panguingue")
    assert ab["collection"] == take
    settled = rules.settle(ab["order"], statuses=statuses, declared=declared, counts=counts,
                           returned={s for s, st in statuses.items() if st == "dead"}, winner=winner,
                           start=ab["seat"], how=how, ante_each=take["ante_each"])
    return {"first_seat": ab["seat"], "order": ab["order"], "players": ab["players"], "condition": 500,
            "collection": take, **settled}


def test_seeded_hands_deck_steps_fees_counts_and_winners_recomputed(table_factory, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    table = table_factory(game="panguingue", game_options={"condition": 500, "first_seat": 3}, seed=3)
    at_declare = table.dealer.hold_at("decision", 1)    # the first hand's first declaration
    at_play = table.dealer.hold_at("press", 3)          # the first hand's play: collect, deal, draw
    table.start()
    assert at_declare.wait(30)
    due = table.wait_event("prompt", lambda d: d.get("expect") == "decision")
    assert due["round"] == 1 and due["data"]["seat"] == 3, "the first hand's deal starts with game.first_seat"
    base = f"{table.base}/cmd"
    # Bad input first: refused with its reason, and the table keeps running.
    table.pit.publish(f"{base}/count", {"id": "bad1", "seat": "two", "cards": 12})
    table.pit.publish(f"{base}/count", {"id": "bad2", "seat": 2, "cards": 12, "touched_deck": True})
    table.pit.publish(f"{base}/count", {"id": "bad3", "seat": 2})
    table.pit.publish(f"{base}/winner", {"id": "bad4", "seat": 3})
    for rid, error in (("bad1", "bad count command: seat: must be an integer"),
                       ("bad2", "refused: nobody has touched the deck yet (declare is due): the draw has not begun"),
                       ("bad3", "bad count command: cards: is required"),
                       ("bad4", "refused: no winner is due (state dealing, declare is due): the winner is entered "
                                "during the play, before the dealer presses deal")):
        reply = table.wait_event("command", lambda d, r=rid: d["id"] == r)["data"]
        assert reply["ok"] is False and reply["error"] == error, reply
    # Rule 7: seat 2 has twelve (dead, the ante returned), seat 1 eleven (corrected).
    table.pit.publish(f"{base}/count", {"id": "c2", "seat": 2, "cards": 12})
    table.pit.publish(f"{base}/count", {"id": "c1", "seat": 1, "cards": 11})
    dead = table.wait_event("hand_status", lambda d: d["seat"] == 2)["data"]
    fixed = table.wait_event("hand_status", lambda d: d["seat"] == 1)["data"]
    assert (dead["status"], fixed["status"]) == ("dead", "corrected")
    table.dealer.release()
    assert at_play.wait(30)
    play = table.wait_event("prompt", lambda d: d.get("step") == "draw")
    assert play["round"] == 1
    playing = [d["seat"] for d in (e["data"] for e in table.events("button"))
               if d["accepted"] and d["button"] == "play"]
    table.pit.publish(f"{base}/winner", {"id": "w-dead", "seat": 2})
    bad = table.wait_event("command", lambda d: d["id"] == "w-dead")["data"]
    assert bad["error"] == "refused: seat 2's hand is dead: it cannot win"
    table.pit.publish(f"{base}/winner", {"id": "w", "seat": playing[-1]})
    assert table.wait_event("command", lambda d: d["id"] == "w")["data"]["ok"]
    table.dealer.release()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 3, what="3 hands")
    table.dealer.paused.set()
    messages, events = table.received()

    options = PanOptions(seats=6, condition=500, first_seat=3)
    checks = [e["data"] for e in events if e["kind"] == "deck_check"]
    assert checks and all(c["ok"] and c["counted"] == c["expected"] == 320 for c in checks), "8 decks of 40"
    results = [e for e in events if e["kind"] == "result"]
    for res in results:
        rnd = res["round"]
        start = next(e["seq"] for e in events if e["kind"] == "round_start" and e["data"]["round"] == rnd)
        shuffles = [e for e in events if e["kind"] == "shuffle" and e["seq"] < start]
        assert shuffles and shuffles[-1]["data"] == {"ok": True, "count": 320, "expected": 320}
        mine = [e for e in events if e["round"] == rnd]
        ab = next(e["data"] for e in mine if e["kind"] == "action_button")
        assert ab["order"] == rules.deal_order(6, ab["players"], ab["seat"]), "to the right from the first seat"
        # The steps in order: the fee and antes, the deal, each declaration in turn, the play.
        presses = [e["data"]["step"] for e in mine if e["kind"] == "prompt" and e["data"]["expect"] == "press"]
        asked = [e["data"]["seat"] for e in mine if e["kind"] == "prompt" and e["data"]["expect"] == "decision"]
        dead_seats = [e["data"]["seat"] for e in mine if e["kind"] == "hand_status" and e["data"]["status"] == "dead"]
        assert asked == [s for s in ab["order"] if s not in dead_seats]
        assert presses in (["collect", "deal", "draw"], ["collect", "deal"])
        assert (presses[-1] == "draw") == (res["data"]["how"] in ("entered", "not_entered"))
        # The fee and the ante by condition ($5.00: $3.00 and $5.00 a player), published per hand.
        assert ab["collection"]["fee_each"] == 300 and ab["collection"]["ante_each"] == 500
        # The result equals a recomputation from what the pit received.
        assert res["data"] == recompute(events, rnd, options)

    first = results[0]["data"]
    assert first["winner"] == playing[-1] and first["antes_returned"] == [2] and first["tops"] == 2500
    # The first seat moves to the winner (the seat lights with it).
    for before, after in pairwise(results):
        nxt = next(e["data"] for e in events if e["kind"] == "action_button" and e["round"] == after["round"])
        assert nxt["seat"] == before["data"]["next_start"]
    assert any(e["data"]["seats"]["dealer_button"] == [first["winner"]] for e in events
               if e["kind"] == "lights" and e["round"] == 2)

    # Secrecy: the controller never learns a card of this game, so none is named anywhere.
    assert CODE.findall(json.dumps(messages)) == []
    assert CODE.findall(caplog.text) == []
    assert table.wait_message("/state")["game"] == "panguingue"
