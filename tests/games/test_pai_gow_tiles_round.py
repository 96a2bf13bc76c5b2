"""Pai Gow Tiles' round machine driven as the controller drives it: the dice cup's events through
``device_input``, the dealer's buttons through ``press``, the pit's dispute through ``command``.
Every event is checked against its generic schema and the game's own (games/pai_gow_tiles/schemas),
and every out-of-rule input gets its own alarm or refusal with the reason.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.shared.schemas import validate, validate_event
from games.cards import card
from games.pai_gow_tiles import DISPUTE_SCHEMA, GAME, PaiGowTilesOptions, PaiGowTilesRound
from games.round import Refused

BANKER_HAND = {"high": ["6-6", "4-5"], "low": ["1-5", "3-4"]}   # a Teen wong, 3 points (Look + 3-4 = 13)


class Run:
    def __init__(self, **options: Any) -> None:
        self.events: list[tuple[str, dict]] = []
        self.m: PaiGowTilesRound | None = None
        self.m = PaiGowTilesRound(PaiGowTilesOptions(**options), self.emit)

    def emit(self, kind: str, data: dict) -> None:
        envelope = {"seq": len(self.events) + 1, "ts": 0.0, "table": "pgt-1", "round": None, "kind": kind,
                    "data": data}
        validate_event(json.loads(json.dumps(envelope)), game="pai_gow_tiles")
        self.events.append((kind, data))
        if self.m is not None:
            validate("state", {**json.loads(json.dumps(self.m.snapshot())), "table": "pgt-1", "seq": 1, "ts": 0.0})

    def of(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]

    def last(self, kind: str) -> dict:
        return self.of(kind)[-1]

    def cup(self, kind: str, **data: Any) -> None:
        assert self.m is not None
        self.m.device_input("cup", kind, data)

    def throw(self, *values: int) -> None:
        self.cup("cup_shaken")
        self.cup("dice_read", values=tuple(values))
        self.cup("cup_closed")

    def to_dealing(self) -> None:
        assert self.m is not None
        if self.m.state == "closed":
            self.m.open()
        assert self.m.press("deal").accepted and self.m.state == "dealing"

    def round(self, *values: int, dispute: dict | None = None) -> dict:
        """A whole round: no more bets, the shake, a dispute, hands compared, settled."""
        assert self.m is not None
        self.to_dealing()
        self.throw(*values)
        if dispute is not None:
            self.m.command("dispute", dispute)
        assert self.m.press("deal").accepted and self.m.state == "result"
        result = self.last("result")
        assert self.m.press("deal").accepted
        return result


def test_the_table_opens_without_a_deck_and_the_banker_shakes_three_dice() -> None:
    r = Run()
    m = r.m
    m.open()
    assert [(t["from"], t["to"]) for t in r.of("transition")] == [("closed", "ready"), ("ready", "betting")]
    assert r.of("round_start") == [{"round": 1, "player_dealer": 1, "last_of_shoe": False}]
    bets = r.last("prompt")
    assert bets["expect"] == "bets" and bets["buttons"] == ["deal", "pass"]
    assert bets["text"].endswith("Before the shake, collect the fees before the dice cup is opened: $1.00 a betting "
                                 "square, $2.00 from the player-dealer (Collection Fees).")
    assert m.lights()["seats"] == {"action": [], "player_dealer": [1]}
    m.press("deal")
    dice = r.last("prompt")
    assert dice == {"expect": "dice", "hand": None, "count": 3, "seat": 1, "buttons": [],
                    "text": "Seat 1 shakes the dice cup: 3 dice (the player-dealer's shake places the action button "
                            "and the first tiles, counted counterclockwise from the banker as 1, 9, 17)."}


def test_the_total_places_the_action_button_and_the_first_tiles() -> None:
    """3 + 5 + 6 = 14 from the banker at seat 1: 1, 8, 7, 6, 5, 4, 3, 2, 1, 8, 7, 6, 5, 4 -> seat 4."""
    r = Run()
    r.to_dealing()
    r.throw(3, 5, 6)
    assert r.last("dice") == {"values": [3, 5, 6], "total": 14, "seat": 1, "reaches": 4, "first_tiles_seat": 4,
                              "action_seat": 4}
    assert r.last("action_button") == {"seat": 4, "count": 14, "first_tiles_seat": 4, "banker_seat": 1}
    assert r.m.lights()["seats"]["action"] == [4] and r.m.action_seat == 4
    press = r.last("prompt")
    assert press["expect"] == "press" and press["buttons"] == ["deal"]
    assert press["text"].startswith("Deal four tiles to each position from seat 4 counterclockwise "
                                    "(4, 3, 2, 1, 8, 7, 6, 5); the action is at seat 4.")
    r.m.press("deal")
    assert r.last("result") == {"values": [3, 5, 6], "total": 14, "reaches": 4, "first_tiles_seat": 4,
                                "action_seat": 4, "deal_order": [4, 3, 2, 1, 8, 7, 6, 5], "player_dealer": 1,
                                "player_dealer_hand": None, "seats": {}}
    assert r.last("prompt")["expect"] == "settle"


@pytest.mark.parametrize("values", [(2, 3, 4), (6, 6, 5)])
def test_a_total_on_the_banker_gives_it_the_first_tiles_and_the_button_to_its_right(values) -> None:
    """9 and 17 are the banker: the first four tiles to it, the Action button to the first player
    to its right, counterclockwise: seat 8 of a banker at seat 1."""
    r = Run()
    r.to_dealing()
    r.throw(*values)
    assert r.last("action_button") == {"seat": 8, "count": sum(values), "first_tiles_seat": 1, "banker_seat": 1}
    assert r.m.lights()["seats"]["action"] == [8]


def test_the_position_is_offered_counterclockwise_every_two_hands_and_counted_from_the_new_banker() -> None:
    r = Run()
    r.round(1, 1, 1)
    assert r.last("player_dealer") == {"seat": 1, "consecutive": 1, "change": "kept"}
    r.round(1, 1, 2)
    assert r.last("player_dealer") == {"seat": 8, "consecutive": 0, "change": "offered"}
    prompt = r.last("prompt")
    assert prompt["seat"] == 8 and prompt["text"].startswith("The player-dealer position is offered to seat 8")
    r.m.press("pass")
    assert r.last("player_dealer") == {"seat": 7, "consecutive": 0, "change": "offered"}
    r.m.press("deal")                      # seat 7 accepts; betting opens
    assert r.last("round_start")["player_dealer"] == 7
    r.m.press("deal")
    assert r.last("prompt")["seat"] == 7
    r.throw(1, 1, 2)                       # 4 from seat 7: 7, 6, 5, 4
    assert r.last("dice")["reaches"] == 4 and r.last("dice")["seat"] == 7
    r.m.press("deal")
    assert r.last("result")["player_dealer"] == 7


def test_a_third_consecutive_banker_hand_is_never_dealt_the_game_breaks_instead() -> None:
    """Every other seat declines the position: it cannot go back to the seat that banked two
    hands (Player-dealer and Deal; Rules of Play): the game is broken and the table closes."""
    r = Run()
    r.round(1, 2, 3)
    r.round(1, 2, 3)
    offered = []
    while r.m.state == "ready":
        offered.append(r.last("player_dealer")["seat"])
        r.m.press("pass")
    assert offered == [8, 7, 6, 5, 4, 3, 2]
    alarm = r.last("alarm")
    assert alarm["code"] == "game_broken" and alarm["severity"] == "critical"
    assert "back to seat 1 after its 2 consecutive rounds" in alarm["message"]
    assert r.m.state == "closed" and len(r.of("result")) == 2


def test_a_voided_round_is_not_a_banker_hand_and_needs_no_shuffle() -> None:
    r = Run()
    r.round(1, 2, 3)
    r.to_dealing()
    r.throw(4, 4, 4)
    r.m.void("the cup was knocked over", "pit")
    assert [t["to"] for t in r.of("transition")][-3:] == ["voided", "ready", "betting"]
    assert r.m.rotation.consecutive == 1, "the voided round did not count"
    assert r.m.lights()["seats"]["action"] == []


# --- the dice out of the rules ------------------------------------------------------------------

def test_dice_out_of_the_rules_are_warnings_and_the_round_waits_for_a_valid_shake() -> None:
    r = Run()
    r.m.open()
    r.cup("cup_shaken")
    r.cup("dice_read", values=(2, 2, 2))                  # bets are open: no dice are due
    assert r.last("alarm")["code"] == "unexpected_dice"
    assert "no dice are due (state betting)" in r.last("alarm")["message"]
    r.m.press("deal")
    r.cup("dice_read", values=(2, 2, 2))                  # the shake before the deal does not count
    assert r.last("alarm")["code"] == "dice_before_shake"
    r.cup("cup_shaken")
    r.cup("dice_read", values=(2, 2))
    assert r.last("alarm")["code"] == "dice_count"
    assert r.last("alarm")["expected"].startswith("dice: a shake of 3 dice by seat 1, each 1 to 6")
    r.cup("cup_shaken")
    r.cup("dice_read", values=(2, 7, 2))
    assert r.last("alarm")["code"] == "dice_value" and "die 2 showed 7" in r.last("alarm")["message"]
    assert r.last("prompt")["expect"] == "dice" and r.last("prompt")["text"].endswith("shake again. Seat 1 shakes "
                                                                                      "the dice cup: 3 dice (the "
                                                                                      "player-dealer's shake places "
                                                                                      "the action button and the "
                                                                                      "first tiles, counted "
                                                                                      "counterclockwise from the "
                                                                                      "banker as 1, 9, 17).")
    assert not r.of("dice") and r.m.state == "dealing"
    r.throw(2, 3, 2)
    assert r.last("dice")["total"] == 7
    r.throw(6, 6, 6)                                      # the hands are being set: no dice are due
    assert r.last("alarm")["code"] == "unexpected_dice" and len(r.of("dice")) == 1


def test_a_card_at_a_tile_table_is_a_warning() -> None:
    r = Run()
    r.to_dealing()
    r.m.card(card("QH"))
    assert r.last("alarm")["code"] == "unexpected_card" and r.last("alarm")["severity"] == "warning"
    assert "pai_gow_tiles is played without cards" in r.last("alarm")["message"]
    assert r.m.state == "dealing"


# --- the dispute ------------------------------------------------------------------------------------

def dispute_ready(**options: Any) -> Run:
    r = Run(**options)
    r.to_dealing()
    r.throw(3, 5, 6)
    return r


def test_a_dispute_rules_on_each_seat_and_the_result_carries_it() -> None:
    r = dispute_ready()
    reply = r.m.command("dispute", {"player_dealer": BANKER_HAND,
                                    "seats": {"3": {"high": ["1-1", "1-1"], "low": ["4-6", "1-6"]},
                                              "5": {"tiles": ["4-4", "4-4", "6-6", "3-6"], "set": "house"}}})
    assert reply["player_dealer"] == 1
    assert reply["seats"]["3"]["outcome"] == "win" and reply["seats"]["3"]["pays"] == "1 to 1"  # pair > wong; 7 > 3
    five = reply["seats"]["5"]   # the house splits the Yun pair: the low after the split (Yun + 3-6) is 7
    assert five["hand"]["set_by"] == "house_way"
    assert [five["hand"]["high"]["kind"], five["hand"]["low"]["points"]] == ["gong", 7]
    assert (five["high"], five["low"], five["outcome"]) == ("banker", "player", "push")  # gong < wong; 7 > 3
    prompts = len(r.of("prompt"))
    assert r.m.snapshot()["disputed_seats"] == [3, 5]
    # a later dispute adds a seat without the player-dealer's hand again, and corrects seat 3
    reply = r.m.command("dispute", {"seats": {"7": {"high": ["2-2", "1-3"], "low": ["3-3", "2-3"]},
                                              "3": {"high": ["1-1", "1-1"], "low": ["4-6", "5-5"]}}})
    assert sorted(reply["seats"]) == ["3", "5", "7"]
    assert reply["seats"]["7"]["outcome"] == "lose"   # 8 < wong; 6 + 5 = 11: 1 < 3
    assert reply["seats"]["3"]["outcome"] == "push"   # pair > wong; 10 + 10 = 20: 0 < 3
    assert len(r.of("prompt")) == prompts, "a dispute asks the dealer for nothing: no prompt again"
    r.m.press("deal")
    result = r.last("result")
    assert result["seats"] == reply["seats"] and result["player_dealer_hand"]["high"]["kind"] == "wong"


def test_the_ruling_follows_the_gee_joon_option() -> None:
    """Gor + 2-4: 4 + 6 = 10 (0), or with the Gee Joon counted 3, 7. Against the banker's 3 the low
    hand wins only when the tile may count 3; the Bon pair beats the banker's wong either way."""
    hand = {"5": {"high": ["2-2", "2-2"], "low": ["1-3", "2-4"]}}
    wild = dispute_ready().m.command("dispute", {"player_dealer": BANKER_HAND, "seats": hand})
    plain = dispute_ready(gee_joon_wild=False).m.command("dispute", {"player_dealer": BANKER_HAND, "seats": hand})
    assert wild["seats"]["5"]["hand"]["low"]["points"] == 7 and wild["seats"]["5"]["outcome"] == "win"
    assert plain["seats"]["5"]["hand"]["low"]["points"] == 0 and plain["seats"]["5"]["outcome"] == "push"


