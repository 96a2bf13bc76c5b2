"""No Bust 21st Century Blackjack's odds (games/no_bust/odds.py): the player-dealer's chart exactly,
checked against a brute force over every order of small shoes, a hand-derived figure and a seeded
simulation; the bet's seeded simulation labelled so, with its interval."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from games.cards import JOKER, card, cards
from games.no_bust import odds as nb
from games.no_bust.rules import player_dealer_draws, total


def brute_force(physical: list) -> dict[str, Fraction]:
    """Every order of the shoe's physical cards, the player-dealer dealt from the top."""
    tally: Counter = Counter()
    orders = 0
    for order in itertools.permutations(physical):
        hand = list(order[:2])
        rest = iter(order[2:])
        while player_dealer_draws(hand)[0]:
            hand.append(next(rest))
        tally[nb.outcome_name(total(hand))] += 1
        orders += 1
    return {k: Fraction(v, orders) for k, v in tally.items()}


@pytest.mark.parametrize("shoe", [
    "AS 6S 6S 10S 10S 10S JK",          # soft 17 hits, a joker freezes, 16 hits
    "2S 3S 4S 5S AS JK JK",             # small cards: long draws, two jokers
])
def test_the_exact_count_equals_a_brute_force_over_every_order(shoe):
    physical = [card(c) for c in shoe.split()]
    composition = Counter(physical)
    assert nb.dealer_outcomes(dict(composition)) == brute_force(physical)


def test_hand_derived_natural_and_the_whole_shoe():
    """Six decks, one joker each (318 cards): a natural is a joker and a joker, 6/318 x 5/317."""
    exact = nb.dealer_outcomes(nb.shoe_composition(6))
    assert sum(exact.values()) == 1
    assert exact["natural (two jokers)"] == Fraction(6, 318) * Fraction(5, 317)
    joker_in_two = 1 - Fraction(312, 318) * Fraction(311, 317)
    assert exact["21 with a joker"] + exact["natural (two jokers)"] > joker_in_two


def test_the_exact_count_agrees_with_a_seeded_simulation():
    """The player-dealer alone from a shuffled six-deck shoe, 20,000 times: every outcome within
    five standard errors of the exact figure."""
    exact = nb.dealer_outcomes(nb.shoe_composition(6))
    shoe = list(itertools.chain.from_iterable([c] * n for c, n in nb.shoe_composition(6).items()))
    rng = random.Random(5)
    runs = 20_000
    seen: Counter = Counter()
    for _ in range(runs):
        order = iter(rng.sample(shoe, 12))
        hand = [next(order), next(order)]
        while player_dealer_draws(hand)[0]:
            hand.append(next(order))
        seen[nb.outcome_name(total(hand))] += 1
    for name, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen[name] / runs - float(p)) <= 5 * se + 1e-9, name


def test_the_bet_is_a_labelled_seeded_simulation():
    one = nb.odds(rounds=3000, seed=7)
    two = nb.odds(rounds=3000, seed=7)
    bet = one.wagers[0]
    assert (bet.wager, bet.method) == ("bet", "simulation")
    assert [(o.name, o.probability) for o in bet.outcomes] == [(o.name, o.probability) for o in two.wagers[0].outcomes]
    assert abs(bet.total_probability() - 1) < 1e-9
    lo, hi = bet.interval
    assert lo < bet.expected < hi
    assert "3,000 seeded rounds (seed 7)" in bet.note
    assert one.notes[1].startswith("the player-dealer's hand dealt alone from a full shoe, exactly: 17 ")
    assert {o.name for o in bet.outcomes} >= {"win 1 unit", "lose 1 unit", "push"}


def test_odds_refuses_what_it_cannot_count():
    with pytest.raises(ValueError, match="--decks: one to eight decks, not 9"):
        nb.odds(decks=9)
    with pytest.raises(ValueError, match="--paytable"):
        nb.odds(paytable="vegas")


def test_the_simulated_round_follows_the_rules():
    """play_round on a stacked shoe: the player's 8-8 splits (the plain strategy), each eight
    draws, the player-dealer (10, 6) hits hard 16; a joker up freezes the player."""
    stacked = iter(cards("8C 8D 10S 6H 3C 10D 9S 5C"))
    hands, dealer = nb.play_round(lambda: next(stacked))
    assert [[c.code for c in h.cards] for h in hands] == [["8C", "3C", "10D"], ["8D", "9S"]]
    assert [c.code for c in dealer] == ["10S", "6H", "5C"]
    stacked = iter(cards("5C 6D JK 2H"))
    hands, dealer = nb.play_round(lambda: next(stacked))
    assert [c.code for c in hands[0].cards] == ["5C", "6D"] and dealer == [JOKER, card("2H")]
