"""Double-Hand Poker's round machine driven as the controller drives it: hands from the hand-forming
shuffler, its count, the dealer's buttons, the cup's readings, the pit's cmd/set_hand
(california-card-room-games.txt, "DOUBLE-HANDED POKER"; tags as in games.double_hand.rules)."""

from __future__ import annotations

import json
import logging

import pytest

from controller.shared.schemas import validate, validate_event
from games.cards import cards
from games.double_hand import GAME, DoubleHandOptions
from games.round import Refused

# One deck, dealt by hand: seven hands of seven in the row (places 1..7), four cards left.
ROW = {
    1: "QS QD KH KC 4H 3S 2D",      # -> seat 5: two pair K and Q
    2: "JK 5C 6S 7H 8D 10C 3D",     # -> seat 6: the joker completes a straight
    3: "4S 5S 7S 8S JS AH AC",      # -> seat 7: a spade flush and a pair of aces
    4: "KS KD 9H 9C 5D 4C 2S",      # -> seat 1, the designated player: two pair K and 9
    5: "AS AD QH QC 7D 3H 6C",      # -> seat 2: two pair A and Q
    6: "10S 10D JC 8H 6D 3C 2H",    # -> seat 3: a pair of tens
    7: "9S 9D JH JD 7C 6H 4D",      # -> seat 4: two pair J and 9
}
LEFT = "5H 10H 2C 8C"               # never dealt, never shown
DICE = (4, 5, 6)                    # 15: from seat 2 (left of seat 1) round seven positions to seat 2


class Run:
    """A machine with every event checked against its schema and every snapshot against the state's."""

    def __init__(self, **options) -> None:
        self.events: list[tuple[str, dict]] = []
        self.snapshots: list[dict] = []
        self.m = None
        self.m = GAME.build(DoubleHandOptions(**{"seats": 7, **options}), self.emit, 1)

    def emit(self, kind: str, data: dict) -> None:
        env = {"seq": len(self.events) + 1, "ts": 0.0, "table": "dh", "round": None, "kind": kind, "data": data}
        validate_event(json.loads(json.dumps(env)), game="double_hand")
        self.events.append((kind, json.loads(json.dumps(data))))
        if self.m is not None:
            snap = json.loads(json.dumps(self.m.snapshot()))
            validate("state", {**snap, "table": "dh", "seq": 1, "ts": 0.0})
            self.snapshots.append(snap)

    def last(self, kind: str) -> dict:
        return next(d for k, d in reversed(self.events) if k == kind)

    def all(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]

    def to_dealing(self) -> None:
        m = self.m
        m.open()
        m.deck_checked(m.spec.all_cards(), 0)
        m.shuffled(m.spec.size)
        m.press("deal")
        assert m.state == "dealing"

    def hand(self, codes: str) -> None:
        self.m.device_input("shuffler", "hand_delivered", {"cards": tuple(cards(codes))})

    def deal(self, row: dict[int, str] = ROW) -> None:
        for place in range(1, 8):
            self.hand(row[place])

    def count(self, n: int = 4) -> None:
        self.m.device_input("shuffler", "card_count", {"count": n})

    def shake(self, values: tuple[int, ...] = DICE) -> None:
        self.m.device_input("cup", "cup_shaken", {})
        self.m.device_input("cup", "dice_read", {"values": values})

    def to_showdown(self, selected: str = "hand_5", values: tuple[int, ...] = DICE) -> None:
        self.to_dealing()
        self.deal()
        self.count()
        assert self.m.press(selected).accepted
        self.shake(values)
        assert self.m.press("deal").accepted   # every hand is set

    def set_hand(self, seat: int, two: str, five: str) -> dict:
        return self.m.command("set_hand", {"seat": seat, "two": two.split(), "five": five.split()})

    def published(self) -> str:
        return json.dumps([self.events, self.snapshots])


