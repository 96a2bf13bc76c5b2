"""Store and forward at the table: the outbox cap and its hold, reconnects when
the broker forgot everything, cmd/rebirth, and what a restart voids.

The table is driven through its inbox as the drivers would drive it. While
the broker is away the witnesses are the table's local listener (what the
dealer's display shows) and the journal file; once it is back, the pit.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mqtt_support import WAIT, RunningBroker, Subscriber

from controller.table.config import ConfigError, parse_config
from controller.table.inbox import Inbox
from controller.table.journal import Event, Journal
from controller.table.loop import HOLD_REASON, Table
from controller.table.publisher import Publisher
from drivers.events import ButtonPressed, CardDrawn, DeckVerified, FramesDropped, ShuffleComplete
from games.cards import card, cards
from games.decks import standard

TABLE = "sf-01"
TOPIC = f"casino/{TABLE}"

CONFIG = """
[table]
id = "sf-01"
game = "baccarat"
autostart = true

[mqtt]
host = "127.0.0.1"
port = {port}
keepalive = 10
reconnect_max_delay = 0.5

[journal]
path = "{journal}"
{journal_extra}

[devices.shoe]
kind = "card_shoe"
url = "socket://127.0.0.1:9"

[devices.shuffler]
kind = "shuffler"
url = "socket://127.0.0.1:9"

