"""docs/schemas: one schema per event kind of docs/internals.md, and the topics' payloads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from controller.shared.schemas import SchemaError, event_kinds, validate, validate_event

ROOT = Path(__file__).resolve().parents[2]

HAND = {"cards": ["2H", "4S"], "total": 6, "natural": False}
PAY = {"outcome": "win", "odds": [1, 1]}

EXAMPLES: dict[str, dict[str, Any]] = {
    "transition": {"from": "betting", "to": "dealing", "trigger": "no_more_bets"},
    "prompt": {"expect": "card", "hand": "banker", "buttons": [], "text": "Card to the banker", "position": 2,
               "face": "down"},
    "round_start": {"round": 3, "player_dealer": 1, "last_of_shoe": False},
    "card": {"hand": "player", "position": 1, "face": "up", "card": "10H", "value": 0},
    "reveal": {"hand": "banker", "position": 2, "card": "5C", "value": 5},
    "result": {"player": HAND, "banker": {"cards": ["3D", "5C"], "total": 8, "natural": True},
               "winner": "banker", "banker_six": False, "player_dealer": 1,
               "payouts": {"player": {"outcome": "lose", "odds": None}, "banker": PAY,
                           "tie": {"outcome": "lose", "odds": None}}},
    "action_button": {"card": "5C", "count": 5, "position": 5, "seat": 6, "first_action_seat": 6},
    "player_dealer": {"seat": 2, "consecutive": 0, "change": "offered"},
    "alarm": {"code": "unexpected_card", "severity": "fault", "message": "7H drawn, but no card is due",
              "card": "7H", "expected": "no card: player stands on 7", "missing": [], "extra": [],
              "action": "void the round, or resume to burn the card"},
    "deck_check": {"ok": False, "expected": 416, "counted": 415, "missing": ["AS"], "extra": [], "unreadable": 0},
    "shuffle": {"ok": True, "count": 416, "expected": 416},
    "shoe": {"event": "cut_card", "last_round": True, "remaining": 15},
    "void": {"round": 3, "reason": "dealer pressed void", "by": "dealer"},
    "resume": {"round": 3, "by": "pit", "burned": ["7H"]},
    "button": {"button": "deal", "accepted": False, "reason": "deal is not lit in state dealing"},
    "dice": {"values": [6, 2, 3], "total": 11, "seat": 1},
    "hand_status": {"seat": 3, "status": "dead", "reason": "12 cards before touching the deck"},
    "device": {"device": "shoe", "status": "fault", "code": "misread", "detail": "card not read"},
    "line_errors": {"device": "shoe", "dropped": {"noise": 3, "bad_length": 0, "bad_crc": 1, "bad_etx": 0}},
    "lights": {"seats": {"action": [], "player_dealer": [1]}, "buttons_lit": ["deal", "pass"],
               "seat_buttons_lit": {}},
    "table": {"status": "open"},
    "command": {"name": "void", "id": "r-17", "ok": False, "error": "bad void command: reason: is required"},
}


def envelope(kind: str, data: dict[str, Any], **over: Any) -> dict[str, Any]:
    return {"seq": 12, "ts": 1_700_000_000.25, "table": "bac-01", "round": 3, "kind": kind, "data": data, **over}


def problems_of(env: dict[str, Any], game: str | None = None) -> list[str]:
    with pytest.raises(SchemaError) as caught:
        validate_event(env, game=game)
    return caught.value.problems


def test_every_kind_of_the_contract_has_a_schema_and_an_example() -> None:
    text = (ROOT / "docs" / "internals.md").read_text()
    machine_kinds = set(re.findall(r"^\| `([a-z_]+)` \| `?\{", text, re.M))
    controller_kinds = set(re.findall(r"`([a-z_]+)`\s+\(`\{", text))
    assert {"card", "result", "prompt"} <= machine_kinds and {"device", "lights"} <= controller_kinds
    assert machine_kinds | controller_kinds == set(event_kinds()) == set(EXAMPLES)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_examples_validate(kind: str) -> None:
    validate_event(envelope(kind, EXAMPLES[kind]))
    validate_event(envelope(kind, EXAMPLES[kind]), game="baccarat")


@pytest.mark.parametrize("game", [None, "baccarat"])
def test_a_face_down_card_must_not_name_the_card(game: str | None) -> None:
    """Every game's card events (the generic schema) and baccarat's own (its narrower schema)."""
    down = {"hand": "banker", "position": 2, "face": "down"}
    validate_event(envelope("card", down), game=game)
    assert problems_of(envelope("card", {**down, "card": "5C"}), game) == [
        "data.card: must be absent: the card is face down"]
    assert problems_of(envelope("card", {**down, "value": 5}), game) == [
        "data.value: must be absent: the card is face down"]


def test_a_games_schema_narrows_the_generic_one() -> None:
    down = {"hand": "banker", "position": 2, "face": "down"}
    validate_event(envelope("card", {**down, "seat": 3}))  # a seat's card, in a game that deals to seats
    assert problems_of(envelope("card", {**down, "rank": "5"}), "baccarat") == [
        "data.rank: unknown key (allowed: card, face, hand, position, value)"]
    assert problems_of(envelope("card", {**down, "hand": "seat"}), "baccarat") == [
        'data.hand: must be one of "player", "banker" (got "seat")']


def test_a_face_up_card_must_name_it() -> None:
    assert problems_of(envelope("card", {"hand": "player", "position": 1, "face": "up"})) == [
        "data.card: is required"]
    assert problems_of(envelope("card", {"hand": "player", "position": 1, "face": "up"}), "baccarat") == [
        "data.card: is required", "data.value: is required"]
    assert problems_of(envelope("card", {**EXAMPLES["card"], "card": "1OH"})) == [
        'data.card: must be a card code such as 7H, 10S, QD or JK (got "1OH")']


def test_a_deck_check_cannot_carry_the_read_order() -> None:
    assert problems_of(envelope("deck_check", {**EXAMPLES["deck_check"], "cards": ["AS", "2S"]})) == [
        "data.cards: unknown key (allowed: counted, expected, extra, missing, ok, unreadable)"]


@pytest.mark.parametrize("env, expected", [
    (envelope("nope", {}), ["kind: no schema for event kind 'nope'"]),
    (envelope("table", {"status": "open"}, seq=0), ["seq: must be at least 1 (got 0)"]),
    (envelope("table", {"status": "open"}, extra=1), ["extra: unknown key"]),
    ({k: v for k, v in envelope("table", {"status": "open"}).items() if k != "ts"}, ["ts: is required"]),
    (envelope("table", {"status": "ajar"}), ['data.status: must be one of "open", "closed" (got "ajar")']),
    (envelope("lights", {**EXAMPLES["lights"], "seats": {"action": [15]}}), ["data.seats.action[0]: must be at most 14"]),
    (envelope("lights", {**EXAMPLES["lights"], "seats": {"bonus": [1]}}), ["data.seats.bonus: must be one of"]),
])
def test_bad_envelopes(env: dict[str, Any], expected: list[str]) -> None:
    found = problems_of(env)
    assert len(found) == len(expected) and all(f.startswith(e) for f, e in zip(found, expected, strict=True)), found


def test_the_error_names_the_event() -> None:
    with pytest.raises(SchemaError, match=r"^event 12 \(card\): data\.position"):
        validate_event(envelope("card", {**EXAMPLES["card"], "position": 4}), game="baccarat")


def test_status_state_command_reply() -> None:
    validate("status", {"online": True, "table": "bac-01", "birth": 3, "game": "baccarat", "version": "0.1.0",
                        "devices": {"shoe": "online", "shuffler": "unknown"}, "next_seq": 120, "ts": 1.0})
    validate("status", {"online": False, "table": "bac-01", "birth": 3, "reason": "connection lost"})
    with pytest.raises(SchemaError, match="next_seq: is required"):
        validate("status", {"online": True, "table": "bac-01", "birth": 3, "game": "baccarat", "version": "0.1",
                            "devices": {}, "ts": 1.0})
    validate("state", {"table": "bac-01", "seq": 0, "ts": 1.0, "state": "closed", "round": None,
                       "prompt": {"expect": "open"}, "game": "baccarat"})
    validate("command#/$defs/void", {"id": "r1", "reason": "dealer error"})
    validate("reply", {"id": "r1", "command": "void", "ok": True, "data": {"state": "ready"}})
    validate("reply", {"id": None, "command": "x", "ok": False, "error": "unknown command"})
    with pytest.raises(SchemaError, match="error: is required"):
        validate("reply", {"id": 1, "command": "open", "ok": False})


MARK = "Zq9"
"""A string that no schema allows where it is put and no refusal has any reason to say."""


@pytest.mark.parametrize(("game", "command", "payload"), [
    ("stud", "up_cards", {"street": 3, "cards": {"2": ["QS"]}}),
    ("stud", "up_cards", {"street": 3, "cards": {"9C": 5}}),
    ("stud", "showdown", {"seat": 1, "cards": [["AS"], "KH"]}),
    ("stud", "showdown", {"seat": 1, "board": "AH", "cards": ["KH"] * 9}),
    ("holdem", "showdown", {"seat": 1, "cards": [{"c": "JD"}]}),
    ("holdem", "showdown", {"seat": "9C", "QS": 1}),
    ("mexican_stud", "up_cards", {"street": 2, "cards": {"3": 10}, "extra": "QC"}),
    ("mexican_stud", "expose", {"seat": 30, "card": 10, "by": "9C"}),
    ("draw", "showdown", {"seat": 1, "cards": ["9C"] * 12}),
    ("draw", "draw", {"draws": {"9C": "QS", "2": 9.5}}),
    ("draw", "irregularity", {"what": "9C", "card": ["QS"], "seat": "QS"}),
    ("pai_gow_tiles", "dispute", {"seats": {"9C": {"high": ["QS"], "low": 7}}, "reason": ["JD"]}),
    ("double_hand", "set_hand", {"seat": "9C", "two": ["QS"], "five": "AH KH QH JH 10H"}),
    ("hot_action", "hole_exposed", {"by": "9C"}),
    ("panguingue", "count", {"seat": 987, "cards": -4321, "touched_deck": "QS"}),
    (None, "button", {"button": 9, "seat": "9C"}),
    (None, "replay", {"from": "9C", "to": -7654}),
    (None, "void", {"reason": 98765}),
    (None, "dice_reset", {"cup": ["QS"], MARK: 1}),
    (None, "integrity_reset", {"wager": "9C"}),
    (None, "integrity_reset", {"wager": ["QS"], MARK: 1}),
])
def test_a_refused_command_quotes_nothing_it_got(game: str | None, command: str, payload: dict) -> None:
    # A refusal is published (the reply and the command event), journaled and archived; what was
    # refused may be a card still face down, typed in the wrong place (DESIGN.md, "What must never
    # leave the controller"). It names the key and what was expected: no string, number or unknown
    # key of the payload comes back (controller.table.commands, controller.shared.schemas quote=False).
    from controller.table.commands import CommandError, parse
    from controller.table.inbox import Command
    from games import registry

    extra = registry.get(game).commands if game else None
    body = {**payload, MARK: 1} if MARK not in payload else payload
    with pytest.raises(CommandError) as caught:
        parse(Command(command, json.dumps(body).encode(), "r"), remote_buttons=True, game=extra)
    said = str(caught.value)
    assert said.startswith(f"bad {command} command: ") and MARK not in said, said
    assert "unknown key" in said, "the key the sender made up is counted, not named"
    assert not re.search(r"\b(?:10|[2-9AJQK])[CDHS]\b", said), said
    for number in re.findall(r"-?\d+(?:\.\d+)?", json.dumps(payload)):
        if len(number.lstrip("-")) >= 3 or "." in number:   # a number only the payload has (not a rule's bound)
            assert number not in said, (number, said)


@pytest.mark.parametrize(("payload", "kind"), [(b'["9C"]', "a list"), (b'"QS"', "a string"), (b"98765", "a number"),
                                               (b"true", "true or false")])
def test_a_payload_that_is_no_object_is_named_by_its_type(payload: bytes, kind: str) -> None:
    from controller.table.commands import CommandError, parse
    from controller.table.inbox import Command

    with pytest.raises(CommandError) as caught:
        parse(Command("void", payload, "r"), remote_buttons=True)
    assert str(caught.value) == f'the payload must be a JSON object such as {{"id": "r1"}}, not {kind}'


def test_a_config_file_error_still_quotes_what_it_got() -> None:
    # The operator reads a config file's errors on the console: they keep quoting (they never go to
    # the pit). The same error for the pit quotes nothing.
    from jsonschema import Draft202012Validator

    from controller.shared.schemas import problems

    schema = {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}}}
    assert problems(Draft202012Validator(schema), {"id": "Bad Id"}) == ['id: must match ^[a-z]+$ (got "Bad Id")']
    assert problems(Draft202012Validator(schema), {"id": "Bad Id"}, quote=False) == ["id: must match ^[a-z]+$"]
