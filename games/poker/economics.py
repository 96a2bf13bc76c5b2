"""The house's take in the poker-room games: the posted fee schedules and the jackpot collection
of california-card-room-games.txt, as data, and what a hand owes under them.

Amounts are integer **cents** throughout (the sheet's $4.00 is 400): no float ever holds money.

What the sheet posts (each schedule below is :data:`POSTED`, keyed by name; every row is tested in
tests/games/test_poker_economics.py):

- "TEXAS HOLD-EM $4.00 - $8.00 LIMIT FEE COLLECTION" (``holdem_4_8``): 9-8-7 players $4.00, 6-5
  players $3.00, 4 or less $1.00; JACKPOT $1.00; "MUST HAVE 5 PLAYERS FOR 'JackPot'", "4 OR LESS
  PLAYERS DOES NOT QUALIFY FOR JACKPOT AND JACKPOT COLLECTION WILL NOT BE TAKEN".
- "TEXAS HOLD-EM $3.00 - $6.00 LIMIT" (``holdem_3_6``): 9-8-7 $3.00, 6-5 $2.00, 4 or less $1.00;
  jackpot $1.00 from 5 players.
- "OMAHA HI-LO SPLIT (8 OR BETTER FOR LOW) $4.00 - $8.00 LIMIT" (``omaha_hi_lo_4_8``): 9-8-7 $4.00,
  6-5 $3.00, 4 or less $1.00; jackpot $1.00 from 5 players.
- "7 CARD STUD (with 1/2 kill) $4.00 - $8.00 LIMIT" (``stud_4_8``): 8-7-6 $4.00, 5 $3.00, 4 or
  less $2.00; "THERE IS NO JACKPOT IN THIS GAME".
- "7 CARD STUD HI - LO (WITH 1/2 KILL) $4.00 - $8.00 LIMIT" (``stud_hi_lo_4_8``): "$6.00 PER 1/2
  HOUR PER PERSON"; no jackpot.
- "DRAW POKER & LOW-BALL", rules 1 & 2 (``draw_lowball``): "The fee of 5.00 is collected every
  1/2 hr."
- "PANGUINGUE", rules 1 and 2 (``panguingue``): "The fee is based on the condition of the game.
  The fee is collected before the hand is dealt"; condition 2.00: fee 2.00, ante 2.00; condition
  5.00: fee 3.00, ante 5.00; condition 10.00: fee 4.00, ante 5.00.

So a schedule has one of four bases:
- ``"pot"``: a collection taken from each hand's pot by the number of players in the hand, plus
  the jackpot collection (Hold'em, Omaha Hi-Lo, 7 Card Stud);
- ``"player"``: a collection each player places before the deal, the same amount each, plus the
  jackpot collection from the pot (MEXICAN POKER: "To receive a hand, each player places a
  collection in front of him in the table's playing area"; the sheet posts no amount, so only a
  table's own schedule has this basis);
- ``"time"``: a time collection per person per period, nothing per hand (Draw and Low-Ball,
  Stud Hi-Lo);
- ``"condition"``: a fee and an ante per player per hand by the game's condition (Panguingue).

Choices where the sheet is silent (each tested):
1. **Per hand or per player.** A ``"pot"`` collection is one amount per hand, taken from the pot
   (the schedules are by "players", not "per person", and only the Stud Hi-Lo schedule says "PER
   PERSON"). A ``"time"`` fee is per person per period ("PER PERSON"; Draw's "A new player having
   paid his 'time collection'"). Panguingue's fee and ante are per player: "Each player antes one
   chip" (rule 5), and the fee goes with the ante by condition (rule 1).
2. **Players** means players dealt into the hand. A hand has two players at least; the top row
   goes on upward (a tenth Hold'em player pays the 9-8-7 row; a ninth Stud player the 8-7-6 row).
3. **A small pot.** Where the pot is given, the collection never exceeds it: the fee comes first,
   the jackpot from what is left (the sheet posts no pot-size rule; a hand whose pot cannot pay
   the schedule pays what it holds). Without the pot, the posted amounts are returned as they are.
4. **Games without a posted schedule.** Hold'em Hi/Lo, Pineapple and Crazy Pineapple (high and
   high-low) may take either Hold'em schedule ("The basic play of Texas hold'em prevails in all
   varied games"); Omaha (high) the Omaha Hi-Lo one; Razz the 7 Card Stud one ("The rules for
   7-Card Razz are exactly the same as 7-Card Stud"). Hold'em's two schedules are by limit, so a
   Hold'em-family table must name one. Mexican Stud's sheet says "each player places a
   collection" but posts no amount: its table must give its own schedule. Any table may give its
   own schedule in place of the posted one.
   A ``"player"`` schedule's jackpot is by the players of the hand as on the posted boards, from
   :attr:`FeeSchedule.jackpot_min_players` (5 unless the table says otherwise), and comes from the
   pot; the players' collections are placed apart from the pot, so a small pot limits only the
   jackpot.
5. **The half kill** ("with 1/2 kill") changes the betting limits of a killed pot, not the posted
   fee: the fee does not change in a killed pot.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from games.options import OptionError

Basis = Literal["pot", "player", "time", "condition"]
BASES: tuple[str, ...] = ("pot", "player", "time", "condition")

JACKPOT_MIN_PLAYERS = 5
"""'MUST HAVE 5 PLAYERS FOR "JackPot"' (the Hold'em and Omaha Hi-Lo schedules)."""

MIN_PLAYERS = 2
"""A hand is played by two players at least (choice 2)."""

GAMES: tuple[str, ...] = (
    "draw", "lowball", "mexican_stud", "holdem", "holdem_hi_lo", "pineapple", "pineapple_hi_lo",
    "crazy_pineapple", "crazy_pineapple_hi_lo", "omaha", "omaha_hi_lo", "stud", "stud_hi_lo", "razz",
    "panguingue",
)
"""The poker-room games of the sheet, by the names of :data:`games.poker.showdown.GAMES`, and
Panguingue."""


@dataclass(frozen=True)
class Band:
    """A row of a ``"pot"`` schedule: ``fee`` cents for ``low`` to ``high`` players (``high`` None:
    and more)."""

    low: int
    high: int | None
    fee: int

    def holds(self, players: int) -> bool:
        return self.low <= players and (self.high is None or players <= self.high)


@dataclass(frozen=True)
class Condition:
    """A row of Panguingue's schedule (rules 1, 2): the condition (the stake), and the fee and the
    ante each player pays on it, all in cents."""

    condition: int
    fee: int
    ante: int


@dataclass(frozen=True)
class FeeSchedule:
    """One posted (or table-given) fee schedule. Only the fields of its ``basis`` are used."""

    basis: Basis
    bands: tuple[Band, ...] = ()
    jackpot: int = 0
    jackpot_min_players: int = JACKPOT_MIN_PLAYERS
    fee_each: int = 0
    """A ``"player"`` schedule's collection from each player, per hand."""
    time_fee: int = 0
    period_minutes: int = 30
    conditions: tuple[Condition, ...] = ()
    source: str = ""
    """Where the sheet posts it."""

    def band(self, players: int) -> Band:
        for b in self.bands:
            if b.holds(players):
                return b
        raise ValueError(f"players: no row of the fee schedule holds {players} players")


def _pot(bands: tuple[tuple[int, int | None, int], ...], jackpot: int, source: str) -> FeeSchedule:
    return FeeSchedule("pot", tuple(Band(*b) for b in bands), jackpot=jackpot, source=source)


POSTED: dict[str, FeeSchedule] = {
    # "TEXAS HOLD-EM $4.00 - $8.00 LIMIT FEE COLLECTION"
    "holdem_4_8": _pot(((7, None, 400), (5, 6, 300), (2, 4, 100)), 100,
                       "TEXAS HOLD-EM $4.00 - $8.00 LIMIT FEE COLLECTION"),
    # "TEXAS HOLD-EM $3.00 - $6.00 LIMIT FEE COLLECTION"
    "holdem_3_6": _pot(((7, None, 300), (5, 6, 200), (2, 4, 100)), 100,
                       "TEXAS HOLD-EM $3.00 - $6.00 LIMIT FEE COLLECTION"),
    # "OMAHA HI-LO SPLIT (8 OR BETTER FOR LOW) $4.00 - $8.00 LIMIT FEE COLLECTION"
    "omaha_hi_lo_4_8": _pot(((7, None, 400), (5, 6, 300), (2, 4, 100)), 100,
                            "OMAHA HI-LO SPLIT $4.00 - $8.00 LIMIT FEE COLLECTION"),
    # "7 CARD STUD (with 1/2 kill) $4.00 - $8.00 LIMIT FEE COLLECTION": "THERE IS NO JACKPOT"
    "stud_4_8": _pot(((6, None, 400), (5, 5, 300), (2, 4, 200)), 0,
                     "7 CARD STUD (with 1/2 kill) $4.00 - $8.00 LIMIT FEE COLLECTION"),
    # "7 CARD STUD HI - LO (WITH 1/2 KILL) $4.00 - $8.00 LIMIT FEE COLLECTION $6.00 PER 1/2 HOUR PER PERSON"
    "stud_hi_lo_4_8": FeeSchedule("time", time_fee=600, period_minutes=30,
                                  source="7 CARD STUD HI - LO $4.00 - $8.00 LIMIT FEE COLLECTION"),
    # "DRAW POKER & LOW-BALL" rules 1 & 2: "The fee of 5.00 is collected every 1/2 hr."
    "draw_lowball": FeeSchedule("time", time_fee=500, period_minutes=30,
                                source="DRAW POKER & LOW-BALL rules 1 & 2"),
    # "PANGUINGUE" rules 1, 2
    "panguingue": FeeSchedule("condition", conditions=(Condition(200, 200, 200), Condition(500, 300, 500),
                                                       Condition(1000, 400, 500)),
                              source="PANGUINGUE rules 1, 2"),
}
"""Every fee schedule the sheet posts, in cents."""

ALLOWED: dict[str, tuple[str, ...]] = {
    "draw": ("draw_lowball",),
    "lowball": ("draw_lowball",),
    "mexican_stud": (),
    "holdem": ("holdem_4_8", "holdem_3_6"),
    "holdem_hi_lo": ("holdem_4_8", "holdem_3_6"),
    "pineapple": ("holdem_4_8", "holdem_3_6"),
    "pineapple_hi_lo": ("holdem_4_8", "holdem_3_6"),
    "crazy_pineapple": ("holdem_4_8", "holdem_3_6"),
    "crazy_pineapple_hi_lo": ("holdem_4_8", "holdem_3_6"),
    "omaha": ("omaha_hi_lo_4_8",),
    "omaha_hi_lo": ("omaha_hi_lo_4_8",),
    "stud": ("stud_4_8",),
    "stud_hi_lo": ("stud_hi_lo_4_8",),
    "razz": ("stud_4_8",),
    "panguingue": ("panguingue",),
}
"""The posted schedules a game may name (choice 4). Where a game has exactly one, it is the
default; Hold'em's family must name a limit; Mexican Stud must give its own."""


@dataclass(frozen=True)
class Economics:
    """A table's fee options: the game, its schedule, and (Panguingue) the condition it plays.

    Built by :meth:`from_mapping` from a table config's section, e.g. ``{"game": "holdem",
    "schedule": "holdem_4_8"}``, ``{"game": "panguingue", "condition": 500}``, or with a schedule
    of the table's own: ``{"game": "mexican_stud", "schedule": {"basis": "pot", "bands": [{"low":
    2, "fee": 100}], "jackpot": 0}}``. A bad value raises :class:`~games.options.OptionError` (a
    ValueError) naming its key."""

    game: str
    schedule: FeeSchedule
    condition: int | None = None

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise OptionError("game", f"unknown poker-room game {self.game!r}: one of {', '.join(GAMES)}")
        if self.schedule.basis == "condition":
            known = [c.condition for c in self.schedule.conditions]
            if self.condition not in known:
                raise OptionError("condition", f"the conditions playable are {_money_list(known)} "
                                               f"(Panguingue rule 2), not {self.condition!r}")

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any]) -> Economics:
        if not isinstance(section, Mapping):
            raise OptionError("economics", f"must be a table of keys, not {section!r}")
        unknown = set(section) - {"game", "schedule", "condition"}
        if unknown:
            raise OptionError(sorted(unknown)[0], "unknown key: the keys are game, schedule, condition")
        game = section.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise OptionError("game", f"unknown poker-room game {game!r}: one of {', '.join(GAMES)}")
        raw = section.get("schedule")
        if raw is None:
            allowed = ALLOWED[game]
            if len(allowed) != 1:
                why = ("the sheet posts no fee for Mexican Stud: give the table's schedule" if not allowed
                       else f"the sheet posts {len(allowed)} schedules for {game}: name one of {', '.join(allowed)}")
                raise OptionError("schedule", why)
            schedule = POSTED[allowed[0]]
        elif isinstance(raw, str):
            if raw not in POSTED:
                raise OptionError("schedule", f"no posted schedule {raw!r}: one of {', '.join(POSTED)}")
            if raw not in ALLOWED[game]:
                raise OptionError("schedule", f"{raw!r} is not posted for {game}: "
                                              f"{', '.join(ALLOWED[game]) or 'give the table schedule'}")
            schedule = POSTED[raw]
        else:
            schedule = schedule_from_mapping(raw)
        condition = section.get("condition")
        if condition is not None:
            condition = _cents("condition", condition)
        if schedule.basis != "condition" and condition is not None:
            raise OptionError("condition", f"only a Panguingue schedule has a condition, not {schedule.basis!r}")
        return cls(game, schedule, condition)


