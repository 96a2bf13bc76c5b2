"""Controller drivers end to end against the simulated shoe and shuffler."""

from __future__ import annotations

from collections import Counter

import pytest

from drivers.events import (
    CardCount,
    CardDrawn,
    CutCard,
    DeckVerified,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    FramesDropped,
    ReadsAccounted,
    ShoeEmpty,
    ShuffleComplete,
)
from drivers.shoe import ShoeDriver
from drivers.shuffler import ShufflerDriver
from games.cards import card
from games.decks import DeckSpec, standard
from hw_sim.devices import SimShoe, SimShuffler
from hw_sim.physical import CUT_CARD, PhysicalCard, Table

FAST = {"heartbeat": 0.05, "retransmit": 0.05}


def shoe_table(cut_from_end: int = 14, seed: int = 1) -> Table:
    table = Table(standard(8), seed=seed)
    table.load_boxes_into_shuffler()
    table.shuffle_hopper()
    table.load_shoe(cut_from_end)
    return table


@pytest.fixture
def shoe_rig(line, inbox):
    """A SimShoe on the line and a ShoeDriver on the other end, both running."""
    port, url = line
    table = shoe_table()
    shoe = SimShoe(table, port, **FAST)
    driver = ShoeDriver("shoe", url, inbox, heartbeat_timeout=0.5)
    shoe.start()
    driver.start()
    inbox.expect(DeviceOnline, where=lambda e: e.info == "SIMSHOE 1.0")
    yield table, shoe, driver
    driver.stop()
    shoe.stop()


def test_cards_arrive_in_physical_order(shoe_rig, inbox):
    _, shoe, driver = shoe_rig
    drawn = [shoe.draw() for _ in range(60)]
    got = [inbox.expect(CardDrawn).card for _ in drawn]
    assert got == [c.face for c in drawn]
    assert driver.alive
    stats = driver.stats
    assert stats["frames_in"] >= 60 and stats["retransmits"] == 0
    assert set(stats["drops"]) == {"noise", "bad_length", "bad_crc", "bad_etx"}


def test_cut_card_comes_before_the_next_card(line, inbox):
    port, url = line
    table = shoe_table(cut_from_end=416 - 3)           # the cut card after the third card
    shoe, driver = SimShoe(table, port, **FAST), ShoeDriver("shoe", url, inbox, heartbeat_timeout=0.5)
    shoe.start()
    driver.start()
    try:
        drawn = [shoe.draw() for _ in range(5)]
        kinds = []
        while len([k for k in kinds if k != "U"]) < 5 or "U" not in kinds:
            event = inbox.expect((CardDrawn, CutCard))
            if isinstance(event, CardDrawn):
                kinds.append(event.card.code)
            elif isinstance(event, CutCard):
                kinds.append("U")
        faces = [c.face.code for c in drawn]
        assert kinds == [*faces[:3], "U", *faces[3:]]
        assert CUT_CARD not in table.shoe
    finally:
        driver.stop()
        shoe.stop()


def test_empty_shoe(hwsim_line, inbox):
    port, url = hwsim_line
    table = Table(DeckSpec("two", (card("AS"), card("KD"))))
    table.shoe = list(table.boxes)
    shoe, driver = SimShoe(table, port, **FAST), ShoeDriver("shoe", url, inbox, heartbeat_timeout=0.5)
    shoe.start()
    driver.start()
    try:
        assert [shoe.draw().face, shoe.draw().face, shoe.draw()] == [card("AS"), card("KD"), None]
        assert [inbox.expect(CardDrawn).card, inbox.expect(CardDrawn).card] == [card("AS"), card("KD")]
        inbox.expect(ShoeEmpty)
    finally:
        driver.stop()
        shoe.stop()


def test_shuffler_deck_check_shuffle_count(line, inbox):
    port, url = line
    table = Table(standard(8), seed=3)
    table.load_boxes_into_shuffler()
    shuffler = SimShuffler(table, port, **FAST)
    driver = ShufflerDriver("shuffler", url, inbox, heartbeat_timeout=0.5)
    shuffler.start()
    driver.start()
    try:
        inbox.expect(DeviceOnline, where=lambda e: e.info == "SIMSHUF 1.0")
        hopper = [c.face for c in table.hopper]
        driver.request_deck_check()
        check = inbox.expect(DeckVerified, timeout=5)
        assert check.cards == tuple(hopper)                 # every card, in hopper (read) order
        assert Counter(check.cards) == standard(8).counts and check.unreadable == 0
        driver.request_shuffle()
        assert inbox.expect(ShuffleComplete) == ShuffleComplete("shuffler", 416)
        assert len(table.shuffled) == 416 and not table.hopper
        driver.request_count()
        assert inbox.expect(CardCount) == CardCount("shuffler", 416)
        driver.request_status()
        inbox.expect(DeviceOnline, where=lambda e: e.info == "SIMSHUF 1.0")
    finally:
        driver.stop()
        shuffler.stop()


def test_deck_check_with_unreadable_and_missing_cards(hwsim_line, inbox):
    port, url = hwsim_line
    table = Table(standard(1), seed=4)
    table.remove_from_boxes(card("QS"))
    table.load_boxes_into_shuffler()
    shuffler = SimShuffler(table, port, **FAST)
    driver = ShufflerDriver("shuffler", url, inbox, heartbeat_timeout=0.5)
    shuffler.start()
    driver.start()
    try:
        shuffler.inject("unreadable_cards", n=2)
        shuffler.start_deck_check()
        check = inbox.expect(DeckVerified)
        assert check.unreadable == 2 and len(check.cards) == 49     # 51 in the hopper, 2 unread
        assert check.cards == tuple(c.face for c in table.hopper[2:])
    finally:
        driver.stop()
        shuffler.stop()


