"""The Commission-Free Baccarat round machine, driven by card codes.

Every test drives :class:`games.baccarat.BaccaratRound` as the controller
would (device input and pit commands) and checks the events a pit
subscriber would receive: their order, their data, that every one is
JSON-able and matches its schema in docs/schemas/events/ (through
``controller.shared.schemas``: a missing schema or kind fails the test), that every
snapshot matches docs/schemas/state.json, and that the banker's face-down
card (rule 10) appears nowhere before its reveal.

Rule numbers refer to california-card-room-games.txt, "Commission-Free
Baccarat"; "Player-dealer and Deal" is the section after rule 22.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from controller.shared.schemas import validate, validate_event
from games.baccarat import BaccaratOptions, BaccaratRound
from games.cards import JOKER, card, cards
from games.decks import standard
from games.round import Refused

TABLE_ID = "bac-test"


class Table:
    """A machine and everything it emitted, as a pit subscriber would see it."""

    def __init__(self, first_round: int = 1, **options) -> None:
        self.events: list[tuple[str, dict]] = []
        self.snapshots: list[dict] = []
        self.m: BaccaratRound | None = None
        self.m = BaccaratRound(BaccaratOptions(**options), self.emit, first_round=first_round)

    def emit(self, kind: str, data: dict) -> None:
        """Validate the event as published (envelope and data), then the state topic after it."""
        assert self.m is not None, "the machine emitted from its constructor"
        rnd = data.get("round") if isinstance(data.get("round"), int) else self.m.round
        envelope = {"seq": len(self.events) + 1, "ts": 0.0, "table": TABLE_ID, "round": rnd,
                    "kind": kind, "data": data}
        validate_event(json.loads(json.dumps(envelope)), game="baccarat")  # JSON-able, and valid against its schema
        self.events.append((kind, copy.deepcopy(data)))
        self.snap()

    def snap(self) -> dict:
        snap = json.loads(json.dumps(self.m.snapshot()))
        validate("state", {**snap, "table": TABLE_ID, "seq": len(self.events), "ts": 0.0})
        self.snapshots.append(snap)
        return snap

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

    def to_play(self) -> BaccaratRound:
        """Open the table as the pit, the shuffler and the dealer would: through ``ready`` to
        ``betting`` (or to ``ready`` when a player-dealer offer is pending)."""
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        m.button("shuffle_ack")
        assert m.state == ("ready" if m.rotation.offered is not None else "betting")
        return m

    def deal(self, codes: str) -> None:
        for c in cards(codes):
            self.m.card(c)

    def play_round(self, codes: str) -> None:
        """From betting, ready or result: settle (from result), accept any offer, no more bets,
        then deal ``codes``."""
        m = self.m
        if m.state == "result":
            m.button("deal")
        while m.rotation.offered is not None:
            m.button("deal")  # accept the offer (and open betting, from ready)
        assert m.state == "betting"
        m.button("deal")
        assert m.state == "dealing"
        self.deal(codes)


def open_table(**options) -> Table:
    """A table whose first round's bets are open."""
    table = Table(**options)
    table.to_play()
    return table


def no_more_bets(table: Table) -> None:
    assert table.m.state == "betting"
    table.m.button("deal")
    assert table.m.state == "dealing"


def _pattern(code: str) -> re.Pattern:
    return re.compile(rf"(?<![0-9A-Z]){re.escape(code)}(?![0-9A-Z])")


def assert_hidden_until_reveal(table: Table, mark: int, hole: str) -> None:
    """The face-down card's code appears in no event before its ``reveal`` (DESIGN.md)."""
    pattern = _pattern(hole)
    for kind, data in table.since(mark):
        if kind == "reveal":
            assert data["card"] == hole
            return
        assert not pattern.search(json.dumps(data)), f"{hole} leaked in {kind} {data}"
        if kind == "card" and data["face"] == "down":
            assert set(data) == {"hand", "position", "face"}
    raise AssertionError("no reveal")


def assert_never_shown(table: Table, mark: int, snap_mark: int, hole: str) -> None:
    """A face-down card that is never turned (the round faulted, then was voided) appears in
    no event and no snapshot from ``mark`` on (DESIGN.md, "What must never leave the controller")."""
    pattern = _pattern(hole)
    assert "reveal" not in table.kinds(mark)
    for kind, data in table.since(mark):
        assert not pattern.search(json.dumps(data)), f"{hole} leaked in {kind} {data}"
    for snap in [*table.snapshots[snap_mark:], table.snap()]:
        assert not pattern.search(json.dumps(snap)), f"{hole} leaked in a snapshot"


# --- full rounds -----------------------------------------------------------------------------


def test_round_player_draws_banker_draws_on_chart_16b_ii():
    """P 2H 3C = 5 draws 5D (13b) -> 0; B KD 4S = 4, player's third 5 -> draws (16b-ii) 9C -> 3.

    Banker wins 3-0 at 1:1 (19b). Action button: banker's 2nd card 4S -> 4 -> seat 5 from seat 1 (21).
    """
    t = Table()
    t.to_play()
    assert t.all("round_start") == [{"round": 1, "player_dealer": 1, "last_of_shoe": False}]
    mark = t.mark()
    no_more_bets(t)
    t.deal("2H KD 3C 4S 5D 9C")
    assert t.m.state == "result"
    assert t.kinds(mark) == [
        "button", "transition", "prompt",                          # deal: no more bets
        "card", "prompt", "card", "prompt", "card", "prompt",      # P1, B1, P2
        "card", "prompt",                                          # B2 face down; player draws
        "card", "reveal", "prompt",                                # P3; player complete: reveal
        "card", "transition", "result", "action_button", "prompt",  # B3; result
    ]
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
    assert result["player_dealer"] == 1
    assert t.last("action_button") == {"card": "4S", "count": 4, "position": 4, "seat": 5, "first_action_seat": 5}
    prompts = t.all("prompt", mark)
    assert [(p["expect"], p["hand"]) for p in prompts[:6]] == [
        ("card", "player"), ("card", "banker"), ("card", "player"), ("card", "banker"),
        ("card", "player"), ("card", "banker")]
    assert prompts[3]["face"] == "down" and prompts[3]["position"] == 2
    assert prompts[-1] == {"expect": "settle", "hand": None, "buttons": ["deal"],
                           "text": "Settle round 1, clear the layout, press deal for the next round."}
    assert_hidden_until_reveal(t, 0, "4S")
    snap = t.m.snapshot()
    assert snap["lights"] == {"seats": {"action": [5], "player_dealer": [1]}, "buttons_lit": ["deal"], "seat_buttons_lit": {}}
    assert snap["hands"] == {"player": ["2H", "3C", "5D"], "banker": ["KD", "4S", "9C"]}
    assert snap["result"] == result
    assert snap["action_button"] == t.last("action_button")


