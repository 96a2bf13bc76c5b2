"""Disputes without SQL (issue 22; controller.pit.rounds): a round of any date found by its number
or by a time, every event of it in order, what is missing shown as missing, and its export.
The archive is a real PostgreSQL filled by hand (tests/archive_rows.py) a week back."""

from __future__ import annotations

import json
from datetime import datetime

import psycopg
import pytest
from archive_rows import ArchiveRows

from controller.pit.rounds import find_round, history, printable, round_at
from games.baccarat.rules import outcome, point
from games.cards import cards

WEEK_AGO = "2026-11-20"


def at(hm: str) -> str:
    return f"{WEEK_AGO}T{hm}+00:00"


def result(player: str, banker: str) -> dict:
    return outcome(cards(player), cards(banker)).to_dict() | {"player_dealer": None}


def start(n: int) -> dict:
    return {"round": n, "player_dealer": None, "last_of_shoe": False}


def card(hand: str, position: int, code: str) -> dict:
    return {"hand": hand, "position": position, "face": "up", "card": code, "value": point(cards(code)[0])}


@pytest.fixture
def archive(pg_url: str):
    rows = ArchiveRows(pg_url)
    rows.table("bac-01", "baccarat")
    rows.event("bac-01", at("13:59:58"), "table", {"status": "open"})
    rows.event("bac-01", at("14:00:00"), "round_start", start(1), 1)
    for i, (hand, code) in enumerate((("player", "2H"), ("banker", "KD"), ("player", "5C"), ("banker", "6S"))):
        rows.event("bac-01", at(f"14:00:{10 + i:02d}"), "card", card(hand, 1 + i // 2, code), 1)
    rows.event("bac-01", at("14:00:20"), "result", result("2H 5C", "KD 6S"), 1)          # seq 7
    rows.event("bac-01", at("14:01:00"), "round_start", start(2), 2)                       # seq 8
    rows.event("bac-01", at("14:01:05"), "card", card("player", 1, "9D"), 2)               # seq 9
    rows.event("bac-01", at("14:01:30"), "void", {"round": 2, "reason": "misread", "by": "pit:ann"}, 2, seq=12)
    rows.gap("bac-01", 10, 11, "unfillable", reason="the journal no longer holds seqs before 40 (pruned)")
    rows.event("bac-01", at("14:05:00"), "round_start", start(7), 7)                        # 3..6 never dealt
    rows.event("bac-01", at("14:05:30"), "result", result("2H 4C", "3D 4S"), 7)
    yield pg_url
    rows.close()


def test_a_round_of_last_week_has_every_event_in_order_and_its_outcome(archive: str):
    with psycopg.connect(archive) as conn:
        found = find_round(conn, "bac-01", 1)
    assert [e["kind"] for e in found.events] == ["round_start", "card", "card", "card", "card", "result"]
    assert [e["seq"] for e in found.events] == [2, 3, 4, 5, 6, 7] and found.missing == []
    assert found.outcome() == {"outcome": "result", "summary": "P 2H 5C = 7  |  B KD 6S = 6  ->  PLAYER", "seq": 7}


def test_a_voided_round_says_who_voided_it_and_the_seqs_the_archive_lacks(archive: str):
    with psycopg.connect(archive) as conn:
        found = find_round(conn, "bac-01", 2)
        assert find_round(conn, "bac-01", 3) is None
    assert found.outcome() == {"outcome": "void", "reason": "misread", "by": "pit:ann", "seq": 12}
    assert found.missing == [(10, 11)]
    assert found.gaps == [{"first_seq": 10, "last_seq": 11, "status": "unfillable",
                           "reason": "the journal no longer holds seqs before 40 (pruned)"}]


def test_a_round_is_found_by_the_time_it_was_dealt(archive: str):
    with psycopg.connect(archive) as conn:
        assert round_at(conn, "bac-01", datetime.fromisoformat(at("14:00:15"))) == 1
        assert round_at(conn, "bac-01", datetime.fromisoformat(at("14:03:00"))) == 2    # after its void
        assert round_at(conn, "bac-01", datetime.fromisoformat(at("13:59:59"))) is None  # before any round


def test_the_history_pages_back_and_shows_the_rounds_it_never_saw(archive: str):
    with psycopg.connect(archive) as conn:
        page = history(conn, "bac-01", limit=2)
        older = history(conn, "bac-01", before=page["older"], limit=2)
    assert [e.get("round") or e.get("missing") for e in page["rounds"]] == [7, [3, 6], 2]
    assert page["rounds"][0]["summary"] == "P 2H 4C = 6  |  B 3D 4S = 7  ->  BANKER"
    assert page["rounds"][2]["void"] == {"reason": "misread", "by": "pit:ann"}
    assert page["gaps"][0]["status"] == "unfillable" and page["older"] == 2
    assert [e.get("round") for e in older["rounds"]] == [1] and older["older"] is None


def test_the_printable_page_holds_every_event_as_text_never_markup(archive: str, pg_url: str):
    rows = ArchiveRows.__new__(ArchiveRows)
    rows.conn = psycopg.connect(archive, autocommit=True)
    rows.games, rows.next_seq = {"bac-01": "baccarat"}, {"bac-01": 20}
    rows.event("bac-01", at("14:05:40"), "alarm", {
        "code": "unexpected_card", "severity": "fault", "message": "<script>alert(1)</script> drawn",
        "card": None, "expected": None, "missing": [], "extra": [], "action": "<b>void</b>"}, 7)
    with psycopg.connect(archive) as conn:
        page = printable(find_round(conn, "bac-01", 7), exported_by="ann")
        data = find_round(conn, "bac-01", 7).to_json()
    assert "<script>" not in page and "&lt;script&gt;" in page and "<b>void" not in page
    assert "Table bac-01 (baccarat), round 7" in page and "by ann." in page
    assert json.loads(json.dumps(data))["events"][-1]["kind"] == "alarm"
    rows.conn.close()
