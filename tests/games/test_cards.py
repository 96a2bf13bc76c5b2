"""Card codes, deck specs and the shoe ledger."""

import pytest

from games import registry
from games.cards import JOKER, Card, CardCodeError, card, cards, try_card
from games.decks import DeckSpec, betwin, standard, standard_deck, stripped
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


NO_8_9_10 = ("8", "9", "10")

COMPOSITIONS = {  # the decks of GAMES.md, by the composition each sheet names
    "baccarat": (standard(8), 416), "three_card_poker": (standard(1), 52),
    "joker_seven": (standard(1, jokers=2), 54), "betwin": (betwin(), 264),
    "seven_card_thrill": (standard(1, jokers=1), 53), "no_bust_blackjack": (standard(6, jokers=1), 318),
    "hot_action_blackjack": (standard(8, jokers=4), 448), "double_hand_poker": (standard(1, jokers=1), 53),
    "panguingue": (stripped(NO_8_9_10, decks=8), 320), "draw_poker": (standard(1, jokers=1), 53),
    "mexican_poker": (stripped(NO_8_9_10, jokers=1), 41), "holdem": (standard(1), 52),
}


@pytest.mark.parametrize("game", sorted(COMPOSITIONS))
def test_every_game_deck_size(game):
    spec, size = COMPOSITIONS[game]
    assert spec.size == size == len(spec.all_cards()) == sum(spec.counts.values())


def test_a_registered_games_deck_is_its_own():
    entry = registry.get("baccarat")
    assert entry.deck(entry.load_options({}, 8)).counts == standard(8).counts


def test_deck_compositions():
    bac, hot, bw = standard(8), standard(8, jokers=4), betwin()
    assert bac.copies(card("AS")) == 8 and bac.copies(JOKER) == 0
    assert hot.copies(JOKER) == 32
    assert bw.copies(JOKER) == 24 and bw.copies(card("MS")) == 6
    assert bw.copies(card("AS")) == 0
    pan = stripped(NO_8_9_10, decks=8)
    assert pan.copies(card("9H")) == 0 and pan.copies(card("7H")) == 8
    assert pan.times(10).size == 400  # the sheet also says ten decks
    mex = stripped(NO_8_9_10, jokers=1)
    assert mex.copies(card("10S")) == 0 and mex.copies(JOKER) == 1
    assert len(standard_deck(jokers=2)) == 54
    with pytest.raises(ValueError, match="decks must be at least 1"):
        DeckSpec("none", standard_deck(), 0)


def test_deck_check_names_missing_and_extra_sorted():
    spec = standard(8)
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
    ledger = ShoeLedger(stripped(NO_8_9_10, jokers=1, name="41 mexican"))
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