GOOD = {"high": ["2-2", "2-2"], "low": ["5-6", "4-6"]}


@pytest.mark.parametrize("args, why", [
    ({"seats": {"3": GOOD}}, "the player-dealer's hand (seat 1) is needed to settle a dispute"),
    ({"player_dealer": BANKER_HAND, "seats": {}}, "a dispute names at least one seat and its hand"),
    ({"player_dealer": BANKER_HAND, "seats": {"1": GOOD}}, "seat 1 holds the player-dealer position"),
    ({"player_dealer": BANKER_HAND, "seats": {"9": GOOD}}, "seats: a key is not one of seats 1..8"),
    ({"player_dealer": BANKER_HAND, "seats": {"3": {"high": ["2-2", "0-2"], "low": ["5-6", "4-6"]}}},
     "seat 3: high[1] is not a tile: a tile is its two halves' spots, 1 to 6 each"),
    ({"player_dealer": BANKER_HAND, "seats": {"3": {"high": ["2-2", "2-2"], "low": ["5-6"]}}},
     "seat 3: a hand is four tiles"),
    ({"player_dealer": BANKER_HAND, "seats": {"3": {"high": ["5-6", "4-6"], "low": ["2-2", "2-2"]}}},
     "seat 3: the low hand pair (bon+bon) outranks the high hand 1 points (foo+ping)"),
    ({"player_dealer": {"high": ["1-5", "3-4"], "low": ["6-6", "4-5"]}, "seats": {"3": GOOD}},
     "the player-dealer's hand (seat 1): the low hand wong (teen+mixed_9) outranks the high hand"),
    ({"player_dealer": BANKER_HAND, "seats": {"3": {"high": ["6-6", "6-6"], "low": ["5-6", "4-6"]}}},
     "these hands cannot all be on the table: tile 6-6 (teen) appears 3 times"),
    ({"player_dealer": BANKER_HAND, "seats": {"3": {"high": ["4-5", "2-2"], "low": ["5-6", "4-6"]}}},
     "tile 4-5 (mixed_9) appears 2 times, but the set of 32 holds it once"),
])
def test_a_dispute_out_of_the_rules_is_refused_with_its_reason_and_changes_nothing(args, why) -> None:
    r = dispute_ready()
    before = len(r.events)
    with pytest.raises(Refused) as caught:
        r.m.command("dispute", args)
    assert why in caught.value.reason
    assert len(r.events) == before and not r.m.disputed and r.m.banker_hand is None


