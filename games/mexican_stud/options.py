"""Mexican Stud's options: the table's collection, the first button, the seats in, how a tie for
the forced bet breaks.

Choices where the sheet is silent (tested in tests/games/test_mexican_stud_rules.py):
- **The collection has no default.** MEXICAN POKER says "each player places a collection" and
  posts no amount, so a table must give its own (``[game.schedule]``): ``basis = "player"`` for
  the sheet's collection from each player (games.poker.economics), or a ``"pot"`` or ``"time"``
  schedule as the house takes it elsewhere. A jackpot is taken from 5 players only, as every
  jackpot the sheet posts ("MUST HAVE 5 PLAYERS FOR 'JackPot'"): a schedule that takes one from
  fewer is refused.
- **Eight seats at most**, as the Stud tables of the sheet ("8-7-6 PLAYERS"): eight players who
  all stay to the fifth card need 43 cards of the 41, and the fifth card's prompt names the stud
  short-stub rule (games.poker.deal_plan choice 3).
- **The first hand's button** is ``button`` (default seat 1, or the first seat in to its left):
  the high card for the button is drawn at the table, not in the controller.
- **A tie for the forced bet** (two up cards of one rank, no joker) goes to the seat closest
  clockwise of the button (``forced_bet_tie = "position"``), as the sheet breaks ties of hands
  ("The hand closest of such hands to the dealer acts first"); ``"suit"`` breaks it by the Stud
  House Rules' suits instead (spades highest): games.poker.bring_in choice 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.decks import DeckSpec, stripped
from games.mexican_stud.rules import JACKPOT_HANDS
from games.options import OptionError, whole_number
from games.poker import deal_plan
from games.poker.economics import JACKPOT_MIN_PLAYERS, Economics
from games.poker.table_options import check_seats_in, economics_for

GAME = "mexican_stud"
"""The game's name in games.poker (deal_plan, bring_in, economics, showdown)."""

MAX_SEATS = 8
TIES: tuple[str, ...] = ("position", "suit")
BASES: tuple[str, ...] = ("player", "pot", "time")
"""The schedules a Mexican Stud table may give (Panguingue's ``condition`` is its own)."""


def deck() -> DeckSpec:
    """MEXICAN POKER: "a 'stripped' standard 53-card deck consisting of 52 cards and 1 Joker. the
    8's, 9's and 10's are removed, leaving 41 cards"."""
    return stripped(("8", "9", "10"), jokers=1, name="41 cards: 52 and a joker, no 8, 9 or 10")


OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "schedule": {"type": "object",
                     "x-why": "the table's collection: {basis = \"player\", fee_each = cents, jackpot = cents}, "
                              "or a pot or time schedule (the sheet posts no amount)"},
        "button": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
        "seats_in": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
                     "uniqueItems": True},
        "forced_bet_tie": {"enum": list(TIES)},
        "jackpot_pays": {"type": "object",
                         "x-why": "the table's posted jackpot: {hand name = {amount = cents} or {share = percent}}"},
        "jackpot_pool": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class MexicanOptions:
    """- ``schedule``: the table's collection, a mapping (games.poker.economics.schedule_from_mapping).
    - ``button``: the first hand's button seat.
    - ``seats_in``: the seats with a player when the table opens (None: every seat).
    - ``forced_bet_tie``: how two up cards of one rank break for the forced bet.
    - ``jackpot_pays``: the table's posted jackpot, hand name (Hand Ranking) -> ``{"amount": cents}``
      or ``{"share": percent of the jackpot}`` (None: the table posts none; eligibility only).
    - ``jackpot_pool``: what the jackpot holds when this table first opens, in cents (then the
      controller keeps it: each completed hand's jackpot collection in, each payout out)."""

    seats: int = 8
    schedule: Any = None
    button: int = 1
    seats_in: tuple[int, ...] | None = None
    forced_bet_tie: str = "position"
    jackpot_pays: Mapping[str, Mapping[str, int]] | None = None
    jackpot_pool: int = 0
    spec: DeckSpec = field(default_factory=deck)
    economics: Economics = field(init=False, compare=False)
    plan: deal_plan.DealPlan = field(init=False, compare=False)

    def __post_init__(self) -> None:
        whole_number("seats", self.seats)
        if not 2 <= self.seats <= MAX_SEATS:
            raise OptionError("seats", f"a Mexican Stud table has 2 to {MAX_SEATS} seats, not {self.seats}")
        whole_number("button", self.button)
        if not 1 <= self.button <= self.seats:
            raise OptionError("button", f"must be a seat, 1 to {self.seats}, not {self.button}")
        check_seats_in(self.seats_in, self.seats)
        if self.forced_bet_tie not in TIES:
            raise OptionError("forced_bet_tie", f"must be one of {', '.join(TIES)}, not {self.forced_bet_tie!r}")
        if self.schedule is None:
            raise OptionError("schedule", "the sheet posts no collection for Mexican Stud (\"each player places a "
                                          "collection\"): give the table's, e.g. [game.schedule] basis = \"player\", "
                                          "fee_each = 100, jackpot = 100")
        if isinstance(self.schedule, str):
            raise OptionError("schedule", f"the sheet posts no schedule for Mexican Stud, so {self.schedule!r} "
                                          "cannot be one: give the table's as a table of keys")
        if isinstance(self.schedule, Mapping) and self.schedule.get("basis") == "condition":
            raise OptionError("schedule.basis", f"a Mexican Stud collection is one of {', '.join(BASES)}: "
                                                "'condition' is Panguingue's")
        economics = economics_for(GAME, self.schedule)
        took = economics.schedule
        if took.jackpot and took.jackpot_min_players < JACKPOT_MIN_PLAYERS:
            raise OptionError("schedule.jackpot_min_players",
                              f"a jackpot is taken from {JACKPOT_MIN_PLAYERS} players or more (\"MUST HAVE 5 "
                              f"PLAYERS FOR 'JackPot'\"), not from {took.jackpot_min_players}")
        object.__setattr__(self, "economics", economics)
        object.__setattr__(self, "plan", deal_plan.plan(GAME))
        whole_number("jackpot_pool", self.jackpot_pool)
        if self.jackpot_pool < 0:
            raise OptionError("jackpot_pool", f"an amount in cents may not be negative, not {self.jackpot_pool}")
        if self.jackpot_pays is not None:
            object.__setattr__(self, "jackpot_pays", _jackpot_pays(self.jackpot_pays))
            if not took.jackpot:
                raise OptionError("jackpot_pays", "the table posts a jackpot but its schedule collects none: give "
                                                  "[game.schedule] a jackpot")

    @property
    def schedule_name(self) -> str:
        """Always ``"table"``: the sheet posts no Mexican Stud schedule."""
        return "table"

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seats: int) -> MexicanOptions:
        values = dict(section)
        if "seats_in" in values and isinstance(values["seats_in"], list):
            values["seats_in"] = tuple(values["seats_in"])
        return cls(seats=seats, **values)


def _jackpot_pays(raw: Any) -> dict[str, dict[str, int]]:
    """A posted jackpot, checked: each key a hand of the Hand Ranking, each value one amount in
    cents (``amount``, at least a cent) or one share of the pool in whole percent (``share``, 1 to
    100)."""
    if not isinstance(raw, Mapping) or not raw:
        raise OptionError("jackpot_pays", "the posted jackpot is a table of hands, e.g. [game.jackpot_pays] "
                                          "\"five of a kind\" = {share = 100}, \"four of a kind\" = {amount = 10000}")
    out: dict[str, dict[str, int]] = {}
    for hand, pays in raw.items():
        if hand not in JACKPOT_HANDS:
            raise OptionError("jackpot_pays", f"{hand!r} is not a hand of the Hand Ranking: one of "
                                              f"{', '.join(JACKPOT_HANDS)}")
        if not isinstance(pays, Mapping) or len(pays) != 1 or not set(pays) <= {"amount", "share"}:
            raise OptionError("jackpot_pays", f"{hand}: give one of amount (cents) or share (percent of the "
                                              "jackpot)")
        (key, value), = pays.items()
        whole_number(f"jackpot_pays.{hand}.{key}", value)
        if (key == "amount" and value < 1) or (key == "share" and not 1 <= value <= 100):
            raise OptionError("jackpot_pays", f"{hand}: an amount is a cent or more, a share 1 to 100 percent, "
                                              f"not {key} {value}")
        out[hand] = {key: value}
    return out
