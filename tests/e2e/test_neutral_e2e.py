"""A game the controller and the simulator have never heard of, end to end: High Card
(tests/neutral_game.py) registered by this test, dealt by the simulated dealer, who follows
only the controller's prompts, through pseudo-terminals and a real broker."""

from __future__ import annotations

import pytest
from neutral_game import GAME, rank

from controller.shared.schemas import validate_event
from games import registry
from games.cards import card


@pytest.fixture
def high_card():
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def test_the_simulated_dealer_plays_a_game_it_does_not_know(high_card, table_factory) -> None:
    table = table_factory(game="high_card", seed=4).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 6, what="6 results")
    events = table.events()
    for env in events:
        validate_event(env, game="high_card")
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(set(seqs)) and seqs[0] == 1
    decisions = [e for e in events if e["kind"] == "button" and e["data"].get("seat")]
    assert decisions and all(d["data"]["accepted"] for d in decisions), "the dealer pressed only what was asked"
    for result in (e for e in events if e["kind"] == "result"):
        rnd = result["round"]
        reveals = {str(e["data"]["seat"]): e["data"]["card"] for e in events
                   if e["kind"] == "reveal" and e["round"] == rnd}
        dealer = result["data"]["dealer"]
        for seat, wager in result["data"]["seats"].items():
            if seat not in reveals:  # folded: never revealed, always lost
                assert (wager["outcome"], wager["why"]) == ("lose", "folded")
                continue
            mine, theirs = rank(card(reveals[seat])), rank(card(dealer))
            expected = "win" if mine > theirs else "push" if mine == theirs else "lose"
            assert wager["outcome"] == expected, (rnd, seat, reveals[seat], dealer)
    # every face-down card stays unnamed until its reveal: no card code in a seat's card event
    seat_cards = [e["data"] for e in events if e["kind"] == "card" and e["data"]["hand"] == "seat"]
    assert seat_cards and all("card" not in d for d in seat_cards)
    shuffles = [e for e in events if e["kind"] == "shuffle"]
    assert len(shuffles) >= 6, "no shoe play: a shuffle before every round"
