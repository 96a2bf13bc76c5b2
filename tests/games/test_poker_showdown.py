"""The poker-room showdown, hand-worked: games.poker.showdown -- which five cards a hand may use
(Hold'em any five, Omaha exactly two from the hand and three from the board), the high and the
low of each game, and the high-low split (california-card-room-games.txt: "The Basic Play of the
Mother Game Texas Hold'em" and "The Variations"; 7-Card Stud High-Low Split; Draw Poker &
Low-Ball rule 9)."""

from __future__ import annotations

import pytest

from games.cards import cards
from games.poker.hands import PokerHandError
from games.poker.low import LowRules
from games.poker.showdown import GAMES, PokerRules, Showdown, Split, fives, settle, showdown, split


def play(game: str, hand: str, board: str = "") -> Showdown:
    return showdown(GAMES[game], cards(hand), cards(board) if board else ())


def test_holdem_uses_any_five_and_may_play_the_board():
    """"any player may use any combination of five cards to determine their best hand"."""
    assert play("holdem", "2C 7D", "AS KS QS JS 10S").high.name == "royal flush"
    assert play("holdem", "10H 2C", "AS KS QD JS 3D").high.name == "straight"     # one card of the hand
    assert play("holdem", "2C 3D", "AS AD AH AC KS").high == play("holdem", "4C 5D", "AS AD AH AC KS").high


def test_omaha_uses_exactly_two_from_the_hand_and_three_from_the_board():
    """"may only use two cards from their hand"."""
    # Four hearts on the board and one in the hand: no flush in Omaha, a royal flush in Hold'em.
    assert play("holdem", "10H 5C 6D 7S", "AH KH QH JH 2C").high.name == "royal flush"
    assert play("omaha", "10H 5C 6D 7S", "AH KH QH JH 2C").high.name == "high card"
    # Four spades in the hand and two on the board: no flush either.
    assert play("omaha", "AS KS 4S 3S", "9S 2S 7D JC QH").high.name == "high card"
    # Four aces on the board: three of them at most.
    assert play("omaha", "2C 2D 9H 8H", "AS AD AH AC KS").high.name == "full house"
    # Three kings in the hand: two of them at most.
    assert play("omaha", "KS KD KH 2C", "7S 8D 4H 3C JC").high.name == "pair"
    # A straight needs two from the hand.
    assert play("omaha", "9S 8D 2C 2H", "7S 6D 5H KC QC").high.name == "straight"
    assert play("omaha", "9S 3D 2C 2H", "8S 7D 6H 5C QC").high.name == "pair"


def test_omaha_low_takes_two_from_the_hand_too():
    """Choice 2: the low of Omaha Hi/Lo, like its high, is two from the hand and three from the board."""
    assert play("omaha_hi_lo", "AS 2D KH KC", "3C 4D 5H QS QC").low.name == "wheel"
    assert play("omaha_hi_lo", "AS KD KH QC", "2C 3D 4H 5S 6C").low is None     # one low card in the hand
    assert play("holdem_hi_lo", "AS KD", "2C 3D 4H 5S 6C").low.name == "wheel"


def test_the_holes_exact_count_is_checked():
    with pytest.raises(PokerHandError, match="from the board"):
        list(fives(cards("AS KS QS JS"), cards("2D 3D"), 2))
    assert len(list(fives(cards("AS KS QS JS"), cards("2D 3D 4D 5D 6D"), 2))) == 6 * 10


def test_crazy_pineapple_keeps_three_and_uses_any_five():
    """Choice 1: "the player keeps all three cards in their hand", any combination of five."""
    assert play("crazy_pineapple", "AS KS QS", "JS 10S 2D 3C 4H").high.name == "royal flush"
    assert play("pineapple", "AS KS", "JS 10S QS 3C 4H").high.name == "royal flush"


def test_stud_high_low_high_and_low_from_different_fives():
    """"any five cards to make his best high hand and any other grouping of five cards ... to make
    his best low hand"."""
    s = play("stud_hi_lo", "KS KD AH 2C 3D 4S 7H")
    assert s.high.name == "pair" and s.low.name == "7-4-3-2-A"
    both = play("stud_hi_lo", "AS 2D 3H 4C 5S KS KD")
    assert both.high.name == "straight" and both.low.name == "wheel"


def test_the_high_low_split():
    """High and low share the pot; "if there is no low, the high hand wins the entire pot"; ties
    share their half (rule 9)."""
    board = "2C 5D 8H KS KD"
    hands = [play("holdem_hi_lo", h, board) for h in ("AS 3D", "KH 9C", "QC JD")]
    assert split(hands) == Split(high=(1,), low=(0,))
    no_low = [play("holdem_hi_lo", h, "9C 10D JH KS KD") for h in ("AS 3D", "KH 9S")]
    assert split(no_low) == Split(high=(1,), low=())
    scoop = [play("holdem_hi_lo", h, "2C 3D 4H 9S KD") for h in ("AS 5D", "KH 9C")]
    assert split(scoop) == Split(high=(0,), low=(0,))
    shared = [play("holdem_hi_lo", h, "2C 3D 4H 9S KD") for h in ("AS 5D", "AH 5C", "KH 9C")]
    assert split(shared) == Split(high=(0, 1), low=(0, 1))


def test_a_posted_game_without_a_qualifier():
    """"unless a specific posting to the contrary is made": any five cards make a low."""
    posted = PokerRules(GAMES["stud_hi_lo"].high, LowRules())
    assert showdown(posted, cards("KS QD JH 9C 9S 4D 2H")).low.name == "Q-J-9-4-2"
    assert play("stud_hi_lo", "KS QD JH 9C 9S 4D 2H").low is None


def test_lowball_razz_draw_and_mexican_through_the_table():
    low = [play("lowball", h) for h in ("JK 2D 3H 4C 5S", "AS 2D 3H 4C 6S")]
    assert low[0].high is None and split(low) == Split(high=(), low=(0,))
    assert play("razz", "KS 7D AH 2C 3S 4D 9H").low.name == "7-4-3-2-A"
    assert play("draw", "AS AD AH AC JK").high.name == "five aces"
    assert play("mexican_stud", "4S 5D 6H 7C JK").high.key[1] == 11


def test_settle_says_a_low_only_game_gives_the_pot_to_the_best_low():
    """Draw Poker & Low-Ball rule 6: "The winning event in Low-Ball is the best five 'low-cards'";
    rule 9: "In case of tie the pot is split". Seats 2 and 5 tie on the wheel (the joker the lowest
    card not held: the 5); seat 3's 7-6-4-3-2 loses."""
    out = settle(GAMES["lowball"], {2: cards("JK AD 2H 3C 4S"), 3: cards("7S 6D 4H 3D 2S"),
                                    5: cards("AS 2D 3H 4C 5S")})
    assert (out["low"], out["high"], out["pot"]) == ([2, 5], [], "low")
    assert out["why"] == "the best low hand wins the pot (Razz, Low-Ball): seats 2, 5 share it"


def test_a_card_entered_twice_is_refused():
    """Choice 3: one deck."""
    with pytest.raises(PokerHandError, match="entered twice"):
        play("holdem", "AS KD", "AS 2C 3D 4H 5S")


def test_rules_must_rank_something():
    with pytest.raises(ValueError, match="high, a low or both"):
        PokerRules(None, None)
    with pytest.raises(ValueError, match="one to four"):
        PokerRules(GAMES["holdem"].high, hole=5)