def test_round_both_stand_then_unexpected_card_rule_16a():
    """P 4H 3D = 7 stands (13a); B QC 6S = 6 stands (16a): reveal right after the 4th card,
    player wins 7-6. A fifth card 8H is unexpected: alarm names it and why, round in fault."""
    t = open_table()
    mark = t.mark()
    no_more_bets(t)
    t.deal("4H QC 3D 6S")
    # The face-down card is announced, then turned at once: the player's hand is complete.
    seq = t.since(mark, "prompt", "button")
    i = next(n for n, (k, d) in enumerate(seq) if k == "card" and d["face"] == "down")
    assert [k for k, _ in seq[i:]] == ["card", "reveal", "transition", "result", "action_button"]
    assert t.last("result")["winner"] == "player"
    assert t.last("action_button") == {"card": "6S", "count": 6, "position": 6, "seat": 7, "first_action_seat": 7}
    assert_hidden_until_reveal(t, mark, "6S")

    mark = t.mark()
    t.m.card(card("8H"))
    assert t.m.state == "fault"
    alarm = t.last("alarm")
    assert alarm["code"] == "unexpected_card" and alarm["card"] == "8H" and alarm["severity"] == "fault"
    assert alarm["expected"] == "no card: player stands on 7, banker stands on 6"
    assert "8H" in alarm["message"] and "player stands on 7, banker stands on 6" in alarm["message"]
    assert t.kinds(mark) == ["alarm", "transition", "prompt"]
    # The round has its result: the card is burned on the pit's resume, the round is not voidable.
    assert alarm["action"] == "hold the card for the pit: it resumes to burn it (the round's result stands)"
    assert t.last("prompt")["expect"] == "fault" and t.last("prompt")["buttons"] == []


def test_round_natural_reveals_at_once_rule_18():
    """P 4H 4D = 8 natural; B 2C 3S = 5: no draws (18); reveal after B2; player wins 8-5."""
    t = open_table()
    mark = t.mark()
    no_more_bets(t)
    t.deal("4H 2C 4D 3S")
    assert t.m.state == "result"
    r = t.last("result")
    assert r["player"]["natural"] and r["winner"] == "player"
    assert_hidden_until_reveal(t, mark, "3S")


def test_round_banker_natural_stops_player_draw_rule_18():
    """P 2H 3C = 5 would draw, but B KD 9S = 9 natural: reveal at once, banker wins, no third card."""
    t = open_table()
    mark = t.mark()
    no_more_bets(t)
    t.deal("2H KD 3C 9S")
    assert t.m.state == "result"
    assert t.last("result")["banker"] == {"cards": ["KD", "9S"], "total": 9, "natural": True}
    assert_hidden_until_reveal(t, mark, "9S")
    # 9 -> action count 9 -> 9 mod 8 = position 1 -> seat 2 (rule 21, around_table).
    assert t.last("action_button") == {"card": "9S", "count": 9, "position": 1, "seat": 2, "first_action_seat": 2}


def test_round_banker_six_pays_half_and_tie_pays_8_to_1():
    """Round 1: P KH 5C = 5 draws 10S (-> 5); B 3D 3H = 6 stands on a 0 (chart): banker 6, 1:2.
    Round 2: P AH 6C = 7, B 7D KS = 7: tie at 8:1, player and banker push (19c, 19d)."""
    t = open_table()
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
    assert t.last("action_button") == {"card": "KS", "count": 13, "position": 5, "seat": 6, "first_action_seat": 6}


def test_action_button_skip_player_dealer_option_rule_21():
    """skip_player_dealer with the player-dealer at seat 3: an 8 counts 7 other seats, then seat 4
    again ((8 - 1) mod 7 + 1 = 1) -> seat 4."""
    t = open_table(action_wrap="skip_player_dealer", first_player_dealer_seat=3)
    t.play_round("4H QC 3D 8S")  # P 7 stands, B 8 natural
    assert t.last("action_button") == {"card": "8S", "count": 8, "position": 1, "seat": 4, "first_action_seat": 4}
    assert t.m.snapshot()["lights"]["seats"]["action"] == [4]


def test_action_button_on_the_player_dealer_gives_first_action_to_its_left_rule_21():
    """around_table, 8 seats, player-dealer at seat 6: the face-down 8S counts 8, 8 mod 8 =
    position 0, the player-dealer's own position. The button goes on seat 6 (the lights'
    action_seat: where the button physically sits); first action goes to the player to the
    player-dealer's left, seat 7 -- the order rule 21 uses when the player-dealer covers all action."""
    t = open_table(first_player_dealer_seat=6)
    t.play_round("4H QC 3D 8S")  # P 7 stands, B 8 natural
    assert t.last("action_button") == {"card": "8S", "count": 8, "position": 0, "seat": 6, "first_action_seat": 7}
    snap = t.m.snapshot()
    assert snap["lights"]["seats"] == {"action": [6], "player_dealer": [6]}
    assert snap["action_button"]["first_action_seat"] == 7


