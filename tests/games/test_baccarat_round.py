"""The Commission-Free Baccarat round machine, driven by card codes.

Every test drives :class:`games.baccarat.BaccaratRound` as the controller
would (device input and pit commands) and checks the events a pit
subscriber would receive: their order, their data, that every one is
JSON-able and matches its schema in docs/schemas/events/, and that the
banker's face-down card (rule 10) appears nowhere before its reveal.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from games.baccarat import BaccaratOptions, BaccaratRound
from games.cards import JOKER, card, cards
from games.decks import SPECS
from games.round import Refused

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def _schema_validators() -> dict:
    """A validator per event kind from docs/schemas/events (the published contract), if present."""
    try:
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
    except ImportError:  # pragma: no cover - jsonschema is a project dependency
        return {}
    if not (SCHEMA_DIR / "events").is_dir():
        return {}
    resources = []
    for path in SCHEMA_DIR.rglob("*.json"):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    registry = Registry().with_resources(resources)
    out = {}
    for path in (SCHEMA_DIR / "events").glob("*.json"):
        contents = json.loads(path.read_text(encoding="utf-8"))
        if "data" in contents.get("$defs", {}):
            out[path.stem] = Draft202012Validator({"$ref": contents["$id"] + "#/$defs/data"}, registry=registry)
    return out


VALIDATORS = _schema_validators()


class Table:
    """A machine and everything it emitted, as a pit subscriber would see it."""

    def __init__(self, first_round: int = 1, **options) -> None:
        self.events: list[tuple[str, dict]] = []
        self.snapshots: list[dict] = []
        self.m = BaccaratRound(BaccaratOptions(**options), self.emit, first_round=first_round)

    def emit(self, kind: str, data: dict) -> None:
        json.dumps(data)  # every event is JSON-able
        if kind in VALIDATORS:
            errors = [e.message for e in VALIDATORS[kind].iter_errors(data)]
            assert not errors, f"{kind} {data}: {errors}"
        self.events.append((kind, copy.deepcopy(data)))

    def mark(self) -> int:
        return len(self.events)

    def since(self, mark: int, *skip: str) -> list[tuple[str, dict]]:
        return [(k, d) for k, d in self.events[mark:] if k not in skip]

    def kinds(self, mark: int = 0, *skip: str) -> list[str]:
        return [k for k, _ in self.since(mark, *skip)]

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def all(self, kind: str, mark: int = 0) -> list[dict]:
        return [d for k, d in self.events[mark:] if k == kind]

    # --- driving -------------------------------------------------------------------------

    def to_ready(self) -> BaccaratRound:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        m.button("shuffle_ack")
        assert m.state == "ready"
        return m

    def deal(self, codes: str) -> None:
        for c in cards(codes):
            self.m.card(c)
            self.snapshots.append(json.loads(json.dumps(self.m.snapshot())))

    def play_round(self, codes: str) -> None:
        """From ready or result: open betting (accepting any offer), no more bets, deal ``codes``."""
        m = self.m
        if m.state in ("ready", "result"):
            m.button("deal")
        while m.rotation is not None and m.rotation.offered is not None:
            m.button("deal")  # accept the offer
        m.button("deal")
        assert m.state == "dealing"
        self.deal(codes)


def ready_table(**options) -> Table:
    table = Table(**options)
    table.to_ready()
    return table


def betting_dealing(table: Table) -> None:
    table.m.button("deal")
    table.m.button("deal")
    assert table.m.state == "dealing"


def assert_hidden_until_reveal(table: Table, mark: int, hole: str) -> None:
    """The face-down card's code appears in no event before its ``reveal`` (DESIGN.md)."""
    pattern = re.compile(rf"(?<![0-9A-Z]){re.escape(hole)}(?![0-9A-Z])")
    for kind, data in table.since(mark):
        if kind == "reveal":
            assert data["card"] == hole
            return
        assert not pattern.search(json.dumps(data)), f"{hole} leaked in {kind} {data}"
        if kind == "card" and data["face"] == "down":
            assert set(data) == {"hand", "position", "face"}
    raise AssertionError("no reveal")