def schedule_from_mapping(raw: Any) -> FeeSchedule:
    """A table's own schedule: ``{"basis": "pot", "bands": [{"low": 7, "fee": 400}, {"low": 5,
    "high": 6, "fee": 300}, {"low": 2, "high": 4, "fee": 100}], "jackpot": 100,
    "jackpot_min_players": 5}``; ``{"basis": "time", "time_fee": 500, "period_minutes": 30}``;
    ``{"basis": "condition", "conditions": [{"condition": 200, "fee": 200, "ante": 200}]}``;
    ``{"basis": "player", "fee_each": 100, "jackpot": 100, "jackpot_min_players": 5}``.
    Amounts in cents, whole numbers only; the bands must hold every count of players from 2 up,
    each in one band only."""
    if not isinstance(raw, Mapping):
        raise OptionError("schedule", f"a posted schedule's name or a table of keys, not {raw!r}")
    basis = raw.get("basis")
    if basis not in BASES:
        raise OptionError("schedule.basis", f"must be one of {', '.join(BASES)}, not {basis!r}")
    keys = {"pot": {"bands", "jackpot", "jackpot_min_players"}, "time": {"time_fee", "period_minutes"},
            "condition": {"conditions"}, "player": {"fee_each", "jackpot", "jackpot_min_players"}}[basis]
    unknown = set(raw) - keys - {"basis", "source"}
    if unknown:
        raise OptionError(f"schedule.{sorted(unknown)[0]}",
                          f"unknown key for a {basis!r} schedule: the keys are {', '.join(sorted(keys))}")
    if basis == "time":
        fee = _cents("schedule.time_fee", raw.get("time_fee"))
        period = _count("schedule.period_minutes", raw.get("period_minutes", 30), least=1)
        return FeeSchedule("time", time_fee=fee, period_minutes=period)
    if basis == "player":
        if "fee_each" not in raw:
            raise OptionError("schedule.fee_each", "a 'player' schedule names the collection each player places, "
                                                   "in cents")
        return FeeSchedule("player", fee_each=_cents("schedule.fee_each", raw["fee_each"]),
                           jackpot=_cents("schedule.jackpot", raw.get("jackpot", 0)),
                           jackpot_min_players=_count("schedule.jackpot_min_players",
                                                      raw.get("jackpot_min_players", JACKPOT_MIN_PLAYERS),
                                                      least=MIN_PLAYERS))
    if basis == "condition":
        rows = raw.get("conditions")
        if not isinstance(rows, list) or not rows:
            raise OptionError("schedule.conditions", f"must be a non-empty list, not {rows!r}")
        conditions = []
        for i, row in enumerate(rows):
            where = f"schedule.conditions[{i}]"
            if not isinstance(row, Mapping) or set(row) != {"condition", "fee", "ante"}:
                raise OptionError(where, f"must have exactly condition, fee and ante, not {row!r}")
            conditions.append(Condition(_cents(f"{where}.condition", row["condition"]),
                                        _cents(f"{where}.fee", row["fee"]), _cents(f"{where}.ante", row["ante"])))
        if len({c.condition for c in conditions}) != len(conditions):
            raise OptionError("schedule.conditions", "a condition is listed twice")
        return FeeSchedule("condition", conditions=tuple(conditions))
    rows = raw.get("bands")
    if not isinstance(rows, list) or not rows:
        raise OptionError("schedule.bands", f"must be a non-empty list, not {rows!r}")
    bands = []
    for i, row in enumerate(rows):
        where = f"schedule.bands[{i}]"
        if not isinstance(row, Mapping) or not {"low", "fee"} <= set(row) <= {"low", "high", "fee"}:
            raise OptionError(where, f"must have low, fee and optionally high, not {row!r}")
        lo = _count(f"{where}.low", row["low"], least=MIN_PLAYERS)
        hi = row.get("high")
        if hi is not None:
            hi = _count(f"{where}.high", hi, least=lo)
        bands.append(Band(lo, hi, _cents(f"{where}.fee", row["fee"])))
    ordered = sorted(bands, key=lambda b: b.low)
    expect = MIN_PLAYERS
    for b in ordered:
        if b.low != expect:
            raise OptionError("schedule.bands", f"the bands must hold each count of players from {MIN_PLAYERS} "
                                                f"up once: {expect} players is {'held twice' if b.low < expect else 'in no band'}")
        if b.high is None:
            expect = -1
            break
        expect = b.high + 1
    if expect != -1:
        raise OptionError("schedule.bands", f"the top band must have no high (and more players): "
                                            f"{expect} players is in no band")
    if ordered[-1].high is not None or sum(b.high is None for b in ordered) != 1:
        raise OptionError("schedule.bands", "exactly one band, the top one, has no high")
    jackpot = _cents("schedule.jackpot", raw.get("jackpot", 0))
    least = _count("schedule.jackpot_min_players", raw.get("jackpot_min_players", JACKPOT_MIN_PLAYERS),
                   least=MIN_PLAYERS)
    return FeeSchedule("pot", tuple(bands), jackpot=jackpot, jackpot_min_players=least)