# Rule 21 through the machine, hand-worked for 8 seats (rule 3's maximum) and counts 1..13 (A..K):
# (seat, first_action_seat) of the button when the banker's face-down card has that rank.
#   around_table: position = count mod 8; seat = pd seat + position (8 wraps to 1); the 8 lands on
#     position 0 = the player-dealer's seat, and first action goes to the seat on its left.
#   skip_player_dealer: position = ((count - 1) mod 7) + 1, never 0: first action at the button.
#                                 A  2  3  4  5  6  7  8  9  10 J  Q  K
FIRST_ACTION_8 = {
    ("around_table", 1): ([2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6],
                          [2, 3, 4, 5, 6, 7, 8, 2, 2, 3, 4, 5, 6]),
    ("around_table", 6): ([7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3],
                          [7, 8, 1, 2, 3, 4, 5, 7, 7, 8, 1, 2, 3]),
    ("skip_player_dealer", 1): ([2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7],
                                [2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7]),
    ("skip_player_dealer", 6): ([7, 8, 1, 2, 3, 4, 5, 7, 8, 1, 2, 3, 4],
                                [7, 8, 1, 2, 3, 4, 5, 7, 8, 1, 2, 3, 4]),
}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("wrap,pd_seat", sorted(FIRST_ACTION_8))
def test_action_button_and_first_action_every_count_8_seats_rule_21(wrap, pd_seat):
    """P 4H 5D = 9 natural (rule 18: nobody draws), B QC and the rank under test face down."""
    seats, firsts = FIRST_ACTION_8[(wrap, pd_seat)]
    for n, rank in enumerate(RANKS):
        t = open_table(action_wrap=wrap, first_player_dealer_seat=pd_seat)
        t.play_round(f"4H QC 5D {rank}S")
        ab = t.last("action_button")
        assert (ab["count"], ab["seat"], ab["first_action_seat"]) == (n + 1, seats[n], firsts[n]), rank
        assert t.m.snapshot()["lights"]["seats"]["action"] == [seats[n]]
        assert t.last("result")["player_dealer"] == pd_seat


def test_face_down_card_never_in_snapshot_before_reveal_rule_10():
    """The state topic shows the banker's 2nd card as null until it is turned."""
    t = open_table()
    no_more_bets(t)
    snaps = len(t.snapshots)
    t.deal("2H KD 3C 4S")  # player 5 will draw: the 4S stays face down
    snap = t.m.snapshot()
    assert snap["hands"]["banker"] == ["KD", None]
    assert "4S" not in json.dumps(snap)
    for s in t.snapshots[snaps:]:
        assert "4S" not in json.dumps(s)
    t.deal("5D")
    assert t.m.snapshot()["hands"]["banker"] == ["KD", "4S"]


def test_first_round_number_is_configurable():
    t = Table(first_round=41)
    t.to_play()
    assert t.m.round == 41 and t.last("round_start")["round"] == 41


# --- the round sequence: result -> ready -> betting ----------------------------------------------


def test_shuffle_ack_goes_through_ready_straight_to_betting():
    """closed -> deck check -> shuffle -> load_shoe -> ready -> betting: with no player-dealer
    offer pending, ready opens betting at once and publishes no prompt of its own (the simulated
    dealer acts on every prompt: a 'bets' prompt for ready would make it press deal twice)."""
    t = Table()
    t.m.open()
    t.m.deck_checked(t.m.spec.all_cards(), 0)
    t.m.shuffled(416)
    mark = t.mark()
    t.m.button("shuffle_ack")
    assert t.since(mark) == [
        ("button", {"button": "shuffle_ack", "accepted": True, "reason": None}),
        ("transition", {"from": "load_shoe", "to": "ready", "trigger": "shoe_loaded"}),
        ("transition", {"from": "ready", "to": "betting", "trigger": "betting_opened"}),
        ("round_start", {"round": 1, "player_dealer": 1, "last_of_shoe": False}),
        ("prompt", {"expect": "bets", "hand": None, "buttons": ["deal", "pass"],
                    "text": "Bets open for round 1: press deal for no more bets."}),
    ]
    assert [s["state"] for s in t.snapshots[-4:]] == ["ready", "betting", "betting", "betting"]


def test_settling_goes_to_ready_then_betting_two_deal_presses_a_round():
    """deal in result settles round 1 (player-dealer count: seat 1 has banked 1 of 2, 'kept'),
    goes to ready and, no offer pending, at once to betting for round 2. The dealer presses deal
    twice a round: settle, then no more bets."""
    t = open_table()
    t.play_round("4H QC 3D 6S")
    mark = t.mark()
    t.m.button("deal")
    assert t.since(mark, "prompt") == [
        ("button", {"button": "deal", "accepted": True, "reason": None}),
        ("player_dealer", {"seat": 1, "consecutive": 1, "change": "kept"}),
        ("transition", {"from": "result", "to": "ready", "trigger": "round_settled"}),
        ("transition", {"from": "ready", "to": "betting", "trigger": "betting_opened"}),
        ("round_start", {"round": 2, "player_dealer": 1, "last_of_shoe": False}),
    ]
    assert [d["expect"] for d in t.all("prompt", mark)] == ["bets"]
    assert t.m.snapshot()["lights"] == {"seats": {"action": [], "player_dealer": [1]}, "buttons_lit": ["deal", "pass"], "seat_buttons_lit": {}}
    before = len(t.all("button"))
    t.m.button("deal")                    # no more bets
    t.deal("4D QD 3H 6H")
    t.m.button("deal")                    # settle round 2: seat 1's second, so the deal is offered
    assert len(t.all("button")) - before == 2
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 2


def test_offer_pending_waits_in_ready_with_the_seat_player_dealer_and_deal():
    """'Player-dealer and Deal': seat 1 banks rounds 1 and 2; settling round 2 offers the deal to
    seat 2, so the table waits in ready with the bets prompt naming seat 2 (deal = accept and open
    betting, pass = decline)."""
    t = open_table(seats=4)
    t.play_round("4H QC 3D 6S")
    t.play_round("4H QC 3D 6S")
    mark = t.mark()
    t.m.button("deal")
    assert t.kinds(mark) == ["button", "player_dealer", "transition", "prompt"]
    assert t.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert t.last("transition") == {"from": "result", "to": "ready", "trigger": "round_settled"}
    assert t.m.state == "ready" and t.m.round == 2
    assert t.last("prompt") == {
        "expect": "bets", "hand": None, "buttons": ["deal", "pass"], "seat": 2,
        "text": "The player-dealer position is offered to seat 2: deal = seat 2 accepts and betting "
                "opens; pass = seat 2 declines."}
    assert t.m.snapshot()["lights"]["seats"]["player_dealer"] == [2]
    mark = t.mark()
    t.m.button("deal")
    assert t.since(mark, "prompt") == [
        ("button", {"button": "deal", "accepted": True, "reason": None}),
        ("player_dealer", {"seat": 2, "consecutive": 0, "change": "accepted"}),
        ("transition", {"from": "ready", "to": "betting", "trigger": "betting_opened"}),
        ("round_start", {"round": 3, "player_dealer": 2, "last_of_shoe": False}),
    ]
    assert t.last("prompt")["text"] == "Bets open for round 3: press deal for no more bets."


