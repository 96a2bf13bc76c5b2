"""Hot Action Blackjack's bet, counted exactly: one player against the Bank from a shoe of known
composition, the player drawing to 18 as the Banker does (hit soft 18 and below 18, stand on hard
18 and more and soft 19 to 22), every card of the round from the same shoe.

The round as games.hot_action.odds.play_round deals it: two cards each; with the check for a two
card 22 (H14, the default) a Bank that has one stands at once and the player does not draw;
otherwise the player draws, then the Banker. The cards are exchangeable, so an ordered sequence of
card kinds (an ace, 2-9, a 10-point card, a joker) with n_i of kind i has probability
prod_i (c_i)_(n_i) / (N)_(n) -- falling factorials of the shoe's counts c_i and size N -- whatever
the order. A hand's drawing rule sees only its own cards, so each hand is its final multiset with
the number of orders of its cards the rule allows (:func:`finals`), and a round is a pair of them:

    P(player ends with P, Bank with B) = paths(P) x paths(B) x prod_i (c_i)_(P_i + B_i) / (N)_(|P| + |B|)

summed over every pair (about 9,000 finals a hand: 80 million pairs for a shoe of eight decks, some
minutes of pure Python, so `tablectl odds` prints the result from data:
tools/odds/hot_action_bet.py). Nothing is simulated: composition-dependent, for one player at the
table and a fresh shoe.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from math import prod

from games.cards import Card
from games.hot_action import rules

Stands = Callable[[Sequence[Card]], bool]
SHEET = rules.Rules()
"""The default readings (games.hot_action)."""


def player_stands(cards: Sequence[Card]) -> bool:
    """The player's strategy (games.hot_action.odds.play_round): stand where the rules say so, and
    on 18 or more where the choice is the player's; draw below 18."""
    must, _ = rules.player_must(cards)
    return must == "stand" or (must == "choice" and rules.total(cards).value >= 18)


def banker_stands(readings: rules.Rules) -> Stands:
    if readings.banker_below_18 != "hit":
        raise ValueError("the Banker's hand below 18 is its own choice at this table: no exact figure")
    return lambda cards: rules.banker_must(cards, readings)[0] == "stand"


def finals(kinds: tuple[Card, ...], stands: Stands) -> dict[tuple[int, ...], int]:
    """Each way a hand dealt two cards, then drawing until ``stands``, can end -- its count of each
    kind -- with the number of orders of kinds that end there."""

    @cache
    def ends(hand: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
        if len(hand) >= 2 and stands([kinds[i] for i in hand]):
            return ((tuple(hand.count(i) for i in range(len(kinds))), 1),)
        out: Counter[tuple[int, ...]] = Counter()
        for i in range(len(kinds)):
            for final, n in ends(tuple(sorted((*hand, i)))):
                out[final] += n
        return tuple(out.items())

    return dict(ends(()))


def _falling(n: int, k: int) -> int:
    return prod(range(n - k + 1, n + 1)) if 0 <= k <= n else 0


def count(composition: Mapping[Card, int], readings: rules.Rules = SHEET) -> dict[Fraction, Fraction]:
    """The player's net per unit -> its exact probability, for a fresh shoe of ``composition``
    (by kind: games.blackjack.CATEGORIES). The shoe must be deep enough for any round (eight
    cards of each kind do)."""
    if not readings.check_two_card_22:
        raise ValueError("counted with the check for a two card 22 (H14) only")
    kinds = tuple(composition)
    c = [composition[k] for k in kinds]
    size = sum(c)
    players = finals(kinds, player_stands)
    banks = finals(kinds, banker_stands(readings))

    def cards(v: tuple[int, ...]) -> list[Card]:
        return [kinds[i] for i, n in enumerate(v) for _ in range(n)]

    def state(v: tuple[int, ...]) -> rules.Total:
        return rules.total(cards(v))

    net: dict[tuple[rules.Total, rules.Total], Fraction] = {}

    def settle(p: rules.Total, b: rules.Total) -> Fraction:
        if (p, b) not in net:
            outcome, _ = rules.compare(p, b, readings)
            net[(p, b)] = {"win": Fraction(1), "push": Fraction(0), "lose": Fraction(-1)}[outcome]
        return net[(p, b)]

    # numerators over (N)_n, by (net, n)
    numerators: dict[tuple[Fraction, int], int] = defaultdict(int)
    # every first two cards, with their orders
    deal = {tuple((k == i) + (k == j) for k in range(len(kinds))): 1 if i == j else 2
            for i in range(len(kinds)) for j in range(i, len(kinds))}
    checked = [b for b in banks if sum(b) == 2 and state(b).two_card_22]
    for b in checked:   # H14: the Bank's two card 22 stands at once, and so does the player
        for p in deal:
            w = deal[b] * deal[p] * prod(_falling(ci, bi + pi) for ci, bi, pi in zip(c, b, p, strict=True))
            if w:
                numerators[(settle(state(p), state(b)), 4)] += w
    rest = [(b, n) for b, n in banks.items() if b not in checked]
    bank_states = sorted({state(b) for b, _ in rest}, key=repr)
    index = {s: i for i, s in enumerate(bank_states)}
    shaped = [(tuple((i, bi) for i, bi in enumerate(b) if bi), n, index[state(b)], sum(b)) for b, n in rest]
    for p, paths in players.items():
        if any(pi > ci for pi, ci in zip(p, c, strict=True)):
            continue
        left = [[_falling(ci - pi, k) for k in range(ci - pi + 1)] for ci, pi in zip(c, p, strict=True)]
        base = paths * prod(_falling(ci, pi) for ci, pi in zip(c, p, strict=True))
        by: dict[tuple[int, int], int] = defaultdict(int)
        for nonzero, n, s, cards_b in shaped:
            w = n
            for i, bi in nonzero:
                row = left[i]
                if bi >= len(row):
                    w = 0
                    break
                w *= row[bi]
            if w:
                by[(s, cards_b)] += w
        ps, cards_p = state(p), sum(p)
        for (s, cards_b), w in by.items():
            numerators[(settle(ps, bank_states[s]), cards_p + cards_b)] += base * w
    out: dict[Fraction, Fraction] = defaultdict(Fraction)
    for (value, n), num in numerators.items():
        out[value] += Fraction(num, _falling(size, n))
    return dict(out)
