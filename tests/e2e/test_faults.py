"""Device faults end to end: each injected by name into a simulated table
(hw_sim, real pseudo-terminals), with the controller, a real Mosquitto and a
separate pit subscriber. Every assertion is on what the pit received, plus
the simulator's physical record of the cards where the test is about cards.

What each fault means for the table (docs/internals.md, ``device_fault``):

| fault | device event | alarm | the round |
|---|---|---|---|
| shuffler door open in the deck check | shuffler fault door_open | shuffler_door_open | deck check prompted again |
| shuffler jam in the shuffle | shuffler fault jam | shuffler_jam | shuffle prompted again |
| shoe misread while dealing | shoe fault misread | shoe_misread | fault; resume refused; void |
| two cards at once | shoe fault double_card | shoe_double_card | fault; void |
| shoe unplugged, plugged back | shoe offline (port error), then online | shoe_offline | fault; pit resumes |
| shoe silent (heartbeat lost) | shoe offline heartbeat_lost, then online | shoe_heartbeat_lost | fault; void |
"""

from __future__ import annotations

import itertools
import random
import signal
import subprocess
import sys
import threading
import time

import pytest
from mqtt_support import Subscriber
from sim_table import SimTable

from controller.cli import SIM_CONFIG_DIR
from controller.shared.schemas import validate_event
from drivers.link import Link


@pytest.fixture
def make(table_factory):
    return table_factory


def command(table: SimTable, name: str, payload: dict, timeout: float = 10.0) -> dict:
    """Send a pit command; its reply (matched by id)."""
    table.pit.publish(f"{table.base}/cmd/{name}", payload)
    end = time.monotonic() + timeout
    with table.cond:
        while True:
            for topic, msg in table.messages:
                if topic.endswith(f"/cmd/{name}/reply") and msg.get("id") == payload.get("id"):
                    return msg
            left = end - time.monotonic()
            assert left > 0, f"no reply to {name} {payload}"
            table.cond.wait(left)


def transitions_between(table: SimTable, first: int, last: int) -> list[tuple[str, str]]:
    return [(e["data"]["from"], e["data"]["to"]) for e in table.events("transition") if first < e["seq"] < last]


def check_alarm(alarm: dict, code: str, *doing: str) -> None:
    data = alarm["data"]
    assert (data["code"], data["severity"]) == (code, "fault"), data
    assert data["card"] is None                        # a device fault alarm never names a card
    for words in doing:                                # the action says what to do
        assert words in data["action"], (words, data["action"])


# --- the shuffler: the step is repeated ------------------------------------------------------

@pytest.mark.parametrize(("spec", "code", "step", "fix"), [
    ("door_open@deck_check", "door_open", "deck check", "close the shuffler door"),
    ("jam@shuffle", "jam", "shuffle", "clear the shuffler jam"),
])
def test_shuffler_fault_repeats_the_step_and_the_table_deals_on(make, spec, code, step, fix):
    table = make(seed=31, rig={"faults": [spec]}).start()
    device = table.wait_event("device", lambda d: d["status"] == "fault")
    assert device["data"]["device"] == "shuffler" and device["data"]["code"] == code
    alarm = table.wait_event("alarm", lambda d: d["code"] == f"shuffler_{code}")
    check_alarm(alarm, f"shuffler_{code}", fix, f"then run the {step} again")
    expect = step.replace(" ", "_")
    again = table.wait_event("prompt", lambda d: d["expect"] == expect, after=alarm["seq"])
    assert again["data"]["text"].startswith(f"The shuffler reported {code}: {fix}, then run the {step} again.")
    # the dealer repeats the step, the shuffler does it this time, and the table deals
    done = table.wait_event("deck_check" if expect == "deck_check" else "shuffle", after=again["seq"])
    assert done["data"]["ok"] is True
    result = table.wait_event("result", after=done["seq"])
    # no round was in play: the state stayed where it was (no fault), then went on
    moves = transitions_between(table, 0, result["seq"])
    assert ("deck_check", "fault") not in moves and not any(to == "fault" for _, to in moves)
    assert moves[:4] == [("closed", "deck_check"), ("deck_check", "shuffle"), ("shuffle", "load_shoe"),
                         ("load_shoe", "ready")]
    assert [e for e in table.events("alarm")] == [alarm]
    for e in table.events():
        validate_event(e, game="baccarat")