def test_cut_card_with_an_offer_pending_shuffle_then_ready_waits():
    """The cut card comes out in seat 1's second round: settling goes to the shuffle with the offer
    to seat 2 pending; after the shuffle, load_shoe -> ready waits for seat 2's answer."""
    t = open_table(seats=4)
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")
    no_more_bets(t)
    t.deal("4D QD")
    t.m.cut_card()
    t.deal("3H 6H")
    t.m.button("deal")
    assert t.m.state == "shuffle" and t.last("player_dealer")["change"] == "offered"
    t.m.shuffled(416)
    mark = t.mark()
    t.m.button("shuffle_ack")
    assert t.kinds(mark) == ["button", "transition", "prompt"]
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 2
    t.m.button("deal")
    assert t.m.state == "betting" and t.last("round_start") == {"round": 3, "player_dealer": 2,
                                                                 "last_of_shoe": False}


def test_close_while_betting_voids_the_open_round_and_closes():
    """Betting opens as soon as a round is settled, so the pit's close between rounds voids the
    round whose bets are open (no card dealt) and closes the table."""
    t = open_table()
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")
    mark = t.mark()
    t.m.close()
    assert t.since(mark, "prompt") == [
        ("void", {"round": 2, "reason": "the table closed before the deal", "by": "pit"}),
        ("transition", {"from": "betting", "to": "closed", "trigger": "close_table"}),
    ]
    assert t.m.state == "closed" and t.m.rotation.consecutive == 1  # the voided round 2 did not count


# --- missing draw, unexpected cards, faults --------------------------------------------------------


def test_missing_draw_is_a_warning_and_leaves_the_round_unchanged_rule_13b():
    """P 2H 3C = 5 must draw (13b); deal pressed instead: missing_draw naming the player card."""
    t = open_table()
    no_more_bets(t)
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
    t = open_table()
    no_more_bets(t)
    t.deal("4H KD 3D 3S")
    t.m.button("deal")
    assert t.last("alarm")["expected"] == "card -> banker (player stood on 7: banker has 3, draws (rule 16a))"


def test_foreign_card_during_dealing_is_a_fault_then_resume_burns_it():
    """A joker (rule 2: none in the shoe) as the 2nd card: alarm at once, fault; the pit resumes,
    the joker is burned, and the round goes on with the banker's first card."""
    t = open_table()
    no_more_bets(t)
    t.deal("2H")
    mark = t.mark()
    t.m.card(JOKER)
    assert t.m.state == "fault"
    alarm = t.last("alarm")
    assert alarm["code"] == "foreign_card" and alarm["card"] == "JK" and alarm["severity"] == "fault"
    assert alarm["expected"].startswith("card -> banker")
    assert t.kinds(mark) == ["alarm", "transition", "prompt"]
    assert t.m.snapshot()["fault"]["resumable"] is True
    mark = t.mark()
    t.m.resume("pit")
    assert t.since(mark)[0] == ("resume", {"round": 1, "by": "pit", "burned": ["JK"]})
    assert t.last("transition") == {"from": "fault", "to": "dealing", "trigger": "resumed"}
    assert t.last("prompt")["hand"] == "banker" and t.last("prompt")["position"] == 1
    t.deal("KD 3C 4S 5D 9C")
    assert t.last("result")["player"]["cards"] == ["2H", "3C", "5D"]


def test_copy_too_many_during_dealing_is_a_fault():
    """On a one-deck shoe a second 7H cannot exist: card_too_many, fault, void by the dealer;
    the next round's bets open at once (voided -> ready -> betting)."""
    t = open_table(spec=standard(1))
    no_more_bets(t)
    t.deal("7H")
    t.m.card(card("7H"))
    alarm = t.last("alarm")
    assert alarm["code"] == "card_too_many" and alarm["card"] == "7H" and "7H" in alarm["message"]
    assert t.m.state == "fault"
    mark = t.mark()
    t.m.button("void")
    assert t.kinds(mark) == ["button", "void", "transition", "transition", "transition", "round_start", "prompt"]
    assert t.all("void", mark) == [{"round": 1, "reason": "dealer pressed void", "by": "dealer", "cards_burned": 1}]
    assert [d["to"] for d in t.all("transition", mark)] == ["voided", "ready", "betting"]
    assert t.m.state == "betting" and t.m.round == 2
    assert t.m.snapshot()["hands"] == {"player": [], "banker": []}


def test_a_card_after_the_result_never_voids_the_decided_round():
    """Issue 19: a card drawn after the round's result faulted it, and the dealer's void then voided
    a round whose winner the pit had been told: a round with both a result and a void (reports count
    a hand by its result). The result stands; the card is the pit's to burn, and a restart leaves
    the round alone."""
    t = open_table()
    t.play_round("4H QC 3D 6S")
    t.m.card(card("8H"))
    assert not t.m.round_open
    mark = t.mark()
    assert not t.m.press("void").accepted
    with pytest.raises(Refused, match="round 1 already has its result, which stands: resume to burn the card"):
        t.m.void("extra card drawn", "pit")
    assert t.all("void", mark) == [] and t.m.state == "fault"
    t.m.resume("pit")
    assert t.last("resume") == {"round": 1, "by": "pit", "burned": ["8H"]} and t.m.state == "result"


def test_resume_after_unexpected_card_returns_to_result():
    t = open_table()
    t.play_round("4H QC 3D 6S")
    t.m.card(card("8H"))
    t.m.card(card("9H"))  # another card while in fault: also an alarm, also burned
    assert t.last("alarm")["card"] == "9H" and t.m.state == "fault"
    t.m.resume("pit")
    assert t.last("resume") == {"round": 1, "by": "pit", "burned": ["8H", "9H"]}
    assert t.m.state == "result" and t.last("prompt")["expect"] == "settle"
    assert t.m.snapshot()["result"]["winner"] == "player"  # the result is unchanged