def hand_collection(economics: Economics, players: int, *, pot: int | None = None) -> dict[str, Any]:
    """What the house takes on one hand of ``players`` players: ``{"players": n, "fee": cents,
    "jackpot": cents, "basis": ...}`` for a published event. ``fee`` and ``jackpot`` are the totals
    of this hand, in cents.

    - ``"pot"``: the row for ``players`` and, from :attr:`FeeSchedule.jackpot_min_players` players
      (5 on the sheet), the jackpot collection; below it none ("4 OR LESS PLAYERS DOES NOT QUALIFY
      FOR JACKPOT AND JACKPOT COLLECTION WILL NOT BE TAKEN"). With ``pot`` (cents), never more
      than the pot: fee first, then the jackpot (choice 3).
    - ``"player"``: ``fee_each`` from each player (``fee`` the hand's total) and the jackpot as
      ``"pot"`` takes it; with ``pot``, only the jackpot is limited by it (choice 4).
    - ``"time"``: nothing per hand (fee and jackpot 0); ``time_fee_each`` and ``period_minutes``
      say what each person pays per period (Draw & Low-Ball 1 & 2; Stud Hi-Lo's "PER 1/2 HOUR
      PER PERSON").
    - ``"condition"``: the fee and the ante each player pays before the deal (Panguingue 1, 2,
      5): ``fee_each``, ``ante_each``, and the totals ``fee`` and ``ante``; no jackpot.
    """
    players = _players(players)
    schedule = economics.schedule
    if pot is not None:
        pot = _cents("pot", pot)
    out: dict[str, Any] = {"players": players, "fee": 0, "jackpot": 0, "basis": schedule.basis}
    if schedule.basis == "pot":
        fee = schedule.band(players).fee
        jackpot = schedule.jackpot if players >= schedule.jackpot_min_players else 0
        if pot is not None:
            fee = min(fee, pot)
            jackpot = min(jackpot, pot - fee)
        out.update(fee=fee, jackpot=jackpot)
    elif schedule.basis == "player":
        jackpot = schedule.jackpot if players >= schedule.jackpot_min_players else 0
        if pot is not None:
            jackpot = min(jackpot, pot)
        out.update(fee=schedule.fee_each * players, jackpot=jackpot, fee_each=schedule.fee_each)
    elif schedule.basis == "time":
        out.update(time_fee_each=schedule.time_fee, period_minutes=schedule.period_minutes)
    else:
        row = next(c for c in schedule.conditions if c.condition == economics.condition)
        out.update(fee=row.fee * players, fee_each=row.fee, ante_each=row.ante, ante=row.ante * players,
                   condition=row.condition)
    return out


