"""No Bust 21st Century Blackjack's odds for `tablectl odds`.

- Exact: how the player-dealer's hand ends under its chart (RPD, GR7, AR1), dealt alone from a
  full shoe of N decks with their jokers -- every draw sequence counted by card composition, in
  fractions (:func:`dealer_outcomes`).
- Simulated (labelled so, with its 95 % interval): the player's bet, per unit of the first wager,
  over seeded rounds of one player against the player-dealer, each from a freshly shuffled shoe.
  The player plays the sheet's chart (RFP) and, where it leaves the choice, a plain strategy
  (:data:`STRATEGY`, :func:`plain_strategy`); the bet's value depends on how players play, which
  the sheet leaves to them, so this is the figure for that strategy.

Why simulated: the strategy splits aces and eights, so a round's cards go to one hand or several,
each drawn while the others wait, and its doubles and the frozen hands depend on the player-dealer's
up card. Hot Action's bet is counted by composition because each side is one hand with a fixed rule
(games.hot_action.bet); a count over every sequence of split hands, for each up card, was not
written. The default shoe (six decks, a joker each) is simulated offline instead, 17 million
rounds to a 95 % interval under 0.1 percentage point (tools/odds/simulate_bets.py), and printed
from :data:`DATA` with its seed and run time; another shoe is simulated at the command (40,000
rounds, its interval about 2 points wide).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from games import blackjack
from games.cards import JOKER, STANDARD_RANKS, SUITS, Card
from games.no_bust import rules
from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds, from_shipped, shipped, simulated

SHEET = rules.Rules()
"""The default readings (games.no_bust)."""

ROUNDS = 40_000
"""Seeded rounds of the live simulation: about two seconds, the edge within roughly ±1 %; the
default shoe is printed from the offline one (:data:`DATA`) instead."""
DATA = Path(__file__).resolve().parent / "data" / "bet_simulation.json"
"""17 million seeded rounds of :func:`simulate`, 6 decks and a joker each, run offline by
tools/odds/simulate_bets.py: a 95 % interval under 0.1 percentage point wide."""
STRATEGY = ("the chart (RFP: stand on 20 or more, hit 11 or less), then: split aces and eights, double hard 10-11 "
            "against 2-9, draw to 17 as the player-dealer does, never surrender")


def shoe_composition(decks: int, jokers_per_deck: int = 1) -> dict[Card, int]:
    """A full shoe by category (games.blackjack.shoe_composition), one joker a deck unless a
    table says otherwise."""
    return blackjack.shoe_composition(decks, jokers_per_deck)


def outcome_name(t: rules.Total) -> str:
    if t.natural:
        return "natural (two jokers)"
    if t.joker:
        return "21 with a joker"
    if t.over:
        return "over a natural"
    return str(t.value)


def dealer_outcomes(composition: Mapping[Card, int], highest_total: int = 21) -> dict[str, Fraction]:
    """How the player-dealer's hand ends, dealt alone from a shoe of ``composition``: two cards
    (HP8), then a card at a time while :func:`games.no_bust.rules.player_dealer_draws` says so.
    Exact (games.blackjack.finishing_odds)."""

    def ends(cards: list[Card]) -> str | None:
        if rules.player_dealer_draws(cards, highest_total)[0]:
            return None
        return outcome_name(rules.total(cards, highest_total))

    return blackjack.finishing_odds(composition, ends)


# --- the simulated bet ---------------------------------------------------------------------------------


def plain_strategy(cards: Sequence[Card], up: Card, allowed: Sequence[str], highest_total: int = 21) -> str:
    """Where the chart leaves the choice: split aces and eights; double a hard 10 or 11 against a
    2-9; draw on hard 16 or less and soft 17 or less (as the player-dealer does); never surrender."""
    t = rules.total(cards, highest_total)
    up_value = None if up.is_joker else rules.card_value(up)
    if "split" in allowed and cards[0].rank in ("A", "8"):
        return "split"
    if "double" in allowed and not t.soft and t.value in (10, 11) and up_value is not None and 2 <= up_value <= 9:
        return "double"
    if "hit" in allowed and ("stand" not in allowed or t.value <= (17 if t.soft else 16)):
        return "hit"
    return "stand" if "stand" in allowed else allowed[0]


Strategy = Callable[[Sequence[Card], Card, Sequence[str], int], str]


def play_round(draw: Callable[[], Card], readings: rules.Rules = SHEET,
               strategy: Strategy = plain_strategy) -> tuple[list[rules.PlayedHand], list[Card]]:
    """One player against the player-dealer, cards from ``draw``: the player's hands as they end
    and the player-dealer's hand (the machine's sequence, without the table around it)."""
    first = [draw(), draw()]
    dealer = [draw(), draw()]
    up = dealer[0]
    high = readings.highest_total
    hands: list[dict] = [{"cards": first, "wager": "bet", "split": False, "aces": False, "doubled": False,
                          "surrendered": False}]
    splits = 0
    i = 0
    while i < len(hands):
        h = hands[i]
        while True:
            if len(h["cards"]) < 2:
                h["cards"].append(draw())
            if h["doubled"] or h["surrendered"]:
                break
            state = rules.HandState(tuple(h["cards"]), h["split"], h["aces"], splits, up.is_joker)
            allowed = rules.choices(state, readings)
            if not allowed or allowed == ("stand",):
                break
            choice = strategy(h["cards"], up, allowed, high)
            if choice == "stand":
                break
            if choice == "surrender":
                h["surrendered"] = True
                break
            if choice == "split":
                splits += 1
                moved = h["cards"].pop()
                aces = moved.rank == "A"
                h["split"], h["aces"] = True, h["aces"] or aces
                hands.append({"cards": [moved], "wager": "split", "split": True, "aces": aces, "doubled": False,
                              "surrendered": False})
                continue
            h["cards"].append(draw())
            if choice == "double":
                h["doubled"] = True
        i += 1
    while rules.player_dealer_draws(dealer, high)[0]:
        dealer.append(draw())
    return ([rules.PlayedHand(tuple(h["cards"]), h["wager"], h["doubled"], h["surrendered"]) for h in hands],
            dealer)


def simulate(rounds: int, seed: int, decks: int, jokers_per_deck: int = 1,
             readings: rules.Rules = SHEET) -> Counter:
    """Net per unit of the first wager over ``rounds`` seeded rounds -> how many rounds had it."""
    shoe = [Card(r, s) for s in SUITS for r in STANDARD_RANKS] * decks + [JOKER] * (jokers_per_deck * decks)
    tally: Counter = Counter()
    for draw in blackjack.fresh_shoes(shoe, rounds, seed):
        hands, dealer = play_round(draw, readings)
        tally[sum((w.net for h in hands for w in rules.settle_hand(h, dealer, readings)), Fraction(0))] += 1
    return tally


def _label(net: Fraction) -> str:
    if net == 0:
        return "push"
    size = abs(net)
    return f"{'win' if net > 0 else 'lose'} {size} unit{'' if size == 1 else 's'}"


def _bet_shipped(data: dict) -> WagerOdds:
    nets = sorted(((Fraction(k), n) for k, n in data["counts"].items()), key=lambda kv: -kv[0])
    outcomes = tuple(OutcomeOdds(_label(net), n / data["rounds"], float(net)) for net, n in nets)
    return from_shipped("bet", data, outcomes, f"one player against the player-dealer, {data['decks']} decks and "
                        f"{data['jokers_per_deck']} joker a deck, a fresh shoe each round; net per unit of the first "
                        f"wager, doubles and splits included; strategy: {STRATEGY}")


def _bet(rounds: int, seed: int, decks: int, jokers: int, readings: rules.Rules) -> WagerOdds:
    data = shipped(DATA) if (rounds, seed, jokers, readings) == (ROUNDS, 1, 1, SHEET) else None
    if data is not None and data["decks"] == decks:
        return _bet_shipped(data)
    tally = simulate(rounds, seed, decks, jokers, readings)
    outcomes = tuple(OutcomeOdds(_label(net), count / rounds, float(net))
                     for net, count in sorted(tally.items(), key=lambda kv: -kv[0]))
    return simulated("bet", outcomes, rounds,
                     f"{rounds:,} seeded rounds (seed {seed}), one player against the player-dealer, "
                     "each from a fresh shoe; net per unit of the first wager, doubles and splits "
                     f"included; strategy: {STRATEGY}")


def odds(paytable: str | None = None, decks: int | None = None, rounds: int = ROUNDS, seed: int = 1,
         jokers_per_deck: int = 1) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: No Bust 21st Century Blackjack pays even money (the sheet prints no "
                         "payouts); name 'sheet' or leave it out")
    n = 6 if decks is None else decks
    if not 1 <= n <= 8:
        raise ValueError(f"--decks: one to eight decks, not {n}")
    readings = rules.Rules()
    dealer = dealer_outcomes(shoe_composition(n, jokers_per_deck), readings.highest_total)
    order = ["17", "18", "19", "20", "21", "21 with a joker", "natural (two jokers)", "over a natural"]
    shares = ", ".join(f"{k} {float(dealer.get(k, 0)):.6f}" for k in order)
    return GameOdds("no_bust", f"sheet (every win even money), {jokers_per_deck} joker(s) a deck", n,
                    (_bet(rounds, seed, n, jokers_per_deck, readings),),
                    notes=("simulated: the bet (how players play is theirs to choose); exact: the "
                           "player-dealer's chart",
                           f"the player-dealer's hand dealt alone from a full shoe, exactly: {shares}"))


PD_HAND = "player_dealer_hand"


def outcome_classes(options: Any) -> OutcomeClasses:
    """What the table's outcome monitor counts (issue 25): how the player-dealer's hand ends (17 to
    the highest total, 21 with a joker, over a natural, a natural of two jokers), exact for the
    table's decks, jokers and highest total (:func:`dealer_outcomes`). The player-dealer's hand is
    shown and played by its chart (RPD) whatever the players did; its cards come after theirs,
    which by exchangeability leaves each ending's probability that of a full shoe."""
    composition = shoe_composition(options.decks, options.jokers_per_deck)
    highest = options.readings.highest_total
    probabilities = {PD_HAND: dict(dealer_outcomes(composition, highest))}

    def classify(result: Mapping[str, Any]) -> dict[str, str]:
        d = result["dealer"]
        if d["natural"]:
            name = "natural (two jokers)"
        elif d["joker"]:
            name = "21 with a joker"
        elif d["over"]:
            name = "over a natural"
        else:
            name = str(d["total"])
        return {PD_HAND: name}

    return OutcomeClasses(probabilities, classify)
