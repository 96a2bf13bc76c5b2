"""The outcome monitor in the table loop, as the pit sees it on a real broker (issue 25.1): the
retained ``<prefix>/<table>/integrity`` topic, the counts in the journal across a restart, the
outcome_bias alarm, ``cmd/integrity_reset`` and its refusals. The game is Dice High
(tests/dice_game.py), whose outcome (high, low, seven) and total are counted; device events go
on the inbox as the drivers put them."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from dice_game import GAME, SPEC
from dice_table import Harness
from mqtt_support import RunningBroker, Subscriber
from scipy.stats import chisquare

from controller.shared.schemas import validate_event
from controller.table.outcome_stats import MIN_ROUNDS
from drivers.events import DeckVerified, ShuffleComplete
from games import registry

TABLE = "dh-02"
TOPIC = f"casino/{TABLE}"
@pytest.fixture
def dice_high() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def make(dice_high, broker: RunningBroker, subscriber: Callable[..., Subscriber],
         tmp_path: Path) -> Iterator[Callable[[], Harness]]:
    made: list[Harness] = []

    def build() -> Harness:
        h = Harness(TABLE, broker.port, tmp_path / "journal.db", subscriber(f"{TOPIC}/#"))
        made.append(h)
        return h
    yield build
    for h in made:
        h.stop()


def classes(payload: dict, wager: str) -> dict[str, int]:
    return {c["name"]: c["count"] for c in payload["outcomes"][wager]["classes"]}


def test_results_are_counted_published_retained_and_outlive_a_restart(make, tmp_path: Path) -> None:
    h = make()
    first = h.integrity()    # published with the birth: nothing counted yet
    assert first["outcomes"]["outcome"]["rounds"] == 0 and first["shuffle"] is None
    assert first["min_rounds"] == MIN_ROUNDS and first["p_bias"] == 0.0001
    h.open()
    h.throw(6, 6)
    h.throw(3, 4)
    h.throw(1, 2)
    payload = h.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == 3)
    assert classes(payload, "outcome") == {"high": 1, "low": 1, "seven": 1}
    assert classes(payload, "total")["12"] == 1 and classes(payload, "total")["3"] == 1
    seven = next(c for c in payload["outcomes"]["outcome"]["classes"] if c["name"] == "seven")
    assert seven == {"name": "seven", "count": 1, "expected": 0.5, "probability": 1 / 6}
    h.stop()
    with sqlite3.connect(tmp_path / "journal.db") as db:
        saved = json.loads(db.execute("SELECT value FROM meta WHERE key = 'integrity'").fetchone()[0])
    assert saved["outcomes"]["outcome"]["counts"] == {"high": 1, "low": 1, "seven": 1}
    again = make()
    restored = again.integrity(lambda p: p["ts"] > payload["ts"])
    assert restored["outcomes"] == payload["outcomes"], "the counts came back from the journal"
    # reopening the table (its deck check) is no deck change: the counts go on
    again.open()
    again.throw(5, 5)
    assert again.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == 4)
    late = Subscriber(again.pit.host, again.pit.port, f"{TOPIC}/integrity")
    try:
        message = late.get()
        assert message.retain and message.json()["outcomes"]["outcome"]["rounds"] == 4
    finally:
        late.close()


def test_too_many_sevens_raise_outcome_bias_once_and_the_pit_resets_the_counts(make) -> None:
    """Sevens a third of the time (1/6 expected): by the 200th round the chi-square of the outcome
    rejects the exact odds; the alarm names the outcome and the seven, once."""
    h = make()
    h.integrity()
    h.open()
    for n in range(1, MIN_ROUNDS // 6 + 2):   # 6 rounds each: 2 high, 2 low, 2 sevens
        for values in ((6, 6), (3, 4), (1, 1), (2, 5), (5, 6), (1, 2)):
            h.throw(*values)
        if n % 5 == 0:
            h.integrity(lambda p, n=n: p["outcomes"]["outcome"]["rounds"] == 6 * n)   # the pit keeps up
    rounds = 6 * (MIN_ROUNDS // 6 + 1)
    alarm = h.alarm("outcome_bias")
    assert alarm["severity"] == "warning"
    assert alarm["message"].startswith(f"outcome: 'seven' came 67 times in {MIN_ROUNDS} rounds")  # 33 x 2 + 1
    assert "cmd/integrity_reset" in alarm["action"]
    payload = h.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == rounds)
    outcome = payload["outcomes"]["outcome"]
    assert outcome["flagged"] == ["seven"]
    ref = chisquare([rounds // 3] * 3, [rounds * 15 / 36, rounds * 15 / 36, rounds / 6])
    assert outcome["chi_square"] == pytest.approx(ref.statistic, abs=1e-4)
    assert outcome["p_value"] == pytest.approx(ref.pvalue)
    h.pit.drain()
    biases = [m.json()["data"]["message"] for m in h.pit.seen
              if m.topic.endswith("/event/alarm") and m.json()["data"]["code"] == "outcome_bias"]
    assert len([b for b in biases if b.startswith("outcome:")]) == 1, "once per class until the counts are reset"
    # the totals are as far off (2 and 12 a sixth of the time each, 1/36 expected): named apart
    assert {b.split(":")[0] for b in biases} == {"outcome", "total"}, biases
    reply = h.command("integrity_reset", {"id": "r1", "wager": "outcome"})
    assert reply["ok"] and reply["data"]["wager"] == "outcome" and reply["data"]["discarded"] == rounds
    fresh = h.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == 0)
    assert fresh["outcomes"]["outcome"]["flagged"] == [] and fresh["outcomes"]["total"]["rounds"] == rounds
    every = h.command("integrity_reset", {"id": "r2"})
    assert every["ok"] and every["data"] == {"state": "betting", "round": rounds + 1, "wager": None,
                                             "discarded": rounds}
    refused = h.command("integrity_reset", {"id": "r3", "wager": "roulette"})
    assert not refused["ok"]
    assert refused["error"] == "refused: wager: no such counted wager; the table's are outcome, total"
    bad = h.command("integrity_reset", {"id": "r4", "wager": 7})
    assert not bad["ok"] and bad["error"].startswith("bad integrity_reset command: wager")
    extra = h.command("integrity_reset", {"id": "r5", "cup": "cup"})
    assert not extra["ok"] and extra["error"].startswith("bad integrity_reset command")
    # the audit trail (`tablectl report --only integrity`) says what each reset set aside; a refusal, nothing
    said = {m.json()["data"]["id"]: m.json()["data"] for m in h.pit.seen if m.topic.endswith("/event/command")}
    assert said["r1"]["reset"] == {"wager": "outcome", "discarded": rounds}
    assert said["r2"]["reset"] == {"wager": None, "discarded": rounds}
    assert "reset" not in said["r3"] and "reset" not in said["r5"]
    for data in said.values():
        validate_event({"seq": 1, "ts": 1.0, "table": "t", "round": None, "kind": "command", "data": data})


def test_a_table_whose_game_counts_nothing_refuses_the_reset_and_publishes_no_integrity(
        broker: RunningBroker, subscriber: Callable[..., Subscriber], tmp_path: Path) -> None:
    """A game with no outcome classes (the poker room banks no wager): no counts, no topic."""
    registry.register(dataclasses.replace(GAME, outcome_classes=None))
    h = Harness(TABLE, broker.port, tmp_path / "journal.db", subscriber(f"{TOPIC}/#"))
    try:
        h.pit.wait_topic("/dice")   # the table is up: published with the birth
        h.open()
        h.throw(6, 6)
        reply = h.command("integrity_reset", {"id": "i1"})
        assert not reply["ok"] and reply["error"] == "refused: this table's game has no outcome counts to reset"
        h.pit.wait_for(lambda m: m.topic == f"{TOPIC}/event/result")
        h.pit.drain()
        assert not [m for m in h.pit.seen if m.topic.endswith("/integrity")], "no integrity topic"
    finally:
        h.stop()
        registry.unregister(GAME.name)


def test_a_deck_change_starts_the_counts_afresh_and_a_reopening_does_not(make) -> None:
    """Closing and opening again (its deck check) keeps the counts; a shuffle that counts the wrong
    number of cards sends the open table back to its deck check, and the check that then passes is
    a deck change (the cards may be others): the counts start afresh."""
    h = make()
    h.integrity()
    h.open()
    h.throw(6, 6)
    h.throw(1, 2)
    h.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == 2)
    assert h.command("close", {"id": "c1"})["ok"]
    h.open("o1")                  # closed -> deck_check -> shuffle -> betting: no deck change
    h.throw(3, 4)
    h.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == 3)
    assert h.command("close", {"id": "c2"})["ok"]
    assert h.command("open", {"id": "o2"})["ok"]
    h.inbox.put(DeckVerified("shuffler", SPEC.all_cards(), 0))
    h.inbox.put(ShuffleComplete("shuffler", SPEC.size - 1))      # a card short: back to the deck check
    h.alarm("shuffle_count")
    h.inbox.put(DeckVerified("shuffler", SPEC.all_cards(), 0))   # the deck proved again: a deck change
    fresh = h.integrity(lambda p: p["outcomes"]["outcome"]["rounds"] == 0)
    assert fresh["outcomes"]["total"]["rounds"] == 0
