"""Hot Action Blackjack's odds for `tablectl odds`.

- Exact: how the Banker's hand ends under its drawing rules (games.hot_action.rules.banker_must
  with the default readings: draw to 18, hit soft 18, stand hard 18 and soft 19-22), dealt alone
  from a full shoe of N decks of 56 -- every draw sequence counted by card composition, in
  fractions (:func:`banker_outcomes`); and a hand's two first cards: the natural 22 and the two
  card 22 (:func:`two_card_odds`).
- Exact: a player's bet against the Bank, one player and the Banker from a fresh shoe of N decks,
  the player drawing to 18 as the Banker does (:data:`STRATEGY`; the sheet leaves hands below 18
  to the player, G4, so this is the figure for that strategy, not for every table). Every pair of
  final hands is counted by composition (games.hot_action.bet), a minute or so a shoe, so it is
  counted offline for one to eight decks (tools/odds/hot_action_bet.py) and printed from
  :data:`DATA` with its provenance. With readings other than the sheet's defaults, or without the
  data, the bet is a seeded simulation of the same round (:func:`simulate`), labelled so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path

from games import blackjack
from games.cards import JOKER, STANDARD_RANKS, SUITS, Card
from games.hot_action import rules
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds, dice_totals, shipped, simulated

ROUNDS = 40_000
"""Seeded rounds of the live simulation: a few seconds, the expected value within about ±1 %."""
DATA = Path(__file__).resolve().parent / "data" / "bet_exact.json"
"""The bet counted exactly for one to eight decks (games.hot_action.bet), by tools/odds/hot_action_bet.py."""
STRATEGY = "the player draws to 18 as the Banker does: hits soft 18 and below 18, stands on hard 18 and soft 19-22"

SHEET = rules.Rules()
"""The default readings (games.hot_action)."""

ORDER: tuple[str, ...] = ("18", "19", "20", "21", "22", "two card 22", "natural 22", "over 22")


def shoe_composition(decks: int) -> dict[Card, int]:
    """A full shoe by category (G1): four of each rank a deck (sixteen 10-point cards) and four jokers
    (games.blackjack.shoe_composition)."""
    return blackjack.shoe_composition(decks, 4)


def outcome_name(t: rules.Total) -> str:
    if t.natural:
        return "natural 22"
    if t.two_card_22:
        return "two card 22"
    if t.over:
        return "over 22"
    return str(t.value)


def banker_outcomes(composition: Mapping[Card, int], readings: rules.Rules = SHEET) -> dict[str, Fraction]:
    """How the Banker's hand ends, dealt alone from a shoe of ``composition``: two cards, then a card
    at a time while :func:`games.hot_action.rules.banker_must` says hit. Exact: each sequence of
    draws weighted by the cards left, merged by the hand's multiset. (With ``banker_below_18 =
    "choice"`` the Banker's play is its own: refused.)"""
    if readings.banker_below_18 != "hit":
        raise ValueError("the Banker's hand below 18 is its own choice at this table: no exact figure")

    def ends(cards: list[Card]) -> str | None:
        if rules.banker_must(cards, readings)[0] != "stand":
            return None
        return outcome_name(rules.total(cards))

    return blackjack.finishing_odds(composition, ends)


def two_card_odds(decks: int) -> dict[str, Fraction]:
    """A hand's first two cards from a full shoe: a natural 22 (two aces, I5a) and a two card 22 that
    is not one (a joker and a 10-point card, I5b), by counting pairs of physical cards."""
    n = 56 * decks
    pairs = Fraction(n * (n - 1), 2)
    aces, jokers, tens = 4 * decks, 4 * decks, 16 * decks
    return {"natural 22": Fraction(aces * (aces - 1), 2) / pairs, "two card 22": Fraction(jokers * tens) / pairs}


# --- the simulated bet ---------------------------------------------------------------------------------


def play_round(draw: Callable[[], Card], readings: rules.Rules = SHEET) -> tuple[list[Card], list[Card]]:
    """One player against the Banker, cards from ``draw``, as the machine sequences them: the deal
    (G3), the check for a two card 22 (H14), the player drawing to 18 as the Banker does, the
    Banker's draws. Returns the player's and the Banker's final hands."""
    player = [draw()]
    bank = [draw()]
    player.append(draw())
    bank.append(draw())
    if readings.check_two_card_22 and rules.check_due(bank[0]) and rules.total(bank).two_card_22:
        return player, bank  # H14: turned up at once; every hand stands
    while True:
        must, _ = rules.player_must(player)
        if must == "stand" or (must == "choice" and rules.total(player).value >= 18):
            break
        player.append(draw())
    while rules.banker_must(bank, readings)[0] == "hit":
        bank.append(draw())
    return player, bank


