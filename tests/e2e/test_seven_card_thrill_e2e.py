"""7 Card Thrill end to end: seeded rounds, every result recomputed from the revealed hands, and
no seat's card published before its reveal."""

from __future__ import annotations

from controller.shared.schemas import validate_event
from games.cards import card
from games.seven_card_thrill.rules import settle_seat


def test_seeded_rounds_recomputed_from_the_revealed_hands(table_factory) -> None:
    table = table_factory(game="seven_card_thrill", seed=13).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= 4, what="4 results")
    table.dealer.paused.set()
    with table.cond:
        events = [m for t, m in table.messages if "/event/" in t]
    for env in events:
        validate_event(env, game="seven_card_thrill")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for result in (e for e in events if e["kind"] == "result"):
        rnd = result["round"]
        reveals = {(e["data"]["hand"], e["data"].get("seat")): e["data"]["cards"]
                   for e in events if e["kind"] == "reveal" and e["round"] == rnd}
        dealer = [card(c) for c in reveals[("dealer", None)]]
        for seat, s in result["data"]["seats"].items():
            mine = [card(c) for c in reveals[("seat", int(seat))]]
            assert [w.to_dict() for w in settle_seat(mine, dealer)] == s["wagers"]
        first_reveal = min(e["seq"] for e in events if e["kind"] == "reveal" and e["round"] == rnd)
        before = [e for e in events if e["round"] == rnd and e["seq"] < first_reveal]
        secret = {c for (h, _s), cs in reveals.items() for c in (cs if h == "seat" else cs[1:])}
        leaked = [e for e in before if e["kind"] == "card" and e["data"].get("card") in secret]
        assert not leaked, leaked
