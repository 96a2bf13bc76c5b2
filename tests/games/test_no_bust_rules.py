"""No Bust 21st Century Blackjack's rules (games/no_bust/rules.py), hand-worked from the sheet
(california-card-room-games.txt, "No Bust 21st Century Blackjack"; tags as in the module: HP How
to Play, N Naturals, GR Game Rules, DS Double-Down Split & Surrender, AR Additional Game Rules,
HRC Hand Rankings Chart, RPD/RFP the player-dealer's and the players' charts)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.cards import JOKER, card, cards
from games.no_bust import NoBustOptions
from games.no_bust.rules import (
    HandState,
    PlayedHand,
    Rules,
    action_button,
    action_value,
    choices,
    compare,
    pair,
    player_dealer_draws,
    refusal,
    settle,
    settle_hand,
    total,
)
from games.options import OptionError
from games.wagers import Pays


def t(codes: str, highest: int = 21):
    return total(cards(codes), highest)


# --- totals ---------------------------------------------------------------------------------------

def test_the_hand_rankings_chart_hands():
    """HRC: Joker-Joker is the natural; Joker with any card, and A-10, are 21; Q-K is 20."""
    assert t("JK JK").natural and t("JK JK").value == 22, "RFP calls it 'Natural 22'"
    assert (t("JK 5C").value, t("JK 5C").joker, t("JK 5C").soft) == (21, True, False), "AR3: a hard 21"
    assert (t("AS 10S").value, t("AS 10S").soft) == (21, True)
    assert t("QS KS").value == 20
    # The chart's rows 4-7 print Q-10 as 19, Q-9 as 18 ... one below their sum: HP1, HP4, HP5 count
    # them (face cards 10, a hand the sum of its cards), so Q-10 is 20, Q-9 19, Q-8 18, Q-7 17.
    assert [t(f"QS {r}S").value for r in ("10", "9", "8", "7")] == [20, 19, 18, 17]


def test_a_joker_with_any_card_or_cards_is_a_hard_21():
    """HP2, AR3: with one card or several, whatever they add up to."""
    for codes in ("JK 2C", "2C JK", "9C 8D JK", "KC QD 5H JK", "AC JK"):
        assert (t(codes).value, t(codes).joker, t(codes).natural, t(codes).over) == (21, True, False, False), codes


@pytest.mark.parametrize("codes, value, soft", [
    ("9C 7D", 16, False), ("AC 6D", 17, True), ("AC 6D 10H", 17, False), ("AC AD", 12, True),
    ("AC AD 9H", 21, True), ("KC QD 5H", 25, False), ("10C 2D", 12, False), ("AC AD AH AS 7C", 21, True),
])
def test_totals_face_value_aces_one_or_eleven(codes, value, soft):
    """HP1, HP3, HP4, HP5: face value, an ace 1 or 11, a face card 10; no bust (K-Q-5 is 25)."""
    assert (t(codes).value, t(codes).soft) == (value, soft)
    assert t(codes).over == (value > 21)


def test_highest_total_22_reading():
    """The other reading of "more than a natural": a drawn 22 is a natural or less, and each ace may
    count 11 up to 22 (A-A is 22)."""
    assert (t("10C 6D 6H", 22).value, t("10C 6D 6H", 22).over) == (22, False)
    assert (t("10C 6D 6H").over, t("AC AD", 22).value) == (True, 22)
    assert t("AC AD 5C", 22).value == 17


def test_the_advantage_chart_for_hit_cards_is_one_joker_a_deck_and_over_past_21():
    """The sheet's "Advantage chart for hit cards": the chance that a hit card leaves a two-card total
    "a natural or less". With one joker a deck (53 cards) and 22 already over a natural it is the
    chart's figure, rounded: 11 100 %, 12 70 %, 13 62 %, 15 47 %, 16 40 %, 17 32 %, 19 17 %. (The
    chart's 14 reads 65 % with a disadvantage of 45 %: 55/45 is the count; its 18, 28 %, is 25 %.)
    With 22 allowed, 12 would be 100 %: the chart confirms the defaults of jokers_per_deck and
    highest_total."""
    deck = [card(f"{r}C") for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")] * 4 + [JOKER]
    first = {11: "9D 2D", 12: "9D 3D", 13: "9D 4D", 14: "9D 5D", 15: "9D 6D", 16: "9D 7D", 17: "9D 8D",
             18: "9D 9H", 19: "10D 9H"}

    def advantage(two: str, highest: int = 21) -> int:
        keeps = sum(1 for c in deck if not total([*cards(two), c], highest).over)
        return round(100 * keeps / len(deck))
    chart = {11: 100, 12: 70, 13: 62, 15: 47, 16: 40, 17: 32, 19: 17}
    assert {n: advantage(first[n]) for n in chart} == chart
    assert (advantage(first[14]), advantage(first[18])) == (55, 25)
    assert advantage(first[12], highest=22) == 100


# --- the comparison rules ---------------------------------------------------------------------------

def outcome(player: str, dealer: str, highest: int = 21) -> str:
    return compare(t(player, highest), t(dealer, highest))[0]


def test_a_natural_beats_all_other_hands():
    """N: two jokers beat every other hand, a 21 with a joker and A-10 included; two naturals push (GR6)."""
    assert outcome("JK JK", "AS 10S") == "win" and outcome("JK JK", "JK 9C") == "win"
    assert outcome("JK 9C", "JK JK") == "lose" and outcome("AC AD 9H", "JK JK") == "lose"
    assert outcome("JK JK", "JK JK") == "push"
    assert outcome("10C 6D 6H", "JK JK", 22) == "lose", "a drawn 22 is not the natural"


def test_rule_1_player_over_dealer_a_natural_or_less():
    """GR1: player K-Q-5 (25), player-dealer 10-7 (17): the player-dealer wins."""
    assert compare(t("KC QD 5H"), t("10S 7D")) == (
        "lose", "the player's 25 is more than a natural and the player-dealer's 17 is not: the player-dealer wins (GR1)")
    assert outcome("KC QD 2H", "2C 3D") == "lose", "even against a 5"


def test_rule_2_player_a_natural_or_less_dealer_over():
    """GR2: player 9-3 (12), player-dealer 10-6-8 (24): the player wins."""
    assert outcome("9C 3D", "10S 6D 8H") == "win"


def test_rule_3_both_over():
    """GR3a: player 10-6-9 (25), player-dealer 10-6-7 (23): the player-dealer is closer, it wins.
    GR3b: player 10-6-7 (23), player-dealer 10-6-9 (25): the player is closer: a push."""
    assert outcome("10C 6D 9H", "10S 6H 7D") == "lose"
    assert compare(t("10C 6D 7H"), t("10S 6H 9D"))[1] == \
        "both over a natural; the player's 23 is closer than 25: a push (GR3b)"
    assert outcome("10C 6D 7H", "10S 6H 9D") == "push"


def test_rule_4_the_dealer_wins_ties_over_a_natural():
    """GR4: player 10-5-9 (24), player-dealer K-6-8 (24): the player-dealer wins."""
    assert outcome("10C 5D 9H", "KS 6H 8D") == "lose"


def test_rule_5_both_below_a_natural_closest_wins():
    """GR5: player 10-9 (19) against 10-8 (18) wins; 10-7 (17) against 10-8 loses; soft counts."""
    assert outcome("10C 9D", "10S 8H") == "win" and outcome("10C 7D", "10S 8H") == "lose"
    assert outcome("AC 8D", "10S 8H") == "win", "A-8 is 19"
    assert outcome("10C 6D 6H", "JK 5C", 22) == "win", "highest_total 22: a drawn 22 beats a joker's 21"


def test_rule_6_ties_on_a_natural_or_less_push():
    """GR6: 10-8 against 9-9 pushes; a joker's 21 against A-10 or 7-7-7 pushes (HRC: all 21s rank alike)."""
    assert outcome("10C 8D", "9S 9H") == "push"
    assert outcome("JK 4C", "AS 10S") == "push" and outcome("7C 7D 7H", "JK 2S") == "push"