# --- full rounds -----------------------------------------------------------------------------


def test_round_player_draws_banker_draws_on_chart_16b_ii():
    """P 2H 3C = 5 draws 5D (13b) -> 0; B KD 4S = 4, player's third 5 -> draws (16b-ii) 9C -> 3.

    Banker wins 3-0 at 1:1 (19b). Action button: banker's 2nd card 4S -> 4 -> seat 5 from seat 1 (21).
    """
    t = ready_table()
    mark = t.mark()
    betting_dealing(t)
    t.deal("2H KD 3C 4S 5D 9C")
    assert t.m.state == "result"
    assert t.kinds(mark) == [
        "button", "transition", "round_start", "prompt",           # deal: betting opens, round 1
        "button", "transition", "prompt",                          # deal: no more bets
        "card", "prompt", "card", "prompt", "card", "prompt",      # P1, B1, P2
        "card", "prompt",                                          # B2 face down; player draws
        "card", "reveal", "prompt",                                # P3; player complete: reveal
        "card", "transition", "result", "action_button", "prompt",  # B3; result
    ]
    assert t.all("round_start", mark) == [{"round": 1, "player_dealer": 1, "last_of_shoe": False}]
    assert t.all("card", mark) == [
        {"hand": "player", "position": 1, "face": "up", "card": "2H", "value": 2},
        {"hand": "banker", "position": 1, "face": "up", "card": "KD", "value": 0},
        {"hand": "player", "position": 2, "face": "up", "card": "3C", "value": 3},
        {"hand": "banker", "position": 2, "face": "down"},
        {"hand": "player", "position": 3, "face": "up", "card": "5D", "value": 5},
        {"hand": "banker", "position": 3, "face": "up", "card": "9C", "value": 9},
    ]
    assert t.last("reveal") == {"hand": "banker", "position": 2, "card": "4S", "value": 4}
    result = t.last("result")
    assert result["player"] == {"cards": ["2H", "3C", "5D"], "total": 0, "natural": False}
    assert result["banker"] == {"cards": ["KD", "4S", "9C"], "total": 3, "natural": False}
    assert result["winner"] == "banker" and result["payouts"]["banker"] == {"outcome": "win", "odds": [1, 1]}
    assert t.last("action_button") == {"card": "4S", "count": 4, "position": 4, "seat": 5}
    prompts = t.all("prompt", mark)
    assert [(p["expect"], p["hand"]) for p in prompts[1:7]] == [
        ("card", "player"), ("card", "banker"), ("card", "player"), ("card", "banker"),
        ("card", "player"), ("card", "banker")]
    assert prompts[4]["face"] == "down" and prompts[4]["position"] == 2
    assert prompts[-1] == {"expect": "settle", "hand": None, "buttons": ["deal"],
                           "text": "Settle round 1, clear the layout, press deal for the next round."}
    assert_hidden_until_reveal(t, mark, "4S")
    snap = t.m.snapshot()
    assert snap["lights"] == {"action_seat": 5, "player_dealer_seat": 1, "buttons_lit": ["deal"]}
    assert snap["hands"] == {"player": ["2H", "3C", "5D"], "banker": ["KD", "4S", "9C"]}


