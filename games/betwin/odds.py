"""Bet'Win's odds, exact: every ordered deal of a seat's card and the two dealer cards from the
shoe (1.1: six decks of 44), by card class, with the rules themselves deciding each deal.

Two figures: the initial bet alone (no change, no re-bet), and the bet played well -- the seat
changes its card when that wins more often (3.2: once, after seeing the Waiting card) and
re-bets its initial wager exactly when its card is then more likely to win than lose (3.3).

Card classes. Suits play no part but in "identical" dealer cards (3.5), and there only as
"the same suit as the Waiting card" (games.betwin.rules.wins compares every suit with the
Waiting card's, never two others). So the deals are counted from the Waiting card first (the
order of the draws does not change a deal's probability): a Waiting card of any rank, all its
suits as one, and then every other card classed by rank, and -- when identical dealer cards
must match in suit -- by whether it is of the Waiting card's suit: 21 classes instead of 41.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from games.betwin.rules import FACES, NUMBERS, Rules, _identical, wins, zone
from games.cards import JOKER, Card, card
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds

SAME_SUIT, OTHER_SUIT = "S", "H"
"""A class's representative suit: the Waiting card's (every Waiting card is taken as a spade), or another."""


def shoe_classes(decks: int, rules: Rules, ranks: Sequence[str] = NUMBERS + FACES, suits: int = 4,
                 jokers: int = 4) -> tuple[list[tuple[Card, int]], list[int]]:
    """One card per class with how many the shoe holds, and each class's weight as the Waiting
    card: by rank, or, when identical dealer cards must match in suit, by rank and whether of the
    Waiting card's suit (a Waiting card is of its own suit: all its rank's copies weigh on it)."""
    if rules.identical == "rank":
        classes = [(Card(r, SAME_SUIT), suits * decks) for r in ranks]
        waiting = [n for _, n in classes]
    else:
        classes = [(Card(r, SAME_SUIT), decks) for r in ranks] + [(Card(r, OTHER_SUIT), (suits - 1) * decks)
                                                                    for r in ranks]
        waiting = [suits * decks] * len(ranks) + [0] * len(ranks)
    classes.append((JOKER, jokers * decks))
    waiting.append(jokers * decks)
    return classes, waiting


def odds(paytable: str | None = None, decks: int | None = None, rules: Rules | None = None) -> GameOdds:
    if paytable is not None:
        raise ValueError("--paytable: Bet'Win pays 1 to 1 on the bet and the re-bet (3.5); it has no paytables")
    n = 6 if decks is None else decks
    if not 1 <= n <= 8:
        raise ValueError(f"--decks: 1 to 8 (1.1: six), not {n}")
    rules = rules or Rules()
    classes, waiting = shoe_classes(n, rules)
    plain = plain_win(classes, waiting, rules)
    played = played_well(classes, waiting, rules)
    wagers = (WagerOdds("bet", (OutcomeOdds("win 1 to 1", plain, Fraction(1)),
                                OutcomeOdds("lose", 1 - plain, Fraction(-1))), note="no change, no re-bet"),
              WagerOdds("bet, change and re-bet played well", tuple(
                  OutcomeOdds(name, p, net) for name, (p, net) in played.items()),
                  note="per unit of initial bet; the re-bet is one more unit"))
    notes = ("exact: every ordered deal by card class, settled by games.betwin.rules",
             f"face order {' '.join(rules.face_order)}, identical dealer cards by {rules.identical}")
    return GameOdds("betwin", "1 to 1 (3.5)", n, wagers, notes=notes)


def _win_table(classes: list[tuple[Card, int]], rules: Rules) -> list[list[list[int]]]:
    """``table[waiting][card][adjoining]``: 1 when the card wins, by the rules themselves."""
    cards = [c for c, _ in classes]
    return [[[int(wins(card, waiting, adj, rules)[0]) for adj in cards] for card in cards] for waiting in cards]


def _won(row: list[int], left: list[int]) -> int:
    """Adjoining cards left that ``row`` (a card against a Waiting card) wins with."""
    return sum(n for n, w in zip(left, row, strict=True) if w)


def plain_win(classes: list[tuple[Card, int]], waiting: list[int], rules: Rules) -> Fraction:
    """P(the seat's first card wins): Waiting card, seat card, Adjoining card."""
    size = sum(n for _, n in classes)
    table = _win_table(classes, rules)
    left = [n for _, n in classes]
    won = 0
    for j, w_j in enumerate(waiting):
        if not w_j:
            continue
        left[j] -= 1
        for i, n_i in enumerate(left):
            if n_i:
                left[i] -= 1
                won += w_j * n_i * _won(table[j][i], left)
                left[i] += 1
        left[j] += 1
    return Fraction(won, size * (size - 1) * (size - 2))


def played_well(classes: list[tuple[Card, int]], waiting: list[int],
                rules: Rules) -> dict[str, tuple[Fraction, int]]:
    """Outcome probabilities under the best change and re-bet, keyed by name with the net."""
    size = sum(n for _, n in classes)
    table = _win_table(classes, rules)
    out = {"win with a re-bet": Fraction(0), "win": Fraction(0), "lose": Fraction(0),
           "lose with a re-bet": Fraction(0)}
    left = [n for _, n in classes]

    def add(p: Fraction, weight: Fraction) -> None:
        rebet = p > Fraction(1, 2)
        out["win with a re-bet" if rebet else "win"] += weight * p
        out["lose with a re-bet" if rebet else "lose"] += weight * (1 - p)

    for j, w_j in enumerate(waiting):
        if not w_j:
            continue
        left[j] -= 1
        for i, n_i in enumerate(left):
            if not n_i:
                continue
            weight = Fraction(w_j * n_i, size * (size - 1))
            left[i] -= 1
            keep = Fraction(_won(table[j][i], left), size - 2)
            changed: list[tuple[Fraction, Fraction]] = []   # (P(new card), P(win with it))
            for k, n_k in enumerate(left):
                if n_k:
                    left[k] -= 1
                    changed.append((Fraction(n_k, size - 2), Fraction(_won(table[j][k], left), size - 3)))
                    left[k] += 1
            if sum((p_new * _ev(p) for p_new, p in changed), Fraction(0)) > _ev(keep):
                for p_new, p in changed:
                    add(p, weight * p_new)
            else:
                add(keep, weight)
            left[i] += 1
        left[j] += 1
    nets = {"win with a re-bet": 2, "win": 1, "lose": -1, "lose with a re-bet": -2}
    return {name: (p, nets[name]) for name, p in out.items()}


def _ev(p: Fraction) -> Fraction:
    """Per unit of initial bet: the bet, and a re-bet of one unit when the card is more likely to win."""
    edge = 2 * p - 1
    return edge + max(Fraction(0), edge)


DEALER_CARDS = "dealer_cards"


def outcome_classes(options: Any) -> OutcomeClasses:
    """What the table's outcome monitor counts (issue 25): the dealer's two cards as the win zone
    they make (rule 2, 3.5): ``two jokers`` (every seat wins), ``identical`` (only that card wins),
    else ``width N``, the number of values from the lower dealer card up to (not including) the
    higher one, the joker valued by rule 3.5. Exact over every ordered pair of physical cards of
    the table's shoe (the seats' cards and changes, drawn between them, change no pair's chance:
    exchangeability)."""
    table_rules = options.rules
    counts: dict[Card, int] = {}
    for c in options.spec.all_cards():
        counts[c] = counts.get(c, 0) + 1
    size = sum(counts.values())
    ways: dict[str, int] = {}
    for waiting, nw in counts.items():
        for adjoining, na in counts.items():
            n = nw * (na - (waiting == adjoining))
            if n:
                klass = _zone_class(waiting, adjoining, table_rules)
                ways[klass] = ways.get(klass, 0) + n
    pairs = size * (size - 1)
    order = sorted(ways, key=lambda k: (not k.startswith("width"), int(k.split()[1]) if k.startswith("width") else 0, k))
    probabilities = {DEALER_CARDS: {k: Fraction(ways[k], pairs) for k in order}}
    return OutcomeClasses(probabilities, lambda result: {
        DEALER_CARDS: _zone_class(card(result["waiting"]), card(result["adjoining"]), table_rules)})


def _zone_class(waiting: Card, adjoining: Card, table_rules: Rules) -> str:
    if waiting.is_joker and adjoining.is_joker:
        return "two jokers"
    if _identical(waiting, adjoining, table_rules):
        return "identical"
    lo, hi = zone(waiting, adjoining, table_rules)
    return f"width {hi - lo}"