# --- the players' chart, jokers, doubles, splits, surrender --------------------------------------

def hand(codes: str, **kw) -> HandState:
    return HandState(tuple(cards(codes)), **kw)


def test_a_hand_with_a_joker_is_frozen():
    """AR1, HP2 ("Players may not draw any further"), DS2: no draw, stand, split, double or surrender
    is asked of a joker hand -- it stands as a hard 21."""
    assert choices(hand("JK 5C")) == ()
    assert refusal("hit", hand("9C 6D JK")) == ("the hand holds a joker: a hard 21, frozen, it cannot receive any "
                                               "further action (AR1, AR3, HP2; DS2: no split, double down or "
                                               "surrender)")
    assert refusal("split", hand("JK JK")) is not None and not pair(cards("JK JK"))


def test_the_dealers_joker_up_card_freezes_all_hands():
    """AR2, GR7: players may not surrender, split, double down or draw."""
    for button in ("hit", "stand", "double", "split", "surrender"):
        assert refusal(button, hand("8C 8D", up_joker=True)) == (
            "the player-dealer's up card is a joker: all hands are frozen; players may not surrender, split, "
            "double down or draw (AR2, GR7)")


def test_the_players_chart():
    """RFP: must hit on 11 or less, must stand on soft and hard 20, 21 (and natural 22), option on 12-19."""
    assert choices(hand("5C 4D 2H")) == ("hit",), "11 in three cards: the draw is compulsory"
    assert refusal("stand", hand("4C 3D 2H")) == "must hit on 9: players must hit on 11 or less (RFP)"
    assert choices(hand("9C 3D 2H")) == ("hit", "stand")
    assert choices(hand("9C 5D 6H")) == ("stand",) and choices(hand("AC 9D 10H")) == ("stand",)
    assert refusal("hit", hand("AC 9D")) == ("must stand on soft 20 (the players' chart; RFP: must stand on soft and "
                                             "hard 20, 21, natural 22)")
    assert refusal("hit", hand("KC QD 5H")).startswith("must stand on hard 25 (more than a natural) (no draw can bring it back")