def test_round_both_stand_then_unexpected_card_rule_16a():
    """P 4H 3D = 7 stands (13a); B QC 6S = 6 stands (16a): reveal right after the 4th card,
    player wins 7-6. A fifth card 8H is unexpected: alarm names it and why, round in fault."""
    t = ready_table()
    mark = t.mark()
    betting_dealing(t)
    t.deal("4H QC 3D 6S")
    # The face-down card is announced, then turned at once: the player's hand is complete.
    seq = t.since(mark, "prompt", "button")
    i = next(n for n, (k, d) in enumerate(seq) if k == "card" and d["face"] == "down")
    assert [k for k, _ in seq[i:]] == ["card", "reveal", "transition", "result", "action_button"]
    assert t.last("result")["winner"] == "player"
    assert t.last("action_button") == {"card": "6S", "count": 6, "position": 6, "seat": 7}
    assert_hidden_until_reveal(t, mark, "6S")

    mark = t.mark()
    t.m.card(card("8H"))
    assert t.m.state == "fault"
    alarm = t.last("alarm")
    assert alarm["code"] == "unexpected_card" and alarm["card"] == "8H" and alarm["severity"] == "fault"
    assert alarm["expected"] == "no card: player stands on 7, banker stands on 6"
    assert "8H" in alarm["message"] and "player stands on 7, banker stands on 6" in alarm["message"]
    assert t.kinds(mark) == ["alarm", "transition", "prompt"]
    assert t.last("prompt")["expect"] == "fault" and t.last("prompt")["buttons"] == ["void"]


def test_round_natural_reveals_at_once_rule_18():
    """P 4H 4D = 8 natural; B 2C 3S = 5: no draws (18); reveal after B2; player wins 8-5."""
    t = ready_table()
    mark = t.mark()
    betting_dealing(t)
    t.deal("4H 2C 4D 3S")
    assert t.m.state == "result"
    r = t.last("result")
    assert r["player"]["natural"] and r["winner"] == "player"
    assert_hidden_until_reveal(t, mark, "3S")


def test_round_banker_natural_stops_player_draw_rule_18():
    """P 2H 3C = 5 would draw, but B KD 9S = 9 natural: reveal at once, banker wins, no third card."""
    t = ready_table()
    mark = t.mark()
    betting_dealing(t)
    t.deal("2H KD 3C 9S")
    assert t.m.state == "result"
    assert t.last("result")["banker"] == {"cards": ["KD", "9S"], "total": 9, "natural": True}
    assert_hidden_until_reveal(t, mark, "9S")
    # 9 -> action count 9 -> 9 mod 8 = position 1 -> seat 2 (rule 21, around_table).
    assert t.last("action_button") == {"card": "9S", "count": 9, "position": 1, "seat": 2}


def test_round_banker_six_pays_half_and_tie_pays_8_to_1():
    """Round 1: P KH 5C = 5 draws 10S (-> 5); B 3D 3H = 6 stands on a 0 (chart): banker 6, 1:2.
    Round 2: P AH 6C = 7, B 7D KS = 7: tie at 8:1, player and banker push (19c, 19d)."""
    t = ready_table()
    t.play_round("KH 3D 5C 3H 10S")
    r = t.last("result")
    assert r["banker_six"] and r["payouts"]["banker"] == {"outcome": "win", "odds": [1, 2]}
    t.play_round("AH 7D 6C KS")
    r = t.last("result")
    assert r["winner"] == "tie"
    assert r["payouts"] == {"player": {"outcome": "push", "odds": None},
                            "banker": {"outcome": "push", "odds": None},
                            "tie": {"outcome": "win", "odds": [8, 1]}}
    # King as the banker's 2nd card: 13 -> 13 mod 8 = 5 -> seat 6 from seat 1.
    assert t.last("action_button") == {"card": "KS", "count": 13, "position": 5, "seat": 6}


def test_action_button_skip_player_dealer_option_rule_21():
    """skip_player_dealer with the player-dealer at seat 3: an 8 counts 7 other seats, then seat 4
    again ((8 - 1) mod 7 + 1 = 1) -> seat 4."""
    t = ready_table(action_wrap="skip_player_dealer", first_player_dealer_seat=3)
    t.play_round("4H QC 3D 8S")  # P 7 stands, B 8 natural
    assert t.last("action_button") == {"card": "8S", "count": 8, "position": 1, "seat": 4}
    assert t.m.snapshot()["lights"]["action_seat"] == 4