def test_a_round_hand_worked():
    r = Run()
    r.to_dealing()
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["hand"], prompt["count"]) == ("hand", "hand_1", 7)
    r.deal()
    cards_out = r.all("card")
    assert len(cards_out) == 49 and all(c == {"hand": f"hand_{i // 7 + 1}", "position": i % 7 + 1, "face": "down"}
                                        for i, c in enumerate(cards_out)), "P3: seven hands of seven, face down"
    assert r.last("prompt")["expect"] == "count" and r.last("prompt")["count"] == 4
    r.count(4)
    prompt = r.last("prompt")
    assert prompt["expect"] == "press" and prompt["seat"] == 1 and prompt["buttons"] == [f"hand_{i}" for i in range(1, 8)]
    assert r.m.press("hand_5").accepted                          # P4: the action button on hand 5
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["count"], prompt["seat"]) == ("dice", 3, 1)
    r.shake()
    assert r.last("dice") == {"values": [4, 5, 6], "total": 15, "seat": 1, "reaches": 2, "hand": 5}
    assert r.last("action_button") == {"seat": 2, "hand": 5, "total": 15, "counted_from": 2, "designated_player": 1,
                                       "hands_out": {"1": 4, "2": 5, "3": 6, "4": 7, "5": 1, "6": 2, "7": 3},
                                       "dead_hands": []}
    assert r.last("prompt")["text"].startswith("The hands go out clockwise: hand 5 to seat 2, hand 6 to seat 3, "
                                               "hand 7 to seat 4, hand 1 to seat 5, hand 2 to seat 6, hand 3 to "
                                               "seat 7, hand 4 to seat 1 (P4-P5).")
    assert not r.all("reveal"), "nothing is turned up before every hand is set (P9)"
    r.m.press("deal")
    # P9: the designated player's hand is turned up first.
    assert r.last("reveal") == {"hand": "seat", "seat": 1, "cards": ["KD", "KS", "9C", "9H", "5D", "4C", "2S"],
                                "designated": True}
    prompt = r.last("prompt")
    assert (prompt["expect"], prompt["seat"], prompt["buttons"]) == ("press", 1, ["house_way"])
    r.m.press("house_way")                                          # P8: set the house way
    assert r.all("reveal")[-2] == {"hand": "set", "seat": 1, "cards": ["9C", "9H", "KD", "KS", "5D", "4C", "2S"],
                                "two": ["9C", "9H"], "five": ["KD", "KS", "5D", "4C", "2S"], "two_hand": "pair of 9",
                                "five_hand": "pair of K", "set_by": "house_way"}
    for seat in (2, 3, 4, 5, 6):                                    # P10: clockwise from its left
        assert r.last("reveal")["seat"] == seat and r.last("reveal")["hand"] == "seat"
        r.m.press("house_way")
    assert r.set_hand(7, "AH AC", "JS 8S 7S 5S 4S") == {
        "seat": 7, "two": {"cards": ["AC", "AH"], "hand": "pair of A"},
        "five": {"cards": ["JS", "8S", "7S", "5S", "4S"], "hand": "flush J-8-7-5-4"}}
    assert r.m.state == "result"
    result = r.last("result")
    assert {k: result[k] for k in ("designated_player", "selected_hand", "dice", "total", "first_seat",
                                   "dead_hands", "cards_left", "flagged", "ties")} == {
        "designated_player": 1, "selected_hand": 5, "dice": [4, 5, 6], "total": 15, "first_seat": 2,
        "dead_hands": [], "cards_left": 4, "flagged": None, "ties": "designated_player"}
    got = {seat: (s["two"]["hand"], s["five"]["hand"], s["two_vs"], s["five_vs"], s["wagers"][0]["outcome"],
                  s["set_by"]) for seat, s in result["seats"].items()}
    assert got == {
        "2": ("pair of Q", "pair of A", "win", "win", "win", "house_way"),               # P11
        "3": ("high card J-8", "pair of 10", "lose", "lose", "lose", "house_way"),      # O
        "4": ("pair of 9", "pair of J", "tie", "lose", "lose", "house_way"),            # a copy to the DP
        "5": ("pair of Q", "pair of K", "win", "lose", "push", "house_way"),            # P12: K-K-4-3-2 < K-K-5-4-2
        "6": ("high card 10-8", "straight to 7", "lose", "win", "push", "house_way"),   # P12; JK the 4 of 3-7
        "7": ("pair of A", "flush J-8-7-5-4", "win", "win", "win", "dealer"),           # P11
    }
    assert result["designated"]["seat"] == 1 and result["designated"]["set_by"] == "house_way"
    assert r.m.snapshot()["result"] == result
    for code in LEFT.split():
        assert code not in r.published(), f"{code} is one of the four cards left: never shown"


