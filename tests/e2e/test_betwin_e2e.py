"""Bet'Win end to end: the simulated dealer deals, players change or stand on seat buttons (the
dealer presses what the prompt offers), and every published result recomputes from the
published cards."""

from __future__ import annotations

from controller.shared.schemas import validate_event
from games.betwin.rules import Rules, wins
from games.cards import card


def test_seeded_rounds_recomputed_from_the_published_cards(table_factory) -> None:
    table = table_factory(game="betwin", seed=9).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 8, what="8 results")
    events = table.events()
    for env in events:
        validate_event(env, game="betwin")
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    changes = 0
    for result in (e for e in events if e["kind"] == "result"):
        rnd = result["round"]
        cards_of = [e["data"] for e in events if e["kind"] == "card" and e["round"] == rnd]
        waiting = next(c["card"] for c in cards_of if c["hand"] == "waiting")
        adjoining = next(c["card"] for c in cards_of if c["hand"] == "adjoining")
        assert (result["data"]["waiting"], result["data"]["adjoining"]) == (waiting, adjoining)
        presses = {e["data"]["seat"]: e["data"]["button"] for e in events
                   if e["kind"] == "button" and e["round"] == rnd and e["data"].get("seat") and e["data"]["accepted"]}
        for seat, seat_result in result["data"]["seats"].items():
            dealt = [c for c in cards_of if c["hand"] == "seat" and c["seat"] == int(seat)]
            assert len(dealt) == (2 if presses[int(seat)] == "change" else 1), "a change once, only if pressed"
            changes += presses[int(seat)] == "change"
            final = dealt[-1]["card"]
            assert seat_result["card"] == final
            won = wins(card(final), card(waiting), card(adjoining), Rules())[0]
            assert [w["outcome"] for w in seat_result["wagers"]] == ["win" if won else "lose"] * 2
    assert changes, "the simulated players changed at least once"
