"""Three Card Poker's odds, exact for one to eight decks: the bonus by class counts, ante and play
with the player playing Q-6-4 or better (the well-known strategy; the sheet leaves the choice to
the player).

Ante and play count every ordered pair (player hand, player-dealer hand) of physical cards drawn
from the shoe without replacement -- C(52N,3) x C(52N-3,3) of them -- by pattern, not card by card:

- the player's hand up to suit relabelling (its cards as (rank, suit) with the suits renamed in
  every order and the least form kept; about 2,100 classes), weighted by the physical hands it
  stands for: for each distinct (rank, suit) held k times, C(N, k) choices of copies;
- for each class, the player-dealer's hands from what is left, by rank pattern (455 multisets of
  three ranks): three of rank a, C(n_a,3); a pair of a with b, C(n_a,2) n_b; three ranks a, b, c,
  n_a n_b n_c, of which Σ_suits n_as n_bs n_cs are flushes (n_a the copies of rank a left, n_as
  those of suit s); each pattern's strength from games.three_card_poker.hands.

That is about a million small integer steps, half a second in pure Python for any deck count.

With two decks or more a pair can be in one suit (7H 7H 2H): it ranks as a flush by default
("All standard poker rankings will be used": games.three_card_poker.hands) or as a pair
(``suited_pair="pair"``). The player-dealer's pair of rank a with kicker b is then counted by suit:
Σ_s C(n_as, 2) n_bs of them are suited. :func:`odds` gives both readings for two decks or more.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from games.cards import STANDARD_RANKS, SUITS, Card
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds
from games.three_card_poker.hands import QUEEN_HIGH, VALUE, _key, key, name
from games.three_card_poker.rules import BONUS, Paytable

PLAY_FROM = (0, VALUE["Q"], 6, 4)
"""Play with Q-6-4 or better, fold below."""

Held = tuple[tuple[int, int], ...]
"""A hand as sorted (rank index, suit index) pairs."""


def bonus_counts(decks: int, suited_pair: str = "flush") -> dict[str, int]:
    """Three-card hands of ``decks`` standard decks by bonus class (B8), counted by physical card; a
    pair in one suit (13 ranks x 4 suits x C(N, 2) copies, with one of 12 ranks x N copies of the
    same suit) counted as ``suited_pair`` says."""
    n = decks
    per_rank = 4 * n
    suited = 4 * n ** 3                        # three given ranks, one suit, any copy of each
    sequences = 12                             # A23 ... QKA
    distinct = comb(13, 3)
    suited_pairs = 13 * 4 * comb(n, 2) * 12 * n if suited_pair == "flush" else 0
    return {
        "royal flush": suited,
        "straight flush": (sequences - 1) * suited,
        "three of a kind": 13 * comb(per_rank, 3),
        "straight": sequences * (per_rank ** 3 - suited),
        "flush": (distinct - sequences) * suited + suited_pairs,
        "pair": 13 * comb(per_rank, 2) * 12 * per_rank - suited_pairs,
        "high card": (distinct - sequences) * (per_rank ** 3 - suited),
    }


def _bonus(decks: int, table: Paytable, suited_pair: str = "flush", label: str = "") -> WagerOdds:
    counts = bonus_counts(decks, suited_pair)
    total = comb(52 * decks, 3)
    assert sum(counts.values()) == total
    lose = sum(c for hand, c in counts.items() if hand not in table.bonus)
    outcomes = [OutcomeOdds(f"{hand} pays {table.bonus[hand]}", Fraction(c, total), table.bonus[hand].ratio)
                for hand, c in counts.items() if hand in table.bonus]
    outcomes.append(OutcomeOdds("lose", Fraction(lose, total), Fraction(-1)))
    return WagerOdds(f"bonus{label}", tuple(outcomes), note="on the player's three cards alone (B3)")


def player_classes(decks: int, ranks: Sequence[str] = STANDARD_RANKS, suits: int = 4) -> dict[Held, int]:
    """Three-card hands of ``decks`` copies of a deck (``ranks`` x ``suits``) up to suit relabelling:
    each class's least form and how many physical hands it stands for."""
    out: dict[Held, int] = {}
    types = [(r, s) for r in range(len(ranks)) for s in range(suits)]
    for hand in itertools.combinations_with_replacement(types, 3):
        weight = 1
        for t in set(hand):
            weight *= comb(decks, hand.count(t))
        if not weight:
            continue
        present = sorted({s for _, s in hand})
        form = min(tuple(sorted((r, dict(zip(present, perm, strict=True))[s]) for r, s in hand))
                   for perm in itertools.permutations(range(len(present))))
        out[form] = out.get(form, 0) + weight
    return out


