"""How the simulated shuffler arranges the cards: a fair shuffle, and the ways a shuffle goes wrong.

Each function takes the stack in the order the cards went into the shuffler (for a shoe game:
what was left in the shoe, then the discards in the order they were dealt; hw_sim.physical) and a
seeded ``random.Random``, and returns the new order, top card first. They arrange any objects
(physical cards in the simulator, faces in tools/shuffle_calibration.py). The faults
(``weak_shuffle``, ``cut_only``, ``stacked_shoe``: hw_sim.faults) choose one of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

RIFFLES = 3
"""A weak shuffle's riffles: seven make a deck of 52 close to random (Bayer and Diaconis, 1992)."""
SLUG = 40
"""A stacked shoe's slug: this many cards of the last deal kept in their order."""


def fair(stack: Sequence[T], rng: random.Random) -> list[T]:
    """Every order equally likely (what a working shuffler does, to the test's eye)."""
    out = list(stack)
    rng.shuffle(out)
    return out


def riffles(stack: Sequence[T], rng: random.Random, times: int = RIFFLES) -> list[T]:
    """``times`` riffle shuffles of the Gilbert-Shannon-Reeds model: the stack is cut binomially
    (each card to the top packet with chance 1/2), and the packets are dropped together, the next
    card falling from a packet with chance proportional to the cards it has left."""
    if times < 1:
        raise ValueError(f"a weak shuffle riffles at least once, not {times}")
    out = list(stack)
    for _ in range(times):
        cut = sum(rng.random() < 0.5 for _ in out)
        top, bottom = out[:cut], out[cut:]
        merged: list[T] = []
        i = j = 0
        while i < len(top) or j < len(bottom):
            left_top, left_bottom = len(top) - i, len(bottom) - j
            if rng.random() * (left_top + left_bottom) < left_top:
                merged.append(top[i])
                i += 1
            else:
                merged.append(bottom[j])
                j += 1
        out = merged
    return out


def cut_only(stack: Sequence[T], rng: random.Random) -> list[T]:
    """No shuffle at all, one cut at a random place: the order goes round intact."""
    out = list(stack)
    if not out:
        return out
    at = rng.randrange(len(out))
    return out[at:] + out[:at]


def stacked(stack: Sequence[T], rng: random.Random, dealt: int, slug: int = SLUG) -> list[T]:
    """A false shuffle: ``slug`` cards of the last deal (the stack's last ``dealt`` cards, in the
    order they were dealt) are kept together in their order and planted where they will be dealt,
    in the first ``dealt`` cards of the new order; everything else is shuffled fairly. Fewer than
    ``slug`` cards dealt: they all make the slug."""
    cards = list(stack)
    dealt = max(0, min(dealt, len(cards)))
    slug = min(slug, dealt)
    if slug < 2:
        return fair(cards, rng)
    start = len(cards) - dealt + rng.randrange(dealt - slug + 1)
    kept = cards[start:start + slug]
    rest = fair(cards[:start] + cards[start + slug:], rng)
    at = rng.randrange(max(1, dealt - slug + 1))
    return rest[:at] + kept + rest[at:]
