"""Panguingue's rules as the controller carries them out (california-card-room-games.txt,
"PANGUINGUE (also called PAN)" rules 1-9 and "PAN RULES": THE DECK, ANTES, THE DEAL, DECLARING,
THE DRAW, PAY CONDITIONS, FOUL HANDS AND CARDS), as pure functions over games.poker (the deal to
the right and the draw rotation: games.poker.positions; the fee and the ante by condition:
games.poker.economics).

No device reads a card, and Pan is no showdown game: the controller never learns a card. What it
carries out is what the table tells it -- who sits in, each seat's declaration, a count of a
seat's cards, the winner -- and what the sheet makes of it:

- **The deal** (THE DEAL; rule 5): "Starting with the previous winner, the dealer gives each
  player a total of ten cards, dealt in two rounds of five at a time", to the right (the next
  lower seat number: :func:`deal_order`).
- **Declaring** (DECLARING): "each player declares whether he is playing or not. A knock in turn
  means you will play. A player may change his declaration to play until the next player has
  acted." Not playing, "he forfeits his ante only". In turn from the first seat dealt
  (:func:`next_declarer`, :func:`may_change_to_play`).
- **A count of a seat's cards** (FOUL HANDS AND CARDS 7 and 3; :func:`count_ruling`). Rule 7,
  before the player takes action (touches the deck): "Eight or less and twelve or more cards is
  a dead hand. The ante will be returned." "Eleven cards will be corrected by the dealer. The
  hand will be spread face down on the table and the dealer will select one card at random."
  "Should the player discover eleven cards before plucking up his second five cards, the dealer
  may remove one card from them." Rule 3, after: "A hand may be declared foul ... whenever:
  Player is found to have more or less than ten cards after touching the deck in the normal
  rotation of the draw"; the penalty is rule 1's (the hand to the discards, collections repaid,
  liable for pay, no bust-out) and the ante stays in the Tops.
- **The draw** (THE DRAW): begun by the previous winner, "or if the previous winner has declared
  not to play the hand, then the first player to his right draws first"; "the first player has
  the right to draw twice from the deck, but only on the first draw of the hand" (:func:`draw_order`).
- **The winner** (rule 6; OBJECT OF THE GAME; rule 9 "There are no ties in this game"): one
  seat, a player of the hand who declared to play and whose hand is neither dead nor foul
  (:func:`winner_refusal`). The antes on the block, "the Tops", are his (ANTES, PAY CONDITIONS);
  a dead hand's ante is returned (rule 7), a thrown-in or fouled hand's is not.
- **The fee and the ante** by condition (rules 1, 2, 5): games.poker.economics (:func:`collection`).

Not checked, because the sheet does not give the controller what it would need: the pay
conditions ("see illustration of pay conditions posted": the illustration is not in the sheet)
and the melds (no device sees them). The controller publishes who won and the Tops; the dealer
calls the value of the hand ("The dealer will call the outs as the hand lays").

Choices where the sheet is silent (each tested in tests/games/test_panguingue_rules.py or _round.py;
docs/panguingue.md lists them all):
1. **Nine cards** before touching the deck (rule 7 names eight or less and eleven, not nine):
   ``nine_cards = "corrected"`` (the default) -- the dealer gives the hand one card from the top of
   the deck, as he takes one from an eleventh (the sheet's "eight or less" is dead, so nine is
   not); ``"dead"`` treats it as a short hand, dead, the ante returned.
2. **Declarations go in dealing order**, from the first seat dealt (the previous winner) to the
   right: "A knock in turn"; the sheet names no first declarer.
3. **The last seat left** -- every other live seat has thrown in -- is offered only ``play``: he
   takes the Tops without play (nobody is left to pay him a condition, nor to draw against). A
   hand in which one seat plays is won by that seat at once; in which none plays (every live hand
   thrown in or dead), by nobody: the result says so, and the next deal starts where this one did.
4. **The last declarer's change of mind**: a seat may change to ``play`` until the next player has
   declared; the last declarer's declaration ends the declarations (the controller does not see
   "the first card ... drawn from the deck and exposed").
5. **A dead or fouled hand stays so**: no later count of that seat is taken. A seat that threw
   its hand in is not counted ("they may not participate").
6. **The fee is not returned** with a dead hand's ante: rule 7 returns "the ante", and rule 1
   collects the fee "before the hand is dealt".
7. **A hand with no winner entered** (the two last players split the Tops, or the pit will rule)
   ends with ``winner`` null and the next deal starts where this one did: the controller cannot
   know the winner it was not told.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.poker import positions as pos
from games.poker.economics import Economics, hand_collection

Status = Literal["alive", "corrected", "dead", "foul"]
Declared = Literal["play", "throw_in"]
NINE_CARDS: tuple[str, ...] = ("corrected", "dead")
HAND = 10
"""Rule 6: "You are dealt 10 cards"."""
MAX_COUNT = 99
"""A count above this is no count of a Pan hand: refused as an entry error."""

RULE_7 = "FOUL HANDS AND CARDS 7"
RULE_3 = "FOUL HANDS AND CARDS 3"


class EntryError(ValueError):
    """A count or a winner the rules refuse, with the reason."""


@dataclass(frozen=True)
class Ruling:
    """What a count of a seat's cards makes of its hand: ``status``, why (``reason``, quoting the
    rule), the ``rule`` and what the dealer does (``action``); ``ante_returned`` for a dead hand
    (rule 7: "The ante will be returned")."""

    status: Status
    reason: str
    rule: str
    action: str
    ante_returned: bool = False

    @property
    def out(self) -> bool:
        """The hand is out of play for good (dead or foul)."""
        return self.status in ("dead", "foul")


def deal_order(table: int, players: Collection[int], start: int) -> list[int]:
    """The seats in the order they are dealt (each round of five): from ``start`` (the previous
    winner; if he is not in, the first seat in to his right) to the right (THE DEAL)."""
    return [s for s, _ in pos.pan_deal_order(table, players, start)[:len(set(players))]]


def draw_order(table: int, playing: Collection[int], start: int) -> list[int]:
    """Who draws, in turn (THE DRAW): the previous winner ``start`` if he plays, else the first
    player to his right; the first of the list draws twice on the first draw only."""
    return pos.pan_draw_order(table, playing, start)


def count_ruling(cards: Any, *, touched_deck: bool, before_second_five: bool = False,
                 nine_cards: str = "corrected") -> Ruling:
    """The sheet's ruling on a seat found with ``cards`` cards (see the module's docstring):
    before touching the deck rule 7 (and choice 1 for nine), after it rule 3. ``before_second_five``:
    the player found eleven "before plucking up his second five cards"."""
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= MAX_COUNT:
        raise EntryError(f"cards is the number of cards the seat holds, a whole number 0 to {MAX_COUNT}")
    if nine_cards not in NINE_CARDS:
        raise ValueError(f"nine_cards: one of {', '.join(NINE_CARDS)}, not {nine_cards!r}")
    if touched_deck:
        if cards == HAND:
            return Ruling("alive", "ten cards after touching the deck: the hand plays on", RULE_3,
                          "none: the count is right")
        return Ruling("foul", f"{cards} cards after touching the deck: 'more or less than ten cards after "
                              "touching the deck in the normal rotation of the draw' (rule 3) is a foul hand",
                      RULE_3, "the hand goes to the discards; the player repays the collections he received "
                              "and is liable for pay earned during the rest of the hand; he pays no bust-out "
                              "(rule 1); his ante stays in the Tops")
    if cards == HAND:
        return Ruling("alive", "ten cards before touching the deck: the hand plays", RULE_7,
                      "none: the count is right")
    if cards <= 8 or cards >= 12:
        return Ruling("dead", f"{cards} cards before touching the deck: 'Eight or less and twelve or more "
                              "cards is a dead hand' (rule 7)", RULE_7,
                      "the hand goes to the discards; return the seat's ante (rule 7)", ante_returned=True)
    if cards == 11:
        how = ("remove one card from the second five, before he plucks them up (rule 7)" if before_second_five
               else "spread the hand face down on the table and take one card at random (rule 7)")
        return Ruling("corrected", "eleven cards before touching the deck: 'Eleven cards will be corrected by "
                                   "the dealer' (rule 7)", RULE_7, how)
    # Nine: choice 1.
    if nine_cards == "dead":
        return Ruling("dead", "nine cards before touching the deck: a short hand is dead at this table "
                              "(game.nine_cards = \"dead\"; rule 7 names eight or less)", RULE_7,
                      "the hand goes to the discards; return the seat's ante", ante_returned=True)
    return Ruling("corrected", "nine cards before touching the deck: corrected by the dealer (rule 7 makes "
                               "eight or less dead and corrects eleven; game.nine_cards = \"corrected\")",
                  RULE_7, "give the hand one card face down from the top of the deck")


def next_declarer(order: Sequence[int], declared: Mapping[int, str], out: Collection[int]
                  ) -> tuple[int, tuple[str, ...]] | None:
    """Who declares next, and what he may press, or None when every live seat has declared.
    ``order``: the seats in dealing order; ``declared``: seat -> ``play``/``throw_in``; ``out``:
    dead or fouled seats (they do not declare). The last live seat when every other has thrown in
    may only play (choice 3)."""
    live = [s for s in order if s not in out]
    for seat in live:
        if seat not in declared:
            others = [s for s in live if s != seat]
            if others and all(declared.get(s) == "throw_in" for s in others):
                return seat, ("play",)
            return seat, ("play", "throw_in")
    return None


def may_change_to_play(seat: int, order: Sequence[int], declared: Mapping[int, str], out: Collection[int]) -> bool:
    """DECLARING: "A player may change his declaration to play until the next player has acted":
    ``seat`` threw in and the next live seat after it has not declared yet (choice 4: never the
    last declarer, whose declaration ends the declarations)."""
    if declared.get(seat) != "throw_in":
        return False
    live = [s for s in order if s not in out]
    after = live[live.index(seat) + 1:] if seat in live else []
    return bool(after) and after[0] not in declared


def playing(order: Sequence[int], declared: Mapping[int, str], out: Collection[int]) -> list[int]:
    """The seats in action: declared to play, hand neither dead nor foul, in dealing order."""
    return [s for s in order if declared.get(s) == "play" and s not in out]


def winner_refusal(seat: Any, players: Collection[int], declared: Mapping[int, str],
                   statuses: Mapping[int, str]) -> str | None:
    """Why ``seat`` cannot be entered as the winner, or None (see the module's docstring)."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return "seat is the winner's seat number"
    if seat not in players:
        return (f"seat {seat} is not in this hand: the players are "
                f"{', '.join(map(str, sorted(players)))}")
    status = statuses.get(seat)
    if status in ("dead", "foul"):
        return f"seat {seat}'s hand is {status}: it cannot win"
    if declared.get(seat) == "throw_in":
        return f"seat {seat} threw its hand in: it cannot win"
    if declared.get(seat) != "play":
        return f"seat {seat} has not declared to play"
    return None


def collection(economics: Economics, players: int, schedule: str) -> dict[str, Any]:
    """The house's fee and each player's ante, in cents (rules 1, 2, 5), for the ``action_button``
    and ``result`` events."""
    return {**hand_collection(economics, players), "schedule": schedule}


def settle(players: Sequence[int], *, statuses: Mapping[int, str], declared: Mapping[int, str],
           counts: Mapping[int, int], returned: Collection[int], winner: int | None, start: int, how: str,
           ante_each: int) -> dict[str, Any]:
    """The hand's outcome as the ``result`` publishes it: the winner (or None), the Tops (every
    ante but those returned to dead hands, cents), the seats whose ante is returned, the seat the
    next deal starts with, why, and each seat's hand (status, declaration, last count). ``how``:
    how the winner was found (``entered``, ``last_seat``) or why there is none
    (``none_playing``, ``not_entered``)."""
    back = sorted(s for s in returned if s in players)
    tops = ante_each * (len(players) - len(back))
    if winner is not None:
        why = {"entered": f"seat {winner} went out: the winner as entered; the Tops are his",
               "last_seat": f"seat {winner} is the only player left in action: the Tops are his without play"}[how]
        nxt = winner
    else:
        why = {"none_playing": "no hand is left in action (every live hand thrown in or dead): no winner",
               "not_entered": "no winner was entered"}[how] + f"; the next deal starts again with seat {start}"
        nxt = start
    return {"winner": winner, "how": how, "why": why, "tops": tops, "antes_returned": back, "next_start": nxt,
            "hands": [{"seat": s, "status": statuses.get(s, "alive"), "declared": declared.get(s),
                       "cards": counts.get(s)} for s in players]}


__all__ = ["HAND", "MAX_COUNT", "NINE_CARDS", "EntryError", "Ruling", "collection", "count_ruling", "deal_order",
           "draw_order", "may_change_to_play", "next_declarer", "playing", "settle", "winner_refusal"]
