"""Joker Seven end to end: the simulator deals, a real broker carries, the pit recomputes."""

from __future__ import annotations

from controller.shared.schemas import validate_event
from games.cards import card
from games.joker_seven.paytables import GENERIC
from games.joker_seven.rules import settle


def test_seeded_rounds_recomputed_from_the_published_cards_and_a_deck_change(table_factory) -> None:
    table = table_factory(game="joker_seven", seed=5).start()
    stands = lambda events: [e for e in events if e["kind"] == "result"]  # noqa: E731
    table.wait_for(lambda events: len(stands(events)) >= 4, what="4 results that stand")
    # Rules 9-11: a deck change between rounds, from the pit (cmd/button, as the dealer's button
    # would): the dealer is held at the next bets prompt, when change_deck is lit.
    reached = table.dealer.hold_at("bets")
    assert reached.wait(30)
    # the game's own pit command (its registry entry's commands), checked against its schema
    table.pit.publish(f"{table.base}/cmd/change_deck", {"id": "bad", "colour": "blue"})
    bad = table.wait_message("/cmd/change_deck/reply")
    assert bad["ok"] is False and bad["error"] == "bad change_deck command: (top level): an unknown key (the keys are id, reason)"
    table.pit.publish(f"{table.base}/cmd/change_deck", {"id": "dc", "reason": "a majority of players asked (rule 9a)"})
    table.wait_event("command", lambda d: d["name"] == "change_deck" and d["ok"])
    table.dealer.release()   # the dealer proves the old deck, then opens the new one
    table.wait_event("prompt", lambda d: d["expect"] == "new_deck")
    table.wait_for(lambda events: len(stands(events)) >= 8, what="8 results that stand")
    events = table.events()
    for env in events:
        validate_event(env, game="joker_seven")
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    for result in stands(events):
        layout = [e["data"]["card"] for e in events if e["kind"] == "card" and e["round"] == result["round"]]
        assert layout == result["data"]["cards"] and len(layout) == 7          # rule 3
        recomputed = [w.to_dict() for w in settle([card(c) for c in layout], GENERIC)]
        assert result["data"]["wagers"] == recomputed
    # rule 7: a shuffle with the right count after every round, before the next opens
    for result in stands(events):
        shuffles = [e for e in events if e["kind"] == "shuffle" and e["round"] == result["round"]]
        assert shuffles and shuffles[-1]["data"] == {"ok": True, "count": 54, "expected": 54}
    checks = [e["data"] for e in events if e["kind"] == "deck_check"]
    assert len(checks) >= 3 and all(c["ok"] for c in checks)  # opening deck, old deck, new deck (rules 8, 10)
    state = table.wait_message("/state")
    assert state["game"] == "joker_seven"
