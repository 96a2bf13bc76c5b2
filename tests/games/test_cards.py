"""Card codes, deck specs and the shoe ledger."""

import pytest

from games.cards import JOKER, Card, CardCodeError, card, cards, try_card
from games.decks import SPECS, DeckSpec, standard_deck
from games.ledger import ShoeLedger, check_deck


@pytest.mark.parametrize("code,rank,suit", [
    ("AS", "A", "S"), ("10H", "10", "H"), ("2C", "2", "C"), ("KD", "K", "D"),
    ("1S", "1", "S"), ("MH", "M", "H"), ("VC", "V", "C"), ("CD", "C", "D"), ("DS", "D", "S"), ("RH", "R", "H"),
])
def test_codes_parse_and_format(code, rank, suit):
    c = card(code)
    assert (c.rank, c.suit, c.code, str(c)) == (rank, suit, code, code)
    assert card(code) is c  # interned


def test_joker():
    assert card("JK") is JOKER and JOKER.is_joker and JOKER.code == "JK"


@pytest.mark.parametrize("code,fragment", [
    ("", "empty"),
    ("as", "upper case: 'AS'"),
    (" AS", "whitespace"),
    ("A", "too short"),
    ("AX", "unknown suit 'X'"),
    ("TH", "ten is written '10'"),
    ("0H", "ten is written '10'"),
    ("100H", "ten is written '10'"),
    ("11H", "no rank '11'"),
    ("ZS", "unknown rank 'Z'"),
    ("A-S", "neither a letter nor a digit"),
    ("JOKER", "joker is written 'JK'"),
    ("ÅS", "neither a letter nor a digit"),
    (7, "text, not int"),
    (None, "text, not NoneType"),
])
def test_every_bad_code_says_why(code, fragment):
    with pytest.raises(CardCodeError) as err:
        card(code)
    assert fragment in str(err.value)
    assert err.value.code == code


def test_try_card_never_raises():
    assert try_card("QS") == Card("Q", "S")
    assert try_card("XX") is None and try_card("") is None


@pytest.mark.parametrize("game,size", [
    ("baccarat", 416), ("three_card_poker", 52), ("joker_seven", 54), ("betwin", 264),
    ("seven_card_thrill", 53), ("no_bust_blackjack", 318), ("hot_action_blackjack", 448),
    ("double_hand_poker", 53), ("panguingue", 320), ("draw_poker", 53), ("mexican_poker", 41),
    ("holdem", 52), ("seven_card_stud", 52),
])
def test_every_game_deck_size(game, size):
    spec = SPECS[game]
    assert spec.size == size == len(spec.all_cards()) == sum(spec.counts.values())


def test_deck_compositions():
    assert SPECS["baccarat"].copies(card("AS")) == 8 and SPECS["baccarat"].copies(JOKER) == 0
    assert SPECS["hot_action_blackjack"].copies(JOKER) == 32
    assert SPECS["betwin"].copies(JOKER) == 24 and SPECS["betwin"].copies(card("MS")) == 6
    assert SPECS["betwin"].copies(card("AS")) == 0
    assert SPECS["panguingue"].copies(card("9H")) == 0 and SPECS["panguingue"].copies(card("7H")) == 8
    assert SPECS["panguingue"].times(10).size == 400  # the sheet also says ten decks
    mex = SPECS["mexican_poker"]
    assert mex.copies(card("10S")) == 0 and mex.copies(JOKER) == 1
    assert len(standard_deck(jokers=2)) == 54
    with pytest.raises(ValueError, match="decks must be at least 1"):
        DeckSpec("none", standard_deck(), 0)


def test_deck_check_names_missing_and_extra_sorted():
    spec = SPECS["baccarat"]
    read = spec.all_cards()
    read.remove(card("7H"))
    read.append(card("JK"))
    result = check_deck(spec, list(reversed(read)))
    assert not result.ok
    assert result.missing == (card("7H"),) and result.extra == (JOKER,)
    assert result.counted == 416 and result.expected == 416
    assert "missing 7H" in result.summary() and "extra JK" in result.summary()
    assert check_deck(spec, spec.all_cards()).ok


def test_ledger_names_foreign_and_copy_too_many():
    ledger = ShoeLedger(SPECS["mexican_poker"])
    assert ledger.take(card("AS")) is None
    fault = ledger.take(card("AS"))
    assert fault.kind == "too_many" and "AS read once too often" in fault.message
    fault = ledger.take(card("9S"))
    assert fault.kind == "foreign" and "not part of a 41 mexican shoe" in fault.message
    assert ledger.drawn == 1 and ledger.remaining == 40
    ledger.refill()
    assert ledger.take(card("AS")) is None


def test_cards_helper():
    assert cards("AS 10H JK") == [card("AS"), card("10H"), JOKER]
