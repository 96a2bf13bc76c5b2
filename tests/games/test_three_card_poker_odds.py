"""Three Card Poker's odds (games/three_card_poker/odds.py) against known one-deck figures."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from games.cards import STANDARD_RANKS, SUITS, Card
from games.three_card_poker import odds as tcp
from games.three_card_poker.hands import key, name


def test_one_deck_bonus_classes_are_the_known_counts():
    """Of 22,100 hands: straight flush 48 (4 of them royal), trips 52, straight 720, flush 1,096, pair 3,744."""
    counts = tcp.bonus_counts(1)
    assert counts["royal flush"] + counts["straight flush"] == 48 and counts["royal flush"] == 4
    assert (counts["three of a kind"], counts["straight"], counts["flush"], counts["pair"]) == (52, 720, 1096, 3744)


def test_bonus_classes_by_brute_force_for_one_deck():
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS]
    brute = Counter(name(key(list(h))) for h in itertools.combinations(deck, 3))
    assert brute == tcp.bonus_counts(1)


def test_ante_and_play_match_the_published_edge():
    """Q-6-4 strategy, one deck: 3.37 % of the ante with the common ante bonus (straight 1, trips 4,
    straight flush 5). This sheet has no ante bonus, so its edge is that much larger: adding the
    bonus back from the exact class counts must give 3.37 %."""
    ante = next(w for w in tcp.odds().wagers if w.wager == "ante and play")
    assert ante.method == "exact" and ante.total_probability() == 1
    c = tcp.bonus_counts(1)
    total = sum(c.values())
    ante_bonus = Fraction(c["straight"] * 1 + c["three of a kind"] * 4
                          + (c["straight flush"] + c["royal flush"]) * 5, total)
    play_prob = 1 - next(o.probability for o in ante.outcomes if o.name.startswith("fold"))
    assert play_prob > 0
    assert round(float(ante.house_edge - ante_bonus), 4) == 0.0337


def test_more_decks_are_simulated_and_say_so():
    ante = next(w for w in tcp.odds(decks=2).wagers if w.wager == "ante and play")
    assert ante.method == "simulation" and ante.interval is not None
    lo, hi = ante.interval
    assert lo < float(ante.expected) < hi


def test_the_sheets_bonus_table_favours_the_player_with_six_decks():
    """B8 (pair 1, flush 3, straight 6, trips 30, straight flush 40, royal 200) leaves the house an
    edge with one deck and gives the player one with six: `tablectl odds` must flag it."""
    one, six = (next(w for w in tcp.odds(decks=n).wagers if w.wager == "bonus") for n in (1, 6))
    assert not one.favours_player and six.favours_player


def test_bad_arguments():
    with pytest.raises(ValueError, match="one to eight decks"):
        tcp.odds(decks=9)
    with pytest.raises(ValueError, match="--paytable"):
        tcp.odds("vegas")