def test_face_down_card_never_in_snapshot_before_reveal_rule_10():
    """The state topic shows the banker's 2nd card as null until it is turned."""
    t = ready_table()
    betting_dealing(t)
    t.deal("2H KD 3C 4S")  # player 5 will draw: the 4S stays face down
    snap = t.m.snapshot()
    assert snap["hands"]["banker"] == ["KD", None]
    assert "4S" not in json.dumps(snap)
    t.deal("5D")
    assert t.m.snapshot()["hands"]["banker"] == ["KD", "4S"]
    for s in t.snapshots[:4]:
        assert "4S" not in json.dumps(s)


def test_first_round_number_is_configurable():
    t = Table(first_round=41)
    t.to_ready()
    t.m.button("deal")
    assert t.m.round == 41 and t.last("round_start")["round"] == 41


# --- missing draw, unexpected cards, faults --------------------------------------------------------


def test_missing_draw_is_a_warning_and_leaves_the_round_unchanged_rule_13b():
    """P 2H 3C = 5 must draw (13b); deal pressed instead: missing_draw naming the player card."""
    t = ready_table()
    betting_dealing(t)
    t.deal("2H KD 3C 4S")
    mark = t.mark()
    t.m.button("deal")
    assert t.kinds(mark) == ["button", "alarm"]
    assert t.events[mark][1] == {"button": "deal", "accepted": False,
                                 "reason": "a card is due: card -> player (player has 5: draws (rule 13b))"}
    alarm = t.last("alarm")
    assert alarm["code"] == "missing_draw" and alarm["severity"] == "warning"
    assert alarm["expected"] == "card -> player (player has 5: draws (rule 13b))"
    assert "4S" not in json.dumps(alarm)
    assert t.m.state == "dealing"
    t.deal("5D 9C")
    assert t.m.state == "result"


def test_missing_banker_draw_names_rule_16a():
    """P 4H 3D = 7 stands; B KD 3S = 3 draws (16a): deal pressed -> missing_draw for the banker."""
    t = ready_table()
    betting_dealing(t)
    t.deal("4H KD 3D 3S")
    t.m.button("deal")
    assert t.last("alarm")["expected"] == "card -> banker (player stood on 7: banker has 3, draws (rule 16a))"


def test_foreign_card_during_dealing_is_a_fault_then_resume_burns_it():
    """A joker (rule 2: none in the shoe) as the 2nd card: alarm at once, fault; the pit resumes,
    the joker is burned, and the round goes on with the banker's first card."""
    t = ready_table()
    betting_dealing(t)
    t.deal("2H")
    mark = t.mark()
    t.m.card(JOKER)
    assert t.m.state == "fault"
    alarm = t.last("alarm")
    assert alarm["code"] == "foreign_card" and alarm["card"] == "JK" and alarm["severity"] == "fault"
    assert alarm["expected"].startswith("card -> banker")
    assert t.kinds(mark) == ["alarm", "transition", "prompt"]
    mark = t.mark()
    t.m.resume("pit")
    assert t.since(mark)[0] == ("resume", {"round": 1, "by": "pit", "burned": ["JK"]})
    assert t.last("transition") == {"from": "fault", "to": "dealing", "trigger": "resumed"}
    assert t.last("prompt")["hand"] == "banker" and t.last("prompt")["position"] == 1
    t.deal("KD 3C 4S 5D 9C")
    assert t.last("result")["player"]["cards"] == ["2H", "3C", "5D"]


