"""The draw of Draw Poker & Low-Ball, counted card by card, and the sheet's rule when the stub runs
short (california-card-room-games.txt, "DRAW POKER & LOW-BALL").

No device reads a card at this table, so the controller cannot see the stub; it counts it. The deck
is 53 cards (rule 3), proved by the shuffler's count before every hand; five go to each player
(rules 1 & 2); irregularities on the deal may take more (games.draw.irregularities); "Before
dealing the draw, the top card from the deck must be discarded ('burned')". What is left is the
stub the draw is dealt from. The players still in declare their draws (the dealer enters them,
``cmd/draw``), and "the draw is begun" left of the button ("Players may draw up to five cards";
"Players must discard before receiving cards on the draw").

TOO FEW CARDS FOR THE DRAW: "The dealer may not deal the last card from the stub of the deck. When
he reaches the last card, he will combine it with all the discards except those of the players
who have not yet completed their draws. The dealer will shuffle this new stub. The dealer will
cut, and burn one card, and complete the draw." :func:`plan_draw` works out, from the draws
entered, whether that happens, for which seat, how many cards that seat gets before and after, and
how big the new stub is; :func:`describe` says it to the dealer.

The count: every card of the deck is in the stub, in a hand, or out of play (the discards, the
burn, the folded and dead hands, dead cards). When the dealer reaches the last card, the new stub
is every card but those in the hands and the discards of the seat still drawing: ``deck - held -
pending``. A seat that has not drawn yet still holds its five (or has put down its discards, which
stay out too: the same five either way).

Choices where the sheet is silent (tested in tests/games/test_draw_stub.py):
1. **"All the discards"** are everything out of play: the players' discards, the burn card(s),
   the folded hands and dead cards. Only the discards of the seat still drawing stay out (the
   seats after it have not discarded, or keep theirs apart).
2. **A second short stub**: the rule is applied again (the last card of the new stub and the
   discards of the seats that completed their draws since).
3. **A dead card on the draw** (boxed, exposed, off the table: "replaced from the top of the deck
   after all the players have received their cards") is counted in its seat's draw, first: the seat
   gets one card fewer then, and one more after everybody has drawn. The replacements come in the
   order of the draw, and are no seat's "draw" for the stub rule: all discards join then.
4. **Not even so**: if the new stub cannot give one card without its last, the plan stops
   (``complete`` False) and the prompt sends the dealer to the floorperson; with 53 cards and eight
   seats it does not happen.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from games.poker.positions import left_of

HAND = 5
"""Five cards constitute a playing hand."""
MAX_DRAW = 5
"""'Players may draw up to five cards.'"""


@dataclass(frozen=True)
class Give:
    """The dealer gives ``seat`` ``cards`` cards off the stub. ``rest``: the rest of a draw a new
    stub completes; ``replacement``: a dead card replaced after everybody has drawn."""

    seat: int
    cards: int
    of: int
    """The seat's whole draw (or 1 for a replacement)."""
    rest: bool = False
    replacement: bool = False


@dataclass(frozen=True)
class Reshuffle:
    """The dealer has reached the last card: the last card and the discards of ``joined`` (and
    everything else out of play, choice 1) are shuffled into a new stub of ``cards`` cards, cut,
    one burned.
    ``waiting``: the seats whose discards stay out (not yet completed their draws)."""

    joined: tuple[int, ...]
    waiting: tuple[int, ...]
    cards: int
    first: bool = True
    """The first new stub of the draw; a later one takes only what was discarded since (choice 2)."""


@dataclass(frozen=True)
class DrawPlan:
    stub: int
    """Cards in the stub when the draw begins (the burn already off)."""
    order: tuple[tuple[int, int], ...]
    """(seat, cards drawn) in the order of the draw."""
    steps: tuple[Give | Reshuffle, ...]
    dead: int = 0
    """Dead cards in the draws, each replaced after everybody has drawn."""
    complete: bool = True

    @property
    def needed(self) -> int:
        """The cards the draw takes off the stub: every card drawn, and a replacement per dead card."""
        return sum(k for _, k in self.order) + self.dead

    @property
    def reshuffles(self) -> int:
        return sum(isinstance(s, Reshuffle) for s in self.steps)


class DrawError(ValueError):
    """Draws the rules refuse (the message says why)."""


def draw_order(table: int, button: int, draws: Collection[int]) -> list[int]:
    """The seats drawing, in the order of the draw: clockwise from the left of the button (the
    deal's order, DealPlan ``start``)."""
    return left_of(button, set(draws), table)