def test_unexpected_card_while_betting_then_resume():
    t = open_table()
    t.m.card(card("5S"))
    alarm = t.last("alarm")
    assert alarm["code"] == "unexpected_card"
    assert alarm["expected"] == "no card: bets are open (press deal for no more bets first)"
    t.m.resume("dealer")
    assert t.m.state == "betting" and t.last("resume")["burned"] == ["5S"]


def test_card_with_no_round_cannot_be_voided_only_resumed():
    """A card read while the shoe is being loaded: no round to void; resume burns it."""
    t = Table()
    t.m.open()
    t.m.deck_checked(t.m.spec.all_cards(), 0)
    t.m.shuffled(416)
    t.m.card(card("5S"))
    assert t.m.state == "fault" and t.last("prompt")["buttons"] == []
    with pytest.raises(Refused, match="resume"):
        t.m.void("x", "pit")
    t.m.button("void")
    assert t.last("button")["accepted"] is False
    t.m.resume("pit")
    assert t.m.state == "load_shoe"


def test_card_in_ready_with_an_offer_pending_resumes_to_ready():
    """Seat 1 banks two rounds; the offer to seat 2 waits in ready; a card read there is a fault
    with no round to void; resume goes back to ready, the offer still pending."""
    t = open_table(seats=3)
    t.play_round("4H QC 3D 6S")
    t.play_round("4D QD 3H 6H")
    t.m.button("deal")
    assert t.m.state == "ready"
    t.m.card(card("5S"))
    assert t.m.state == "fault" and t.m.snapshot()["lights"]["buttons_lit"] == []
    mark = t.mark()
    t.m.resume("pit")
    assert t.kinds(mark) == ["resume", "transition", "prompt"]
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 2


def test_card_while_closed_is_a_warning_only():
    t = Table()
    t.m.card(card("5S"))
    assert t.m.state == "closed" and t.last("alarm")["severity"] == "warning"


def test_shoe_empty_mid_round_faults_and_void_goes_to_shuffle():
    t = open_table()
    no_more_bets(t)
    t.deal("2H KD")
    t.m.shoe_empty()
    assert t.last("shoe")["event"] == "empty" and t.last("alarm")["code"] == "shoe_empty"
    assert t.m.state == "fault"
    with pytest.raises(Refused, match="shoe is empty"):
        t.m.resume("pit")
    t.m.button("void")
    assert t.m.state == "shuffle"


# --- device faults (machine.device_fault) ------------------------------------------------------------


@pytest.mark.parametrize("code,what", [
    ("misread", "a card left the shoe unread"),
    ("double_card", "two cards left the shoe at once"),
    ("unknown_card", "a card left the shoe and what the shoe read is not a card"),
])
def test_shoe_card_fault_while_dealing_can_only_be_voided(code, what):
    """P 2H 3C = 5, B KD and the 4S face down (rule 10); then the shoe reports a card that left it
    unseen: the layout holds a card the machine never read, so the round cannot go on (rules 11-16
    need every card): alarm shoe_<code>, fault, resume refused with the reason, void only. The
    face-down 4S never reaches an event or a snapshot, not even in the alarm (no card at all)."""
    t = open_table()
    no_more_bets(t)
    t.deal("2H KD 3C 4S")
    mark = t.mark()
    t.m.device_fault("shoe", code, "card 4S went by unread")  # a detail naming a card is not repeated
    assert t.kinds(mark) == ["alarm", "transition", "prompt"]
    alarm = t.last("alarm")
    assert alarm == {
        "code": f"shoe_{code}", "severity": "fault",
        "message": f"round 1: {what} (shoe {code}): the layout no longer matches what was read",
        "card": None, "expected": "card -> player (player has 5: draws (rule 13b))", "missing": [], "extra": [],
        "action": f"{what}: void the round (dealer's void button or pit cmd/void)"}
    assert t.m.state == "fault"
    prompt = t.last("prompt")
    assert prompt["expect"] == "fault" and prompt["buttons"] == ["void"]
    assert "cannot be resumed" in prompt["text"]
    assert t.m.snapshot()["fault"]["resumable"] is False
    with pytest.raises(Refused, match="the layout no longer matches what was read; void it"):
        t.m.resume("pit")
    assert t.m.state == "fault"
    t.m.button("void")
    assert t.last("void") == {"round": 1, "reason": "dealer pressed void", "by": "dealer", "cards_burned": 0}
    assert t.m.state == "betting" and t.m.round == 2
    assert_never_shown(t, 0, 0, "4S")


@pytest.mark.parametrize("code", ["offline", "heartbeat_lost", "link_lost"])
def test_shoe_link_fault_while_dealing_resumes_with_the_same_card_due(code):
    """P 2H 3C = 5 (draws, 13b), B KD and 4S face down; the shoe's link drops: fault. The round
    resumes only once the shoe is back and its count shows every card it read arrived
    (docs/protocols.md, "Reliability"); then the same card is due (P3)."""
    t = open_table()
    no_more_bets(t)
    t.deal("2H KD 3C 4S")
    due = t.last("prompt")
    t.m.device_fault("shoe", code, "no heartbeat for 3.0 s")
    alarm = t.last("alarm")
    assert alarm["code"] == f"shoe_{code}" and alarm["severity"] == "fault" and alarm["card"] is None
    assert "every card it read arrived" in alarm["message"] and "resumes" in alarm["action"]
    assert t.m.state == "fault" and t.m.snapshot()["fault"]["resumable"] is False
    with pytest.raises(Refused, match="cannot resume yet: the shoe has not shown that every card it read arrived"):
        t.m.resume("pit")
    t.m.device_input("shoe", "reads_accounted", {"count": 4})
    assert t.m.snapshot()["fault"]["resumable"] is True
    assert "every card it read arrived: the pit may resume" in t.last("prompt")["text"]
    mark = t.mark()
    t.m.resume("pit")
    assert t.since(mark)[-3:] == [
        ("resume", {"round": 1, "by": "pit", "burned": []}),
        ("transition", {"from": "fault", "to": "dealing", "trigger": "resumed"}),
        ("prompt", due),
    ]
    t.deal("5D 9C")  # the player's third card turns the 4S (rules 13b, 10), then 16b-ii: banker draws
    assert t.last("result")["banker"]["cards"] == ["KD", "4S", "9C"]
    assert_hidden_until_reveal(t, 0, "4S")  # through the fault and the resume


