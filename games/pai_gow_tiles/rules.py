"""Pai Gow Tiles' rules as pure functions (california-card-room-games.txt, "Pai Gow Tiles"; the
sheet numbers no rules, so each is cited by its section and words).

- :func:`placement`: the player-dealer's shake of three dice places the action button and the
  first tiles (Rules of Play).
- :func:`read_hand`: a hand as a dispute enters it -- four tiles of the set, set high and low as
  the sheet allows, or set the house way -- with the reason when it is not.
- :func:`settle`: each disputed seat against the player-dealer: win, lose or push (Rules of
  Play, Scoring), a win paid even money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.dice import seat_for_total
from games.pai_gow_tiles.hands import Setting, arrangement_problem, compare, house_way, setting
from games.pai_gow_tiles.tiles import Tile, over_the_set, tile
from games.wagers import Pays, WagerResult

POSITIONS = 8
"""Rules of Play: "a standard Pai Gow poker table with a total of 8 seated positions"."""

DICE = 3
"""Rules of Play: "a dice cup with three die"."""

DIRECTION = "counterclockwise"
"""Rules of Play: the count "begins with the banker and proceeds counter-clockwise"; the deal
"Starting with the Action button and proceeding counterclockwise"; the position "offered ...
counterclockwise every two hands"."""

HAND = 4
"""Rules of Play: "deals four tiles to each player, and to the player/dealer"."""

EVEN_MONEY = Pays(1)
"""All bets are against the player/dealer, a win paid even money (the sheet prints no other
odds; the house takes a fixed collection fee, never a share of a win: Collection Fees)."""


@dataclass(frozen=True)
class Placement:
    """Where the shake puts the action button and the first tiles, and the order of the deal."""

    total: int
    banker: int
    reaches: int
    """The position the count reaches (the banker counts 1, 9 and 17)."""
    first_tiles: int
    action: int
    deal_order: tuple[int, ...]
    """Every position, from the one that receives the first tiles, counterclockwise."""

    def to_dict(self) -> dict[str, Any]:
        return {"reaches": self.reaches, "first_tiles_seat": self.first_tiles, "action_seat": self.action,
                "deal_order": list(self.deal_order)}


def placement(total: int, banker: int, positions: int = POSITIONS) -> Placement:
    """Rules of Play: "the total count of the dice designates placement of the Action button. The
    player/dealer position is always 9 and 17, no matter how many players are playing. The count
    begins with the banker and proceeds counter-clockwise. If the point total of the dice equal
    the player/dealer's position, the player/dealer will receive the first four tiles, but the
    Action button will go to the first player to the right (counter-clockwise) of the banker."

    Every position is counted, seated or not ("no matter how many players are playing"); the
    first player to the banker's right is the next position counterclockwise (the controller
    does not know which positions are empty: the dealer passes an empty one as at any deal).
    Raises :class:`ValueError` for a total three dice cannot make.
    """
    if isinstance(total, bool) or not isinstance(total, int) or not DICE <= total <= 6 * DICE:
        raise ValueError(f"three dice total 3 to 18, not {total!r}")
    seats = range(1, positions + 1)
    reaches = seat_for_total(total, banker, seats, DIRECTION)
    right_of_banker = seat_for_total(2, banker, seats, DIRECTION)
    action = right_of_banker if reaches == banker else reaches
    order = tuple(seat_for_total(k, reaches, seats, DIRECTION) for k in range(1, positions + 1))
    return Placement(total, banker, reaches, reaches, action, order)


# --- a hand as a dispute enters it ------------------------------------------------------------

SetBy = Literal["as_set", "house_way"]


@dataclass(frozen=True)
class EnteredHand:
    """A hand entered to settle a dispute: its setting, and whether the tiles were entered as set
    at the table or set here the house way."""

    tiles: tuple[Tile, ...]
    setting: Setting
    set_by: SetBy

    def to_dict(self) -> dict[str, Any]:
        return {**self.setting.to_dict(), "set_by": self.set_by}


class HandRefused(ValueError):
    """A hand the sheet does not allow, with the reason (a dispute's refusal names the hand)."""