def test_doubles():
    """DS1: any two cards, one draw card; DS4: after a split too; not on three cards; not where the
    player must stand unless the table allows it (the double's card is a draw)."""
    assert "double" in choices(hand("5C 6D")) and "double" in choices(hand("9C 3D"))
    assert "double" in choices(hand("6C 5D", split=True, splits=1)), "DS4"
    assert refusal("double", hand("2C 3D 5H")) == "a double down is on two cards (DS1); this hand has 3: 2C 3D 5H"
    assert refusal("double", hand("KC QD")).startswith("must stand on hard 20 (RFP): a double down draws a card")
    assert refusal("double", hand("KC QD"), Rules(double_on_stand_totals=True)) is None
    assert refusal("double", hand("AC 7D", split=True, from_aces=True, splits=1)) == \
        "a split ace receives one draw card only (DS3a)"


def test_splits():
    """DS3: a pair, or any two 10-point cards; DS5: up to 3 times; DS3a: aces one card each, not
    split again; DS2: never jokers."""
    assert pair(cards("8C 8D")) and pair(cards("KC 10D")) and pair(cards("JC QD")) and pair(cards("AC AD"))
    assert not pair(cards("9C 7D")) and not pair(cards("JK 5C"))
    assert refusal("split", hand("9C 7D")) == "9C 7D is neither a pair nor two cards of 10-point value (DS3)"
    assert "split" in choices(hand("KC QD")) and choices(hand("KC QD")) == ("stand", "split", "surrender")
    assert refusal("split", hand("8C 8D", split=True, splits=3)) == \
        "the seat has split 3 time(s): splitting is permitted up to 3 times (DS5)"
    assert refusal("split", hand("8C 8D", split=True, splits=2)) is None
    aces = hand("AC AD", split=True, from_aces=True, splits=1)
    assert choices(aces) == ("stand",)
    assert refusal("split", aces) == "split aces receive one draw card each and are not split again (DS3a; game.resplit_aces)"
    assert choices(aces, Rules(resplit_aces=True)) == ("stand", "split")