[dealer]
remote_buttons = true
"""


class Local:
    """A table and what its local listener saw (every journaled event, broker or not)."""

    def __init__(self, broker: RunningBroker, path: Path, journal_extra: str = "") -> None:
        self.config = parse_config(CONFIG.format(port=broker.port, journal=path, journal_extra=journal_extra),
                                   "sf.toml")
        self.inbox = Inbox()
        self.journal_path = path
        self.table = Table(self.config, inbox=self.inbox, journal=Journal(path, TABLE),
                           publisher=Publisher(self.config.mqtt, TABLE, self.inbox, game="baccarat"))
        self.events: list[Event] = []
        self.cond = threading.Condition()
        self.table.listeners.append(self._seen)
        self.table.start().wait_ready(WAIT)
        self.stopped = False

    def _seen(self, event: Event) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def put(self, *items: object) -> None:
        for item in items:
            self.inbox.put(item)

    def wait(self, kind: str, where: Callable[[dict], bool] = lambda d: True, after: int = 0,
             timeout: float = WAIT) -> Event:
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                found = next((e for e in self.events if e.kind == kind and e.seq > after and where(e.data)), None)
                if found is not None:
                    return found
                left = end - time.monotonic()
                assert left > 0, f"no {kind} event after seq {after}; last: {[e.kind for e in self.events[-10:]]}"
                self.cond.wait(left)

    def of(self, kind: str) -> list[Event]:
        with self.cond:
            return [e for e in self.events if e.kind == kind]

    def until(self, predicate: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """For state only the table thread changes (no event to wait on): a test-only poll."""
        end = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < end, f"timed out waiting for {what}"
            time.sleep(0.02)

    def load_shoe(self) -> Event:
        self.wait("prompt", lambda d: d["expect"] == "deck_check")
        self.put(DeckVerified("shuffler", tuple(standard(8).all_cards()), 0),
                 ShuffleComplete("shuffler", standard(8).size),
                 ButtonPressed("buttons", "shuffle_ack"))
        return self.wait("prompt", lambda d: d["expect"] == "bets")

    def rows(self) -> list[tuple[int, int]]:
        with sqlite3.connect(self.journal_path) as db:
            return db.execute("SELECT seq, delivered FROM events ORDER BY seq").fetchall()

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.table.stop()


@pytest.fixture
def local(broker: RunningBroker, tmp_path: Path) -> Iterator[Callable[..., Local]]:
    made: list[Local] = []

    def make(journal_extra: str = "", name: str = "journal.db") -> Local:
        table = Local(broker, tmp_path / name, journal_extra)
        made.append(table)
        return table

    yield make
    for table in made:
        table.stop()


def test_the_outbox_cap_holds_new_rounds_and_drops_nothing(local, broker: RunningBroker, subscriber) -> None:
    t = local("max_undelivered = 100\nwarn_at = 0.5")
    bets = t.load_shoe()
    t.until(lambda: t.table.journal.undelivered_count == 0, "the broker to acknowledge the shoe's loading")
    broker.stop()
    t.until(lambda: not t.table.health().mqtt_connected, "the table to see the broker gone")
    # The round in progress is dealt and settled while the outbox fills.
    t.put(ButtonPressed("buttons", "deal"), *(CardDrawn("shoe", c) for c in cards("2H 3D 4S 5C")))
    t.wait("result")
    t.put(ButtonPressed("buttons", "deal"))  # settle: bets open for round 2
    t.wait("round_start", lambda d: d["round"] == 2)
    t.put(*(FramesDropped("shoe", {"noise": 1}) for _ in range(80)))  # device chatter fills it on
    full = t.wait("alarm", lambda d: d["code"] == "outbox_full")
    assert full.data["severity"] == "critical" and "nothing is dropped" in full.data["message"]
    filling = t.of("alarm")[0]
    assert (filling.data["code"], filling.data["severity"]) == ("outbox_filling", "warning")
    assert filling.seq < full.seq and t.table.health().undelivered >= 100
    # At the cap the deal of a new round is refused; nothing else is.
    t.put(ButtonPressed("buttons", "deal"))
    refused = t.wait("button", lambda d: d["accepted"] is False, after=full.seq)
    assert refused.data["reason"] == HOLD_REASON
    t.put(*(FramesDropped("shoe", {"noise": 1}) for _ in range(20)))  # still over: no second alarm
    t.wait("line_errors", after=refused.seq + 19)
    assert [a.data["code"] for a in t.of("alarm")] == ["outbox_filling", "outbox_full"]
    assert t.table.machine.state == "betting"

    broker.start()  # the backlog drains; under the warning level the hold lifts and the prompt comes again
    again = t.wait("prompt", lambda d: d["expect"] == "bets", after=refused.seq, timeout=WAIT)
    assert again.data == bets.data | {"text": again.data["text"]} and again.round == 2
    t.put(ButtonPressed("buttons", "deal"))
    assert t.wait("button", after=again.seq).data == {"button": "deal", "accepted": True, "reason": None}
    t.wait("transition", lambda d: d["to"] == "dealing", after=again.seq)
    t.until(lambda: t.table.journal.undelivered_count == 0, "the backlog to drain")
    rows = t.rows()
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)) and all(d for _, d in rows)
    state = subscriber(f"{TOPIC}/state").get().json()  # retained, republished after the reconnect
    assert state["outbox"]["held"] is False and state["outbox"]["max_undelivered"] == 100
    assert [a.data["code"] for a in t.of("alarm")] == ["outbox_filling", "outbox_full"]  # no flapping


def test_events_paho_held_reach_a_broker_that_forgot_the_session(local, broker: RunningBroker) -> None:
    """The broker freezes with PUBLISHes unacknowledged, dies and a new one (no
    persistence) comes up: paho resends what it held, the journal the rest."""
    t = local()
    t.load_shoe()
    t.until(lambda: t.table.journal.undelivered_count == 0, "the shoe's loading acknowledged")
    broker.pause()
    t.put(ButtonPressed("buttons", "deal"), CardDrawn("shoe", card("2H")))
    t.wait("card")
    t.until(lambda: len(t.table.publisher.in_flight()) > 0, "events in flight to the frozen broker")
    held = t.table.publisher.in_flight()
    assert proc_kill(broker)
    t.until(lambda: not t.table.health().mqtt_connected, "the table to see the broker gone")
    t.put(*(CardDrawn("shoe", c) for c in cards("3D 4S 5C")))  # journaled only
    t.wait("result")
    broker.start()
    t.until(lambda: t.table.journal.undelivered_count == 0, "every event acknowledged by the new broker")
    assert held and all(d for _, d in t.rows())


def proc_kill(broker: RunningBroker) -> bool:
    """SIGKILL the broker: no goodbye, nothing saved."""
    assert broker.proc is not None
    broker.proc.kill()
    broker.proc.wait(5)
    broker.proc = None
    return True


def test_rebirth_republishes_status_and_state(local, subscriber) -> None:
    t = local()
    t.load_shoe()
    t.until(lambda: t.table.journal.undelivered_count == 0, "everything acknowledged")
    pit: Subscriber = subscriber(f"{TOPIC}/#")
    retained = {m.topic for m in (pit.get(), pit.get())}
    assert retained == {f"{TOPIC}/status", f"{TOPIC}/state"}
    pit.publish(f"{TOPIC}/cmd/rebirth", {"id": "rb-1"})
    reply = pit.wait_topic("/cmd/rebirth/reply").json()
    assert reply["ok"] and reply["data"]["birth"] == 1 and reply["data"]["undelivered"] >= 0
    status = pit.wait_for(lambda m: m.topic == f"{TOPIC}/status" and not m.retain).json()
    state = pit.wait_for(lambda m: m.topic == f"{TOPIC}/state" and not m.retain).json()
    assert status["online"] and status["birth"] == 1 and status["next_seq"] >= 1
    assert state["state"] == "betting" and state["outbox"]["held"] is False


def test_a_restart_voids_an_unfinished_round_and_only_that(local) -> None:
    first = local()
    first.load_shoe()
    first.put(ButtonPressed("buttons", "deal"), *(CardDrawn("shoe", c) for c in cards("2H 3D 4S 5C")))
    first.wait("result")
    first.stop()  # round 1 is decided: a restart leaves it alone

    second = local()
    second.wait("prompt", lambda d: d["expect"] == "deck_check")
    assert not second.of("void")
    second.load_shoe()
    assert second.wait("round_start").data["round"] == 2
    second.stop()  # round 2 took bets and was never dealt: voided by the next start

    third = local()
    void = third.wait("void")
    assert void.data == {"round": 2, "by": "controller",
                         "reason": "the controller restarted during round 2 (state betting)"}
    assert void.seq == second.events[-1].seq + 1  # no seq reused or skipped
    transition = third.wait("transition")
    assert (transition.data["from"], transition.data["to"]) == ("closed", "deck_check")  # a fresh deck check


def test_outbox_settings_are_checked() -> None:
    base = ('[table]\nid = "a"\ngame = "baccarat"\n[devices.shoe]\nkind = "card_shoe"\nurl = "x"\n[devices.shuffler]\nkind = "shuffler"\nurl = "y"\n')
    config = parse_config(base)
    assert (config.journal.max_undelivered, config.journal.warn_at, config.mqtt.reconnect_max_delay) == (
        100_000, 0.8, 5.0)
    with pytest.raises(ConfigError) as err:
        parse_config(base + "[journal]\nmax_undelivered = 10\nwarn_at = 1\n[mqtt]\nreconnect_max_delay = 0\n")
    assert err.value.problems == [
        "journal.max_undelivered: events the outbox may hold unacknowledged: 100 to 10000000 (got 10)",
        "journal.warn_at: a fraction of journal.max_undelivered, above 0 and below 1 (0.8 = at 80 %) (got 1)",
        "mqtt.reconnect_max_delay: seconds between reconnect attempts at most, above 0 and at most 300 (got 0)",
    ]