def test_copy_too_many_during_dealing_is_a_fault():
    """On a one-deck shoe a second 7H cannot exist: card_too_many, fault, void by the dealer."""
    t = ready_table(spec=SPECS["baccarat"].times(1))
    betting_dealing(t)
    t.deal("7H")
    t.m.card(card("7H"))
    alarm = t.last("alarm")
    assert alarm["code"] == "card_too_many" and alarm["card"] == "7H" and "7H" in alarm["message"]
    assert t.m.state == "fault"
    mark = t.mark()
    t.m.button("void")
    assert t.kinds(mark) == ["button", "void", "transition", "prompt", "transition", "prompt"]
    assert t.all("void", mark) == [{"round": 1, "reason": "dealer pressed void", "by": "dealer"}]
    assert [d["to"] for d in t.all("transition", mark)] == ["voided", "ready"]
    assert t.m.state == "ready" and t.m.snapshot()["hands"] == {"player": [], "banker": []}


def test_void_from_fault_by_pit_after_unexpected_card():
    t = ready_table()
    t.play_round("4H QC 3D 6S")
    t.m.card(card("8H"))
    mark = t.mark()
    t.m.void("extra card drawn", "pit")
    assert t.all("void", mark) == [{"round": 1, "reason": "extra card drawn", "by": "pit"}]
    assert t.m.state == "ready"
    assert t.m.snapshot()["lights"]["action_seat"] is None


def test_resume_after_unexpected_card_returns_to_result():
    t = ready_table()
    t.play_round("4H QC 3D 6S")
    t.m.card(card("8H"))
    t.m.card(card("9H"))  # another card while in fault: also an alarm, also burned
    assert t.last("alarm")["card"] == "9H" and t.m.state == "fault"
    t.m.resume("pit")
    assert t.last("resume") == {"round": 1, "by": "pit", "burned": ["8H", "9H"]}
    assert t.m.state == "result" and t.last("prompt")["expect"] == "settle"
    assert t.m.snapshot()["result"]["winner"] == "player"  # the result is unchanged


def test_unexpected_card_while_betting_then_resume():
    t = ready_table()
    t.m.button("deal")
    t.m.card(card("5S"))
    alarm = t.last("alarm")
    assert alarm["code"] == "unexpected_card"
    assert alarm["expected"] == "no card: bets are open (press deal for no more bets first)"
    t.m.resume("dealer")
    assert t.m.state == "betting" and t.last("resume")["burned"] == ["5S"]


def test_card_with_no_round_cannot_be_voided_only_resumed():
    t = ready_table()
    t.m.card(card("5S"))
    assert t.m.state == "fault" and t.last("prompt")["buttons"] == []
    with pytest.raises(Refused, match="resume"):
        t.m.void("x", "pit")
    t.m.button("void")
    assert t.last("button")["accepted"] is False
    t.m.resume("pit")
    assert t.m.state == "ready"


def test_card_while_closed_is_a_warning_only():
    t = Table()
    t.m.card(card("5S"))
    assert t.m.state == "closed" and t.last("alarm")["severity"] == "warning"


def test_shoe_empty_mid_round_faults_and_void_goes_to_shuffle():
    t = ready_table()
    betting_dealing(t)
    t.deal("2H KD")
    t.m.shoe_empty()
    assert t.last("shoe")["event"] == "empty" and t.last("alarm")["code"] == "shoe_empty"
    assert t.m.state == "fault"
    with pytest.raises(Refused, match="shoe is empty"):
        t.m.resume("pit")
    t.m.button("void")
    assert t.m.state == "shuffle"


# --- deck integrity ----------------------------------------------------------------------------


