"""Shuffle integrity end to end (issue 25.2): a simulated baccarat table on a real Mosquitto whose
shuffler goes wrong by name (hw_sim.faults: ``weak_shuffle``, ``cut_only``, ``stacked_shoe``), and
what a pit subscriber receives: a ``shuffle_suspect`` warning naming the shoe, and the retained
``integrity`` topic's ``shuffle`` figures, which appear only once a shoe's last card was dealt.

Seeded runs; how many shoes each took is printed (run with ``-s``) and written in
docs/operations.md, "Shuffle integrity". Each shoe is 416 cards, so the runs are marked slow.
"""

from __future__ import annotations

import pytest

WAIT = 240.0


def _shoes_to_warning(table) -> tuple[dict, int]:
    """Wait for the first ``shuffle_suspect``; it and the shuffles (shoes begun) before it."""
    alarm = table.wait_event("alarm", lambda d: d.get("code") == "shuffle_suspect", timeout=WAIT)
    shuffles = [e for e in table.events("shuffle") if e["seq"] < alarm["seq"]]
    return alarm, len(shuffles)


def _integrity(table) -> list[dict]:
    with table.cond:
        return [p for t, p in table.messages if t == f"{table.base}/integrity"]


@pytest.mark.slow
@pytest.mark.parametrize("fault, seed", [("shuffler.weak_shuffle@shuffle:2", 3), ("shuffler.cut_only@shuffle:2", 4),
                                         ("shuffler.stacked_shoe@shuffle:2", 5)])
def test_a_shuffle_that_keeps_the_last_deals_order_is_named(table_factory, fault: str, seed: int) -> None:
    """The fault spoils the 2nd shuffle (and, weak or cut only, every one after it): the 2nd shoe is
    the first that can show it, compared with the 1st when its last card has been dealt."""
    table = table_factory(seed=seed, rig={"faults": [fault]}, pass_probability=0.0).start()
    alarm, shuffles = _shoes_to_warning(table)
    data = alarm["data"]
    assert data["severity"] == "warning"
    assert "repeats the order of the deal before it" in data["message"] and "shoe of rounds" in data["message"]
    faulty = shuffles - 2   # the 1st shoe is the reference; the 2nd is the first faulty one
    print(f"\n{fault} (seed {seed}): shuffle_suspect after {faulty} faulty shoe(s) "
          f"({shuffles} shuffles, round {alarm['round']}): {data['message']}")
    figures = table.wait_for(lambda _e: next((m for m in _integrity(table) if m["shuffle"]["shoes"]), None),
                             what="the integrity topic's shuffle figures")
    shoe = figures["shuffle"]["shoes"][-1]
    assert shoe["suspect"] and shoe["p_value"] < figures["shuffle"]["p_suspect"]
    assert shoe["observed"] > shoe["expected"]


@pytest.mark.slow
def test_no_shuffle_figure_before_the_shoes_last_card(table_factory) -> None:
    """A fair table: until the shoe after the 2nd shuffle... no: until the 2nd shuffle, which follows
    the 1st shoe's last card, nothing of the shuffle is published but an empty summary; the first
    figures come after the 3rd shuffle (the 2nd shoe compared with the 1st), and every card of the
    shoes they describe was dealt before them."""
    table = table_factory(seed=7, pass_probability=0.0).start()
    table.wait_for(lambda events: len([e for e in events if e["kind"] == "shuffle"]) >= 3, timeout=WAIT,
                   what="three shuffles")
    table.dealer.paused.set()
    figures = table.wait_for(lambda _e: next((m for m in _integrity(table) if m["shuffle"]["shoes"]), None),
                             what="the first shuffle figures")
    messages, events = table.received()
    shuffles = [e for e in events if e["kind"] == "shuffle"]
    published = [i for i, (t, m) in enumerate(messages) if t == f"{table.base}/integrity" and m["shuffle"]["shoes"]]
    first = published[0]
    # Every card event before the first figures was of shoes already over: the 3rd shuffle
    # came before them, and no card of the 3rd shoe had been dealt when they were published.
    before = [m for t, m in messages[:first] if "/event/" in t]
    assert shuffles[2]["seq"] <= max(e["seq"] for e in before)
    cards_after_third = [e for e in before if e["kind"] == "card" and e["seq"] > shuffles[2]["seq"]]
    assert cards_after_third == []
    assert figures["shuffle"]["shoes"][0]["shoe"] == 1
    assert not figures["shuffle"]["shoes"][0]["suspect"]
    assert not [e for e in events if e["kind"] == "alarm" and e["data"]["code"] == "shuffle_suspect"]