def test_shoe_link_fault_then_misread_in_the_same_fault_cannot_resume():
    """The link drops (resumable), then a misread arrives while still in fault: no resume any more."""
    t = open_table()
    no_more_bets(t)
    t.deal("2H KD")
    t.m.device_fault("shoe", "heartbeat_lost", "")
    t.m.device_fault("shoe", "misread", "")
    assert [a["code"] for a in t.all("alarm")] == ["shoe_heartbeat_lost", "shoe_misread"]
    with pytest.raises(Refused, match="a card left the shoe unread"):
        t.m.resume("pit")
    t.m.void("misread", "pit")
    assert t.m.state == "betting"


def test_pit_void_after_device_fault_hides_the_face_down_card():
    """The void path after a device fault before the reveal: the 9S stays unseen throughout."""
    t = open_table()
    mark = t.mark()
    no_more_bets(t)
    t.deal("AH 2D 3C 9S")  # P 4 draws; B 2 + 9 = 1: the 9S is face down
    t.m.device_fault("shoe", "double_card", "")
    t.m.void("two cards at once", "pit")
    assert t.last("void") == {"round": 1, "reason": "two cards at once", "by": "pit", "cards_burned": 0}
    assert_never_shown(t, mark, 0, "9S")


@pytest.mark.parametrize("state,code,step", [
    ("deck_check", "door_open", "deck check"), ("shuffle", "jam", "shuffle"), ("shuffle", "offline", "shuffle")])
def test_shuffler_fault_repeats_the_deck_check_or_shuffle_prompt(state, code, step):
    """A shuffler fault while the table needs it: alarm (fault) with what to do, the state stays,
    and its prompt is published again naming the fault, so the dealer repeats the step."""
    t = Table()
    t.m.open()
    if state == "shuffle":
        t.m.deck_checked(t.m.spec.all_cards(), 0)
    expect = t.last("prompt")["expect"]
    mark = t.mark()
    t.m.device_fault("shuffler", code, "")
    assert t.kinds(mark) == ["alarm", "prompt"]
    alarm = t.last("alarm")
    assert alarm["code"] == f"shuffler_{code}" and alarm["severity"] == "fault" and alarm["card"] is None
    assert alarm["action"].endswith(f"then run the {step} again")
    prompt = t.last("prompt")
    assert t.m.state == state and prompt["expect"] == expect == state
    assert prompt["text"].startswith("The shuffler ") and code.split("_")[0] in prompt["text"]
    if state == "shuffle":
        t.m.shuffled(416)
        assert t.m.state == "load_shoe" and "The shuffler" not in t.last("prompt")["text"]
    else:
        t.m.deck_checked(t.m.spec.all_cards(), 0)
        assert t.m.state == "shuffle" and "The shuffler" not in t.last("prompt")["text"]


def test_device_faults_outside_their_states_are_warnings_and_change_nothing():
    t = Table()
    t.m.device_fault("shoe", "offline", "")  # closed: nothing from the machine
    assert t.events == []
    t.to_play()
    mark = t.mark()
    t.m.device_fault("shoe", "misread", "7H")           # betting: no card is due
    t.m.device_fault("shuffler", "jam", "")              # betting: the shuffler is not needed now
    t.m.device_fault("shoe-2", "bad_message", "")       # any other device or code
    assert t.kinds(mark) == ["alarm", "alarm", "alarm"]
    assert [(a["code"], a["severity"], a["card"]) for a in t.all("alarm", mark)] == [
        ("shoe_misread", "warning", None), ("shuffler_jam", "warning", None),
        ("shoe_2_bad_message", "warning", None)]
    assert "7H" not in json.dumps(t.since(mark))
    assert t.m.state == "betting"
    no_more_bets(t)
    t.m.device_fault("shoe", "bad_message", "")  # while dealing: the frame is resent, nothing lost
    assert t.last("alarm")["severity"] == "warning" and t.m.state == "dealing"


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
    t = open_table()
    no_more_bets(t)
    t.deal("2H KD")
    t.m.cut_card()
    assert t.last("shoe") == {"event": "cut_card", "last_round": True, "remaining": 414}
    t.deal("3C 4S 5D 9C")
    assert "shuffle" in t.last("prompt")["text"]
    t.m.button("deal")
    assert t.m.state == "shuffle" and t.last("prompt")["expect"] == "shuffle"
    t.m.shuffled(416)
    t.m.button("shuffle_ack")
    assert t.m.state == "betting"
    assert t.last("round_start") == {"round": 2, "player_dealer": 1, "last_of_shoe": False}
    assert t.m.snapshot()["shoe"] == {"dealt": 0, "remaining": 416, "last_round": False}


def test_cut_card_while_betting_makes_the_open_round_the_last():
    t = open_table()
    t.m.cut_card()
    assert t.m.state == "betting" and "last round of the shoe" in t.last("prompt")["text"]
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")
    assert t.m.state == "shuffle"


def test_cut_card_in_ready_marks_the_next_round_last():
    """With an offer pending the table waits in ready; a cut card there makes the round about to
    open the shoe's last."""
    t = open_table(seats=3)
    t.play_round("4H QC 3D 6S")
    t.play_round("4D QD 3H 6H")
    t.m.button("deal")
    assert t.m.state == "ready"
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
    t.to_play()
    with pytest.raises(Refused, match="already open"):
        t.m.open()
    no_more_bets(t)
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
    t = open_table()
    mark = t.mark()
    no_more_bets(t)
    t.deal("2H KD 3C 4S")
    t.m.card(JOKER)  # a fault while the 4S is face down: the alarm and prompt must not name it
    assert t.last("alarm")["expected"] == "card -> player (player has 5: draws (rule 13b))"
    assert t.m.snapshot()["hands"]["banker"] == ["KD", None]
    t.m.void("dispute", "pit")
    assert t.m.state == "betting"
    assert_never_shown(t, mark, 0, "4S")


def test_buttons_not_lit_are_refused_with_a_reason():
    t = open_table()
    t.m.button("shuffle_ack")
    assert t.last("button") == {"button": "shuffle_ack", "accepted": False,
                                "reason": "shuffle_ack is not lit in state betting"}
    t.m.button("spin")
    assert t.last("button")["accepted"] is False and "unknown button" in t.last("button")["reason"]
    assert t.m.state == "betting"


# --- player-dealer and deal ---------------------------------------------------------------------------


