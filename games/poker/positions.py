"""The dealer button, the blinds and who acts first in the poker-room games; Panguingue's deal to
the right (california-card-room-games.txt). Pure functions of seat numbers: the round machine
keeps the state (the :class:`Positions` of the last hand) and passes it back in.

Seats are numbered 1..N clockwise, as everywhere in this project (games.round.rotation), so a
player's **left** is the next higher seat number (wrapping from N to 1) and his **right** the next
lower one. The sheet: "The dealer button moves one place to the left after each hand is completed,
so that everyone at the table is required to make the blind bet" (Draw Poker & Low-Ball, BLINDS);
Mexican Poker: "The cards are dealt clockwise, beginning to the left of the dealer button. the
dealer button rotates clockwise after each hand"; Panguingue, THE DEAL: "The rotation of dealing
and playing is to the right".

From the sheet:
- **The blinds** sit to the left of the button, smallest first: Draw & Low-Ball's three, "The
  blinds are 2-3-5" (rules 1 & 2); the Hold'em games' two (small, big: the sheet names no
  Hold'em blinds, so the common two). The number of blinds is ``blinds`` (2 or 3, or more).
- **The first hand** (Draw & Low-Ball rule 5): "the dealer shall turn up a card to each player. The
  player who shows the 'high' card starts with a 2.00 blind": :func:`opening_positions` with
  ``first_blind``. A Hold'em table gives the high card the button instead (``button``).
- **First to act**: "Before the draw, the first player to act is the player to the left of the
  blind; after the draw, it is the player to the left of the dealer" (BLINDS); "After the draw
  ... First to act is the player closest to the left of the dealer button" (Basics of Lo-Ball).
  So before the draw (pre-flop) the first live seat after the big blind, after it (the flop and
  on) the first live seat after the button: :func:`first_to_act`. "Basics of Draw Poker" says
  instead that after the draw players act "starting with the 'opener'": ``after_draw="opener"``
  (the default is the rule the sheet states twice, in BLINDS and in rule 8).
- **New and returning players** (BLINDS): "A new player having paid his 'time collection' is
  automatically dealt a hand, if he is not in the middle of the blinds. A new player may not sit
  down in the middle of the blinds. He must wait until the button passes or kill the pot." "If a
  player leaves the table for any reason and the blinds pass his position, he may resume his play
  when the 'big blind' comes up to him again, or he may kill the pot." :func:`deal_in`; killing
  the pot is the table's ``posting`` (the seat pays to come in now).
- **Panguingue** (THE DEAL): "Starting with the previous winner, the dealer gives each player a
  total of ten cards, dealt in two rounds of five at a time", to the right; THE DRAW: "the draw is
  begun by the winner of the previous hand (or if the previous winner has declared not to play
  the hand, then the first player to his right draws first)", and "the first player has the right
  to draw twice from the deck, but only on the first draw": :func:`pan_deal_order`,
  :func:`pan_draw_order`.

Choices where the sheet is silent (each tested in tests/games/test_poker_positions.py):
1. **Empty seats: the dead button** (``rule="dead"``, the default, as most card rooms play it):
   the big blind always moves forward to the next seat in, each smaller blind takes the place of
   the next bigger one, and the button the place of the first blind, even where that seat is now
   empty (a dead button) or its player gone (that blind is dead: not posted). So nobody escapes
   the big blind and nobody pays it twice in a row, which is the sheet's purpose ("so that
   everyone at the table is required to make the blind bet"). ``rule="moving"``: the button
   moves to the next seat in and the blinds follow it, never dead; a player may then miss a big
   blind when a seat empties.
2. **Short-handed** (no more players than blinds, so heads-up in Hold'em): the big blind moves on
   as in 1; the blinds are then taken back from the big blind to the right, one per player, and
   the player with the smallest blind also has the button: heads-up, the button posts the small
   blind, acts first before the flop and last after it (both fall out of the first-to-act rule
   above). Blinds left over are not posted (heads-up Draw: the 3 and the 5, no 2). The same
   layout is used where rule 1 would put two positions on one seat.
3. **Who acts first** skips seats that are no longer live (folded or all-in: the round's list).
4. **Panguingue's first hand** has no previous winner: the table names the seat to start; a
   previous winner who has left the table is replaced by the first seat in to his right.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Literal

ButtonRule = Literal["dead", "moving"]
BUTTON_RULES: tuple[str, ...] = ("dead", "moving")
Round = Literal["first", "later"]
Waiting = Literal["new", "missed"]

PAN_CARDS = 10
PAN_ROUND = 5
"""Panguingue, THE DEAL: "a total of ten cards, dealt in two rounds of five at a time"."""


@dataclass(frozen=True)
class Positions:
    """The button and the blinds of one hand.

    ``spots`` is the seat where each blind falls, smallest first (None: a blind no seat takes,
    short-handed); ``blinds`` who posts it (None: not posted -- a dead blind, or short-handed).
    ``button`` is the button's seat; ``dead_button`` when nobody plays it."""

    button: int
    spots: tuple[int | None, ...]
    blinds: tuple[int | None, ...]
    dead_button: bool = False

    @property
    def big_blind(self) -> int:
        bb = self.blinds[-1]
        assert bb is not None
        return bb

    @property
    def small_blind(self) -> int | None:
        return self.blinds[0]


