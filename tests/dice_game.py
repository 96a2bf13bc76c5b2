"""Dice High: a neutral dice game of a few lines that proves the dice step without any real game.

Every round one seat shakes two dice (the shaker moves one seat clockwise each round, from
seat 1); the round settles on the total: 8 or more is ``high``, 6 or less ``low``, 7 ``seven``
(the house's). The ``dice`` event also names the seat the total reaches counted clockwise from
the shaker (games.dice.seat_for_total), as a game that deals from the dice would. The deck is
checked and shuffled once when the table opens (the lifecycle wants a proved deck before any
round); no card is dealt. Registered only by the tests that use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from games.decks import DeckSpec, standard_deck
from games.dice import seat_for_total
from games.odds import OutcomeClasses
from games.options import OptionError, whole_number
from games.registry import GameEntry
from games.round import DeviceRole, Emit, RoundMachine
from games.round.steps import DiceDue, Step, Steps

SPEC = DeckSpec("13 spades", tuple(c for c in standard_deck() if c.suit == "S"))
DICE = 2


@dataclass(frozen=True)
class Options:
    seats: int = 3

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= 6:
            raise OptionError("seats", f"Dice High has 2 to 6 seats, not {self.seats}")

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> Options:
        return cls(seats=seats, **section)


def outcome(total: int) -> str:
    return "high" if total >= 8 else "low" if total <= 6 else "seven"


class DiceHigh(Steps, RoundMachine):
    game = "dice_high"
    BUTTONS: ClassVar[tuple[str, ...]] = ("deal", "void")
    LIGHT_GROUPS: ClassVar[tuple[str, ...]] = ("turn",)
    SHUFFLE_EVERY_ROUND: ClassVar[bool] = False
    ROLES: ClassVar[dict[str, DeviceRole]] = {
        "cup": DeviceRole(("dice_cup",), frozenset({"dealing"}), reads_dice=True),
        "shuffler": DeviceRole(("shuffler",), frozenset({"deck_check", "shuffle"}), prepares_deck=True),
    }

    def __init__(self, options: Options, emit: Emit, first_round: int = 1) -> None:
        self.thrown: tuple[int, ...] | None = None
        super().__init__(spec=SPEC, emit=emit, seats=options.seats, first_round=first_round)

    def _shaker(self) -> int:
        return ((self.round or 1) - 1) % self.seats + 1

    def _clear_layout(self) -> None:
        self.thrown = None

    def _next_step(self) -> Step | None:
        if self.thrown is None:
            return DiceDue(DICE, self._shaker(), "Dice High: one throw of two dice")
        return None

    def _shaken(self, due: DiceDue, values: tuple[int, ...]) -> None:
        self.thrown = values

    def _dice_data(self, due: DiceDue, values: tuple[int, ...]) -> dict[str, Any]:
        assert due.seat is not None
        return {"reaches": seat_for_total(sum(values), due.seat, range(1, self.seats + 1), "clockwise")}

    def _entered_result(self) -> None:
        assert self.thrown is not None
        total = sum(self.thrown)
        self._emit("result", {"values": list(self.thrown), "total": total, "outcome": outcome(total),
                              "shaker": self._shaker()})


def outcome_classes(options: Options) -> OutcomeClasses:
    """What the outcome monitor counts: the outcome (high 15/36, low 15/36, seven 6/36) and the
    total (2 to 12, its ways of 36)."""
    ways = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}
    return OutcomeClasses({"outcome": {"high": Fraction(15, 36), "low": Fraction(15, 36), "seven": Fraction(6, 36)},
                           "total": {str(t): Fraction(w, 36) for t, w in ways.items()}},
                          lambda result: {"outcome": result["outcome"], "total": str(result["total"])})


GAME = GameEntry(
    name="dice_high", title="Dice High (a test game)", sheet="tests/dice_game.py", machine=DiceHigh,
    options=Options.from_config, options_schema={"type": "object", "additionalProperties": False},
    build=lambda options, emit, first_round: DiceHigh(options, emit, first_round),
    deck=lambda options: SPEC, seats=(2, 6), option_keys={"seats": "table.seats"}, demo={"seats": 3, "game": {}, "devices": {"cup": {"dice": DICE}}},
    outcome_classes=outcome_classes,
)