def test_tiles_of_an_earlier_dispute_count_against_the_set() -> None:
    r = dispute_ready()
    r.m.command("dispute", {"player_dealer": BANKER_HAND, "seats": {"3": GOOD}})
    with pytest.raises(Refused, match="tile 2-2 \\(bon\\) appears 3 times"):
        r.m.command("dispute", {"seats": {"4": {"high": ["2-2", "1-3"], "low": ["3-3", "2-3"]}}})
    assert sorted(r.m.disputed) == [3]


def test_a_dispute_out_of_its_phase_is_refused() -> None:
    r = Run()
    args = {"player_dealer": BANKER_HAND, "seats": {"3": GOOD}}
    with pytest.raises(Refused, match="after the shake and before the result \\(state closed\\)"):
        r.m.command("dispute", args)
    r.m.open()
    with pytest.raises(Refused, match="state betting"):
        r.m.command("dispute", args)
    r.m.press("deal")
    with pytest.raises(Refused, match="has not shaken the dice cup: no tiles are dealt yet"):
        r.m.command("dispute", args)
    r.throw(1, 2, 3)
    r.m.press("deal")
    with pytest.raises(Refused, match="state result"):
        r.m.command("dispute", args)
    with pytest.raises(Refused, match=r"^pai_gow_tiles has no such command: its commands are dispute$"):
        r.m.command("settle", args)


