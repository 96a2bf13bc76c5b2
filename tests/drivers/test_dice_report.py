"""The dice cup's report codec (drivers/dice_report.py) against docs/protocols.md's golden
reports, both ways, and on garbage: it never raises and says what was wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers import dice_report as codec
from drivers.events import CupClosed, CupShaken, DeviceFault, DiceRead

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocols.md"
_block = DOC.read_text().split("<!-- dice-golden:start -->")[1].split("<!-- dice-golden:end -->")[0]
GOLDEN = {m[0]: bytes.fromhex(m[1]) for m in re.findall(r"^\| `(\w+)` \|.*\| `([0-9a-f ]+)` \|$", _block, re.M)}

REPORTS = {
    # name -> (the codec's builder, the event the controller gets)
    "shaken": (codec.shaken(0), CupShaken("cup")),
    "opened": (codec.opened(1, (6, 2, 3)), DiceRead("cup", (6, 2, 3))),
    "closed": (codec.closed(2), CupClosed("cup")),
    "fault_die_on_edge": (codec.fault(4, "die_on_edge", 2), DeviceFault("cup", "die_on_edge", "a die landed on its edge (die 2)")),
    "fault_die_unreadable": (codec.fault(7, "die_unreadable", 1),
                             DeviceFault("cup", "die_unreadable", "the cup could not read a die (die 1)")),
    "fault_lifted_early": (codec.fault(9, "lifted_early"),
                           DeviceFault("cup", "lifted_early", "the cup was lifted before the shake ended")),
    "opened_misread": (codec.opened(12, (7, 2, 3)), DiceRead("cup", (7, 2, 3))),
}
SEQS = {"shaken": 0, "opened": 1, "closed": 2, "fault_die_on_edge": 4, "fault_die_unreadable": 7,
        "fault_lifted_early": 9, "opened_misread": 12}


def test_the_golden_table_is_complete() -> None:
    assert set(GOLDEN) == {*REPORTS, "status_new", "status_after", "self_test_passed", "self_test_die_2"}


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_golden_reports_both_ways(name: str) -> None:
    built, event = REPORTS[name]
    assert built == GOLDEN[name], f"{name}: the codec builds {built.hex(' ')}"
    decoded = codec.decode(GOLDEN[name])
    assert decoded.error is None and decoded.report is not None
    assert decoded.report.seq == SEQS[name]
    assert codec.to_event(decoded.report, "cup") == event


def test_golden_control_answers_both_ways() -> None:
    assert codec.encode_status(3) == GOLDEN["status_new"]
    assert codec.decode_status(GOLDEN["status_new"]) == codec.CupStatus(1, 3, "closed", None, "1.0", 0)
    assert codec.encode_status(3, "closed", "lifted_early", (1, 0), 14) == GOLDEN["status_after"]
    assert codec.decode_status(GOLDEN["status_after"]) == codec.CupStatus(1, 3, "closed", "lifted_early", "1.0", 14)
    assert codec.encode_self_test(True) == GOLDEN["self_test_passed"]
    assert codec.decode_self_test(GOLDEN["self_test_passed"]) == codec.SelfTest(True, ())
    assert codec.encode_self_test(False, (2,)) == GOLDEN["self_test_die_2"]
    assert codec.decode_self_test(GOLDEN["self_test_die_2"]) == codec.SelfTest(False, (2,))


def _with_crc(body: bytes) -> bytes:
    return body + codec.crc16(body).to_bytes(2, "big")


@pytest.mark.parametrize("raw, why", [
    (GOLDEN["opened"][:15], "bad_length: 15 bytes, a report is 16"),
    (GOLDEN["opened"] + b"\0", "bad_length: 17 bytes, a report is 16"),
    (b"", "bad_length: 0 bytes, a report is 16"),
    (GOLDEN["opened"][:-2] + b"\xd1\x1c", "bad_crc: the report's CRC does not match"),
    (_with_crc(b"\xd2" + GOLDEN["opened"][1:14]), "bad_id: report id 0xd2, not 0xd1"),
    (_with_crc(bytes((0xD1, 5, 0x09, 0)) + bytes(10)), "bad_type: report type 0x09"),
    (_with_crc(bytes((0xD1, 5, 0x04, 7)) + bytes(10)), "bad_fault: fault code 7"),
    (_with_crc(bytes((0xD1, 5, 0x02, 9)) + bytes(10)), "bad_count: 9 dice, a report carries at most 8"),
])
def test_malformed_reports_say_what_is_wrong(raw: bytes, why: str) -> None:
    assert codec.decode(raw) == codec.Decoded(None, why)


def test_values_are_passed_as_read_for_the_round_to_check() -> None:
    """A die showing 0 or 200 is a reading, not a bad report: the round names it (dice_value)."""
    assert codec.decode(codec.opened(3, (0, 200))).report == codec.Report(3, "opened", (0, 200))
    assert codec.decode(codec.opened(3, ())).report == codec.Report(3, "opened", ())


@pytest.mark.parametrize("raw, why", [
    (b"\x01\x03\x00", "status is 3 bytes, not 8"),
    (b"\x02\x03\x00\x00\x01\x00\x00\x00", "cup speaks protocol 2, this driver 1"),
    (b"\x01\x03\x07\x00\x01\x00\x00\x00", "unknown cup state 7"),
    (b"\x01\x03\x00\x09\x01\x00\x00\x00", "unknown fault code 9"),
])
def test_a_bad_status_says_why(raw: bytes, why: str) -> None:
    assert codec.decode_status(raw) == why


@pytest.mark.parametrize("raw", [b"", b"\x00", b"\x00\x04", b"\x02\x00", b"\x00\x00\x00"])
def test_a_bad_self_test_answer_says_why(raw: bytes) -> None:
    assert codec.decode_self_test(raw) == f"self-test answer {raw.hex(' ') or '(empty)'} is not one of this protocol's"


@given(st.binary(max_size=40))
def test_decode_never_raises_on_any_bytes(raw: bytes) -> None:
    decoded = codec.decode(raw)
    assert (decoded.report is None) != (decoded.error is None)
    if decoded.report is not None:
        codec.to_event(decoded.report, "cup")


@given(st.integers(0, 255), st.lists(st.integers(0, 255), max_size=8))
def test_any_opened_report_round_trips(seq: int, values: list[int]) -> None:
    assert codec.decode(codec.opened(seq, values)).report == codec.Report(seq, "opened", tuple(values))