def read_hand(entry: Mapping[str, Any], *, gee_joon_wild: bool = True) -> EnteredHand:
    """A dispute's hand: ``{"high": [2 codes], "low": [2 codes]}`` as set at the table, or
    ``{"tiles": [4 codes], "set": "house"}`` for a hand the player asked the house to set (Rules of
    Play: "Players may also ask the house dealer to set the tiles in a 'house' way"). Raises
    :class:`HandRefused` with what is wrong: a code that is no tile, not four tiles, a tile twice
    more than the set holds it, a low hand that outranks the high hand."""
    if not isinstance(entry, Mapping):
        raise HandRefused("a hand is {\"high\": [two tiles], \"low\": [two tiles]} or "
                          "{\"tiles\": [four tiles], \"set\": \"house\"}")
    if "tiles" in entry or "set" in entry:
        if entry.get("set") != "house" or "high" in entry or "low" in entry:
            raise HandRefused("four tiles to be set by the house come as {\"tiles\": [...], \"set\": \"house\"}; "
                              "a hand set at the table as {\"high\": [...], \"low\": [...]}")
        four = _tiles(entry.get("tiles"), "tiles")
        _four(four, f"{len(four)} tiles")
        _within_the_set(four)
        return EnteredHand(tuple(four), house_way(four, gee_joon_wild=gee_joon_wild), "house_way")
    if "high" not in entry or "low" not in entry:
        raise HandRefused("a hand set at the table names its high hand and its low hand: "
                          "{\"high\": [two tiles], \"low\": [two tiles]}")
    high, low = _tiles(entry["high"], "high"), _tiles(entry["low"], "low")
    _four(high + low, f"{len(high)} high and {len(low)} low")
    _within_the_set(high + low)
    why = arrangement_problem(high, low, gee_joon_wild=gee_joon_wild)
    if why is not None:
        raise HandRefused(why)
    return EnteredHand(tuple(high + low), setting(high, low, gee_joon_wild=gee_joon_wild), "as_set")


def _tiles(codes: Any, where: str) -> list[Tile]:
    if not isinstance(codes, list | tuple):
        raise HandRefused(f"{where}: a list of tiles such as [\"6-6\", \"4-5\"], not {type(codes).__name__}")
    found = []
    for i, code in enumerate(codes):
        try:
            found.append(tile(code))
        except ValueError:   # named by its place, never quoted: a refusal is published
            raise HandRefused(f"{where}[{i}] is not a tile: a tile is its two halves' spots, 1 to 6 each, as "
                              "\"6-6\" or \"1-2\"") from None
    return found


def _four(found: Sequence[Tile], said: str) -> None:
    if len(found) != HAND:
        raise HandRefused(f"a hand is four tiles (Rules of Play: \"four tiles to each player\"), set two high and "
                          f"two low; got {said}")


def _within_the_set(four: Sequence[Tile]) -> None:
    why = over_the_set([four])
    if why is not None:
        raise HandRefused(why)


# --- settling ----------------------------------------------------------------------------------

def settle_seat(player: Setting, banker: Setting) -> dict[str, Any]:
    """One seat against the player-dealer (Rules of Play; Scoring): who wins the high hand, who
    wins the low, and the wager's result -- a win both hands higher, a push one, a loss none
    (copies and two zeros to the player-dealer)."""
    c = compare(player, banker)
    outcome = c.outcome
    why = {"win": "both hands rank higher than the player-dealer's",
           "push": "one hand ranks higher: a tie or push",
           "lose": "neither hand ranks higher (a copy or two zeros go to the player-dealer)"}[outcome]
    wager = WagerResult("bet", outcome, EVEN_MONEY if outcome == "win" else None, f"{why} (Rules of Play)")
    return {"high": c.high, "low": c.low, **wager.to_dict()}


def settle(banker: EnteredHand, seats: Mapping[int, EnteredHand]) -> dict[str, dict[str, Any]]:
    """Every entered seat against the player-dealer's entered hand, by seat number (as text, the
    JSON key): its hand, who won high and low, and the wager's result."""
    return {str(seat): {"hand": entry.to_dict(), **settle_seat(entry.setting, banker.setting)}
            for seat, entry in sorted(seats.items())}
