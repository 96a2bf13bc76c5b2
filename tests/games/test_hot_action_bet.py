"""Hot Action's bet counted exactly (games/hot_action/bet.py): equal to every order of small shoes
dealt by the odds module's own round (play_round, settle_hand), adding up to one for a full shoe,
and agreeing with a seeded simulation of that round."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from games.cards import JOKER, card
from games.hot_action import bet, odds, rules
from games.odds import OutcomeOdds, simulated


def kind(c):
    return card("10S") if rules.ten_point(c) else JOKER if c.is_joker else card(f"{c.rank}S")


@pytest.mark.parametrize("codes", [
    "10C 10D 10H 9C 9D 8C AS JK",      # a joker and a ten: the Bank's two card 22 (H14) stops the player
    "AS AD JK 10C 10D 9C 8C 8D",       # two aces: naturals; 8-8 draws
    "JK JK 10C 9C 9D AS 7C 10H",       # soft hands with the joker as 12, ties on 19-22
])
def test_the_count_equals_every_order_of_a_small_shoe(codes):
    """8! orders; play_round would raise if any round ran out of cards."""
    shoe = [card(c) for c in codes.split()]
    tally: Counter = Counter()
    orders = 0
    for order in itertools.permutations(shoe):
        deal = iter(order)
        player, bank = odds.play_round(deal.__next__)
        tally[rules.settle_hand(player, bank).net] += 1
        orders += 1
    exact = bet.count(dict(Counter(kind(c) for c in shoe)))
    assert exact == {net: Fraction(n, orders) for net, n in tally.items()}


def test_the_two_hands_follow_the_same_rule_to_18():
    """Both stand on hard 18 and soft 19 and hit soft 18 and below 18: the same finals."""
    kinds = tuple(odds.shoe_composition(1))
    assert bet.finals(kinds, bet.player_stands) == bet.finals(kinds, bet.banker_stands(rules.Rules()))
    assert bet.player_stands([card("10S"), card("8S")]) and not bet.player_stands([card("AS"), card("7S")])


@pytest.mark.slow
def test_one_deck_recounted_is_the_shipped_count_and_a_seeded_simulation_agrees():
    """A minute: one deck of 56, counted again, is what odds prints (tools/odds/hot_action_bet.py);
    40,000 seeded rounds of odds.simulate contain its value in their 95 % interval."""
    exact = bet.count(odds.shoe_composition(1))
    assert sum(exact.values()) == 1
    (printed,) = odds.odds(decks=1).wagers
    assert {o.net: o.probability for o in printed.outcomes} == exact
    rounds = 40_000
    tally = odds.simulate(rounds, 11, 1)
    sim = simulated("bet", tuple(OutcomeOdds(str(k), n / rounds, float(k)) for k, n in tally.items()), rounds, "")
    lo, hi = sim.interval
    assert lo <= float(printed.expected) <= hi