def test_player_dealer_rotates_every_two_rounds_nobody_more_than_two():
    """'Player-dealer and Deal': seat 1 banks rounds 1-2, seat 2 accepts and banks 3-4, ..."""
    t = open_table(seats=4)
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
    assert [d["player_dealer"] for d in t.all("round_start")] == holders
    assert [d["player_dealer"] for d in t.all("result")] == holders


def _runs(seq):
    from itertools import groupby
    return [list(g) for _, g in groupby(seq)]


def test_offer_after_two_rounds_pass_moves_it_clockwise():
    """Seat 1 banks two rounds; the deal is offered to seat 2, which passes; seat 3 accepts."""
    t = open_table(seats=4)
    t.play_round("4H QC 3D 6S")
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")  # settle round 2 -> offer to seat 2; the table waits in ready
    assert t.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert t.m.state == "ready"
    prompt = t.last("prompt")
    assert prompt["buttons"] == ["deal", "pass"] and prompt["seat"] == 2 and "offered to seat 2" in prompt["text"]
    assert t.m.snapshot()["lights"]["seats"]["player_dealer"] == [2]
    mark = t.mark()
    t.m.button("pass")
    assert t.all("player_dealer", mark) == [{"seat": 2, "consecutive": 0, "change": "passed"},
                                            {"seat": 3, "consecutive": 0, "change": "offered"}]
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 3
    t.m.button("deal")  # seat 3 accepts; betting opens
    assert t.all("player_dealer", mark)[-1] == {"seat": 3, "consecutive": 0, "change": "accepted"}
    assert t.m.state == "betting" and t.last("round_start")["player_dealer"] == 3
    no_more_bets(t)
    t.deal("4H QC 3D 6S")
    assert t.m.snapshot()["player_dealer"] == {"seat": 3, "consecutive": 0, "offered": None}
    assert t.last("result")["player_dealer"] == 3


def test_game_broken_when_nobody_intervenes():
    """3 seats: seat 1 banks two rounds; seats 2 and 3 decline in ready; the offer is back at
    seat 1: the game is broken (critical alarm) and the table closes; no round was open."""
    t = open_table(seats=3)
    t.play_round("4H QC 3D 6S")
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")
    t.m.button("pass")
    mark = t.mark()
    t.m.button("pass")
    assert t.kinds(mark) == ["button", "player_dealer", "alarm", "transition", "prompt"]
    alarm = t.last("alarm")
    assert alarm["code"] == "game_broken" and alarm["severity"] == "critical"
    assert t.m.state == "closed" and t.m.round == 2
    # Reopened, the deal is offered again from seat 2: seat 1 still may not take it.
    t.to_play()
    assert t.m.state == "ready" and t.m.snapshot()["player_dealer"]["offered"] == 2


def test_a_seat_that_accepted_then_passes_keeps_the_deal_and_the_game_goes_on():
    """Seat 2 accepts from seat 1 (who banked two), then passes while bets are open; seat 3
    declines. Seat 2 accepted the deal, so the game is not broken (docs/baccarat.md): seat 1 is
    skipped (it may not bank a third), the deal is back with seat 2, bets stay open, and seat 2
    banks round 3."""
    t = open_table(seats=3)
    t.play_round("4H QC 3D 6S")
    t.play_round("4H QC 3D 6S")
    t.m.button("deal")   # offer to seat 2
    t.m.button("deal")   # seat 2 accepts: betting for round 3
    t.m.button("pass")   # seat 2 passes voluntarily -> offer to seat 3
    assert t.m.state == "betting" and t.last("prompt")["seat"] == 3
    assert "pass_breaks_game" not in t.last("prompt")
    mark = t.mark()
    t.m.button("pass")
    assert t.all("player_dealer", mark) == [{"seat": 3, "consecutive": 0, "change": "passed"},
                                            {"seat": 2, "consecutive": 0, "change": "kept"}]
    assert "alarm" not in t.kinds(mark) and t.m.state == "betting"
    no_more_bets(t)
    t.deal("4D QD 3C 6C")
    assert t.last("result")["player_dealer"] == 2


def test_the_last_seat_that_may_intervene_is_told_its_pass_breaks_the_game():
    """4 seats: seat 1 banked two; seats 2 and 3 decline: seat 4 is the last that may intervene,
    and its prompt says so (the simulated players read it as seated players hear the dealer)."""
    t = open_table(seats=4)
    t.play_round("4H QC 3D 6S")
    t.play_round("4D QD 3C 6C")
    t.m.button("deal")
    t.m.button("pass")
    assert "pass_breaks_game" not in t.last("prompt")
    t.m.button("pass")
    prompt = t.last("prompt")
    assert prompt["seat"] == 4 and prompt["pass_breaks_game"] is True and "the game is broken" in prompt["text"]
    t.m.button("deal")   # seat 4 accepts
    assert t.m.state == "betting" and "pass_breaks_game" not in t.last("prompt")


def test_voided_rounds_do_not_count_toward_two():
    t = open_table()
    t.play_round("4H QC 3D 6S")          # round 1 counts
    t.m.button("deal")                    # settle: betting for round 2
    no_more_bets(t)
    t.deal("2H")
    t.m.void("dispute", "pit")            # round 2 voided: does not count; round 3 bets open
    assert t.m.rotation.consecutive == 1 and t.m.round == 3
    t.play_round("4H QC 3D 6S")          # round 3 counts: seat 1's second
    t.m.button("deal")
    assert t.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}


def test_holder_passes_while_betting_result_names_who_banked():
    """Seat 1 holds the deal when round 1's bets open (round_start says 1), passes; seat 2 accepts
    with deal (bets stay open), then deal closes bets. Seat 2 banked: result.player_dealer is 2,
    and the action button is counted from seat 2 (rule 21): P 4H 3D = 7, B QC 6S = 6, both stand;
    6S counts 6 -> position 6 -> seat 2 + 6 = 8."""
    t = open_table()
    assert t.last("round_start") == {"round": 1, "player_dealer": 1, "last_of_shoe": False}
    mark = t.mark()
    t.m.button("pass")
    assert t.all("player_dealer", mark) == [{"seat": 1, "consecutive": 0, "change": "passed"},
                                            {"seat": 2, "consecutive": 0, "change": "offered"}]
    assert t.m.state == "betting" and t.last("prompt")["seat"] == 2
    t.m.button("deal")
    assert t.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "accepted"}
    assert t.m.state == "betting"
    no_more_bets(t)
    t.deal("4H QC 3D 6S")
    assert t.last("result")["player_dealer"] == 2
    assert t.last("action_button") == {"card": "6S", "count": 6, "position": 6, "seat": 8, "first_action_seat": 8}


