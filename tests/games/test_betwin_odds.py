"""Bet'Win's exact odds (games/betwin/odds.py) against a brute force over every ordered deal of
a one-deck shoe and of smaller shoes of several copies, and hand-derivable figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from games.betwin import odds as bw
from games.betwin.rules import FACES, NUMBERS, Rules, wins
from games.cards import JOKER, SUITS, Card
from games.decks import betwin

BY_SUIT = Rules(identical="rank_and_suit")


def test_one_deck_bet_by_brute_force():
    """Every ordered (seat card, Waiting, Adjoining) of the 44 cards, settled by the rules themselves."""
    deck = betwin(1).all_cards()
    for rules in (Rules(), BY_SUIT):
        won = sum(wins(p, w, a, rules)[0] for p, w, a in itertools.permutations(deck, 3))
        exact = bw.odds(decks=1, rules=rules).wagers[0].outcomes[0].probability
        assert exact == Fraction(won, 44 * 43 * 42)


@pytest.mark.parametrize("decks", range(1, 9))
def test_identical_by_rank_and_suit_by_hand(decks):
    """The readings differ only when both dealer cards have the seat card's rank, S = 44N cards:
    by rank the seat then wins (10 ranks x 4N (4N-1) (4N-2) ordered deals), by rank and suit only
    if all three are one card (40 x N (N-1) (N-2)); with one deck 240 of 79,464 deals."""
    s = 44 * decks
    by_rank = bw.odds(decks=decks).wagers[0].outcomes[0].probability
    by_suit = bw.odds(decks=decks, rules=BY_SUIT).wagers[0].outcomes[0].probability
    n = 4 * decks
    assert by_rank - by_suit == Fraction(10 * n * (n - 1) * (n - 2) - 40 * decks * (decks - 1) * (decks - 2),
                                         s * (s - 1) * (s - 2))


def test_two_dealer_jokers_by_hand():
    """P(both dealer cards jokers) = 24/264 * 23/263 for six decks; every seat wins then, so the bet's
    win probability is at least that."""
    both = Fraction(24, 264) * Fraction(23, 263)
    assert bw.odds().wagers[0].outcomes[0].probability > both


@pytest.mark.parametrize("rules", [Rules(), BY_SUIT], ids=["rank", "rank_and_suit"])
def test_playing_well_beats_the_plain_bet_and_the_house_keeps_an_edge(rules):
    plain, played = bw.odds(rules=rules).wagers
    assert played.wager == "bet, change and re-bet played well" and played.method == "exact"
    assert [o.net for o in played.outcomes] == [2, 1, -1, -2]
    assert played.expected > plain.expected
    assert plain.house_edge > 0 and played.house_edge > 0
    assert plain.total_probability() == played.total_probability() == 1


@pytest.mark.parametrize("decks", [1, 6])
def test_classes_by_suit_give_the_rank_figures_when_suits_do_not_count(decks):
    """The 21 classes by rank and the Waiting card's suit, settled by rank, are the 11 by rank split."""
    rank_classes = bw.shoe_classes(decks, Rules())
    suit_classes = bw.shoe_classes(decks, BY_SUIT)
    assert len(rank_classes[0]) == 11 and len(suit_classes[0]) == 21
    for classes, waiting in (rank_classes, suit_classes):
        assert sum(n for _, n in classes) == sum(waiting) == 44 * decks
        assert bw.plain_win(classes, waiting, Rules()) == bw.plain_win(*rank_classes, Rules())
        assert bw.played_well(classes, waiting, Rules()) == bw.played_well(*rank_classes, Rules())


def _played_by_brute_force(shoe: list[Card], rules: Rules) -> dict[str, tuple[Fraction, int]]:
    """Every ordered (seat card, Waiting card) of physical cards; keeping the card against every
    Adjoining card left, and changing it for every new card left, each against every Adjoining
    card then left; the better by expected value (a tie keeps), a re-bet when P(win) > 1/2."""
    kinds = list(dict.fromkeys(shoe))
    t = {c: i for i, c in enumerate(kinds)}
    win = [[[wins(c, w, a, rules)[0] for a in kinds] for c in kinds] for w in kinds]
    cards = [t[c] for c in shoe]
    size = len(cards)
    out = dict.fromkeys(("win with a re-bet", "win", "lose", "lose with a re-bet"), Fraction(0))

    def ev(p: Fraction) -> Fraction:
        return (2 * p - 1) * (2 if p > Fraction(1, 2) else 1)

    def add(p: Fraction, weight: Fraction) -> None:
        rebet = p > Fraction(1, 2)
        out["win with a re-bet" if rebet else "win"] += weight * p
        out["lose with a re-bet" if rebet else "lose"] += weight * (1 - p)

    pair = Fraction(1, size * (size - 1))
    for i, j in itertools.permutations(range(size), 2):
        rest = [cards[x] for x in range(size) if x not in (i, j)]
        row = win[cards[j]][cards[i]]
        keep = Fraction(sum(row[a] for a in rest), len(rest))
        changed = []
        for x, k in enumerate(rest):
            new_row = win[cards[j]][k]
            changed.append(Fraction(sum(new_row[a] for y, a in enumerate(rest) if y != x), len(rest) - 1))
        if sum(map(ev, changed)) / len(changed) > ev(keep):
            for p in changed:
                add(p, pair / len(changed))
        else:
            add(keep, pair)
    nets = {"win with a re-bet": 2, "win": 1, "lose": -1, "lose with a re-bet": -2}
    return {name: (p, nets[name]) for name, p in out.items()}


@pytest.mark.parametrize(("ranks", "suits", "decks", "jokers"), [
    (("1", "3", "5", "M", "C", "R"), 2, 2, 1),   # 26 cards: two of each card, two jokers
    (("1", "2", "M", "R"), 3, 2, 1),             # 26 cards of three suits
    (("1", "4", "V", "R"), 2, 3, 1),             # 27 cards: three of each card
])
@pytest.mark.parametrize("rules", [Rules(), BY_SUIT], ids=["rank", "rank_and_suit"])
def test_played_well_by_brute_force_on_smaller_shoes(ranks, suits, decks, jokers, rules):
    """Shoes of several copies, where identical dealer cards of one suit can be dealt."""
    shoe = ([Card(r, s) for s in SUITS[:suits] for r in ranks] + [JOKER] * jokers) * decks
    classes, waiting = bw.shoe_classes(decks, rules, ranks, suits, jokers)
    assert bw.played_well(classes, waiting, rules) == _played_by_brute_force(shoe, rules)
    won = sum(wins(p, w, a, rules)[0] for p, w, a in itertools.permutations(shoe, 3))
    assert bw.plain_win(classes, waiting, rules) == Fraction(won, len(shoe) * (len(shoe) - 1) * (len(shoe) - 2))


def test_one_deck_played_well_by_brute_force():
    """The 44 cards of one deck, each (seat card, Waiting card) of 1,892 and every change."""
    deck = list(betwin(1).all_cards())
    assert sorted(c.rank for c in deck if not c.is_joker) == sorted((NUMBERS + FACES) * 4)
    for rules in (Rules(), BY_SUIT):
        played = bw.odds(decks=1, rules=rules).wagers[1]
        assert {o.name: (o.probability, o.net) for o in played.outcomes} == _played_by_brute_force(deck, rules)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Bet'Win pays 1 to 1"):
        bw.odds("vegas")
    with pytest.raises(ValueError, match="1 to 8"):
        bw.odds(decks=9)
