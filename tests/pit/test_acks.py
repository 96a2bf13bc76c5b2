"""Acknowledgements as they arrive on the broker (controller.pit.acks): anything that is not one is
refused naming the field, never quoting what came (issue 22: a forged acknowledgement)."""

from __future__ import annotations

import pytest

from controller.pit.acks import AckError, make, parse

GOOD = make("bac-01", 42, "shoe_misread", "ann", note="calling tech", assignee="bob", now=1_800_000_000.0).to_json()


def test_a_good_acknowledgement_comes_back_as_it_went():
    ack = parse(GOOD)
    assert (ack.table, ack.alarm_seq, ack.code, ack.by, ack.note, ack.assignee) == (
        "bac-01", 42, "shoe_misread", "ann", "calling tech", "bob")
    assert parse(ack.to_json()) == ack


@pytest.mark.parametrize(("change", "why"), [
    ({"by": "<script>"}, "by: must be a pit user's name"),
    ({"by": None}, "by: must be a pit user's name"),
    ({"table": "bac 01"}, "table: must be a table id"),
    ({"alarm_seq": 0}, "alarm_seq: must be the acknowledged alarm's seq"),
    ({"alarm_seq": True}, "alarm_seq: must be the acknowledged alarm's seq"),
    ({"id": "../../etc"}, "id: must be 32 hex digits"),
    ({"code": "DROP TABLE"}, "code: must be an alarm code"),
    ({"ts": "yesterday"}, "ts: must be a time in seconds since the epoch"),
    ({"note": "x" * 501}, "note: must be text of at most 500 characters"),
    ({"note": "a\0b"}, "note: must be text of at most 500 characters"),
    ({"assignee": "Bob Smith"}, "assignee: must be a pit user's name"),
    ({"admin": True}, "1 unknown key(s): the keys are id, table, alarm_seq"),
])
def test_anything_else_is_refused_naming_the_field(change: dict, why: str):
    with pytest.raises(AckError) as caught:
        parse({**GOOD, **change})
    assert str(caught.value).startswith(why)
    for value in change.values():
        if isinstance(value, str) and len(value) > 3:
            assert value not in str(caught.value)


def test_a_note_is_kept_as_text():
    ack = parse({**GOOD, "note": "<img src=x onerror=alert(1)>"})
    assert ack.note == "<img src=x onerror=alert(1)>"      # the page shows it as text (board.js, textContent)
