"""Outcome integrity (issue 25.1): each wager's outcome classes counted from the rounds' published
results and tested against the exact probabilities of the table's own options.

A shuffler that builds hands too often, a shoe loaded in a sequence or a deck that is not the one
configured all show in how often each class of outcome comes, long before anyone at the table
notices. For every quantity a game's :class:`~games.odds.OutcomeClasses` names (Three Card Poker:
the player-dealer's hand class; Baccarat: the winner and the naturals; Joker Seven: the colours,
the jokers and the rank pattern) the table counts one class per round, read from the ``result``
event's data -- what the pit already sees, nothing face down (DESIGN.md, "What must never leave
the controller").

Two tests, each after every counted round once a quantity has :data:`MIN_ROUNDS` rounds:

- Pearson's chi-square over its classes against the expected counts, the classes expected fewer
  than 5 times pooled into one cell (:func:`controller.table.chi_square.fit`); below
  :data:`P_BIAS` it names the class whose count is furthest off in standard units
  ((count - expected) / sqrt(expected));
- for each rare class (a probability below :data:`RARE_BELOW`: a royal flush, two jokers, seven
  of a colour), the exact binomial upper tail P(X >= count) -- too many of a rare class is what a
  stacked deck or a biased hand-forming shuffler makes, and a pooled chi-square cell hides it.

A finding is an ``outcome_bias`` warning naming the quantity and the class, once per class until
the counts start afresh. The counts are journaled (``meta.integrity``) and start afresh on a deck
change (a deck check that passed: the cards may be others) and on the pit's ``cmd/integrity_reset``.
Not on every shuffle: a hand-forming shuffler and Joker Seven shuffle for every round, and a
baccarat shoe holds some 80 rounds, far below any count that tells anything.

The rounds of a shoe dealt over many rounds are drawn without replacement, so they are not quite
independent; every round's class probabilities are still those of a full shoe (exchangeability).
The threshold, the minimum count and the false-alarm rate they give over a shift, measured by
tools/outcome_false_alarms.py, are in docs/operations.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.table.chi_square import binomial_cdf, binomial_sf, fit
from games.odds import OutcomeClasses

MIN_ROUNDS = 200
"""Rounds a quantity needs before it is tested (pooling aside, a few hundred rounds are what a
card table deals in a shift)."""
P_BIAS = 1e-4
"""The p-value below which a test is a finding (docs/operations.md: its false-alarm rate)."""
RARE_BELOW = 0.02
"""A class less likely than this also gets its own exact upper-tail test."""


@dataclass(frozen=True)
class OutcomeBias:
    """A quantity whose counts reject the expected probabilities: what ``outcome_bias`` says."""

    wager: str
    klass: str
    count: int
    rounds: int
    expected: float
    test: str
    """``chi_square`` (over every class) or ``binomial`` (the rare class's upper tail)."""
    p_value: float
    statistic: float | None = None
    df: int | None = None
    p_bias: float = P_BIAS

    @property
    def message(self) -> str:
        how = (f"chi-square {self.statistic:.1f} ({self.df} degrees of freedom)" if self.test == "chi_square"
               else "exact binomial upper tail")
        return (f"{self.wager}: {self.klass!r} came {self.count} times in {self.rounds} rounds "
                f"({self.expected:.1f} expected); {how}, p = {self.p_value:.2g} < {self.p_bias:g}")

    @property
    def action(self) -> str:
        return ("surveillance: review the table's rounds and its shuffler, shoe and deck (integrity topic); "
                "after the cause is found and the cards or device replaced, reset the counts "
                "(pit cmd/integrity_reset)")


@dataclass
class WagerCounts:
    """One quantity's counts since ``since``, and the classes already named in a finding."""

    counts: dict[str, int]
    since: float
    flagged: set[str] = field(default_factory=set)

    @property
    def rounds(self) -> int:
        return sum(self.counts.values())


class OutcomeStats:
    """The counts of one table, by quantity, with the probabilities of its game and options."""

    def __init__(self, classes: OutcomeClasses, *, clock: Callable[[], float] = time.time,
                 p_bias: float = P_BIAS, min_rounds: int = MIN_ROUNDS) -> None:
        self.classes = classes
        self.p_bias = p_bias
        self.min_rounds = min_rounds
        """The table uses the module's figures; tools/outcome_false_alarms.py tries others."""
        self._clock = clock
        self.probabilities = {w: {k: float(p) for k, p in c.items()} for w, c in classes.probabilities.items()}
        self.wagers = {w: self._fresh(w) for w in self.probabilities}
        self.changed = False
        """Something to journal and publish since the table last took :meth:`save`."""

    def _fresh(self, wager: str) -> WagerCounts:
        return WagerCounts(dict.fromkeys(self.probabilities[wager], 0), self._clock())

    # --- what the round says -----------------------------------------------------------------
    def reads(self, kind: str) -> bool:
        """Whether an event of ``kind`` is counted: every ``result``, and the game's ``readers``."""
        return kind == "result" or kind in self.classes.readers

    def observe(self, result: Mapping[str, Any], kind: str = "result") -> list[OutcomeBias]:
        """A round's published ``result`` (or another event the game reads, such as its ``dice``):
        each quantity's class counted; the findings it makes. A class the probabilities do not
        know is a :class:`ValueError` (a game whose classes and result disagree), and nothing of
        that event is counted."""
        read = self.classes.classify if kind == "result" else self.classes.readers.get(kind)
        if read is None:
            return []
        classes = read(result)
        for wager, klass in classes.items():
            if klass not in self.probabilities.get(wager, {}):
                raise ValueError(f"{wager}: the result's class {klass!r} is not one of the expected classes")
        found: list[OutcomeBias] = []
        for wager, klass in classes.items():
            counts = self.wagers[wager]
            counts.counts[klass] += 1
            self.changed = True
            found += self._test(wager, counts, klass)
        return found

    def _test(self, wager: str, counts: WagerCounts, seen: str) -> list[OutcomeBias]:
        n = counts.rounds
        if n < self.min_rounds:
            return []
        probs = self.probabilities[wager]
        found = []
        p = probs[seen]
        if p < RARE_BELOW and seen not in counts.flagged:   # the tail grows with n: only a new one can cross
            tail = binomial_sf(counts.counts[seen], n, p)
            if tail < self.p_bias:
                counts.flagged.add(seen)
                found.append(OutcomeBias(wager, seen, counts.counts[seen], n, n * p, "binomial", tail,
                                         p_bias=self.p_bias))
        names = list(probs)
        result = fit([counts.counts[k] for k in names], [probs[k] for k in names])
        if result.p_value < self.p_bias:
            klass, count, expected = _most_off(counts.counts, probs, result.pooled)
            if klass not in counts.flagged:
                counts.flagged.add(klass)
                found.append(OutcomeBias(wager, klass, count, n, expected, "chi_square",
                                         result.p_value, result.statistic, result.df, self.p_bias))
        return found

    def reset(self, wager: str | None = None) -> int:
        """The counts of ``wager`` (None: every quantity) start afresh; the rounds set aside (the
        most any quantity had). :class:`KeyError` naming the quantities for one the table lacks."""
        if wager is not None and wager not in self.wagers:   # what was asked for is not quoted back
            raise KeyError(f"wager: no such counted wager; the table's are {', '.join(sorted(self.wagers))}")
        names = list(self.wagers) if wager is None else [wager]
        discarded = max((self.wagers[w].rounds for w in names), default=0)
        for w in names:
            self.wagers[w] = self._fresh(w)
        self.changed = True
        return discarded

    # --- journal and topic -------------------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """JSON for the journal's ``meta.integrity`` ``outcomes``."""
        self.changed = False
        return {w: {"since": c.since, "counts": dict(c.counts), "flagged": sorted(c.flagged)}
                for w, c in self.wagers.items()}

    def load(self, saved: Any) -> list[str]:
        """Take up :meth:`save` from before a restart. A quantity whose saved classes are not the
        ones of the table's options now (the config changed) or whose entry is damaged starts
        afresh, and is said (one line each) for the table's alarm."""
        problems: list[str] = []
        if saved is None:
            return problems
        if not isinstance(saved, dict):
            self.changed = True
            return ["the journal's outcome counts are not a JSON object: every wager's counts start afresh"]
        for wager, entry in saved.items():
            if wager not in self.wagers:
                continue   # a quantity of another game or options
            try:
                counts, since, flagged = entry["counts"], float(entry["since"]), entry.get("flagged", [])
                ok = (isinstance(counts, dict) and set(counts) == set(self.probabilities[wager])
                      and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values())
                      and isinstance(flagged, list))
            except (KeyError, TypeError, ValueError):
                ok = False
            if not ok:
                problems.append(f"{wager}: the journal's outcome counts do not fit this table's classes: they "
                                "start afresh")
                self.changed = True
                continue
            self.wagers[wager] = WagerCounts(dict(counts), since, {k for k in flagged if isinstance(k, str)})
        return problems

    def payload(self) -> dict[str, Any]:
        """The ``outcomes`` of the retained ``integrity`` topic (docs/schemas/integrity.json)."""
        out = {}
        for wager, c in self.wagers.items():
            probs = self.probabilities[wager]
            names = list(probs)
            n = c.rounds
            result = fit([c.counts[k] for k in names], [probs[k] for k in names])
            classes = []
            for k in names:
                entry: dict[str, Any] = {"name": k, "count": c.counts[k], "expected": round(n * probs[k], 4),
                                         "probability": probs[k]}
                if probs[k] < RARE_BELOW:
                    entry["p"] = binomial_sf(c.counts[k], n, probs[k])
                classes.append(entry)
            out[wager] = {"since": c.since, "rounds": n, "classes": classes,
                          "chi_square": round(result.statistic, 4), "df": result.df, "p_value": result.p_value,
                          "pooled": [names[i] for i in result.pooled], "flagged": sorted(c.flagged)}
        return out