def left_of(seat: int, seats: Collection[int], table: int) -> list[int]:
    """The seats of ``seats`` clockwise from the left of ``seat`` (which need not be in), round
    the table of ``table`` seats; ``seat`` itself last if it is in."""
    return [s for i in range(1, table + 1) if (s := (seat - 1 + i) % table + 1) in seats]


def right_of(seat: int, seats: Collection[int], table: int) -> list[int]:
    """The seats of ``seats`` counterclockwise from the right of ``seat``; ``seat`` itself last."""
    return [s for i in range(1, table + 1) if (s := (seat - 1 - i) % table + 1) in seats]


def opening_positions(table: int, seats_in: Collection[int], *, button: int | None = None,
                      first_blind: int | None = None, blinds: int = 2) -> Positions:
    """The first hand's positions: give ``first_blind`` (Draw & Low-Ball rule 5: the high card
    "starts with a 2.00 blind") or ``button`` (a high card for the button)."""
    seats = _check(table, seats_in, blinds)
    if (button is None) == (first_blind is None):
        raise ValueError("give the first hand's button or its first blind, one of them")
    start = button if button is not None else first_blind
    if start not in seats:
        raise ValueError(f"seat {start} is not in: the seats in are {sorted(seats)}")
    ahead = left_of(start, seats, table)   # start is last
    if button is not None:
        big = ahead[0] if len(seats) <= blinds else ahead[blinds - 1]
    else:
        # Rule 5: the high card posts the smallest blind posted, the next seats the others in turn,
        # short-handed too (three players, three blinds: 2.00, 3.00, 5.00 from the high card).
        posted = min(blinds, len(seats))
        big = ahead[posted - 2] if posted >= 2 else start
    return _layout(table, seats, big, blinds)


def next_positions(table: int, seats_in: Collection[int], previous: Positions, *,
                   rule: ButtonRule = "dead") -> Positions:
    """The next hand's positions after ``previous``, among ``seats_in`` (every seat with a player
    who may be dealt in, waiting players too: :func:`deal_in` says who is dealt)."""
    k = len(previous.blinds)
    seats = _check(table, seats_in, k)
    if rule not in BUTTON_RULES:
        raise ValueError(f"rule: one of {', '.join(BUTTON_RULES)}, not {rule!r}")
    if rule == "moving":
        button = left_of(previous.button, seats, table)[0]
        ahead = left_of(button, seats, table)
        return _layout(table, seats, ahead[0] if len(seats) <= k else ahead[k - 1], k)
    big = left_of(previous.blinds[-1] if previous.blinds[-1] is not None else previous.button, seats, table)[0]
    if len(seats) <= k or any(s is None for s in previous.spots):
        return _layout(table, seats, big, k)
    spots = (*previous.spots[1:], big)
    button = previous.spots[0]
    assert button is not None
    if len({button, *spots}) != k + 1:   # choice 2: two positions on one seat
        return _layout(table, seats, big, k)
    return Positions(button, spots, tuple(s if s in seats else None for s in spots), button not in seats)


def first_to_act(table: int, positions: Positions, live: Collection[int], round_: Round, *,
                 after_draw: Literal["left_of_button", "opener"] = "left_of_button",
                 opener: int | None = None) -> int:
    """Who acts first: on the ``"first"`` round (before the flop or the draw) the first live seat
    to the left of the big blind; on ``"later"`` rounds the first live seat to the left of the
    button (Draw & Low-Ball BLINDS; Basics of Lo-Ball). ``after_draw="opener"``: after the draw
    the ``opener`` acts first ("Basics of Draw Poker"), if still live."""
    if not live:
        raise ValueError("no live seat to act")
    if round_ == "first":
        return left_of(positions.big_blind, live, table)[0]
    if round_ != "later":
        raise ValueError(f"round: 'first' or 'later', not {round_!r}")
    if after_draw == "opener" and opener in live:
        return opener
    return left_of(positions.button, live, table)[0]