def test_ties_push_reading():
    """Reading 4, ``ties = "push"``: a copy and a loss push instead of losing."""
    r = Run(ties="push")
    r.to_showdown()
    for _ in range(7):
        r.m.press("house_way")
    result = r.last("result")
    assert result["seats"]["4"]["wagers"][0]["outcome"] == "push" and result["ties"] == "push"
    assert result["seats"]["3"]["wagers"][0]["outcome"] == "lose"


def test_no_card_of_a_hand_is_published_before_it_is_turned_up(caplog):
    caplog.set_level(logging.DEBUG)
    r = Run()
    r.to_showdown()
    for seat in (1, 2, 3, 4, 5, 6, 7):
        # Before the hand of `seat` is turned up, none of the cards of the hands still face down is
        # anywhere: events, the retained state, the logs.
        hidden = {c for s, place in r.m.out.items() if s not in r.m.shown for c in ROW[place].split()}
        hidden |= set(LEFT.split())
        published = r.published() + "\n".join(rec.getMessage() for rec in caplog.records)
        for code in hidden:
            assert f'"{code}"' not in published and f" {code} " not in published, code
        assert r.last("reveal") == {"hand": "seat", "seat": seat, "cards": r.m.shown[seat],
                                    "designated": seat == 1}
        r.m.press("house_way")
    assert r.m.state == "result"


def test_the_dice_total_and_the_selected_hand_decide_every_seats_hand():
    """Seven positions, the designated player seat 1, the button on hand 2, a 3 (1-1-1): the count
    reaches seat 4 (2, 3, 4), which receives hand 2; then hands 3..7 to seats 5, 6, 7, 1, 2 and
    hand 1 to seat 3."""
    r = Run()
    r.to_showdown("hand_2", (1, 1, 1))
    assert r.last("action_button")["hands_out"] == {"4": 2, "5": 3, "6": 4, "7": 5, "1": 6, "2": 7, "3": 1}
    assert r.last("reveal")["seat"] == 1 and set(r.last("reveal")["cards"]) == set(ROW[6].split()), \
        "the designated player (seat 1) holds hand 6"


def test_fewer_positions_leave_dead_hands_that_are_never_shown():
    r = Run(seats=5)
    r.to_showdown("hand_6", (1, 1, 2))      # 4: from seat 2: 2, 3, 4, 5 -> seat 5
    assert r.last("action_button")["hands_out"] == {"5": 6, "1": 7, "2": 1, "3": 2, "4": 3}
    assert r.last("action_button")["dead_hands"] == [4, 5]
    for _ in range(5):
        r.m.press("house_way")
    assert r.m.state == "result" and r.last("result")["dead_hands"] == [4, 5]
    for code in (*ROW[4].split(), *ROW[5].split(), *LEFT.split()):
        assert f'"{code}"' not in r.published(), f"{code}: a dead hand or a card left is never shown"


# --- out-of-rule inputs ------------------------------------------------------------------------

def test_an_eighth_hand_is_an_alarm_naming_no_card_and_the_round_can_only_be_voided():
    r = Run()
    r.to_dealing()
    r.deal()
    r.hand("5H 10H 2C 8C")
    alarm = r.last("alarm")
    assert alarm["code"] == "extra_hand" and alarm["card"] is None
    assert alarm["message"] == ("the shuffler delivered an eighth hand (4 card(s)): Double-Hand Poker deals exactly "
                                "7 hands of 7, leaving 4 cards (P3)")
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]
    with pytest.raises(Refused, match="cannot resume"):
        r.m.resume("pit")
    assert "5H" not in r.published() and "10H" not in r.published()
    r.m.press("void")
    assert r.last("void")["reason"] == "dealer pressed void" and r.m.state == "shuffle"


def test_an_eighth_hand_later_in_the_round_is_the_same_alarm():
    r = Run()
    r.to_showdown()
    r.hand("5H 10H 2C 8C")
    assert r.last("alarm")["code"] == "extra_hand" and r.m.state == "fault"


@pytest.mark.parametrize("codes", ["QS QD KH KC 4H 3S", "QS QD KH KC 4H 3S 2D 5H"])
def test_a_hand_of_the_wrong_size_is_an_alarm_and_void_only(codes):
    r = Run()
    r.to_dealing()
    r.hand(codes)
    alarm = r.last("alarm")
    n = len(codes.split())
    assert alarm["code"] == "hand_size" and alarm["message"] == (f"the shuffler delivered {n} card(s) for hand 1: a "
                                                                 "Double-Hand Poker hand is 7 (P3)")
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]
    assert "QS" not in r.published()