@cache
def _patterns(ranks: tuple[str, ...], suited_pair: str = "flush") -> tuple[list[tuple], tuple[tuple[int, ...], ...]]:
    """The player-dealer's rank patterns, each with the index of its strength (and its flush's)
    in the sorted list of every strength these ranks can make, and that list."""
    values = [VALUE[r] for r in ranks]
    raw = []
    for a, b, c in itertools.combinations_with_replacement(range(len(ranks)), 3):
        v = tuple(sorted((values[a], values[b], values[c])))
        raw.append(((a, b, c), _key(v, False, suited_pair), _key(v, True, suited_pair)))
    order = tuple(sorted({k for _, plain, flush in raw for k in (plain, flush)}))
    index = {k: i for i, k in enumerate(order)}
    patterns = []
    for (a, b, c), plain, flush in raw:
        if a == c:
            patterns.append((3, a, 0, 0, index[plain], 0))
        elif a == b or b == c:
            pair, kicker = (a, c) if a == b else (c, a)
            patterns.append((2, pair, kicker, 0, index[plain], index[flush]))
        else:
            patterns.append((1, a, b, c, index[plain], index[flush]))
    return patterns, order


def _dealer_by_strength(held: Held, decks: int, ranks: tuple[str, ...], suits: int,
                        suited_pair: str = "flush") -> list[int]:
    """Player-dealer hands left once ``held`` is dealt, counted by physical card, by strength index."""
    patterns, order = _patterns(ranks, suited_pair)
    left = [[decks] * suits for _ in ranks]
    for r, s in held:
        left[r][s] -= 1
    n = [sum(row) for row in left]
    out = [0] * len(order)
    for kind, a, b, c, plain, flush in patterns:
        if kind == 1:
            la, lb, lc = left[a], left[b], left[c]
            f = sum(la[s] * lb[s] * lc[s] for s in range(suits))
            out[plain] += n[a] * n[b] * n[c] - f
            out[flush] += f
        elif kind == 2:
            pairs = n[a] * (n[a] - 1) // 2 * n[b]
            f = sum(left[a][s] * (left[a][s] - 1) // 2 * left[b][s] for s in range(suits)) if flush != plain else 0
            out[plain] += pairs - f
            out[flush] += f
        else:
            out[plain] += n[a] * (n[a] - 1) * (n[a] - 2) // 6
    return out


def dealer_hands(player: Sequence[Card], decks: int, suited_pair: str = "flush") -> dict[tuple[int, ...], int]:
    """The player-dealer's possible hands from ``decks`` standard decks less the player's three
    cards, by strength (games.three_card_poker.hands.key), counted by physical card."""
    ranks = tuple(STANDARD_RANKS)
    held = tuple(sorted((ranks.index(c.rank), SUITS.index(c.suit)) for c in player))
    order = _patterns(ranks, suited_pair)[1]
    return {order[i]: n for i, n in enumerate(_dealer_by_strength(held, decks, ranks, 4, suited_pair)) if n}


@cache
def ante_play_counts(decks: int, ranks: tuple[str, ...] = tuple(STANDARD_RANKS), suits: int = 4,
                     suited_pair: str = "flush") -> dict[str, int]:
    """Ordered (player hand, player-dealer hand) pairs of physical cards by ante+play outcome, the
    player playing Q-6-4 or better; they add up to C(size,3) x C(size-3,3)."""
    order = _patterns(ranks, suited_pair)[1]
    index = {k: i for i, k in enumerate(order)}
    below_queen = bisect.bisect_left(order, QUEEN_HIGH)
    size = len(ranks) * suits * decks
    dealers = comb(size - 3, 3)
    values = [VALUE[r] for r in ranks]
    tally = {"fold": 0, "not qualified": 0, "win": 0, "tie": 0, "lose": 0}
    for held, weight in player_classes(decks, ranks, suits).items():
        pk = _key(tuple(sorted(values[r] for r, _ in held)), len({s for _, s in held}) == 1, suited_pair)
        if pk < PLAY_FROM:
            tally["fold"] += weight * dealers
            continue
        by = _dealer_by_strength(held, decks, ranks, suits, suited_pair)
        p = index[pk]
        nq, below, tie = sum(by[:below_queen]), sum(by[:p]), by[p]
        tally["not qualified"] += weight * nq
        tally["win"] += weight * (below - nq)
        tally["tie"] += weight * tie
        tally["lose"] += weight * (dealers - below - tie)
    assert sum(tally.values()) == comb(size, 3) * dealers
    return tally


def _ante_play(decks: int, suited_pair: str = "flush", label: str = "") -> WagerOdds:
    tally = ante_play_counts(decks, suited_pair=suited_pair)
    total = sum(tally.values())
    nets = {"fold": -1, "not qualified": 1, "win": 2, "tie": 0, "lose": -2}
    names = {"fold": "fold (ante lost)", "not qualified": "dealer does not qualify (ante paid, play returned)",
             "win": "win ante and play", "tie": "push", "lose": "lose ante and play"}
    return WagerOdds(f"ante and play{label}", tuple(OutcomeOdds(names[o], Fraction(n, total), Fraction(nets[o]))
                                            for o, n in tally.items()),
                     note="per unit of ante; play with Q-6-4 or better")


def odds(paytable: str | None = None, decks: int | None = None) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: Three Card Poker's bonus table is the sheet's (B8) or a table's own "
                         "[game] bonus; name 'sheet' or leave it out")
    n = 1 if decks is None else decks
    if not 1 <= n <= 8:
        raise ValueError(f"--decks: one to eight decks (Type of card deck used, 3), not {n}")
    table = Paytable(dict(BONUS))
    notes = ["exact: every player hand and player-dealer hand of the shoe, counted by pattern"]
    if n == 1:
        return GameOdds("three_card_poker", "sheet (B8)", n, (_ante_play(n), _bonus(n, table)), notes=tuple(notes))
    notes.append("a pair in one suit (two decks or more) ranks as a flush by default (\"All standard poker "
                 "rankings will be used\"), or as a pair with [game] suited_pair = \"pair\": both are given")
    flush, pair = "", " (suited pair a pair)"
    return GameOdds("three_card_poker", "sheet (B8)", n,
                    (_ante_play(n, "flush", flush), _bonus(n, table, "flush", flush),
                     _ante_play(n, "pair", pair), _bonus(n, table, "pair", pair)), notes=tuple(notes))


def hand_name(cards: list[Card]) -> str:
    return name(key(cards))


PD_HAND = "player_dealer_hand"
"""The one hand Three Card Poker shows every round whatever anyone chose: the player-dealer's
(R5). A seat's hand is shown only when its player plays (R4: folded hands are collected unseen),
and playing is the player's choice by the hand, so the shown hands' classes are not a random
hand's: they are not counted."""


def outcome_classes(options: Any) -> OutcomeClasses:
    """The player-dealer's hand by bonus class (B8's classes and high card), exact for the
    table's decks and its reading of a suited pair, from :func:`bonus_counts`; read from the
    ``result``'s ``dealer.hand`` (games.three_card_poker.rules.settle names it the same way)."""
    counts = bonus_counts(options.decks, options.suited_pair)
    total = sum(counts.values())
    probabilities = {PD_HAND: {hand: Fraction(n, total) for hand, n in counts.items() if n}}

    def classify(result: Mapping[str, Any]) -> dict[str, str]:
        return {PD_HAND: str(result["dealer"]["hand"])}

    return OutcomeClasses(probabilities, classify,
                          notes=("the player-dealer's hand only: a seat's hand is shown only if its player "
                                 "plays (R4), so its classes are not a random hand's",))