def test_deck_check_missing_and_foreign_card_keeps_the_table_closed():
    """One 7H missing, one joker (foreign, rule 2) in its place: the alarm names both."""
    t = Table()
    t.m.open()
    deck = t.m.spec.all_cards()
    deck.remove(card("7H"))
    deck.append(JOKER)
    mark = t.mark()
    t.m.deck_checked(deck, 0)
    assert t.m.state == "deck_check"
    assert t.all("deck_check", mark) == [{"ok": False, "expected": 416, "counted": 416, "missing": ["7H"],
                                          "extra": ["JK"], "unreadable": 0}]
    alarm = t.last("alarm")
    assert alarm["code"] == "deck_check_failed" and alarm["missing"] == ["7H"] and alarm["extra"] == ["JK"]
    assert "missing 7H" in alarm["message"] and "extra JK" in alarm["message"]
    assert t.last("prompt")["expect"] == "deck_check"
    t.m.shuffled(416)  # a shuffle before a good deck check: ignored
    assert t.m.state == "deck_check" and t.last("alarm")["code"] == "unexpected_input"
    t.m.deck_checked(t.m.spec.all_cards(), 0)
    assert t.m.state == "shuffle"


def test_deck_check_with_unreadable_cards_fails():
    t = Table()
    t.m.open()
    deck = t.m.spec.all_cards()[:-1]
    t.m.deck_checked(deck, 1)
    assert t.m.state == "deck_check" and t.last("deck_check")["unreadable"] == 1
    assert "unreadable" in t.last("alarm")["message"]


def test_shuffle_count_wrong_alarms_and_goes_back_to_deck_check():
    t = Table()
    t.m.open()
    t.m.deck_checked(t.m.spec.all_cards(), 0)
    mark = t.mark()
    t.m.shuffled(415)
    assert t.all("shuffle", mark) == [{"ok": False, "count": 415, "expected": 416}]
    assert t.last("alarm")["code"] == "shuffle_count" and "415" in t.last("alarm")["message"]
    assert t.m.state == "deck_check"


# --- cut card ------------------------------------------------------------------------------------


def test_cut_card_makes_this_the_last_round_then_shuffle():
    t = ready_table()
    betting_dealing(t)
    t.deal("2H KD")
    t.m.cut_card()
    assert t.last("shoe") == {"event": "cut_card", "last_round": True, "remaining": 414}
    t.deal("3C 4S 5D 9C")
    assert "shuffle" in t.last("prompt")["text"]
    t.m.button("deal")
    assert t.m.state == "shuffle" and t.last("prompt")["expect"] == "shuffle"
    t.m.shuffled(416)
    t.m.button("shuffle_ack")
    t.m.button("deal")
    assert t.last("round_start") == {"round": 2, "player_dealer": 1, "last_of_shoe": False}
    assert t.m.snapshot()["shoe"] == {"dealt": 0, "remaining": 416, "last_round": False}


def test_cut_card_before_betting_marks_the_next_round_last():
    t = ready_table()
    t.m.cut_card()
    t.m.button("deal")
    assert t.last("round_start")["last_of_shoe"] is True


# --- pit commands ---------------------------------------------------------------------------------


def test_refused_pit_commands_out_of_place():
    t = Table()
    with pytest.raises(Refused, match="already closed"):
        t.m.close()
    with pytest.raises(Refused, match="nothing to resume"):
        t.m.resume("pit")
    with pytest.raises(Refused, match="no round"):
        t.m.void("x", "pit")
    t.to_ready()
    with pytest.raises(Refused, match="already open"):
        t.m.open()
    betting_dealing(t)
    with pytest.raises(Refused, match="in progress"):
        t.m.close()
    with pytest.raises(Refused, match="must be one of"):
        t.m.void("x", "someone")
    t.deal("4H QC 3D 6S")
    with pytest.raises(Refused, match="already has a result"):
        t.m.void("x", "pit")
    assert t.m.state == "result"
    t.m.close()
    assert t.m.state == "closed"


def test_pit_void_while_dealing_hides_the_face_down_card():
    t = ready_table()
    mark = t.mark()
    betting_dealing(t)
    t.deal("2H KD 3C 4S")
    t.m.card(JOKER)  # a fault while the 4S is face down: the alarm and prompt must not name it
    assert t.last("alarm")["expected"] == "card -> player (player has 5: draws (rule 13b))"
    assert t.m.snapshot()["hands"]["banker"] == ["KD", None]
    t.m.void("dispute", "pit")
    assert t.m.state == "ready"
    assert "4S" not in json.dumps(t.since(mark))
    assert "4S" not in json.dumps(t.m.snapshot())