def test_surrender():
    """DS, AR2 name surrender: on a hand's first two cards, not after a split, not with a joker."""
    assert "surrender" in choices(hand("10C 6D"))
    assert refusal("surrender", hand("10C 6D", split=True, splits=1)) == \
        "surrender is on a hand's first two cards, not on a split hand (DS; reading)"
    assert refusal("surrender", hand("10C 2D 3H")) == "surrender is on the first two cards only; this hand has 3 (DS; reading)"
    assert refusal("surrender", hand("10C 6D"), Rules(surrender=False)) == \
        "surrender is not offered at this table (game.surrender = false)"


def test_must_hit_on_11_or_less_and_surrender():
    """RFP: "MUST HIT ON 11 or Less"; DS: surrender, barred only "with a joker" (DS2). Reading 9: the
    chart orders hit against stand, so 6-4 (10) may hit, double (a draw) or surrender, never
    stand; a table that reads "must hit" as the only play sets surrender_on_must_hit = false, and
    then 6-4 may only hit or double. 9-3 (12, the option column) may surrender either way."""
    ten = hand("6C 4D")
    assert choices(ten) == ("hit", "double", "surrender")
    assert refusal("stand", ten) == "must hit on 10: players must hit on 11 or less (RFP)"
    strict = Rules(surrender_on_must_hit=False)
    assert choices(ten, strict) == ("hit", "double")
    assert refusal("surrender", ten, strict) == ("must hit on 10: players must hit on 11 or less (RFP), and this "
                                                 "table gives such a hand no surrender "
                                                 "(game.surrender_on_must_hit = false)")
    assert "surrender" in choices(hand("AC AD"), strict), "A-A is a soft 12: the option column"
    assert "surrender" in choices(hand("9C 3D"), strict)


# --- the player-dealer ------------------------------------------------------------------------------

@pytest.mark.parametrize("codes, draws", [
    ("10C 6D", True), ("AC 6D", True), ("10C 7D", False), ("AC 7D", False), ("AC 5D AH", True),
    ("9C 7D 5H", False), ("2C 3D", True), ("KC QD 5H", False), ("9C 7D AH", False), ("AC 6D 10H", False),
])
def test_the_player_dealers_chart(codes, draws):
    """RPD: must stay hard 17 or more, must hit soft 17 or less (and 16 or less); soft 18 stays."""
    assert player_dealer_draws(cards(codes))[0] is draws


def test_the_player_dealers_joker_stops_the_draw():
    """GR7: a joker up card: no draw; AR1, AR3: a joker anywhere is a frozen hard 21."""
    assert player_dealer_draws(cards("JK 2C")) == (False, "the player-dealer's up card is a joker: there is no draw (GR7)")
    assert player_dealer_draws(cards("2C JK")) == (False, "the player-dealer's hand holds a joker: a hard 21, frozen "
                                                         "(AR1, AR3)")
    assert player_dealer_draws(cards("AC 6D"))[1] == "the player-dealer must hit soft 17 (RPD: must hit soft 17 or less)"


# --- settlement --------------------------------------------------------------------------------------

def wagers(h: PlayedHand, dealer: str, rules: Rules | None = None) -> list[tuple[str, str, str | None, str]]:
    return [(w.wager, w.outcome, None if w.pays is None else str(w.pays), str(w.stake))
            for w in settle_hand(h, cards(dealer), rules or Rules())]


def test_settlement_bet_double_split_surrender():
    assert wagers(PlayedHand(tuple(cards("10C 9D"))), "10S 8H") == [("bet", "win", "1 to 1", "1")]
    assert wagers(PlayedHand(tuple(cards("5C 6D 9H")), doubled=True), "10S 8H") == [
        ("bet", "win", "1 to 1", "1"), ("double", "win", "1 to 1", "1")]
    assert wagers(PlayedHand(tuple(cards("8C 3D")), "split"), "10S 8H") == [("split", "lose", None, "1")]
    assert wagers(PlayedHand(tuple(cards("10C 6D")), surrendered=True), "10S 8H") == [("bet", "lose", None, "1/2")]
    assert settle_hand(PlayedHand(tuple(cards("10C 6D")), surrendered=True), cards("10S 8H"))[0].net == Fraction(-1, 2)


def test_a_natural_pays_what_the_table_says():
    assert wagers(PlayedHand(tuple(cards("JK JK"))), "10S 8H") == [("bet", "win", "1 to 1", "1")]
    assert wagers(PlayedHand(tuple(cards("JK JK"))), "10S 8H", Rules(natural_pays=Pays(2))) == [
        ("bet", "win", "2 to 1", "1")]


