"""Three Card Poker's odds (games/three_card_poker/odds.py): known one-deck figures, the one-deck
count by an independent method, brute force over smaller shoes of several decks, hand-derived
counts and a seeded simulation of two decks."""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from games.cards import STANDARD_RANKS, SUITS, Card, card
from games.three_card_poker import odds as tcp
from games.three_card_poker.hands import QUEEN_HIGH, key, name

NETS = {"fold": -1, "not qualified": 1, "win": 2, "tie": 0, "lose": -2}


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


def _one_deck_by_inclusion_exclusion() -> dict[str, int]:
    """The module's former one-deck count, by physical card: for each of the 22,100 player hands the
    player-dealer's hands below a strength are those of all 22,100 hands, less those holding one
    of the player's cards, plus those holding two, each a binary search in a sorted list."""
    deck = [Card(r, s) for s in SUITS for r in STANDARD_RANKS]
    keys = {h: key([deck[i] for i in h]) for h in itertools.combinations(range(52), 3)}
    every = sorted(keys.values())
    with_card: dict[int, list] = {c: [] for c in range(52)}
    with_pair: dict[tuple[int, int], list] = {}
    for h, k in keys.items():
        for c in h:
            with_card[c].append(k)
        for p in itertools.combinations(h, 2):
            with_pair.setdefault(p, []).append(k)
    for lst in (*with_card.values(), *with_pair.values()):
        lst.sort()

    def count(h: tuple[int, int, int], x: tuple, strict: bool) -> int:
        side = bisect.bisect_left if strict else bisect.bisect_right
        n = side(every, x) - sum(side(with_card[c], x) for c in h)
        n += sum(side(with_pair[p], x) for p in itertools.combinations(h, 2))
        return n - (1 if (keys[h] < x if strict else keys[h] <= x) else 0)

    tally = dict.fromkeys(NETS, 0)
    for h, pk in keys.items():
        if pk < tcp.PLAY_FROM:
            tally["fold"] += comb(49, 3)
            continue
        nq, below, at_or_below = count(h, QUEEN_HIGH, True), count(h, pk, True), count(h, pk, False)
        tally["not qualified"] += nq
        tally["win"] += below - nq
        tally["tie"] += at_or_below - below
        tally["lose"] += comb(49, 3) - at_or_below
    return tally


def test_one_deck_by_pattern_equals_the_count_by_physical_card():
    assert tcp.ante_play_counts(1) == _one_deck_by_inclusion_exclusion()


@pytest.mark.parametrize("decks", range(1, 9))
def test_every_deck_count_is_exact_and_counts_every_pair_of_hands(decks):
    """C(52N,3) player hands x C(52N-3,3) player-dealer hands, each counted once."""
    counts = tcp.ante_play_counts(decks)
    assert sum(counts.values()) == comb(52 * decks, 3) * comb(52 * decks - 3, 3)
    assert sum(tcp.player_classes(decks).values()) == comb(52 * decks, 3)
    ante = next(w for w in tcp.odds(decks=decks).wagers if w.wager == "ante and play")
    assert ante.method == "exact" and ante.interval is None and ante.total_probability() == 1
    assert all(isinstance(o.probability, Fraction) for o in ante.outcomes)


def _brute_force(ranks: tuple[str, ...], suits: int, decks: int) -> dict[str, int]:
    """Every ordered pair of disjoint three-card hands of physical cards, ranked by hands.key."""
    shoe = [Card(r, s) for r in ranks for s in SUITS[:suits]] * decks
    triples = list(itertools.combinations(range(len(shoe)), 3))
    strength = {t: key([shoe[i] for i in t]) for t in triples}
    tally = dict.fromkeys(NETS, 0)
    for p in triples:
        pk = strength[p]
        rest = [i for i in range(len(shoe)) if i not in p]
        if pk < tcp.PLAY_FROM:
            tally["fold"] += comb(len(rest), 3)
            continue
        for d in itertools.combinations(rest, 3):
            dk = strength[d]
            o = ("not qualified" if dk < QUEEN_HIGH else "win" if pk > dk else "lose" if pk < dk else "tie")
            tally[o] += 1
    return tally


@pytest.mark.parametrize(("ranks", "suits", "decks"), [
    (("A", "2", "3", "5", "Q", "K"), 2, 2),   # 24 cards: straights A23 and QKA, flushes, pairs, a non-qualifier
    (("2", "3", "5", "Q"), 2, 3),             # 24 cards, three copies of each: a hand of one card thrice
    (("2", "4", "7", "Q"), 3, 2),             # 24 cards of three suits: no straight
])
def test_several_decks_by_brute_force_on_smaller_shoes(ranks, suits, decks):
    """The same count on shoes small enough to deal out pair by pair (about 2.7 million pairs)."""
    assert tcp.ante_play_counts(decks, ranks, suits) == _brute_force(ranks, suits, decks)


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_player_dealer_without_a_queen_by_hand(decks):
    """The player holds three aces. The player-dealer does not qualify with three different ranks from
    2 to J (C(10,3) = 120 sets, less the 8 straights 234 ... 9TJ) not all of one suit: each set
    (4N)^3 - 4N^3 ways, none of the player's cards among them. 1 deck: 112 x 60 = 6,720 of 18,424."""
    held = [card("AS"), card("AH"), card("AD")]
    hands = tcp.dealer_hands(held, decks)
    assert sum(hands.values()) == comb(52 * decks - 3, 3)
    nq = sum(n for k, n in hands.items() if k < QUEEN_HIGH)
    assert nq == 112 * ((4 * decks) ** 3 - 4 * decks ** 3)
    assert hands.get((4, 14), 0) == comb(4 * decks - 3, 3)   # the player-dealer's three aces
    if decks == 1:
        assert nq == 6720 and comb(49, 3) == 18424