def simulate(rounds: int, seed: int, decks: int, readings: rules.Rules = SHEET) -> Counter:
    """The player's net per unit over ``rounds`` seeded rounds -> how many rounds had it."""
    shoe = ([Card(r, s) for s in SUITS for r in STANDARD_RANKS] + [JOKER] * 4) * decks
    tally: Counter = Counter()
    for draw in blackjack.fresh_shoes(shoe, rounds, seed):
        player, bank = play_round(draw, readings)
        tally[rules.settle_hand(player, bank, True, readings).net] += 1
    return tally


NAMES = {Fraction(1): "win", Fraction(0): "push", Fraction(-1): "lose"}


def _bet_exact(decks: int) -> WagerOdds | None:
    """The shipped exact count for ``decks``, or None where there is none."""
    data = shipped(DATA)
    found = next((r for r in data["results"] if r["decks"] == decks), None) if data else None
    if found is None:
        return None
    probabilities = sorted(((Fraction(k), Fraction(p)) for k, p in found["probabilities"].items()), reverse=True)
    return WagerOdds("bet", tuple(OutcomeOdds(NAMES[net], p, net) for net, p in probabilities),
                     note=f"exact: one player against the Bank, {decks} deck{'s' if decks > 1 else ''} of 56, a fresh "
                     f"shoe; strategy: {STRATEGY}; every win even money (G7); every pair of final hands counted "
                     f"offline by {data['script']} on {data['computed']} in {found['cpu_seconds']:,.0f} s of CPU")


def _bet(rounds: int, seed: int, decks: int, readings: rules.Rules) -> WagerOdds:
    if (rounds, seed, readings) == (ROUNDS, 1, SHEET):
        exact = _bet_exact(decks)
        if exact is not None:
            return exact
    tally = simulate(rounds, seed, decks, readings)
    outcomes = tuple(OutcomeOdds(NAMES[net], count / rounds, float(net))
                     for net, count in sorted(tally.items(), key=lambda kv: -kv[0]))
    return simulated("bet", outcomes, rounds,
                     f"{rounds:,} seeded rounds (seed {seed}), one player against the Bank, each from a fresh "
                     f"shoe; strategy: {STRATEGY}; every win even money (G7)")


def odds(paytable: str | None = None, decks: int | None = None, rounds: int = ROUNDS, seed: int = 1) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: Hot Action Blackjack pays even money (G7: the Bank wins or loses up to the "
                         "amount bet); name 'sheet' or leave it out")
    n = 8 if decks is None else decks
    if not 1 <= n <= 8:
        raise ValueError(f"--decks: one to eight decks of 56 (G1: 8), not {n}")
    readings = rules.Rules()
    bank = banker_outcomes(shoe_composition(n), readings)
    shares = ", ".join(f"{k} {float(bank.get(k, 0)):.6f}" for k in ORDER)
    two = two_card_odds(n)
    bet = _bet(rounds, seed, n, readings)
    return GameOdds("hot_action", "sheet (every win even money, G7); ties on 19-22 and over 22 push", n, (bet,),
                    notes=(f"{'exact' if bet.method == 'exact' else 'simulated'}: the bet, for the strategy it "
                           "names (below 18 the sheet leaves the play to the player, G4); exact: the Banker's "
                           "drawing rules and the first two cards",
                           f"the Banker's hand dealt alone from a full shoe, exactly: {shares}",
                           f"a hand's first two cards, exactly: natural 22 {two['natural 22']} "
                           f"({float(two['natural 22']):.6f}), two card 22 {two['two card 22']} "
                           f"({float(two['two card 22']):.6f})"))


def outcome_classes(options: object) -> OutcomeClasses:
    """What the table's outcome monitor counts (issue 25): the total of the round's throw of
    three dice (rules.DICE), exact (games.odds.dice_totals)."""
    return dice_totals(rules.DICE)
