"""Hot Action Blackjack's odds: the Banker's drawing rule counted exactly equals a brute force over
every order of a small shoe and the hand-derived two-card figures, and a seeded simulation of the
same rule within 5 standard errors; the bet's simulation is seeded, labelled, with its interval."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from games.cards import JOKER, STANDARD_RANKS, SUITS, Card, card
from games.hot_action import odds, rules


def brute_force(shoe: list[Card]) -> dict[str, Fraction]:
    """Every order of ``shoe``: the Banker takes two cards from the top and draws while banker_must
    says hit; each order counts once."""
    tally: Counter = Counter()
    orders = list(itertools.permutations(shoe))
    for order in orders:
        hand = list(order[:2])
        while rules.banker_must(hand)[0] == "hit":
            hand.append(order[len(hand)])
        tally[odds.outcome_name(rules.total(hand))] += 1
    return {k: Fraction(n, len(orders)) for k, n in tally.items()}


@pytest.mark.parametrize("codes", ["10C 10D 10H 8C 8D AS JK", "AS AD JK 10C 9C 5C 3C", "JK JK 2C 2D 10S 7H"])
def test_the_bankers_rule_counted_by_composition_equals_every_order_of_a_small_shoe(codes) -> None:
    shoe = [card(c) for c in codes.split()]
    composition = Counter()
    for c in shoe:   # the categories the rules see: 10-point cards are one
        composition[card("10S") if rules.ten_point(c) else card(f"{c.rank}S") if not c.is_joker else JOKER] += 1
    assert odds.banker_outcomes(dict(composition)) == brute_force(shoe)


def test_a_full_shoe_sums_to_one_and_its_two_card_22s_are_the_hand_derived_ones() -> None:
    """Eight decks of 56 (G1): 448 cards, 32 aces, 32 jokers, 128 ten-point cards. A natural 22 is
    C(32, 2) / C(448, 2) = 496 / 100128 = 31/6258; a two card 22 without aces is 32 x 128 / 100128
    = 128/3129. The Banker stands on both (G10), so its figures are these."""
    bank = odds.banker_outcomes(odds.shoe_composition(8))
    assert sum(bank.values()) == 1
    two = odds.two_card_odds(8)
    assert two == {"natural 22": Fraction(31, 6258), "two card 22": Fraction(128, 3129)}
    assert bank["natural 22"] == two["natural 22"] and bank["two card 22"] == two["two card 22"]
    assert set(bank) == set(odds.ORDER), "the Banker draws to 18: it never ends below"


def test_a_seeded_simulation_of_the_round_agrees_with_the_exact_banker() -> None:
    """The Banker's hand in play_round (after the player's draws, which depend on the player's cards
    only) is distributed as when dealt alone: each outcome within 5 standard errors."""
    exact = odds.banker_outcomes(odds.shoe_composition(8))
    shoe = ([Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER] * 4) * 8
    rng = random.Random(7)
    rounds = 20_000
    seen: Counter = Counter()
    for _ in range(rounds):
        deck = shoe[:]
        rng.shuffle(deck)
        _, bank = odds.play_round(iter(deck).__next__)
        seen[odds.outcome_name(rules.total(bank))] += 1
    for name, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / rounds)
        assert abs(seen[name] / rounds - float(p)) < 5 * se, name


def test_the_bet_is_simulated_seeded_and_labelled() -> None:
    table = odds.odds(rounds=5_000, seed=3)
    assert table == odds.odds(rounds=5_000, seed=3), "seeded: the same figures every time"
    (bet,) = table.wagers
    assert bet.method == "simulation" and "5,000 seeded rounds (seed 3)" in bet.note
    low, high = bet.interval
    assert low < bet.expected < high and high - low < 0.06
    assert abs(bet.total_probability() - 1) < 1e-9
    assert {o.name for o in bet.outcomes} == {"win", "push", "lose"}
    assert any("exactly" in n for n in table.notes)


def test_odds_refuse_what_they_cannot_figure() -> None:
    with pytest.raises(ValueError, match="pays even money"):
        odds.odds("generic")
    with pytest.raises(ValueError, match="one to eight decks"):
        odds.odds(decks=9)
    with pytest.raises(ValueError, match="own choice"):
        odds.banker_outcomes(odds.shoe_composition(1), rules.Rules(banker_below_18="choice"))
