"""Bet'Win's exact odds (games/betwin/odds.py) against a brute force over every ordered deal of
a one-deck shoe, and hand-derivable figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from games.betwin import odds as bw
from games.betwin.rules import Rules, wins
from games.decks import betwin


def test_one_deck_bet_by_brute_force():
    """Every ordered (seat card, Waiting, Adjoining) of the 44 cards, settled by the rules themselves."""
    deck = betwin(1).all_cards()
    won = sum(wins(p, w, a)[0] for p, w, a in itertools.permutations(deck, 3))
    exact = bw.odds(decks=1).wagers[0].outcomes[0].probability
    assert exact == Fraction(won, 44 * 43 * 42)


def test_two_dealer_jokers_by_hand():
    """P(both dealer cards jokers) = 24/264 * 23/263 for six decks; every seat wins then, so the bet's
    win probability is at least that."""
    both = Fraction(24, 264) * Fraction(23, 263)
    assert bw.odds().wagers[0].outcomes[0].probability > both


def test_playing_well_beats_the_plain_bet_and_the_house_keeps_an_edge():
    plain, played = bw.odds().wagers
    assert played.expected > plain.expected
    assert plain.house_edge > 0 and played.house_edge > 0
    assert plain.total_probability() == played.total_probability() == 1


def test_identical_by_rank_and_suit_changes_the_odds():
    by_rank = bw.odds(decks=1).wagers[0].expected
    by_suit = bw.odds(decks=1, rules=Rules(identical="rank_and_suit")).wagers[0].expected
    assert by_rank != by_suit


def test_bad_arguments():
    with pytest.raises(ValueError, match="Bet'Win pays 1 to 1"):
        bw.odds("vegas")
    with pytest.raises(ValueError, match="1 to 8"):
        bw.odds(decks=9)
