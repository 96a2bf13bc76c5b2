"""Three Card Poker end to end, from a shoe and from a hand-forming shuffler: the simulated players
play or fold on seat buttons, the pit recomputes every result from what was revealed, and no
folded hand or face-down card ever reaches it."""

from __future__ import annotations

import json
import re

import pytest

from controller.shared.schemas import validate_event
from games.cards import card
from games.three_card_poker.rules import settle_seat


@pytest.mark.parametrize("deal_from", ["hand_shuffler", "shoe"])
def test_seeded_rounds_recomputed_and_nothing_secret_published(deal_from, table_factory, caplog) -> None:
    caplog.set_level("DEBUG")   # every log line of the controller, drivers and simulator in this process
    table = table_factory(game="three_card_poker", seed=11, game_options={"deal_from": deal_from}).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 6, what="6 results")
    table.dealer.paused.set()
    with table.cond:
        messages = list(table.messages)  # one moment's view: what was shown and what was published
    events = [m for t, m in messages if "/event/" in t]
    for env in events:
        validate_event(env, game="three_card_poker")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    folded_seen = 0
    for result in (e for e in events if e["kind"] == "result"):
        rnd, data = result["round"], result["data"]
        reveals = {(e["data"]["hand"], e["data"]["seat"]): e["data"]["cards"] for e in events
                   if e["kind"] == "reveal" and e["round"] == rnd}
        dealer = [card(c) for c in reveals[("player_dealer", data["player_dealer"])]]
        for seat, s in data["seats"].items():
            if not s["played"]:
                folded_seen += 1
                assert ("seat", int(seat)) not in reveals and s["cards"] is None
                continue
            mine = [card(c) for c in reveals[("seat", int(seat))]]
            assert [w.to_dict() for w in settle_seat(mine, True, dealer)] == s["wagers"]
        down = [e["data"] for e in events if e["kind"] == "card" and e["round"] == rnd and e["data"]["face"] == "down"]
        assert down and all("card" not in d for d in down)
    assert folded_seen, "the simulated players folded at least once"
    # Secrecy: every card code that was ever published face up or revealed; nothing else.
    shown = {c for e in events if e["kind"] in ("card", "reveal") for c in
             ([e["data"]["card"]] if "card" in e["data"] else e["data"].get("cards", []))}
    published = json.dumps([m for _t, m in messages])
    logged = "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith("hw_sim"))
    for code in [c.code for c in table.rig.table.spec.all_cards()]:
        if code not in shown:
            assert f'"{code}"' not in published, f"{code} was never revealed but reached the pit"
            assert not re.search(rf"(?<![0-9A-Z]){code}(?![0-9A-Z])", logged), f"{code} was never revealed but logged"



def test_a_one_deck_shoe_at_six_seats_deals_every_round_to_its_end(table_factory) -> None:
    """Issue 23.5: six seats take 18 cards a round (D1a); from one deck the cut card goes 18 from
    the back (the load_shoe prompt): it comes out in the second round, which is the last, and the
    16 cards left are never dealt into a third. Before, a third of the rounds were voided
    when the shoe ran out mid-deal."""
    table = table_factory(game="three_card_poker", seed=12, seats=6,
                          game_options={"deal_from": "shoe", "decks": 1}).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 9, what="9 results",
                   timeout=60)
    table.dealer.paused.set()
    events = table.events()
    for env in events:
        validate_event(env, game="three_card_poker")
    assert not [e for e in events if e["kind"] in ("void", "alarm")], "no round voided, no alarm"
    loads = [e["data"] for e in events if e["kind"] == "prompt" and e["data"]["expect"] == "load_shoe"]
    assert loads and {p["cut_from_end"] for p in loads} == {18}
    # the cut card, 18 from the back, comes out in each shoe's second round: it is the last
    shoes = [e["data"] for e in events if e["kind"] == "shoe"]
    assert shoes and {s["event"] for s in shoes} <= {"cut_card", "short"}
    # at most two rounds a shoe: 52 cards hold two rounds of 18
    rounds, per_shoe = 0, []
    for e in events:
        if e["kind"] == "result":
            rounds += 1
        elif e["kind"] == "prompt" and e["data"]["expect"] == "load_shoe" and rounds:
            per_shoe.append(rounds)
            rounds = 0
    assert per_shoe and set(per_shoe) == {2}, per_shoe