def test_buttons_not_lit_are_refused_with_a_reason():
    t = ready_table()
    t.m.button("shuffle_ack")
    assert t.last("button") == {"button": "shuffle_ack", "accepted": False,
                                "reason": "shuffle_ack is not lit in state ready"}
    t.m.button("spin")
    assert t.last("button")["accepted"] is False and "unknown button" in t.last("button")["reason"]
    assert t.m.state == "ready"


# --- player-dealer and deal ---------------------------------------------------------------------------


def test_player_dealer_rotates_every_two_rounds_nobody_more_than_two():
    """'Player-dealer and Deal': seat 1 banks rounds 1-2, seat 2 accepts and banks 3-4, ..."""
    t = ready_table(seats=4)
    holders = []
    for n in range(10):
        s = "CDHS"[n % 4]  # vary the suits: an 8-deck shoe holds only 8 of each card
        t.play_round(f"4{s} Q{s} 3{s} 6{s}")
        holders.append(t.m.rotation.seat)
    assert holders == [1, 1, 2, 2, 3, 3, 4, 4, 1, 1]
    run = max(len(list(g)) for g in _runs(holders))
    assert run <= 2
    changes = [(d["seat"], d["change"]) for d in t.all("player_dealer")]
    assert changes[:4] == [(1, "kept"), (2, "offered"), (2, "accepted"), (2, "kept")]
    assert [d["player_dealer"] for d in t.all("round_start")] == [1, 1, 2, 2, 3, 3, 4, 4, 1, 1]


def _runs(seq):
    from itertools import groupby
    return [list(g) for _, g in groupby(seq)]


def test_offer_after_two_rounds_pass_moves_it_clockwise():
    """Seat 1 banks two rounds; the deal is offered to seat 2, which passes; seat 3 accepts."""
    t = ready_table(seats=4)
    t.play_round("4H QC 3D 6S")
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")  # settle round 2 -> offer to seat 2, betting for round 3
    assert t.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert t.m.state == "betting"
    prompt = t.last("prompt")
    assert prompt["buttons"] == ["deal", "pass"] and prompt["seat"] == 2 and "offered to seat 2" in prompt["text"]
    assert t.m.snapshot()["lights"]["player_dealer_seat"] == 2
    mark = t.mark()
    t.m.button("pass")
    assert t.all("player_dealer", mark) == [{"seat": 2, "consecutive": 0, "change": "passed"},
                                            {"seat": 3, "consecutive": 0, "change": "offered"}]
    t.m.button("deal")  # seat 3 accepts; bets still open
    assert t.last("player_dealer") == {"seat": 3, "consecutive": 0, "change": "accepted"}
    assert t.m.state == "betting"
    t.m.button("deal")
    assert t.m.state == "dealing"
    t.deal("4H QC 3D 6S")
    assert t.m.snapshot()["player_dealer"] == {"seat": 3, "consecutive": 0, "offered": None}


def test_game_broken_when_nobody_intervenes():
    """3 seats: seat 1 banks two rounds; seats 2 and 3 decline; the offer is back at seat 1:
    the game is broken (critical alarm) and the table closes; the open round is voided."""
    t = ready_table(seats=3)
    t.play_round("4H QC 3D 6S")
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")
    t.m.button("pass")
    mark = t.mark()
    t.m.button("pass")
    assert t.kinds(mark) == ["button", "player_dealer", "alarm", "void", "transition", "prompt"]
    alarm = t.last("alarm")
    assert alarm["code"] == "game_broken" and alarm["severity"] == "critical"
    assert t.last("void") == {"round": 3, "reason": "game broken: no intervening player-dealer",
                              "by": "controller"}
    assert t.m.state == "closed"
    # Reopened, the deal is offered again from seat 2: seat 1 still may not take it.
    t.to_ready()
    assert t.m.snapshot()["player_dealer"]["offered"] == 2


