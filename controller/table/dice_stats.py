"""Dice integrity: every cup's running counts of each face, per die, and a fairness test.

No manual table keeps these: a loaded or worn die shows only over hundreds of throws. The
controller counts each physical throw the round used, once: the table hands a reading over
(:meth:`DiceStats.read`) when the round took it as the throw its dice step asked for (a ``dice``
event came of it), and the reading has the cup's number of dice, each a face 1..6. A reading
the round did not use is not counted, whatever the cup says of it: a re-shake the table asked
for after a fault while the first shake was already on its way (the round took the first, the
second reads as ``unexpected_dice``: issue 23.3, twelve throws counted for ten rounds), dice
read again without a shake, a report the cup sent twice, a shake between rounds. Each die's six counts
are tested with Pearson's chi-square against a fair die (5 degrees of freedom,
:mod:`controller.table.chi_square`). A die with at least :data:`MIN_SHAKES` throws whose
p-value is below :data:`P_BIAS` is a ``dice_bias`` finding naming the die and the face furthest
from its expected count, once per die until the cup's counts are reset.

The counts are the journal's (``meta.dice``, written with the events of the same batch), so they
outlive restarts. They start afresh for a cup whose serial number changes (another cup in the
same place) and on the pit's ``cmd/dice_reset`` (new dice in the same cup). The table publishes
:meth:`DiceStats.payload` retained on ``<prefix>/<table>/dice`` (docs/schemas/dice.json).

Checking after every throw is a sequential test: over thousands of throws a fair die has a
larger chance than 0.001 of crossing the line once (the threshold is the issue's, and the alarm
is a warning that asks for the die to be checked, not a verdict).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.table.chi_square import goodness_of_fit
from games.dice import FACES, reading_problem

MIN_SHAKES = 600
P_BIAS = 0.001


@dataclass(frozen=True)
class Bias:
    """A die whose counts reject fairness: what the ``dice_bias`` alarm says."""

    cup: str
    die: int
    face: int
    count: int
    shakes: int
    statistic: float
    p_value: float

    @property
    def message(self) -> str:
        expected = self.shakes / 6
        return (f"{self.cup} die {self.die} fails the fairness test: face {self.face} came {self.count} times in "
                f"{self.shakes} shakes ({expected:.0f} expected); chi-square {self.statistic:.1f} "
                f"(5 degrees of freedom), p = {self.p_value:.2g} < {P_BIAS}")

    @property
    def action(self) -> str:
        return (f"take die {self.die} of the {self.cup} out of play and have it checked; with new dice, reset "
                f"the cup's counts (pit cmd/dice_reset {{\"cup\": \"{self.cup}\"}})")


@dataclass
class CupCounts:
    dice: int
    serial: str | None = None
    since: float = field(default_factory=time.time)
    counts: list[list[int]] = field(default_factory=list)
    flagged: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [[0] * 6 for _ in range(self.dice)]

    @property
    def shakes(self) -> int:
        return sum(self.counts[0]) if self.counts else 0


class DiceStats:
    """The counts of a table's cups, by device name, each with its number of dice."""

    def __init__(self, cups: Mapping[str, int], *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self.cups: dict[str, CupCounts] = {name: CupCounts(n, since=clock()) for name, n in cups.items()}
        self.changed = False
        """Something to journal and publish since the table last took :meth:`save`."""

    # --- what the cup says -----------------------------------------------------------------
    def online(self, cup: str, serial: str | None) -> int | None:
        """The cup said hello. Another serial than the counted one is another cup: its counts
        start afresh, and the throws discarded are returned (None: the same cup, or its first
        hello, whose serial the counts take)."""
        counts = self.cups.get(cup)
        if counts is None or serial is None or serial == counts.serial:
            return None
        self.changed = True
        if counts.serial is None:
            counts.serial = serial
            return None
        discarded = counts.shakes
        self._fresh(cup, serial)
        return discarded

    def read(self, cup: str, values: Sequence[int]) -> list[Bias]:
        """A throw the round used (see the module's docstring): counted if it has the cup's dice,
        each a face; the dice whose counts now reject fairness for the first time."""
        counts = self.cups.get(cup)
        if counts is None:
            return []
        if reading_problem(values, counts.dice, True) is not None:  # a round of another number of dice
            return []
        for die, value in enumerate(values):
            counts.counts[die][value - 1] += 1
        self.changed = True
        found = []
        for die, faces in enumerate(counts.counts, start=1):
            if die in counts.flagged or sum(faces) < MIN_SHAKES:
                continue
            statistic, p = goodness_of_fit(faces)
            if p < P_BIAS:
                counts.flagged.add(die)
                face = _most_off(faces)
                found.append(Bias(cup, die, face, faces[face - 1], sum(faces), statistic, p))
        return found

    def reset(self, cup: str) -> int:
        """The pit's ``cmd/dice_reset``: the cup's counts start afresh; the throws discarded.
        :class:`KeyError` naming the table's cups (not the one asked for) when there is no such cup."""
        if cup not in self.cups:   # the name asked for is not quoted back: the refusal goes to the pit
            raise KeyError(f"cup: no such dice cup; the table's cups are {', '.join(sorted(self.cups)) or 'none'}")
        discarded = self.cups[cup].shakes
        self._fresh(cup, self.cups[cup].serial)
        self.changed = True
        return discarded

    def _fresh(self, cup: str, serial: str | None) -> None:
        self.cups[cup] = CupCounts(self.cups[cup].dice, serial=serial, since=self._clock())

    # --- journal and topic -------------------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """JSON for the journal's ``meta.dice``."""
        self.changed = False
        return {name: {"dice": c.dice, "serial": c.serial, "since": c.since, "counts": c.counts,
                       "flagged": sorted(c.flagged)} for name, c in self.cups.items()}

    def load(self, saved: Any) -> list[str]:
        """Take up :meth:`save` from before a restart. What cannot be taken up is left fresh,
        and said (one line per cup) for the table's alarm: a cup whose number of dice changed in
        the config, a damaged entry."""
        problems: list[str] = []
        if saved is None:
            return problems
        if not isinstance(saved, dict):
            return ["the journal's dice counts are not a JSON object: every cup's counts start afresh"]
        for name, entry in saved.items():
            counts = self.cups.get(name)
            if counts is None:
                continue   # a cup no longer in the config
            try:
                dice, rows = entry["dice"], entry["counts"]
                ok = (dice == counts.dice and len(rows) == dice
                      and all(len(r) == 6 and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in r)
                              for r in rows)
                      and len({sum(r) for r in rows}) <= 1)
                serial, since, flagged = entry.get("serial"), float(entry["since"]), set(entry.get("flagged", []))
            except (KeyError, TypeError, ValueError):
                ok = False
            if not ok:
                problems.append(f"{name}: the journal's dice counts do not fit a cup of {counts.dice} dice: they start "
                                "afresh")
                self.changed = True
                continue
            self.cups[name] = CupCounts(dice, serial=serial if isinstance(serial, str) else None, since=since,
                                        counts=[list(r) for r in rows],
                                        flagged={d for d in flagged if isinstance(d, int)})
        return problems

    def payload(self) -> dict[str, Any]:
        """The retained ``dice`` topic's body (the table adds ``table`` and ``ts``)."""
        cups = {}
        for name, c in self.cups.items():
            dice = []
            for die, faces in enumerate(c.counts, start=1):
                statistic, p = goodness_of_fit(faces)
                shakes = sum(faces)
                face = _most_off(faces) if shakes else None
                dice.append({"die": die, "shakes": shakes, "counts": list(faces), "chi_square": round(statistic, 4),
                             "p_value": p, "biased": die in c.flagged,
                             "most_off": None if face is None else {"face": face, "count": faces[face - 1],
                                                                    "expected": round(shakes / 6, 2)}})
            cups[name] = {"serial": c.serial, "since": c.since, "shakes": c.shakes, "dice": dice}
        return {"p_bias": P_BIAS, "min_shakes": MIN_SHAKES, "cups": cups}


def _most_off(faces: Sequence[int]) -> int:
    """The face whose count is furthest from the expected count (the lowest face on a tie)."""
    expected = sum(faces) / 6
    return max(FACES, key=lambda f: (abs(faces[f - 1] - expected), -f))