# --- the shoe: a card lost on the layout, the round can only be voided -----------------------

def test_misread_faults_the_round_which_cannot_resume_and_the_pit_voids_it(make):
    table = make(seed=32, rig={"faults": ["misread@card:6"]})
    table.dealer.misbehave.skip_void = True          # leave it to the pit
    table.start()
    device = table.wait_event("device", lambda d: d["status"] == "fault")
    assert (device["data"]["device"], device["data"]["code"]) == ("shoe", "misread")
    alarm = table.wait_event("alarm", lambda d: d["code"] == "shoe_misread")
    check_alarm(alarm, "shoe_misread", "a card left the shoe unread", "void the round",
                "dealer's void button or pit cmd/void")
    fault = table.wait_event("transition", lambda d: d["to"] == "fault")
    assert fault["data"]["from"] == "dealing" and fault["round"] == alarm["round"]
    reply = command(table, "resume", {"id": "r1"})
    assert reply["ok"] is False
    assert reply["error"] == (f"refused: round {alarm['round']} cannot resume: a card left the shoe unread "
                              "(shoe misread): the layout no longer matches what was read; void it")
    reply = command(table, "void", {"id": "v1", "reason": "shoe misread"})
    assert reply["ok"] is True
    table.dealer.misbehave.skip_void = False
    void = table.wait_event("void", after=fault["seq"])
    assert void["data"] == {"round": alarm["round"], "reason": "shoe misread", "by": "pit", "cards_burned": 0}
    result = table.wait_event("result", after=void["seq"])
    assert result["round"] > alarm["round"]
    # physically: one card left the shoe and was never read
    assert len(table.rig.shoe.drawn) - len(table.rig.shoe.read) == 1


def test_two_cards_at_once_fault_the_round_and_the_dealer_voids_it(make):
    table = make(seed=33, rig={"faults": ["double_card@card:9"]}).start()
    device = table.wait_event("device", lambda d: d["status"] == "fault")
    assert (device["data"]["device"], device["data"]["code"]) == ("shoe", "double_card")
    alarm = table.wait_event("alarm", lambda d: d["code"] == "shoe_double_card")
    check_alarm(alarm, "shoe_double_card", "two cards left the shoe at once", "void the round")
    fault = table.wait_event("transition", lambda d: d["to"] == "fault")
    assert fault["data"]["from"] == "dealing" and fault["round"] == alarm["round"]
    void = table.wait_event("void", after=fault["seq"])
    assert void["data"]["by"] == "dealer" and void["round"] == alarm["round"]
    result = table.wait_event("result", after=void["seq"])
    assert result["round"] > alarm["round"]
    assert len(table.rig.shoe.drawn) - len(table.rig.shoe.read) == 2


# --- the shoe's link: nothing read is lost, the round may resume ----------------------------