def test_a_copy_too_many_in_a_hand_is_an_alarm_naming_no_card():
    r = Run()
    r.to_dealing()
    r.hand(ROW[1])
    r.hand("QS JK 5C 6S 7H 8D 10C")           # QS again
    alarm = r.last("alarm")
    assert alarm["code"] == "card_too_many" and alarm["card"] is None
    assert "QS" not in json.dumps(alarm) and r.m.state == "fault"


@pytest.mark.parametrize("count", [3, 5, 0])
def test_a_wrong_count_of_the_cards_left_is_a_fault_and_void_only(count):
    r = Run()
    r.to_dealing()
    r.deal()
    r.count(count)
    alarm = r.last("alarm")
    assert alarm["code"] == "cards_left" and alarm["severity"] == "fault"
    assert alarm["message"] == (f"the shuffler counts {count} card(s) left after 7 hands of 7: 53 cards leave "
                                "exactly 4 (P3, D)")
    assert r.m.state == "fault" and not r.m.snapshot()["fault"]["resumable"]


def test_a_wrong_count_flagged_lets_the_round_go_on():
    r = Run(cards_left_wrong="flag")
    r.to_dealing()
    r.deal()
    r.count(3)
    assert r.last("alarm")["code"] == "cards_left" and r.last("alarm")["severity"] == "warning"
    assert r.m.state == "dealing" and r.last("prompt")["buttons"][0] == "hand_1"
    r.m.press("hand_5")
    r.shake()
    r.m.press("deal")
    for _ in range(7):
        r.m.press("house_way")
    result = r.last("result")
    assert result["cards_left"] == 3 and result["flagged"].startswith("the shuffler counts 3 card(s) left")


def test_a_count_before_the_hands_are_out_is_not_the_check():
    r = Run()
    r.to_dealing()
    r.hand(ROW[1])
    r.count(46)
    assert r.m.state == "dealing" and r.last("prompt")["hand"] == "hand_2" and not r.all("alarm")


def test_a_setting_whose_five_card_hand_does_not_outrank_is_refused_and_set_again():
    r = Run()
    r.to_showdown()
    for _ in range(6):
        r.m.press("house_way")
    with pytest.raises(Refused) as err:
        r.set_hand(7, "AH JS", "AC 8S 7S 5S 4S")
    assert err.value.reason == ("seat 7: the five-card hand (high card A-8-7-5-4) does not outrank the two-card hand "
                                "(high card A-J): the higher ranking hand must be the five-card hand (P7); set it again")
    assert r.m.state == "dealing" and r.last("prompt")["seat"] == 7
    r.set_hand(7, "JS 8S", "AH AC 7S 5S 4S")
    assert r.m.state == "result"


def test_codes_that_are_not_the_hands_cards_are_refused_naming_only_its_own_cards():
    r = Run()
    r.to_showdown()
    for _ in range(6):
        r.m.press("house_way")
    # 5H is one of the four cards left, never shown: the refusal must not name it.
    with pytest.raises(Refused) as err:
        r.set_hand(7, "AH 5H", "JS 8S 7S 5S 4S")
    assert err.value.reason == ("the codes entered are not seat 7's seven cards (P6: a player sets the seven cards he "
                                "was dealt): AC of its hand is not entered; 1 code entered is not in it")
    assert "5H" not in err.value.reason
    with pytest.raises(Refused) as err:
        r.set_hand(7, "AH AH", "JS 8S 7S 5S 4S")
    assert err.value.reason.endswith("AC of its hand is not entered; AH is entered twice")
    # A code that is no card of the deck is named by its place, never quoted (it may be a card of a
    # hand still face down, mistyped): not even lower case, which names the card it would be.
    with pytest.raises(Refused, match=r"^two\[1\] is not a card code: a rank \(2-10, J, Q, K, A\) then a suit") as err:
        r.set_hand(7, "AH 5h", "JS 8S 7S 5S 4S")
    assert "5h" not in err.value.reason and "5H" not in err.value.reason
    with pytest.raises(Refused, match=r"^two\[1\] is not a card of this deck \(52 cards and a joker, D\)$"):
        r.set_hand(7, "AH MC", "JS 8S 7S 5S 4S")


