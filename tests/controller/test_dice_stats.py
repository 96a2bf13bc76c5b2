"""Dice integrity (controller/table/dice_stats.py): what counts as a throw, the counts' journal form,
resets, and the dice_bias finding -- on hand-worked counts, and on a simulated cup read by the
real pyusb driver with one loaded die and one fair die (seeded)."""

from __future__ import annotations

import itertools
import json
import queue

import pytest

from controller.shared.schemas import validate
from controller.table.dice_stats import MIN_SHAKES, DiceStats
from drivers.dice_cup import DiceCupDriver
from drivers.events import DiceRead
from hw_sim.dice_cup import PRODUCT_ID, VENDOR_ID, SimDiceCup, loaded_weights
from hw_sim.usb_backend import SimUsbBus

_buses = itertools.count(1)


def throw(stats: DiceStats, *values: int, cup: str = "cup") -> list:
    """A throw the round used, as the table hands it over."""
    return stats.read(cup, values)


def test_only_a_throw_of_the_cups_dice_counts() -> None:
    stats = DiceStats({"cup": 2}, clock=lambda: 100.0)
    throw(stats, 1, 6)
    throw(stats, 1, 6, 6)                # three dice from a cup of two
    throw(stats, 0, 6)                   # a face that is not one
    throw(stats, 7, 6)
    assert throw(stats, 1, 1, cup="elsewhere") == []   # not a cup of this table
    throw(stats, 3, 3)
    assert stats.cups["cup"].counts == [[1, 0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 1]]
    assert stats.cups["cup"].shakes == 2


def _load(stats: DiceStats, cup: str, die: int, counts: list[int]) -> None:
    stats.cups[cup].counts[die - 1] = list(counts)


def test_a_die_that_fails_at_the_600th_throw_is_named_once() -> None:
    stats = DiceStats({"cup": 1})
    # 599 throws: face 6 a third of the time; a 600th six makes p < 0.001 for the first time
    _load(stats, "cup", 1, [80, 80, 80, 80, 80, 199])
    found = throw(stats, 6)
    assert [(b.die, b.face, b.count, b.shakes) for b in found] == [(1, 6, 200, 600)]
    bias = found[0]
    assert bias.p_value < 0.001
    assert bias.message.startswith("cup die 1 fails the fairness test: face 6 came 200 times in 600 shakes "
                                   "(100 expected); chi-square 120.0 (5 degrees of freedom), p = ")
    assert "cmd/dice_reset" in bias.action
    assert throw(stats, 6) == [], "once per die until its counts are reset"
    stats.reset("cup")
    _load(stats, "cup", 1, [80, 80, 80, 80, 80, 199])
    assert len(throw(stats, 6)) == 1, "after a reset the die may be named again"


def test_no_finding_before_600_throws_however_lopsided() -> None:
    stats = DiceStats({"cup": 1})
    _load(stats, "cup", 1, [0, 0, 0, 0, 0, MIN_SHAKES - 2])
    assert throw(stats, 6) == []
    assert len(throw(stats, 6)) == 1


def test_the_face_named_is_the_one_furthest_from_its_expectation() -> None:
    stats = DiceStats({"cup": 1})
    # 599 throws, expected ~100: face 2 is 60 short, face 5 is 40 over
    _load(stats, "cup", 1, [100, 40, 100, 120, 140, 99])
    found = throw(stats, 1)
    assert [(b.face, b.count) for b in found] == [(2, 40)]


def test_another_serial_is_another_cup() -> None:
    clock = iter([10.0, 20.0, 30.0])
    stats = DiceStats({"cup": 1}, clock=lambda: next(clock))
    assert stats.online("cup", "A") is None          # the first hello: these counts are cup A's
    throw(stats, 4)
    assert stats.online("cup", "A") is None          # A again (a replug)
    assert stats.online("cup", None) is None          # a cup without a serial says nothing
    assert stats.online("cup", "B") == 1             # another cup: one throw set aside
    assert stats.cups["cup"].serial == "B" and stats.cups["cup"].shakes == 0 and stats.cups["cup"].since == 20.0


def test_reset_names_the_cups_it_has() -> None:
    stats = DiceStats({"cup": 3, "cup2": 2})
    throw(stats, 1, 2, 3)
    assert stats.reset("cup") == 1 and stats.cups["cup"].shakes == 0
    with pytest.raises(KeyError, match="cup: no such dice cup; the table's cups are cup, cup2"):
        stats.reset("dice")