def test_the_dispute_payload_schema() -> None:
    from jsonschema import Draft202012Validator

    v = Draft202012Validator(DISPUTE_SCHEMA)
    assert v.is_valid({"id": "d1", "player_dealer": BANKER_HAND, "seats": {"3": GOOD}})
    assert v.is_valid({"seats": {"5": {"tiles": ["1-6", "1-6", "6-6", "1-1"], "set": "house"}}})
    for bad in ({"seats": {"3": {"high": ["2-2"], "low": ["5-6", "4-6"]}}},
                {"seats": {"9": GOOD}}, {"seats": {}}, {"player_dealer": BANKER_HAND},
                {"seats": {"3": {"high": ["2-2", "7-7"], "low": ["5-6", "4-6"]}}},
                {"seats": {"3": {"tiles": ["1-6", "1-6", "6-6", "1-1"], "set": "mine"}}},
                {"seats": {"3": GOOD}, "tiles": []}):
        assert not v.is_valid(bad), bad
    assert GAME.commands == {"dispute": DISPUTE_SCHEMA}


# --- restart and options ----------------------------------------------------------------------------

def test_the_rotation_goes_on_counterclockwise_after_a_restart() -> None:
    r = Run()
    r.round(1, 2, 3)
    saved, state = json.loads(json.dumps(r.m.save())), r.m.state
    fresh = Run()
    fresh.m.restore(saved, state)
    assert fresh.last("player_dealer") == {"seat": 1, "consecutive": 1, "change": "restored"}
    fresh.round(1, 2, 3)
    assert fresh.last("player_dealer") == {"seat": 8, "consecutive": 0, "change": "offered"}


