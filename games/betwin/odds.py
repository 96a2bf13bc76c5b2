"""Bet'Win's odds, exact: every ordered deal of a seat's card and the two dealer cards from the
shoe (1.1: six decks of 44), by card class, with the rules themselves deciding each deal.

Two figures: the initial bet alone (no change, no re-bet), and the bet played well -- the seat
changes its card when that wins more often (3.2: once, after seeing the Waiting card) and
re-bets its initial wager exactly when its card is then more likely to win than lose (3.3).
"""

from __future__ import annotations

from fractions import Fraction

from games.betwin.rules import FACES, NUMBERS, Rules, wins
from games.cards import JOKER, SUITS, Card
from games.odds import GameOdds, OutcomeOdds, WagerOdds


def _classes(decks: int, rules: Rules) -> list[tuple[Card, int]]:
    """One card per class and how many the shoe holds: by rank, or by rank and suit when
    identical dealer cards must match in suit too."""
    ranks = NUMBERS + FACES
    if rules.identical == "rank":
        out = [(Card(r, "S"), 4 * decks) for r in ranks]
    else:
        out = [(Card(r, s), decks) for r in ranks for s in SUITS]
    return [*out, (JOKER, 4 * decks)]


def odds(paytable: str | None = None, decks: int | None = None, rules: Rules | None = None) -> GameOdds:
    if paytable is not None:
        raise ValueError("--paytable: Bet'Win pays 1 to 1 on the bet and the re-bet (3.5); it has no paytables")
    n = 6 if decks is None else decks
    if not 1 <= n <= 8:
        raise ValueError(f"--decks: 1 to 8 (1.1: six), not {n}")
    rules = rules or Rules()
    classes = _classes(n, rules)
    size = 44 * n
    plain = _plain(classes, size, rules)
    wagers = [WagerOdds("bet", (OutcomeOdds("win 1 to 1", plain, Fraction(1)),
                                OutcomeOdds("lose", 1 - plain, Fraction(-1))), note="no change, no re-bet")]
    notes = []
    if rules.identical == "rank":  # by suit the strategy figure takes minutes in pure Python: left out
        played = _played(classes, size, rules)
        wagers.append(WagerOdds("bet, change and re-bet played well", tuple(
            OutcomeOdds(name, p, net) for name, (p, net) in played.items()),
            note="per unit of initial bet; the re-bet is one more unit"))
    else:
        notes.append("the change-and-re-bet figure is computed for identical dealer cards by rank only")
    notes += ["exact: every ordered deal by card class, settled by games.betwin.rules",
              f"face order {' '.join(rules.face_order)}, identical dealer cards by {rules.identical}"]
    return GameOdds("betwin", "1 to 1 (3.5)", n, tuple(wagers), notes=tuple(notes))


def _p_win(card: Card, waiting: Card, left: dict[int, int], classes: list[tuple[Card, int]], total: int,
           rules: Rules) -> Fraction:
    """P(win) for ``card`` against ``waiting`` and an Adjoining card drawn from what is ``left``."""
    won = sum(left[i] for i, (adj, _) in enumerate(classes) if left[i] and wins(card, waiting, adj, rules)[0])
    return Fraction(won, total)


def _plain(classes: list[tuple[Card, int]], size: int, rules: Rules) -> Fraction:
    left = {i: n for i, (_, n) in enumerate(classes)}
    won = 0
    for i, (card, _) in enumerate(classes):
        w_i = left[i]
        left[i] -= 1
        for j, (waiting, _) in enumerate(classes):
            w_j = left[j]
            if not w_j:
                continue
            left[j] -= 1
            won += w_i * w_j * sum(left[k] for k, (adj, _) in enumerate(classes)
                                   if left[k] and wins(card, waiting, adj, rules)[0])
            left[j] += 1
        left[i] += 1
    return Fraction(won, size * (size - 1) * (size - 2))


def _played(classes: list[tuple[Card, int]], size: int, rules: Rules) -> dict[str, tuple[Fraction, int]]:
    """Outcome probabilities under the best change and re-bet, keyed by name with the net."""
    out = {"win with a re-bet": Fraction(0), "win": Fraction(0), "lose": Fraction(0),
           "lose with a re-bet": Fraction(0)}
    left = {i: n for i, (_, n) in enumerate(classes)}

    def add(p: Fraction, weight: Fraction) -> None:
        rebet = p > Fraction(1, 2)
        out["win with a re-bet" if rebet else "win"] += weight * p
        out["lose with a re-bet" if rebet else "lose"] += weight * (1 - p)

    for i, (card, _) in enumerate(classes):
        w_i = Fraction(left[i], size)
        left[i] -= 1
        for j, (waiting, _) in enumerate(classes):
            if not left[j]:
                continue
            w_j = w_i * Fraction(left[j], size - 1)
            left[j] -= 1
            keep = _p_win(card, waiting, left, classes, size - 2, rules)
            changed: list[tuple[Fraction, Fraction]] = []   # (P(new card), P(win with it))
            for k, (new, _) in enumerate(classes):
                if not left[k]:
                    continue
                p_new = Fraction(left[k], size - 2)
                left[k] -= 1
                changed.append((p_new, _p_win(new, waiting, left, classes, size - 3, rules)))
                left[k] += 1
            ev_keep = _ev(keep)
            ev_change = sum((p_new * _ev(p) for p_new, p in changed), Fraction(0))
            if ev_change > ev_keep:
                for p_new, p in changed:
                    add(p, w_j * p_new)
            else:
                add(keep, w_j)
            left[j] += 1
        left[i] += 1
    nets = {"win with a re-bet": 2, "win": 1, "lose": -1, "lose with a re-bet": -2}
    return {name: (p, nets[name]) for name, p in out.items()}


def _ev(p: Fraction) -> Fraction:
    """Per unit of initial bet: the bet, and a re-bet of one unit when the card is more likely to win."""
    edge = 2 * p - 1
    return edge + max(Fraction(0), edge)