def test_voluntary_pass_nobody_takes_it_holder_keeps():
    t = open_table(seats=3)
    t.m.button("pass")
    t.m.button("pass")
    t.m.button("pass")
    assert t.last("player_dealer") == {"seat": 1, "consecutive": 0, "change": "kept"}
    assert t.m.state == "betting" and "seat" not in t.last("prompt")


def test_offer_in_ready_moves_on_to_a_seat_that_has_not_banked_two():
    """Seat 1 passes in round 1's betting, seat 2 accepts and banks rounds 1 and 2; settling
    round 2 offers seat 3, which declines in ready; the offer moves on to seat 1 (it banked no
    round: only seat 2 is barred), which accepts: betting opens with seat 1 banking."""
    t = open_table(seats=3)
    t.m.button("pass")           # seat 1 passes in round 1's betting -> offer to 2
    t.m.button("deal")           # seat 2 accepts; bets stay open
    t.play_round("4H QC 3D 6S")  # round 1: seat 2
    t.play_round("4D QD 3H 6H")  # round 2: seat 2 again
    t.m.button("deal")           # settle: seat 2 has banked two -> offer to seat 3
    assert t.m.state == "ready" and t.last("player_dealer") == {"seat": 3, "consecutive": 0, "change": "offered"}
    t.m.button("pass")           # seat 3 declines -> seat 1
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 1
    t.m.button("deal")           # seat 1 accepts: betting opens
    assert t.m.state == "betting" and t.last("round_start") == {"round": 3, "player_dealer": 1,
                                                                 "last_of_shoe": False}


def test_offer_in_ready_nobody_takes_it_holder_keeps_and_betting_opens():
    """Seat 1 passes voluntarily while round 1's bets are open (offer to seat 2), then the round
    is voided: the offer is still pending, so ready waits. Seats 2 and 3 decline: the offer is back
    at seat 1, which banked no round, so it keeps the deal ('kept') and betting opens at once."""
    t = open_table(seats=3)
    t.m.button("pass")
    t.m.void("dispute", "pit")
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 2
    t.m.button("pass")
    assert t.m.state == "ready" and t.last("prompt")["seat"] == 3
    mark = t.mark()
    t.m.button("pass")
    assert t.since(mark, "prompt") == [
        ("button", {"button": "pass", "accepted": True, "reason": None}),
        ("player_dealer", {"seat": 3, "consecutive": 0, "change": "passed"}),
        ("player_dealer", {"seat": 1, "consecutive": 0, "change": "kept"}),
        ("transition", {"from": "ready", "to": "betting", "trigger": "betting_opened"}),
        ("round_start", {"round": 2, "player_dealer": 1, "last_of_shoe": False}),
    ]


def test_snapshot_shape():
    t = open_table()
    snap = t.m.snapshot()
    assert snap["state"] == "betting" and snap["round"] == 1
    assert snap["lights"] == {"seats": {"action": [], "player_dealer": [1]}, "buttons_lit": ["deal", "pass"], "seat_buttons_lit": {}}
    assert snap["shoe"] == {"dealt": 0, "remaining": 416, "last_round": False}
    assert snap["player_dealer"] == {"seat": 1, "consecutive": 0, "offered": None}
    assert snap["prompt"]["expect"] == "bets"
    assert snap["fault"] is None and snap["result"] is None and snap["action_button"] is None
    json.dumps(snap)


@pytest.mark.parametrize("options,message", [
    ({"seats": 12}, "seats: Commission-Free Baccarat has 2 to 8 seated positions (rule 3), not 12"),
    ({"seats": 9}, "seats: Commission-Free Baccarat has 2 to 8 seated positions (rule 3), not 9"),
    ({"seats": 1}, "seats: Commission-Free Baccarat has 2 to 8 seated positions (rule 3), not 1"),
    ({"seats": "8"}, "seats: must be a whole number, not '8'"),
    ({"seats": True}, "seats: must be a whole number, not True"),
    ({"seats": 6, "first_player_dealer_seat": 7}, "first_player_dealer_seat: must be one of seats 1..6, not 7"),
    ({"first_player_dealer_seat": 0}, "first_player_dealer_seat: must be one of seats 1..8, not 0"),
    ({"action_wrap": "sideways"},
     "action_wrap: must be one of around_table, skip_player_dealer (rule 21 is silent past the last seat), "
     "not 'sideways'"),
    ({"spec": standard(1, jokers=2)}, "spec: a joker has no value: Commission-Free Baccarat uses no jokers (rule 2)"),
])
def test_options_are_validated_naming_the_field(options, message):
    """Rule 3: up to eight seated positions; a player-dealer game needs at least two."""
    with pytest.raises(ValueError) as caught:
        BaccaratOptions(**options)
    assert str(caught.value) == message


def test_options_accept_the_whole_range_rule_3():
    for seats in range(2, 9):
        assert BaccaratOptions(seats=seats, first_player_dealer_seat=seats).seats == seats


def test_prompt_expect_and_buttons_per_state():
    """The prompt published on entering each state: what it expects and which buttons are lit."""
    t = Table(seats=3)
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
    step(lambda: t.deal("4H QC 3D 6S"))
    step(lambda: t.m.card(card("8H")))
    step(lambda: t.m.resume("pit"))
    t.m.button("deal")
    t.play_round("4D QD 3H 6H")
    step(lambda: t.m.button("deal"))  # seat 1's second round settled: offer pending, ready waits
    step(t.m.close)
    assert seen == {
        "deck_check": ("deck_check", []), "shuffle": ("shuffle", []), "load_shoe": ("load_shoe", ["shuffle_ack"]),
        "ready": ("bets", ["deal", "pass"]), "betting": ("bets", ["deal", "pass"]), "dealing": ("card", []),
        "result": ("settle", ["deal"]), "fault": ("fault", []), "closed": ("open", []),
    }
