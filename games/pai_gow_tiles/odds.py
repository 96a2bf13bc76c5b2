"""Pai Gow Tiles' odds, for `tablectl odds`: what can be counted of a game whose tiles no device
reads and whose players set their own hands (california-card-room-games.txt, "Pai Gow Tiles").

- **The dice, exactly.** The player-dealer shakes three dice (216 equally likely throws); "The count
  begins with the banker and proceeds counter-clockwise", the banker counting 1, 9 and 17 of the
  eight positions; the position reached gets the first four tiles, and the action button -- "but
  the Action button will go to the first player to the right (counter-clockwise) of the banker"
  when the count ends on the banker. Each position's chance of either, as fractions of 216
  (:func:`placement_odds`, from games.pai_gow_tiles.rules.placement itself).
- **The bet, both hands set the house way.** Players set their own hands (or ask for the house
  way), so no single figure is the game's; when the player and the player-dealer both set the
  house way (games.pai_gow_tiles.hands.house_way), every deal of the 32 tiles is counted exactly by
  tools/odds/pai_gow_house_way.py, offline (numpy; about a minute), and the counts ship as
  games/pai_gow_tiles/data/house_way_odds.json, printed with their provenance. The house banks
  nothing and takes a fixed fee: the edge is the player-dealer's over each bet it covers.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

from games.odds import GameOdds, OutcomeClasses, OutcomeOdds, WagerOdds, dice_totals
from games.pai_gow_tiles.rules import DICE, POSITIONS, placement

DATA = Path(__file__).resolve().parent / "data" / "house_way_odds.json"
BANKER = 1
"""Positions are counted from the banker's, which is 1 (and 9, 17)."""


def totals() -> Counter:
    """Three dice: how many of the 216 throws make each total."""
    return Counter(sum(t) for t in product(range(1, 7), repeat=DICE))


def count_of(seat: int, banker: int = BANKER, positions: int = POSITIONS) -> int:
    """A seat's place in the count from the banker, counterclockwise: the banker 1, the first
    position to its right 2, ... (seats are numbered clockwise)."""
    return (banker - seat) % positions + 1


def placement_odds() -> dict[str, dict[int, Fraction]]:
    """``{"first_tiles": {count: chance}, "action": {...}}``: each position, by its place in the
    count from the banker (1), and its exact chance of the first tiles and of the action button."""
    ways = totals()
    first: Counter = Counter()
    action: Counter = Counter()
    for total, n in ways.items():
        p = placement(total, BANKER)
        first[count_of(p.first_tiles)] += n
        action[count_of(p.action)] += n
    size = sum(ways.values())
    return {"first_tiles": {pos: Fraction(first[pos], size) for pos in range(1, POSITIONS + 1)},
            "action": {pos: Fraction(action[pos], size) for pos in range(1, POSITIONS + 1)}}


@cache
def house_way_data() -> dict[str, Any]:
    return json.loads(DATA.read_text())


def house_way_bet(gee_joon_wild: bool = True) -> WagerOdds:
    """The player's bet against the player-dealer, both hands set the house way: exact counts of
    every deal (offline, with provenance)."""
    data = house_way_data()
    found = next(r for r in data["results"] if r["gee_joon_wild"] == gee_joon_wild)
    c, n = found["counts"], found["deals"]
    outcomes = (OutcomeOdds("win (both hands higher)", Fraction(c["win"], n), Fraction(1)),
                OutcomeOdds("push (one hand higher)", Fraction(c["push"], n), Fraction(0)),
                OutcomeOdds("lose (neither higher: copies and zeros to the player-dealer)", Fraction(c["lose"], n),
                            Fraction(-1)))
    wild = "a Gee Joon tile 3 or 6" if gee_joon_wild else "a Gee Joon tile its spots"
    return WagerOdds(f"bet, both set the house way ({wild})", outcomes,
                     note=f"the player-dealer's edge; counted by {data['script']} on {data['computed']}, "
                          f"{n:,} deals, {found['seconds']} s, no seed (exact)")


def odds(paytable: str | None = None, decks: int | None = None) -> GameOdds:
    if paytable not in (None, "sheet"):
        raise ValueError("--paytable: Pai Gow Tiles pays even money (Rules of Play); name 'sheet' or leave it out")
    if decks not in (None, 1):
        raise ValueError("--decks: Pai Gow Tiles is played with one set of 32 tiles, not cards")
    where = placement_odds()

    def line(what: str, chances: dict[int, Fraction]) -> str:
        return f"{what}: " + ", ".join(f"{pos} {chances[pos].numerator}/{chances[pos].denominator}"
                                       if chances[pos] else f"{pos} never" for pos in chances)
    notes = (
        "the dice (three, 216 throws): each position by its place in the count, counterclockwise from the banker "
        "(1: the banker, who counts 1, 9 and 17; 2: the first position to its right; ...)",
        line("  the first four tiles go to position", where["first_tiles"]),
        line("  the action button goes to position", where["action"]),
        "the house banks no bet and takes a fixed fee; the edge below is the player-dealer's over each bet it "
        "covers, when both hands are set the house way (players may set their own)",
    )
    return GameOdds("pai_gow_tiles", "even money (Rules of Play)", 1,
                    (house_way_bet(True), house_way_bet(False)), notes=notes)


__all__ = ["count_of", "house_way_bet", "odds", "placement_odds", "totals"]


def outcome_classes(options: object) -> OutcomeClasses:
    """What the table's outcome monitor counts (issue 25): the total of the round's throw of
    three dice (rules.DICE), exact (games.odds.dice_totals)."""
    return dice_totals(DICE)
