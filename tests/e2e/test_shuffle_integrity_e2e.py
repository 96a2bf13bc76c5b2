"""Shuffle integrity end to end (issue 25.2): a simulated baccarat table on a real Mosquitto whose
shuffler goes wrong by name (hw_sim.faults: ``weak_shuffle``, ``cut_only``, ``stacked_shoe``), and
what a pit subscriber receives: a ``shuffle_suspect`` warning naming the shoe, and the retained
``integrity`` topic's ``shuffle`` figures, which appear only once a shoe's last card was dealt.

Seeded runs; how many shoes each took is printed (run with ``-s``) and written in
docs/operations.md, "Shuffle integrity". Each shoe is 416 cards, so the runs are marked slow.
"""

from __future__ import annotations

import pytest

from controller.shared.schemas import validate

WAIT = 240.0


def _shoes_to_warning(table) -> tuple[dict, int]:
    """Wait for the first ``shuffle_suspect``; it and the shuffles (shoes begun) before it."""
    alarm = table.wait_event("alarm", lambda d: d.get("code") == "shuffle_suspect", timeout=WAIT)
    shuffles = [e for e in table.events("shuffle") if e["seq"] < alarm["seq"]]
    return alarm, len(shuffles)


def _integrity(table) -> list[dict]:
    """The integrity topic's messages so far, each valid against its schema (docs/schemas/integrity.json)."""
    with table.cond:
        found = [p for t, p in table.messages if t == f"{table.base}/integrity"]
    for message in found:
        validate("integrity", message)
    return found


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
    figures = table.wait_for(lambda _e: next((m["shuffle"] for m in _integrity(table)
                                              if any(s["suspect"] for s in m["shuffle"]["shoes"])), None),
                             what="the integrity topic's figures of the suspect shoe")
    validate("integrity_shuffle", figures)
    shoe = next(s for s in figures["shoes"] if s["suspect"])
    assert shoe["p_value"] < figures["p_suspect"] and shoe["observed"] > shoe["expected"] + 3 * shoe["variance"] ** 0.5
    assert f"rounds {shoe['rounds'][0]}-{shoe['rounds'][1]}" in data["message"]


@pytest.mark.slow
def test_a_hand_forming_shuffler_that_only_cuts_is_named_by_the_run(table_factory) -> None:
    """Three Card Poker from a hand-forming shuffler: every round is a deal of its own (12 cards of
    52, a folded hand collected unseen is a gap), far too small to test alone; the run of them names
    a shuffler that only cuts."""
    table = table_factory(game="three_card_poker", seed=6, rig={"faults": ["shuffler.cut_only@shuffle:2"]},
                          pass_probability=0.0).start()
    alarm, shuffles = _shoes_to_warning(table)
    assert "deals compared since the counts began, together, repeat the order of the deals" in alarm["data"]["message"]
    print(f"\nthree_card_poker cut_only@shuffle:2 (seed 6): shuffle_suspect after {shuffles - 2} faulty deals "
          f"(round {alarm['round']}): {alarm['data']['message']}")
    figures = table.wait_for(lambda _e: next((m["shuffle"] for m in _integrity(table) if m["shuffle"]["run"]["suspect"]),
                                             None), what="the run's figures")
    validate("integrity_shuffle", figures)
    assert all(not s["tested"] for s in figures["shoes"])
    assert any(s["public"] < s["dealt"] for s in figures["shoes"])   # folded hands: gaps


@pytest.mark.slow
def test_no_shuffle_figure_before_the_shoes_last_card(table_factory) -> None:
    """A fair table, as the pit receives it: the integrity topic names no shoe until the 3rd shuffle
    (the 2nd shoe compared with the 1st), which comes after the 2nd shoe's last card; the figures
    then go out right behind that shuffle, before any card of the 3rd shoe, and they describe
    rounds that are over. A fair shoe raises no warning."""
    table = table_factory(seed=7, pass_probability=0.0).start()
    def third_shoe_begun(events: list[dict]) -> bool:
        third = _nth_shuffle(events, 3)
        return third != float("inf") and sum(e["kind"] == "card" and e["seq"] > third for e in events) >= 5
    table.wait_for(third_shoe_begun, timeout=WAIT, what="five cards of the 3rd shoe")
    table.dealer.paused.set()
    messages, events = table.received()
    third = _nth_shuffle(events, 3)
    at = [i for i, (t, _m) in enumerate(messages) if t == f"{table.base}/integrity"]
    assert at, "no integrity message at all"
    named = [i for i in at if messages[i][1]["shuffle"]["shoes"]]
    assert named, "no shoe's figures after three shuffles"
    seen = [m for t, m in messages[:named[0]] if "/event/" in t]
    assert max(e["seq"] for e in seen) >= third   # the 3rd shuffle reached the pit first ...
    assert not [e for e in seen if e["kind"] == "card" and e["seq"] > third]   # ... and no card after it
    for i in at[:at.index(named[0])]:
        assert messages[i][1]["shuffle"]["shoes"] == []   # before: a summary of nothing
    shoe = messages[named[0]][1]["shuffle"]["shoes"]
    assert [s["shoe"] for s in shoe] == [1]
    results = [e["round"] for e in seen if e["kind"] == "result"]
    assert shoe[0]["rounds"][1] == max(results)   # the shoe's last round had its result before
    assert not shoe[0]["suspect"]
    assert not [e for e in events if e["kind"] == "alarm" and e["data"]["code"] == "shuffle_suspect"]


def _nth_shuffle(events: list[dict], n: int) -> float:
    shuffles = [e["seq"] for e in events if e["kind"] == "shuffle"]
    return shuffles[n - 1] if len(shuffles) >= n else float("inf")
