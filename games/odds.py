"""The shape of a game's odds, for `tablectl odds` (a pit manager checking a paytable).

Each game's ``odds`` module computes a :class:`GameOdds`: for every wager,
each outcome's probability and what it pays, and from those the wager's
expected value per unit staked. Exact figures are :class:`fractions.Fraction`
from combinatorics; a figure that could only be simulated says so
(``method="simulation"``) and carries its 95 % interval.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

Method = Literal["exact", "simulation"]


@dataclass(frozen=True)
class OutcomeOdds:
    """One way a wager can end: its name, its probability and the bettor's net per unit staked."""

    name: str
    probability: Fraction | float
    net: Fraction | float
    """+3 for a 3 to 1 win, -1 for a loss, 0 for a push."""


@dataclass(frozen=True)
class WagerOdds:
    wager: str
    outcomes: tuple[OutcomeOdds, ...]
    method: Method = "exact"
    interval: tuple[float, float] | None = None
    """95 % interval of the expected value, for a simulated wager."""
    note: str = ""

    @property
    def expected(self) -> Fraction | float:
        """The bettor's expected net per unit staked (negative: the house has the edge)."""
        return sum((o.probability * o.net for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction | float:
        return -self.expected

    @property
    def favours_player(self) -> bool:
        return self.expected > 0

    def total_probability(self) -> Fraction | float:
        return sum((o.probability for o in self.outcomes), Fraction(0))


def simulated(wager: str, outcomes: tuple[OutcomeOdds, ...], rounds: int, note: str) -> WagerOdds:
    """A wager figured by a seeded simulation of ``rounds`` independent rounds: its ``outcomes``
    (each probability the share of rounds that ended so), labelled ``simulation``, with the 95 %
    interval of the expected value (1.96 standard errors of the rounds' net)."""
    mean = sum(o.probability * o.net for o in outcomes)
    var = sum(o.probability * o.net ** 2 for o in outcomes) - mean ** 2
    half = 1.96 * math.sqrt(max(var, 0.0) / rounds)
    return WagerOdds(wager, outcomes, method="simulation", interval=(mean - half, mean + half), note=note)


@dataclass(frozen=True)
class GameOdds:
    game: str
    paytable: str
    decks: int
    wagers: tuple[WagerOdds, ...]
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        def num(x: Fraction | float) -> float:
            return float(x)

        return {"game": self.game, "paytable": self.paytable, "decks": self.decks, "notes": list(self.notes),
                "wagers": [{"wager": w.wager, "method": w.method, "expected": num(w.expected),
                            "house_edge": num(w.house_edge), "favours_player": w.favours_player,
                            "interval": list(w.interval) if w.interval else None, "note": w.note,
                            "outcomes": [{"name": o.name, "probability": num(o.probability),
                                          "exact": str(o.probability) if isinstance(o.probability, Fraction)
                                          else None, "net": num(o.net)} for o in w.outcomes]}
                           for w in self.wagers]}


@dataclass(frozen=True)
class OutcomeClasses:
    """What a table's outcome monitor (controller.table.outcome_stats, issue 25) counts for a game
    with the table's own options: for each measured quantity (named for the wager it settles, e.g.
    ``player_dealer_hand``), the probability of each of its classes, which add up to 1; and how a
    round's published ``result`` data reads as one class per quantity (a quantity the result does
    not show is left out of the mapping: that round is not counted for it).

    Only what the result publishes may be read (DESIGN.md, "What must never leave the
    controller"): a folded hand is never counted, and neither is a hand chosen to be shown by a
    player's decision, whose classes are not those of a random hand."""

    probabilities: Mapping[str, Mapping[str, Fraction | float]]
    classify: Callable[[Mapping[str, Any]], Mapping[str, str]]
    method: Method = "exact"
    notes: tuple[str, ...] = field(default=())
    readers: Mapping[str, Callable[[Mapping[str, Any]], Mapping[str, str]]] = field(default_factory=dict)
    """Other published events read as classes, by event kind: a dice game's ``dice`` event (the
    throw the round used) gives its total (:func:`dice_totals`)."""

    def __post_init__(self) -> None:
        for wager, classes in self.probabilities.items():
            total = sum(classes.values())
            if abs(float(total) - 1) > 1e-9 or len(classes) < 2:
                raise ValueError(f"{wager}: the classes' probabilities add up to {float(total)}, not 1 "
                                 f"(or fewer than two classes)")


DICE_TOTAL = "dice_total"


def dice_totals(dice: int) -> OutcomeClasses:
    """The total of a throw of ``dice`` fair dice, each total's ways over 6**dice (exact), read from
    the round's ``dice`` event (issue 25: the dice games' totals). The seat a throw reaches is the
    total counted round the table from the shaker: a function of the total, so its test is this one."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    throws = 6 ** dice
    return OutcomeClasses({DICE_TOTAL: {str(t): Fraction(n, throws) for t, n in sorted(ways.items())}},
                          lambda result: {},
                          readers={"dice": lambda data: {DICE_TOTAL: str(data["total"])}})


def no_house_wager(game: str, what: str) -> Callable[[str | None, int | None], GameOdds]:
    """`tablectl odds` for a game the house banks no wager of (the poker room: players play each
    other; the house takes a fee -- by the hand, the pot or the time -- and its jackpot drop): no
    wager has a house edge to price. ``what`` is the one line that says so; a paytable or a deck
    count asked for is refused, since there is none to choose."""

    def odds(paytable: str | None, decks: int | None) -> GameOdds:
        if paytable is not None or decks is not None:
            raise ValueError(f"{what}: there is no paytable or shoe to price (--paytable, --decks)")
        return GameOdds(game, "none", 1, (), notes=(what,))

    return odds


def shipped(path: Path) -> dict | None:
    """A simulation run offline (tools/odds/simulate_bets.py) and shipped as data, or None when the
    package holds none: `odds` then simulates a little itself and says so."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def from_shipped(wager: str, data: dict, outcomes: tuple[OutcomeOdds, ...], what: str,
                 unit: str = "rounds") -> WagerOdds:
    """A wager from a shipped simulation: its outcomes, its 95 % interval (the data's own for a
    paired simulation, else from the outcomes), and where it came from: the rounds (or deals), the
    seed, the script, the day and the run time."""
    note = (f"{what}; {data['rounds']:,} seeded {unit} (seed {data['seed']}) simulated offline by {data['script']} "
            f"on {data['computed']} in {data['seconds']:,.0f} s")
    paired = data.get("paired")
    if paired is not None:
        lo, hi = paired["interval"]
        return WagerOdds(wager, outcomes, method="simulation", interval=(lo, hi), note=note)
    return simulated(wager, outcomes, data["rounds"], note)
