"""A flaky line between the shoe and the controller never loses a card nor settles a round on
the wrong cards (docs/protocols.md, "Reliability"): the shoe keeps a read until acknowledged,
and a round faulted by a lost line resumes only once the shoe's count proves every read arrived.

Before: a 2.2 s dropout right after a card prompt lost the card (sent six times into the void,
then abandoned), and the table sat in ``dealing`` with no alarm; after an unplug during dealing
the resumed round's hands differed from the cards on the layout.
"""

from __future__ import annotations

import time

from controller.schemas import validate_event

ORDER = ("player", "banker", "player", "banker")  # rule 11, then the third cards


def dealt_in_order(result: dict) -> list[str]:
    p, b = result["player"]["cards"], result["banker"]["cards"]
    out = [p[0], b[0], p[1], b[1]]
    if len(p) == 3:
        out.append(p[2])
    if len(b) == 3:
        out.append(b[2])
    return out


def command(table, name: str, payload: dict, timeout: float = 10.0) -> dict:
    table.pit.publish(f"{table.base}/cmd/{name}", payload)
    return table.wait_for(lambda _e: next((m for t, m in table.messages if t.endswith(f"/cmd/{name}/reply")
                                            and m.get("id") == payload["id"]), None), timeout, what=name)


def test_a_short_dropout_after_a_card_prompt_loses_nothing(table_factory) -> None:
    table = table_factory(seed=21).start()
    table.wait_event("result")
    reached = table.dealer.hold_at("card", count=3)        # the next round's third card prompt
    assert reached.wait(30)
    shoe = table.rig.shoe
    before = len(shoe.drawn)
    shoe.inject("dropout", seconds=2.2)                       # shorter than heartbeat_timeout (3 s)
    table.dealer.release()                                    # the dealer draws into the dropout
    settle = table.dealer.hold_at("settle")
    assert settle.wait(30)
    events = table.events()
    result = [e for e in events if e["kind"] == "result"][-1]["data"]
    physical = [c.face.code for c in shoe.drawn[before - 2:]]  # the round's cards, as they left the shoe
    assert dealt_in_order(result) == physical
    assert not [e for e in events if e["kind"] == "alarm" and "cards_lost" in e["data"]["code"]]
    assert shoe.link.stats["retransmits"] > 0, "the card went into the dropout and was sent again"
    for env in events:
        validate_event(env, game="baccarat")


def test_a_round_faulted_by_a_long_dropout_resumes_on_the_layouts_cards(table_factory) -> None:
    table = table_factory(seed=22, devices={"heartbeat_timeout": 1.0}).start()
    table.wait_event("result")
    table.dealer.misbehave.skip_void = True                   # the pit decides
    reached = table.dealer.hold_at("card", count=2)
    assert reached.wait(30)
    shoe = table.rig.shoe
    before = len(shoe.drawn)
    shoe.inject("dropout", seconds=2.5)                       # longer than heartbeat_timeout: a fault
    table.dealer.release()
    fault = table.wait_event("alarm", lambda d: d["code"] == "shoe_heartbeat_lost")
    refused = command(table, "resume", {"id": "early"})
    assert refused["ok"] is False and "has not shown that every card it read arrived" in refused["error"]
    table.wait_event("prompt", lambda d: "the pit may resume" in d["text"], after=fault["seq"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:                        # a pit screen would press resume now
        reply = command(table, "resume", {"id": f"r{time.monotonic()}"})
        if reply["ok"]:
            break
    assert reply["ok"], reply
    table.dealer.misbehave.skip_void = False
    settle = table.dealer.hold_at("settle")
    assert settle.wait(30)
    result = [e for e in table.events() if e["kind"] == "result"][-1]["data"]
    assert dealt_in_order(result) == [c.face.code for c in shoe.drawn[before - 1:]]