def test_a_setting_for_another_seat_or_when_none_is_shown_is_refused():
    r = Run()
    r.to_dealing()
    with pytest.raises(Refused, match=r"^no hand is being set now: hand 1 of 7"):
        r.set_hand(1, "AH AC", "JS 8S 7S 5S 4S")
    r.deal()
    r.count()
    r.m.press("hand_5")
    r.shake()
    r.m.press("deal")
    r.m.press("house_way")                       # seat 1 (the designated player)
    with pytest.raises(Refused) as err:
        r.set_hand(7, "AH AC", "JS 8S 7S 5S 4S")
    assert err.value.reason == ("seat 2's hand is being set; seat 7 is turned up later (P9-P10: the designated "
                                "player's hand first, then clockwise from its left)")
    with pytest.raises(Refused, match="seat 1 was set already"):
        r.set_hand(1, "9C 9H", "KD KS 5D 4C 2S")


def test_buttons_out_of_place_are_refused_with_the_reason():
    r = Run()
    r.to_dealing()
    assert r.m.press("hand_3").reason == ("hand_3 is not lit: the action button is placed after the seven hands are "
                                          "dealt and counted (P3-P4)")
    assert r.m.press("house_way").reason.startswith("house_way is not lit: no hand is turned up to set now")
    r.deal()
    r.count()
    r.m.press("hand_5")
    assert r.m.press("hand_2").reason == "hand_2 is not lit: the action button is on hand 5 already (P4)"
    assert r.m.press("deal").reason.startswith("deal is not lit: dice: a shake of 3 dice by seat 1")
    r.shake()
    r.m.press("deal")
    assert r.m.press("deal").reason == "deal is not lit: no card: seat 1's setting (cmd/set_hand or house_way, P7-P10)"


def test_the_dice_step_takes_three_dice_from_a_shake():
    r = Run()
    r.to_dealing()
    r.deal()
    r.count()
    r.m.press("hand_1")
    r.m.device_input("cup", "cup_shaken", {})
    r.m.device_input("cup", "dice_read", {"values": (3, 4)})
    assert r.last("alarm")["code"] == "dice_count" and r.m.state == "dealing"
    r.m.device_input("cup", "dice_read", {"values": (3, 4, 5)})
    assert r.last("alarm")["code"] == "dice_before_shake"
    r.shake((3, 4, 5))
    assert r.last("dice")["total"] == 12


def test_a_hand_before_the_deal_is_an_alarm_and_the_round_voided():
    r = Run()
    r.to_dealing()
    r.m.void("test", "pit")
    r.m.shuffled(53)
    assert r.m.state == "betting"
    r.hand(ROW[1])
    alarm = r.last("alarm")
    assert alarm["code"] == "hand_not_due" and alarm["message"] == ("the shuffler delivered a hand of 7 card(s) in "
                                                                     "state betting: no hand is due (P3)")
    assert r.m.state == "fault" and "QS" not in r.published()
    r.m.press("void")
    assert r.m.state == "shuffle"


def test_the_shufflers_link_lost_after_every_hand_is_out_is_a_warning():
    r = Run()
    r.to_showdown()
    r.m.device_input("shuffler", "device_offline", {"reason": "port closed"})
    alarm = r.last("alarm")
    assert alarm["code"] == "shuffler_offline" and alarm["severity"] == "warning"
    assert r.m.state == "dealing" and r.last("prompt")["expect"] == "press"
    r.m.press("house_way")
    assert r.last("reveal")["seat"] == 2


def test_the_shufflers_link_lost_while_a_hand_is_due_faults_the_round():
    r = Run()
    r.to_dealing()
    r.hand(ROW[1])
    r.m.device_input("shuffler", "device_offline", {"reason": "port closed"})
    assert r.last("alarm")["severity"] == "fault" and r.m.state == "fault"


# --- T: the designated player rotates -----------------------------------------------------------

def play_round(r: Run) -> None:
    """From ``dealing`` to the next shuffle, every hand set the house way."""
    r.deal()
    r.count()
    r.m.press("hand_5")
    r.shake()
    r.m.press("deal")
    for _ in range(7):
        r.m.press("house_way")
    r.m.press("deal")                       # settle
    r.m.shuffled(53)