@pytest.mark.parametrize("options, field, why", [
    ({"seats": 7}, "seats", "Pai Gow Tiles is played at 8 seated positions"),
    ({"first_player_dealer_seat": 9}, "first_player_dealer_seat", "must be one of seats 1..8, not 9"),
    ({"gee_joon_wild": "yes"}, "gee_joon_wild", "must be true or false"),
    ({"fee_per_square": float("nan")}, "fee_per_square", "must be a fee in dollars, 0 to 100"),
    ({"player_dealer_fee": -1}, "player_dealer_fee", "must be a fee in dollars"),
])
def test_options_out_of_the_rules_name_their_field(options, field, why) -> None:
    from games.options import OptionError

    with pytest.raises(OptionError) as caught:
        PaiGowTilesOptions(**options)
    assert caught.value.field == field and why in caught.value.why
    if field == "seats":
        with pytest.raises(OptionError) as keyed:
            GAME.load_options({}, 7)
        assert keyed.value.field == "table.seats"


def test_the_fees_in_the_betting_prompt_follow_the_options() -> None:
    r = Run(fee_per_square=2, player_dealer_fee=3.5)
    r.m.open()
    assert "$2.00 a betting square, $3.50 from the player-dealer" in r.last("prompt")["text"]


def test_the_example_config_loads_and_deals_this_game() -> None:
    from pathlib import Path

    from controller.table.config import load_config

    cfg = load_config(Path(__file__).resolve().parents[2] / "config" / "pai-gow-tiles.toml")
    assert cfg.table.game == "pai_gow_tiles" and cfg.table.seats == 8
    assert cfg.options == PaiGowTilesOptions()
    assert {name: dev.kind for name, dev in cfg.devices.items()} == {"cup": "dice_cup"}, "no shuffler, no shoe"
    assert {g: sorted(m) for g, m in cfg.gpio.seat_lights.items()} == {g: list(range(1, 9)) for g in GAME.light_groups}
    assert sorted(cfg.gpio.buttons) == sorted(GAME.buttons)