def test_voided_rounds_do_not_count_toward_two():
    t = ready_table()
    t.play_round("4H QC 3D 6S")          # round 1 counts
    t.m.button("deal")                    # round 2 betting
    t.m.button("deal")
    t.deal("2H")
    t.m.void("dispute", "pit")            # round 2 voided: does not count
    assert t.m.rotation.consecutive == 1
    t.play_round("4H QC 3D 6S")          # round 3 counts: seat 1's second
    t.m.button("deal")
    assert t.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}


def test_holder_passes_voluntarily():
    """Seat 1 passes before any round; seat 2 accepts with deal in ready, betting opens."""
    t = ready_table()
    mark = t.mark()
    t.m.button("pass")
    assert t.all("player_dealer", mark) == [{"seat": 1, "consecutive": 0, "change": "passed"},
                                            {"seat": 2, "consecutive": 0, "change": "offered"}]
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 2
    t.m.button("deal")
    assert t.last("round_start") == {"round": 1, "player_dealer": 2, "last_of_shoe": False}
    assert t.m.state == "betting"


def test_voluntary_pass_nobody_takes_it_holder_keeps():
    t = ready_table(seats=3)
    t.m.button("pass")
    t.m.button("pass")
    t.m.button("pass")
    assert t.last("player_dealer") == {"seat": 1, "consecutive": 0, "change": "kept"}
    assert t.m.state == "ready"


def test_snapshot_shape():
    t = ready_table()
    snap = t.m.snapshot()
    assert snap["state"] == "ready" and snap["round"] is None
    assert snap["lights"] == {"action_seat": None, "player_dealer_seat": 1, "buttons_lit": ["deal", "pass"]}
    assert snap["shoe"] == {"dealt": 0, "remaining": 416, "last_round": False}
    assert snap["player_dealer"] == {"seat": 1, "consecutive": 0, "offered": None}
    assert snap["prompt"]["expect"] == "bets"
    json.dumps(snap)


def test_options_are_validated():
    with pytest.raises(ValueError, match="seats"):
        BaccaratOptions(seats=1)
    with pytest.raises(ValueError, match="first_player_dealer_seat"):
        BaccaratOptions(seats=6, first_player_dealer_seat=7)
    with pytest.raises(ValueError, match="action_wrap"):
        BaccaratOptions(action_wrap="sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rule 2"):
        BaccaratOptions(spec=SPECS["joker_seven"])


def test_prompt_expect_and_buttons_per_state():
    """The prompt published on entering each state: what it expects and which buttons are lit."""
    t = Table()
    seen = {}

    def step(action):
        action()
        seen[t.m.state] = (t.last("prompt")["expect"], t.last("prompt")["buttons"])
        assert t.m.snapshot()["lights"]["buttons_lit"] == t.last("prompt")["buttons"]

    step(t.m.open)
    step(lambda: t.m.deck_checked(t.m.spec.all_cards(), 0))
    step(lambda: t.m.shuffled(416))
    step(lambda: t.m.button("shuffle_ack"))
    step(lambda: t.m.button("deal"))
    step(lambda: t.m.button("deal"))
    step(lambda: t.deal("4H QC 3D 6S"))
    step(lambda: t.m.card(card("8H")))
    step(lambda: t.m.resume("pit"))
    step(t.m.close)
    assert seen == {
        "deck_check": ("deck_check", []), "shuffle": ("shuffle", []), "load_shoe": ("load_shoe", ["shuffle_ack"]),
        "ready": ("bets", ["deal", "pass"]), "betting": ("bets", ["deal", "pass"]), "dealing": ("card", []),
        "result": ("settle", ["deal"]), "fault": ("fault", ["void"]), "closed": ("open", []),
    }
