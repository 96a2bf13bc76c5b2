"""Pai Gow Tiles end to end: the simulated dealer shakes a simulated USB cup of three dice when the
prompt asks (it knows no game), the controller reads it through its pyusb driver, the table opens
with no deck check and no shuffler, and a pit on a real broker settles disputes with cmd/dispute
at the phase where hands are set. Every published result equals a recomputation from the
published dice and tiles; the position moves counterclockwise and no seat banks three in a row.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

from controller.shared.schemas import validate, validate_event
from games.pai_gow_tiles.hands import beats, hand, house_way, splits
from games.pai_gow_tiles.rules import placement
from games.pai_gow_tiles.tiles import all_tiles, tile, tiles

TABLECTL = [sys.executable, "-m", "controller.cli"]
ROUNDS = 10


def reply_to(table, rid: str, timeout: float = 15.0) -> dict:
    end = time.monotonic() + timeout
    with table.cond:
        while True:
            found = [m for t, m in table.messages if t.endswith("/cmd/dispute/reply") and m.get("id") == rid]
            if found:
                validate("reply", found[0])
                return found[0]
            left = end - time.monotonic()
            assert left > 0, f"no reply to dispute {rid}"
            table.cond.wait(left)


def deal_dispute(rng: random.Random, banker: int) -> tuple[dict, dict]:
    """Tiles dealt from a shuffled set: the player-dealer's hand and one to three disputed seats',
    each set one of the three ways (the higher hand high) or left to the house way. Returns the
    payload and, by seat ("pd" for the player-dealer), the tiles sent."""
    pile = all_tiles()
    rng.shuffle(pile)
    others = rng.sample([s for s in range(1, 9) if s != banker], rng.randint(1, 3))
    sent: dict = {}

    def entry(key: object) -> dict:
        four = [pile.pop() for _ in range(4)]
        sent[key] = [t.code for t in four]
        if rng.random() < 0.3:
            return {"tiles": [t.code for t in four], "set": "house"}
        way = rng.choice(splits(four))
        return {"high": [t.code for t in way.high.tiles], "low": [t.code for t in way.low.tiles]}

    payload = {"player_dealer": entry("pd"), "seats": {str(s): entry(s) for s in sorted(others)}}
    return payload, sent


def ccw(seat: int) -> int:
    return seat - 1 if seat > 1 else 8


def test_seeded_rounds_with_disputes_recomputed_from_the_published_dice_and_tiles(table_factory) -> None:
    table = table_factory(game="pai_gow_tiles", seed=8).start()
    rng = random.Random(8)
    sent_by_round: dict[int, tuple[dict, dict]] = {}
    last = 0
    for n in range(ROUNDS):
        reached = table.dealer.hold_at("press")   # the hands are being set: the dealer waits
        assert reached.wait(30), f"round {n + 1}: no hands phase"
        prompt = [e for e in table.events("prompt") if e["data"]["expect"] == "press"][-1]
        rnd = prompt["round"]
        assert rnd > last, "each hold is at a new round's hands phase (a dispute publishes no prompt again)"
        last = rnd
        banker = [e for e in table.events("dice") if e["round"] == rnd][-1]["data"]["seat"]
        if n == 1:   # out of the rules, on the wire: the game's refusal, then the schema's
            bad = {"id": "bad-1", "player_dealer": {"high": ["1-5", "3-4"], "low": ["6-6", "4-5"]},
                   "seats": {str(ccw(banker)): {"high": ["2-2", "2-2"], "low": ["5-6", "4-6"]}}}
            table.pit.publish(f"{table.base}/cmd/dispute", bad)
            refused = reply_to(table, "bad-1")
            assert refused["ok"] is False and refused["error"].startswith(
                f"refused: the player-dealer's hand (seat {banker}): the low hand wong (teen+mixed_9) outranks")
            table.pit.publish(f"{table.base}/cmd/dispute", {"id": "bad-2", "seats": {"3": {"high": ["7-1", "2-2"],
                                                                                         "low": ["5-6", "4-6"]}}})
            schema = reply_to(table, "bad-2")
            assert schema["ok"] is False and schema["error"].startswith("bad dispute command: seats.3")
        if n % 3 != 2:   # two rounds in three have a dispute
            payload, sent = deal_dispute(rng, banker)
            table.pit.publish(f"{table.base}/cmd/dispute", {"id": f"d{rnd}", **payload})
            answer = reply_to(table, f"d{rnd}")
            assert answer["ok"], answer
            assert answer["data"]["round"] == rnd and answer["data"]["player_dealer"] == banker
            sent_by_round[rnd] = (payload, sent)
        table.dealer.release()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "result"]) >= ROUNDS, what="the results")
    table.dealer.paused.set()
    events = table.events()
    for env in events:
        validate_event(env, game="pai_gow_tiles")
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    kinds = {e["kind"] for e in events}
    assert not kinds & {"deck_check", "shuffle", "shoe", "card"}, "no deck, no shuffle, no card"
    assert not [e for e in events if e["kind"] == "alarm"], "a dealer who follows the prompts raises no alarm"
    results = [e for e in events if e["kind"] == "result"]
    disputed = 0
    for result in results:
        rnd, data = result["round"], result["data"]
        throw = [e["data"] for e in events if e["kind"] == "dice" and e["round"] == rnd]
        assert len(throw) == 1 and len(throw[0]["values"]) == 3
        throw = throw[0]
        banker = throw["seat"]
        assert data["player_dealer"] == banker and data["values"] == throw["values"]
        assert data["total"] == throw["total"] == sum(throw["values"])
        placed = placement(throw["total"], banker)
        assert {k: data[k] for k in ("reaches", "first_tiles_seat", "action_seat", "deal_order")} == placed.to_dict()
        button = [e["data"] for e in events if e["kind"] == "action_button" and e["round"] == rnd]
        assert button == [{"seat": placed.action, "count": throw["total"], "first_tiles_seat": placed.first_tiles,
                           "banker_seat": banker}]
        if rnd not in sent_by_round:
            assert data["player_dealer_hand"] is None and data["seats"] == {}
            continue
        disputed += 1
        payload, sent = sent_by_round[rnd]
        assert sorted(data["seats"]) == sorted(payload["seats"])
        check_hand(data["player_dealer_hand"], payload["player_dealer"], sent["pd"])
        pd_high = published(data["player_dealer_hand"]["high"])
        pd_low = published(data["player_dealer_hand"]["low"])
        for seat, ruling in data["seats"].items():
            check_hand(ruling["hand"], payload["seats"][seat], sent[int(seat)])
            high = beats(published(ruling["hand"]["high"]), pd_high)
            low = beats(published(ruling["hand"]["low"]), pd_low)
            won = (high == "player") + (low == "player")
            assert (ruling["high"], ruling["low"]) == (high, low)
            assert ruling["outcome"] == ("win" if won == 2 else "push" if won == 1 else "lose")
            assert ruling["pays"] == ("1 to 1" if won == 2 else None)
    assert disputed >= 6
    # the position: offered counterclockwise (a barred seat skipped), never three hands in a row
    base, offered = 1, 0
    for d in (e["data"] for e in events if e["kind"] == "player_dealer"):
        if d["change"] == "offered":
            assert d["seat"] in (ccw(base), ccw(ccw(base))), d
            offered += 1
        base = d["seat"]
    assert offered >= 3
    bankers = [r["data"]["player_dealer"] for r in results]
    assert all(bankers[i:i + 3] != [bankers[i]] * 3 for i in range(len(bankers))), bankers
    state = json.loads(json.dumps(table.wait_message("/state")))
    assert state["game"] == "pai_gow_tiles"


def published(h: dict):
    """A published two-tile hand ranked again from its tiles alone."""
    return hand(*tiles(h["tiles"]))


def check_hand(out: dict, entry: dict, codes: list[str]) -> None:
    """The published hand is the entered one: as set (its tiles high and low), or the house way of
    the four tiles sent; and its kind and points are those of its tiles."""
    if entry.get("set") == "house":
        way = house_way(tiles(codes))
        assert out["set_by"] == "house_way"
        assert [out["high"]["tiles"], out["low"]["tiles"]] == [[t.code for t in way.high.tiles],
                                                               [t.code for t in way.low.tiles]]
    else:
        assert out["set_by"] == "as_set"
        assert sorted(out["high"]["tiles"]) == sorted(tile(c).code for c in entry["high"])
        assert sorted(out["low"]["tiles"]) == sorted(tile(c).code for c in entry["low"])
    for side in ("high", "low"):
        again = published(out[side])
        assert (out[side]["kind"], out[side]["points"], out[side]["high_nine"]) == (again.kind, again.points,
                                                                                 again.high_nine)


def test_demo_deals_ten_rounds_and_exits_0() -> None:
    proc = subprocess.run([*TABLECTL, "demo", "--game", "pai_gow_tiles", "--rounds", "10", "--seed", "2"],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[-1].startswith("10 rounds in ") and lines[-1].endswith("0 missing, 0 duplicates")
    assert sum(": first tiles to seat " in line and " dice " in line for line in lines) == 10