def time_collection(economics: Economics, persons: int) -> dict[str, Any]:
    """A ``"time"`` schedule's collection for one period from ``persons`` seated players:
    ``{"persons": n, "fee": cents, "period_minutes": m}`` (Draw & Low-Ball 1 & 2: "The fee of
    5.00 is collected every 1/2 hr."; Stud Hi-Lo: "$6.00 PER 1/2 HOUR PER PERSON")."""
    schedule = economics.schedule
    if schedule.basis != "time":
        raise ValueError(f"schedule: a {schedule.basis!r} schedule has no time collection")
    persons = _count("persons", persons, least=0)
    return {"persons": persons, "fee": schedule.time_fee * persons, "period_minutes": schedule.period_minutes}


def _players(value: Any) -> int:
    return _count("players", value, least=MIN_PLAYERS)


def _count(key: str, value: Any, *, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and math.isnan(value):
            raise OptionError(key, "must be a whole number, not NaN")
        raise OptionError(key, f"must be a whole number, not {value!r}")
    if value < least:
        raise OptionError(key, f"must be at least {least}, not {value}")
    return value


def _cents(key: str, value: Any) -> int:
    if isinstance(value, float) and math.isnan(value):
        raise OptionError(key, "an amount in cents, not NaN")
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(key, f"an amount is a whole number of cents, not {value!r}")
    if value < 0:
        raise OptionError(key, f"an amount may not be negative, not {value}")
    return value


def _money_list(cents: list[int]) -> str:
    return ", ".join(f"{c // 100}.{c % 100:02d}" for c in cents)


__all__ = ["ALLOWED", "BASES", "GAMES", "JACKPOT_MIN_PLAYERS", "POSTED", "Band", "Condition", "Economics",
           "FeeSchedule", "hand_collection", "schedule_from_mapping", "time_collection"]
