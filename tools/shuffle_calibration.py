#!/usr/bin/env python3
"""Measure the shuffle monitor over seeded simulated shifts: how often fair shuffles raise
``shuffle_suspect`` (the false-alarm rate), and how many deals each simulated fault takes to be named.

    .venv/bin/python tools/shuffle_calibration.py [--shifts 1000] [--seed 1] [--game baccarat ...]

The cards are the controller's monitor itself (controller.table.shuffle_stats.ShuffleStats, fed a
card at a time and told which faces became public), and the shuffles the simulator's
(hw_sim.shuffles): what goes into the shuffler is what the simulated dealer gathers (the cards left
in the shoe, then the deal in the order it was dealt), as hw_sim.physical does. Only the game's
dealing is modelled, per deal:

- ``baccarat``: 8 decks, dealt to 6 cards from the end (the cut card where the round that may take
  6 cards starts), every card public; a shift is 8 shoes;
- ``joker_seven``: 52 + 2 jokers, 7 cards face up, shuffled every round; a shift is 480 rounds;
- ``three_card_poker``: one deck from a hand-forming shuffler, 4 hands of 3, only the
  player-dealer's counted (a seat's hand, shown at its player's choice, is a gap); a shift is 480 rounds.

Faults: ``weak`` (3 riffles, for good from the shift's 2nd shuffle), ``cut`` (one cut only, the
same), ``stacked`` (one shoe with a slug of 40 cards of the last deal, the shift's 2nd deal). The
deals a fault took: from the first faulty deal (1 = named when that deal ended).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.table.shuffle_stats import ShuffleStats
from games.cards import STANDARD_RANKS, SUITS
from hw_sim import shuffles


@dataclass(frozen=True)
class Game:
    faces: list[str]
    deal: Callable[[int, random.Random], tuple[int, list[bool]]]
    """(cards in the shoe, rng) -> (cards dealt, whether each became public)."""
    shift: int


def _deck(decks: int, jokers: int = 0) -> list[str]:
    return ([r + s for s in SUITS for r in STANDARD_RANKS] + ["JK"] * jokers) * decks


def _tcp(n: int, rng: random.Random) -> tuple[int, list[bool]]:
    # Only the player-dealer's hand (dealt last) counts: a seat's hand is shown at its player's
    # choice, so the monitor leaves it a gap (controller.table.shuffle_stats).
    return 12, [False] * 9 + [True] * 3


GAMES = {
    "baccarat": Game(_deck(8), lambda n, rng: (n - 6, [True] * (n - 6)), 8),
    "joker_seven": Game(_deck(1, 2), lambda n, rng: (7, [True] * 7), 480),
    "three_card_poker": Game(_deck(1), _tcp, 480),
}


def arrange(fault: str, index: int) -> Callable[[list[int], random.Random, int], list[int]]:
    """The shuffle of the shift's ``index``-th deal (0: the first) under ``fault``."""
    if fault == "weak" and index >= 1:
        return lambda stack, rng, dealt: shuffles.riffles(stack, rng)
    if fault == "cut" and index >= 1:
        return lambda stack, rng, dealt: shuffles.cut_only(stack, rng)
    if fault == "stacked" and index == 1:
        return lambda stack, rng, dealt: shuffles.stacked(stack, rng, dealt)
    return lambda stack, rng, dealt: shuffles.fair(stack, rng)


def shift(game: Game, fault: str, rng: random.Random) -> int | None:
    """One shift; the deal (counted from the first faulty one, from 1) whose end raised the first
    warning, or None."""
    copies: dict[str, int] = {}
    for face in game.faces:
        copies[face] = copies.get(face, 0) + 1
    stats = ShuffleStats(copies)
    order = list(range(len(game.faces)))
    rng.shuffle(order)
    dealt = 0
    for index in range(game.shift + 2):   # the first deal is compared with none: a shift compares game.shift
        stack = order[dealt:] + order[:dealt]   # what was left in the shoe, then the deal as dealt
        order = arrange(fault, index)(stack, rng, dealt)
        if stats.observe("shuffle", {}):   # deal index - 1 is over; the faulty ones are deals 1, 2, ...
            return index - 1 if fault != "none" else index
        dealt, public = game.deal(len(order), rng)
        stats.observe("round_start", {"round": index + 1})
        for card, shown in zip(order[:dealt], public, strict=True):
            stats.dealt(game.faces[card])
            if shown:
                stats.observe("card", {"face": "up", "card": game.faces[card]})
    return None


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shifts", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", choices=sorted(GAMES))
    ap.add_argument("--fault", action="append", choices=("none", "weak", "cut", "stacked"))
    args = ap.parse_args(argv)
    for name in args.game or sorted(GAMES):
        game = GAMES[name]
        for fault in args.fault or ("none", "weak", "cut", "stacked"):
            rng = random.Random(f"{args.seed}-{name}-{fault}")
            found = [shift(game, fault, rng) for _ in range(args.shifts)]
            named = sorted(f for f in found if f is not None)
            share = len(named) / len(found)
            if fault == "none":
                print(f"{name:17} fair shuffles: {len(named)} of {len(found)} shifts of {game.shift} deals warned "
                      f"({share:.2%})")
            else:
                took = (f"median {statistics.median(named):g}, 90th percentile "
                        f"{named[int(0.9 * (len(named) - 1))]} deals" if named else "never")
                print(f"{name:17} {fault:8} named in {share:.1%} of {len(found)} shifts; {took}")


if __name__ == "__main__":
    main()