def plan_draw(deck: int, stub: int, order: Sequence[tuple[int, int]],
              dead: Mapping[int, int] | None = None) -> DrawPlan:
    """The draw of ``order`` ((seat, cards), in order) from a stub of ``stub`` cards, the deck
    being ``deck`` cards; ``dead``: seat -> dead cards in its draw (choice 3)."""
    dead = {s: n for s, n in (dead or {}).items() if n}
    stray = sorted(set(dead) - {s for s, _ in order})
    if stray:
        raise DrawError(f"seat {stray[0]} does not draw: no card of the draw can be dead in its draw")
    for seat, k in order:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_DRAW:
            raise DrawError(f"seat {seat} draws 0 to {MAX_DRAW} cards, not {k!r}")
        if not 0 <= dead.get(seat, 0) <= k:
            raise DrawError(f"seat {seat} draws {k}: it cannot have {dead[seat]} dead cards in its draw")
    if stub < 1:
        raise DrawError(f"the stub holds {stub} cards: no draw can be dealt")
    queue: list[tuple[int, int, int, bool]] = [(s, k, dead.get(s, 0), False) for s, k in order]
    queue += [(s, 1, 0, True) for s, _ in order for _ in range(dead.get(s, 0))]
    held = HAND * len(order)   # cards in the hands of the seats drawing
    left = stub
    done: list[int] = []
    joined: list[int] = []   # seats whose discards went into a new stub already
    steps: list[Give | Reshuffle] = []
    later = [s for s, _ in order]
    for seat, k, d, replacement in queue:
        if not replacement:
            later.remove(seat)
            held -= k                          # "Players must discard before receiving cards"
        pending = 0 if replacement else k      # its discards stay out until it completes
        need, got, split = k, 0, False
        while need:
            usable = left - 1                  # "The dealer may not deal the last card"
            give = min(need, usable)
            if give > 0:
                steps.append(Give(seat, give, k, rest=split, replacement=replacement))
                left -= give
                got += give
                need -= give
            if not need:
                break
            into_hand = got if replacement else max(got - d, 0)
            new = deck - held - into_hand - pending
            waiting = () if replacement else (seat, *later)
            steps.append(Reshuffle(tuple(s for s in done if s not in joined), waiting, new, first=not joined))
            joined.extend(s for s in done if s not in joined)
            left, split = new - 1, True        # "cut, and burn one card"
            if left <= 1:
                return DrawPlan(stub, tuple(order), tuple(steps), sum(dead.values()), complete=False)
        held += 1 if replacement else k - d
        if not replacement and k and seat not in done:
            done.append(seat)
    return DrawPlan(stub, tuple(order), tuple(steps), sum(dead.values()))


def _draw_word(k: int) -> str:
    return "stands pat" if k == 0 else f"draws {k}"


def describe(plan: DrawPlan) -> str:
    """The draw as the dealer's prompt says it, with the sheet's procedure when the stub runs short."""
    draws = ", ".join(f"seat {s} {_draw_word(k)}" for s, k in plan.order)
    text = f"Deal the draw, from the left of the button: {draws}."
    replacements = [g for g in plan.steps if isinstance(g, Give) and g.replacement]
    if not plan.reshuffles and plan.complete:
        text += f" The stub holds {plan.stub} cards: enough for the {plan.needed} to deal (the last card is never dealt)."
        if replacements:
            text += " " + _replacements(replacements)
        return text
    text += (f" TOO FEW CARDS FOR THE DRAW: the stub holds {plan.stub} cards for {plan.needed} to deal, and the dealer "
             "may not deal its last card.")
    part: list[str] = []
    for step in plan.steps:
        if isinstance(step, Give):
            part.append(_give(step))
            continue
        if part:
            text += f" Deal {_and(part)}."
            part = []
        seats = f"seat{'s' if len(step.joined) > 1 else ''} {_seats(step.joined)}"
        if step.first:
            pool = "all the discards (the burn, the folded hands, the dead cards" + \
                   (f" and the discards of {seats})" if step.joined else ")")
        else:
            pool = "what was discarded since the last shuffle (its burn" + \
                   (f" and the discards of {seats})" if step.joined else ")")
        many = len(step.waiting) > 1
        waiting = (f", but not the discards of seat{'s' if many else ''} {_seats(step.waiting)} "
                   f"(not yet completed {'their draws' if many else 'its draw'})") if step.waiting else ""
        text += (f" At the last card, combine it with {pool}{waiting}; shuffle this new stub ({step.cards} cards), "
                 "cut, burn one card and complete the draw.")
    if part:
        text += f" Deal {_and(part)}."
    if not plan.complete:
        text += " Even the new stub is too short to complete the draw: call the floorperson."
    return text


def _give(g: Give) -> str:
    if g.replacement:
        return f"seat {g.seat} 1 more for its dead card (after everybody has drawn)"
    if g.rest:
        return f"seat {g.seat} its last {g.cards}" if g.cards < g.of else f"seat {g.seat} {g.cards}"
    if g.cards < g.of:
        return f"seat {g.seat} {g.cards} of its {g.of}"
    return f"seat {g.seat} {g.cards}"


def _replacements(gives: Sequence[Give]) -> str:
    return "Replace each dead card from the top of the deck: " + _and([_give(g) for g in gives]) + "."


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats))


__all__ = ["HAND", "MAX_DRAW", "DrawError", "DrawPlan", "Give", "Reshuffle", "describe", "draw_order", "plan_draw"]