def test_each_position_takes_a_turn_as_the_designated_player():
    """T: after every settled round the position is offered to the next seat clockwise; deal =
    it accepts, pass = it declines and the offer moves on."""
    r = Run()
    r.to_dealing()
    play_round(r)
    assert r.last("player_dealer") == {"seat": 2, "consecutive": 0, "change": "offered"}
    assert r.m.state == "ready" and r.m.lights()["seats"]["player_dealer"] == [2]
    r.m.press("pass")
    assert r.last("player_dealer") == {"seat": 3, "consecutive": 0, "change": "offered"}
    r.m.press("deal")                       # seat 3 accepts; betting opens
    r.m.press("deal")                       # no more bets
    assert r.last("prompt")["hand"] == "hand_1"
    r.deal()
    r.count()
    assert r.last("prompt")["seat"] == 3, "seat 3 places the action button now"


def test_with_two_turns_the_designated_player_keeps_it_once():
    r = Run(designated_turns=2)
    r.to_dealing()
    play_round(r)
    assert r.last("player_dealer") == {"seat": 1, "consecutive": 1, "change": "kept"}


def test_when_every_other_seat_rejects_the_position_the_game_is_broken():
    r = Run(seats=3)
    r.to_dealing()
    play_round(r)
    r.m.press("pass")                        # seat 2 rejects
    r.m.press("pass")                        # seat 3 rejects: back at seat 1, which had its turn
    alarm = r.last("alarm")
    assert alarm["code"] == "game_broken" and "after its 1 consecutive round:" in alarm["message"]
    assert r.m.state == "closed"


# --- options ------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, field, why", [
    ({"seats": 8}, "seats", "Double-Hand Poker deals seven hands, one to each player position (P3): 2 to 7 seats, "
                            "not 8"),
    ({"seats": 1}, "seats", "2 to 7 seats, not 1"),
    ({"first_designated_player": 8}, "first_designated_player", "must be one of seats 1..7, not 8"),
    ({"designated_turns": 3}, "designated_turns", "1 (each position takes a turn, T) or 2"),
    ({"ties": "house"}, "ties", "must be one of designated_player, push, not 'house'"),
    ({"wheel": "high"}, "wheel", "must be one of lowest, second_highest, not 'high'"),
    ({"cards_left_wrong": "ignore"}, "cards_left_wrong", "must be one of void, flag, not 'ignore'"),
])
def test_options_out_of_rule_are_refused_naming_the_field(options, field, why):
    from games.options import OptionError
    with pytest.raises(OptionError) as err:
        DoubleHandOptions(**{"seats": 7, **options})
    assert err.value.field == field and why in err.value.why
    assert GAME.config_key("seats") == "table.seats"


def test_the_registry_entry():
    assert GAME.name == "double_hand" and GAME.roles["shuffler"].kinds == ("hand_shuffler",)
    assert GAME.roles["cup"].reads_dice and GAME.seats == (2, 7)
    assert set(GAME.commands) == {"set_hand"}
    assert "hand_1" in GAME.buttons and "house_way" in GAME.buttons


def test_the_example_config_loads_and_deals_this_game():
    from pathlib import Path

    from controller.table.config import load_config

    cfg = load_config(Path(__file__).resolve().parents[2] / "config" / "double-hand.toml")
    assert cfg.table.game == "double_hand" and cfg.options.spec.size == 53 and cfg.table.seats == 7
    assert set(cfg.gpio.buttons) == set(GAME.buttons), "every dealer button has a pin"
    assert sorted(cfg.gpio.seat_lights["player_dealer"]) == list(range(1, 8))
    assert {n: d.kind for n, d in cfg.devices.items()} == {"shuffler": "hand_shuffler", "cup": "dice_cup"}
    assert cfg.devices["cup"].settings["dice"] == 3


def test_a_hand_while_the_position_is_on_offer_sends_the_cards_back_for_a_shuffle():
    r = Run()
    r.to_dealing()
    play_round(r)
    assert r.m.state == "ready"             # seat 2 is offered the position
    r.hand(ROW[1])
    alarm = r.last("alarm")
    assert (alarm["code"], alarm["severity"]) == ("hand_not_due", "warning")
    assert r.m.state == "shuffle" and "QS" not in json.dumps(alarm)
    r.m.shuffled(53)
    assert r.m.state == "ready" and r.m.snapshot()["player_dealer"]["offered"] == 2, "the offer still stands"


def test_the_designated_players_turns_outlive_a_restart():
    r = Run()
    r.to_dealing()
    play_round(r)
    saved = json.loads(json.dumps(r.m.save()))
    again = Run()
    again.m.restore(saved, "ready")
    assert again.last("player_dealer") == {"seat": 1, "consecutive": 1, "change": "restored"}
    assert again.m.rotation.offered == 2 and again.m.rotation.limit == 1
