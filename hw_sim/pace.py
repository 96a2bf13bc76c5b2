"""How long the simulated dealer takes before each action: ``fast``, a fixed number of seconds, or ``human``.

A simulated table that deals as fast as the controller answers is what the tests and the benchmark
want; a floor of simulated tables that a pit screen, a report or a person watches wants tables that
deal as people do, a baccarat round in about a minute, and that drift apart rather than deal in step.
So the dealer asks a :class:`Pace` how long to wait before it acts on each prompt:

- ``fast``: no wait (the tests, the demo);
- ``SECONDS`` (``2``, ``0.5``): that many seconds before every action, the same each time;
- ``human``: a dealer at a real table's pace (:data:`HUMAN`): betting time before ``deal``, a second
  and a half per card, time to settle and pay, a shuffle and a deck check that take longer the more
  cards the table plays. Each wait is drawn around its mean with a seeded jitter of
  ±:data:`JITTER`, so two tables with different seeds drift apart, and a seeded run still repeats.

The wait only says how long; the dealer waits on an event (hw_sim.dealer), so a stop or a newer
prompt ends it at once: a stop never waits out a 25-second betting time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

MAX_SECONDS = 3600.0
"""The longest fixed pace accepted: an hour between actions is a typo, not a pace."""

JITTER = 0.3
"""A human wait is drawn uniformly from its mean times 1 ± this: same mean, tables drift apart."""

HUMAN: Mapping[str, float] = {
    "bets": 25.0,        # betting time: the players place their bets, the dealer calls no more bets
    "offer": 6.0,        # a seat offered the player-dealer position takes it or passes (a bets prompt with a seat)
    "card": 1.5,         # draw a card from the shoe and place it
    "hand": 2.5,         # take a hand from the hand-forming shuffler and set it at its seat
    "decision": 6.0,     # a player thinks, then presses (hit, stand, fold ...)
    "press": 5.0,        # the dealer closes a phase (re-bets made, a street dealt by hand)
    "dice": 6.0,         # shake the cup, set it down, lift it
    "count": 10.0,       # put what is left into the shuffler and have it counted
    "settle": 22.0,      # turn the cards, settle and pay every wager, clear the layout
    "load_shoe": 30.0,   # cut, place the cut card, load the shoe
    "fault": 15.0,       # see the alarm, call the floor, press void
}
"""Mean seconds before each action a dealer does at a fixed pace (by prompt ``expect``)."""

HUMAN_PER_CARD: Mapping[str, tuple[float, float]] = {
    "deck_check": (20.0, 0.10),   # open the decks, feed the checker: 62 s for 8 decks, 25 s for one
    "new_deck": (50.0, 0.10),     # put the old deck away, open and check a new one
    "shuffle": (20.0, 0.25),      # gather and shuffle: 124 s for 8 decks, 33 s for one
}
"""Mean seconds (fixed, per card of the table's deck) of the actions whose time grows with the deck."""


class PaceError(ValueError):
    """A ``--pace`` that is not ``human``, ``fast`` or a number of seconds; the message says which it got."""


@dataclass
class Pace:
    """The dealer's pace at one table: ``mode`` is ``fast``, ``fixed`` (``seconds`` each time) or
    ``human``; ``cards`` the table's deck size (a shuffle of 8 decks takes longer than of one)
    and ``seed`` its jitter's seed."""

    mode: str = "fast"
    seconds: float = 0.0
    cards: int = 52
    seed: int = 0
    _rng: random.Random = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.mode not in ("fast", "fixed", "human"):
            raise PaceError(f"pace mode must be fast, fixed or human, not {self.mode!r}")
        self._rng = random.Random(self.seed)

    def for_table(self, *, seed: int, cards: int) -> Pace:
        """This pace at a table with ``cards`` in its deck, its jitter seeded with ``seed``."""
        return replace(self, seed=seed, cards=cards)

    def mean(self, prompt: Mapping[str, Any]) -> float:
        """The mean wait, in seconds, before the dealer acts on ``prompt``."""
        if self.mode == "fast":
            return 0.0
        if self.mode == "fixed":
            return self.seconds
        expect = prompt.get("expect")
        if expect == "bets" and prompt.get("seat") is not None:
            expect = "offer"
        if expect in HUMAN_PER_CARD:
            fixed, per_card = HUMAN_PER_CARD[expect]
            return fixed + per_card * self.cards
        return HUMAN.get(str(expect), 0.0)

    def draw(self, prompt: Mapping[str, Any]) -> float:
        """The wait before acting on ``prompt``: the mean, jittered for a human (seeded)."""
        mean = self.mean(prompt)
        if self.mode != "human" or not mean:
            return mean
        return mean * self._rng.uniform(1 - JITTER, 1 + JITTER)

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.mode == "fixed" else self.mode


def parse_pace(text: str | float) -> Pace:
    """``human``, ``fast`` or a number of seconds (0 is fast); :class:`PaceError` otherwise."""
    if isinstance(text, (int, float)):
        value = float(text)
    else:
        word = text.strip().lower()
        if word in ("human", "fast"):
            return Pace(word)
        try:
            value = float(word.removesuffix("s"))
        except ValueError:
            raise PaceError(f"pace {text!r}: human, fast or a number of seconds (e.g. 2 or 0.5)") from None
    if not math.isfinite(value) or value < 0:
        raise PaceError(f"pace {text!r}: a number of seconds must be 0 or more")
    if value > MAX_SECONDS:
        raise PaceError(f"pace {text!r}: at most {MAX_SECONDS:g} seconds between actions")
    return Pace("fast") if value == 0 else Pace("fixed", seconds=value)


def as_pace(pace: Pace | str | float) -> Pace:
    """A pace from what a caller has: a :class:`Pace`, or what :func:`parse_pace` takes."""
    return pace if isinstance(pace, Pace) else parse_pace(pace)