def deal_in(table: int, seats_in: Collection[int], positions: Positions,
            waiting: Mapping[int, Waiting] | None = None,
            posting: Collection[int] = ()) -> tuple[frozenset[int], tuple[int | None, ...]]:
    """Who is dealt this hand, and who posts each blind (Draw & Low-Ball, BLINDS).

    ``waiting`` marks a ``"new"`` player (dealt unless he sits in the middle of the blinds: left
    of the button and right of the big blind) and a ``"missed"`` one, whose position the blinds
    passed (dealt when the big blind comes up to him). ``posting``: waiting seats that pay to come
    in now (the sheet's "kill the pot"). A blind whose seat is not dealt is not posted."""
    waiting = dict(waiting or {})
    middle = set()
    for s in left_of(positions.button, range(1, table + 1), table):
        if s == positions.blinds[-1] or s == positions.spots[-1]:
            break
        middle.add(s)
    dealt = set()
    for s in seats_in:
        why = waiting.get(s)
        if (why is None or s in posting or s == positions.big_blind
                or (why == "new" and s not in middle)):
            dealt.add(s)
        elif why not in ("new", "missed"):
            raise ValueError(f"waiting: seat {s} is 'new' or 'missed', not {why!r}")
    return frozenset(dealt), tuple(b if b in dealt else None for b in positions.blinds)


def pan_deal_order(table: int, seats_in: Collection[int], previous_winner: int) -> list[tuple[int, int]]:
    """Panguingue's deal (THE DEAL; rule 5): to the right, starting with the previous winner,
    five cards at a time, two rounds: ``[(seat, 5), ...]``, each seat twice. A previous winner who
    has left is replaced by the first seat in to his right (choice 4)."""
    seats = _seats(table, seats_in)
    if len(seats) < 2:
        raise ValueError("Panguingue is dealt to two players or more")
    first = previous_winner if previous_winner in seats else right_of(previous_winner, seats, table)[0]
    order = [first, *right_of(first, seats, table)[:-1]]
    return [(s, PAN_ROUND) for _ in range(PAN_CARDS // PAN_ROUND) for s in order]


def pan_draw_order(table: int, playing: Collection[int], previous_winner: int) -> list[int]:
    """Panguingue's draw rotation (THE DRAW): from the previous winner, or if he does not play, the
    first player to his right; then to the right. The first seat of the list draws twice on the
    first draw of the hand, and only then."""
    seats = _seats(table, playing)
    if not seats:
        raise ValueError("nobody plays the hand")
    first = previous_winner if previous_winner in seats else right_of(previous_winner, seats, table)[0]
    return [first, *right_of(first, seats, table)[:-1]]


def _layout(table: int, seats: set[int], big: int, k: int) -> Positions:
    """The blinds taken back from the big blind to the right, one per seat; the button on the seat
    before the first blind, or short-handed on the seat of the smallest blind posted (choice 2)."""
    back = [big, *right_of(big, seats, table)[:-1]]
    spots: list[int | None] = [None] * k
    for j in range(min(k, len(back))):
        spots[k - 1 - j] = back[j]
    button = back[k] if len(back) > k else back[-1]
    return Positions(button, tuple(spots), tuple(spots), False)


def _seats(table: int, seats_in: Collection[int]) -> set[int]:
    if isinstance(table, bool) or not isinstance(table, int) or table < 2:
        raise ValueError(f"table: a table has 2 seats or more, not {table!r}")
    seats = set(seats_in)
    bad = [s for s in seats if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= table]
    if bad:
        raise ValueError(f"seats: {bad[0]!r} is not a seat of a {table}-seat table")
    return seats


def _check(table: int, seats_in: Collection[int], blinds: int) -> set[int]:
    seats = _seats(table, seats_in)
    if len(seats) < 2:
        raise ValueError(f"a hand needs two players or more, not {len(seats)}")
    if blinds < 1:
        raise ValueError(f"blinds: one or more, not {blinds}")
    return seats


__all__ = ["BUTTON_RULES", "PAN_CARDS", "PAN_ROUND", "Positions", "deal_in", "first_to_act", "left_of",
           "next_positions", "opening_positions", "pan_deal_order", "pan_draw_order", "right_of"]
