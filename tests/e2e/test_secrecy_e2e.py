"""No published figure depends on a face-down card (issue 13, defect 7; controller.table.secrecy), as a
pit subscriber sees it: a damaged frame of the banker's face-down card (rule 10) is counted, but
its ``line_errors`` go out only after the reveal."""

from __future__ import annotations

from controller.shared.schemas import validate_event


def test_line_errors_of_the_face_down_cards_frame_wait_for_its_reveal(table_factory) -> None:
    table = table_factory(seed=31).start()
    first = table.wait_event("result")
    reached = table.dealer.hold_at("card", count=4)          # P, B, P, B (rule 11): the banker's 2nd
    assert reached.wait(30)
    table.rig.shoe.inject("bad_checksum")                     # the face-down card's frame, damaged once
    table.dealer.release()
    result = table.wait_event("result", after=first["seq"])
    events = [e for e in table.events() if first["seq"] < e["seq"] <= result["seq"]]
    for env in events:
        validate_event(env, game="baccarat")
    hole_prompt = next(e for e in events if e["kind"] == "prompt" and e["data"].get("face") == "down")
    reveal = next(e for e in events if e["kind"] == "reveal")
    between = [e for e in events if hole_prompt["seq"] < e["seq"] < reveal["seq"] and e["kind"] == "line_errors"]
    assert between == [], "drop counts went out while the card they describe was face down"
    after = [e for e in table.events("line_errors") if e["seq"] > reveal["seq"] and e["data"]["device"] == "shoe"]
    assert after and after[0]["data"]["dropped"].get("bad_crc", 0) >= 1, "the counts go out once it is public"
    assert table.rig.shoe.link.stats["retransmits"] > 0