def test_unplugged_shoe_reconnects_and_the_pit_resumes_the_round(make, tmp_path):
    links = {"shoe": str(tmp_path / "dev" / "shoe"), "shuffler": str(tmp_path / "dev" / "shuffler")}
    (tmp_path / "dev").mkdir()
    table = make(seed=34, rig={"faults": ["unplug@round:2+1s"], "links": links})
    table.dealer.misbehave.skip_void = True          # the pit resumes
    table.start()
    off = table.wait_event("device", lambda d: d["status"] == "offline" and d["device"] == "shoe")
    assert off["data"]["code"] is None and off["data"]["detail"].startswith("port error")
    alarm = table.wait_event("alarm", lambda d: d["code"] == "shoe_offline")
    check_alarm(alarm, "shoe_offline", "check the shoe's cable and power", "pit cmd/resume")
    fault = table.wait_event("transition", lambda d: d["to"] == "fault")
    assert fault["data"]["from"] == "dealing" and fault["round"] == alarm["round"]
    on = table.wait_event("device", lambda d: d["status"] == "online" and d["device"] == "shoe",
                          after=off["seq"])
    assert on["data"]["detail"] == "SIMSHOE 1.0"
    # back, and its hello's count matched what arrived (docs/protocols.md, "Reliability"): now resumable
    table.wait_event("prompt", lambda d: "every card it read arrived: the pit may resume" in d["text"],
                     after=on["seq"])
    reply = command(table, "resume", {"id": "r1"})
    assert reply["ok"] is True and reply["data"] == {"state": "dealing", "round": alarm["round"]}
    table.dealer.misbehave.skip_void = False
    resume = table.wait_event("resume", after=on["seq"])
    assert resume["data"] == {"round": alarm["round"], "by": "pit", "burned": []}
    back = table.wait_event("transition", lambda d: d["from"] == "fault", after=on["seq"])
    assert back["data"] == {"from": "fault", "to": "dealing", "trigger": "resumed"}
    # the same round is dealt to its result, and the table deals on
    result = table.wait_event("result", after=back["seq"])
    assert result["round"] == alarm["round"]
    table.wait_event("result", after=result["seq"])
    # the driver reopened the line: at least one failed attempt while unplugged, then success
    stats = table.controller.table.drivers["shoe"].stats
    assert stats["opens"] == 2 and stats["open_failures"] >= 1
    # every card the shoe read reached the pit exactly once
    assert len(table.rig.shoe.read) == len(table.rig.shoe.drawn)


def test_silent_shoe_heartbeat_lost_faults_the_round_then_comes_back(make):
    table = make(seed=35, rig={"faults": ["heartbeat@round:2+2.5s"], "heartbeat": 0.25},
                 devices={"heartbeat_timeout": 1.0}).start()
    off = table.wait_event("device", lambda d: d["status"] == "offline" and d["device"] == "shoe")
    assert off["data"] == {"device": "shoe", "status": "offline", "code": "heartbeat_lost",
                           "detail": "heartbeat_lost"}
    alarm = table.wait_event("alarm", lambda d: d["code"] == "shoe_heartbeat_lost")
    check_alarm(alarm, "shoe_heartbeat_lost", "check the shoe's cable and power", "resume")
    assert "lost its link (heartbeat_lost)" in alarm["data"]["message"]
    fault = table.wait_event("transition", lambda d: d["to"] == "fault")
    assert fault["data"]["from"] == "dealing" and fault["round"] == alarm["round"]
    void = table.wait_event("void", after=fault["seq"])       # the dealer's void button
    assert void["data"]["by"] == "dealer" and void["round"] == alarm["round"]
    on = table.wait_event("device", lambda d: d["status"] == "online" and d["device"] == "shoe",
                          after=off["seq"])
    # the dealer waited for the shoe, and the next round is dealt from it
    result = table.wait_event("result", after=on["seq"])
    assert result["round"] > alarm["round"]
    assert len(table.rig.shoe.read) == len(table.rig.shoe.drawn)


