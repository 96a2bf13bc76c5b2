"""What a result says about each wager: win, lose or push, and at what odds.

The controller cannot see chips (GAMES.md): a result names, for the layout
and for each seat, which wagers win, lose or push and at what odds, and the
dealer pays. Every game's settlement returns these, so the pit, the
simulated dealer and `tablectl odds` read one shape whatever the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Outcome = Literal["win", "lose", "push"]


@dataclass(frozen=True)
class Pays:
    """Odds as the sheet prints them, ``to`` for ``per`` (3 to 1, 1 to 2)."""

    to: int
    per: int = 1

    def __post_init__(self) -> None:
        if self.to < 0 or self.per < 1:
            raise ValueError(f"odds must be to >= 0 for per >= 1, not {self.to} to {self.per}")

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.to, self.per)

    def __str__(self) -> str:
        return f"{self.to} to {self.per}"


@dataclass(frozen=True)
class WagerResult:
    """One wager's fate in one round.

    ``pays`` is set for a win (the odds it is paid at) and None otherwise;
    ``why`` is the rule that decided it, as a dealer or a dispute would read
    it ("two pairs, rule 5"); ``returned`` is a stake handed back without a
    win or loss that is not a push in the sheet's words (Three Card Poker's
    play bet when the player-dealer does not qualify): it is reported as a
    push with the reason in ``why``.
    """

    wager: str
    outcome: Outcome
    pays: Pays | None = None
    why: str = ""

    def __post_init__(self) -> None:
        if (self.outcome == "win") != (self.pays is not None):
            raise ValueError(f"{self.wager}: a win has odds and nothing else has ({self.outcome}, {self.pays})")

    @property
    def net(self) -> Fraction:
        """The bettor's net per unit staked: the odds for a win, -1 for a loss, 0 for a push."""
        if self.outcome == "win":
            assert self.pays is not None
            return self.pays.ratio
        return Fraction(-1) if self.outcome == "lose" else Fraction(0)

    def to_dict(self) -> dict:
        return {"wager": self.wager, "outcome": self.outcome,
                "pays": None if self.pays is None else str(self.pays), "why": self.why}
