"""Commission-Free Baccarat's odds (games/baccarat/odds.py) against published figures and brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from games.baccarat import rules
from games.baccarat.odds import odds, outcome_probabilities, probabilities_of
from games.cards import card


def test_eight_decks_match_the_published_figures():
    """The well-known 8-deck figures: banker 0.458597, player 0.446247, tie 0.095156."""
    p = outcome_probabilities(8)
    assert sum(p.values()) == 1
    assert round(float(p["banker"] + p["banker_six"]), 6) == 0.458597
    assert round(float(p["player"]), 6) == 0.446247
    assert round(float(p["tie"]), 6) == 0.095156


def test_the_house_edges_of_rule_8():
    """Player: P(banker) - P(player); banker (6 pays 1 to 2): P(player) - P(b) - P(b6)/2; tie: 1 - 9 P(tie)."""
    p = outcome_probabilities(8)
    edges = {w.wager: w.house_edge for w in odds(8).wagers}
    assert edges["player"] == p["banker"] + p["banker_six"] - p["player"]
    assert edges["banker"] == p["player"] - p["banker"] - p["banker_six"] / 2
    assert edges["tie"] == 1 - 9 * p["tie"]
    assert round(float(edges["banker"]), 5) == 0.01458 and round(float(edges["tie"]), 4) == 0.1436
    assert not any(w.favours_player for w in odds(8).wagers)
    assert all(w.total_probability() == 1 for w in odds(8).wagers)


def test_a_ten_card_shoe_by_brute_force_with_the_rules_themselves():
    """One card of each point (AS..9S and a KS): every ordered deal, settled by games.baccarat.rules."""
    shoe = [card(c) for c in ("KS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")]
    tally: Counter[str] = Counter()
    seen = 0
    for order in itertools.permutations(shoe, 6):
        player, banker = [], []
        dealt = 0
        while (due := rules.next_card(player, banker)) is not None:
            (player if due[0] == "player" else banker).append(order[dealt])
            dealt += 1
        result = rules.outcome(player, banker)
        tally["banker_six" if result.banker_six else result.winner] += 1
        seen += 1
    exact = probabilities_of((1,) * 10)
    assert {k: Fraction(v, seen) for k, v in tally.items()} == {k: v for k, v in exact.items() if v}


def test_decks_out_of_range():
    with pytest.raises(ValueError, match="decks: Commission-Free Baccarat is dealt from 1 to 8 decks"):
        outcome_probabilities(9)