def _most_off(counts: Mapping[str, int], probs: Mapping[str, float], pooled: Sequence[int]) -> tuple[str, int, float]:
    """The cell of the test furthest from its expected count in standard units, (count - expected)
    / sqrt(expected); when that is the pooled cell, the class in it least likely by itself (below);
    its name, count and expected count. The first in the game's order on a tie."""
    n = sum(counts.values())
    names = list(probs)
    cells = [(names[i], counts[names[i]], n * probs[names[i]]) for i in range(len(names)) if i not in pooled]
    if pooled:
        cells.append((" + ".join(names[i] for i in pooled), sum(counts[names[i]] for i in pooled),
                      n * sum(probs[names[i]] for i in pooled)))
    best = max(range(len(cells)), key=lambda i: (abs(cells[i][1] - cells[i][2]) / math.sqrt(cells[i][2])
                                                  if cells[i][2] > 0 else 0.0, -i))
    if pooled and best == len(cells) - 1:
        # The pooled cell is the one off: name the class in it whose own count is least likely (its
        # exact binomial tail, on the side it is off), so that the alarm says which hand surveillance
        # should look at. A pool of straights and rare hands was named whole, "royal flush + straight
        # flush + three of a kind + straight", when only the straights were off. Standard units would
        # name a rare hand seen once (1 against 0.02 expected: 7 units, yet a 2 % chance).
        members = [names[i] for i in pooled]
        klass = min(members, key=lambda k: (_tail(counts[k], n, probs[k]), members.index(k)))
        return klass, counts[klass], n * probs[klass]
    return cells[best]


def _tail(count: int, n: int, p: float) -> float:
    """The chance of a count at least as far from n p as ``count``, on its side."""
    if count >= n * p:
        return binomial_sf(count, n, p)
    return binomial_cdf(count, n, p)
