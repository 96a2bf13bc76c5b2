"""Three Card Poker's hands and settlement (games/three_card_poker), hand-worked from the sheet
(california-card-room-games.txt, Three Card Poker: R = Round of Play, B = Bonus Bet)."""

from __future__ import annotations

import pytest

from games.cards import card, cards
from games.three_card_poker.hands import ThreeCardHandError, key, name, qualifies
from games.three_card_poker.rules import action_button, action_value, settle, settle_seat


def hand(codes: str) -> str:
    return name(key(cards(codes)))


@pytest.mark.parametrize("codes, expected", [
    ("AS KS QS", "royal flush"), ("2H 3H 4H", "straight flush"), ("AD 2D 3D", "straight flush"),
    ("7C 7D 7H", "three of a kind"), ("QC KD AH", "straight"), ("AC 2D 3H", "straight"),
    ("2S 9S JS", "flush"), ("5C 5D KH", "pair"), ("AC 7D 3H", "high card"), ("KC AD 2H", "high card"),
])
def test_hand_names(codes, expected):
    assert hand(codes) == expected


def test_three_card_order_straight_beats_flush_and_trips_beat_straights():
    assert key(cards("2C 3D 4H")) > key(cards("2S 9S JS")) > key(cards("AC AD KH"))
    assert key(cards("2C 2D 2H")) > key(cards("QC KD AH"))
    assert key(cards("AC 2D 3H")) < key(cards("2C 3D 4H")), "A-2-3 is the lowest straight"
    assert key(cards("QC KD AH")) > key(cards("JC QD KH")), "Q-K-A the highest"


def test_queen_high_qualifies_jack_high_does_not():
    """R5: "must qualify to play with a minimum of Queen-high"."""
    assert qualifies(key(cards("QC 3D 2H"))) and not qualifies(key(cards("JC 10D 8H")))
    assert qualifies(key(cards("2C 2D 3H")))


def outcomes(player: str, dealer: str, played: bool = True) -> dict[str, tuple[str, str | None]]:
    return {w.wager: (w.outcome, None if w.pays is None else str(w.pays))
            for w in settle_seat(cards(player), played, cards(dealer))}


def test_dealer_does_not_qualify_ante_paid_play_returned():
    """R5a: the ante is paid even money, whoever is higher; the play bet is returned."""
    assert outcomes("2C 5D 7H", "JC 10D 8H") == {"ante": ("win", "1 to 1"), "play": ("push", None),
                                                 "bonus": ("lose", None)}


def test_dealer_qualifies_player_wins_loses_ties():
    """R5b-i, ii, iii."""
    assert outcomes("5C 5D 7H", "QC 3D 2H")["play"] == ("win", "1 to 1")
    assert outcomes("QC 4D 2H", "QS 3D 2C")["ante"] == ("win", "1 to 1"), "Q-4 beats Q-3"
    assert outcomes("QC 3D 2H", "KC 3S 2D")["ante"] == ("lose", None)
    tie = outcomes("QC 3D 2H", "QS 3C 2D")
    assert tie["ante"] == ("push", None) and tie["play"] == ("push", None)


def test_a_fold_forfeits_ante_and_bonus_and_has_no_play():
    """R3, R3a: even a hand that would pay a bonus."""
    assert outcomes("AS KS QS", "2C 3D 5H", played=False) == {"ante": ("lose", None), "bonus": ("lose", None)}


@pytest.mark.parametrize("player, pays", [
    ("AS KS QS", "200 to 1"), ("9H 10H JH", "40 to 1"), ("7C 7D 7H", "30 to 1"), ("9C 10D JH", "6 to 1"),
    ("2S 9S JS", "3 to 1"), ("5C 5D KH", "1 to 1"), ("AC 7D 3H", None),
])
def test_the_bonus_table_pays_even_when_the_ante_loses(player, pays):
    """B3-B8: the bonus considers only the player's three cards."""
    o = outcomes(player, "AD AH AC")   # trips: the player-dealer beats everything but a straight flush
    assert o["bonus"] == (("win", pays) if pays else ("lose", None))


@pytest.mark.parametrize("rank, value", [("A", 1), ("2", 2), ("9", 9), ("10", 10), ("J", 0), ("Q", 0), ("K", 0)])
def test_action_button_values(rank, value):
    """R8's chart."""
    assert action_value(card(f"{rank}H")) == value


def test_action_button_counts_players_skipping_the_player_dealer():
    """8 seats, the player-dealer at seat 3: a 4 counts seats 1, 2, 4, 5 -> seat 5; a 9 wraps past
    the seven players to the second, seat 2; a King (0) leaves it with the player-dealer, first action to
    seat 4."""
    assert action_button(card("4H"), 3, 8)["seat"] == 5
    assert action_button(card("9H"), 3, 8)["seat"] == 2
    king = action_button(card("KH"), 3, 8)
    assert (king["seat"], king["position"], king["first_action_seat"]) == (3, 0, 4)


def test_settle_hides_a_folded_hand():
    result = settle(cards("QC 3D 2H"), {1: (cards("AS KS QS"), False), 2: (cards("5C 5D 7H"), True)})
    assert result["seats"]["1"]["cards"] is None and result["seats"]["1"]["hand"] is None
    assert result["seats"]["2"]["cards"] == ["5C", "5D", "7H"]
    assert result["dealer"] == {"cards": ["QC", "3D", "2H"], "hand": "high card", "qualifies": True}


@pytest.mark.parametrize("codes, message", [
    ("AS KS", "a Three Card Poker hand is 3 cards, not 2"),
    ("AS KS QS JS", "a Three Card Poker hand is 3 cards, not 4"),
    ("AS KS JK", "no jokers"),
])
def test_bad_hands(codes, message):
    with pytest.raises(ThreeCardHandError, match=message):
        key(cards(codes))


def test_a_pair_in_one_suit_is_a_flush_by_default_and_a_pair_by_option():
    """Two decks: 7H 7H 2H is a pair of sevens and three hearts. "All standard poker rankings will
    be used" (Standards of play): a standard hand ranks as its best category, so by default it is
    a flush (7-7-2), beating a pair of aces and losing to 8-6-3 suited (a flush, 8 high) and to a
    straight; the bonus pays it 3 to 1 (B8). With suited_pair = "pair" it is a pair of sevens,
    paid 1 to 1, and loses to the pair of aces."""
    suited = cards("7H 7H 2H")
    assert name(key(suited)) == "flush" and key(suited) == (2, 7, 7, 2)
    assert key(cards("AS AD 3C")) < key(suited) < key(cards("8D 6D 3D")) < key(cards("4C 5D 6S"))
    assert name(key(suited, "pair")) == "pair" and key(suited, "pair") < key(cards("AS AD 3C"))
    dealer = cards("KC 9D 4S")                                    # king high: qualifies
    by_flush = settle_seat(suited, True, dealer)
    by_pair = settle_seat(suited, True, dealer, suited_pair="pair")
    assert by_flush[-1].to_dict()["pays"] == "3 to 1" and by_pair[-1].to_dict()["pays"] == "1 to 1"
    assert by_flush[0].outcome == by_pair[0].outcome == "win"     # either beats king high
    assert key(cards("QS QS QS")) == (4, 12), "suited trips stay three of a kind (above a flush)"