def test_the_counts_outlive_a_restart_through_their_journal_form() -> None:
    stats = DiceStats({"cup": 2}, clock=lambda: 5.0)
    stats.online("cup", "S-1")
    for values in ((1, 2), (6, 6), (3, 6)):
        throw(stats, *values)
    stats.cups["cup"].flagged.add(2)
    saved = json.loads(json.dumps(stats.save()))     # as the journal's meta holds it
    assert not stats.changed
    again = DiceStats({"cup": 2})
    assert again.load(saved) == []
    assert again.cups["cup"].counts == stats.cups["cup"].counts
    assert (again.cups["cup"].serial, again.cups["cup"].since, again.cups["cup"].flagged) == ("S-1", 5.0, {2})
    assert again.payload() == stats.payload()
    validate("dice", {"table": "dh-1", "ts": 1.0, **again.payload()})


@pytest.mark.parametrize("saved, problem", [
    ([1, 2], "the journal's dice counts are not a JSON object: every cup's counts start afresh"),
    ({"cup": {"dice": 3, "counts": [[0] * 6] * 3, "since": 1.0}},
     "cup: the journal's dice counts do not fit a cup of 2 dice: they start afresh"),
    ({"cup": {"dice": 2, "counts": [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "since": 1.0}},
     "cup: the journal's dice counts do not fit a cup of 2 dice: they start afresh"),   # dice out of step
    ({"cup": {"dice": 2, "counts": [[-1, 0, 0, 0, 0, 1], [0] * 6], "since": 1.0}},
     "cup: the journal's dice counts do not fit a cup of 2 dice: they start afresh"),
    ({"cup": {"dice": 2, "counts": "lots"}},
     "cup: the journal's dice counts do not fit a cup of 2 dice: they start afresh"),
])
def test_counts_that_do_not_fit_start_afresh_and_say_so(saved, problem: str) -> None:
    stats = DiceStats({"cup": 2})
    assert stats.load(saved) == [problem]
    assert stats.cups["cup"].shakes == 0


def test_the_payload_matches_its_schema_and_names_the_most_off_face() -> None:
    stats = DiceStats({"cup": 2}, clock=lambda: 1.0)
    payload = stats.payload()
    assert payload["cups"]["cup"]["dice"][0] == {"die": 1, "shakes": 0, "counts": [0] * 6, "chi_square": 0.0,
                                                 "p_value": 1.0, "biased": False, "most_off": None}
    for values in ((6, 1), (6, 2), (6, 3)):
        throw(stats, *values)
    die1 = stats.payload()["cups"]["cup"]["dice"][0]
    assert die1["counts"] == [0, 0, 0, 0, 0, 3] and die1["most_off"] == {"face": 6, "count": 3, "expected": 0.5}
    assert die1["chi_square"] == 15.0
    validate("dice", {"table": "dh-1", "ts": 2.0, **stats.payload()})


# --- a simulated cup, read by the real driver ----------------------------------------------------

LOAD = 1.5
"""Die 1 shows a six 1.5 times as often as any other face: 3 times in 13 (23 %) instead of 1 in 6."""
SEED = 1
LOADED_WITHIN = 2_000
"""The stated bound. Over seeds 0..199 the loaded die was named after 600 throws (the minimum) in
half the runs, within 1,170 in 95 %, and always within 1,654; a fair die was named within 5,000
throws in 1 run of the 200 (the test after every throw is sequential: docs/operations.md)."""
FAIR_FOR = 5_000


def test_a_loaded_die_is_named_and_a_fair_one_never() -> None:
    bus = SimUsbBus(f"bias-{next(_buses)}").register()
    cup = bus.attach(SimDiceCup(dice=2, seed=SEED, weights=[loaded_weights(6, LOAD)]))
    inbox: queue.Queue = queue.Queue()
    driver = DiceCupDriver("cup", inbox, vendor_id=VENDOR_ID, product_id=PRODUCT_ID, dice=2, backend=bus.url,
                           read_timeout=0.2)
    driver.start()
    try:
        inbox.get(timeout=5)   # its hello
        stats = DiceStats({"cup": 2})
        named: dict[int, tuple[int, int]] = {}
        for shake in range(1, FAIR_FOR + 1):
            cup.shake()
            for _ in range(3):   # shaken, opened, closed: a round would use each reading
                event = inbox.get(timeout=5)
                if isinstance(event, DiceRead):
                    for bias in stats.read("cup", event.values):
                        named[bias.die] = (shake, bias.face)
    finally:
        driver.stop()
        bus.unregister()
    assert 1 in named, "the loaded die was never named"
    shake, face = named[1]
    assert MIN_SHAKES <= shake <= LOADED_WITHIN and face == 6, named
    assert 2 not in named, f"the fair die was named at throw {named.get(2)}"
    assert stats.cups["cup"].shakes == FAIR_FOR and len(cup.throws) == FAIR_FOR
    print(f"loaded die named at throw {shake} (seed {SEED}); the fair die not in {FAIR_FOR}")