def test_rule_ds6_a_dealer_natural_leaves_doubles_and_splits_without_action():
    """DS6: the double-down and split wagers receive no action; the bet loses to the natural."""
    assert wagers(PlayedHand(tuple(cards("5C 6D 9H")), doubled=True), "JK JK") == [
        ("bet", "lose", None, "1"), ("double", "push", None, "1")]
    assert wagers(PlayedHand(tuple(cards("8C 3D 10H")), "split", doubled=True), "JK JK") == [
        ("split", "push", None, "1"), ("double", "push", None, "1")]


def test_settle_reports_every_hand():
    data = settle(cards("10S 6H 8D"), {2: [PlayedHand(tuple(cards("8C 3D 10H")), "bet", True),
                                          PlayedHand(tuple(cards("8D 9C")), "split")]})
    assert data["dealer"] == {"cards": ["10S", "6H", "8D"], "total": 24, "soft": False, "joker": False,
                              "natural": False, "over": True}
    first, second = data["seats"]["2"]["hands"]
    assert [w["outcome"] for w in first["wagers"]] == ["win", "win"] and first["total"] == 21
    assert second["wagers"][0]["why"] == ("the player-dealer's 24 is more than a natural and the player's 17 is not: "
                                          "the player wins (GR2)")


# --- the action button ----------------------------------------------------------------------------

def test_action_button_charts():
    """No chart in this game's rules: rank order (Commission-Free Baccarat rule 21) by default, or
    Three Card Poker's R8; a joker counts 0. Counted round the table from the player-dealer's left."""
    assert [action_value(card(c)) for c in ("AC", "7D", "10H", "JS", "QS", "KS")] == [1, 7, 10, 11, 12, 13]
    assert [action_value(card(c), "face_value") for c in ("AC", "7D", "10H", "JS", "KS")] == [1, 7, 10, 0, 0]
    assert action_value(JOKER) == 0
    # seats 1-4, the player-dealer at 3: a 2 counts seats 4, 1 -> seat 1
    assert action_button(card("2C"), 3, 4) == {"card": "2C", "count": 2, "position": 2, "seat": 1,
                                              "first_action_seat": 1}
    # a 4 comes back round to the player-dealer: position 0, first action on its left
    assert action_button(card("4C"), 3, 4) == {"card": "4C", "count": 4, "position": 0, "seat": 3,
                                              "first_action_seat": 4}
    assert action_button(JOKER, 2, 4)["seat"] == 2


# --- options -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw, message", [
    ({"seats": 9}, "seats: No Bust 21st Century Blackjack seats 2 to 8 players including the player-dealer "
                   "(a blackjack table's places), not 9"),
    ({"jokers_per_deck": 0}, "jokers_per_deck: 1 to 4 jokers a deck (the game is played with jokers: How to Play 2), not 0"),
    ({"max_splits": 4}, "max_splits: 0 to 3: multiple splitting is permitted up to 3 times (Double-Down Split & "
                        "Surrender 5), not 4"),
    ({"highest_total": 23}, "highest_total: must be 21 (a drawn 22 is more than a natural) or 22, not 23"),
    ({"natural_pays": "3 for 2"}, "natural_pays: odds as '<to> to <per>' such as '2 to 1', not '3 for 2'"),
    ({"surrender": "yes"}, "surrender: must be true or false, not 'yes'"),
    ({"player_dealer_second_card": "peek"}, "player_dealer_second_card: must be one of hole, after_draws, not 'peek'"),
])
def test_options_refuse_what_the_rules_do_not_allow(kw, message):
    with pytest.raises(OptionError) as caught:
        NoBustOptions(**kw)
    assert str(caught.value) == message


def test_the_shoe_is_n_decks_of_52_and_their_jokers():
    spec = NoBustOptions(decks=6, jokers_per_deck=1).spec
    assert spec.size == 6 * 53 and spec.copies(JOKER) == 6
    assert NoBustOptions(decks=2, jokers_per_deck=2, natural_pays="3 to 2").readings.natural_pays == Pays(3, 2)