@pytest.mark.parametrize("decks", [1, 2])
def test_player_dealer_fails_to_qualify_as_often_whatever_the_player_holds(decks):
    """Over every player hand (folds too) the player-dealer's non-qualifying hands add up to
    112 ((4N)^3 - 4N^3) x C(52N-3,3): the dealer's hand alone, by symmetry."""
    n = 0
    for held, weight in tcp.player_classes(decks).items():
        cards = [Card(STANDARD_RANKS[r], SUITS[s]) for r, s in held]
        n += weight * sum(c for k, c in tcp.dealer_hands(cards, decks).items() if k < QUEEN_HIGH)
    assert n == 112 * ((4 * decks) ** 3 - 4 * decks ** 3) * comb(52 * decks - 3, 3)


def test_two_decks_against_a_seeded_simulation():
    """200,000 seeded rounds of two decks, dealt card by card: each outcome's frequency and the
    mean within five standard errors of the exact figures."""
    rounds = 200_000
    exact = tcp.ante_play_counts(2)
    total = sum(exact.values())
    shoe = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] * 2
    rng = random.Random(20240611)
    seen = dict.fromkeys(NETS, 0)
    for _ in range(rounds):
        six = rng.sample(shoe, 6)
        pk, dk = key(six[:3]), key(six[3:])
        o = ("fold" if pk < tcp.PLAY_FROM else "not qualified" if dk < QUEEN_HIGH
             else "win" if pk > dk else "lose" if pk < dk else "tie")
        seen[o] += 1
    for o, n in exact.items():
        p = n / total
        assert abs(seen[o] / rounds - p) < 5 * math.sqrt(p * (1 - p) / rounds), o
    mean = sum(NETS[o] * n for o, n in exact.items()) / total
    var = sum(NETS[o] ** 2 * n for o, n in exact.items()) / total - mean ** 2
    sim = sum(NETS[o] * n for o, n in seen.items()) / rounds
    assert abs(sim - mean) < 5 * math.sqrt(var / rounds)


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


def test_a_suited_pair_moves_from_pair_to_flush_by_hand():
    """Two decks (104 cards, C(104,3) = 182,104 hands): a pair in one suit is two copies of one card
    (13 x 4 cards, C(2,2) = 1 way) with a kicker of another rank in that suit (12 x 2): 1,248 hands,
    a flush by default, a pair by option; one deck has none."""
    flush, pair = tcp.bonus_counts(2), tcp.bonus_counts(2, "pair")
    assert flush["flush"] - pair["flush"] == pair["pair"] - flush["pair"] == 1248
    assert sum(flush.values()) == sum(pair.values()) == comb(104, 3)
    assert tcp.bonus_counts(1) == tcp.bonus_counts(1, "pair")
    names = [w.wager for w in tcp.odds(decks=2).wagers]
    assert names == ["ante and play", "bonus", "ante and play (suited pair a pair)", "bonus (suited pair a pair)"]
    assert [w.wager for w in tcp.odds(decks=1).wagers] == ["ante and play", "bonus"]


def _brute_force_pair_reading(ranks: tuple[str, ...], suits: int, decks: int) -> dict[str, int]:
    shoe = [Card(r, s) for r in ranks for s in SUITS[:suits]] * decks
    triples = list(itertools.combinations(range(len(shoe)), 3))
    strength = {t: key([shoe[i] for i in t], "pair") for t in triples}
    tally = dict.fromkeys(NETS, 0)
    for p in triples:
        pk = strength[p]
        rest = [i for i in range(len(shoe)) if i not in p]
        if pk < tcp.PLAY_FROM:
            tally["fold"] += comb(len(rest), 3)
            continue
        for d in itertools.combinations(rest, 3):
            dk = strength[d]
            tally["not qualified" if dk < QUEEN_HIGH else "win" if pk > dk else "lose" if pk < dk else "tie"] += 1
    return tally


def test_the_pair_reading_by_brute_force_on_a_smaller_shoe():
    """The suited-pair-a-pair reading counted by pattern equals every pair of hands dealt out (two
    decks of six ranks in two suits: pairs in one suit occur)."""
    ranks, suits, decks = ("A", "2", "3", "5", "Q", "K"), 2, 2
    assert tcp.ante_play_counts(decks, ranks, suits, "pair") == _brute_force_pair_reading(ranks, suits, decks)
    assert tcp.ante_play_counts(decks, ranks, suits, "pair") != tcp.ante_play_counts(decks, ranks, suits)
