"""Double-Hand Poker end to end: the simulated hand-forming shuffler, the simulated USB dice cup, the
controller and a real Mosquitto. The simulated dealer follows the prompts; the test, as the players
and the pit, puts the action button on a hand of its choosing and enters some settings by card codes
(cmd/set_hand). Every result is recomputed from what the pit saw (the dice, the button, the revealed
settings) and checked against the cards the simulator really dealt; no card is on any topic, in the
retained state or in a log line before its hand is turned up."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import threading
from collections import Counter

from controller.shared.schemas import validate
from games.cards import card
from games.double_hand import rules

ROUNDS = 6
DH = rules.rules_for("lowest")
CODE = re.compile(r"(?<![0-9A-Z])(?:JK|(?:10|[2-9AJQK])[CDHS])(?![0-9A-Z])")
TABLECTL = [sys.executable, "-m", "controller.cli"]


def _send(table, name: str, payload: dict, timeout: float = 10.0) -> dict:
    """Publish a command as the pit does; its reply."""
    def replies() -> list[dict]:
        return [m for t, m in table.messages if t.endswith(f"/cmd/{name}/reply")]
    with table.cond:
        before = len(replies())
    table.pit.client.publish(f"{table.base}/cmd/{name}", json.dumps(payload).encode(), qos=1)
    table.wait_for(lambda _e: len(replies()) > before, timeout, what=f"a reply to cmd/{name}")
    with table.cond:
        reply = replies()[before]
    validate("reply", reply)
    return reply


def _play(table, rng: random.Random) -> Counter:
    """Hold the simulated dealer at every ``press`` prompt; choose the hand for the action button,
    enter about half the settings by codes (a random legal setting), leave the rest to the dealer."""
    reached = threading.Event()

    def hook(expect: str | None, _round: int | None) -> None:
        if expect == "press":
            table.dealer.paused.set()
            reached.set()
    table.dealer.before_act.append(hook)
    table.start()
    done = Counter()
    handled = 0
    while table.results() < ROUNDS:
        assert reached.wait(30), "the dealer reached no press prompt"
        reached.clear()

        def newest_press(events: list[dict], after: int = handled) -> dict | None:
            prompts = [e for e in events if e["kind"] == "prompt" and e["seq"] > after]
            return prompts[-1] if prompts and prompts[-1]["data"]["expect"] == "press" else None
        env = table.wait_for(newest_press, what="the press prompt")
        handled = env["seq"]
        prompt = env["data"]
        acted = False
        if prompt["buttons"][0] == "hand_1":                       # P4: the action button
            table.press(f"hand_{rng.randint(1, rules.HANDS)}")
            done["button"] += 1
            acted = True
        elif prompt["buttons"] == ["house_way"] and rng.random() < 0.5:
            seat = prompt["seat"]
            seven = next(e["data"]["cards"] for e in reversed(table.events("reveal"))
                         if e["data"]["hand"] == "seat" and e["data"]["seat"] == seat)
            setting = rng.choice(rules.settings([card(c) for c in seven], DH))
            if not done["refused"]:
                # One of the four cards still in the shuffler in place of one of the hand's: refused,
                # naming the hand's card that is missing and not the one entered.
                left = [c.face.code for c in table.rig.table.shuffled]
                wrong = [left[0], *[c.code for c in setting.five][1:]]
                reply = _send(table, "set_hand", {"id": f"bad{handled}", "seat": seat,
                                                  "two": [c.code for c in setting.two], "five": wrong})
                assert not reply["ok"] and left[0] not in reply["error"], reply
                assert reply["error"].startswith(f"refused: the codes entered are not seat {seat}'s seven cards")
                done["refused"] += 1
            reply = _send(table, "set_hand", {"id": f"r{handled}", "seat": seat,
                                              "two": [c.code for c in setting.two],
                                              "five": [c.code for c in setting.five]})
            assert reply["ok"], reply
            done["entered"] += 1
            acted = True
        if acted:
            table.wait_for(lambda events, after=handled: any(e["kind"] == "prompt" and e["seq"] > after
                                                             for e in events), what="the next prompt")
        table.dealer.release()
    table.dealer.paused.set()
    return done


def test_seeded_rounds_recomputed_from_the_published_dice_and_cards_and_nothing_secret(table_factory, caplog):
    caplog.set_level("DEBUG")   # every log line of the controller and drivers in this process
    table = table_factory(game="double_hand", seed=23, pass_probability=0.2)
    done = _play(table, random.Random(23))
    assert done["button"] >= ROUNDS and done["entered"] >= 3 and done["refused"] == 1, done
    messages, events = table.received()
    seats = table.cfg.table.seats
    delivered = table.rig.devices["shuffler"].delivered
    results = [e for e in events if e["kind"] == "result"]
    assert len(delivered) >= 7 * len(results)
    for n, res in enumerate(results[:ROUNDS]):
        rnd, data = res["round"], res["data"]
        of_round = [e for e in events if e["round"] == rnd]
        dp = data["designated_player"]
        # The dice and the button, as published, decide where each hand went (P4-P5).
        dice = next(e["data"] for e in of_round if e["kind"] == "dice")
        pressed = [e["data"]["button"] for e in of_round if e["kind"] == "button" and e["data"]["accepted"]
                   and e["data"]["button"].startswith("hand_")]
        assert dice["seat"] == dp and len(pressed) == 1
        selected = int(pressed[0].removeprefix("hand_"))
        first = rules.first_seat(sum(dice["values"]), dp, seats)
        out = rules.hands_out(selected, first, seats)
        assert (data["selected_hand"], data["first_seat"], data["dice"]) == (selected, first, dice["values"])
        assert data["hands_out"] == {str(s): p for s, p in sorted(out.items())}
        assert next(e["data"] for e in of_round if e["kind"] == "action_button")["seat"] == first
        # Each seat's seven cards are the hand the simulated shuffler delivered to its place in the row.
        row = delivered[7 * n: 7 * n + 7]
        shown = {e["data"]["seat"]: e["data"]["cards"] for e in of_round
                 if e["kind"] == "reveal" and e["data"]["hand"] == "seat"}
        assert {s: sorted(c) for s, c in shown.items()} == {s: sorted(c.code for c in row[p - 1]) for s, p in out.items()}
        assert data["cards_left"] == 4
        # The result, recomputed from the published settings.
        sets = {}
        for e in of_round:
            if e["kind"] == "reveal" and e["data"]["hand"] == "set":
                d = e["data"]
                sets[d["seat"]] = rules.arrange([card(c) for c in d["two"]], [card(c) for c in d["five"]], DH)
                assert sorted(d["cards"]) == sorted(shown[d["seat"]])
                if d["set_by"] == "house_way":
                    way = rules.house_way([card(c) for c in shown[d["seat"]]], DH)
                    assert rules.in_rank_order(way.two) == d["two"]
        recomputed = rules.outcome(dp, sets, data["ties"])
        assert recomputed["designated"] == {k: v for k, v in data["designated"].items() if k != "set_by"}
        for seat, s in data["seats"].items():
            assert {k: v for k, v in s.items() if k != "set_by"} == recomputed["seats"][seat], (rnd, seat)
    _nothing_before_its_reveal(messages, events, caplog)


def _nothing_before_its_reveal(messages: list[tuple[str, dict]], events: list[dict], caplog) -> None:
    """A card code appears in an event or a retained state only once a ``reveal`` of that round
    (at or before that seq) has shown it, or in an earlier round; in a log line only after its
    reveal was made (the controller's clock); the four cards left and the dead hands never."""
    revealed_at: dict[tuple[int, str], int] = {}     # (round, code) -> seq of its first reveal
    revealed_ts: dict[str, float] = {}
    for e in events:
        if e["kind"] == "reveal":
            for c in e["data"]["cards"]:
                revealed_at.setdefault((e["round"], c), e["seq"])
                revealed_ts.setdefault(c, e["ts"])

    def allowed(code: str, rnd: int | None, seq: int) -> bool:
        return any((r, code) in revealed_at and (r < (rnd or 0) or revealed_at[(r, code)] <= seq)
                   for r in range(1, (rnd or 0) + 1))
    checked = 0
    last = (None, 0)          # the round and seq of the last event received: where a reply stands
    for topic, m in messages:
        if "/cmd/" in topic and not topic.endswith("/reply"):
            continue   # the pit's own commands
        if topic.endswith("/reply"):
            rnd, seq = last
        elif topic.endswith("/state"):
            rnd, seq = m.get("round"), m["seq"]
        elif "/event/" in topic:
            rnd, seq = last = m["round"], m["seq"]
        else:
            rnd, seq = None, 0     # status: no card at all
        for code in set(CODE.findall(json.dumps(m))):
            assert allowed(code, rnd, seq), f"{code} on {topic} (round {rnd}, seq {seq}) before its reveal"
            checked += 1
    assert checked, "the check saw revealed cards"
    for rec in caplog.records:
        if rec.name.startswith("hw_sim"):
            continue
        for code in set(CODE.findall(rec.getMessage())):
            assert code in revealed_ts and revealed_ts[code] <= rec.created + 1e-3, \
                f"{code} logged before any reveal: {rec.getMessage()!r}"


def test_the_demo_deals_ten_rounds_and_exits_0():
    """``tablectl demo --game double_hand --rounds 10``: the simulated dealer plays by the prompts
    alone (hands, the count, the row's buttons, the dice, the house way)."""
    proc = subprocess.run([*TABLECTL, "demo", "--game", "double_hand", "--rounds", "10", "--seed", "3",
                           "--broker", "mosquitto"], capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr == ""
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"10 rounds in [0-9.]+ s; \d+ events, 0 missing, 0 duplicates", last), last