def test_heartbeat_loss_gives_offline_then_online(shoe_rig, inbox):
    _, shoe, driver = shoe_rig
    shoe.inject("hang")
    assert inbox.expect(DeviceOffline) == DeviceOffline("shoe", "heartbeat_lost")
    assert not driver.alive
    shoe.inject("recover")
    back = inbox.expect(DeviceOnline)
    assert (back.device, back.info, back.reads) in (("shoe", "SIMSHOE 1.0", None), ("shoe", "SIMSHOE 1.0", 0))
    assert inbox.expect(ReadsAccounted) == ReadsAccounted("shoe", 0)   # asked again: nothing it read is missing
    assert driver.alive


def test_unknown_card_code_is_a_fault_that_does_not_echo_it(shoe_rig, inbox):
    _, shoe, _ = shoe_rig
    shoe.inject("unknown_card", code="QX")
    fault = inbox.expect(DeviceFault)
    assert (fault.code, fault.detail) == ("unknown_card", "unknown card code")
    assert "QX" not in repr(fault)
    nxt = shoe.draw()                                   # the line carries on
    assert inbox.expect(CardDrawn).card == nxt.face
    assert not [e for e in inbox.seen if isinstance(e, DeviceFault) and e is not fault]


@pytest.mark.parametrize(("name", "code"), [("jam", "jam"), ("door_open", "door_open"),
                                            ("double_card", "double_card"), ("misread", "misread")])
def test_device_faults(shoe_rig, inbox, name, code):
    table, shoe, _ = shoe_rig
    shoe.inject(name)
    if name in ("misread", "double_card"):             # armed: the next draw goes wrong
        before = len(table.layout)
        assert isinstance(shoe.draw(), PhysicalCard)
        assert len(table.layout) == before + (2 if name == "double_card" else 1)
    assert inbox.expect(DeviceFault).code == code
    assert not [e for e in inbox.seen if isinstance(e, CardDrawn)]


def test_garbage_and_bad_checksum(shoe_rig, inbox):
    _, shoe, driver = shoe_rig
    shoe.inject("garbage", data=bytes(range(3, 40)))   # no STX: 37 bytes of noise
    shoe.inject("bad_checksum")
    drawn = shoe.draw()
    assert inbox.expect(CardDrawn).card == drawn.face
    assert shoe.idle(2)
    drops = Counter()
    for event in inbox.seen:
        if isinstance(event, FramesDropped):
            drops.update(event.counts)
    while not inbox.empty():
        event = inbox.get()
        assert not isinstance(event, CardDrawn), "delivered twice"
        if isinstance(event, FramesDropped):
            drops.update(event.counts)
    # noise: the 37 garbage bytes, then what followed the damaged frame's STX
    assert drops["noise"] >= 37 and drops["bad_crc"] == 1
    assert driver.stats["drops"]["bad_crc"] == 1


def test_unplug_and_replug(line, inbox):
    port, url = line
    table = shoe_table()
    shoe, driver = SimShoe(table, port, **FAST), ShoeDriver("shoe", url, inbox, heartbeat_timeout=0.5)
    shoe.start()
    driver.start()
    try:
        inbox.expect(DeviceOnline, where=lambda e: e.info)
        shoe.inject("unplug")
        offline = inbox.expect(DeviceOffline)
        assert offline.reason.startswith("port error")
        shoe.inject("replug")
        inbox.expect(DeviceOnline)
        drawn = shoe.draw()
        assert inbox.expect(CardDrawn).card == drawn.face
        assert driver.stats["opens"] == 2
    finally:
        driver.stop()
        shoe.stop()


def test_controller_restart_keeps_talking(hwsim_line, inbox):
    """A new driver (seq from 0 again) against a device that kept running."""
    port, url = hwsim_line
    table = shoe_table()
    shoe = SimShoe(table, port, **FAST)
    shoe.start()
    try:
        for _ in range(2):
            driver = ShoeDriver("shoe", url, inbox, heartbeat_timeout=0.5)
            driver.start()
            inbox.expect(DeviceOnline, where=lambda e: e.info)
            drawn = shoe.draw()
            assert inbox.expect(CardDrawn).card == drawn.face
            driver.stop()
    finally:
        shoe.stop()


def test_device_missing_at_start_is_reported_offline(inbox):
    driver = ShoeDriver("shoe", "hwsim://not-plugged-in", inbox, heartbeat_timeout=0.5)
    driver.start()
    try:
        offline = inbox.expect(DeviceOffline)
        assert "no such simulated device" in offline.reason
        assert not driver.alive
    finally:
        driver.stop()


def test_fault_injection_is_seeded(hwsim_line):
    port, _ = hwsim_line
    table = shoe_table()
    runs = []
    for _ in range(2):
        shoe = SimShoe(table, port, seed=42)
        sent: list[bytes] = []
        shoe.link.send_raw = sent.append
        shoe.inject("garbage")
        shoe.inject("garbage", n=10)
        runs.append(sent)
    assert runs[0] == runs[1] and [len(b) for b in runs[0]] == [64, 10]
    with pytest.raises(ValueError, match="no fault named"):
        shoe.inject("fire")
