"""How often the outcome monitor (controller.table.outcome_stats) raises ``outcome_bias`` on fair
cards over a shift: the false-alarm rate docs/operations.md quotes beside the dice's.

Each shift is a seeded run of fair rounds at a human pace for its whole length, every round's
``result`` made by the game's own rules from randomly shuffled cards (a baccarat shoe of 8 decks
dealt to its cut card, 14 cards from the end; Three Card Poker and Joker Seven from a freshly
shuffled deck every round, as a hand-forming shuffler and rule 7 have it) and handed to the
monitor as the table does. A shift with at least one finding is a false alarm.

    .venv/bin/python tools/outcome_false_alarms.py --shifts 400 --hours 8 --seed 1

Paces (rounds an hour, a human dealer): baccarat 70, Three Card Poker 60, Joker Seven 60, 7 Card
Thrill 50, No Bust 60, Bet'Win 60, the three
dice games (a throw of three dice a round; run as hot_action) 60.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from controller.table.outcome_stats import MIN_ROUNDS, P_BIAS, OutcomeStats
from games import registry
from games.baccarat import rules as baccarat
from games.cards import Card
from games.no_bust import rules as no_bust
from games.three_card_poker import rules as tcp

PACE = {"baccarat": 70, "three_card_poker": 60, "joker_seven": 60, "seven_card_thrill": 50, "no_bust": 60,
        "betwin": 60, "hot_action": 60}
"""Hot Action stands for the three dice games (Double-Hand, Hot Action, Pai Gow Tiles: the same test
of a three-dice total), at the pace of the fastest of them."""
OPTIONS: dict[str, dict[str, Any]] = {"baccarat": {}, "three_card_poker": {"deal_from": "hand_shuffler", "decks": 1},
                                      "joker_seven": {"paytable": "generic"}, "seven_card_thrill": {}, "no_bust": {},
                                      "betwin": {}, "hot_action": {}}


def _dice(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    while True:
        values = [rng.randint(1, 6) for _ in range(3)]
        yield "dice", {"values": values, "total": sum(values)}


def _baccarat(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    cards: list[Card] = []
    while True:
        if len(cards) < 14:   # the cut card: a fresh shoe
            cards = options.spec.all_cards()
            rng.shuffle(cards)
        first = [cards.pop() for _ in range(4)]
        player, banker = [first[0], first[2]], [first[1], first[3]]   # P, B, P, B (rule 11)
        if not (baccarat.is_natural(player) or baccarat.is_natural(banker)):
            third = None
            if baccarat.player_draws(baccarat.total(player)):
                player.append(cards.pop())
                third = baccarat.point(player[2])
            if baccarat.banker_draws(baccarat.total(banker), third):
                banker.append(cards.pop())
        yield "result", baccarat.outcome(player, banker).to_dict()


def _three_card_poker(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    deck = options.spec.all_cards()
    while True:
        dealer = rng.sample(deck, 3)
        yield "result", tcp.settle(dealer, {}, options.paytable, options.suited_pair)


def _joker_seven(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    deck = options.spec.all_cards()
    while True:
        yield "result", {"cards": [c.code for c in rng.sample(deck, 7)]}


def _seven_card_thrill(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    deck = options.spec.all_cards()
    while True:
        yield "result", {"dealer": {"cards": [c.code for c in rng.sample(deck, 7)]}}


def _no_bust(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    """The player-dealer's hand from a shoe dealt to a cut card 52 from the end (the players'
    cards, which come before it, change no ending's probability: exchangeability)."""
    highest = options.readings.highest_total
    cards: list[Card] = []
    while True:
        if len(cards) < 52:
            cards = options.spec.all_cards()
            rng.shuffle(cards)
        hand = [cards.pop(), cards.pop()]
        while no_bust.player_dealer_draws(hand, highest)[0]:
            hand.append(cards.pop())
        yield "result", {"dealer": {"cards": [c.code for c in hand], **no_bust.total(hand, highest).to_dict()}}


def _betwin(rng: random.Random, options: Any) -> Iterator[tuple[str, dict]]:
    deck = options.spec.all_cards()
    while True:
        waiting, adjoining = rng.sample(deck, 2)
        yield "result", {"waiting": waiting.code, "adjoining": adjoining.code}


DEALS: dict[str, Callable[[random.Random, Any], Iterator[tuple[str, dict]]]] = {
    "baccarat": _baccarat, "three_card_poker": _three_card_poker, "joker_seven": _joker_seven,
    "seven_card_thrill": _seven_card_thrill, "no_bust": _no_bust, "betwin": _betwin, "hot_action": _dice}


def shift_alarms(game: str, rounds: int, seed: int, p_bias: float, min_rounds: int) -> list[Any]:
    """The findings of one seeded shift of ``rounds`` fair rounds."""
    entry = registry.get(game)
    options = entry.load_options(OPTIONS[game], entry.demo.get("seats", 6))
    stats = OutcomeStats(entry.outcome_classes(options), p_bias=p_bias, min_rounds=min_rounds)
    deal = DEALS[game](random.Random(seed), options)
    found = []
    for _ in range(rounds):
        kind, data = next(deal)
        found += stats.observe(data, kind)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shifts", type=int, default=400)
    parser.add_argument("--hours", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--p-bias", type=float, default=P_BIAS)
    parser.add_argument("--min-rounds", type=int, default=MIN_ROUNDS)
    parser.add_argument("--game", action="append", choices=sorted(DEALS))
    args = parser.parse_args()
    for game in args.game or list(DEALS):
        rounds = round(PACE[game] * args.hours)
        start = time.monotonic()
        alarmed, kinds = 0, {}
        for shift in range(args.shifts):
            found = shift_alarms(game, rounds, args.seed * 1_000_003 + shift, args.p_bias, args.min_rounds)
            alarmed += bool(found)
            for f in found:
                kinds[(f.wager, f.klass, f.test)] = kinds.get((f.wager, f.klass, f.test), 0) + 1
        rate = alarmed / args.shifts
        half = 1.96 * math.sqrt(rate * (1 - rate) / args.shifts)
        print(f"{game}: {rounds} rounds a shift ({PACE[game]}/h x {args.hours:g} h), p < {args.p_bias:g} after "
              f"{args.min_rounds} rounds: {alarmed} of {args.shifts} fair shifts alarmed = {100 * rate:.2f} % "
              f"(95 % +- {100 * half:.2f}); {time.monotonic() - start:.0f} s; "
              + ", ".join(f"{w}/{k}/{t} {n}" for (w, k, t), n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