def test_reconnection_backs_off_exponentially_with_jitter(monkeypatch):
    """drivers.link reopens a failed port at once, then after 0.05, 0.1, 0.2 ... 2 s, each +-25 %.

    The backoffs it asks for are recorded (its pause and its random draws), so that the doubling, the
    cap and the jitter are checked exactly; the clock only shows that each pause was waited out. A
    bound above on the clock would measure the machine: on two busy cores a thread woke 70 ms late."""
    attempts: list[float] = []
    asked: list[float] = []
    enough = threading.Event()

    class Draws(random.Random):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.ranges: list[tuple[float, float]] = []
            self.factors: list[float] = []

        def uniform(self, a: float, b: float) -> float:
            self.ranges.append((a, b))
            self.factors.append(super().uniform(a, b))
            return self.factors[-1]

    pause = Link._pause

    def spied(self, delay: float) -> None:
        asked.append(delay)
        pause(self, delay)

    monkeypatch.setattr(Link, "_pause", spied)

    def opener():
        attempts.append(time.monotonic())
        if len(attempts) >= 8:
            enough.set()
        raise OSError("no such device")

    draws = Draws(5)
    link = Link(opener, on_frame=lambda f: None, backoff=(0.01, 0.16), rng=draws)
    link.start()
    try:
        assert enough.wait(5)
    finally:
        link.stop()
    nominal = [0.01, 0.02, 0.04, 0.08, 0.16, 0.16, 0.16]
    assert asked[:7] == nominal and set(draws.ranges) == {(0.75, 1.25)}
    gaps = [b - a for a, b in itertools.pairwise(attempts)][:7]
    for gap, base, f in zip(gaps, nominal, draws.factors, strict=False):
        assert gap >= base * f - 0.002, (gaps, nominal, draws.factors)   # waited out (timer grain)
    # jittered: the capped pauses are not all the same
    assert len({round(base * f, 6) for base, f in zip(nominal[4:], draws.factors[4:7], strict=True)}) > 1


# --- a megabyte of noise on the shoe's line --------------------------------------------------

MB = 1 << 20
NOISE_SEED = 20240601
"""Seeded: the same megabyte every run.

Can random bytes invent a frame? The decoder accepts a frame only when an
STX (p = 1/256) is followed by a length of at most 2048 (2049/65536), and
then by a CRC-16 that matches (1/65536) and an ETX (1/256): about
2^-8 * 2^-5 * 2^-16 * 2^-8 = 2^-37 per byte, so about 2^-17 (7.6e-6) for a
megabyte -- and such a frame would be refused as a bad message, not taken
as a card. To invent a *card* it must also have type C (1/256), a length
of 2 (2/65536 with 3) and a payload that is one of the 49 two-letter card
codes (49/65536) or the four three-letter ones: about 49 * 2^-72 per byte,
~1e-14 per megabyte, and then the ledger still refuses a card the shoe
cannot hold. The CRC is what makes this negligible; a shorter check would
not. With this seed the test shows that no frame at all was invented."""


def _pit_cards(table: SimTable) -> list[str | None]:
    """The cards the pit saw dealt, in dealing order: face-up cards and the
    face-down ones as their reveal named them (None while not revealed)."""
    events = sorted({e["seq"]: e for e in table.events()}.values(), key=lambda e: e["seq"])
    dealt: list[str | None] = []
    hidden: dict[tuple, int] = {}
    for e in events:
        d = e["data"]
        if e["kind"] == "card":
            if d["face"] == "up":
                dealt.append(d["card"])
            else:
                hidden[(e["round"], d["hand"], d["position"])] = len(dealt)
                dealt.append(None)
        elif e["kind"] == "reveal":
            dealt[hidden.pop((e["round"], d["hand"], d["position"]))] = d["card"]
    return dealt


def test_a_megabyte_of_noise_on_the_shoe_line_loses_and_invents_no_card(make):
    table = make(seed=36).start()
    shoe = table.rig.shoe
    table.wait_event("card")                             # dealing has begun
    rng = random.Random(NOISE_SEED)
    sent = chunks = spliced = 0
    drawn_before = len(shoe.drawn)
    while sent < MB:
        data = rng.randbytes(min(rng.randint(1, 16384), MB - sent))
        if chunks % 2:
            # inside the next frame the shoe writes: a card, an ACK or a heartbeat
            shoe.inject("splice", data=data)
            deadline = time.monotonic() + 5
            while shoe.splice_pending and time.monotonic() < deadline:
                time.sleep(0.001)
            assert not shoe.splice_pending, "the shoe wrote no frame for 5 s"
            assert shoe.idle(10), "the damaged frame was never acknowledged"
            spliced += 1
        else:
            shoe.inject("garbage", data=data)            # between frames
        sent += len(data)
        chunks += 1
    assert sent == MB and spliced >= 20
    assert len(shoe.drawn) - drawn_before >= 20          # the dealer kept dealing through the noise
    # the controller is up and deals on after the noise
    quiet = max(e["seq"] for e in table.events())
    table.wait_for(lambda ev: [e for e in ev if e["kind"] == "result" and e["seq"] > quiet][2:],
                   what="3 more results")
    health = table.controller.table.health()
    assert health.running and table.controller.table.error is None
    # stop at a settle prompt: every card drawn so far is face up or revealed
    settled = table.dealer.hold_at("settle")
    assert settled.wait(30)
    assert shoe.idle(10) and shoe.lost == []             # the shoe gave no frame up
    drawn = [c.face.code for c in shoe.drawn]
    assert [c.code for c in shoe.read] == drawn           # no fault: every card drawn was read
    table.wait_for(lambda ev: len(_pit_cards(table)) >= len(drawn), what="every card at the pit")
    # every card the shoe dealt reached the pit exactly once, in order; none was invented
    assert _pit_cards(table) == drawn
    assert len(drawn) > 40
    # the noise was reported, by reason, and did nothing else
    errors = [e["data"] for e in table.events("line_errors")]
    assert errors and {d["device"] for d in errors} == {"shoe"}
    dropped = {k: sum(d["dropped"].get(k, 0) for d in errors) for k in ("noise", "bad_length", "bad_crc", "bad_etx")}
    print(f"noise: {chunks} chunks ({spliced} inside frames), {len(drawn)} cards, {len(errors)} line_errors "
          f"events, dropped {dropped}, {len(shoe.drawn) - drawn_before} cards drawn during the noise")
    assert dropped["noise"] > MB // 2, dropped
    assert dropped["bad_crc"] + dropped["bad_etx"] >= spliced // 2, dropped
    assert not table.events("alarm")
    assert not [e for e in table.events("device") if e["data"]["status"] != "online"]
    assert not [e for e in table.events("transition") if e["data"]["to"] == "fault"]
    for e in table.events():
        validate_event(e, game="baccarat")


# --- tablectl sim --fault -------------------------------------------------------------------

def _cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_tablectl_sim_rejects_a_bad_fault_spec():
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "sim", "--config",
                           str(SIM_CONFIG_DIR / "baccarat-sim.toml"), "--fault", "jam@lunch"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "argument --fault: fault spec 'jam@lunch': unknown moment 'lunch'" in proc.stderr


def test_tablectl_sim_injects_faults_by_name(broker, tmp_path):
    """`tablectl sim --fault` in one process, `tablectl run` in another: the pit sees the faults."""
    text = (SIM_CONFIG_DIR / "baccarat-sim.toml").read_text()
    text = text.replace("port = 1883", f"port = {broker.port}")
    text = text.replace("/tmp/tablectl-sim/bac-sim-01", str(tmp_path / "dev"))
    text = text.replace('path = "var/bac-sim-01.db"', f'path = "{tmp_path / "journal.db"}"')
    config = tmp_path / "table.toml"
    config.write_text(text)
    alarms = Subscriber(broker.host, broker.port, "casino/bac-sim-01/event/+")
    sim = _cli("sim", "--config", str(config), "--pace", "fast", "--fault", "jam@shuffle", "--fault", "misread@card:3")
    run = None
    try:
        assert sim.stdout.readline().startswith("tablectl sim: shoe at")
        assert sim.stdout.readline() == "tablectl sim: faults jam@shuffle, misread@card:3\n"
        run = _cli("run", "--config", str(config))
        seen = []
        void = alarms.wait_for(lambda m: seen.append(m.json()) or m.json()["kind"] == "void", timeout=30).json()
        codes = [e["data"]["code"] for e in seen if e["kind"] == "alarm"]
        assert codes == ["shuffler_jam", "shoe_misread"]
        assert void["data"]["by"] == "dealer"             # the dealer's void, sent as cmd/button
        alarms.wait_for(lambda m: m.json()["kind"] == "result", timeout=30)
    finally:
        for proc in (run, sim):                          # the controller first: the sim's devices go last
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
        alarms.close()
    assert sim.returncode == 0
